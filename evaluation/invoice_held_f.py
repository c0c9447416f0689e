"""HELD-ASIDE FAMILY "held-f", written apart from the reader: its layouts (:func:`held_f_layout`) and wordings
(:func:`held_f_vocabulary`); drawn by :mod:`evaluation.invoice_held_f_draw`. Not to be read while developing the
invoice reader (nor its companion modules ``evaluation.invoice_held_f_*``, its generated files or its per-file
scores): it measures how the reader does on layouts it was not made for.

A layout imitates one kind of software (a *kit* of :data:`evaluation.invoice_held_f_words.KITS`) as set up by one
business (a seller of :data:`~evaluation.invoice_held_f_words.SELLERS`, whose country fixes the currency and the
tax): its wordings, columns, header, table and totals styles, page, face and size, and its number, money and date
forms are all drawn from the seed.

>>> a = held_f_layout(3)
>>> a == held_f_layout(3), a.family, a.style
(True, 'held-f', 'held-f')
>>> held_f_vocabulary() >= a.wordings()
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

from evaluation.invoice_held_f_words import (COMMON, CONTINUED, CURRENCY_NAMES, DATES, KITS, NOTES, OPTIONAL, ORDERS,
                                             PAGE_LABELS, PLANS, RUNNING, SELLERS, TAXES, date_parts, tax_labels)
from evaluation.invoice_layouts import Column, Layout

__all__ = ["FACES", "PAPER", "HeldFLayout", "held_f_layout", "held_f_vocabulary", "sample"]

# Faces: name -> (regular, bold). Vera ships with ReportLab, so every machine draws the same.
FACES = {"helv": ("Helvetica", "Helvetica-Bold"), "times": ("Times-Roman", "Times-Bold"),
         "courier": ("Courier", "Courier-Bold"), "vera": ("HF-Vera", "HF-Vera-Bold")}
for _name, _file in (("HF-Vera", "Vera.ttf"), ("HF-Vera-Bold", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_name, _file))
PAPER = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0), "A4-land": (841.89, 595.28),
         "Letter-land": (792.0, 612.0), "A5": (419.53, 595.28), "Half-letter": (396.0, 612.0)}
SYMBOLS = {"GBP": "\u00a3", "EUR": "\u20ac", "USD": "$"}
LONGEST_WORD = 'CHARLIE+LOLA"EXTREMELY'  # the widest word of the records' descriptions
ACCENTS = ((0.13, 0.29, 0.53), (0.20, 0.45, 0.36), (0.45, 0.18, 0.22), (0.25, 0.25, 0.28), (0.55, 0.35, 0.10))
# How a seller of each country asks to be paid (filled in by evaluation.invoice_held_f_draw.BANKS).
BANK_LINES = {"UK": ("Bank: {bank}  Sort code {sort}  Account {acct}", "Pay by BACS to {bank}, {sort}, a/c {acct}"),
              "IE": ("IBAN {iban}  BIC {bic}", "Bank transfer to {bank}, IBAN {iban}"),
              "US": ("Remit to {bank} - routing {routing}, account {acct}", "ACH: {bank}, ABA {routing}, acct {acct}"),
              "CA": ("EFT to {bank}: transit {routing}, account {acct}",),
              "AU": ("Direct deposit: {bank}  BSB {routing}  Acc {acct}",)}
NUMERIC = ("quantity", "unit_price", "amount", "rrp", "weight", "disc", "line_no", "ean")


@dataclass(frozen=True)
class HeldFLayout(Layout):
    """A held-f layout: the family's faces, and how it prints numbers, money, prices, quantities and dates."""

    @property
    def fonts(self) -> tuple[str, str]:
        return FACES[self.font]

    def number(self, value: Decimal, places: int = 2, sign: str | None = None) -> str:
        """``value`` grouped in thousands, with ``places`` decimals and the layout's (or ``sign``'s) negative form.

        >>> lay = held_f_layout(0)
        >>> lay.number(Decimal("-1234.5"), sign="paren").replace(lay.thousands, ",")
        '(1,234.50)'
        """
        whole, _, part = f"{abs(value):.{places}f}".partition(".")
        text = f"{int(whole):,}".replace(",", self.thousands) + (self.decimal + part if places else "")
        if value >= 0:
            return text
        return f"({text})" if (sign or self.negative) == "paren" else f"-{text}"

    def _marked(self, value: Decimal, text: str) -> str:
        if self.mark_place == "after":
            return f"{text} {self.mark}"
        gap = " " if self.mark.isalpha() else ""
        if value < 0 and self.negative == "minus" and not self.extra["sign_inside"]:
            return f"-{self.mark}{gap}{text[1:]}"  # -£12.50, -USD 12.50
        if value < 0 and self.negative == "paren":
            return f"({self.mark}{gap}{text[1:-1]})"  # (£12.50)
        return f"{self.mark}{gap}{text}"  # £-12.50

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount in the totals, or in the table (``lines``: with the mark only where the lines carry it)."""
        text = self.number(value)
        if self.mark_place not in ("before", "after") or (lines and not self.mark_lines):
            return text
        return self._marked(value, text)

    def price(self, value: Decimal) -> str:
        """A unit price in the table, with the layout's decimals."""
        text = self.number(value, self.extra["price_places"])
        return self._marked(value, text) if self.mark_lines and self.mark_place in ("before", "after") else text

    def quantity(self, value: Decimal) -> str:
        return self.number(value, self.extra["qty_places"], sign="minus").replace(self.thousands or "\0", "")

    def date(self, value: dt.date) -> str:
        return DATES[self.date_style][0].format(**date_parts(value))

    def label(self, name: str, credit: bool = False) -> str:
        """A label as printed, with the layout's colon (the credit note's number has its own; the total may name
        the currency)."""
        if credit and name == "invoice_number":
            name = "credit_number"
        text = self.labels[name]
        if name == "total" and self.mark_place == "total":
            text = f"{text} ({self.currency})" if self.extra["code_paren"] else f"{text} {self.currency}"
        return self.upper(text) + ("" if text.endswith((":", "#", "@")) or not self.colon else self.colon)

    def heading(self, key: str) -> str:
        """A column heading as printed: the amount's may name the currency."""
        text = next(c.heading for c in self.columns if c.key == key)
        if key == "amount" and self.mark_place == "heading":
            text = f"{text} ({self.extra['heading_mark']})"
        return self.upper(text)

    def upper(self, text: str) -> str:
        return text.upper() if self.extra["caps"] else text

    def tax_text(self) -> str:
        """The tax rate as a line's column prints it."""
        pct = f"{float(self.tax_rate or 0) * 100:.2f}".rstrip("0").rstrip(".")
        return f"{pct}%"


