"""How a generated invoice looks: :class:`Layout`, drawn from a seed by :func:`layout`, for one of six families.

A layout fixes everything the printed page varies in and nothing of the invoice itself (that is
:class:`evaluation.invoice_records.Invoice`): the label wording of each header field, the column headings and their
order, the date, number and currency formats, the font, the rules and shading, where the header block and the
totals go, how wide the description column is (a narrow one wraps long descriptions onto more lines), and what a
multi-page invoice prints on each page (headings repeated, "continued" marks, page numbers). ``layout(seed, family)``
is deterministic: the same seed and family always give the same layout.

Families (the drawing of each is in :mod:`evaluation.invoice_render`):

- ``dev-a`` **classic**: A4 or Letter, Helvetica or Times; title and seller at the top, a ``Label: value`` header
  block on the left, on the right or as one row across the page; a table with ruled rows, zebra shading or neither;
  totals right-aligned under the table; page numbers at the foot.
- ``dev-b`` **boxed**: seller top left, title top right; a two-column header with each label printed small above
  its value; a dark heading bar over the table; totals in a bordered box; page numbers at the top right.
- ``dev-c`` **receipt**: Courier on a narrow page; centred seller lines, ``=``/``-`` rules typed as text, header
  fields and totals with dotted leaders; each item on one row, or its description on a row of its own above the
  other columns.
- ``dev-d`` **plain**: drawn as the classic one, in wordings the reader's vocabulary does not hold for about half
  of the labels and headings (:data:`UNKNOWN`; a test keeps the two apart), so those are found from their values;
  the currency named by a header field or by the total's label and nowhere else, negatives in parentheses, with
  the minus or ``CR`` after the number, numbers grouped by apostrophes or not at all, and the header fields in
  any order.
- ``dev-e`` **ledger**: drawn as the classic one, with what a ledger system prints around the wanted values, each
  of the same type as one of them (:data:`evaluation.invoice_wordings.LEDGER`): a due date and an order number
  among the header fields (in any order), a first column counting the lines (1, 2, 3 ...), a tax-rate column when
  tax is charged (half the time), the customer's address with its country above the table, the seller's bank
  details (an account number) under the totals, column headings of two words stacked on two lines (half the
  time), and about a third of the labels and headings in :data:`UNKNOWN` wordings.
- ``held``: the held-aside family (see its own section at the end of this module).
- ``held-b``: a second held-aside family, not in this module: :mod:`evaluation.invoice_families` holds every
  family, this one included (not to be read either, on the same terms as ``held``).

The money truth is in the records' amounts; a layout only says which currency they are printed as (GBP, EUR or
USD; in the dev families by symbol or ISO code, before or after the number), and the truth's currency is that one.
Dates are printed only in unambiguous forms (in the dev families month names, ISO, and ``01.12.2010`` as
day.month.year; numeric forms that could be read either way only with the order printed beside them).

**The held-aside family must never be looked at while developing the invoice reader**: not its vocabulary, not its
structure, not its generated files, not its scores per file. It measures how the reader does on wording and
structure it was not tuned on; once it has been looked at, it no longer measures that. Its vocabulary is kept apart
in the section at the end of this module, and none of its wordings is used by a dev family.

>>> a = layout(7, "dev-a")
>>> a == layout(7, "dev-a"), a.family, a.style
(True, 'dev-a', 'classic')
>>> b = layout(4, "dev-b")
>>> b.money(Decimal("-1234.5")), b.date(dt.date(2010, 12, 2)), b.label("total")
('-$1 234,50', '2 Dec 2010', 'Balance due')
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal

from reportlab.pdfbase.pdfmetrics import stringWidth

from evaluation.invoice_wordings import CURRENCY_LABELS, DEV, DEV_FORMATS, LEDGER, UNKNOWN, VARIANT_FORMATS

__all__ = ["DEV", "DEV_FAMILIES", "FAMILIES", "HELD", "UNKNOWN", "Column", "Layout", "layout", "vocabulary"]

DEV_FAMILIES = ("dev-a", "dev-b", "dev-c", "dev-d", "dev-e")
FAMILIES = (*DEV_FAMILIES, "held")  # this module's; every family is in evaluation.invoice_families
FONTS = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Courier": ("Courier", "Courier-Bold")}
PAGES = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
MARKS = {"GBP": "£", "EUR": "€", "USD": "$"}


# Date styles: name -> how a date is printed. Every one is unambiguous as printed.
DATE_STYLES = {
    "Y-m-d": lambda d: d.isoformat(),
    "d Mon Y": lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",
    "dd Month Y": lambda d: f"{d.day:02d} {MONTHS[d.month - 1]} {d.year}",
    "Month d, Y": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    "dd.mm.Y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",  # day.month.year, the European dotted form
    "dd-MON-Y": lambda d: f"{d.day:02d}-{MONTHS[d.month - 1][:3].upper()}-{d.year}",
}
DATE_LABELS: dict[str, str] = {}  # date style -> what its label adds, for a form that names its order
# Sign styles: name -> how a negative number is printed, from its absolute value.
NEGATIVES = {"minus": lambda text: f"-{text}", "parentheses": lambda text: f"({text})",
             "minus after": lambda text: f"{text}-", "CR after": lambda text: f"{text} CR"}


@dataclass(frozen=True)
class Column:
    """One table column: which line value it holds (``code``, ``description``, ``quantity``, ``unit_price``,
    ``amount``), its printed heading and its width in points."""

    key: str
    heading: str
    width: float


@dataclass(frozen=True)
class Layout:
    family: str
    seed: int
    style: str  # classic | boxed | receipt (the held family has its own)
    font: str  # a key of FONTS
    size: float  # body text, points
    page: tuple[float, float]  # width, height in points
    margin: float
    title: str
    credit_title: str
    labels: dict[str, str]  # invoice_number, credit_number, invoice_date, customer_id, country, subtotal, tax, total
    colon: str  # printed after a label: ":" or ""
    columns: tuple[Column, ...]  # in print order
    date_style: str  # a key of DATE_STYLES
    thousands: str
    decimal: str
    currency: str  # ISO 4217 code, the truth's currency
    mark: str  # "£", "GBP", ...; "" when the currency is stated once in a note
    mark_place: str  # before | after | note (the mark is printed nowhere) | field (a header field names it) |
    # total (the total's label names it: "Total (EUR)") | heading (the amount column's heading names it)
    mark_lines: bool  # the table's prices and amounts carry the mark too
    negative: str  # a key of NEGATIVES; minus: -27.50
    tax_rate: Decimal | None
    ruled: bool
    zebra: bool
    header_place: str  # classic: left | right | top; boxed: grid; receipt: leaders
    totals_place: str  # classic: below; boxed: box; receipt: leaders
    two_row: bool  # receipt: each description on its own row above the other columns
    seller: tuple[str, ...]
    page_label: str | None  # "Page {n} of {m}"
    continued: str | None  # foot of every page but the last; may name {next}
    running: str  # top of a continuation page; names {title}, {number}, {n}
    currency_note: str | None  # the note stating the currency when mark_place is "note"
    extra: dict = field(default_factory=dict)  # style details that need no field of their own

    @property
    def fonts(self) -> tuple[str, str]:
        """The regular and bold ReportLab font names."""
        return FONTS[self.font]

    def number(self, value: Decimal, places: int = 2) -> str:
        """The number as printed: grouped thousands, the layout's decimal mark and sign style.

        >>> lay = layout(0, "dev-a")
        >>> lay.number(Decimal("-1234.5")).replace(lay.thousands, ",").replace(lay.decimal, ".")
        '-1,234.50'
        """
        text = f"{abs(value):,.{places}f}"
        text = text.replace(",", "\0").replace(".", self.decimal).replace("\0", self.thousands)
        if value >= 0:
            return text
        return NEGATIVES[self.negative](text)

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount as printed in the totals (``lines`` False) or in the table (True; with the currency mark only
        when :attr:`mark_lines`)."""
        text = self.number(value)
        if self.mark_place in ("note", "field", "total", "heading") or (lines and not self.mark_lines):
            return text
        space = " " if len(self.mark) > 1 or self.mark_place == "after" else ""
        if self.mark_place == "after":
            return f"{text}{space}{self.mark}"
        if len(self.mark) == 1 and text.startswith("-"):
            return f"-{self.mark}{text[1:]}"  # -£27.50
        return f"{self.mark}{space}{text}"  # £27.50, GBP -27.50

    def quantity(self, value: Decimal) -> str:
        return self.number(value, 0) if self.extra.get("group_quantity") else \
            self.number(value, 0).replace(self.thousands, "")

    def date(self, value: dt.date) -> str:
        return DATE_STYLES[self.date_style](value)

    def label(self, name: str, credit: bool = False) -> str:
        """A header or totals label as printed, with its colon (``credit`` picks the credit note's number label)."""
        if name == "invoice_number" and credit:
            name = "credit_number"
        text = self.labels[name]
        if name == "invoice_date":
            text += DATE_LABELS.get(self.date_style, "")
        if name == "total" and self.mark_place == "total":
            text += f" ({self.currency})"
        return text + self.colon

    def wordings(self) -> set[str]:
        """Every wording this layout prints as a title, label or heading (lower case, no colon)."""
        words = {self.title, self.credit_title, *self.labels.values(), *(c.heading for c in self.columns)}
        return {w.lower() for w in words}

    def summary(self) -> dict:
        """The layout in a JSON line: what differs from file to file."""
        out = asdict(self)
        out["columns"] = [c["key"] for c in out["columns"]]
        out["headings"] = [c.heading for c in self.columns]
        out["tax_rate"] = None if self.tax_rate is None else float(self.tax_rate)
        out["page"] = list(self.page)
        for name in ("seller", "extra"):
            out.pop(name)
        return out


