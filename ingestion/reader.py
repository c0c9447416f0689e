"""Read an upload (PDF, plain text or Markdown) into pages of clean text with their heading paths.

PDFs are read with pymupdf4llm's layout mode, which keeps headings, lists, tables and the reading order of
columns, and drops running page headers and footers. Before that, the geometry of each page's text lines is
measured with MuPDF: which way most of its prose runs, so a page set sideways is turned upright for the layout
reader; which lines repeat in the top or bottom margin of many pages, so running headers and footers are dropped
whichever reader's text is kept; and which lines run across the page's main direction (sideways captions, margin
stamps), so they are added back when the kept text lost them. Numbered headings ("2", "2.1", "2.1.3") nest by
their numbers, whatever their font sizes.

A page whose layout text lost words is read again with pdfplumber, and if that loses most of them too, MuPDF's
plain text is used (``Page.reader == "pymupdf"``). A page without a text layer that is covered by an image (a
scan) is read with OCR (``Page.reader == "ocr"``), up to a number of pages per document; scanned pages left
unread, and pages MuPDF cannot parse, are listed in ``ReadResult.unread_pages`` with a warning saying why. A page
whose compressed content inflates to more than ``_MAX_PAGE_CONTENT_MB`` (a decompression bomb) is refused before
it is parsed, and pages larger than four A0 sheets skip the layout model, which renders them. Every failure is an
:class:`~ingestion.errors.IngestError` whose message tells the user what was wrong and what to do.

The steps live in modules of their own, in the order the data flows: :mod:`ingestion.text_files` decodes text
uploads; :mod:`ingestion.page_geometry` measures PDF pages; :mod:`ingestion.pdf_text` reads their layout text
and re-reads pages that lost words (judged by :mod:`ingestion.text_quality`); :mod:`ingestion.headings` gives
every page its heading path; :mod:`ingestion.page_labels` finds the label printed on each page ("ii", "17"). This
module checks the upload, runs those steps page by page with OCR for scans, and reports progress and warnings.
"""

from __future__ import annotations

import logging
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

import pymupdf

