"""held-m's word-processor invoices: an invoice typed by a small firm into a Word, LibreOffice Writer or Google
Docs template and saved as PDF.

The first page opens with the letterhead (the firm's name large, its address, phone and e-mail, a registration or
VAT number; left, centred or right, with a rule under it or not), the addressee block where a window envelope
shows it, and the invoice's fields typed as a tab-stop list (``Invoice No.:`` and a tab, the value at the stop)
or put in a small two-column table, beside the address or under it; a German letter puts its town and date above
the title. The title follows (plain, in capitals or letter-spaced, left, centred or right), a greeting and a
sentence in some, and the line table: a Word table with all borders, with horizontal rules only, or none at all
(text at tab stops), its heading row bold or on shaded cells, descriptions and long codes wrapping in their cells,
numbers right-aligned or left as typed. The totals are the table's last rows, a label merged across all columns
but the last, or lines at tab stops under it; then the no-tax note where no tax is charged, the payment terms
with the due date (or what a credit note says instead), the bank details, thanks, a sign-off and a signature.

Every page's footer carries the page label ("Page 1 of 2") and, in some templates, the invoice's number; where it
does not, later pages carry a header line naming the invoice. A table running on to a later page repeats its
heading row when the template's "repeat as header row" is set.
"""

from __future__ import annotations

import datetime as dt

from evaluation.invoice_held_m import code_hash, quantity, second_date
from evaluation.invoice_held_m_pen import MPen, MRow, address, doc_title, number_label
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import wrap

__all__ = ["bottom", "closing", "draw_row", "fields", "foot", "head", "rows", "top", "town"]

NUMERIC = ("quantity", "unit_price", "amount", "vat_rate", "line_no")
GREY = (0.35, 0.35, 0.35)


def _lead(lay: Layout) -> float:
    return lay.size * 1.3


def _xs(lay: Layout) -> list[float]:
    xs = [lay.margin]
    for c in lay.columns:
        xs.append(xs[-1] + c.width)
    return xs


def town(line: str) -> str:
    """The town of an address line, without its postcode.

    >>> [town(t) for t in ("37073 Göttingen", "Hebden Bridge HX7 8AD", "Asheville, NC 28801", "Mallow, Co. Cork")]
    ['Göttingen', 'Hebden Bridge', 'Asheville', 'Mallow']
    """
    if "," in line:
        return line.split(",")[0]
    words = line.split()
    if words[0][0].isdigit():
        return " ".join(words[1:])
    return " ".join(words[:-2]) if len(words) > 2 and any(ch.isdigit() for ch in words[-1]) else line


