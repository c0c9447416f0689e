"""HELD-ASIDE FAMILY "held-f": the drawing primitives and page headers of the sixth held-aside family, written apart
from the reader; not to be read while developing it (nor the other ``evaluation.invoice_held_f*`` modules or the
family's files).

:class:`Quill` is a ReportLab canvas seen from the top left of the page (``y`` grows downwards, a text is placed by
its baseline) in a layout's faces. :func:`first_header` draws page 1's header in the layout's arrangement and
:func:`running_header` the line that opens each later page; both return the ``y`` below what they drew, so drawing
on a thrown-away canvas measures them.

>>> from evaluation.invoice_held_f import held_f_layout
>>> q = Quill.scratch(held_f_layout(1))
>>> q.wrap("ONE TWO THREE", q.width("ONE TWO") + 0.1)
['ONE TWO', 'THREE']
"""

from __future__ import annotations

import datetime as dt
import io
import zlib

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from evaluation.invoice_held_f_words import BUYERS, TOWNS

__all__ = ["Quill", "buyer", "first_header", "page_label", "running_header"]

GREY = (0.35, 0.35, 0.35)


class Quill:
    """A canvas with the origin at the top left, in the layout's faces."""

    def __init__(self, c: canvas.Canvas, lay):
        self.c, self.lay = c, lay
        self.regular, self.bold = lay.fonts
        self.size = lay.size
        self.lead = lay.size * 1.35
        self.height = lay.page[1]
        self.left, self.right = lay.extra["x0"], lay.extra["x1"]

    @classmethod
    def scratch(cls, lay) -> Quill:
        """A quill on a canvas that is thrown away: drawing with it measures."""
        return cls(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)

    def width(self, text: str, bold: bool = False, size: float | None = None) -> float:
        return stringWidth(text, self.bold if bold else self.regular, size or self.size)

    def text(self, x: float, y: float, text: str, bold: bool = False, size: float | None = None,
             align: str = "left", colour=None) -> None:
        """``text`` with its baseline at ``y``; ``x`` is its left, right or centre as ``align`` says."""
        if not text:
            return
        size = size or self.size
        self.c.setFont(self.bold if bold else self.regular, size)
        self.c.setFillColorRGB(*(colour or (0, 0, 0)))
        w = self.width(text, bold, size)
        x = x - w if align == "right" else x - w / 2 if align == "centre" else x
        self.c.drawString(x, self.height - y, text)

    def rule(self, x0: float, x1: float, y: float, weight: float = 0.5, grey: float = 0.0, dash=None) -> None:
        self.c.setLineWidth(weight)
        self.c.setStrokeColorRGB(grey, grey, grey)
        if dash:
            self.c.setDash(*dash)
        self.c.line(x0, self.height - y, x1, self.height - y)
        if dash:
            self.c.setDash()

    def upright(self, x: float, y0: float, y1: float, weight: float = 0.5) -> None:
        self.c.setLineWidth(weight)
        self.c.setStrokeColorRGB(0, 0, 0)
        self.c.line(x, self.height - y0, x, self.height - y1)

    def box(self, x: float, y: float, w: float, h: float, fill=None, stroke: bool = True,
            weight: float = 0.6) -> None:
        """A rectangle with its top left at (x, y), filled with ``fill`` (a grey or an RGB) and/or outlined."""
        if fill is not None:
            self.c.setFillColorRGB(*((fill,) * 3 if isinstance(fill, float) else fill))
        self.c.setLineWidth(weight)
        self.c.setStrokeColorRGB(0, 0, 0)
        self.c.rect(x, self.height - y - h, w, h, fill=int(fill is not None), stroke=int(stroke))

    def wrap(self, text: str, width: float, bold: bool = False) -> list[str]:
        """``text`` broken at its spaces into lines no wider than ``width`` (a longer word keeps a line of its own)."""
        lines: list[str] = []
        for word in text.split():
            if lines and self.width(f"{lines[-1]} {word}", bold) <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        return lines or [""]

    def lines(self, x: float, y: float, lines: list[str], bold_first: bool = False, align: str = "left",
              size: float | None = None, colour=None) -> float:
        """Lines one under the other, the first baseline at ``y``; returns the ``y`` under the last."""
        for k, line in enumerate(lines):
            self.text(x, y + k * self.lead, line, bold=bold_first and k == 0, align=align, size=size, colour=colour)
        return y + len(lines) * self.lead

    def pairs(self, x: float, y: float, pairs: list[tuple[str, str]], gap: float, bold_labels: bool = True,
              right: float | None = None) -> float:
        """``label  value`` lines; values start ``gap`` after the widest label (or end at ``right``)."""
        labels = max((self.width(a, bold_labels) for a, _ in pairs), default=0.0)
        for k, (label, value) in enumerate(pairs):
            base = y + k * self.lead
            self.text(x, base, label, bold=bold_labels)
            if right is None:
                self.text(x + labels + gap, base, value)
            else:
                self.text(right, base, value, align="right")
        return y + len(pairs) * self.lead


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def buyer(inv, lay) -> list[str]:
    """The buyer's address block: a name, a street, a town and the record's country as written."""
    key = inv.customer or inv.number.lstrip("C")
    streets = TOWNS.get(inv.country, (("1 Harbour Road", "Port Town"),))
    street, town = streets[_hash(key) % len(streets)]
    name = BUYERS[_hash(key + "n") % len(BUYERS)]
    if inv.customer is None:
        name = {"storefront": "Guest checkout", "till": "Cash sale"}.get(lay.extra["kit"], name)
    return [name, street, town, inv.country]


