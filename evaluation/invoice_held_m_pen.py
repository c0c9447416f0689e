"""What both kinds of held-m invoice draw with: :class:`MPen`, a pen in the layout's own typeface that sets a
French amount's thousands in a narrow space where the layout wants one, the customer's name and address block,
the shop's order number and the document's title and number label.

A narrow space is still a space in the text layer (the space glyph drawn with less word spacing), so the page
reads ``1 234,56 €`` whichever width it shows.

>>> from evaluation.invoice_held_m import held_m_layout
>>> lay = next(held_m_layout(s) for s in range(80) if held_m_layout(s).extra["kind"] == "shop")
>>> order_number(lay, "536365") == order_number(lay, "536365") != order_number(lay, "536366")
True
>>> town_line("Germany", "Heidelberg", "69117"), town_line("United Kingdom", "Whitby", "YO21 3PR")
('69117 Heidelberg', 'Whitby YO21 3PR')
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from evaluation.invoice_held_m import code_hash
from evaluation.invoice_held_m_words import BUSINESSES, PEOPLE, PLACES, POSTCODE_FIRST
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import LEAD, Pen, Row

__all__ = ["MPen", "MRow", "address", "doc_title", "number_label", "order_number", "town_line"]

AMOUNT = re.compile(r"\d{1,3}(?: \d{3})+,\d\d")  # a French amount grouped by spaces: 1 234,56
NARROW = 0.45  # how much of a space's width a narrow space keeps


@dataclass
class MRow(Row):
    """An item row as laid out: its height, and (a shop's) description as lines of (text, style) pieces."""

    height: float = 0.0
    pieces: list = field(default_factory=list)


class MPen(Pen):
    """A pen in the layout's typeface (``extra["face"]``: a standard font or the registered Vera)."""

    def __init__(self, canvas, lay: Layout):
        self.c, self.lay, self.h = canvas, lay, lay.page[1]
        self.regular, self.bold = lay.extra["face"]
        self.left, self.right = lay.margin, lay.page[0] - lay.margin
        self.lead = lay.size * LEAD
        self.narrow = lay.extra.get("narrow", False)

    def _pieces(self, text: str) -> list[tuple[str, bool]]:
        """``text`` cut after each thousands space of a French amount: (piece, ends in a narrow space)."""
        if not self.narrow or not AMOUNT.search(text):
            return [(text, False)]
        cuts = [m.start() + k + 1 for m in AMOUNT.finditer(text) for k, ch in enumerate(m.group()) if ch == " "]
        out, start = [], 0
        for cut in cuts:
            out.append((text[start:cut], True))
            start = cut
        return out + [(text[start:], False)]

    def width(self, text: str, bold: bool = False, size: float | None = None) -> float:
        size = size or self.lay.size
        font = self.bold if bold else self.regular
        full = self.c.stringWidth(text, font, size)
        narrow = sum(1 for _, n in self._pieces(text) if n)
        return full - narrow * self.c.stringWidth(" ", font, size) * (1 - NARROW)

    def text(self, x: float, y: float, text: str, bold: bool = False, size: float | None = None,
             align: str = "left", color: tuple[float, float, float] = (0, 0, 0)) -> None:
        pieces = self._pieces(text)
        if len(pieces) == 1:
            super().text(x, y, text, bold, size, align, color)
            return
        size = size or self.lay.size
        font = self.bold if bold else self.regular
        w = self.width(text, bold, size)
        x0 = {"left": x, "right": x - w, "center": x - w / 2}[align]
        squeeze = -self.c.stringWidth(" ", font, size) * (1 - NARROW)
        t = self.c.beginText(x0, self.h - y)
        t.setFont(font, size)
        t.setFillColorRGB(*color)
        for piece, narrow in pieces:
            t.setWordSpace(squeeze if narrow else 0)
            t.textOut(piece)
        t.setWordSpace(0)
        self.c.drawText(t)

    def rect(self, x: float, y: float, w: float, h: float, width: float = 0.5, grey: float = 0.0) -> None:
        """An outline with its top left at (x, y)."""
        self.c.setLineWidth(width)
        self.c.setStrokeColorRGB(grey, grey, grey)
        self.c.rect(x, self.h - y - h, w, h, fill=0, stroke=1)


def town_line(country: str, town: str, postcode: str) -> str:
    """A town with its postcode in the country's order (the postcode first on the continent)."""
    if not postcode:
        return town
    return f"{postcode} {town}" if country in POSTCODE_FIRST else f"{town} {postcode}"


def address(inv: Invoice, lay: Layout, business: bool) -> list[str]:
    """The customer's name and address: a person or a business drawn from the customer (or, with none, the invoice
    number) and the layout, a street and town of the record's country, and the country as the record writes it (in
    capitals where a letter's layout types it so)."""
    who = inv.customer or inv.number
    h = code_hash("customer", lay.seed, who)
    name = (BUSINESSES if business else PEOPLE)[h % (len(BUSINESSES) if business else len(PEOPLE))]
    places = PLACES.get(inv.country)
    lines = [name]
    if places:
        street, town, postcode = places[(h >> 8) % len(places)]
        lines += [street, town_line(inv.country, town, postcode)]
    country = inv.country.upper() if lay.extra.get("caps_country") else inv.country
    return lines + [country]


def order_number(lay: Layout, number: str) -> str:
    """The shop's order number for an invoice, in the platform's form: ``#1042``, ``4521``, ``000000312``, a
    reference of nine letters, or a marketplace's ``302-1234567-1234567``."""
    h = code_hash("order", lay.seed, number)
    base, style = lay.extra["order_base"], lay.extra["order_style"]
    if style == "hash":
        return f"#{base + h % 900}"
    if style == "plain":
        return str(base * 3 + h % 5000)
    if style == "zeros":
        return f"{(base % 1000) * 10 + h % 10:09d}"
    if style == "letters":
        return "".join(string.ascii_uppercase[(h >> (3 * k)) % 26] for k in range(9))
    return f"{200 + h % 800}-{h % 10 ** 7:07d}-{(h // 7) % 10 ** 7:07d}"


def doc_title(inv: Invoice, lay: Layout) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def number_label(inv: Invoice, lay: Layout) -> str:
    return lay.labels["credit_number" if inv.is_credit else "invoice_number"]
