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
    reader : which reader produced ``text``: ``pymupdf4llm`` (layout), ``pdfplumber`` (re-read of a page the
        layout reader lost words on), ``pymupdf`` (MuPDF's plain text, when both lost most of them), ``ocr``
        (a scanned page), ``unread`` (a scanned page that was not OCR'd, see ``ReadResult.unread_pages``) or
        ``text`` (a plain-text or Markdown file).
    """

    number: int
    text: str
    headings: list[str] = field(default_factory=list)
    reader: str = "pymupdf4llm"


@dataclass
class ReadResult:
    """A whole document as read, before chunking.

    Attributes
    ----------
    filename : the upload's name, without any folder.
    pages : one :class:`Page` per physical page.
    page_count : ``len(pages)``.
    warnings : messages for the user (pages without text, scanned pages not read, repairs).
    title : the PDF's metadata title, else its first heading, else ``filename``.
    ocr_pages : 1-based numbers of the pages read with OCR.
    unread_pages : 1-based numbers of scanned pages left unread (OCR off or unavailable, over the per-document
        OCR page limit, or OCR failed) and of pages MuPDF cannot parse; ``warnings`` says why. Their ``text`` is
        ``""``.
    """

    filename: str
    pages: list[Page]
    page_count: int
    warnings: list[str] = field(default_factory=list)
    title: str = ""
    ocr_pages: list[int] = field(default_factory=list)
    unread_pages: list[int] = field(default_factory=list)
