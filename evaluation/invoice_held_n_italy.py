"""held-n's Italian forms: the page's top, the totals and the foot (the table is
:mod:`evaluation.invoice_held_n_draw`'s).

- ``gestionale``: a management program's invoice. The seller's letterhead (VAT number and tax code) beside the
  ``Spett.le`` customer box, then a grid of cells repeated on every page (document type, number, date, page;
  customer code, the customer's VAT number, payment terms, bank and IBAN), and at the foot of every page a band:
  on the last the VAT summary (*Riepilogo IVA*: rate, description, taxable amount, tax) beside the totals, the due
  date with its amount and the total in words; on the others the amount carried (*A riportare*) or a
  "continued" phrase. The register line and the privacy and CONAI notice close the page.
- ``cortesia``: the courtesy copy of an electronic invoice as the Revenue Agency's viewer lays out FatturaPA: the
  supplier's and the customer's sections of labelled lines, the document table (``TD01 fattura`` or ``TD04 nota
  di credito``, number, date, recipient code, currency), the lines, *Riepiloghi IVA e totali* and the payment
  table, and the note that the copy has no fiscal value.
"""

from __future__ import annotations

from decimal import Decimal

from evaluation.invoice_held_n_facts import customer, due_date, original, words
from evaluation.invoice_held_n_firms import TEXTS
from evaluation.invoice_held_n_pen import (GREY, LIGHT, NPen, cells, colon, doc_title, lines_block, number_label,
                                           paragraph, running_top, stack, table)
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice

__all__ = ["band", "band_height", "closing", "foot", "foot_height", "top"]

ZERO = Decimal("0.00")


def _pick(lay: Layout, key: str) -> str:
    options = TEXTS[("IT", lay.extra["lang"])][key]
    return options[lay.seed % len(options)]


def _credit_lines(inv: Invoice, lay: Layout) -> list[str]:
    if not inv.is_credit:
        return []
    number, date = original(inv, lay)
    ref = _pick(lay, "ref").format(label=lay.labels["ref_invoice"], number=number, date=lay.date(date))
    return [ref, f"{lay.labels['reason']}: {_pick(lay, 'reason')}"]


# ----------------------------------------------------------------------------------------------------------------
# gestionale
# ----------------------------------------------------------------------------------------------------------------
def _letterhead(pen: NPen, lay: Layout, x: float, y: float, align: str, draw: bool) -> float:
    s, lab = lay.extra["seller"], lay.labels
    big = pen.fit(s["name"], True, lay.size * 1.5, (pen.right - pen.left) * 0.5)
    y += lay.size * 1.5
    if draw:
        pen.text(x, y, s["name"], True, big, align)
    y += pen.lead * 1.1
    lines = [*s["lines"], f"{lab['seller_tax']} {s['tax']} - {lab['fiscal_code']} {s['fiscal']}",
             f"{lab['phone']} {s['phone']} - {s['email']}"]
    for line in lines:
        if draw:
            pen.text(x, y, line, size=lay.size * 0.9, align=align, color=GREY)
        y += lay.size * 1.2
    return y


def _grid(inv: Invoice, lay: Layout, n: int, m: int) -> list[tuple[str, str]]:
    lab, e = lay.labels, lay.extra
    cust = customer(inv, lay)
    pairs = [(lab["doc_type"], doc_title(inv, lay)), (number_label(inv, lay), inv.number),
             (lab["invoice_date"], lay.date(inv.date)), (lab["page"], lay.page_label.format(n=n, m=m))]
    if cust["id"] is not None:
        pairs.append((lab["customer_id"], cust["id"]))
    if cust["vat"]:
        pairs.append((lab["buyer_tax"], cust["vat"]))
    pairs.append((lab["payment"], e["terms"][0]))
    pairs.append((lab["bank"], f"{e['seller']['bank']} - IBAN {e['seller']['iban']}"))
    return pairs


def _gestionale_top(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, draw: bool) -> float:
    e, left, right = lay.extra, pen.left, pen.right
    box_w = (right - left) * 0.44
    cust = customer(inv, lay)
    lines = [cust["name"], *cust["lines"], cust["country"]]
    if e["seller_side"] == "left":
        ys = _letterhead(pen, lay, left, lay.margin, "left", draw)
        yc = lines_block(pen, right - box_w, lay.margin, box_w, lay.labels["customer_block"], lines, draw,
                         boxed=True)
    else:
        ys = _letterhead(pen, lay, right, lay.margin, "right", draw)
        yc = lines_block(pen, left, lay.margin, box_w, lay.labels["customer_block"], lines, draw, boxed=True)
    y = max(ys, yc) + lay.size * 0.6
    y = cells(pen, left, y, right - left, _grid(inv, lay, n, m), draw, shade=e["head_fill"] is not None)
    for line in _credit_lines(inv, lay):
        y += pen.lead
        if draw:
            pen.text(left, y, line)
    return y + lay.size * 0.8


