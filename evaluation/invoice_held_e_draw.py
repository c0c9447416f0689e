"""HELD-ASIDE FAMILY "held-e": the pages of the fifth held-aside family, written apart from the reader; not to be
read while developing it (nor the other ``evaluation.invoice_held_e*`` modules or the family's files).

:func:`paginate` decides which item rows go on which page and :func:`render_pdf` draws them (both called by
:mod:`evaluation.invoice_render` for the style ``held-e``): page 1 under the full header
(:mod:`evaluation.invoice_held_e_heads`), later pages under a running header, the column headings repeated on every
page with items, descriptions wrapped at their spaces, rows never split across pages, the totals and notes after
the last item (on a page of their own when there is no room), and on each page its foot. The canvas is made with
``invariant=1``: the same invoice and layout give the same bytes.

>>> from evaluation.invoice_held_e import held_e_layout
>>> from evaluation.invoice_records import SAMPLE, load_invoices
>>> inv = load_invoices(SAMPLE)[-1]
>>> pages = paginate(inv, held_e_layout(2))
>>> sum(len(p) for p in pages) == len(inv.rows), len(pages) > 1
(True, True)
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_held_e_heads import buyer, first_header, page_label, running_header
from evaluation.invoice_held_e_ink import Ink
from evaluation.invoice_records import cents
from evaluation.invoice_styles import Row

__all__ = ["paginate", "render_pdf"]

NUMERIC = ("quantity", "ordered", "backorder", "unit_price", "amount", "line_tax", "line_no", "discount", "vat_rate")
BANK = {"bank": "National Westminster Bank", "iban": "GB29 NWBK 6016 1331 9268 19", "bic": "NWBKGB2L"}


def _pad(ink: Ink) -> float:
    return ink.size * 0.55


def _cells(inv, index: int, lay, ink: Ink) -> dict[str, list[str]]:
    row, e = inv.rows[index], lay.extra
    desc = row.description or ""
    out = {}
    for col in lay.columns:
        k, w = col.key, col.width - 2 * _pad(ink)
        if k == "code":
            out[k] = ink.wrap(row.code, w)
        elif k == "description":
            if e["code_place"] == "bracket":
                out[k] = ink.wrap(f"[{row.code}] {desc}", w)
            elif e["code_place"] == "above":
                out[k] = [*ink.wrap(row.code, w, bold=True), *ink.wrap(desc, w)]
            else:
                out[k] = ink.wrap(desc, w)
        elif k in ("quantity", "ordered"):
            out[k] = [lay.quantity(row.quantity)]
        elif k == "backorder":
            out[k] = [lay.quantity(Decimal(0))]
        elif k == "unit_price":
            out[k] = [lay.price(row.unit_price)]
        elif k == "amount":
            out[k] = [lay.money(row.amount, lines=True)]
        elif k == "line_tax":
            out[k] = [lay.money(cents(row.amount * lay.tax_rate), lines=True)]
        elif k == "line_no":
            out[k] = [str(index + 1)]
        elif k == "vat_rate":
            out[k] = [lay.rate()]
        else:  # unit, vat_code, discount
            out[k] = [e[k]]
    return out


def _height(ink: Ink, lines: int) -> float:
    return lines * ink.lead + ink.size * 0.35


def _base(ink: Ink, top: float, k: int) -> float:
    return top + ink.size * 1.15 + k * ink.lead


def _x(lay) -> list[float]:
    xs = [lay.extra["x0"]]
    for col in lay.columns:
        xs.append(xs[-1] + col.width)
    return xs


def _headings(lay, ink: Ink) -> list[list[str]]:
    return [ink.wrap(lay.heading(c.key), c.width - 2 * _pad(ink), bold=True) for c in lay.columns]


def _put(ink: Ink, lay, top: float, cells: list[list[str]], bold: bool = False, colour=None,
         first_bold: bool = False) -> None:
    xs, pad = _x(lay), _pad(ink)
    for col, x0, x1, lines in zip(lay.columns, xs, xs[1:], cells):
        right = col.key in NUMERIC
        for k, line in enumerate(lines):
            strong = bold or (first_bold and col.key == "description" and k == 0)
            ink.text(x1 - pad if right else x0 + pad, _base(ink, top, k), line, bold=strong, colour=colour,
                     align="right" if right else "left")


def _typed_rule(ink: Ink, y: float, char: str = "-") -> float:
    ink.text(ink.left, y + ink.size, char * int((ink.right - ink.left) / ink.width(char)))
    return ink.lead


def table_head(ink: Ink, lay, y: float) -> float:
    """The column headings in the layout's table style; returns their height."""
    heads, style = _headings(lay, ink), lay.extra["table"]
    h = _height(ink, max(len(x) for x in heads))
    width = ink.right - ink.left
    if style == "bar":
        ink.box(ink.left, y, width, h, fill=lay.extra["accent"], stroke=False)
        _put(ink, lay, y, heads, bold=True, colour=(1, 1, 1))
        return h
    if style in ("grid", "shade", "boxcols"):
        ink.box(ink.left, y, width, h, fill=lay.extra["shade"], stroke=style != "shade")
        if style != "shade":
            for x in _x(lay)[1:-1]:
                ink.upright(x, y, y + h)
    _put(ink, lay, y, heads, bold=True, colour=(0.35, 0.35, 0.35) if style == "light" else None)
    if style in ("lines", "light", "zebra"):
        ink.rule(ink.left, ink.right, y + h, 1.0 if style == "lines" else 0.5)
    if style == "zebra":
        ink.rule(ink.left, ink.right, y, 0.5)
    if style == "typed":
        return h + _typed_rule(ink, y + h - ink.size * 0.3)
    return h


