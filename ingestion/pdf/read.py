"""Read a PDF upload into pages of clean text: the steps of :mod:`ingestion.pdf` in the order the data flows.

1. :func:`~ingestion.pdf.opening.open_pdf` and :func:`~ingestion.pdf.opening.check_document`: refuse what is not
   a PDF, is encrypted, cut short, empty, over the page limit or a decompression bomb.
2. :func:`~ingestion.pdf.triage.sort_pages`: MuPDF's plain text of every page sorts them into text pages, scans
   and pages it cannot parse.
3. :func:`~ingestion.pdf.scans.plan_ocr`: which scans are read with OCR, which are left unread and why.
4. :func:`~ingestion.pdf.geometry.measure_pages`: each text page's lines, main direction and running headers.
5. :func:`~ingestion.pdf.routing.plain_pages`: the text pages plain enough to be read without the layout model,
   with their regions told from MuPDF's lines (:mod:`ingestion.pdf.plain_layout`).
6. :func:`~ingestion.pdf.layout_text.layout_markdown`: the layout reader's Markdown of the text pages, with the
   model's regions or the plain ones.
7. :func:`~ingestion.pdf.reread.page_texts`: the text kept for each text page (re-read where the layout text lost
   words), without running lines, with sideways ones.
8. :func:`~ingestion.pdf.scans.run_ocr`: the planned scans' text.
9. :func:`~ingestion.headings.finish_pages` and :func:`~ingestion.page_labels.page_labels`: repaired pages with
   their blocks and heading paths, and the label printed on each.
"""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from core.errors import IngestError
from core.types import ReadResult
from ingestion.headings import finish_pages, first_heading
from ingestion.page_labels import page_labels
from ingestion.page_wording import empty_pages_warning, pages_are
from ingestion.pdf.geometry import measure_pages
from ingestion.pdf.layout_text import layout_markdown
from ingestion.pdf.opening import check_document, damaged, open_pdf
from ingestion.pdf.progress import Progress, Reporter
from ingestion.pdf.reread import page_texts
from ingestion.pdf.routing import plain_pages
from ingestion.pdf.scans import no_text_error, plan_ocr, run_ocr
from ingestion.pdf.triage import sort_pages


@dataclass(frozen=True)
class PdfOptions:
    """How a PDF is read: see :func:`ingestion.reader.read_document`, whose arguments these are."""

    garbled_threshold: float
    ocr: bool
    ocr_max_pages: int
    ocr_dpi: int
    ocr_engine: str
    max_pages: int | None = None
    layout_workers: int = 1


def read_pdf(data: bytes, name: str, options: PdfOptions, progress: Progress | None = None) -> ReadResult:
    """Read the PDF ``data`` (uploaded as ``name``) into a :class:`~core.types.ReadResult`.

    ``progress`` is called as :func:`ingestion.reader.read_document` describes. Every refusal is an
    :class:`~core.errors.IngestError`; anything else the PDF libraries raise on a malformed file becomes
    :class:`~core.errors.DamagedPdf`.
    """
    doc = open_pdf(data, name)
    try:
        return _read_open_pdf(doc, data, name, options, Reporter(progress))
    except IngestError:
        raise
    except Exception as exc:  # anything the PDF libraries raise on a malformed file
        raise damaged(name) from exc
    finally:
        doc.close()


def _read_open_pdf(
    doc: pymupdf.Document, data: bytes, name: str, options: PdfOptions, report: Reporter
) -> ReadResult:
    warnings = check_document(doc, data, name, options.max_pages)
    sort = sort_pages(doc, name)
    plan = plan_ocr(sort.scanned, enabled=options.ocr, max_pages=options.ocr_max_pages,
                    engine_name=options.ocr_engine)
    if not sort.text_pages and not plan.pages:
        raise no_text_error(name, sort.scanned, plan)

    geometry = measure_pages(doc, sort.text_pages)
    plain = plain_pages(doc, geometry)
    layout = layout_markdown(doc, sort.text_pages, name, warnings, report, plain, options.layout_workers)
    texts, readers = page_texts(data, name, sort.text_pages, layout, sort.raws, geometry, options.garbled_threshold,
                                warnings, report)
    ocr_pages = run_ocr(doc, plan, options.ocr_dpi, texts, readers, warnings, report)

    unread = sorted(set(plan.unread) | (set(plan.pages) - set(ocr_pages)) | set(sort.broken))
    for index in unread:
        readers[index] = "unread"
    if plan.unread:
        warnings.append(f"{pages_are(plan.unread, 'scanned and')} not read: {plan.reason}")
    for reason in dict.fromkeys(sort.broken.values()):
        pages = [i for i, why in sort.broken.items() if why == reason]
        warnings.append(f"{pages_are(pages, 'damaged and')} not read: the PDF reader cannot parse it ({reason})")

    # Headings come from the layout reader even where another reader supplied the text: pdfplumber marks none,
    # and a heading lost on a re-read page would leave every later page under the previous section.
    pages = finish_pages(texts, readers, outline=layout)
    for page, label in zip(pages, page_labels(doc, geometry)):
        page.label = label
    if not any(p.text for p in pages):
        raise no_text_error(name, sort.scanned, plan, ocr_tried=bool(ocr_pages))
    empty = [p.number for p in pages if not p.text and p.number - 1 not in unread]
    if empty:
        warnings.append(empty_pages_warning(empty))
    metadata_title = (doc.metadata or {}).get("title") or ""
    return ReadResult(
        filename=name,
        pages=pages,
        page_count=len(pages),
        warnings=warnings,
        title=metadata_title.strip() or first_heading(pages) or name,
        ocr_pages=[i + 1 for i in ocr_pages],
        unread_pages=[i + 1 for i in unread],
    )
