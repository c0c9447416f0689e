"""Read the text of PDF pages: pymupdf4llm's layout Markdown for the whole document, and pdfplumber (or MuPDF's
plain text) again for a page whose layout text lost words.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pymupdf

from ingestion.layout_repair import mend_layout_page
from ingestion.text_quality import _JUNK_SHARE, _MOSTLY_LOST, _coverage, _junk_share

if TYPE_CHECKING:
    from ingestion.page_geometry import _Geometry
    from ingestion.reader import _Reporter

# pdfplumber's default x_tolerance (3) glues words of tightly set text together; 1.5 keeps them apart.
_PLUMBER_X_TOLERANCE = 1.5


def _layout_markdown(
    doc: pymupdf.Document, indices: list[int], name: str, warnings: list[str], report: _Reporter
) -> list[str] | None:
    """Cleaned pymupdf4llm Markdown for every page (``""`` for pages not in ``indices``), ``None`` on failure.

    Each page's numeric tables are read again from word positions and its run-together words split
    (:mod:`ingestion.layout_repair`).

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
            pages[number - 1] = mend_layout_page(doc[number - 1], chunk.get("text") or "",
                                                 chunk.get("page_boxes") or [])
    return pages


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
