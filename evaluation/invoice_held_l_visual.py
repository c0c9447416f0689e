"""held-l's e-invoice visualisations: the page a viewer or an ERP export renders from a structured e-invoice.

Page 1: the title with the invoice's format (XRechnung 2.0, Peppol BIS Billing 3.0 ...) at the right, the Seller
and Buyer sections side by side, the Invoice details section in two columns of labelled values, then the Invoice
lines. A ``block`` layout prints each line as a block of labelled values under a thin rule (Line ID and the VAT
category on its first row, the item name over the full width, the seller's item identifier beside the quantity
and unit code, the net price beside the line net amount); a ``table`` layout prints one row per line under a
heading row of many short headings, repeated on every page with lines. After the lines: the VAT breakdown beside
the document totals, then the payment instructions. Each page ends with the page number and the viewer's note;
later pages start with a running line naming the invoice and the Invoice lines title.

A label is printed as :func:`evaluation.invoice_held_l.term` gives it; with ``side`` codes each label's code is
printed small and grey in a narrow column before it. Long values and descriptions wrap at spaces, never cut.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from evaluation.invoice_held_l import Piece, later_date, qty_text, rate_text, term
from evaluation.invoice_held_l_terms import CODES, TERMS
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["COUNTRY_CODES", "bottom", "foot", "pieces", "top"]

COUNTRY_CODES = {"United Kingdom": "GB", "EIRE": "IE", "Germany": "DE", "France": "FR", "Australia": "AU",
                 "Netherlands": "NL", "Norway": "NO", "Belgium": "BE", "Spain": "ES", "Switzerland": "CH",
                 "Portugal": "PT", "Italy": "IT", "Sweden": "SE", "Finland": "FI", "Denmark": "DK"}
GREY = (0.45, 0.45, 0.45)
NUMBERS = ("line_no", "quantity", "unit_price", "vat_rate", "amount")


def _lead(lay: Layout) -> float:
    return lay.size * 1.35


def _words(lay: Layout) -> dict:
    return TERMS[lay.extra["lang"]]


def _label(lay: Layout, key: str) -> str:
    return term(lay, key) + lay.colon


def _pairs_height(pen: Pen, lay: Layout, pairs: list[tuple[str, str]], width: float) -> float:
    return sum(len(_value_lines(pen, lay, pairs, width, v)) for _, v in pairs) * _lead(lay)


def _label_w(pen: Pen, lay: Layout, pairs: list[tuple[str, str]]) -> float:
    return max(pen.width(_label(lay, k), True, lay.size * 0.95) for k, _ in pairs) + lay.size + lay.extra["code_w"]


def _value_lines(pen: Pen, lay: Layout, pairs, width: float, value: str) -> list[str]:
    return wrap(value, width - _label_w(pen, lay, pairs), pen)


def _draw_pairs(pen: Pen, lay: Layout, pairs: list[tuple[str, str]], x: float, y: float, width: float) -> None:
    """Label and value lines, the values in a column after the widest label; ``y`` is the top of the first line."""
    label_w, code_w = _label_w(pen, lay, pairs), lay.extra["code_w"]
    base = y + lay.size
    for key, value in pairs:
        if code_w and CODES.get(key):
            pen.text(x, base, CODES[key], size=lay.size * 0.75, color=GREY)
        pen.text(x + code_w, base, _label(lay, key), True, lay.size * 0.95, color=(0.2, 0.2, 0.2))
        for k, part in enumerate(_value_lines(pen, lay, pairs, width, value)):
            pen.text(x + label_w, base + k * _lead(lay), part)
        base += len(_value_lines(pen, lay, pairs, width, value)) * _lead(lay)


def _section_title(pen: Pen, lay: Layout, key: str, x: float, y: float, width: float, draw: bool = True) -> float:
    """A section's title over ``width``: a coloured band with white text, or bold text over a rule."""
    h = lay.size * 2.0
    if draw:
        text = term(lay, key) if lay.extra["codes"] != "side" else f"{term(lay, key)}  {CODES.get(key, '')}"
        if lay.extra["band"]:
            pen.box(x, y, width, h * 0.85, fill=lay.extra["accent"])
            pen.text(x + lay.size * 0.5, y + h * 0.6, text, True, lay.size * 1.05, color=(1, 1, 1))
        else:
            pen.text(x, y + h * 0.6, text, True, lay.size * 1.1, color=lay.extra["accent"])
            pen.line(x, y + h * 0.8, x + width, y + h * 0.8, 0.6, 0.5)
    return y + h


def _seller(lay: Layout) -> list[tuple[str, str]]:
    e = lay.extra
    return [("seller_name", lay.seller[0]), ("", lay.seller[1]), ("", lay.seller[2]),
            ("", f"{lay.seller[3]} ({e['country_code']})"), ("seller_vat", e["vat"]),
            ("seller_endpoint", e["endpoint"])]


