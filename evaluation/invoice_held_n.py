"""held-n, a held-aside invoice family: invoices as the accounting and invoicing programs of Southern and Central
Europe print them, in Spain, Italy, Portugal and Poland, in the country's language or in the English of the
templates those programs offer for export customers (the same form, its labels translated).

Each seed picks a country, a language (the country's own in most seeds) and one of two kinds of program:

- **Spain** (IVA 21 %, ``1.234,56 €``): a ``classic`` desktop program's form (the seller's letterhead, the
  customer's box where a window envelope shows it, a row of boxed cells ``Nº Factura | Fecha | Cliente | NIF |
  Página`` repeated on every page, a framed or ruled table, a band of totals at the foot of every page with the
  tax base, the rate, the tax and an equivalence surcharge at nothing, "Suma y sigue" on all but the last, the
  company register's entry printed up the left margin) or a ``modern`` online program's (a coloured title, the
  fields as a list, a shaded table, the totals stacked at the right). A credit note is a ``FACTURA RECTIFICATIVA``
  naming the invoice it corrects and why. Delivery notes (*albaranes*) head the table in some forms; the amount
  in words (``Son: ...``), the payment method, due date and IBAN, and the data-protection notice close it.
- **Italy** (IVA 22 %, ``€ 1.234,56``): a ``gestionale`` (a management program's form: ``Spett.le`` customer
  box, a grid of document type, number, date, page, customer code, VAT and tax codes, payment and bank; a framed
  table with the unit of measure and the VAT code last, headed in some by the delivery note (DDT) it invoices; the
  *Riepilogo IVA* and totals at the foot of every page) or a ``cortesia``: the courtesy copy of an electronic
  invoice (FatturaPA) laid out as the Revenue Agency's viewer does (supplier and customer sections, ``TD01
  fattura`` / ``TD04 nota di credito``, the lines, *Riepiloghi IVA e totali*, payment terms).
- **Portugal** (IVA 23 %, ``1.234,56 €``): a certified program's ``boxed`` or ``clean`` form: ``Original``, the
  document's series and number (``FT A/536365``, or series and number in cells of their own) with its ATCUD,
  "Exmo.(s) Sr.(s)", a row of cells (taxpayer number, customer number, dates, currency), the VAT summary by rate
  and the totals, "Transporte" / "A transportar" amounts at page breaks in some, the program's certificate line
  (``XXXX-Processado por programa certificado n.º 1234/AT``), and a QR code in some. A sale to no customer is to
  the *Consumidor final* (taxpayer number 999999990).
- **Poland** (VAT 23 %, PLN ``1 234,56 zł`` or EUR): a ``classic`` or ``online`` *Faktura VAT* with its place and
  dates of issue and sale, the seller's and buyer's blocks with their NIP, a numbered table of net price, net
  value, VAT rate, VAT amount and gross value per line (the record's amount is the net value; each line's VAT is
  the invoice's VAT shared out to the cent), the VAT summary by rate with its ``Razem`` row, ``Do zapłaty``, the
  total in words (``Słownie: ...``), the bank account (NRB), signature lines or a note that none is needed, and,
  on an invoice in euros, the NBP exchange rate and the VAT in złoty. A credit note is a *Faktura korygująca*.

Within each, the seed varies the font (Helvetica, Times, DejaVu Sans or Serif, Vera), the rules (a frame, a full
grid, row rules or none), shading, column order, the date form the country uses (``01/12/2010``, ``01-12-2010``,
``01.12.2010``, ``2010-12-01``; a form that reads either way always has a date past the 12th beside it: the due
date, or on a credit note the date of the invoice it corrects), the number form, unit prices with two to four
decimals, quantities with none to three, a discount column at zero, how a credit note's negatives are shown
(``-12,50`` or ``(12,50)``), the currency mark and place, and the wordings (:mod:`evaluation.invoice_held_n_words`).
A record without a customer prints no customer number (the cash customer's name instead). Every page repeats the
table's headings and carries its page label.

>>> lay = held_n_layout(4)
>>> lay == held_n_layout(4), lay.family, lay.style, lay.extra["country"] in COUNTRIES
(True, 'held-n', 'held-n', True)
>>> DATE_STYLES["n:dd/mm/yy"](dt.date(2010, 12, 1)), DATE_STYLES["n:Y-mm-dd"](dt.date(2010, 12, 2))
('01/12/10', '2010-12-02')
>>> rate_text(Decimal("0.21"), "{r} %"), rate_text(Decimal("0.23"), "{r},00%")
('21 %', '23,00%')
>>> fill("IVA {rate}", "21 %", "EUR"), fill("Total ({code})", "", "EUR")
('IVA 21 %', 'Total (EUR)')
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import random
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_held_n_facts import due_after, seller_facts
from evaluation.invoice_held_n_firms import TERMS, UNITS
from evaluation.invoice_held_n_words import LABELS, PAGE_LABELS
from evaluation.invoice_layouts import DATE_STYLES, PAGES, Column, Layout, text_width

__all__ = ["AMBIGUOUS", "COUNTRIES", "FACES", "HeldNLayout", "KINDS", "fill", "held_n_layout", "held_n_vocabulary",
           "rate_text"]

DATE_STYLES.update({
    "n:dd/mm/Y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "n:dd/mm/yy": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year % 100:02d}",
    "n:dd-mm-Y": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",
    "n:dd.mm.Y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "n:Y-mm-dd": lambda d: d.isoformat(),
})
AMBIGUOUS = {"n:dd/mm/Y", "n:dd/mm/yy", "n:dd-mm-Y", "n:dd.mm.Y"}  # day and month either way round up to the 12th
# Country: its language, tax rate, currency, the date forms its programs print, the kinds of program imitated.
COUNTRIES = {
    "ES": {"lang": "es", "rate": "0.21", "dates": ("n:dd/mm/Y", "n:dd/mm/Y", "n:dd-mm-Y", "n:dd/mm/yy"),
           "weight": 3},
    "IT": {"lang": "it", "rate": "0.22", "dates": ("n:dd/mm/Y", "n:dd/mm/Y", "n:dd.mm.Y", "n:dd-mm-Y"), "weight": 3},
    "PT": {"lang": "pt", "rate": "0.23", "dates": ("n:Y-mm-dd", "n:dd-mm-Y", "n:dd/mm/Y"), "weight": 2},
    "PL": {"lang": "pl", "rate": "0.23", "dates": ("n:Y-mm-dd", "n:Y-mm-dd", "n:dd.mm.Y", "n:dd-mm-Y"), "weight": 3},
}
KINDS = {"ES": ("classic", "modern"), "IT": ("gestionale", "cortesia"), "PT": ("boxed", "clean"),
         "PL": ("classic", "online")}
RATE_FORMS = ("{r} %", "{r}%", "{r},00 %", "{r},00%")
RATE_CELLS = ("{r}", "{r}%", "{r},00", "{r} %")
ACCENTS = ((0.12, 0.25, 0.45), (0.55, 0.1, 0.12), (0.1, 0.4, 0.3), (0.25, 0.25, 0.25), (0.0, 0.35, 0.55))
RUNNING = {"es": ("{title} nº {number} - {date}", "{title} {number} (continuación)"),
           "it": ("{title} n. {number} del {date}", "{title} {number} - pag. {n}"),
           "pt": ("{title} {number} - {date}", "{title} {number} (continuação)"),
           "pl": ("{title} nr {number} z dnia {date}", "{title} {number} - ciąg dalszy"),
           "en": ("{title} {number} - {date}", "{title} No. {number} (continued)")}
ORDERS = {
    "ES": (("code", "description", "quantity", "unit_price", "discount", "amount"),
           ("code", "description", "quantity", "unit_price", "discount", "vat_rate", "amount"),
           ("code", "description", "unit_price", "quantity", "discount", "amount"),
           ("line_no", "code", "description", "quantity", "unit_price", "discount", "amount")),
    "IT": (("code", "description", "unit", "quantity", "unit_price", "discount", "amount", "vat_rate"),
           ("code", "description", "quantity", "unit", "unit_price", "discount", "vat_rate", "amount"),
           ("line_no", "code", "description", "unit", "quantity", "unit_price", "amount", "vat_rate")),
    "cortesia": (("code", "description", "quantity", "unit_price", "unit", "discount", "vat_rate", "amount"),),
    "PT": (("code", "description", "quantity", "unit", "unit_price", "discount", "vat_rate", "amount"),
           ("code", "description", "quantity", "unit_price", "discount", "vat_rate", "amount"),
           ("code", "description", "unit_price", "quantity", "unit", "discount", "vat_rate", "amount")),
    "PL": (("line_no", "code", "description", "quantity", "unit", "unit_price", "amount", "vat_rate", "vat_amount",
            "gross"),
           ("line_no", "description", "code", "quantity", "unit", "unit_price", "amount", "vat_rate", "vat_amount",
            "gross"),
           ("line_no", "code", "description", "unit", "quantity", "unit_price", "discount", "amount", "vat_rate",
            "vat_amount", "gross"),
           ("line_no", "description", "code", "quantity", "unit", "unit_price", "vat_rate", "amount", "vat_amount",
            "gross")),
}
HEADING_KEYS = ("line_no", "code", "description", "quantity", "unit", "unit_price", "discount", "vat_rate", "amount",
                "vat_amount", "gross")
PA_HEADINGS = {"code": "pa_code", "unit_price": "pa_unit_price", "discount": "pa_discount", "vat_rate": "pa_rate",
               "amount": "pa_amount"}
NUMERIC = ("line_no", "quantity", "unit_price", "discount", "vat_rate", "amount", "vat_amount", "gross")


def _ttf_dir() -> Path:
    """Where matplotlib (an evaluation requirement) keeps its DejaVu faces (found without importing it), else
    ReportLab's own fonts (Vera, which lacks some Polish letters)."""
    spec = importlib.util.find_spec("matplotlib")
    for root in (spec.submodule_search_locations or []) if spec else []:
        if (Path(root) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf").is_file():
            return Path(root) / "mpl-data" / "fonts" / "ttf"
    return Path(reportlab.__file__).parent / "fonts"


_VERA, _TTF = Path(reportlab.__file__).parent / "fonts", _ttf_dir()
for _name, _file in (("HN-Sans", "DejaVuSans.ttf"), ("HN-Sans-Bold", "DejaVuSans-Bold.ttf"),
                     ("HN-Serif", "DejaVuSerif.ttf"), ("HN-Serif-Bold", "DejaVuSerif-Bold.ttf"),
                     ("HN-Vera", "Vera.ttf"), ("HN-Vera-Bold", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        _path = _TTF / _file if (_TTF / _file).is_file() else _VERA / ("VeraBd.ttf" if "Bold" in _name else "Vera.ttf")
        pdfmetrics.registerFont(TTFont(_name, str(_path)))
FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Sans": ("HN-Sans", "HN-Sans-Bold"), "Serif": ("HN-Serif", "HN-Serif-Bold"),
         "Vera": ("HN-Vera", "HN-Vera-Bold")}


def fill(text: str, rate: str, code: str) -> str:
    """A wording with the tax rate as printed and the currency code put in."""
    return " ".join(text.replace("{rate}", rate).replace("{code}", code).split())


def rate_text(rate: Decimal, form: str, decimal: str = ",") -> str:
    """A tax rate in one of the forms of :data:`RATE_FORMS` or :data:`RATE_CELLS` (``{r}`` the whole percent)."""
    return form.replace("{r}", f"{(rate * 100).normalize():f}").replace(",", decimal)


@dataclass(frozen=True)
class HeldNLayout(Layout):
    """A held-n layout: the base layout's fields, with money, prices and quantities printed as these programs do."""

    def number(self, value: Decimal, places: int = 2) -> str:
        """The number grouped and signed as the layout prints it.

        >>> lay = held_n_layout(0)
        >>> lay.number(Decimal("-1234.5")).replace(lay.thousands, "").replace(lay.decimal, ".")[-7:]
        '1234.50'
        """
        text = f"{abs(value):,.{places}f}".replace(",", "\0").replace(".", self.decimal).replace("\0", self.thousands)
        if value >= 0:
            return text
        return f"({text})" if self.negative == "parentheses" else f"-{text}"

    def _marked(self, value: Decimal, places: int, mark: str) -> str:
        body = self.number(abs(value), places)
        if mark:
            body = f"{body} {mark}" if self.mark_place == "after" else f"{mark} {body}"
        if value >= 0:
            return body
        if self.negative == "parentheses":
            return f"({body})"
        return f"{mark} -{body[len(mark) + 1:]}" if mark and self.mark_place == "before" else f"-{body}"

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount: in the totals always with the currency mark (where the layout prints one), in the table only
        when :attr:`mark_lines`."""
        return self._marked(value, 2, self.mark if not lines or self.mark_lines else "")

    def price(self, value: Decimal) -> str:
        """A unit price in the table, with the layout's decimals (two to four: the value is the record's)."""
        return self._marked(value, self.extra["price_places"], self.mark if self.mark_lines else "")

    def quantity(self, value: Decimal) -> str:
        places = self.extra["qty_places"]
        return f"{value:.{places}f}".replace(".", self.decimal)

    def rate_cell(self) -> str:
        return self.extra["rate_cell"]


def _faces(rng: random.Random, country: str) -> str:
    if country == "PL":
        return rng.choice(("Sans", "Sans", "Serif"))
    return rng.choice(("Helvetica", "Helvetica", "Times", "Sans", "Serif", "Vera"))


def _money(rng: random.Random, country: str, lang: str, kind: str) -> dict:
    """Currency, mark and place, grouping and decimal marks, and the sign of a negative amount."""
    out = {"currency": "EUR", "mark": "€", "mark_place": "after", "thousands": ".", "decimal": ",",
           "negative": "parentheses" if rng.random() < 0.2 else "minus", "mark_lines": rng.random() < 0.3}
    if country == "ES":
        out["mark"] = rng.choice(("€", "€", "€", "EUR"))
        out["thousands"] = rng.choice((".", ".", ".", ""))
    elif country == "IT":
        out["mark"], out["mark_place"] = rng.choice((("€", "before"), ("€", "before"), ("€", "after"),
                                                     ("EUR", "before")))
        out["negative"] = "minus" if rng.random() < 0.85 else "parentheses"
        if kind == "cortesia":
            out.update(mark="", mark_lines=False, negative="minus")
    elif country == "PT":
        out["thousands"] = rng.choice((".", ".", " ", ""))
    else:
        out["currency"] = "PLN" if rng.random() < 0.8 else "EUR"
        out["mark"] = rng.choice(("zł", "zł", "PLN")) if out["currency"] == "PLN" else rng.choice(("EUR", "EUR", "€"))
        out.update(thousands=rng.choice((" ", " ", " ", "")), negative="minus", mark_lines=False)
    if lang == "en" and kind != "cortesia" and rng.random() < 0.3:
        out.update(thousands=",", decimal=".")
    return out


def _columns(lay: HeldNLayout, order: tuple[str, ...], headings: dict[str, str], width: float,
             min_desc: float) -> tuple[Column, ...]:
    """Each number column as wide as its widest value or its heading's longest word (headings wrap), the code
    column as wide as a seven-character code, the description taking the rest; a layout too narrow for a
    description of ``min_desc`` points drops its discount, unit and line-number columns, in that order."""
    face, bold = lay.extra["face"]
    size, pad = lay.size, lay.size * 1.1
    wide = lay.money(Decimal("-99999.99"), lines=True)
    samples = {"line_no": "999", "code": "15056BL", "quantity": lay.quantity(Decimal("-9999")),
               "unit": lay.extra["unit_word"], "unit_price": lay.price(Decimal("-999.99")),
               "discount": lay.extra["discount_cell"], "vat_rate": lay.rate_cell(), "amount": wide,
               "vat_amount": wide, "gross": wide}

    def measure(keys):
        return {k: max(text_width(samples[k], face, size), *(text_width(w, bold, size) for w in headings[k].split()))
                + pad for k in keys if k != "description"}

    widths = measure(order)
    for spare in ("discount", "unit", "line_no"):
        if width - sum(widths.values()) < min_desc and spare in order:
            order = tuple(k for k in order if k != spare)
            widths = measure(order)
    widths["description"] = width - sum(widths.values())
    return tuple(Column(k, headings[k], round(widths[k], 2)) for k in order)


def _digits(rng: random.Random) -> dict[str, str]:
    return {f"d{n}{tag}": "".join(str(rng.randint(0, 9)) for _ in range(n)) for n in range(2, 11)
            for tag in ("", "b", "c")}


def _terms(rng: random.Random, country: str, lang: str, date_style: str):
    """Payment terms whose due date, for an invoice of 1 or 2 December, falls past the 12th where the date form
    reads either way (so the due date settles the order of day and month)."""
    terms = TERMS[(country, lang)]
    if date_style in AMBIGUOUS:
        terms = tuple(t for t in terms if all(due_after(dt.date(2010, 12, d), t[1]).day > 12 for d in (1, 2)))
    return rng.choice(terms)


def held_n_layout(seed: int) -> HeldNLayout:
    """The held-n layout drawn from ``seed``: one country, language and kind of program (see the module
    docstring)."""
    rng = random.Random(f"held-n:{seed}")
    country = rng.choice([c for c, v in COUNTRIES.items() for _ in range(v["weight"])])
    conf = COUNTRIES[country]
    lang = conf["lang"] if rng.random() < 0.7 else "en"
    kind = rng.choice(KINDS[country] if lang != "en" or country != "IT" else ("gestionale",))
    words = LABELS[(country, lang)]
    money = _money(rng, country, lang, kind)
    exempt = country != "PL" and kind != "cortesia" and rng.random() < (0.25 if lang == "en" else 0.08)
    rate = None if exempt else Decimal(conf["rate"])
    rtext = rate_text(Decimal(conf["rate"]), rng.choice(RATE_FORMS), money["decimal"])
    pick = {k: fill(rng.choice(v), rtext, money["currency"]) for k, v in words.items()}
    if kind == "cortesia":
        pick.update({k: pick[v] for k, v in PA_HEADINGS.items()})
        pick.update(invoice_number=pick["pa_number"], credit_number=pick["pa_number"], invoice_date=pick["pa_date"],
                    subtotal=pick["pa_subtotal"], tax=pick["pa_tax"], total=pick["pa_total"], unit="UM",
                    customer_id=words["customer_id"][1], description="Descrizione", quantity="Quantità",
                    title=pick["pa_title"], credit_title=pick["pa_credit_title"])
    title, credit = pick.pop("title"), pick.pop("credit_title")
    headings = {k: pick.pop(k) for k in HEADING_KEYS if k in pick}
    date_style = "n:dd-mm-Y" if kind == "cortesia" else rng.choice(conf["dates"])
    order = rng.choice(ORDERS["cortesia" if kind == "cortesia" else country])
    if rate is None:
        order = tuple(k for k in order if k != "vat_rate")
        pick.pop("tax", None)
    face = _faces(rng, country)
    size = rng.choice((7.0, 7.5, 8.0) if country == "PL" or kind == "cortesia" else (8.0, 8.5, 9.0))
    margin = rng.choice((28.0, 34.0, 40.0))
    digits = _digits(rng)
    repeat_header = (country, kind) in (("ES", "classic"), ("IT", "gestionale"))
    page_label = rng.choice(PAGE_LABELS[lang])
    if repeat_header:  # the page is a cell of the header: its label over "1 de 2"
        page_label = rng.choice(("{n} de {m}", "{n}/{m}") if country == "ES" else ("{n}/{m}", "{n} di {m}"))
        if lang == "en":
            page_label = rng.choice(("{n} of {m}", "{n}/{m}"))
    extra = {
        "country": country, "lang": lang, "kind": kind, "face": FACES[face], "accent": rng.choice(ACCENTS),
        "table": rng.choice({"classic": ("frame", "frame", "grid"), "gestionale": ("frame", "grid"),
                             "cortesia": ("grid",), "boxed": ("grid", "rules", "frame"), "clean": ("rules", "open"),
                             "modern": ("rules", "open", "rules"), "online": ("rules", "grid", "open")}[kind]
                            if country != "PL" or kind != "classic" else ("grid",)),
        "head_fill": rng.choice(("grey", "grey", "accent", None) if kind in ("modern", "clean", "online")
                                else ("grey", "grey", None)),
        "zebra": kind in ("modern", "online") and rng.random() < 0.3,
        "qty_places": rng.choice({"ES": (0, 2, 2), "IT": (0, 2, 2, 3), "PT": (0, 2, 3), "PL": (0, 2, 3)}[country]),
        "price_places": rng.choice({"ES": (2, 2, 4), "IT": (2, 2, 3), "PT": (2, 2, 3), "PL": (2,)}[country]),
        "unit_word": rng.choice(UNITS[lang]),
        "discount_cell": rng.choice(("0,00", "0", "0,00 %")).replace(",", money["decimal"]),
        "rate_cell": rate_text(Decimal(conf["rate"]), rng.choice(RATE_CELLS), money["decimal"]),
        "rate_text": rtext if rate is not None else "", "exempt": exempt,
        "repeat_header": repeat_header, "band": repeat_header,
        "carry": country == "PT" and rng.random() < 0.6 or repeat_header and rng.random() < 0.5 or
        country == "PL" and rng.random() < 0.2,
        "words": {"ES": 0.4, "IT": 0.25, "PT": 0.15, "PL": 1.0}[country] > rng.random() and kind != "cortesia",
        "delivery": country in ("ES", "IT") and kind != "cortesia" and rng.random() < 0.35,
        "fields": rng.choice(("cells", "list", "grid")), "seller_side": rng.choice(("left", "left", "right")),
        "doc_number": rng.choice(("series", "series", "split")) if country == "PT" else "plain",
        "series": rng.choice(("A", "2010", "1", "2010A")), "qr": country == "PT" and rng.random() < 0.5,
        "signatures": rng.choice(("lines", "lines", "note")) if country == "PL" else None,
        "pl_lines": rng.random() < 0.5, "paid_line": rng.random() < 0.5, "sale_date": rng.random() < 0.8,
        "register_up": country == "ES" and rng.random() < 0.6, "order_ref": rng.random() < 0.4,
        "days": rng.randint(10, 28), "title_side": rng.choice(("left", "right")), "colon": rng.random() < 0.6,
        "copy": country in ("PT", "PL") and rng.random() < 0.7, "privacy": rng.random() < 0.7,
        "running": rng.choice(RUNNING[lang]), "digits": digits, "caps_country": rng.random() < 0.4,
    }
    extra["terms"] = _terms(rng, country, lang, date_style)
    if kind == "cortesia":  # the viewer prints the XML's numbers: rate and quantity with two decimals
        extra.update(rate_cell=rate_text(rate, "{r},00"), qty_places=2, table="grid", head_fill="grey")
    if not extra["carry"]:  # no amount to carry: a "continued" phrase, or nothing
        more = words["continued"][1:]
        pick["continued"] = rng.choice(more) if more else words["continued"][0]
        continued = pick["continued"] if more and rng.random() < 0.7 else None
    else:
        pick["continued"] = continued = words["continued"][0]
    extra["seller"] = seller_facts(rng, country, lang, digits, money["currency"])
    lay = HeldNLayout(
        family="held-n", seed=seed, style="held-n", font="Times" if face in ("Times", "Serif") else "Helvetica",
        size=size, page=PAGES["A4"], margin=margin, title=title, credit_title=credit, labels=pick,
        colon=":" if extra["colon"] else "", columns=(), date_style=date_style, thousands=money["thousands"],
        decimal=money["decimal"], currency=money["currency"], mark=money["mark"], mark_place=money["mark_place"],
        mark_lines=money["mark_lines"], negative=money["negative"], tax_rate=rate,
        ruled=extra["table"] in ("frame", "grid"), zebra=extra["zebra"], header_place=extra["fields"],
        totals_place="band" if extra["band"] else "below", two_row=False,
        seller=(extra["seller"]["name"], *extra["seller"]["lines"]), page_label=page_label,
        continued=continued, running=extra["running"], currency_note=None, extra=extra)
    width = lay.page[0] - 2 * margin
    return replace(lay, columns=_columns(lay, order, headings, width, 150.0 if country != "PL" else 120.0))


def held_n_vocabulary() -> set[str]:
    """Every title, label and heading wording held-n can print (lower case), with each country's rate in every
    form and the currency codes put in."""
    out = set()
    for (country, _lang), words in LABELS.items():
        rate = Decimal(COUNTRIES[country]["rate"])
        for form in RATE_FORMS:
            for decimal in (",", "."):
                for code in ("EUR", "PLN"):
                    out |= {fill(w, rate_text(rate, form, decimal), code).lower() for v in words.values() for w in v}
    return out
