"""HELD-ASIDE FAMILY "held-e": a fifth held-aside family, written apart from the reader and without reference to it;
not to be read while developing the reader (nor its companion modules ``evaluation.invoice_held_e_*``, its
generated files or its per-file scores): it measures how the reader does on layouts it was not made for.

:func:`held_e_layout` draws a :class:`HeldELayout` (a :class:`evaluation.invoice_layouts.Layout`) from a seed, and
:func:`held_e_vocabulary` gives every title, label and heading wording the family can print. The pages are drawn
by :mod:`evaluation.invoice_held_e_draw`.

>>> a = held_e_layout(3)
>>> a == held_e_layout(3), a.family, a.style
(True, 'held-e', 'held-e')
>>> held_e_vocabulary() >= a.wordings()
True
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import random
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_held_e_words import (COMMON, DATES, MONTHS, NOTES, PLANS, RATES, SELLERS, SYSTEMS, UNITS,
                                             WEEKDAYS)
from evaluation.invoice_layouts import PAGES, Column, Layout

__all__ = ["FACES", "HeldELayout", "held_e_layout", "held_e_vocabulary", "sample"]


def _ttf_dir() -> Path | None:
    """Where matplotlib keeps its DejaVu faces, found without importing it."""
    spec = importlib.util.find_spec("matplotlib")
    for root in (spec.submodule_search_locations or []) if spec else []:
        if (Path(root) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf").is_file():
            return Path(root) / "mpl-data" / "fonts" / "ttf"
    return None


# Faces: name -> (regular, bold). The TrueType ones come with matplotlib; Vera (with ReportLab) stands in.
FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Courier": ("Courier", "Courier-Bold"), "Sans": ("HE-Sans", "HE-Sans-Bold"),
         "Serif": ("HE-Serif", "HE-Serif-Bold"), "Mono": ("HE-Mono", "HE-Mono-Bold")}
_TTF = _ttf_dir()
for _name, _file, _fallback in (("HE-Sans", "DejaVuSans.ttf", "Vera.ttf"),
                                ("HE-Sans-Bold", "DejaVuSans-Bold.ttf", "VeraBd.ttf"),
                                ("HE-Serif", "DejaVuSerif.ttf", "Vera.ttf"),
                                ("HE-Serif-Bold", "DejaVuSerif-Bold.ttf", "VeraBd.ttf"),
                                ("HE-Mono", "DejaVuSansMono.ttf", "Vera.ttf"),
                                ("HE-Mono-Bold", "DejaVuSansMono-Bold.ttf", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_name, str(_TTF / _file) if _TTF else _fallback))

SYMBOLS = {"GBP": "\u00a3", "EUR": "\u20ac", "USD": "$"}
# Optional columns: key -> (systems that may print it, how often it is kept); dropped in this order when the
# description would be too narrow.
OPTIONAL = {"backorder": 0.5, "ordered": 0.6, "line_tax": 0.4, "discount": 0.45, "vat_code": 0.5, "unit": 0.55,
            "vat_rate": 0.55, "line_no": 0.6}
TAXED_ONLY = ("line_tax", "vat_rate", "vat_code")
ORDERS = {
    "desk": (("code", "description", "quantity", "unit_price", "amount"),
             ("quantity", "code", "description", "unit_price", "amount"),
             ("ordered", "quantity", "backorder", "code", "description", "unit", "unit_price", "amount", "vat_code")),
    "online": (("line_no", "description", "quantity", "unit_price", "discount", "amount"),
               ("description", "unit_price", "quantity", "amount"), ("code", "description", "quantity",
                                                                     "unit_price", "amount")),
    "cloud": (("code", "description", "quantity", "unit_price", "discount", "vat_rate", "amount"),
              ("description", "quantity", "unit_price", "vat_rate", "line_tax", "amount")),
    "accounts": (("quantity", "code", "description", "unit_price", "discount", "amount", "vat_code", "line_tax"),
                 ("code", "description", "quantity", "unit", "unit_price", "vat_rate", "amount")),
    "suite": (("line_no", "code", "description", "quantity", "unit", "unit_price", "discount", "vat_code",
               "amount"),
              ("line_no", "description", "quantity", "unit", "unit_price", "vat_rate", "amount"),
              ("code", "description", "unit_price", "quantity", "discount", "amount")),
    "template": (("code", "description", "quantity", "unit_price", "amount"),
                 ("quantity", "description", "code", "unit_price", "amount"),
                 ("description", "code", "unit_price", "quantity", "amount")),
    "matrix": (("line_no", "code", "description", "ordered", "quantity", "backorder", "unit", "unit_price",
                "amount"),
               ("code", "quantity", "unit", "description", "unit_price", "amount")),
    "wide": (("line_no", "code", "description", "unit", "ordered", "quantity", "backorder", "unit_price", "discount",
              "amount", "vat_code"),
             ("code", "description", "quantity", "unit_price", "discount", "vat_rate", "amount")),
}
# The longest words of the records' descriptions and codes, for the narrowest column that holds them.
LONGEST_WORD = 'CHARLIE+LOLA"EXTREMELY'


@dataclass(frozen=True)
class HeldELayout(Layout):
    """A held-e layout: the family's faces, and how it prints numbers, money, prices, quantities and dates."""

    @property
    def fonts(self) -> tuple[str, str]:
        return FACES[self.font]

    def number(self, value: Decimal, places: int = 2, group: bool = True, sign: str | None = None) -> str:
        """A number in the layout's grouping, decimal mark and sign style (or ``sign``)."""
        whole, _, part = f"{abs(value):.{places}f}".partition(".")
        whole = f"{int(whole):,}".replace(",", self.thousands if group else "")
        text = whole + (self.decimal + part if places else "")
        return text if value >= 0 else self._sign(text, sign or self.negative)

    @staticmethod
    def _sign(text: str, style: str) -> str:
        return {"minus": f"-{text}", "paren": f"({text})", "trail": f"{text}-", "cr": f"{text} CR",
                "cr-lower": f"{text} Cr"}[style]

    def _marked(self, value: Decimal, text: str) -> str:
        """``text`` (the digits of ``value``, signed) with the currency mark where the layout puts it."""
        if self.mark_place == "after":
            return f"{text} {self.mark}"
        gap = "" if len(self.mark) == 1 else " "
        if self.negative == "minus" and value < 0 and not self.extra["sign_inside"] and not gap:
            return f"-{self.mark}{gap}{text[1:]}"
        return f"{self.mark}{gap}{text}"

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount as printed in the totals, or in the table (``lines``: with the mark only if the lines carry
        it)."""
        text = self.number(value)
        if not self.mark or (lines and not self.mark_lines):
            return text
        return self._marked(value, text)

    def price(self, value: Decimal) -> str:
        """A unit price as printed in the table: the layout's places, more where the price needs them."""
        places = max(self.extra["price_places"], -value.normalize().as_tuple().exponent)
        text = self.number(value, places)
        return self._marked(value, text) if self.mark and self.mark_lines else text

    def quantity(self, value: Decimal) -> str:
        places = max(self.extra["qty_places"], -value.normalize().as_tuple().exponent)
        sign = "minus" if self.negative in ("cr", "cr-lower") else self.negative
        return self.number(value, places, self.extra["qty_group"], sign)

    def date(self, value: dt.date) -> str:
        month = MONTHS[value.month - 1]
        return DATES[self.date_style][0].format(
            d=value.day, dd=f"{value.day:02d}", mm=f"{value.month:02d}", Y=value.year, yy=f"{value.year % 100:02d}",
            Month=month, Mon=month[:3], MON=month[:3].upper(), Day=WEEKDAYS[value.weekday()][:3])

    def rate(self) -> str:
        """The tax rate as printed (17.5%, 19 %, 9.25%)."""
        pct = ((self.tax_rate or Decimal(0)) * 100).normalize()
        text = f"{pct:f}".replace(".", self.decimal)
        return text + (" %" if self.extra["rate_gap"] else "%")

    def label(self, name: str, credit: bool = False) -> str:
        """A label as printed, with the layout's colon; the date's carries its form's hint, the tax its rate where
        the layout names it there, the total the currency where the layout states it there."""
        if credit and f"credit_{name if name != 'invoice_number' else 'number'}" in self.labels:
            name = "credit_number" if name == "invoice_number" else f"credit_{name}"
        text = self.labels[name]
        if name == "invoice_date" and DATES[self.date_style][2]:
            text = f"{text} {DATES[self.date_style][2]}"
        elif name == "tax" and self.extra["rate_in_label"]:
            text = f"{text} {self.rate()}"
        elif name in ("total", "credit_total") and self.extra["code_at"] == "total":
            text = f"{text} {self.currency}" if self.extra["system"] in ("cloud", "matrix") else \
                f"{text} ({self.currency})"
        return text if text.endswith(":") else text + self.colon

    def heading(self, key: str) -> str:
        """A column heading as printed: the amount's may name the currency."""
        heading = next(c.heading for c in self.columns if c.key == key)
        if key == "amount" and self.extra["code_at"] == "heading":
            return f"{heading} ({self.currency})" if self.extra["system"] != "cloud" else \
                f"{heading} {self.currency}"
        return heading

    def upper(self, text: str) -> str:
        return text.upper() if self.extra["caps"] else text


