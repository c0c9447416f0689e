"""HELD-ASIDE FAMILY "held-d": a fourth held-aside family, written apart from the reader. Opened on 2026-12-05:
its readings were looked into and the reader changed for what they showed, once ``held-e`` stood in as the fresh
held-aside family; it now measures layouts the reader was partly made for.

:func:`held_d_layout` draws a :class:`HeldDLayout` (a :class:`evaluation.invoice_layouts.Layout`) from a seed, and
:func:`held_d_vocabulary` gives every title, label and heading wording the family can print.

>>> a = held_d_layout(3)
>>> a == held_d_layout(3), a.family, a.style
(True, 'held-d', 'held-d')
>>> held_d_vocabulary() >= a.wordings()
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

from evaluation.invoice_held_d_words import (DATE_HINTS, DATES, FIXED, MONTHS, NOTES, ORDERS, PLAN,
                                             SELLERS, SOURCES)
from evaluation.invoice_layouts import PAGES, Column, Layout

__all__ = ["CARRY", "FACES", "HeldDLayout", "heading_text", "held_d_layout", "held_d_vocabulary"]


def _ttf_dir() -> Path | None:
    """Where matplotlib (an evaluation requirement) keeps its DejaVu faces, found without importing it."""
    spec = importlib.util.find_spec("matplotlib")
    for root in (spec.submodule_search_locations or []) if spec else []:
        if (Path(root) / "mpl-data" / "fonts" / "ttf" / "DejaVuSerif.ttf").is_file():
            return Path(root) / "mpl-data" / "fonts" / "ttf"
    return None


# Faces: name -> (regular, bold). Vera ships with ReportLab; the DejaVu faces with matplotlib (Vera in their place
# where it is missing, so a set is still drawn).
FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Courier": ("Courier", "Courier-Bold"), "Sans": ("HD-Sans", "HD-Sans-Bold"),
         "Serif": ("HD-Serif", "HD-Serif-Bold"), "Mono": ("HD-Mono", "HD-Mono-Bold")}
_TTF = _ttf_dir()
for _name, _file, _fallback in (("HD-Sans", "Vera.ttf", None), ("HD-Sans-Bold", "VeraBd.ttf", None),
                                ("HD-Serif", "DejaVuSerif.ttf", "Vera.ttf"),
                                ("HD-Serif-Bold", "DejaVuSerif-Bold.ttf", "VeraBd.ttf"),
                                ("HD-Mono", "DejaVuSansMono.ttf", "Vera.ttf"),
                                ("HD-Mono-Bold", "DejaVuSansMono-Bold.ttf", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        path = str(_TTF / _file) if _fallback and _TTF else _fallback or _file
        pdfmetrics.registerFont(TTFont(_name, path))

MARKS = {"GBP": "\u00a3", "EUR": "\u20ac", "USD": "$"}
# Running sums at page breaks, by source: (the row closing a page, the row opening the next); "page" sums each page.
CARRY = {"ledger": ("c/o", "b/f"), "north": ("Subtotal to next page", "Subtotal from previous page"),
         "south": ("Sum and continues", "Previous sum"), "distributor": ("PAGE TOTAL", ""),
         "customs": ("Value this sheet", "")}
OPTIONAL = {"discount": 0.35, "backorder": 0.55, "ean": 0.5, "origin": 0.6, "weight": 0.55, "vat_cat": 0.6,
            "line_tax": 0.5, "gross": 0.5, "unit": 0.55, "ordered": 0.7, "hs": 0.75, "vat_rate": 0.6,
            "line_no": 0.65}
# ^ how often each is kept; dropped in this order while the description would be too narrow
TAXED_ONLY = ("vat_rate", "line_tax", "gross")
ORDER_KEYS = ("code", "description", "quantity", "unit_price", "amount", "line_no", "hs", "unit", "weight", "ean",
              "vat_rate", "vat_cat", "line_tax", "gross", "ordered", "backorder", "discount", "origin")
UNITS = {"ledger": ("Nos", "Pcs"), "einvoice": ("C62", "H87", "XPP"), "platform": ("pc",),
         "distributor": ("EA", "DZ", "CS/12"), "north": ("pcs", "st", "kpl"), "customs": ("PCS", "NMB", "SET"),
         "till": ("ea",), "south": ("ud.", "pz."), "studio": ("unit",)}


@dataclass(frozen=True)
class HeldDLayout(Layout):
    """A held-d layout: the family's faces, numbers, money, dates and labels."""

    @property
    def fonts(self) -> tuple[str, str]:
        return FACES[self.font]

    def _digits(self, value: Decimal, places: int, group: bool = True) -> str:
        text = f"{abs(value):.{places}f}"
        whole, _, part = text.partition(".")
        sep = self.thousands if group else ""
        if self.thousands == "lakh":  # Indian grouping: 12,34,567.89
            head, tail = whole[:-3], whole[-3:]
            groups = [head[max(k - 2, 0):k] for k in range(len(head), 0, -2)][::-1]
            whole, sep = ",".join([*groups, tail]) if head else tail, ""
        else:
            whole = f"{int(whole):,}".replace(",", sep)
        return whole + (self.decimal + part if places else "")

    def _signed(self, value: Decimal, text: str, style: str) -> str:
        if value >= 0:
            return text
        return {"minus": f"-{text}", "trail": f"{text}-", "paren": f"({text})", "cr": f"{text} Cr",
                "dutch": f"-/- {text}"}[style]

    def number(self, value: Decimal, places: int = 2) -> str:
        return self._signed(value, self._digits(value, places), self.negative)

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount as printed in the totals, or in the table (``lines``: the mark only if it marks the lines)."""
        mark = self.mark if not lines or self.mark_lines else ""
        text, place = self._digits(value, 2), self.mark_place
        if mark and place == "after":
            text = f"{text} {mark}"
        elif mark and self.negative == "minus" and value < 0:
            return f"-{mark}{text}" if place == "tight" else f"{mark} -{text}"
        elif mark:
            text = f"{mark}{text}" if place == "tight" else f"{mark} {text}"
        return self._signed(value, text, self.negative)

    def quantity(self, value: Decimal) -> str:
        e = self.extra
        return self._signed(value, self._digits(value, e["qty_places"], e["qty_group"]), e["qty_negative"])

    def date(self, value: dt.date) -> str:
        month = MONTHS[value.month - 1]
        return DATES[self.date_style].format(d=value.day, dd=f"{value.day:02d}", m=value.month,
                                             mm=f"{value.month:02d}", Y=value.year, yy=f"{value.year % 100:02d}",
                                             Month=month, Mon=month[:3], MON=month[:3].upper())

    def rate(self) -> str:
        pct, form = (self.tax_rate or Decimal(0)) * 100, self.extra["rate_form"]
        return f"{pct:.0f}%" if form == 0 else f"{pct:.0f} %" if form == 1 else f"{self._digits(pct, 2)}%"

    def label(self, name: str, credit: bool = False) -> str:
        if name == "invoice_number" and credit:
            name = "credit_number"
        text = self.labels[name]
        if name == "tax" and self.extra["tax_rate_in_label"]:
            text = f"{text} {self.rate()}"
        elif name == "total" and self.extra["code_at"] == "total":
            text = f"{text} ({self.currency})" if self.extra["source"] != "customs" else f"{text} {self.currency}"
        elif name == "invoice_date":
            text += DATE_HINTS.get(self.date_style, "")
        return text + self.colon


def held_d_vocabulary() -> set[str]:
    """Every title, label and heading wording the family can print (lower case)."""
    words = {w for source in SOURCES.values() for ws in source.values() for w in ws}
    carried = {w for pair in CARRY.values() for w in pair if w}
    return {w.lower() for w in words | set(FIXED) | carried}


def heading_text(lay: Layout, key: str, heading: str) -> str:
    """A column heading as printed: the amount's names the currency where the layout states it there."""
    if key == "amount" and lay.extra["code_at"] == "heading":
        return lay.extra["code_form"].format(heading=heading, code=lay.currency)
    return heading