def _summary_desc(lay: Layout) -> str:
    return f"{'Aliquota' if lay.extra['lang'] == 'it' else 'VAT'} {lay.extra['rate_text']}"


def _gestionale_band(pen: NPen, inv: Invoice, lay: Layout, y: float, n: int, m: int, carried: Decimal,
                     draw: bool) -> float:
    e, lab, left, right = lay.extra, lay.labels, pen.left, pen.right
    if n < m:
        h = lay.size * 2.6
        if draw:
            pen.rect(left, y, right - left, h, 0.7)
            text = f"{lay.continued}: {lay.money(carried)}" if e["carry"] else lay.continued or ""
            pen.text(right - lay.size, y + lay.size * 1.6, text, e["carry"], align="right")
        return y + h
    rate = lay.tax_rate
    if rate is not None:
        if draw:
            pen.text(left, y + lay.size, lab["vat_summary"], True)
        widths = [lay.size * 5, lay.size * 9, lay.size * 8.5, lay.size * 8]
        yl = table(pen, left, y + lay.size * 1.5, [lab["sum_rate"], lab["sum_desc"], lab["sum_base"], lab["sum_tax"]],
                   [[lay.rate_cell(), _summary_desc(lay), lay.money(inv.subtotal, lines=True),
                     lay.money(inv.tax(rate), lines=True)]], widths, draw, right=(2, 3))
    else:
        yl = paragraph(pen, left, y + lay.size, _pick(lay, "exempt"), (right - left) * 0.5, draw)
    rows = [(colon(lay, "subtotal"), lay.money(inv.subtotal), False)]
    if rate is not None:
        rows.append((colon(lay, "tax"), lay.money(inv.tax(rate)), False))
    total = lay.money(inv.total(rate))
    rows += [(colon(lay, "total"), total, True), (colon(lay, "net_payable"), total, True)]
    yr = stack(pen, right, y + lay.size * 1.2, rows, draw, shade_total=e["head_fill"] == "grey")
    y = max(yl, yr) + lay.size * 0.4
    notes = []
    if not inv.is_credit:
        notes.append(f"{lab['due_date']}: {lay.date(due_date(inv, lay))}  {total}")
    if e["words"]:
        notes.append(f"{lab['words']}: {words(inv, lay)}")
    for note in notes:
        y = paragraph(pen, left, y + lay.size * 0.3, note, right - left, draw)
    return y


# ----------------------------------------------------------------------------------------------------------------
# cortesia: the FatturaPA courtesy copy
# ----------------------------------------------------------------------------------------------------------------
def _section(pen: NPen, x: float, y: float, width: float, heading: str, lines: list[str], draw: bool) -> float:
    lay, pad = pen.lay, pen.lay.size * 0.5
    h = lay.size * 1.7
    if draw:
        pen.fill(x, y, width, h, LIGHT)
        pen.text(x + pad, y + lay.size * 1.2, heading, True)
    yy = y + h + lay.size * 1.2
    for line in lines:
        yy = paragraph(pen, x + pad, yy, line, width - 2 * pad, draw)
    if draw:
        pen.rect(x, y, width, yy - y, 0.6)
    return yy


