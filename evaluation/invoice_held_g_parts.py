"""HELD-ASIDE FAMILY "held-g": the drawing primitives and page headers of the seventh held-aside family, written
apart from the reader; not to be read while developing it (nor the other ``evaluation.invoice_held_g*`` modules or
the family's files).

:class:`Quill` is a ReportLab canvas seen from the top left of the page, in a layout's faces; :func:`first_header`
draws page 1's letterhead, addresses and header fields in the layout's arrangement, :func:`running_header` the top
of later pages, :func:`foot` the foot of every page. Each returns where it ends (or its height), so drawing on a
thrown-away canvas measures it.

>>> from evaluation.invoice_held_g import held_g_layout
>>> q = Quill.scratch(held_g_layout(1))
>>> q.wrap("ONE TWO THREE", q.width("ONE TWO") + 0.1)
['ONE TWO', 'THREE']
"""

from __future__ import annotations

import datetime as dt
import io
import zlib

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from evaluation.invoice_held_g_words import BUYERS, ONE_TIME, OTHER_TOWNS, TOWNS

__all__ = ["Quill", "buyer", "fields", "first_header", "foot", "foot_height", "place", "running_header"]

LEAD = 1.3


class Quill:
    """A canvas with the origin at the top left; text is placed by its baseline."""

    def __init__(self, c: canvas.Canvas, lay):
        self.c, self.lay = c, lay
        self.regular, self.bold = lay.fonts
        self.size = lay.size
        self.lead = lay.size * LEAD
        self.height = lay.page[1]
        self.left, self.right = lay.margin, lay.page[0] - lay.margin

    @classmethod
    def scratch(cls, lay) -> Quill:
        """A quill on a canvas that is thrown away: drawing with it measures."""
        return cls(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)

    def width(self, text: str, bold: bool = False, size: float | None = None) -> float:
        return stringWidth(text, self.bold if bold else self.regular, size or self.size)

    def text(self, x: float, y: float, text: str, bold: bool = False, size: float | None = None,
             align: str = "left", colour=None) -> None:
        """``text`` with its baseline at ``y``; ``align`` says whether ``x`` is its left, right or centre."""
        if not text:
            return
        size = size or self.size
        font = self.bold if bold else self.regular
        self.c.setFont(font, size)
        self.c.setFillColorRGB(*(colour or (0, 0, 0)))
        w = stringWidth(text, font, size)
        x = x - w if align == "right" else x - w / 2 if align == "centre" else x
        self.c.drawString(x, self.height - y, text)
        self.c.setFillColorRGB(0, 0, 0)

    def rule(self, x0: float, x1: float, y: float, width: float = 0.5, grey: float = 0.0) -> None:
        self.c.setStrokeColorRGB(grey, grey, grey)
        self.c.setLineWidth(width)
        self.c.line(x0, self.height - y, x1, self.height - y)
        self.c.setStrokeColorRGB(0, 0, 0)

    def upright(self, x: float, y0: float, y1: float, width: float = 0.4) -> None:
        self.c.setLineWidth(width)
        self.c.line(x, self.height - y0, x, self.height - y1)

    def box(self, x: float, y: float, w: float, h: float, fill=None, stroke: bool = True, width: float = 0.5
            ) -> None:
        """A rectangle whose top left is (``x``, ``y``); ``fill`` a grey level or an RGB triple."""
        if fill is not None:
            self.c.setFillColorRGB(*(fill if isinstance(fill, tuple) else (fill, fill, fill)))
        self.c.setLineWidth(width)
        self.c.rect(x, self.height - y - h, w, h, stroke=int(stroke), fill=int(fill is not None))
        self.c.setFillColorRGB(0, 0, 0)

    def wrap(self, text: str, width: float, bold: bool = False, size: float | None = None) -> list[str]:
        """``text`` broken at its spaces into lines no wider than ``width`` (a wider word stays whole)."""
        lines: list[str] = []
        for word in text.split():
            if lines and self.width(f"{lines[-1]} {word}", bold, size) <= width:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        return lines

    def lines(self, x: float, y: float, lines: list[str], size: float | None = None, bold_first: bool = False,
              align: str = "left", colour=None) -> float:
        """Lines from ``y`` (the top of the first); returns the height used."""
        size = size or self.size
        for k, line in enumerate(lines):
            self.text(x, y + size + k * size * LEAD, line, bold_first and k == 0, size, align, colour)
        return len(lines) * size * LEAD

    def pairs(self, x: float, y: float, items: list[tuple[str, str]], gap: float | None = None) -> float:
        """``label value`` rows from ``y``: values aligned one gap after the widest label. Returns the height."""
        if not items:
            return 0.0
        at = x + max(self.width(a) for a, _ in items) + (gap or self.size)
        for k, (label, value) in enumerate(items):
            self.text(x, y + self.size + k * self.lead, label)
            self.text(at, y + self.size + k * self.lead, value, bold=k == 0)
        return len(items) * self.lead

    def pairs_width(self, items: list[tuple[str, str]], gap: float | None = None) -> float:
        return max(self.width(a) for a, _ in items) + (gap or self.size) + max(self.width(v, True) for _, v in items)


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def buyer(inv, lay) -> list[str]:
    """The customer's name and address, the record's country last."""
    key = inv.customer or inv.number
    names = BUYERS.get(inv.country, ("Trade Customer Ltd",)) if inv.customer else ONE_TIME
    street, town = TOWNS.get(inv.country, OTHER_TOWNS)[_hash(key + "t") % len(TOWNS.get(inv.country, OTHER_TOWNS))]
    return [names[_hash(key) % len(names)], street, town, inv.country]


