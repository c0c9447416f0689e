"""HELD-ASIDE FAMILY "held-d": part of a fourth held-aside family, written apart from the reader; not to be read
while developing it (nor the rest of the family, ``evaluation.invoice_held_d*``, its generated files or its per-file
scores).

The first page's header (:data:`HEADERS`, by the layout's ``header_place``; each draws it and returns the y where
the items table starts) and drawing helpers shared with :mod:`evaluation.invoice_held_d_draw`.
"""

from __future__ import annotations

from evaluation.invoice_held_d import HeldDLayout
from evaluation.invoice_held_d_text import (address_lines, bank_lines, extra_pairs, header_pairs, seller_lines,
                                            title_of, totals_pairs)
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen

__all__ = ["GREY", "HEADERS", "Pairs", "cells_row", "docrow", "fit", "label_over", "pair_rows", "section", "sidebar",
           "text_block", "tint", "widest"]

GREY = (0.38, 0.38, 0.38)
WHITE = (1.0, 1.0, 1.0)
Pairs = list[tuple[str, str]]


def tint(lay: HeldDLayout, share: float) -> tuple[float, float, float]:
    """The layout's accent colour mixed with white: ``share`` of white."""
    return tuple(c + (1 - c) * share for c in lay.extra["accent"])  # type: ignore[return-value]

def widest(pen: Pen, texts, bold: bool = False, size: float | None = None) -> float:
    return max((pen.width(t, bold, size) for t in texts), default=0.0)

def fit(pen: Pen, text: str, size: float, room: float, bold: bool = True) -> float:
    """``size``, or less so that ``text`` fits in ``room``."""
    return min(size, size * room / max(pen.width(text, bold, size), 1.0))

def text_block(pen: Pen, x: float, y: float, lines: list[str], align: str = "left", size: float | None = None,
               first_bold: bool = False, room: float | None = None, color=(0, 0, 0)) -> float:
    """``lines`` one under another from the baseline ``y`` (each shrunk to ``room``); returns the next baseline."""
    size = size or pen.lay.size
    for k, line in enumerate(lines):
        bold = first_bold and k == 0
        pen.text(x, y, line, bold, fit(pen, line, size, room, bold) if room else size, align, color)
        y += size * 1.4
    return y

def pair_rows(pen: Pen, x: float, y: float, pairs: Pairs, room: float | None = None, grey: bool = False) -> float:
    """``label value`` rows from the baseline ``y``, the values in one column; returns the next baseline."""
    col = widest(pen, [a for a, _ in pairs], not grey) + pen.lay.size
    for label, value in pairs:
        pen.text(x, y, label, not grey, color=GREY if grey else (0, 0, 0))
        pen.text(x + col, y, value, size=fit(pen, value, pen.lay.size, room - col, False) if room else None)
        y += pen.lead
    return y

def label_over(pen: Pen, x: float, y: float, label: str, value: str, room: float, align: str = "left",
               color=GREY, bold: bool = False) -> float:
    """A small label over its value (from the label's baseline ``y``); returns the baseline under the value."""
    s = pen.lay.size
    pen.text(x, y, label.rstrip(":"), size=fit(pen, label, s * 0.78, room, False), align=align, color=color)
    pen.text(x, y + s * 1.25, value, bold, fit(pen, value, s, room, bold), align)
    return y + s * 1.25 + pen.lead

def cells_row(pen: Pen, x0: float, x1: float, y: float, pairs: Pairs, ruled: bool = True) -> float:
    """``pairs`` as cells across ``x0``..``x1``, label over value, as many to a row as fit (vertical rules between
    them); ``y`` is the top; returns the y below."""
    s = pen.lay.size
    need = [max(pen.width(a, False, s * 0.78), pen.width(b)) + s * 1.6 for a, b in pairs]
    rows: list[list[int]] = [[]]
    for k, w in enumerate(need):
        if rows[-1] and sum(need[i] for i in rows[-1]) + w > x1 - x0:
            rows.append([])
        rows[-1].append(k)
    h = s * 1.25 + pen.lead * 1.6
    for row in rows:
        x, spare = x0, (x1 - x0 - sum(need[i] for i in row)) / len(row)
        for i in row:
            w = need[i] + spare
            if ruled and x > x0:
                pen.line(x, y + s * 0.2, x, y + h - s * 0.3, 0.4, grey=0.55)
            label_over(pen, x + s * 0.6, y + s * 1.1, pairs[i][0], pairs[i][1], w - s * 1.2)
            x += w
        y += h
    return y

