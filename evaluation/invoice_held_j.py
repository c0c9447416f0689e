"""held-j, a held-aside invoice family: invoices as two kinds of real-world output print them that are common and
hard to read.

- **Line-printer output** (templates ``greenbar``, ``grid`` and ``spool``): what AS/400, mainframe and old ERP
  billing runs print on continuous forms or spool to PDF, in Courier and capitals. ``greenbar`` is the 132- or
  80-column continuous form with pale green bands and, on the wide form, the tractor-feed holes at the edges; the
  header as ``INVOICE NO......: 536365`` lines beside the seller; ordered, shipped and back-ordered quantities side
  by side. ``grid`` is the mainframe form drawn with ``+``, ``-`` and ``|``: the header as boxed cells of a label
  over its value, the table in a character grid. ``spool`` is an ERP report: a program name, run date and
  ``PAGE 001`` on every page, ``LABEL : value`` fields several to a line, headings underlined with ``=``.
  Each repeats its page header on every page, prints the totals as ``*** TOTAL DUE ***`` lines, numbers
  right-aligned in fixed-width fields, credits with a trailing minus or ``CR``, dates as 12/01/10 (the order named
  in the label), 01DEC10, 01.12.10 or 2010-12-01, and the currency once (a header field, a note, or the code after
  the totals).
- **Order invoices** (templates ``marketplace`` and ``webshop``): what online marketplaces and web shops issue:
  "Sold by", billing and delivery addresses, the order's number and date beside the invoice's, a tax column per
  line (net unit price, quantity, net amount, tax rate, tax amount, gross amount; the net amount is the line's
  amount), a summary box and small print. The per-line taxes are the foot's tax shared out to the cent
  (:func:`line_taxes`), as such systems do, so the lines add up to the foot.

Each seed picks one template and one of six locales (US, UK, Canada, Germany, Switzerland, Poland: dollars,
pounds, Canadian dollars, euros with 1.234,56, Swiss francs with 1'234.56, zloty with 1 234,56), and from them the
wordings, column order, date and number formats, font size, paper, rules, wrapping width and page labels.

>>> lay = held_j_layout(3)
>>> lay == held_j_layout(3), lay.family, lay.style
(True, 'held-j', 'held-j')
>>> rate_text(Decimal("0.175"), ".", "{r}%"), rate_text(Decimal("0.19"), ",", "{r2} %")
('17.5%', '19,00 %')
>>> DATE_STYLES["j:ddMONyy"](dt.date(2010, 12, 1)), DATE_STYLES["j:d. Monat Y"](dt.date(2010, 12, 2))
('01DEC10', '2. Dezember 2010')
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from dataclasses import replace
from decimal import Decimal

from evaluation.invoice_held_i import _fill
from evaluation.invoice_layouts import DATE_STYLES, MONTHS, NEGATIVES, PAGES, Column, Layout, text_width
from evaluation.invoice_held_j_words import (ACCENTS, LOCALES, MARKETPLACES, PRINT, PRINT_CONTINUED, PRINT_NOTES,
                                            PRINT_PAGES, PRINT_PROGRAMS, SELLERS, SMALL_PRINT, TERMS, THANKS, WEB,
                                            WEB_CONTINUED, WEB_PAGES, WEB_RUNNING)
from evaluation.invoice_records import Invoice, cents

__all__ = ["KINDS", "ORDERS", "chars", "held_j_layout", "held_j_vocabulary", "line_taxes", "order_ref", "qty",
           "rate_text"]

MONATE = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember")
DATE_STYLES.update({
    "j:mm/dd/yy": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",  # US line printers: 12/01/10
    "j:dd/mm/yy": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year % 100:02d}",  # UK line printers: 01/12/10
    "j:mm/dd/Y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "j:ddMONyy": lambda d: f"{d.day:02d}{MONTHS[d.month - 1][:3].upper()}{d.year % 100:02d}",  # 01DEC10
    "j:dd-MON-yy": lambda d: f"{d.day:02d}-{MONTHS[d.month - 1][:3].upper()}-{d.year % 100:02d}",
    "j:dd.mm.yy": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year % 100:02d}",
    "j:Mon d, Y": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    "j:d. Monat Y": lambda d: f"{d.day}. {MONATE[d.month - 1]} {d.year}",
})
# A numeric date that could be read either way is printed with its order in the label, as such forms do.
HINTS = {"j:mm/dd/yy": "MM/DD/YY", "j:dd/mm/yy": "DD/MM/YY", "j:mm/dd/Y": "MM/DD/YYYY"}
NEGATIVES.update({"j:CR": lambda text: f"{text}CR"})

KINDS = {"greenbar": "print", "grid": "print", "spool": "print", "marketplace": "web", "webshop": "web"}
ORDERS = {
    "greenbar": (("line_no", "code", "description", "ordered", "quantity", "backorder", "uom", "unit_price", "amount"),
                 ("code", "description", "quantity", "uom", "unit_price", "amount"),
                 ("line_no", "code", "description", "quantity", "unit_price", "amount")),
    "grid": (("code", "description", "quantity", "unit_price", "amount"),
             ("line_no", "code", "description", "uom", "quantity", "unit_price", "amount"),
             ("code", "quantity", "description", "unit_price", "amount")),
    "spool": (("code", "description", "quantity", "unit_price", "amount"),
              ("line_no", "code", "description", "ordered", "quantity", "unit_price", "amount"),
              ("code", "description", "uom", "quantity", "unit_price", "amount")),
    "marketplace": (("description", "quantity", "unit_price", "amount", "vat_rate", "tax_amount", "gross"),
                    ("description", "unit_price", "quantity", "vat_rate", "amount", "tax_amount", "gross"),
                    ("code", "description", "quantity", "unit_price", "amount", "vat_rate", "tax_amount", "gross")),
    "webshop": (("description", "code", "quantity", "unit_price", "amount", "tax_amount", "gross"),
                ("code", "description", "quantity", "unit_price", "vat_rate", "tax_amount", "amount"),
                ("description", "quantity", "unit_price", "amount", "vat_rate", "gross")),
}
TAX_COLUMNS = ("vat_rate", "tax_amount", "gross")
TEXT = ("code", "description")
RATE_FORMATS = ("{r}%", "{r} %", "{r2}%")
LOCALE_WEIGHTS = {"US": 3, "UK": 3, "CA": 1, "DE": 2, "CH": 1, "PL": 1}
CONTINUOUS = (1071.0, 792.0)  # 14 7/8 x 11 inch continuous form, 132 columns


def rate_text(rate: Decimal, decimal: str, fmt: str) -> str:
    """A tax rate as printed: ``{r}`` the rate as short as it goes (17.5), ``{r2}`` with two places (19.00)."""
    r = f"{(rate * 100).normalize():f}".replace(".", decimal)
    return fmt.format(r=r, r2=f"{rate * 100:.2f}".replace(".", decimal))


def qty(lay: Layout, value: Decimal) -> str:
    """A quantity as printed: a credit's with a trailing minus where the layout marks credit amounts with CR."""
    if value < 0 and lay.negative in ("j:CR", "CR after"):
        return lay.quantity(-value) + "-"
    return lay.quantity(value)