def _value(key: str, inv, lay) -> str | None:
    e, k = lay.extra, _hash(inv.number) % 997
    town = place(buyer(inv, lay)[2])
    return {"order_no": f"{e['order_base'] + k * 7}", "delivery_note": f"{e['delivery_base'] + k * 13}",
            "order_date": lay.date(inv.date - dt.timedelta(days=e["lead_days"] + 3)),
            "delivery_date": lay.date(inv.date - dt.timedelta(days=e["lead_days"])),
            "due": lay.date(inv.date + dt.timedelta(days=e["due_days"])),
            "vat_id": None if inv.customer is None else
            f"{_vat_prefix(inv.country)}{_hash(inv.customer) % 10 ** 9:09d}",
            "contact": e["clerk"], "carrier": e["carrier"], "terms": e["terms"],
            "incoterms": e["incoterms"].format(town=town, seller_town=place(e["seller"]["town"])),
            "country": inv.country, "currency": lay.currency}[key]


def place(town: str) -> str:
    """A town line without its postcode.

    >>> place("Exeter EX4 3PT"), place("SE-415 05 Göteborg"), place("Sydney NSW 2000")
    ('Exeter', 'Göteborg', 'Sydney')
    """
    words = [w for w in town.split() if not any(c.isdigit() for c in w) and not (w.isupper() and len(w) <= 3)]
    return " ".join(words) or town


def _vat_prefix(country: str) -> str:
    return {"United Kingdom": "GB", "EIRE": "IE", "France": "FR", "Germany": "DE", "Netherlands": "NL",
            "Norway": "NO", "Australia": "ABN "}.get(country, "")


def fields(inv, lay, title: bool = False) -> list[tuple[str, str]]:
    """The header fields as (label, value): the number, the date, the customer's number when there is one, then
    the layout's other fields (skipping one without a value)."""
    out = [(lay.label("invoice_number", inv.is_credit), inv.number), (lay.label("invoice_date"), lay.date(inv.date))]
    if inv.customer is not None:
        out.append((lay.label("customer_id"), inv.customer))
    for key in lay.extra["fields"]:
        value = _value(key, inv, lay)
        if value is not None:
            out.append((lay.labels[key] + lay.colon, value))
    return out


def _title(inv, lay) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _letterhead(q: Quill, lay, y: float, align: str, room: float | None = None) -> float:
    """The seller's name large (no wider than ``room``) over its address; returns the height used."""
    s = lay.extra["seller"]
    x = q.left if align == "left" else q.right
    big = q.size * 1.9
    if room is not None:
        big = min(big, big * room / q.width(lay.seller[0], True, big))
    q.text(x, y + q.size * 1.9, lay.seller[0], bold=True, size=big, align=align, colour=lay.extra["accent"])
    small = q.size * 0.85
    lines = [f"{s['street']}  {s['town']}  {s['country']}", f"Tel. {s['phone']}  VAT {s['vat']}"]
    return q.size * 2.5 + q.lines(x, y + q.size * 2.5, lines, small, align=align, colour=(0.3, 0.3, 0.3))


def _address(q: Quill, x: float, y: float, heading: str | None, lines: list[str], width: float) -> float:
    """An address block under an optional small heading, each line wrapped to ``width``; returns its height."""
    h = 0.0
    if heading:
        q.text(x, y + q.size * 0.85, heading + q.lay.colon, bold=True, size=q.size * 0.85)
        h = q.size * 0.85 * LEAD
    wrapped = [part for line in lines for part in q.wrap(line, width, bold=True, size=q.size * 1.05)]
    return h + q.lines(x, y + h, wrapped, q.size * 1.05, bold_first=True)


