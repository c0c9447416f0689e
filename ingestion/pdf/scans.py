"""Read a PDF's scanned pages with OCR: plan which are read and which are left unread (and why), read them, and
word the error for a document in which nothing could be read.

:func:`plan_ocr` takes the scanned pages (:mod:`ingestion.pdf.triage`) and the OCR settings and gives an
:class:`OcrPlan`, loading the engine only when there is a page for it; :func:`run_ocr` reads the planned pages into
the document's page texts. OCR itself is :mod:`ingestion.ocr`, imported only when a document has scans (its
engines are heavy, and it may not be installed).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import pymupdf

from core.errors import IngestError, NoTextLayer
from ingestion.page_wording import pages_are
from ingestion.pdf.opening import damaged, objects_failed
from ingestion.pdf.progress import Progress

logger = logging.getLogger(__name__)

# OCR text below this mean confidence is kept but the user is told it may hold misread words.
_LOW_OCR_CONFIDENCE = 0.6


@dataclass
class OcrPlan:
    """Which scanned pages to OCR, which to leave unread and why (``reason`` completes "were not read: ...")."""

    pages: list[int] = field(default_factory=list)
    unread: list[int] = field(default_factory=list)
    reason: str = ""
    remedy: str = ""  # what the user can do about ``reason``, a sentence
    engine: object = None


def plan_ocr(scanned: list[int], *, enabled: bool, max_pages: int, engine_name: str) -> OcrPlan:
    """Decide which of the ``scanned`` pages (0-based) are read.

    Parameters
    ----------
    enabled : OCR is turned on (``RAG_OCR_ENABLED``).
    max_pages : most pages read with OCR; later scanned pages are left unread.
    engine_name : the engine for :func:`ingestion.ocr.get_engine`.
    """
    if not scanned:
        return OcrPlan()
    if not enabled:
        return OcrPlan(unread=scanned, reason="OCR is turned off (RAG_OCR_ENABLED)",
                       remedy="Turn OCR on or upload a PDF with selectable text.")
    unavailable = "Install the OCR engine or upload a PDF with selectable text."
    try:
        from ingestion.ocr import OcrUnavailable, get_engine
    except ImportError as exc:
        return OcrPlan(unread=scanned, reason=f"OCR is not available ({exc})", remedy=unavailable)
    limit = max(0, max_pages)
    over = scanned[limit:]
    reason = remedy = ""
    if over:
        reason = f"the limit is {limit} OCR page{'s' * (limit != 1)} per document (RAG_OCR_MAX_PAGES)"
        remedy = "Raise the limit or split the PDF into smaller files."
    if limit == 0:
        return OcrPlan(unread=scanned, reason=reason, remedy=remedy)
    try:
        engine = get_engine(engine_name)
    except OcrUnavailable as exc:
        return OcrPlan(unread=scanned, reason=f"OCR is not available: {str(exc).rstrip('.')}", remedy=unavailable)
    return OcrPlan(pages=scanned[:limit], unread=over, reason=reason, remedy=remedy, engine=engine)


def run_ocr(
    doc: pymupdf.Document,
    plan: OcrPlan,
    dpi: int,
    texts: list[str],
    readers: list[str],
    warnings: list[str],
    report: Progress,
) -> list[int]:
    """OCR the planned pages, rendered at ``dpi``, into ``texts``/``readers`` (reader ``"ocr"``); return the indices
    read. A page OCR fails on is left out and warned about, as is text read at low confidence; ``report("ocr", ...)``
    follows the pages."""
    if not plan.pages:
        return []
    from ingestion.ocr import ocr_page

    done: list[int] = []
    low: list[tuple[int, float]] = []
    failed: list[int] = []
    report("ocr", 0, len(plan.pages))
    for count, index in enumerate(plan.pages, start=1):
        try:
            result = ocr_page(doc[index], dpi=dpi, engine=plan.engine)
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
        warnings.append(f"{pages_are(failed, 'scanned and')} not read: OCR failed on them.")
    for index, confidence in low:
        warnings.append(
            f"page {index + 1} was read with OCR at low confidence ({confidence:.0%}); its text may hold misread "
            "words"
        )
    return done


def no_text_error(name: str, scanned: list[int], plan: OcrPlan, *, ocr_tried: bool = False) -> IngestError:
    """The error for a PDF no page of which gave any text, saying why: damaged objects, no text layer at all, or
    scans that OCR found nothing on (``ocr_tried``) or did not read (``plan.reason``)."""
    if not scanned and objects_failed():
        # MuPDF left out pages it could not parse: their text is there, but unreadable, not missing.
        return damaged(name, "is damaged: some of its objects cannot be parsed")
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
