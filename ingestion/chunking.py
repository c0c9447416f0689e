"""Split pages into passages for indexing, with one of three strategies.

Strategies
----------
``fixed_size``
    A window of ``chunk_size`` characters slides over each page with ``chunk_overlap`` characters shared by
    neighbours. A window end moves back to the last sentence end in the window's last 30 %, else to the last word
    end; the next window starts at the first sentence start inside the overlap, else at a word start.
``recursive_char``
    langchain-text-splitters with Markdown-aware separators plus a sentence separator, so a chunk prefers to end
    at a heading, a paragraph, a line, then a sentence. Stubs (a heading alone, fewer than three words) are joined
    to their neighbour.
``semantic``
    Each page is split into sentences (:mod:`ingestion.sentences`), every sentence of the document is embedded in
    one call, and a page is cut where the drop in cosine similarity between neighbouring sentences is above the
    ``semantic_percentile`` percentile of all drops in the document. A heading always opens a chunk. A chunk over
    ``chunk_size`` is cut again at its largest drop; one under ``semantic_min_chars`` is joined to the neighbour it
    is most similar to when the result fits. ``chunk_overlap`` is not used.

Size bound
----------
The part of a chunk on its own page, ``end - start``, is at most ``chunk_size`` characters for ``fixed_size`` and
``semantic``. For ``recursive_char`` it is at most ``chunk_size`` plus the length of a stub joined to it (a heading
line, or fewer than three words, and the whitespace before the next piece). A chunk extended across a page break
(below) adds one joining character and at most ``max(chunk_size // 2, 300)`` characters of the next page.

Sentences across a page break
-----------------------------
Passages are cut page by page, so a sentence that starts on page 3 and ends on page 4 would otherwise be found in
no single chunk. When a page's text ends inside a sentence (its last character is not ``.``, ``!`` or ``?``, and it
does not end with a heading or a table row) and the next page's text starts with a continuation (a lower-case
letter, a digit, or punctuation such as ``,`` ``;`` ``)``), the last chunk of the page is extended with the next
page's text up to and including the end of that sentence:

* ``text == page.text[start:end] + joiner + next_page.text.lstrip()[:continuation_chars]``, where ``joiner`` is a
  space, or nothing when a word is hyphenated across the break. ``start``/``end`` still describe the part on
  ``page``, so offsets stay checkable; :attr:`Chunk.on_page_text` and :attr:`Chunk.continuation` return the parts.
* A word hyphenated across the break ("experi-" / "mental") is joined without its hyphen, unless the document
  writes the hyphenated word elsewhere ("well-known"); the dropped hyphen then lies just past ``end``.
* ``page_end`` is the next page's number, so a citation can name both pages.
* The continuation is not taken when the sentence runs on for more than ``max(chunk_size // 2, 300)`` characters,
  or stops at a paragraph break without ``.``, ``!``, ``?`` or ``:``: such a "sentence" is nearly always a
  figure's labels, a table or an equation printed at the top of the next page, not prose.

The next page's own chunks still hold the continuation too; those few characters are indexed twice, which costs
little and keeps every page's chunks covering its whole text.

Why this shape: the chunk keeps one page to cite first (where the sentence starts) and exact offsets into it, so
highlighting and offset checks work as for any other chunk, while ``page_end`` lets a citation name both pages.
A separate "bridge" chunk per page break would index more text twice and have no single page of its own; joining
the pages before chunking would make offsets refer to no page at all.

Ids are ``<doc_id>-<tag>-p<page>-c<n>`` with ``tag`` one of ``fs``, ``rc``, ``se``, so one document chunked two
ways never produces the same id twice, and chunking the same pages again gives the same ids.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields

import numpy as np
from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from ingestion.blocks import Block, clip
from ingestion.document import Page
from ingestion.repair import hyphenated_vocabulary
from ingestion.sentences import Sentence, split_sentences

STRATEGIES = ("fixed_size", "recursive_char", "semantic")
STRATEGY_TAGS = {"fixed_size": "fs", "recursive_char": "rc", "semantic": "se"}

Embed = Callable[[list[str]], np.ndarray]
Span = tuple[int, int]  # start, end offsets into one page's text

_WORD = re.compile(r"\w+")
# Marks where a heading starts in the copy of a page the recursive splitter cuts (see _recursive_spans): the
# character before the heading, a line break, is replaced by it. Python counts it as whitespace, so the splitter
# strips it from the pieces.
_HEADING_MARK = "\x1d"
_FIXED_SENTENCE_ZONE = 0.3  # a fixed window end moves back to a sentence end found in this last share of it
_CLOSERS = "\"'”’)]}*_"  # may follow a full stop: 'end." ', 'end.)'
_CONTINUES_PUNCT = ",;:)]}%–—…"  # a page starting with one of these carries on the previous clause
# The longest continuation taken is max(chunk_size // 2, this): half a chunk, but never so little that an ordinary
# long sentence of a report (250-300 characters after the break) is refused at small chunk sizes.
_MIN_CONTINUATION = 300
_NOT_PROSE = frozenset({"heading", "table_header", "table_row", "toc", "code"})


@dataclass
class Chunk:
    """One indexed passage.

    ``text`` is the passage exactly as shown to the user; ``prefix`` only steers the embedding.

    Attributes
    ----------
    chunk_id : ``<doc_id>-<strategy tag>-p<page>-c<n>``.
    page : 1-based page the passage starts on (and is cited by).
    start, end : character offsets of the part on ``page``: ``page.text[start:end] == on_page_text``.
    strategy : the chunking strategy that made it.
    page_end : last page the passage reaches; ``page + 1`` when a sentence running across the page break was
        appended, else ``page``. Stored chunks written without it get ``page``.
    continuation_chars : length of the text taken from page ``page_end`` (0 when none); it is the end of ``text``.
    blocks : the structure of ``text`` (:class:`ingestion.blocks.Block`, offsets into ``text``): headings, table
        rows with their column headings, list items, captions, contents lines, references. Prose has none.
    page_label, page_end_label : the printed labels of pages ``page`` and ``page_end`` (:attr:`Page.label`, ``""``
        when unknown). Stored chunks written without them get ``""``.
    """

    chunk_id: str
    doc_id: str
    filename: str
    page: int
    section: str
    text: str
    start: int
    end: int
    strategy: str = "recursive_char"
    page_end: int = 0
    continuation_chars: int = 0
    blocks: list[Block] = field(default_factory=list)
    page_label: str = ""
    page_end_label: str = ""

    def __post_init__(self) -> None:
        if not self.page_end:
            self.page_end = self.page
        if self.page_end == self.page and not self.page_end_label:
            self.page_end_label = self.page_label
        self.blocks = [b if isinstance(b, Block) else Block.from_dict(b) for b in self.blocks]

    @property
    def pages(self) -> range:
        """The pages the passage is on."""
        return range(self.page, self.page_end + 1)

    @property
    def on_page_text(self) -> str:
        """The part of ``text`` on ``page`` (all of it unless the passage runs onto the next page)."""
        return self.text[:self.end - self.start]

    @property
    def continuation(self) -> str:
        """The part of ``text`` taken from the start of page ``page_end`` ("" when none)."""
        return self.text[len(self.text) - self.continuation_chars:] if self.continuation_chars else ""

    @property
    def prefix(self) -> str:
        """``file | Page N | section``, and for a passage that starts inside a table whose header is on an earlier
        passage, the table's title and column headings: a row's numbers mean nothing without them."""
        pages = f"Page {self.page}" if self.page_end == self.page else f"Pages {self.page}-{self.page_end}"
        prefix = f"{self.filename} | {pages} | {self.section}".rstrip(" |")
        first = self.blocks[0] if self.blocks else None
        if first is not None and first.kind == "table_row" and first.start <= 1 and \
                not any(b.kind == "table_header" for b in self.blocks):
            columns = " / ".join(dict.fromkeys(c for b in self.blocks if b.kind == "table_row" for c in b.columns))
            prefix += " | " + " | ".join(p for p in (first.title, columns) if p)
        return prefix.rstrip(" |")

    def embedding_text(self) -> str:
        return f"{self.prefix}\n{self.text}"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["blocks"] = [b.to_dict() for b in self.blocks]
        if not data["blocks"]:
            del data["blocks"]
        # Unlabelled pages store nothing, so their files read as before.
        if not self.page_end_label or (self.page_end == self.page and self.page_end_label == self.page_label):
            del data["page_end_label"]
        if not self.page_label:
            del data["page_label"]
        return data

    def label_of(self, page: int) -> str:
        """The printed label of ``page`` (``page`` or ``page_end``), ``""`` when unknown."""
        return self.page_label if page == self.page else self.page_end_label if page == self.page_end else ""

    @classmethod
    def from_dict(cls, data: dict) -> "Chunk":
        """Rebuild a stored chunk; missing fields take their defaults, fields this version does not know are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def heading_at(page: Page, offset: int) -> str:
    """The nearest heading above ``offset`` on the page, else the one the page inherits, else ``""``."""
    nearest = page.headings[-1] if page.headings else ""
    for block in page.blocks:
        if block.kind != "heading":
            continue
        if block.start > offset:
            break
        nearest = page.text[block.start:block.end].strip()
    return nearest


