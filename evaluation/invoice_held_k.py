"""held-k, a held-aside invoice family: export documents and spreadsheet-printed invoices, two kinds of invoice
that small exporters and small businesses print every day, each full of numbers beside the wanted ones.

- **Export commercial / pro forma invoices** (kind ``export``; templates ``boxed``, the forwarder's form of numbered
  boxes, and ``letterhead``, the exporter's own): shipper/exporter, consignee and notify-party blocks, invoice
  number and date, the buyer's order number, the Incoterm with its named place (FOB Felixstowe, CIF Rotterdam, EXW
  Dallas, DAP Hamburg), countries of origin and destination, ports of loading and discharge, vessel and transport
  document; a line table carrying, beside code, description, quantity, unit price and amount, the tariff code
  (6912.00, 9505.10.90, 6912 00 10, 6912.00.4810: code-shaped numbers), the origin per line (GB, CN), the unit
  (PCS, SET, PK) and the net weight in kg; totals with freight and insurance lines at 0.00 where the Incoterm
  names them, the total CIF or invoice value, the packages, net and gross weights and total quantity, the
  total in words (SAY US DOLLARS ... ONLY) and a signed declaration (We hereby certify ...). Exports are mostly
  zero-rated: no tax line, a note saying why.
- **Spreadsheet invoices** (kind ``sheet``; software ``excel``, ``calc`` or ``sheets``; templates ``modern`` and
  ``grid``): an invoice template printed to PDF: light gridlines or cell borders, merged header cells, the
  accounting number format (the currency symbol at the cell's left edge, the number right-aligned, negatives in
  parentheses in the US, a dash for zero), or the currency or plain number formats, a ``#`` column, descriptions
  on one line in a wide column, shrunk to fit a narrower one (the "shrink to fit" cell format) or wrapped onto
  taller rows, never cut at the column's edge, the sheet's row numbers and column letters where the print settings
  show them, header and footer text (file name, sheet name, print date, Page 1 of 2), portrait or landscape, and
  the table going on over later pages with the heading row repeated or not (as the sheet's "rows to repeat at top"
  is set), spreadsheets printing no "continued" mark.

Each seed picks the kind and one of six sellers' locales: US (USD, $1,234.56, 12/1/2010, sales tax or none), UK
(GBP, VAT 20 % or zero-rated), Ireland (EUR, VAT 23 %), Netherlands (EUR, € 1.234,56, BTW 21 %, a sheet in Dutch
or English), Hong Kong (HKD, HK$, no tax) and Australia (AUD, GST 10 %), and from them the wordings, column order,
formats, font, paper and rules. A date printed in a numeric form that reads either way (12/01/2010) always has a
later date beside it (due or shipment date) whose day is past 12.

>>> lay = held_k_layout(3)
>>> lay == held_k_layout(3), lay.family, lay.style, lay.extra["kind"] in KINDS
(True, 'held-k', 'held-k', True)
>>> DATE_STYLES["k:m/d/Y"](dt.date(2010, 12, 1)), DATE_STYLES["k:d maand Y"](dt.date(2010, 12, 2))
('12/1/2010', '2 december 2010')
>>> rate_text(Decimal("0.08875")), rate_text(Decimal("0.20")), rate_text(Decimal("0.21"), ",")
('8.875%', '20%', '21%')
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace
from decimal import Decimal

from evaluation.invoice_held_k_words import (AIRPORTS, CONSIGNEES, DECLARATIONS, EXPORT, EXPORT_PAGES, LOCALES,
                                            NOTIFY, ORIGINS, PAYMENT, SHEET, SIGNATORIES, SOFTWARE, STREET_NOTES,
                                            TRANSPORT, VESSELS, ZERO_NOTES)
from evaluation.invoice_layouts import DATE_STYLES, MONTHS, PAGES, Column, Layout, text_width

__all__ = ["AMBIGUOUS", "KINDS", "ORDERS", "by_transport", "cell", "fill", "held_k_layout", "held_k_vocabulary",
           "later_date", "num", "qty", "rate_text", "total_text"]

MAANDEN = ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december")
DATE_STYLES.update({
    "k:m/d/Y": lambda d: f"{d.month}/{d.day}/{d.year}",  # Excel's US short date: 12/1/2010
    "k:mm/dd/Y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "k:d-Mon-yy": lambda d: f"{d.day}-{MONTHS[d.month - 1][:3]}-{d.year % 100:02d}",  # Excel's d-mmm-yy
    "k:Month d, Y": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    "k:Mon d, Y": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    "k:dd-Mon-Y": lambda d: f"{d.day:02d}-{MONTHS[d.month - 1][:3]}-{d.year}",
    "k:dd/mm/Y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "k:d/mm/Y": lambda d: f"{d.day}/{d.month:02d}/{d.year}",  # Excel's Australian short date
    "k:d Month Y": lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    "k:dd Mon Y": lambda d: f"{d.day:02d} {MONTHS[d.month - 1][:3]} {d.year}",
    "k:d Mon Y": lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",
    "k:dd.mm.Y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "k:d-m-Y": lambda d: f"{d.day}-{d.month}-{d.year}",  # Excel's Dutch short date
    "k:dd-mm-Y": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",
    "k:d maand Y": lambda d: f"{d.day} {MAANDEN[d.month - 1]} {d.year}",
    "k:Y-mm-dd": lambda d: d.isoformat(),
})
# Numeric forms that read either way while the day is 12 or less.
AMBIGUOUS = {"k:m/d/Y", "k:mm/dd/Y", "k:dd/mm/Y", "k:d/mm/Y", "k:dd.mm.Y", "k:d-m-Y", "k:dd-mm-Y"}
KINDS = ("export", "sheet")
LOCALE_WEIGHTS = {"US": 3, "UK": 3, "IE": 1, "NL": 2, "HK": 2, "AU": 2}
ORDERS = {
    "export": (("line_no", "code", "description", "hs", "origin", "quantity", "uom", "net_weight", "unit_price",
                "amount"),
               ("code", "hs", "description", "origin", "quantity", "uom", "unit_price", "amount"),
               ("line_no", "description", "code", "hs", "quantity", "uom", "net_weight", "unit_price", "amount"),
               ("code", "description", "hs", "origin", "net_weight", "quantity", "unit_price", "amount"),
               ("hs", "code", "description", "quantity", "uom", "unit_price", "amount", "origin")),
    "sheet": (("line_no", "code", "description", "quantity", "unit_price", "amount"),
              ("line_no", "description", "code", "quantity", "unit_price", "amount"),
              ("line_no", "code", "description", "uom", "quantity", "unit_price", "amount"),
              ("line_no", "quantity", "code", "description", "unit_price", "amount")),
}
OPTIONAL = {"line_no", "origin", "net_weight", "uom"}
HS_BY_LOCALE = {"US": ("hts10", "hs6dot"), "UK": ("cn8space", "uk10", "cn8dot"), "IE": ("cn8", "cn8dot", "cn8space"),
                "NL": ("cn8", "cn8dot", "cn8space"), "HK": ("hs6dot", "cn8dot"), "AU": ("hs6dot", "cn8dot")}
ACCENTS = ((0.20, 0.33, 0.53), (0.12, 0.40, 0.35), (0.45, 0.45, 0.47), (0.55, 0.18, 0.18), (0.27, 0.45, 0.77))


def fill(text: str, loc: dict, rate: Decimal | None = None, code: str = "") -> str:
    """A wording with a locale's tax name, the rate and the currency code put in.

    >>> fill("{tax} @ {rate}", LOCALES["UK"], Decimal("0.20")), fill("Total ({code})", LOCALES["AU"], None, "AUD")
    ('VAT @ 20%', 'Total (AUD)')
    """
    rate_str = rate_text(rate) if rate is not None else ""
    return text.replace("{tax}", loc["tax"]).replace("{rate}", rate_str).replace("{code}", code).strip()


def rate_text(rate: Decimal, decimal: str = ".") -> str:
    """A tax rate as a spreadsheet's percentage format shows it: as short as it goes."""
    return f"{(rate * 100).normalize():f}".replace(".", decimal) + "%"


