"""The blocks of a ``held-h`` page (:mod:`evaluation.invoice_held_h`): the pen, the letterhead and header fields of
page 1, the running header of later pages, the totals and the foot.

Every block is a function ``(ink, inv, lay, y, ...) -> y`` that draws from ``y`` (points from the top of the page)
and returns where it ends; an :class:`Ink` without a canvas draws nothing, so the same call measures a block.
"""

from __future__ import annotations

import datetime as dt
import random
import re

from reportlab.pdfgen.canvas import Canvas

from evaluation.invoice_held_h import HeldHLayout
from evaluation.invoice_layouts import FONTS, text_width
from evaluation.invoice_records import Invoice

__all__ = ["Ink", "field_values", "first_header", "foot", "foot_height", "running_header", "wrap"]

ITALIC = {"Helvetica": "Helvetica-Oblique", "Times": "Times-Italic", "Courier": "Courier-Oblique"}
GREY = (0.35, 0.35, 0.35)
BLACK = (0.0, 0.0, 0.0)


class Ink:
    """A pen on a page measured from the top; draws only when it has a canvas."""

    def __init__(self, lay: HeldHLayout, c: Canvas | None = None):
        self.lay, self.c = lay, c
        self.regular, self.bold = FONTS[lay.font]
        self.italic = ITALIC[lay.font]
        self.size, self.lead = lay.size, lay.size * 1.32
        self.width_page, self.height = lay.page
        self.left, self.right = lay.margin, lay.page[0] - lay.margin
        self.accent = lay.extra["accent"]

    def font(self, bold: bool = False, italic: bool = False) -> str:
        return self.italic if italic else self.bold if bold else self.regular

    def width(self, text: str, bold: bool = False, size: float | None = None, italic: bool = False) -> float:
        return text_width(text, self.font(bold, italic), size or self.size)

    def text(self, x: float, y: float, text: str, bold: bool = False, size: float | None = None,
             align: str = "left", color: tuple = BLACK, italic: bool = False) -> None:
        if self.c is None or not text:
            return
        size = size or self.size
        w = self.width(text, bold, size, italic)
        x = x - w if align == "right" else x - w / 2 if align == "center" else x
        self.c.setFillColorRGB(*color)
        self.c.setFont(self.font(bold, italic), size)
        self.c.drawString(x, self.height - y, text)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.5, color: tuple = BLACK) -> None:
        if self.c is not None:
            self.c.setStrokeColorRGB(*color)
            self.c.setLineWidth(width)
            self.c.line(x1, self.height - y1, x2, self.height - y2)

    def box(self, x: float, y: float, w: float, h: float, fill: tuple | None = None, stroke: tuple | None = None,
            width: float = 0.5) -> None:
        if self.c is not None and (fill or stroke):
            if fill:
                self.c.setFillColorRGB(*fill)
            if stroke:
                self.c.setStrokeColorRGB(*stroke)
                self.c.setLineWidth(width)
            self.c.rect(x, self.height - y - h, w, h, stroke=int(stroke is not None), fill=int(fill is not None))


