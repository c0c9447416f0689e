"""What every held-n form draws with: :class:`NPen`, a pen in the layout's own face, and the blocks the programs'
forms are made of, each drawn at a point and returning the ``y`` below it (``draw`` false only measures): a row
of boxed cells with each label small over its value, a list of ``Label: value`` lines, a block of address lines
under a heading (boxed or not), a small ruled table, the totals stacked at the right, a wrapped paragraph, a line
of text up the left margin, and a QR code.

>>> from evaluation.invoice_held_n import held_n_layout
>>> import io
>>> from reportlab.pdfgen import canvas
>>> lay = held_n_layout(1)
>>> pen = NPen(canvas.Canvas(io.BytesIO(), pagesize=lay.page), lay)
>>> y = cells(pen, 40.0, 100.0, 300.0, [("Nº Factura", "536365"), ("Fecha", "01/12/2010")], False)
>>> y > 100.0 + 2 * lay.size
True
"""

from __future__ import annotations

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing

from evaluation.invoice_held_n_facts import doc_number
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, wrap

__all__ = ["GREY", "LIGHT", "NPen", "cells", "colon", "doc_title", "kv_list", "lines_block", "number_label",
           "paragraph", "qr", "running_top", "stack", "table", "up_text"]

GREY = (0.38, 0.38, 0.38)
LIGHT = (0.9, 0.9, 0.9)


class NPen(Pen):
    """A pen in the layout's face (``extra["face"]``), lines ``1.3`` sizes apart."""

    def __init__(self, canvas, lay: Layout):
        self.c, self.lay, self.h = canvas, lay, lay.page[1]
        self.regular, self.bold = lay.extra["face"]
        self.left, self.right = lay.margin, lay.page[0] - lay.margin
        self.lead = lay.size * 1.3

    def rect(self, x: float, y: float, w: float, h: float, width: float = 0.5, grey: float = 0.0,
             radius: float = 0.0) -> None:
        """An outline with its top left at (x, y), its corners rounded by ``radius``."""
        self.c.setLineWidth(width)
        self.c.setStrokeColorRGB(grey, grey, grey)
        if radius:
            self.c.roundRect(x, self.h - y - h, w, h, radius, fill=0, stroke=1)
        else:
            self.c.rect(x, self.h - y - h, w, h, fill=0, stroke=1)

    def fit(self, text: str, bold: bool, size: float, width: float) -> float:
        """``size``, or the smaller size at which ``text`` is ``width`` wide (a long name in a narrow place)."""
        return min(size, size * width / max(self.width(text, bold, size), 1.0))

    def fill(self, x: float, y: float, w: float, h: float, rgb) -> None:
        self.c.setFillColorRGB(*rgb)
        self.c.rect(x, self.h - y - h, w, h, fill=1, stroke=0)
        self.c.setFillColorRGB(0, 0, 0)


