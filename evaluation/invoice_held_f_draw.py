"""HELD-ASIDE FAMILY "held-f": its pages (:func:`paginate`) and PDFs (:func:`render_pdf`), called through
:data:`evaluation.invoice_render.OWN_PAGES`. Not to be read while developing the invoice reader (nor the other
``evaluation.invoice_held_f*`` modules or the family's files).

Page 1 carries the full header (:mod:`evaluation.invoice_held_f_parts`), each later page a running header; the
column headings are repeated on every page with items; codes and descriptions wrap at their spaces and a row is
never split across pages; the totals and notes follow the last item (on a page of their own when there is no room);
every page has its foot (page label, the continued mark on pages but the last). The canvas is made with
``invariant=1``: the same invoice and layout give the same bytes.

>>> from evaluation.invoice_held_f import held_f_layout
>>> from evaluation.invoice_records import SAMPLE, load_invoices
>>> inv = load_invoices(SAMPLE)[-1]
>>> pages = paginate(inv, held_f_layout(2))
>>> sum(len(p) for p in pages) == len(inv.rows), len(pages) > 1
(True, True)
"""

from __future__ import annotations

import io
import math
import zlib
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_held_f import NUMERIC
from evaluation.invoice_held_f_parts import GREY, Quill, first_header, page_label, running_header
from evaluation.invoice_styles import Row

__all__ = ["paginate", "render_pdf"]

BANKS = {"UK": {"bank": "Barclays Bank plc", "sort": "20-45-77", "acct": "53816204"},
         "IE": {"bank": "Bank of Ireland", "iban": "IE29 BOFI 9000 1712 3456 78", "bic": "BOFIIE2D"},
         "US": {"bank": "First Midwest Bank", "routing": "071000013", "acct": "4418 2207 19"},
         "CA": {"bank": "Royal Bank of Canada", "routing": "00102-003", "acct": "1047719"},
         "AU": {"bank": "Westpac", "routing": "032-001", "acct": "184 662"}}
ORIGINS = ("CN", "GB", "IN", "PT", "CN", "DE", "VN")


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def _ean(code: str) -> str:
    """A 13-digit barcode for ``code``, with its check digit."""
    body = f"50{_hash(code) % 10**10:010d}"
    total = sum(int(d) * (3 if k % 2 else 1) for k, d in enumerate(body))
    return body + str((10 - total % 10) % 10)


def _uom(lay, description: str) -> str:
    text = description.upper()
    unit = "SET" if text.startswith("SET") or " SET " in text else "PK" if "PACK OF" in text else "EA"
    if lay.extra["kit"] == "storefront":
        return {"SET": "set", "PK": "pack", "EA": "single"}[unit]
    return unit


def _pad(q: Quill) -> float:
    return q.size * 0.6


def _cells(inv, index: int, lay, q: Quill) -> dict[str, list[str]]:
    row, e = inv.rows[index], lay.extra
    desc = row.description or ""
    out = {}
    for col in lay.columns:
        k, w = col.key, col.width - 2 * _pad(q)
        if k == "code":
            out[k] = q.wrap(row.code, w)
        elif k == "description":
            out[k] = q.wrap(desc, w) if desc else []
            if e["code_place"] == "under":
                out[k] = [*out[k], *q.wrap(f"{lay.labels['code_prefix']} {row.code}", w)]
            out[k] = out[k] or [""]
        elif k == "quantity":
            out[k] = [lay.quantity(row.quantity)]
        elif k == "unit_price":
            out[k] = [lay.price(row.unit_price)]
        elif k == "amount":
            out[k] = [lay.money(row.amount, lines=True)]
        elif k == "line_no":
            out[k] = [str(index + 1)]
        elif k == "ean":
            out[k] = [_ean(row.code)]
        elif k == "origin":
            out[k] = [ORIGINS[_hash(row.code) % len(ORIGINS)]]
        elif k == "uom":
            out[k] = [_uom(lay, desc)]
        elif k == "weight":
            grams = 50 + _hash(row.code + "w") % 2400
            out[k] = [f"{grams / 1000:.2f}" + (" kg" if e["kit"] == "storefront" else "")]
        elif k == "rrp":
            rrp = Decimal(math.ceil(float(row.unit_price) * 2.4)) - Decimal("0.01") if row.unit_price else Decimal(0)
            out[k] = [lay.price(rrp)]
        elif k == "disc":
            out[k] = [e["disc"]]
        else:  # tax_flag
            out[k] = ["Yes"]
    return out


