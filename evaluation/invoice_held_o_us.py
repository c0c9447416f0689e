"""held-o's US and Canadian wholesale distributors' invoices: the top of each page (:func:`top`), the totals
(:func:`totals`) and what follows them (:func:`after`).

Page 1 opens with the seller's name and address on one side and the title on the other, the invoice's number and
date in boxes under the title (``form``), as labelled lines (``legacy``, ``modern``); then ``Sold To`` and ``Ship To``
blocks side by side (the ship-to address the same or another of the customer's), and a row of fields: the
customer number where the record has one, the P.O. number, the order date, the ship date in some, ship via,
terms and the salesperson, in boxes with their labels at the top (``form``), as a typed table of capitals over
values between rules of dashes in Courier (``legacy``), or as labelled lines at the right (``modern``). A later
page repeats the seller, the title, the number and the date, boxed on a form.

The totals follow the items: merchandise total, freight at 0.00, the sales tax (a state's rate, or Canada's GST,
HST, or GST with PST or QST, each part on its own line) and the invoice total (on a credit memo its own label),
stacked at the right or in a row of boxes across the page; where no tax is charged a line says why. Then the
currency where a Canadian invoice (and some US ones) states it, a credit memo's note, the fine print and the
remit-to address.
"""

from __future__ import annotations

from evaluation.invoice_held_o_money import HeldOLayout, second_date
from evaluation.invoice_held_o_parties import customer, number_label, order_number, running, title_of
from evaluation.invoice_held_o_table import OPen, boxes, lines, pairs, spread, stack, tax_parts
from evaluation.invoice_held_o_words import CARRIERS
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import wrap

__all__ = ["after", "fields", "top", "totals"]


def _case(lay: HeldOLayout, text: str) -> str:
    """A label as the style prints it: in capitals on an old system's print-out."""
    return text.upper() if lay.extra["style"] == "legacy" else text


def fields(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, str]]:
    """The row of fields: customer number (where the record has one), P.O. number, order date, ship date (some),
    ship via, terms, salesperson."""
    lab, e = lay.labels, lay.extra
    out = [(lab["customer_id"], inv.customer)] if inv.customer is not None else []
    out += [(lab["order"], order_number(lay, inv)), (lab["order_date"], lay.date(second_date(inv.date, e["days"])))]
    if e["ship_date"]:
        out.append((lab["ship_date"], lay.date(inv.date)))
    out += [(lab["ship_via"], CARRIERS["us"][lay.seed % len(CARRIERS["us"])]), (lab["terms"], e["terms_text"]),
            (lab["salesperson"], e["salesperson_name"])]
    return [(_case(lay, a), b) for a, b in out]


def _seller(pen: OPen, lay: HeldOLayout, x: float, y: float, align: str, draw: bool) -> float:
    big = lay.size * (1.3 if lay.extra["style"] == "legacy" else 1.7)
    if draw:
        pen.text(x, y, lay.seller[0], True, big, align, lay.extra["accent"] if lay.extra["style"] == "modern"
                 else (0, 0, 0))
    return lines(pen, x, y + pen.lead * 1.3, [*lay.seller[1:], f"Tel {lay.extra['phone']}"], draw, align)


