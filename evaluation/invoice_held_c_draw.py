"""HELD-ASIDE FAMILY "held-c": a third held-aside family, written apart from the reader; not to be read while
developing it.

The drawing of the held-c family's pages (layouts and printed values from :mod:`evaluation.invoice_held_c`; the
first page's headers and the helpers shared with them from :mod:`evaluation.invoice_held_c_parts`): the running
header of later pages, the items table, what follows it and the page foot. :func:`paginate` decides which item rows
go on which page and :func:`render_pdf` draws them; :mod:`evaluation.invoice_render` calls both for this style, so
the truth names the page each line is printed on. Items are never split across pages.
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from itertools import accumulate

from reportlab.pdfgen import canvas

from evaluation.invoice_held_c import (HeldCLayout, address_lines, bank_lines, cell_text, heading_text, notes,
                                       seller_lines, tax_id, title_of, totals_pairs)
from evaluation.invoice_held_c_parts import (GREY, HEADERS, SHADE, fit, pair_rows, pairs_width, text_block, tint,
                                             widest)
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["paginate", "render_pdf"]

RIGHT = ("quantity", "unit_price", "amount", "gross", "line_tax", "discount", "vat_rate")
CENTRE = ("unit", "line_no")


def _running(pen: Pen, inv: Invoice, lay: HeldCLayout, n: int) -> float:
    """A later page's top: the seller's name and the running line naming the document."""
    y = lay.margin + lay.size * 1.2
    pen.text(pen.left, y, lay.seller[0], bold=True)
    text = lay.running.format(title=title_of(inv, lay), number=inv.number, date=lay.date(inv.date), n=n)
    pen.text(pen.right, y, text, bold=True, align="right")
    pen.line(pen.left, y + lay.size * 0.6, pen.right, y + lay.size * 0.6, 0.6)
    return y + pen.lead * 1.6


# ---- The items table. ------------------------------------------------------------------------------------------
def _xs(lay: HeldCLayout) -> list[float]:
    return list(accumulate((c.width for c in lay.columns), initial=lay.margin))

def _texts(pen: Pen, texts: dict[str, list[str]], base: float, bold: bool = False, color=(0, 0, 0)) -> None:
    """Each column's lines of text from ``base``: numbers at the right, units and line numbers centred."""
    pad = pen.lay.size * 0.5
    for col, x in zip(pen.lay.columns, _xs(pen.lay)):
        at, align = ((x + col.width - pad, "right") if col.key in RIGHT else (x + col.width / 2, "center")
                     if col.key in CENTRE else (x + pad, "left"))
        for k, text in enumerate(texts.get(col.key, [])):
            pen.text(at, base + k * pen.lead, text, bold, align=align, color=color)

def _headings(lay: HeldCLayout) -> dict[str, list[str]]:
    """Each heading as printed: on two lines (its first word, the rest) where the layout stacks them."""
    texts = {c.key: (c.heading, heading_text(lay, c.key, c.heading)) for c in lay.columns}
    return {k: t.split(" ", 1) if lay.extra["stacked"] and " " in h else [t] for k, (h, t) in texts.items()}

def _head_h(lay: HeldCLayout) -> float:
    return lay.size * (1.6 + 1.4 * max(len(v) for v in _headings(lay).values()))

def _row_h(lay: HeldCLayout, lines: int) -> float:
    return lay.size * 1.4 * lines + lay.size * 0.5

def _table_head(pen: Pen, y: float) -> float:
    lay, h = pen.lay, _head_h(pen.lay)
    xs, style, color = _xs(lay), lay.extra["table"], (0, 0, 0)
    if style == "bar":
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=lay.extra["accent"])
        color = (1, 1, 1)
    elif style in ("zebra", "grid"):
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=tint(lay, 0.8) if style == "zebra" else SHADE,
                stroke=0.6 if style == "grid" else None)
        for x in xs[1:-1] if style == "grid" else ():
            pen.line(x, y, x, y + h, 0.6)
    else:
        pen.line(xs[0], y, xs[-1], y, 1.0 if style == "rules" else 0.5)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.5)
    _texts(pen, _headings(lay), y + lay.size * 1.25, True, color)
    return y + h

