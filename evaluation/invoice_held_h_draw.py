"""Drawing of the ``held-h`` invoice family (:mod:`evaluation.invoice_held_h`): :func:`paginate` and
:func:`render_pdf`, which :mod:`evaluation.invoice_render` calls for layouts of style ``held-h``.

Page 1 carries the letterhead, the title and the header fields; later pages a running header naming the document
and its number. Every page with items starts with the column headings; items are never split across pages. Every
page but the last ends with the layout's "continued" mark (and, where the layout carries amounts forward, the sum
of the amounts so far, brought forward under the headings of the next page). The totals follow the last item, or
go on a page of their own when they do not fit; the amount in words, the currency note and the notes follow them.
The canvas is made with ``invariant=1``: the same invoice and layout give the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_held_h import HeldHLayout
from evaluation.invoice_held_h_parts import GREY, Ink, first_header, foot, foot_height, running_header, wrap
from evaluation.invoice_held_h_words import split_heading
from evaluation.invoice_records import Invoice

__all__ = ["Row", "in_words", "paginate", "render_pdf"]

WHITE = (1.0, 1.0, 1.0)
TEXT_KEYS = ("code", "description", "uom")
ONES = ("ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN FIFTEEN SIXTEEN "
        "SEVENTEEN EIGHTEEN NINETEEN").split()
TENS = ("", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY")


@dataclass(frozen=True)
class Row:
    """One item as printed: its index in the invoice, each column's lines, and its height."""

    index: int
    cells: dict
    height: float


def _words(n: int) -> str:
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + (f"-{ONES[n % 10]}" if n % 10 else "")
    if n < 1000:
        return f"{ONES[n // 100]} HUNDRED" + (f" AND {_words(n % 100)}" if n % 100 else "")
    for size, name in ((1_000_000, "MILLION"), (1000, "THOUSAND")):
        if n >= size:
            rest = n % size
            tail = "" if not rest else f" AND {_words(rest)}" if rest < 100 else f" {_words(rest)}"
            return f"{_words(n // size)} {name}{tail}"
    raise ValueError(n)


def in_words(value: Decimal) -> str:
    """An amount of Singapore dollars in words, as Singapore invoices print it.

    >>> in_words(Decimal("1234.05"))
    'SINGAPORE DOLLARS ONE THOUSAND TWO HUNDRED AND THIRTY-FOUR AND CENTS FIVE ONLY'
    """
    value = abs(value)
    dollars, cents = int(value), int((value * 100) % 100)
    return f"SINGAPORE DOLLARS {_words(dollars)}" + (f" AND CENTS {_words(cents)}" if cents else "") + " ONLY"


def _xs(ink: Ink, lay: HeldHLayout) -> list[float]:
    xs = [ink.left]
    for col in lay.columns:
        xs.append(xs[-1] + col.width)
    return xs


def _cell(key: str, index: int, line, width: float, lay: HeldHLayout, ink: Ink) -> list[str]:
    if key in ("code", "description"):
        return wrap(getattr(line, key) or "", width, ink)
    return [{"quantity": lambda: lay.quantity(line.quantity),
             "unit_price": lambda: lay.money(line.unit_price, lines=True),
             "amount": lambda: lay.money(line.amount, lines=True),
             "line_no": lambda: str((index + 1) * lay.extra["line_step"]), "uom": lambda: lay.extra["uom_values"][0],
             "discount": lambda: lay.extra["discount_text"], "vat": lambda: lay.extra["vat_text"]}[key]()]


def _rows(inv: Invoice, lay: HeldHLayout, ink: Ink) -> list[Row]:
    pad = ink.lead * 0.45
    out = []
    for index, line in enumerate(inv.rows):
        cells = {c.key: _cell(c.key, index, line, c.width - lay.size * 1.1, lay, ink) for c in lay.columns}
        out.append(Row(index, cells, max(len(v) for v in cells.values()) * ink.lead + pad))
    return out


def _head_height(ink: Ink, lay: HeldHLayout) -> float:
    return max(len(split_heading(c.heading)) for c in lay.columns) * ink.lead + ink.lead * 0.5


