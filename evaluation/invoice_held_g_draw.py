"""HELD-ASIDE FAMILY "held-g": its pages (:func:`paginate`) and PDFs (:func:`render_pdf`), called through
:data:`evaluation.invoice_render.OWN_PAGES`. Not to be read while developing the invoice reader (nor the other
``evaluation.invoice_held_g*`` modules or the family's files).

Page 1 carries the header (:mod:`evaluation.invoice_held_g_parts`), later pages a running header; every page with
items repeats the column headings; codes and descriptions wrap at their spaces; rows are never split across pages;
where the layout carries sums forward, each page with items but the last ends with the sum so far and the next
begins with it. The totals and notes follow the last item, on a page of their own when there is no room. The
canvas is made with ``invariant=1``: the same invoice and layout give the same bytes.

>>> from evaluation.invoice_held_g import held_g_layout
>>> from evaluation.invoice_records import SAMPLE, load_invoices
>>> inv = load_invoices(SAMPLE)[-1]
>>> pages = paginate(inv, held_g_layout(2))
>>> sum(len(p) for p in pages) == len(inv.rows), len(pages) > 1
(True, True)
"""

from __future__ import annotations

import io
import zlib
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_held_g import NUMERIC, ean
from evaluation.invoice_held_g_parts import LEAD, Quill, first_header, foot, foot_height, running_header
from evaluation.invoice_held_g_words import HS_CODES, NOTES, ORIGINS, UNITS
from evaluation.invoice_records import cents
from evaluation.invoice_styles import Row

__all__ = ["paginate", "render_pdf"]

ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def in_words(n: int) -> str:
    """A whole number below a million in English words.

    >>> in_words(1234), in_words(40), in_words(0)
    ('one thousand two hundred thirty-four', 'forty', 'zero')
    """
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return ONES[n // 100] + " hundred" + (" " + in_words(n % 100) if n % 100 else "")
    return in_words(n // 1000) + " thousand" + (" " + in_words(n % 1000) if n % 1000 else "")


def _pad(q: Quill) -> float:
    return q.size * 0.45


def _weight(code: str) -> Decimal:
    """A net weight per unit in kg for a stock code (0.050 to 1.200)."""
    return Decimal(50 + zlib.crc32(code.encode()) % 1151) / 1000


def _unit(lay, text: str) -> str:
    if lay.extra["unit_by_text"] and text.startswith("SET"):
        return UNITS["set"]
    if lay.extra["unit_by_text"] and "PACK" in text:
        return UNITS["pack"]
    return lay.extra["unit"]


def _line_no(lay, index: int) -> str:
    n = (index + 1) * lay.extra["line_step"]
    return f"{n:06d}" if lay.extra["line_pad"] else str(n)


def _cells(inv, index: int, lay, q: Quill) -> dict[str, list[str]]:
    row = inv.rows[index]
    desc = row.description or ""
    out: dict[str, list[str]] = {}
    for col in lay.columns:
        k, w = col.key, col.width - 2 * _pad(q)
        value = {"code": None, "description": None, "quantity": lambda: lay.quantity(row.quantity),
                 "unit": lambda: _unit(lay, desc), "unit_price": lambda: lay.price(row.unit_price),
                 "discount": lambda: lay.extra["discount"], "vat_rate": lay.rate,
                 "amount": lambda: lay.money(row.amount, lines=True),
                 "gross": lambda: lay.money(row.amount + cents(row.amount * (lay.tax_rate or 0)), lines=True),
                 "weight": lambda: lay.number(abs(row.quantity) * _weight(row.code), 3),
                 "hs_code": lambda: next(c for word, c in HS_CODES if word in desc),
                 "origin": lambda: ORIGINS[zlib.crc32(row.code.encode()) % len(ORIGINS)],
                 "ean": lambda: ean(row.code), "line_no": lambda: _line_no(lay, index)}[k]
        out[k] = q.wrap(row.code, w) if k == "code" else q.wrap(desc, w) if k == "description" else [value()]
    if lay.extra["item"] == "under":
        out["description"] = q.wrap(desc, _under_width(lay, q))
    return out


def _xs(lay) -> list[float]:
    xs = [lay.margin]
    for col in lay.columns:
        xs.append(xs[-1] + col.width)
    return xs


def _under_x(lay, q: Quill) -> float:
    """Where a description printed under its row starts: the code column's text, indented."""
    return _xs(lay)[[c.key for c in lay.columns].index("code")] + _pad(q) + q.size


def _under_width(lay, q: Quill) -> float:
    return q.right - _pad(q) - _under_x(lay, q)


def _lines(lay, row: Row) -> int:
    if lay.extra["item"] == "under":
        return 1 + len(row.cells["description"])
    return max(len(v) for v in row.cells.values())


def _height(q: Quill, lines: int) -> float:
    return lines * q.lead + q.size * 0.4


def _headings(lay, q: Quill) -> list[list[str]]:
    return [q.wrap(lay.heading(c.key), c.width - 2 * _pad(q), bold=True) for c in lay.columns]


def _put(q: Quill, lay, top: float, cells: list[list[str]], bold: bool = False, colour=None) -> None:
    xs, pad = _xs(lay), _pad(q)
    for col, x0, x1, lines in zip(lay.columns, xs, xs[1:], cells):
        right = col.key in NUMERIC
        for k, line in enumerate(lines):
            q.text(x1 - pad if right else x0 + pad, top + q.size * 1.05 + k * q.lead, line, bold=bold,
                   colour=colour, align="right" if right else "left")


def table_head(q: Quill, lay, y: float) -> float:
    """The column headings in the layout's table style; returns their height."""
    heads, style, e = _headings(lay, q), lay.extra["table"], lay.extra
    h = _height(q, max(len(x) for x in heads))
    if style in ("band", "grid"):
        q.box(q.left, y, q.right - q.left, h, fill=e["shade"], stroke=style == "grid")
        if style == "grid":
            for x in _xs(lay)[1:-1]:
                q.upright(x, y, y + h)
    if style == "rules":
        q.rule(q.left, q.right, y, 1.0)
    _put(q, lay, y, heads, bold=True)
    if style in ("rules", "plain", "tint"):
        q.rule(q.left, q.right, y + h, 0.5)
    return h


def table_row(q: Quill, lay, row: Row, y: float, k: int) -> float:
    """One item row (with its description under it where the layout puts it there); returns its height."""
    style, e = lay.extra["table"], lay.extra
    h = _height(q, _lines(lay, row))
    if style == "tint" and k % 2:
        q.box(q.left, y, q.right - q.left, h, fill=0.94, stroke=False)
    under = e["item"] == "under"
    _put(q, lay, y, [row.cells[c.key] for c in lay.columns])
    if under:
        for n, line in enumerate(row.cells["description"], 1):
            q.text(_under_x(lay, q), y + q.size * 1.05 + n * q.lead, line)
    if style == "grid":
        q.box(q.left, y, q.right - q.left, h, width=0.4)
        for x in _xs(lay)[1:-1]:
            q.upright(x, y, y + h)
    elif style == "band" or (style == "rules" and under):
        q.rule(q.left, q.right, y + h, 0.25, grey=0.6)
    return h


def carry_row(q: Quill, lay, y: float, label: str, value: Decimal) -> float:
    """A sum carried to or brought from another page: its label before the amount column, the sum in it."""
    xs = _xs(lay)
    at = [c.key for c in lay.columns].index("amount")
    base = y + q.size * 1.05
    q.text(xs[at] - _pad(q) - q.size, base, label, bold=True, align="right")
    q.text(xs[at + 1] - _pad(q), base, lay.money(value, lines=True), bold=True, align="right")
    q.rule(xs[at], xs[at + 1], y, 0.4)
    return _height(q, 1)


def _totals(inv, lay) -> list[tuple[str, str, bool]]:
    out = [(lay.label("subtotal"), lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        out.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate)), False))
    out.append((lay.label("total", inv.is_credit), lay.money(inv.total(lay.tax_rate)), True))
    return out