def table_row(ink: Ink, lay, row: Row, y: float, k: int) -> float:
    """One item row; returns its height."""
    cells = [row.cells[c.key] for c in lay.columns]
    h, style = _height(ink, row.lines), lay.extra["table"]
    if style == "zebra" and k % 2:
        ink.box(ink.left, y, ink.right - ink.left, h, fill=lay.extra["shade"], stroke=False)
    _put(ink, lay, y, cells, first_bold=lay.extra["code_place"] == "above")
    if style == "grid":
        ink.box(ink.left, y, ink.right - ink.left, h)
        for x in _x(lay)[1:-1]:
            ink.upright(x, y, y + h)
    elif style in ("lines", "light") and lay.ruled:
        ink.rule(ink.left, ink.right, y + h, 0.3, grey=0.7 if style == "light" else 0.4)
    return h


def table_end(ink: Ink, lay, top: float, y: float) -> float:
    """What closes the table on a page (``top`` is where its rows began); returns the height it adds."""
    style = lay.extra["table"]
    if style == "boxcols":
        ink.box(ink.left, top, ink.right - ink.left, y - top)
        for x in _x(lay)[1:-1]:
            ink.upright(x, top, y)
    elif style in ("bar", "shade", "zebra", "bare", "lines"):
        ink.rule(ink.left, ink.right, y, 0.8 if style != "bare" else 0.3)
    elif style == "typed":
        return _typed_rule(ink, y - ink.size * 0.2)
    return ink.size * 0.5


def _totals(inv, lay) -> list[tuple[str, str, bool]]:
    credit, labels = inv.is_credit, lay.labels
    out = [(lay.label("subtotal"), lay.money(inv.subtotal), False)]
    if "carriage" in labels:
        out.append((lay.label("carriage"), lay.money(Decimal("0.00")), False))
    if lay.tax_rate is not None:
        out.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate)), False))
    out.append((lay.label("total", credit), lay.money(inv.total(lay.tax_rate)), True))
    if "balance" in labels and lay.extra["header"] != "modern" and not credit:
        if "paid" in labels:
            out.append((lay.label("paid"), lay.money(Decimal("0.00")), False))
        out.append((lay.label("balance"), lay.money(inv.total(lay.tax_rate)), True))
    return out


def _notes(inv, lay) -> list[str]:
    e = lay.extra
    notes = []
    if e["code_at"] == "note":
        notes.append(e["currency_note"].format(code=lay.currency))
    if "terms" not in lay.labels and not inv.is_credit:
        notes.append(f"{lay.upper(e['terms'])}")
    notes += [e["bank"].format(**BANK, name=lay.seller[0]), e["thanks"]]
    return [lay.upper(n) for n in notes]


def totals(ink: Ink, inv, lay, y: float) -> float:
    """The totals block and the notes under the items of the last page; returns where they end."""
    items, style = _totals(inv, lay), lay.extra["totals"]
    y += ink.lead * 0.6
    values_w = max(ink.width(v, True) for _, v, _ in items)
    labels_w = max(ink.width(a, True) for a, _, _ in items)
    cells = [(a, v) for a, v, _ in items]
    if style == "strip" and not ink.boxes_fit((ink.right - ink.left) * 0.75, cells):
        style = "box"
    if style == "strip":
        y += ink.boxes(ink.left + (ink.right - ink.left) * 0.25, y, (ink.right - ink.left) * 0.75, cells,
                       shade=lay.extra["shade"])
    elif style in ("box", "table"):
        w = labels_w + values_w + ink.size * 3
        row = ink.lead * 1.15
        for label, value, strong in items:
            ink.box(ink.right - w, y, w - values_w - ink.size * 1.4, row, fill=lay.extra["shade"] if style == "box"
                    else None)
            ink.box(ink.right - values_w - ink.size * 1.4, y, values_w + ink.size * 1.4, row)
            ink.text(ink.right - w + ink.size * 0.5, y + ink.lead * 0.85, label, bold=strong)
            ink.text(ink.right - ink.size * 0.6, y + ink.lead * 0.85, value, bold=strong, align="right")
            y += row
    else:  # stack, band, typed
        gap = ink.size * 2.5
        for label, value, strong in items:
            base = y + ink.size * 1.1
            if strong and style == "band":
                ink.box(ink.right - labels_w - values_w - gap - ink.size, y, labels_w + values_w + gap + ink.size,
                        ink.lead * 1.3, fill=lay.extra["accent"], stroke=False)
                colour = (1, 1, 1)
            else:
                colour = None
                if strong and style == "stack":
                    ink.rule(ink.right - labels_w - values_w - gap, ink.right, y, 0.6)
            ink.text(ink.right - values_w - gap, base, label, bold=strong, align="right", colour=colour)
            ink.text(ink.right - (ink.size * 0.4 if style == "band" else 0), base, value, bold=strong,
                     align="right", colour=colour)
            y += ink.lead * 1.3
        if style == "typed":
            y += _typed_rule(ink, y - ink.size * 0.3, "=")
    y += ink.lead
    for note in _notes(inv, lay):
        for line in ink.wrap(note, ink.right - ink.left):
            ink.text(ink.left, y + ink.size, line, size=ink.size)
            y += ink.lead
    if lay.extra["system"] == "cloud" and not inv.is_credit:
        y = _advice(ink, inv, lay, y + ink.lead)
    return y