def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


ORDERS = {
    "dev-a": (("code", "description", "quantity", "unit_price", "amount"),
              ("code", "description", "unit_price", "quantity", "amount"),
              ("quantity", "code", "description", "unit_price", "amount")),
    "dev-b": (("description", "code", "quantity", "unit_price", "amount"),
              ("code", "description", "quantity", "unit_price", "amount"),
              ("code", "description", "unit_price", "quantity", "amount")),
    "dev-c": (("code", "description", "quantity", "unit_price", "amount"),
              ("quantity", "code", "description", "unit_price", "amount")),
    "dev-e": (("line_no", "code", "description", "quantity", "unit_price", "amount"),
              ("line_no", "code", "description", "unit_price", "quantity", "amount"),
              ("line_no", "quantity", "code", "description", "unit_price", "amount")),
    "dev-d": (("code", "quantity", "description", "unit_price", "amount"),
              ("description", "code", "unit_price", "quantity", "amount"),
              ("quantity", "description", "code", "unit_price", "amount"),
              ("code", "description", "quantity", "unit_price", "amount")),
}


def _pick_words(rng: random.Random, vocab: dict) -> tuple[str, str, dict[str, str], dict[str, str]]:
    labels = {k: rng.choice(vocab[k]) for k in ("invoice_number", "credit_number", "invoice_date", "customer_id",
                                                 "country", "subtotal", "tax", "total")}
    headings = {k: rng.choice(vocab[k]) for k in ("code", "description", "quantity", "unit_price", "amount")}
    return rng.choice(vocab["title"]), rng.choice(vocab["credit_title"]), labels, headings


