"""held-j's pages: :func:`paginate` decides which items go on which page and :func:`render_pdf` draws them, the
line-printer templates with :mod:`evaluation.invoice_held_j_print` and the order invoices with
:mod:`evaluation.invoice_held_j_web`.

A page holds the items that fit between its header and its foot; items are never split across pages, every page
with items repeats the column headings, and the totals go on the last page, or on a page of their own when the
last has no room for them. The canvas is made with ``invariant=1``: the same invoice and layout give the same bytes.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from evaluation import invoice_held_j_print as printed
from evaluation import invoice_held_j_web as web
from evaluation.invoice_held_j_print import Plan
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row

__all__ = ["paginate", "render_pdf"]


def _kind(lay: Layout):
    return printed if lay.extra["kind"] == "print" else web


def fill(plan: Plan) -> list[list[Row]]:
    """The rows of each page given where they may start and end, and a page more when the totals do not fit
    under the last row."""
    pages: list[list[Row]] = [[]]
    y = plan.first
    for row, height in zip(plan.rows, plan.heights):
        if pages[-1] and y + height > plan.bottom:
            pages.append([])
            y = plan.later
        pages[-1].append(row)
        y += height
    return pages + ([[]] if y + plan.totals > plan.bottom else [])


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page."""
    return fill(_kind(lay).plan(inv, lay))


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages, buf, draw = paginate(inv, lay), io.BytesIO(), _kind(lay).draw_page
    pen = Pen(canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1), lay)
    pen.c.setTitle(f"{lay.credit_title if inv.is_credit else lay.title} {inv.number}")
    for n, rows in enumerate(pages, 1):
        draw(pen, inv, lay, rows, n, len(pages))
        pen.c.showPage()
    pen.c.save()
    return buf.getvalue()