def _table_row(pen: Pen, cells: dict[str, list[str]], y: float, k: int, bold: bool = False) -> float:
    lay = pen.lay
    h, xs, style = _row_h(lay, max(len(v) for v in cells.values())), _xs(lay), lay.extra["table"]
    if style == "zebra" and k % 2 == 1:
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=tint(lay, 0.92))
    _texts(pen, cells, y + lay.size * 1.15, bold)
    if style == "grid":
        for x in xs:
            pen.line(x, y, x, y + h, 0.5)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.5)
    elif lay.ruled and style in ("rules", "bar"):
        pen.line(xs[0], y + h, xs[-1], y + h, 0.25, grey=0.6)
    return y + h

def _sum_row(pen: Pen, label: str, value: Decimal, y: float, lines: bool = True) -> float:
    """A row of the table holding a sum: its label where the descriptions go, the sum under the amounts."""
    y = _table_row(pen, {"description": [label], "amount": [pen.lay.money(value, lines=lines)]}, y, 0, bold=True)
    pen.line(_xs(pen.lay)[0], y, _xs(pen.lay)[-1], y, 0.8)
    return y


# ---- After the items: totals, notes, the payment slip; the page foot. ------------------------------------------
def _notes(pen: Pen, inv: Invoice, lay: HeldCLayout, x: float, y: float, width: float) -> float:
    for line in (part for text in notes(inv, lay) for part in wrap(text, width, pen)):
        pen.text(x, y, line, size=lay.size * 0.85)
        y += lay.size * 1.2
    return y

def _after(pen: Pen, inv: Invoice, lay: HeldCLayout, y: float) -> float:
    """The totals and notes under the table (``top`` totals are in the header); returns the y below."""
    s, xs, place, rows = lay.size, _xs(lay), lay.totals_place, totals_pairs(inv, lay)
    right = xs[-1]
    if place == "stack":  # label and value rows at the right, a rule over the total and two under it
        yy, vw = y + pen.lead * 1.4, widest(pen, [b for _, b in rows], True)
        x = right - widest(pen, [a for a, _ in rows], True) - vw - s * 2.5
        for k, (label, value) in enumerate(rows):
            if k == len(rows) - 1:
                pen.line(x, yy - s * 1.05, right, yy - s * 1.05, 0.6)
                yy += s * 0.25
            pen.text(x, yy, label, bold=k == len(rows) - 1)
            pen.text(right - s * 0.5, yy, value, bold=k == len(rows) - 1, align="right")
            yy += pen.lead
        for dy in (0.8, 1.05):
            pen.line(x, yy - s * dy, right, yy - s * dy, 0.5)
        return max(yy, _notes(pen, inv, lay, pen.left, y + pen.lead * 1.4, x - pen.left - s * 2))
    if place == "cells":  # boxes under the amounts, labels at their left
        k = [c.key for c in lay.columns].index("amount")
        xa, wa, h = xs[k], lay.columns[k].width, pen.lead * 1.3
        for i, (label, value) in enumerate(rows):
            last = i == len(rows) - 1
            pen.box(xa, y, wa, h, fill=tint(lay, 0.85) if last else None, stroke=0.5)
            pen.text(xa - s * 0.6, y + h * 0.7, label, bold=last, align="right")
            pen.text(xa + wa - s * 0.5, y + h * 0.7, value, bold=last, align="right")
            y += h
        return _notes(pen, inv, lay, pen.left, y + pen.lead, right - pen.left)
    if place == "sumrow":  # a sum row closing the table, a tax breakdown, the total
        y = _sum_row(pen, lay.label("subtotal"), inv.subtotal, y, lines=False) + pen.lead * 0.8
        if lay.tax_rate is not None:
            cols = lay.extra["breakdown_cols"]
            values = (lay.rate(), *(v for _, v in rows))
            widths = [max(pen.width(a, True), pen.width(b)) + s * 2 for a, b in zip(cols, values)]
            x = right - sum(widths)
            if "breakdown" in lay.labels:
                pen.text(x, y + s, lay.labels["breakdown"], True)
                y += pen.lead
            for row, bold in ((cols, True), (values, False)):
                for text, xx in zip(row, [x + sum(widths[:i + 1]) for i in range(len(widths))]):
                    pen.text(xx - s * 0.5, y + s * 1.1, text, bold, align="right")
                pen.line(x, y + pen.lead, right, y + pen.lead, 0.4)
                y += pen.lead
            y += pen.lead * 0.6
        label, value = rows[-1]
        pen.text(right - s * 0.5, y + s * 1.2, value, True, s * 1.15, "right")
        pen.text(right - s * 1.5 - pen.width(value, True, s * 1.15), y + s * 1.2, label, True, s * 1.15, "right")
        y += pen.lead * 1.8
    return _notes(pen, inv, lay, pen.left, y + pen.lead * 0.6, right - pen.left)