def _advice(ink: Ink, inv, lay, y: float) -> float:
    """A payment slip to cut off and return with the payment (invoices only)."""
    ink.c.setDash(3, 2)
    ink.rule(ink.left, ink.right, y, 0.5)
    ink.c.setDash()
    y += ink.lead
    ink.text(ink.left, y + ink.size * 1.3, lay.label("advice").rstrip(":"), bold=True, size=ink.size * 1.3)
    ink.address(ink.left, y + ink.lead * 1.5, "To:", [lay.seller[0], *lay.seller[1:3]], bold_first=False)
    items = [(lay.label("customer"), buyer(inv, lay)[0]), (lay.label("invoice_number"), inv.number),
             (lay.label("total"), lay.money(inv.total(lay.tax_rate))),
             (lay.label("due"), lay.date(inv.date + dt.timedelta(days=lay.extra["due_days"]))),
             (lay.label("enclosed"), "")]
    x = ink.left + (ink.right - ink.left) * 0.5
    h = ink.pairs(x, y, items, bold_labels=True)
    ink.rule(x + ink.pairs_width(items[:-1], True) - ink.size * 6, ink.right, y + h - ink.size * 0.3, 0.5)
    return y + max(h, ink.lead * 5.5)


def _foot_lines(lay) -> list[str]:
    e = lay.extra
    lines = []
    if e["system"] in ("accounts", "suite", "wide", "matrix", "cloud"):
        lines.append(lay.upper(e["reg_note"].format(reg=e["reg"], vat=e["vat_no"], name=lay.seller[0],
                                                    street=lay.seller[1], town=lay.seller[2])))
    return lines


def foot_height(ink: Ink, lay) -> float:
    return (len(_foot_lines(lay)) + 2) * ink.lead + ink.size


def foot(ink: Ink, lay, n: int, m: int) -> None:
    """The foot of page ``n`` of ``m``: the continued mark (pages but the last), the page label, the company line."""
    bottom = lay.page[1] - lay.margin * 0.75
    lines = _foot_lines(lay)
    for k, line in enumerate(lines):
        ink.text((ink.left + ink.right) / 2, bottom - k * ink.lead, line, size=ink.size * 0.85, align="centre",
                 colour=(0.3, 0.3, 0.3))
    y = bottom - len(lines) * ink.lead
    if lay.extra["page_at"] == "foot":
        ink.text(ink.right, y, page_label(lay, n, m), align="right")
    if n < m:
        ink.text(ink.left, y, lay.continued.format(next=n + 1), bold=True)


def _rows(inv, lay, ink: Ink) -> list[Row]:
    return [Row(i, _cells(inv, i, lay, ink)) for i in range(len(inv.rows))]


def paginate(inv, lay) -> list[list[Row]]:
    """The item rows of each page: as many as fit between the header and the foot; the last page also holds the
    totals and notes, or a page of their own follows."""
    ink = Ink.scratch(lay)
    bottom = lay.page[1] - lay.margin - foot_height(ink, lay)
    head = table_head(ink, lay, 0.0)
    first = first_header(ink, inv, lay, 9) + head
    later = running_header(ink, inv, lay, 2, 9) + head
    pages: list[list[Row]] = [[]]
    y = first
    for row in _rows(inv, lay, ink):
        h = _height(ink, row.lines)
        if y + h + ink.lead > bottom and pages[-1]:
            pages.append([])
            y = later
        pages[-1].append(row)
        y += h
    if totals(ink, inv, lay, y + ink.lead) > bottom:
        pages.append([])
    return pages


def render_pdf(inv, lay) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    c.setTitle(f"{lay.credit_title if inv.is_credit else lay.title} {inv.number}")
    ink = Ink(c, lay)
    m = len(pages)
    for n, rows in enumerate(pages, 1):
        y = first_header(ink, inv, lay, m) if n == 1 else running_header(ink, inv, lay, n, m)
        if rows:
            y += table_head(ink, lay, y)
            top = y
            for k, row in enumerate(rows):
                y += table_row(ink, lay, row, y, k)
            y += table_end(ink, lay, top, y)
        if n == m:
            totals(ink, inv, lay, y + ink.lead * (0 if rows else 0.5))
        foot(ink, lay, n, m)
        c.showPage()
    c.save()
    return buf.getvalue()