def num(lay: Layout, value: Decimal, negative: str = "minus", places: int = 2, group: bool = True) -> str:
    """A number in the layout's grouping and decimal mark, negatives as ``minus`` (-6), ``parentheses`` (6) or
    ``minus after`` (6-).

    >>> lay = held_k_layout(0)
    >>> num(lay, Decimal("-1234.5"), "parentheses").replace(lay.thousands, ",").replace(lay.decimal, ".")
    '(1,234.50)'
    """
    text = f"{abs(value):,.{places}f}".replace(",", "\0").replace(".", lay.decimal)
    text = text.replace("\0", lay.thousands if group else "")
    if value >= 0:
        return text
    return {"minus": f"-{text}", "parentheses": f"({text})", "minus after": f"{text}-"}[negative]


def qty(lay: Layout, value: Decimal) -> str:
    """A quantity as the layout prints it: a spreadsheet's General format (1200, -6) or a grouped number format,
    an export form's in its sign style."""
    return num(lay, value, lay.extra["qty_negative"], 0, lay.extra["qty_group"])


def cell(lay: Layout, value: Decimal, role: str = "line") -> tuple[str, str]:
    """An amount's cell: (text at the cell's left edge, text right-aligned). ``role`` is ``line`` (prices and
    amounts, the subtotal, tax and shipping rows) or ``total`` (the total's cell, which a template formats on its
    own). Formats: ``accounting`` (symbol at the left edge, a dash for zero), ``currency`` (-£27.50), ``prefix``
    (€ -27,50, HK$ -27.50, a format with the symbol as literal text) and ``number`` (no symbol).

    >>> lay = next(held_k_layout(s) for s in range(99) if held_k_layout(s).extra.get("fmt") == "accounting")
    >>> cell(lay, Decimal("0"))[1], cell(lay, Decimal("0"), "total")[1] != "-"
    ('-', True)
    """
    fmt = lay.extra["fmt"] if role == "line" else lay.extra["total_fmt"]
    sym, neg = lay.extra["symbol"], lay.extra["negative"] if role == "line" else lay.negative
    if fmt == "accounting":
        return sym, "-" if value == 0 else num(lay, value, neg)
    if fmt == "currency":
        return "", f"-{sym}{num(lay, -value)}" if value < 0 else f"{sym}{num(lay, value)}"
    if fmt == "prefix":
        return "", f"{sym} {num(lay, value, neg)}"
    return "", num(lay, value, neg)


