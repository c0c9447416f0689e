"""HELD-ASIDE FAMILY "held-c": a third held-aside family, written apart from the reader. Opened on 2026-12-05: its
wrong and unflagged PDF readings were looked into and the reader changed for what they showed, once ``held-e`` stood
in as the fresh held-aside family. This module is still not read while developing the reader (nor its words in
:mod:`evaluation.invoice_held_c_words`, its drawing in :mod:`evaluation.invoice_held_c_draw` and
:mod:`evaluation.invoice_held_c_parts`).

:func:`held_c_layout` draws a :class:`HeldCLayout` (a :class:`evaluation.invoice_layouts.Layout` with the family's
own number, money, date and label rules) from a seed, choosing among the wordings and conventions of
:mod:`evaluation.invoice_held_c_words`, and :func:`held_c_vocabulary` gives every title, label and heading wording
the family can print. The functions at the end say what is printed (header fields, addresses, totals, notes,
cells); :mod:`evaluation.invoice_held_c_draw` paginates and draws it.

>>> a = held_c_layout(3)
>>> a == held_c_layout(3), a.family, a.style
(True, 'held-c', 'held-c')
>>> held_c_vocabulary() >= a.wordings()
True
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from decimal import Decimal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_held_c_words import (BREAKDOWN_COLS, BUYER_TAX_IDS, BUYERS, CURRENCY_WORD, DATE_HINTS,
                                             DATES, FORMATS, HOUSES, MARKS, MONTHS, NUMBERS, PLACES, REGIONS,
                                             SELLER_COUNTRY, WALK_IN)
from evaluation.invoice_layouts import PAGES, Column, Layout
from evaluation.invoice_records import Invoice, cents
from evaluation.invoice_styles import Pen, wrap

__all__ = ["DATES", "HOUSES", "HeldCLayout", "address_lines", "bank_lines", "cell_text", "header_pairs",
           "heading_text", "held_c_layout", "held_c_vocabulary", "notes", "seller_lines", "tax_id", "title_of",
           "totals_pairs"]

FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Courier": ("Courier", "Courier-Bold"), "Sans": ("HC-Sans", "HC-Sans-Bold")}
for _name, _file in (("HC-Sans", "Vera.ttf"), ("HC-Sans-Bold", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_name, _file))


EXTRAS = ("due", "order", "terms", "delivery", "rep", "via", "method", "period", "vat_id")
# What each house draws from: header arrangements, totals, table styles, fonts, currencies, negatives, dates, feet.
STYLE = {
    "cloud": (("masthead",), ("stack",), ("rules", "zebra", "bar"), ("Helvetica", "Sans"), ("GBP", "EUR", "USD"),
              ("lead", "paren"), ("d Mon Y", "Mon d, Y", "d Month Y", "ISO"), ("line", "columns", "none")),
    "erp": (("grid",), ("stack", "sumrow"), ("open", "grid"), ("Courier", "Helvetica", "Sans"), ("GBP", "EUR", "USD"),
            ("trail", "lead"), ("dd.mm.Y", "dd-MON-yy", "dd-Mon-Y", "ISO"), ("columns", "line")),
    "euro": (("window",), ("stack", "sumrow"), ("rules", "open", "bar"), ("Helvetica", "Sans", "Times"),
             ("EUR", "EUR", "GBP"), ("lead",), ("dd.mm.Y", "d Month Y", "ISO"), ("columns",)),
    "desk": (("boxes",), ("cells", "stack"), ("grid",), ("Helvetica", "Times"), ("USD", "USD", "GBP"),
             ("lead", "paren"), ("Month d, Y", "Mon d, Y", "mm/dd/Y"), ("thanks", "line", "none")),
    "shop": (("masthead", "window"), ("sumrow", "stack"), ("bar", "zebra", "rules"), ("Helvetica", "Sans"),
             ("GBP", "EUR", "USD"), ("lead",), ("d Month Y", "Mon d, Y", "ISO", "d Mon Y"), ("line", "thanks")),
    "bill": (("summary",), ("top",), ("rules", "open", "zebra"), ("Helvetica", "Sans"), ("GBP", "GBP", "EUR"),
             ("cr",), ("d Month Y", "dd Mon Y"), ("line", "columns")),
    "office": (("centred", "boxes"), ("cells",), ("grid", "bar"), ("Times", "Helvetica", "Sans"),
               ("USD", "GBP", "EUR"), ("paren", "lead"), ("Month d, Y", "d-Mon-yy", "mm/dd/Y"), ("thanks", "none")),
}
ORDERS = {  # column orders; the optional columns (OPTIONAL) are kept or left out from the seed
    "cloud": (("code", "description", "quantity", "unit_price", "discount", "vat_rate", "amount"),
              ("line_no", "description", "code", "quantity", "unit_price", "amount")),
    "erp": (("line_no", "code", "description", "quantity", "unit", "unit_price", "discount", "amount", "vat_rate"),
            ("line_no", "code", "description", "unit_price", "quantity", "unit", "amount")),
    "euro": (("line_no", "code", "description", "quantity", "unit", "unit_price", "vat_rate", "amount"),
             ("line_no", "quantity", "unit", "code", "description", "unit_price", "discount", "amount")),
    "desk": (("quantity", "code", "description", "unit_price", "amount"),
             ("code", "quantity", "description", "unit_price", "discount", "amount", "line_tax"),
             ("code", "description", "quantity", "unit", "unit_price", "amount")),
    "shop": (("description", "code", "quantity", "unit_price", "vat_rate", "amount", "gross"),
             ("line_no", "code", "description", "unit_price", "quantity", "line_tax", "amount")),
    "bill": (("description", "code", "quantity", "unit_price", "amount"),
             ("code", "description", "quantity", "unit", "unit_price", "vat_rate", "amount")),
    "office": (("code", "description", "quantity", "unit_price", "amount"),
               ("line_no", "quantity", "description", "code", "unit_price", "discount", "amount")),
}
OPTIONAL = {"discount": 0.35, "line_tax": 0.5, "gross": 0.5, "unit": 0.6, "vat_rate": 0.6, "line_no": 0.7}
# ^ how often each is kept; dropped in this order while the description would be too narrow


@dataclass(frozen=True)
class HeldCLayout(Layout):
    """A held-c layout: the family's faces, numbers, money, dates and labels."""

    @property
    def fonts(self) -> tuple[str, str]:
        return FACES[self.font]

    def _digits(self, value: Decimal, places: int, group: bool = True) -> str:
        text = f"{abs(value):,.{places}f}".replace(",", "\0").replace(".", self.decimal)
        return text.replace("\0", self.thousands if group else "")

    def _signed(self, value: Decimal, text: str) -> str:
        return text if value >= 0 else f"{text}-" if self.negative == "trail" else f"-{text}"

    def number(self, value: Decimal, places: int = 2) -> str:
        return self._signed(value, self._digits(value, places))

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount as printed in the totals, or in the table (``lines``: the mark only if it marks the lines)."""
        text, neg, mark = self._digits(value, 2), value < 0, self.mark if not lines or self.mark_lines else ""
        sign, tail = ("-" if neg and self.negative == "lead" else ""), ("-" if neg and self.negative == "trail" else "")
        if not mark:
            body = f"{sign}{text}{tail}"
        elif self.mark_place == "before":
            body = f"{sign}{mark}{text}{tail}" if len(mark) == 1 else f"{mark} {sign}{text}{tail}"
        else:
            body = f"{sign}{text}{tail} {mark}"
        return f"({body})" if neg and self.negative == "paren" else f"{body} CR" if neg and self.negative == "cr" \
            else body

    def quantity(self, value: Decimal) -> str:
        return self._signed(value, self._digits(value, self.extra["qty_places"], self.extra["group_quantity"]))

    def date(self, value: dt.date) -> str:
        month = MONTHS[value.month - 1]
        return DATES[self.date_style].format(d=value.day, dd=f"{value.day:02d}", mm=f"{value.month:02d}",
                                             Y=value.year, yy=f"{value.year % 100:02d}", Month=month, Mon=month[:3],
                                             MON=month[:3].upper())

    def rate(self) -> str:
        pct, form = self.tax_rate * 100, self.extra["rate_form"]
        return f"{pct:.0f}%" if form == 0 else f"{pct:.0f} %" if form == 1 else f"{self.number(pct)}%"

    def label(self, name: str, credit: bool = False) -> str:
        if name == "invoice_number" and credit:
            name = "credit_number"
        text = self.labels[name]
        if name == "tax":
            text = self.extra["tax_form"].format(label=text, rate=self.rate())
        elif name == "total" and self.extra["code_at"] == "label":
            text = self.extra["code_form"].format(label=text, code=self.currency)
        elif name == "invoice_date":
            text += DATE_HINTS.get(self.date_style, "")
        return text + self.colon

def held_c_vocabulary() -> set[str]:
    """Every title, label and heading wording the family can print (lower case)."""
    words = {w for house in HOUSES.values() for key, ws in house.items() if not key.startswith("carry") for w in ws}
    return {w.lower() for w in words | {w for cols in BREAKDOWN_COLS for w in cols} | {CURRENCY_WORD}}

def _width(lay: HeldCLayout, key: str, heading: str) -> float:
    regular, bold = lay.fonts
    samples = {"code": "15056BL", "quantity": lay.quantity(Decimal("-9999")), "line_no": _line_no(lay, 591),
               "unit": lay.extra["unit"], "vat_rate": lay.rate() if lay.tax_rate else "",
               "discount": lay.number(Decimal(0)) + "%",
               "unit_price": lay.money(Decimal("-999.99"), lines=True),
               "amount": lay.money(Decimal("-99999.99"), lines=lay.totals_place != "cells"),
               "gross": lay.money(Decimal("-9999.99"), lines=True), "line_tax": lay.money(Decimal("-999.99"), True)}
    printed = heading_text(lay, key, heading)
    parts = printed.split(" ", 1) if lay.extra["stacked"] and " " in heading else [printed]
    return max(stringWidth(samples[key], regular, lay.size), *(stringWidth(p, bold, lay.size) for p in parts)) + \
        lay.size * 1.2

def _columns(lay: HeldCLayout, order: list[str], headings: dict[str, str], narrow: bool) -> tuple[Column, ...]:
    """Every column as wide as its heading or widest value, the description the rest; optional columns are
    dropped while the description would be too narrow for the records' longest word."""
    table = lay.page[0] - 2 * lay.margin
    least = max(stringWidth('CHARLIE+LOLA"EXTREMELY', lay.fonts[0], lay.size) + lay.size * 1.2, table * 0.28)
    while True:
        widths = {k: _width(lay, k, headings[k]) for k in order if k != "description"}
        rest = table - sum(widths.values())
        drop = next((k for k in OPTIONAL if k in order), None)
        if rest >= least or drop is None:
            break
        order = [k for k in order if k != drop]
    if narrow and rest * 0.6 >= least:  # the description gives some of its room to the other columns
        widths = {k: w + rest * 0.4 / len(widths) for k, w in widths.items()}
        rest *= 0.6
    widths["description"] = rest
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)

