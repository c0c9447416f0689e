"""HELD-ASIDE FAMILY "held-g", written apart from the reader: its layouts (:func:`held_g_layout`) and wordings
(:func:`held_g_vocabulary`); drawn by :mod:`evaluation.invoice_held_g_draw`. Not to be read while developing the
invoice reader (nor its companion modules ``evaluation.invoice_held_g_*``, its generated files or its per-file
scores): it measures how the reader does on layouts it was not made for.

The family imitates invoices that continental European wholesalers', manufacturers' and logistics firms' ERP
systems print for export customers. A :class:`HeldGLayout` fixes the system imitated (``extra["erp"]``), its header,
table and totals arrangement, the columns, the wordings (:mod:`evaluation.invoice_held_g_words`), the number, date
and currency forms, the faces and the page.

>>> a = held_g_layout(3)
>>> a == held_g_layout(3), a.family, a.style
(True, 'held-g', 'held-g')
>>> held_g_vocabulary() >= a.wordings()
True
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_held_g_words import (CONTINUED, DATES, MONTHS, NOTES, PAGE_LABELS, RUNNING, SELLERS, UNITS,
                                             WORDS)
from evaluation.invoice_layouts import PAGES, Column, Layout

__all__ = ["FACES", "HeldGLayout", "ean", "held_g_layout", "held_g_vocabulary", "sample"]


def _face_file(name: str) -> str:
    """A DejaVu face from the system's fonts when there, else ReportLab's own Vera."""
    for folder in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF"):
        if (Path(folder) / name).is_file():
            return str(Path(folder) / name)
    fallback = "VeraBd.ttf" if "Bold" in name else "Vera.ttf"
    for folder in rl_config.TTFSearchPath:
        if (Path(folder) / fallback).is_file():
            return str(Path(folder) / fallback)
    return fallback


# Faces: name -> (regular, bold).
FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Courier": ("Courier", "Courier-Bold"), "Condensed": ("HG-Cond", "HG-Cond-Bold"),
         "Sans": ("HG-Sans", "HG-Sans-Bold"), "SerifCond": ("HG-SerifCond", "HG-SerifCond-Bold")}
for _name, _file in (("HG-Cond", "DejaVuSansCondensed.ttf"), ("HG-Cond-Bold", "DejaVuSansCondensed-Bold.ttf"),
                     ("HG-Sans", "DejaVuSans.ttf"), ("HG-Sans-Bold", "DejaVuSans-Bold.ttf"),
                     ("HG-SerifCond", "DejaVuSerifCondensed.ttf"),
                     ("HG-SerifCond-Bold", "DejaVuSerifCondensed-Bold.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_name, _face_file(_file)))

SYMBOLS = {"EUR": "\u20ac", "GBP": "\u00a3", "USD": "$", "SEK": "kr", "DKK": "kr."}
# The systems imitated: header arrangement, totals, table styles, faces, and the column orders they print.
ERPS = {
    "din": {"head": ("window",), "totals": ("stack", "vatgrid"), "table": ("rules", "band", "plain"),
            "faces": ("Helvetica", "Sans", "Condensed", "Times"), "foot": ("cols", "cols", "line"),
            "orders": (("line_no", "code", "description", "quantity", "unit", "unit_price", "discount", "amount"),
                       ("line_no", "quantity", "unit", "code", "description", "unit_price", "amount"),
                       ("line_no", "code", "description", "quantity", "unit", "unit_price", "vat_rate", "amount"))},
    "nordic": {"head": ("grid",), "totals": ("stack", "band"), "table": ("band", "tint", "rules"),
               "faces": ("Helvetica", "Sans", "Condensed"), "foot": ("cols",),
               "orders": (("code", "description", "quantity", "unit", "unit_price", "discount", "amount"),
                          ("line_no", "code", "description", "quantity", "unit_price", "vat_rate", "amount"),
                          ("code", "description", "unit", "quantity", "unit_price", "amount"))},
    "export": {"head": ("banner",), "totals": ("band", "stack"), "table": ("grid", "band"),
               "faces": ("Helvetica", "Condensed", "Courier", "SerifCond"), "foot": ("line", "cols"),
               "orders": (("line_no", "code", "description", "hs_code", "origin", "quantity", "unit", "weight",
                           "unit_price", "amount"),
                          ("code", "ean", "description", "origin", "quantity", "unit_price", "amount"),
                          ("line_no", "code", "description", "quantity", "unit", "unit_price", "amount", "weight"))},
    "swiss": {"head": ("swiss",), "totals": ("stack", "vatgrid"), "table": ("rules", "plain", "tint"),
              "faces": ("Helvetica", "Sans", "Times"), "foot": ("line", "cols"),
              "orders": (("line_no", "code", "description", "quantity", "unit", "unit_price", "vat_rate", "amount"),
                         ("code", "description", "quantity", "unit_price", "discount", "amount"))},
    "polish": {"head": ("banner", "window"), "totals": ("vatgrid",), "table": ("grid",),
               "faces": ("Sans", "Condensed", "SerifCond"), "foot": ("line",),
               "orders": (("line_no", "description", "code", "unit", "quantity", "unit_price", "amount", "vat_rate",
                           "gross"),
                          ("line_no", "code", "description", "quantity", "unit", "unit_price", "vat_rate", "amount",
                           "gross"))},
    "wholesale": {"head": ("window", "grid"), "totals": ("stack", "band"), "table": ("plain", "rules", "tint"),
                  "faces": ("Courier", "Helvetica", "Condensed", "Times"), "foot": ("cols", "line"),
                  "orders": (("code", "ean", "description", "quantity", "unit", "unit_price", "discount", "amount"),
                             ("quantity", "unit", "code", "description", "unit_price", "amount"),
                             ("line_no", "code", "description", "quantity", "unit_price", "amount"))},
}
# Optional columns: key -> how often kept; dropped in this order when the description would be too narrow.
OPTIONAL = {"ean": 0.45, "hs_code": 0.6, "weight": 0.55, "origin": 0.55, "discount": 0.4, "gross": 0.7,
            "vat_rate": 0.5, "unit": 0.65, "line_no": 0.75}
TAXED_ONLY = ("vat_rate", "gross")
NUMERIC = ("line_no", "quantity", "unit_price", "discount", "vat_rate", "amount", "gross", "weight")
# The widest words of the records' descriptions and codes: no column may be narrower.
LONGEST_WORD, LONGEST_CODE = 'CHARLIE+LOLA"EXTREMELY', "15056BLM"
NUMBERS = {"EUR": ((".", ","), (".", ","), (" ", ","), ("", ","), (",", ".")), "CHF": (("'", "."), ("'", "."),
                                                                                     (" ", ".")),
           "SEK": ((" ", ","), (".", ",")), "DKK": ((".", ","), (" ", ",")), "PLN": ((" ", ","), ("", ",")),
           "GBP": ((",", "."), (".", ","), (" ", ",")), "USD": ((",", "."), (".", ","))}


@dataclass(frozen=True)
class HeldGLayout(Layout):
    """A held-g layout: the family's faces, and how it prints numbers, money, prices, quantities and dates."""

    @property
    def fonts(self) -> tuple[str, str]:
        return FACES[self.font]

    def number(self, value: Decimal, places: int = 2, group: bool = True) -> str:
        """``value`` in the layout's grouping, decimal mark and sign style.

        >>> lay = replace(held_g_layout(0), thousands=".", decimal=",", negative="trail")
        >>> lay.number(Decimal("-1234.5")), lay.number(Decimal("12"), 0)
        ('1.234,50-', '12')
        """
        whole, _, part = f"{abs(value):.{places}f}".partition(".")
        text = f"{int(whole):,}".replace(",", self.thousands if group else "") + (self.decimal + part if places else "")
        if value >= 0:
            return text
        return f"{text}-" if self.negative == "trail" else f"-{text}"

    def _marked(self, text: str) -> str:
        gap = "" if self.extra["tight"] and len(self.mark) == 1 else " "
        return f"{text}{gap}{self.mark}" if self.mark_place == "after" else f"{self.mark}{gap}{text}"

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount in the totals, or in the table (``lines``: with the mark only when the lines carry it)."""
        text = self.number(value)
        if self.mark_place not in ("before", "after") or (lines and not self.mark_lines):
            return text
        return self._marked(text)

    def price(self, value: Decimal) -> str:
        """A unit price in the table: the layout's places, more where the price needs them."""
        places = max(self.extra["price_places"], -value.normalize().as_tuple().exponent)
        text = self.number(value, places)
        return self._marked(text) if self.mark_place in ("before", "after") and self.mark_lines else text

    def quantity(self, value: Decimal) -> str:
        """A quantity: whole, or with the layout's decimals (grouped only then)."""
        places = self.extra["qty_places"]
        return self.number(value, places, group=places > 0)

    def date(self, value: dt.date) -> str:
        month = MONTHS[value.month - 1]
        return DATES[self.date_style][0].format(d=value.day, dd=f"{value.day:02d}", m=value.month,
                                                mm=f"{value.month:02d}", Y=value.year, Month=month, Mon=month[:3],
                                                MON=month[:3].upper())

    def rate(self) -> str:
        """The tax rate as printed (19 %, 8.1%, 25,00 %)."""
        pct = (self.tax_rate or Decimal(0)) * 100
        text = f"{pct:.{self.extra['rate_places']}f}" if self.extra["rate_places"] else f"{pct.normalize():f}"
        return text.replace(".", self.decimal) + (" %" if self.extra["rate_gap"] else "%")

    def label(self, name: str, credit: bool = False) -> str:
        """A label as printed with the layout's colon: a credit note's own where it has one, the tax's with its
        rate where the layout names it there, the total's with the currency code where the layout states it."""
        if credit and name in ("invoice_number", "total"):
            name = "credit_number" if name == "invoice_number" else "credit_total"
        text = self.labels[name]
        if name == "tax" and self.extra["rate_in_label"]:
            text = f"{text} {self.rate()}"
        elif name in ("total", "credit_total") and self.mark_place == "total":
            text = f"{text} {self.currency}" if self.extra["bare_code"] else f"{text} ({self.currency})"
        return text + self.colon

    def heading(self, key: str) -> str:
        """A column heading as printed: the amount's (and a price's) may name the currency."""
        text = next(c.heading for c in self.columns if c.key == key)
        if key in ("amount", "unit_price", "gross") and self.mark_place == "heading":
            text = f"{text} {self.currency}" if self.extra["bare_code"] else f"{text} ({self.currency})"
        return text

    def page_mark(self, n: int, m: int) -> str:
        """The page label of page ``n`` of ``m``."""
        return (self.page_label or "Page {n} of {m}").format(n=n, m=m)

    def word(self, key: str) -> str:
        """A wording of a header field that is not read, or of a block, as printed (no colon)."""
        return self.labels[key]