def total_text(lay: Layout, value: Decimal) -> str:
    """The total as printed (its cell's text, for a spreadsheet; the number, for an export form)."""
    if lay.extra["kind"] == "export":
        return num(lay, value, lay.negative)
    left, right = cell(lay, value, "total")
    return f"{left} {right}".strip()


def later_date(lay: Layout, date: dt.date) -> dt.date:
    """The due date (a spreadsheet) or shipment date (an export form) printed beside the invoice date."""
    return date + dt.timedelta(days=lay.extra["days"])


def _columns(lay: Layout, order: tuple[str, ...], headings: dict[str, str], desc_chars: int | None,
             width: float, values: tuple[str, ...] = ()) -> tuple[Column, ...]:
    """Each column as wide as its widest value (or its heading's longest word, headings wrap), the amount column
    also as wide as the header's ``values`` printed in it, the description ``desc_chars`` characters wide or taking
    what is left."""
    font, bold = lay.fonts
    size, pad = lay.size, lay.size * 1.1
    big = Decimal("-99999.99")
    samples = {"line_no": "999", "code": "BANK CHARGES", "hs": "6912.00.4810", "origin": "GB", "uom": "SET",
               "quantity": num(lay, Decimal("-99999"), lay.extra["qty_negative"], 0, lay.extra["qty_group"]),
               "net_weight": num(lay, Decimal("-9999.999"), "minus", 3),
               "unit_price": " ".join(cell(lay, Decimal("-999.99"))) if lay.extra["kind"] == "sheet" else
               num(lay, Decimal("-999.99"), lay.negative),
               "amount": " ".join(cell(lay, big)) if lay.extra["kind"] == "sheet" else num(lay, big, lay.negative)}
    widths = {k: max(text_width(samples[k], font, size) + pad,
                     max(text_width(w, bold, size) for w in headings[k].split()) + pad)
              for k in order if k != "description"}
    widths["amount"] = max([widths["amount"], *(text_width(v, font, size) + pad for v in values)])
    rest = width - sum(widths.values())
    if desc_chars is None:
        widths["description"] = rest
    else:  # a sheet's fixed widths: numbers a little wider than they need, the page's rest left blank
        widths["description"] = min(rest, text_width("N" * desc_chars, font, size) * 0.82)
        share = min(size * 1.5, (rest - widths["description"]) / 3)
        for k in ("unit_price", "amount", "quantity"):
            if k in widths:
                widths[k] += share
    return tuple(Column(k, headings[k], round(widths[k], 2)) for k in order)