def held_c_layout(seed: int) -> HeldCLayout:
    """The held-c layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"held-c:{seed}")
    pick = rng.choice
    house = pick(tuple(HOUSES))
    words = HOUSES[house]
    headers, totals, tables, fonts, currencies, negatives, dates, feet = STYLE[house]
    currency = pick(currencies)
    seller = pick(REGIONS[currency])
    taxed = currency != "USD" and rng.random() < 0.6

    def choose(key: str) -> str:  # an untaxed invoice names no tax where the house has another wording
        return pick([w for w in words[key] if taxed or not {"VAT", "TAX"} & set(w.upper().split())] or words[key])

    labels = {k: choose(k) for k in ("invoice_number", "credit_number", "invoice_date", "customer_id", "country",
                                     "subtotal", "bill_to")}
    labels.update(total=choose("total" if taxed else "total_free"), currency=CURRENCY_WORD)
    if taxed:
        labels["tax"] = choose("tax")
    extras = [k for k in EXTRAS if k in words and rng.random() < 0.5]
    labels.update({k: choose(k) for k in (*extras, "ship_to", "slip", "enclosed", "summary", "items", "breakdown",
                                          "customer") if k in words})
    font = pick(fonts)
    mark = pick((MARKS[currency], currency, ""))
    carry = "carry" in words and rng.random() < 0.6
    carry_k = rng.randrange(len(words.get("carry", ("",))))
    extra = {
        "house": house, "table": pick(tables), "accent": pick(FORMATS["accents"]), "extras": tuple(extras),
        "qty_places": 2 if house in ("erp", "desk") and rng.random() < 0.4 else 0,
        "group_quantity": rng.random() < 0.5, "rate_form": rng.randrange(3), "tax_form": pick(FORMATS["tax_form"]),
        "code_at": "money" if mark == currency else pick(("field", "label", "heading", "note")),
        "code_form": pick(FORMATS["code_form"]), "note": pick(FORMATS["note"]),
        "stacked": house in ("erp", "desk") and rng.random() < 0.4, "caps_headings": rng.random() < 0.3,
        "country_in": pick(("address", "field")), "ship": "ship_to" in words and rng.random() < 0.4,
        "slip": "slip" in words and rng.random() < 0.5, "carry": carry,
        "carry_in": words["carry_in"][carry_k] if carry else "", "buyer": pick(BUYERS), "walk_in": pick(WALK_IN),
        "line_no": pick(("plain", "tens", "padded")), "unit": pick(("pcs", "EA", "each", "PCE", "PC")),
        "terms": pick(FORMATS["terms"]), "due_days": pick((14, 30, 30, 60)), "order_base": rng.randint(10000, 89999),
        "order_form": pick(("PO-{n}", "4500{n}", "#{n}", "{n}")), "rep": pick(("JW", "AK", "MT", "SLB")),
        "via": pick(("UPS Ground", "Royal Mail Tracked 48", "DHL Express", "DPD Next Day", "FCA Leeds")),
        "method": pick(("Credit card", "PayPal", "Bank transfer")), "place": pick(PLACES["United Kingdom"]),
        "footer": pick(feet), "page_at": pick(("foot-right", "foot-centre", "top-right")),
        "salutation": rng.random() < 0.4, "meta": pick(("beside", "above")), "subject_number": rng.random() < 0.5,
        "breakdown_cols": pick(BREAKDOWN_COLS), "delivery_days": pick((0, 1, 2)),
        "phone": f"{rng.randint(100, 999)} {rng.randint(1000, 9999)}", "tax_id": rng.randint(100000000, 999999999),
        "reg": rng.randint(1000000, 9999999), "bank": rng.randint(10000000, 99999999),
        "sort": f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}"}
    thousands, decimal = pick(NUMBERS[currency])
    lay = HeldCLayout(
        family="held-c", seed=seed, style="held-c", font=font,
        size=pick((7.5, 8.0) if font == "Courier" else (8.0, 8.5, 9.0, 9.5)), page=PAGES[pick(("A4", "Letter"))],
        margin=pick((36.0, 42.0, 48.0)), title=choose("title"), credit_title=choose("credit_title"), labels=labels,
        colon=pick((":", "")) if house not in ("desk", "bill") else "", columns=(), date_style=pick(dates),
        thousands=thousands, decimal=decimal, currency=currency, mark=mark,
        mark_place="before" if mark == MARKS[currency] and currency != "EUR" else pick(("before", "after")),
        mark_lines=bool(mark) and rng.random() < 0.4, negative=pick(negatives),
        tax_rate=Decimal(SELLER_COUNTRY.get(seller[-1], ("", "0.20"))[1]) if taxed else None,
        ruled=rng.random() < 0.6, zebra=False, header_place=pick(headers), totals_place=pick(totals), two_row=False,
        seller=seller, page_label=pick(FORMATS["page_label"]),
        continued=words["carry"][carry_k] if carry else pick(FORMATS["continued"]),
        running=pick(FORMATS["running"]), currency_note=None, extra=extra)
    caps = house in ("office", "erp") and rng.random() < 0.4
    if caps:
        lay = replace(lay, labels={k: v.upper() for k, v in labels.items()}, title=lay.title.upper(),
                      credit_title=lay.credit_title.upper())
    order = [k for k in pick(ORDERS[house]) if k not in OPTIONAL or (
        rng.random() < OPTIONAL[k] and k in words and (taxed or k not in ("vat_rate", "line_tax", "gross")))]
    headings = {k: choose(k) for k in order}
    if extra["caps_headings"] or caps:
        headings = {k: v.upper() for k, v in headings.items()}
    return replace(lay, columns=_columns(lay, order, headings, rng.random() < 0.25))

# ----------------------------------------------------------------------------------------------------------------
# What is printed.
# ----------------------------------------------------------------------------------------------------------------
def title_of(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title

def heading_text(lay: Layout, key: str, heading: str) -> str:
    """A column heading as printed: the amount's names the currency where the layout states it there."""
    if key == "amount" and lay.extra["code_at"] == "heading":
        return lay.extra["code_form"].format(label=heading, code=lay.currency)
    return heading

