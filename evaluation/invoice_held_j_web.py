"""held-j's order invoices: the pages online marketplaces and web shops issue for an order.

``marketplace`` copies a marketplace seller's invoice: the title, the marketplace's name, the invoice and order
details in a grey box, "Sold by" with the seller's registration, billing and delivery addresses, a table with
net unit price, quantity, net amount, tax rate, tax amount and gross amount per line (the product code in its
column or under the description), a summary box with the totals (and a breakdown by tax rate), small print.
``webshop`` copies a web shop's PDF invoice plug-in: the shop's name large in its colour, "INVOICE" with the
details beside the two addresses, a coloured heading bar, zebra rows or rules, the totals right-aligned with a
free shipping line, a thank-you line. Per-line taxes are the foot's shared out to the cent
(:func:`evaluation.invoice_held_j.line_taxes`). Every page carries its page label and the seller's line at the
foot; every page but the last a "continued" mark; a later page starts with a running header naming the invoice.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from evaluation.invoice_held_j import line_taxes, order_ref, qty
from evaluation.invoice_held_j_print import Plan
from evaluation.invoice_held_j_words import ADDRESS, BREAKDOWN, PAYMENTS, PAYMENTS_DE
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, _xs, wrap

__all__ = ["draw_page", "plan"]

NUMERIC = ("quantity", "unit_price", "amount", "vat_rate", "tax_amount", "gross")
WHITE, GREY = (1.0, 1.0, 1.0), (0.4, 0.4, 0.4)
SMALL = 0.85  # small print and a code under its description, in font sizes
FOOT = 3.0  # the foot's height, in leads


def _title(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _label(lay: Layout, key: str) -> str:
    return lay.labels[key] + lay.colon


def _details(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    """The invoice and order details in the order such invoices print them."""
    number, ordered = order_ref(inv, lay)
    payments = PAYMENTS_DE if lay.extra["lang"] == "de" else PAYMENTS
    payment = payments[lay.extra["payment"]]
    if lay.extra["payment"] == 0:
        payment += f" **** {lay.extra['card']}"
    rows = [(_label(lay, "credit_number" if inv.is_credit else "invoice_number"), inv.number),
            (_label(lay, "invoice_date"), lay.date(inv.date)),
            (_label(lay, "order_number"), number), (_label(lay, "order_date"), lay.date(ordered))]
    if lay.extra["template"] == "webshop":
        rows = [rows[0], rows[2], rows[1], rows[3]] if lay.header_place == "left" else rows
    if inv.customer is not None:
        rows.append((_label(lay, "customer_id"), inv.customer))
    rows.append((_label(lay, "payment"), payment))
    if lay.mark != lay.currency:
        rows.append((_label(lay, "currency"), lay.currency))
    return rows


def _pairs(pen: Pen, rows: list[tuple[str, str]], x: float, y: float, right: float | None = None) -> float:
    """``Label  value`` lines, the values in a column (or right-aligned at ``right``); returns the y below."""
    col = x + max(pen.width(a, True) for a, _ in rows) + pen.lay.size
    for label, value in rows:
        pen.text(x, y, label, bold=True)
        pen.text(right if right is not None else col, y, value, align="right" if right is not None else "left")
        y += pen.lead
    return y


def _block(pen: Pen, heading: str, lines: list[str], x: float, y: float) -> float:
    pen.text(x, y, heading, bold=True, color=GREY, size=pen.lay.size * 0.95)
    y += pen.lead
    for line in lines:
        pen.text(x, y, line)
        y += pen.lead
    return y


def _addresses(inv: Invoice, lay: Layout) -> tuple[list[str], list[str]]:
    """The records name no one: an accounts line over the country (a guest's order: the department only)."""
    bill, ship = ADDRESS[lay.extra["lang"]]
    return [bill, inv.country], [ship, inv.country]


def _marketplace(pen: Pen, inv: Invoice, lay: Layout) -> float:
    size = lay.size * 2.2
    y = lay.margin + size
    pen.text(pen.left, y, _title(inv, lay), bold=True, size=size)
    pen.text(pen.right, y, lay.extra["market"], bold=True, size=lay.size * 1.4, color=lay.extra["accent"],
             align="right")
    y += pen.lead * 1.6
    details = _details(inv, lay)
    width = (pen.right - pen.left) * 0.46
    box_x = pen.right - width if lay.header_place == "right" else pen.left
    side = pen.left if lay.header_place == "right" else pen.left + width + lay.size * 2
    h = pen.lead * len(details) + lay.size * 1.2
    pen.box(box_x, y, width, h, fill=(0.94, 0.94, 0.94))
    _pairs(pen, details, box_x + lay.size * 0.7, y + lay.size * 1.5)
    seller = _block(pen, _label(lay, "sold_by"), list(lay.seller), side, y + lay.size * 1.5)
    y = max(y + h, seller) + pen.lead
    bill, ship = _addresses(inv, lay)
    mid = (pen.left + pen.right) / 2
    y = max(_block(pen, _label(lay, "sold_to"), bill, pen.left, y), _block(pen, _label(lay, "ship_to"), ship, mid, y))
    return y + pen.lead * 0.6


def _webshop(pen: Pen, inv: Invoice, lay: Layout) -> float:
    accent, size = lay.extra["accent"], lay.size * 2.4
    y = lay.margin + size
    pen.text(pen.left, y, lay.seller[0], bold=True, size=size * 0.8, color=accent)
    pen.text(pen.right, y, _title(inv, lay), bold=True, size=size, align="right")
    left = y + pen.lead * 1.2
    for line in lay.seller[1:]:
        pen.text(pen.left, left, line, size=lay.size * 0.95)
        left += pen.lead
    details = _details(inv, lay)
    x = pen.right - max(pen.width(a, True) + pen.width(b) for a, b in details) - lay.size * 2
    right = _pairs(pen, details, x, y + pen.lead * 1.6, right=pen.right)
    left += pen.lead
    bill, ship = _addresses(inv, lay)
    step = (x - pen.left) / 2
    left = max(_block(pen, _label(lay, "sold_to"), bill, pen.left, left),
               _block(pen, _label(lay, "ship_to"), ship, pen.left + step, left))
    return max(left, right) + pen.lead * 0.8


def header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    """The first page's header; returns the top of the table."""
    return (_marketplace if lay.extra["template"] == "marketplace" else _webshop)(pen, inv, lay)


def running(pen: Pen, inv: Invoice, lay: Layout, n: int) -> float:
    """A later page's top: the seller's name on the left, the running header naming the invoice on the right."""
    y = lay.margin + lay.size
    pen.text(pen.left, y, lay.seller[0], bold=True)
    pen.text(pen.right, y, lay.running.format(title=_title(inv, lay), number=inv.number, n=n), bold=True,
             align="right")
    pen.line(pen.left, y + pen.lead * 0.6, pen.right, y + pen.lead * 0.6, 0.6, 0.5)
    return y + pen.lead * 1.6


def _pad(lay: Layout) -> float:
    return lay.size * 0.6


class _Bold:
    """A pen's measure of bold text, for wrapping the headings."""

    def __init__(self, pen: Pen):
        self.pen = pen

    def width(self, text: str) -> float:
        return self.pen.width(text, True)


def _headings(pen: Pen, lay: Layout) -> dict[str, list[str]]:
    return {c.key: wrap(c.heading, c.width - 2 * _pad(lay), _Bold(pen)) for c in lay.columns}


def _head_height(pen: Pen, lay: Layout) -> float:
    return pen.lead * max(len(v) for v in _headings(pen, lay).values()) + lay.size * 0.8


def table_head(pen: Pen, lay: Layout, y: float) -> float:
    h, pad = _head_height(pen, lay), _pad(lay)
    solid = lay.extra["template"] == "webshop"
    color = WHITE if solid else (0.1, 0.1, 0.1)
    pen.box(pen.left, y, pen.right - pen.left, h, fill=lay.extra["accent"] if solid else (0.88, 0.88, 0.88))
    lines = _headings(pen, lay)
    for col, x in zip(lay.columns, _xs(lay, lay.columns)):
        for k, text in enumerate(lines[col.key]):
            base = y + lay.size * 1.2 + k * pen.lead
            if col.key in NUMERIC:
                pen.text(x + col.width - pad, base, text, bold=True, align="right", color=color)
            else:
                pen.text(x + pad, base, text, bold=True, color=color)
    return y + h


def _rows(inv: Invoice, lay: Layout, pen: Pen) -> list[Row]:
    taxes = line_taxes(inv, lay.tax_rate) if lay.tax_rate is not None else [None] * len(inv.rows)
    width = {c.key: c.width - 2 * _pad(lay) for c in lay.columns}
    rows = []
    for index, (line, tax) in enumerate(zip(inv.rows, taxes)):
        values = {"quantity": qty(lay, line.quantity), "unit_price": lay.money(line.unit_price, lines=True),
                  "amount": lay.money(line.amount, lines=True), "vat_rate": lay.extra["rate_text"]}
        if tax is not None:
            values |= {"tax_amount": lay.money(tax, lines=True), "gross": lay.money(line.amount + tax, lines=True)}
        cells = {k: wrap(getattr(line, k) or "", width[k], pen) if k in ("code", "description") else [values[k]]
                 for k in width}
        if "sku" in lay.labels:  # the code under the description, in small grey type
            cells["under"] = [f"{lay.labels['sku']}: {line.code}"]
            if not line.description:
                cells["description"] = []
        rows.append(Row(index, cells))
    return rows


def _height(lay: Layout, row: Row) -> float:
    lead = lay.size * 1.4
    lines = max(len(v) for k, v in row.cells.items() if k != "under")
    if "under" in row.cells:
        lines = max(lines, len(row.cells["description"]) + SMALL)
    return lead * lines + lay.size * 0.7


def table_row(pen: Pen, lay: Layout, row: Row, y: float, k: int) -> float:
    h, pad = _height(lay, row), _pad(lay)
    if lay.zebra and k % 2 == 1:
        pen.box(pen.left, y, pen.right - pen.left, h, fill=(0.95, 0.95, 0.95))
    elif lay.ruled:
        pen.line(pen.left, y + h, pen.right, y + h, 0.4, 0.75)
    base = y + lay.size * 1.35
    for col, x in zip(lay.columns, _xs(lay, lay.columns)):
        for n, text in enumerate(row.cells[col.key]):
            if col.key in NUMERIC:
                pen.text(x + col.width - pad, base + n * pen.lead, text, align="right")
            else:
                pen.text(x + pad, base + n * pen.lead, text)
        if col.key == "description" and "under" in row.cells:
            pen.text(x + pad, base + len(row.cells["description"]) * pen.lead, row.cells["under"][0],
                     size=lay.size * SMALL, color=GREY)
    return y + h


def totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """The totals: a summary box (marketplace, with a breakdown by tax rate on the left where the layout has one)
    or right-aligned lines with a free shipping line (web shop); then the thanks and the small print."""
    y += pen.lead
    total_label = _label(lay, "credit_total" if inv.is_credit else "total")
    rows = [(_label(lay, "subtotal"), lay.money(inv.subtotal))]
    if lay.extra["template"] == "webshop":
        rows.append((_label(lay, "shipping"), lay.labels["free"]))
    if lay.tax_rate is not None:
        rows.append((_label(lay, "tax"), lay.money(inv.tax(lay.tax_rate))))
    rows.append((total_label, lay.money(inv.total(lay.tax_rate))))
    width = max(pen.width(a, True) for a, _ in rows) + max(pen.width(b, True) for _, b in rows) + lay.size * 4
    x = pen.right - width
    if lay.extra["template"] == "marketplace":
        pen.box(x, y, width, pen.lead * len(rows) + lay.size, stroke=0.6)
        pen.box(x, y + pen.lead * (len(rows) - 1) + lay.size * 0.5, width, pen.lead, fill=(0.9, 0.9, 0.9))
    top = y
    y += lay.size * 1.5
    for k, (label, value) in enumerate(rows):
        last = k == len(rows) - 1
        if last and lay.extra["template"] == "webshop":
            pen.line(x, y - lay.size * 1.1, pen.right, y - lay.size * 1.1, 0.8, 0.2)
        pen.text(x + lay.size * 0.6, y, label, bold=last)
        pen.text(pen.right - lay.size * 0.6, y, value, bold=last, align="right")
        y += pen.lead
    if lay.extra["breakdown"]:
        heads = [w.replace("{tax}", lay.extra["tax_name"]) for w in BREAKDOWN[lay.extra["lang"]]]
        cells = (lay.extra["rate_text"], lay.money(inv.subtotal), lay.money(inv.tax(lay.tax_rate)),
                 lay.money(inv.total(lay.tax_rate)))
        step = (x - pen.left - lay.size * 2) / 4
        for j, (a, b) in enumerate(zip(heads, cells)):
            pen.text(pen.left + step * (j + 1), top + lay.size * 1.5, a, size=lay.size * SMALL, color=GREY,
                     align="right")
            pen.text(pen.left + step * (j + 1), top + lay.size * 1.5 + pen.lead, b, align="right")
    y += pen.lead
    pen.text(pen.left, y, lay.extra["thanks"], bold=True)
    y += pen.lead * 1.2
    for line in wrap(lay.extra["small"].format(market=lay.extra["market"]), pen.right - pen.left, pen):
        pen.text(pen.left, y, line, size=lay.size * SMALL, color=GREY)
        y += pen.lead * SMALL
    return y


def foot(pen: Pen, lay: Layout, n: int, m: int) -> None:
    y = lay.page[1] - lay.margin
    pen.line(pen.left, y - pen.lead * 1.2, pen.right, y - pen.lead * 1.2, 0.4, 0.7)
    pen.text(pen.left, y - pen.lead * 0.3, "  ·  ".join((lay.seller[0], lay.seller[-1])), size=lay.size * SMALL,
             color=GREY)
    pen.text(pen.right, y - pen.lead * 0.3, lay.page_label.format(n=n, m=m), size=lay.size * 0.9, align="right")
    if n < m:
        pen.text(pen.right, y + pen.lead * 0.7, lay.continued.format(next=n + 1), size=lay.size * 0.9,
                 align="right")


def plan(inv: Invoice, lay: Layout) -> Plan:
    pen = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)
    head = _head_height(pen, lay)
    rows = _rows(inv, lay, pen)
    return Plan(header(pen, inv, lay) + head, running(pen, inv, lay, 2) + head, rows,
                [_height(lay, row) for row in rows], totals(pen, inv, lay, 0.0),
                lay.page[1] - lay.margin - pen.lead * FOOT)


def draw_page(pen: Pen, inv: Invoice, lay: Layout, rows: list[Row], n: int, m: int) -> None:
    """One page: the header (first page) or running header, the table, the totals on the last page, the foot."""
    y = header(pen, inv, lay) if n == 1 else running(pen, inv, lay, n)
    if rows:
        y = table_head(pen, lay, y)
    for k, row in enumerate(rows):
        y = table_row(pen, lay, row, y, k)
    if n == m:
        totals(pen, inv, lay, y)
    foot(pen, lay, n, m)
