"""held-o, a held-aside invoice family written apart from the reader: invoices in English from markets outside the
UK and the EU, as their billing software prints them.

- **India** (kind ``india``): GST tax invoices, ``Tax Invoice`` (a credit note ``Credit Note``), drawn as an
  accounting package's boxed form (``tally``: the whole page ruled into cells, the seller's block beside a grid of
  invoice details, consignee and buyer blocks, the tax lines and the total as the last rows of the items table,
  quantities with their unit, an HSN-wise tax summary) or as an online invoicing app's open page (``modern``:
  title and seller above bill-to and ship-to blocks, per-line tax columns in some, totals at the right). The
  seller's and buyer's GSTIN, the PAN, the place of supply with its state code, an ``HSN/SAC`` column, and the tax
  as CGST + SGST at half the rate each (a sale within the state) or as one IGST line (between states); amounts in
  INR grouped the Indian way (1,23,456.78) with ``₹`` (in a face that has it), ``Rs.``, ``INR`` or nothing, the
  amount in words in lakhs and crores, dates as 01-12-2010, 1-Dec-10 or 01/12/2010.
- **Australia and New Zealand** (kind ``anz``): ``Tax Invoice`` (an ``Adjustment Note`` or credit note), the
  seller's ABN or GST number, GST at 10 % (AUD) or 15 % (NZD) on prices shown without it, with a GST column per
  line (its rate, its code or its amount) or one GST line at the foot, ``TOTAL AUD`` / ``Total inc. GST``, a due
  date, a bank account (with its BSB in Australia), dates 01/12/2010 or 1 Dec 2010; a cloud ledger's clean page
  with a payment advice to cut off (``xero``) or a desktop package's boxed form (``myob``).
- **United States and Canada** (kind ``us``): a wholesale distributor's invoice with ``Sold To`` and ``Ship To``
  blocks, a row of boxed fields (customer number, P.O. number, order date, terms such as ``Net 30``, ship via,
  salesperson), the items as ordered, shipped and back ordered (the invoice charges the shipped quantity), unit
  price and extended price, then merchandise total, ``Freight`` at 0.00, the sales tax of the seller's state
  (GST, HST, or GST with PST or QST in Canada, each part printed) or an exemption, and the invoice total; a
  pre-printed form (``form``), an old system's Courier print-out (``legacy``) or a newer clean one (``modern``).

Every printed value is the record's: each line's code (in its column or under the description), description
(wrapped in its column), quantity, unit price (to as many places as the record gives) and amount, the subtotal,
the tax (the sum of its printed parts, each part rounded so that they add up to it, and a GST column shared out
to sum to it) and the total; a credit note prints the record's negative numbers in its software's sign style
(-27.50, (27.50), 27.50-, 27.50 CR). A numeric date always has a second date of the same form beside it whose day
is past 12 (an order date before, a due date after). A long invoice runs over pages with its heading row repeated,
a "continued" line at the foot of each page but the last and the invoice named at the top of the next.

>>> lay = held_o_layout(3)
>>> lay == held_o_layout(3), lay.family, lay.style, lay.extra["kind"] in KINDS
(True, 'held-o', 'held-o', True)
>>> fill("{name} @ {rate}", "CGST", Decimal("0.09")), fill("TOTAL {code}", code="NZD")
('CGST @ 9%', 'TOTAL NZD')
"""

from __future__ import annotations

import importlib.util
import random
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_held_o_money import AMBIGUOUS, HeldOLayout, rate_text
from evaluation.invoice_held_o_words import (ANZ, COMMON, INDIA, INDIAN_STATES, MARKET_WEIGHTS, MARKETS, SELLERS,
                                            TEXT, US)
from evaluation.invoice_layouts import PAGES, Column, text_width

__all__ = ["FACES", "KINDS", "RUPEE", "WORDS", "fill", "held_o_layout", "held_o_vocabulary", "numeric_date",
           "taxes_of"]

