"""Choose the text kept for each PDF page with a text layer: the layout reader's, or, where that lost words, a
re-read with pdfplumber or MuPDF's plain text; then without running headers and footers, and with the sideways
lines the kept text lacks (:mod:`ingestion.pdf.geometry`).

:func:`page_texts` takes the layout Markdown (:mod:`ingestion.pdf.layout_text`), MuPDF's plain text
(:mod:`ingestion.pdf.triage`) and the measured pages, and gives every page's text and the reader that produced it.
Whether text lost words is judged by :mod:`ingestion.pdf.text_quality`.
"""

from __future__ import annotations

import io

from ingestion.pdf.geometry import Geometry, restore_off_axis, strip_running
from ingestion.pdf.progress import Progress
from ingestion.pdf.text_quality import MOSTLY_LOST, coverage, is_junk

# pdfplumber's default x_tolerance (3) glues words of tightly set text together; 1.5 keeps them apart.
_PLUMBER_X_TOLERANCE = 1.5


def page_texts(
    data: bytes,
    name: str,
    indices: list[int],
    layout: list[str] | None,
    raws: list[str],
    geometry: dict[int, Geometry],
    threshold: float,
    warnings: list[str],
    report: Progress,
) -> tuple[list[str], list[str]]:
    """Every page's ``(texts, readers)``: for the pages in ``indices`` (0-based, with a text layer) the best text,
    for the others ``""`` read by ``"pymupdf4llm"`` (OCR and the unread pages fill them in later).

    Parameters
    ----------
    data, name : the PDF's bytes (pdfplumber opens them on first need) and the file name shown in warnings.
    layout : the layout reader's Markdown per page, ``None`` when it failed (every page is then re-read).
    raws : MuPDF's plain text per page.
    geometry : the measured pages in ``indices``.
    threshold : a page whose layout text holds less than this share of the page's words is re-read.
    warnings, report : where warnings and ``"read"`` progress go.
    """
    texts = [""] * len(raws)
    readers = ["pymupdf4llm"] * len(raws)
    plumber = LazyPlumber(data)
    try:
        for position, index in enumerate(indices):
            report("read", position, len(indices))
            texts[index], readers[index] = _page_text(index, layout, raws[index], geometry[index], plumber,
                                                      threshold, name, warnings)
    finally:
        plumber.close()
    if indices:
        report("read", len(indices), len(indices))
    return texts, readers


def _page_text(
    index: int,
    layout: list[str] | None,
    raw: str,
    geometry: Geometry,
    plumber: LazyPlumber,
    threshold: float,
    name: str,
    warnings: list[str],
) -> tuple[str, str]:
    """The best ``(text, reader)`` of one page with a text layer, without running headers, with sideways text."""
    yardstick = geometry.yardstick()
    text, reader = (layout[index], "pymupdf4llm") if layout is not None else ("", "pdfplumber")
    if layout is None or _needs_reread(text, yardstick, threshold):
        text, reader = _reread(plumber, index, (text, reader), raw, geometry, name, warnings)
    text = strip_running(text, geometry.running_rows)
    return restore_off_axis(text, geometry.off_axis_groups()), reader


def _needs_reread(text: str, raw: str, threshold: float) -> bool:
    if not text.strip():
        return True
    return is_junk(text) or coverage(text, raw) < threshold


def _reread(
    plumber: LazyPlumber,
    index: int,
    current: tuple[str, str],
    raw: str,
    geometry: Geometry,
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
    readable = [c for c in candidates if c[0].strip() and not is_junk(c[0])]
    if readable:
        best = max(readable, key=lambda c: coverage(c[0], yardstick))
        if coverage(best[0], yardstick) >= MOSTLY_LOST:
            return best
    if not is_junk(raw):
        return raw, "pymupdf"
    # The font maps its glyphs to no characters: nothing readable to index.
    return "", candidates[0][1]


class LazyPlumber:
    """pdfplumber over a PDF's bytes, opened on first use only: most PDFs never need it. Close it when done."""

    def __init__(self, data: bytes):
        self._data = data
        self._pdf = None

    def page_text(self, index: int, *, upright_only: bool = False) -> str:
        """pdfplumber's text of page ``index`` (0-based); only upright characters when ``upright_only``."""
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
