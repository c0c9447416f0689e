"""held-n's pages: :func:`paginate` decides which item rows go on which page and :func:`render_pdf` draws them;
the item table is drawn here, each country's header, totals and foot by its own module
(:mod:`evaluation.invoice_held_n_iberia` for Spain and Portugal, :mod:`evaluation.invoice_held_n_italy`,
:mod:`evaluation.invoice_held_n_poland`).

A page holds the rows that fit between its top (the full header on page 1, and on every page where the program
repeats it; a line naming the document on the others) and its foot; a row is never split, and every page with
rows starts with the table's heading. A form with a band of totals at the foot (``extra["band"]``) reserves the
band on every page, prints the totals in it on the last and the carried amount or a "continued" phrase on the
others; otherwise the totals follow the last row, on a page of their own when it has no room. Forms that carry
amounts (``extra["carry"]``) print the sum so far under the last row of each page but the last and the same sum
over the first row of the next. The canvas is made with ``invariant=1``: the same invoice and layout give the
same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation import invoice_held_n_iberia as iberia
from evaluation import invoice_held_n_italy as italy
from evaluation import invoice_held_n_poland as poland
from evaluation.invoice_held_n import NUMERIC
from evaluation.invoice_held_n_facts import delivery, doc_number, line_vats
from evaluation.invoice_held_n_firms import TEXTS
from evaluation.invoice_held_n_pen import GREY, LIGHT, NPen
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Row, wrap

__all__ = ["NRow", "paginate", "render_pdf", "rows"]

MODULES = {"ES": iberia, "PT": iberia, "IT": italy, "PL": poland}


@dataclass
class NRow(Row):
    """An item row as laid out: its cells and height."""

    height: float = 0.0


def _xs(lay: Layout) -> list[float]:
    xs = [lay.margin]
    for c in lay.columns:
        xs.append(xs[-1] + c.width)
    return xs


def _pad(lay: Layout) -> float:
    return lay.size * 0.45


def rows(pen: NPen, inv: Invoice, lay: Layout) -> list[NRow]:
    """Every item row: codes and descriptions wrapped in their cells, the numbers as the layout prints them (each
    line's VAT and gross value where the table has them)."""
    vats = line_vats(inv, lay) if lay.tax_rate is not None else [Decimal("0")] * len(inv.rows)
    out, pad = [], _pad(lay)
    for k, (line, vat) in enumerate(zip(inv.rows, vats)):
        cells = {}
        for col in lay.columns:
            room = col.width - 2 * pad
            cells[col.key] = {
                "line_no": lambda: [str(k + 1)], "code": lambda: wrap(line.code, room, pen),
                "description": lambda: wrap(line.description or "", room, pen),
                "quantity": lambda: [lay.quantity(line.quantity)], "unit": lambda: [lay.extra["unit_word"]],
                "unit_price": lambda: [lay.price(line.unit_price)], "discount": lambda: [lay.extra["discount_cell"]],
                "vat_rate": lambda: [lay.rate_cell()], "amount": lambda: [lay.money(line.amount, lines=True)],
                "vat_amount": lambda: [lay.money(vat, lines=True)],
                "gross": lambda: [lay.money(line.amount + vat, lines=True)]}[col.key]()
        h = max(len(v) for v in cells.values()) * lay.size * 1.25 + pad * 1.3
        out.append(NRow(k, cells, h))
    return out


def _heading_lines(pen: NPen, lay: Layout) -> list[list[str]]:
    return [wrap(c.heading, c.width - 2 * _pad(lay), pen) for c in lay.columns]


def head(pen: NPen, lay: Layout, y: float, draw: bool) -> float:
    """The heading row at ``y`` (its top): bold, on a grey or coloured band where the form shades it."""
    e, xs, pad = lay.extra, _xs(lay), _pad(lay)
    lines = _heading_lines(pen, lay)
    h = max(map(len, lines)) * lay.size * 1.15 + pad * 2.2
    if not draw:
        return y + h
    colour = (0, 0, 0)
    if e["head_fill"] == "grey":
        pen.fill(xs[0], y, xs[-1] - xs[0], h, LIGHT)
    elif e["head_fill"] == "accent":
        pen.fill(xs[0], y, xs[-1] - xs[0], h, e["accent"])
        colour = (1, 1, 1)
    table = e["table"]
    if table in ("frame", "grid"):
        pen.rect(xs[0], y, xs[-1] - xs[0], h, 0.7)
        for x in xs[1:-1]:
            pen.line(x, y, x, y + h, 0.5)
    else:
        if table == "rules" and e["head_fill"] is None:
            pen.line(xs[0], y, xs[-1], y, 0.8)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.8)
    centre = table == "grid"
    for col, x0, x1, text in zip(lay.columns, xs, xs[1:], lines):
        for k, t in enumerate(text):
            ty = y + pad + lay.size * 0.95 + k * lay.size * 1.15
            if centre:
                pen.text((x0 + x1) / 2, ty, t, True, align="center", color=colour)
            elif col.key in NUMERIC:
                pen.text(x1 - pad, ty, t, True, align="right", color=colour)
            else:
                pen.text(x0 + pad, ty, t, True, color=colour)
    return y + h


def draw_row(pen: NPen, lay: Layout, row: NRow, y: float, k: int) -> float:
    e, xs, pad = lay.extra, _xs(lay), _pad(lay)
    if e["zebra"] and k % 2:
        pen.fill(xs[0], y, xs[-1] - xs[0], row.height, (0.95, 0.95, 0.95))
    for col, x0, x1 in zip(lay.columns, xs, xs[1:]):
        for j, text in enumerate(row.cells[col.key]):
            ty = y + pad + lay.size * 0.95 + j * lay.size * 1.25
            if col.key in NUMERIC:
                pen.text(x1 - pad, ty, text, align="right")
            else:
                pen.text(x0 + pad, ty, text)
    if e["table"] == "grid":
        pen.line(xs[0], y + row.height, xs[-1], y + row.height, 0.4)
        for x in xs:
            pen.line(x, y, x, y + row.height, 0.4)
    elif e["table"] == "rules":
        pen.line(xs[0], y + row.height, xs[-1], y + row.height, 0.3, 0.6)
    return y + row.height


