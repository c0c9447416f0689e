"""HELD-ASIDE FAMILY "held-d": part of a fourth held-aside family, written apart from the reader; not to be read
while developing it (nor the rest of the family, ``evaluation.invoice_held_d*``, its generated files or its per-file
scores).

What the family's pages print, as text; :mod:`evaluation.invoice_held_d_parts` and
:mod:`evaluation.invoice_held_d_draw` place it.

>>> in_words(Decimal("1204.50"), "USD")
'US Dollars One Thousand Two Hundred Four and Cents Fifty Only'
>>> ean13("85123A"), ean13("85123A") == ean13("85123A")
('5068512333608', True)
"""

from __future__ import annotations

import datetime as dt
import zlib
from decimal import Decimal

from evaluation.invoice_held_d import CARRY, HeldDLayout, heading_text
from evaluation.invoice_held_d_words import BUYERS, HS, INCOTERMS, NOTES, ORIGINS, PLACES, UNNAMED
from evaluation.invoice_records import Invoice, InvoiceRow, cents
from evaluation.invoice_styles import Pen, wrap

__all__ = ["CARRY", "address_lines", "bank_lines", "cell_text", "ean13", "extra_pairs", "goods", "header_pairs",
           "heading_text", "in_words", "notes", "seller_lines", "title_of", "total_weight", "totals_pairs"]

ONES = ("", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve",
        "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen")
