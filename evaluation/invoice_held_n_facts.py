"""What a held-n invoice prints besides the record's values, computed from the layout and the invoice: the
seller's tax, registration and bank numbers in their countries' forms (with their check digits), the customer's
name, address and VAT number, the due date, each line's VAT shared out of the invoice's VAT to the cent, the
invoice a credit note corrects, a delivery note, a Portuguese document's series, ATCUD, signature characters and
QR code, and the amount in words.

>>> iban("ES", "21000418450200051332")
'ES9121000418450200051332'
>>> es_cif("B", "4612345"), it_vat("0234567890"), pt_nif("50987654"), pl_nip("676234567")
('B46123451', '02345678904', '509876544', '6762345686')
>>> due_after(dt.date(2010, 12, 2), 14), due_after(dt.date(2010, 12, 1), ("eom", 2))
(datetime.date(2010, 12, 16), datetime.date(2011, 2, 28))
>>> share([Decimal("10.00"), Decimal("0.05"), Decimal("0.05")], Decimal("0.23"), Decimal("2.33"))
[Decimal('2.30'), Decimal('0.02'), Decimal('0.01')]
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
import string
import zlib
from decimal import ROUND_HALF_UP, Decimal

from evaluation.invoice_held_n_firms import (BANKS, BUSINESSES, COURTS, DOMAINS, NO_CUSTOMER, PLACES, POSTCODE_FIRST,
                                             SELLERS, SOFTWARE, TEXTS, VAT_PREFIX)
from evaluation.invoice_held_n_say import say

__all__ = ["atcud", "customer", "delivery", "doc_hash", "doc_number", "due_after", "due_date", "es_cif", "iban",
           "it_vat", "line_vats", "original", "pl_nip", "pt_nif", "qr_payload", "seller_facts", "share",
           "spaced", "words"]

CENT = Decimal("0.01")
OFFICE = {"ES": "administracion", "IT": "amministrazione", "PT": "geral", "PL": "biuro"}


def h(*parts) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def iban(country: str, bban: str) -> str:
    """The IBAN of a national account number (its two check digits computed, mod 97)."""
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def spaced(text: str, n: int = 4) -> str:
    return " ".join(text[k:k + n] for k in range(0, len(text), n))


def es_cif(letter: str, seven: str) -> str:
    """A Spanish company's tax number: its letter, seven digits and the check digit."""
    odd = sum(sum(map(int, str(2 * int(d)))) for d in seven[0::2])
    return f"{letter}{seven}{(10 - (odd + sum(map(int, seven[1::2]))) % 10) % 10}"


def it_vat(ten: str) -> str:
    """An Italian VAT number (partita IVA): ten digits and the check digit."""
    total = sum(int(d) for d in ten[0::2]) + sum(2 * int(d) - (9 if 2 * int(d) > 9 else 0) for d in ten[1::2])
    return f"{ten}{(10 - total % 10) % 10}"


def pt_nif(eight: str) -> str:
    """A Portuguese taxpayer number: eight digits and the check digit (mod 11)."""
    r = sum(int(d) * (9 - k) for k, d in enumerate(eight)) % 11
    return f"{eight}{0 if r < 2 else 11 - r}"


def pl_nip(nine: str) -> str:
    """A Polish tax number (NIP): nine digits and the check digit (a ``10`` check moves the ninth digit on)."""
    while True:
        check = sum(int(d) * w for d, w in zip(nine, (6, 5, 7, 2, 3, 4, 5, 6, 7))) % 11
        if check < 10:
            return f"{nine}{check}"
        nine = nine[:-1] + str((int(nine[-1]) + 1) % 10)


def _regon(eight: str) -> str:
    return f"{eight}{sum(int(d) * w for d, w in zip(eight, (8, 9, 2, 3, 4, 5, 6, 7))) % 11 % 10}"


def _ccc(bank: str, branch: str, account: str) -> str:
    """A Spanish account number (CCC) with its two control digits."""
    weights = (1, 2, 4, 8, 5, 10, 9, 7, 3, 6)

    def dc(ten: str) -> str:
        t = 11 - sum(int(c) * w for c, w in zip(ten, weights)) % 11
        return str({11: 0, 10: 1}.get(t, t))
    return f"{bank}{branch}{dc('00' + bank + branch)}{dc(account)}{account}"


