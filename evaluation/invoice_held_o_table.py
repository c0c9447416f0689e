"""held-o's items table and the pieces every market's page is drawn with: :class:`OPen`, the rows with their cells
(:func:`rows`), the heading row (:func:`head`), an item row (:func:`draw_row`), the table's closing rule, blocks
of lines, label-value lists and rows of boxed fields, and the page's foot.

A row's cells are the record's values as the layout prints them: the code (in its column, or under the
description after a label such as ``Part No.``), the description wrapped in its column, the HSN code an Indian
seller prints for the goods, the quantity (with its unit in a Tally-like quantity cell: ``6 Nos``), the quantity
ordered and back ordered beside the one shipped, the unit price, the GST rate or code, each tax part's share of the
line (shared out so that the column sums to that part), the line's total with its tax, and the amount.

>>> hsn(InvoiceRow("21733", "RED HANGING HEART T-LIGHT HOLDER", Decimal("6"), Decimal("2.55")), 8, 0)[:4]
'9405'
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from decimal import Decimal

from evaluation.invoice_held_o_money import HeldOLayout, rate_text, share_out, split_tax
from evaluation.invoice_records import Invoice, InvoiceRow
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["NUMERIC", "OPen", "ORow", "boxes", "close_table", "draw_row", "foot", "head", "hsn", "lines",
           "pairs", "rows", "spread", "stack", "tax_parts", "xs"]

NUMERIC = ("quantity", "unit_price", "amount", "line_total", "ordered", "backorder", "line_no", "gst_rate",
           "line_tax_0", "line_tax_1")
GREY = (0.35, 0.35, 0.35)
PAD = 0.55  # a cell's inner margin each side, in font sizes
# HSN chapters of the goods a description names (the first word found), and SAC codes of the services.
HSN = (("CANDLE", "3406"), ("T-LIGHT", "9405"), ("LIGHT", "9405"), ("LANTERN", "9405"), ("MUG", "6912"),
       ("CUP", "6912"), ("PLATE", "6912"), ("BOWL", "6912"), ("CERAMIC", "6913"), ("BAG", "4202"), ("BOX", "4819"),
       ("CARD", "4909"), ("PAPER", "4823"), ("NAPKIN", "4818"), ("WRAP", "4802"), ("GLASS", "7013"),
       ("FRAME", "4414"), ("CLOCK", "9105"), ("SIGN", "8310"), ("BOTTLE", "3924"), ("DOLL", "9503"),
       ("TOY", "9503"), ("CHRISTMAS", "9505"), ("HEART", "8306"), ("KEY", "8301"), ("TIN", "7310"),
       ("CUSHION", "9404"), ("APRON", "6211"), ("ENAMEL", "7323"))
SAC = {"POST": "996812", "DOT": "996812", "C2": "996812", "BANK CHARGES": "997113", "M": "998599", "D": "998599"}


def code_hash(*parts) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


class OPen(Pen):
    """A pen with outlines in grey and rules typed as dashes (an old printer's)."""

    def frame(self, x: float, y: float, w: float, h: float, width: float = 0.6, grey: float = 0.0) -> None:
        """An outline with its top left at (x, y)."""
        self.c.setLineWidth(width)
        self.c.setStrokeColorRGB(grey, grey, grey)
        self.c.rect(x, self.h - y - h, w, h, fill=0, stroke=1)

    def dashes(self, x0: float, x1: float, y: float, char: str = "-") -> None:
        """A rule typed as a run of ``char`` from ``x0`` to ``x1`` (baseline ``y``)."""
        self.text(x0, y, char * int((x1 - x0) / self.width(char)))


@dataclass
class ORow(Row):
    """An item row as laid out, with its height."""

    height: float = 0.0


def hsn(line: InvoiceRow, digits: int, seed: int) -> str:
    """The HSN code of the goods (SAC of a service: postage, bank charges), ``digits`` long."""
    if line.code in SAC:
        return SAC[line.code]
    words = (line.description or "").upper()
    chapter = next((c for w, c in HSN if w in words), "9505")
    tail = f"{code_hash('hsn', seed, chapter) % 10000:04d}"
    return (chapter + tail)[:digits]


def unit(line: InvoiceRow, lay: HeldOLayout) -> str:
    """The unit a line is sold in: a set or a pack where the description says so, else the layout's own."""
    words = (line.description or "").upper().split()
    if "SET" in words or "SET/" in " ".join(words):
        return "Set" if lay.extra["kind"] == "india" else "SET"
    if "PACK" in words:
        return "Pack" if lay.extra["kind"] == "india" else "PK"
    return lay.extra.get("units", "EA")


def tax_parts(inv: Invoice, lay: HeldOLayout) -> list[tuple[str, Decimal, Decimal]]:
    """(name, rate, printed amount) of each part of the tax (``extra["taxes"]``): they sum to the recorded tax."""
    taxes = [(n, Decimal(r)) for n, r in lay.extra["taxes"]]
    if not taxes:
        return []
    amounts = split_tax(inv.subtotal, inv.tax(lay.tax_rate), tuple(r for _, r in taxes))
    return [(n, r, a) for (n, r), a in zip(taxes, amounts)]


def _backorder(inv: Invoice, lay: HeldOLayout, k: int) -> int:
    """Units still owed on a line (none on a credit): about one line in seven."""
    h = code_hash("bo", lay.seed, inv.number, k)
    return 0 if inv.is_credit or h % 7 else 1 + h // 7 % 24


def rows(pen: OPen, inv: Invoice, lay: HeldOLayout) -> list[ORow]:
    """Every item row with its cells (codes and descriptions wrapped in their columns) and its height."""
    parts = tax_parts(inv, lay)
    shares = [share_out([r.amount for r in inv.rows], rate, amount) for _, rate, amount in parts]
    pad = lay.size * PAD
    out = []
    for k, line in enumerate(inv.rows):
        cells = {}
        for col in lay.columns:
            room = col.width - 2 * pad
            cells[col.key] = _cell(col.key, k, line, inv, lay, shares, room, pen)
        if lay.extra.get("code_under"):
            key = "description"
            cells[key] = [*(cells[key] if line.description else []), *wrap(
                f"{lay.labels['code_under']} {line.code}", next(c.width for c in lay.columns if c.key == key)
                - 2 * pad, pen)]
        height = max(len(v) for v in cells.values()) * lay.size * 1.2 + lay.size * 0.75
        out.append(ORow(k, cells, height))
    return out


def _cell(key: str, k: int, line: InvoiceRow, inv: Invoice, lay: HeldOLayout, shares, room: float,
          pen: OPen) -> list[str]:
    if key in ("code", "description"):
        return wrap(getattr(line, key) or "", room, pen)
    if key == "quantity":
        return [lay.quantity(line.quantity) + (f" {unit(line, lay)}" if lay.extra.get("qty_unit") else "")]
    if key in ("ordered", "backorder"):
        owed = _backorder(inv, lay, k)
        if key == "ordered":
            return [lay.quantity(line.quantity + owed)]
        return [lay.quantity(Decimal(owed)) if owed else lay.extra["zero_bo"]]
    if key.startswith("line_tax_"):
        return [lay.money(shares[int(key[-1])][k], lines=True)]
    simple = {"line_no": lambda: str(k + 1), "hsn": lambda: hsn(line, lay.extra["hsn_digits"], lay.seed),
              "unit": lambda: unit(line, lay), "unit_price": lambda: lay.price(line.unit_price),
              "gst_rate": lambda: "GST" if lay.extra.get("rate_cell") == "code" else rate_text(lay.tax_rate),
              "line_total": lambda: lay.money(line.amount + sum((s[k] for s in shares), Decimal("0")), lines=True),
              "amount": lambda: lay.money(line.amount, lines=True)}
    return [simple[key]()]


def xs(lay: HeldOLayout) -> list[float]:
    """The left edge of every column, then the table's right edge."""
    out = [lay.margin]
    for c in lay.columns:
        out.append(out[-1] + c.width)
    return out


def _place(key: str, x0: float, x1: float, pad: float) -> tuple[float, str]:
    return (x1 - pad, "right") if key in NUMERIC else (x0 + pad, "left")


def head(pen: OPen, lay: HeldOLayout, y: float, draw: bool) -> float:
    """The heading row at ``y``: on a grey band, on the accent's dark band in white, between rules, in boxed
    cells, or over a typed rule of dashes. Returns the top of the first item row."""
    edges, pad, look = xs(lay), lay.size * PAD, lay.extra["head"]
    texts = [wrap(c.heading, c.width - 2 * pad, pen) for c in lay.columns]
    h = max(map(len, texts)) * lay.size * 1.15 + lay.size
    if not draw:
        return y + h + (lay.size if look == "dashes" else 0)
    colour = (0, 0, 0)
    if look == "shaded":
        pen.box(edges[0], y, edges[-1] - edges[0], h, fill=(0.86, 0.86, 0.86))
    elif look == "dark":
        pen.box(edges[0], y, edges[-1] - edges[0], h, fill=lay.extra["accent"])
        colour = (1, 1, 1)
    elif look == "rule":
        pen.line(edges[0], y, edges[-1], y, 0.9)
        pen.line(edges[0], y + h, edges[-1], y + h, 0.9)
    elif look == "grid":
        for x0, x1 in zip(edges, edges[1:]):
            pen.box(x0, y, x1 - x0, h, fill=(0.93, 0.93, 0.93))
            pen.frame(x0, y, x1 - x0, h)
    for col, x0, x1, text in zip(lay.columns, edges, edges[1:], texts):
        x, align = _place(col.key, x0, x1, pad)
        for j, part in enumerate(text):
            pen.text(x, y + lay.size * 1.3 + j * lay.size * 1.15, part, True, align=align, color=colour)
    if look == "dashes":
        pen.dashes(edges[0], edges[-1], y + h + lay.size * 0.3)
        return y + h + lay.size
    return y + h


def draw_row(pen: OPen, lay: HeldOLayout, row: ORow, y: float, k: int) -> float:
    """Item row ``row`` (the ``k``-th on its page) at ``y``; returns the top of the next row."""
    edges, pad, look = xs(lay), lay.size * PAD, lay.extra["rows"]
    if look == "zebra" and k % 2:
        pen.box(edges[0], y, edges[-1] - edges[0], row.height, fill=(0.93, 0.93, 0.93))
    for col, x0, x1 in zip(lay.columns, edges, edges[1:]):
        x, align = _place(col.key, x0, x1, pad)
        for j, part in enumerate(row.cells[col.key]):
            pen.text(x, y + lay.size * 1.25 + j * lay.size * 1.2, part, align=align)
    if look == "grid":
        for x in edges:
            pen.line(x, y, x, y + row.height, 0.6)
    elif look == "rules":
        pen.line(edges[0], y + row.height, edges[-1], y + row.height, 0.3, 0.55)
    return y + row.height


def close_table(pen: OPen, lay: HeldOLayout, y: float) -> None:
    """The rule under a page's last row (a grid's bottom edge, or a rule under plain and zebra rows)."""
    edges = xs(lay)
    if lay.extra["head"] == "dashes":
        pen.dashes(edges[0], edges[-1], y + lay.size * 0.6)
    elif lay.extra["rows"] != "rules":
        pen.line(edges[0], y, edges[-1], y, 0.8 if lay.extra["rows"] == "grid" else 0.5)


def lines(pen: OPen, x: float, y: float, texts, draw: bool, align: str = "left", size: float | None = None,
          bold_first: bool = False, lead: float | None = None) -> float:
    """Lines of text one under the other from baseline ``y``; returns the baseline after the last."""
    lead = lead or pen.lead
    for k, text in enumerate(t for t in texts if t):
        if draw:
            pen.text(x, y, text, bold_first and k == 0, size, align)
        y += lead
    return y


def pairs(pen: OPen, x: float, y: float, items, draw: bool, colon: str = "", bold_labels: bool = False,
          right: float | None = None) -> float:
    """``Label: value`` lines, the values in a column after the widest label, or right-aligned at ``right`` (a
    label too long to leave room for its value there goes on over two lines)."""
    items = [(a + colon, b) for a, b in items if b]
    if not items:
        return y
    stop = x + max(pen.width(a, bold_labels) for a, _ in items) + pen.lay.size
    for label, value in items:
        parts = [label]
        if right is not None:
            room = right - x - pen.width(value) - pen.lay.size
            parts = wrap(label, room, pen) if pen.width(label, bold_labels) > room else parts
        if draw:
            for k, part in enumerate(parts):
                pen.text(x, y + k * pen.lead, part, bold_labels)
            if right is not None:
                pen.text(right, y, value, align="right")
            else:
                pen.text(stop, y, value)
        y += pen.lead * len(parts)
    return y


def boxes(pen: OPen, x0: float, x1: float, y: float, items, draw: bool, shade: bool = True) -> float:
    """A row of boxed fields across ``x0``..``x1``: each label small at the top of its box, its value below.
    Returns the y under the boxes."""
    lay = pen.lay
    h = lay.size * 3.0
    if draw:
        x = x0
        for (label, value), w in zip(items, spread(pen, items, x1 - x0)):
            if shade:
                pen.box(x, y, w, lay.size * 1.35, fill=(0.9, 0.9, 0.9))
            pen.frame(x, y, w, h)
            pen.text(x + w / 2, y + lay.size * 1.0, label, True, lay.size * 0.8, "center")
            pen.text(x + w / 2, y + lay.size * 2.45, value, align="center")
            x += w
    return y + h


def stack(pen: OPen, rows, y: float, draw: bool, look: str) -> float:
    """(label, amount, bold) rows stacked at the right margin, each label before its amount: in boxed cells
    (``boxed``), with a rule over the bold total (``rule``), a typed double rule over it (``typed``) or the total
    on a grey band (``band``). Returns the y under the last."""
    lay = pen.lay
    right, size = lay.page[0] - lay.margin, lay.size
    wide = max(pen.width(b, True) for _, b, _ in rows)
    x = right - max(pen.width(a, True) for a, _, _ in rows) - wide - size * 3
    for label, value, bold in rows:
        h = size * 1.85
        if bold and look == "typed":
            y += size * 0.8
            if draw:
                pen.dashes(x, right, y + size * 0.1, "=")
        if draw:
            if look == "boxed":
                pen.frame(x - size * 0.5, y, right - x + size * 0.5, h, 0.5)
                pen.line(right - wide - size * 1.2, y, right - wide - size * 1.2, y + h, 0.5)
            elif bold and look == "rule":
                pen.line(x, y + size * 0.15, right, y + size * 0.15, 0.9)
            elif bold and look == "band":
                pen.box(x - size * 0.5, y + size * 0.3, right - x + size * 0.5, h - size * 0.3, fill=(0.9, 0.9, 0.9))
            pen.text(x, y + size * 1.3, label, bold)
            pen.text(right - size * 0.4, y + size * 1.3, value, bold, align="right")
        y += h
    return y


def spread(pen: OPen, items, width: float) -> list[float]:
    """Widths for fields across ``width``: each as wide as its label (small, bold) or its value, the room left
    shared out evenly."""
    size = pen.lay.size
    need = [max(pen.width(a, True, size * 0.9), pen.width(b)) + size * 1.2 for a, b in items]
    return [w + (width - sum(need)) / len(items) for w in need]


def foot(pen: OPen, inv: Invoice, lay: HeldOLayout, n: int, m: int, table_end: float | None) -> None:
    """The page label at the foot, and on every page but the last the "continued" line: under the table's last
    row (``continued_at`` table) or at the foot."""
    bottom = lay.page[1] - lay.margin * 0.6
    page = lay.page_label.format(n=n, m=m)
    where = {"india": "right", "anz": "center", "us": "left"}[lay.extra["kind"]]
    x = {"left": lay.margin, "center": lay.page[0] / 2, "right": lay.page[0] - lay.margin}[where]
    pen.text(x, bottom, page, size=lay.size * 0.9, align=where)
    if n < m:
        more = lay.continued.format(next=n + 1)
        if lay.extra["continued_at"] == "table" and table_end is not None:
            below = 2.2 if lay.extra["head"] == "dashes" else 1.4  # under a typed rule of dashes
            pen.text(lay.page[0] - lay.margin, table_end + lay.size * below, more, size=lay.size * 0.95,
                     align="right")
        else:
            x = lay.margin if where != "left" else lay.page[0] - lay.margin
            pen.text(x, bottom, more, size=lay.size * 0.95, align="left" if where != "left" else "right")


def foot_room(lay: HeldOLayout) -> float:
    """How far above the paper's foot the items must stop: the page label and a "continued" line."""
    return lay.margin * 0.6 + lay.size * 3.8