def fields(inv, lay) -> list[tuple[str, str]]:
    """The header's (label, value) pairs in print order: an invoice without a customer prints no customer."""
    e, credit = lay.extra, inv.is_credit
    out = [(lay.label("invoice_number", credit), inv.number), (lay.label("invoice_date"), lay.date(inv.date))]
    if "order" in lay.labels:
        base = e["order_base"] + int(inv.number.lstrip("C")) % 9973
        plain = e["kit"] == "office" or lay.labels["order"].endswith("#")
        value = f"DN{base}" if e["kit"] == "trade" else f"{base}" if plain else f"#{base}"
        out.insert(e["order_base"] % 2, (lay.label("order"), value))
    if inv.customer is not None:
        out.insert(1 + e["order_base"] % 2, (lay.label("customer_id"), inv.customer))
    if "due" in lay.labels and not credit:
        out.append((lay.label("due"), lay.date(inv.date + dt.timedelta(days=e["due_days"]))))
    if "terms" in lay.labels and not credit:
        out.append((lay.label("terms"), f"Net {e['due_days']}"))
    if "rep" in lay.labels:
        out.append((lay.label("rep"), e["rep"]))
    if lay.mark_place == "field":
        out.append((lay.label("currency"), lay.currency))
    return out


def seller_lines(lay) -> list[str]:
    name, street, town, _, _, _, reg, phone, web = lay.seller
    return [name, street, town, f"Tel. {phone}" if lay.extra["kit"] != "app" else phone, web, reg]


def page_label(lay, n: int, m: int) -> str:
    return lay.page_label.format(n=n, m=m)


def _title(inv, lay) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _addresses(q: Quill, inv, lay, x: float, y: float, width: float) -> float:
    """The bill-to block and, where the layout has one, the delivery block: side by side when ``width`` holds
    both, else one under the other. Returns the y under them."""
    blocks = [(lay.label("bill_to"), buyer(inv, lay))]
    if "ship_to" in lay.labels and lay.extra["ship"]:
        blocks.append((lay.label("ship_to"), buyer(inv, lay)))
    form = lay.extra["header"] == "form"
    need = max(q.width(t, True) for label, lines in blocks for t in (label, *lines)) + q.size * (2.5 if form else 2)
    across = len(blocks) == 1 or width >= 2 * need
    step = max(need, width / 2) if across else 0.0
    bottom = y
    for k, (label, lines) in enumerate(blocks):
        x0, y0 = x + k * step, y if across else bottom + (q.lead * 0.6 if k else 0.0)
        if form:
            h = (len(lines) + 1) * q.lead + q.size * 0.8
            q.box(x0, y0 - q.size * 1.2, need - q.size * 0.5, h, stroke=True)
            q.text(x0 + q.size * 0.4, y0, label, bold=True, size=q.size * 0.9)
            bottom = max(bottom, q.lines(x0 + q.size * 0.4, y0 + q.lead, lines) + q.size * 0.4)
        else:
            q.text(x0, y0, label, bold=True, colour=GREY)
            bottom = max(bottom, q.lines(x0, y0 + q.lead, lines, bold_first=True))
    return bottom


