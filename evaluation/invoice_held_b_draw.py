"""HELD-ASIDE FAMILY "held-b": do not read this module while developing the invoice reader.

The drawing of the held-b family's pages (layouts from :mod:`evaluation.invoice_held_b`): the first page's header
in one of the family's arrangements, a running header on later pages, the items table in one of its table styles
(headings repeated on each page, carried and brought-forward sums in some layouts), the totals with the notes and
payment details beside or under them, and the page foot. :func:`paginate` decides what goes on which page and
:func:`render_pdf` draws it; :mod:`evaluation.invoice_render` calls both for this style, so its truth names the
page each line is printed on. Items are never split across pages.
"""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_held_b import (HeldBLayout, address_lines, cell_text, header_pairs, heading_text, note_lines,
                                       seller_lines, title_of, totals_pairs)
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, fill_pages, wrap

__all__ = ["paginate", "render_pdf"]

RIGHT = ("quantity", "unit_price", "amount", "seq")
CENTRE = ("uom", "vat_code")


def _tint(lay: HeldBLayout, share: float) -> tuple[float, float, float]:
    """The accent colour mixed with white: ``share`` of white."""
    return tuple(c + (1 - c) * share for c in lay.extra["accent"])  # type: ignore[return-value]


def _block(pen: Pen, x: float, y: float, lines: list[str], align: str = "left", first_bold: bool = False,
           size: float | None = None) -> float:
    for k, line in enumerate(lines):
        pen.text(x, y, line, bold=first_bold and k == 0, align=align, size=size)
        y += (size or pen.lay.size) * 1.4
    return y


def _pairs(pen: Pen, x: float, y: float, pairs: list[tuple[str, str]], gap: float | None = None) -> float:
    """``label  value`` rows, the values in one column; returns the y below."""
    col = max(pen.width(a, True) for a, _ in pairs) + (gap or pen.lay.size * 1.2)
    for label, value in pairs:
        pen.text(x, y, label, bold=True)
        pen.text(x + col, y, value)
        y += pen.lead
    return y


# ----------------------------------------------------------------------------------------------------------------
# First-page headers. Each returns the y where the table's heading row starts.
# ----------------------------------------------------------------------------------------------------------------
def _window(pen: Pen, inv: Invoice, lay: HeldBLayout) -> float:
    """Seller top right, a one-line return address over the buyer's address on the left, the references in a
    block on the right, then the document's title as a subject line."""
    size = lay.size
    pen.box(pen.left, lay.margin - 8, pen.right - pen.left, 3, fill=lay.extra["accent"])
    pen.text(pen.right, lay.margin + size * 1.6, lay.seller[0], bold=True, size=size * 1.5, align="right",
             color=lay.extra["accent"])
    y_seller = _block(pen, pen.right, lay.margin + size * 1.6 + pen.lead * 1.3, seller_lines(lay), "right",
                      size=size * 0.9)
    top = max(y_seller + pen.lead, lay.margin + 110)
    back = " \u00b7 ".join(lay.seller)
    pen.text(pen.left, top, back, size=size * 0.7)
    pen.line(pen.left, top + 2, pen.left + pen.width(back, size=size * 0.7), top + 2, 0.3)
    y_addr = _block(pen, pen.left, top + pen.lead * 1.4, address_lines(inv, lay))
    x_info = lay.page[0] * 0.56
    y_info = _pairs(pen, x_info, top, header_pairs(inv, lay))
    y = max(y_addr, y_info) + pen.lead * 1.6
    pen.text(pen.left, y, title_of(inv, lay), bold=True, size=size * 1.6)
    return y + pen.lead * 1.4