def _buyer(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    e = lay.extra
    out = [("buyer_name", e["buyer"] if inv.customer else _words(lay)["private"])]
    if inv.customer is not None:
        out += [("buyer_id", inv.customer), ("", e["street"])]
    out.append(("", inv.country))
    if inv.country in COUNTRY_CODES:
        out.append(("buyer_country", COUNTRY_CODES[inv.country]))
    return out


def _details(inv: Invoice, lay: Layout) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    e, credit = lay.extra, inv.is_credit
    left = [("credit_number" if credit else "invoice_number", inv.number), ("issue_date", lay.date(inv.date)),
            ("type_code", "381" if credit else "380"), ("currency", lay.currency)]
    right = [("due_date", lay.date(later_date(lay, inv.date)))]
    if e["leitweg"]:
        right.append(("buyer_ref", f"04011000-{e['digits'][:5]}-{e['digits'][5:7]}"))
    right.append(("order_ref", e["order"]))
    if credit:
        right.append(("preceding", str(int(inv.number.lstrip("C")) - 7 - lay.seed % 40)))
    if e["delivery"]:
        right.append(("delivery_date", lay.date(inv.date - dt.timedelta(days=1))))
    return left, right


def _draw_party(pen: Pen, lay: Layout, pairs: list[tuple[str, str]], x: float, y: float, width: float) -> float:
    labelled = [(k, v) for k, v in pairs if k]
    label_w = _label_w(pen, lay, labelled)
    for key, value in pairs:
        lines = wrap(value, width - label_w, pen)
        if key:
            if lay.extra["code_w"]:
                pen.text(x, y + lay.size, CODES[key], size=lay.size * 0.75, color=GREY)
            pen.text(x + lay.extra["code_w"], y + lay.size, _label(lay, key), True, lay.size * 0.95,
                     color=(0.2, 0.2, 0.2))
        for part in lines:
            pen.text(x + label_w, y + lay.size, part, key in ("seller_name", "buyer_name"))
            y += _lead(lay)
    return y


def top(pen: Pen, inv: Invoice, lay: Layout, n: int, m: int) -> float:
    """Page 1's header down to the Invoice lines title, or a later page's running line; returns the y below."""
    e, left, right = lay.extra, lay.margin, lay.page[0] - lay.margin
    width, title = right - left, lay.credit_title if inv.is_credit else lay.title
    if n > 1:
        pen.text(left, lay.margin + lay.size * 1.2, lay.running.format(title=title, number=inv.number, n=n), True,
                 lay.size * 1.2)
        pen.text(right, lay.margin + lay.size * 1.2, lay.page_label.format(n=n, m=m), size=lay.size * 0.9,
                 align="right")
        y = lay.margin + lay.size * 2.4
        pen.line(left, y, right, y, 0.5, 0.6)
        return _section_title(pen, lay, "lines", left, y + lay.size * 0.6, width)
    big = lay.size * 2.3
    pen.text(left, lay.margin + big, title, True, big, color=e["accent"])
    pen.text(right, lay.margin + lay.size * 1.1, e["standard"], size=lay.size * 0.9, align="right", color=GREY)
    number = _label(lay, "credit_number" if inv.is_credit else "invoice_number")
    pen.text(right, lay.margin + lay.size * 2.5, f"{number} {inv.number}", True, align="right")
    y = lay.margin + big + lay.size * 1.2
    half = (width - lay.size * 2) / 2
    bottoms = []
    for x, key, pairs in ((left, "seller", _seller(lay)), (left + half + lay.size * 2, "buyer", _buyer(inv, lay))):
        yy = _section_title(pen, lay, key, x, y, half)
        bottoms.append(_draw_party(pen, lay, pairs, x, yy, half))
    y = _section_title(pen, lay, "details", left, max(bottoms) + lay.size * 0.8, width)
    lpairs, rpairs = _details(inv, lay)
    _draw_pairs(pen, lay, lpairs, left, y, half)
    _draw_pairs(pen, lay, rpairs, left + half + lay.size * 2, y, half)
    y += max(_pairs_height(pen, lay, lpairs, half), _pairs_height(pen, lay, rpairs, half)) + lay.size * 0.8
    return _section_title(pen, lay, "lines", left, y, width)


def bottom(lay: Layout) -> float:
    return lay.page[1] - lay.margin - lay.size * 3.2


def foot(pen: Pen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    left, right, y = lay.margin, lay.page[0] - lay.margin, lay.page[1] - lay.margin
    pen.line(left, y - lay.size * 1.4, right, y - lay.size * 1.4, 0.4, 0.6)
    pen.text(left, y, f"{_words(lay)['generated']} - {lay.extra['standard']}", size=lay.size * 0.8, color=GREY)
    pen.text(right, y, lay.page_label.format(n=n, m=m), size=lay.size * 0.9, align="right")
    if lay.continued and n < m:
        pen.text(lay.page[0] / 2, y - lay.size * 2.2, lay.continued.format(next=n + 1), size=lay.size * 0.85,
                 align="center")


def _cells(pen: Pen, lay: Layout, index: int, line) -> dict[str, list[str]]:
    e = lay.extra
    values = {"line_no": str(index + 1), "code": line.code, "quantity": qty_text(lay, line.quantity),
              "uom": e["unit"][0], "unit_price": lay.number(line.unit_price, e["price_places"]),
              "vat_rate": rate_text(lay, lay.tax_rate), "amount": lay.number(line.amount)}
    out = {}
    for col in lay.columns:
        room = col.width - lay.size * 0.9
        if col.key in ("description", "code"):
            out[col.key] = wrap((line.description or "") if col.key == "description" else line.code, room, pen)
        else:
            out[col.key] = [values[col.key]]
    return out


def _xs(lay: Layout) -> list[float]:
    xs = [lay.margin]
    for col in lay.columns:
        xs.append(xs[-1] + col.width)
    return xs


def _put(pen: Pen, lay: Layout, texts: dict[str, list[str]], y: float, bold: bool = False,
         color=(0, 0, 0)) -> None:
    for col, x0, x1 in zip(lay.columns, _xs(lay), _xs(lay)[1:]):
        for k, text in enumerate(texts[col.key]):
            ty = y + lay.size * 1.1 + k * _lead(lay)
            if col.key in NUMBERS:
                pen.text(x1 - lay.size * 0.45, ty, text, bold, align="right", color=color)
            else:
                pen.text(x0 + lay.size * 0.45, ty, text, bold, color=color)


def _heading(pen: Pen, lay: Layout) -> Piece:
    lines = {c.key: wrap(c.heading, c.width - lay.size * 0.9, pen) for c in lay.columns}
    h = max(map(len, lines.values())) * _lead(lay) + lay.size * 0.6

    def draw(p: Pen, y: float) -> None:
        xs = _xs(lay)
        if lay.extra["band"]:
            p.box(xs[0], y, xs[-1] - xs[0], h, fill=lay.extra["accent"])
        else:
            p.box(xs[0], y, xs[-1] - xs[0], h, fill=(0.9, 0.9, 0.9))
        _put(p, lay, lines, y, True, (1, 1, 1) if lay.extra["band"] else (0, 0, 0))
    return Piece(h, draw)


def _table_row(pen: Pen, lay: Layout, index: int, line) -> Piece:
    cells = _cells(pen, lay, index, line)
    h = max(map(len, cells.values())) * _lead(lay) + lay.size * 0.5

    def draw(p: Pen, y: float) -> None:
        xs = _xs(lay)
        if lay.zebra and index % 2:
            p.box(xs[0], y, xs[-1] - xs[0], h, fill=(0.95, 0.95, 0.95))
        _put(p, lay, cells, y)
        if lay.ruled:
            p.line(xs[0], y + h, xs[-1], y + h, 0.3, 0.7)
    return Piece(h, draw, Row(index, cells))


def _block(pen: Pen, lay: Layout, index: int, line) -> Piece:
    """One line as a block of labelled values."""
    e, left, right = lay.extra, lay.margin, lay.page[0] - lay.margin
    half = (right - left) / 2
    unit = f"{e['unit'][0]} ({e['unit'][1]})" if e["unit_name"] else e["unit"][0]
    quantity = f"{qty_text(lay, line.quantity)} {unit}"
    vat = f"S {rate_text(lay, lay.tax_rate)}"
    name = [("item_name", line.description or "")]
    rows = [([("item_id", line.code)], [("quantity", quantity)]),
            ([("net_price", lay.number(line.unit_price, e["price_places"]))],
             [("line_amount", lay.number(line.amount))])]
    lead = _lead(lay)
    h = lead * 1.3 + _pairs_height(pen, lay, name, right - left) + lead * len(rows) + lay.size * 0.8
    cells = {"code": [line.code], "description": _value_lines(pen, lay, name, right - left, name[0][1]),
             "quantity": [quantity], "unit_price": [rows[1][0][0][1]], "amount": [rows[1][1][0][1]]}

    def draw(p: Pen, y: float) -> None:
        if lay.zebra and index % 2:
            p.box(left, y, right - left, h - lay.size * 0.3, fill=(0.95, 0.95, 0.96))
        p.line(left, y, right, y, 0.5 if lay.ruled else 0.3, 0.55)
        head = f"{_label(lay, 'line_id')} {index + 1}"
        p.text(left + e["code_w"], y + lay.size * 1.3, head, True)
        if e["code_w"]:
            p.text(left, y + lay.size * 1.3, CODES["line_id"], size=lay.size * 0.75, color=GREY)
        p.text(right, y + lay.size * 1.3, f"{_label(lay, 'line_vat')} {vat}", size=lay.size * 0.9, align="right")
        yy = y + lead * 1.3
        _draw_pairs(p, lay, name, left, yy, right - left)
        yy += _pairs_height(p, lay, name, right - left)
        for one, two in rows:
            _draw_pairs(p, lay, one, left, yy, half)
            _draw_pairs(p, lay, two, left + half, yy, half)
            yy += lead
    return Piece(h, draw, Row(index, cells))


def _closing(pen: Pen, inv: Invoice, lay: Layout) -> Piece:
    """The VAT breakdown at the left and the document totals at the right."""
    e, left, right = lay.extra, lay.margin, lay.page[0] - lay.margin
    words, lead = _words(lay), _lead(lay)
    sub, tax, total = inv.subtotal, inv.tax(lay.tax_rate), inv.total(lay.tax_rate)
    totals = [("sum_lines", sub), ("without_vat", sub), ("vat_total", tax), ("with_vat", total)]
    if e["paid"]:
        totals.append(("paid", Decimal("0.00")))
    totals.append(("due", total))
    row = [f"S - {words['standard_rated']}", rate_text(lay, lay.tax_rate), lay.number(sub), lay.number(tax)]
    mid = left + (right - left) * 0.48
    col = (mid - left - lay.size) / 4
    heads = [wrap(term(lay, k), (col - lay.size * 0.5) / 0.85, pen)
             for k in ("category", "rate", "taxable", "tax_amount")]
    widest = max(pen.width(part, True, lay.size * 0.85) for head in heads for part in head)
    small = lay.size * 0.85 * min(1.0, (col - lay.size * 0.5) / widest)  # a long word's heading set smaller
    values = [wrap(v, col - lay.size * 0.5, pen) for v in row]
    depth = max(map(len, heads)) * small * 1.2
    h = lay.size * 2.0 + max(len(totals) * lead, depth + lead * (1.3 + max(map(len, values)))) + lay.size

    def draw(p: Pen, y: float) -> None:
        top_y = _section_title(p, lay, "breakdown", left, y, mid - left - lay.size)
        for k, (head, value) in enumerate(zip(heads, values)):
            x = left + k * col
            for j, part in enumerate(head):
                p.text(x, top_y + small * (1 + 1.2 * j), part, True, small)
            rule = top_y + depth + lay.size * 0.3
            p.line(x, rule, x + col - lay.size * 0.5, rule, 0.3, 0.6)
            for j, part in enumerate(value):
                p.text(x, top_y + depth + lead * (1.3 + j), part)
        ty = _section_title(p, lay, "totals", mid, y, right - mid)
        label_x = mid + (e["code_w"] and lay.size * 0.2)
        for key, value in totals:
            bold = key in ("with_vat", "due")
            if e["code_w"]:
                p.text(label_x, ty + lay.size, CODES[key], size=lay.size * 0.75, color=GREY)
            p.text(label_x + e["code_w"], ty + lay.size, _label(lay, key), bold)
            p.text(right, ty + lay.size, lay.number(value), bold, align="right")
            ty += lead
    return Piece(h, draw)


def _payment(pen: Pen, inv: Invoice, lay: Layout) -> Piece:
    e, left, right = lay.extra, lay.margin, lay.page[0] - lay.margin
    words = _words(lay)
    means = f"{e['means']} - {words['sepa'] if e['means'] == '58' else words['transfer']}"
    pairs = [("means", means), ("iban", e["iban"]), ("bic", e["bic"]),
             ("remittance", inv.number), ("terms", words["terms_text"].format(days=e["days"]))]
    h = lay.size * 2.6 + _pairs_height(pen, lay, pairs, right - left) + lay.size

    def draw(p: Pen, y: float) -> None:
        yy = _section_title(p, lay, "payment", left, y + lay.size * 0.6, right - left)
        _draw_pairs(p, lay, pairs, left, yy, right - left)
    return Piece(h, draw)


def pieces(pen: Pen, inv: Invoice, lay: Layout) -> tuple[list[Piece], Piece | None]:
    """The lines (blocks or rows, the table's first one under its heading) and what follows them."""
    table = lay.extra["variant"] == "table"
    make = _table_row if table else _block
    out = [make(pen, lay, k, line) for k, line in enumerate(inv.rows)]
    heading = _heading(pen, lay) if table else None
    if heading is not None:
        out.insert(0, heading)
    out += [Piece(lay.size, lambda p, y: None), _closing(pen, inv, lay), _payment(pen, inv, lay)]
    return out, heading