def line_taxes(inv: Invoice, rate: Decimal) -> list[Decimal]:
    """Each line's tax: its net amount times ``rate`` to the cent, the cents that rounding leaves over or short of
    the foot's tax (:meth:`Invoice.tax`) given to the lines whose rounding was furthest off, so they sum to it.

    >>> from evaluation.invoice_records import InvoiceRow
    >>> rows = tuple(InvoiceRow("A", "X", Decimal("1"), Decimal("0.15")) for _ in range(3))
    >>> inv = Invoice("1", dt.date(2010, 12, 1), None, "France", rows)
    >>> line_taxes(inv, Decimal("0.19")), inv.tax(Decimal("0.19"))
    ([Decimal('0.03'), Decimal('0.03'), Decimal('0.03')], Decimal('0.09'))
    >>> rows = tuple(InvoiceRow("A", "X", Decimal("1"), Decimal("0.10")) for _ in range(3))
    >>> line_taxes(Invoice("1", dt.date(2010, 12, 1), None, "France", rows), Decimal("0.175"))
    [Decimal('0.01'), Decimal('0.02'), Decimal('0.02')]
    """
    raw = [row.amount * rate for row in inv.rows]
    taxes = [cents(x) for x in raw]
    left = inv.tax(rate) - sum(taxes, Decimal("0.00"))
    step = Decimal("0.01") if left > 0 else Decimal("-0.01")
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - taxes[i]) * step, -abs(raw[i]), i))
    for k in range(int(abs(left) / Decimal("0.01"))):
        taxes[order[k % len(order)]] += step
    return taxes


