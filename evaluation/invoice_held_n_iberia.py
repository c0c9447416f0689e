"""held-n's Spanish and Portuguese forms: the page's top, the totals and the foot (the table is
:mod:`evaluation.invoice_held_n_draw`'s).

- Spain ``classic``: the seller's letterhead beside the customer's box, the title, a row of boxed cells (number,
  date, customer, tax number, page) repeated on every page, and the band of totals at the foot of every page:
  gross amount, prompt-payment discount, tax base, VAT rate and amount, equivalence surcharge, invoice total,
  then payment method, due date and IBAN, the amount in words; "Suma y sigue" with the carried sum, or a
  "continued" phrase, on every band but the last. The company register's entry runs up the left margin or along
  the foot, under the data-protection notice.
- Spain ``modern``: the seller's name in colour, the title and a list of fields at the right, the customer block,
  and after the last row the totals stacked at the right beside the payment details.
- Portugal ``boxed`` and ``clean``: the seller, the copy's name (Original) and the customer's block, the
  document's title with its series and number, its ATCUD, a row of cells (boxed) or a list of fields (clean); the
  VAT summary beside the totals, payment details, a QR code in some, and at the foot the program's certificate
  line, the register and the page label.
"""

from __future__ import annotations

from decimal import Decimal

from evaluation.invoice_held_n_facts import (atcud, customer, doc_hash, doc_number, due_date, original, qr_payload,
                                             series, words)
from evaluation.invoice_held_n_firms import TEXTS
from evaluation.invoice_held_n_pen import (GREY, NPen, cells, colon, doc_title, kv_list, lines_block, number_label,
                                           paragraph, qr, running_top, stack, table, up_text)
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import Invoice

__all__ = ["band", "band_height", "closing", "foot", "foot_height", "top"]

ZERO = Decimal("0.00")


def _texts(lay: Layout) -> dict:
    return TEXTS[(lay.extra["country"], lay.extra["lang"])]


def _pick(lay: Layout, key: str) -> str:
    options = _texts(lay)[key]
    return options[lay.seed % len(options)]


def _seller_lines(lay: Layout) -> list[str]:
    s, lab = lay.extra["seller"], lay.labels
    return [*s["lines"], f"{lab['seller_tax']}: {s['tax']}", f"{lab['phone']} {s['phone']}", s["email"]]


def _customer_lines(inv: Invoice, lay: Layout, with_vat: bool) -> list[str]:
    cust = customer(inv, lay)
    lines = [cust["name"], *cust["lines"], cust["country"]]
    if with_vat and cust["vat"]:
        lines.append(f"{lay.labels['buyer_tax']}: {cust['vat']}")
    return lines


def _credit_lines(inv: Invoice, lay: Layout) -> list[str]:
    """A credit note's reference to the invoice it corrects, and why."""
    if not inv.is_credit:
        return []
    number, date = original(inv, lay)
    if lay.extra["country"] == "PT":
        number = doc_number(inv, lay, number).replace(series(inv, lay), series(inv, lay, credit=False))
    ref = _pick(lay, "ref").format(label=lay.labels["ref_invoice"], number=number, date=lay.date(date))
    return [ref, f"{lay.labels['reason']}: {_pick(lay, 'reason')}"]


def _letterhead(pen: NPen, lay: Layout, x: float, y: float, align: str, draw: bool, colour=(0, 0, 0)) -> float:
    """The seller's name (in at most half the page's width) over its address, tax number, phone and e-mail."""
    big = pen.fit(lay.extra["seller"]["name"], True, lay.size * 1.5, (pen.right - pen.left) * 0.5)
    y += lay.size * 1.5
    if draw:
        pen.text(x, y, lay.extra["seller"]["name"], True, big, align, colour)
    y += pen.lead * 1.1
    for line in _seller_lines(lay):
        if draw:
            pen.text(x, y, line, size=lay.size * 0.9, align=align, color=GREY)
        y += lay.size * 1.2
    return y


