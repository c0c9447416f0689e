"""held-m's shop order invoices, as web shops and marketplaces print them.

The top of the first page is the shop's: its name beside a drawn logo with its address, phone, web address and
registration number at the right (``logo``), its name and the title in a coloured band (``band``), or its name
centred over one line of address (``centred``). The title follows at the left or right, then the invoice's
fields (invoice and order numbers, invoice and order dates, the payment method, the customer number) in a column
beside the billing and shipping addresses (``right``), in a shaded box of labels over values (``box``), or as a
list under the title (``under``). The items follow under a ruled, shaded or dark heading: each product's title
(wrapped), the quantity as "× 6" after it or after the price where the layout has no Qty column, the SKU in small
grey type under or after the title, or in a column of its own, a variant line under some. The totals close the
order at the right: subtotal, discount and shipping at nothing, the tax (or the tax included, under the total),
the total, the amount paid (or refunded) and the balance; then the currency note, thanks and returns lines.

A browser-printed page (``furniture`` ``browser``) carries the browser's date and time and the page's title at
the top, the page's address and ``1/2`` at the foot; a plugin's PDF carries the shop's details and its page
label at the foot, and a short line naming the invoice at the top of later pages.
"""

from __future__ import annotations

from decimal import Decimal

from evaluation.invoice_held_m import code_hash, quantity, second_date
from evaluation.invoice_held_m_pen import MPen, MRow, address, doc_title, number_label, order_number
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import wrap

__all__ = ["bottom", "closing", "foot", "head", "meta", "rows", "top", "draw_row"]

SMALL = 0.82
GREY = (0.42, 0.42, 0.42)
NUMERIC = ("quantity", "unit_price", "amount", "vat_rate")


def _lead(lay: Layout) -> float:
    return lay.size * 1.35


def _xs(lay: Layout) -> list[float]:
    xs = [lay.margin]
    for c in lay.columns:
        xs.append(xs[-1] + c.width)
    return xs


