"""What reading produces: pages of cleaned text with their heading path."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Page:
    """One physical page of a document.

    Attributes
    ----------
    number : 1-based physical page number (not the printed label).
    text : cleaned page text; Markdown headings (``# ...``), lists and tables where the layout reader found them.
    headings : heading path in effect where the page starts (outermost first), carried over from earlier pages.
    reader : which reader produced ``text`` (``pymupdf4llm``, ``pdfplumber`` or ``text``).
    """

    number: int
    text: str
    headings: list[str] = field(default_factory=list)
    reader: str = "pymupdf4llm"


@dataclass
class ReadResult:
    """A whole document as read, before chunking."""

    filename: str
    pages: list[Page]
    page_count: int
    warnings: list[str] = field(default_factory=list)
    title: str = ""
