"""Read the text layer of a PDF's pages with pymupdf4llm's layout mode, as Markdown that keeps headings, lists,
tables and the reading order of columns, and drops running page headers and footers.

:func:`layout_markdown` takes the open document and its pages with a text layer and gives each page's cleaned
Markdown, or ``None`` when the layout reader failed on the document (then every page is re-read,
:mod:`ingestion.pdf.reread`). Its headings outline the whole document (:func:`ingestion.headings.finish_pages`)
even where another reader's text is kept. Pages given with their regions (``plain``, :mod:`ingestion.pdf.routing`)
are written from those instead of the layout model's, ~10x faster, in the same call: heading levels still come
from the font sizes of every heading of the document.
"""

from __future__ import annotations

import pymupdf

from ingestion.layout_repair import mend_layout_page
from ingestion.page_wording import pages_are
from ingestion.pdf.layout_workers import LayoutHelpers
from ingestion.pdf.progress import Progress

# Largest page area, in square points, read with the layout model: four A0 sheets (4 x 2384 x 3370 pt).
_MAX_LAYOUT_PAGE_AREA = 4 * 2384 * 3370


def layout_markdown(
    doc: pymupdf.Document, indices: list[int], name: str, warnings: list[str], report: Progress,
    plain: dict[int, list[dict]] | None = None, workers: int = 1,
) -> list[str] | None:
    """Cleaned pymupdf4llm Markdown for every page of ``doc``, ``None`` when the layout reader failed.

    ``plain`` maps pages (0-based) to their regions in the layout model's raw form
    (:func:`ingestion.pdf.plain_layout.plain_regions`): those pages are read without the model. The model reads the
    others in ``workers`` processes (:mod:`ingestion.pdf.layout_workers`; 1: this one only).

    Pages not in ``indices`` (0-based) get ``""``, and so do pages larger than four A0 sheets: the layout model
    renders every page it reads, at 72 dpi, so a 200 x 200 inch poster page would cost it ~2 GB; they are re-read
    with pdfplumber or MuPDF instead, with a warning that they have no headings or tables. ``report("read", ...)``
    follows the pages as the layout reader reaches them.
    """
    huge = [i for i in indices if abs(doc[i].rect) > _MAX_LAYOUT_PAGE_AREA]
    layout_pages = [i for i in indices if i not in huge]
    if huge:
        warnings.append(f"{pages_are(huge, 'unusually large and')} read without headings or tables")
    if not layout_pages:
        return [""] * doc.page_count
    return _markdown(doc, layout_pages, name, warnings, report, plain or {}, workers)


def _markdown(
    doc: pymupdf.Document, indices: list[int], name: str, warnings: list[str], report: Progress,
    plain: dict[int, list[dict]], workers: int,
) -> list[str] | None:
    """Cleaned pymupdf4llm Markdown for every page (``""`` for pages not in ``indices``), ``None`` on failure.

    Each page's numeric tables are read again from word positions and its run-together words split
    (:mod:`ingestion.layout_repair`).

    pymupdf4llm reads all pages in one call, so heading levels come from the font sizes of the whole document.
    Progress during the call is taken from the document's ``load_page``, which it calls for each page in order (and
    for some again later); an instance attribute, so no other document is affected. The pages it loads whose regions are known (``plain``,
    or computed by a layout helper, :mod:`ingestion.pdf.layout_workers`) get them as the page's own ``get_layout``.
    """
    wanted = set(indices)
    seen: set[int] = set()
    load_page = doc.load_page

    def parse(document: pymupdf.Document, numbers: list[int]):
        import pymupdf4llm  # imported here: loading the layout model is slow and only PDFs need it

        return pymupdf4llm.to_markdown(document, pages=numbers, page_chunks=True, header=False, footer=False,
                                       use_ocr=False, show_progress=False)

    def counting_load_page(number: int = 0, *args, **kwargs):
        if number in wanted and number not in seen:
            seen.add(number)
            report("read", len(seen) - 1, len(indices))  # the previous page is done when the next one starts
        page = load_page(number, *args, **kwargs)
        if number in plain or helpers.owns(number):
            # A plain page's regions are known without the model (ingestion.pdf.plain_layout); a helper's page
            # waits for the regions its helper computed, when pymupdf4llm asks for them (it loads pages more often
            # than it asks), and runs the model here if the helper failed.
            def known_layout(**kwargs):
                regions = plain[number] if number in plain else helpers.regions(number)
                if regions is None:
                    return type(page).get_layout(page, **kwargs)
                page.layout_information = [dict(r, group_bbox=list(r["group_bbox"])) for r in regions]

            page.get_layout = known_layout
        return page

    try:
        # Forked before load_page is replaced: a helper parses its pages as this process would on its own.
        with LayoutHelpers(doc, [i for i in indices if i not in plain], workers, parse) as helpers:
            doc.load_page = counting_load_page
            chunks = parse(doc, indices)
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