def _line_no(lay: Layout, index: int) -> str:
    form = lay.extra["line_no"]
    return str(index + 1) if form == "plain" else str((index + 1) * 10) if form == "tens" else f"{index + 1:04d}"

def header_pairs(inv: Invoice, lay: HeldCLayout) -> list[tuple[str, str]]:
    """The header's (label, value) pairs: number, date, customer, country (unless the address carries it), the
    currency (where a field names it), and the layout's extra references (a credit note has no due date or terms)."""
    e, d = lay.extra, inv.date
    out = [(lay.label("invoice_number", inv.is_credit), inv.number), (lay.label("invoice_date"), lay.date(d))]
    if inv.customer is not None:
        out.insert(1 + lay.seed % 2, (lay.label("customer_id"), inv.customer))
    if e["country_in"] == "field":
        out.append((lay.label("country"), inv.country))
    if e["code_at"] == "field":
        out.append((lay.label("currency"), lay.currency))
    values = {"due": lay.date(d + dt.timedelta(days=e["due_days"])), "terms": e["terms"], "rep": e["rep"],
              "order": e["order_form"].format(n=e["order_base"] + int(inv.number.lstrip("C")) % 8999),
              "via": e["via"], "method": e["method"], "delivery": lay.date(d - dt.timedelta(days=e["delivery_days"])),
              "period": f"{lay.date(d - dt.timedelta(days=30))} to {lay.date(d - dt.timedelta(days=1))}",
              "vat_id": BUYER_TAX_IDS.get(inv.country, "")}
    return out + [(lay.label(k), values[k]) for k in e["extras"]
                  if values[k] and not (inv.is_credit and k in ("due", "terms"))]