def wrap(text: str, width: float, ink: Ink, bold: bool = False, size: float | None = None) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a word wider than that stands alone)."""
    lines: list[str] = []
    for word in text.split():
        if lines and ink.width(f"{lines[-1]} {word}", bold, size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def _reference(number: str) -> str:
    """A Finnish payment reference for the document: its digits, a check digit (weights 7, 3, 1), in fives."""
    base = "".join(ch for ch in number if ch.isdigit()) + "1"
    check = (10 - sum(int(d) * (7, 3, 1)[k % 3] for k, d in enumerate(reversed(base))) % 10) % 10
    digits = base + str(check)
    groups = []
    while digits:
        groups.insert(0, digits[-5:])
        digits = digits[:-5]
    return " ".join(groups)


PATTERNS = {"order": {"en-us": ("PO-{d5}", "{d6}"), "en-gb": ("{d5}", "PO{d6}"), "en-sg": ("PO/{d4}/10",),
                      "en-au": ("{d6}", "ORD{d5}")},
            "delivery": {"en-us": ("UPS Ground", "FedEx Freight", "Best Way"), "en-gb": ("DN{d6}",),
                         "en-sg": ("DO{d6}",), "en-au": ("{d7}",)}}


def field_values(inv: Invoice, lay: HeldHLayout) -> list[tuple[str, str]]:
    """The header fields of the document as printed, ``(label, value)`` in the layout's order; a customer field
    only when the invoice has a customer."""
    rng = random.Random(f"held-h:{lay.seed}:{inv.number}")
    other, lang = lay.extra["other"], lay.extra["lang"]
    out = []
    for key in lay.extra["fields"]:
        if key in lay.labels:
            value = {"invoice_number": inv.number, "invoice_date": lay.date(inv.date), "customer_id": inv.customer,
                     "country": inv.country}[key]
            if value is not None:
                out.append((lay.label(key, inv.is_credit), value))
            continue
        if key in ("order", "delivery"):
            pattern = rng.choice(PATTERNS[key].get(lang, ("4500{d6}", "B-{d5}") if key == "order" else ("80{d6}",)))
            value = re.sub(r"\{d(\d+)\}", lambda m: "".join(str(rng.randint(0, 9)) for _ in range(int(m[1]))),
                           pattern)
        else:
            value = {"currency": lay.currency, "terms": lay.extra["terms"], "rep": lay.extra["sales_rep"],
                     "due_date": lay.date(inv.date + dt.timedelta(days=lay.extra["due_days"])),
                     "reference": _reference(inv.number), "interest": "8 %"}[key]
        out.append((other[key] + lay.colon, value))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Page 1: letterhead, title, header fields
# ---------------------------------------------------------------------------------------------------------------
def _letterhead(ink: Ink, lay: HeldHLayout, y: float) -> tuple[float, float]:
    """The seller block; returns its bottom and its widest line."""
    place = lay.extra["seller_place"]
    x = {"left": ink.left, "right": ink.right, "center": ink.width_page / 2}[place]
    align = {"left": "left", "right": "right", "center": "center"}[place]
    name, *rest = lay.seller
    big = ink.size * 1.4
    y += big
    ink.text(x, y, name, bold=True, size=big, align=align, color=ink.accent)
    widest = ink.width(name, True, big)
    for k, line in enumerate(rest):
        small = ink.size * (0.78 if k == len(rest) - 1 else 0.9)
        y += ink.lead * (0.95 if k else 1.1)
        ink.text(x, y, line, size=small, align=align, color=GREY if k == len(rest) - 1 else BLACK)
        widest = max(widest, ink.width(line, size=small))
    return y, widest


def _title(ink: Ink, inv: Invoice, lay: HeldHLayout, seller_bottom: float, seller_width: float) -> float:
    text = lay.credit_title if inv.is_credit else lay.title
    if lay.extra["number_in_title"]:
        text = f"{text} {inv.number}"
    size = ink.size * lay.extra["title_size"]
    place, seller = lay.extra["title_place"], lay.extra["seller_place"]
    room = ink.right - ink.left - seller_width - 24
    if place == "opposite" and seller != "center" and ink.width(text, True, size) <= room:
        x, align = (ink.right, "right") if seller == "left" else (ink.left, "left")
        ink.text(x, lay.margin + size, text, bold=True, size=size, align=align)
        return max(seller_bottom, lay.margin + size)
    y = seller_bottom + ink.lead * 1.2 + size
    x, align = (ink.width_page / 2, "center") if seller == "center" else (ink.left, "left")
    ink.text(x, y, text, bold=True, size=size, align=align, color=ink.accent if seller == "center" else BLACK)
    return y


def _inline(ink: Ink, pairs: list[tuple[str, str]], x: float, y: float, w: float) -> float | None:
    """Label and value on one line, the values aligned; ``None`` when they do not fit in ``w``."""
    if not pairs:
        return y
    bold = ink.lay.extra["bold_values"]
    tab = max(ink.width(label) for label, _ in pairs) + ink.size
    if tab + max(ink.width(value, bold) for _, value in pairs) > w:
        return None
    for label, value in pairs:
        y += ink.lead
        ink.text(x, y, label, color=GREY if bold else BLACK)
        ink.text(x + tab, y, value, bold=bold)
    return y


def _below(ink: Ink, pairs: list[tuple[str, str]], x: float, y: float, w: float) -> float:
    """Each label small above its value, in a grid of as many columns as the widest pair allows (at most 3)."""
    if not pairs:
        return y
    small = ink.size * 0.8
    need = max(max(ink.width(label, size=small), ink.width(value, True)) for label, value in pairs) + ink.size
    cols = max(1, min(3, int(w // need), len(pairs)))
    cell = w / cols
    for k, (label, value) in enumerate(pairs):
        row_y = y + (k // cols) * ink.lead * 2.1
        cx = x + (k % cols) * cell
        ink.text(cx, row_y + small + 2, label, size=small, color=GREY)
        ink.text(cx, row_y + small + 2 + ink.lead, value, bold=True)
    return y + ((len(pairs) - 1) // cols + 1) * ink.lead * 2.1


def _strip(ink: Ink, pairs: list[tuple[str, str]], y: float) -> float:
    """A row (or rows) of boxed cells across the page: label small at the top of each, value below."""
    w = ink.right - ink.left
    small = ink.size * 0.78
    need = max(max(ink.width(label, size=small), ink.width(value, True)) for label, value in pairs) + ink.size
    cols = max(1, min(5, int(w // need), len(pairs)))
    cell, h = w / cols, ink.lead * 2.3
    for k, (label, value) in enumerate(pairs):
        cx, cy = ink.left + (k % cols) * cell, y + (k // cols) * h
        ink.box(cx, cy, cell, h, fill=(0.95, 0.95, 0.95) if k % 2 == 0 else None, stroke=GREY)
        ink.text(cx + 4, cy + small + 3, label, size=small, color=GREY)
        ink.text(cx + 4, cy + small + 3 + ink.lead, value, bold=True)
    return y + ((len(pairs) - 1) // cols + 1) * h


def _fields(ink: Ink, pairs: list[tuple[str, str]], x: float, y: float, w: float) -> float:
    if ink.lay.extra["pairs"] == "inline":
        end = _inline(ink, pairs, x, y, w)
        if end is not None:
            return end
    return _below(ink, pairs, x, y, w)


def _billto(ink: Ink, inv: Invoice, lay: HeldHLayout, x: float, y: float, w: float) -> float:
    if lay.extra["sender_line"]:
        name, street, town = lay.seller[:3]
        sender = f"{name} · {street} · {town}"
        small = ink.size * 0.7
        while ink.width(sender, size=small) > w and small > 5:
            small -= 0.5
        ink.text(x, y + small, sender, size=small, color=GREY)
        ink.line(x, y + small + 1.5, x + min(w, ink.width(sender, size=small)), y + small + 1.5, 0.3, GREY)
        y += small + 4
    y += ink.lead
    ink.text(x, y, lay.extra["other"]["bill_to"], bold=True, size=ink.size * 0.9, color=ink.accent)
    if inv.customer is not None:
        y += ink.lead * 1.1
        ink.text(x, y, f"{lay.label('customer_id')} {inv.customer}")
    y += ink.lead * 1.1
    ink.text(x, y, inv.country, bold=True)
    return y


def first_header(ink: Ink, inv: Invoice, lay: HeldHLayout) -> float:
    """Letterhead, title and header fields of page 1; returns where the table starts."""
    bottom, widest = _letterhead(ink, lay, lay.margin)
    y = _title(ink, inv, lay, bottom, widest) + ink.lead * 1.4
    pairs = field_values(inv, lay)
    w = ink.right - ink.left
    place = lay.header_place
    if place == "strip":
        end = _strip(ink, pairs, y)
    elif place == "two-col":
        half = (len(pairs) + 1) // 2
        end = max(_fields(ink, pairs[:half], ink.left, y, w / 2 - ink.size),
                  _fields(ink, pairs[half:], ink.left + w / 2, y, w / 2 - ink.size))
    else:
        info_x, other_x = (ink.left + w * 0.45, ink.left) if place == "info-right" else (ink.left, ink.left + w * 0.6)
        end = _fields(ink, pairs, info_x, y, w * 0.55 if place == "info-right" else w * 0.57)
        if lay.extra["billto"]:
            end = max(end, _billto(ink, inv, lay, other_x, y, w * 0.4))
    return end + ink.lead * 1.6


def running_header(ink: Ink, inv: Invoice, lay: HeldHLayout, n: int, m: int) -> float:
    """The top of a later page: the seller's name and a line naming the document and its number."""
    y = lay.margin + ink.lead
    title = lay.credit_title if inv.is_credit else lay.title
    ink.text(ink.left, y, lay.seller[0], bold=True, size=ink.size * 0.85, color=ink.accent)
    ink.text(ink.right, y, lay.running.format(title=title, number=inv.number, n=n, m=m), bold=True, align="right")
    ink.line(ink.left, y + ink.lead * 0.45, ink.right, y + ink.lead * 0.45, 0.6, ink.accent)
    return y + ink.lead * 1.4


# ---------------------------------------------------------------------------------------------------------------
# Foot and page label
# ---------------------------------------------------------------------------------------------------------------
def foot_height(lay: HeldHLayout) -> float:
    lines = 1 + (lay.extra["page_label_place"] != "top-right")
    return lines * lay.size * 1.32 * 0.9 + lay.size * 1.32


def foot(ink: Ink, lay: HeldHLayout, n: int, m: int) -> None:
    """The bank details and the page label (at the foot, or at the top right)."""
    small, step = ink.size * 0.75, ink.lead * 0.9
    y = ink.height - lay.margin
    label = lay.page_label.format(n=n, m=m)
    place = lay.extra["page_label_place"]
    if place == "top-right":
        ink.text(ink.right, lay.margin - ink.lead * 0.3, label, size=ink.size * 0.85, align="right")
    else:
        x, align = (ink.right, "right") if place == "foot-right" else (ink.width_page / 2, "center")
        ink.text(x, y, label, size=ink.size * 0.85, align=align)
        y -= step
    ink.text(ink.left, y, lay.extra["bank"], size=small, color=GREY)
    ink.line(ink.left, y - step * 0.9, ink.right, y - step * 0.9, 0.4, GREY)