def _date_and_days(rng: random.Random, styles: tuple[str, ...], days: tuple[int, ...]) -> tuple[str, int]:
    style = rng.choice(styles)
    usable = [d for d in days if style not in AMBIGUOUS or d >= 14]  # Dec 1 or 2 + 14..28: a day past 12
    return style, rng.choice(usable or [14, 21, 28])


def _export(seed: int, rng: random.Random, place: str, loc: dict) -> Layout:
    words = {k: rng.choice(v) for k, v in EXPORT.items()}
    template = rng.choice(("boxed", "letterhead"))
    transport = rng.choice(("sea", "sea", "air", "road"))
    if transport != "sea":
        words["bill"] = words[f"bill_{transport}"]
    incoterm = rng.choice(("FOB", "CIF", "EXW", "DAP", "CIF", "FOB"))
    raw_rate = rng.choice(loc["export_rates"])
    rate = Decimal(raw_rate) if raw_rate else None
    caps = rng.random() < 0.35
    if incoterm == "FOB" and rng.random() < 0.6:
        words["subtotal"] = words["subtotal_fob"]
    if incoterm == "EXW" and rng.random() < 0.6:
        words["subtotal"] = words["subtotal_exw"]
    if incoterm in ("CIF", "DAP"):
        words["total"] = words["total_cif" if incoterm == "CIF" else "total_dap"]
    if place == "US":
        words["hs"] = words["hs_us"]
    title = rng.choice(EXPORT["title"])
    if "FORMA" in title.upper() and words["invoice_number"].startswith("Commercial"):
        words["invoice_number"] = "Invoice No."
    labels = {k: fill(v, loc, rate, loc["currency"]) for k, v in words.items()
              if k not in ("title", "credit_title", "subtotal_fob", "subtotal_exw", "total_cif", "total_dap", "hs_us",
                           "bill_air", "bill_road") and (k != "tax" or rate is not None)}
    if caps:
        labels = {k: v.upper() for k, v in labels.items()}
    heading_keys = ("line_no", "code", "description", "hs", "origin_col", "uom", "quantity", "net_weight",
                    "unit_price", "amount")
    headings = {("origin" if k == "origin_col" else k): labels.pop(k) for k in heading_keys}
    date_style, days = _date_and_days(rng, loc["export_dates"], (3, 5, 7, 14, 21))
    thousands, decimal = rng.choice(loc["numbers"])
    signatory = rng.choice(SIGNATORIES)
    page = PAGES[loc["page"]]
    negative = rng.choice(("minus", "minus", "parentheses", "minus after"))
    lay = Layout(
        family="held-k", seed=seed, style="held-k", font=rng.choice(("Helvetica", "Helvetica", "Times")),
        size=rng.choice((7.5, 8.0, 8.5)), page=page, margin=rng.choice((28.0, 32.0, 36.0)),
        title=title, credit_title=rng.choice(EXPORT["credit_title"]), labels=labels,
        colon=rng.choice((":", "")), columns=(), date_style=date_style, thousands=thousands, decimal=decimal,
        currency=loc["currency"], mark="", mark_place=rng.choice(("heading", "field")), mark_lines=False,
        negative=negative, tax_rate=rate, ruled=rng.random() < 0.6, zebra=False,
        header_place=template, totals_place="below", two_row=False,
        seller=rng.choice(loc["sellers"]) + (loc["home"].upper() if caps else loc["home"],),
        page_label=rng.choice(EXPORT_PAGES["page_label"]), continued=rng.choice(EXPORT_PAGES["continued"]),
        running=rng.choice(EXPORT_PAGES["running"]), currency_note=None,
        extra={"kind": "export", "template": template, "locale": place, "home": loc["record_home"], "lang": "en",
               "caps": caps, "days": days,
               "incoterm": incoterm, "transport": transport, "mode": rng.choice(TRANSPORT[transport]),
               "vessel": rng.choice(VESSELS[transport]), "loading": rng.choice(by_transport(loc["ports"], transport)),
               "payment": rng.choice(PAYMENT), "notify": rng.choice((None, None, *NOTIFY)),
               "consignee": rng.choice(CONSIGNEES), "street": rng.choice(STREET_NOTES),
               "hs_format": rng.choice(HS_BY_LOCALE[place]), "piece": rng.choice(("PCS", "PCS", "EA", "PC")),
               "origins": ORIGINS[place],
               "qty_negative": negative, "qty_group": rng.random() < 0.5, "tax_name": loc["tax"],
               "rate_text": rate_text(rate) if rate is not None else "", "words_style": rng.randrange(4),
               "declaration": rng.choice(DECLARATIONS), "signatory": signatory,
               "zero_note": rng.choice(ZERO_NOTES[place]) if rate is None else "",
               "tax_id": _tax_id(place, rng), "phone": _phone(place, rng), "heavy": rng.random() < 0.5,
               "shade": rng.choice((0.85, 0.9, 0.93)), "symbol": loc["symbol"]})
    order = rng.choice(ORDERS["export"])
    width = page[0] - 2 * lay.margin
    columns = _columns(lay, order, headings, None, width)
    while next(c.width for c in columns if c.key == "description") < 120:  # a narrow form drops what it can spare
        spare = [k for k in order if k in OPTIONAL]
        if spare:
            order = tuple(k for k in order if k != spare[-1])
        else:
            lay = replace(lay, size=lay.size - 0.5)
        columns = _columns(lay, order, headings, None, width)
    return replace(lay, columns=columns)


