"""held-o's Australian and New Zealand tax invoices: the top of each page (:func:`top`), the totals (:func:`totals`)
and what follows them (:func:`after`).

A ``xero`` page is a cloud ledger's: the title large at the left with the customer's address under it, the
invoice's date, number, reference, the customer's account and the seller's ABN (GST number in New Zealand) as
small labels over their values in a middle column, the seller's address at the right (header ``three``), or the
seller above and the details in two columns (``stack``); the items between rules, the totals at the right
(subtotal, freight at 0.00 in some, the GST line, the total, and in some the amount paid at 0.00 and the amount
due), the due date, the bank account and a payment advice to cut off and send back (not on a credit note).

A ``myob`` page is a desktop package's boxed form: the seller at the top left, the title and a box of the number,
date and page at the right, bill-to and ship-to boxes, a row of boxed fields (reference, account, terms, due date),
the items in a ruled grid (the GST column shows the rate or the tax code ``GST``), the totals in boxes at the
right beside a comment box. The currency's code is printed where no label names it.
"""

from __future__ import annotations

import datetime as dt

from evaluation.invoice_held_o_money import HeldOLayout, second_date
from evaluation.invoice_held_o_parties import (abn, customer, nz_gst, number_label, order_number, running,
                                               title_of)
from evaluation.invoice_held_o_table import GREY, OPen, boxes, lines, pairs, stack, tax_parts
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import wrap

__all__ = ["after", "due", "registration", "top", "totals"]


def due(inv: Invoice, lay: HeldOLayout) -> dt.date:
    """The due date: the 20th of the next month, or the layout's days on (moved past the 12th)."""
    if lay.extra["eom"]:
        year, month = divmod(inv.date.year * 12 + inv.date.month, 12)
        return dt.date(year, month + 1, 20)
    return second_date(inv.date, lay.extra["due_days"])


def registration(lay: HeldOLayout) -> tuple[str, str]:
    """The seller's ABN (Australia) or GST number (New Zealand), label and value."""
    if lay.extra["market"] == "AU":
        return lay.labels["abn"], abn(lay.seed, lay.seller[0])
    return lay.labels["gst_no"], nz_gst(lay.seed, lay.seller[0])


def _needs_code(lay: HeldOLayout) -> bool:
    """Whether no total, amount heading or mark names the currency (then a line states it)."""
    named = [lay.labels["total"], lay.labels["amount_due"], lay.mark, *(c.heading for c in lay.columns)]
    return not any(lay.currency in text or text in ("A$", "NZ$") for text in named)


def _details(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, str]]:
    lab = lay.labels
    out = [(lab["invoice_date"], lay.date(inv.date)), (number_label(inv, lay), inv.number),
           (lab["reference"], order_number(lay, inv))]
    if inv.customer is not None:
        out.append((lab["customer_id"], inv.customer))
    out.append(registration(lay))
    return out


def _xero_top(pen: OPen, inv: Invoice, lay: HeldOLayout, draw: bool) -> float:
    left, right, size, e = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra
    width = right - left
    big = size * 2.3
    y = lay.margin + big
    seller = [*lay.seller, f"Ph {e['phone']}"]
    if draw:
        pen.text(left, y, title_of(inv, lay), True, big)
    if e["header"] == "three":
        ya = lines(pen, left, y + pen.lead * 2, customer(inv, lay), draw)
        yb = y - big + size
        for label, value in _details(inv, lay):
            if draw:
                pen.text(left + width * 0.5, yb, label, True, size * 0.9)
                pen.text(left + width * 0.5, yb + pen.lead, value)
            yb += pen.lead * 2.3
        yc = lines(pen, left + width * 0.74, y - big + size, seller, draw, bold_first=True)
        y = max(ya, yb, yc)
    else:
        yc = lines(pen, right, lay.margin + size, seller, draw, "right", bold_first=True)
        y = max(y + pen.lead * 1.5, yc + size)
        ya = lines(pen, left, y, [lay.labels["bill_to"] + lay.colon, *customer(inv, lay)], draw, bold_first=True)
        yb = pairs(pen, left + width * 0.55, y, _details(inv, lay), draw, lay.colon, bold_labels=True)
        y = max(ya, yb)
    if _needs_code(lay) and draw:
        pen.text(right, y, lay.labels["currency"], size=size * 0.9, align="right")
    if e["exclusive"] and draw:
        pen.text(left if _needs_code(lay) else right, y, lay.labels["exclusive"], size=size * 0.9,
                 align="left" if _needs_code(lay) else "right", color=GREY)
    return y + size


