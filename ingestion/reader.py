"""Read an upload (PDF, plain text or Markdown) into pages of clean text with their heading paths.

PDFs are read with pymupdf4llm's layout mode, which keeps headings, lists, tables and the reading order of
columns, and drops running page headers and footers. Its layout model runs only on the pages that need it
(columns, tables, figures, formulas, headings MuPDF's lines cannot settle); a plain page's regions are told from
MuPDF's own lines, ~10x faster (:mod:`ingestion.pdf.routing`). Before that, the geometry of each page's text lines is
measured with MuPDF: which way most of its prose runs, so a page set sideways is turned upright for the layout
reader; which lines repeat in the top or bottom margin of many pages, so running headers and footers are dropped
whichever reader's text is kept; and which lines run across the page's main direction (sideways captions, margin
stamps), so they are added back when the kept text lost them. Numbered headings ("2", "2.1", "2.1.3") nest by
their numbers, whatever their font sizes.

A page whose layout text lost words is read again with pdfplumber, and if that loses most of them too, MuPDF's
plain text is used (``Page.reader == "pymupdf"``). A page without a text layer that is covered by an image (a
scan) is read with OCR (``Page.reader == "ocr"``), up to a number of pages per document; scanned pages left
unread, and pages MuPDF cannot parse, are listed in ``ReadResult.unread_pages`` with a warning saying why. A page
whose compressed content inflates to more than :data:`~ingestion.pdf.opening.MAX_PAGE_CONTENT_MB` (a decompression
bomb) is refused before it is parsed, and pages larger than four A0 sheets skip the layout model, which renders
them. Every failure is an :class:`~core.errors.IngestError` whose message tells the user what was wrong and what to
do.

This module is the door: it checks the upload's size and type and hands it to the reader for its kind.
:mod:`ingestion.text_files` reads text uploads; :mod:`ingestion.pdf` reads PDFs, one module a step, run in order by
:func:`ingestion.pdf.read.read_pdf`: open and refuse, sort the pages (text, scans, unparseable), plan OCR, measure
the pages' geometry, route the plain pages past the layout model, read the layout text, re-read pages that lost
words, OCR the scans. Both end in
:mod:`ingestion.headings`, which gives every page its clean text, blocks and heading path; PDF pages also get the
label printed on them (:mod:`ingestion.page_labels`).
"""

from __future__ import annotations

from core.errors import EmptyFile, FileTooLarge
from core.types import ReadResult
from ingestion.pdf.progress import Progress
from ingestion.pdf.read import PdfOptions, read_pdf
from ingestion.text_files import read_text_file
from ingestion.upload_checks import PDF_EXTENSIONS, check_type, display_name

__all__ = ["Progress", "read_document"]

_MB = 1024 * 1024


def read_document(
    data: bytes,
    filename: str,
    *,
    max_bytes: int | None = None,
    garbled_threshold: float = 0.85,
    ocr: bool = True,
    ocr_max_pages: int = 50,
    ocr_dpi: int = 200,
    ocr_engine: str = "rapidocr",
    max_pages: int | None = None,
    layout_workers: int = 1,
    progress: Progress | None = None,
) -> ReadResult:
    """Read an uploaded file into pages of cleaned text.

    Parameters
    ----------
    data : the file's bytes.
    filename : the name it was uploaded under; its extension decides how it is read.
    max_bytes : largest accepted size, or ``None`` for no limit.
    garbled_threshold : a PDF page whose layout text holds less than this share of the page's raw words is
        read again with pdfplumber.
    ocr : read scanned pages (no text layer, covered by an image) with OCR. When off, they are listed in
        ``ReadResult.unread_pages``.
    ocr_max_pages : most pages of one document read with OCR; later scanned pages are listed as unread.
    ocr_dpi : resolution scanned pages are rendered at for OCR.
    ocr_engine : OCR engine name for :func:`ingestion.ocr.get_engine` (``"rapidocr"`` or ``"tesseract"``).
    max_pages : most pages a PDF may have, or ``None`` for no limit.
    layout_workers : processes the layout model runs in (:mod:`ingestion.pdf.layout_workers`); more than 1 forks
        helpers from this process, so only a reading process with no other busy threads should ask for it.
    progress : optional ``progress(stage, done, total)``, called with ``stage == "read"`` as pages with a text
        layer are read and ``stage == "ocr"`` after each OCR'd page; ``done`` never decreases within a stage and
        a stage that runs ends with ``done == total``. Errors it raises are logged, never passed on.

    Returns
    -------
    ReadResult
        One :class:`Page` per physical page (1-based; pages without text are kept with ``text == ""``), the
        title, the pages read with OCR, the scanned pages left unread and any warnings for the user.

    Raises
    ------
    EmptyFile
        The file has no bytes, or a text file holds only whitespace.
    FileTooLarge
        The file is larger than ``max_bytes``.
    TooManyPages
        The PDF has more than ``max_pages`` pages.
    UnsupportedFileType
        The extension is not one that can be read (:func:`ingestion.upload_checks.check_type`).
    NotAPdf
        A ``.pdf`` whose content does not start with the PDF signature.
    EncryptedPdf
        The PDF needs a password to open.
    DamagedPdf
        The PDF cannot be parsed, is truncated or has no pages.
    DecompressionBomb
        A page's content inflates to more than :data:`~ingestion.pdf.opening.MAX_PAGE_CONTENT_MB`.
    NoTextLayer
        No page of the PDF gave any text: no text layer, and OCR was off, unavailable, over its page limit or
        found nothing.
    """
    name = display_name(filename)
    if not data:
        raise EmptyFile(f"'{name}' is empty (0 bytes). Upload the file again.")
    if max_bytes is not None and len(data) > max_bytes:
        raise FileTooLarge(
            f"'{name}' is {len(data) / _MB:.1f} MB, larger than the {max_bytes / _MB:g} MB limit. "
            "Split it into smaller files and upload those."
        )
    if check_type(name) in PDF_EXTENSIONS:
        options = PdfOptions(garbled_threshold, ocr, ocr_max_pages, ocr_dpi, ocr_engine, max_pages, layout_workers)
        return read_pdf(data, name, options, progress)
    return read_text_file(data, name)
