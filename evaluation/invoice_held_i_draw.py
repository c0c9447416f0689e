"""held-i's pages: :func:`paginate` decides which items go on which page and :func:`render_pdf` draws them, with
the header and totals of :mod:`evaluation.invoice_held_i_parts`.

The table is drawn as the apps draw it: a heading bar in the template's colour with white headings (Wave, Zoho),
a light tint with dark headings (QuickBooks) or bold headings over a rule (FreshBooks, Xero); rows zebra-striped in
light grey or parted by thin grey rules; numbers right-aligned; a code or description wider than its column
wrapped at its spaces; where the template prints it so, the description in smaller grey type under the item's
code. Every page with items repeats the headings; items are never split across pages, and the totals go on a page
of their own when the last one has no room for them. The canvas is made with ``invariant=1``: the same invoice and
layout give the same bytes.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from evaluation.invoice_held_i_parts import FOOT, foot, header, running, totals
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, fill_pages, wrap

__all__ = ["paginate", "render_pdf"]

NUMERIC = ("quantity", "unit_price", "amount", "line_no", "vat_rate")
SMALL = 0.86  # a description under its code, in font sizes


def _xs(lay: Layout) -> list[float]:
    xs, x = [], lay.margin
    for col in lay.columns:
        xs.append(x)
        x += col.width
    return xs


def _cell(key: str, index: int, line, width: float, lay: Layout, pen: Pen) -> list[str]:
    if key in ("code", "description"):
        return wrap(getattr(line, key) or "", width, pen)
    if key == "quantity":
        return [lay.quantity(line.quantity)]
    if key == "line_no":
        return [str(index + 1)]
    if key == "vat_rate":
        return [lay.extra["rate_text"]]
    return [lay.money(getattr(line, key), lines=True)]


def _rows(inv: Invoice, lay: Layout, pen: Pen) -> list[Row]:
    rows = []
    for index, line in enumerate(inv.rows):
        cells = {c.key: _cell(c.key, index, line, c.width - lay.size * 1.2, lay, pen) for c in lay.columns}
        if lay.extra["under"]:
            code = next(c for c in lay.columns if c.key == "code")
            cells["description"] = wrap(line.description or "", (code.width - lay.size * 1.2) / SMALL, pen) \
                if line.description else []
        rows.append(Row(index, cells))
    return rows


def _height(lay: Layout, row: Row) -> float:
    lead = lay.size * 1.4
    lines = max(len(v) for k, v in row.cells.items() if not (lay.extra["under"] and k == "description"))
    if lay.extra["under"]:
        lines = max(lines, len(row.cells["code"]) + len(row.cells["description"]) * SMALL)
    return lead * lines + lay.size * 0.7


def _head_height(lay: Layout) -> float:
    return lay.size * 2.3


def _fill(lay: Layout) -> str:
    """The heading bar: ``solid`` (white on colour), ``tint`` (dark on a light tint) or ``rule``."""
    return {"banner": "solid", "zoho": "solid", "ledger": "tint"}.get(lay.extra["product"], "rule")


def table_head(pen: Pen, y: float) -> float:
    lay = pen.lay
    h, fill, accent = _head_height(lay), _fill(pen.lay), lay.extra["accent"]
    color = (1.0, 1.0, 1.0) if fill == "solid" else (0.1, 0.1, 0.1)
    if fill == "solid":
        pen.box(pen.left, y, pen.right - pen.left, h, fill=accent)
    elif fill == "tint":
        pen.box(pen.left, y, pen.right - pen.left, h, fill=tuple(0.85 + 0.15 * c for c in accent))
    else:
        pen.line(pen.left, y + h, pen.right, y + h, 1.2, 0.15)
    base = y + h * 0.5 + lay.size * 0.35
    pad = lay.size * 0.6
    for col, x in zip(lay.columns, _xs(lay)):
        if col.key in NUMERIC:
            pen.text(x + col.width - pad, base, col.heading, bold=True, align="right", color=color)
        else:
            pen.text(x + pad, base, col.heading, bold=True, color=color)
    return y + h


def table_row(pen: Pen, row: Row, y: float, k: int) -> float:
    lay = pen.lay
    h, pad, lead = _height(lay, row), lay.size * 0.6, pen.lead
    if lay.zebra and k % 2 == 1:
        shade = lay.extra["shade"]
        pen.box(pen.left, y, pen.right - pen.left, h, fill=(shade, shade, shade))
    elif lay.ruled or not lay.zebra:
        pen.line(pen.left, y + h, pen.right, y + h, 0.4, 0.75)
    base = y + lay.size * 0.35 + lay.size
    for col, x in zip(lay.columns, _xs(lay)):
        for n, text in enumerate(row.cells[col.key]):
            if col.key in NUMERIC:
                pen.text(x + col.width - pad, base + n * lead, text, align="right")
            else:
                pen.text(x + pad, base + n * lead, text, bold=col.key == "code" and lay.extra["under"])
        if col.key == "code" and lay.extra["under"]:
            grey = lay.extra["grey"]
            start = base + len(row.cells["code"]) * lead
            for n, text in enumerate(row.cells["description"]):
                pen.text(x + pad, start + n * lead * SMALL, text, size=lay.size * SMALL, color=(grey, grey, grey))
    return y + h


def _scratch(lay: Layout) -> Pen:
    return Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page: as many as fit between the page's header and its foot; the last page also
    holds the totals and notes, or a page of their own follows."""
    pen = _scratch(lay)
    first = header(pen, inv, lay) + _head_height(lay)
    later = running(pen, inv, lay, 2) + _head_height(lay)
    bottom = lay.page[1] - lay.margin - pen.lead * FOOT
    pages, y = fill_pages(_rows(inv, lay, pen), lambda row: _height(lay, row), first, later, bottom)
    if totals(pen, inv, lay, y) > bottom:
        pages.append([])
    return pages


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    c.setTitle(f"{lay.credit_title if inv.is_credit else lay.title} {inv.number}")
    pen = Pen(c, lay)
    for n, rows in enumerate(pages, 1):
        y = header(pen, inv, lay) if n == 1 else running(pen, inv, lay, n)
        if rows:
            y = table_head(pen, y)
        for k, row in enumerate(rows):
            y = table_row(pen, row, y, k)
        if n == len(pages):
            totals(pen, inv, lay, y)
        foot(pen, lay, n, len(pages))
        c.showPage()
    c.save()
    return buf.getvalue()
