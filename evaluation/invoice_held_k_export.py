"""held-k's export documents: commercial and pro forma invoices (and credit notes) as exporters and freight
forwarders print them.

``boxed`` is the forwarder's form: the title in a frame, then numbered boxes, each a small label over its value
(shipper / exporter, consignee, notify party on the left; invoice number and date, customer and order numbers,
countries of origin and destination, terms of delivery and payment, ports, vessel, transport document and
shipment date on the right), and a table ruled in full. ``letterhead`` is the exporter's own: name and address
big at the top left, the title and the invoice's fields at the right, then consignee, notify party and shipping
details side by side, and a table under a shaded heading band.

Both print the line table with its tariff, origin, unit and weight columns (the layout's choice of them), repeat
a running line and the headings on every later page, and close with the totals (freight and insurance at 0.00
where the Incoterm names them; the currency's code beside the total), the shipment's packages and weights, the
total in words, the zero-rating note, the declaration and a signature.
"""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.pdfgen import canvas

from evaluation.invoice_held_k import by_transport, later_date, num, qty
from evaluation.invoice_held_k_goods import (amount_words, gross_weight, is_goods, net_weight, origin, packages,
                                             reference, tariff, uom)
from evaluation.invoice_held_k_words import ORIGIN_NAMES, PORTS
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["draw_page", "items", "pages"]

NUMERIC = ("quantity", "unit_price", "amount", "net_weight", "line_no")


def _lead(lay: Layout) -> float:
    return lay.size * 1.3


def _xs(lay: Layout) -> list[float]:
    xs = [lay.margin]
    for c in lay.columns:
        xs.append(xs[-1] + c.width)
    return xs


def _label(lay: Layout, key: str, credit: bool = False) -> str:
    if key == "invoice_number" and credit:
        key = "credit_number"
    return lay.labels[key] + lay.colon


def town(seller: tuple[str, ...]) -> str:
    """The seller's town, from the last line of its address (the one above its country).

    >>> town(("A", "2200 Meadowlands Pkwy", "Secaucus, NJ 07094", "United States"))
    'Secaucus'
    >>> [town(("A", line, "B")) for line in ("Derby DE21 4BA", "3024 SK Rotterdam", "12 Wang Tai Road, Kowloon Bay")]
    ['Derby', 'Rotterdam', 'Kowloon Bay']
    """
    line = seller[-2]
    if "," in line:
        parts = [p.strip() for p in line.split(",")]
        return parts[-1] if parts[0][0].isdigit() else parts[0]
    words = line.split()
    return words[-1] if words[0][0].isdigit() else words[0]


def _place(inv: Invoice, lay: Layout) -> str:
    """The Incoterm's named place: the seller's town for EXW, its port for FOB, the buyer's for CIF and DAP."""
    e = lay.extra
    if e["incoterm"] == "EXW":
        return town(lay.seller)
    return e["loading"] if e["incoterm"] == "FOB" else _discharge(inv, lay)


def _discharge(inv: Invoice, lay: Layout) -> str:
    ports = by_transport(PORTS.get(inv.country, (inv.country,)), lay.extra["transport"])
    return ports[lay.seed % len(ports)]


def _fields(inv: Invoice, lay: Layout) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The invoice's own fields and the shipment's, each a list of label and value in the form's order."""
    e = lay.extra
    own = [(_label(lay, "invoice_number", inv.is_credit), inv.number),
           (_label(lay, "invoice_date"), lay.date(inv.date))]
    if inv.customer is not None:
        own.append((_label(lay, "customer_id"), inv.customer))
    own.append((_label(lay, "order"), reference(lay.seed, inv.number, "order")))
    if lay.mark_place == "field":
        own.append((_label(lay, "currency"), lay.currency))
    origins = {origin(lay.seed, r.code, e["origins"]) for r in inv.rows if is_goods(r.code, r.description)}
    home = ORIGIN_NAMES[next(iter(origins))] if len(origins) == 1 else "As per line items" if origins else "-"
    ship = [(_label(lay, "incoterms"), f"{e['incoterm']} {_place(inv, lay)}"), (_label(lay, "payment"), e["payment"]),
            (_label(lay, "origin"), home), (_label(lay, "destination"), inv.country),
            (_label(lay, "loading"), e["loading"]), (_label(lay, "discharge"), _discharge(inv, lay)),
            (_label(lay, "transport"), e["mode"]), (_label(lay, "vessel"), e["vessel"]),
            (_label(lay, "bill"), reference(lay.seed, inv.number, e["transport"])),
            (_label(lay, "shipment"), lay.date(later_date(lay, inv.date)))]
    return own, ship