def address_lines(inv: Invoice, lay: HeldCLayout) -> list[str]:
    """The buyer's address; its last line is the invoice's country when the layout prints it there."""
    street, town = lay.extra["place"] if inv.country == "United Kingdom" else PLACES.get(inv.country, PLACES[""])[0]
    name = lay.extra["buyer"] if inv.customer is not None else lay.extra["walk_in"]
    return [name, street, town] + ([inv.country] if lay.extra["country_in"] == "address" else [])

def seller_lines(lay: HeldCLayout) -> list[str]:
    """The seller's address, telephone, e-mail and (when it charges tax) tax number, without its name."""
    names = lay.seller[0].split()
    domain = "".join(c for c in "".join(names[:2] if len(names[0]) < 4 else names[:1]) if c.isalnum()).lower()
    code = SELLER_COUNTRY.get(lay.seller[-1], ("", "", 44 if lay.currency == "GBP" else 1))[2]
    lines = [*lay.seller[1:], f"Tel. +{code} {lay.extra['phone']}", f"accounts@{domain}.example"]
    return lines + ([f"VAT Reg. No. {tax_id(lay)}"] if lay.tax_rate is not None else [])

def tax_id(lay: HeldCLayout) -> str:
    prefix = SELLER_COUNTRY.get(lay.seller[-1], ("GB",))[0]
    return f"{prefix}{lay.extra['tax_id']}" + ("B01" if prefix == "NL" else "")

