"""held-m's pages: :func:`paginate` decides which items go on which page and :func:`render_pdf` draws them, the
shop order invoices with :mod:`evaluation.invoice_held_m_shop` and the typed invoices with
:mod:`evaluation.invoice_held_m_letter`.

A page holds the item rows that fit between its top (the full header on page 1; on later pages a line naming the
invoice, or nothing where the browser's header or the footer names it) and its foot; a row is never split. A later
page starts with the table's heading when the layout repeats it (``repeat_heading``), else the rows simply go on.
The totals and what follows them come after the last item, on a page of their own when the last has no room. The
canvas is made with ``invariant=1``: the same invoice and layout give the same bytes.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from evaluation import invoice_held_m_letter as letter
from evaluation import invoice_held_m_shop as shop
from evaluation.invoice_held_m_pen import MPen, MRow, doc_title
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Row

__all__ = ["paginate", "render_pdf"]


def _kind(lay: Layout):
    return shop if lay.extra["kind"] == "shop" else letter


def _pages(pen: MPen, inv: Invoice, lay: Layout) -> list[list[MRow]]:
    kind = _kind(lay)
    rows = kind.rows(pen, inv, lay)
    bottom = kind.bottom(lay)
    first = kind.head(pen, lay, kind.top(pen, inv, lay, 1, False), False)
    later = kind.top(pen, inv, lay, 2, False)
    if lay.extra["repeat_heading"]:
        later = kind.head(pen, lay, later, False)
    pages: list[list[MRow]] = [[]]
    y = first
    for row in rows:
        if pages[-1] and y + row.height > bottom:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += row.height
    if kind.closing(pen, inv, lay, y, False) > bottom:
        pages.append([])
    return pages


def _scratch(lay: Layout) -> MPen:
    return MPen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page (a page of totals only has none)."""
    return _pages(_scratch(lay), inv, lay)


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    kind = _kind(lay)
    pages = _pages(_scratch(lay), inv, lay)
    buf = io.BytesIO()
    pen = MPen(canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1), lay)
    pen.c.setTitle(f"{doc_title(inv, lay)} {inv.number}")
    count = 0
    for n, rows in enumerate(pages, 1):
        y = kind.top(pen, inv, lay, n, True)
        if rows and (n == 1 or lay.extra["repeat_heading"]):
            y = kind.head(pen, lay, y, True)
        for row in rows:
            y = kind.draw_row(pen, lay, row, y, count)
            count += 1
        if n == len(pages):
            kind.closing(pen, inv, lay, y, True)
        kind.foot(pen, inv, lay, n, len(pages))
        pen.c.showPage()
    pen.c.save()
    return buf.getvalue()