KINDS = ("india", "anz", "us")
WORDS = {"india": INDIA, "anz": ANZ, "us": US}


def _dejavu() -> Path | None:
    """The folder of matplotlib's DejaVu faces (matplotlib is an evaluation requirement; not imported here)."""
    spec = importlib.util.find_spec("matplotlib")
    folder = Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf" if spec and spec.origin else None
    return folder if folder is not None and (folder / "DejaVuSerif-Bold.ttf").is_file() else None


# Faces: name -> (regular, bold). The DejaVu ones (with matplotlib) have the rupee sign; without them Vera (with
# ReportLab) stands in and an Indian layout prints Rs. instead of the sign.
FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Courier": ("Courier", "Courier-Bold"), "Sans": ("HO-Sans", "HO-Sans-Bold"),
         "Serif": ("HO-Serif", "HO-Serif-Bold")}
DEJAVU = _dejavu()
RUPEE = DEJAVU is not None  # the faces Sans and Serif print ₹
_FILES = {"HO-Sans": "DejaVuSans", "HO-Sans-Bold": "DejaVuSans-Bold", "HO-Serif": "DejaVuSerif",
          "HO-Serif-Bold": "DejaVuSerif-Bold"}
for _face, _file in _FILES.items():
    if _face not in pdfmetrics.getRegisteredFontNames():
        _path = DEJAVU / f"{_file}.ttf" if DEJAVU else ("VeraBd.ttf" if _face.endswith("Bold") else "Vera.ttf")
        pdfmetrics.registerFont(TTFont(_face, str(_path)))

ORDERS = {
    "tally": (("line_no", "description", "hsn", "quantity", "unit_price", "unit", "amount"),
              ("line_no", "description", "hsn", "gst_rate", "quantity", "unit_price", "unit", "amount"),
              ("line_no", "code", "description", "hsn", "quantity", "unit_price", "amount")),
    "modern": (("line_no", "description", "hsn", "quantity", "unit_price", "line_tax", "amount"),
               ("line_no", "code", "description", "hsn", "quantity", "unit", "unit_price", "amount"),
               ("line_no", "description", "hsn", "quantity", "unit_price", "amount", "line_tax", "line_total"),
               ("code", "description", "hsn", "gst_rate", "quantity", "unit_price", "amount")),
    "xero": (("description", "quantity", "unit_price", "gst_rate", "amount"),
             ("code", "description", "quantity", "unit_price", "line_tax", "amount"),
             ("code", "description", "quantity", "unit_price", "gst_rate", "amount"),
             ("description", "quantity", "unit_price", "amount")),
    "myob": (("code", "quantity", "description", "unit_price", "amount", "gst_rate"),
             ("quantity", "code", "description", "unit_price", "amount", "gst_rate"),
             ("code", "description", "quantity", "unit_price", "line_tax", "amount")),
    "us": (("code", "description", "ordered", "quantity", "backorder", "unit_price", "amount"),
           ("ordered", "quantity", "backorder", "code", "description", "unit", "unit_price", "amount"),
           ("line_no", "code", "description", "unit", "ordered", "quantity", "backorder", "unit_price", "amount"),
           ("code", "description", "quantity", "unit_price", "amount"),
           ("quantity", "code", "description", "unit_price", "amount"),
           ("line_no", "code", "ordered", "quantity", "description", "unit", "unit_price", "amount")),
}
# Columns a narrow page drops first, in this order, while the description would be too narrow.
SPARE = ("gst_rate", "unit", "line_no", "backorder", "hsn")
ACCENTS = ((0.12, 0.25, 0.45), (0.55, 0.15, 0.15), (0.1, 0.35, 0.3), (0.25, 0.25, 0.25), (0.45, 0.3, 0.05))