def _sheet(pen: Pen, inv: Invoice, lay: HeldBLayout) -> float:
    """Seller top left, the title top right; two boxed addresses (invoice and delivery) on the left and a grid of
    the references on the right."""
    size, accent = lay.size, lay.extra["accent"]
    pen.text(pen.left, lay.margin + size * 1.4, lay.seller[0], bold=True, size=size * 1.4)
    y_seller = _block(pen, pen.left, lay.margin + size * 1.4 + pen.lead * 1.2, seller_lines(lay), size=size * 0.9)
    pen.text(pen.right, lay.margin + size * 2.2, title_of(inv, lay), bold=True, size=size * 2.2,
             align="right", color=accent)
    top = max(y_seller, lay.margin + size * 2.2 + pen.lead) + pen.lead
    pairs = header_pairs(inv, lay)
    col = max(pen.width(a, True) for a, _ in pairs) + size
    x_grid = min(lay.page[0] * 0.6, pen.right - col - max(pen.width(b) for _, b in pairs) - size * 1.5)
    row_h = pen.lead * 1.25
    for k, (label, value) in enumerate(pairs):
        y = top + k * row_h
        pen.box(x_grid, y, col, row_h, fill=_tint(lay, 0.85), stroke=0.5)
        pen.box(x_grid + col, y, pen.right - x_grid - col, row_h, stroke=0.5)
        pen.text(x_grid + size * 0.4, y + row_h * 0.7, label, bold=True)
        pen.text(x_grid + col + size * 0.5, y + row_h * 0.7, value)
    y_grid = top + len(pairs) * row_h
    width = (x_grid - pen.left - size * 2) / 2
    blocks = ((lay.labels["bill_to"], address_lines(inv, lay)[:4]),
              (lay.labels["deliver_to"], address_lines(inv, lay, goods_in=True)))
    h = pen.lead * (max(len(lines) for _, lines in blocks) + 1) + size * 0.6
    y_addr = top
    for k, (label, lines) in enumerate(blocks):
        x = pen.left + k * (width + size)
        pen.box(x, top, width, pen.lead, fill=_tint(lay, 0.85))
        pen.box(x, top, width, h, stroke=0.5)
        pen.text(x + size * 0.4, top + pen.lead * 0.72, label, bold=True)
        _block(pen, x + size * 0.4, top + pen.lead * 1.75, lines)
        y_addr = max(y_addr, top + h)
    return max(y_grid, y_addr) + pen.lead * 1.2


def _stack(pen: Pen, inv: Invoice, lay: HeldBLayout) -> float:
    """A large title top left over the buyer's address; each reference's label over its value in a middle column;
    the seller's address top right."""
    size = lay.size
    big = size * 2.6
    pen.text(pen.left, lay.margin + big * 0.8, title_of(inv, lay), bold=True, size=big)
    y_seller = _block(pen, pen.right, lay.margin + size, [lay.seller[0], *seller_lines(lay)], "right", True)
    y = lay.margin + big * 0.8 + pen.lead * 1.6
    pen.text(pen.left, y, lay.labels["bill_to"].upper(), bold=True, size=size * 0.8, color=(0.4, 0.4, 0.4))
    y_addr = _block(pen, pen.left, y + pen.lead, address_lines(inv, lay))
    pairs = header_pairs(inv, lay)
    seller_left = pen.right - max(pen.width(t, k == 0) for k, t in enumerate([lay.seller[0], *seller_lines(lay)]))
    x1 = max(pen.left + max(pen.width(t) for t in address_lines(inv, lay)) + size * 3, lay.page[0] * 0.33)
    half = (len(pairs) + 1) // 2
    x2 = x1 + max(max(pen.width(a, True, size * 0.8), pen.width(b)) for a, b in pairs[:half]) + size * 3
    fits = x2 + max(max(pen.width(a, True, size * 0.8), pen.width(b)) for a, b in pairs[half:]) < seller_left - size
    columns = [(x1, pairs[:half]), (x2, pairs[half:])] if len(pairs) > 4 and fits else [(x1, pairs)]
    y_mid = y
    for x, some in columns:
        yy = y
        for label, value in some:
            pen.text(x, yy, label.rstrip(":"), bold=True, size=size * 0.8, color=(0.4, 0.4, 0.4))
            pen.text(x, yy + pen.lead, value)
            yy += pen.lead * 2.3
        y_mid = max(y_mid, yy)
    return max(y_addr, y_mid, y_seller) + pen.lead


HEADERS = {"window": _window, "sheet": _sheet, "stack": _stack}