def held_g_vocabulary() -> set[str]:
    """Every title, label and heading wording the family can print (lower case)."""
    return {w.lower() for words in WORDS.values() for w in words}


def sample(lay: HeldGLayout, key: str) -> str:
    """The widest value column ``key`` can print in ``lay``."""
    return {"line_no": "0" * 6 if lay.extra["line_pad"] else str(592 * lay.extra["line_step"]),
            "code": LONGEST_CODE, "quantity": lay.quantity(Decimal("-19360")), "unit": "PCE",
            "unit_price": lay.price(Decimal("-1999.99")), "discount": lay.extra["discount"],
            "vat_rate": lay.rate(), "amount": lay.money(Decimal("-99999.99"), lines=True),
            "gross": lay.money(Decimal("-99999.99"), lines=True), "weight": lay.number(Decimal("-99999.999"), 3),
            "hs_code": "69120085", "origin": "CN", "ean": "5012345678900"}[key]


def _columns(lay: HeldGLayout, order: list[str], headings: dict[str, str]) -> HeldGLayout:
    """The layout with its columns: each as wide as its widest value or its heading's longest word (a heading wraps
    onto more lines), the description (or the code, when the description goes under it) the rest; optional
    columns go while that is too narrow, then the type gets smaller."""
    while True:
        regular, bold = lay.fonts
        pad = lay.size * 0.45
        table = lay.page[0] - 2 * lay.margin
        rest_key = "code" if lay.extra["item"] == "under" else "description"
        least = max(stringWidth(LONGEST_WORD, regular, lay.size) + 2 * pad, table * 0.2)
        widths = {}
        for k in order:
            if k == rest_key:
                continue
            printed = headings[k] + (f" ({lay.currency})" if k in ("amount", "unit_price", "gross") else "")
            words = max(stringWidth(w, bold, lay.size) for w in printed.split())
            widths[k] = max(stringWidth(sample(lay, k), regular, lay.size), words) + 2 * pad
        rest = table - sum(widths.values())
        if rest >= least:
            break
        drop = next((k for k in OPTIONAL if k in order), None)
        if drop is not None:
            order = [k for k in order if k != drop]
        elif lay.size > 6.5:
            lay = replace(lay, size=lay.size - 0.5)
        else:
            break
    widths[rest_key] = rest
    return replace(lay, columns=tuple(Column(k, headings[k], round(widths[k], 2)) for k in order))


