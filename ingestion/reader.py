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
unread are listed in ``ReadResult.unread_pages`` with a warning saying why. Every failure is an
:class:`~ingestion.errors.IngestError` whose message tells the user what was wrong and what to do.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath

import pymupdf

from ingestion.document import Page, ReadResult
from ingestion.errors import (
    DamagedPdf,
    EmptyFile,
    EncryptedPdf,
    FileTooLarge,
    IngestError,
    NoTextLayer,
    NotAPdf,
    UnsupportedFileType,
)
from ingestion.repair import clean_markdown, hyphenated_vocabulary, repair_text

PDF_EXTENSIONS = frozenset({".pdf"})
TEXT_EXTENSIONS = frozenset({".txt", ".md", ".markdown"})
ACCEPTED_TYPES = "PDF (.pdf), plain text (.txt) or Markdown (.md, .markdown)"

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` is ``"read"`` (pages with a text layer) or ``"ocr"``."""

logger = logging.getLogger(__name__)

_MB = 1024 * 1024
_PDF_SIGNATURE = b"%PDF-"
_WORD = re.compile(r"\w\w+")
_CID = re.compile(r"\(cid:\d+\)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
# Text where at least this share of the visible characters is U+FFFD or "(cid:N)" carries no readable words:
# the font has no Unicode mapping.
_JUNK_SHARE = 0.3
# A re-read text holding less than this share of the page's raw words lost most of them.
_MOSTLY_LOST = 0.5
# pdfplumber's default x_tolerance (3) glues words of tightly set text together; 1.5 keeps them apart.
_PLUMBER_X_TOLERANCE = 1.5
# OCR text below this mean confidence is kept but the user is told it may hold misread words.
_LOW_OCR_CONFIDENCE = 0.6


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
    UnsupportedFileType
        The extension is not one of :data:`PDF_EXTENSIONS` or :data:`TEXT_EXTENSIONS`.
    NotAPdf
        A ``.pdf`` whose content does not start with the PDF signature.
    EncryptedPdf
        The PDF needs a password to open.
    DamagedPdf
        The PDF cannot be parsed, is truncated or has no pages.
    NoTextLayer
        No page of the PDF gave any text: no text layer, and OCR was off, unavailable, over its page limit or
        found nothing.
    """
    name = PurePath(filename.replace("\\", "/")).name or "upload"
    if not data:
        raise EmptyFile(f"'{name}' is empty (0 bytes). Upload the file again.")
    if max_bytes is not None and len(data) > max_bytes:
        raise FileTooLarge(
            f"'{name}' is {len(data) / _MB:.1f} MB, larger than the {max_bytes / _MB:g} MB limit. "
            "Split it into smaller files and upload those."
        )
    extension = PurePath(name).suffix.lower()
    if extension in PDF_EXTENSIONS:
        options = _PdfOptions(garbled_threshold, ocr, ocr_max_pages, ocr_dpi, ocr_engine)
        return _read_pdf(data, name, options, _Reporter(progress))
    if extension in TEXT_EXTENSIONS:
        return _read_text(data, name)
    kind = f"'{extension}' files" if extension else "files without an extension"
    raise UnsupportedFileType(
        f"'{name}' cannot be read: {kind} are not supported. Upload a {ACCEPTED_TYPES} file."
    )


@dataclass(frozen=True)
class _PdfOptions:
    garbled_threshold: float
    ocr: bool
    ocr_max_pages: int
    ocr_dpi: int
    ocr_engine: str


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
    warnings: list[str] = []
    if doc.is_repaired:
        warnings.append(f"'{name}' had errors in its structure and was repaired; some text may be missing.")

    # MuPDF's plain text is cheap (~1 ms a page) and is the yardstick for the layout text. Scanned pages go to
    # OCR and pages without any text are blank: neither goes through the slow layout model (so a scan with OCR
    # off fails fast).
    raws = [page.get_text() for page in doc]
    scanned = _scanned_pages(doc, raws)
    scanned_set = set(scanned)
    text_pages = [i for i, raw in enumerate(raws) if raw.strip() and i not in scanned_set]
    plan = _plan_ocr(scanned, options)
    if not text_pages and not plan.pages:
        raise _no_text_layer(name, scanned, plan)

    geometry = _measure_pages(doc, text_pages)
    texts = [""] * doc.page_count
    readers = ["pymupdf4llm"] * doc.page_count
    markdown = _layout_markdown(doc, text_pages, name, warnings, report) if text_pages else [""] * doc.page_count
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
    unread = sorted(set(plan.unread) | (set(plan.pages) - set(ocr_pages)))
    for index in unread:
        readers[index] = "unread"
    if plan.unread:
        warnings.append(f"{_pages_are(plan.unread, 'scanned and')} not read: {plan.reason}")

    # Headings come from the layout reader even where another reader supplied the text: pdfplumber marks none,
    # and a heading lost on a re-read page would leave every later page under the previous section.
    pages = _finish_pages(texts, readers, outline=markdown)
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


def _no_text_layer(name: str, scanned: list[int], plan: _OcrPlan, *, ocr_tried: bool = False) -> NoTextLayer:
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


def _layout_markdown(
    doc: pymupdf.Document, indices: list[int], name: str, warnings: list[str], report: _Reporter
) -> list[str] | None:
    """Cleaned pymupdf4llm Markdown for every page (``""`` for pages not in ``indices``), ``None`` on failure.

    pymupdf4llm reads all pages in one call, so heading levels come from the font sizes of the whole document.
    Progress during the call is taken from the document's ``load_page``, which it calls once per page in order;
    an instance attribute, so no other document is affected.
    """
    wanted = set(indices)
    seen: set[int] = set()
    load_page = doc.load_page

    def counting_load_page(number: int = 0, *args, **kwargs):
        if number in wanted and number not in seen:
            seen.add(number)
            report("read", len(seen) - 1, len(indices))  # the previous page is done when the next one starts
        return load_page(number, *args, **kwargs)

    try:
        import pymupdf4llm  # imported here: loading the layout model is slow and only PDFs need it

        doc.load_page = counting_load_page
        chunks = pymupdf4llm.to_markdown(
            doc, pages=indices, page_chunks=True, header=False, footer=False, use_ocr=False, show_progress=False
        )
    except Exception:
        warnings.append(f"The layout reader failed on '{name}'; its text was read without headings or tables.")
        return None
    finally:
        vars(doc).pop("load_page", None)
    pages = [""] * doc.page_count
    for position, chunk in enumerate(chunks):
        # Chunks carry their 1-based page number; fall back to their position in the request.
        number = (chunk.get("metadata") or {}).get("page_number")
        if not number and position < len(indices):
            number = indices[position] + 1
        if number and 1 <= number <= doc.page_count:
            pages[number - 1] = clean_markdown(chunk.get("text") or "")
    return pages


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def _junk_share(text: str) -> float:
    """Share of the visible characters that are U+FFFD or ``(cid:N)`` placeholders."""
    visible = sum(not c.isspace() for c in text)
    if not visible:
        return 0.0
    junk = text.count("\ufffd") + sum(len(m) for m in _CID.findall(text))
    return junk / visible


def _coverage(text: str, raw: str) -> float:
    """Share of the page's raw words (with repeats) that also occur in ``text``."""
    raw_words = _words(raw)
    if not raw_words:
        return 1.0
    found = set(_words(text))
    return sum(w in found for w in raw_words) / len(raw_words)


def _needs_reread(text: str, raw: str, threshold: float) -> bool:
    if not text.strip():
        return True
    return _junk_share(text) >= _JUNK_SHARE or _coverage(text, raw) < threshold


def _reread(
    plumber: _LazyPlumber,
    index: int,
    current: tuple[str, str],
    raw: str,
    geometry: _Geometry,
    name: str,
    warnings: list[str],
) -> tuple[str, str]:
    """Read page ``index`` again with pdfplumber and return the better ``(text, reader)`` for it.

    pdfplumber's text replaces ``current`` unless it holds fewer of the page's words. When both lost most of
    them, MuPDF's plain text is used instead: it has no layout but holds every word, each line in its own
    direction. pdfplumber writes text set sideways as reversed letters, so it reads only upright characters,
    and not at all on a page that is turned or whose text runs sideways.
    """
    if not raw.strip():
        # Neither reader finds text where MuPDF finds none (image-only page), so skip opening pdfplumber.
        return current
    yardstick = geometry.yardstick()
    candidates = [current]
    if geometry.upright:
        try:
            text = plumber.page_text(index, upright_only=bool(geometry.off_axis_groups()))
            candidates.insert(0, (text, "pdfplumber"))  # first: it wins ties
        except Exception:
            warnings.append(f"Page {index + 1} of '{name}' could not be re-read; its text may be incomplete.")
    readable = [c for c in candidates if c[0].strip() and _junk_share(c[0]) < _JUNK_SHARE]
    if readable:
        best = max(readable, key=lambda c: _coverage(c[0], yardstick))
        if _coverage(best[0], yardstick) >= _MOSTLY_LOST:
            return best
    if _junk_share(raw) < _JUNK_SHARE:
        return raw, "pymupdf"
    # The font maps its glyphs to no characters: nothing readable to index.
    return "", candidates[0][1]


class _LazyPlumber:
    """Opens pdfplumber on first use only: most PDFs never need it."""

    def __init__(self, data: bytes):
        self._data = data
        self._pdf = None

    def page_text(self, index: int, *, upright_only: bool = False) -> str:
        if self._pdf is None:
            import pdfplumber

            self._pdf = pdfplumber.open(io.BytesIO(self._data))
        page = self._pdf.pages[index]
        if upright_only:
            page = page.filter(lambda obj: obj.get("object_type") != "char" or obj.get("upright", True))
        return page.extract_text(x_tolerance=_PLUMBER_X_TOLERANCE) or ""

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None


# --- OCR -----------------------------------------------------------------------------------------------------------


@dataclass
class _OcrPlan:
    """Which scanned pages to OCR, which to leave unread and why (``reason`` completes "were not read: ...")."""

    pages: list[int] = field(default_factory=list)
    unread: list[int] = field(default_factory=list)
    reason: str = ""
    remedy: str = ""  # what the user can do about ``reason``, a sentence
    engine: object = None


def _scanned_pages(doc: pymupdf.Document, raws: list[str]) -> list[int]:
    """0-based indices of pages that are scans: (almost) no text layer and covered by an image."""
    try:
        from ingestion.ocr import page_needs_ocr
    except ImportError:  # OCR's own dependencies are missing: still tell scans from blank pages
        return [i for i, raw in enumerate(raws) if not raw.strip() and doc[i].get_images()]
    return [i for i in range(doc.page_count) if page_needs_ocr(doc[i])]


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


# --- Page geometry -------------------------------------------------------------------------------------------------

# Lines whose centre lies in this share of the page height at the top or bottom are margin lines (NIST sets its
# "Page 11" footer at 89.7 % of the height).
_MARGIN_BAND = 0.12
# A margin line (digits ignored) is a running header or footer when it recurs on at least this many pages and
# this share of the pages: books alternate headers between odd and even pages, so a half of them is common.
_RUNNING_MIN_PAGES = 3
_RUNNING_SHARE = 1 / 3
# Markup and list markers the readers add around a line; ignored when a text line is compared with a margin line.
_LINE_MARKUP = re.compile(r"[#*_`|>\s-]+")
_DIGITS = re.compile(r"\d+")
_ROMAN = re.compile(r"(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
# A line of at least this many words is prose; shorter ones are labels.
_PROSE_WORDS = 3
# How far from the start (headers) or end (footers) of a page's text a running line is looked for.
_RUNNING_SEARCH_LINES = 6


@dataclass
class _Line:
    text: str
    bbox: tuple[float, float, float, float]
    turn: int  # page rotation (0, 90, 180, 270) under which the line reads left to right
    block: int


@dataclass
class _Row:
    """A row of margin lines at one height, e.g. a header with a left and a right part."""

    band: str  # "top" or "bottom"
    lines: list[int]  # indices into _Geometry.lines, left to right
    key: str
    segment_keys: list[str]


@dataclass
class _Geometry:
    """How one page's text lies: see :func:`_measure_page`."""

    turn: int = 0  # rotation under which most of the text reads left to right
    rotation: int = 0  # the page's own /Rotate
    lines: list[_Line] = field(default_factory=list)
    margin_rows: list[_Row] = field(default_factory=list)
    running_rows: list[_Row] = field(default_factory=list)

    @property
    def upright(self) -> bool:
        """The page is neither turned nor set mostly sideways (pdfplumber reads it as printed)."""
        return self.turn == 0 and self.rotation == 0

    def _running_lines(self) -> set[int]:
        return {i for row in self.running_rows for i in row.lines}

    def yardstick(self) -> str:
        """Text of the lines in the page's main direction, without running headers and footers."""
        skip = self._running_lines()
        return "\n".join(line.text for i, line in enumerate(self.lines) if line.turn == self.turn and i not in skip)

    def off_axis_groups(self) -> list[str]:
        """Text of the lines running across the main direction, one string per block and direction."""
        skip = self._running_lines()
        groups: list[str] = []
        key = None
        for i, line in enumerate(self.lines):
            if line.turn == self.turn or i in skip:
                key = None
                continue
            if (line.block, line.turn) == key:
                groups[-1] += "\n" + line.text
            else:
                groups.append(line.text)
                key = (line.block, line.turn)
        return groups


def _turn_of(direction: tuple[float, float]) -> int:
    """The page rotation that makes text running along ``direction`` (unrotated page, y down) read left to right."""
    dx, dy = direction
    if abs(dx) >= abs(dy):
        return 0 if dx > 0 else 180
    return 90 if dy < 0 else 270  # upwards text reads left to right once the page is turned 90 degrees clockwise


def _measure_page(page: pymupdf.Page) -> _Geometry:
    """Lines of a page with their direction, the page's main direction and its rows of margin lines.

    Coordinates are MuPDF's unrotated ones, so the measure does not depend on the page's /Rotate.
    """
    lines: list[_Line] = []
    for block_number, block in enumerate(page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]):
        for line in block.get("lines", ()):
            text = "".join(span["text"] for span in line["spans"]).strip()
            if text:
                lines.append(_Line(text, tuple(line["bbox"]), _turn_of(line["dir"]), block_number))
    # The main direction is the one most prose runs in. Lines of a few words do not count: a figure labelled
    # with many short sideways words (axis ticks, attention maps) is still read upright with its caption.
    chars: Counter[int] = Counter()
    for line in lines:
        if len(_WORD.findall(line.text)) >= _PROSE_WORDS:
            chars[line.turn] += len(line.text)
    if not chars:
        for line in lines:
            chars[line.turn] += len(line.text)
    # Ties go to upright reading.
    turn = max(chars, key=lambda t: (chars[t], t == 0)) if chars else 0
    return _Geometry(turn=turn, rotation=page.rotation, lines=lines,
                     margin_rows=_margin_rows(lines, page.cropbox.height))