def held_f_vocabulary() -> set[str]:
    """Every title, label and heading wording the family can print (lower case), with a total's and an amount
    heading's currency where a layout adds it."""
    words = {w for kit in KITS.values() for ws in kit.values() for w in ws} | {
        w for ws in COMMON.values() for w in ws} | {w for key in TAXES for w in tax_labels(key)}
    for kit in KITS.values():
        for code in ("GBP", "EUR", "USD"):
            words |= {f"{t} ({code})" for t in kit["total"]} | {f"{t} {code}" for t in kit["total"]}
            marks = {code, SYMBOLS[code], "US$"}
            words |= {f"{h} ({m})" for h in kit["amount"] for m in marks}
    return {w.lower() for w in words}


def sample(lay: HeldFLayout, key: str) -> str:
    """The widest value the column ``key`` can print in ``lay``."""
    return {"code": "15056BL", "quantity": lay.quantity(Decimal("-9360")), "line_no": "592",
            "unit_price": lay.price(Decimal("-999.99")), "amount": lay.money(Decimal("-9999.99"), lines=True),
            "rrp": lay.price(Decimal("-999.99")), "ean": "5012345678900", "origin": "GB", "uom": "SET",
            "weight": "12.50" + (" kg" if lay.extra["kit"] == "storefront" else ""), "disc": lay.extra["disc"],
            "tax_flag": "Yes", "description": LONGEST_WORD}[key]