def _addresses(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    left, right, size, style = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra["style"]
    half = (right - left - size) / 2
    ship = customer(inv, lay, "" if lay.extra["ship_same"] else "ship")
    ends = []
    for k, (label, block) in enumerate(((lay.labels["sold_to"], customer(inv, lay)), (lay.labels["ship_to"], ship))):
        x = left + k * (half + size)
        label = _case(lay, label).rstrip(":") + (":" if style == "legacy" else "")
        end = lines(pen, x + size * 0.6, y + size * 2.7, block, draw)
        if draw:
            if style == "form":
                pen.box(x, y, half, size * 1.5, fill=(0.85, 0.85, 0.85))
                pen.frame(x, y, half, end - y - size * 0.3)
            pen.text(x + (size * 0.6 if style == "form" else 0), y + size * 1.1, label, True)
        ends.append(end)
    return max(ends)


def _fields(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The row of fields: boxes (form), a typed table between dashes (legacy), labelled lines (modern)."""
    left, right, size, style = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra["style"]
    items = fields(inv, lay)
    if style == "form":
        return boxes(pen, left, right, y, items, draw)
    if style == "modern":  # the fields stand in the header's list
        return y
    if draw:
        pen.dashes(left, right, y + size)
        x = left
        for (label, value), w in zip(items, spread(pen, items, right - left)):
            pen.text(x, y + size * 2.3, label, True, size * 0.9)
            pen.text(x, y + size * 3.6, value)
            x += w
        pen.dashes(left, right, y + size * 4.9)
    return y + size * 5.4


def top(pen: OPen, inv: Invoice, lay: HeldOLayout, n: int, draw: bool) -> float:
    """The page's top down to the table's heading."""
    if n > 1:
        return running(pen, inv, lay, n, draw, boxed=lay.extra["style"] == "form")
    left, right, size, e, lab = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra, lay.labels
    width = right - left
    seller_left = e["header"] == "left"
    y0 = lay.margin + size * 1.8
    ya = _seller(pen, lay, left if seller_left else right, y0, "left" if seller_left else "right", draw)
    tx, talign = (right, "right") if seller_left else (left, "left")
    if draw:
        pen.text(tx, y0 + size * 0.6, title_of(inv, lay), True, size * 2.4, talign)
    head = [(_case(lay, number_label(inv, lay)), inv.number), (_case(lay, lab["invoice_date"]), lay.date(inv.date))]
    if e["style"] == "form":
        x0 = right - width * 0.36 if seller_left else left
        yb = boxes(pen, x0, x0 + width * 0.36, y0 + size * 2.0, head, draw)
    else:
        x0 = left + width * 0.6 if seller_left else left
        extra = fields(inv, lay) if e["style"] == "modern" else []
        yb = pairs(pen, x0, y0 + size * 3.0, head + extra, draw, lay.colon, True,
                   right=right if seller_left else left + width * 0.4)
    y = max(ya, yb) + size * 0.8
    y = _addresses(pen, inv, lay, y, draw) + size * 0.4
    return _fields(pen, inv, lay, y, draw) + size * 0.8


def _rows(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, str, bool]]:
    lab = lay.labels
    out = [(lab["subtotal"], lay.money(inv.subtotal), False), (lab["freight"], lay.money(inv.subtotal * 0), False)]
    out += [(lab[f"tax_{k}"], lay.money(amount), False) for k, (_, _, amount) in enumerate(tax_parts(inv, lay))]
    total = lab["credit_total"] if inv.is_credit else lab["total"]
    return [(_case(lay, a), b, bold) for a, b, bold in out + [(total, lay.money(inv.total(lay.tax_rate)), True)]]


def totals(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The totals: stacked at the right (boxed on a form, the total under a typed double rule on a print-out or
    under a rule on a newer page), or a row of boxes across the page."""
    right, size, style = lay.page[0] - lay.margin, lay.size, lay.extra["style"]
    rows = _rows(inv, lay)
    if lay.extra["totals"] == "across":
        return boxes(pen, lay.margin, right, y + size * 0.8, [(a, b) for a, b, _ in rows], draw) + size * 0.4
    look = {"form": "boxed", "legacy": "typed", "modern": "rule"}[style]
    return stack(pen, rows, y + size * 0.6, draw, look)


def after(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The exemption, the currency, a credit memo's note, the fine print, and the remit-to address."""
    left, right, size, e, lab = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra, lay.labels
    notes = []
    if lay.tax_rate is None:
        notes.append(lab["exempt"])
    if e["code_note"]:
        notes.append(lab["currency"])
    if inv.is_credit:
        notes.append(e["credit_note"].format(ra=order_number(lay, inv)[-5:]))
    notes.append(e["fine"])
    y += size * 1.6
    for note in notes:
        y = lines(pen, left, y, wrap(_case(lay, note) if note != e["fine"] else note, (right - left) * 0.62, pen),
                  draw)
    if e["remit"]:
        y = lines(pen, left, y + size * 0.8, [_case(lay, lab["remit"]) + ":", *lay.seller], draw, bold_first=True)
    return y