def fill(text: str, name: str = "", rate: Decimal | None = None, code: str = "", total: Decimal | None = None) -> str:
    """A wording with a tax's name, its rate (``{rate}`` as printed, ``{plain}`` without the sign), the whole
    tax's rate and the currency code put in."""
    plain = rate_text(rate)[:-1] if rate is not None else ""
    out = text.replace("{name}", name).replace("{rate}", rate_text(rate) if rate is not None else "")
    out = out.replace("{plain}", plain).replace("{code}", code)
    return " ".join(out.replace("{total}", rate_text(total) if total is not None else "").split())


def taxes_of(spec: str | None, name: str = "Sales Tax") -> tuple[tuple[str, Decimal], ...]:
    """A seller's taxes from its spec: ``0.0825`` (one tax called ``name``), ``GST:0.05 PST:0.07``, or none.

    >>> taxes_of("GST:0.05 QST:0.09975"), taxes_of("0.0625", "Tax"), taxes_of(None)
    ((('GST', Decimal('0.05')), ('QST', Decimal('0.09975'))), (('Tax', Decimal('0.0625')),), ())
    """
    if not spec:
        return ()
    if ":" not in spec:
        return ((name, Decimal(spec)),)
    return tuple((part.split(":")[0], Decimal(part.split(":")[1])) for part in spec.split())


def _labels(rng: random.Random, kind: str, taxes, code: str) -> tuple[dict, dict, str, str]:
    """Each wording of the kind picked once, with the tax parts, rates and currency put in: the labels (a tax
    part's as ``tax_0``, ``tax_1``), the headings (a per-line tax part's as ``line_tax_0`` ...) and the titles."""
    words = WORDS[kind]
    total = sum((r for _, r in taxes), Decimal("0"))
    pick = {k: rng.choice(v) for k, v in words.items()}
    labels = {k: fill(v, code=code, total=total) for k, v in pick.items() if k not in ("tax", "line_tax")}
    for k, (name, rate) in enumerate(taxes):
        labels[f"tax_{k}"] = fill(pick["tax"], name, rate, code, total)
        if "line_tax" in pick:
            labels[f"line_tax_{k}"] = fill(pick["line_tax"], name, rate, code, total)
    heads = ("line_no", "code", "description", "hsn", "quantity", "unit", "unit_price", "gst_rate", "line_total",
             "amount", "ordered", "backorder", *(f"line_tax_{k}" for k in range(len(taxes))))
    headings = {k: labels.pop(k) for k in heads if k in labels}
    return labels, headings, labels.pop("title"), labels.pop("credit_title")


def _columns(lay: HeldOLayout, order: tuple[str, ...], headings: dict, wide: str, min_desc: float) -> tuple:
    """Each column as wide as its widest value or the longest word of its heading (headings wrap), ``wide``
    (the widest amount) setting the amount column's width, the description taking the rest; spare columns are
    dropped while the description would be narrower than ``min_desc``."""
    face, bold = lay.fonts
    size, pad = lay.size, lay.size * 1.6
    unit = " Nos" if lay.extra.get("qty_unit") else ""
    samples = {"line_no": "999", "code": "85123A", "hsn": "9" * lay.extra.get("hsn_digits", 4),
               "quantity": lay.quantity(Decimal("-9999")) + unit, "unit": "Nos", "ordered": lay.quantity(Decimal(
                   "-9999")), "backorder": lay.quantity(Decimal("-9999")), "gst_rate": "14.975%",
               "unit_price": lay.money(Decimal("-999.999"), lines=True, places_=3),
               "line_total": wide, "amount": wide, "line_tax_0": lay.money(Decimal("-9999.99"), lines=True)}
    samples["line_tax_1"] = samples["line_tax_0"]

    def measure(keys):
        return {k: max(text_width(samples[k], face, size), *(text_width(w, bold, size) for w in headings[k].split()))
                + pad for k in keys if k != "description"}

    width = lay.page[0] - 2 * lay.margin
    widths = measure(order)
    for spare in SPARE:
        if width - sum(widths.values()) < min_desc and spare in order:
            order = tuple(k for k in order if k != spare)
            widths = measure(order)
    rest = width - sum(widths.values())
    if lay.extra.get("narrow") and rest > min_desc:  # a narrow description column: the numbers get the rest
        numbers = [k for k in order if k not in ("description", "code")]
        spare = rest - max(min_desc, rest * 0.55)
        widths.update({k: widths[k] + spare / len(numbers) for k in numbers})
        rest -= spare
    widths["description"] = rest
    return tuple(Column(k, headings[k], round(widths[k], 2)) for k in order)