def table_head(ink: Ink, lay: HeldHLayout, y: float) -> float:
    """The column headings (each bottom-aligned; a bilingual heading's second line in italics)."""
    style, h, xs = lay.extra["table_style"], _head_height(ink, lay), _xs(ink, lay)
    bilingual = lay.extra["joiner"] != " "
    color = WHITE if style == "band" else (0.0, 0.0, 0.0)
    if style == "band":
        ink.box(ink.left, y, ink.right - ink.left, h, fill=ink.accent)
    elif style == "grid":
        for k in range(len(lay.columns)):
            ink.box(xs[k], y, xs[k + 1] - xs[k], h, fill=(0.9, 0.9, 0.9), stroke=GREY)
    elif style == "lines":
        ink.line(ink.left, y, ink.right, y, 0.9)
    if style in ("lines", "zebra", "open"):
        ink.line(ink.left, y + h, ink.right, y + h, 0.8 if style != "zebra" else 1.2, ink.accent)
    half = lay.size * 0.55
    for k, col in enumerate(lay.columns):
        lines = split_heading(col.heading)
        base = y + h - ink.lead * 0.4 - (len(lines) - 1) * ink.lead
        for j, text in enumerate(lines):
            italic = bilingual and j == 1
            if col.key in TEXT_KEYS:
                ink.text(xs[k] + half, base + j * ink.lead, text, bold=not italic, italic=italic, color=color)
            else:
                ink.text(xs[k + 1] - half, base + j * ink.lead, text, bold=not italic, italic=italic, color=color,
                         align="right")
    return y + h


def table_row(ink: Ink, lay: HeldHLayout, row: Row, y: float, k: int) -> float:
    style, xs, half = lay.extra["table_style"], _xs(ink, lay), lay.size * 0.55
    if style == "zebra" and k % 2:
        ink.box(ink.left, y, ink.right - ink.left, row.height, fill=(0.93, 0.93, 0.93))
    if style == "grid":
        for j in range(len(lay.columns)):
            ink.box(xs[j], y, xs[j + 1] - xs[j], row.height, stroke=GREY, width=0.4)
    top = y + ink.lead * 0.2 + lay.size
    for j, col in enumerate(lay.columns):
        for i, text in enumerate(row.cells[col.key]):
            if col.key in TEXT_KEYS:
                ink.text(xs[j] + half, top + i * ink.lead, text)
            else:
                ink.text(xs[j + 1] - half, top + i * ink.lead, text, align="right")
    if style == "lines":
        ink.line(ink.left, y + row.height, ink.right, y + row.height, 0.3, (0.6, 0.6, 0.6))
    return y + row.height


def carry_row(ink: Ink, lay: HeldHLayout, label: str, value: Decimal, y: float) -> float:
    """A carried- or brought-forward amount: the label right-aligned before the amount column, the sum in it."""
    xs, half = _xs(ink, lay), lay.size * 0.55
    h = ink.lead * 1.5
    ink.box(ink.left, y, ink.right - ink.left, h, fill=(0.96, 0.96, 0.9))
    base = y + ink.lead * 0.35 + lay.size
    ink.text(xs[-2] - half, base, label, bold=True, align="right")
    ink.text(xs[-1] - half, base, lay.money(value, lines=True), bold=True, align="right")
    return y + h


def _total_pairs(inv: Invoice, lay: HeldHLayout) -> list[tuple[str, str]]:
    pairs = [(lay.label("subtotal"), lay.money(inv.subtotal))]
    if lay.tax_rate is not None:
        pairs.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate))))
    return pairs + [(lay.label("total"), lay.money(inv.total(lay.tax_rate)))]