def _margin_rows(lines: list[_Line], height: float) -> list[_Row]:
    """Rows of horizontal lines whose centre lies in the top or bottom margin band."""
    rows: list[tuple[str, float, list[int]]] = []  # band, centre, line indices
    for i, line in enumerate(lines):
        if line.turn != 0 or height <= 0:
            continue
        x0, y0, x1, y1 = line.bbox
        centre = (y0 + y1) / 2
        band = "top" if centre <= _MARGIN_BAND * height else "bottom" if centre >= (1 - _MARGIN_BAND) * height else ""
        if not band:
            continue
        for row_band, row_centre, members in rows:
            if row_band == band and abs(row_centre - centre) <= (y1 - y0) / 2:
                members.append(i)
                break
        else:
            rows.append((band, centre, [i]))
    result = []
    for band, _, members in rows:
        members.sort(key=lambda i: lines[i].bbox[0])
        texts = [lines[i].text for i in members]
        result.append(_Row(band, members, _line_key(" ".join(texts)), [_line_key(t) for t in texts]))
    return result


def _line_key(text: str) -> str:
    """A line as compared across pages and readers: no markup or case, every number (and roman numeral) ``#``."""
    text = _LINE_MARKUP.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()
    if _ROMAN.fullmatch(text):
        return "#"
    return _DIGITS.sub("#", text)