def by_transport(ports: tuple[str, ...], transport: str) -> tuple[str, ...]:
    """The airports among ``ports`` for air freight, the others else (all of them when none is left).

    >>> by_transport(("Felixstowe", "London Heathrow"), "air"), by_transport(("Dublin",), "air")
    (('London Heathrow',), ('Dublin',))
    """
    air = tuple(p for p in ports if any(word in p for word in AIRPORTS))
    return (air if transport == "air" else tuple(p for p in ports if p not in air)) or ports


def _tax_id(place: str, rng: random.Random) -> str:
    d = [rng.randint(0, 9) for _ in range(12)]
    s = "".join(map(str, d))
    return {"US": f"EIN {s[:2]}-{s[2:9]}", "UK": f"VAT Reg. No. GB {s[:3]} {s[3:7]} {s[7:9]}  EORI GB{s[:9]}000",
            "IE": f"VAT No. IE{s[:7]}V", "NL": f"KvK {s[:8]}  BTW NL{s[:9]}B01",
            "HK": f"BR No. {s[:8]}-000-{s[8:10]}-10-1", "AU": f"ABN {s[:2]} {s[2:5]} {s[5:8]} {s[8:11]}"}[place]


def _phone(place: str, rng: random.Random) -> str:
    n = rng.randint(1000, 9999)
    return {"US": f"Tel (201) 555-{n}", "UK": f"Tel +44 (0)1332 55{n}", "IE": f"Tel +353 1 460 {n}",
            "NL": f"Tel. +31 (0)10 41{n}", "HK": f"Tel: (852) 2345 {n}", "AU": f"Ph (02) 9516 {n}"}[place]