# ----------------------------------------------------------------------------------------------------------------
# Spain
# ----------------------------------------------------------------------------------------------------------------
def _es_fields(inv: Invoice, lay: Layout, n: int, m: int) -> list[tuple[str, str]]:
    lab = lay.labels
    cust = customer(inv, lay)
    pairs = [(number_label(inv, lay), inv.number), (lab["invoice_date"], lay.date(inv.date))]
    if cust["id"] is not None:
        pairs.append((lab["customer_id"], cust["id"]))
    if cust["vat"]:
        pairs.append((lab["buyer_tax"], cust["vat"]))
    if lay.extra["kind"] == "classic":
        pairs.append((lab["page"], lay.page_label.format(n=n, m=m)))
    elif lay.extra["order_ref"]:
        pairs.append((lab["order"], f"PED-{lay.extra['digits']['d5'][:4]}"))
    if lay.extra["kind"] == "modern" and not inv.is_credit:
        pairs.append((lab["due_date"], lay.date(due_date(inv, lay))))
    return pairs


def _es_classic_top(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, draw: bool) -> float:
    e, left, right = lay.extra, pen.left, pen.right
    box_w = (right - left) * 0.44
    if e["seller_side"] == "left":
        ys = _letterhead(pen, lay, left, lay.margin, "left", draw)
        yc = lines_block(pen, right - box_w, lay.margin, box_w, lay.labels["customer_block"],
                         _customer_lines(inv, lay, False), draw, boxed=True)
    else:
        ys = _letterhead(pen, lay, right, lay.margin, "right", draw)
        yc = lines_block(pen, left, lay.margin, box_w, lay.labels["customer_block"],
                         _customer_lines(inv, lay, False), draw, boxed=True)
    y = max(ys, yc) + lay.size * 0.8
    big = lay.size * 2.0
    if draw:
        pen.text(left, y + big, doc_title(inv, lay), True, big)
    y += big + lay.size
    y = cells(pen, left, y, right - left, _es_fields(inv, lay, n, m), draw, shade=e["head_fill"] is not None)
    y += lay.size * 0.6
    for line in _credit_lines(inv, lay):
        y += pen.lead
        if draw:
            pen.text(left, y, line)
    return y + lay.size * 0.8


