"""The drawing of the ``dev-f`` (erp) invoices: :func:`paginate` and :func:`render_pdf`, registered in
:data:`evaluation.invoice_render.OWN_PAGES` (the layouts are in :mod:`evaluation.invoice_dev_f`).

Page 1 carries the seller, the title, the header fields (a ruled ``label | value`` table, a row of labelled boxes
or a ``Label: value`` block) and the bill-to address (and ship-to, in some layouts); later pages a running line.
Every page with items repeats the headings; a layout with running sums prints "Carried forward" under the last row
of each page followed by more items and "Brought forward" under the headings of the next, both equal to the sum of
the amounts printed before. The totals follow the items, on a page of their own when the last has no room.
Coordinates are from the top of the page, as in :mod:`evaluation.invoice_styles`.

>>> from evaluation.invoice_dev_f import dev_f_layout
>>> from evaluation.invoice_records import Invoice, InvoiceRow
>>> inv = Invoice("536365", dt.date(2010, 12, 1), "17850", "United Kingdom",
...               (InvoiceRow("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", Decimal("6"), Decimal("2.55")),))
>>> render_pdf(inv, dev_f_layout(1)) == render_pdf(inv, dev_f_layout(1)), [len(p) for p in paginate(inv, dev_f_layout(1))]
(True, [1])
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice, InvoiceRow, cents
from evaluation.invoice_styles import Pen, Row, title, wrap

__all__ = ["paginate", "render_pdf"]

RIGHT = {"quantity", "unit_price", "amount", "discount", "vat_rate", "line_vat", "gross"}  # right-aligned columns
UNITS = ("EA", "PCS", "each", "pc")


def _price(lay: Layout, value: Decimal) -> str:
    places = lay.extra["price_places"]
    return lay.money(value, lines=True) if places == 2 else lay.number(value, places)


def _unit(lay: Layout, row: InvoiceRow) -> str:
    text = (row.description or "").upper()
    return "PK" if "PACK" in text or "SET" in text.split() else UNITS[lay.seed % len(UNITS)]


def _cell(key: str, index: int, row: InvoiceRow, lay: Layout, width: float, pen: Pen) -> list[str]:
    if key in ("code", "description"):
        return wrap(getattr(row, key) or "", width, pen)
    rate = lay.tax_rate or Decimal("0")
    vat = cents(row.amount * rate)
    places = lay.extra["quantity_places"]
    text = {"quantity": lambda: lay.number(row.quantity, places) if places else lay.quantity(row.quantity),
            "unit": lambda: _unit(lay, row), "unit_price": lambda: _price(lay, row.unit_price),
            "discount": lambda: "0%" if lay.seed % 2 else lay.number(Decimal("0"), 2),
            "vat_rate": lambda: f"{rate * 100:.0f}%", "line_no": lambda: str(index + 1),
            "amount": lambda: lay.money(row.amount, lines=True), "line_vat": lambda: lay.money(vat, lines=True),
            "gross": lambda: lay.money(row.amount + vat, lines=True)}[key]
    return [text()]


def _rows(inv: Invoice, lay: Layout, pen: Pen) -> list[Row]:
    pad = lay.size * 0.8
    return [Row(i, {c.key: _cell(c.key, i, r, lay, c.width - pad, pen) for c in lay.columns})
            for i, r in enumerate(inv.rows)]


def _row_height(lay: Layout, lines: int) -> float:
    return lay.size * 1.4 * lines + lay.size * 0.6


def _xs(lay: Layout) -> list[float]:
    xs = [lay.margin]
    for col in lay.columns:
        xs.append(xs[-1] + col.width)
    return xs  # the left edge of each column, then the table's right edge


def _texts(pen: Pen, cells: dict[str, list[str]], y: float, bold: bool = False) -> None:
    lay, pad = pen.lay, pen.lay.size * 0.4
    for col, x, x1 in zip(lay.columns, _xs(lay), _xs(lay)[1:]):
        for k, text in enumerate(cells.get(col.key, [])):
            if col.key in RIGHT:
                pen.text(x1 - pad, y + k * pen.lead, text, bold, align="right")
            else:
                pen.text(x + pad, y + k * pen.lead, text, bold)


def _rules(pen: Pen, y0: float, y1: float, heading: bool = False) -> None:
    """A row's rules: every cell boxed (grid), a rule below (ruled), or only under the headings."""
    lay, xs = pen.lay, _xs(pen.lay)
    if lay.extra["grid"]:
        for x in xs:
            pen.line(x, y0, x, y1, 0.5)
        pen.line(xs[0], y0, xs[-1], y0, 0.5)
        pen.line(xs[0], y1, xs[-1], y1, 0.5)
    elif lay.ruled or heading:
        pen.line(xs[0], y1, xs[-1], y1, 1.0 if heading else 0.3, grey=0.0 if heading else 0.5)


