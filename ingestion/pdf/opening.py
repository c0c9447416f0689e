"""Open an uploaded PDF and refuse one that cannot or must not be read, before any page is read.

:func:`open_pdf` takes the upload's bytes and gives an open MuPDF document, or refuses what is not a PDF or cannot
be parsed. :func:`check_document` then refuses a document that needs a password, was cut short, has no pages or
more than the page limit, or holds a decompression bomb, and gives the warnings about the file as a whole. Every
refusal is an :class:`~core.errors.IngestError` whose message says what was wrong and what to do;
:func:`damaged` words the one for a file the PDF libraries cannot parse.
"""

from __future__ import annotations

import re
import zlib

import pymupdf

from core.errors import DamagedPdf, DecompressionBomb, EncryptedPdf, NotAPdf, TooManyPages

_MB = 1024 * 1024
_PDF_SIGNATURE = b"%PDF-"
# A page whose content streams inflate to more than this is refused as a decompression bomb before MuPDF parses it.
# Deflate packs a run of one byte ~1000:1, so a 1 MB upload can hold 1 GB of content; MuPDF parses ~150 MB of it a
# second and the reader passes over each page several times, so such a page holds a reading process for minutes
# (until the CPU or wall-clock limit). The densest real pages (maps, CAD drawings) hold tens of MB.
MAX_PAGE_CONTENT_MB = 256


def open_pdf(data: bytes, name: str) -> pymupdf.Document:
    """The open document of ``data`` (the caller closes it).

    Raises
    ------
    NotAPdf
        The content does not start with the PDF signature.
    DamagedPdf
        MuPDF cannot open it.
    """
    if _PDF_SIGNATURE not in data[:1024]:
        raise NotAPdf(
            f"'{name}' is not a PDF: its content does not start with the PDF signature. "
            "Upload the original PDF or a .txt file."
        )
    pymupdf.TOOLS.mupdf_warnings(reset=True)  # so that objects_failed() sees this file's problems only
    try:
        return pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise damaged(name) from exc


def check_document(doc: pymupdf.Document, data: bytes, name: str, max_pages: int | None) -> list[str]:
    """Refuse a document that cannot or must not be read; give the warnings about the whole file.

    Parameters
    ----------
    doc, data : the open document and the bytes it was opened from.
    name : the file name shown in messages.
    max_pages : most pages it may have, or ``None`` for no limit.

    Returns
    -------
    list[str]
        A warning when MuPDF had to repair the file's structure, else nothing.

    Raises
    ------
    EncryptedPdf
        It needs a password (an empty user password is tried first).
    DamagedPdf
        It was repaired and lacks its end-of-file marker (cut short), or it has no pages.
    TooManyPages
        It has more than ``max_pages`` pages.
    DecompressionBomb
        A page's content inflates to more than :data:`MAX_PAGE_CONTENT_MB`.
    """
    # An empty user password opens many "encrypted" PDFs (those that only restrict printing or copying).
    if doc.needs_pass and not doc.authenticate(""):
        raise EncryptedPdf(
            f"'{name}' is password-protected. Remove the password (e.g. print it to a new PDF) and upload it again."
        )
    # MuPDF silently rebuilds a broken cross-reference table. Without the end-of-file marker the file was cut
    # short, so pages are missing even when some open: ask for the whole file instead of indexing a part of it.
    if doc.is_repaired and b"%%EOF" not in data[-2048:]:
        raise damaged(name, "is truncated (it ends before the end-of-file marker)")
    if doc.page_count == 0:
        raise DamagedPdf(f"'{name}' has no pages. Re-export or re-download the PDF and upload it again.")
    # Checked before any page is read: the count comes from the page tree, so a 100,000-page file costs nothing.
    if max_pages is not None and doc.page_count > max_pages:
        raise TooManyPages(
            f"'{name}' has {doc.page_count:,} pages, more than the {max_pages:,}-page limit "
            "(RAG_MAX_PAGES). Split it into smaller files and upload those."
        )
    _check_content_sizes(doc, name)
    if doc.is_repaired:
        return [f"'{name}' had errors in its structure and was repaired; some text may be missing."]
    return []


def damaged(name: str, detail: str = "is damaged or truncated") -> DamagedPdf:
    """The error for a PDF that cannot be read; ``detail`` completes "the file ..."."""
    return DamagedPdf(
        f"'{name}' cannot be read: the file {detail}. Re-export or re-download the PDF and upload it again."
    )


def objects_failed() -> bool:
    """Whether MuPDF could not load some object of the file being read (e.g. nested too deeply), per its warnings
    since :func:`open_pdf`."""
    return "cannot load object" in pymupdf.TOOLS.mupdf_warnings()


def _check_content_sizes(doc: pymupdf.Document, name: str) -> None:
    """Refuse a page whose content streams (its own and its forms') inflate to more than the limit.

    Only FlateDecode streams are measured (by inflating them here, piece by piece, up to the limit); other filters
    count their stored size.
    """
    limit = MAX_PAGE_CONTENT_MB * _MB
    sizes: dict[int, int] = {}  # a stream shared by many pages is measured once
    for index in range(doc.page_count):
        try:
            page = doc[index]
            xrefs = [*page.get_contents(), *(x[0] for x in page.get_xobjects())]
        except Exception:  # a page MuPDF cannot load: ingestion.pdf.triage reports it
            continue
        total = 0
        for xref in xrefs:
            if xref not in sizes:
                sizes[xref] = _inflated_size(doc, xref, limit + 1)
            total += sizes[xref]
        if total > limit:
            raise DecompressionBomb(
                f"'{name}' cannot be read: the content of page {index + 1} inflates to more than "
                f"{MAX_PAGE_CONTENT_MB} MB, far more than any real page holds (a decompression bomb). If the file is "
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
