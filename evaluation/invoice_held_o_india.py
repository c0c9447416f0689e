"""held-o's Indian GST invoices: the top of each page (:func:`top`) and what follows the items (:func:`closing`).

A ``tally`` page is an accounting package's ruled form: the title centred over a box whose left half holds the
seller (name, address, GSTIN, state and code) above the consignee and the buyer, and whose right half is a grid
of cells, each a label over its value (the number and date, the customer's code, the order number and its date
or the terms and due date, the dispatch, the place of supply, the reverse charge, a credit note's original
invoice). The items table is ruled by columns; under the items, in the same table, the taxable value, each tax
part (CGST and SGST, or IGST) and the total, its amount with the currency mark. Then the amount in words, an
HSN-wise summary of the tax in some, the bank details, the declaration and the signatory.

A ``modern`` page is an online invoicing app's: the seller at the top left (or centred under a centred title),
the title and the invoice's details at the right, bill-to and ship-to blocks, and the totals at the right under
the table: sub total, each tax part, the total tax in some, the total; then the total in words and the rest.
A later page of either starts with the seller, the title, the invoice's number and date.
"""

from __future__ import annotations

import itertools
from decimal import Decimal

from evaluation.invoice_held_o_money import HeldOLayout, rate_text, rupees_in_words, second_date, share_out
from evaluation.invoice_held_o_parties import (customer, gstin, number_label, order_number, original_number, pan,
                                               running, title_of)
from evaluation.invoice_held_o_table import GREY, OPen, hsn, lines, pairs, stack, tax_parts, xs
from evaluation.invoice_held_o_words import CARRIERS
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import wrap

__all__ = ["after", "details", "top", "totals"]


def details(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, str]]:
    """The invoice's details as (label, value): number, date, customer code, the order and its date or the terms
    and due date, dispatch, place of supply, reverse charge, and a credit note's original invoice."""
    lab, e = lay.labels, lay.extra
    out = [(number_label(inv, lay), inv.number), (lab["invoice_date"], lay.date(inv.date))]
    if inv.customer is not None:
        out.append((lab["customer_id"], inv.customer))
    other = lay.date(second_date(inv.date, e["days"]))
    if e["days"] < 0:
        out += [(lab["order"], order_number(lay, inv)), (lab["order_date"], other),
                (lab["terms"], e["terms_text"].format(days=e["terms_days"]))]
    else:
        out += [(lab["terms"], e["terms_text"].format(days=e["days"])), (lab["due_date"], other)]
    place = f"{e['place'][0]} ({e['place'][1]})" if e["header"] == "split" else f"{e['place'][1]}-{e['place'][0]}"
    out += [(lab["dispatch"], CARRIERS["india"][lay.seed % len(CARRIERS["india"])]), (lab["place"], place)]
    if e["reverse"]:
        out.append((lab["reverse"], "No"))
    if inv.is_credit and e["original"]:
        out.append((lab["original"], original_number(inv, lay)))
    return out


def _seller(lay: HeldOLayout) -> list[str]:
    e, lab, c = lay.extra, lay.labels, lay.colon
    state = f"{lab['state']}{c} {e['state']}, Code{c} {e['state_code']}"
    return [*lay.seller, f"{lab['gstin']}{c} {gstin(e['state_code'], lay.seed, lay.seller[0])}", state,
            f"{lab['pan']}{c} {pan(lay.seed, lay.seller[0])}" if e["header"] == "split" else f"Ph. {e['phone']}"]


def _buyer(inv: Invoice, lay: HeldOLayout, ship: bool) -> list[str]:
    e, lab, c = lay.extra, lay.labels, lay.colon
    out = customer(inv, lay, "ship" if ship else "")
    if not ship:
        out.append(f"{lab['gstin']}{c} {gstin(e['place'][1], lay.seed, inv.customer or inv.number)}")
    return out


def _cell(pen: OPen, x: float, y: float, w: float, h: float, label: str, value: str, draw: bool) -> None:
    if draw:
        small = pen.lay.size * 0.85
        small *= min(1.0, (w - 6) / max(pen.width(label, size=small), 1.0))  # a long label set smaller to fit
        pen.frame(x, y, w, h, 0.5)
        pen.text(x + 3, y + pen.lay.size * 1.05, label, size=small, color=GREY)
        pen.text(x + 3, y + pen.lay.size * 2.25, value, True)