def _upper(form: str) -> str:
    """A format string in capitals, its fields' names kept."""
    return form.upper().replace("{N}", "{n}").replace("{M}", "{m}").replace("{NEXT}", "{next}")


def held_e_vocabulary() -> set[str]:
    """Every title, label and heading wording the family can print (lower case)."""
    words = {w for system in SYSTEMS.values() for ws in system.values() for w in ws}
    common = {w for k in ("page", "currency", "country", "vat_reg") for w in COMMON[k]}
    return {w.lower() for w in words | common}


def sample(lay: HeldELayout, key: str) -> str:
    """The widest value column ``key`` can print in ``lay``."""
    big, price = Decimal("-99999.99"), Decimal("-1999.995")
    return {"code": "15056BL", "quantity": lay.quantity(Decimal("-19360")), "ordered": lay.quantity(
        Decimal("-19360")), "backorder": lay.quantity(Decimal("0")), "line_no": "5920", "unit": lay.extra["unit"],
        "vat_rate": lay.rate(), "vat_code": lay.extra["vat_code"], "discount": lay.extra["discount"],
        "unit_price": lay.price(price), "amount": lay.money(big, lines=True),
        "line_tax": lay.money(Decimal("-9999.99"), lines=True)}[key]


def _columns(lay: HeldELayout, order: list[str], headings: dict[str, str]) -> HeldELayout:
    """The layout with its columns: each as wide as its widest value or the longest word of its heading (a heading
    wraps onto more lines), the description the rest; optional columns go while the description is too narrow."""
    regular, bold = lay.fonts
    pad = lay.size * 1.1
    table = lay.extra["x1"] - lay.extra["x0"]
    least = max(stringWidth(LONGEST_WORD, regular, lay.size) + pad, table * 0.25)
    while True:
        widths = {}
        for k in order:
            if k == "description":
                continue
            printed = lay.upper(headings[k]) + (" (" + lay.currency + ")" if k == "amount" else "")
            words = max(stringWidth(w, bold, lay.size) for w in printed.split())
            widths[k] = max(stringWidth(sample(lay, k), regular, lay.size), words) + pad
        rest = table - sum(widths.values())
        drop = next((k for k in OPTIONAL if k in order), None)
        if rest >= least or drop is None:
            break
        order = [k for k in order if k != drop]
    widths["description"] = rest
    return replace(lay, columns=tuple(Column(k, headings[k], round(widths[k], 2)) for k in order))