def fields(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    """The typed fields: number, date, customer (where the record has one), the customer's order reference (some
    firms), and the due date (in German the delivery date)."""
    lab, c, e = lay.labels, lay.colon, lay.extra
    out = [(number_label(inv, lay) + c, inv.number), (lab["invoice_date"] + c, lay.date(inv.date))]
    if inv.customer is not None:
        out.append((lab["customer_id"] + c, inv.customer))
    if e["order_ref"]:
        out.append((lab["order"] + c, e["order_ref"]))
    out.append((lab["due_date"] + c, lay.date(second_date(lay, inv.date))))
    return out


def _letterhead(pen: MPen, lay: Layout, y: float, draw: bool) -> float:
    e, lead = lay.extra, _lead(lay)
    left, right = lay.margin, lay.page[0] - lay.margin
    where = e["letterhead"]
    x, align = {"left": (left, "left"), "centred": ((left + right) / 2, "center"), "right": (right, "right")}[where]
    y += lay.size * 1.9
    if draw:
        pen.text(x, y, lay.seller[0], True, lay.size * 1.9, align)
    y += lead * 1.2
    contact = f"Tel. {e['phone']}  |  accounts@{e['domain']}"
    lines = [", ".join(lay.seller[1:-1]), contact, e["registry"][0]]
    for line in lines:
        if draw:
            pen.text(x, y, line, size=lay.size * 0.9, align=align, color=GREY)
        y += lead * 0.95
    if e["head_rule"] and draw:
        pen.line(left, y - lead * 0.3, right, y - lead * 0.3, 0.8)
    return y + lead * 1.2


def _tabs(pen: MPen, lay: Layout, pairs, x: float, y: float, draw: bool) -> float:
    stop = x + max(pen.width(label) for label, _ in pairs) + lay.size * 1.5
    stop = x + (int((stop - x) / 36.0) + 1) * 36.0  # Word's default tab stops, every half inch
    for k, (label, value) in enumerate(pairs):
        if draw:
            pen.text(x, y, label)
            pen.text(stop, y, value, bold=k == 0)  # the number typed in bold
        y += _lead(lay)
    return y


def _table2(pen: MPen, lay: Layout, pairs, x: float, y: float, draw: bool) -> float:
    """A small two-column table with all borders, the labels on shaded cells."""
    pad, lead = lay.size * 0.45, _lead(lay) + lay.size * 0.3
    w1 = max(pen.width(label, True) for label, _ in pairs) + 2 * pad
    w2 = max(pen.width(value) for _, value in pairs) + 2 * pad + lay.size
    for label, value in pairs:
        if draw:
            pen.box(x, y, w1, lead, fill=(lay.extra["shade"],) * 3)
            pen.rect(x, y, w1, lead)
            pen.rect(x + w1, y, w2, lead)
            pen.text(x + pad, y + lead - pad * 1.3, label, True)
            pen.text(x + w1 + pad, y + lead - pad * 1.3, value)
        y += lead
    return y


def top(pen: MPen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    """The page's top down to the table: letterhead, address, fields, title and greeting on page 1; on later pages
    a header line naming the invoice where the footer does not."""
    e, lead = lay.extra, _lead(lay)
    left, right = lay.margin, lay.page[0] - lay.margin
    lang = e["lang"]
    if n > 1:
        if e["footer_ref"]:
            return lay.margin
        doc = ("Invoice", "Credit note") if lang == "en" else ("Rechnung", "Gutschrift") if lang == "de" else \
            ("Facture", "Avoir")
        text = lay.running.format(doc=doc[inv.is_credit], number=inv.number, n=n)
        if draw:
            pen.text(right, lay.margin * 0.6, text, size=lay.size * 0.85, align="right", color=GREY)
        return lay.margin
    y = _letterhead(pen, lay, lay.margin * 0.6, draw)
    block = address(inv, lay, business=True)
    pairs = fields(inv, lay)
    ya = y
    for k, line in enumerate(block):
        if draw:
            pen.text(left, ya, line, k == 0)
        ya += lead
    meta = _tabs if e["meta"] == "tabs" else _table2
    if e["meta_side"] == "right":
        x = left + (right - left) * 0.55
        yb = meta(pen, lay, pairs, x, y - (lead * 0.8 if e["meta"] == "table" else 0), draw)
        y = max(ya, yb)
    else:
        y = meta(pen, lay, pairs, left, ya + lead, draw)
    y += lead
    if e["dateline"]:
        place = town(lay.seller[-2])
        joint = ", le " if lang == "fr" else ", "
        if draw:
            pen.text(right, y, f"{place}{joint}{lay.date(inv.date)}", align="right")
        y += lead
    title = doc_title(inv, lay)
    big = lay.size * (1.5 if "  " in title or title.count(" ") > 3 else 1.9)
    y += big
    if draw:
        x = {"left": left, "center": (left + right) / 2, "right": right}[e["title_align"]]
        pen.text(x, y, title, True, big, e["title_align"])
    y += lead * 1.4
    text = e["text"]
    if e["greeting"]:
        intro = text["credit_intro"] if inv.is_credit else text["intro"]
        for part in [text["greeting"], ""] + wrap(intro, right - left, pen):
            if draw and part:
                pen.text(left, y, part)
            y += lead if part else lead * 0.4
        y += lead * 0.4
    return y


def _cell_x(lay: Layout, key: str, x0: float, x1: float, pad: float) -> tuple[float, str]:
    if key in NUMERIC and lay.extra["align"] == "right":
        return x1 - pad, "right"
    return x0 + pad, "left"


def _borders(pen: MPen, lay: Layout, xs: list[float], y: float, h: float, spans=None) -> None:
    """A row's borders: every cell's box (``all``), a rule under it (``horizontal``) or none."""
    style = lay.extra["borders"]
    if style == "all":
        edges = spans or list(zip(xs, xs[1:]))
        for x0, x1 in edges:
            pen.rect(x0, y, x1 - x0, h, 0.5)
    elif style == "horizontal":
        pen.line(xs[0], y + h, xs[-1], y + h, 0.5, 0.3)


def head(pen: MPen, lay: Layout, y: float, draw: bool) -> float:
    """The heading row: bold, on shaded cells where the template shades them."""
    xs, pad = _xs(lay), lay.size * 0.45
    lines = [wrap(c.heading, c.width - 2 * pad, pen) for c in lay.columns]
    h = max(map(len, lines)) * lay.size * 1.2 + pad * 2 + lay.size * 0.2
    if not draw:
        return y + h
    if lay.extra["head"] == "shaded":
        pen.box(xs[0], y, xs[-1] - xs[0], h, fill=(lay.extra["shade"],) * 3)
    if lay.extra["borders"] == "horizontal":
        pen.line(xs[0], y, xs[-1], y, 0.8, 0.0)
    _borders(pen, lay, xs, y, h)
    for col, x0, x1, text in zip(lay.columns, xs, xs[1:], lines):
        x, align = _cell_x(lay, col.key, x0, x1, pad)
        for k, t in enumerate(text):
            pen.text(x, y + pad + lay.size * 0.95 + k * lay.size * 1.2, t, True, align=align)
    return y + h


def rows(pen: MPen, inv: Invoice, lay: Layout) -> list[MRow]:
    """Every item row with its cells (codes and descriptions wrapped in their cells) and its height."""
    out, pad = [], lay.size * 0.45
    for k, line in enumerate(inv.rows):
        cells = {}
        for col in lay.columns:
            room = col.width - 2 * pad
            cells[col.key] = {
                "line_no": lambda: [str(k + 1)], "code": lambda: wrap(line.code, room, pen),
                "description": lambda: wrap(line.description or "", room, pen),
                "quantity": lambda: [quantity(line.quantity)], "vat_rate": lambda: [lay.extra["rate_text"]],
                "unit_price": lambda: [lay.money(line.unit_price, lines=True)],
                "amount": lambda: [lay.money(line.amount, lines=True)]}[col.key]()
        h = max(len(v) for v in cells.values()) * lay.size * 1.2 + pad * 2 + lay.size * 0.2
        out.append(MRow(k, cells, h))
    return out


def draw_row(pen: MPen, lay: Layout, row: MRow, y: float, k: int) -> float:
    xs, pad = _xs(lay), lay.size * 0.45
    _borders(pen, lay, xs, y, row.height)
    for col, x0, x1 in zip(lay.columns, xs, xs[1:]):
        x, align = _cell_x(lay, col.key, x0, x1, pad)
        for j, text in enumerate(row.cells[col.key]):
            pen.text(x, y + pad + lay.size * 0.95 + j * lay.size * 1.2, text, align=align)
    return y + row.height


def _totals(inv: Invoice, lay: Layout) -> list[tuple[str, str, bool]]:
    lab, c = lay.labels, lay.colon
    out = [(lab["subtotal"] + c, lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        out.append((lab["tax"] + c, lay.money(inv.tax(lay.tax_rate)), False))
    return out + [(lab["total"] + c, lay.money(inv.total(lay.tax_rate)), True)]


def _signature(pen: MPen, lay: Layout, x: float, y: float) -> None:
    h = code_hash("sign", lay.seed)
    pen.c.setLineWidth(0.9)
    pen.c.setStrokeColorRGB(0.05, 0.1, 0.35)
    p = pen.c.beginPath()
    p.moveTo(x + 4, pen.h - y)
    p.curveTo(x + 14, pen.h - y + 16 + h % 7, x + 24, pen.h - y - 8, x + 40, pen.h - y + 6)
    p.curveTo(x + 52, pen.h - y + 14, x + 60 + h % 11, pen.h - y - 6, x + 88, pen.h - y + 3)
    pen.c.drawPath(p, stroke=1, fill=0)


def closing(pen: MPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    """The totals (merged rows of the table or lines at tab stops), the notes, terms, bank details and signature."""
    e, lead, xs, pad = lay.extra, _lead(lay), _xs(lay), lay.size * 0.45
    left, right = lay.margin, lay.page[0] - lay.margin
    totals = _totals(inv, lay)
    if e["totals"] == "merged":
        for label, value, bold in totals:
            h = lay.size * 1.2 + pad * 2 + lay.size * 0.2
            if draw:
                if bold and e["head"] == "shaded":
                    pen.box(xs[0], y, xs[-1] - xs[0], h, fill=(e["shade"],) * 3)
                _borders(pen, lay, xs, y, h, [(xs[0], xs[-2]), (xs[-2], xs[-1])])
                pen.text(xs[-2] - pad, y + pad + lay.size * 0.95, label, bold, align="right")
                x, align = _cell_x(lay, "amount", xs[-2], xs[-1], pad)
                pen.text(x, y + pad + lay.size * 0.95, value, bold, align=align)
            y += h
        y += lead
    else:
        y += lead * 1.2
        stop = xs[-1] - max(pen.width(v, True) for _, v, _ in totals) - max(pen.width(t, True) for t, _, _ in totals) \
            - lay.size * 3
        for label, value, bold in totals:
            y += lead * 0.3 if bold else 0
            if draw:
                if bold:
                    pen.line(stop, y - lead * 0.85, xs[-1], y - lead * 0.85, 0.6)
                pen.text(stop, y, label, bold)
                pen.text(xs[-1] - pad, y, value, bold, align="right")
            y += lead * (1.2 if bold else 1)
        y += lead * 0.6
    text = e["text"]
    due = lay.date(inv.date + dt.timedelta(days=e["pay_days"]))
    terms = text["credit_terms"] if inv.is_credit else text["terms"].format(days=e["pay_days"], due=due)
    notes = [e["no_tax_note"], lay.currency_note if e["code_note"] else "", terms]
    if not inv.is_credit:
        notes.append(e["bank"])
    notes += ["", text["thanks"], "", text["sign"]]
    for note in notes:
        for part in wrap(note, right - left, pen) if note else []:
            if draw:
                pen.text(left, y, part)
            y += lead
        if not note:
            y += lead * 0.5
    if draw:
        _signature(pen, lay, left, y + lead * 1.4)
        pen.line(left, y + lead * 2, left + 150, y + lead * 2, 0.4, 0.4)
        pen.text(left, y + lead * 3, e["firm"][1])
        pen.text(left, y + lead * 4, lay.seller[0], size=lay.size * 0.9, color=GREY)
    return y + lead * 4.6


def bottom(lay: Layout) -> float:
    return lay.page[1] - lay.margin


def foot(pen: MPen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    """The footer: the page label (centred or right), the invoice's number where the template types it, and a
    German firm's register line."""
    e = lay.extra
    y = lay.page[1] - lay.margin * 0.5
    page = lay.page_label.format(n=n, m=m)
    left, right = lay.margin, lay.page[0] - lay.margin
    if e["footer_ref"]:
        pen.text(left, y, f"{number_label(inv, lay)} {inv.number}", size=lay.size * 0.85)
        pen.text(right, y, page, size=lay.size * 0.85, align="right")
    else:
        pen.text((left + right) / 2, y, page, size=lay.size * 0.85, align="center")
    if e["lang"] == "de" or e["registry"][1].startswith("SARL"):
        pen.text((left + right) / 2, y - lay.size * 1.3, f"{lay.seller[0]}  ·  {e['registry'][1]}",
                 size=lay.size * 0.75, align="center", color=GREY)
