"""Read an upload (PDF, plain text or Markdown) into pages of clean text with their heading paths.

PDFs are read with pymupdf4llm's layout mode, which keeps headings, lists and tables and drops running page
headers and footers. A page whose layout text lost words is read again with pdfplumber, and if that loses most of
them too, MuPDF's plain text is used (``Page.reader == "pymupdf"``). Every failure is an
:class:`~ingestion.errors.IngestError` whose message tells the user what was wrong and what to do.
"""

from __future__ import annotations

import io
import re
import unicodedata
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


def read_document(
    data: bytes,
    filename: str,
    *,
    max_bytes: int | None = None,
    garbled_threshold: float = 0.85,
) -> ReadResult:
    """Read an uploaded file into pages of cleaned text.

    Parameters
    ----------
    data : the file's bytes.
    filename : the name it was uploaded under; its extension decides how it is read.
    max_bytes : largest accepted size, or ``None`` for no limit.
    garbled_threshold : a PDF page whose layout text holds less than this share of the page's raw words is
        read again with pdfplumber.

    Returns
    -------
    ReadResult
        One :class:`Page` per physical page (1-based; pages without text are kept with ``text == ""``), the
        title and any warnings for the user.

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
        No page of the PDF has extractable text (a scan).
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
        return _read_pdf(data, name, garbled_threshold)
    if extension in TEXT_EXTENSIONS:
        return _read_text(data, name)
    kind = f"'{extension}' files" if extension else "files without an extension"
    raise UnsupportedFileType(
        f"'{name}' cannot be read: {kind} are not supported. Upload a {ACCEPTED_TYPES} file."
    )


# --- PDF -----------------------------------------------------------------------------------------------------------


def _read_pdf(data: bytes, name: str, garbled_threshold: float) -> ReadResult:
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
        return _read_open_pdf(doc, data, name, garbled_threshold)
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


def _read_open_pdf(doc: pymupdf.Document, data: bytes, name: str, garbled_threshold: float) -> ReadResult:
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

    # MuPDF's plain text is cheap (~1 ms a page) and is the yardstick for the layout text. Pages without any are
    # image-only: neither reader finds text there, so they skip the slow layout model (and a scan fails fast).
    raws = [page.get_text() for page in doc]
    if not any(raw.strip() for raw in raws):
        raise _no_text_layer(name)
    markdown = _layout_markdown(doc, [i for i, raw in enumerate(raws) if raw.strip()], name, warnings)
    texts: list[str] = []
    readers: list[str] = []
    plumber = _LazyPlumber(data)
    try:
        for index, raw in enumerate(raws):
            text, reader = (markdown[index], "pymupdf4llm") if markdown is not None else ("", "pdfplumber")
            if markdown is None or _needs_reread(text, raw, garbled_threshold):
                text, reader = _reread(plumber, index, (text, reader), raw, name, warnings)
            texts.append(text)
            readers.append(reader)
    finally:
        plumber.close()

    # Headings come from the layout reader even where pdfplumber supplied the text: pdfplumber marks none, and a
    # heading lost on a re-read page would leave every later page under the previous section.
    pages = _finish_pages(texts, readers, outline=markdown)
    empty = [p.number for p in pages if not p.text]
    if len(empty) == len(pages):
        raise _no_text_layer(name)
    if empty:
        warnings.append(_empty_pages_warning(empty))
    metadata_title = (doc.metadata or {}).get("title") or ""
    return ReadResult(
        filename=name,
        pages=pages,
        page_count=len(pages),
        warnings=warnings,
        title=metadata_title.strip() or _first_heading(pages) or name,
    )


def _no_text_layer(name: str) -> NoTextLayer:
    return NoTextLayer(
        f"'{name}' has no text layer (it looks scanned); OCR of scanned pages is not available yet, "
        "upload a PDF with selectable text."
    )


def _layout_markdown(
    doc: pymupdf.Document, indices: list[int], name: str, warnings: list[str]
) -> list[str] | None:
    """Cleaned pymupdf4llm Markdown for every page (``""`` for pages not in ``indices``), ``None`` on failure."""
    try:
        import pymupdf4llm  # imported here: loading the layout model is slow and only PDFs need it

        chunks = pymupdf4llm.to_markdown(
            doc, pages=indices, page_chunks=True, header=False, footer=False, use_ocr=False, show_progress=False
        )
    except Exception:
        warnings.append(f"The layout reader failed on '{name}'; its text was read without headings or tables.")
        return None
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
    plumber: _LazyPlumber, index: int, current: tuple[str, str], raw: str, name: str, warnings: list[str]
) -> tuple[str, str]:
    """Read page ``index`` again with pdfplumber and return the better ``(text, reader)`` for it.

    pdfplumber's text replaces ``current`` unless it holds fewer of the page's raw words. When both lost most of
    them, MuPDF's plain text is used instead: it has no layout but holds every word. (pdfplumber writes text set
    sideways as reversed letters without spaces.)
    """
    if not raw.strip():
        # Neither reader finds text where MuPDF finds none (image-only page), so skip opening pdfplumber.
        return current
    candidates = [current]
    try:
        candidates.insert(0, (plumber.page_text(index), "pdfplumber"))  # first: it wins ties
    except Exception:
        warnings.append(f"Page {index + 1} of '{name}' could not be re-read; its text may be incomplete.")
    readable = [c for c in candidates if c[0].strip() and _junk_share(c[0]) < _JUNK_SHARE]
    if readable:
        best = max(readable, key=lambda c: _coverage(c[0], raw))
        if _coverage(best[0], raw) >= _MOSTLY_LOST:
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

    def page_text(self, index: int) -> str:
        if self._pdf is None:
            import pdfplumber

            self._pdf = pdfplumber.open(io.BytesIO(self._data))
        return self._pdf.pages[index].extract_text(x_tolerance=_PLUMBER_X_TOLERANCE) or ""

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None


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
    pages: list[Page] = []
    path: list[tuple[int, str]] = []  # (level, heading), outermost first
    for number, (text, reader, source) in enumerate(zip(repaired, readers, sources), start=1):
        pages.append(Page(number=number, text=text, headings=[h for _, h in path], reader=reader))
        for level, heading in _headings(source):
            # A heading closes every open heading at its level or deeper.
            path = [(lvl, h) for lvl, h in path if lvl < level]
            path.append((level, heading))
    return pages


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
