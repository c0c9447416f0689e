"""The drawing of each invoice style on a ReportLab canvas: page header, table, totals and page foot.

Used by :mod:`evaluation.invoice_render`, which decides what goes on which page. Coordinates here are measured
from the top of the page (``y`` grows downwards, a text's ``y`` is its baseline); :class:`Pen` turns them into
ReportLab's. Every drawing function returns the ``y`` below what it drew, so the renderer can measure a block
by drawing it on a throw-away canvas. The styles are ``classic`` (dev-a, dev-d), ``boxed`` (dev-b), ``receipt``
(dev-c), ``ledger`` (dev-e: the classic one with an address block, bank details and, in some layouts, headings over
two lines) and ``summary`` (the held-aside family: do not read :func:`summary_header` while developing the invoice reader).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice

NUMERIC = ("quantity", "unit_price", "amount")
ZEBRA = 0.92  # grey of a shaded row
LEAD = 1.4  # line spacing, in font sizes: the words of two lines never overlap


@dataclass
class Row:
    """One printed item row: the line's index in the invoice and each column's text, wrapped to its width."""

    index: int
    cells: dict[str, list[str]]

    @property
    def lines(self) -> int:
        return max(len(v) for v in self.cells.values())


class Pen:
    """A canvas with the origin at the top left and the layout's fonts."""

    def __init__(self, canvas, lay: Layout):
        self.c, self.lay, self.h = canvas, lay, lay.page[1]
        self.regular, self.bold = lay.fonts
        self.left, self.right = lay.margin, lay.page[0] - lay.margin
        self.lead = lay.size * LEAD

    def width(self, text: str, bold: bool = False, size: float | None = None) -> float:
        return self.c.stringWidth(text, self.bold if bold else self.regular, size or self.lay.size)

    def text(self, x: float, y: float, text: str, bold: bool = False, size: float | None = None,
             align: str = "left", color: tuple[float, float, float] = (0, 0, 0)) -> None:
        self.c.setFont(self.bold if bold else self.regular, size or self.lay.size)
        self.c.setFillColorRGB(*color)
        draw = {"left": self.c.drawString, "right": self.c.drawRightString, "center": self.c.drawCentredString}
        draw[align](x, self.h - y, text)

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.5, grey: float = 0.0) -> None:
        self.c.setLineWidth(width)
        self.c.setStrokeColorRGB(grey, grey, grey)
        self.c.line(x0, self.h - y0, x1, self.h - y1)

    def box(self, x: float, y: float, w: float, h: float, fill=None, stroke: float | None = None) -> None:
        """A rectangle with its top left at (x, y): filled with the ``fill`` colour, outlined when ``stroke``."""
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        if stroke is not None:
            self.c.setLineWidth(stroke)
            self.c.setStrokeColorRGB(0, 0, 0)
        self.c.rect(x, self.h - y - h, w, h, fill=int(fill is not None), stroke=int(stroke is not None))

    def leaders(self, y: float, label: str, value: str, bold: bool = False, x0: float | None = None) -> None:
        """``label ....... value`` from ``x0`` to the right margin."""
        x0 = self.left if x0 is None else x0
        self.text(x0, y, label, bold)
        self.text(self.right, y, value, bold, align="right")
        gap = self.right - x0 - self.width(label + " ", bold) - self.width(" " + value, bold)
        dots = "." * max(2, int(gap / self.width(".")))
        self.text(x0 + self.width(label + " ", bold), y, dots)

    def rule(self, y: float, char: str) -> float:
        """A rule typed as text (``=====``) across the page; returns the y below it."""
        self.text(self.left, y, char * int((self.right - self.left) / self.width(char)))
        return y + self.lead


def fill_pages(rows, height, first: float, later: float, bottom: float) -> tuple[list[list[Row]], float]:
    """``rows`` dealt onto pages, each ``height(row)`` high, from ``first`` on the first page (``later`` on the
    others) down to ``bottom``; a page takes at least one row. Returns the pages and where the last one's rows end.

    >>> fill_pages([1, 2, 3], lambda r: 10.0, 0.0, 5.0, 25.0)
    ([[1, 2], [3]], 15.0)
    """
    pages: list[list[Row]] = [[]]
    y = first
    for row in rows:
        h = height(row)
        if y + h > bottom and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += h
    return pages, y