def _slip_h(inv: Invoice, lay: HeldCLayout) -> float:
    return lay.size * 1.4 * 7.5 if lay.extra["slip"] and not inv.is_credit else 0.0

def _slip(pen: Pen, inv: Invoice, lay: HeldCLayout, top: float) -> None:
    """A payment slip to tear off at the foot of the last page."""
    s, x = lay.size, pen.left
    while x < pen.right - 4:
        pen.line(x, top, x + 4, top, 0.5)
        x += 7
    y = top + pen.lead * 1.3
    pen.text(pen.left, y, lay.labels["slip"], True, s * 1.2)
    pen.text(pen.right, y, "Please detach and return with your payment", size=s * 0.75, align="right")
    text_block(pen, pen.left, y + pen.lead * 1.3, ["To:", lay.seller[0], *lay.seller[1:3]], size=s * 0.9)
    due = [(lay.label("due"), lay.date(inv.date + dt.timedelta(days=lay.extra["due_days"])))] \
        if "due" in lay.labels else []
    pairs = [(lay.labels["customer"], address_lines(inv, lay)[0]), (lay.label("invoice_number"), inv.number), *due,
             (lay.label("total"), lay.money(inv.total(lay.tax_rate))), (lay.labels["enclosed"], "")]
    x = pen.right - pairs_width(pen, pairs) - s * 6
    yy = pair_rows(pen, x, y + pen.lead * 1.3, pairs) - pen.lead + 2
    pen.line(pen.right - s * 6, yy, pen.right, yy, 0.5)

def _footer(lay: HeldCLayout) -> list[list[str]]:
    """The foot's text: columns of the seller's details, one line of them, or thanks; one list per column."""
    e, name, lines = lay.extra, lay.seller[0], seller_lines(lay)
    tel, mail = lines[len(lay.seller) - 1:len(lay.seller) + 1]
    reg = {"Germany": f"Register court Hamburg HRB {e['reg'] % 100000}", "Netherlands": f"KvK {e['reg']:08d}",
           "France": f"RCS Strasbourg B {e['reg']:09d}", "USD": f"EIN {e['reg'] % 100:02d}-{e['reg']}"}.get(
        lay.seller[-1] if lay.currency == "EUR" else lay.currency, f"Company No. {e['reg']:08d}")
    tax = [f"VAT ID {tax_id(lay)}"] if lay.currency != "USD" else []
    return {"columns": [[name, *lay.seller[1:]], [tel, mail], bank_lines(lay), [reg, *tax]],
            "line": [[f"{name} \u00b7 {', '.join(lay.seller[1:])} \u00b7 {reg}"]],
            "thanks": [["Thank you for your business!", f"Questions about this document? {mail}, {tel}"]]
            }.get(e["footer"], [])

def _foot_h(lay: HeldCLayout) -> float:
    return max((len(c) for c in _footer(lay)), default=0) * lay.size * 0.75 * 1.35 + lay.size * 2.4

