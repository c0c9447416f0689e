"""The blocks of a held-i page around the items table: the first page's header, a continuation page's running
header, the totals with their notes, and the foot. Each takes the top ``y`` (from the top of the page) and returns
the ``y`` below what it drew, so the same function measures a block on a throw-away canvas.

What each block imitates is said where it is drawn; :mod:`evaluation.invoice_held_i` lists the choices.
"""

from __future__ import annotations

import datetime as dt

from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen

__all__ = ["foot", "header", "running", "totals"]

WHITE = (1.0, 1.0, 1.0)
BLACK = (0.0, 0.0, 0.0)
BILL_TO = {"banner": "Bill To", "ledger": "Bill To", "grid": "Billed To", "tax": "", "zoho": "Bill To"}


def _grey(lay: Layout) -> tuple[float, float, float]:
    g = lay.extra["grey"]
    return (g, g, g)


def _title(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _number_label(inv: Invoice, lay: Layout) -> str:
    return lay.labels["credit_number" if inv.is_credit else "invoice_number"]


def _due_label(inv: Invoice, lay: Layout) -> str:
    return lay.labels["credit_due" if inv.is_credit else "due"]


def _details(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    """The invoice details in the order these apps print them: number, date, terms, due date, the customer's
    account (when the invoice has a customer)."""
    due = inv.date + dt.timedelta(days=lay.extra["terms"])
    rows = [(_number_label(inv, lay), inv.number), (lay.labels["invoice_date"], lay.date(inv.date))]
    if not inv.is_credit:  # a credit note is not due: its notes say by when it is refunded
        rows += [("TERMS" if lay.labels["due_date"].isupper() else "Terms", lay.extra["terms_text"]),
                 (lay.labels["due_date"], lay.date(due))]
    if inv.customer is not None:
        rows.append((lay.labels["customer_id"], inv.customer))
    return rows


def _bill_to(inv: Invoice, lay: Layout) -> list[str]:
    """The customer's block: the records hold no name or street, so an accounts-payable line and the country."""
    return ["Accounts Payable", inv.country]


def _seller(pen: Pen, lay: Layout, x: float, y: float, align: str, color=BLACK) -> float:
    for k, line in enumerate(lay.seller):
        pen.text(x, y, line, bold=k == 0, size=lay.size * (1.15 if k == 0 else 0.95), align=align, color=color)
        y += pen.lead * (1.1 if k == 0 else 1.0)
    return y


def _top(pen: Pen, inv: Invoice, lay: Layout, seller: bool = True) -> float:
    """The title: white on a coloured band across the page (Wave, Zoho's modern templates), or large coloured
    type with the seller's name and address on the other side (QuickBooks, Xero, Sage)."""
    size, accent, title = lay.size * 2.6, lay.extra["accent"], _title(inv, lay)
    if lay.extra["banner"]:
        band = lay.margin + size * 1.9
        pen.box(0, 0, lay.page[0], band, fill=accent)
        pen.text(pen.left, band - size * 0.7, title, bold=True, size=size, color=WHITE)
        if seller:
            y = max(lay.margin * 0.6, band - size * 0.7 - pen.lead * (len(lay.seller) - 1) * 1.05)
            pen.text(pen.right, y, lay.seller[0], bold=True, size=lay.size * 1.1, color=WHITE, align="right")
            for k, line in enumerate(lay.seller[1:], 1):
                pen.text(pen.right, y + pen.lead * k, line, size=lay.size * 0.9, color=WHITE, align="right")
        return band + pen.lead * 1.6
    right = lay.extra["product"] in ("zoho", "tax")
    y = lay.margin + size
    pen.text(pen.right if right else pen.left, y, title, bold=True, size=size, color=accent,
             align="right" if right else "left")
    below = y + pen.lead * 1.5
    if seller:
        below = max(below, _seller(pen, lay, pen.left if right else pen.right, lay.margin + lay.size,
                                   "left" if right else "right") + pen.lead * 0.8)
    return below


def _due_box(pen: Pen, inv: Invoice, lay: Layout, y: float, x0: float) -> float:
    """The emphasised amount due: a shaded box with the label small over the figure large."""
    value = lay.money(inv.total(lay.tax_rate))
    h = pen.lead * 3.0
    pen.box(x0, y, pen.right - x0, h, fill=(0.92, 0.93, 0.95))
    pen.text(x0 + lay.size * 0.6, y + pen.lead * 1.1, _due_label(inv, lay), size=lay.size * 0.9, color=_grey(lay))
    pen.text(pen.right - lay.size * 0.6, y + pen.lead * 2.4, value, bold=True, size=lay.size * 1.5, align="right")
    return y + h + pen.lead


def _columns(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """"Bill To" on the left, the details as ``Label  value`` lines on the right (QuickBooks, Zoho, Wave)."""
    heading = BILL_TO[lay.extra["product"]] or "Bill To"
    heading = heading.upper() if lay.extra.get("caps") else heading
    pen.text(pen.left, y, heading, bold=True, size=lay.size * 0.9, color=_grey(lay))
    left = y + pen.lead
    for line in _bill_to(inv, lay):
        pen.text(pen.left, left, line)
        left += pen.lead
    x_label = pen.right - max(190.0, pen.width("M" * 16, True))
    right = y
    for label, value in _details(inv, lay):
        pen.text(x_label, right, label, bold=True)
        pen.text(pen.right, right, value, align="right")
        right += pen.lead
    if lay.extra["due_place"] == "header":
        right = _due_box(pen, inv, lay, right + lay.size * 0.3, x_label - lay.size * 0.6)
    return max(left, right) + pen.lead * 0.8


def _grid(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """The details as cells of a small grey label over its value, three to a row (FreshBooks), with the amount
    due large on the right."""
    cells = [(lay.labels["country"] if lay.extra["product"] == "grid" else BILL_TO["banner"], inv.country),
             *_details(inv, lay)]
    width = (pen.right - pen.left) * (0.62 if lay.extra["due_place"] == "header" else 1.0)
    per_row = 3
    step = width / per_row
    for k, (label, value) in enumerate(cells):
        x, top = pen.left + step * (k % per_row), y + (k // per_row) * pen.lead * 2.6
        pen.text(x, top, label, size=lay.size * 0.85, color=_grey(lay))
        pen.text(x, top + pen.lead, value)
    bottom = y + ((len(cells) + per_row - 1) // per_row) * pen.lead * 2.6
    if lay.extra["due_place"] == "header":
        pen.text(pen.right, y, _due_label(inv, lay), size=lay.size * 0.9, color=_grey(lay), align="right")
        pen.text(pen.right, y + pen.lead * 1.9, lay.money(inv.total(lay.tax_rate)), bold=True,
                 size=lay.size * 2.0, align="right")
        pen.line(pen.right - 150, y + pen.lead * 2.6, pen.right, y + pen.lead * 2.6, 1.5, 0.3)
        bottom = max(bottom, y + pen.lead * 3.2)
    return bottom + pen.lead * 0.4


def _stack(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """Xero's header: the customer on the left, the details in a middle column as label-over-value lines, the
    seller's address on the right."""
    left = y
    for line in _bill_to(inv, lay):
        pen.text(pen.left, left, line)
        left += pen.lead
    x = pen.left + (pen.right - pen.left) * 0.48
    mid = y
    for label, value in _details(inv, lay):
        pen.text(x, mid, label, bold=True, size=lay.size * 0.9)
        pen.text(x, mid + pen.lead, value)
        mid += pen.lead * 2.3
    right = _seller(pen, lay, pen.right, y, "right")
    bottom = max(left, mid, right)
    if lay.extra["due_place"] == "header":
        bottom = _due_box(pen, inv, lay, bottom, pen.right - 200)
    return bottom + pen.lead * 0.4


def header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    """The first page's header; returns the top of the items table."""
    place = lay.header_place
    y = _top(pen, inv, lay, seller=place != "stack" or lay.extra["banner"])
    if place == "stack" and lay.extra["banner"]:
        place = "grid"
    return {"columns": _columns, "grid": _grid, "stack": _stack}[place](pen, inv, lay, y) + pen.lead * 0.4


def running(pen: Pen, inv: Invoice, lay: Layout, n: int) -> float:
    """A continuation page's top: the seller's name on the left, the title and number on the right, a rule."""
    y = lay.margin + lay.size
    pen.text(pen.left, y, lay.seller[0], bold=True)
    text = lay.running.format(title=_title(inv, lay), number=inv.number, n=n)
    pen.text(pen.right, y, text, bold=True, align="right", color=lay.extra["accent"])
    pen.line(pen.left, y + pen.lead * 0.6, pen.right, y + pen.lead * 0.6, 0.8, 0.6)
    return y + pen.lead * 1.8


def totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """The totals right-aligned under the items (subtotal, tax, a ruled total, and a shaded balance due where the
    header has none), then the notes, terms and payment details these apps print on the left."""
    y += pen.lead * 1.3
    x = pen.right - max(210.0, pen.width(lay.label("tax") + "M" * 10, True))
    rows = [(lay.label("subtotal"), lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        rows.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate)), False))
    rows.append((lay.label("total"), lay.money(inv.total(lay.tax_rate)), True))
    for label, value, bold in rows:
        if bold:
            pen.line(x, y - lay.size * 1.05, pen.right, y - lay.size * 1.05, 0.8, 0.2)
        pen.text(x, y, label, bold=bold)
        pen.text(pen.right, y, value, bold=bold, align="right")
        y += pen.lead * 1.15
    if lay.extra["due_place"] == "totals":
        h = pen.lead * 1.8
        pen.box(x - lay.size * 0.5, y - lay.size * 0.4, pen.right - x + lay.size * 0.5, h, fill=lay.extra["accent"])
        base = y - lay.size * 0.4 + h * 0.5 + lay.size * 0.4
        pen.text(x, base, _due_label(inv, lay), bold=True, color=WHITE)
        pen.text(pen.right - lay.size * 0.3, base, lay.money(inv.total(lay.tax_rate)), bold=True, color=WHITE,
                 align="right")
        y += h + pen.lead * 0.4
    y += pen.lead * 0.6
    blocks = [("Notes", [lay.extra["note"]])]
    if inv.is_credit:
        refund = lay.date(inv.date + dt.timedelta(days=lay.extra["terms"]))
        blocks.append(("Credit", [f"This credit will be refunded to you or applied to your account by {refund}."]))
    else:
        blocks.append(("Terms", [f"{lay.extra['terms_text']}. {lay.extra['payment'][0]}"]))
        blocks.append(("Payment details", [lay.extra["payment"][1]]))
    if lay.currency_note:
        blocks.append(("", [lay.currency_note]))
    for heading, lines in blocks:
        if heading:
            pen.text(pen.left, y, heading, bold=True, size=lay.size * 0.9, color=_grey(lay))
            y += pen.lead
        for line in lines:
            pen.text(pen.left, y, line, size=lay.size * 0.9)
            y += pen.lead
        y += pen.lead * 0.3
    return y


FOOT = 2.6  # the foot's height, in leads above the bottom margin


def foot(pen: Pen, lay: Layout, n: int, m: int) -> None:
    """The page label ("Page 1 of 3") where the template puts it, the "continued" mark on every page but the
    last, and the seller's registration line in small grey type, as these apps print in their footers."""
    y = lay.page[1] - lay.margin * 0.6
    place = lay.extra["foot"]
    x = {"left": pen.left, "center": (pen.left + pen.right) / 2, "right": pen.right}[place]
    pen.text(x, y, lay.page_label.format(n=n, m=m), size=lay.size * 0.9, align=place)
    other = "left" if place == "right" else "right"
    if n < m:
        pen.text(pen.left if other == "left" else pen.right, y, lay.continued.format(next=n + 1),
                 size=lay.size * 0.9, align=other)
    reg = f"{lay.seller[0]}  ·  {lay.seller[-1]}"
    pen.text((pen.left + pen.right) / 2 if place != "center" else pen.left, y - pen.lead * 1.2, reg,
             size=lay.size * 0.8, color=_grey(lay), align="center" if place != "center" else "left")