def _running(pen: Pen, inv: Invoice, lay: HeldBLayout, n: int) -> float:
    """A continuation page's top: the seller's name and the running line naming the document."""
    y = lay.margin + lay.size * 1.2
    pen.text(pen.left, y, lay.seller[0], bold=True)
    pen.text(pen.right, y, lay.running.format(title=title_of(inv, lay), number=inv.number, n=n), bold=True,
             align="right")
    pen.line(pen.left, y + lay.size * 0.6, pen.right, y + lay.size * 0.6, 0.6, grey=0.3)
    return y + pen.lead * 1.8


# ----------------------------------------------------------------------------------------------------------------
# The items table.
# ----------------------------------------------------------------------------------------------------------------


def _rows(inv: Invoice, lay: HeldBLayout, pen: Pen) -> list[Row]:
    return [Row(index, {c.key: cell_text(c.key, index, line, c.width - lay.size * 0.9, lay, pen) for c in lay.columns})
            for index, line in enumerate(inv.rows)]


def _xs(lay: HeldBLayout) -> list[float]:
    xs, x = [], lay.margin
    for col in lay.columns:
        xs.append(x)
        x += col.width
    return xs + [x]


def _texts(pen: Pen, texts: dict[str, list[str]], base: float, bold: bool = False, color=(0, 0, 0)) -> None:
    pad = pen.lay.size * 0.45
    for col, x in zip(pen.lay.columns, _xs(pen.lay)):
        for k, text in enumerate(texts.get(col.key, [])):
            y = base + k * pen.lead
            if col.key in RIGHT:
                pen.text(x + col.width - pad, y, text, bold, align="right", color=color)
            elif col.key in CENTRE:
                pen.text(x + col.width / 2, y, text, bold, align="center", color=color)
            else:
                pen.text(x + pad, y, text, bold, color=color)


def _head_h(lay: HeldBLayout) -> float:
    return lay.size * 2.2


def _row_h(lay: HeldBLayout, lines: int) -> float:
    return lay.size * 1.4 * lines + lay.size * 0.55


def _table_head(pen: Pen, y: float) -> float:
    lay, h = pen.lay, _head_h(pen.lay)
    xs, style = _xs(lay), lay.extra["table"]
    headings = {c.key: [heading_text(lay, c.key, c.heading)] for c in lay.columns}
    color = (0, 0, 0)
    if style == "grid":
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=(0.86, 0.86, 0.86), stroke=0.6)
        for x in xs[1:-1]:
            pen.line(x, y, x, y + h, 0.6)
    elif style == "lined":
        pen.line(xs[0], y, xs[-1], y, 1.4, grey=0.15)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.6)
    else:
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=_tint(lay, 0.82))
        color = lay.extra["accent"]
    _texts(pen, headings, y + h * 0.5 + lay.size * 0.35, True, color)
    return y + h


def _table_row(pen: Pen, cells: dict[str, list[str]], y: float, k: int, bold: bool = False) -> float:
    lay = pen.lay
    lines = max(len(v) for v in cells.values()) if cells else 1
    h, xs, style = _row_h(lay, lines), _xs(lay), lay.extra["table"]
    if lay.zebra and k % 2 == 1 and style != "grid":
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=_tint(lay, 0.93))
    _texts(pen, cells, y + lay.size * 0.3 + lay.size * 0.85, bold)
    if style == "grid":
        for x in xs:
            pen.line(x, y, x, y + h, 0.6)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.6 if lay.ruled else 0.2, grey=0.0 if lay.ruled else 0.6)
    elif lay.ruled:
        pen.line(xs[0], y + h, xs[-1], y + h, 0.25, grey=0.55)
    return y + h


def _carry_row(pen: Pen, label: str, value: Decimal, y: float) -> float:
    """A carried or brought-forward line: its label where the description goes, the sum under the amounts."""
    lay = pen.lay
    text_key = "description" if any(c.key == "description" for c in lay.columns) else lay.columns[0].key
    return _table_row(pen, {text_key: [label], "amount": [lay.money(value)]}, y, 0, bold=True)


