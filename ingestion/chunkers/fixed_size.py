"""The ``fixed_size`` strategy: a window of ``chunk_size`` characters slides over each page, with ``chunk_overlap``
characters shared by neighbours.

A window end moves back to the last sentence end in the window's last 30 %, else to the last word end; the next
window starts at the first sentence start inside the overlap, else at a word start. A last window that is a stub
joins the one before when the result fits. :func:`fixed_size_spans` takes the pages and gives each page's spans.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from core.types import Block, Page
from ingestion.chunkers.spans import Span, drop_wordless, is_stub, skip_space, window_end
from ingestion.sentences import split_sentences


def fixed_size_spans(pages: Sequence[Page], size: int, overlap: int) -> list[list[Span]]:
    """Each page's windows of at most ``size`` characters, neighbours sharing up to ``min(overlap, size // 2)``."""
    return [_page_spans(page.text, size, overlap, page.blocks) for page in pages]


def _page_spans(text: str, size: int, overlap: int, blocks: Sequence[Block] = ()) -> list[Span]:
    """Sliding windows over one page, ends moved back to sentence ends and starts forward to sentence starts."""
    limit = len(text.rstrip())
    start = len(text) - len(text.lstrip())
    if start >= limit:
        return []
    sentences = split_sentences(text, blocks)
    # A heading is a sentence of its own; cutting right after one would strand it, so its end is no cut point.
    ends = sorted({s.end for s in sentences if not s.heading})
    starts = sorted({s.start for s in sentences})
    overlap = min(overlap, size // 2)
    spans: list[Span] = []
    while start < limit:
        end = min(start + size, limit)
        if end < limit:
            end = window_end(text, start, end, ends, size)
        spans.append((start, end))
        if end >= limit:
            break
        start = _window_start(text, max(end - overlap, start + 1), end, starts)
    return drop_wordless(_merge_small_tail(spans, text, size, blocks), text)


def _window_start(text: str, lo: int, end: int, starts: list[int]) -> int:
    """First sentence start in ``[lo, end)``, else first word start at or after ``lo``."""
    i = bisect.bisect_left(starts, lo)
    if i < len(starts) and starts[i] < end:
        return starts[i]
    pos = lo
    if pos > 0 and not text[pos - 1].isspace():  # inside a word: skip to its end
        while pos < end and not text[pos].isspace():
            pos += 1
    return skip_space(text, pos)


def _merge_small_tail(spans: list[Span], text: str, size: int, blocks: Sequence[Block] = ()) -> list[Span]:
    """Join a last window that is a stub to the one before when the result still fits."""
    if len(spans) > 1 and is_stub(text, *spans[-1], blocks) and spans[-1][1] - spans[-2][0] <= size:
        return spans[:-2] + [(spans[-2][0], spans[-1][1])]
    return spans
