"""Split pages into passages for indexing.

``recursive_char`` uses langchain-text-splitters with Markdown-aware separators plus a sentence separator, so a
chunk prefers to end at a heading, a paragraph, a line, then a sentence. Chunks never straddle pages: a passage
always has exactly one page to cite.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from ingestion.document import Page

STRATEGIES = ("recursive_char",)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
_WORD = re.compile(r"\w+")


@dataclass
class Chunk:
    """One indexed passage.

    ``text`` is the passage exactly as shown to the user; ``prefix`` only steers the embedding.
    ``start``/``end`` are character offsets of ``text`` in its page's text.
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

    @property
    def prefix(self) -> str:
        return f"{self.filename} | Page {self.page} | {self.section}".rstrip(" |")

    def embedding_text(self) -> str:
        return f"{self.prefix}\n{self.text}"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Chunk":
        return cls(**data)


def _splitter(chunk_size: int, chunk_overlap: int) -> RecursiveCharacterTextSplitter:
    separators = RecursiveCharacterTextSplitter.get_separators_for_language(Language.MARKDOWN)
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


def heading_at(page: Page, offset: int) -> str:
    """The nearest heading above ``offset`` on the page, else the one the page inherits, else ``""``."""
    nearest = page.headings[-1] if page.headings else ""
    for match in _HEADING.finditer(page.text):
        if match.start() > offset:
            break
        nearest = match.group(1).strip("#* ")
    return nearest


def chunk_pages(
    pages: list[Page], *, doc_id: str, filename: str, chunk_size: int = 1000, chunk_overlap: int = 150,
    strategy: str = "recursive_char",
) -> list[Chunk]:
    """Cut every page into passages of about ``chunk_size`` characters.

    Parameters
    ----------
    pages : pages as read, 1-based.
    doc_id, filename : stamped on every chunk; ``doc_id`` also makes the chunk ids deterministic.
    chunk_size, chunk_overlap : in characters.
    strategy : only ``recursive_char`` for now.

    Returns
    -------
    Chunks in document order. Passages with fewer than two words (page numbers, stray symbols) are dropped.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"Unknown chunking strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}.")
    splitter = _splitter(chunk_size, chunk_overlap)
    chunks: list[Chunk] = []
    for page in pages:
        if not page.text.strip():
            continue
        spans = _merge_stubs(_spans(splitter, page.text), page.text)
        for n, (start, end) in enumerate(spans, 1):
            chunks.append(Chunk(
                chunk_id=f"{doc_id}-p{page.number}-c{n}", doc_id=doc_id, filename=filename, page=page.number,
                section=heading_at(page, start), text=page.text[start:end], start=start, end=end, strategy=strategy,
            ))
    return chunks


def _spans(splitter: RecursiveCharacterTextSplitter, text: str) -> list[tuple[int, int]]:
    spans = []
    for piece in splitter.create_documents([text]):
        content = piece.page_content.strip()
        start = piece.metadata["start_index"]
        if start < 0:  # the splitter could not locate the piece; find it ourselves
            start = max(text.find(content), 0)
        spans.append((start, start + len(content)))
    return spans


def _is_stub(text: str) -> bool:
    """A heading on its own, or too few words to answer anything."""
    lines = [line for line in text.splitlines() if line.strip()]
    return all(_HEADING.match(line) for line in lines) or len(_WORD.findall(text)) < 3


def _merge_stubs(spans: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Join a stub to the passage after it (a heading belongs with its text), else to the one before."""
    merged: list[tuple[int, int]] = []
    carry: int | None = None
    for start, end in spans:
        if carry is not None:
            start, carry = carry, None
        if _is_stub(text[start:end]):
            carry = start
            continue
        merged.append((start, end))
    if carry is not None:
        if merged:
            merged[-1] = (merged[-1][0], len(text.rstrip()))
        elif len(_WORD.findall(text[carry:])) >= 2:
            merged.append((carry, len(text.rstrip())))
    return merged