def _party(inv: Invoice, lay: Layout) -> list[str]:
    e = lay.extra
    return [e["consignee"], e["street"], inv.country.upper() if e["caps"] else inv.country]


def _notify(lay: Layout) -> list[str]:
    who = lay.extra["notify"]
    return ["SAME AS CONSIGNEE"] if who is None else [who, "Customs clearance agent"]


def _seller(lay: Layout) -> list[str]:
    return [*lay.seller, lay.extra["phone"], lay.extra["tax_id"]]


def _box(pen: Pen, x: float, y: float, w: float, label: str, lines: list[str], height: float | None = None,
         draw: bool = True, bold_first: bool = False) -> float:
    """A form's box: a small label over its value lines; returns its height (``height`` stretches it)."""
    lay = pen.lay
    small = min(lay.size * 0.78, lay.size * (w - 6) / max(pen.width(label), 1))
    texts = [t for line in lines for t in wrap(line, w - lay.size, pen)]
    h = height or small * 1.6 + len(texts) * _lead(lay) + lay.size * 0.5
    if draw:
        pen.c.setLineWidth(0.6)
        pen.c.setStrokeColorRGB(0, 0, 0)
        pen.c.rect(x, pen.h - y - h, w, h, fill=0, stroke=1)
        pen.text(x + 3, y + small * 1.2, label, size=small, color=(0.25, 0.25, 0.25))
        for k, t in enumerate(texts):
            pen.text(x + lay.size * 0.5, y + small * 1.6 + lay.size * 0.9 + k * _lead(lay), t, k == 0 and bold_first)
    return h


def _boxed_header(pen: Pen, inv: Invoice, lay: Layout, draw: bool) -> float:
    left, right, y = lay.margin, lay.page[0] - lay.margin, lay.margin
    title = lay.credit_title if inv.is_credit else lay.title
    bar = lay.size * 2.6
    if draw:
        pen.c.setLineWidth(1.0)
        pen.c.rect(left, pen.h - y - bar, right - left, bar, fill=0, stroke=1)
        pen.text((left + right) / 2, y + bar * 0.68, title, True, lay.size * 1.7, "center")
    y += bar
    mid = left + (right - left) * 0.5
    number = iter(range(1, 40))

    def name(key: str) -> str:
        return f"{next(number)}. {lay.labels[key]}" if lay.extra["heavy"] else lay.labels[key]

    ly = y
    for key, lines in (("shipper", _seller(lay)), ("consignee", _party(inv, lay)), ("notify", _notify(lay))):
        ly += _box(pen, left, ly, mid - left, name(key), lines, draw=draw, bold_first=key != "notify")
    own, ship = _fields(inv, lay)
    ry, pairs = y, own + ship
    half = (right - mid) / 2
    for k in range(0, len(pairs), 2):
        row = pairs[k:k + 2]
        h = max(_box(pen, mid, ry, half, lab, [val], draw=False) for lab, val in row)
        for j, (lab, val) in enumerate(row):
            tag = f"{next(number)}. {lab}" if lay.extra["heavy"] else lab
            _box(pen, mid + j * half, ry, half if len(row) == 2 else right - mid, tag, [val], h, draw)
        ry += h
    if draw and ly < ry:
        pen.c.rect(left, pen.h - ry, mid - left, ry - ly, fill=0, stroke=1)
    elif draw and ry < ly:
        pen.c.rect(mid, pen.h - ly, right - mid, ly - ry, fill=0, stroke=1)
    return max(ly, ry) + lay.size * 0.8


