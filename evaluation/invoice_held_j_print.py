"""held-j's line-printer pages: each page as the lines of characters an AS/400, mainframe or old ERP billing run
prints, in Courier, every line one string of fixed-width fields (text left, numbers right), as such output reads
when spooled to PDF.

:func:`plan` measures what goes where (in lines of the printer's pitch) and :func:`draw_page` prints one page:
the page header (repeated on every page, with its page label), the column headings, the items, on the last page
the totals and notes, and on every other page the "continued" mark at the foot. ``greenbar`` pages are banded in
pale green and, on the wide continuous form, carry the tractor-feed holes at both edges.
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from dataclasses import dataclass
from decimal import Decimal

from evaluation.invoice_held_j import chars, order_ref, qty
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row

__all__ = ["Plan", "draw_page", "plan"]

NUMERIC = ("line_no", "ordered", "quantity", "backorder", "unit_price", "amount")
LEAD = 1.3  # a line printer's pitch, in font sizes
BAND = (0.86, 0.95, 0.87)  # greenbar paper's pale green


@dataclass
class Plan:
    """Where the items go: the top of the first item on page 1 and on later pages, each item's row and height,
    the height the totals need after the last item, and the lowest point items may reach."""

    first: float
    later: float
    rows: list[Row]
    heights: list[float]
    totals: float
    bottom: float


def _width(lay: Layout) -> int:
    """The printed width in characters: the table's, which the header and totals share."""
    n = len(lay.columns)
    sep = 3 if lay.extra["template"] == "grid" else lay.extra["gap"]
    return sum(chars(lay, lay.columns, c.key) for c in lay.columns) + sep * (n - 1) + \
        (4 if lay.extra["template"] == "grid" else 0)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` broken at spaces into pieces of at most ``width`` characters (a longer word keeps a line)."""
    out: list[str] = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    return out or [""]


def _put(line: str, col: int, text: str) -> str:
    """``text`` written into ``line`` from column ``col``, or two spaces after what the line holds where that
    reaches it (nothing printed is overwritten)."""
    col = max(col, len(line.rstrip()) + 2) if line.strip() else col
    return line.ljust(col) + text


def _backorder(inv: Invoice, lay: Layout, index: int) -> Decimal:
    """Units of a line still to ship: none on a credit, on about one line in seven some of what was ordered."""
    q = inv.rows[index].quantity
    rng = random.Random(zlib.crc32(f"held-j:{lay.seed}:{inv.number}:{index}".encode()))
    if inv.is_credit or q <= 0 or rng.random() > 0.15:
        return Decimal(0)
    return Decimal(rng.randint(1, int(min(q, 48))))


def _cells(inv: Invoice, lay: Layout, index: int) -> dict[str, list[str]]:
    line, bo = inv.rows[index], _backorder(inv, lay, index)
    width = {c.key: chars(lay, lay.columns, c.key) for c in lay.columns}
    values = {"line_no": str(index + 1), "quantity": qty(lay, line.quantity), "ordered": qty(lay, line.quantity + bo),
              "backorder": qty(lay, bo), "uom": "PK" if (line.description or "").startswith(("PACK", "SET")) else "EA",
              "unit_price": lay.money(line.unit_price, lines=True), "amount": lay.money(line.amount, lines=True)}
    return {key: _wrap(getattr(line, key) or "", width[key]) if key in ("code", "description") else [values[key]]
            for key in width}


def _fields(lay: Layout, texts: dict[str, list[str]]) -> list[str]:
    """The printed lines of one table row (or of the headings) from each column's lines."""
    grid = lay.extra["template"] == "grid"
    sep = " | " if grid else " " * lay.extra["gap"]
    out = []
    for i in range(max(len(v) for v in texts.values())):
        parts = []
        for col in lay.columns:
            n, cell = chars(lay, lay.columns, col.key), texts[col.key]
            text = cell[i] if i < len(cell) else ""
            parts.append(text.rjust(n) if col.key in NUMERIC else text.ljust(n))
        line = sep.join(parts)
        out.append(f"| {line} |" if grid else line.rstrip())
    return out


def _border(lay: Layout, char: str = "-") -> str:
    return "+" + "+".join(char * (chars(lay, lay.columns, c.key) + 2) for c in lay.columns) + "+"


def _headings(lay: Layout) -> list[str]:
    if lay.extra["stacked"]:
        texts = {c.key: c.heading.split(" ", 1) if " " in c.heading else ["", c.heading] for c in lay.columns}
    else:
        texts = {c.key: [c.heading] for c in lay.columns}
    lines, rule, width = _fields(lay, texts), lay.extra["rule"], _width(lay)
    template = lay.extra["template"]
    if template == "grid":
        return [_border(lay), *lines, _border(lay, "=")]
    if template == "spool":  # each heading underlined with "=" over its field's width
        sep = " " * lay.extra["gap"]
        return [*lines, sep.join("=" * chars(lay, lay.columns, c.key) for c in lay.columns)]
    return [rule * width, *lines, rule * width] if rule else [*lines, ""]


def _field(lay: Layout, label: str, value: str, width: int) -> str:
    """``INVOICE NO......: 536365`` (dots) or ``INVOICE NO      : 536365``, the label padded to ``width``."""
    return f"{label:{'.' if lay.header_place == 'dots' else ' '}<{width}}: {value}".rstrip()


def _header_fields(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    labels = lay.labels
    number, ordered = order_ref(inv, lay)
    out = [(labels["credit_number" if inv.is_credit else "invoice_number"], inv.number),
           (labels["invoice_date"], lay.date(inv.date))]
    if inv.customer is not None or lay.extra["blank_customer"]:  # a form prints the label, blank for a cash sale
        out.append((labels["customer_id"], inv.customer or ""))
    out += [(labels["order_number"], number), (labels["order_date"], lay.date(ordered))]
    if not inv.is_credit:
        out += [(labels["terms"], lay.extra["terms_text"]),
                (labels["due_date"], lay.date(inv.date + dt.timedelta(days=lay.extra["terms"])))]
    if lay.mark_place == "field":
        out.append((labels["currency"], lay.currency))
    return out


def _addresses(inv: Invoice, lay: Layout, width: int) -> list[str]:
    """SOLD TO and SHIP TO side by side: the records name no one, so an accounts line, and the country."""
    sold = "ACCOUNTS PAYABLE" if inv.customer is not None else "ONE-TIME CUSTOMER"
    left, right = f"{lay.labels['sold_to']}: ", f"{lay.labels['ship_to']}: "
    half = width // 2
    return [_put(left + sold, half, right + "RECEIVING DEPARTMENT"),
            _put(" " * len(left) + inv.country, half + len(right), inv.country)]


def _title(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _header(inv: Invoice, lay: Layout, n: int, m: int) -> list[tuple[str, bool]]:
    """The page header, the same on every page but for its page label; (line, bold) pairs."""
    width, template = _width(lay), lay.extra["template"]
    page = lay.page_label.format(n=n, m=m)
    fields = _header_fields(inv, lay)
    if template == "grid":
        inner = width - 4
        top = _put(_put(lay.seller[0], (inner - len(_title(inv, lay))) // 2, _title(inv, lay)),
                   inner - len(page), page)
        out = [("+" + "-" * (width - 2) + "+", False), (f"| {top:<{inner}} |", True),
               (f"| {'  '.join(lay.seller[1:]):<{inner}} |", False)]
        cells = fields[:2] + [(lay.labels["country"], inv.country)] + fields[2:]
        longest = max(len(t) for cell in cells for t in cell)
        per = 4 if (width - 1) // 4 - 3 >= longest else 3
        cell = (width - 1) // per - 3
        sizes = [cell] * (per - 1) + [width - 1 - per * (cell + 3) + cell]  # the last cell takes what is left
        rule = "+" + "+".join("-" * (n + 2) for n in sizes) + "+"
        for k in range(0, len(cells), per):
            group = cells[k:k + per] + [("", "")] * (per - len(cells[k:k + per]))
            out.append((rule, False))
            out.append(("|" + "|".join(f" {a:<{n}} " for (a, _), n in zip(group, sizes)) + "|", False))
            out.append(("|" + "|".join(f" {b:<{n}} " for (_, b), n in zip(group, sizes)) + "|", True))
        return out + [(rule, False), ("", False)]
    if template == "spool":
        run = lay.date(inv.date + dt.timedelta(days=lay.seed % 2))  # printed the day it was billed or the next
        out = [(_put(_put(lay.extra["program"], (width - len(lay.seller[0])) // 2, lay.seller[0]),
                     width - len(page), page), True),
               (_put(f"RUN DATE {run}", (width - len(_title(inv, lay))) // 2, _title(inv, lay)), True), ("", False)]
        third = width // 3
        label = max(len(a) for a, _ in fields) + 1
        for k in range(0, len(fields), 3):
            line = ""
            for j, (a, b) in enumerate(fields[k:k + 3]):
                line = _put(line, j * third, _field(lay, a, b, min(label, third // 2)))
            out.append((line, False))
        return out + [("", False)] + [(a, False) for a in _addresses(inv, lay, width)] + [("", False)]
    label = max(len(a) for a, _ in fields) + 3
    col = width - label - 2 - max(len(b) for _, b in fields)
    title_line = _put(" " * ((width - len(_title(inv, lay))) // 2) + _title(inv, lay), width - len(page), page)
    out = [(title_line, True), ("", False)]
    left = [*lay.seller]
    if col < max(map(len, left)) + 2:  # too narrow a form for the fields beside the seller: under it
        out += [(line, k == 0) for k, line in enumerate(left)] + [("", False)]
        left, col = [], 0
    for k in range(max(len(left), len(fields))):
        line = left[k] if k < len(left) else ""
        if k < len(fields):
            line = _put(line, col, _field(lay, *fields[k], label))
        out.append((line, k == 0 < len(left)))
    return out + [("", False)] + [(a, False) for a in _addresses(inv, lay, width)] + [("", False)]


def _totals(inv: Invoice, lay: Layout) -> list[tuple[str, bool]]:
    """The totals under the amount column, then the notes; a grid form boxes its totals."""
    width = _width(lay)
    label_total = lay.labels["credit_total" if inv.is_credit else "total"]
    rows = [(lay.labels["subtotal"], lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        rows.append((lay.labels["tax"], lay.money(inv.tax(lay.tax_rate)), False))
    rows.append((label_total, lay.money(inv.total(lay.tax_rate)), True))
    value = max(len(b) for _, b, _ in rows)
    out: list[tuple[str, bool]] = []
    if lay.extra["template"] == "grid":
        label = width - value - 7
        out.append(("+" + "-" * (label + 2) + "+" + "-" * (value + 2) + "+", False))
        out += [(f"| {a:>{label}} | {b:>{value}} |", bold) for a, b, bold in rows]
        out.append(("+" + "-" * (label + 2) + "+" + "-" * (value + 2) + "+", False))
    else:
        label = max(len(a) for a, _, _ in rows)
        x = width - value - 2 - label
        rule = lay.extra["rule"] or "-"
        out.append((" " * (width - value) + rule * value, False))
        for a, b, bold in rows:
            if bold:
                out.append((" " * (width - value) + "=" * value, False))
            out.append((_put(_put("", x, a), width - len(b), b), bold))
    out.append(("", False))
    if lay.currency_note:
        out.append((lay.currency_note, False))
    return out + [(note, False) for note in lay.extra["notes"]]


def plan(inv: Invoice, lay: Layout) -> Plan:
    lead = lay.size * LEAD
    header, heading = len(_header(inv, lay, 1, 1)), len(_headings(lay))
    closing = 1 if lay.extra["template"] == "grid" else 0
    rows = [Row(i, _cells(inv, lay, i)) for i in range(len(inv.rows))]
    heights = [len(_fields(lay, row.cells)) * lead for row in rows]
    top = lay.margin + lead * (header + heading)
    bottom = lay.page[1] - lay.margin - lead * (2 + closing)
    return Plan(top, top, rows, heights, lead * (len(_totals(inv, lay)) + closing), bottom)


def _paper(pen: Pen, lay: Layout) -> None:
    """Greenbar paper: bands of pale green across the form behind every other group of lines; on the continuous
    form the tractor-feed holes down both edges, outside the perforations."""
    lead = lay.size * LEAD
    band = lay.extra["band"]
    x = 40.0 if lay.extra["holes"] else lay.margin * 0.5
    y, k = lay.margin - lead * 0.75, 0
    while y < lay.page[1] - lay.margin:
        if k % 2 == 0:
            pen.box(x, y, lay.page[0] - 2 * x, lead * band, fill=BAND)
        y, k = y + lead * band, k + 1
    if lay.extra["holes"]:
        pen.c.setStrokeColorRGB(0.6, 0.6, 0.6)
        pen.c.setFillColorRGB(1, 1, 1)
        for x in (18.0, lay.page[0] - 18.0):
            for j in range(int(lay.page[1] // 36)):
                pen.c.circle(x, lay.page[1] - 18.0 - 36.0 * j, 4.5, stroke=1, fill=1)
        for x in (36.0, lay.page[0] - 36.0):
            pen.c.setDash(2, 3)
            pen.line(x, 0, x, lay.page[1], 0.4, 0.6)
            pen.c.setDash()


def draw_page(pen: Pen, inv: Invoice, lay: Layout, rows: list[Row], n: int, m: int) -> None:
    """One printed page: header, headings and items, then the totals (last page) or the "continued" mark."""
    lead, width, x0 = lay.size * LEAD, _width(lay), lay.margin
    if lay.zebra:
        _paper(pen, lay)
    lines = _header(inv, lay, n, m) + [(h, False) for h in _headings(lay)]
    for row in rows:
        lines += [(text, False) for text in _fields(lay, row.cells)]
    if lay.extra["template"] == "grid" and rows:
        lines.append((_border(lay), False))
    if n == m:
        lines += _totals(inv, lay)
    y = lay.margin + lay.size
    for text, bold in lines:
        pen.text(x0, y, text, bold=bold)
        y += lead
    if n < m:
        pen.text(x0, lay.page[1] - lay.margin, lay.continued.format(next=n + 1).center(width).rstrip(), bold=True)