def wrap(text: str, width: float, pen: Pen) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a longer word keeps a line to itself)."""
    lines: list[str] = []
    for word in text.split():
        if lines and pen.width(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def header_fields(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    """The header's (label, value) pairs in print order; an invoice without a customer prints no customer. A
    ledger layout (dev-e) adds a due date 30 days on and an order number of six digits, like the invoice's."""
    values = {"invoice_number": inv.number, "invoice_date": lay.date(inv.date), "customer_id": inv.customer,
              "country": inv.country, "currency": lay.currency,
              "due_date": lay.date(inv.date + dt.timedelta(days=30)),
              "order_number": str(lay.extra.get("order_base", 0) + int(inv.number.lstrip("C")) % 99991)}
    order = lay.extra.get("field_order", ("invoice_number", "invoice_date", "customer_id", "country"))
    return [(lay.label(k, inv.is_credit), values[k]) for k in order if values[k] is not None]


def totals_rows(inv: Invoice, lay: Layout) -> list[tuple[str, str, bool]]:
    """(label, printed amount, bold) for the subtotal, the tax when the layout has one, and the total."""
    rows = [(lay.label("subtotal"), lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        rows.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate)), False))
    return rows + [(lay.label("total"), lay.money(inv.total(lay.tax_rate)), True)]