def bank_lines(lay: HeldCLayout) -> list[str]:
    e = lay.extra
    if lay.currency == "GBP":
        return [f"Sort code {e['sort']}", f"Account {e['bank']}"]
    if lay.currency == "USD":
        return [f"ABA routing 0{e['reg']}1", f"Account {e['bank']}"]
    digits, prefix = f"{e['reg']:07d}{e['bank']:08d}", tax_id(lay)[:2]
    iban = " ".join(digits[k:k + 4] for k in range(0, len(digits), 4))
    return [f"IBAN {prefix}{e['bank'] % 89 + 10} {iban}", f"BIC {''.join(filter(str.isalpha, lay.seller[0]))[:4]}"
                                                            f"{prefix}2X".upper()]

def totals_pairs(inv: Invoice, lay: HeldCLayout) -> list[tuple[str, str]]:
    rows = [(lay.label("subtotal"), lay.money(inv.subtotal))]
    if lay.tax_rate is not None:
        rows.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate))))
    return rows + [(lay.label("total"), lay.money(inv.total(lay.tax_rate)))]

def notes(inv: Invoice, lay: HeldCLayout) -> list[str]:
    """The lines printed after the totals: the currency note, a tax note, payment and ownership of the goods."""
    out = [lay.extra["note"].format(code=lay.currency)] if lay.extra["code_at"] == "note" else []
    if lay.tax_rate is None and lay.currency == "EUR":
        out.append("Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC).")
    if inv.is_credit:
        return out + ["This amount will be credited to your account."]
    out.append(f"Please pay by bank transfer to {lay.seller[0]}, {', '.join(bank_lines(lay))}.")
    return out + (["The goods remain our property until paid in full."] if lay.extra["house"] in ("euro", "erp")
                  else [])

def cell_text(key: str, index: int, line, width: float, lay: HeldCLayout, pen: Pen) -> list[str]:
    """A line's value in column ``key`` as printed; codes and descriptions wrapped at spaces to ``width``."""
    if key in ("code", "description"):
        return wrap(getattr(line, key) or "", width, pen)
    rate = lay.tax_rate or Decimal("0")
    texts = {"quantity": lambda: lay.quantity(line.quantity), "line_no": lambda: _line_no(lay, index),
             "unit": lambda: lay.extra["unit"], "vat_rate": lay.rate, "discount": lambda: lay.number(Decimal(0)) + "%",
             "line_tax": lambda: lay.money(cents(line.amount * rate), lines=True),
             "gross": lambda: lay.money(line.amount + cents(line.amount * rate), lines=True)}
    return [texts[key]() if key in texts else lay.money(getattr(line, key), lines=True)]