def _height(q: Quill, lines: int) -> float:
    return lines * q.lead + q.size * 0.45


def _base(q: Quill, top: float, k: int) -> float:
    return top + q.size * 1.1 + k * q.lead


def _xs(lay) -> list[float]:
    xs = [lay.extra["x0"]]
    for col in lay.columns:
        xs.append(xs[-1] + col.width)
    return xs


def _put(q: Quill, lay, top: float, cells: list[list[str]], bold: bool = False, colour=None,
         size: float | None = None, code_under: bool = False) -> None:
    xs, pad = _xs(lay), _pad(q)
    for col, x0, x1, lines in zip(lay.columns, xs, xs[1:], cells):
        right = col.key in NUMERIC
        last = len(lines) - 1
        for k, line in enumerate(lines):
            grey = code_under and col.key == "description" and k == last and lay.extra["code_place"] == "under"
            q.text(x1 - pad if right else x0 + pad, _base(q, top, k), line, bold=bold, size=size,
                   colour=GREY if grey else colour, align="right" if right else "left")


def _heads(q: Quill, lay) -> list[list[str]]:
    size = q.size * (0.9 if lay.extra["table"] == "caps" else 1.0)
    out = []
    for col in lay.columns:
        text = lay.heading(col.key)
        out.append(q.wrap(text, col.width - 2 * _pad(q) * 0.9, bold=True) if q.width(text, True, size) >
                   col.width - 2 * _pad(q) else [text])
    return out


def table_head(q: Quill, lay, y: float) -> float:
    """The column headings in the layout's table style; returns their height."""
    heads, style = _heads(q, lay), lay.extra["table"]
    h = _height(q, max(len(x) for x in heads))
    wide = q.right - q.left
    size = q.size * (0.9 if style == "caps" else 1.0)
    colour = None
    if style == "shade-head":
        q.box(q.left, y, wide, h, fill=lay.extra["shade"], stroke=False)
    elif style == "grid":
        q.box(q.left, y, wide, h, fill=lay.extra["shade"])
        for x in _xs(lay)[1:-1]:
            q.upright(x, y, y + h)
    elif style == "columns":
        q.box(q.left, y, wide, h, fill=lay.extra["shade"])
    elif style == "caps":
        q.rule(q.left, q.right, y, 1.2)
        colour = (0.25, 0.25, 0.25)
    _put(q, lay, y, heads, bold=True, colour=colour, size=size)
    if style in ("rules", "stripes", "open", "caps"):
        q.rule(q.left, q.right, y + h, 1.0 if style != "open" else 0.6)
    if style == "dashes":
        q.rule(q.left, q.right, y + h, 0.6, dash=(2, 2))
    return h


def table_row(q: Quill, lay, row: Row, y: float, k: int) -> float:
    """One item row; returns its height."""
    h, style = _height(q, row.lines), lay.extra["table"]
    if style == "stripes" and k % 2:
        q.box(q.left, y, q.right - q.left, h, fill=lay.extra["shade"] + 0.04, stroke=False)
    _put(q, lay, y, [row.cells[c.key] for c in lay.columns], code_under=True)
    if style == "grid":
        q.box(q.left, y, q.right - q.left, h, weight=0.4)
        for x in _xs(lay)[1:-1]:
            q.upright(x, y, y + h, 0.4)
    elif style == "rules":
        q.rule(q.left, q.right, y + h, 0.3, grey=0.6)
    return h