def _tally_top(pen: OPen, inv: Invoice, lay: HeldOLayout, draw: bool) -> float:
    left, right, size, e = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra
    mid = left + (right - left) * 0.5
    y = lay.margin + size * 1.5
    if draw:
        pen.text((left + right) / 2, y, title_of(inv, lay), True, size * 1.5, "center")
        pen.text(right, y, e["copy"], size=size * 0.8, align="right")
    top = y + size * 0.8
    ya = lines(pen, left + 3, top + size * 1.3, _seller(lay), draw, bold_first=True)
    blocks = [(lay.labels["ship_to"], _buyer(inv, lay, True)), (lay.labels["bill_to"], _buyer(inv, lay, False))]
    for label, block in blocks:
        if draw:
            pen.line(left, ya - size * 0.7, mid, ya - size * 0.7, 0.5)
            pen.text(left + 3, ya + size * 0.4, label, size=size * 0.85, color=GREY)
        ya = lines(pen, left + 3, ya + size * 0.4 + pen.lead, block, draw, bold_first=True)
    cells = details(inv, lay)
    h, w = size * 2.8, (right - mid) / 2
    yb = top
    for pair in itertools.zip_longest(*[iter(cells)] * 2, fillvalue=("", "")):
        for k, (label, value) in enumerate(pair):
            _cell(pen, mid + k * w, yb, w, h, label, value, draw)
        yb += h
    bottom = max(ya - size * 0.4, yb)
    if draw:
        pen.frame(left, top, right - left, bottom - top, 0.8)
        pen.line(mid, top, mid, bottom, 0.8)
    return bottom


def _modern_top(pen: OPen, inv: Invoice, lay: HeldOLayout, draw: bool) -> float:
    left, right, size, e = lay.margin, lay.page[0] - lay.margin, lay.size, lay.extra
    width = right - left
    accent = e["accent"]
    if e["header"] == "split":
        y = lay.margin + size * 1.8
        if draw:
            pen.text(right, y, title_of(inv, lay), True, size * 2.0, "right", accent)
            pen.text(right, y + size * 1.4, e["copy"], size=size * 0.8, align="right")
        ya = lines(pen, left, y, _seller(lay), draw, bold_first=True)
        yb = pairs(pen, left + width * 0.6, y + size * 3.2, details(inv, lay), draw, lay.colon, right=right)
        y = max(ya, yb) + size * 0.5
    else:
        y = lay.margin + size * 1.8
        seller = _seller(lay)
        if draw:
            pen.text((left + right) / 2, y, title_of(inv, lay), True, size * 1.8, "center", accent)
            pen.text(right, y, e["copy"], size=size * 0.8, align="right")
            pen.text((left + right) / 2, y + pen.lead * 1.5, seller[0], True, size * 1.4, "center")
        y = lines(pen, (left + right) / 2, y + pen.lead * 2.6, seller[1:], draw, "center")
    if draw:
        pen.line(left, y - size * 0.6, right, y - size * 0.6, 0.8, 0.3)
    y += size * 0.6
    ends = []
    for k, (label, block) in enumerate(((lay.labels["bill_to"], _buyer(inv, lay, False)),
                                        (lay.labels["ship_to"], _buyer(inv, lay, True)))):
        x = left + k * width * 0.32
        heads = wrap(label + lay.colon, width * 0.27, pen)  # a long label over two lines (bold is wider)
        if draw:
            for j, part in enumerate(heads):
                pen.text(x, y + j * pen.lead, part, True, color=accent)
        ends.append(lines(pen, x, y + pen.lead * len(heads), block, draw, bold_first=True))
    if e["header"] == "centred":
        ends.append(pairs(pen, left + width * 0.64, y, details(inv, lay), draw, lay.colon, right=right))
    return max(ends) + size * 0.4


def top(pen: OPen, inv: Invoice, lay: HeldOLayout, n: int, draw: bool) -> float:
    """The page's top down to the table's heading."""
    if n > 1:
        return running(pen, inv, lay, n, draw, boxed=lay.extra["style"] == "tally")
    return (_tally_top if lay.extra["style"] == "tally" else _modern_top)(pen, inv, lay, draw)


def _totals(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, str, bool]]:
    """(label, amount, bold) of the totals: taxable value, each tax part, the total tax in some, the total."""
    lab = lay.labels
    out = [(lab["subtotal"], lay.money(inv.subtotal), False)]
    for k, (_, _, amount) in enumerate(tax_parts(inv, lay)):
        out.append((lab[f"tax_{k}"], lay.money(amount), False))
    if lay.extra["tax_total"] and len(lay.extra["taxes"]) > 1:
        out.append((lab["tax_total"], lay.money(inv.tax(lay.tax_rate)), False))
    return out + [(lab["total"], lay.money(inv.total(lay.tax_rate)), True)]