def _columns(lay: Layout, order, headings, narrow_text: bool) -> tuple[Column, ...]:
    """Column widths: each number column as wide as its heading or the widest value it prints, the code column
    for a 7-character code (a longer one wraps at its spaces), the description taking the rest (about half of it
    when ``narrow_text``: long descriptions wrap). With :attr:`Layout.two_row` the description has a row of its
    own across the table and the code column takes what the others leave."""
    font, bold = lay.fonts
    samples = {"code": "15056BL", "quantity": lay.quantity(Decimal("-9999")), "line_no": "999", "vat_rate": "20%",
               "unit_price": lay.money(Decimal("-999.99"), lines=True),
               "amount": lay.money(Decimal("-9999.99"), lines=True)}
    widths = {k: max(text_width(v, font, lay.size), text_width(headings[k], bold, lay.size)) + lay.size
              for k, v in samples.items() if k in order}
    table_width = lay.page[0] - 2 * lay.margin
    rest = table_width - sum(widths.values())
    if lay.two_row:
        widths["code"] += rest
        widths["description"] = table_width
    else:
        widths["description"] = max(text_width("M" * 12, font, lay.size), rest * 0.55) if narrow_text else rest
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)


def _money_style(rng: random.Random) -> tuple[str, str, str, bool]:
    currency = rng.choice(("GBP", "EUR", "USD"))
    mark = rng.choice((MARKS[currency], currency))
    return currency, mark, rng.choice(("before", "after")), rng.random() < 0.3