def _order(rng: random.Random, style: str, taxes) -> tuple[str, ...]:
    """A column order of the style, a per-line tax column made one per tax part."""
    order = rng.choice(ORDERS[style])
    out: list[str] = []
    for key in order:
        out += [f"line_tax_{k}" for k in range(len(taxes))] if key == "line_tax" else [key]
    return tuple(out) if taxes else tuple(k for k in out if not k.startswith(("line_tax", "gst_rate")))


def _face(rng: random.Random, kind: str, style: str) -> str:
    if style == "legacy":
        return "Courier"
    return rng.choice({"india": ("Helvetica", "Sans", "Sans", "Serif", "Times"), "anz": ("Helvetica", "Sans"),
                       "us": ("Helvetica", "Helvetica", "Times", "Sans")}[kind])


def _common(rng: random.Random, kind: str, place: str) -> dict:
    """What every kind picks alike: the page words, the sign style, the row and heading look."""
    words = COMMON[kind]
    digits = {f"d{n}{t}": "".join(str(rng.randint(0, 9)) for _ in range(n)) for n in range(2, 12) for t in ("", "b")}
    return {"market": place, "kind": kind, "accent": rng.choice(ACCENTS), "carried": rng.choice(words["carried"]),
            "continued_at": rng.choice(("table", "foot")), "digits": digits,
            "head": rng.choice(("shaded", "dark", "rule", "grid")), "rows": rng.choice(("zebra", "rules", "plain")),
            "group_quantity": rng.random() < 0.3, "mark_space": rng.random() < 0.5, "narrow": rng.random() < 0.35}


def _build(seed: int, rng: random.Random, kind: str, place: str, style: str, taxes, extra: dict,
           min_desc: float) -> HeldOLayout:
    """The layout from what the kind's builder picked: labels, face, page, money and columns."""
    market = MARKETS[place]
    code = market["currency"]
    labels, headings, title, credit = _labels(rng, kind, taxes, code)
    face = _face(rng, kind, style)
    mark = extra.pop("mark")
    if mark == "₹" and (face not in ("Sans", "Serif") or not RUPEE):
        mark = "Rs."  # a face without the rupee sign
    extra = {**_common(rng, kind, place), **extra, "face": FACES[face], "style": style,
             "taxes": tuple((n, str(r)) for n, r in taxes)}
    if style in ("tally", "legacy", "form"):
        extra["head"], extra["rows"] = ("grid", "grid") if style != "legacy" else ("dashes", "plain")
    size = rng.choice((7.5, 8.0, 8.5, 9.0)) if kind != "us" or style != "legacy" else rng.choice((7.5, 8.0))
    date_style = rng.choice(market["dates"])
    rate = sum((r for _, r in taxes), Decimal("0")) if taxes else None
    page_label, continued = rng.choice(COMMON[kind]["page"]), rng.choice(COMMON[kind]["continued"])
    lay = HeldOLayout(
        family="held-o", seed=seed, style="held-o", font=face, size=size, page=PAGES[market["page"]],
        margin=rng.choice(extra.pop("margins")), title=title, credit_title=credit, labels=labels,
        colon=rng.choice((":", "")) if style not in ("tally", "form") else "", columns=(), date_style=date_style,
        thousands=",", decimal=".", currency=code, mark=mark, mark_place="before" if mark else "none",
        mark_lines=bool(mark) and rng.random() < 0.25, negative=rng.choice(extra.pop("negatives")),
        tax_rate=rate, ruled=extra["rows"] in ("rules", "grid"), zebra=extra["rows"] == "zebra",
        header_place=extra.get("header", style), totals_place=extra.get("totals", "right"), two_row=False,
        seller=extra["seller"], page_label=page_label, continued=continued, running="",
        currency_note=None, extra=extra)
    order = _order(rng, style if kind != "us" else kind, taxes)
    if "line_total" in order and headings["amount"] in ("Amount", "Amount (Rs.)"):
        headings["amount"] = "Taxable Value"  # beside a total with tax, the amount is named as the taxable one
    if "code" not in order:
        lay.extra["code_under"] = True
    wide = lay.money(Decimal("-99999.99"), lines=extra.get("totals") != "table")
    return replace(lay, columns=_columns(lay, order, headings, wide, min_desc))