def _letterhead(pen: Pen, inv: Invoice, lay: Layout, draw: bool) -> float:
    left, right, y = lay.margin, lay.page[0] - lay.margin, lay.margin
    title = lay.credit_title if inv.is_credit else lay.title
    lead = _lead(lay)
    own, shipping = _fields(inv, lay)
    big = lay.size * 1.9
    apart = pen.width(lay.seller[0], True, big) + pen.width(title, True, big) + big < right - left
    if draw:
        pen.text(left, y + big, lay.seller[0], True, big)
        pen.text(right, y + big * (1 if apart else 2.3), title, True, big, "right")
    if not apart:
        y += big * 1.3
    sy = y + big + lead * 1.2
    for k, line in enumerate(_seller(lay)[1:]):
        if draw:
            pen.text(left, sy, line, size=lay.size * 0.95)
        sy += lead
    key_w = max(pen.width(lab, True) for lab, _ in own) + lay.size
    val_w = max(pen.width(v) for _, v in own)
    fy = y + big + lead * 1.2
    for lab, val in own:
        if draw:
            pen.text(right - val_w - key_w, fy, lab, True)
            pen.text(right - val_w, fy, val)
        fy += lead
    y = max(sy, fy) + lead * 0.4
    if draw:
        pen.line(left, y, right, y, 1.2)
    y += lead * 1.2
    width = right - left
    blocks = [(lay.labels["consignee"], _party(inv, lay)), (lay.labels["notify"], _notify(lay))]
    bottom = y
    for x, (label, lines) in zip((left, left + width * 0.26), blocks):
        by = y
        if draw:
            pen.text(x, by, label, True)
        for line in lines:
            by += lead
            if draw:
                pen.text(x, by, line)
        bottom = max(bottom, by)
    sx = left + width * 0.52  # the shipment's details, label and value, in the right half
    key_w = max(pen.width(lab, size=lay.size * 0.92) for lab, _ in shipping) + lay.size * 0.6
    by = y
    for lab, val in shipping:
        for k, part in enumerate(wrap(val, right - sx - key_w, pen)):
            if draw:
                if not k:
                    pen.text(sx, by, lab, size=lay.size * 0.92, color=(0.3, 0.3, 0.3))
                pen.text(sx + key_w, by, part)
            by += lead
    return max(bottom + lead, by) + lead * 0.6