def _line_no_sample(lay: HeldDLayout) -> str:
    return {"plain": "592", "tens": "5920", "padded": "0592"}[lay.extra["line_no"]]


def _width(lay: HeldDLayout, key: str, heading: str) -> float:
    regular, bold = lay.fonts
    e = lay.extra
    total = lay.money(Decimal("-9999.99"), lines=not e["sum_rows"])
    samples = {"code": "15056BL", "quantity": lay.quantity(Decimal("-9360")), "ordered": lay.quantity(
        Decimal("-9360")), "backorder": lay.quantity(Decimal("0")), "line_no": _line_no_sample(lay),
        "unit": e["unit"], "vat_rate": lay.rate(), "vat_cat": "AE", "discount": e["disc_form"],
        "ean": "5012345678900", "hs": {"dot": "6912.00", "eight": "69120000", "spaced": "6912 00 00"}[e["hs_form"]],
        "origin": "CN", "weight": lay.number(Decimal("9999.999"), 3),
        "unit_price": lay.money(Decimal("-607.49"), lines=True),
        "amount": max(lay.money(Decimal("-9999.99"), lines=True), total, key=lambda t: stringWidth(
            t, bold, lay.size)), "gross": lay.money(Decimal("-9999.99"), lines=True),
        "line_tax": lay.money(Decimal("-999.99"), lines=True)}
    printed = heading_text(lay, key, heading)
    parts = printed.split(" ", 1) if e["stacked"] and " " in heading else [printed]
    value_font = bold if key == "amount" else regular
    return max(stringWidth(samples[key], value_font, lay.size), *(stringWidth(p, bold, lay.size) for p in parts)) \
        + lay.size * 1.2