def _seller_block(q: Quill, lay, y: float, align: str = "left") -> float:
    lines = seller_lines(lay)
    x = q.left if align == "left" else q.right
    q.text(x, y + q.size * 0.6, lines[0], bold=True, size=q.size * 1.45, align=align)
    return q.lines(x, y + q.size * 0.6 + q.lead * 1.2, lines[1:5], align=align, colour=GREY)


def first_header(q: Quill, inv, lay, m: int) -> float:
    """Page 1's header in the layout's arrangement; returns the y under it."""
    e, top = lay.extra, lay.margin + q.size
    title = _title(inv, lay)
    big = q.size * e["title_size"]
    big = min(big, big * (q.right - q.left) * 0.45 / q.width(title, True, big))  # at most 45% of the width
    pairs = fields(inv, lay)
    wide = q.right - q.left
    style = e["header"]
    if e["page_at"] == "top" and style != "banner":
        q.text(q.right, top - q.size * 0.2, page_label(lay, 1, m), size=q.size * 0.9, align="right", colour=GREY)
        top += q.lead
    if style == "banner":
        band = big * 2.1
        q.box(0, top - q.size - lay.margin * 0.4, lay.page[0], band, fill=e["accent"], stroke=False)
        base = top - q.size - lay.margin * 0.4 + band * 0.62
        q.text(q.left, base, lay.seller[0], bold=True, size=q.size * 1.3, colour=(1, 1, 1))
        q.text(q.right, base, title, bold=True, size=big, align="right", colour=(1, 1, 1))
        y = top - q.size - lay.margin * 0.4 + band + q.lead * 1.2
        q.text(q.left, y, "  ".join(seller_lines(lay)[1:4]), size=q.size * 0.9, colour=GREY)
        if e["page_at"] == "top":  # under the band, at the right
            q.text(q.right, y + q.lead * (1.2 if q.right - q.left < 400 else 0), page_label(lay, 1, m),
                   size=q.size * 0.9, align="right", colour=GREY)
            y += q.lead * (1.2 if q.right - q.left < 400 else 0)
        y += q.lead * 1.6
        need = max(max(q.width(a.rstrip(":"), size=q.size * 0.85), q.width(v, True)) for a, v in pairs) + q.size * 2
        per_row = max(1, min(len(pairs), int(wide // need)))
        cell = wide / per_row
        for k, (label, value) in enumerate(pairs):  # rows of cells, each label above its value
            x, base = q.left + (k % per_row) * cell, y + (k // per_row) * q.lead * 2.4
            q.text(x, base, label.rstrip(":"), size=q.size * 0.85, colour=GREY)
            q.text(x, base + q.lead, value, bold=True)
        y += q.lead * 2.4 * ((len(pairs) - 1) // per_row + 1) + q.lead * 0.4
        return _addresses(q, inv, lay, q.left, y, wide) + q.lead
    if style == "letterhead":
        y = _seller_block(q, lay, top)
        q.text(q.right, top + big * 0.6, title, bold=True, size=big, align="right", colour=e["accent"])
        y = max(y, top + big) + q.lead * 1.5
        gap = q.size * 1.5
        pw = max(q.width(a, True) for a, _ in pairs) + gap + max(q.width(v) for _, v in pairs)
        q.pairs(q.right - pw, y, pairs, gap)
        end = _addresses(q, inv, lay, q.left, y, wide - pw - gap)
        return max(end, y + len(pairs) * q.lead) + q.lead
    if style == "centred":
        mid = (q.left + q.right) / 2
        q.text(mid, top + q.size * 0.6, lay.seller[0], bold=True, size=q.size * 1.5, align="centre")
        y = q.lines(mid, top + q.size * 0.6 + q.lead * 1.3, [", ".join(lay.seller[1:3]), seller_lines(lay)[3] +
                                                           "  " + lay.seller[8]], align="centre", colour=GREY)
        q.rule(q.left, q.right, y - q.size * 0.4, 0.6)
        y += q.lead * 0.8 + big * 0.7
        q.text(mid, y, title, bold=True, size=big * 0.8, align="centre")
        y += q.lead * 1.5
        if q.right - q.left < 380:  # a small page: the fields under one another, the buyer under them
            y = q.pairs(q.left, y, pairs, q.size, right=q.right) + q.lead * 0.5
            return _addresses(q, inv, lay, q.left, y, wide) + q.lead * 0.5
        gap = q.size * 1.5
        pw = max(q.width(a, True) for a, _ in pairs) + gap + max(q.width(v) for _, v in pairs)
        q.pairs(q.right - pw, y, pairs, gap)
        end = _addresses(q, inv, lay, q.left, y, wide - pw - gap)
        return max(end, y + len(pairs) * q.lead) + q.lead
    if style == "memo":
        q.text(q.left, top + big * 0.7, title, bold=True, size=big * 1.1, colour=e["accent"])
        y = top + big * 1.1 + q.lead
        if e["seller_at"] == "top":
            q.text(q.right, top + q.size * 0.5, lay.seller[0], bold=True, align="right")
            q.lines(q.right, top + q.size * 0.5 + q.lead, list(lay.seller[1:3]), align="right", colour=GREY)
            y = max(y, top + q.lead * 3.5)
        x, base = q.left, y + q.lead * 0.5
        for label, value in pairs:  # one line of fields, wrapped when it runs out of room
            w = q.width(label, True) + q.size * 0.5 + q.width(value) + q.size * 2.5
            if x > q.left and x + w > q.right:
                x, base = q.left, base + q.lead
            q.text(x, base, label, bold=True)
            q.text(x + q.width(label, True) + q.size * 0.5, base, value)
            x += w
        q.rule(q.left, q.right, base + q.size * 0.8, 1.0, grey=0.3)
        return _addresses(q, inv, lay, q.left, base + q.lead * 2.2, wide) + q.lead
    # form: a desktop package's pre-printed form with boxed fields
    y = _seller_block(q, lay, top)
    q.text(q.right, top + big * 0.6, title, bold=True, size=big, align="right")
    label_w = max(q.width(a, True) for a, _ in pairs) + q.size
    value_w = max(max(q.width(v) for _, v in pairs) + q.size, q.size * 8)
    row, x0 = q.lead * 1.1, q.right - label_w - value_w
    by = top + big * 1.2
    for k, (label, value) in enumerate(pairs):
        q.box(x0, by + k * row, label_w, row, fill=e["shade"])
        q.box(x0 + label_w, by + k * row, value_w, row)
        q.text(x0 + q.size * 0.4, by + k * row + row * 0.72, label, bold=True, size=q.size * 0.9)
        q.text(q.right - q.size * 0.4, by + k * row + row * 0.72, value, align="right")
    y = max(y, by + len(pairs) * row) + q.lead * 1.6
    return _addresses(q, inv, lay, q.left, y, wide) + q.lead


def running_header(q: Quill, inv, lay, n: int, m: int) -> float:
    """The line that opens page ``n`` (not the first): the invoice named, the page label where it is at the top."""
    top = lay.margin + q.size
    text = lay.running.format(title=_title(inv, lay), number=inv.number, n=n, seller=lay.seller[0])
    q.text(q.left, top, text, bold=True)
    if lay.extra["page_at"] == "top":
        q.text(q.right, top, page_label(lay, n, m), align="right", colour=GREY)
    q.rule(q.left, q.right, top + q.size * 0.6, 0.5, grey=0.5)
    return top + q.lead * 1.5