TENS = ("", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety")
NAMES = {"USD": ("US Dollars", "Cents"), "GBP": ("Pounds Sterling", "Pence"), "EUR": ("Euro", "Cents")}


def _words(n: int) -> str:
    if n < 20:
        return ONES[n]
    if n < 100:
        return f"{TENS[n // 10]} {ONES[n % 10]}".strip()
    if n < 1000:
        return f"{ONES[n // 100]} Hundred {_words(n % 100)}".strip()
    for size, name in ((10 ** 6, "Million"), (1000, "Thousand")):
        if n >= size:
            return f"{_words(n // size)} {name} {_words(n % size)}".strip()
    return ""


def in_words(value: Decimal, currency: str) -> str:
    """An amount in words, as an Indian package prints it under the total (of its absolute value)."""
    whole, part = divmod(int(abs(value) * 100), 100)
    major, minor = NAMES[currency]
    text = f"{major} {_words(whole) or 'Zero'}"
    return f"{text} and {minor} {_words(part)} Only" if part else f"{text} Only"


def _hash(text: str, salt: str = "") -> int:
    return zlib.crc32(f"{salt}:{text}".encode())


def goods(row: InvoiceRow) -> bool:
    """Whether a line is goods (a stock code), not postage, a fee or a manual line."""
    return row.code[:5].isdigit()


def ean13(code: str) -> str:
    """A made-up GTIN for a stock code: a 506 prefix, the code's digits, a valid check digit."""
    body = ("506" + "".join(c for c in code if c.isdigit()) + str(_hash(code) % 1000).zfill(3) + "0000")[:12]
    check = (10 - sum(int(d) * (3 if k % 2 else 1) for k, d in enumerate(body)) % 10) % 10
    return body + str(check)


def _hs(row: InvoiceRow, form: str) -> str:
    text = (row.description or "").upper()
    heading = next(code for word, code in HS if word in text)
    digits = heading.replace(".", "") + ("10" if _hash(row.code) % 2 else "90")
    return {"dot": heading, "eight": digits, "spaced": f"{digits[:4]} {digits[4:6]} {digits[6:]}"}[form]


def _weight(row: InvoiceRow) -> Decimal:
    per = Decimal(20 + _hash(row.code, "kg") % 780) / 1000
    return (abs(row.quantity) * per).quantize(Decimal("0.001"))


def title_of(inv: Invoice, lay: HeldDLayout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _ref(inv: Invoice) -> int:
    return int(inv.number.lstrip("C"))


def _ocr(inv: Invoice) -> str:
    """A payment reference built from the number with a check digit (7-3-1 weights, as Nordic banks use)."""
    digits = str(_ref(inv))
    total = sum(int(d) * (7, 3, 1)[k % 3] for k, d in enumerate(reversed(digits)))
    return digits + str((10 - total % 10) % 10)


def _extra_value(key: str, inv: Invoice, lay: HeldDLayout) -> str:
    e, d, n = lay.extra, inv.date, _ref(inv)
    src = e["source"]
    place = {"India": "Nhava Sheva", "Switzerland": "Basel", "Canada": "Vancouver", "Australia": "Melbourne",
             "United Kingdom": "Felixstowe"}.get(e["seller_country"], lay.seller[2].split()[-1])
    incoterm = INCOTERMS[e["incoterm"]]
    values = {
        "delivery_note": f"DN/{n % 9000 + 100}/10-11", "pay_mode": ("Advance T/T", "D/P at sight", "60 days from B/L",
                                                                     "Against L/C")[e["incoterm"] % 4],
        "order": {"platform": f"{200 + n % 700}-{e['order_base']}{n % 10}-{(n * 7) % 10 ** 7:07d}",
                  "ledger": f"PO/{e['order_base'] % 10000}/{n % 100:02d}", "south": f"P-{e['order_base'] % 99999}",
                  }.get(src, str(e["order_base"] + n % 9973)),
        "dispatch": ("By Sea", "By Air", "DHL Express", "FedEx International")[e["incoterm"] % 4],
        "delivery_terms": f"{incoterm} {place}", "origin_all": e["seller_country"], "port": place,
        "due": lay.date(d + dt.timedelta(days=e["due_days"])), "delivery": lay.date(d - dt.timedelta(days=1)),
        "order_date": lay.date(d - dt.timedelta(days=e["due_days"] % 5 + 1)),
        "terms": {"einvoice": f"Net {e['due_days']} days", "distributor": ("NET 30", "2% 10 NET 30", "NET 10 EOM",
                                                                            "C.O.D.")[e["store"] % 4],
                  "north": f"{e['due_days']} days net",
                  "customs": ("Cash against documents", "Prepayment", "Open account 30 days")[e["store"] % 3]
                  }.get(src, ""),
        "method": {"platform": ("Visa ending 4417", "PayPal", "Mastercard ending 0093")[e["store"] % 3],
                   "north": ("PostNord", "DB Schenker", "Bring Parcel")[e["store"] % 3],
                   "south": ("Bank transfer", "SEPA direct debit", "Confirming 60 days")[e["store"] % 3],
                   "studio": "Bank transfer (details below)"}.get(src, ""),
        "rep": e["rep"], "via": ("UPS GROUND", "FEDEX FREIGHT", "OUR TRUCK", "WILL CALL")[e["store"] % 4],
        "fob": ("SHIPPING POINT", "DESTINATION")[e["store"] % 2], "our_ref": ("Anna Berg", "Mikkel Holm",
                                                                             "Liene Ozola")[e["store"] % 3],
        "your_ref": ("Purchasing", "Mrs Doyle", "Goods-in")[e["store"] % 3], "interest": f"{8 + e['store'] % 4} %",
        "ocr": _ocr(inv), "incoterms": f"{incoterm} {place}", "transport": ("Air freight", "Sea freight", "Road")[
            e["incoterm"] % 3], "awb": f"{176 + e['store']}-{e['order_base']:08d}"[:12], "store": f"{e['store']:03d}",
        "till": str(e["till_no"]), "cashier": e["cashier"], "agent": e["rep"], "project": e["project"]}
    return values[key]


def header_pairs(inv: Invoice, lay: HeldDLayout, extras: bool = True) -> list[tuple[str, str]]:
    """The header's (label, value) pairs: number, date, customer (when the invoice has one), country (unless the
    address carries it), the currency (where a field names it), then the layout's other references (``extras``;
    a credit note has no due date or terms)."""
    e = lay.extra
    out = [(lay.label("invoice_number", inv.is_credit), inv.number), (lay.label("invoice_date"), lay.date(inv.date))]
    if inv.customer is not None:
        out.append((lay.label("customer_id"), inv.customer))
    if e["country_in"] == "field":
        out.append((lay.label("country"), inv.country))
    if e["code_at"] == "field":
        out.append((lay.label("currency"), lay.currency))
    return out + [(label, value) for _, label, value in extra_pairs(inv, lay)] if extras else out


def extra_pairs(inv: Invoice, lay: HeldDLayout) -> list[tuple[str, str, str]]:
    """(key, label, value) of the layout's other references (a credit note has no due date or terms)."""
    return [(k, lay.label(k), _extra_value(k, inv, lay)) for k in lay.extra["kept"]
            if not (inv.is_credit and k in ("due", "terms", "interest", "ocr", "pay_mode"))]


def address_lines(inv: Invoice, lay: HeldDLayout) -> list[str]:
    """The buyer's name and address; its last line is the invoice's country when the layout prints it there."""
    e = lay.extra
    places = PLACES.get(inv.country, PLACES[""]) if inv.country != "United Kingdom" else PLACES["United Kingdom"]
    street, town = places[e["buyer"] % len(places)]
    name = BUYERS[e["buyer"] % len(BUYERS)] if inv.customer is not None else UNNAMED[e["buyer"] % len(UNNAMED)]
    lines = [line.upper() for line in (name, street, town)] if e["caps"] else [name, street, town]
    return lines + ([inv.country] if e["country_in"] == "address" else [])


def _tax_line(lay: HeldDLayout) -> list[str]:
    e, t = lay.extra, lay.extra["tax_no"]
    country = e["seller_country"]
    if country == "India":
        return [f"GSTIN/UIN: 06AAKCS{t % 10000:04d}Q1Z{t % 7}", f"IEC: 05{t % 10 ** 8:08d}",
                f"LUT ARN: AD06{t % 10 ** 6:06d}0{t % 9}"]
    prefix = {"Germany": "DE", "Netherlands": "NL", "France": "FR", "Belgium": "BE0", "Spain": "ESB", "Italy": "IT",
              "Portugal": "PT", "Austria": "ATU", "Latvia": "LV", "Finland": "FI", "Denmark": "DK",
              "United Kingdom": "GB"}.get(country)
    if prefix:
        return [f"NIF {prefix}{t % 10 ** 8:08d}" if country in ("Spain", "Portugal") else
                f"VAT reg. nr {prefix}{t}" + ("B01" if prefix == "NL" else "")]
    return {"Norway": [f"Org. nr {t} MVA"], "Switzerland": [f"CHE-{t // 10 ** 6}.{t // 1000 % 1000:03d}.{t % 1000:03d}"
                                                             " MWST"],
            "United States": [f"EIN {t % 100:02d}-{t % 10 ** 7:07d}"], "Canada": [f"BN {t} RT0001"],
            "Australia": [f"ABN {t % 100:02d} {t // 1000 % 1000:03d} {t % 1000:03d} {t // 10 ** 6:03d}"]
            }.get(country, [])


def seller_lines(lay: HeldDLayout) -> list[str]:
    """The seller's address (with its country on international paperwork), telephone, e-mail and registrations."""
    e = lay.extra
    domestic = e["source"] in ("distributor", "till", "studio") or e["seller_country"] in ("United Kingdom",
                                                                                          "United States")
    name = "".join(c for c in lay.seller[0].split()[0] if c.isalnum()).lower()
    lines = [*lay.seller[1:3], *([] if domestic else [lay.seller[3]]), f"Tel. {e['phone']}",
             f"sales@{name}.example"] + _tax_line(lay)
    return [line.upper() for line in lines] if e["caps"] else lines


def bank_lines(lay: HeldDLayout) -> list[str]:
    """Where to pay: the seller's bank, in its country's form."""
    e, b = lay.extra, lay.extra["bank"]
    country = e["seller_country"]
    if country == "India":
        return [f"Bank: State Bank of India, A/c No. {b}",
                f"IFSC SBIN000{b % 10000:04d}, SWIFT SBININBB{b % 900 + 100}"]
    if country == "United Kingdom" and lay.currency == "GBP":
        return [f"Sort code {b % 100:02d}-{b // 100 % 100:02d}-{b // 10 ** 4 % 100:02d}", f"Account {b % 10 ** 8:08d}"]
    if country in ("United States", "Canada"):
        return [f"ABA routing 0{b % 10 ** 8:08d}", f"Account {b}"]
    if country == "Australia":
        return [f"BSB {b % 1000:03d}-{b // 1000 % 1000:03d}", f"Account {b % 10 ** 8}"]
    code = {"Germany": "DE", "Netherlands": "NL", "France": "FR", "Belgium": "BE", "Spain": "ES", "Italy": "IT",
            "Portugal": "PT", "Austria": "AT", "Latvia": "LV", "Finland": "FI", "Denmark": "DK", "Norway": "NO",
            "Switzerland": "CH", "United Kingdom": "GB"}.get(country, "GB")
    digits = f"{b}{e['reg']}"
    iban = " ".join(digits[k:k + 4] for k in range(0, len(digits), 4))
    bic = "".join(c for c in lay.seller[0].upper() if c.isalpha())[:4]
    return [f"IBAN {code}{b % 89 + 10} {iban}", f"BIC {bic}{code}2X"]


def totals_pairs(inv: Invoice, lay: HeldDLayout) -> list[tuple[str, str]]:
    rows = [(lay.label("subtotal"), lay.money(inv.subtotal))]
    if lay.tax_rate is not None:
        rows.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate))))
    return rows + [(lay.label("total"), lay.money(inv.total(lay.tax_rate)))]