def _columns(lay: HeldDLayout, order: list[str], headings: dict[str, str]) -> HeldDLayout:
    """The layout with its columns: each as wide as its heading or widest value, the description the rest;
    where the description would be too narrow for the records' longest word, the headings go on two lines, and
    then optional columns are dropped while it still is."""
    table = lay.extra["table_x1"] - lay.extra["table_x0"]
    least = max(stringWidth('CHARLIE+LOLA"EXTREMELY', lay.fonts[0], lay.size) + lay.size * 1.2, table * 0.26)
    while True:
        widths = {k: _width(lay, k, headings[k]) for k in order if k != "description"}
        rest = table - sum(widths.values())
        drop = next((k for k in OPTIONAL if k in order), None)
        if rest >= least or (drop is None and lay.extra["stacked"]):
            break
        if not lay.extra["stacked"]:
            lay = replace(lay, extra={**lay.extra, "stacked": True})
            continue
        order = [k for k in order if k != drop]
    widths["description"] = rest
    return replace(lay, columns=tuple(Column(k, headings[k], round(widths[k], 2)) for k in order))


def held_d_layout(seed: int) -> HeldDLayout:
    """The held-d layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"held-d:{seed}")
    pick = rng.choice
    source = pick(tuple(SOURCES))
    words = SOURCES[source]
    headers, totals, tables, fonts, dates, negatives, page_labels, continueds, runnings = PLAN[source]
    name, street, town, country, home_rate, currencies, numbers, phone = pick(SELLERS[source])
    currency = pick(currencies)
    home = {"EUR": ("Germany", "Netherlands", "France", "Belgium", "Latvia", "Spain", "Austria", "Italy",
                    "Portugal", "Finland"), "GBP": ("United Kingdom",), "USD": ("United States",)}[currency]
    taxed = home_rate is not None and country in home and rng.random() < 0.75
    labels = {k: pick(words[k]) for k in ("invoice_number", "credit_number", "invoice_date", "customer_id",
                                           "country", "subtotal", "currency") if k in words}
    labels["total"] = pick(words["total" if taxed else "total_free"])
    if taxed:
        labels["tax"] = pick(words["tax"])
    extras = {"ledger": ("delivery_note", "pay_mode", "order", "dispatch", "delivery_terms", "origin_all", "port"),
              "einvoice": ("due", "order", "delivery", "terms"), "platform": ("order", "order_date", "method"),
              "distributor": ("order", "order_date", "rep", "via", "fob", "terms"),
              "north": ("our_ref", "your_ref", "due", "delivery_terms", "terms", "interest", "ocr", "method"),
              "customs": ("incoterms", "terms", "transport", "awb", "port", "origin_all"),
              "till": ("store", "till", "cashier"), "south": ("due", "method", "order", "delivery_note", "agent"),
              "studio": ("project", "due", "method")}[source]
    kept = tuple(k for k in extras if rng.random() < 0.65)
    labels.update({k: pick(words[k]) for k in words if k not in labels and k not in (
        "title", "credit_title", "total_free", "tax", "total", *ORDER_KEYS) and (k not in extras or k in kept)})
    mark_style = pick(("symbol", "code", "none")) if source not in ("einvoice", "ledger") else pick(("code", "none"))
    mark = {"symbol": MARKS[currency], "code": currency, "none": ""}[mark_style]
    code_at = "mark" if mark == currency else pick(("field", "total", "heading", "note"))
    if source == "einvoice":
        code_at = "field" if mark != currency else code_at
    page = PAGES["Letter" if phone == 1 and rng.random() < 0.8 else pick(("A4", "A4", "Letter"))]
    margin = pick((30.0, 36.0, 40.0, 46.0))
    font = pick(fonts)
    size = pick((7.5, 8.0) if font in ("Courier", "Mono") else (7.5, 8.0, 8.5, 9.0))
    sidebar = page[0] * pick((0.24, 0.27)) if source == "studio" else 0.0
    thousands, decimal = pick(numbers)
    extra = {
        "source": source, "table": pick(tables), "accent": pick(((0.11, 0.29, 0.47), (0.47, 0.16, 0.13),
                                                                   (0.13, 0.38, 0.28), (0.24, 0.24, 0.30),
                                                                   (0.52, 0.33, 0.05), (0.30, 0.16, 0.42))),
        "seller_country": country, "kept": kept,
        "phone": f"+1 {rng.randint(201, 989)} {rng.randint(200, 999)} {rng.randint(1000, 9999)}" if phone == 1 else
        f"+{phone} {rng.randint(20, 99)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
        "qty_places": 2 if source in ("einvoice", "north", "south", "ledger") and rng.random() < 0.35 else 0,
        "qty_group": rng.random() < 0.6, "qty_negative": pick(("minus", "minus", "trail", "paren")),
        "rate_form": rng.randrange(3), "tax_rate_in_label": rng.random() < 0.5, "code_at": code_at,
        "code_form": pick(("{heading} ({code})", "{heading} {code}", "{heading} in {code}")),
        "note": pick(NOTES["currency"]), "stacked": source in ("distributor", "customs", "ledger") and rng.random()
        < 0.45, "caps": source == "distributor" or (source == "customs" and rng.random() < 0.3),
        "country_in": "field" if source in ("einvoice", "ledger", "customs") else pick(("address", "field")),
        "ship": rng.random() < 0.5, "buyer": rng.randrange(1000), "line_no": pick(("plain", "tens", "padded")),
        "unit": pick(UNITS[source]), "disc_form": pick(("0.00", "0%", "-")),
        "hs_form": pick(("dot", "eight", "spaced")), "sum_rows": source == "ledger",
        "sums": pick((None, None, "carry")) if source in ("ledger", "north", "south") else pick(
            (None, "page")) if source in ("distributor", "customs") else None,
        "page_at": pick(("foot-right", "foot-left", "top-right")), "incoterm": rng.randrange(7),
        "due_days": pick((8, 10, 14, 21, 30, 45, 60)), "order_base": rng.randint(100000, 899999),
        "rep": pick(("TK", "RMS", "14", "BLO")), "reg": rng.randint(10000000, 99999999),
        "tax_no": rng.randint(100000000, 999999999), "bank": rng.randint(10 ** 9, 10 ** 10 - 1),
        "store": rng.randint(2, 98), "till_no": rng.randint(1, 9), "cashier": pick(("Ellie", "Marek", "Joan", "Sam")),
        "series": pick(("A", "FV", "F1", "2010-A")), "project": pick(("Spring window display", "Shop refit stock",
                                                                      "Christmas range", "Gift hampers")),
        "packages": rng.randint(1, 9), "gross_extra": rng.randint(3, 40), "sidebar": sidebar,
        "table_x0": margin + sidebar + (margin * 0.6 if sidebar else 0.0), "table_x1": page[0] - margin,
        "signature": pick(("A. Mehta", "R. Lindqvist", "J. Okafor", "C. Navarro"))}
    if thousands == "lakh" and currency != "USD":
        thousands = ","
    lay = HeldDLayout(
        family="held-d", seed=seed, style="held-d", font=font, size=size, page=page, margin=margin,
        title=pick(words["title"]), credit_title=pick(words["credit_title"]), labels=labels,
        colon=pick((":", "")) if source in ("ledger", "north", "till", "distributor") else "", columns=(),
        date_style=pick([d for d in dates if phone == 1 or d != "mm/dd/yy"]), thousands=thousands, decimal=decimal,
        currency=currency, mark=mark,
        mark_place="after" if mark and decimal == "," and rng.random() < 0.6 else pick(("tight", "space"))
        if mark == MARKS[currency] else pick(("space", "after")), mark_lines=bool(mark) and rng.random() < 0.35,
        negative=pick(negatives), tax_rate=Decimal(home_rate) if taxed else None, ruled=rng.random() < 0.5,
        zebra=False, header_place=pick(headers), totals_place=pick(totals), two_row=False,
        seller=(name, street, town, country), page_label=pick(page_labels), continued=pick(continueds),
        running=pick(runnings), currency_note=None, extra=extra)
    if extra["caps"]:
        lay = replace(lay, labels={k: v.upper() for k, v in labels.items()}, title=lay.title.upper(),
                      credit_title=lay.credit_title.upper())
    order = [k for k in pick(ORDERS[source]) if k not in OPTIONAL or (
        rng.random() < OPTIONAL[k] and (taxed or k not in TAXED_ONLY))]
    headings = {k: pick(words[k]) for k in order}
    if extra["caps"]:
        headings = {k: v.upper() for k, v in headings.items()}
    return _columns(lay, order, headings)