def _myob_top(pen: OPen, inv: Invoice, lay: HeldOLayout, draw: bool) -> float:
    left, right, size, e, lab = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra, lay.labels
    width = right - left
    reg = registration(lay)
    ya = lines(pen, left, lay.margin + size * 1.8, [lay.seller[0]], draw, size=size * 1.6, bold_first=True)
    ya = lines(pen, left, ya, [*lay.seller[1:], f"{reg[0]} {reg[1]}", f"Phone {e['phone']}"], draw)
    if draw:
        pen.text(right, lay.margin + size * 2.2, title_of(inv, lay), True, size * 2.0, "right")
    yb = lay.margin + size * 3.5
    box_x = left + width * 0.62
    items = [(number_label(inv, lay), inv.number), (lab["invoice_date"], lay.date(inv.date))]
    yb = boxes(pen, box_x, right, yb, items, draw)
    y = max(ya, yb) + size
    half = (width - size) / 2
    blocks = [(lab["bill_to"], customer(inv, lay))]
    if e["ship_block"]:
        blocks.append((lab["ship_to"], customer(inv, lay, "ship")))
    ends = []
    for k, (label, block) in enumerate(blocks):
        x = left + k * (half + size)
        end = lines(pen, x + size * 0.5, y + size * 2.6, block, draw)
        if draw:
            pen.box(x, y, half, size * 1.5, fill=(0.88, 0.88, 0.88))
            pen.frame(x, y, half, end - y - size * 0.4)
            pen.text(x + size * 0.5, y + size * 1.1, label, True)
        ends.append(end)
    y = max(ends) + size * 0.4
    fields = [(lab["reference"], order_number(lay, inv))]
    if inv.customer is not None:
        fields.append((lab["customer_id"], inv.customer))
    fields += [(lab["terms"], e["terms_text"].format(days=e["due_days"])), (lab["due_date"], lay.date(due(inv, lay)))]
    y = boxes(pen, left, right, y, fields, draw) + size * 0.6
    if _needs_code(lay):
        y = lines(pen, left, y + size * 0.6, [lab["currency"]], draw, size=size * 0.9)
    return y


def top(pen: OPen, inv: Invoice, lay: HeldOLayout, n: int, draw: bool) -> float:
    """The page's top down to the table's heading."""
    if n > 1:
        return running(pen, inv, lay, n, draw, boxed=lay.extra["style"] == "myob")
    return (_xero_top if lay.extra["style"] == "xero" else _myob_top)(pen, inv, lay, draw)


def _rows(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, str, bool]]:
    lab, e = lay.labels, lay.extra
    zero = lay.money(inv.subtotal * 0)
    out = [(lab["subtotal"], lay.money(inv.subtotal), False)]
    if e["freight"]:
        out.append((lab["freight"], zero, False))
    out += [(lab[f"tax_{k}"], lay.money(amount), False) for k, (_, _, amount) in enumerate(tax_parts(inv, lay))]
    total = lay.money(inv.total(lay.tax_rate))
    out.append((lab["total"], total, True))
    if e["paid_line"] and not inv.is_credit:
        out += [(lab["paid"], zero, False), (lab["amount_due"], total, True)]
    return out


def totals(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The totals at the right: label and amount lines, a rule over the total (xero), or boxes (myob)."""
    look = "boxed" if lay.extra["style"] == "myob" else "rule"
    return stack(pen, _rows(inv, lay), y + lay.size * 0.8, draw, look)


def after(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The due date, terms, bank account and thanks, and a payment advice to cut off (an invoice of xero's)."""
    left, right, size, e, lab = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra, lay.labels
    y += size * 1.8
    when = lay.date(due(inv, lay))
    notes = [f"{lab['terms']}{lay.colon} {e['terms_text'].format(days=e['due_days'])}",
             e["bank_line"].format(**e["digits"]), e["thanks"]]
    if not inv.is_credit:
        if draw:
            pen.text(left, y, f"{lab['due_date']}{lay.colon} {when}", True, size * 1.1)
        y += pen.lead * 1.4
    for note in notes:
        y = lines(pen, left, y, wrap(note, (right - left) * 0.6, pen), draw)
    if not (e["advice"] and not inv.is_credit):
        return y
    y += size * 2.5
    if draw:
        pen.c.setDash(4, 3)
        pen.line(left, y, right, y, 0.6, 0.4)
        pen.c.setDash()
        pen.text(left, y + size * 2.6, lab["advice"], True, size * 1.4)
    y += size * 4.4
    ya = lines(pen, left, y, ["To:", *lay.seller], draw)
    items = [(lab["customer_id"], inv.customer or ""), (number_label(inv, lay), inv.number),
             (lab["amount_due"], lay.money(inv.total(lay.tax_rate))), (lab["due_date"], when)]
    yb = pairs(pen, left + (right - left) * 0.5, y, items, draw, lay.colon, bold_labels=True)
    if draw:
        pen.text(left + (right - left) * 0.5, yb + size * 0.6, lab["enclosed"] + lay.colon, True)
        pen.line(right - (right - left) * 0.2, yb + size * 0.9, right, yb + size * 0.9, 0.5)
    return max(ya, yb + pen.lead)
