"""held-n's Polish forms (*Faktura VAT*): the page's top, the totals and the foot (the table is
:mod:`evaluation.invoice_held_n_draw`'s).

- ``classic``: a desktop program's invoice. The seller's name at the top left, the place and the dates of issue
  and of sale at the right, the title with the number centred (``Faktura VAT nr 536365``) over ``ORYGINAŁ``, the
  seller's and the buyer's blocks side by side (NIP, REGON, the customer's number).
- ``online``: an online invoicing service's: the title and number large in colour at the top left, the dates at
  the right, the two parties under shaded headings.

Both close with the VAT summary by rate (its ``Razem`` row), the payment method, due date, bank and account
number (NRB), the amount due (for a *Faktura korygująca* the correction's amount) large, the total in words
(``Słownie: ...``), what was paid and what is left in some, on an invoice in euros the NBP exchange rate and the
VAT in złoty, and signature lines or the note that no signature is needed; a correction names the invoice it
corrects and why. The foot carries the page label, the register's entry and the program's name.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from evaluation.invoice_held_n_facts import customer, due_date, original, words
from evaluation.invoice_held_n_firms import TEXTS
from evaluation.invoice_held_n_pen import (GREY, NPen, colon, doc_title, kv_list, lines_block, number_label,
                                           paragraph, running_top, stack, table)
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice

__all__ = ["band", "band_height", "closing", "foot", "foot_height", "top"]

ZERO = Decimal("0.00")
FX = (("4,0225", "234/A/NBP/2010"), ("3,9946", "233/A/NBP/2010"), ("3,9811", "235/A/NBP/2010"))


def _pick(lay: Layout, key: str) -> str:
    options = TEXTS[("PL", lay.extra["lang"])][key]
    return options[lay.seed % len(options)]


def _title(inv: Invoice, lay: Layout) -> str:
    return f"{doc_title(inv, lay)} {number_label(inv, lay)} {inv.number}"


def _dates(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    lab = lay.labels
    pairs = [(lab["place"] + lay.colon, lay.extra["seller"]["town"]), (lab["invoice_date"] + lay.colon,
                                                                       lay.date(inv.date))]
    if lay.extra["sale_date"]:
        pairs.append((lab["sale_date"] + lay.colon, lay.date(inv.date)))
    return pairs


def _parties(inv: Invoice, lay: Layout) -> tuple[list[str], list[str]]:
    lab, s = lay.labels, lay.extra["seller"]
    seller = [s["name"], *s["lines"], f"{lab['seller_tax']}: {s['tax']}", f"{lab['regon']}: {s['regon']}",
              f"{lab['phone']} {s['phone']}"]
    cust = customer(inv, lay)
    buyer = [cust["name"], *cust["lines"], cust["country"]]
    if cust["vat"]:
        buyer.append(f"{lab['buyer_tax']}: {cust['vat']}")
    if cust["id"] is not None:
        buyer.append(f"{lab['customer_id']}: {cust['id']}")
    return seller, buyer


def _credit_lines(inv: Invoice, lay: Layout) -> list[str]:
    if not inv.is_credit:
        return []
    number, date = original(inv, lay)
    ref = _pick(lay, "ref").format(label=lay.labels["ref_invoice"], number=number, date=lay.date(date))
    return [ref, f"{lay.labels['reason']}: {_pick(lay, 'reason')}"]


def _top_first(pen: NPen, inv: Invoice, lay: Layout, draw: bool) -> float:
    e, left, right = lay.extra, pen.left, pen.right
    dates = _dates(inv, lay)
    width = max(pen.width(a, True) for a, _ in dates) + max(pen.width(b) for _, b in dates) + lay.size * 2
    yd = kv_list(pen, right - width, lay.margin + lay.size, dates, draw, align_right=right)
    big = lay.size * 2.0
    if e["kind"] == "classic":
        if draw:
            pen.text(left, lay.margin + lay.size * 1.6, e["seller"]["name"], True, lay.size * 1.6, color=e["accent"])
        y = max(yd, lay.margin + lay.size * 3) + lay.size
        if draw:
            pen.text((left + right) / 2, y + big, _title(inv, lay), True, big, "center")
        y += big + pen.lead
        if e["copy"]:
            if draw:
                pen.text((left + right) / 2, y, lay.labels["copy"], align="center")
            y += pen.lead
    else:
        if draw:
            size = pen.fit(_title(inv, lay), True, big, right - width - left - lay.size * 2)
            pen.text(left, lay.margin + big, _title(inv, lay), True, size, color=e["accent"])
        y = lay.margin + big + pen.lead
        if e["copy"]:
            if draw:
                pen.text(left, y, lay.labels["copy"], size=lay.size * 0.9, color=GREY)
            y += pen.lead
        y = max(y, yd) + lay.size * 0.5
    for line in _credit_lines(inv, lay):
        if draw:
            pen.text(left, y, line)
        y += pen.lead
    seller, buyer = _parties(inv, lay)
    half = (right - left - lay.size * 2) / 2
    style = "shaded" if e["kind"] == "online" else "bold"
    y = max(lines_block(pen, left, y, half, lay.labels["seller_block"] + lay.colon, seller, draw,
                        heading_style=style),
            lines_block(pen, left + half + lay.size * 2, y, half, lay.labels["customer_block"] + lay.colon, buyer,
                        draw, heading_style=style))
    return y + lay.size * 0.5


def _money_pln(value: Decimal) -> str:
    text = f"{abs(value):,.2f}".replace(",", " ").replace(".", ",")
    return f"-{text}" if value < 0 else text


def _fx_lines(inv: Invoice, lay: Layout) -> list[str]:
    if lay.currency != "EUR" or lay.tax_rate is None:
        return []
    rate, tab = FX[lay.seed % len(FX)]
    pln = (inv.tax(lay.tax_rate) * Decimal(rate.replace(",", "."))).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return [_pick(lay, "fx").format(pair="EUR", rate=rate, table=tab, date=lay.date(inv.date - dt.timedelta(days=1))),
            _pick(lay, "vat_pln").format(amount=_money_pln(pln))]


def _closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    e, lab, left, right = lay.extra, lay.labels, pen.left, pen.right
    rate = lay.tax_rate
    tax, total = inv.tax(rate), inv.total(rate)
    y += lay.size * 1.2
    widths = [lay.size * 8, lay.size * 9, lay.size * 9, lay.size * 9]
    money = [lay.money(inv.subtotal, lines=True), lay.money(tax, lines=True), lay.money(total, lines=True)]
    yt = table(pen, right - sum(widths), y, [lab["sum_rate"], lab["sum_base"], lab["sum_tax"], lab["sum_gross"]],
               [[lay.rate_cell(), *money], [lab["sum_total"], *money]], widths, draw, right=(1, 2, 3), bold_last=True)
    pay = [(colon(lay, "payment"), e["terms"][0])]
    if not inv.is_credit:
        days = e["terms"][1]
        unit = "dni" if e["lang"] == "pl" else "days"
        pay.append((colon(lay, "due_date"), f"{lay.date(due_date(inv, lay))} ({days} {unit})"))
    pay += [(colon(lay, "bank_name"), e["seller"]["bank"]),
            (colon(lay, "bank"), e["seller"]["nrb"] if lab["bank"] != "IBAN" else e["seller"]["iban"])]
    wide = max(pen.width(a, True) for a, _ in pay) + lay.size + max(pen.width(b) for _, b in pay)
    beside = left + wide + lay.size * 2 < right - sum(widths)  # else the payment lines go under the summary
    yp = kv_list(pen, left, (y if beside else yt) + lay.size, pay, draw)
    y = max(yt, yp) + lay.size * 0.5
    if e["pl_lines"]:
        y = stack(pen, right, y + lay.size, [(colon(lay, "subtotal"), lay.money(inv.subtotal), False),
                                             (colon(lay, "tax"), lay.money(tax), False),
                                             (colon(lay, "gross_total"), lay.money(total), False)], draw)
    big = lay.size * 1.4
    label = lab["credit_total"] if inv.is_credit else lab["total"]
    y += big + lay.size * 0.4
    if draw:
        if e["kind"] == "online":
            pen.fill(left, y - big * 1.1, right - left, big * 1.6, (0.92, 0.92, 0.92))
        pen.text(left + lay.size * 0.4, y, f"{label}{lay.colon or ':'} {lay.money(total)}", True, big)
    y += pen.lead * 1.2
    y = paragraph(pen, left, y, f"{lab['words']}: {words(inv, lay)}", right - left, draw)
    notes = []
    if e["paid_line"] and not inv.is_credit:
        notes.append(f"{lab['paid']}: {lay.money(ZERO)}   {lab['left']}: {lay.money(total)}")
    notes += _fx_lines(inv, lay)
    for note in notes:
        y = paragraph(pen, left, y, note, right - left, draw)
    if e["signatures"] == "note":
        return paragraph(pen, left, y + lay.size * 0.5, _pick(lay, "no_signature"), right - left, draw,
                         lay.size * 0.85, GREY)
    y += lay.size * 4
    w = (right - left) * 0.36
    if draw:
        for x, key in ((left, "sign_receiver"), (right - w, "sign_issuer")):
            pen.text(x + w / 2, y, "." * int(w / pen.width(".")), align="center", color=GREY)
            paragraph(pen, x, y + lay.size * 1.2, lab[key], w, True, lay.size * 0.75, GREY)
    return y + lay.size * 3.2


# ----------------------------------------------------------------------------------------------------------------
# The country module's interface (see evaluation.invoice_held_n_draw)
# ----------------------------------------------------------------------------------------------------------------
def top(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, draw: bool) -> float:
    return _top_first(pen, inv, lay, draw) if n == 1 else running_top(pen, inv, lay, n, draw)


def closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    return _closing(pen, inv, lay, y, draw)


def band_height(pen: NPen, inv: Invoice, lay: Layout) -> float:
    return 0.0


def band(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, carried: Decimal, draw: bool) -> None:
    return None


def _foot_lines(lay: Layout) -> list[str]:
    s = lay.extra["seller"]
    return [s["register"] if "Sp." in s["name"] else "", _pick(lay, "software").format(software=s["software"])]


def foot_height(pen: NPen, inv: Invoice, lay: Layout) -> float:
    return lay.size * 1.6 + lay.size * 0.7 * 1.3 * len([t for t in _foot_lines(lay) if t])


def foot(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    y = lay.page[1] - lay.margin - foot_height(pen, inv, lay) + lay.size * 1.6
    if lay.extra["kind"] == "classic":
        pen.line(pen.left, y - lay.size * 1.2, pen.right, y - lay.size * 1.2, 0.4, 0.6)
    for text in _foot_lines(lay):
        if text:
            pen.text(pen.left, y, text, size=lay.size * 0.7, color=GREY)
            y += lay.size * 0.7 * 1.3
    pen.text(pen.right, lay.page[1] - lay.margin, lay.page_label.format(n=n, m=m), size=lay.size * 0.9,
             align="right")
