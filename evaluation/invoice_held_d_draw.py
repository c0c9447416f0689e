"""HELD-ASIDE FAMILY "held-d": a fourth held-aside family, written apart from the reader; not to be read while
developing it (nor the rest of the family, ``evaluation.invoice_held_d*``, its generated files or its per-file
scores).

:func:`paginate` decides which item rows go on which page and :func:`render_pdf` draws the pages;
:mod:`evaluation.invoice_render` calls both for this style, so the truth names the page each line is printed on.
Items are never split across pages.
"""

from __future__ import annotations

import io
import zlib
from decimal import Decimal
from itertools import accumulate

from reportlab.pdfgen import canvas

from evaluation.invoice_held_d import CARRY, HeldDLayout, heading_text
from evaluation.invoice_held_d_parts import (GREY, HEADERS, docrow, fit, pair_rows, section, sidebar, text_block, tint,
                                             widest)
from evaluation.invoice_held_d_words import SOURCES
from evaluation.invoice_held_d_text import (bank_lines, cell_text, in_words, notes, seller_lines, title_of,
                                            total_weight, totals_pairs)
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["paginate", "render_pdf"]

RIGHT = ("quantity", "ordered", "backorder", "unit_price", "amount", "gross", "line_tax", "discount", "vat_rate",
         "weight")
CENTRE = ("unit", "line_no", "vat_cat", "origin")
GREEN = (0.86, 0.94, 0.86)


# ---- Later pages' tops. -----------------------------------------------------------------------------------------
def _running(pen: Pen, inv: Invoice, lay: HeldDLayout, n: int, m: int, rows: bool = True) -> float:
    s, x0, x1 = lay.size, lay.extra["table_x0"], pen.right
    if lay.header_place == "docrow":
        pen.text(x0, lay.margin + s * 1.2, lay.seller[0], True)
        return docrow(pen, inv, lay, lay.margin + s * 2.2, n, m)
    if lay.header_place == "sidebar":
        return lay.margin + s
    text = lay.running.format(title=title_of(inv, lay), number=inv.number, n=n)
    y = lay.margin + s * 1.4
    if lay.header_place == "band":
        pen.box(x0, lay.margin, x1 - x0, s * 2.2, fill=lay.extra["accent"])
        pen.text(x0 + s, lay.margin + s * 1.45, text, True, color=(1, 1, 1))
        return lay.margin + s * 3.2
    pen.text(x0, y, lay.seller[0], True, fit(pen, lay.seller[0], s, (x1 - x0) * 0.45))
    pen.text(x1, y, text, True, fit(pen, text, s, (x1 - x0) * 0.5), "right")
    if lay.header_place == "sections" and rows:
        return section(pen, x0, x1, y + s, lay.labels["lines"]) - pen.lead + s * 0.6
    pen.line(x0, y + s * 0.6, x1, y + s * 0.6, 0.6)
    return y + s * (1.2 if lay.extra["table"] == "frame" else 1.6)


# ---- The items table. ------------------------------------------------------------------------------------------
def _xs(lay: HeldDLayout) -> list[float]:
    return list(accumulate((c.width for c in lay.columns), initial=lay.extra["table_x0"]))

def _texts(pen: Pen, texts: dict[str, list[str]], base: float, bold: bool = False, color=(0, 0, 0)) -> None:
    """Each column's lines from the baseline ``base``: numbers at the right, units and counters centred."""
    pad = pen.lay.size * 0.5
    for col, x in zip(pen.lay.columns, _xs(pen.lay)):
        at, align = ((x + col.width - pad, "right") if col.key in RIGHT else (x + col.width / 2, "center")
                     if col.key in CENTRE else (x + pad, "left"))
        for k, text in enumerate(texts.get(col.key, [])):
            pen.text(at, base + k * pen.lead, text, bold, align=align, color=color)