def _top(q: Quill, inv, lay) -> float:
    """The letterhead left and the title right, the name made smaller (or the title put under it) to keep them
    apart; returns the height used."""
    y, e = lay.margin, lay.extra
    size = q.size * e["title_size"]
    title = _title(inv, lay)
    room = q.right - q.left - q.width(title, True, size) - q.size * 3
    if room >= q.width(lay.seller[0], True, q.size * 1.2):
        h = _letterhead(q, lay, y, "left", room)
        q.text(q.right, y + size, title, bold=True, size=size, align="right")
        return max(h, size * 1.4) + q.lead
    h = _letterhead(q, lay, y, "left")
    q.text(q.right, y + h + size, title, bold=True, size=size, align="right")
    return h + size * 1.4 + q.lead


def _window(q: Quill, inv, lay) -> float:
    """DIN letter: letterhead, a sender line over the address window, the fields on the right, the title under."""
    e = lay.extra
    y = lay.margin
    y += _letterhead(q, lay, y, e["seller_side"])
    top = max(y + q.lead * 2, lay.margin + 100)
    items = fields(inv, lay)
    x = min(lay.page[0] * 0.56, q.right - q.pairs_width(items))
    s = e["seller"]
    sender = f"{s['name']} - {s['street']} - {s['town']}"
    small = q.size * 0.7
    small = min(small, small * (x - q.left - q.size * 2) / q.width(sender, size=small))
    q.text(q.left, top + small, sender, size=small)
    q.rule(q.left, q.left + q.width(sender, size=small), top + small * 1.3, 0.3)
    h = small * 2 + _address(q, q.left, top + small * 2, None, buyer(inv, lay), x - q.left - q.size * 2)
    h = max(h, q.pairs(x, top, items))
    y = top + h + q.lead * 1.5
    if e["ship_block"] and "ship_to" in lay.labels:
        y += _address(q, q.left, y, lay.word("ship_to"), buyer(inv, lay), x - q.left) + q.lead
    q.text(q.left, y + q.size * e["title_size"], _title(inv, lay), bold=True, size=q.size * e["title_size"])
    y += q.size * e["title_size"] * 1.6
    intro = e["credit_intro"] if inv.is_credit else e["intro"]
    if intro:
        q.text(q.left, y + q.size, intro)
        y += q.lead * 1.6
    return y