def _dev(seed: int, family: str) -> Layout:
    rng = random.Random(f"{family}:{seed}")
    title, credit_title, labels, headings = _pick_words(rng, DEV)
    style = {"dev-a": "classic", "dev-b": "boxed", "dev-c": "receipt", "dev-d": "plain", "dev-e": "ledger"}[family]
    if style == "receipt":
        font, size = "Courier", rng.choice((7.5, 8.0, 8.5))
        page, margin = (rng.choice((288.0, 320.0, 360.0)), rng.choice((720.0, 792.0))), 16.0
        title, credit_title = title.upper(), credit_title.upper()
        headings = {k: v.upper() for k, v in headings.items()}
    else:
        font, size = rng.choice(("Helvetica", "Times")), rng.choice((8.5, 9.0, 9.5, 10.0))
        page, margin = PAGES[rng.choice(("A4", "Letter"))], rng.choice((42.0, 50.0, 57.0))
    thousands, decimal = rng.choice(DEV_FORMATS["numbers"])
    currency, mark, mark_place, mark_lines = _money_style(rng)
    ruled = rng.random() < 0.5
    zebra = style != "receipt" and rng.random() < (0.6 if style == "boxed" else 0.0 if ruled else 0.4)
    lay = Layout(
        family=family, seed=seed, style=style, font=font, size=size, page=page, margin=margin, title=title,
        credit_title=credit_title, labels=labels, colon=rng.choice((":", "")) if style != "boxed" else "",
        columns=(), date_style=rng.choice(DEV_FORMATS["date_style"]), thousands=thousands, decimal=decimal,
        currency=currency, mark=mark, mark_place=mark_place, mark_lines=mark_lines, negative="minus",
        tax_rate=Decimal("0.20") if rng.random() < 0.5 else None, ruled=ruled, zebra=zebra,
        header_place=_header_place(style, rng.choice(("left", "right", "top"))),  # drawn for every style
        totals_place={"classic": "below", "boxed": "box", "receipt": "leaders", "plain": "below",
                      "ledger": "below"}[style],
        two_row=style == "receipt" and rng.random() < 0.5,
        seller=rng.choice(DEV_FORMATS["sellers"]) + (f"Tel. 020 7946 0{rng.randint(100, 999)}",),
        page_label=rng.choice(DEV_FORMATS["page_label"]), continued=rng.choice(DEV_FORMATS["continued"]),
        running=rng.choice(DEV_FORMATS["running"]), currency_note=None,
        extra={"group_quantity": rng.random() < 0.5,
               "vat_reg": f"GB {rng.randint(100, 999)} {rng.randint(1000, 9999)} {rng.randint(10, 99)}",
               "accent": rng.choice(((0.1, 0.2, 0.4), (0.2, 0.2, 0.2), (0.0, 0.3, 0.3)))})
    if family == "dev-d":
        lay, headings = _variant(lay, headings, random.Random(f"dev-d:{seed}:variant"))
    order, narrow = rng.choice(ORDERS[family]), rng.random() < 0.35
    if family == "dev-e":
        lay, headings, order = _ledger(lay, headings, order, random.Random(f"dev-e:{seed}:ledger"))
    columns = _columns(lay, order, headings, narrow_text=narrow and style != "receipt")
    if style == "receipt" and not lay.two_row and _width(columns, "description") < text_width("M" * 16, font, size):
        lay = replace(lay, two_row=True)  # too narrow a page for the description beside the numbers
        columns = _columns(lay, order, headings, narrow_text=False)
    return replace(lay, columns=columns)


def _header_place(style: str, drawn: str) -> str:
    return drawn if style in ("classic", "plain", "ledger") else {"boxed": "grid", "receipt": "leaders"}[style]


def _variant(lay: Layout, headings: dict[str, str], rng: random.Random) -> tuple[Layout, dict[str, str]]:
    """dev-d's changes to a classic layout: unknown wordings for about half of the labels and headings, and the
    formats of :data:`VARIANT_FORMATS`."""
    labels = {k: rng.choice(UNKNOWN[k]) if rng.random() < 0.5 else v for k, v in lay.labels.items()}
    headings = {k: rng.choice(UNKNOWN[k]) if rng.random() < 0.5 else v for k, v in headings.items()}
    thousands, decimal = rng.choice(VARIANT_FORMATS["numbers"])
    order = ["invoice_number", "invoice_date", "customer_id", "country"]
    rng.shuffle(order)
    mark_place = rng.choice(VARIANT_FORMATS["mark_place"])
    if mark_place == "field":
        labels["currency"] = rng.choice(CURRENCY_LABELS)
        order.insert(rng.randint(0, len(order)), "currency")
    return replace(lay, labels=labels, thousands=thousands, decimal=decimal, mark_place=mark_place,
                   mark_lines=lay.mark_lines and mark_place in ("before", "after"),
                   negative=rng.choice(VARIANT_FORMATS["negative"]),
                   extra={**lay.extra, "field_order": tuple(order)}), headings