def _headings(lay: HeldDLayout) -> dict[str, list[str]]:
    out = {}
    for c in lay.columns:
        text = heading_text(lay, c.key, c.heading)
        out[c.key] = text.split(" ", 1) if lay.extra["stacked"] and " " in c.heading else [text]
    return out

def _head_h(lay: HeldDLayout) -> float:
    return lay.size * 1.7 + lay.size * 1.4 * (max(len(v) for v in _headings(lay).values()) - 1)

def _row_h(lay: HeldDLayout, lines: int) -> float:
    return lay.size * 1.4 * lines + lay.size * 0.5

def _verticals(pen: Pen, y0: float, y1: float) -> None:
    for x in _xs(pen.lay):
        pen.line(x, y0, x, y1, 0.5)

def _table_head(pen: Pen, y: float) -> float:
    lay, h = pen.lay, _head_h(pen.lay)
    xs, style, color = _xs(lay), lay.extra["table"], (0, 0, 0)
    if style == "frame":
        pen.line(xs[0], y, xs[-1], y, 0.8)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.6)
        _verticals(pen, y, y + h)
    elif style == "cells":
        for x0, x1 in zip(xs, xs[1:]):
            pen.box(x0 + 0.6, y, x1 - x0 - 1.2, h, fill=lay.extra["accent"])
        color = (1, 1, 1)
    elif style == "banded":
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=tint(lay, 0.72))
    elif style in ("greenbar", "double"):
        for dy in (0.0, 2.0):
            pen.line(xs[0], y + dy, xs[-1], y + dy, 0.6)
        pen.line(xs[0], y + h, xs[-1], y + h, 0.6)
        if style == "double":
            pen.line(xs[0], y + h + 2.0, xs[-1], y + h + 2.0, 0.6)
    else:
        pen.line(xs[0], y + h, xs[-1], y + h, 0.9 if style == "hairline" else 0.5)
    _texts(pen, _headings(lay), y + lay.size * 1.2, True, color)
    return y + h + (2.0 if style == "double" else 0.0)

def _table_row(pen: Pen, cells: dict[str, list[str]], y: float, k: int, bold: bool = False) -> float:
    lay = pen.lay
    h, xs, style = _row_h(lay, max(len(v) for v in cells.values())), _xs(lay), lay.extra["table"]
    if style == "banded" and k % 2:
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=tint(lay, 0.93))
    elif style == "greenbar" and k % 6 >= 3:
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=GREEN)
    _texts(pen, cells, y + lay.size * 1.15, bold)
    if style == "frame":
        _verticals(pen, y, y + h)
    elif style == "hairline" and lay.ruled:
        pen.line(xs[0], y + h, xs[-1], y + h, 0.25, grey=0.65)
    return y + h

def _close(pen: Pen, y: float) -> None:
    xs = _xs(pen.lay)
    pen.line(xs[0], y, xs[-1], y, 0.8 if pen.lay.extra["table"] in ("frame", "double", "greenbar") else 0.5)

def _sum_row(pen: Pen, label: str, value: str, y: float, quantity: str | None = None) -> float:
    """A row holding a sum: its label where the descriptions go, the sum under the amounts."""
    cells = {"description": [label], "amount": [value]}
    if quantity is not None and any(c.key == "quantity" for c in pen.lay.columns):
        cells["quantity"] = [quantity]
    pen.line(_xs(pen.lay)[0], y, _xs(pen.lay)[-1], y, 0.5)
    return _table_row(pen, cells, y, 0, bold=True)


# ---- After the items. ------------------------------------------------------------------------------------------
def _notes(pen: Pen, inv: Invoice, lay: HeldDLayout, x: float, y: float, width: float, extra=()) -> float:
    """The notes from the baseline ``y``, wrapped to ``width``; returns the next baseline."""
    small = lay.size * 0.85
    for line in (part for text in [*notes(inv, lay), *extra] for part in wrap(text, width * lay.size / small, pen)):
        pen.text(x, y, line, size=small)
        y += small * 1.4
    return y

