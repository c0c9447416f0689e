"""The ``recursive_char`` strategy: langchain-text-splitters with Markdown-aware separators plus a sentence separator,
so a chunk prefers to end at a heading, a paragraph, a line, then a sentence. Stubs (a heading alone, fewer than
three words) are joined to their neighbour.

:func:`recursive_char_spans` takes the pages and gives each page's spans.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from core.types import Page
from ingestion.chunkers.spans import Span, is_stub, word_count

# Marks where a heading starts in the copy of a page the recursive splitter cuts (see _recursive_spans): the
# character before the heading, a line break, is replaced by it. Python counts it as whitespace, so the splitter
# strips it from the pieces.
_HEADING_MARK = "\x1d"


def recursive_char_spans(pages: Sequence[Page], size: int, overlap: int) -> list[list[Span]]:
    """Each page's pieces of about ``size`` characters, neighbours sharing up to ``min(overlap, size // 2)``; a piece
    may exceed ``size`` by a stub joined to it."""
    splitter = _splitter(size, overlap)
    return [_merge_stubs(_recursive_spans(splitter, page), page) if page.text.strip() else [] for page in pages]


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


def _merge_stubs(spans: list[Span], page: Page) -> list[Span]:
    """Join a stub to the passage after it (a heading belongs with its text), else to the one before."""
    text = page.text
    merged: list[Span] = []
    carry: int | None = None
    for start, end in spans:
        if carry is not None:
            start, carry = carry, None
        if is_stub(text, start, end, page.blocks):
            carry = start
            continue
        merged.append((start, end))
    if carry is not None:
        if merged:
            merged[-1] = (merged[-1][0], len(text.rstrip()))
        elif word_count(text[carry:]) >= 2:
            merged.append((carry, len(text.rstrip())))
    return merged