def check_strategy(strategy: str) -> str:
    """``strategy`` if it is one of :data:`STRATEGIES`, else a ``ValueError`` naming the choices."""
    if strategy not in STRATEGIES:
        raise ValueError(f"Unknown chunking strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}.")
    return strategy


def chunk_pages(
    pages: list[Page], *, doc_id: str, filename: str, strategy: str = "recursive_char", chunk_size: int = 1000,
    chunk_overlap: int = 150, embed: Embed | None = None, semantic_percentile: float = 90.0,
    semantic_min_chars: int = 200,
) -> list[Chunk]:
    """Cut every page into passages.

    Parameters
    ----------
    pages : pages as read, 1-based, in order.
    doc_id, filename : stamped on every chunk; ``doc_id`` also makes the chunk ids deterministic.
    strategy : ``fixed_size``, ``recursive_char`` or ``semantic`` (see the module docstring).
    chunk_size : target length in characters; the most for ``fixed_size`` and ``semantic``.
    chunk_overlap : characters shared by neighbouring chunks of a page (``fixed_size``, ``recursive_char``);
        at most ``chunk_size // 2`` is used.
    embed : ``embed(texts) -> (len(texts), dim)`` array of unit vectors; required for ``semantic``, called once
        with every sentence of the document.
    semantic_percentile : ``semantic`` cuts where a drop in similarity is above this percentile (0-100) of the
        document's drops.
    semantic_min_chars : ``semantic`` joins a shorter chunk to a neighbour when the result fits ``chunk_size``.

    Returns
    -------
    list[Chunk]
        In document order. Passages with fewer than two words (page numbers, stray symbols) are dropped. The last
        chunk of a page ending inside a sentence also holds the rest of that sentence from the next page.

    Raises
    ------
    ValueError
        Unknown strategy, sizes out of range, or ``semantic`` without ``embed``.
    """
    check_strategy(strategy)
    if chunk_size < 1 or chunk_overlap < 0:
        raise ValueError(f"chunk_size must be at least 1 and chunk_overlap at least 0, got {chunk_size}, "
                         f"{chunk_overlap}.")
    if strategy == "semantic":
        if embed is None:
            raise ValueError("The semantic strategy needs an embed function (texts -> unit vectors), e.g. "
                             "retrieval.embedder.Embedder().encode.")
        if not 0 <= semantic_percentile <= 100:
            raise ValueError(f"semantic_percentile must be within 0-100, got {semantic_percentile}.")
        spans = _semantic_spans(pages, embed, chunk_size, semantic_percentile, semantic_min_chars)
    elif strategy == "fixed_size":
        spans = [_fixed_spans(page.text, chunk_size, chunk_overlap, page.blocks) for page in pages]
    else:
        splitter = _splitter(chunk_size, chunk_overlap)
        spans = [_merge_stubs(_recursive_spans(splitter, page), page) if page.text.strip() else []
                 for page in pages]

    tag = STRATEGY_TAGS[strategy]
    chunks: list[Chunk] = []
    joiner = _Joiner(pages, limit=max(chunk_size // 2, _MIN_CONTINUATION))
    for i, (page, page_spans) in enumerate(zip(pages, spans)):
        page_chunks = [
            Chunk(chunk_id=f"{doc_id}-{tag}-p{page.number}-c{n}", doc_id=doc_id, filename=filename,
                  page=page.number, section=heading_at(page, start), text=page.text[start:end], start=start,
                  end=end, strategy=strategy, blocks=clip(page.blocks, start, end), page_label=page.label)
            for n, (start, end) in enumerate(page_spans, 1)
        ]
        if page_chunks and i + 1 < len(pages):
            joiner.extend(page_chunks[-1], page, pages[i + 1])
        chunks.extend(page_chunks)
    return chunks


# --- sentences across page breaks ---------------------------------------------------------------------------------

def ends_mid_sentence(text: str) -> bool:
    """Whether a page's text stops inside a sentence: no final ``.``/``!``/``?``, and not a heading or table row."""
    text = text.rstrip()
    if not text:
        return False
    last_line = text.rsplit("\n", 1)[-1].strip()
    if last_line.startswith("#") or last_line.endswith("|"):
        return False
    return text.rstrip(_CLOSERS)[-1:] not in (".", "!", "?", "")


def starts_continuation(text: str) -> bool:
    """Whether a page's text opens by carrying on a clause: a lower-case letter, a digit or ``,;:)]`` etc."""
    first = text.lstrip()[:1]
    return bool(first) and (first.islower() or first.isdigit() or first in _CONTINUES_PUNCT)


class _Joiner:
    """Appends the rest of a sentence cut by a page break to the last chunk of the page (see module docstring)."""

    def __init__(self, pages: Sequence[Page], limit: int):
        self._pages = pages
        self._limit = limit
        self._vocabulary: set[str] | None = None  # built on the first hyphen split; most documents never need it

    def extend(self, chunk: Chunk, page: Page, nxt: Page) -> None:
        text = page.text
        if (nxt.number != page.number + 1 or chunk.end < len(text.rstrip())
                or not ends_mid_sentence(text) or not starts_continuation(nxt.text)):
            return
        # A page ending in a heading, a table or a contents line does not end mid-sentence; nor does the next page
        # continue one when it opens with such a block.
        if any(b.kind in _NOT_PROSE and b.end >= len(text.rstrip()) for b in page.blocks[-1:]) or \
                any(b.kind in _NOT_PROSE and b.start <= len(nxt.text) - len(nxt.text.lstrip()) for b in nxt.blocks[:1]):
            return
        continuation = self._first_sentence(nxt.text.lstrip())
        if not continuation:
            return
        end, joiner = chunk.end, " "
        left = re.search(r"(\w[\w-]*)-$", text[chunk.start:end])
        if left:  # a word hyphenated across the break
            joiner = ""
            right = re.match(r"[^\W_][\w-]*", continuation)
            if right and right.group()[0].islower() and not self._keeps_hyphen(f"{left[1]}-{right.group()}"):
                end -= 1
        chunk.end = end
        chunk.text = text[chunk.start:end] + joiner + continuation
        chunk.page_end, chunk.page_end_label = nxt.number, nxt.label
        chunk.continuation_chars = len(continuation)

    def _first_sentence(self, text: str) -> str:
        """The text up to the first sentence end, or "" when that is further than the limit."""
        window = text[:self._limit + 1]
        sentences = split_sentences(window)
        if not sentences or sentences[0].start != 0:
            return ""
        end = sentences[0].end
        # A sentence reaching the window's end may run on beyond it; only one that stops inside is whole.
        complete = end < len(window.rstrip()) or len(window) == len(text)
        # Prose ends with punctuation; a "sentence" that stops at a paragraph break without it is a figure's
        # labels, a table or an equation, not the rest of the sentence cut by the page break.
        punctuated = window[:end].rstrip(_CLOSERS)[-1:] in (".", "!", "?", ":")
        return window[:end] if complete and punctuated and end <= self._limit else ""

    def _keeps_hyphen(self, word: str) -> bool:
        if self._vocabulary is None:
            self._vocabulary = hyphenated_vocabulary(p.text for p in self._pages)
        return word.lower() in self._vocabulary


# --- fixed_size -------------------------------------------------------------------------------------------------

def _fixed_spans(text: str, size: int, overlap: int, blocks: Sequence[Block] = ()) -> list[Span]:
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
            end = _window_end(text, start, end, ends, size)
        spans.append((start, end))
        if end >= limit:
            break
        start = _window_start(text, max(end - overlap, start + 1), end, starts)
    return _drop_wordless(_merge_small_tail(spans, text, size, blocks), text)


def _window_end(text: str, start: int, end: int, ends: list[int], size: int) -> int:
    """Move a window end back to a sentence end in the last part of the window, else to a word end."""
    i = bisect.bisect_right(ends, end) - 1
    if i >= 0 and ends[i] >= start + (1 - _FIXED_SENTENCE_ZONE) * size:
        return ends[i]
    if not text[end].isspace() and not text[end - 1].isspace():  # mid-word
        space = max(text.rfind(" ", start + 1, end), text.rfind("\n", start + 1, end))
        if space > start:
            end = space
    return start + len(text[start:end].rstrip())


def _window_start(text: str, lo: int, end: int, starts: list[int]) -> int:
    """First sentence start in ``[lo, end)``, else first word start at or after ``lo``."""
    i = bisect.bisect_left(starts, lo)
    if i < len(starts) and starts[i] < end:
        return starts[i]
    pos = lo
    if pos > 0 and not text[pos - 1].isspace():  # inside a word: skip to its end
        while pos < end and not text[pos].isspace():
            pos += 1
    return _skip_space(text, pos)


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _merge_small_tail(spans: list[Span], text: str, size: int, blocks: Sequence[Block] = ()) -> list[Span]:
    """Join a last window that is a stub to the one before when the result still fits."""
    if len(spans) > 1 and _is_stub(text, *spans[-1], blocks) and spans[-1][1] - spans[-2][0] <= size:
        return spans[:-2] + [(spans[-2][0], spans[-1][1])]
    return spans


def _drop_wordless(spans: list[Span], text: str) -> list[Span]:
    return [(a, b) for a, b in spans if len(_WORD.findall(text[a:b])) >= 2]


# --- recursive_char -----------------------------------------------------------------------------------------------

def _splitter(chunk_size: int, chunk_overlap: int) -> RecursiveCharacterTextSplitter:
    separators = RecursiveCharacterTextSplitter.get_separators_for_language(Language.MARKDOWN)
    # Pages are clean text whose heading starts are marked (see _recursive_spans): a cut before a heading is the
    # best one, as "\n#" is in Markdown.
    separators.insert(0, rf"\n{_HEADING_MARK}")
    # A sentence end is a better cut than an arbitrary space inside a paragraph.
    separators.insert(separators.index(" "), r"(?<=[.!?])\s+")
    return RecursiveCharacterTextSplitter(
        separators=separators,
        is_separator_regex=True,
        keep_separator="start",  # headings open the next piece; sentence gaps are whitespace, stripped
        chunk_size=chunk_size,
        chunk_overlap=min(chunk_overlap, chunk_size // 2),
        add_start_index=True,
        strip_whitespace=True,
    )


def _recursive_spans(splitter: RecursiveCharacterTextSplitter, page: Page) -> list[Span]:
    """The splitter's pieces of a page as spans. It cuts a copy of the page text in which the line break before
    each heading is :data:`_HEADING_MARK`: same length, so offsets hold."""
    marked = list(page.text)
    for block in page.blocks:
        if block.kind == "heading" and block.start > 0 and marked[block.start - 1] == "\n":
            marked[block.start - 1] = _HEADING_MARK
    text = "".join(marked)
    spans = []
    for piece in splitter.create_documents([text]):
        content = piece.page_content.strip()
        start = piece.metadata["start_index"]
        if start < 0:  # the splitter could not locate the piece; find it ourselves
            start = max(text.find(content), 0)
        spans.append((start, start + len(content)))
    return spans


def _is_stub(text: str, start: int, end: int, blocks: Sequence[Block] = ()) -> bool:
    """``text[start:end]`` is a heading on its own (only heading lines), or too few words to answer anything."""
    piece = text[start:end]
    if len(_WORD.findall(piece)) < 3:
        return True
    headings = [(b.start, b.end) for b in blocks if b.kind == "heading"]
    if not headings:
        return False
    offset = start
    for line in piece.split("\n"):
        if line.strip() and not any(a <= offset + len(line) - len(line.lstrip()) < b for a, b in headings):
            return False
        offset += len(line) + 1
    return True


def _merge_stubs(spans: list[Span], page: Page) -> list[Span]:
    """Join a stub to the passage after it (a heading belongs with its text), else to the one before."""
    text = page.text
    merged: list[Span] = []
    carry: int | None = None
    for start, end in spans:
        if carry is not None:
            start, carry = carry, None
        if _is_stub(text, start, end, page.blocks):
            carry = start
            continue
        merged.append((start, end))
    if carry is not None:
        if merged:
            merged[-1] = (merged[-1][0], len(text.rstrip()))
        elif len(_WORD.findall(text[carry:])) >= 2:
            merged.append((carry, len(text.rstrip())))
    return merged


# --- semantic -------------------------------------------------------------------------------------------------

@dataclass
class _Unit:
    """A sentence, or a word-bounded piece of a sentence longer than the chunk size."""

    start: int
    end: int
    text: str
    heading: bool


def _units(text: str, size: int, blocks: Sequence[Block] = ()) -> list[_Unit]:
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
            end = _window_end(text, start, end, [], size)
        spans.append((start, end))
        start = _skip_space(text, end)  # a hard cut inside a very long token continues right where it stopped
    return spans


def _semantic_spans(pages: Sequence[Page], embed: Embed, size: int, percentile: float,
                    min_chars: int) -> list[list[Span]]:
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
        _drop_wordless(_segment_page(page_units, drops, threshold, size, min_chars), page.text)
        for page, page_units, drops in zip(pages, units, drops_by_page)
    ]


# Boundary scores beyond any real drop (real drops lie in [0, 2]): a heading always opens a segment, and a
# boundary right after a heading is cut only when nothing else can be.
_BEFORE_HEADING, _AFTER_HEADING = 3.0, -1.0


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