def doc_title(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def number_label(inv: Invoice, lay: Layout) -> str:
    return lay.labels["credit_number" if inv.is_credit else "invoice_number"]


def colon(lay: Layout, key: str) -> str:
    """A label as a ``Label: value`` list prints it (with the layout's colon)."""
    return lay.labels[key] + lay.colon


def running_top(pen: NPen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    """The top of a later page: the seller's name, the line naming the document (its title, number and date)
    and a rule; returns the y where the table starts."""
    y = lay.margin + lay.size * 1.2
    text = lay.running.format(title=doc_title(inv, lay), number=doc_number(inv, lay), date=lay.date(inv.date), n=n)
    if draw:
        pen.text(pen.left, y, lay.extra["seller"]["name"], True, color=GREY)
        pen.text(pen.right, y, text, True, align="right")
        pen.line(pen.left, y + lay.size * 0.6, pen.right, y + lay.size * 0.6, 0.6, 0.5)
    return y + lay.size * 2.2


def paragraph(pen: NPen, x: float, y: float, text: str, width: float, draw: bool, size: float | None = None,
              color=(0, 0, 0), bold: bool = False) -> float:
    """``text`` wrapped to ``width`` from the baseline ``y``; returns the baseline after its last line."""
    size = size or pen.lay.size
    for line in _wrap_sized(pen, text, width, size, bold):
        if draw:
            pen.text(x, y, line, bold, size, color=color)
        y += size * 1.3
    return y


def _wrap_sized(pen: NPen, text: str, width: float, size: float, bold: bool) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and pen.width(f"{lines[-1]} {word}", bold, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def cells(pen: NPen, x: float, y: float, width: float, pairs: list[tuple[str, str]], draw: bool,
          shade: bool = True, boxed: bool = True) -> float:
    """Rows of cells across ``width`` from ``x``: each label small (on a shaded strip) over its value, each cell
    as wide as its content asks, the spare width of a row shared out, as many cells to a row as fit; ``y`` is the
    first row's top. Returns the y below."""
    lay, small = pen.lay, pen.lay.size * 0.78
    need = [max(pen.width(label, False, small), pen.width(value, True)) + lay.size * 1.2 for label, value in pairs]
    groups: list[list[int]] = [[]]
    for k, w in enumerate(need):
        if groups[-1] and sum(need[j] for j in groups[-1]) + w > width:
            groups.append([])
        groups[-1].append(k)
    label_h, value_h = small * 1.5, lay.size * 1.7
    for group in groups:
        spare = max(0.0, width - sum(need[k] for k in group)) / len(group)
        xx = x
        for k in group:
            label, value = pairs[k]
            w = need[k] + spare
            if draw:
                if shade:
                    pen.fill(xx, y, w, label_h, LIGHT)
                if boxed:
                    pen.rect(xx, y, w, label_h + value_h, 0.6)
                    pen.line(xx, y + label_h, xx + w, y + label_h, 0.4)
                pen.text(xx + lay.size * 0.5, y + small * 1.1, label, size=small,
                         color=GREY if not shade else (0, 0, 0))
                pen.text(xx + lay.size * 0.5, y + label_h + lay.size * 1.15, value, True)
            xx += w
        y += label_h + value_h
    return y


def kv_list(pen: NPen, x: float, y: float, pairs: list[tuple[str, str]], draw: bool, bold_labels: bool = True,
            align_right: float | None = None) -> float:
    """``Label value`` lines from the baseline ``y``, the values in a column after the widest label (or
    right-aligned at ``align_right``)."""
    if not pairs:
        return y
    col = max(pen.width(label, bold_labels) for label, _ in pairs) + pen.lay.size
    for label, value in pairs:
        if draw:
            pen.text(x, y, label, bold_labels)
            if align_right is not None:
                pen.text(align_right, y, value, align="right")
            else:
                pen.text(x + col, y, value)
        y += pen.lead
    return y


def lines_block(pen: NPen, x: float, y: float, width: float, heading: str | None, lines: list[str], draw: bool,
                boxed: bool = False, heading_style: str = "small") -> float:
    """An address block: its heading (small grey over a box, or bold, or on a shaded strip), the first line bold,
    the others wrapped to ``width``; ``y`` is the block's top. Returns the y below."""
    lay, pad = pen.lay, pen.lay.size * 0.6
    if heading and heading_style == "shaded":
        if draw:
            pen.fill(x, y, width, lay.size * 1.6, LIGHT)
            pen.text(x + pad, y + lay.size * 1.15, heading, True)
        y += lay.size * 1.6
    elif heading:
        size = lay.size * (0.8 if heading_style == "small" else 1.0)
        if draw:
            pen.text(x + (pad if boxed else 0), y + size, heading, heading_style == "bold", size,
                     color=GREY if heading_style == "small" else (0, 0, 0))
        y += size * 1.5
    box_top = y
    y += pad + lay.size
    inner = width - (2 * pad if boxed else 0)
    for k, line in enumerate(lines):
        for part in wrap(line, inner, pen):
            if draw:
                pen.text(x + (pad if boxed else 0), y, part, k == 0)
            y += pen.lead
    y += pad * 0.5
    if draw and boxed:
        pen.rect(x, box_top, width, y - box_top, 0.7, radius=lay.extra.get("radius", 0.0))
    return y + pad


def table(pen: NPen, x: float, y: float, headings: list[str], rows: list[list[str]], widths: list[float],
          draw: bool, right: tuple[int, ...] = (), bold_last: bool = False, size: float | None = None) -> float:
    """A small ruled table (a VAT summary, a payment table): a shaded heading row and its rows, every cell
    outlined; the columns in ``right`` right-aligned. ``y`` is its top; returns the y below."""
    size = size or pen.lay.size
    pad = size * 0.45
    head_lines = [_wrap_sized(pen, t, w - 2 * pad, size * 0.9, True) or [""] for t, w in zip(headings, widths)]
    head_h = max(len(v) for v in head_lines) * size * 1.15 + pad * 1.6
    row_h = size * 1.25 + pad * 1.6
    if draw:
        xs = [x]
        for w in widths:
            xs.append(xs[-1] + w)
        pen.fill(x, y, xs[-1] - x, head_h, LIGHT)
        for k, (lines, x0, x1) in enumerate(zip(head_lines, xs, xs[1:])):
            for j, t in enumerate(lines):
                ty = y + pad + size * 0.9 + j * size * 1.15
                if k in right:
                    pen.text(x1 - pad, ty, t, True, size * 0.9, align="right")
                else:
                    pen.text(x0 + pad, ty, t, True, size * 0.9)
            pen.rect(x0, y, x1 - x0, head_h, 0.5)
        yy = y + head_h
        for r, row in enumerate(rows):
            for k, (t, x0, x1) in enumerate(zip(row, xs, xs[1:])):
                bold = bold_last and r == len(rows) - 1
                ty = yy + pad + size
                if k in right:
                    pen.text(x1 - pad, ty, t, bold, size, align="right")
                else:
                    pen.text(x0 + pad, ty, t, bold, size)
                pen.rect(x0, yy, x1 - x0, row_h, 0.5)
            yy += row_h
    return y + head_h + row_h * len(rows)


def stack(pen: NPen, right: float, y: float, rows: list[tuple[str, str, bool]], draw: bool, shade_total: bool = False,
          rule: bool = True, width: float | None = None) -> float:
    """Totals stacked at the right: labels in a column, values right-aligned at ``right``, the bold row (the
    total) under a rule or on a shaded strip. ``y`` is the first baseline; returns the baseline after."""
    lay = pen.lay
    w = width or max(pen.width(a, True) for a, _, _ in rows) + max(pen.width(b, True) for _, b, _ in rows) \
        + 3 * lay.size
    x = right - w
    for label, value, bold in rows:
        if bold:
            y += lay.size * 0.4
            if draw and shade_total:
                pen.fill(x - lay.size * 0.4, y - lay.size * 1.15, w + lay.size * 0.4, lay.size * 1.65, LIGHT)
            elif draw and rule:
                pen.line(x, y - lay.size * 1.05, right, y - lay.size * 1.05, 0.8)
        if draw:
            pen.text(x, y, label, bold)
            pen.text(right - lay.size * 0.3, y, value, bold, align="right")
        y += pen.lead * (1.15 if bold else 1.0)
    return y


def up_text(pen: NPen, x: float, y: float, text: str, size: float) -> None:
    """``text`` read upwards from the baseline point (x, y) (y from the top, the text's start at the bottom)."""
    c = pen.c
    c.saveState()
    c.translate(x, pen.h - y)
    c.rotate(90)
    c.setFont(pen.regular, size)
    c.setFillColorRGB(*GREY)
    c.drawString(0, 0, text)
    c.restoreState()


def qr(pen: NPen, x: float, y: float, payload: str, side: float) -> None:
    """A QR code of ``payload``, ``side`` points square, its top left at (x, y)."""
    widget = QrCodeWidget(payload, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(side, side, transform=[side / (x1 - x0), 0, 0, side / (y1 - y0), 0, 0])
    drawing.add(widget)
    renderPDF.draw(drawing, pen.c, x, pen.h - y - side)
