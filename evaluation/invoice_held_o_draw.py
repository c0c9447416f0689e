"""held-o's pages: :func:`paginate` decides which items go on which page and :func:`render_pdf` draws them, each
market's top and closing with :mod:`evaluation.invoice_held_o_india`, :mod:`evaluation.invoice_held_o_anz` or
:mod:`evaluation.invoice_held_o_us`, the table with :mod:`evaluation.invoice_held_o_table`.

A page holds the item rows that fit between its top (the full header on page 1; on later pages the seller, the
title, the invoice's number and date) and its foot (the page label, and on every page but the last a "continued"
line under the table or at the foot); a row is never split. Every page with items repeats the table's heading row.
The totals come after the last item, and what follows them (notes, words, bank details, a payment advice) after
the totals; what the last page has no room for goes on a page of its own (the totals with it). The
canvas is made with ``invariant=1``: the same invoice and layout give the same bytes.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from evaluation import invoice_held_o_anz as anz
from evaluation import invoice_held_o_india as india
from evaluation import invoice_held_o_us as us
from evaluation.invoice_held_o_money import HeldOLayout
from evaluation.invoice_held_o_parties import title_of
from evaluation.invoice_held_o_table import OPen, ORow, close_table, draw_row, foot, foot_room, head, rows
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Row

__all__ = ["paginate", "render_pdf", "scratch"]

MARKETS = {"india": india, "anz": anz, "us": us}


def _pages(pen: OPen, inv: Invoice, lay: HeldOLayout) -> tuple[list[list[ORow]], bool]:
    """The rows of each page, and whether what follows the totals goes on a page of its own (the totals stay
    with the last items where they fit, else they go there too)."""
    market = MARKETS[lay.extra["kind"]]
    bottom = lay.page[1] - foot_room(lay)
    first = head(pen, lay, market.top(pen, inv, lay, 1, False), False)
    later = head(pen, lay, market.top(pen, inv, lay, 2, False), False)
    pages: list[list[ORow]] = [[]]
    y = first
    for row in rows(pen, inv, lay):
        if pages[-1] and y + row.height > bottom:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += row.height
    end = market.totals(pen, inv, lay, y, False)
    if end > bottom:
        return pages + [[]], False
    if market.after(pen, inv, lay, end, False) > bottom:
        return pages + [[]], True
    return pages, False


def scratch(lay: HeldOLayout) -> OPen:
    """A pen on a canvas that is thrown away: drawing on it measures."""
    return OPen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def paginate(inv: Invoice, lay: HeldOLayout) -> list[list[Row]]:
    """The item rows of each page (a page of totals only has none)."""
    return _pages(scratch(lay), inv, lay)[0]


def render_pdf(inv: Invoice, lay: HeldOLayout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    market = MARKETS[lay.extra["kind"]]
    pages, apart = _pages(scratch(lay), inv, lay)
    buf = io.BytesIO()
    pen = OPen(canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1), lay)
    pen.c.setTitle(f"{title_of(inv, lay)} {inv.number}")
    m = len(pages)
    for n, page in enumerate(pages, 1):
        y = market.top(pen, inv, lay, n, True)
        end = None
        if page:
            y = head(pen, lay, y, True)
            for k, row in enumerate(page):
                y = draw_row(pen, lay, row, y, k)
            close_table(pen, lay, y)
            end = y
        if n == m - apart:
            y = market.totals(pen, inv, lay, y, True)
            end = None  # under the totals: a "continued" line goes to the foot
        if n == m:
            market.after(pen, inv, lay, y, True)
        foot(pen, inv, lay, n, m, end)
        pen.c.showPage()
    pen.c.save()
    return buf.getvalue()