def _cortesia_top(pen: NPen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    lab, s, left, right = lay.labels, lay.extra["seller"], pen.left, pen.right
    if n > 1:
        return running_top(pen, inv, lay, n, draw)
    half = (right - left - lay.size) / 2
    street, place = s["lines"]
    postcode, town = place.split(" ", 1)
    seller = [f"{lab['vat_id']}: {s['vat']}", f"{lab['fiscal_code']}: {s['fiscal']}", f"{lab['name']}: {s['name']}",
              f"{lab['regime']}: RF01 (ordinario)", f"{lab['street']}: {street}",
              f"{lab['town']}: {town.split(' (')[0]}  {lab['province']}: {s['province']}",
              f"{lab['postcode']}: {postcode}  {lab['nation']}: IT"]
    cust = customer(inv, lay)
    buyer = ([f"{lab['vat_id']}: {cust['vat']}"] if cust["vat"] else []) + \
        ([f"{lab['customer_id']}: {cust['id']}"] if cust["id"] is not None else []) + [f"{lab['name']}: {cust['name']}"]
    if cust["street"]:
        buyer += [f"{lab['street']}: {cust['street']}", f"{lab['town']}: {cust['town']}",
                  f"{lab['postcode']}: {cust['postcode']}"]
    buyer.append(f"{lab['nation']}: {cust['country']}")
    y = lay.margin
    y = max(_section(pen, left, y, half, lab["cedente"], seller, draw),
            _section(pen, left + half + lay.size, y, half, lab["cessionario"], buyer, draw)) + lay.size
    heads = [lab["pa_type"], lab["art73"], lab["pa_number"], lab["pa_date"], lab["recipient_code"], lab["currency"]]
    code = "0000000" if cust["vat"] is None else "XXXXXXX"  # a foreign customer's recipient code
    widths = [lay.size * 11, lay.size * 4, lay.size * 9, lay.size * 8, lay.size * 9, lay.size * 5]
    y = table(pen, left, y, heads, [[doc_title(inv, lay), "", inv.number, lay.date(inv.date), code, lay.currency]],
              widths, draw)
    for line in _credit_lines(inv, lay):
        y += pen.lead
        if draw:
            pen.text(left, y, line)
    return y + lay.size


def _cortesia_closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    lab, e, left, right = lay.labels, lay.extra, pen.left, pen.right
    y += lay.size * 2
    if draw:
        pen.text(left, y, lab["pa_totals"], True)
    y += lay.size * 0.8
    width = right - left
    rate = lay.tax_rate
    y = table(pen, left, y, [lab["pa_nature"], lab["pa_rate"], lab["pa_expenses"], lab["pa_rounding"],
                             lab["pa_subtotal"], lab["pa_tax"]],
              [["I (esigibilità immediata)", lay.rate_cell(), "", "", lay.money(inv.subtotal),
                lay.money(inv.tax(rate))]],
              [width * 0.3, width * 0.1, width * 0.14, width * 0.1, width * 0.18, width * 0.18], draw,
              right=(1, 2, 3, 4, 5)) + lay.size * 0.6
    y = table(pen, left + width * 0.4, y, [lab["pa_stamp"], lab["pa_adjust"], lab["pa_rounding"], lab["pa_total"]],
              [["", "", "", lay.money(inv.total(rate))]], [width * 0.14, width * 0.18, width * 0.1, width * 0.18],
              draw, right=(0, 1, 2, 3)) + lay.size * 0.6
    if not inv.is_credit:
        y = table(pen, left, y, [lab["pa_payment"], lab["pa_iban"], lab["pa_bank"], lab["pa_due"], lab["pa_sum"]],
                  [["MP05 bonifico", e["seller"]["account"], e["seller"]["bank"], lay.date(due_date(inv, lay)),
                    lay.money(inv.total(rate))]],
                  [width * 0.16, width * 0.34, width * 0.18, width * 0.14, width * 0.18], draw,
                  right=(4,)) + lay.size * 0.6
    return paragraph(pen, left, y + lay.size, _pick(lay, "courtesy"), width, draw, lay.size * 0.85, GREY)


# ----------------------------------------------------------------------------------------------------------------
# The country module's interface (see evaluation.invoice_held_n_draw)
# ----------------------------------------------------------------------------------------------------------------
def top(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, draw: bool) -> float:
    if lay.extra["kind"] == "cortesia":
        return _cortesia_top(pen, inv, lay, n, draw)
    return _gestionale_top(pen, inv, lay, n, m, draw)


def closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    return _cortesia_closing(pen, inv, lay, y, draw) if lay.extra["kind"] == "cortesia" else y


def band_height(pen: NPen, inv: Invoice, lay: Layout) -> float:
    if not lay.extra["band"]:
        return 0.0
    return _gestionale_band(pen, inv, lay, 0.0, 1, 1, ZERO, False) + lay.size


def band(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, carried: Decimal, draw: bool) -> None:
    y = lay.page[1] - lay.margin - foot_height(pen, inv, lay) - band_height(pen, inv, lay) + lay.size * 0.6
    _gestionale_band(pen, inv, lay, y, n, m, carried, draw)


def _foot_lines(lay: Layout) -> list[str]:
    e = lay.extra
    if e["kind"] == "cortesia":
        return []
    out = [e["seller"]["register"]]
    if e["privacy"]:
        out.append(_pick(lay, "privacy"))
    return out


def foot_height(pen: NPen, inv: Invoice, lay: Layout) -> float:
    h = lay.size * 1.6
    for text in _foot_lines(lay):
        h = paragraph(pen, 0.0, h, text, pen.right - pen.left - lay.size * 8, False, lay.size * 0.7)
    return h


def foot(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    y = lay.page[1] - lay.margin - foot_height(pen, inv, lay) + lay.size * 1.6
    for text in _foot_lines(lay):
        y = paragraph(pen, pen.left, y, text, pen.right - pen.left - lay.size * 8, True, lay.size * 0.7, GREY)
    if lay.extra["kind"] == "cortesia":
        pen.text(pen.right, lay.page[1] - lay.margin, lay.page_label.format(n=n, m=m), size=lay.size * 0.9,
                 align="right")
    else:
        pen.text(pen.right, lay.page[1] - lay.margin, lay.extra["seller"]["software"], size=lay.size * 0.7,
                 align="right", color=GREY)