def _ledger(lay: Layout, headings: dict[str, str], order: tuple[str, ...], rng: random.Random
            ) -> tuple[Layout, dict[str, str], tuple[str, ...]]:
    """dev-e's additions to a classic layout: the distracting header fields, the line counter and tax-rate
    columns, the address block, and unknown wordings for about a third of the labels and headings."""
    labels = {k: rng.choice(UNKNOWN[k]) if rng.random() < 0.33 else v for k, v in lay.labels.items()}
    headings = {k: rng.choice(UNKNOWN[k]) if rng.random() < 0.33 else v for k, v in headings.items()}
    labels["due_date"], labels["order_number"] = rng.choice(LEDGER["due_date"]), rng.choice(LEDGER["order_number"])
    headings["line_no"], headings["vat_rate"] = rng.choice(LEDGER["line_no"]), rng.choice(LEDGER["vat_rate"])
    fields = ["invoice_number", "invoice_date", "customer_id", "country", "due_date", "order_number"]
    rng.shuffle(fields)
    if lay.tax_rate is not None and rng.random() < 0.5:
        order = (*order[:-1], "vat_rate", order[-1])
    address = (rng.choice(LEDGER["address"]), "Accounts Payable", rng.choice(LEDGER["streets"]),
               rng.choice(LEDGER["towns"]))
    bank = rng.choice(LEDGER["bank"]).format(account=rng.randint(10000000, 99999999))
    return replace(lay, labels=labels, extra={**lay.extra, "field_order": tuple(fields), "address": address,
                                               "order_base": rng.randint(100000, 899999), "bank": bank,
                                               "stacked": rng.random() < 0.5}), headings, order


def _width(columns: tuple[Column, ...], key: str) -> float:
    return next(c.width for c in columns if c.key == key)


def layout(seed: int, family: str) -> Layout:
    """The layout of ``family`` drawn from ``seed`` (the same pair always gives the same layout)."""
    if family in DEV_FAMILIES:
        return _dev(seed, family)
    if family == "held":
        return _held(seed)
    raise _unknown(family)


def _unknown(family: str) -> ValueError:
    return ValueError(f"unknown family {family!r}; here: {', '.join(FAMILIES)}; all: evaluation.invoice_families")


def vocabulary(family: str) -> set[str]:
    """Every title, label and heading wording ``family`` can print (lower case)."""
    if family == "held":
        return {w.lower() for words in HELD.values() for w in words}
    if family not in DEV_FAMILIES:
        raise _unknown(family)
    extra = {"dev-d": [*UNKNOWN.values(), CURRENCY_LABELS],
             "dev-e": [*UNKNOWN.values(), *(LEDGER[k] for k in ("due_date", "order_number", "line_no", "vat_rate"))]
             }.get(family, [])
    return {w.lower() for words in (*DEV.values(), *extra) for w in words}


# ---------------------------------------------------------------------------------------------------------------
# HELD-ASIDE FAMILY. Do not read this section, its generated files or its per-file scores while developing the
# invoice reader. Its wordings, formats, column orders and structure are used by no dev family.
# ---------------------------------------------------------------------------------------------------------------
HELD = {
    "title": ("BILL", "Sales bill", "Commercial invoice"),
    "credit_title": ("Credit memo", "Credit advice"),
    "invoice_number": ("Reference", "Doc. ref.", "Bill no.", "Serial"),
    "credit_number": ("Memo ref.", "Advice no."),
    "invoice_date": ("Dated", "Date of issue", "Issue date", "Tax point"),
    "customer_id": ("Buyer no.", "Customer number", "Client ref.", "Debtor"),
    "country": ("Destination", "Consignee country", "Shipped to"),
    "subtotal": ("Net value", "Sum of items", "Merchandise", "Total before tax"),
    "tax": ("Sales tax 20%", "Value added tax (20%)", "Tax amount"),
    "total": ("Amount payable", "Grand total", "To pay", "Sum due"),
    "code": ("Article", "Art. no.", "Ref.", "Catalogue no."),
    "description": ("Particulars", "Designation", "Name of article"),
    "quantity": ("Count", "No. of units", "Ordered"),
    "unit_price": ("Each", "Per unit", "Unit cost"),
    "amount": ("Value", "Extended", "Ext. price", "Sum"),
}
CURRENCY_NAMES = {"GBP": "pounds sterling", "EUR": "euro", "USD": "US dollars"}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