def _india(seed: int, rng: random.Random) -> HeldOLayout:
    seller = rng.choice(SELLERS["IN"])
    raw = rng.choice(MARKETS["IN"]["taxes"])
    taxes = tuple((n, Decimal(r)) for n, r in raw)
    style = rng.choice(("tally", "tally", "modern"))
    extra = {
        "seller": (seller[0], *seller[1], seller[2]), "state": seller[3], "state_code": seller[4],
        "phone": seller[5], "mark": rng.choice(MARKETS["IN"]["marks"]),
        "grouping": "indian" if rng.random() < 0.85 else "western", "margins": (28.0, 32.0, 36.0, 40.0),
        "negatives": ("minus", "minus", "parens"), "hsn_digits": rng.choice((4, 6, 8)),
        "qty_unit": style == "tally" and rng.random() < 0.5, "units": rng.choice(("Nos", "Pcs", "NOS")),
        "totals": "table" if style == "tally" else "right", "header": rng.choice(("split", "centred")),
        "words_prefix": rng.choice(("INR", "Indian Rupee", "Rupees", "Rs.")),
        "summary": rng.random() < (0.6 if style == "tally" else 0.3), "days": rng.choice((-4, -6, -9, 15, 21)),
        "tax_total": rng.random() < 0.4,
        "terms_days": rng.choice((15, 30, 45)), "original": rng.random() < 0.6, "copy": rng.choice((
            "ORIGINAL FOR RECIPIENT", "(ORIGINAL FOR RECIPIENT)", "Original", "")),
        "declaration": rng.choice(TEXT["india"]["declaration"]), "computer": rng.choice(TEXT["india"]["computer"]),
        "bank_line": rng.choice(TEXT["india"]["bank"]), "reason": rng.choice(TEXT["india"]["credit_reason"]),
        "terms_text": rng.choice(TEXT["india"]["terms"]), "place_other": rng.randrange(10),
        "reverse": rng.random() < 0.4,
    }
    if taxes[0][0] == "IGST":  # a sale into another state: the place of supply is not the seller's
        others = [s for s in INDIAN_STATES if s[0] != seller[3]]
        extra["place"] = others[extra["place_other"] % len(others)]
    else:
        extra["place"] = (seller[3], seller[4])
    return _build(seed, rng, "india", "IN", style, taxes, extra, min_desc=120.0)


def _anz(seed: int, rng: random.Random, place: str) -> HeldOLayout:
    seller = rng.choice(SELLERS[place])
    taxes = tuple((n, Decimal(r)) for n, r in MARKETS[place]["taxes"][0])
    style = rng.choice(("xero", "xero", "myob"))
    eom = rng.random() < 0.25
    extra = {
        "seller": (seller[0], *seller[1], seller[2]), "phone": seller[5], "mark": rng.choice(MARKETS[place]["marks"]),
        "margins": (36.0, 42.0, 48.0), "negatives": ("minus", "parens"), "qty_places": rng.choice((0, 2)),
        "rate_cell": rng.choice(("rate", "code")) if style == "myob" else "rate", "due_days": rng.choice((
            14, 20, 21, 28)), "eom": eom, "advice": style == "xero" and rng.random() < 0.7,
        "totals": "right", "header": rng.choice(("three", "stack")) if style == "xero" else "form",
        "exclusive": rng.random() < 0.5, "bank_line": rng.choice(TEXT["anz"]["bank"][place]),
        "thanks": rng.choice(TEXT["anz"]["thanks"]), "terms_text": TEXT["anz"]["eom"] if eom else
        rng.choice(TEXT["anz"]["terms"]), "freight": style == "myob" or rng.random() < 0.3,
        "paid_line": rng.random() < 0.5, "ship_block": rng.random() < 0.5, "days": -rng.randint(3, 9),
    }
    return _build(seed, rng, "anz", place, style, taxes, extra, min_desc=130.0)