def _foot(pen: Pen, lay: HeldCLayout, n: int, m: int) -> None:
    """The footer text, the page label (at the foot or the top right) and, on pages but the last, the continued
    mark (unless a carried sum says it)."""
    s, blocks, small = lay.size, _footer(lay), lay.size * 0.75
    lines = max((len(c) for c in blocks), default=0)
    top = lay.page[1] - lay.margin - (lines - 1) * small * 1.35
    width = (pen.right - pen.left) / max(len(blocks), 1)
    if len(blocks) > 1:
        pen.line(pen.left, top - small * 1.4, pen.right, top - small * 1.4, 0.4, grey=0.5)
    for k, block in enumerate(blocks):
        for i, text in enumerate(block):
            x, align = (pen.left + k * width, "left") if len(blocks) > 1 else (lay.page[0] / 2, "center")
            pen.text(x, top + i * small * 1.35, text, size=fit(pen, text, small, width - s), align=align,
                     color=GREY)
    y, label, at = top - small * 1.4 - s * 0.8 if lines else top, lay.page_label.format(n=n, m=m), lay.extra["page_at"]
    if at == "top-right":
        pen.text(pen.right, lay.margin * 0.55, label, size=s * 0.85, align="right")
    else:
        pen.text(pen.right if at == "foot-right" else lay.page[0] / 2, y, label, size=s * 0.85,
                 align="right" if at == "foot-right" else "center")
    if n < m and not lay.extra["carry"]:
        pen.text(pen.left, y, lay.continued.format(next=n + 1), bold=True, size=s * 0.85)


# ---- Pages. ------------------------------------------------------------------------------------------------------
def _rows(inv: Invoice, lay: HeldCLayout, pen: Pen) -> list[Row]:
    return [Row(i, {c.key: cell_text(c.key, i, line, c.width - lay.size, lay, pen) for c in lay.columns})
            for i, line in enumerate(inv.rows)]

def paginate(inv: Invoice, lay: HeldCLayout) -> list[list[Row]]:
    """The item rows of each page: those that fit between the page's header and its foot (less a carried sum's
    row where the layout prints one); the totals, notes and slip need room on the last page, or a page follows."""
    pen = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)  # thrown away: measures only
    carry = _row_h(lay, 1) if lay.extra["carry"] else 0.0
    first = HEADERS[lay.header_place](pen, inv, lay) + _head_h(lay)
    later = _running(pen, inv, lay, 2) + _head_h(lay) + carry
    foot_top = lay.page[1] - lay.margin - _foot_h(lay)
    pages: list[list[Row]] = [[]]
    y = first
    for row in _rows(inv, lay, pen):
        h = _row_h(lay, row.lines)
        if y + h > foot_top - carry and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += h
    if _after(pen, inv, lay, y) > foot_top - _slip_h(inv, lay):
        pages.append([])
    return pages

def render_pdf(inv: Invoice, lay: HeldCLayout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    pen = Pen(c, lay)
    amounts, done, carry = [row.amount for row in inv.rows], 0, lay.extra["carry"]
    for n, rows in enumerate(pages, 1):
        y = HEADERS[lay.header_place](pen, inv, lay) if n == 1 else _running(pen, inv, lay, n)
        if rows or (carry and n > 1):
            y = _table_head(pen, y)
        if carry and n > 1:
            y = _sum_row(pen, lay.extra["carry_in"].format(prev=n - 1), sum(amounts[:done], Decimal("0.00")), y)
        for k, row in enumerate(rows):
            y = _table_row(pen, row.cells, y, k)
        done += len(rows)
        if carry and n < len(pages):
            y = _sum_row(pen, lay.continued.format(next=n + 1), sum(amounts[:done], Decimal("0.00")), y)
        elif rows and lay.extra["table"] != "grid":
            pen.line(_xs(lay)[0], y, _xs(lay)[-1], y, 0.6)
        if n == len(pages):
            _after(pen, inv, lay, y)
            if _slip_h(inv, lay):
                _slip(pen, inv, lay, lay.page[1] - lay.margin - _foot_h(lay) - _slip_h(inv, lay) + lay.size)
        _foot(pen, lay, n, len(pages))
        c.showPage()
    c.save()
    return buf.getvalue()