def section(pen: Pen, x0: float, x1: float, y: float, heading: str) -> float:
    """An e-invoice viewer's section bar (``y`` its top); returns the baseline of its first line of content."""
    s = pen.lay.size
    pen.box(x0, y, x1 - x0, s * 1.7, fill=tint(pen.lay, 0.82))
    pen.text(x0 + s * 0.5, y + s * 1.2, heading, True, fit(pen, heading, s, x1 - x0 - s))
    return y + s * 1.7 + pen.lead


def docrow(pen: Pen, inv: Invoice, lay: HeldDLayout, y: float, n: int, m: int) -> float:
    """A grid row naming the document on every page: series, number, date, customer, page; returns the y below."""
    s = lay.size
    pairs = [(lay.labels["document"], lay.extra["series"]), *header_pairs(inv, lay, extras=False),
             (lay.labels["page"], lay.page_label.format(n=n, m=m))]
    need = [max(pen.width(a, True, s * 0.8), pen.width(b)) + s * 1.4 for a, b in pairs]
    scale = (pen.right - pen.left) / sum(need)
    x, h = pen.left, s * 1.6
    for (label, value), w in zip(pairs, need):
        w *= scale
        pen.box(x, y, w, h, fill=tint(lay, 0.85), stroke=0.5)
        pen.box(x, y + h, w, pen.lead * 1.3, stroke=0.5)
        pen.text(x + w / 2, y + s * 1.15, label.rstrip(":"), True, fit(pen, label, s * 0.8, w - s * 0.6), "center")
        pen.text(x + w / 2, y + h + pen.lead * 0.95, value, size=fit(pen, value, s, w - s * 0.6, False),
                 align="center")
        x += w
    return y + h + pen.lead * 1.3 + s


def sidebar(pen: Pen, inv: Invoice, lay: HeldDLayout, n: int, m: int) -> None:
    """The studio template's tinted column at the left of every page: on the first page the seller, the buyer,
    the references and how to pay; on the others the seller, the document and the page."""
    s, e = lay.size, lay.extra
    x, room = pen.left + s * 0.8, e["sidebar"] - s * 1.6
    pen.box(pen.left, lay.margin * 0.5, e["sidebar"], lay.page[1] - lay.margin, fill=tint(lay, 0.9))
    y = text_block(pen, x, lay.margin + s * 1.6, [lay.seller[0]], size=s * 1.3, first_bold=True, room=room)
    if n > 1:
        y = text_block(pen, x, y + s, [lay.running.format(title=title_of(inv, lay), number=inv.number, n=n)],
                       room=room)
        pen.text(x, lay.page[1] - lay.margin, lay.page_label.format(n=n, m=m), size=s * 0.85)
        return
    y = text_block(pen, x, y, seller_lines(lay), size=s * 0.8, room=room) + s
    pen.text(x, y, lay.labels["bill_to"].upper(), True, fit(pen, lay.labels["bill_to"], s * 0.8, room), color=
             e["accent"])
    y = text_block(pen, x, y + pen.lead, address_lines(inv, lay), room=room) + s * 0.6
    for label, value in header_pairs(inv, lay):
        y = label_over(pen, x, y, label, value, room) + s * 0.2
    if "method" in e["kept"]:
        text_block(pen, x, y, bank_lines(lay), size=s * 0.8, room=room)
    pen.text(x, lay.page[1] - lay.margin, lay.page_label.format(n=n, m=m), size=s * 0.85)