def _stack(pen: Pen, rows, right: float, y: float, rule: bool = True, measure=None, bold: bool = True
           ) -> tuple[float, float]:
    """Totals as label and value rows ending at ``right`` from the baseline ``y``, the last bold (``bold``) under a
    rule (``rule``), as wide as the rows of ``measure`` need; (left edge, next baseline)."""
    s, measure = pen.lay.size, measure or rows
    x = right - widest(pen, [a for a, _ in measure], True) - widest(pen, [b for _, b in measure], True) - s * 2.5
    for k, (label, value) in enumerate(rows):
        last = k == len(rows) - 1 and bold
        if last and rule:
            y += s * 0.35
            pen.line(x, y - s * 1.05, right, y - s * 1.05, 0.6)
        pen.text(x, y, label, last)
        pen.text(right - s * 0.5, y, value, last, align="right")
        y += pen.lead
    return x, y

def _after(pen: Pen, inv: Invoice, lay: HeldDLayout, y: float) -> float:
    """The totals, notes and what else follows the table on the last page; returns the y below."""
    s, e, place = lay.size, lay.extra, lay.totals_place
    x0, x1 = e["table_x0"], pen.right
    rows, total = totals_pairs(inv, lay), lay.money(inv.total(lay.tax_rate))
    if place == "words":
        quantity = lay.quantity(sum((r.quantity for r in inv.rows), Decimal(0)))
        for k, (label, value) in enumerate(rows):
            y = _sum_row(pen, label, value, y, quantity if k == len(rows) - 1 else None)
        _close(pen, y)
        top = y
        pen.text(x0 + s * 0.5, y + s * 1.3, lay.labels["words"], size=s * 0.8, color=GREY)
        pen.text(x1 - s * 0.5, y + s * 1.3, "E. & O.E.", size=s * 0.8, align="right")
        y = text_block(pen, x0 + s * 0.5, y + s * 1.3 + pen.lead, wrap(in_words(inv.total(lay.tax_rate), lay.currency),
                                                                        x1 - x0 - s * 2, pen), first_bold=False)
        mid = (x0 + x1) / 2
        pen.line(x0, y - s * 0.6, x1, y - s * 0.6, 0.5)
        yb = _notes(pen, inv, lay, x0 + s * 0.5, y + s * 0.8, mid - x0 - s * 1.5, bank_lines(lay))
        pen.text(x1 - s * 0.5, y + s * 0.8, f"for {lay.seller[0]}", True, fit(pen, f"for {lay.seller[0]}", s,
                                                                              x1 - mid - s), "right")
        pen.text(x1 - s * 0.5, y + s * 0.8 + pen.lead * 3.2, "Authorised Signatory", size=s * 0.85, align="right")
        bottom = max(yb, y + s * 0.8 + pen.lead * 3.6)
        pen.box(x0, top, x1 - x0, bottom - top, stroke=0.8)
        pen.line(mid, y - s * 0.6, mid, bottom, 0.5)
        return bottom + s
    if place == "sections":
        yy = section(pen, x0, x1, y + s, lay.labels["totals"])
        for k, (label, value) in enumerate(rows):
            pen.text((x0 + x1) / 2, yy, label, k == len(rows) - 1)
            pen.text(x1 - s * 0.5, yy, value, k == len(rows) - 1, align="right")
            yy += pen.lead
        if lay.tax_rate is not None:
            yy = section(pen, x0, x1, yy - pen.lead + s * 0.8, lay.labels["breakdown"])
            heads = ("VAT category code", "VAT category taxable amount", "VAT category rate", "VAT category tax amount")
            for line, texts in enumerate((heads, ("S", rows[0][1], lay.rate(), rows[1][1]))):
                for k, text in enumerate(texts):
                    pen.text(x0 + (k + 1) * (x1 - x0) / 4 - s * 0.5, yy + line * pen.lead, text, line == 0,
                             fit(pen, text, s * (0.8 if line == 0 else 1), (x1 - x0) / 4 - s), "right")
            yy += pen.lead * 2
        yy = section(pen, x0, x1, yy - pen.lead + s * 0.8, lay.labels["payment"])
        return _notes(pen, inv, lay, x0 + s * 0.5, yy, x1 - x0 - s, bank_lines(lay))
    if place in ("paid", "register", "balance", "tender"):
        boxed, balance = place == "register", place == "balance"
        paid = "Refunded to card" if inv.is_credit else "Paid by card" if place == "tender" else "Payment received"
        paid_rows = [(paid, total)] + ([("Change", lay.money(Decimal(0)))] if place == "tender" and
                                       not inv.is_credit else []) if place in ("paid", "tender") else []
        x, yy = _stack(pen, rows[:-1] if balance else rows, x1, y + pen.lead * 1.5, not (boxed or balance),
                       rows + paid_rows, not balance)
        if boxed:
            pen.box(x - s * 0.6, y + pen.lead * 0.5, x1 - x + s * 0.6, yy - y - pen.lead * 0.7, stroke=0.8)
        if balance:
            label, value = rows[-1]
            pen.box(x - s * 0.6, yy - s, x1 - x + s * 0.6, s * 2.6, fill=e["accent"])
            pen.text(x, yy + s * 0.6, label, True, color=(1, 1, 1))
            pen.text(x1 - s * 0.5, yy + s * 0.6, value, True, align="right", color=(1, 1, 1))
            yy += s * 2.6
        if paid_rows:
            yy = _stack(pen, paid_rows, x1, yy + s * 0.4, False, rows + paid_rows, False)[1]
        yn = _notes(pen, inv, lay, x0, y + pen.lead * 1.5, x - x0 - s * 2,
                    bank_lines(lay) if place in ("register", "paid") and not inv.is_credit else ())
        y = max(yy, yn)
        return _barcode(pen, inv, (x0 + x1) / 2, y + s * 0.4) if place == "tender" else y
    if place == "across":
        cells = [(a.rstrip(":"), b) for a, b in rows]
        need = [max(pen.width(a, size=s * 0.78), pen.width(b, True, s * 1.1)) + s * 2 for a, b in cells]
        x = x1 - sum(need)
        for k, ((label, value), w) in enumerate(zip(cells, need)):
            last = k == len(cells) - 1
            if last:
                pen.box(x, y + s * 0.5, w, s * 3.4, fill=tint(lay, 0.85))
            pen.text(x + w - s * 0.6, y + s * 1.6, label, size=s * 0.78, align="right", color=GREY)
            pen.text(x + w - s * 0.6, y + s * 3.2, value, last, s * 1.1, "right")
            x += w
        return _notes(pen, inv, lay, x0, y + s * 5.4, x1 - x0, bank_lines(lay) + [
            f"{lay.labels['ocr'].rstrip(':')} {inv.number}"] if "ocr" in lay.labels else bank_lines(lay))
    if place == "weights":
        weight = total_weight(inv)
        left = [(lay.labels["packages"], str(e["packages"])), (lay.labels["net_weight"], f"{lay.number(weight, 3)} kg"),
                (lay.labels["gross_weight"], f"{lay.number(weight + e['gross_extra'], 3)} kg")]
        _, yr = _stack(pen, rows, x1, y + pen.lead * 1.5)
        yl = pair_rows(pen, x0, y + pen.lead * 1.5, left)
        y = max(yl, yr) + s * 0.4
        pen.text(x0, y, lay.labels["declaration"], True)
        y = _notes(pen, inv, lay, x0, y + pen.lead, x1 - x0) + s
        pen.line(x0, y + pen.lead, x0 + (x1 - x0) * 0.4, y + pen.lead, 0.5)
        y = text_block(pen, x0, y + pen.lead * 2, [lay.labels["signature"], e["signature"]], size=s * 0.85)
        return y
    # base: the tax base grid at the left, the total in a box at the right
    heads = [rows[0][0]] + ([SOURCES["south"]["vat_rate"][0], rows[1][0]] if lay.tax_rate is not None else [])
    values = [rows[0][1]] + ([lay.rate(), rows[1][1]] if lay.tax_rate is not None else [])
    widths = [max(pen.width(a.rstrip(":"), True, s * 0.85), pen.width(b)) + s * 2 for a, b in zip(heads, values)]
    label, value = rows[-1]
    bw = max(pen.width(label, True), pen.width(value, True, s * 1.3)) + s * 2
    x, top = x0, y + s
    for head, val, w in zip(heads, values, widths):
        pen.box(x, top, w, s * 1.6, fill=tint(lay, 0.85), stroke=0.5)
        pen.box(x, top + s * 1.6, w, pen.lead * 1.4, stroke=0.5)
        pen.text(x + w / 2, top + s * 1.15, head.rstrip(":"), True, s * 0.85, "center")
        pen.text(x + w - s * 0.6, top + s * 1.6 + pen.lead, val, align="right")
        x += w
    pen.box(x1 - bw, top, bw, s * 1.6 + pen.lead * 1.4, stroke=1.2)
    pen.text(x1 - bw + s, top + s * 1.15, label, True)
    pen.text(x1 - s, top + s * 1.6 + pen.lead, value, True, s * 1.3, "right")
    return _notes(pen, inv, lay, x0, top + s * 1.6 + pen.lead * 2.8, x1 - x0, bank_lines(lay))

