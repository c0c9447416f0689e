"""held-l's pages: the e-invoice visualisations of :mod:`evaluation.invoice_held_l_visual` and the till invoices of
:mod:`evaluation.invoice_held_l_till` are both a column of pieces (a section, an item's block, row or lines, the
totals), each of a known height, that :func:`evaluation.invoice_held_l.deal` lays onto pages.

Page 1 starts under the full header, a later page under a one-line running header; an item never splits over two
pages, and a page whose next piece is an item starts with the table's heading row where the kind has one. The
pieces after the items (totals, VAT breakdown, payment, a till's tendered and change lines) follow on as they fit.
The canvas is made with ``invariant=1``: the same invoice and layout give the same bytes.
"""

from __future__ import annotations

import io
from reportlab.pdfgen import canvas

from evaluation import invoice_held_l_till as till
from evaluation import invoice_held_l_visual as visual
from evaluation.invoice_held_l import Piece, deal
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row

__all__ = ["paginate", "render_pdf"]


def _kind(lay: Layout):
    return till if lay.extra["kind"] == "till" else visual


def _pages(inv: Invoice, lay: Layout) -> list[list[Piece]]:
    pen = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)
    kind = _kind(lay)
    pieces, heading = kind.pieces(pen, inv, lay)
    first, later = kind.top(pen, inv, lay, 1, 1), kind.top(pen, inv, lay, 2, 2)
    return deal(pieces, heading, first, later, kind.bottom(lay))


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page (a page of totals only has none)."""
    return [[p.row for p in page if p.row is not None] for page in _pages(inv, lay)]


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    buf = io.BytesIO()
    pen = Pen(canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1), lay)
    kind = _kind(lay)
    title = lay.credit_title if inv.is_credit else lay.title
    pen.c.setTitle(f"{title} {inv.number}")
    pages = _pages(inv, lay)
    for n, page in enumerate(pages, 1):
        y = kind.top(pen, inv, lay, n, len(pages))
        for piece in page:
            piece.draw(pen, y)
            y += piece.height
        kind.foot(pen, inv, lay, n, len(pages))
        pen.c.showPage()
    pen.c.save()
    return buf.getvalue()
