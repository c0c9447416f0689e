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
no single chunk. When a page's text ends inside a sentence and the next page's text carries it on, the last chunk of
the page also holds the rest of that sentence, and ``page_end`` names the next page (:mod:`ingestion.page_breaks`
says exactly when, and how ``text``, ``start``/``end`` and a hyphen across the break are kept).

Ids are ``<doc_id>-<tag>-p<page>-c<n>`` with ``tag`` one of ``fs``, ``rc``, ``se``, so one document chunked two
ways never produces the same id twice, and chunking the same pages again gives the same ids.

Modules
-------
Each strategy is a module of :mod:`ingestion.chunkers` that gives every page's spans; this module checks the
arguments, runs the strategy, makes the :class:`~core.types.Chunk` s and extends each page's last one across the
page break (:class:`ingestion.page_breaks.PageBreakJoiner`).
"""

from __future__ import annotations

from ingestion.blocks import clip
from core.types import Chunk, Page
from ingestion.chunkers.fixed_size import fixed_size_spans
from ingestion.chunkers.recursive_char import recursive_char_spans
from ingestion.chunkers.semantic import Embed, semantic_spans
from ingestion.page_breaks import PageBreakJoiner, ends_mid_sentence, starts_continuation

__all__ = ["STRATEGIES", "STRATEGY_TAGS", "Embed", "check_strategy", "chunk_pages", "ends_mid_sentence", "heading_at",
           "starts_continuation"]

STRATEGIES = ("fixed_size", "recursive_char", "semantic")
STRATEGY_TAGS = {"fixed_size": "fs", "recursive_char": "rc", "semantic": "se"}


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
        spans = semantic_spans(pages, embed, chunk_size, semantic_percentile, semantic_min_chars)
    elif strategy == "fixed_size":
        spans = fixed_size_spans(pages, chunk_size, chunk_overlap)
    else:
        spans = recursive_char_spans(pages, chunk_size, chunk_overlap)

    tag = STRATEGY_TAGS[strategy]
    chunks: list[Chunk] = []
    joiner = PageBreakJoiner(pages, chunk_size)
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
