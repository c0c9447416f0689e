"""HELD-ASIDE FAMILY "held-c": part of a third held-aside family, written apart from the reader; not to be read
while developing the invoice reader (nor the rest of the family, :mod:`evaluation.invoice_held_c`,
:mod:`evaluation.invoice_held_c_words` and :mod:`evaluation.invoice_held_c_draw`, its generated files or its
per-file scores).

Parts of the held-c family's pages: the first page's header in each of the family's arrangements
(:data:`HEADERS`, by the layout's ``header_place``; each draws it and returns the y where the items table starts),
and the small drawing helpers they share with :mod:`evaluation.invoice_held_c_draw`, which lays out the rest.
"""

from __future__ import annotations

from evaluation.invoice_held_c import (HeldCLayout, address_lines, header_pairs, seller_lines, title_of,
                                       totals_pairs)
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen

__all__ = ["GREY", "HEADERS", "SHADE", "Pairs", "fit", "pair_rows", "pairs_width", "text_block", "tint", "widest"]

GREY, SHADE = (0.35, 0.35, 0.35), (0.87, 0.87, 0.87)
Pairs = list[tuple[str, str]]


def tint(lay: HeldCLayout, share: float) -> tuple[float, float, float]:
    """The layout's accent colour mixed with white: ``share`` of white."""
    return tuple(c + (1 - c) * share for c in lay.extra["accent"])  # type: ignore[return-value]

def text_block(pen: Pen, x: float, y: float, lines: list[str], align: str = "left", size: float | None = None) -> float:
    """``lines`` one under another from ``y``; returns the y below."""
    for line in lines:
        pen.text(x, y, line, align=align, size=size)
        y += (size or pen.lay.size) * 1.4
    return y

def widest(pen: Pen, texts, bold: bool = False, size: float | None = None) -> float:
    """The width of the widest of ``texts`` (0 for none)."""
    return max((pen.width(t, bold, size) for t in texts), default=0.0)

def fit(pen: Pen, text: str, size: float, room: float) -> float:
    """``size``, or less so that ``text`` (bold) fits in ``room``."""
    return min(size, size * room / max(pen.width(text, True, size), 1.0))

def pairs_width(pen: Pen, pairs: Pairs) -> float:
    """The width :func:`pair_rows` takes for ``pairs``."""
    return widest(pen, [a for a, _ in pairs], True) + pen.lay.size + widest(pen, [b for _, b in pairs])

def pair_rows(pen: Pen, x: float, y: float, pairs: Pairs) -> float:
    """``label value`` rows, labels bold, values in one column; returns the y below."""
    col = widest(pen, [a for a, _ in pairs], True) + pen.lay.size
    for label, value in pairs:
        pen.text(x, y, label, bold=True)
        pen.text(x + col, y, value)
        y += pen.lead
    return y

def _cells(pen: Pen, x0: float, x1: float, y: float, pairs: Pairs) -> float:
    """Bordered cells, a shaded label strip over each value, as many to a row as fit; returns the y below."""
    small = pen.lay.size * 0.8
    need = [max(pen.width(a.rstrip(":"), True, small), pen.width(b)) + pen.lay.size * 1.4 for a, b in pairs]
    rows: list[list[int]] = [[]]
    for k, w in enumerate(need):
        if rows[-1] and sum(need[i] for i in rows[-1]) + w > x1 - x0:
            rows.append([])
        rows[-1].append(k)
    strip, h = small * 1.7, small * 1.7 + pen.lead * 1.3
    for row in rows:
        x, spare = x0, (x1 - x0 - sum(need[i] for i in row)) / len(row)
        for i in row:
            w = need[i] + spare
            pen.box(x, y, w, strip, fill=SHADE)
            pen.box(x, y, w, h, stroke=0.5)
            pen.text(x + w / 2, y + small * 1.2, pairs[i][0].rstrip(":"), True, small, "center")
            pen.text(x + w / 2, y + strip + pen.lead * 0.9, pairs[i][1], align="center")
            x += w
        y += h
    return y