def _in_table(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The totals as the table's last rows, the label right-aligned before the amount column."""
    edges, size = xs(lay), lay.size
    x_amount = edges[[c.key for c in lay.columns].index("amount")]
    h = size * 1.7
    for label, value, bold in _totals(inv, lay):
        if draw:
            if bold or label == lay.labels["subtotal"]:
                pen.line(edges[0] if bold else x_amount, y, edges[-1], y, 0.6)
            pen.text(x_amount - size * 0.6, y + size * 1.2, label, bold, align="right")
            pen.text(edges[-1] - size * 0.45, y + size * 1.2, value, bold, align="right")
            for x in (edges[0], x_amount, edges[-1]):
                pen.line(x, y, x, y + h, 0.6)
        y += h
    if draw:
        pen.line(edges[0], y, edges[-1], y, 0.8)
    return y


def _right_totals(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    rows = [(label + lay.colon, value, bold) for label, value, bold in _totals(inv, lay)]
    return stack(pen, rows, y + lay.size * 0.4, draw, "band")


def _summary(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The HSN-wise summary: each code's taxable value, each tax part's rate and amount, the total tax."""
    lab, size, parts = lay.labels, lay.size, tax_parts(inv, lay)
    groups: dict[str, Decimal] = {}
    for line in inv.rows:
        code = hsn(line, lay.extra["hsn_digits"], lay.seed)
        groups[code] = groups.get(code, Decimal("0.00")) + line.amount
    codes = list(groups)
    shares = [share_out([groups[c] for c in codes], rate, amount) for _, rate, amount in parts]
    heads = [lab["summary_hsn"], lab["hsn_summary"]]
    for name, _, _ in parts:
        heads += [f"{name} {lab['summary_rate']}", f"{name} {lab['summary_amount']}"]
    heads.append(lab["summary_tax"])
    body = [[c, lay.money(groups[c], lines=True), *itertools.chain.from_iterable(
        (rate_text(r), lay.money(s[k], lines=True)) for (_, r, _), s in zip(parts, shares)),
        lay.money(sum((s[k] for s in shares), Decimal("0.00")), lines=True)] for k, c in enumerate(codes)]
    body.append([lab["summary_total"], lay.money(inv.subtotal, lines=True), *itertools.chain.from_iterable(
        ("", lay.money(a, lines=True)) for _, _, a in parts), lay.money(inv.tax(lay.tax_rate), lines=True)])
    left, right = lay.margin, lay.page[0] - lay.margin
    widths = [max(pen.width(r[k], True) for r in [heads, *body]) + size for k in range(len(heads))]
    widths[0] += (right - left) - sum(widths)
    row_h = size * 1.5
    for k, row in enumerate([heads, *body]):
        x = left
        for j, (text, w) in enumerate(zip(row, widths)):
            if draw:
                pen.frame(x, y, w, row_h, 0.4)
                bold = k in (0, len(body))
                pen.text(x + w - size * 0.4 if j else x + size * 0.4, y + size * 1.05, text, bold,
                         align="right" if j else "left")
            x += w
        y += row_h
    return y + size


def totals(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The totals: the table's last rows (tally) or a block at the right."""
    return (_in_table if lay.extra["totals"] == "table" else _right_totals)(pen, inv, lay, y, draw)


def after(pen: OPen, inv: Invoice, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The amount in words, the HSN summary (some), the bank, declaration and signatory."""
    e, lab, size = lay.extra, lay.labels, lay.size
    left, right = lay.margin, lay.page[0] - lay.margin
    y += size * 1.6
    words = f"{e['words_prefix']} {rupees_in_words(inv.total(lay.tax_rate))} Only"
    if draw:
        pen.text(left, y, lab["words"] + lay.colon, size=size * 0.9, color=GREY)
        pen.text(right, y, lab["eoe"], size=size * 0.85, align="right")
        pen.text(left, y + pen.lead, words, True)
    y += pen.lead * 2
    if e["summary"] and lay.tax_rate is not None:
        y = _summary(pen, inv, lay, y, draw)
    notes = [e["reason"]] if inv.is_credit else []
    y = lines(pen, left, y + size * 0.6, notes + [f"{lab['bank']}{lay.colon} {e['bank_line'].format(**e['digits'])}"],
              draw)
    if draw:
        pen.text(left, y + size * 0.4, lab["declaration"] + lay.colon, True)
        pen.text(right, y + size * 0.4, f"{lab['for_firm']} {lay.seller[0]}", True, align="right")
    y = lines(pen, left, y + size * 0.4 + pen.lead, wrap(e["declaration"], (right - left) * 0.55, pen), draw,
              size=size * 0.9)
    if draw:
        pen.text(right, y + pen.lead, lab["signatory"], align="right")
        pen.text((left + right) / 2, y + pen.lead * 2.6, e["computer"], size=size * 0.85, align="center")
    return y + pen.lead * 2.6