def ean(code: str) -> str:
    """The 13-digit barcode number printed for a stock code, with its check digit.

    >>> len(ean("85123A")), ean("85123A") == ean("85123A")
    (13, True)
    """
    body = f"40{zlib.crc32(code.encode()) % 10 ** 10:010d}"
    check = (10 - sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(body)) % 10) % 10
    return body + str(check)


def held_g_layout(seed: int) -> HeldGLayout:
    """The held-g layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"held-g:{seed}")
    pick = rng.choice
    erp = pick(tuple(ERPS))
    plan = ERPS[erp]
    seller = pick(SELLERS if erp != "polish" else tuple(s for s in SELLERS if s["iso"] in ("PL", "DE", "AT")))
    if erp == "swiss" and rng.random() < 0.7:
        seller = next(s for s in SELLERS if s["iso"] == "CH")
    currency = pick(seller["currencies"])
    taxed = rng.random() < (0.85 if erp == "polish" else 0.6)
    thousands, decimal = pick(NUMBERS[currency])
    modes = ["field", "total", "heading", "code"] + (["symbol", "symbol"] if currency in ("EUR", "GBP", "USD") else
                                                     ["symbol-field"] if currency in ("SEK", "DKK") else ["code"])
    mode = pick(modes)
    mark = SYMBOLS[currency] if mode.startswith("symbol") else currency if mode == "code" else ""
    if mark:
        after = currency in ("SEK", "DKK", "PLN") or (decimal == "," and rng.random() < 0.6)
        mark_place = "after" if after and currency not in ("GBP", "USD", "CHF") else "before"
    else:
        mark_place = {"field": "field", "symbol-field": "field", "total": "total", "heading": "heading"}[mode]
    words = {k: pick(v) for k, v in WORDS.items()}
    caps = erp in ("wholesale", "export") and rng.random() < 0.3
    head = pick(plan["head"])
    size = pick((7.0, 7.5, 8.0, 8.5) if erp in ("export", "polish") else (7.5, 8.0, 8.5, 9.0))
    order = [k for k in pick(plan["orders"]) if k not in OPTIONAL or (
        rng.random() < OPTIONAL[k] and (taxed or k not in TAXED_ONLY))]
    wide = len(order) >= 9 and rng.random() < 0.6
    paper = "Letter" if currency == "USD" and rng.random() < 0.5 else "A4"
    page = PAGES[paper][::-1] if wide else PAGES[paper]
    margin = pick((34.0, 40.0, 45.0, 51.0))
    extra = {
        "erp": erp, "head": head, "totals": pick(plan["totals"]) if taxed else pick(("stack", "band")),
        "table": pick(plan["table"]), "foot": pick(plan["foot"]), "caps": caps, "seller": seller,
        "item": "under" if erp in ("din", "wholesale") and "code" in order and rng.random() < 0.3 else "column",
        "tight": rng.random() < 0.5, "bare_code": rng.random() < 0.5, "price_places": pick((2, 2, 2, 4)),
        "qty_places": pick((0, 0, 0, 2)) if erp in ("din", "export", "swiss", "polish") else 0,
        "rate_places": pick((0, 0, 1, 2)), "rate_gap": rng.random() < 0.6, "rate_in_label": rng.random() < 0.6,
        "line_step": pick((1, 1, 10)), "line_pad": erp == "din" and rng.random() < 0.3,
        "discount": pick(("0{d}0", "0{d}00", "-", "0")).format(d=decimal), "unit": pick(UNITS["plain"]),
        "unit_by_text": rng.random() < 0.5, "head_size": pick((1.0, 1.08)), "shade": pick((0.9, 0.85, 0.93)),
        "title_size": pick((1.6, 2.0, 2.4)), "page_at": pick(("foot", "head")),
        "carry": erp in ("din", "wholesale", "swiss") and rng.random() < 0.5,
        "intro": pick(NOTES["intro"]), "credit_intro": pick(NOTES["credit_intro"]),
        "exempt": rng.randrange(3), "terms": pick(NOTES["terms"]), "incoterms": pick(NOTES["incoterms"]),
        "carrier": pick(NOTES["carrier"]), "retention": pick(NOTES["retention"]),
        "currency_note": pick(NOTES["currency"]), "clerk": pick(NOTES["clerks"]),
        "in_words": erp == "polish" or (erp == "export" and rng.random() < 0.3),
        "fields": rng.sample(("order_no", "order_date", "delivery_note", "delivery_date", "due", "vat_id",
                              "contact", "carrier", "incoterms", "terms"), rng.randint(2, 5)),
        "due_days": pick((14, 30, 60)), "lead_days": rng.randint(0, 6), "order_base": rng.randint(4500000, 4599999),
        "delivery_base": rng.randint(80000000, 89999999), "seller_side": pick(("left", "right")),
        "total_rule": pick(("double", "single", "box")), "weight_note": "weight" in order,
        "ship_block": head == "banner" or rng.random() < 0.4, "accent": pick(((0.1, 0.2, 0.45), (0.3, 0.3, 0.3),
                                                                               (0.55, 0.1, 0.1), (0, 0.35, 0.35))),
    }
    if erp in ("nordic", "swiss", "polish"):
        extra["fields"] = [f for f in extra["fields"] if f != "order_date"]
    if head == "banner" or erp == "export":
        extra["fields"] = [*extra["fields"], "country"] if "country" not in extra["fields"] else extra["fields"]
    if mode in ("field", "symbol-field"):
        extra["fields"] = ["currency", *extra["fields"]]
    labels = {k: v for k, v in words.items() if k not in ("title", "credit_title", "item", "line_no", "code",
                                                           "description", "quantity", "unit", "unit_price",
                                                           "discount", "vat_rate", "amount", "gross", "weight",
                                                           "hs_code", "origin", "ean")}
    if not taxed:
        labels.pop("tax")
    if "country" not in extra["fields"]:
        labels.pop("country")
    if "currency" not in extra["fields"]:
        labels.pop("currency")
    labels = {k: v for k, v in labels.items() if k in (
        "invoice_number", "credit_number", "invoice_date", "customer_id", "country", "currency", "subtotal", "tax",
        "total", "credit_total", "bill_to", "ship_to", "forward", "brought", "weight_total", "in_words",
        "vat_base", "rate_head", "seller") or k in extra["fields"]}
    if not extra["carry"]:
        labels = {k: v for k, v in labels.items() if k not in ("forward", "brought")}
    if not extra["weight_note"]:
        labels.pop("weight_total")
    if not extra["in_words"]:
        labels.pop("in_words")
    if extra["totals"] != "vatgrid":
        labels.pop("vat_base")
        labels.pop("rate_head")
    if head != "banner":
        labels.pop("seller")
    lay = HeldGLayout(
        family="held-g", seed=seed, style="held-g", font=pick(plan["faces"]), size=size, page=page, margin=margin,
        title=words["title"], credit_title=words["credit_title"], labels=labels,
        colon=pick((":", "")) if head in ("window", "swiss") else "", columns=(),
        date_style=pick(tuple(DATES)), thousands=thousands, decimal=decimal, currency=currency, mark=mark,
        mark_place=mark_place, mark_lines=bool(mark) and rng.random() < 0.3, negative=pick(("minus", "trail")),
        tax_rate=Decimal(seller["rate"]) if taxed else None, ruled=extra["table"] in ("rules", "grid"),
        zebra=extra["table"] == "tint", header_place=head, totals_place=extra["totals"],
        two_row=extra["item"] == "under", seller=(seller["name"], seller["street"], seller["town"],
                                                  seller["country"]),
        page_label=pick(PAGE_LABELS), continued=pick(CONTINUED), running=pick(RUNNING),
        currency_note=extra["currency_note"].format(code=currency), extra=extra)
    if caps:
        lay = replace(lay, labels={k: v.upper() for k, v in labels.items()}, title=lay.title.upper(),
                      credit_title=lay.credit_title.upper())
    headings = {k: words[k] for k in order}
    if extra["item"] == "under":
        order = [k for k in order if k != "description"]
        headings["code"] = words["item"]
    if caps:
        headings = {k: v.upper() for k, v in headings.items()}
    return _columns(lay, order, headings)