def meta(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    """The invoice's fields as (label, value), in the layout's order: invoice number and date, order number and
    date (either pair first), the payment or refund method and the customer number where the record has one."""
    lab, c, e = lay.labels, lay.colon, lay.extra
    order = order_number(lay, inv.number)
    if lab["order_number"].endswith("#"):
        order = order.lstrip("#")
    own = [(number_label(inv, lay) + c, inv.number), (lab["invoice_date"] + c, lay.date(inv.date))]
    shop = [(lab["order_number"] + c, order), (lab["order_date"] + c, lay.date(second_date(lay, inv.date)))]
    pairs = shop + own if e["order_first"] else own + shop
    if inv.customer is not None:
        pairs.append((lab["customer_id"] + c, inv.customer))
    pairs.append((lab["refund_to" if inv.is_credit else "payment"] + c, e["payment"]))
    return pairs


def _logo(pen: MPen, lay: Layout, x: float, y: float, s: float, draw: bool) -> float:
    """The shop's mark, ``s`` high: a disc, a square or a leaf in the accent colour with the name's initials."""
    e = lay.extra
    if e["logo"] == "none":
        return 0.0
    if draw:
        pen.c.setFillColorRGB(*e["accent"])
        cx, cy = x + s / 2, pen.h - y - s / 2
        if e["logo"] == "circle":
            pen.c.circle(cx, cy, s / 2, fill=1, stroke=0)
        elif e["logo"] == "square":
            pen.c.roundRect(x, pen.h - y - s, s, s, s * 0.18, fill=1, stroke=0)
        else:
            p = pen.c.beginPath()
            p.moveTo(x, cy - s / 2)
            p.curveTo(x, cy + s * 0.4, x + s * 0.6, cy + s / 2, x + s, cy + s / 2)
            p.curveTo(x + s, cy - s * 0.4, x + s * 0.4, cy - s / 2, x, cy - s / 2)
            pen.c.drawPath(p, fill=1, stroke=0)
        initials = "".join(w[0] for w in lay.seller[0].replace("&", "").split()[:2]).upper()
        pen.text(cx, y + s / 2 + s * 0.13, initials, True, s * 0.36, "center", (1, 1, 1))
    return s + lay.size


def _shop_lines(lay: Layout) -> list[str]:
    e = lay.extra
    return [*lay.seller[1:-1], e["phone"], e["shop"][2], e["registry"]]


def _header(pen: MPen, inv: Invoice, lay: Layout, draw: bool) -> float:
    e, size, lead = lay.extra, lay.size, _lead(lay)
    left, right, y = lay.margin, lay.page[0] - lay.margin, lay.margin
    if e["furniture"] == "browser":
        y += size * 0.5
    title, big = doc_title(inv, lay), size * 2.0
    if e["header"] == "band":
        h = size * 3.6
        if draw:
            pen.box(left, y, right - left, h, fill=e["accent"])
            pen.text(left + size, y + h * 0.62, lay.seller[0], True, size * 1.7, color=(1, 1, 1))
            pen.text(right - size, y + h * 0.62, title, True, size * 1.5, "right", (1, 1, 1))
        y += h + lead
        for part in wrap("  ·  ".join(_shop_lines(lay)), right - left, pen):
            if draw:
                pen.text(left, y, part, size=size * SMALL, color=GREY)
            y += lead * SMALL
        return y + lead * 0.8
    if e["header"] == "centred":
        y += size * 2
        if draw:
            pen.text((left + right) / 2, y, lay.seller[0], True, size * 2.1, "center", e["accent"])
        y += lead * 1.3
        lines = _shop_lines(lay)
        for part in ("  ·  ".join(lines[:-3]), "  ·  ".join(lines[-3:])):
            if draw:
                pen.text((left + right) / 2, y, part, size=size * SMALL, align="center", color=GREY)
            y += lead * SMALL
        if draw:
            pen.line(left, y, right, y, 0.5, 0.7)
        y += lead * 0.6
    else:
        s = size * 3.4
        x = left + _logo(pen, lay, left, y, s, draw)
        if draw:
            pen.text(x, y + s * 0.68, lay.seller[0], True, size * 1.7)
        ry = y + size
        for line in _shop_lines(lay):
            if draw:
                pen.text(right, ry, line, size=size * SMALL, align="right", color=GREY)
            ry += lead * SMALL
        y = max(y + s, ry) + lead * 0.6
    y += big
    if draw:
        side = e["title_side"]
        pen.text(left if side == "left" else right, y, title, True, big, side, e["accent"])
    return y + lead * 1.2


def _block(pen: MPen, lay: Layout, x: float, y: float, heading: str, lines: list[str], width: float,
           draw: bool) -> float:
    lead = _lead(lay)
    if draw:
        pen.text(x, y, heading, True, color=lay.extra["accent"] if lay.extra["header"] != "centred" else (0, 0, 0))
    for line in lines:
        for part in wrap(line, width, pen):
            y += lead
            if draw:
                pen.text(x, y, part)
    return y + lead


def _pairs_column(pen: MPen, lay: Layout, pairs, x0: float, x1: float, y: float, draw: bool) -> float:
    """Label and value on a line, the value right-aligned at ``x1`` (on a line of its own when they do not fit)."""
    lead = _lead(lay)
    for label, value in pairs:
        if draw:
            pen.text(x0, y, label, True)
        if pen.width(label, True) + pen.width(value) + lay.size > x1 - x0:
            y += lead
        if draw:
            pen.text(x1, y, value, align="right")
        y += lead
    return y


def top(pen: MPen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    """The page's top down to the table: the shop's header, fields and addresses on page 1, a line naming the
    invoice on later pages (a browser's own header names it there)."""
    e, lead = lay.extra, _lead(lay)
    left, right = lay.margin, lay.page[0] - lay.margin
    if n > 1:
        if e["furniture"] == "browser":
            return lay.margin + lay.size
        y = lay.margin + lay.size
        if draw:
            pen.text(left, y, f"{doc_title(inv, lay)} {inv.number}", True)
            pen.text(right, y, f"{lay.labels['order_number']} {order_number(lay, inv.number)}".replace("# #", "#"),
                     size=lay.size * SMALL, align="right", color=GREY)
            pen.line(left, y + lead * 0.5, right, y + lead * 0.5, 0.5, 0.6)
        return y + lead * 1.6
    y = _header(pen, inv, lay, draw)
    pairs, width = meta(inv, lay), right - left
    block = address(inv, lay, business=False)
    bill, ship = lay.labels["bill_to"], lay.labels["ship_to"]
    if e["meta"] == "right":
        col = width * 0.3
        yb = _block(pen, lay, left, y, bill, block, col - lay.size, draw)
        ys = _block(pen, lay, left + col, y, ship, block, col - lay.size, draw)
        ym = _pairs_column(pen, lay, pairs, left + 2 * col, right, y, draw)
        return max(yb, ys, ym) + lead * 0.6
    if e["meta"] == "box":
        per = 3
        cell = width / per
        rows = [pairs[k:k + per] for k in range(0, len(pairs), per)]
        h = len(rows) * lead * 2.3 + lead * 0.4
        if draw:
            pen.box(left, y - lead * 0.2, width, h, fill=(0.94, 0.94, 0.94))
        yy = y + lead * 0.6
        for row in rows:
            for k, (label, value) in enumerate(row):
                if draw:
                    pen.text(left + k * cell + lay.size, yy, label.rstrip(" :"), size=lay.size * SMALL, color=GREY)
                    pen.text(left + k * cell + lay.size, yy + lead, value, True)
            yy += lead * 2.3
        y += h + lead * 0.6
    else:
        key_w = max(pen.width(label, True) for label, _ in pairs) + lay.size
        for label, value in pairs:
            if draw:
                pen.text(left, y, label, True)
                pen.text(left + key_w, y, value)
            y += lead
        y += lead * 0.6
    yb = _block(pen, lay, left, y, bill, block, width / 2 - lay.size, draw)
    ys = _block(pen, lay, left + width / 2, y, ship, block, width / 2 - lay.size, draw)
    return max(yb, ys) + lead * 0.4


def head(pen: MPen, lay: Layout, y: float, draw: bool) -> float:
    """The table's heading row: bold over a rule, on a light band, or white on the accent colour."""
    e, xs, pad = lay.extra, _xs(lay), lay.size * 0.5
    lines = [wrap(c.heading, c.width - 2 * pad, pen) for c in lay.columns]
    h = max(map(len, lines)) * lay.size * 1.2 + lay.size * 0.9
    if not draw:
        return y + h
    style = e["heading_style"]
    colour = (1, 1, 1) if style == "dark" else (0, 0, 0)
    if style != "rule":
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=e["accent"] if style == "dark" else (0.9, 0.9, 0.9))
    for col, x0, x1, text in zip(lay.columns, xs, xs[1:], lines):
        for k, t in enumerate(text):
            ty = y + lay.size * 1.25 + k * lay.size * 1.2
            if col.key in NUMERIC:
                pen.text(x1 - pad, ty, t, True, align="right", color=colour)
            else:
                pen.text(x0 + pad, ty, t, True, color=colour)
    if style == "rule":
        pen.line(xs[0], y + h, xs[-1], y + h, 0.9)
    return y + h


def _pieces(pen: MPen, lay: Layout, index: int, line, room: float) -> list[list[tuple[str, str]]]:
    """The description cell's lines of (text, style) pieces: the title (wrapped), "× 6" after it in a layout
    without a quantity column, the SKU after it or on a line of its own, a variant line."""
    e = lay.extra
    lines = [[(t, "main")] for t in wrap(line.description, room, pen)] if line.description else [[]]
    gap = lay.size * 0.8

    def append(text: str, style: str) -> None:
        used = sum(pen.width(t, s == "qty", lay.size * (SMALL if s == "small" else 1)) + gap for t, s in lines[-1])
        if pen.width(text, style == "qty", lay.size * (SMALL if style == "small" else 1)) + used <= room:
            lines[-1].append((text, style))
        else:
            lines.append([(text, style)])
    if e["qty_mode"] == "title":
        append(f"× {quantity(line.quantity)}", "qty")
    sku = f"{e['sku_prefix']}{line.code}"
    if e["sku"] == "after":
        append(sku, "small")
    if e["variant"] and line.description and code_hash("variant", lay.seed, line.code) % e["variant_every"] == 0:
        lines.append([(e["variant"], "small")])
    if e["sku"] == "under":
        lines.append([(sku, "small")])
    return [piece for piece in lines if piece] or [[("", "main")]]  # a line without a title: its SKU goes first


def _line_height(lay: Layout, line: list[tuple[str, str]]) -> float:
    return lay.size * (1.3 if any(s != "small" for _, s in line) else SMALL * 1.3)


def rows(pen: MPen, inv: Invoice, lay: Layout) -> list[MRow]:
    """Every item row with its cells and height."""
    out, pad = [], lay.size * 0.5
    for k, line in enumerate(inv.rows):
        cells = {}
        pieces: list = []
        for col in lay.columns:
            if col.key == "description":
                pieces = _pieces(pen, lay, k, line, col.width - 2 * pad)
                cells["description"] = [" ".join(t for t, _ in p) for p in pieces]
            elif col.key == "code":
                cells["code"] = wrap(line.code, col.width - 2 * pad, pen)
            elif col.key == "quantity":
                cells["quantity"] = [quantity(line.quantity)]
            elif col.key == "vat_rate":
                cells["vat_rate"] = [lay.extra["rate_text"]]
            elif col.key == "unit_price":
                price = lay.money(line.unit_price, lines=True)
                cells["unit_price"] = [f"{price} × {quantity(line.quantity)}" if lay.extra["qty_mode"] == "price"
                                       else price]
            else:
                cells["amount"] = [lay.money(line.amount, lines=True)]
        text_h = sum(_line_height(lay, p) for p in pieces) if pieces else 0
        h = max(text_h, max(len(v) for v in cells.values()) * lay.size * 1.3) + lay.size * 0.75
        out.append(MRow(k, cells, h, pieces))
    return out


def draw_row(pen: MPen, lay: Layout, row: MRow, y: float, k: int) -> float:
    e, xs, pad = lay.extra, _xs(lay), lay.size * 0.5
    if e["rows"] == "zebra" and k % 2:
        pen.box(xs[0], y, xs[-1] - xs[0], row.height, fill=(0.95, 0.95, 0.95))
    base = y + lay.size * 0.35 + lay.size
    for col, x0, x1 in zip(lay.columns, xs, xs[1:]):
        if col.key == "description":
            ty = base
            for line in row.pieces:
                x = x0 + pad
                for text, style in line:
                    size = lay.size * (SMALL if style == "small" else 1)
                    pen.text(x, ty, text, style == "qty", size, color=GREY if style == "small" else (0, 0, 0))
                    x += pen.width(text, style == "qty", size) + lay.size * 0.8
                ty += _line_height(lay, line)
            continue
        for j, text in enumerate(row.cells[col.key]):
            if col.key in NUMERIC:
                pen.text(x1 - pad, base + j * lay.size * 1.3, text, align="right")
            else:
                pen.text(x0 + pad, base + j * lay.size * 1.3, text)
    if e["rows"] == "lines":
        pen.line(xs[0], y + row.height, xs[-1], y + row.height, 0.3, 0.75)
    return y + row.height


def _totals(inv: Invoice, lay: Layout) -> list[tuple[str, str, str]]:
    """(label, value, style) of the totals block; style is ``plain``, ``total`` or ``note``."""
    e, lab, c = lay.extra, lay.labels, lay.colon
    zero = lay.money(Decimal("0.00"))
    out = [(lab["subtotal"] + c, lay.money(inv.subtotal), "plain")]
    if e["discount"]:
        out.append((lab["discount"] + c, zero if e["discount"] == "zero" else "—", "plain"))
    out.append((lab["shipping"] + c, e["free"] if e["shipping"] == "free" else zero, "plain"))
    tax = inv.tax(lay.tax_rate)
    if tax is not None and not e["included"]:
        out.append((lab["tax"] + c, lay.money(tax), "plain"))
    total = lay.money(inv.total(lay.tax_rate))
    out.append((lab["total"] + c, f"{lay.currency} {total}" if e["total_code"] else total, "total"))
    if tax is not None and e["included"]:
        note = e["included_text"].format(amount=lay.money(tax), tax=e["tax_name"], rate=e["rate_text"])
        out.append(("", note, "note"))
    if e["paid"]:
        out.append((lab["refunded" if inv.is_credit else "paid"] + c, total, "plain"))
    if e["balance"]:
        out.append((lab["balance"] + c, zero, "plain"))
    return out


def closing(pen: MPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    """The totals at the right under the table, then the currency note, thanks and returns lines."""
    e, lead = lay.extra, _lead(lay)
    left, right = lay.margin, _xs(lay)[-1]
    totals = _totals(inv, lay)
    label_w = max(pen.width(label, s == "total") for label, _, s in totals if s != "note")
    value_w = max(pen.width(value, s == "total", lay.size * (1.15 if s == "total" else 1)) for _, value, s in totals
                  if s != "note")
    x = right - value_w - label_w - lay.size * 2.5
    y += lead * 0.9
    for label, value, style in totals:
        big = lay.size * (1.15 if style == "total" else SMALL if style == "note" else 1)
        if style == "total":
            if draw:
                pen.line(x, y - lead * 0.75, right, y - lead * 0.75, 0.8)
            y += lead * 0.25
        if draw:
            if label:
                pen.text(x, y, label, style == "total", big)
            pen.text(right - lay.size * 0.5, y, value, style == "total", big, "right",
                     GREY if style == "note" else (0, 0, 0))
        y += lead * (1.25 if style == "total" else SMALL if style == "note" else 1)
    y += lead * 0.8
    notes = ([lay.currency_note] if e["code_note"] else []) + ["", e["thanks"], e["returns"]]
    for note in notes:
        if draw and note:
            pen.text(left, y, note, note == e["thanks"], color=(0, 0, 0) if note == e["thanks"] else GREY)
        y += lead if note else lead * 0.5
    return y


def bottom(lay: Layout) -> float:
    """How far down a page the table and totals may go."""
    if lay.extra["furniture"] == "browser":
        return lay.page[1] - lay.margin
    return lay.page[1] - lay.margin - lay.size * 3.2


def foot(pen: MPen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    """The browser's header and footer, or the plugin's foot with the shop's details and the page label."""
    e, w, h = lay.extra, lay.page[0], lay.page[1]
    page = lay.page_label.format(n=n, m=m)
    if e["furniture"] == "browser":
        small = 7.0
        title = f"{doc_title(inv, lay)} {inv.number} | {lay.seller[0]}"
        pen.c.setFont("Helvetica", small)
        url = f"https://{e['shop'][2]}/admin/orders/{order_number(lay, inv.number).lstrip('#')}"
        for x, y, text, align in ((20.0, 14.0, f"{lay.date(inv.date)}, {e['printed']}", "left"),
                                  (w / 2, 14.0, title, "center"), (20.0, h - 10.0, url, "left"),
                                  (w - 20.0, h - 10.0, page, "right")):
            draw = {"left": pen.c.drawString, "center": pen.c.drawCentredString, "right": pen.c.drawRightString}
            pen.c.setFillColorRGB(0, 0, 0)
            draw[align](x, h - y, text)
        return
    y = h - lay.margin - lay.size * 0.6
    pen.line(lay.margin, y - lay.size * 1.3, w - lay.margin, y - lay.size * 1.3, 0.4, 0.7)
    info = "  ·  ".join((lay.seller[0], *lay.seller[1:-1], e["registry"]))
    if pen.width(info, size=lay.size * 0.75) > w - 2 * lay.margin - pen.width(page) - 20:
        info = f"{lay.seller[0]}  ·  {e['registry']}"
    pen.text(lay.margin, y, info, size=lay.size * 0.75, color=GREY)
    pen.text(w - lay.margin, y, page, size=lay.size * 0.85, align="right")