def _us(seed: int, rng: random.Random, place: str) -> HeldOLayout:
    seller = rng.choice(SELLERS[place])
    exempt = place == "US" and rng.random() < 0.3
    taxes = () if exempt else taxes_of(seller[4], rng.choice(("Sales Tax", "Sales Tax", "Tax", "State Sales Tax")))
    style = rng.choice(("form", "form", "legacy", "modern"))
    extra = {
        "seller": (seller[0], *seller[1], seller[2]), "phone": seller[5], "mark": rng.choice(MARKETS[place]["marks"]),
        "margins": (30.0, 36.0, 40.0) if style != "modern" else (40.0, 48.0), "negatives": ("minus", "trailing",
                                                                                              "parens", "cr"),
        "totals": rng.choice(("stack", "across")) if style != "legacy" else "stack", "zero_bo": rng.choice(("0", "")),
        "header": rng.choice(("left", "right")), "days": -rng.randint(3, 12), "ship_same": rng.random() < 0.4,
        "terms_text": rng.choice(TEXT["us"]["terms"]), "fine": rng.choice(TEXT["us"]["fine"]),
        "salesperson_name": rng.choice(TEXT["us"]["people"]), "remit": rng.random() < 0.5, "freight": True,
        "credit_note": rng.choice(TEXT["us"]["credit_note"]), "units": rng.choice(("EA", "EA", "PC")),
        "ship_date": rng.random() < 0.5, "code_note": place == "CA" or rng.random() < 0.3,
    }
    if style == "legacy":
        extra["mark_space"] = False
    return _build(seed, rng, "us", place, style, taxes, extra, min_desc=120.0)


def held_o_layout(seed: int) -> HeldOLayout:
    """The held-o layout drawn from ``seed``: one market's invoice in one software's look (see the module
    docstring)."""
    rng = random.Random(f"held-o:{seed}")
    place = rng.choice([p for p, w in MARKET_WEIGHTS.items() for _ in range(w)])
    kind = MARKETS[place]["kind"]
    if kind == "india":
        return _india(seed, rng)
    return _anz(seed, rng, place) if kind == "anz" else _us(seed, rng, place)


def _market_taxes(place: str) -> list[tuple]:
    """Every tax a seller of the market may charge (each as its parts)."""
    if MARKETS[place]["taxes"] is not None:
        return [tuple((n, Decimal(r)) for n, r in t) for t in MARKETS[place]["taxes"]]
    names = ("Sales Tax", "Tax", "State Sales Tax")
    return [taxes_of(s[4], n) for s in SELLERS[place] for n in names] + [()]


def held_o_vocabulary() -> set[str]:
    """Every title, label and heading wording held-o can print (lower case), with each market's tax names and
    rates and its currency code put in."""
    out = set()
    for place, market in MARKETS.items():
        for taxes in _market_taxes(place):
            total = sum((r for _, r in taxes), Decimal("0"))
            for choices in WORDS[market["kind"]].values():
                for word in choices:
                    if taxes or "{name}" not in word and "{rate}" not in word:
                        out |= {fill(word, n, r, market["currency"], total).lower() for n, r in taxes or [("", None)]}
    return out


def numeric_date(lay: HeldOLayout) -> bool:
    """Whether the layout's date reads either way (then a second date past the 12th stands beside it)."""
    return lay.date_style in AMBIGUOUS