def seller_facts(rng: random.Random, country: str, lang: str, d: dict[str, str], currency: str) -> dict:
    """The seller: name, address lines, phone, e-mail and web address, tax and registration numbers, bank and
    account, the register's line, the program's name (and a Portuguese program's certificate number)."""
    name, lines, town, tag, extra, phone = rng.choice(SELLERS[country])
    domain = DOMAINS[name]
    bank, code = rng.choice(BANKS[country])
    out = {"name": name, "lines": lines, "town": town, "phone": phone,
           "email": f"{rng.choice(('info', OFFICE[country]))}@{domain}",
           "web": f"www.{domain}", "bank": bank}
    texts = TEXTS[(country, lang)]
    if country == "ES":
        tax = es_cif(extra, {"V": "46", "M": "28", "CA": "11"}[tag] + d["d5"])
        out["tax"] = rng.choice((tax, f"{tax[0]}-{tax[1:]}", f"{tax[0]}{tax[1:3]}.{tax[3:6]}.{tax[6:]}"))
        out["vat"] = f"ES{tax}"
        out["account"] = iban("ES", _ccc(code, d["d4"], d["d10"]))
        out["register"] = texts["register"][0].format(town=town, sheet=tag, tax_label="C.I.F.", tax=tax, **d)
    elif country == "IT":
        vat = it_vat(d["d7"] + rng.choice(("037", "146", "048")))
        out.update(tax=vat, vat=f"IT{vat}", fiscal=extra or vat, province=tag)
        bban = rng.choice(string.ascii_uppercase) + code + d["d5b"] + d["d10b"] + d["d2"]
        out["account"] = iban("IT", bban)
        out["register"] = texts["register"][0].format(province=tag, town=town, tax=extra or vat, **d)
        out["software"] = rng.choice(SOFTWARE["IT"])
    elif country == "PT":
        nif = pt_nif("5" + d["d7"])
        out.update(tax=nif, vat=f"PT{nif}")
        body = code + d["d4"] + d["d10"] + d["d2"][0]
        nib = body + f"{98 - int(body + '00') % 97:02d}"
        out["nib"] = f"{nib[:4]} {nib[4:8]} {nib[8:19]} {nib[19:]}"
        out["account"] = iban("PT", nib)
        out["register"] = texts["register"][0].format(town=town, tax=nif)
        out["software"], out["cert"] = rng.choice(SOFTWARE["PT"])
    else:
        nip = pl_nip(d["d9"])
        out["tax"] = rng.choice((f"{nip[:3]}-{nip[3:6]}-{nip[6:8]}-{nip[8:]}", nip, f"{nip[:3]}-{nip[3:5]}-"
                                 f"{nip[5:7]}-{nip[7:]}"))
        out.update(vat=f"PL{nip}", regon=_regon(d["d8"]), krs=f"0000{d['d6']}")
        full = iban("PL", code + d["d10c"] + d["d6b"])
        out["account"] = full
        out["nrb"] = f"{full[2:4]} {spaced(full[4:])}"
        out["register"] = texts["register"][0].format(court=COURTS[town], krs=out["krs"])
        out["software"] = rng.choice(SOFTWARE["PL"])
    out["iban"] = spaced(out["account"])
    return out


def customer(inv, lay) -> dict:
    """The customer: a business named from its number (a cash customer without one), its street and town in the
    record's country, the country as the record writes it, its VAT number (Portugal's final consumer: 999999990)."""
    e = lay.extra
    key = inv.customer or inv.number
    k = h("customer", lay.seed, key)
    if inv.customer is None:
        names = NO_CUSTOMER[(e["country"], e["lang"])]
        name = names[k % len(names)]
    else:
        name = BUSINESSES[k % len(BUSINESSES)]
    lines, street, town, postcode = [], "", "", ""
    places = PLACES.get(inv.country)
    if places and inv.customer is not None:
        street, town, postcode = places[(k >> 8) % len(places)]
        lines = [street, f"{postcode} {town}" if inv.country in POSTCODE_FIRST else f"{town} {postcode}"]
    country = inv.country.upper() if e["caps_country"] else inv.country
    vat = None
    prefix = VAT_PREFIX.get(inv.country)
    digits = f"{k % 10 ** 9:09d}"
    if inv.customer is not None and prefix:
        abn = f"{k % 10 ** 11:011d}"
        vat = {"ABN": f"ABN {abn[:2]} {abn[2:5]} {abn[5:8]} {abn[8:]}", "IE": f"IE{digits[:7]}W",
               "NL": f"NL{digits}B01", "NO": f"NO{digits}MVA", "FR": f"FR{digits[:2]}{digits}"}.get(prefix,
                                                                                                 f"{prefix}{digits}")
    elif inv.customer is None and e["country"] == "PT":
        vat = "999999990"
    return {"name": name, "lines": lines, "country": country, "vat": vat, "id": inv.customer, "street": street,
            "town": town, "postcode": postcode}