def _barcode(pen: Pen, inv: Invoice, centre: float, y: float) -> float:
    """Bars standing for the receipt's number, as a till prints them (no text: only a scanner reads them)."""
    bits = bin(zlib.crc32(inv.number.encode()) | 1 << 40)[2:] * 2
    width = len(bits) * 1.2
    for k, bit in enumerate(bits):
        if bit == "1":
            pen.box(centre - width / 2 + k * 1.2, y, 0.8, 22.0, fill=(0, 0, 0))
    return y + 26.0


# ---- The page foot. --------------------------------------------------------------------------------------------
def _footer(lay: HeldDLayout) -> list[list[str]]:
    """The foot's text: one list per column (one column is centred)."""
    src, name = lay.extra["source"], lay.seller[0]
    lines = seller_lines(lay)
    return {"ledger": [["This is a Computer Generated Invoice"]],
            "einvoice": [[f"{name} \u00b7 {', '.join(lay.seller[1:])}"]],
            "platform": [["Questions about this order? Contact the seller from your account's order page."]],
            "north": [[name, *lay.seller[1:3]], lines[-3:-1] if len(lines) > 3 else lines, bank_lines(lay),
                      lines[-1:]],
            "till": [["Thank you for shopping with us"]],
            "south": [[f"{name} \u00b7 Registered in the Mercantile Registry, entry {lay.extra['reg']}"]]}.get(src, [])