def _parties(pen: Pen, inv: Invoice, lay: HeldCLayout, y: float, limit: float, boxed: bool = False) -> float:
    """The bill-to address (and a ship-to one beside it in some layouts) left of ``limit``, under their labels or
    in boxes with a shaded label strip; returns the y below."""
    lines, s = address_lines(inv, lay), lay.size
    labels = [lay.labels["bill_to"]] + ([lay.labels["ship_to"]] if lay.extra["ship"] and "ship_to" in lay.labels
                                        else [])
    width = max(widest(pen, lines), widest(pen, labels, True)) + s * 2
    if pen.left + len(labels) * (width + s) > limit:
        labels = labels[:1]
    bottom = y
    for k, label in enumerate(labels):
        x = pen.left + k * (width + s)
        if boxed:
            h = pen.lead * (len(lines) + 1) + s * 0.8
            pen.box(x, y, width, pen.lead, fill=SHADE)
            pen.box(x, y, width, h, stroke=0.5)
            pen.text(x + s * 0.4, y + pen.lead * 0.72, label.rstrip(":"), bold=True)
            bottom = max(bottom, y + h, text_block(pen, x + s * 0.4, y + pen.lead * 1.75, lines))
        else:
            pen.text(x, y, label.rstrip(":"), bold=True, size=s * 0.85, color=lay.extra["accent"])
            bottom = max(bottom, text_block(pen, x, y + pen.lead, lines))
    return bottom

def _seller_top(pen: Pen, lay: HeldCLayout, align: str) -> tuple[float, float]:
    """The seller's name and lines at the top left or right; (the y below, their widest line)."""
    x, y = (pen.right if align == "right" else pen.left), lay.margin + lay.size * 1.4
    pen.text(x, y, lay.seller[0], True, lay.size * 1.3, align)
    lines = seller_lines(lay)
    width = max(pen.width(lay.seller[0], True, lay.size * 1.3), widest(pen, lines, size=lay.size * 0.85))
    return text_block(pen, x, y + pen.lead * 1.1, lines, align, lay.size * 0.85), width


# ---- First-page headers: each returns the y where the items table starts. ----------------------------------------
def _masthead(pen: Pen, inv: Invoice, lay: HeldCLayout) -> float:
    """Title top left, seller top right; the references beside or over the buyer's address."""
    s, title, pairs = lay.size, title_of(inv, lay), header_pairs(inv, lay)
    y_seller, seller_w = _seller_top(pen, lay, "right")
    big = fit(pen, title, s * 2.4, pen.right - seller_w - pen.left - s * 3)
    pen.text(pen.left, lay.margin + big * 0.9, title, True, big, color=lay.extra["accent"])
    y = max(y_seller, lay.margin + big * 1.2) + pen.lead
    if lay.extra["meta"] == "beside":
        x = min(pen.right - pairs_width(pen, pairs), lay.page[0] * 0.55)
        return max(pair_rows(pen, x, y, pairs), _parties(pen, inv, lay, y, x - s * 2)) + pen.lead
    x = max(pen.left + widest(pen, address_lines(inv, lay)) + s * 4, lay.page[0] * 0.42)
    width = max(widest(pen, [b for _, b in pairs]), widest(pen, [a for a, _ in pairs], True, s * 0.8)) + s * 2
    half = (len(pairs) + 1) // 2
    columns = [pairs[:half], pairs[half:]] if len(pairs) > 4 and x + 2 * width <= pen.right else [pairs]
    bottom = _parties(pen, inv, lay, y, x - s)
    for k, some in enumerate(columns):  # each label small and grey over its value
        for i, (label, value) in enumerate(some):
            yy = y + i * pen.lead * 2.2
            pen.text(x + k * width, yy, label.rstrip(":"), True, s * 0.8, color=GREY)
            pen.text(x + k * width, yy + pen.lead * 0.95, value)
            bottom = max(bottom, yy + pen.lead * 2.2)
    return bottom + pen.lead