def _running(pen: Pen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    title = lay.credit_title if inv.is_credit else lay.title
    text = lay.running.format(title=title, number=inv.number, n=n)
    y = lay.margin + lay.size * 1.3
    if draw:
        pen.text(lay.margin, y, text, True, lay.size * 1.2)
        pen.text(lay.page[0] - lay.margin, y, f"{_label(lay, 'invoice_date')} {lay.date(inv.date)}", align="right")
    return y + _lead(lay) * 1.4


def _heading_lines(pen: Pen, lay: Layout) -> list[list[str]]:
    return [wrap(c.heading, c.width - lay.size * 0.6, pen) for c in lay.columns]


def _head(pen: Pen, lay: Layout, y: float, draw: bool) -> float:
    lines = _heading_lines(pen, lay)
    h = max(map(len, lines)) * lay.size * 1.15 + lay.size * 0.8
    if not draw:
        return y + h
    xs = _xs(lay)
    pen.box(xs[0], y, xs[-1] - xs[0], h, fill=(lay.extra["shade"],) * 3, stroke=0.6 if lay.ruled else None)
    for col, x0, x1, text in zip(lay.columns, xs, xs[1:], lines):
        for k, t in enumerate(text):
            ty = y + lay.size * 1.2 + k * lay.size * 1.15
            if col.key in NUMERIC:
                pen.text(x1 - lay.size * 0.35, ty, t, True, lay.size * 0.92, "right")
            else:
                pen.text(x0 + lay.size * 0.35, ty, t, True, lay.size * 0.92)
    return y + h


def _cells(pen: Pen, lay: Layout, index: int, line) -> dict[str, list[str]]:
    e = lay.extra
    goods = is_goods(line.code, line.description)
    net = net_weight(lay.seed, line.code, line.quantity) if goods else None
    values = {"line_no": str(index + 1), "code": line.code, "hs": tariff(line.description, e["hs_format"])
              if goods else "", "origin": origin(lay.seed, line.code, e["origins"]) if goods else "",
              "uom": uom(line.description, e["piece"]) if goods else "", "quantity": qty(lay, line.quantity),
              "net_weight": num(lay, net, "minus", 3) if net is not None else "",
              "unit_price": num(lay, line.unit_price, lay.negative), "amount": num(lay, line.amount, lay.negative)}
    out = {}
    for col in lay.columns:
        if col.key == "description":
            out[col.key] = wrap(line.description or "", col.width - lay.size * 0.7, pen)
        else:
            out[col.key] = [values[col.key]]
    return out


def _height(lay: Layout, row: Row) -> float:
    return row.lines * _lead(lay) + lay.size * 0.45


def _draw_row(pen: Pen, lay: Layout, row: Row, y: float) -> float:
    xs, h = _xs(lay), _height(lay, row)
    for col, x0, x1 in zip(lay.columns, xs, xs[1:]):
        for k, t in enumerate(row.cells[col.key]):
            ty = y + lay.size * 1.1 + k * _lead(lay)
            if col.key in NUMERIC:
                pen.text(x1 - lay.size * 0.35, ty, t, align="right")
            elif col.key in ("origin", "uom"):
                pen.text((x0 + x1) / 2, ty, t, align="center")
            else:
                pen.text(x0 + lay.size * 0.35, ty, t)
    if lay.ruled and lay.extra["template"] == "letterhead":
        pen.line(xs[0], y + h, xs[-1], y + h, 0.3, 0.6)
    return y + h


def _totals(inv: Invoice, lay: Layout) -> list[tuple[str, str, bool]]:
    e = lay.extra
    rows = [(_label(lay, "subtotal"), num(lay, inv.subtotal, lay.negative), False)]
    if lay.tax_rate is not None:
        rows.append((_label(lay, "tax"), num(lay, inv.tax(lay.tax_rate), lay.negative), False))
    zero = num(lay, Decimal("0.00"), lay.negative)
    if e["incoterm"] in ("CIF", "DAP"):
        rows.append((_label(lay, "freight"), zero, False))
    if e["incoterm"] == "CIF":
        rows.append((_label(lay, "insurance"), zero, False))
    return rows + [(_label(lay, "total"), f"{lay.currency} {num(lay, inv.total(lay.tax_rate), lay.negative)}", True)]


def _shipment(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    goods = [r for r in inv.rows if is_goods(r.code, r.description)]
    pieces = sum((abs(r.quantity) for r in goods), 0)
    net = sum((net_weight(lay.seed, r.code, r.quantity) for r in goods), Decimal("0.000"))
    cartons = packages(lay.seed, pieces) if goods else 0
    return [(_label(lay, "packages"), f"{cartons} CTN{'S' if cartons > 1 else ''}" if cartons else "-"),
            (_label(lay, "quantity_total"), qty(lay, sum((r.quantity for r in inv.rows), Decimal(0)))),
            (_label(lay, "net"), f"{num(lay, net, 'minus', 3)} KGS"),
            (_label(lay, "gross"), f"{num(lay, gross_weight(net, cartons), 'minus', 3)} KGS"),
            (_label(lay, "marks"), f"{lay.extra['consignee'].upper()} / C/NO. 1-{max(cartons, 1)}")]


def _closing(pen: Pen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    """Totals at the right and the shipment summary at the left, the total in words, notes, the declaration and
    the signature; returns the y below."""
    e, lead = lay.extra, _lead(lay)
    left, right = lay.margin, lay.page[0] - lay.margin
    xs = _xs(lay)
    if draw:
        pen.line(xs[0], y, xs[-1], y, 0.8)
    y += lead * 0.6
    ty = sy = y
    totals = _totals(inv, lay)
    label_x = right - max(pen.width(label, bold) for label, _, bold in totals) - pen.width("0" * 12) - lay.size * 2
    for label, value, bold in totals:
        ty += lead
        if draw:
            pen.text(label_x, ty, label, bold)
            pen.text(right - lay.size * 0.35, ty, value, bold, align="right")
    shipment = _shipment(inv, lay)
    value_x = left + max(pen.width(label, size=lay.size * 0.95) for label, _ in shipment) + lay.size
    for label, value in shipment:
        sy += lead
        if draw:
            pen.text(left, sy, label, size=lay.size * 0.95)
            pen.text(value_x, sy, value, size=lay.size * 0.95)
    y = max(ty, sy) + lead * 1.2
    words = amount_words(inv.total(lay.tax_rate), lay.currency, e["words_style"], inv.is_credit)
    for k, part in enumerate(wrap(f"{_label(lay, 'words')} {words}", right - left, pen)):
        if draw:
            pen.text(left, y, part, True)
        y += lead
    notes = [e["zero_note"]] if e["zero_note"] and inv.country != e["home"] else []
    notes.append(f"{_label(lay, 'reason')} {'Return of goods / credit' if inv.is_credit else 'Sale'}")
    y += lead * 0.3
    for note in notes + [""] + [e["declaration"]]:
        for part in wrap(note, (right - left) * 0.62, pen) if note else [""]:
            if draw and part:
                pen.text(left, y, part, size=lay.size * 0.95)
            y += lead * (0.95 if part else 0.4)
    who, role = e["signatory"]
    lines = [f"For and on behalf of {lay.seller[0]}", f"{_label(lay, 'signature')} {who}, {role}"]
    block = max(max(pen.width(t, size=lay.size * 0.9) for t in lines), 130)
    sx = right - block
    y += lead * 0.6
    if draw:
        pen.text(sx, y, lines[0], size=lay.size * 0.9)
        sig = y + lead * 2.4
        pen.c.setLineWidth(0.8)
        pen.c.setStrokeColorRGB(0.1, 0.1, 0.45)
        p = pen.c.beginPath()
        p.moveTo(sx + 6, pen.h - sig + 2)
        p.curveTo(sx + 20, pen.h - sig + 20, sx + 30, pen.h - sig - 6, sx + 48, pen.h - sig + 10)
        p.curveTo(sx + 60, pen.h - sig + 16, sx + 70, pen.h - sig - 2, sx + 96, pen.h - sig + 6)
        pen.c.drawPath(p, stroke=1, fill=0)
        pen.line(sx, sig + lead * 0.4, right, sig + lead * 0.4, 0.5)
        pen.text(sx, sig + lead * 1.3, lines[1], size=lay.size * 0.9)
    return y + lead * 3.8


def _foot_room(lay: Layout) -> float:
    return lay.size * 3.0


def _foot(pen: Pen, lay: Layout, n: int, m: int) -> None:
    bottom = lay.page[1] - lay.margin * 0.6
    pen.text(lay.page[0] - lay.margin, bottom, lay.page_label.format(n=n, m=m), size=lay.size * 0.9, align="right")
    if n < m:
        pen.text(lay.margin, bottom, lay.continued.format(next=n + 1), size=lay.size * 0.9)
    reg = f"{lay.seller[0]} - {lay.extra['tax_id']}"
    pen.text(lay.page[0] / 2, bottom - lay.size * 1.2, reg, size=lay.size * 0.7, align="center",
             color=(0.4, 0.4, 0.4))


def _top(pen: Pen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    if n > 1:
        return _running(pen, inv, lay, n, draw)
    header = _boxed_header if lay.extra["template"] == "boxed" else _letterhead
    return header(pen, inv, lay, draw)


def pages(pen: Pen, inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page; a last page of none when the closing block does not fit under the items."""
    scratch = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)
    rows = [Row(k, _cells(scratch, lay, k, line)) for k, line in enumerate(inv.rows)]
    bottom = lay.page[1] - lay.margin - _foot_room(lay)
    first = _head(scratch, lay, _top(scratch, inv, lay, 1, False), False)
    later = _head(scratch, lay, _top(scratch, inv, lay, 2, False), False)
    out: list[list[Row]] = [[]]
    y = first
    for row in rows:
        h = _height(lay, row)
        if out[-1] and y + h > bottom:
            out.append([])
            y = later
        out[-1].append(row)
        y += h
    if _closing(scratch, inv, lay, y, False) > bottom:
        out.append([])
    return out


def items(page: list[Row]) -> list[Row]:
    return page


def draw_page(pen: Pen, inv: Invoice, lay: Layout, page: list[Row], n: int, m: int) -> None:
    y = _top(pen, inv, lay, n, True)
    if page:
        top = y
        y = _head(pen, lay, y, True)
        for row in page:
            y = _draw_row(pen, lay, row, y)
        if lay.extra["template"] == "boxed" or lay.ruled:
            xs = _xs(lay)
            pen.c.setLineWidth(0.6)
            pen.c.setStrokeColorRGB(0, 0, 0)
            pen.c.rect(xs[0], pen.h - y, xs[-1] - xs[0], y - top, fill=0, stroke=1)
            if lay.extra["template"] == "boxed":
                for x in xs[1:-1]:
                    pen.line(x, top, x, y, 0.4)
    if n == m:
        _closing(pen, inv, lay, y + (0 if page else _lead(lay)), True)
    _foot(pen, lay, n, m)