def _notes(inv, lay) -> list[str]:
    e, out = lay.extra, []
    if "weight_total" in lay.labels:
        kg = sum((abs(r.quantity) * _weight(r.code) for r in inv.rows), Decimal(0))
        out.append(f"{lay.word('weight_total')}{lay.colon or ':'} {lay.number(kg, 3)} kg")
    if "in_words" in lay.labels:
        total = inv.total(lay.tax_rate)
        whole, cent = divmod(abs(total) * 100, 100)
        sign = "minus " if total < 0 else ""
        out.append(f"{lay.word('in_words')}{lay.colon or ':'} {sign}{in_words(int(whole))} {lay.currency} "
                   f"{int(cent):02d}/100")
    if lay.tax_rate is None:
        if e["seller"]["iso"] == "CH":
            out.append(NOTES["exempt_swiss"][0])
        elif inv.country in ("Norway", "Australia"):
            out.append(NOTES["exempt_export"][e["exempt"] % 2])
        else:
            out.append(NOTES["exempt"][e["exempt"]])
    if lay.mark_place == "heading" and "currency" not in lay.labels:
        out.append(lay.currency_note)
    if "terms" not in e["fields"] and not inv.is_credit:
        out.append(f"{e['terms']}.")
    if e["retention"] and not inv.is_credit:
        out.append(e["retention"])
    return out