def _grid(pen: Pen, inv: Invoice, lay: HeldCLayout) -> float:
    """Seller top left; the title over a grid of reference boxes at the right; the addresses under both."""
    s, title, pairs = lay.size, title_of(inv, lay), header_pairs(inv, lay)
    y_seller, seller_w = _seller_top(pen, lay, "left")
    x0 = max(lay.page[0] * 0.5, pen.left + seller_w + s * 2)
    width, top = pen.right - x0, lay.margin
    pen.box(x0, top, width, pen.lead * 1.8, fill=tint(lay, 0.85), stroke=0.6)
    pen.text(x0 + s * 0.6, top + pen.lead * 1.25, title, True, fit(pen, title, s * 1.4, width - s * 1.2))
    need = max(max(pen.width(a, True, s * 0.75), pen.width(b)) for a, b in pairs) + s * 1.2
    per, h, y = (2 if need * 2 <= width else 1), pen.lead * 2.1, top + pen.lead * 1.8
    for k, (label, value) in enumerate(pairs):
        x, yy = x0 + (k % per) * width / per, y + (k // per) * h
        pen.box(x, yy, width / per, h, stroke=0.5)
        pen.text(x + s * 0.5, yy + s * 1.0, label.rstrip(":"), size=s * 0.75, color=GREY)
        pen.text(x + s * 0.5, yy + h - s * 0.55, value, bold=k == 0)
    y_box = y + ((len(pairs) + per - 1) // per) * h
    return _parties(pen, inv, lay, max(y_seller, y_box) + pen.lead, pen.right) + pen.lead

def _window(pen: Pen, inv: Invoice, lay: HeldCLayout) -> float:
    """Seller top right; a sender line over the buyer's address where an envelope's window is, the references
    beside it; then the title as a subject line (and a salutation in some layouts)."""
    s, pairs = lay.size, header_pairs(inv, lay)
    y_seller, _ = _seller_top(pen, lay, "right")
    x = min(pen.right - pairs_width(pen, pairs), lay.page[0] * 0.58)
    top, sender = max(lay.margin + 100.0, y_seller + pen.lead), " \u00b7 ".join(lay.seller[:3])
    small = fit(pen, sender, s * 0.7, x - pen.left - s * 2)
    pen.text(pen.left, top, sender, size=small)
    pen.line(pen.left, top + 2, pen.left + pen.width(sender, size=small), top + 2, 0.3)
    y = max(text_block(pen, pen.left, top + pen.lead * 1.4, address_lines(inv, lay)), pair_rows(pen, x, top, pairs))
    y += pen.lead * 1.5
    pen.text(pen.left, y, title_of(inv, lay) + (f" {inv.number}" if lay.extra["subject_number"] else ""), True,
             s * 1.4)
    y += pen.lead * 1.6
    if lay.extra["salutation"] and not inv.is_credit:
        pen.text(pen.left, y, "Dear Sir or Madam,")
        pen.text(pen.left, y + pen.lead * 1.4, "for our deliveries and services we charge you as follows:")
        y += pen.lead * 2.8
    return y

def _boxes(pen: Pen, inv: Invoice, lay: HeldCLayout) -> float:
    """Seller top left, the title top right over boxes of the first references; boxed addresses; a row of boxes
    holding the other references across the page."""
    s, title, pairs = lay.size, title_of(inv, lay), header_pairs(inv, lay)
    y_seller, seller_w = _seller_top(pen, lay, "left")
    room = pen.right - pen.left - seller_w - s * 2
    big = fit(pen, title, s * 2.2, room)
    pen.text(pen.right, lay.margin + big * 0.9, title, True, big, "right")
    need = sum(max(pen.width(a, True, s * 0.8), pen.width(b)) + s * 2.4 for a, b in pairs[:2])
    y_first = _cells(pen, max(pen.right - need, pen.left + room * 0.3), pen.right, lay.margin + big * 1.3, pairs[:2])
    y = _parties(pen, inv, lay, max(y_seller, y_first) + pen.lead, pen.right, boxed=True) + pen.lead * 0.6
    return (_cells(pen, pen.left, pen.right, y, pairs[2:]) if pairs[2:] else y) + pen.lead

def _summary(pen: Pen, inv: Invoice, lay: HeldCLayout) -> float:
    """A bill: seller and title; the address beside a shaded panel of references; a box summing up the charges
    (the totals); then the heading of the itemised charges."""
    s, accent, title, pairs = lay.size, lay.extra["accent"], title_of(inv, lay), header_pairs(inv, lay)
    pen.text(pen.left, lay.margin + s * 1.6, lay.seller[0], True, s * 1.6, color=accent)
    contact = " \u00b7 ".join(seller_lines(lay)[len(lay.seller) - 1:])
    pen.text(pen.left, lay.margin + s * 1.6 + pen.lead * 1.2, contact, size=s * 0.8)
    room = pen.right - pen.left - max(pen.width(lay.seller[0], True, s * 1.6), pen.width(contact, size=s * 0.8))
    pen.text(pen.right, lay.margin + s * 1.6, title, True, fit(pen, title, s * 1.6, room - s * 2), "right")
    y = lay.margin + s * 1.6 + pen.lead * 2.6
    x = pen.right - pairs_width(pen, pairs) - s * 2
    pen.box(x, y - pen.lead, pen.right - x, pen.lead * (len(pairs) + 0.6), fill=tint(lay, 0.88))
    top = max(pair_rows(pen, x + s, y, pairs), _parties(pen, inv, lay, y, x - s)) + pen.lead * 0.6
    rows = totals_pairs(inv, lay)
    h = pen.lead * (len(rows) + 1.8)
    pen.box(pen.left, top, pen.right - pen.left, h, stroke=0.8)
    pen.text(pen.left + s, top + pen.lead, lay.labels["summary"], True, s * 1.1, color=accent)
    for k, (label, value) in enumerate(rows):
        pen.text(pen.left + s, top + pen.lead * (k + 2.2), label, bold=k == len(rows) - 1)
        pen.text(pen.right - s, top + pen.lead * (k + 2.2), value, bold=k == len(rows) - 1, align="right")
    pen.text(pen.left, top + h + pen.lead * 1.6, lay.labels["items"], True, s * 1.15)
    return top + h + pen.lead * 2.3

def _centred(pen: Pen, inv: Invoice, lay: HeldCLayout) -> float:
    """A template's letterhead: the seller centred over a rule, the title centred under it; the address at the
    left, the references at the right."""
    s, mid, lines, pairs = lay.size, lay.page[0] / 2, seller_lines(lay), header_pairs(inv, lay)
    pen.text(mid, lay.margin + s * 1.8, lay.seller[0], True, s * 1.8, "center")
    y = lay.margin + s * 1.8 + pen.lead * 1.2
    for part in (" | ".join(lines[:-2]), " | ".join(lines[-2:])):
        pen.text(mid, y, part, size=fit(pen, part, s * 0.85, pen.right - pen.left), align="center")
        y += pen.lead
    pen.line(pen.left, y - s * 0.4, pen.right, y - s * 0.4, 1.0)
    pen.text(mid, y + pen.lead * 1.2, title_of(inv, lay), True, s * 2.0, "center", lay.extra["accent"])
    y += pen.lead * 2.8
    x = pen.right - pairs_width(pen, pairs)
    return max(pair_rows(pen, x, y, pairs), _parties(pen, inv, lay, y, x - s * 2)) + pen.lead


HEADERS = {"masthead": _masthead, "grid": _grid, "window": _window, "boxes": _boxes, "summary": _summary,
           "centred": _centred}