def held_e_layout(seed: int) -> HeldELayout:
    """The held-e layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"held-e:{seed}")
    pick = rng.choice
    system = pick(tuple(SYSTEMS))
    words = SYSTEMS[system]
    headers, totals, tables, placements, fonts, page_labels = PLANS[system]
    currency = pick(("GBP", "GBP", "EUR", "EUR", "USD"))
    seller = pick(SELLERS[currency])
    rates = RATES[seller[3]]
    rate = pick(rates) if isinstance(rates, tuple) else rates
    taxed = rng.random() < 0.7
    caps = system == "matrix" or (system in ("wide", "desk") and rng.random() < 0.25)
    labels = {k: pick(v) for k, v in words.items() if k not in ("title", "credit_title", "item", *OPTIONAL, *ORDERS[
        "template"][0])}
    if not taxed:
        labels.pop("tax")
    for key in ("currency", "country", "vat_reg"):
        labels.setdefault(key, COMMON[key][0])
    size = pick((8.0, 8.5, 9.0) if system in ("matrix", "wide") else (8.0, 8.5, 9.0, 9.5, 10.0))
    paper = pick(("A4", "Letter")) if currency != "USD" else "Letter"
    page = PAGES[paper] if system != "wide" else PAGES[paper][::-1]
    margin = pick((32.0, 36.0, 42.0, 50.0))
    numbers = {"GBP": ((",", "."), (",", "."), ("", ".")), "USD": ((",", "."),),
               "EUR": ((".", ","), (" ", ","), (",", "."), ("'", "."), ("", ","))}[currency]
    thousands, decimal = pick(numbers)
    mark = pick((SYMBOLS[currency], SYMBOLS[currency], currency, ""))
    code_at = "mark" if mark == currency else pick(("field", "total", "heading", "note"))
    negative = pick(("minus", "minus", "paren", "trail", "cr", "cr-lower")) if system in ("matrix", "wide", "desk",
                                                                                           "accounts") else \
        pick(("minus", "minus", "paren"))
    date_style = pick(tuple(DATES)) if system != "matrix" else pick(("ddmonyyyy", "dd-mon-yy", "dot", "iso",
                                                                     "dmy-slash"))
    if date_style == "mdy-slash" and currency != "USD":
        date_style = "dmy-slash"
    extra = {
        "system": system, "header": pick(headers), "totals": pick(totals), "table": pick(tables),
        "code_at": code_at, "code_place": pick(placements), "caps": caps, "seller_country": seller[3],
        "sign_inside": rng.random() < 0.3, "price_places": pick((2, 2, 3, 4)) if system in ("suite", "matrix",
                                                                                             "wide") else 2,
        "qty_places": pick((0, 0, 2, 3)) if system in ("suite", "accounts", "wide") else 0,
        "qty_group": rng.random() < 0.6, "rate_gap": rng.random() < 0.3, "rate_in_label": rng.random() < 0.6,
        "unit": pick(UNITS.get(system, ("ea",))), "vat_code": {"accounts": "T1", "suite": "S20", "wide": "S",
                                                               "cloud": "20%"}.get(system, "T"),
        "discount": pick(("0.00", "0%", "-", "0")), "accent": pick(((0.12, 0.23, 0.42), (0.55, 0.12, 0.16),
                                                                    (0.10, 0.40, 0.36), (0.20, 0.20, 0.20),
                                                                    (0.42, 0.22, 0.55), (0.75, 0.40, 0.05))),
        "phone": f"{seller[4]} {rng.randint(200, 989)} {rng.randint(1000, 9999)}", "buyer": rng.randrange(10 ** 6),
        "due_days": pick((7, 14, 15, 28, 30, 60)), "terms": pick(NOTES["terms"]), "ship": pick(NOTES["ship"]),
        "order": f"{pick(('PO', 'SO', 'ORD', ''))}{rng.randint(10000, 99999)}", "rep": pick(("JT", "MK", "DS", "AH")),
        "bank": pick(NOTES["bank"][currency]), "reg": rng.randint(1000000, 9999999), "vat_no": rng.randint(100000000,
                                                                                                 999999999),
        "thanks": pick(COMMON["thanks"]), "continued": pick(COMMON["continued"]), "page_at": pick(("foot", "head")),
        "ship_block": rng.random() < 0.5, "country_field": system in ("suite", "matrix", "wide") or
        rng.random() < 0.25, "rules": rng.random() < 0.6, "shade": pick((0.93, 0.88, 0.96)),
        "wrapped": True, "currency_note": pick(NOTES["currency"]), "reg_note": pick(NOTES["reg"][seller[3]]),
        "x0": margin, "x1": page[0] - margin, "title_size": pick((1.8, 2.2, 2.8)),
    }
    lay = HeldELayout(
        family="held-e", seed=seed, style="held-e", font=pick(fonts), size=size, page=page, margin=margin,
        title=pick(words["title"]), credit_title=pick(words["credit_title"]), labels=labels,
        colon=pick((":", "")) if system in ("matrix", "template", "wide", "suite") else "", columns=(),
        date_style=date_style, thousands=thousands, decimal=decimal, currency=currency, mark=mark,
        mark_place="after" if mark and decimal == "," and rng.random() < 0.7 else "before",
        mark_lines=bool(mark) and rng.random() < 0.3, negative=negative,
        tax_rate=Decimal(rate) if taxed else None, ruled=extra["rules"], zebra=extra["table"] == "zebra",
        header_place=extra["header"], totals_place=extra["totals"], two_row=extra["code_place"] == "above",
        seller=seller[:4], page_label=pick(page_labels), continued=extra["continued"], running="",
        currency_note=None, extra=extra)
    if caps:
        lay = replace(lay, labels={k: v.upper() for k, v in labels.items()}, title=lay.title.upper(),
                      credit_title=lay.credit_title.upper(), page_label=_upper(lay.page_label),
                      continued=_upper(lay.continued))
    order = [k for k in pick(ORDERS[system]) if k not in OPTIONAL or (
        rng.random() < OPTIONAL[k] and (taxed or k not in TAXED_ONLY))]
    if extra["code_place"] != "column":
        order = [k for k in order if k != "code"]
    elif "code" not in order:
        order.insert(order.index("description"), "code")
    headings = {k: pick(words[k]) for k in order}
    if extra["code_place"] != "column":
        headings["description"] = pick(words.get("item", words["description"]))
    if caps:
        headings = {k: v.upper() for k, v in headings.items()}
    return _columns(lay, order, headings)