def table_end(q: Quill, lay, top: float, y: float) -> float:
    """What closes the table on a page (``top`` is where its rows began); returns the height it adds."""
    style = lay.extra["table"]
    if style == "columns":
        q.box(q.left, top, q.right - q.left, y - top)
        for x in _xs(lay)[1:-1]:
            q.upright(x, top, y)
    elif style in ("shade-head", "stripes", "open", "caps"):
        q.rule(q.left, q.right, y, 0.8)
    elif style == "dashes":
        q.rule(q.left, q.right, y, 0.6, dash=(2, 2))
    return q.size * 0.6


def _totals(inv, lay) -> list[tuple[str, str, bool]]:
    labels, credit = lay.labels, inv.is_credit
    total = inv.total(lay.tax_rate)
    out = [(lay.label("subtotal"), lay.money(inv.subtotal), False)]
    for extra in ("shipping", "carriage"):
        if extra in labels:
            out.append((lay.label(extra), lay.money(Decimal("0.00")), False))
    if lay.tax_rate is not None:
        out.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate)), False))
    out.append((lay.label("total"), lay.money(total), True))
    if lay.extra["paid"] and not credit:
        out += [(lay.label("paid"), lay.money(total), False), (lay.label("balance"), lay.money(Decimal("0.00")),
                                                                False)]
    return out


def _notes(inv, lay) -> list[str]:
    e = lay.extra
    notes = [e["currency_note"]] if lay.mark_place == "note" else []
    billed = e["kit"] in ("office", "trade", "service", "app")
    notes.append(e["credit_note"] if inv.is_credit else e["terms"] if billed else "")
    if billed and not inv.is_credit:
        notes.append(e["bank"].format(**BANKS[lay.seller[3]]))
    notes.append(e["thanks"])
    return [n for n in notes if n]


def totals(q: Quill, inv, lay, y: float, inline: bool = True) -> float:
    """The totals and the notes after the last item; returns where they end."""
    items, style = _totals(inv, lay), lay.extra["totals"]
    if style == "inline" and not inline:
        style = "stack"
    labels_w = max(q.width(a, b) for a, _, b in items)
    values_w = max(q.width(v, True) for _, v, _ in items)
    row = q.lead * 1.2
    if style == "inline":  # as rows of the table: labels before the amount column, values in it
        xs = _xs(lay)
        k = [c.key for c in lay.columns].index("amount")
        x_end, x_val = xs[k] - _pad(q), xs[k + 1] - _pad(q)
        x_end = min(x_end, x_val - values_w - q.size * 1.5)
        for label, value, strong in items:
            q.text(x_end, y + q.size * 1.1, label, bold=strong, align="right")
            q.text(x_val, y + q.size * 1.1, value, bold=strong, align="right")
            if strong:
                q.rule(x_end - labels_w, q.right, y, 0.6)
            y += row
    elif style in ("boxed", "form"):
        w = labels_w + values_w + q.size * 3
        x0 = q.right - w
        for label, value, strong in items:
            q.box(x0, y, labels_w + q.size * 1.2, row, fill=lay.extra["shade"] if style == "form" else None)
            q.box(x0 + labels_w + q.size * 1.2, y, w - labels_w - q.size * 1.2, row)
            q.text(x0 + q.size * 0.5, y + row * 0.72, label, bold=strong)
            q.text(q.right - q.size * 0.5, y + row * 0.72, value, bold=strong, align="right")
            y += row
    else:  # stack, band
        gap = q.size * 2.5
        x_label = q.right - values_w - gap
        for label, value, strong in items:
            if strong and style == "band":
                q.box(x_label - labels_w - q.size, y, q.right - x_label + labels_w + q.size, row,
                      fill=lay.extra["shade"], stroke=False)
            elif strong:
                q.rule(x_label - labels_w, q.right, y + q.size * 0.1, 0.7)
            q.text(x_label, y + row * 0.72, label, bold=strong, align="right")
            q.text(q.right - (q.size * 0.4 if style == "band" else 0), y + row * 0.72, value, bold=strong,
                   align="right")
            y += row
    y += q.lead * 0.8
    for note in _notes(inv, lay):
        for line in q.wrap(note, q.right - q.left):
            y += q.lead
            q.text(q.left, y, line, size=q.size * 0.92, colour=GREY)
    return y + q.lead * 0.5


