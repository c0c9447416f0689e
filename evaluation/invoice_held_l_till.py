"""held-l's till invoices: the full VAT receipt of a point-of-sale till, as its thermal printer lays it out on 80 mm
roll paper (``roll``) or as the till's PDF export centres it on an A4 page (``a4``).

Everything is a line of the receipt's width: the shop's name, address, telephone and VAT number centred, a
separator typed as characters, the title, the receipt's number, date and time, till and cashier, the customer's
number, name and country (or the cash-sale line and the country), another separator, then two lines or more an
item: its description (wrapped at spaces where the roll is too narrow) and below it the code, ``qty x price`` and
the amount right-aligned with its VAT letter, or the code before the description and the quantity line under it.
Then the net subtotal, the VAT at its rate, the total (in double height on some tills), the payment (cash tendered
and change, a card, or the cash refunded on a credit note), the VAT summary by letter (rate, net, VAT, gross), the
return-by date, the German till's TSE lines and the thanks. A receipt longer than its page goes on over the next
one, under a running line naming it, each page numbered at its foot.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

from evaluation.invoice_held_l import Piece, later_date, qty_text, rate_text
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["bottom", "foot", "pieces", "tendered", "top"]

Seg = tuple[str, str, bool, float]  # (align: left | right | centre, text, bold, scale)


def _lead(lay: Layout) -> float:
    return lay.size * 1.25


def _edges(lay: Layout) -> tuple[float, float]:
    return lay.margin, lay.page[0] - lay.margin


def _sep(pen: Pen, lay: Layout, char: str | None = None) -> list[Seg]:
    left, right = _edges(lay)
    char = char or lay.extra["sep"]
    return [("left", char * int((right - left) / pen.width(char)), False, 1.0)]


def _draw(pen: Pen, lay: Layout, lines: list[list[Seg]], y: float) -> None:
    left, right = _edges(lay)
    for segs in lines:
        tall = max((s[3] for s in segs), default=1.0)
        y += _lead(lay) * tall
        for align, text, bold, scale in segs:
            size = lay.size * scale
            if align == "right":
                pen.text(right, y - lay.size * 0.3, text, bold, size, "right")
            elif align == "centre":
                pen.text((left + right) / 2, y - lay.size * 0.3, text, bold, size, "center")
            else:
                pen.text(left, y - lay.size * 0.3, text, bold, size)


def _height(lay: Layout, lines: list[list[Seg]]) -> float:
    return sum(_lead(lay) * max((s[3] for s in segs), default=1.0) for segs in lines)


def _piece(lay: Layout, lines: list[list[Seg]], row: Row | None = None) -> Piece:
    return Piece(_height(lay, lines), lambda p, y: _draw(p, lay, lines, y), row)


def _pair(pen: Pen, lay: Layout, label: str, value: str, bold: bool = False, scale: float = 1.0) -> list[list[Seg]]:
    """``label`` at the left and ``value`` at the right, or on two lines where they would touch."""
    left, right = _edges(lay)
    gap = pen.width("  ", bold, lay.size * scale)
    if pen.width(label, bold, lay.size * scale) + pen.width(value, bold, lay.size * scale) + gap <= right - left:
        return [[("left", label, bold, scale), ("right", value, bold, scale)]]
    return [[("left", label, bold, scale)], [("right", value, bold, scale)]]


def _centred(pen: Pen, lay: Layout, text: str, bold: bool = False, scale: float = 1.0) -> list[list[Seg]]:
    left, right = _edges(lay)
    return [[("centre", part, bold, scale)] for part in wrap(text, (right - left) / scale * 0.92, pen)]


def _label(lay: Layout, key: str) -> str:
    return lay.labels[key] + lay.colon


def top(pen: Pen, inv: Invoice, lay: Layout, n: int, m: int) -> float:
    """The receipt's head on page 1 (shop, title, numbers, customer), a running line on later pages; returns the
    y below."""
    e, title = lay.extra, lay.credit_title if inv.is_credit else lay.title
    y = e["top"]
    if n > 1:
        lines = _centred(pen, lay, lay.running.format(title=title, number=inv.number, n=n), True) + [_sep(pen, lay)]
        _draw(pen, lay, lines, y)
        return y + _height(lay, lines)
    lines = _centred(pen, lay, lay.seller[0], True, 1.15)
    for text in (*lay.seller[1:3], e["phone"], f"{e['vat_label']} {e['vat']}".strip()):
        lines += _centred(pen, lay, text)
    lines += [_sep(pen, lay, "=" if e["sep"] == "-" else e["sep"])]
    lines += _centred(pen, lay, title, True, 1.4 if e["double_total"] else 1.15)
    lines += [_sep(pen, lay, "=" if e["sep"] == "-" else e["sep"])]
    number = _label(lay, "credit_number" if inv.is_credit else "number")
    hour, minute = e["clock"]
    lines += _pair(pen, lay, number, inv.number, True)
    lines += _pair(pen, lay, f"{_label(lay, 'date')} {lay.date(inv.date)}", f"{_label(lay, 'time')} "
                   f"{hour:02d}:{minute:02d}")
    lines += _pair(pen, lay, f"{_label(lay, 'till')} {e['till']}", f"{_label(lay, 'cashier')} {e['cashier']}")
    if inv.customer is not None:
        lines += _pair(pen, lay, _label(lay, "customer_id"), inv.customer)
        lines += [[("left", f"{_label(lay, 'customer')} {e['buyer']}", False, 1.0)]]
    else:
        lines += [[("left", f"{_label(lay, 'customer')} {e['cash_sale']}", False, 1.0)]]
    lines += _pair(pen, lay, _label(lay, "country"), inv.country)
    lines += [_sep(pen, lay)]
    _draw(pen, lay, lines, y)
    return y + _height(lay, lines)


def bottom(lay: Layout) -> float:
    return lay.page[1] - lay.extra["top"] - _lead(lay) * 3


def foot(pen: Pen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    left, right = _edges(lay)
    y = lay.page[1] - lay.extra["top"]
    pen.text((left + right) / 2, y, lay.page_label.format(n=n, m=m), size=lay.size * 0.9, align="center")
    if lay.continued and n < m:
        pen.text((left + right) / 2, y - _lead(lay) * 1.2, lay.continued.format(next=n + 1), size=lay.size * 0.9,
                 align="center")


def _item(pen: Pen, lay: Layout, index: int, line) -> Piece:
    e = lay.extra
    left, right = _edges(lay)
    unit = f" {e['unit_word']}" if e["unit_word"] else ""
    count = f"{qty_text(lay, line.quantity)}{unit} x {lay.number(line.unit_price)}"
    amount = f"{lay.number(line.amount)} {e['letter']}"
    text = line.description or ""
    if e["item_style"] == "code_desc":
        first = wrap(f"{line.code} {text}".strip(), right - left, pen)
        under = f"    {count}"
    else:
        first = wrap(text, right - left, pen) if text else []
        under = f"{line.code}  {count}"
    lines = [[("left", part, False, 1.0)] for part in first] + _pair(pen, lay, under, amount)
    cells = {"code": [line.code], "description": first, "quantity": [qty_text(lay, line.quantity)],
             "unit_price": [lay.number(line.unit_price)], "amount": [lay.number(line.amount)]}
    return _piece(lay, lines, Row(index, cells))


def tendered(total: Decimal, seed: int) -> Decimal:
    """The cash handed over for ``total``: the next round sum of 5, 10, 20 or 50 above it (the layout's).

    >>> tendered(Decimal("146.91"), 0), tendered(Decimal("20.00"), 1)
    (Decimal('150'), Decimal('20'))
    """
    step = (Decimal(5), Decimal(10), Decimal(20), Decimal(50))[seed % 4]
    return (total / step).to_integral_value(ROUND_CEILING) * step


def _money(lay: Layout, value: Decimal) -> str:
    symbol = lay.extra["symbol"]
    return f"{symbol} {lay.number(value)}" if symbol and symbol != "kr" else \
        f"{lay.number(value)} kr" if symbol else lay.number(value)


def _closing(pen: Pen, inv: Invoice, lay: Layout) -> list[Piece]:
    e, words = lay.extra, lay.labels
    sub, tax, total = inv.subtotal, inv.tax(lay.tax_rate), inv.total(lay.tax_rate)
    out = [_sep(pen, lay)]
    if e["show_count"]:
        out += _pair(pen, lay, _label(lay, "items"), str(len(inv.rows)))
    out += _pair(pen, lay, _label(lay, "subtotal"), lay.number(sub))
    out += _pair(pen, lay, _label(lay, "tax"), lay.number(tax))
    out += [_sep(pen, lay, "=")]
    out += _pair(pen, lay, words["total"], _money(lay, total), True, 1.35 if e["double_total"] else 1.0)
    out += [_sep(pen, lay, "=")]
    pieces = [_piece(lay, out)]
    pay: list[list[Seg]] = []
    if inv.is_credit:
        pay += _pair(pen, lay, _label(lay, "refund"), lay.number(-total))
    elif e["pay"] == "card":
        pay += _pair(pen, lay, _label(lay, "card"), lay.number(total))
    else:
        cash = tendered(total, lay.seed)
        pay += _pair(pen, lay, _label(lay, "cash"), lay.number(cash))
        pay += _pair(pen, lay, _label(lay, "change"), lay.number(cash - total))
    pieces.append(_piece(lay, pay + [[]]))
    heads = e["vat_head"]
    left, right = _edges(lay)
    width = right - left
    stops = (width * 0.52, width * 0.74, width)
    rate = f"{e['letter']} {rate_text(lay, lay.tax_rate)}"
    table = [[("left", heads[0], True, 1.0)], [("left", rate, False, 1.0)]]
    pieces.append(Piece(_height(lay, table) + _lead(lay) * 0.4,
                        lambda p, y: _vat_table(p, lay, y, heads, rate, (sub, tax, total), stops)))
    tail = [[]] + _centred(pen, lay, f"{_label(lay, 'return_by')} {lay.date(later_date(lay, inv.date))}")
    if e["tse"]:
        hour, minute = e["clock"]
        stamp = f"{inv.date.isoformat()}T{hour:02d}:{minute:02d}"
        tail += [[("left", f"TSE-Transaktion: {e['digits'][:6]}", False, 0.85)],
                 [("left", f"TSE-Start: {stamp}:04", False, 0.85)], [("left", f"TSE-Ende: {stamp}:31", False, 0.85)]]
    tail += [[]] + _centred(pen, lay, e["thanks"], True)
    pieces.append(_piece(lay, tail))
    return pieces


def _vat_table(pen: Pen, lay: Layout, y: float, heads, rate: str, values, stops) -> None:
    left, _ = _edges(lay)
    lead = _lead(lay)
    pen.text(left, y + lead - lay.size * 0.3, heads[0], True)
    pen.text(left, y + lead * 2 - lay.size * 0.3, rate)
    for head, value, stop in zip(heads[1:], values, stops):
        pen.text(left + stop, y + lead - lay.size * 0.3, head, True, align="right")
        pen.text(left + stop, y + lead * 2 - lay.size * 0.3, lay.number(value), align="right")


def pieces(pen: Pen, inv: Invoice, lay: Layout) -> tuple[list[Piece], Piece | None]:
    """Each item's lines, then the totals, payment, VAT summary and the receipt's foot; a till prints no heading
    row."""
    items = [_item(pen, lay, k, line) for k, line in enumerate(inv.rows)]
    return items + _closing(pen, inv, lay), None