def _sheet(seed: int, rng: random.Random, place: str, loc: dict) -> Layout:
    software = rng.choice(("excel", "excel", "calc", "sheets"))
    lang = rng.choice(loc["langs"])
    words = SHEET[lang]
    raw_rate = rng.choice(loc["sheet_rates"])
    rate = Decimal(raw_rate) if raw_rate else None
    thousands, decimal = rng.choice(loc["numbers"]) if lang == "en" else (".", ",")
    fmt = rng.choice(("accounting", "accounting", "currency", "number"))
    symbol = loc["symbol"]
    if fmt == "currency" and len(symbol) > 1 or (fmt == "currency" and decimal == ","):
        fmt = "prefix"  # € -1.234,56 and HK$ -27.50: the symbol as literal text before a signed number
    line_neg = "parentheses" if place == "US" and fmt != "prefix" or fmt == "number" and rng.random() < 0.4 \
        else "minus"
    total_fmt = "number" if fmt == "number" else "prefix" if fmt == "prefix" or len(symbol) > 1 or decimal == "," \
        else "currency"
    total_neg = line_neg if total_fmt == "number" else "minus"
    mark = symbol if total_fmt == "currency" else ""
    upper = rng.random() < 0.4  # a template's labels in capitals, or none of them

    def choose(key: str, choices: tuple[str, ...]) -> str:
        if key in ("title", "credit_title", "title_tax", "thanks", "questions", "payable", "terms_text", "cash",
                   "unit_words", "file", "credit_file", "tab"):
            return rng.choice(choices)
        return rng.choice([c for c in choices if upper or not c.isupper()] or choices)

    pick = {k: choose(k, v) for k, v in words.items() if isinstance(v, tuple)}
    title = pick["title"]
    if rate is not None and (place == "AU" or place == "UK" and rng.random() < 0.3):
        title = rng.choice(words["title_tax"]) if place == "AU" else rng.choice(("VAT INVOICE", "VAT Invoice"))
    if place == "AU" and lang == "en" and rng.random() < 0.5:
        pick["credit_title"] = rng.choice(("ADJUSTMENT NOTE", "Adjustment Note"))
    code_in_total = fmt == "number" or symbol == "$" and place != "US"
    if "{code}" in pick["total"] and not code_in_total:
        pick["total"] = words["total"][0]
    label_keys = ("invoice_number", "credit_number", "invoice_date", "due_date", "customer_id", "po", "terms",
                  "bill_to", "ship_to", "subtotal", "tax_rate", "tax", "shipping", "total")
    tax_loc = {**loc, "tax": loc["tax"] or "Tax"}
    labels = {k: fill(pick[k], tax_loc, rate, loc["currency"]) for k in label_keys}
    if rate is None:
        labels = {k: v for k, v in labels.items() if k not in ("tax_rate", "tax")}
    if upper:
        labels = {k: v.upper() for k, v in labels.items()}
    date_style, days = _date_and_days(rng, loc["sheet_dates"], (14, 21, 28, 30, 7))
    if lang == "en" and date_style == "k:d maand Y":
        date_style = "k:d Month Y"  # an English template, an English date
    order = rng.choice(ORDERS["sheet"])
    if rng.random() < 0.45:
        order = tuple(k for k in order if k != "line_no")
    headings = {k: pick[k].upper() if upper else pick[k]
                for k in ("line_no", "code", "description", "uom", "quantity", "unit_price", "amount")}
    landscape = rng.random() < 0.3
    w, h = PAGES[loc["page"]]
    page = (h, w) if landscape else (w, h)
    margins = rng.choice({"excel": ((50.4, 54.0), (18.0, 54.0), (72.0, 72.0)), "calc": ((56.7, 56.7),),
                          "sheets": ((43.2, 43.2), (54.0, 54.0))}[software])
    spread = rng.choice(("wide", "wrap", "shrink"))  # how a long description fits: see invoice_held_k_sheet
    size = rng.choice((8.0, 8.5, 9.0, 9.5, 10.0))
    page_words = words["page_label"][software]
    extra = {
        "kind": "sheet", "template": rng.choice(("modern", "grid")), "software": software, "locale": place,
        "home": loc["record_home"],
        "lang": lang, "days": days, "fmt": fmt, "total_fmt": total_fmt, "symbol": symbol, "negative": line_neg,
        "red": rng.random() < 0.3, "qty_negative": "parentheses" if line_neg == "parentheses" and fmt == "number"
        and rng.random() < 0.5 else "minus", "qty_group": rng.random() < 0.4, "tax_name": loc["tax"],
        "rate_text": rate_text(rate, decimal) if rate is not None else "", "gridlines": rng.random() < 0.5,
        "row_headings": software != "sheets" and rng.random() < 0.3, "repeat_heading": rng.random() < 0.5,
        "spread": spread, "spacer": rng.random() < 0.4, "row": rng.choice((1.55, 1.7, 1.85)),
        "valign": rng.choice(("bottom", "bottom", "center", "top")), "accent": rng.choice(ACCENTS),
        "side": margins[0], "top": margins[1],
        "tax_row": None if rate is None else "rate" if "{rate}" not in pick["tax"] else rng.choice(("rate", "amount")),
        "shipping": rng.random() < 0.4, "thanks": pick["thanks"], "questions": pick["questions"],
        "payable": pick["payable"], "terms_text": pick["terms_text"].format(days=days), "cash": pick["cash"],
        "unit_word": pick["unit_words"], "file": pick["file"], "credit_file": pick["credit_file"],
        "tab": pick["tab"], "ext": SOFTWARE[software], "print_date": rng.random() < 0.35,
        "printed_after": rng.randint(0, 3), "path": rng.random() < 0.3, "consignee": rng.choice(CONSIGNEES),
        "street": rng.choice(STREET_NOTES), "po": rng.random() < 0.4, "ship_to": rng.random() < 0.3,
        "align_values": rng.choice(("general", "left", "right")), "tax_id": _tax_id(place, rng),
        "phone": _phone(place, rng), "email": rng.choice(("accounts", "sales", "invoices", "office")),
        "bank": rng.randint(10 ** 9, 10 ** 10 - 1), "header_at": rng.choice(("header", "footer")),
        "code_in_total": code_in_total, "note_currency": place in ("AU", "HK") or fmt == "number",
        "centred": rng.random() < 0.5, "zebra": rng.random() < 0.35,
    }
    lay = Layout(
        family="held-k", seed=seed, style="held-k", font=rng.choice(("Helvetica", "Helvetica", "Helvetica", "Times")),
        size=size, page=page, margin=margins[0], title=title, credit_title=pick["credit_title"], labels=labels,
        colon="", columns=(), date_style=date_style, thousands=thousands, decimal=decimal, currency=loc["currency"],
        mark=mark, mark_place="before" if mark else "cell", mark_lines=fmt != "number", negative=total_neg,
        tax_rate=rate, ruled=extra["gridlines"], zebra=False, header_place=extra["template"], totals_place="cells",
        two_row=False, seller=rng.choice(loc["sellers"]) + (loc["home"],),
        page_label=rng.choice(page_words), continued=None, running="",
        currency_note=f"All amounts in {loc['currency']}" if lang == "en" else f"Bedragen in {loc['currency']}",
        extra=extra)
    width = page[0] - 2 * margins[0] - (size * 2.6 if extra["row_headings"] else 0)
    desc = {"wide": None, "wrap": rng.choice((18, 22, 26)), "shrink": rng.choice((36, 40, 44))}[spread]
    values = (lay.date(dt.date(2010, 12, 31)), lay.date(dt.date(2011, 1, 28)), extra["terms_text"], "C999999")
    columns = _columns(lay, order, headings, desc, width - (size * 1.2 if extra["spacer"] else 0), values)
    return replace(lay, columns=columns)


def held_k_layout(seed: int) -> Layout:
    """The held-k layout drawn from ``seed``: one kind in one locale (see the module docstring)."""
    rng = random.Random(f"held-k:{seed}")
    kind = rng.choice(KINDS)
    place = rng.choice([k for k, w in LOCALE_WEIGHTS.items() for _ in range(w)])
    return (_export if kind == "export" else _sheet)(seed, rng, place, LOCALES[place])


def held_k_vocabulary() -> set[str]:
    """Every title, label and heading wording held-k can print (lower case), with each locale's tax name, rates
    and currency code put in."""
    out = set()
    for loc in LOCALES.values():
        rates = {Decimal(r) for r in (*loc["sheet_rates"], *loc["export_rates"]) if r} or {None}
        tax_loc = {**loc, "tax": loc["tax"] or "Tax"}
        for rate in rates:
            for table in (EXPORT, SHEET["en"], SHEET["nl"]):
                for key, choices in table.items():
                    if isinstance(choices, tuple) and key not in ("thanks", "questions", "payable", "file", "tab"):
                        for text in choices:
                            out.add(fill(text, tax_loc, rate, loc["currency"]).lower())
    return out | {"vat invoice", "adjustment note"}