DATE_STYLES.update({
    "Y/mm/dd": lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}",
    "Weekday d Month Y": lambda d: f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year}",
    "ordinal Month Y": lambda d: f"{_ordinal(d.day)} {MONTHS[d.month - 1]} {d.year}",
    "dd/mm/Y stated": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
})
DATE_LABELS["dd/mm/Y stated"] = " (dd/mm/yyyy)"
NEGATIVES.update({"parens": lambda text: f"({text})", "trailing": lambda text: f"{text}-"})
HELD_FORMATS = {
    "date_style": ("Y/mm/dd", "Weekday d Month Y", "ordinal Month Y", "dd/mm/Y stated"),
    "numbers": (("'", "."), (" ", ".")),
    "negative": ("parens", "trailing"),
    "page_label": ("Sheet {n} of {m}", "p. {n} ({m})"),
    "continued": ("Items continue on sheet {next}", "See next sheet"),
    "running": ("{number}: sheet {n}", "{title} {number}, sheet {n}"),
    "currency_note": ("All amounts in {code}", "Currency of the bill: {code}", "Prices in {name} ({code})"),
    "sellers": (
        ("Oakridge Trading Co.", "Warehouse 9, Canal Wharf", "Nottingham NG2 3AA"),
        ("Penrose & Daughters", "The Old Granary, Market Place", "Ludlow SY8 1AQ"),
    ),
}
ORDERS["held"] = (("description", "quantity", "unit_price", "amount", "code"),
                  ("code", "quantity", "description", "amount", "unit_price"),
                  ("quantity", "description", "code", "amount", "unit_price"))


def _held(seed: int) -> Layout:
    """The held-aside family, style ``summary``: a vertical key | value header table (``header_place`` left or
    right), the totals above the items (``totals_place`` above-box or above-strip), the currency stated once in a
    note (``mark_place`` note), negatives in parentheses or with a trailing minus."""
    rng = random.Random(f"held:{seed}")
    title, credit_title, labels, headings = _pick_words(rng, HELD)
    font, size = rng.choice(("Helvetica", "Times")), rng.choice((8.5, 9.0, 9.5))
    page, margin = PAGES[rng.choice(("A4", "Letter"))], rng.choice((45.0, 54.0))
    thousands, decimal = rng.choice(HELD_FORMATS["numbers"])
    currency = rng.choice(("GBP", "EUR", "USD"))
    note = rng.choice(HELD_FORMATS["currency_note"]).format(code=currency, name=CURRENCY_NAMES[currency])
    lay = Layout(
        family="held", seed=seed, style="summary", font=font, size=size, page=page, margin=margin, title=title,
        credit_title=credit_title, labels=labels, colon="", columns=(),
        date_style=rng.choice(HELD_FORMATS["date_style"]), thousands=thousands, decimal=decimal, currency=currency,
        mark="", mark_place="note", mark_lines=False, negative=rng.choice(HELD_FORMATS["negative"]),
        tax_rate=Decimal("0.20") if rng.random() < 0.5 else None, ruled=rng.random() < 0.6, zebra=False,
        header_place=rng.choice(("left", "right")), totals_place=rng.choice(("above-box", "above-strip")),
        two_row=False, seller=rng.choice(HELD_FORMATS["sellers"]) + (f"Phone 0113 496 0{rng.randint(100, 999)}",),
        page_label=rng.choice(HELD_FORMATS["page_label"]), continued=rng.choice(HELD_FORMATS["continued"]),
        running=rng.choice(HELD_FORMATS["running"]), currency_note=note,
        extra={"group_quantity": rng.random() < 0.5, "registered": f"Registered no. {rng.randint(1000000, 9999999)}",
               "field_order": rng.sample(("invoice_number", "invoice_date", "customer_id", "country"), 4)})
    order, narrow = rng.choice(ORDERS["held"]), rng.random() < 0.35
    return replace(lay, columns=_columns(lay, order, headings, narrow_text=narrow))