def _measure_pages(doc: pymupdf.Document, indices: list[int]) -> dict[int, _Geometry]:
    """Measure the given pages, mark running headers and footers, and turn sideways pages upright.

    The layout reader reads the page as displayed (it bakes the page's /Rotate into its content first) and
    returns nothing for text that runs sideways there; setting /Rotate to the page's main direction makes that
    text upright. Only this in-memory copy of the document changes.
    """
    geometry = {i: _measure_page(doc[i]) for i in indices}
    counts: Counter[tuple[str, str]] = Counter()
    for g in geometry.values():
        counts.update({(row.band, row.key) for row in g.margin_rows if row.key})
    needed = max(_RUNNING_MIN_PAGES, _RUNNING_SHARE * len(indices))
    for g in geometry.values():
        g.running_rows = [row for row in g.margin_rows if counts[(row.band, row.key)] >= needed]
    for i, g in geometry.items():
        if g.turn != g.rotation:
            doc[i].set_rotation(g.turn)
    return geometry


def _strip_running(text: str, rows: list[_Row]) -> str:
    """Drop the page's running header and footer lines from ``text``, wherever a reader left them.

    A header is looked for among the first lines and a footer among the last; a row is matched whole (one text
    line) or part by part (a reader that kept its parts apart). Table rows are never touched.
    """
    if not rows:
        return text
    lines = text.split("\n")
    alive = [bool(line.strip()) for line in lines]
    for row in rows:
        content = [i for i, keep in enumerate(alive) if keep]
        window = content[:_RUNNING_SEARCH_LINES] if row.band == "top" else content[::-1][:_RUNNING_SEARCH_LINES]
        keys: list[str | None] = [None if lines[i].lstrip().startswith("|") else _line_key(lines[i]) for i in window]
        if row.key in keys:
            alive[window[keys.index(row.key)]] = False
            continue
        for segment in row.segment_keys:
            if segment in keys:
                position = keys.index(segment)
                alive[window[position]] = False
                keys[position] = None
    kept = [line for line, keep in zip(lines, alive) if keep or not line.strip()]
    return "\n".join(kept)