def _columns(lay: HeldFLayout, order: list[str], headings: dict[str, str]) -> HeldFLayout:
    """The layout with its columns: each as wide as its widest value or the longest word of its heading (a heading
    wraps onto two lines), the description the rest; optional columns go while the description is too narrow."""
    regular, bold = lay.fonts
    pad = lay.size * 1.2
    table = lay.extra["x1"] - lay.extra["x0"]
    optional = [k for k in OPTIONAL[lay.extra["kit"]]][::-1]
    while True:
        widths = {}
        for k in order:
            if k == "description":
                continue
            printed = lay.upper(headings[k]) + (f" ({lay.extra['heading_mark']})" if k == "amount" and
                                                lay.mark_place == "heading" else "")
            words = printed.split()
            half = max(stringWidth(" ".join(words[:len(words) // 2 or 1]), bold, lay.size),
                       stringWidth(" ".join(words[len(words) // 2 or 1:]), bold, lay.size))
            value = stringWidth(sample(lay, k), regular, lay.size)
            widths[k] = max(value, min(half, stringWidth(printed, bold, lay.size)),
                            max(stringWidth(w, bold, lay.size) for w in words)) + pad
        rest = table - sum(widths.values())
        least = max(stringWidth(LONGEST_WORD, regular, lay.size) + pad, table * 0.24)
        drop = next((k for k in optional if k in order), None)
        if rest >= least or drop is None:
            break
        order = [k for k in order if k != drop]
    widths["description"] = rest
    return replace(lay, columns=tuple(Column(k, headings[k], round(widths[k], 2)) for k in order))


def _case(text: str, caps: bool) -> str:
    return text.upper() if caps else text


def held_f_layout(seed: int) -> HeldFLayout:
    """The held-f layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"held-f:{seed}")
    pick = rng.choice
    kit = pick(tuple(KITS))
    words = KITS[kit]
    headers, tables, totals, papers, faces, sizes = PLANS[kit]
    seller = pick(SELLERS)
    currency, tax_key = seller[4], pick(seller[5])
    labels = {k: pick(v) for k, v in words.items() if k not in ("title", "credit_title", "code", "description",
                                                                 "quantity", "unit_price", "amount", *OPTIONAL[kit])}
    labels.update({k: pick(v) for k, v in COMMON.items()})
    if tax_key:
        labels["tax"] = pick(tax_labels(tax_key))
    paper = pick(papers)
    page = PAPER[paper]
    small = page[0] < 450
    size = pick(sizes) - (0.5 if small and kit != "till" else 0.0)
    margin = pick((22.0, 26.0, 30.0) if small else (34.0, 40.0, 46.0, 54.0))
    thousands = pick((",", ",", ",", ""))
    symbol = SYMBOLS[currency] if seller[3] not in ("CA", "AU") or currency != "USD" else "US$"
    mark_place = pick(("before", "before", "before", "after", "total", "heading", "field", "note"))
    mark = {"before": pick((symbol, symbol, currency)), "after": currency}.get(mark_place, "")
    if kit == "till" and mark_place in ("heading", "field"):
        mark_place, mark = "before", symbol
    negative = pick(("minus", "minus", "paren")) if kit in ("office", "trade", "app") else "minus"
    date_style = pick(tuple(DATES))
    if kit == "till":
        date_style = pick(("dd-mon-y", "d-mon-y", "iso", "mon-dd-y"))
    colon = pick((":", ":", "")) if kit not in ("office", "trade") else pick((":", ""))
    caps = kit in ("trade", "till") and rng.random() < 0.5 or kit == "office" and rng.random() < 0.3
    extra = {
        "kit": kit, "header": pick(headers), "table": pick(tables), "totals": pick(totals), "paper": paper,
        "x0": margin, "x1": page[0] - margin, "accent": pick(ACCENTS), "shade": pick((0.88, 0.91, 0.94)),
        "caps": caps, "wrapped": True, "sign_inside": rng.random() < 0.25, "code_paren": rng.random() < 0.6,
        "heading_mark": pick((currency, symbol)), "tax_key": tax_key,
        "price_places": pick((2, 2, 3)) if kit in ("office", "trade") else 2,
        "qty_places": pick((0, 0, 2)) if kit in ("office", "trade") else 0,
        "code_place": pick(("column", "column", "under")) if kit in ("storefront", "app") else "column",
        "disc": pick(("0%", "0.00", "-")), "title_size": pick((1.6, 2.0, 2.4)),
        "page_at": pick(("foot-right", "foot-centre", "top")), "order_base": rng.randint(100200, 988000),
        "due_days": pick((14, 30, 30, 60)), "rep": pick(("JB", "SM", "KH", "04", "11")),
        "ship": rng.random() < 0.5, "paid": kit == "storefront" and rng.random() < 0.5,
        "seller_at": pick(("top", "foot")) if kit in ("service", "app") else "top",
        "thanks": pick(NOTES["thanks"][:2] if kit in ("storefront", "till") else NOTES["thanks"][2:]),
        "terms": pick(NOTES["terms"]), "credit_note": pick(NOTES["credit"]),
        "currency_note": pick(NOTES["currency"]).format(name=CURRENCY_NAMES[currency], code=currency),
        "bank": pick(BANK_LINES[seller[3]]),
    }
    lay = HeldFLayout(
        family="held-f", seed=seed, style="held-f", font=pick(faces), size=size, page=page, margin=margin,
        title=_case(pick(words["title"]), caps), credit_title=_case(pick(words["credit_title"]), caps),
        labels=labels, colon=colon,
        columns=(), date_style=date_style, thousands=thousands, decimal=".", currency=currency, mark=mark,
        mark_place=mark_place, mark_lines=mark_place in ("before", "after") and rng.random() < 0.45,
        negative=negative, tax_rate=Decimal(TAXES[tax_key][1]) if tax_key else None,
        ruled=extra["table"] in ("grid", "rules", "columns"), zebra=extra["table"] == "stripes",
        header_place=extra["header"], totals_place=extra["totals"], two_row=False, seller=seller,
        page_label=pick(PAGE_LABELS), continued=pick(CONTINUED), running=pick(RUNNING),
        currency_note=extra["currency_note"] if mark_place == "note" else None, extra=extra)
    order = [k for k in pick(ORDERS[kit]) if k not in OPTIONAL[kit] or rng.random() < OPTIONAL[kit][k]]
    if lay.tax_rate is None:
        order = [k for k in order if k != "tax_flag"]
    if extra["code_place"] == "under":
        order = [k for k in order if k != "code"]
    headings: dict[str, str] = {}
    for k in order:  # no two columns under the same heading; each as printed (in capitals where the layout is)
        choices = [w for w in words[k] if w.lower() not in {h.lower() for h in headings.values()}]
        headings[k] = pick(choices).upper() if caps or extra["table"] == "caps" else pick(choices)
    return _columns(lay, order, headings)
