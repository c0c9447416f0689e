"""held-l, a held-aside invoice family: e-invoice visualisations and point-of-sale till invoices, two kinds of
invoice printed from data rather than designed as a page. Opened on 2026-12-07: its readings were looked into and
the reader changed for what they showed, once ``held-m`` stood in as the fresh held-aside family.

- **E-invoice visualisations** (kind ``visual``): the readable PDF that e-invoicing viewers and ERP exports render
  from a structured e-invoice (Peppol BIS Billing 3.0, XRechnung, ZUGFeRD / Factur-X, EHF). Titled sections (Seller,
  Buyer, Invoice details, Invoice lines, Document totals, VAT breakdown, Payment instructions) of labelled values;
  the labels carry their EN 16931 code in brackets (``Invoice number (BT-1)``), before them (``BT-2 Invoice issue
  date``), in a narrow grey column of their own, or not at all; the invoice type code (380, 381), the currency
  code, a due date, the buyer reference or Leitweg-ID, the order and preceding invoice references, the delivery
  date. Each line is either a ``block`` of labelled values (Line ID, Item name, Seller's item identifier, quantity
  with its unit code C62 / H87 / EA, item net price, line net amount, VAT category S and rate) or a row of a
  compact ``table`` of many columns; then the document totals (sum of line net amounts, total without VAT, total
  VAT, total with VAT, amount due), the VAT breakdown by category, and the payment means (code 58 or 30, IBAN,
  BIC, remittance information). Later pages carry a running line, ``Page 2 / 3`` and, in the table, its headings.
- **Till invoices** (kind ``till``): the full VAT receipt of a point-of-sale till on 80 mm roll paper (a page
  227 pt wide, ``roll``) or that receipt centred on an A4 page (``a4``): the shop's lines centred, the title, the
  receipt number, date and time, till and cashier numbers, the customer's number and country, separators typed
  as characters (``----``, ``====``, ``****``), each item over two lines (its description, then code, ``qty x
  price`` and the amount right-aligned with its VAT letter; or code and description, then the quantity line),
  the net subtotal, VAT and total, the payment tendered and change, a VAT summary per rate letter, a return-by
  date and the thanks; a long receipt continues on a next page with a running line and the page's number.

Each seed picks the kind and one of six sellers' locales: Germany (EUR, 1.234,56, MwSt 19 % or 7 %), France
(EUR, 1 234,56, TVA 20 %, 10 % or 5,5 %), Norway (NOK, MVA 25 % or 15 %), Belgium (EUR, BTW 21 % or 6 %, Dutch or
French), the UK (GBP, VAT 20 %) and Sweden (SEK, moms 25 % or 12 %), and from them the language, the wordings,
formats, fonts and paper. A date in a numeric form that reads either way (01/12/2010) always has a later date
beside it (the due date, or a till's return-by date) whose day is past 12.

>>> lay = held_l_layout(3)
>>> lay == held_l_layout(3), lay.family, lay.style, lay.extra["kind"] in KINDS
(True, 'held-l', 'held-l', True)
>>> DATE_STYLES["l:d. month Y:de"](dt.date(2010, 12, 1)), DATE_STYLES["l:yy-mm-dd"](dt.date(2010, 12, 2))
('1. Dezember 2010', '10-12-02')
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal

from evaluation.invoice_held_l_terms import CODES, TERMS, UNIT_CODES
from evaluation.invoice_held_l_words import LOCALES, MONTH_NAMES, TILL
from evaluation.invoice_layouts import DATE_STYLES, PAGES, Column, Layout, text_width
from evaluation.invoice_styles import Pen, Row

__all__ = ["AMBIGUOUS", "BUYERS", "KINDS", "ROLL", "Piece", "deal", "held_l_layout", "held_l_vocabulary",
           "later_date", "qty_text", "rate_text", "term"]

for _lang, _months in MONTH_NAMES.items():
    DATE_STYLES[f"l:d. month Y:{_lang}"] = lambda d, m=_months: f"{d.day}. {m[d.month - 1]} {d.year}"
    DATE_STYLES[f"l:d month Y:{_lang}"] = lambda d, m=_months: f"{d.day} {m[d.month - 1]} {d.year}"
DATE_STYLES.update({
    "l:dd.mm.Y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "l:dd.mm.yy": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year % 100:02d}",
    "l:Y-mm-dd": lambda d: d.isoformat(),
    "l:yy-mm-dd": lambda d: f"{d.year % 100:02d}-{d.month:02d}-{d.day:02d}",
    "l:dd/mm/Y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "l:dd/mm/yy": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year % 100:02d}",
    "l:dd-mm-Y": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",
    "l:d Mon Y": lambda d: f"{d.day} {MONTH_NAMES['en'][d.month - 1][:3]} {d.year}",
})
# Numeric forms that read either way while the day is 12 or less (a two-digit year first is read as ISO's order).
AMBIGUOUS = {"l:dd/mm/Y", "l:dd/mm/yy", "l:dd-mm-Y", "l:dd.mm.yy"}
KINDS = ("visual", "till")
ROLL = 226.77  # 80 mm
LOCALE_WEIGHTS = {"DE": 3, "FR": 2, "NO": 2, "BE": 2, "UK": 2, "SE": 2}
BUYERS = ("Harbourside Gift Shop Ltd", "Kleine Freude Geschenke", "Maison & Jardin SARL", "The Lantern Room",
          "Brightwater Interiors", "Tante Emma Laden", "Nordic Home Store AB", "Oak Barrel Trading",
          "Papeterie du Marché", "Willowbank Stores")
VISUAL_ORDERS = (("line_no", "code", "description", "quantity", "uom", "unit_price", "vat_rate", "amount"),
                 ("line_no", "description", "code", "quantity", "uom", "unit_price", "amount"),
                 ("code", "description", "quantity", "unit_price", "vat_rate", "amount"),
                 ("line_no", "code", "description", "unit_price", "quantity", "uom", "amount"))
HEADING_KEYS = {"line_no": "pos", "code": "h_id", "description": "h_name", "quantity": "h_qty", "uom": "h_unit",
                "unit_price": "h_price", "vat_rate": "h_vat", "amount": "h_amount"}
BLOCK_KEYS = ("item_name", "item_id", "quantity", "net_price", "line_amount")


def term(lay: Layout, key: str) -> str:
    """A visualisation's label as printed, with its code as the layout puts it (``side``: the code is printed in a
    column of its own, not here).

    >>> lay = next(held_l_layout(s) for s in range(99) if held_l_layout(s).extra.get("codes") == "bracket")
    >>> term(lay, "invoice_number").endswith("(BT-1)")
    True
    """
    text, how = lay.labels[key], lay.extra.get("codes", "none")
    code = CODES.get(key, "")
    if how == "bracket" and code:
        return f"{text} ({code})"
    if how == "prefix" and code:
        return f"{code} {text}"
    return text


def rate_text(lay: Layout, rate: Decimal) -> str:
    """A VAT rate as the layout prints it: 19 %, 19,00 %, 19% or 5,5 %."""
    value = rate * 100
    text = f"{value:.2f}" if lay.extra["rate_places"] else f"{value.normalize():f}"
    return text.replace(".", lay.decimal) + lay.extra["percent"]


def qty_text(lay: Layout, value: Decimal) -> str:
    """A quantity as printed: a whole number, or with the decimals an e-invoice viewer shows (6,00)."""
    places = lay.extra.get("qty_places", 0)
    return lay.number(value, places) if places else lay.quantity(value)


def later_date(lay: Layout, date: dt.date) -> dt.date:
    """The due date (a visualisation) or the return-by date (a till) printed beside the invoice date."""
    return date + dt.timedelta(days=lay.extra["days"])


def _dates(rng: random.Random, styles: tuple[str, ...], lang: str) -> tuple[str, int]:
    style = rng.choice(styles)
    if style in ("l:d. month Y", "l:d month Y"):
        lang = lang if lang in MONTH_NAMES else "en"
        style = f"{'l:d month Y' if lang == 'en' else style}:{lang}"
    days = rng.choice((14, 20, 21, 28, 30) if style in AMBIGUOUS else (8, 10, 14, 30))
    return style, days


def _ids(place: str, rng: random.Random) -> dict[str, str]:
    d = "".join(str(rng.randint(0, 9)) for _ in range(12))
    vat = {"DE": f"DE{d[:9]}", "FR": f"FR{d[:2]}{d[2:11]}", "NO": f"NO{d[:9]}MVA", "BE": f"BE0{d[:9]}",
           "UK": f"GB{d[:9]}", "SE": f"SE{d[:10]}01"}[place]
    endpoint = {"DE": f"0204:991-{d[7:12]}-{d[3:5]}", "FR": f"0009:{d[:9]}00012", "NO": f"0192:{d[:9]}",
                "BE": f"0208:0{d[:9]}", "UK": f"9932:GB{d[:9]}", "SE": f"0007:{d[:10]}"}[place]
    bank = LOCALES[place]["bank"].format(d2=d[:2], d4=d[2:6], d4b=d[6:10], d2b=d[10:12])
    phone = {"DE": f"Tel. 0221 {d[:3]} {d[3:7]}", "FR": f"Tél. 04 72 {d[:2]} {d[2:4]} {d[4:6]}",
             "NO": f"Tlf. 55 {d[:2]} {d[2:4]} {d[4:6]}", "BE": f"Tel. 03 {d[:3]} {d[3:5]} {d[5:7]}",
             "UK": f"Tel 0191 {d[:3]} {d[3:7]}", "SE": f"Tel. 08-{d[:3]} {d[3:5]} {d[5:7]}"}[place]
    return {"vat": vat, "endpoint": endpoint, "iban": bank, "phone": phone, "digits": d}


def _visual(seed: int, rng: random.Random, place: str, loc: dict) -> Layout:
    lang = rng.choice(loc["visual_langs"])
    words = TERMS[lang]
    rate = Decimal(rng.choice(loc["rates"]))
    thousands, decimal = rng.choice(loc["numbers"])
    date_style, days = _dates(rng, loc["visual_dates"], lang)
    variant = rng.choice(("block", "table", "table"))
    codes = rng.choice(("bracket", "prefix", "side", "none", "bracket"))
    labels = {k: v for k, v in words.items() if isinstance(v, str) and k in CODES or k.startswith("h_")
              or k == "pos"}
    size = rng.choice((7.5, 8.0, 8.5, 9.0))
    margin = rng.choice((36.0, 42.0, 50.0))
    ids = _ids(place, rng)
    extra = {"kind": "visual", "variant": variant, "locale": place, "lang": lang, "codes": codes, "days": days,
             "standard": rng.choice(loc["standards"]), "home": loc["home"], "country_code": loc["country"],
             "rate_places": rng.random() < 0.4, "percent": rng.choice((" %", "%")),
             "qty_places": rng.choice((0, 0, 2)), "price_places": rng.choice((2, 2, 2, 4)),
             "unit": rng.choice(UNIT_CODES), "unit_name": rng.random() < 0.4, "leitweg": place == "DE" and
             rng.random() < 0.6, "means": "58" if loc["currency"] == "EUR" else "30", "accent": rng.choice(
                 ((0.16, 0.29, 0.48), (0.25, 0.25, 0.25), (0.0, 0.36, 0.42), (0.42, 0.12, 0.2))),
             "band": rng.random() < 0.5, "buyer": rng.choice(BUYERS), "street": rng.choice(STREETS),
             "order": f"{rng.choice(('PO-', '45', 'B-', ''))}{rng.randint(10000, 99999)}",
             "paid": rng.random() < 0.4, "delivery": rng.random() < 0.5, "group_quantity": False,
             "code_w": size * 4.6 if codes == "side" else 0.0, "bic": loc["bic"], **ids}
    lay = Layout(
        family="held-l", seed=seed, style="held-l", font=rng.choice(("Helvetica", "Helvetica", "Times")),
        size=size, page=PAGES["A4"], margin=margin, title=rng.choice(words["title"]),
        credit_title=rng.choice(words["credit_title"]), labels=labels, colon=rng.choice((":", "")), columns=(),
        date_style=date_style, thousands=thousands, decimal=decimal, currency=loc["currency"], mark="",
        mark_place="field", mark_lines=False, negative="minus", tax_rate=rate, ruled=rng.random() < 0.6,
        zebra=rng.random() < 0.3, header_place=variant, totals_place="below", two_row=variant == "block",
        seller=rng.choice(loc["sellers"]) + (loc["home"],), page_label=rng.choice(words["page"]),
        continued=rng.choice((None, words["continued"])), running=rng.choice(("{title} {number}",
                                                                            "{title} {number} - {n}")),
        currency_note=None, extra=extra)
    if variant == "block":
        return replace(lay, columns=tuple(Column(k, words[k], 0.0) for k in BLOCK_KEYS))
    return replace(lay, columns=_table_columns(lay, rng.choice(VISUAL_ORDERS)))


def _table_columns(lay: Layout, order: tuple[str, ...]) -> tuple[Column, ...]:
    """The compact table's columns: each number column as wide as its widest value or its heading, the code column
    for a code of 12 characters, the description the rest."""
    font, bold = lay.fonts
    size, pad = lay.size, lay.size * 1.2
    places = lay.extra["price_places"]
    samples = {"line_no": "999", "code": "BANK CHARGES", "quantity": qty_text(lay, Decimal("-99999")),
               "uom": lay.extra["unit"][0], "unit_price": lay.number(Decimal("-999.99"), places),
               "vat_rate": rate_text(lay, Decimal("0.255")), "amount": lay.number(Decimal("-99999.99"))}
    headings = {k: lay.labels[HEADING_KEYS[k]] for k in order}
    widths = {k: max(text_width(samples[k], font, size), text_width(headings[k], bold, size)) + pad
              for k in order if k != "description"}
    widths["description"] = lay.page[0] - 2 * lay.margin - sum(widths.values())
    return tuple(Column(k, headings[k], round(widths[k], 2)) for k in order)


STREETS = ("14 Market Street", "Unit 6, Riverside Park", "3 Church Lane", "Hauptstraße 12", "8 rue des Lilas")


def _till(seed: int, rng: random.Random, place: str, loc: dict) -> Layout:
    lang = rng.choice(loc["till_langs"])
    words = TILL[lang]
    pick = {k: rng.choice(v) if isinstance(v, tuple) and k != "vat_head" else v for k, v in words.items()}
    rate = Decimal(rng.choice(loc["rates"]))
    thousands, decimal = rng.choice(loc["numbers"])
    date_style, days = _dates(rng, loc["till_dates"], lang)
    variant = rng.choice(("roll", "roll", "a4"))
    font = rng.choice(("Courier", "Courier", "Courier", "Helvetica"))
    chars = rng.choice((40, 42, 48))
    size = round(min(9.5, (ROLL - 2 * 9.0) / (chars * 0.6)), 2) if variant == "roll" else rng.choice((8.5, 9.0))
    page = (ROLL, rng.choice((720.0, 841.89, 600.0))) if variant == "roll" else PAGES["A4"]
    rate_str = {"places": rng.random() < 0.5, "percent": rng.choice((" %", "%"))}
    labels = {k: pick[k] for k in ("number", "credit_number", "date", "time", "till", "cashier", "customer_id",
                                   "customer", "country", "subtotal", "tax", "total", "cash", "card", "change",
                                   "refund", "return_by", "items")}
    ids = _ids(place, rng)
    extra = {"kind": "till", "variant": variant, "locale": place, "lang": lang, "days": days,
             "rate_places": rate_str["places"], "percent": rate_str["percent"], "home": loc["home"],
             "item_style": rng.choice(("desc_then_qty", "code_desc", "desc_then_qty")),
             "sep": rng.choice(("-", "=", "*", "-")), "letter": rng.choice(("A", "A", "B", "1")),
             "unit_word": pick["unit"], "symbol": loc["symbol"] if rng.random() < 0.4 else "",
             "till": rng.randint(1, 12), "cashier": rng.randint(100, 999), "clock": (rng.randint(8, 18),
                                                                                   rng.randint(0, 59)),
             "pay": rng.choice(("cash", "cash", "card")), "vat_head": pick["vat_head"], "thanks": pick["thanks"],
             "vat_label": pick["vat_id"], "tse": place == "DE", "chars": chars, "show_count": rng.random() < 0.5,
             "buyer": rng.choice(BUYERS), "double_total": rng.random() < 0.6, "cash_sale": pick["cash_sale"],
             "top": 7.0 if variant == "roll" else rng.choice((36.0, 48.0, 60.0)), **ids}
    lay = Layout(
        family="held-l", seed=seed, style="held-l", font=font, size=size, page=page,
        margin=9.0 if variant == "roll" else (PAGES["A4"][0] - chars * 0.6 * size) / 2,
        title=pick["title"], credit_title=pick["credit_title"], labels=labels, colon=rng.choice((":", "")),
        columns=(), date_style=date_style, thousands=thousands, decimal=decimal, currency=loc["currency"],
        mark="", mark_place="total", mark_lines=False, negative=rng.choice(("minus", "minus after")),
        tax_rate=rate, ruled=False, zebra=False, header_place=variant, totals_place="below", two_row=True,
        seller=rng.choice(loc["sellers"]) + (loc["home"],), page_label=pick["page"],
        continued=rng.choice((None, pick["continued"])), running=pick["running"], currency_note=None,
        extra=extra)
    filled = {"tax": labels["tax"].replace("{rate}", rate_text(lay, rate)),
              "total": labels["total"].replace("{code}", loc["currency"])}
    return replace(lay, labels={**labels, **filled})


@dataclass
class Piece:
    """A block of the page: its height, how to draw it with its top at ``y``, and the item row it prints."""

    height: float
    draw: Callable[[Pen, float], None]
    row: Row | None = None


def deal(pieces: list[Piece], heading: Piece | None, first: float, later: float,
         bottom: float) -> list[list[Piece]]:
    """``pieces`` laid onto pages from ``first`` on page 1 (``later`` on the others) down to ``bottom``; a page
    takes at least one piece, and ``heading`` goes before the first item on a page that starts with one.

    >>> p = [Piece(10.0, None, Row(k, {})) for k in range(3)]
    >>> [[x.height for x in page] for page in deal(p, Piece(4.0, None), 0.0, 0.0, 25.0)]
    [[10.0, 10.0], [4.0, 10.0]]
    """
    pages: list[list[Piece]] = [[]]
    y = first
    for piece in pieces:
        if pages[-1] and y + piece.height > bottom:
            pages.append([])
            y = later
            if heading is not None and piece.row is not None:
                pages[-1].append(heading)
                y += heading.height
        pages[-1].append(piece)
        y += piece.height
    return pages


def held_l_layout(seed: int) -> Layout:
    """The held-l layout drawn from ``seed``: one kind in one locale (see the module docstring)."""
    rng = random.Random(f"held-l:{seed}")
    kind = rng.choice(KINDS)
    place = rng.choice([k for k, w in LOCALE_WEIGHTS.items() for _ in range(w)])
    return (_visual if kind == "visual" else _till)(seed, rng, place, LOCALES[place])


def held_l_vocabulary() -> set[str]:
    """Every title, label and heading wording held-l can print (lower case), the tills' with each locale's rates
    and currency code put in."""
    out = set()
    for words in TERMS.values():
        for key, value in words.items():
            if key in ("page", "terms_text", "continued", "generated"):
                continue
            out |= {v.lower() for v in (value if isinstance(value, tuple) else (value,))}
    for loc in LOCALES.values():
        for lang in loc["till_langs"]:
            for key, value in TILL[lang].items():
                if key in ("page", "running", "continued", "thanks", "unit", "vat_head"):
                    continue
                for text in value if isinstance(value, tuple) else (value,):
                    if "{rate}" not in text:
                        out.add(text.replace("{code}", loc["currency"]).lower())
                        continue
                    for r, places, pc in itertools.product(loc["rates"], (True, False), (" %", "%")):
                        value_text = f"{Decimal(r) * 100:.2f}" if places else f"{(Decimal(r) * 100).normalize():f}"
                        for mark in (",", "."):
                            out.add(text.replace("{rate}", value_text.replace(".", mark) + pc).lower())
    return out