def _restore_off_axis(text: str, groups: list[str]) -> str:
    """Append the sideways line groups whose words ``text`` mostly lacks, each as its own paragraph."""
    found = set(_words(text))
    missing = []
    for group in groups:
        words = _words(group)
        if words and sum(w in found for w in words) / len(words) < _MOSTLY_LOST:
            missing.append(group)
    if not missing:
        return text
    return "\n\n".join([text.rstrip()] * bool(text.strip()) + missing)


# --- Text files ----------------------------------------------------------------------------------------------------


def _read_text(data: bytes, name: str) -> ReadResult:
    warnings: list[str] = []
    text = _decode(data, name, warnings)
    if not text.strip():
        raise EmptyFile(f"'{name}' contains no text (only whitespace). Upload a file with some text in it.")
    # A form feed is the plain-text page break (pdftotext writes one per page).
    chunks = text.replace("\r\n", "\n").replace("\r", "\n").split("\f")
    if len(chunks) > 1 and not chunks[-1].strip():
        chunks.pop()  # a trailing form feed ends the last page; it does not start a new one
    pages = _finish_pages(chunks, ["text"] * len(chunks))
    empty = [p.number for p in pages if not p.text]
    if empty:
        warnings.append(_empty_pages_warning(empty))
    return ReadResult(
        filename=name, pages=pages, page_count=len(pages), warnings=warnings, title=_first_heading(pages) or name
    )