def _grid(q: Quill, inv, lay) -> float:
    """Nordic: letterhead left, title right, a grid of boxed fields (label small above value) right, the
    customer left."""
    e = lay.extra
    y = lay.margin + _top(q, inv, lay)
    mid = q.left + (q.right - q.left) * 0.5
    items = fields(inv, lay)
    small = q.size * 0.75
    cell_w = (q.right - mid) / 2
    need = max(max(q.width(a, size=small), q.width(v, True)) for a, v in items) + q.size
    cols = 2 if need <= cell_w else 1
    cell_w = (q.right - mid) / cols
    cell_h = small * 1.3 + q.lead + q.size * 0.2
    for k, (label, value) in enumerate(items):
        cx, cy = mid + (k % cols) * cell_w, y + (k // cols) * cell_h
        q.box(cx, cy, cell_w, cell_h, width=0.4)
        q.text(cx + q.size * 0.4, cy + small * 1.1, label.rstrip(":"), size=small, colour=(0.35, 0.35, 0.35))
        q.text(cx + q.size * 0.4, cy + small * 1.3 + q.size, value, bold=True)
    grid_h = -(-len(items) // cols) * cell_h
    a = _address(q, q.left, y, lay.word("bill_to"), buyer(inv, lay), mid - q.left - q.size * 2)
    if e["ship_block"] and "ship_to" in lay.labels:
        a += q.lead * 0.5 + _address(q, q.left, y + a + q.lead * 0.5, lay.word("ship_to"), buyer(inv, lay),
                                     mid - q.left - q.size * 2)
    return y + max(a, grid_h) + q.lead * 1.5


def _banner(q: Quill, inv, lay) -> float:
    """Logistics/export: letterhead left, title right, a full-width strip of boxed fields, then the parties'
    address blocks side by side."""
    e = lay.extra
    y = lay.margin + _top(q, inv, lay)
    items = fields(inv, lay)
    small = q.size * 0.8
    natural = [max(q.width(a, True, small), q.width(v)) + q.size * 1.2 for a, v in items]
    width = q.right - q.left
    rows: list[list[int]] = [[]]
    for k, w in enumerate(natural):
        if rows[-1] and sum(natural[i] for i in rows[-1]) + w > width:
            rows.append([])
        rows[-1].append(k)
    band = small * LEAD + q.size * 0.3
    for row in rows:
        spare = (width - sum(natural[i] for i in row)) / len(row)
        x = q.left
        for i in row:
            w = natural[i] + spare
            q.box(x, y, w, band, fill=e["shade"])
            q.box(x, y + band, w, q.lead + q.size * 0.3)
            q.text(x + q.size * 0.5, y + band - small * 0.4, items[i][0].rstrip(":"), bold=True, size=small)
            q.text(x + q.size * 0.5, y + band + q.size * 1.1, items[i][1])
            x += w
        y += band + q.lead + q.size * 0.3
    y += q.lead
    blocks = [(lay.word("bill_to"), buyer(inv, lay))]
    if e["ship_block"] and "ship_to" in lay.labels:
        blocks.append((lay.word("ship_to"), buyer(inv, lay)))
    if "seller" in lay.labels:
        s = e["seller"]
        blocks.insert(0, (lay.word("seller"), [s["name"], s["street"], s["town"], s["country"]]))
    w = width / len(blocks)
    h = max(_address(q, q.left + k * w, y, head, lines, w - q.size * 2) for k, (head, lines) in enumerate(blocks))
    return y + h + q.lead * 1.5


def _swiss(q: Quill, inv, lay) -> float:
    """Swiss letter: letterhead left, the address window on the right, the fields left of it, then a place and
    date line and the title with the number."""
    e = lay.extra
    y = lay.margin
    y += _letterhead(q, lay, y, "left")
    top = max(y + q.lead * 2, lay.margin + 95)
    x = lay.page[0] * 0.56
    a = _address(q, x, top, None, buyer(inv, lay), q.right - x)
    items = fields(inv, lay)
    if q.pairs_width(items) < x - q.left - q.size * 2:
        y = top + max(a, q.pairs(q.left, top, items)) + q.lead * 2
    else:  # too wide beside the address: under it
        y = top + a + q.lead
        y += q.pairs(q.left, y, items) + q.lead
    q.text(x, y + q.size, f"{place(e['seller']['town'])}, {lay.date(inv.date)}")
    y += q.lead * 2
    size = q.size * e["title_size"]
    q.text(q.left, y + size, f"{_title(inv, lay)} {inv.number}", bold=True, size=size)
    return y + size * 1.7


HEADS = {"window": _window, "grid": _grid, "banner": _banner, "swiss": _swiss}


def first_header(q: Quill, inv, lay) -> float:
    """Page 1's header in the layout's arrangement; returns where the table may start."""
    return HEADS[lay.extra["head"]](q, inv, lay)


def running_header(q: Quill, inv, lay, n: int) -> float:
    """The top of page ``n`` > 1: the seller and a line naming the invoice; returns where the table may start."""
    y = lay.margin
    q.text(q.left, y + q.size, lay.seller[0], bold=True)
    line = lay.running.format(title=_title(inv, lay), number=inv.number, date=lay.date(inv.date),
                              seller=lay.seller[0].split()[0])
    q.text(q.right, y + q.size, line, align="right")
    q.rule(q.left, q.right, y + q.lead, 0.5)
    return y + q.lead * 2


def _foot_blocks(q: Quill, lay) -> list[list[str]]:
    """The seller's company details for the foot: four small columns or one or two centred lines."""
    s, small = lay.extra["seller"], q.size * 0.72
    bank = s["bank"].split("  ")
    if lay.extra["foot"] == "cols":
        blocks = [[s["name"], s["street"], s["town"], s["country"]], [f"Phone {s['phone']}", f"VAT {s['vat']}"],
                  bank, s["register"].split("  ")]
        w = (q.right - q.left) / 4 - q.size
    else:
        blocks = [[f"{s['name']} - {s['street']} - {s['town']} - VAT {s['vat']}", "  ".join(bank)]]
        w = q.right - q.left
    return [[part for line in b for part in q.wrap(line, w, size=small)] for b in blocks]


def foot_height(q: Quill, lay) -> float:
    small = q.size * 0.72
    return max(len(b) for b in _foot_blocks(q, lay)) * small * LEAD + q.lead * 2.2


def foot(q: Quill, lay, n: int, m: int) -> None:
    """The foot of page ``n`` of ``m``: the continued mark (pages but the last) and the page label over the
    seller's company details; the page label at the top right instead where the layout puts it there."""
    small = q.size * 0.72
    blocks = _foot_blocks(q, lay)
    top = lay.page[1] - lay.margin - max(len(b) for b in blocks) * small * LEAD
    q.rule(q.left, q.right, top - small * 0.3, 0.4, grey=0.5)
    if len(blocks) == 1:
        q.lines((q.left + q.right) / 2, top, blocks[0], small, align="centre", colour=(0.25, 0.25, 0.25))
    else:
        w = (q.right - q.left) / len(blocks)
        for k, block in enumerate(blocks):
            q.lines(q.left + k * w, top, block, small, colour=(0.25, 0.25, 0.25))
    base = top - q.lead * 0.9
    if lay.extra["page_at"] == "foot":
        q.text(q.right, base, lay.page_mark(n, m), align="right")
    else:
        q.text(q.right, lay.margin - q.size * 0.7, lay.page_mark(n, m), align="right")
    if n < m:
        q.text(q.left, base, lay.continued.format(next=n + 1), bold=True)