def _foot_h(lay: HeldDLayout) -> float:
    return max((len(c) for c in _footer(lay)), default=0) * lay.size * 0.75 * 1.4 + lay.size * 2.6

def _foot(pen: Pen, lay: HeldDLayout, n: int, m: int) -> None:
    """The footer, the page label and, on pages but the last, the continued mark."""
    s, blocks, small = lay.size, _footer(lay), lay.size * 0.75
    x0, x1 = lay.extra["table_x0"], pen.right
    lines = max((len(c) for c in blocks), default=0)
    top = lay.page[1] - lay.margin - (lines - 1) * small * 1.4
    width = (x1 - x0) / max(len(blocks), 1)
    for k, block in enumerate(blocks):
        for i, text in enumerate(block):
            x, align = (x0 + k * width, "left") if len(blocks) > 1 else ((x0 + x1) / 2, "center")
            pen.text(x, top + i * small * 1.4, text, size=fit(pen, text, small, width - s, False), align=align,
                     color=GREY)
    y = top - small * 1.4 - s * 0.6 if lines else top
    at = lay.extra["page_at"]
    label = lay.page_label.format(n=n, m=m)
    if lay.header_place not in ("docrow", "sidebar"):
        if at == "top-right":
            pen.text(x1, max(lay.margin * 0.6, s * 2.4), label, size=s * 0.85, align="right")
        else:
            pen.text(x1 if at == "foot-right" else x0, y, label, size=s * 0.85,
                     align="right" if at == "foot-right" else "left")
    if n < m:
        left = at != "foot-left" or lay.header_place in ("docrow", "sidebar")
        pen.text(x0 if left else x1, y, lay.continued.format(next=n + 1), True, s * 0.85,
                 "left" if left else "right")