def totals(q: Quill, inv, lay, y: float) -> float:
    """The totals in the layout's arrangement and the notes under them; returns where they end."""
    items, style, e = _totals(inv, lay), lay.extra["totals"], lay.extra
    y += q.lead * 0.8
    gap = q.size * 2
    values_w = max(q.width(v, True) for _, v, _ in items)
    labels_w = max(q.width(a, True) for a, _, _ in items)
    if style == "vatgrid":
        heads = [lay.word("rate_head"), lay.word("vat_base"), lay.labels["tax"], lay.labels["total"]]
        values = [lay.rate(), lay.money(inv.subtotal), lay.money(inv.tax(lay.tax_rate)),
                  lay.money(inv.total(lay.tax_rate))]
        widths = [max(q.width(a, True), q.width(v)) + q.size * 1.5 for a, v in zip(heads, values)]
        x = q.right - sum(widths)
        for row, bold in ((heads, True), (values, False)):
            cx = x
            for w, text in zip(widths, row):
                q.box(cx, y, w, q.lead * 1.2, fill=e["shade"] if bold else None, width=0.4)
                q.text(cx + w - q.size * 0.6, y + q.lead * 0.9, text, bold=bold, align="right")
                cx += w
            y += q.lead * 1.2
        y += q.lead * 0.6
        items = items[-1:]
    if style == "band":
        width = q.right - q.left
        w = width / len(items)
        band = q.size * 0.8 * LEAD + q.size * 0.3
        for k, (label, value, strong) in enumerate(items):
            x = q.left + k * w
            q.box(x, y, w, band, fill=e["shade"])
            q.box(x, y + band, w, q.lead * 1.3, width=1.0 if strong else 0.5)
            q.text(x + q.size * 0.5, y + band - q.size * 0.35, label, bold=True, size=q.size * 0.8)
            q.text(x + w - q.size * 0.6, y + band + q.lead, value, bold=strong, align="right")
        y += band + q.lead * 1.3
    else:  # stack (and the vat grid's last line)
        for label, value, strong in items:
            base = y + q.size * 1.1
            if strong:
                left = q.right - labels_w - values_w - gap
                if e["total_rule"] == "box":
                    q.box(left - q.size * 0.5, y - q.size * 0.1, q.right - left + q.size * 0.5, q.lead * 1.25)
                else:
                    q.rule(left, q.right, y, 0.6)
                    q.rule(q.right - values_w, q.right, y + q.lead * 1.3, 0.6)
                    if e["total_rule"] == "double":
                        q.rule(q.right - values_w, q.right, y + q.lead * 1.3 + 1.5, 0.6)
            q.text(q.right - values_w - gap, base, label, bold=strong, align="right")
            q.text(q.right - (q.size * 0.3 if e["total_rule"] == "box" and strong else 0), base, value,
                   bold=strong, align="right")
            y += q.lead * 1.35
    y += q.lead * 0.7
    for note in _notes(inv, lay):
        for line in q.wrap(note, q.right - q.left):
            q.text(q.left, y + q.size, line)
            y += q.lead
    return y


def _rows(inv, lay, q: Quill) -> list[Row]:
    return [Row(i, _cells(inv, i, lay, q)) for i in range(len(inv.rows))]


def _carry(lay) -> bool:
    return lay.extra["carry"] and any(c.key == "amount" for c in lay.columns)


def paginate(inv, lay) -> list[list[Row]]:
    """The item rows of each page: as many as fit between the header and the foot (leaving room for a sum
    carried forward); the last page also holds the totals and notes, or a page of their own follows."""
    q = Quill.scratch(lay)
    bottom = lay.page[1] - lay.margin - foot_height(q, lay)
    carry = _height(q, 1) if _carry(lay) else 0.0
    head = table_head(q, lay, 0.0)
    first = first_header(q, inv, lay) + head
    later = running_header(q, inv, lay, 2) + head + carry
    pages: list[list[Row]] = [[]]
    y = first
    for row in _rows(inv, lay, q):
        h = _height(q, _lines(lay, row))
        if y + h + carry > bottom and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += h
    if totals(q, inv, lay, y) > bottom:
        pages.append([])
    return pages


def render_pdf(inv, lay) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    c.setTitle(f"{lay.credit_title if inv.is_credit else lay.title} {inv.number}")
    q = Quill(c, lay)
    m, carried = len(pages), Decimal("0.00")
    for n, rows in enumerate(pages, 1):
        y = first_header(q, inv, lay) if n == 1 else running_header(q, inv, lay, n)
        if rows:
            y += table_head(q, lay, y)
            if n > 1 and _carry(lay):
                y += carry_row(q, lay, y, lay.word("brought"), carried)
            for k, row in enumerate(rows):
                y += table_row(q, lay, row, y, k)
                carried += inv.rows[row.index].amount
            if lay.extra["table"] in ("rules", "plain", "tint", "band"):
                q.rule(q.left, q.right, y, 0.6)
            if n < m and pages[n] and _carry(lay):
                carry_row(q, lay, y, lay.word("forward"), carried)
        if n == m:
            totals(q, inv, lay, y)
        foot(q, lay, n, m)
        c.showPage()
    c.save()
    return buf.getvalue()
