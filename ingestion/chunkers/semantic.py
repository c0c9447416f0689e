"""The ``semantic`` strategy: cut a page where the meaning of its sentences shifts.

Each page is split into sentences (:mod:`ingestion.sentences`), every sentence of the document is embedded in one
call, and a page is cut where the drop in cosine similarity between neighbouring sentences is above the
``semantic_percentile`` percentile of all drops in the document. A heading always opens a chunk. A chunk over
``chunk_size`` is cut again at its largest drop; one under ``semantic_min_chars`` is joined to the neighbour it is
most similar to when the result fits. ``chunk_overlap`` is not used.

:func:`semantic_spans` takes the pages and an :data:`Embed` function and gives each page's spans.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.types import Block, Page
from ingestion.chunkers.spans import Span, drop_wordless, skip_space, window_end
from ingestion.sentences import Sentence, split_sentences

Embed = Callable[[list[str]], np.ndarray]
"""``embed(texts) -> (len(texts), dim)`` array of unit vectors."""

# Boundary scores beyond any real drop (real drops lie in [0, 2]): a heading always opens a segment, and a
# boundary right after a heading is cut only when nothing else can be.
_BEFORE_HEADING, _AFTER_HEADING = 3.0, -1.0


def semantic_spans(pages: Sequence[Page], embed: Embed, size: int, percentile: float,
                   min_chars: int) -> list[list[Span]]:
    """Each page's spans of at most ``size`` characters, cut where the similarity drop is above ``percentile``
    (0-100) of the document's drops; ``embed`` is called once, with every sentence of the document.

    Raises
    ------
    ValueError
        ``embed`` returned an array of the wrong shape.
    """
    units = [_units(page.text, size, page.blocks) for page in pages]
    texts = [u.text for page_units in units for u in page_units]
    if not texts:
        return [[] for _ in pages]
    vectors = np.asarray(embed(texts), dtype=np.float32)
    if vectors.ndim != 2 or len(vectors) != len(texts):
        raise ValueError(f"embed returned an array of shape {vectors.shape} for {len(texts)} sentences.")
    drops_by_page, offset = [], 0
    for page_units in units:
        v = vectors[offset:offset + len(page_units)]
        offset += len(page_units)
        drops_by_page.append(1.0 - np.einsum("ij,ij->i", v[:-1], v[1:]) if len(v) > 1 else np.zeros(0))
    all_drops = np.concatenate(drops_by_page)
    threshold = float(np.percentile(all_drops, percentile)) if len(all_drops) else np.inf
    return [
        drop_wordless(_segment_page(page_units, drops, threshold, size, min_chars), page.text)
        for page, page_units, drops in zip(pages, units, drops_by_page)
    ]


@dataclass
class _Unit:
    """A sentence, or a word-bounded piece of a sentence longer than the chunk size."""

    start: int
    end: int
    text: str
    heading: bool


def _units(text: str, size: int, blocks: Sequence[Block] = ()) -> list[_Unit]:
    """The page's sentences as units, each one longer than ``size`` cut into word-bounded pieces."""
    units = []
    for s in split_sentences(text, blocks):
        if s.end - s.start <= size:
            units.append(_Unit(s.start, s.end, s.text, s.heading))
            continue
        for a, b in _word_windows(text, s, size):
            units.append(_Unit(a, b, " ".join(text[a:b].split()), s.heading))
    return units


def _word_windows(text: str, sentence: Sentence, size: int) -> list[Span]:
    """Cut an over-long sentence into pieces of at most ``size`` characters at word ends."""
    spans, start = [], sentence.start
    while start < sentence.end:
        end = min(start + size, sentence.end)
        if end < sentence.end:
            end = window_end(text, start, end, [], size)
        spans.append((start, end))
        start = skip_space(text, end)  # a hard cut inside a very long token continues right where it stopped
    return spans


def _segment_page(units: list[_Unit], drops: np.ndarray, threshold: float, size: int,
                  min_chars: int) -> list[Span]:
    """Group one page's sentences into spans: cut at high drops, split what is too long, join what is too short."""
    if not units:
        return []
    # score[i] belongs to the boundary between unit i and unit i + 1.
    score = [float(d) for d in drops]
    for i in range(len(score)):
        if units[i].heading and not units[i + 1].heading:
            score[i] = _AFTER_HEADING
        elif units[i + 1].heading and not units[i].heading:
            score[i] = _BEFORE_HEADING
        elif units[i].heading and units[i + 1].heading:
            score[i] = _AFTER_HEADING  # consecutive heading lines ("# Title", "## Part") stay together
    cuts = [i for i, s in enumerate(score) if s > threshold or s == _BEFORE_HEADING]
    segments, first = [], 0  # segments as (first unit, last unit), inclusive
    for i in cuts:
        segments.append((first, i))
        first = i + 1
    segments.append((first, len(units) - 1))

    def length(seg: tuple[int, int]) -> int:
        return units[seg[1]].end - units[seg[0]].start

    def split(seg: tuple[int, int]) -> list[tuple[int, int]]:
        if length(seg) <= size or seg[0] == seg[1]:
            return [seg]
        i = max(range(seg[0], seg[1]), key=lambda b: score[b])  # the largest drop inside it
        return split((seg[0], i)) + split((i + 1, seg[1]))

    segments = [piece for seg in segments for piece in split(seg)]
    segments = _join_short(segments, score, length, size, min_chars)
    return [(units[a].start, units[b].end) for a, b in segments]


def _join_short(segments: list[tuple[int, int]], score: list[float], length: Callable[[tuple[int, int]], int],
                size: int, min_chars: int) -> list[tuple[int, int]]:
    """Join each segment shorter than ``min_chars`` to the neighbour it is most similar to, if the result fits."""
    segments = list(segments)
    while True:
        options = []  # (boundary score, index of the left segment of the pair)
        for k, seg in enumerate(segments):
            if length(seg) >= min_chars:
                continue
            for left in (k - 1, k):
                if 0 <= left < len(segments) - 1:
                    pair = (segments[left][0], segments[left + 1][1])
                    # Text before a heading never joins that heading's section.
                    if length(pair) <= size and score[segments[left][1]] != _BEFORE_HEADING:
                        options.append((score[segments[left][1]], left))
        if not options:
            return segments
        _, left = min(options)  # the most similar pair first, so a short piece joins the text it belongs with
        segments[left:left + 2] = [(segments[left][0], segments[left + 1][1])]
