"""Who a held-o invoice names, and the numbers it prints around the wanted ones: the customer's business name and
address in the record's country (the country as the record writes it), the seller's and buyer's GSTIN and PAN,
an ABN or a New Zealand GST number, order and original-invoice numbers, the running header of a later page, and
the blocks and label-value lists the markets draw them with. Each is drawn from the layout's seed and the
customer (or, with none, the invoice number), so the same invoice in the same layout always names the same.

>>> gstin("29", "x"), pan("x")
('29NFXOB2712M1ZB', 'NFXOB2712M')
>>> town_line("Germany", "Heidelberg", "69117"), town_line("United Kingdom", "Ludlow", "SY8 1AY")
('69117 Heidelberg', 'Ludlow SY8 1AY')
"""

from __future__ import annotations

import string

from evaluation.invoice_held_o_money import HeldOLayout
from evaluation.invoice_held_o_table import OPen, code_hash, lines
from evaluation.invoice_held_o_words import ADDRESSES, BUYERS, POSTCODE_FIRST
from evaluation.invoice_records import Invoice

__all__ = ["abn", "customer", "gstin", "number_label", "nz_gst", "order_number", "original_number", "pan", "running",
           "title_of", "town_line"]

UPPER = string.ascii_uppercase


def pan(*key) -> str:
    """A PAN: five letters, four digits, a letter."""
    h, g = code_hash("pan", *key), code_hash("pan-digits", *key)
    return "".join(UPPER[(h >> (5 * k)) % 26] for k in range(5)) + f"{g % 10000:04d}" + UPPER[(g >> 16) % 26]


def gstin(state: str, *key) -> str:
    """A GSTIN: the state's code, the PAN, the entity's number, Z and a check character."""
    check = (string.digits + UPPER)[code_hash("check", *key) % 36]
    return f"{state}{pan(*key)}1Z{check}"


def abn(*key) -> str:
    """An Australian Business Number as printed: 51 824 753 556."""
    h = code_hash("abn", *key) % 10 ** 9
    return f"{10 + code_hash('abn2', *key) % 89} {h // 10 ** 6:03d} {h // 1000 % 1000:03d} {h % 1000:03d}"


def nz_gst(*key) -> str:
    """A New Zealand GST number as printed: 123-456-789."""
    h = code_hash("nzgst", *key) % 10 ** 9
    return f"{h // 10 ** 6:03d}-{h // 1000 % 1000:03d}-{h % 1000:03d}"


def order_number(lay: HeldOLayout, inv: Invoice) -> str:
    """The customer's order (P.O.) number in the market's form."""
    h = code_hash("po", lay.seed, inv.number)
    return {"india": f"PO/{h % 9000 + 1000}/10-11", "anz": f"PO{h % 90000 + 10000}",
            "us": f"{h % 900000 + 100000}"}[lay.extra["kind"]]


def original_number(inv: Invoice, lay: HeldOLayout) -> str:
    """The invoice a credit note reverses: a number some way before its own."""
    return str(int(inv.number.lstrip("C")) - 20 - code_hash("orig", lay.seed, inv.number) % 400)


def town_line(country: str, town: str, postcode: str) -> str:
    if not postcode:
        return town
    return f"{postcode} {town}" if country in POSTCODE_FIRST else f"{town} {postcode}"


def customer(inv: Invoice, lay: HeldOLayout, salt: str = "") -> list[str]:
    """The customer's name and address, the country last as the record writes it (a ship-to address, ``salt``
    set, has another street in the same country)."""
    h = code_hash("buyer", lay.seed, inv.customer or inv.number)
    out = [BUYERS[h % len(BUYERS)]]
    places = ADDRESSES.get(inv.country)
    if places:
        street, town, postcode = places[(h >> 8 ^ code_hash(salt)) % len(places)]
        out += [street, town_line(inv.country, town, postcode)]
    return out + [inv.country]


def title_of(inv: Invoice, lay: HeldOLayout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def number_label(inv: Invoice, lay: HeldOLayout) -> str:
    return lay.labels["credit_number" if inv.is_credit else "invoice_number"]


def running(pen: OPen, inv: Invoice, lay: HeldOLayout, n: int, draw: bool, boxed: bool = False) -> float:
    """The top of a later page: the seller and the title, the invoice's number and date, and where the layout
    says so, that the items go on from page ``n - 1``. Returns the y where the table's heading starts."""
    left, right, c = lay.margin, lay.page[0] - lay.margin, lay.colon
    y = lay.margin + lay.size * 1.6
    if boxed:
        if draw:
            pen.frame(left, lay.margin, right - left, pen.lead * 2.6 + lay.size * 0.8)
        left, right = left + lay.size * 0.5, right - lay.size * 0.5
    if draw:
        pen.text(left, y, lay.seller[0], True, lay.size * 1.25)
        pen.text(right, y, title_of(inv, lay), True, lay.size * 1.25, "right")
        pen.text(left, y + pen.lead * 1.2, f"{number_label(inv, lay)}{c} {inv.number}")
        pen.text(right, y + pen.lead * 1.2, f"{lay.labels['invoice_date']}{c} {lay.date(inv.date)}", align="right")
    y += pen.lead * 2.4 + (lay.size * 0.4 if boxed else 0)
    carried = lay.extra["carried"].format(prev=n - 1)
    if carried:
        y = lines(pen, left, y + lay.size * 0.4, [carried], draw, size=lay.size * 0.9)
    return y + lay.size * 0.6