def _es_modern_top(pen: NPen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    e, left, right = lay.extra, pen.left, pen.right
    if n > 1:
        return running_top(pen, inv, lay, n, draw)
    ys = _letterhead(pen, lay, left, lay.margin, "left", draw, e["accent"])
    big = lay.size * 2.3
    if draw:
        size = pen.fit(doc_title(inv, lay), True, big, (right - left) * 0.46)
        pen.text(right, lay.margin + big, doc_title(inv, lay), True, size, "right", e["accent"])
    pairs = [(label + lay.colon, value) for label, value in _es_fields(inv, lay, n, 1)]
    width = max(pen.width(a, True) for a, _ in pairs) + max(pen.width(b) for _, b in pairs) + lay.size * 2
    yf = kv_list(pen, right - width, lay.margin + big + pen.lead * 1.4, pairs, draw, align_right=right)
    y = max(ys, yf) + lay.size * 0.5
    y = lines_block(pen, left, y, (right - left) * 0.5, lay.labels["customer_block"],
                    _customer_lines(inv, lay, False), draw, heading_style="bold")
    for line in _credit_lines(inv, lay):
        if draw:
            pen.text(left, y, line)
        y += pen.lead
    return y + lay.size * 0.5


def _es_total_cells(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    lab, rate = lay.labels, lay.tax_rate
    pairs = [(lab["gross_total"], lay.money(inv.subtotal)), (lab["discount_total"], lay.money(ZERO)),
             (lab["subtotal"], lay.money(inv.subtotal))]
    if rate is not None:
        pairs += [(lab["rate_label"], lay.rate_cell()), (lab["tax"], lay.money(inv.tax(rate))),
                  (lab["re_rate"], ""), (lab["re_amount"], lay.money(ZERO))]
    return pairs + [(lab["total"], lay.money(inv.total(rate)))]


def _payment_pairs(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    lab, e = lay.labels, lay.extra
    pairs = [(lab["payment"], e["terms"][0])]
    if not inv.is_credit:
        due = lay.date(due_date(inv, lay))
        if e["kind"] == "classic":
            due = f"{due}  {lay.money(inv.total(lay.tax_rate))}"
        pairs.append((lab["due_date"], due))
    bank = e["seller"]["nib"] if lab["bank"] == "NIB" else e["seller"]["iban"]
    pairs.append((lab["bank"], bank if lab["bank"] in ("IBAN", "NIB") else f"{e['seller']['bank']} {bank}"))
    return pairs


def _notes(inv: Invoice, lay: Layout) -> list[str]:
    e, out = lay.extra, []
    if e["words"]:
        out.append(f"{lay.labels['words']}: {words(inv, lay)}")
    if e["exempt"] and e["country"] == "ES":
        out.append(_pick(lay, "exempt"))
    return out


def _es_band(pen: NPen, inv: Invoice, lay: Layout, y: float, n: int, m: int, carried: Decimal,
             draw: bool) -> float:
    left, right = pen.left, pen.right
    if n < m:
        h = lay.size * 2.6
        if draw:
            pen.rect(left, y, right - left, h, 0.7)
            if lay.extra["carry"]:
                pen.text(right - lay.size, y + lay.size * 1.6, f"{lay.continued}: {lay.money(carried)}", True,
                         align="right")
            elif lay.continued:
                pen.text(right - lay.size, y + lay.size * 1.6, lay.continued, align="right")
        return y + h
    y = cells(pen, left, y, right - left, _es_total_cells(inv, lay), draw, shade=lay.extra["head_fill"] is not None)
    y = cells(pen, left, y + lay.size * 0.4, right - left, _payment_pairs(inv, lay), draw, shade=False)
    y += pen.lead
    for note in _notes(inv, lay):
        y = paragraph(pen, left, y, note, right - left, draw)
    return y


def _es_modern_closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    left, right = pen.left, pen.right
    y += pen.lead * 1.6
    rows = [(colon(lay, "subtotal"), lay.money(inv.subtotal), False)]
    if lay.tax_rate is not None:
        rows.append((colon(lay, "tax"), lay.money(inv.tax(lay.tax_rate)), False))
    rows.append((colon(lay, "total"), lay.money(inv.total(lay.tax_rate)), True))
    ys = stack(pen, right, y, rows, draw, shade_total=lay.extra["head_fill"] == "grey")
    half = (right - left) * 0.5
    pairs = [(label + lay.colon, value) for label, value in _payment_pairs(inv, lay)]
    yp = y
    for label, value in pairs:
        if draw:
            pen.text(left, yp, label, True)
        yp = paragraph(pen, left + pen.width(label + " ", True), yp, value, half - pen.width(label + " ", True),
                       draw)
    y = max(ys, yp) + lay.size * 0.5
    for note in _notes(inv, lay):
        y = paragraph(pen, left, y, note, right - left, draw)
    return y


# ----------------------------------------------------------------------------------------------------------------
# Portugal
# ----------------------------------------------------------------------------------------------------------------
def _pt_fields(inv: Invoice, lay: Layout) -> list[tuple[str, str]]:
    lab, e = lay.labels, lay.extra
    cust = customer(inv, lay)
    pairs = [(lab["buyer_tax"], cust["vat"] or "—")]
    if cust["id"] is not None:
        pairs.append((lab["customer_id"], cust["id"]))
    if e["doc_number"] == "split":
        pairs += [(lab["series"], series(inv, lay)), (number_label(inv, lay), inv.number)]
    pairs.append((lab["invoice_date"], lay.date(inv.date)))
    if not inv.is_credit:
        pairs.append((lab["due_date"], lay.date(due_date(inv, lay))))
    pairs.append((lab["currency"], lay.currency))
    if e["order_ref"] and e["kind"] == "boxed":
        pairs.append((lab["order"], f"REQ {e['digits']['d4b']}"))
    return pairs


def _pt_title(pen: NPen, inv: Invoice, lay: Layout, x: float, y: float, align: str, draw: bool) -> float:
    e, big = lay.extra, lay.size * 1.7
    title = doc_title(inv, lay)
    if e["doc_number"] == "series":
        title = f"{title} {doc_number(inv, lay)}"
    size = pen.fit(title, True, big, (pen.right - pen.left) * 0.46)
    if draw:
        pen.text(x, y + big, title, True, size, align, e["accent"] if e["kind"] == "clean" else (0, 0, 0))
    y += big + pen.lead
    if draw:
        pen.text(x, y, f"{lay.labels['atcud']}: {atcud(inv, lay)}", size=lay.size * 0.9, align=align)
    return y + pen.lead * 0.6


def _pt_top(pen: NPen, inv: Invoice, lay: Layout, n: int, draw: bool) -> float:
    e, left, right = lay.extra, pen.left, pen.right
    if n > 1:
        return running_top(pen, inv, lay, n, draw)
    box_w = (right - left) * 0.45
    ys = _letterhead(pen, lay, left, lay.margin, "left", draw)
    yc = lay.margin
    if e["copy"]:
        if draw:
            pen.text(right, yc + lay.size, lay.labels["copy"], True, align="right")
        yc += pen.lead
    if e["kind"] == "boxed":
        yc = lines_block(pen, right - box_w, yc, box_w, lay.labels["customer_block"],
                         _customer_lines(inv, lay, False), draw, boxed=True)
        y = max(ys, yc) + lay.size * 0.6
        y = _pt_title(pen, inv, lay, left, y, "left", draw)
        y = cells(pen, left, y, right - left, _pt_fields(inv, lay), draw, shade=e["head_fill"] is not None)
    else:
        yt = _pt_title(pen, inv, lay, right, yc, "right", draw)
        pairs = [(a + lay.colon, b) for a, b in _pt_fields(inv, lay)]
        width = max(pen.width(a, True) for a, _ in pairs) + max(pen.width(b) for _, b in pairs) + lay.size * 2
        yf = kv_list(pen, right - width, yt + lay.size * 0.4, pairs, draw, align_right=right)
        yb = lines_block(pen, left, ys + lay.size * 0.6, min((right - left) * 0.45, right - width - left - lay.size),
                         lay.labels["customer_block"], _customer_lines(inv, lay, False), draw, heading_style="shaded")
        y = max(yb, yf)
    y += lay.size * 0.4
    for line in _credit_lines(inv, lay):
        y += pen.lead
        if draw:
            pen.text(left, y, line)
    return y + lay.size * 0.8


def _pt_closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    e, lab, left, right = lay.extra, lay.labels, pen.left, pen.right
    y += pen.lead
    top = y
    if lay.tax_rate is not None:
        widths = [lay.size * 6, lay.size * 9, lay.size * 9, lay.size * 10]
        yl = table(pen, left, y, [lab["sum_rate"], lab["sum_base"], lab["sum_tax"], lab["sum_reason"]],
                   [[lay.rate_cell(), lay.money(inv.subtotal, lines=True), lay.money(inv.tax(lay.tax_rate),
                                                                                     lines=True), ""]],
                   widths, draw, right=(1, 2))
    else:
        yl = paragraph(pen, left, y + lay.size, f"{lab['exempt_label']}: {_pick(lay, 'exempt')}",
                       (right - left) * 0.5, draw)
    rows = [(colon(lay, "subtotal"), lay.money(inv.subtotal), False),
            (colon(lay, "discount_total"), lay.money(ZERO), False)]
    if lay.tax_rate is not None:
        rows.append((colon(lay, "tax"), lay.money(inv.tax(lay.tax_rate)), False))
    rows.append((colon(lay, "total"), lay.money(inv.total(lay.tax_rate)), True))
    yr = stack(pen, right, top + lay.size, rows, draw, shade_total=e["kind"] == "clean")
    y = max(yl, yr) + lay.size * 0.6
    pairs = [(a + lay.colon, b) for a, b in _payment_pairs(inv, lay)]
    y = kv_list(pen, left, y + lay.size, pairs, draw)
    for note in [*_notes(inv, lay), _pick(lay, "available").format(date=lay.date(inv.date),
                                                                   town=e["seller"]["town"])]:
        y = paragraph(pen, left, y, note, right - left, draw)
    if e["qr"]:
        side = 72.0
        if draw:
            qr(pen, left, y, qr_payload(inv, lay, customer(inv, lay)), side)
        y += side + lay.size
    return y


# ----------------------------------------------------------------------------------------------------------------
# The country module's interface (see evaluation.invoice_held_n_draw)
# ----------------------------------------------------------------------------------------------------------------
def top(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, draw: bool) -> float:
    """The page's top down to the table."""
    if lay.extra["country"] == "PT":
        return _pt_top(pen, inv, lay, n, draw)
    if lay.extra["kind"] == "classic":
        return _es_classic_top(pen, inv, lay, n, m, draw)
    return _es_modern_top(pen, inv, lay, n, draw)


def closing(pen: NPen, inv: Invoice, lay: Layout, y: float, draw: bool) -> float:
    """What follows the last row (forms without a band of totals)."""
    if lay.extra["country"] == "PT":
        return _pt_closing(pen, inv, lay, y, draw)
    return _es_modern_closing(pen, inv, lay, y, draw)


def band_height(pen: NPen, inv: Invoice, lay: Layout) -> float:
    if not lay.extra["band"]:
        return 0.0
    return _es_band(pen, inv, lay, 0.0, 1, 1, ZERO, False) + lay.size


def band(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int, carried: Decimal, draw: bool) -> None:
    y = lay.page[1] - lay.margin - foot_height(pen, inv, lay) - band_height(pen, inv, lay) + lay.size * 0.6
    _es_band(pen, inv, lay, y, n, m, carried, draw)


def _foot_lines(inv: Invoice, lay: Layout) -> list[tuple[str, float]]:
    """The foot's small print, as (text, size) from the bottom up."""
    e, small = lay.extra, lay.size * 0.7
    out = []
    if e["country"] == "PT":
        cert = _pick(lay, "certified").format(hash=doc_hash(inv, lay), cert=e["seller"]["cert"])
        out += [(f"{cert}  ·  {_pick(lay, 'software').format(software=e['seller']['software'])}", lay.size * 0.8),
                (e["seller"]["register"], small)]
        return out
    if not e["register_up"]:
        out.append((e["seller"]["register"], small))
    if e["privacy"]:
        out.append((_pick(lay, "privacy").format(firm=e["seller"]["name"], email=e["seller"]["email"]), small))
    return out


def foot_height(pen: NPen, inv: Invoice, lay: Layout) -> float:
    width = pen.right - pen.left - lay.size * 8
    h = lay.size * 1.6
    for text, size in _foot_lines(inv, lay):
        h = paragraph(pen, 0.0, h, text, width, False, size)
    return h


def foot(pen: NPen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    """The small print, the register's entry (up the margin on some Spanish forms) and the page label."""
    e = lay.extra
    width = pen.right - pen.left - lay.size * 8
    y = lay.page[1] - lay.margin - foot_height(pen, inv, lay) + lay.size * 1.6
    for text, size in _foot_lines(inv, lay):
        y = paragraph(pen, pen.left, y, text, width, True, size, color=GREY)
    if not (e["country"] == "ES" and e["kind"] == "classic"):
        pen.text(pen.right, lay.page[1] - lay.margin, lay.page_label.format(n=n, m=m), size=lay.size * 0.9,
                 align="right")
    if e["register_up"]:
        up_text(pen, lay.margin * 0.55, lay.page[1] - lay.margin, e["seller"]["register"], min(5.5, lay.size * 0.7))