def order_ref(inv: Invoice, lay: Layout) -> tuple[str, dt.date]:
    """The order an invoice bills: its number in the template's form and its date (up to three days before)."""
    rng = random.Random(zlib.crc32(f"held-j:{lay.seed}:{inv.number}".encode()))
    template = lay.extra["template"]
    if template == "marketplace":
        number = f"{rng.randint(200, 409)}-{rng.randint(1000000, 9999999)}-{rng.randint(1000000, 9999999)}"
    elif template == "webshop":
        number = f"#{rng.randint(1000, 99999)}" if rng.random() < 0.5 else f"WS{rng.randint(100000000, 999999999)}"
    else:
        number = f"{rng.randint(0, 99):02d}{rng.randint(10000, 99999)}"
    return number, inv.date - dt.timedelta(days=rng.randint(0, 3))


def _words(text: str, tax: str, rate: str, code: str) -> str:
    return text.replace("{tax}", tax).replace("{rate}", rate).replace("{code}", code)


def _pick(rng: random.Random, choices: tuple[str, ...], taxed: bool) -> str:
    """One wording; a seller who charges no tax picks one that does not name it."""
    return rng.choice([c for c in choices if taxed or "{tax}" not in c] or choices)


def _print_columns(lay: Layout, order: tuple[str, ...], headings: dict[str, str]) -> tuple[Column, ...]:
    """Fixed-width fields in characters: each as wide as its widest value and its heading (its longest word when
    headings stand over two lines), the description what the line leaves, up to the template's cap."""
    samples = {"line_no": "999", "code": "X" * 12, "uom": "EA", "quantity": qty(lay, Decimal("-9999")),
               "unit_price": lay.money(Decimal("-9999.99"), lines=True),
               "amount": lay.money(Decimal("-99999.99"), lines=True)}
    samples["ordered"] = samples["backorder"] = samples["quantity"]
    stacked = lay.extra["stacked"]
    chars = {k: max(len(samples[k]), max(map(len, headings[k].split())) if stacked else len(headings[k]))
             for k in order if k != "description"}
    gap = 3 if lay.extra["template"] == "grid" else lay.extra["gap"]
    used = sum(chars.values()) + gap * (len(order) - 1) + (4 if lay.extra["template"] == "grid" else 0)
    chars["description"] = min(lay.extra["line"] - used, lay.extra["cap"])
    cw = text_width("M", lay.fonts[0], lay.size)
    return tuple(Column(k, headings[k], round(chars[k] * cw, 2)) for k in order)


def chars(lay: Layout, columns: tuple[Column, ...], key: str) -> int:
    """A line-printer field's width in characters."""
    width = next(c.width for c in columns if c.key == key)
    return round(width / text_width("M", lay.fonts[0], lay.size))


def _web_columns(lay: Layout, order: tuple[str, ...], headings: dict[str, str]) -> tuple[Column, ...]:
    """Number columns as wide as their widest value or the longest word of their heading (headings wrap), the
    code column for a 12-character code, the description the rest."""
    font, bold = lay.fonts
    samples = {"quantity": lay.quantity(Decimal("-9999")), "code": "BANK CHARGES M",
               "vat_rate": lay.extra["rate_text"] or "0%", "unit_price": lay.money(Decimal("-999.99"), lines=True),
               **{k: lay.money(Decimal("-9999.99"), lines=True) for k in ("amount", "tax_amount", "gross")}}
    room = lay.page[0] - 2 * lay.margin
    for lines in (2, 99):  # headings over two lines at most where the description keeps room, else narrower
        widths = {k: max(text_width(samples[k], font, lay.size), text_width(headings[k], bold, lay.size) / lines,
                         max(text_width(w, bold, lay.size) for w in headings[k].split())) + lay.size * 1.2
                  for k in order if k != "description"}
        widths["description"] = room - sum(widths.values())
        if widths["description"] >= 170:
            break
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)