def title(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


# ----------------------------------------------------------------------------------------------------------------
# The items table, shared by every style.
# ----------------------------------------------------------------------------------------------------------------
def _xs(lay: Layout, columns) -> list[float]:
    xs, x = [], lay.margin
    for col in columns:
        xs.append(x)
        x += col.width
    return xs


def table_right(lay: Layout) -> float:
    cols = [c for c in lay.columns if not (lay.two_row and c.key == "description")]
    return lay.margin + sum(c.width for c in cols)


def _cells(pen: Pen, columns, texts: dict[str, list[str]], y: float, bold: bool = False,
           color=(0, 0, 0)) -> None:
    pad = pen.lay.size * 0.4
    for col, x in zip(columns, _xs(pen.lay, columns)):
        for k, text in enumerate(texts[col.key]):
            if col.key in NUMERIC:
                pen.text(x + col.width - pad, y + k * pen.lead, text, bold, align="right", color=color)
            else:
                pen.text(x + pad, y + k * pen.lead, text, bold, color=color)


def _row_columns(lay: Layout):
    """The columns of the (second) row: all of them, or all but the description when it has a row of its own."""
    return [c for c in lay.columns if not (lay.two_row and c.key == "description")]


def head_height(lay: Layout) -> float:
    return lay.size * LEAD * (2 if lay.two_row else 1) * (2 if lay.extra.get("stacked") else 1) + lay.size * 0.9


def _heading_lines(lay: Layout) -> dict[str, list[str]]:
    """Each column's heading as printed: one line, or (``stacked`` layouts) its first word over the rest, a
    one-word heading on the lower line beside them."""
    if not lay.extra.get("stacked"):
        return {c.key: [c.heading] for c in lay.columns}
    return {c.key: c.heading.split(" ", 1) if " " in c.heading else ["", c.heading] for c in lay.columns}


def row_height(lay: Layout, row: Row) -> float:
    if lay.two_row:
        lines = len(row.cells["description"]) + max(len(v) for k, v in row.cells.items() if k != "description")
    else:
        lines = row.lines
    return lay.size * LEAD * lines + lay.size * 0.5


def table_head(pen: Pen, y: float) -> float:
    """The column headings at ``y`` (the top of the heading row); returns the top of the first item row."""
    lay, h = pen.lay, head_height(pen.lay)
    x1 = table_right(lay)
    base = y + lay.size * 0.45 + lay.size * 0.8
    color = (0, 0, 0)
    if lay.style == "boxed":
        pen.box(lay.margin, y, x1 - lay.margin, h, fill=lay.extra["accent"])
        color = (1, 1, 1)
    elif lay.style == "summary" and lay.ruled:
        pen.box(lay.margin, y, x1 - lay.margin, h, stroke=0.6)
        for x in _xs(lay, lay.columns)[1:]:
            pen.line(x, y, x, y + h, 0.6)
    elif lay.style != "receipt":
        pen.line(lay.margin, y + h, x1, y + h, 1.0)
        if lay.ruled:
            pen.line(lay.margin, y, x1, y, 1.0)
    headings = _heading_lines(lay)
    if lay.two_row:
        desc = next(c for c in lay.columns if c.key == "description")
        _cells(pen, [desc], headings, base, True)
        base += pen.lead
    _cells(pen, _row_columns(lay), headings, base, True, color)
    if lay.style == "receipt":
        return pen.rule(y + h + lay.size * 0.5, "-") - lay.size * 0.6
    return y + h


def table_row(pen: Pen, row: Row, y: float, k: int) -> float:
    """Item row ``row`` (the ``k``-th on its page) at ``y``; returns the top of the next row."""
    lay, h = pen.lay, row_height(pen.lay, row)
    x1 = table_right(lay)
    if lay.zebra and k % 2 == 1:
        pen.box(lay.margin, y, x1 - lay.margin, h, fill=(ZEBRA, ZEBRA, ZEBRA))
    base = y + lay.size * 0.25 + lay.size * 0.8
    if lay.two_row:
        desc = next(c for c in lay.columns if c.key == "description")
        _cells(pen, [desc], row.cells, base)
        base += pen.lead * len(row.cells["description"])
    _cells(pen, _row_columns(lay), row.cells, base)
    if lay.style == "summary" and lay.ruled:
        pen.line(lay.margin, y + h, x1, y + h, 0.4)
        for x in [*_xs(lay, lay.columns), x1]:
            pen.line(x, y, x, y + h, 0.6)
    elif lay.ruled and lay.style != "receipt":
        pen.line(lay.margin, y + h, x1, y + h, 0.3, grey=0.4)
    return y + h


# ----------------------------------------------------------------------------------------------------------------
# Page headers, totals and feet of each style. A header returns the y where the table's headings start.
# ----------------------------------------------------------------------------------------------------------------
def _label_block(pen: Pen, pairs, x: float, y: float, bold_labels: bool = True) -> float:
    """``Label value`` lines, the values aligned in a column; returns the y below."""
    col = max(pen.width(label, bold_labels) for label, _ in pairs) + pen.lay.size
    for label, value in pairs:
        pen.text(x, y, label, bold_labels)
        pen.text(x + col, y, value)
        y += pen.lead
    return y


def _seller(pen: Pen, x: float, y: float, align: str, extra_line: str | None) -> float:
    lines = [*pen.lay.seller, *([extra_line] if extra_line else [])]
    for k, line in enumerate(lines):
        pen.text(x, y, line, bold=k == 0, align=align, size=pen.lay.size * (1.1 if k == 0 else 0.9))
        y += pen.lead
    return y


def _vat_line(lay: Layout) -> str | None:
    return f"VAT reg. no. {lay.extra['vat_reg']}" if lay.tax_rate is not None and "vat_reg" in lay.extra else None


def classic_header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    big = lay.size * 2.2
    top = lay.margin + big
    pen.text(pen.left, top, title(inv, lay), bold=True, size=big)
    pairs = header_fields(inv, lay)
    if lay.header_place == "right":
        y = _seller(pen, pen.left, top + pen.lead * 1.5, "left", _vat_line(lay))
        x = pen.right - max(pen.width(a, True) for a, _ in pairs) - lay.size - max(pen.width(b) for _, b in pairs)
        y = max(y, _label_block(pen, pairs, x, top + pen.lead * 1.5))
    else:
        y = _seller(pen, pen.right, lay.margin + lay.size, "right", _vat_line(lay))
        y = max(y, top + pen.lead * 1.5)
        if lay.header_place == "left":
            y = _label_block(pen, pairs, pen.left, y + pen.lead)
        else:  # top: one row of cells across the page, each label above its value
            width = (pen.right - pen.left) / len(pairs)
            y += pen.lead
            if lay.ruled:
                pen.box(pen.left, y - lay.size * 1.2, width * len(pairs), pen.lead * 2 + lay.size * 0.6, stroke=0.5)
            for k, (label, value) in enumerate(pairs):
                pen.text(pen.left + k * width + 4, y, label, bold=True, size=lay.size * 0.85)
                pen.text(pen.left + k * width + 4, y + pen.lead, value)
            y += pen.lead * 2
    return y + pen.lead


def ledger_header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    """The classic header, then the customer's address block (its label, three lines and the country) on the left
    above the table."""
    y = classic_header(pen, inv, lay)
    label, *lines = lay.extra["address"]
    pen.text(pen.left, y, label + lay.colon, bold=True)
    y += pen.lead
    for line in [*lines, *([inv.country] if inv.country and inv.country != "Unspecified" else [])]:
        pen.text(pen.left, y, line)
        y += pen.lead
    return y + pen.lead


def ledger_totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    """The classic totals, then the seller's bank details on one line below them."""
    y = classic_totals(pen, inv, lay, y) + pen.lead
    pen.text(pen.left, y, lay.extra["bank"], size=lay.size * 0.9)
    return y + pen.lead


def classic_totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    right = table_right(lay)
    rows = totals_rows(inv, lay)
    x = right - max(pen.width(a, True) for a, _, _ in rows) - max(pen.width(b, True) for _, b, _ in rows) - 3 * lay.size
    y += pen.lead * 1.2
    for label, value, bold in rows:
        if bold:  # a rule between the last row and the total
            pen.line(x, y - lay.size * 0.75, right, y - lay.size * 0.75, 0.8)
            y += lay.size * 0.35
        pen.text(x, y, label, bold)
        pen.text(right - lay.size * 0.4, y, value, bold, align="right")
        y += pen.lead
    return y


def boxed_header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    big = lay.size * 2.4
    y = _seller(pen, pen.left, lay.margin + lay.size * 1.1, "left", _vat_line(lay))
    pen.text(pen.right, lay.margin + big, title(inv, lay), bold=True, size=big, align="right",
             color=lay.extra["accent"])
    y = max(y, lay.margin + big) + pen.lead
    pen.line(pen.left, y - lay.size, pen.right, y - lay.size, 0.8, grey=0.5)
    pairs = dict(header_fields(inv, lay))
    labels = {k: lay.label(k, inv.is_credit) for k in ("invoice_number", "invoice_date", "customer_id", "country")}
    left = [labels[k] for k in ("customer_id", "country") if labels[k] in pairs]
    right = [labels[k] for k in ("invoice_number", "invoice_date")]
    mid = (pen.left + pen.right) / 2
    for x, names in ((pen.left, left), (mid, right)):
        yy = y + lay.size * 0.3
        for label in names:
            pen.text(x, yy, label.upper(), size=lay.size * 0.75, color=(0.35, 0.35, 0.35))
            pen.text(x, yy + pen.lead, pairs[label], bold=True)
            yy += pen.lead * 2.2
    return y + pen.lead * 2.2 * 2 + lay.size


def boxed_totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    right, rows = table_right(lay), totals_rows(inv, lay)
    w = max(pen.width(a, True) for a, _, _ in rows) + max(pen.width(b, True) for _, b, _ in rows) + 4 * lay.size
    y += lay.size
    pen.box(right - w, y, w, pen.lead * len(rows) + lay.size * 0.8, stroke=0.8)
    pen.box(right - w, y + pen.lead * (len(rows) - 1) + lay.size * 0.4, w, pen.lead, fill=(0.88, 0.88, 0.88))
    y += lay.size * 0.4 + lay.size * 0.95
    for label, value, bold in rows:
        pen.text(right - w + lay.size * 0.6, y, label, bold)
        pen.text(right - lay.size * 0.6, y, value, bold, align="right")
        y += pen.lead
    return y + lay.size


def receipt_header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    mid, y = lay.page[0] / 2, lay.margin + lay.size
    for k, line in enumerate([*lay.seller, *([_vat_line(lay)] if _vat_line(lay) else [])]):
        pen.text(mid, y, line, bold=k == 0, align="center")
        y += pen.lead
    y = pen.rule(y, "=")
    pen.text(mid, y + lay.size * 0.4, title(inv, lay), bold=True, size=lay.size * 1.4, align="center")
    y = pen.rule(y + pen.lead * 1.6, "=")
    for label, value in header_fields(inv, lay):
        pen.leaders(y, label, value)
        y += pen.lead
    return pen.rule(y, "-")


def receipt_totals(pen: Pen, inv: Invoice, lay: Layout, y: float) -> float:
    y = pen.rule(y + lay.size * 0.8, "-")
    for label, value, bold in totals_rows(inv, lay):
        pen.leaders(y, label, value, bold)
        y += pen.lead
    return pen.rule(y, "=")


def running_header(pen: Pen, inv: Invoice, lay: Layout, n: int) -> float:
    """The top of a continuation page: one line naming the invoice (the headings follow)."""
    text = lay.running.format(title=title(inv, lay), number=inv.number, n=n)
    if lay.style == "receipt":
        pen.text(lay.page[0] / 2, lay.margin + lay.size, text, bold=True, align="center")
        return pen.rule(lay.margin + lay.size + pen.lead, "=")
    pen.text(pen.left, lay.margin + lay.size * 1.2, text, bold=True, size=lay.size * 1.2)
    return lay.margin + lay.size * 1.2 + pen.lead * 1.5 + (pen.lead if lay.style in ("boxed", "summary") else 0)


def foot_height(lay: Layout) -> float:
    return lay.size * LEAD * 2.5


def foot(pen: Pen, lay: Layout, n: int, m: int) -> None:
    """The page number, and the continued mark on every page but the last."""
    bottom = lay.page[1] - lay.margin
    label = lay.page_label.format(n=n, m=m) if lay.page_label else None
    more = lay.continued.format(next=n + 1) if lay.continued and n < m else None
    if lay.style in ("boxed", "summary"):
        if label:
            pen.text(pen.right, lay.margin * 0.6, label, align="right", size=lay.size * 0.9)
        if more:
            pen.text((pen.left + pen.right) / 2 if lay.style == "boxed" else pen.left, bottom, more, align=(
                "center" if lay.style == "boxed" else "left"), size=lay.size * 0.9)
        return
    if label:
        pen.text(lay.page[0] / 2, bottom, label, align="center", size=lay.size * 0.9)
    if more:
        if lay.style == "receipt":
            pen.text(lay.page[0] / 2, bottom - pen.lead, f"*** {more} ***", align="center")
        else:
            pen.text(pen.right, bottom, more, align="right", size=lay.size * 0.9)


# ----------------------------------------------------------------------------------------------------------------
# HELD-ASIDE STYLE (summary). Not to be read while developing the invoice reader.
# ----------------------------------------------------------------------------------------------------------------
def summary_header(pen: Pen, inv: Invoice, lay: Layout) -> float:
    """Title and seller on one side, the header as a ruled key | value table on the other, the currency note, then
    the totals (above the items): a ruled box at the right, or a strip of label-over-value cells across the page."""
    pairs, cell = header_fields(inv, lay), pen.lead + lay.size * 0.4
    key_w = max(pen.width(k, True) for k, _ in pairs) + lay.size
    table_w = key_w + max(pen.width(v) for _, v in pairs) + lay.size * 2
    big, top = lay.size * 2.0, lay.margin
    kv_x = pen.right - table_w if lay.header_place == "right" else pen.left
    side, align = (pen.left, "left") if lay.header_place == "right" else (pen.right, "right")
    pen.text(side, top + big, title(inv, lay), bold=True, size=big, align=align)
    y_side = _seller(pen, side, top + big + pen.lead * 1.4, align, lay.extra.get("registered"))
    y = top
    for key, value in pairs:
        pen.box(kv_x, y, key_w, cell, fill=(0.94, 0.94, 0.94), stroke=0.5)
        pen.box(kv_x + key_w, y, table_w - key_w, cell, stroke=0.5)
        pen.c.setFillColorRGB(0, 0, 0)
        pen.text(kv_x + lay.size * 0.5, y + cell - lay.size * 0.5, key, bold=True)
        pen.text(kv_x + key_w + lay.size * 0.5, y + cell - lay.size * 0.5, value)
        y += cell
    pen.text(kv_x, y + pen.lead, lay.currency_note or "", size=lay.size * 0.9)
    y = max(y + pen.lead * 2, y_side) + pen.lead
    rows, right = totals_rows(inv, lay), table_right(lay)
    if lay.totals_place == "above-box":
        w = max(pen.width(a, True) for a, _, _ in rows) + max(pen.width(b, True) for _, b, _ in rows) + 3 * lay.size
        for label, value, bold in rows:
            pen.box(right - w, y, w, cell, stroke=0.5)
            pen.c.setFillColorRGB(0, 0, 0)
            pen.text(right - w + lay.size * 0.5, y + cell - lay.size * 0.5, label, bold)
            pen.text(right - lay.size * 0.5, y + cell - lay.size * 0.5, value, bold, align="right")
            y += cell
    else:
        width = (right - pen.left) / len(rows)
        pen.line(pen.left, y, right, y, 0.8)
        for k, (label, value, bold) in enumerate(rows):
            x = pen.left + (k + 1) * width - lay.size * 0.5
            pen.text(x, y + pen.lead, label, size=lay.size * 0.85, align="right")
            pen.text(x, y + pen.lead * 2.3, value, bold=bold, size=lay.size * (1.2 if bold else 1.0), align="right")
        y += pen.lead * 2.8
        pen.line(pen.left, y, right, y, 0.8)
    return y + pen.lead * 1.5
