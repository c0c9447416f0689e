"""What reading produces: pages of clean text with their structure and heading path."""

from __future__ import annotations

from dataclasses import dataclass, field

from ingestion.blocks import Block, from_markdown


@dataclass
class Page:
    """One physical page of a document.

    Attributes
    ----------
    number : 1-based physical page number (not the printed label).
    text : the page's clean text, as printed: no Markdown, one blank line between blocks.
    headings : heading path in effect where the page starts (outermost first), carried over from earlier pages.
    reader : which reader produced ``text``: ``pymupdf4llm`` (layout), ``pdfplumber`` (re-read of a page the
        layout reader lost words on), ``pymupdf`` (MuPDF's plain text, when both lost most of them), ``ocr``
        (a scanned page), ``unread`` (a scanned page that was not OCR'd, see ``ReadResult.unread_pages``) or
        ``text`` (a plain-text or Markdown file).
    blocks : what each part of ``text`` is (:class:`ingestion.blocks.Block`: headings, table rows with their
        column headings, list items, captions, contents lines, references); text no block covers is paragraphs.
    label : the page's printed label ("ii", "17", "A-3"): the PDF's own page label, else the page number printed
        in its header or footer when consistent across pages (:mod:`ingestion.page_labels`); ``""`` when none is
        known, and for plain-text files.
    """

    number: int
    text: str
    headings: list[str] = field(default_factory=list)
    reader: str = "pymupdf4llm"
    blocks: list[Block] = field(default_factory=list)
    label: str = ""

    @classmethod
    def from_markdown(cls, number: int, markdown: str, **kwargs) -> Page:
        """A page whose clean text and blocks come from Markdown (:func:`ingestion.blocks.from_markdown`)."""
        text, blocks = from_markdown(markdown)
        return cls(number, text, blocks=blocks, **kwargs)


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