# ---- First-page headers (``m`` pages in all): each returns the y where the items table starts. -------------------
def _grid(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """An Indian package's boxed header: the title over a frame; the seller over the buyer (and consignee) at the
    left, the references in cells at the right."""
    s, x0, x1 = lay.size, pen.left, pen.right
    mid, pad = (x0 + x1) / 2, s * 0.5
    title = title_of(inv, lay)
    pen.text((x0 + x1) / 2, lay.margin + s * 1.3, title, True, fit(pen, title, s * 1.4, (x1 - x0) * 0.6), "center")
    pen.text(x1, lay.margin + s * 1.3, "(ORIGINAL FOR RECIPIENT)", size=s * 0.7, align="right")
    top, room = lay.margin + s * 2.2, mid - x0 - 2 * pad
    y = text_block(pen, x0 + pad, top + pen.lead, [lay.seller[0]], first_bold=True, room=room)
    y = text_block(pen, x0 + pad, y, seller_lines(lay), size=s * 0.85, room=room)
    blocks = [lay.labels["bill_to"]] + ([lay.labels["ship_to"]] if lay.extra["ship"] else [])
    for label in blocks:
        cut = y - s * 0.6
        pen.line(x0, cut, mid, cut, 0.5)
        pen.text(x0 + pad, cut + s * 1.2, label, size=s * 0.8, color=GREY)
        y = text_block(pen, x0 + pad, cut + s * 1.2 + pen.lead, address_lines(inv, lay), first_bold=True, room=room)
    half, rows = (x1 - mid) / 2, []
    for pair in header_pairs(inv, lay):
        small = max(pen.width(pair[0], False, s * 0.78), pen.width(pair[1], True)) + 2 * pad <= half
        if rows and len(rows[-1]) == 1 and small and rows[-1][0][1]:
            rows[-1].append((pair, True))
        else:
            rows.append([(pair, small)])
    yr, h = top, s * 1.25 + pen.lead * 1.7
    for row in rows:
        w = (x1 - mid) / (2 if len(row) == 2 else 1)
        for k, ((label, value), _) in enumerate(row):
            label_over(pen, mid + k * w + pad, yr + s * 1.15, label, value, w - 2 * pad, color=(0, 0, 0), bold=True)
            if k:
                pen.line(mid + w, yr, mid + w, yr + h, 0.5)
        yr += h
        pen.line(mid, yr, x1, yr, 0.5)
    bottom = max(y - s * 0.6, yr)
    pen.box(x0, top, x1 - x0, bottom - top, stroke=0.8)
    pen.line(mid, top, mid, bottom, 0.5)
    return bottom

def _sections(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """An e-invoice viewer: the title, then sections: the document's data in two columns, seller and buyer side by
    side, then the heading of the lines."""
    s, x0, x1 = lay.size, pen.left, pen.right
    mid = (x0 + x1) / 2
    title = title_of(inv, lay)
    pen.text(x1, lay.margin + s * 1.2, lay.seller[0], size=s * 0.9, align="right", color=GREY)
    big = fit(pen, title, s * 1.8, x1 - x0 - pen.width(lay.seller[0], size=s * 0.9) - s * 2)
    y = section(pen, x0, x1, lay.margin + big * 1.2 + s * 0.8, lay.labels["info"])
    pen.text(x0, lay.margin + big, title, True, big)
    pairs = header_pairs(inv, lay)
    half = (len(pairs) + 1) // 2
    bottom = max(pair_rows(pen, x0 + s * 0.5, y, pairs[:half], mid - x0 - s, grey=True),
                 pair_rows(pen, mid + s * 0.5, y, pairs[half:], x1 - mid - s, grey=True))
    top = bottom - pen.lead + s * 0.8
    ys = section(pen, x0, mid - s * 0.5, top, lay.labels["seller"])
    yb = section(pen, mid + s * 0.5, x1, top, lay.labels["bill_to"])
    ys = text_block(pen, x0 + s * 0.5, ys, [lay.seller[0], *seller_lines(lay)], first_bold=True, room=mid - x0 - s * 2)
    yb = text_block(pen, mid + s, yb, address_lines(inv, lay), first_bold=True, room=x1 - mid - s * 2)
    return section(pen, x0, x1, max(ys, yb) - pen.lead + s * 0.8, lay.labels["lines"]) - pen.lead + s * 0.6

def _band(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """A platform's invoice: a coloured band with the title and number; who sold, who pays, where it goes, in three
    columns; the order's references in cells."""
    s, x0, x1 = lay.size, pen.left, pen.right
    h, (label, number) = s * 4.4, header_pairs(inv, lay, extras=False)[0]
    pen.box(x0, lay.margin, x1 - x0, h, fill=lay.extra["accent"])
    room = x1 - x0 - s * 3 - max(pen.width(label, size=s * 0.8), pen.width(number, True, s * 1.2))
    title = title_of(inv, lay)
    pen.text(x0 + s, lay.margin + h * 0.64, title, True, fit(pen, title, s * 1.9, room), color=WHITE)
    pen.text(x1 - s, lay.margin + h * 0.4, label.rstrip(":"), size=s * 0.8, align="right", color=WHITE)
    pen.text(x1 - s, lay.margin + h * 0.4 + s * 1.5, number, True, s * 1.2, "right", WHITE)
    y, w = lay.margin + h + pen.lead * 1.3, (x1 - x0) / 3
    blocks = [(lay.labels["seller"], [lay.seller[0], *seller_lines(lay)]), (lay.labels["bill_to"],
                                                                             address_lines(inv, lay))]
    if lay.extra["ship"]:
        blocks.append((lay.labels["ship_to"], address_lines(inv, lay)))
    bottom = y
    for k, (head, lines) in enumerate(blocks):
        x = x0 + k * w
        pen.text(x, y, head, True, fit(pen, head, s * 0.85, w - s), color=lay.extra["accent"])
        bottom = max(bottom, text_block(pen, x, y + pen.lead, lines, size=s * 0.9, first_bold=True, room=w - s))
    pen.line(x0, bottom - s * 0.4, x1, bottom - s * 0.4, 0.4, grey=0.6)
    return cells_row(pen, x0, x1, bottom - s * 0.2, header_pairs(inv, lay)[1:]) + s * 0.6

def _stub(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """A distributor's continuous form: a remittance stub to tear off at the top (not on a credit), then the
    seller and title, the references as a ruled grid, and the bill-to and ship-to addresses."""
    s, x0, x1 = lay.size, pen.left, pen.right
    y = lay.margin + s
    if not inv.is_credit:
        pairs = [(lay.label("invoice_number"), inv.number), (lay.label("invoice_date"), lay.date(inv.date))]
        if inv.customer is not None:
            pairs.append((lay.label("customer_id"), inv.customer))
        pairs += [totals_pairs(inv, lay)[-1], (lay.labels["remitted"], "____________")]
        x = x1 - max(widest(pen, [a for a, _ in pairs], True) + s + widest(pen, [b for _, b in pairs]), s * 20)
        pen.text(x, y, lay.labels["stub"], True, fit(pen, lay.labels["stub"], s, x1 - x))
        yy = pair_rows(pen, x, y + pen.lead * 1.2, pairs)
        ys = text_block(pen, x0, y, [lay.seller[0], *lay.seller[1:3]], size=s * 0.9, first_bold=True,
                        room=x - x0 - s * 2)
        y = max(yy, ys) + s * 0.2
        for k in range(int((x1 - x0) / 6)):
            pen.line(x0 + k * 6, y, x0 + k * 6 + 3, y, 0.6)
        y += pen.lead * 1.8
    title = title_of(inv, lay)
    big = fit(pen, title, s * 1.6, (x1 - x0) * 0.45)
    pen.text(x1, y, title, True, big, "right")
    yl = text_block(pen, x0, y, [lay.seller[0]], size=s * 1.2, first_bold=True, room=(x1 - x0) * 0.5)
    yl = text_block(pen, x0, yl - s * 0.2, seller_lines(lay), size=s * 0.85, room=(x1 - x0) * 0.5)
    top = max(yl - pen.lead + s * 0.8, y + big * 0.6)
    pairs = header_pairs(inv, lay)
    bottom = cells_row(pen, x0, x1, top, pairs)
    pen.box(x0, top, x1 - x0, bottom - top, stroke=0.6)
    y, w = bottom + pen.lead, (x1 - x0) / 2
    heads = [lay.labels["bill_to"]] + ([lay.labels["ship_to"]] if lay.extra["ship"] else [])
    end = y
    for k, head in enumerate(heads):
        pen.text(x0 + k * w, y, head, True, s * 0.9)
        end = max(end, text_block(pen, x0 + k * w + s, y + pen.lead, address_lines(inv, lay), room=w - s * 2))
    return end

def _strip(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """A Nordic package: the seller's name and the title at the top, the first references in cells under the
    title, the buyer's address where an envelope's window is, and the other references in a strip across."""
    s, x0, x1 = lay.size, pen.left, pen.right
    title, mid = title_of(inv, lay), x0 + (x1 - x0) * 0.52
    pen.text(x0, lay.margin + s * 1.6, lay.seller[0], True, fit(pen, lay.seller[0], s * 1.6, mid - x0 - s * 2),
             color=lay.extra["accent"])
    pen.text(mid, lay.margin + s * 1.6, title, True, fit(pen, title, s * 1.6, x1 - mid))
    core, more = header_pairs(inv, lay, extras=False), [(a, b) for _, a, b in extra_pairs(inv, lay)]
    y_core = cells_row(pen, mid - s * 0.6, x1, lay.margin + s * 2.4, core)
    y_addr = text_block(pen, x0, max(lay.margin + 92.0, lay.margin + s * 5), address_lines(inv, lay), room=mid - x0)
    y = max(y_core, y_addr) + s * 0.4
    if not more:
        return y + s
    pen.line(x0, y, x1, y, 0.5)
    y = cells_row(pen, x0 - s * 0.6, x1, y, more)
    pen.line(x0, y, x1, y, 0.5)
    return y + s

def _boxes(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """Export paperwork: the title, then boxes: exporter and the document's numbers, consignee and the terms of
    the trade, and a row of transport details."""
    s, x0, x1 = lay.size, pen.left, pen.right
    mid, pad, title = (x0 + x1) / 2, s * 0.5, title_of(inv, lay)
    pen.text((x0 + x1) / 2, lay.margin + s * 1.6, title, True, fit(pen, title, s * 1.8, x1 - x0), "center")
    top, room = lay.margin + s * 2.6, mid - x0 - 2 * pad
    core, rest = header_pairs(inv, lay, extras=False), extra_pairs(inv, lay)
    transport = [(a, b) for k, a, b in rest if k in ("transport", "awb", "port")]
    trade = [(a, b) for k, a, b in rest if k not in ("transport", "awb", "port")]
    y = top
    for head, lines, pairs in ((lay.labels["seller"], [lay.seller[0], *seller_lines(lay)], core),
                               (lay.labels["bill_to"], address_lines(inv, lay), trade)):
        pen.text(x0 + pad, y + s * 1.0, head.rstrip(":"), size=s * 0.75, color=GREY)
        yl = text_block(pen, x0 + pad, y + s * 1.0 + pen.lead, lines, first_bold=True, room=room)
        yr = pair_rows(pen, mid + pad, y + s * 1.0 + pen.lead * 0.3, pairs, room) if pairs else y
        bottom = max(yl, yr) - s * 0.6
        pen.box(x0, y, mid - x0, bottom - y, stroke=0.6)
        pen.box(mid, y, x1 - mid, bottom - y, stroke=0.6)
        y = bottom
    if transport:
        y2 = cells_row(pen, x0, x1, y, transport)
        pen.box(x0, y, x1 - x0, y2 - y, stroke=0.6)
        y = y2
    return y + s

def _till(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """A shop's till printing on A4: the shop centred, the title in a box, the till's details, the references
    in a centred column, and the customer's address when there is one."""
    s, x0, x1 = lay.size, pen.left, pen.right
    c = (x0 + x1) / 2
    y = text_block(pen, c, lay.margin + s * 1.8, [lay.seller[0]], "center", s * 1.8, True, x1 - x0)
    lines = seller_lines(lay)
    y = text_block(pen, c, y - s * 0.8, [" \u00b7 ".join(lines[:2]), " \u00b7 ".join(lines[2:])], "center", s * 0.85,
                   room=x1 - x0)
    title = title_of(inv, lay)
    big = fit(pen, title, s * 1.3, x1 - x0 - s * 4)
    w = pen.width(title, True, big) + s * 3
    pen.box(c - w / 2, y - s * 0.2, w, big * 2.0, stroke=1.0)
    pen.text(c, y + big * 1.2, title, True, big, "center")
    y += big * 2.0 + pen.lead
    core, rest = header_pairs(inv, lay, extras=False), extra_pairs(inv, lay)
    if rest:
        line = "   ".join(f"{a} {b}" for _, a, b in rest)
        y = text_block(pen, c, y, [line], "center", s * 0.9, room=x1 - x0)
    col = widest(pen, [a for a, _ in core], True)
    for label, value in core:
        pen.text(c - s * 0.5, y, label, True, fit(pen, label, s, c - x0 - s), "right")
        pen.text(c + s * 0.5, y, value)
        y += pen.lead
    if col and inv.customer is not None:
        y = text_block(pen, x0, y + s * 0.4, address_lines(inv, lay), size=s * 0.9, room=c - x0)
    elif lay.extra["country_in"] == "address":
        y = text_block(pen, x0, y + s * 0.4, address_lines(inv, lay)[-1:], size=s * 0.9)
    return y

def _docrow(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """An Iberian, French or Italian package: the seller at the left, the client's address in a box at the right,
    the title, and the grid row naming the document (repeated on every page), then the other references."""
    s, x0, x1 = lay.size, pen.left, pen.right
    y = text_block(pen, x0, lay.margin + s * 1.5, [lay.seller[0]], size=s * 1.5, first_bold=True,
                   room=(x1 - x0) * 0.5)
    ys = text_block(pen, x0, y - s * 0.4, seller_lines(lay), size=s * 0.85, room=(x1 - x0) * 0.5)
    lines = address_lines(inv, lay)
    w = max(widest(pen, lines, True), (x1 - x0) * 0.34) + s * 2
    bx = x1 - w
    pen.box(bx, lay.margin + s * 2.2, w, pen.lead * len(lines) + s * 1.6, stroke=0.7)
    yb = text_block(pen, bx + s, lay.margin + s * 2.2 + s * 1.9, lines, first_bold=True, room=w - s * 2)
    y = max(ys, yb) + s * 1.2
    title = title_of(inv, lay)
    pen.text(x0, y, title, True, fit(pen, title, s * 1.5, x1 - x0))
    y = docrow(pen, inv, lay, y + s * 0.9, 1, m)
    more = extra_pairs(inv, lay)
    if more:
        y = text_block(pen, x0, y + s * 0.4, ["    ".join(f"{a} {b}" for _, a, b in more)], size=s * 0.9,
                       room=x1 - x0) - s * 0.2
    return y

def _sidebar(pen: Pen, inv: Invoice, lay: HeldDLayout, m: int = 1) -> float:
    """A studio's template: the sidebar (drawn with the page), the title large at the top of the main column and
    the project under it."""
    s, x0, x1 = lay.size, lay.extra["table_x0"], pen.right
    title = title_of(inv, lay)
    big = fit(pen, title, s * 3.0, x1 - x0)
    pen.text(x0, lay.margin + big * 1.1, title, True, big, color=lay.extra["accent"])
    y = lay.margin + big * 1.1 + pen.lead * 1.4
    pen.line(x0, y - s * 0.6, x1, y - s * 0.6, 1.2, grey=0.2)
    if "project" in lay.labels:
        y = text_block(pen, x0, y + pen.lead * 0.6, [f"{lay.label('project')} {lay.extra['project']}"]) + s * 0.4
    return y + s * 0.4


HEADERS = {"grid": _grid, "sections": _sections, "band": _band, "stub": _stub, "strip": _strip, "boxes": _boxes,
           "till": _till, "docrow": _docrow, "sidebar": _sidebar}