def _foot_lines(lay) -> list[str]:
    name, street, town, _, _, _, reg, phone, web = lay.seller
    if lay.extra["seller_at"] == "foot":
        return [f"{name}  |  {street}, {town}  |  {phone}  |  {web}", reg]
    return [reg] if lay.extra["kit"] in ("office", "trade", "storefront") else []


def _foot_rows(q: Quill, lay) -> list[list[str]]:
    """The foot's lines, each wrapped to the page's width."""
    return [q.wrap(line, q.right - q.left) for line in _foot_lines(lay)]


def foot_height(q: Quill, lay) -> float:
    return (sum(len(r) for r in _foot_rows(q, lay)) + 2) * q.lead


def foot(q: Quill, lay, n: int, m: int) -> None:
    """The foot of page ``n`` of ``m``: the company lines, the page label, the continued mark (pages but the last)."""
    bottom = lay.page[1] - lay.margin * 0.7
    lines = [line for rows in _foot_rows(q, lay) for line in rows]
    mid = (q.left + q.right) / 2
    for k, line in enumerate(reversed(lines)):
        q.text(mid, bottom - k * q.lead, line, size=q.size * 0.85, align="centre", colour=GREY)
    y = bottom - len(lines) * q.lead
    where = lay.extra["page_at"]
    if where != "top":
        q.text(q.right if where == "foot-right" else mid, y, page_label(lay, n, m),
               align="right" if where == "foot-right" else "centre")
    if n < m:
        q.text(q.left, y, lay.continued.format(next=n + 1), bold=True, size=q.size * 0.9)


def _rows(inv, lay, q: Quill) -> list[Row]:
    return [Row(i, _cells(inv, i, lay, q)) for i in range(len(inv.rows))]


def paginate(inv, lay) -> list[list[Row]]:
    """The item rows of each page: as many as fit between the header and the foot; the last page also holds the
    totals and notes, or a page of their own follows."""
    q = Quill.scratch(lay)
    bottom = lay.page[1] - lay.margin - foot_height(q, lay)
    head = table_head(q, lay, 0.0)
    first = first_header(q, inv, lay, 9) + head
    later = running_header(q, inv, lay, 2, 9) + head
    pages: list[list[Row]] = [[]]
    y = first
    for row in _rows(inv, lay, q):
        h = _height(q, row.lines)
        if y + h + q.size > bottom and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += h
    if totals(q, inv, lay, y + q.size * 0.6) > bottom:
        pages.append([])
    return pages


def render_pdf(inv, lay) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    c.setTitle(f"{lay.credit_title if inv.is_credit else lay.title} {inv.number}")
    c.setAuthor(lay.seller[0])
    q = Quill(c, lay)
    m = len(pages)
    for n, rows in enumerate(pages, 1):
        y = first_header(q, inv, lay, m) if n == 1 else running_header(q, inv, lay, n, m)
        if rows:
            y += table_head(q, lay, y)
            top = y
            for k, row in enumerate(rows):
                y += table_row(q, lay, row, y, k)
            y += table_end(q, lay, top, y)
        if n == m:
            totals(q, inv, lay, y, inline=bool(rows))
        foot(q, lay, n, m)
        c.showPage()
    c.save()
    return buf.getvalue()