def due_after(date: dt.date, rule) -> dt.date:
    """The date ``rule`` days after ``date``, or (``("eom", n)``) the last day of the n-th month after its month."""
    if isinstance(rule, int):
        return date + dt.timedelta(days=rule)
    months = date.month + rule[1]
    year, month = date.year + (months - 1) // 12, (months - 1) % 12 + 1
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def due_date(inv, lay) -> dt.date:
    return due_after(inv.date, lay.extra["terms"][1])


def share(amounts: list[Decimal], rate: Decimal, total: Decimal) -> list[Decimal]:
    """Each amount's tax at ``rate`` to the cent, the cents adjusted (where rounding left the most) so that they
    add up to ``total``, the tax of the whole invoice, as invoicing programs print per-line VAT."""
    exact = [a * rate for a in amounts]
    rounded = [x.quantize(CENT, rounding=ROUND_HALF_UP) for x in exact]
    diff = int((total - sum(rounded, Decimal("0"))) / CENT)
    step = CENT if diff > 0 else -CENT
    order = sorted(range(len(amounts)), key=lambda k: (exact[k] - rounded[k]) * (-1 if diff > 0 else 1))
    for k in order[:abs(diff)]:
        rounded[k] += step
    return rounded


def line_vats(inv, lay) -> list[Decimal]:
    return share([r.amount for r in inv.rows], lay.tax_rate, inv.tax(lay.tax_rate))


def original(inv, lay) -> tuple[str, dt.date]:
    """The invoice a credit note corrects: an earlier number of the seller's series, from a fortnight before."""
    k = h("original", lay.seed, inv.number)
    number = str(int(inv.number.lstrip("C")) - 40 - k % 800)
    return number, inv.date - dt.timedelta(days=3 + k % 14)


def delivery(inv, lay) -> tuple[str, dt.date]:
    """The delivery note (albarán, DDT) the goods went out with, a day or three before the invoice."""
    k = h("delivery", lay.seed, inv.number)
    return f"{1000 + k % 9000}", inv.date - dt.timedelta(days=1 + k % 3)


def doc_number(inv, lay, number: str | None = None) -> str:
    """The document's number as printed: a Portuguese series form ``FT A/536365`` (``NC`` for a credit note), else
    the record's number."""
    number = number or inv.number
    if lay.extra["country"] != "PT" or lay.extra["doc_number"] == "plain":
        return number
    return f"{series(inv, lay)}/{number}"


def series(inv, lay, credit: bool | None = None) -> str:
    credit = inv.is_credit if credit is None else credit
    return f"{'NC' if credit else 'FT'} {lay.extra['series']}"


def atcud(inv, lay) -> str:
    """The Portuguese unique document code: the series' validation code, a dash and the number."""
    k = h("atcud", lay.seed, series(inv, lay))
    alphabet = "BCDFGHJKLMNPQRSTVWXZ23456789"
    return "".join(alphabet[(k >> (3 * j)) % len(alphabet)] for j in range(8)) + f"-{inv.number}"


def doc_hash(inv, lay) -> str:
    """The four characters of a certified program's signature printed before its certificate line."""
    k = h("hash", lay.seed, inv.number)
    alphabet = string.ascii_letters + string.digits
    return "".join(alphabet[(k >> (6 * j)) % len(alphabet)] for j in range(4))


def qr_payload(inv, lay, cust: dict) -> str:
    """The Portuguese invoice QR code's fields (seller, buyer, country, type, status, date, number, ATCUD, tax
    base and VAT at the normal rate, total, signature characters, certificate)."""
    e = lay.extra
    base, tax, total = (abs(v) for v in (inv.subtotal, inv.tax(lay.tax_rate) or Decimal("0"),
                                         inv.total(lay.tax_rate)))
    parts = [f"A:{e['seller']['tax']}", f"B:{cust['vat'] or '999999990'}", "C:PT",
             f"D:{'NC' if inv.is_credit else 'FT'}", "E:N", f"F:{inv.date:%Y%m%d}", f"G:{doc_number(inv, lay)}",
             f"H:{atcud(inv, lay)}", "I1:PT"]
    parts += [f"I2:{base:.2f}"] if lay.tax_rate is None else [f"I7:{base:.2f}", f"I8:{tax:.2f}"]
    parts += [f"N:{tax:.2f}", f"O:{total:.2f}", f"Q:{doc_hash(inv, lay)}", f"R:{e['seller']['cert']}"]
    return "*".join(parts)


def words(inv, lay) -> str:
    """The total in words in the layout's language (capitals on some Spanish forms)."""
    text = say(inv.total(lay.tax_rate), lay.extra["lang"], lay.currency)
    return text.upper() if lay.extra["country"] == "ES" and lay.seed % 2 else text