def _decode(data: bytes, name: str, warnings: list[str]) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Windows-1252 decodes (nearly) any byte string and is the usual encoding of non-UTF-8 text on Windows.
        warnings.append(
            f"'{name}' is not UTF-8; it was read as Windows-1252, so some characters may be wrong. "
            "Save it as UTF-8 for exact text."
        )
        return data.decode("cp1252", errors="replace")


# --- Shared --------------------------------------------------------------------------------------------------------

# A section number opening a heading: "2", "2.1", "2.1.3", "3." or an appendix "A.1". At most two digits a part,
# so a year ("2023 in review") is not taken for one.
_SECTION_NUMBER = re.compile(r"(?:\d{1,2}(?:\.\d{1,2})*|[A-Z](?:\.\d{1,2})+)\.?(?=\s)")


def _finish_pages(texts: list[str], readers: list[str], outline: list[str] | None = None) -> list[Page]:
    """Repair every page's text and attach the heading path in effect where each page starts.

    Parameters
    ----------
    texts, readers : each page's text and the reader that produced it.
    outline : per page, the Markdown to take headings from; the page texts themselves when ``None``.
    """
    vocabulary = hyphenated_vocabulary(texts)
    repaired = [repair_text(t, vocabulary) for t in texts]
    sources = repaired if outline is None else outline
    found = [_headings(source) for source in sources]
    base = _numbered_base(found)
    pages: list[Page] = []
    path: list[tuple[int, str, bool]] = []  # (level, heading, numbered), outermost first
    for number, (text, reader, headings) in enumerate(zip(repaired, readers, found), start=1):
        pages.append(Page(number=number, text=text, headings=[h for _, h, _ in path], reader=reader))
        for level, heading in headings:
            depth = _section_depth(heading) if base else 0
            if depth:
                level = base + depth - 1
            elif base and level > base:
                # An unnumbered heading marked below the top sections (a figure title, a run-in paragraph
                # title) sits inside the open numbered section; it must not close "3.2" and leave "3.2.1" under
                # itself.
                inner = [lvl for lvl, _, numbered in path if numbered]
                level = max(level, inner[-1] + 1) if inner else level
            # A heading closes every open heading at its level or deeper.
            path = [entry for entry in path if entry[0] < level]
            path.append((level, heading, bool(depth)))
    return pages