# ---- Pages. ------------------------------------------------------------------------------------------------------
def _rows(inv: Invoice, lay: HeldDLayout, pen: Pen) -> list[Row]:
    return [Row(i, {c.key: cell_text(c.key, i, line, c.width - lay.size, lay, pen) for c in lay.columns})
            for i, line in enumerate(inv.rows)]

def _top(pen: Pen, inv: Invoice, lay: HeldDLayout, n: int, m: int, rows: bool = True) -> float:
    if lay.header_place == "sidebar":
        sidebar(pen, inv, lay, n, m)
    return HEADERS[lay.header_place](pen, inv, lay, m) if n == 1 else _running(pen, inv, lay, n, m, rows)

def paginate(inv: Invoice, lay: HeldDLayout) -> list[list[Row]]:
    """The item rows of each page: those that fit between the page's header and its foot (less a running sum's
    row where the layout prints one); the totals and notes need room on the last page, or a page follows."""
    pen = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)  # thrown away: measures only
    sums = _row_h(lay, 1) if lay.extra["sums"] else 0.0
    first = _top(pen, inv, lay, 1, 1) + _head_h(lay)
    words = lay.totals_place == "words"
    later = _top(pen, inv, lay, 2, 2) + _head_h(lay) + (sums if lay.extra["sums"] == "carry" else 0.0)
    foot_top = lay.page[1] - lay.margin - _foot_h(lay)
    pages: list[list[Row]] = [[]]
    y = first
    for row in _rows(inv, lay, pen):
        h = _row_h(lay, row.lines)
        if y + h > foot_top - sums and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += h
    if _after(pen, inv, lay, y) > foot_top:
        pages.append([])
        if _after(pen, inv, lay, later - (0.0 if words else _head_h(lay))) > foot_top:
            raise ValueError(f"held-d {lay.seed}: the totals do not fit on a page of their own")
    return pages

def render_pdf(inv: Invoice, lay: HeldDLayout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    pen = Pen(c, lay)
    amounts, done, sums = [row.amount for row in inv.rows], 0, lay.extra["sums"]
    closing, opening = CARRY.get(lay.extra["source"], ("", ""))
    for n, rows in enumerate(pages, 1):
        last, carry_in = n == len(pages), sums == "carry" and n > 1
        y = _top(pen, inv, lay, n, len(pages), bool(rows))
        table = bool(rows) or carry_in or (last and lay.totals_place == "words")
        if table:
            y = _table_head(pen, y)
        if carry_in:
            y = _sum_row(pen, opening, lay.money(sum(amounts[:done], Decimal("0.00")), lines=True), y)
        for k, row in enumerate(rows):
            y = _table_row(pen, row.cells, y, k)
        done += len(rows)
        if sums and not last:
            value = sum(amounts[:done] if sums == "carry" else amounts[done - len(rows):done], Decimal("0.00"))
            y = _sum_row(pen, closing, lay.money(value, lines=True), y)
        if table and not (last and lay.totals_place == "words"):
            _close(pen, y)
        if last:
            _after(pen, inv, lay, y)
        _foot(pen, lay, n, len(pages))
        c.showPage()
    c.save()
    return buf.getvalue()