def notes(inv: Invoice, lay: HeldDLayout) -> list[str]:
    """The lines printed after the totals: the currency, why no tax is charged, and what happens next."""
    e = lay.extra
    out = [e["note"].format(code=lay.currency)] if e["code_at"] == "note" else []
    if lay.tax_rate is None:
        out.append(NOTES["free"].get(e["seller_country"], NOTES["free"][""]))
    if inv.is_credit:
        return out + ["Credited against your account; no payment is due on this document."]
    return out + [{"ledger": "We declare that this invoice shows the actual price of the goods described and that "
                             "all particulars are true and correct.",
                   "platform": f"Sold by {lay.seller[0].rstrip('.')}. This invoice was issued by the marketplace "
                               "on behalf of the seller.",
                   "distributor": "ALL CLAIMS FOR SHORTAGES MUST BE MADE WITHIN 5 DAYS OF RECEIPT. A SERVICE "
                                  "CHARGE OF 1.5% PER MONTH APPLIES TO OVERDUE ACCOUNTS.",
                   "north": "Interest on late payment is charged according to the Interest Act.",
                   "customs": "I declare that the information on this invoice is true and correct and that the "
                              "goods originate where stated.",
                   "till": "Goods may be returned within 28 days with this receipt.",
                   "south": LATE.get(e["seller_country"], LATE["Spain"]),
                   "studio": "Thank you - it was a pleasure working with you.",
                   "einvoice": "Visualisation of a structured electronic invoice (EN 16931)."}[e["source"]]]