from ingestion.document import ReadResult
from ingestion.errors import (
    DamagedPdf,
    DecompressionBomb,
    EmptyFile,
    EncryptedPdf,
    FileTooLarge,
    IngestError,
    NoTextLayer,
    NotAPdf,
    TooManyPages,
)
from ingestion.headings import _finish_pages, _first_heading
from ingestion.page_geometry import _Geometry, _measure_pages, _restore_off_axis, _strip_running
from ingestion.page_labels import page_labels
from ingestion.pdf_text import _LazyPlumber, _layout_markdown, _needs_reread, _reread
from ingestion.text_files import _text_file_pages
from ingestion.upload_checks import PDF_EXTENSIONS, check_type, display_name

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` is ``"read"`` (pages with a text layer) or ``"ocr"``."""

logger = logging.getLogger(__name__)

_MB = 1024 * 1024
_PDF_SIGNATURE = b"%PDF-"
# OCR text below this mean confidence is kept but the user is told it may hold misread words.
_LOW_OCR_CONFIDENCE = 0.6
# A page whose content streams inflate to more than this is refused as a decompression bomb before MuPDF parses it.
# Deflate packs a run of one byte ~1000:1, so a 1 MB upload can hold 1 GB of content; MuPDF parses ~150 MB of it a
# second and the reader passes over each page several times, so such a page holds a reading process for minutes
# (until the CPU or wall-clock limit). The densest real pages (maps, CAD drawings) hold tens of MB.
_MAX_PAGE_CONTENT_MB = 256
# Largest page area, in square points, read with the layout model: four A0 sheets (4 x 2384 x 3370 pt).
_MAX_LAYOUT_PAGE_AREA = 4 * 2384 * 3370


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
        A page's content inflates to more than ``_MAX_PAGE_CONTENT_MB``.
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
        options = _PdfOptions(garbled_threshold, ocr, ocr_max_pages, ocr_dpi, ocr_engine, max_pages)
        return _read_pdf(data, name, options, _Reporter(progress))
    return _read_text(data, name)


@dataclass(frozen=True)
class _PdfOptions:
    garbled_threshold: float
    ocr: bool
    ocr_max_pages: int
    ocr_dpi: int
    ocr_engine: str
    max_pages: int | None = None


class _Reporter:
    """Passes progress on to an optional callback: only forward steps, and never lets it break reading."""

    def __init__(self, callback: Progress | None):
        self._callback = callback
        self._last: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self._callback is None or self._last.get(stage, -1) >= done:
            return
        self._last[stage] = done
        try:
            self._callback(stage, done, total)
        except Exception:  # a broken progress bar must not fail the upload (nor pass for a damaged PDF)
            logger.exception("progress callback failed")


# --- PDF -----------------------------------------------------------------------------------------------------------


def _read_pdf(data: bytes, name: str, options: _PdfOptions, report: _Reporter) -> ReadResult:
    if _PDF_SIGNATURE not in data[:1024]:
        raise NotAPdf(
            f"'{name}' is not a PDF: its content does not start with the PDF signature. "
            "Upload the original PDF or a .txt file."
        )
    pymupdf.TOOLS.mupdf_warnings(reset=True)  # so that _objects_failed() sees this file's problems only
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise _damaged(name) from exc
    try:
        return _read_open_pdf(doc, data, name, options, report)
    except IngestError:
        raise
    except Exception as exc:  # anything the PDF libraries raise on a malformed file
        raise _damaged(name) from exc
    finally:
        doc.close()


def _damaged(name: str, detail: str = "is damaged or truncated") -> DamagedPdf:
    return DamagedPdf(
        f"'{name}' cannot be read: the file {detail}. Re-export or re-download the PDF and upload it again."
    )


def _read_open_pdf(
    doc: pymupdf.Document, data: bytes, name: str, options: _PdfOptions, report: _Reporter
) -> ReadResult:
    # An empty user password opens many "encrypted" PDFs (those that only restrict printing or copying).
    if doc.needs_pass and not doc.authenticate(""):
        raise EncryptedPdf(
            f"'{name}' is password-protected. Remove the password (e.g. print it to a new PDF) and upload it again."
        )
    # MuPDF silently rebuilds a broken cross-reference table. Without the end-of-file marker the file was cut
    # short, so pages are missing even when some open: ask for the whole file instead of indexing a part of it.
    if doc.is_repaired and b"%%EOF" not in data[-2048:]:
        raise _damaged(name, "is truncated (it ends before the end-of-file marker)")
    if doc.page_count == 0:
        raise DamagedPdf(f"'{name}' has no pages. Re-export or re-download the PDF and upload it again.")
    # Checked before any page is read: the count comes from the page tree, so a 100,000-page file costs nothing.
    if options.max_pages is not None and doc.page_count > options.max_pages:
        raise TooManyPages(
            f"'{name}' has {doc.page_count:,} pages, more than the {options.max_pages:,}-page limit "
            "(RAG_MAX_PAGES). Split it into smaller files and upload those."
        )
    _check_content_sizes(doc, name)
    warnings: list[str] = []
    if doc.is_repaired:
        warnings.append(f"'{name}' had errors in its structure and was repaired; some text may be missing.")

    # MuPDF's plain text is cheap (~1 ms a page) and is the yardstick for the layout text. Scanned pages go to
    # OCR and pages without any text are blank: neither goes through the slow layout model (so a scan with OCR
    # off fails fast).
    raws, broken = _raw_texts(doc)
    if len(broken) == doc.page_count:
        raise _damaged(name, f"is damaged: no page can be parsed ({next(iter(broken.values()))})")
    scanned = _scanned_pages(doc, raws, skip=broken)
    scanned_set = set(scanned)
    text_pages = [i for i, raw in enumerate(raws) if raw.strip() and i not in scanned_set]
    plan = _plan_ocr(scanned, options)
    if not text_pages and not plan.pages:
        raise _no_text_layer(name, scanned, plan)

    geometry = _measure_pages(doc, text_pages)
    texts = [""] * doc.page_count
    readers = ["pymupdf4llm"] * doc.page_count
    # The layout model renders every page it reads, at 72 dpi: a 200 x 200 inch poster page costs it ~2 GB. Larger
    # pages than that are read with pdfplumber or MuPDF instead (their text is "" here, so they are re-read below).
    huge = [i for i in text_pages if abs(doc[i].rect) > _MAX_LAYOUT_PAGE_AREA]
    layout_pages = [i for i in text_pages if i not in huge]
    if huge:
        warnings.append(f"{_pages_are(huge, 'unusually large and')} read without headings or tables")
    markdown = _layout_markdown(doc, layout_pages, name, warnings, report) if layout_pages \
        else [""] * doc.page_count
    plumber = _LazyPlumber(data)
    try:
        for position, index in enumerate(text_pages):
            report("read", position, len(text_pages))
            text, reader = _page_text(index, markdown, raws[index], geometry[index], plumber, options, name,
                                      warnings)
            texts[index], readers[index] = text, reader
    finally:
        plumber.close()
    if text_pages:
        report("read", len(text_pages), len(text_pages))

    ocr_pages = _run_ocr(doc, plan, options, texts, readers, warnings, report)
    unread = sorted(set(plan.unread) | (set(plan.pages) - set(ocr_pages)) | set(broken))
    for index in unread:
        readers[index] = "unread"
    if plan.unread:
        warnings.append(f"{_pages_are(plan.unread, 'scanned and')} not read: {plan.reason}")
    for reason in dict.fromkeys(broken.values()):
        pages = [i for i, why in broken.items() if why == reason]
        warnings.append(f"{_pages_are(pages, 'damaged and')} not read: the PDF reader cannot parse it ({reason})")

    # Headings come from the layout reader even where another reader supplied the text: pdfplumber marks none,
    # and a heading lost on a re-read page would leave every later page under the previous section.
    pages = _finish_pages(texts, readers, outline=markdown)
    for page, label in zip(pages, page_labels(doc, geometry)):
        page.label = label
    if not any(p.text for p in pages):
        raise _no_text_layer(name, scanned, plan, ocr_tried=bool(ocr_pages))
    empty = [p.number for p in pages if not p.text and p.number - 1 not in unread]
    if empty:
        warnings.append(_empty_pages_warning(empty))
    metadata_title = (doc.metadata or {}).get("title") or ""
    return ReadResult(
        filename=name,
        pages=pages,
        page_count=len(pages),
        warnings=warnings,
        title=metadata_title.strip() or _first_heading(pages) or name,
        ocr_pages=[i + 1 for i in ocr_pages],
        unread_pages=[i + 1 for i in unread],
    )


def _page_text(
    index: int,
    markdown: list[str] | None,
    raw: str,
    geometry: _Geometry,
    plumber: _LazyPlumber,
    options: _PdfOptions,
    name: str,
    warnings: list[str],
) -> tuple[str, str]:
    """The best ``(text, reader)`` of one page with a text layer, without running headers, with sideways text."""
    yardstick = geometry.yardstick()
    text, reader = (markdown[index], "pymupdf4llm") if markdown is not None else ("", "pdfplumber")
    if markdown is None or _needs_reread(text, yardstick, options.garbled_threshold):
        text, reader = _reread(plumber, index, (text, reader), raw, geometry, name, warnings)
    text = _strip_running(text, geometry.running_rows)
    return _restore_off_axis(text, geometry.off_axis_groups()), reader


def _check_content_sizes(doc: pymupdf.Document, name: str) -> None:
    """Refuse a page whose content streams (its own and its forms') inflate to more than the limit.

    Only FlateDecode streams are measured (by inflating them here, piece by piece, up to the limit); other filters
    count their stored size.
    """
    limit = _MAX_PAGE_CONTENT_MB * _MB
    sizes: dict[int, int] = {}  # a stream shared by many pages is measured once
    for index in range(doc.page_count):
        try:
            page = doc[index]
            xrefs = [*page.get_contents(), *(x[0] for x in page.get_xobjects())]
        except Exception:  # a page MuPDF cannot load: _raw_texts() reports it
            continue
        total = 0
        for xref in xrefs:
            if xref not in sizes:
                sizes[xref] = _inflated_size(doc, xref, limit + 1)
            total += sizes[xref]
        if total > limit:
            raise DecompressionBomb(
                f"'{name}' cannot be read: the content of page {index + 1} inflates to more than "
                f"{_MAX_PAGE_CONTENT_MB} MB, far more than any real page holds (a decompression bomb). If the file is "
                "genuine, print it to a new PDF or split it, and upload that."
            )


def _inflated_size(doc: pymupdf.Document, xref: int, limit: int) -> int:
    """Bytes stream ``xref`` holds once decoded, counted up to ``limit`` (its stored size unless only FlateDecode)."""
    raw = doc.xref_stream_raw(xref) or b""
    filters = re.findall(r"/(\w+)", doc.xref_get_key(xref, "Filter")[1])
    if not filters or any(f not in ("FlateDecode", "Fl") for f in filters):
        return len(raw)
    pieces = iter([raw])
    for _ in filters:
        pieces = _inflate(pieces)
    total = 0
    try:
        for piece in pieces:
            total += len(piece)
            if total >= limit:
                break
    except zlib.error:
        pass  # damaged data: MuPDF reads what it can of it
    return total


def _inflate(pieces, step: int = _MB):
    """Inflate a zlib stream given in pieces, yielding at most ``step`` bytes at a time."""
    inflater = zlib.decompressobj()
    for piece in pieces:
        while piece and not inflater.eof:
            out = inflater.decompress(piece, step)
            piece = inflater.unconsumed_tail
            if out:
                yield out
        if inflater.eof:
            return


def _objects_failed() -> bool:
    """Whether MuPDF could not load some object of the file being read (e.g. nested too deeply), per its warnings."""
    return "cannot load object" in pymupdf.TOOLS.mupdf_warnings()


def _no_text_layer(name: str, scanned: list[int], plan: _OcrPlan, *, ocr_tried: bool = False) -> IngestError:
    if not scanned and _objects_failed():
        # MuPDF left out pages it could not parse: their text is there, but unreadable, not missing.
        return _damaged(name, "is damaged: some of its objects cannot be parsed")
    if not scanned:
        return NoTextLayer(
            f"'{name}' has no text layer: no page holds selectable text or a scanned image to read with OCR. "
            "Upload a PDF with selectable text."
        )
    if ocr_tried:
        others = f"; the other scanned pages were not read: {plan.reason}" if plan.unread else ""
        return NoTextLayer(
            f"'{name}' has no text layer (it looks scanned) and OCR found no text on its scanned pages{others}. "
            "Upload a clearer scan or a PDF with selectable text."
        )
    return NoTextLayer(f"'{name}' has no text layer (it looks scanned) and was not read: {plan.reason}. {plan.remedy}")


# --- OCR -----------------------------------------------------------------------------------------------------------


@dataclass
class _OcrPlan:
    """Which scanned pages to OCR, which to leave unread and why (``reason`` completes "were not read: ...")."""

    pages: list[int] = field(default_factory=list)
    unread: list[int] = field(default_factory=list)
    reason: str = ""
    remedy: str = ""  # what the user can do about ``reason``, a sentence
    engine: object = None


def _scanned_pages(doc: pymupdf.Document, raws: list[str], skip: dict[int, str]) -> list[int]:
    """0-based indices of pages that are scans: (almost) no text layer and covered by an image. Pages in ``skip``
    (those MuPDF cannot parse) are left out."""
    try:
        from ingestion.ocr import page_needs_ocr
    except ImportError:  # OCR's own dependencies are missing: still tell scans from blank pages
        return [i for i, raw in enumerate(raws) if i not in skip and not raw.strip() and doc[i].get_images()]
    return [i for i in range(doc.page_count) if i not in skip and page_needs_ocr(doc[i])]


def _raw_texts(doc: pymupdf.Document) -> tuple[list[str], dict[int, str]]:
    """MuPDF's plain text of every page, and the pages it cannot parse with the reason (their text is "").

    A page that breaks one of MuPDF's limits (e.g. too many nested graphics states) or a page tree that loops costs
    that page, not the document. Running out of memory is not a property of the page and is passed on.
    """
    raws: list[str] = []
    broken: dict[int, str] = {}
    for index in range(doc.page_count):
        try:
            raws.append(doc[index].get_text())
        except Exception as exc:
            if isinstance(exc, MemoryError) or "malloc" in str(exc):
                raise
            raws.append("")
            broken[index] = re.sub(r"^code=\d+: ", "", str(exc)).strip() or type(exc).__name__
    return raws, broken


def _plan_ocr(scanned: list[int], options: _PdfOptions) -> _OcrPlan:
    """Decide which scanned pages are read, loading the OCR engine only when there is a page for it."""
    if not scanned:
        return _OcrPlan()
    if not options.ocr:
        return _OcrPlan(unread=scanned, reason="OCR is turned off (RAG_OCR_ENABLED)",
                        remedy="Turn OCR on or upload a PDF with selectable text.")
    unavailable = "Install the OCR engine or upload a PDF with selectable text."
    try:
        from ingestion.ocr import OcrUnavailable, get_engine
    except ImportError as exc:
        return _OcrPlan(unread=scanned, reason=f"OCR is not available ({exc})", remedy=unavailable)
    limit = max(0, options.ocr_max_pages)
    over = scanned[limit:]
    reason = remedy = ""
    if over:
        reason = f"the limit is {limit} OCR page{'s' * (limit != 1)} per document (RAG_OCR_MAX_PAGES)"
        remedy = "Raise the limit or split the PDF into smaller files."
    if limit == 0:
        return _OcrPlan(unread=scanned, reason=reason, remedy=remedy)
    try:
        engine = get_engine(options.ocr_engine)
    except OcrUnavailable as exc:
        return _OcrPlan(unread=scanned, reason=f"OCR is not available: {str(exc).rstrip('.')}", remedy=unavailable)
    return _OcrPlan(pages=scanned[:limit], unread=over, reason=reason, remedy=remedy, engine=engine)


def _run_ocr(
    doc: pymupdf.Document,
    plan: _OcrPlan,
    options: _PdfOptions,
    texts: list[str],
    readers: list[str],
    warnings: list[str],
    report: _Reporter,
) -> list[int]:
    """OCR the planned pages into ``texts``/``readers``; return the indices read (a failed page is left out)."""
    if not plan.pages:
        return []
    from ingestion.ocr import ocr_page

    done: list[int] = []
    low: list[tuple[int, float]] = []
    failed: list[int] = []
    report("ocr", 0, len(plan.pages))
    for count, index in enumerate(plan.pages, start=1):
        try:
            result = ocr_page(doc[index], dpi=options.ocr_dpi, engine=plan.engine)
        except Exception:  # one unreadable image must not cost the rest of the document
            logger.exception("OCR failed on page %d", index + 1)
            failed.append(index)
        else:
            texts[index], readers[index] = result.text, "ocr"
            done.append(index)
            if result.text.strip() and result.confidence < _LOW_OCR_CONFIDENCE:
                low.append((index, result.confidence))
        report("ocr", count, len(plan.pages))
    if failed:
        warnings.append(f"{_pages_are(failed, 'scanned and')} not read: OCR failed on them.")
    for index, confidence in low:
        warnings.append(
            f"page {index + 1} was read with OCR at low confidence ({confidence:.0%}); its text may hold misread "
            "words"
        )
    return done


def _pages_are(indices: list[int], adjective: str) -> str:
    """``"page 3 is scanned and was"`` / ``"pages 2-4, 7 are scanned and were"`` for 0-based ``indices``."""
    numbers = [i + 1 for i in indices]
    if len(numbers) == 1:
        return f"page {numbers[0]} is {adjective} was"
    return f"pages {_ranges(numbers)} are {adjective} were"


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    parts: list[str] = []
    start = previous = None
    for n in sorted(numbers):
        if previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None:
            parts.append(f"{start}-{previous}" if previous != start else f"{start}")
        start = previous = n
    if start is not None:
        parts.append(f"{start}-{previous}" if previous != start else f"{start}")
    return ", ".join(parts)


# --- Text files ----------------------------------------------------------------------------------------------------


def _read_text(data: bytes, name: str) -> ReadResult:
    warnings: list[str] = []
    chunks = _text_file_pages(data, name, warnings)
    pages = _finish_pages(chunks, ["text"] * len(chunks))
    empty = [p.number for p in pages if not p.text]
    if empty:
        warnings.append(_empty_pages_warning(empty))
    return ReadResult(
        filename=name, pages=pages, page_count=len(pages), warnings=warnings, title=_first_heading(pages) or name
    )


# --- Shared --------------------------------------------------------------------------------------------------------


def _empty_pages_warning(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"page {numbers[0]} has no extractable text"
    return f"pages {', '.join(map(str, numbers))} have no extractable text"