def table_head(pen: Pen, y: float) -> float:
    lay = pen.lay
    h = _row_height(lay, 1)
    if lay.extra["grid"]:
        pen.box(lay.margin, y, _xs(lay)[-1] - lay.margin, h, fill=(0.88, 0.88, 0.88))
    _texts(pen, {c.key: [c.heading] for c in lay.columns}, y + lay.size * 1.1, bold=True)
    _rules(pen, y, y + h, heading=True)
    return y + h


def table_row(pen: Pen, row: Row, y: float) -> float:
    h = _row_height(pen.lay, row.lines)
    _texts(pen, row.cells, y + pen.lay.size * 1.1)
    _rules(pen, y, y + h)
    return y + h


def forward_row(pen: Pen, label: str, amount: Decimal, y: float) -> float:
    """A running sum: its label in the first text column, the sum in the amount column."""
    lay = pen.lay
    text = next(c.key for c in lay.columns if c.key in ("description", "code"))
    cells = {text: [label], "amount": [lay.money(amount, lines=True)]}
    h = _row_height(lay, 1)
    _texts(pen, cells, y + lay.size * 1.1, bold=True)
    _rules(pen, y, y + h)
    return y + h


# ----------------------------------------------------------------------------------------------------------------
# Page 1's header.
# ----------------------------------------------------------------------------------------------------------------
def _fields(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    values = {"invoice_number": inv.number, "invoice_date": lay.date(inv.date), "customer_id": inv.customer,
              "country": inv.country, "currency": lay.currency, "terms": lay.extra["terms"],
              "due_date": lay.date(inv.date + dt.timedelta(days=30)), "reference": lay.extra["reference"]}
    return [(lay.label(k, inv.is_credit), values[k]) for k in lay.extra["fields"] if values[k] is not None]


def _grid(pen: Pen, pairs, x: float, y: float) -> float:
    """A ruled two-column table of labels and values at (x, y); returns the y below."""
    lay, pad = pen.lay, pen.lay.size * 0.5
    w0 = max(pen.width(a, True) for a, _ in pairs) + 2 * pad
    w1 = max(pen.width(b) for _, b in pairs) + 2 * pad
    h = pen.lead + pad
    for k, (label, value) in enumerate(pairs):
        top = y + k * h
        pen.box(x, top, w0, h, fill=(0.93, 0.93, 0.93), stroke=0.5)
        pen.box(x + w0, top, w1, h, stroke=0.5)
        pen.c.setFillColorRGB(0, 0, 0)
        pen.text(x + pad, top + lay.size * 1.15, label, bold=True)
        pen.text(x + w0 + pad, top + lay.size * 1.15, value)
    return y + len(pairs) * h


def _boxes(pen: Pen, pairs, y: float) -> float:
    """The fields as a row of boxes across the page (two rows for more than five), each label small above its
    value; returns the y below."""
    lay = pen.lay
    per_row = 5 if len(pairs) > 5 else len(pairs)
    w, h = (pen.right - pen.left) / per_row, pen.lead * 2.3
    for k, (label, value) in enumerate(pairs):
        x, top = pen.left + (k % per_row) * w, y + (k // per_row) * h
        pen.box(x, top, w, h, stroke=0.5)
        pen.text(x + 4, top + lay.size * 1.0, label.rstrip(":"), size=lay.size * 0.8)
        pen.text(x + 4, top + lay.size * 1.0 + pen.lead, value, bold=True)
    return y + ((len(pairs) - 1) // per_row + 1) * h


def _block(pen: Pen, pairs, x: float, y: float) -> float:
    col = max(pen.width(a, True) for a, _ in pairs) + pen.lay.size
    for label, value in pairs:
        pen.text(x, y, label, bold=True)
        pen.text(x + col, y, value)
        y += pen.lead
    return y


def _address(pen: Pen, inv: Invoice, lay: Layout, x: float, y: float, heading: str) -> float:
    lines = (*lay.extra["address"], inv.country) if inv.customer else ("Cash Sale", "Counter customer", inv.country)
    pen.text(x, y, heading, bold=True, size=lay.size * 0.9)
    for k, line in enumerate(lines, 1):
        pen.text(x, y + k * pen.lead, line)
    return y + (len(lines) + 1) * pen.lead


def header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    """Page 1's header; returns the y where the headings start."""
    y = lay.margin + lay.size * 1.6
    pen.text(pen.right, y, title(inv, lay), bold=True, size=lay.size * 2, align="right")
    for k, line in enumerate(lay.seller):
        pen.text(pen.left, y + k * pen.lead, line, bold=k == 0, size=lay.size * (1.3 if k == 0 else 1))
    y += pen.lead * (len(lay.seller) + 1)
    pairs, middle = _fields(inv, lay), lay.page[0] * 0.55
    if lay.header_place == "boxes":
        y = _boxes(pen, pairs, y) + pen.lead
        right = y
    else:
        right = (_grid(pen, pairs, middle, y - lay.size) if lay.header_place == "grid" else
                 _block(pen, pairs, middle, y))
    left = _address(pen, inv, lay, pen.left, y, lay.labels["bill_to"])
    if lay.extra["ship_to"]:
        _address(pen, inv, lay, pen.left + (middle - pen.left) / 2, y, lay.labels["ship_to"])
    return max(left, right) + pen.lead


def running(pen: Pen, inv: Invoice, lay: Layout, n: int) -> float:
    text = lay.running.format(title=title(inv, lay), number=inv.number, n=n)
    pen.text(pen.left, lay.margin + lay.size * 1.2, text, bold=True, size=lay.size * 1.1)
    return lay.margin + lay.size * 1.2 + pen.lead * 1.5


# ----------------------------------------------------------------------------------------------------------------
# Totals and foot.
# ----------------------------------------------------------------------------------------------------------------
def _rate(lay: Layout) -> str:
    return f"{lay.tax_rate * 100:.0f}%"


def _totals_rows(inv: Invoice, lay: Layout) -> list[tuple[str, str, bool]]:
    rows = [(lay.label("subtotal"), lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        base = f" on {lay.money(inv.subtotal)}" if lay.extra["rate_base"] else ""
        rows.append((f"{lay.labels['tax']} {_rate(lay)}{base}{lay.colon}", lay.money(inv.tax(lay.tax_rate)), False))
    total = lay.money(inv.total(lay.tax_rate))
    rows.append((lay.label("total"), total, True))
    if lay.extra["paid"] and not inv.is_credit:
        rows += [(lay.labels["paid"] + lay.colon, lay.money(Decimal("0.00")), False),
                 (lay.labels["balance"] + lay.colon, total, True)]
    return rows


def totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """The totals right-aligned under the table, a VAT analysis on the left in some layouts; returns the y below."""
    y += pen.lead * 1.5
    x = pen.right - max(pen.width(label, True) for label, _, _ in _totals_rows(inv, lay)) - lay.size * 9
    end = y
    for label, value, bold in _totals_rows(inv, lay):
        pen.text(x, end, label, bold)
        pen.text(pen.right, end, value, bold, align="right")
        end += pen.lead
    if lay.extra["analysis"]:
        pen.text(pen.left, y, lay.labels["analysis"], bold=True)
        cols = (("Rate", _rate(lay)), ("Net", lay.money(inv.subtotal)), ("VAT", lay.money(inv.tax(lay.tax_rate))))
        for k, (head, value) in enumerate(cols):
            pen.text(pen.left + 90 * (k + 1), y + pen.lead, head, bold=True, align="right")
            pen.text(pen.left + 90 * (k + 1), y + 2 * pen.lead, value, align="right")
        end = max(end, y + 3 * pen.lead)
    return end


def foot_height(lay: Layout) -> float:
    return lay.size * 1.4 * 3


def foot(pen: Pen, lay: Layout, n: int, m: int) -> None:
    bottom = lay.page[1] - lay.margin
    line = f"{lay.seller[0]}  |  VAT Reg. No. {lay.extra['vat_reg']}  |  IBAN {lay.extra['iban']}"
    pen.line(pen.left, bottom - pen.lead * 1.2, pen.right, bottom - pen.lead * 1.2, 0.3)
    pen.text(pen.left, bottom, line, size=lay.size * 0.8)
    pen.text(pen.right, bottom, lay.page_label.format(n=n, m=m), size=lay.size * 0.8, align="right")
    if n < m:
        pen.text(pen.right, bottom - pen.lead * 1.7, lay.continued.format(next=n + 1), size=lay.size * 0.8,
                 align="right")


# ----------------------------------------------------------------------------------------------------------------
# Pages.
# ----------------------------------------------------------------------------------------------------------------
def _scratch(lay: Layout) -> Pen:
    return Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page: those that fit between its header (and brought-forward row) and its foot, with
    room left for a carried-forward row; the last page also needs room for the totals, or a page of their own
    follows."""
    pen = _scratch(lay)
    one = _row_height(lay, 1)
    forward = one if lay.extra["forward"] else 0.0
    bottom = lay.page[1] - lay.margin - foot_height(lay)
    pages: list[list[Row]] = [[]]
    y = header(pen, inv, lay) + one
    for row in _rows(inv, lay, pen):
        h = _row_height(lay, row.lines)
        if y + h + forward > bottom and pages[-1]:
            pages.append([])
            y = running(pen, inv, lay, len(pages)) + one + forward
        pages[-1].append(row)
        y += h
    if totals(pen, inv, lay, y) > bottom:
        pages.append([])
    return pages


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    pen = Pen(c, lay)
    carried, (carry, bring) = Decimal("0.00"), lay.extra["forward_words"]
    for n, rows in enumerate(pages, 1):
        y = header(pen, inv, lay) if n == 1 else running(pen, inv, lay, n)
        if rows:
            y = table_head(pen, y)
            if n > 1 and lay.extra["forward"]:
                y = forward_row(pen, bring, carried, y)
        for row in rows:
            y = table_row(pen, row, y)
            carried += inv.rows[row.index].amount
        if lay.extra["forward"] and n < len(pages) and pages[n]:
            forward_row(pen, carry, carried, y)
        if n == len(pages):
            totals(pen, inv, lay, y)
        foot(pen, lay, n, len(pages))
        c.showPage()
    c.save()
    return buf.getvalue()

