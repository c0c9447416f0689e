"""Sort a PDF's pages by how they can be read, from MuPDF's plain text (~1 ms a page): pages with a text layer go
to the layout reader, scans to OCR, pages MuPDF cannot parse are left unread, and the rest are blank.

MuPDF's plain text is also the yardstick the layout text is measured against (:mod:`ingestion.pdf.reread`). Scans
and blank pages never go through the slow layout model, so a scan with OCR off fails fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf

from ingestion.pdf.opening import damaged


@dataclass
class PageSort:
    """A document's pages by how they are read; every index is 0-based.

    Attributes
    ----------
    raws : MuPDF's plain text of every page (``""`` for a page it cannot parse).
    broken : pages MuPDF cannot parse, with the reason it gave.
    scanned : scans: (almost) no text layer and covered by an image, in page order.
    text_pages : pages with a text layer, in page order.
    """

    raws: list[str]
    broken: dict[int, str]
    scanned: list[int]
    text_pages: list[int]


def sort_pages(doc: pymupdf.Document, name: str) -> PageSort:
    """Sort the pages of ``doc`` (see :class:`PageSort`).

    Raises
    ------
    DamagedPdf
        No page can be parsed.
    """
    raws, broken = _raw_texts(doc)
    if len(broken) == doc.page_count:
        raise damaged(name, f"is damaged: no page can be parsed ({next(iter(broken.values()))})")
    scanned = _scanned_pages(doc, raws, skip=broken)
    scanned_set = set(scanned)
    text_pages = [i for i, raw in enumerate(raws) if raw.strip() and i not in scanned_set]
    return PageSort(raws=raws, broken=broken, scanned=scanned, text_pages=text_pages)


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


def _scanned_pages(doc: pymupdf.Document, raws: list[str], skip: dict[int, str]) -> list[int]:
    """0-based indices of pages that are scans: (almost) no text layer and covered by an image. Pages in ``skip``
    (those MuPDF cannot parse) are left out."""
    try:
        from ingestion.ocr import _MIN_TEXT_CHARS, page_needs_ocr
    except ImportError:  # OCR's own dependencies are missing: still tell scans from blank pages
        return [i for i, raw in enumerate(raws) if i not in skip and not raw.strip() and doc[i].get_images()]
    # A page whose plain text has page_needs_ocr's share of letters is no scan: its text is not extracted again.
    return [i for i in range(doc.page_count)
            if i not in skip and sum(ch.isalnum() for ch in raws[i]) < _MIN_TEXT_CHARS and page_needs_ocr(doc[i])]