def totals(ink: Ink, inv: Invoice, lay: HeldHLayout, y: float) -> float:
    """The totals block in the layout's place, then the amount in words, the currency note and the notes."""
    pairs, place = _total_pairs(inv, lay), lay.totals_place
    y += ink.lead * 0.8
    values_w = max(ink.width(v, True) for _, v in pairs)
    labels_w = max(ink.width(label, True) for label, _ in pairs)
    half = lay.size * 0.55
    if place == "band":
        w = (ink.right - ink.left) / len(pairs)
        h = ink.lead * 2.4
        for k, (label, value) in enumerate(pairs):
            x, last = ink.left + k * w, k == len(pairs) - 1
            ink.box(x, y, w, h, fill=(0.88, 0.88, 0.88) if last else None, stroke=GREY)
            ink.text(x + w - half, y + ink.lead * 0.95, label, size=lay.size * 0.85, color=GREY, align="right")
            ink.text(x + w - half, y + ink.lead * 2.0, value, bold=last, align="right")
        y += h
    else:
        value_w = max(values_w + lay.size, lay.columns[-1].width)
        step = ink.lead * (1.45 if place == "box" else 1.2)
        x0 = ink.right - value_w - labels_w - lay.size * 1.5
        if place == "box":
            ink.box(x0 - half, y, ink.right - x0 + half, step * len(pairs) + ink.lead * 0.3, stroke=ink.accent)
            ink.box(x0 - half, y + step * (len(pairs) - 1) + ink.lead * 0.15, ink.right - x0 + half, step,
                    fill=(0.9, 0.9, 0.9))
        for k, (label, value) in enumerate(pairs):
            last = k == len(pairs) - 1
            if last and place == "stack" and lay.extra["totals_rule"] != "none":
                ink.line(x0, y + ink.lead * 0.3, ink.right, y + ink.lead * 0.3, 0.7)
            y += step
            ink.text(ink.right - value_w - lay.size, y, label, bold=last, align="right")
            ink.text(ink.right - half, y, value, bold=last, align="right")
        if place == "stack" and lay.extra["totals_rule"] == "double":
            for dy in (0.45, 0.6):
                ink.line(ink.right - value_w, y + ink.lead * dy, ink.right, y + ink.lead * dy, 0.5)
        y += ink.lead * 0.5
    notes = []
    if "words" in lay.extra["other"]:
        notes.append((f"{lay.extra['other']['words']}: {in_words(inv.total(lay.tax_rate))}", True))
    if lay.currency_note:
        notes.append((lay.currency_note, True))
    notes += [(text, False) for text in lay.extra["notes"]]
    y += ink.lead * 0.6 if notes else 0
    for text, strong in notes:
        for line in wrap(text, ink.right - ink.left, ink, size=lay.size * 0.85):
            y += ink.lead * 0.95
            ink.text(ink.left, y, line, size=lay.size * 0.85, bold=strong and text == lay.currency_note)
    return y


def _plan(inv: Invoice, lay: HeldHLayout) -> list[list[Row]]:
    ink = Ink(lay)
    head = _head_height(ink, lay)
    carry = ink.lead * 1.5 if lay.extra["carry"] else 0.0
    floor = lay.page[1] - lay.margin - foot_height(lay)
    bottom = floor - carry - ink.lead * 1.6  # room for the carried-forward row and the "continued" mark
    later = running_header(ink, inv, lay, 2, 2) + head + carry
    pages: list[list[Row]] = [[]]
    y = first_header(ink, inv, lay) + head
    for row in _rows(inv, lay, ink):
        if y + row.height > bottom and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += row.height
    if totals(ink, inv, lay, y) > floor:
        pages.append([])
    return pages


def paginate(inv: Invoice, lay: HeldHLayout) -> list[list[Row]]:
    """The item rows of each page (the totals may have a page of their own, with no rows)."""
    return _plan(inv, lay)


def render_pdf(inv: Invoice, lay: HeldHLayout) -> bytes:
    """The document drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = _plan(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    c.setTitle(f"{lay.credit_title if inv.is_credit else lay.title} {inv.number}")
    ink, m = Ink(lay, c), len(pages)
    carried = Decimal("0.00")
    other = lay.extra["other"]
    for n, rows in enumerate(pages, 1):
        y = first_header(ink, inv, lay) if n == 1 else running_header(ink, inv, lay, n, m)
        if rows:
            y = table_head(ink, lay, y)
        if n > 1 and lay.extra["carry"]:
            y = carry_row(ink, lay, other["brought"], carried, y)
        for k, row in enumerate(rows):
            y = table_row(ink, lay, row, y, k)
            carried += inv.rows[row.index].amount
        if rows and lay.extra["table_style"] in ("band", "open", "zebra"):
            ink.line(ink.left, y, ink.right, y, 0.6, ink.accent)
        if n < m:
            if lay.extra["carry"]:
                y = carry_row(ink, lay, other["carried"], carried, y)
            ink.text(ink.right, y + ink.lead * 1.2, lay.continued.format(next=n + 1), italic=True,
                     size=lay.size * 0.9, align="right")
        else:
            totals(ink, inv, lay, y)
        foot(ink, lay, n, m)
        c.showPage()
    c.save()
    return buf.getvalue()