def _closing(pen: Pen, y: float) -> float:
    """The grid's last row is closed by its own rule; the other styles end on a rule under the table."""
    lay = pen.lay
    xs = _xs(lay)
    pen.line(xs[0], y, xs[-1], y, 0.8 if lay.extra["table"] != "grid" else 0.6)
    return y


# ----------------------------------------------------------------------------------------------------------------
# Totals, notes and the page foot.
# ----------------------------------------------------------------------------------------------------------------


def _draw_notes(pen: Pen, notes: list[tuple[str, bool]], x: float, y: float, width: float) -> float:
    size = pen.lay.size * 0.9
    for text, bold in notes:
        for line in wrap(text, width, pen) if not bold else [text]:
            pen.text(x, y, line, bold=bold, size=size)
            y += size * 1.4
    return y


def _value_block(pen: Pen, inv: Invoice, lay: HeldBLayout, right: float, y: float) -> tuple[float, float]:
    """The totals as label and value rows ending at ``right``, a rule over the total and two under it; returns
    (the left edge of the block, the y below it)."""
    rows = totals_pairs(inv, lay)
    code = f"{lay.currency}  " if lay.mark_place == "beside" else ""
    value_w = max(pen.width(v, True) for _, v in rows) + pen.width(code, True)
    x = right - max(pen.width(a, True) for a, _ in rows) - value_w - lay.size * 2
    for k, (label, value) in enumerate(rows):
        last = k == len(rows) - 1
        if last:
            pen.line(x, y - lay.size * 1.0, right, y - lay.size * 1.0, 0.6)
            y += lay.size * 0.2
        pen.text(x, y, label, bold=last)
        pen.text(right - lay.size * 0.45, y, value, bold=last, align="right")
        if last and code:
            pen.text(right - lay.size * 0.45 - pen.width(value, True) - lay.size * 0.6, y, lay.currency, True,
                     align="right")
        y += pen.lead
    for dy in (0.75, 1.0):
        pen.line(x, y - lay.size * dy, right, y - lay.size * dy, 0.5)
    return x, y


def _totals(pen: Pen, inv: Invoice, lay: HeldBLayout, y: float) -> float:
    """The totals after the table (``stack``: a block at the right with the notes at the left; ``band``: a row of
    cells across the page with the notes under it); returns the y below. ``foot-box`` totals sit in a box at the
    page's foot instead (:func:`_foot_box`)."""
    right = _xs(lay)[-1]
    if lay.totals_place == "stack":
        x, y_end = _value_block(pen, inv, lay, right, y + pen.lead * 1.6)
        return max(y_end, _draw_notes(pen, note_lines(inv, lay), pen.left, y + pen.lead * 1.6,
                                      x - pen.left - lay.size * 2))
    if lay.totals_place == "band":
        rows = totals_pairs(inv, lay)
        y += lay.size
        width, h = (right - pen.left) / len(rows), pen.lead * 2.4
        for k, (label, value) in enumerate(rows):
            x, last = pen.left + k * width, k == len(rows) - 1
            pen.box(x, y, width, h, fill=_tint(lay, 0.8) if last else None, stroke=0.6)
            pen.text(x + lay.size * 0.5, y + pen.lead, label, bold=True, size=lay.size * 0.85)
            pen.text(x + width - lay.size * 0.5, y + pen.lead * 1.95, value, bold=last, align="right")
            if last and lay.mark_place == "beside":
                pen.text(x + lay.size * 0.5, y + pen.lead * 1.95, lay.currency, bold=True)
        return _draw_notes(pen, note_lines(inv, lay), pen.left, y + h + pen.lead * 1.2, right - pen.left)
    return y


def _box_h(lay: HeldBLayout) -> float:
    return lay.size * 1.4 * 5.8


def _foot_top(lay: HeldBLayout) -> float:
    return lay.page[1] - lay.margin - lay.size * 1.4 * 2.4


