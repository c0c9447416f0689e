"""held-k's pages: :func:`paginate` decides which items go on which page and :func:`render_pdf` draws them, the
export forms with :mod:`evaluation.invoice_held_k_export` and the spreadsheet invoices with
:mod:`evaluation.invoice_held_k_sheet`.

An export form holds the items that fit between its header and its foot, repeats its column headings on every page
with items, and puts its totals, weights, words and declaration after the last item, on a page of their own when
the last has no room. A spreadsheet deals its rows onto pages as spreadsheets print (see its module). The canvas is
made with ``invariant=1``: the same invoice and layout give the same bytes.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from evaluation import invoice_held_k_export as export
from evaluation import invoice_held_k_sheet as sheet
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row

__all__ = ["paginate", "render_pdf"]


def _kind(lay: Layout):
    return sheet if lay.extra["kind"] == "sheet" else export


def _pages(pen: Pen, inv: Invoice, lay: Layout) -> list:
    return _kind(lay).pages(pen, inv, lay)


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page (a page of totals or notes only has none)."""
    pen = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)
    return [_kind(lay).items(page) for page in _pages(pen, inv, lay)]


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    buf = io.BytesIO()
    pen = Pen(canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1), lay)
    title = lay.credit_title if inv.is_credit else lay.title
    pen.c.setTitle(f"{title} {inv.number}")
    pages = _pages(pen, inv, lay)
    for n, page in enumerate(pages, 1):
        _kind(lay).draw_page(pen, inv, lay, page, n, len(pages))
        pen.c.showPage()
    pen.c.save()
    return buf.getvalue()