def held_j_layout(seed: int) -> Layout:
    """The held-j layout drawn from ``seed``: one template in one locale (see the module docstring)."""
    rng = random.Random(f"held-j:{seed}")
    template = rng.choice(tuple(KINDS))
    place = rng.choice([k for k, w in LOCALE_WEIGHTS.items() for _ in range(w)])
    kind, loc = KINDS[template], LOCALES[place]
    currency, rate, (thousands, decimal) = loc["currency"], rng.choice(loc["rates"]), rng.choice(loc["numbers"])
    lang = rng.choice(loc["langs"]) if kind == "web" else "en"
    words = PRINT if kind == "print" else WEB[lang]
    taxes = loc[f"{kind}_tax"]
    tax_name = rng.choice(taxes[lang] if isinstance(taxes, dict) else taxes)
    rate_txt = rate_text(rate, decimal, rng.choice(RATE_FORMATS)) if rate is not None else ""
    titles = [t for t in words["title"] if ("VAT" not in t or tax_name == "VAT") and ("Tax" not in t or rate)]
    pick = {k: _words(_pick(rng, v if k != "title" else tuple(titles), rate is not None), tax_name, rate_txt, currency)
            for k, v in words.items()}
    date_style = rng.choice(loc[f"{kind}_dates"])
    if date_style in HINTS:
        pick["invoice_date"] = f"{pick['invoice_date']} ({HINTS[date_style]})"
    headings = {k: pick[k] for k in ("line_no", "code", "description", "ordered", "quantity", "backorder", "uom",
                                     "unit_price", "amount", "vat_rate", "tax_amount", "gross") if k in pick}
    labels = {k: v for k, v in pick.items() if k not in (*headings, "title", "credit_title") or k == "code"}
    seller = tuple(_fill(line, rng) for line in rng.choice(SELLERS[place][kind]))
    terms = rng.choice(tuple(TERMS))
    extra = {"template": template, "kind": kind, "locale": place, "lang": lang, "rate_text": rate_txt,
             "tax_name": tax_name, "terms": terms, "terms_text": TERMS[terms], "accent": rng.choice(ACCENTS)}
    if kind == "print":
        page = CONTINUOUS if template == "greenbar" and rng.random() < 0.6 else PAGES[loc["page"]]
        margin = 54.0 if page == CONTINUOUS else rng.choice((30.0, 36.0))
        size = rng.choice((9.5, 10.0, 10.5)) if page == CONTINUOUS else rng.choice((7.5, 8.0, 8.5))
        mode = rng.choice(("field", "code", "note"))
        lay = Layout(
            family="held-j", seed=seed, style="held-j", font="Courier", size=size, page=page, margin=margin,
            title=pick["title"], credit_title=pick["credit_title"], labels=labels, colon=":", columns=(),
            date_style=date_style, thousands=rng.choice((thousands, thousands, "")), decimal=decimal,
            currency=currency, mark=currency if mode == "code" else "",
            mark_place={"field": "field", "code": "after", "note": "note"}[mode], mark_lines=False,
            negative=rng.choice(("minus after", "minus after", "j:CR", "CR after", "minus")), tax_rate=rate,
            ruled=rng.random() < 0.7, zebra=template == "greenbar", header_place=rng.choice(("dots", "colon")),
            totals_place="below", two_row=False, seller=seller, page_label=rng.choice(PRINT_PAGES),
            continued=rng.choice(PRINT_CONTINUED), running="", currency_note=f"ALL AMOUNTS IN {currency}"
            if mode == "note" else None,
            extra={**extra, "holes": page == CONTINUOUS, "stacked": template != "grid" and rng.random() < 0.4,
                   "gap": rng.choice((1, 2)), "cap": rng.choice((24, 30, 36, 40)),
                   "line": min(132, int((page[0] - 2 * margin) / text_width("M", "Courier", size))),
                   "rule": rng.choice(("-", "=", "")), "program": rng.choice(PRINT_PROGRAMS),
                   "notes": tuple(rng.sample(PRINT_NOTES, 2)), "band": rng.choice((2, 3)),
                   "blank_customer": rng.random() < 0.5})
        order = rng.choice(ORDERS[template])
        columns = _print_columns(lay, order, headings)
        if chars(lay, columns, "description") < 18:  # too narrow a form for every field: the optional ones go
            order = tuple(k for k in order if k not in ("ordered", "backorder", "uom", "line_no"))
            columns = _print_columns(lay, order, headings)
        if template != "grid":  # fields spread over the form's width, as a print layout sets its columns
            used = sum(chars(lay, columns, c.key) for c in columns)
            gap = max(lay.extra["gap"], min(4, (lay.extra["line"] - used) // (len(columns) - 1)))
            lay = replace(lay, extra={**lay.extra, "gap": gap})
        return replace(lay, columns=columns)
    symbol = rng.choice(loc["marks"])
    mode = rng.choice(("symbol", "symbol", "code"))
    mark = symbol if mode == "symbol" else currency
    after = bool(loc.get("after")) or mode == "code"
    order = rng.choice(ORDERS[template])
    if rate is None:
        order = tuple(k for k in order if k not in TAX_COLUMNS)
    sku = pick["code"] if "code" not in order else ""
    lay = Layout(
        family="held-j", seed=seed, style="held-j", font=rng.choice(("Helvetica", "Helvetica", "Times")),
        size=rng.choice((7.5, 8.0, 8.5)), page=PAGES[loc["page"]], margin=rng.choice((32.0, 36.0, 42.0)),
        title=pick["title"].upper() if template == "webshop" else pick["title"],  # a shop's plug-in: INVOICE
        credit_title=pick["credit_title"].upper() if template == "webshop" else pick["credit_title"],
        labels={**labels, "sku": sku} if sku else labels,
        colon=rng.choice((":", "")), columns=(), date_style=date_style, thousands=thousands, decimal=decimal,
        currency=currency, mark=mark, mark_place="after" if after else "before",
        mark_lines=rng.random() < 0.5, negative="minus", tax_rate=rate, ruled=rng.random() < 0.6,
        zebra=template == "webshop" and rng.random() < 0.6, header_place=rng.choice(("left", "right")),
        totals_place="below", two_row=False, seller=seller, page_label=rng.choice(WEB_PAGES[lang]),
        continued=rng.choice(WEB_CONTINUED[lang]), running=rng.choice(WEB_RUNNING[lang]),
        currency_note=None,
        extra={**extra, "market": rng.choice(MARKETPLACES), "small": rng.choice(SMALL_PRINT[lang]),
               "thanks": rng.choice(THANKS[lang]), "breakdown": rate is not None and rng.random() < 0.5,
               "payment": rng.randint(0, 3), "card": f"{rng.randint(1000, 9999)}"})
    columns = _web_columns(lay, order, headings)
    while next(c for c in columns if c.key == "description").width < 120 and lay.size > 6.5:
        lay = replace(lay, size=lay.size - 0.5)
        columns = _web_columns(lay, order, headings)
    return replace(lay, columns=columns)


def held_j_vocabulary() -> set[str]:
    """Every title, label and heading wording held-j can print (lower case): the line printers' and the order
    invoices' wordings with every locale's tax names, rates and currency codes put in, and the dates' order hints."""
    out = set()
    for loc in LOCALES.values():
        code = loc["currency"]
        rates = [rate_text(r, d, f) for r in loc["rates"] if r is not None for _, d in loc["numbers"]
                 for f in RATE_FORMATS] + [""]
        web = loc["web_tax"]
        sets = [(PRINT, loc["print_tax"])] + [(WEB[lang], web[lang] if isinstance(web, dict) else web)
                                              for lang in set(loc["langs"])]
        for words, taxes in sets:
            for key, choices in words.items():
                for text in choices:
                    out |= {_words(text, tax, rate, code).lower() for tax in taxes for rate in rates}
                    if key == "invoice_date":
                        out |= {f"{text} ({hint})".lower() for hint in HINTS.values()}
    return out