def _foot_box(pen: Pen, inv: Invoice, lay: HeldBLayout, last: bool, n: int) -> None:
    """The box at the page foot holding the totals on the last page (notes at its left) and the continued mark on
    the others."""
    right, top = _xs(lay)[-1], _foot_top(lay) - _box_h(lay)
    x0 = right - max(lay.page[0] * 0.38, 190.0)
    pen.box(x0, top, right - x0, _box_h(lay) - lay.size * 0.6, stroke=0.8)
    if not last:
        if not lay.extra["carry"]:
            pen.text((x0 + right) / 2, top + _box_h(lay) / 2, lay.continued.format(next=n + 1), bold=True,
                     align="center")
        return
    _value_block(pen, inv, lay, right - lay.size * 0.4, top + pen.lead * 1.1)
    _draw_notes(pen, note_lines(inv, lay), pen.left, top + lay.size * 0.4, x0 - pen.left - lay.size * 2)


def _foot(pen: Pen, lay: HeldBLayout, n: int, m: int) -> None:
    """The registered-office line, the page label (at the foot or the top right) and, on pages but the last, the
    continued mark under the table (unless a foot box or a carried sum says it)."""
    bottom = lay.page[1] - lay.margin
    size = lay.size * 0.75
    reg = (f"{lay.seller[0]} \u00b7 Registered in England & Wales No. {lay.extra['company_no']} \u00b7 "
           f"Registered office: {', '.join(lay.seller[1:])}")
    pen.text(lay.page[0] / 2, bottom, reg, size=size, align="center", color=(0.35, 0.35, 0.35))
    label = lay.page_label.format(n=n, m=m)
    if lay.extra["page_at"] == "top":
        pen.text(pen.right, lay.margin * 0.55, label, size=lay.size * 0.85, align="right")
    else:
        pen.text(pen.right, bottom - lay.size * 1.5, label, size=lay.size * 0.85, align="right")
    if n < m and not lay.extra["carry"] and lay.totals_place != "foot-box":
        pen.text(pen.left, bottom - lay.size * 1.5, lay.continued.format(next=n + 1), bold=True, size=lay.size * 0.9)


# ----------------------------------------------------------------------------------------------------------------
# Pages.
# ----------------------------------------------------------------------------------------------------------------
def _scratch(lay: HeldBLayout) -> Pen:
    return Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def paginate(inv: Invoice, lay: HeldBLayout) -> list[list[Row]]:
    """The item rows of each page: those that fit between the page's header and its foot (less the foot box and a
    carried-forward line where the layout has them); the totals need room on the last page, or a page of their
    own follows."""
    pen = _scratch(lay)
    carry = _row_h(lay, 1) if lay.extra["carry"] else 0.0
    first = HEADERS[lay.header_place](pen, inv, lay) + _head_h(lay)
    later = _running(pen, inv, lay, 2) + _head_h(lay) + carry
    foot_top = _foot_top(lay) - (_box_h(lay) if lay.totals_place == "foot-box" else 0.0)
    bottom = foot_top - carry - lay.size
    pages, y = fill_pages(_rows(inv, lay, pen), lambda row: _row_h(lay, row.lines), first, later, bottom)
    if _totals(pen, inv, lay, y) > foot_top - lay.size:
        pages.append([])
    return pages


def render_pdf(inv: Invoice, lay: HeldBLayout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    pen = Pen(c, lay)
    amounts = [row.amount for row in inv.rows]
    done = 0
    brought, carried = lay.labels["brought"], lay.continued
    for n, rows in enumerate(pages, 1):
        y = HEADERS[lay.header_place](pen, inv, lay) if n == 1 else _running(pen, inv, lay, n)
        carry = lay.extra["carry"] and n > 1
        if rows or carry:
            y = _table_head(pen, y)
        if carry:
            y = _carry_row(pen, brought, sum(amounts[:done], Decimal("0.00")), y)
        for k, row in enumerate(rows):
            y = _table_row(pen, row.cells, y, k)
        done += len(rows)
        if n < len(pages) and lay.extra["carry"]:
            y = _carry_row(pen, carried, sum(amounts[:done], Decimal("0.00")), y)
        if rows or carry:
            _closing(pen, y)
        if n == len(pages):
            _totals(pen, inv, lay, y)
        if lay.totals_place == "foot-box":
            _foot_box(pen, inv, lay, n == len(pages), n)
        _foot(pen, lay, n, len(pages))
        c.showPage()
    c.save()
    return buf.getvalue()