LATE = {"France": "Late payment: interest at three times the legal rate and a fixed recovery fee of 40 EUR "
                  "(art. L441-10 C. com.).",
        "Spain": "Late payment interest under Law 3/2004 on combating late payment in commercial transactions.",
        "Italy": "Late payment interest applies under Legislative Decree 231/2002.",
        "Portugal": "Late payment interest at the commercial rate (Decree-Law 62/2013)."}


def _line_no(lay: HeldDLayout, index: int) -> str:
    form = lay.extra["line_no"]
    return str(index + 1) if form == "plain" else str((index + 1) * 10) if form == "tens" else f"{index + 1:04d}"


def cell_text(key: str, index: int, row: InvoiceRow, width: float, lay: HeldDLayout, pen: Pen) -> list[str]:
    """A line's value in column ``key`` as printed; codes and descriptions wrapped at spaces to ``width``."""
    if key in ("code", "description"):
        return wrap(getattr(row, key) or "", width, pen)
    rate, e = lay.tax_rate or Decimal("0"), lay.extra
    is_goods = goods(row)
    texts = {"quantity": lambda: lay.quantity(row.quantity), "ordered": lambda: lay.quantity(row.quantity),
             "backorder": lambda: lay.quantity(Decimal(0)), "line_no": lambda: _line_no(lay, index),
             "unit": lambda: e["unit"], "vat_rate": lay.rate, "discount": lambda: e["disc_form"],
             "vat_cat": lambda: "S" if lay.tax_rate else ("G" if e["seller_country"] in ("Norway",) else "AE"),
             "ean": lambda: ean13(row.code) if is_goods else "", "hs": lambda: _hs(row, e["hs_form"]) if is_goods
             else "", "origin": lambda: ORIGINS[_hash(row.code, "o") % len(ORIGINS)] if is_goods else "",
             "weight": lambda: lay.number(_weight(row), 3) if is_goods else "",
             "line_tax": lambda: lay.money(cents(row.amount * rate), lines=True),
             "gross": lambda: lay.money(row.amount + cents(row.amount * rate), lines=True)}
    return [texts[key]() if key in texts else lay.money(getattr(row, key), lines=True)]


def total_weight(inv: Invoice) -> Decimal:
    return sum((_weight(row) for row in inv.rows if goods(row)), Decimal("0.000"))