def _section_depth(heading: str) -> int:
    """How deep a heading's section number nests it ("2" -> 1, "2.1.3" -> 3); 0 when it has none."""
    match = _SECTION_NUMBER.match(heading)
    return match[0].rstrip(".").count(".") + 1 if match else 0


def _numbered_base(pages: list[list[tuple[int, str]]]) -> int:
    """The Markdown level of the document's top numbered sections ("1", "2"), or 0 when none is numbered.

    Font sizes do not always tell "2.1" from "2" (many papers set both alike), so a numbered heading gets the
    level its number says: ``n`` levels below this one for ``n`` more parts. The top sections keep the level
    they are most often marked with.
    """
    numbered = [(level, depth) for page in pages for level, h in page if (depth := _section_depth(h))]
    if not numbered:
        return 0
    tops = Counter(level for level, depth in numbered if depth == 1)
    if tops:
        return min(tops, key=lambda level: (-tops[level], level))
    return max(1, min(level - depth + 1 for level, depth in numbered))


def _headings(text: str) -> list[tuple[int, str]]:
    """Markdown headings ``(level, text)`` in order, ignoring ``#`` lines inside fenced code blocks."""
    found = []
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else _HEADING.match(line)
        if match:
            heading = repair_text(match[2]).strip(" *_`~")
            if heading:
                found.append((len(match[1]), heading))
    return found


def _first_heading(pages: list[Page]) -> str:
    for page in pages:
        for _, heading in _headings(page.text):
            return heading
    return ""


def _empty_pages_warning(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"page {numbers[0]} has no extractable text"
    return f"pages {', '.join(map(str, numbers))} have no extractable text"