def _frame(pen: NPen, lay: Layout, top: float, bottom: float) -> None:
    """A framed table's box and column rules, from its heading down to ``bottom``."""
    xs = _xs(lay)
    pen.rect(xs[0], top, xs[-1] - xs[0], bottom - top, 0.7)
    for x in xs[1:-1]:
        pen.line(x, top, x, bottom, 0.5)


def _note_row(pen: NPen, lay: Layout, y: float, text: str, amount: str | None, draw: bool) -> float:
    """A row of the table holding a note in the description column (a delivery note, a carried amount), the
    amount (if any) in the amount column."""
    xs, pad = _xs(lay), _pad(lay)
    keys = [c.key for c in lay.columns]
    d = keys.index("description")
    lines = wrap(text, xs[d + 1] - xs[d] - 2 * pad, pen)
    h = len(lines) * lay.size * 1.25 + pad * 1.3
    if draw:
        for j, part in enumerate(lines):
            pen.text(xs[d] + pad, y + pad + lay.size * 0.95 + j * lay.size * 1.25, part, True)
        if amount is not None:
            a = keys.index("amount")
            pen.text(xs[a + 1] - pad, y + pad + lay.size * 0.95, amount, True, align="right")
        if lay.extra["table"] == "grid":
            pen.line(xs[0], y + h, xs[-1], y + h, 0.4)
            for x in xs:
                pen.line(x, y, x, y + h, 0.4)
    return y + h


def _delivery_text(inv: Invoice, lay: Layout) -> str:
    number, date = delivery(inv, lay)
    texts = TEXTS[(lay.extra["country"], lay.extra["lang"])]["delivery"]
    return texts[lay.seed % len(texts)].format(n=number, date=lay.date(date))


def _scratch(lay: Layout) -> NPen:
    return NPen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def _geometry(pen: NPen, inv: Invoice, lay: Layout) -> tuple[list[list[NRow]], float]:
    mod, e = MODULES[lay.extra["country"]], lay.extra
    all_rows = rows(pen, inv, lay)
    band = e["band"]
    bottom = lay.page[1] - lay.margin - mod.foot_height(pen, inv, lay) - mod.band_height(pen, inv, lay)
    carry = e["carry"] and not band
    reserve = lay.size * 1.25 + _pad(lay) * 1.3 if carry or lay.continued else 0.0
    first = head(pen, lay, mod.top(pen, inv, lay, 1, 1, False), False)
    if e["delivery"]:
        first = _note_row(pen, lay, first, _delivery_text(inv, lay), None, False)
    later = head(pen, lay, mod.top(pen, inv, lay, 2, 2, False), False)
    if carry:
        later = _note_row(pen, lay, later, lay.labels["brought"], "0", False)
    pages: list[list[NRow]] = [[]]
    y = first
    for row in all_rows:
        if pages[-1] and y + row.height > bottom - reserve:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += row.height
    if not band and mod.closing(pen, inv, lay, y, False) > bottom:
        # no room for the totals: the last row goes over with them (an empty page only for a one-row page)
        if len(pages[-1]) > 1:
            moved = pages[-1].pop()
            pages.append([moved])
            y = later + moved.height
        if not pages[-1] or mod.closing(pen, inv, lay, y, False) > bottom:
            pages.append([])
    return pages, bottom


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page (a page of totals only has none)."""
    return _geometry(_scratch(lay), inv, lay)[0]


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    mod, e = MODULES[lay.extra["country"]], lay.extra
    pages, bottom = _geometry(_scratch(lay), inv, lay)
    m = len(pages)
    buf = io.BytesIO()
    pen = NPen(canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1), lay)
    title = lay.credit_title if inv.is_credit else lay.title
    pen.c.setTitle(f"{title} {doc_number(inv, lay)}")
    pen.c.setAuthor(e["seller"]["name"])
    carried, count = Decimal("0.00"), 0
    carry = e["carry"] and not e["band"]
    for n, page_rows in enumerate(pages, 1):
        y = mod.top(pen, inv, lay, n, m, True)
        before = carried
        if page_rows:
            top = y
            y = head(pen, lay, y, True)
            if n == 1 and e["delivery"]:
                y = _note_row(pen, lay, y, _delivery_text(inv, lay), None, True)
            if n > 1 and carry:
                y = _note_row(pen, lay, y, lay.labels["brought"], lay.money(before, lines=True), True)
            for row in page_rows:
                y = draw_row(pen, lay, row, y, count)
                carried += inv.rows[row.index].amount
                count += 1
            if n < m and carry:
                y = _note_row(pen, lay, y, lay.continued, lay.money(carried, lines=True), True)
            if e["table"] == "frame":
                _frame(pen, lay, top, bottom if e["band"] else y)
            if n < m and lay.continued and not carry and not e["band"]:
                pen.text(_xs(lay)[-1], y + lay.size * 1.4, lay.continued, size=lay.size * 0.9, align="right",
                         color=GREY)
        if n == m and not e["band"]:
            mod.closing(pen, inv, lay, y, True)
        if e["band"]:
            mod.band(pen, inv, lay, n, m, carried, True)
        mod.foot(pen, inv, lay, n, m)
        pen.c.showPage()
    pen.c.save()
    return buf.getvalue()
