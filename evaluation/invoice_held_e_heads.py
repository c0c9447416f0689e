"""HELD-ASIDE FAMILY "held-e": the page headers of the fifth held-aside family, written apart from the reader; not
to be read while developing it (nor the other ``evaluation.invoice_held_e*`` modules or the family's files).

:func:`first_header` draws the top of an invoice's first page in the layout's header style (letterhead, title,
the document's fields, the customer's address) and :func:`running_header` the top of each later page; both return
where the page's table may start. :func:`fields` lists the document's fields as printed.

>>> from evaluation.invoice_held_e import held_e_layout
>>> from evaluation.invoice_records import SAMPLE, load_invoices
>>> inv, lay = load_invoices(SAMPLE)[0], held_e_layout(5)
>>> (lay.label("invoice_number"), inv.number) in fields(inv, lay)
True
"""

from __future__ import annotations

import datetime as dt

from evaluation.invoice_held_e_ink import Ink
from evaluation.invoice_held_e_words import BUYERS, STREETS, TOWNS

__all__ = ["buyer", "fields", "first_header", "page_label", "running_header", "seller_lines"]


def fields(inv, lay) -> list[tuple[str, str]]:
    """The document's header fields, (label, value), in the order the layout prints them."""
    credit, e, labels = inv.is_credit, lay.extra, lay.labels
    out = [(lay.label("invoice_number", credit), inv.number), (lay.label("invoice_date"), lay.date(inv.date))]
    if inv.customer is not None:
        out.append((lay.label("customer_id"), inv.customer))
    if "due" in labels and not credit:
        out.append((lay.label("due"), lay.date(inv.date + dt.timedelta(days=e["due_days"]))))
    extras = {"order": e["order"], "ref": e["order"], "terms": e["terms"], "rep": e["rep"], "via": e["ship"],
              "ship_date": lay.date(inv.date), "fob": lay.seller[2].split()[0].rstrip(",")}
    out += [(lay.label(k), v if k not in ("terms", "via") else lay.upper(v)) for k, v in extras.items()
            if k in labels]
    if e["code_at"] == "field":
        out.append((lay.label("currency"), lay.currency))
    if e["country_field"]:
        out.append((lay.label("country"), inv.country))
    return out


def buyer(inv, lay) -> list[str]:
    """The customer's address; its last line is the record's country unless a field prints it."""
    k = int(inv.customer or 0) + lay.extra["buyer"]
    street = STREETS[k % len(STREETS)]
    lines = [lay.upper(BUYERS[k % len(BUYERS)]), *(lay.upper(s) for s in street if s),
             lay.upper(f"{TOWNS[k // 7 % len(TOWNS)]} {k % 90 + 10}")]
    return lines if lay.extra["country_field"] else [*lines, inv.country]


def seller_lines(lay, phone: bool = True) -> list[str]:
    lines = [lay.upper(s) for s in lay.seller[1:]]
    return [*lines, f"Tel {lay.extra['phone']}"] if phone else lines


def _vat_no(lay) -> str:
    prefix = {"United Kingdom": "GB", "Netherlands": "NL", "France": "FR", "Germany": "DE", "Ireland": "IE",
              "United States": "EIN "}[lay.extra["seller_country"]]
    return f"{prefix}{lay.extra['vat_no']}"


def page_label(lay, n: int, m: int) -> str:
    return lay.page_label.format(n=n, m=m)


def _title(inv, lay) -> str:
    return lay.credit_title if inv.is_credit else lay.title


def _top(ink: Ink, lay, n: int, m: int) -> float:
    """The page label over the header where the layout prints it there; returns where the header starts."""
    if lay.extra["page_at"] != "head":
        return lay.margin
    ink.text(ink.right, lay.margin + ink.size * 0.8, page_label(lay, n, m), size=ink.size * 0.9, align="right")
    return lay.margin + ink.lead * 1.4


def _fit_boxes(ink: Ink, inv, lay, w: float, cells: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``cells`` less the last fields that are none of the truth's while they do not fit across ``w``."""
    keep = {inv.number, lay.date(inv.date), inv.customer, inv.country, lay.currency}
    while cells and not ink.boxes_fit(w, cells):
        drop = [k for k, (_, value) in enumerate(cells) if value not in keep]
        cells = [c for k, c in enumerate(cells) if k != (drop[-1] if drop else len(cells) - 1)]
    return cells


def _desk(ink: Ink, inv, lay, y: float) -> float:
    big = ink.fit(_title(inv, lay), ink.size * lay.extra["title_size"], (ink.right - ink.left) * 0.45)
    ink.text(ink.left, y + ink.size * 1.3, lay.upper(lay.seller[0]), bold=True, size=ink.size * 1.3)
    h = ink.address(ink.left, y + ink.size * 1.8, None, seller_lines(lay), bold_first=False) + ink.size * 1.8
    ink.text(ink.right, y + big, _title(inv, lay), bold=True, size=big, align="right")
    pair = fields(inv, lay)[:2][::-1]
    w = max(max(ink.width(a, True), ink.width(b)) for a, b in pair) * 2 + ink.size * 2
    h = max(h, big + ink.size * 0.8 + ink.boxes(ink.right - w, y + big + ink.size * 0.8, w, pair, shade=0.9))
    y += h + ink.lead
    half = (ink.right - ink.left) / 2 - ink.size
    rows = buyer(inv, lay)
    tall = (len(rows) + 1) * ink.lead + ink.size * 0.6
    for k, head in enumerate(("bill_to", "ship_to") if lay.extra["ship_block"] and "ship_to" in lay.labels
                             else ("bill_to",)):
        x = ink.left + k * (half + 2 * ink.size)
        ink.box(x, y, half * 0.8, tall)
        ink.box(x, y, half * 0.8, ink.lead, fill=0.9)
        ink.address(x + ink.size * 0.4, y + ink.size * 0.05, lay.label(head), rows, bold_first=False)
    y += tall + ink.lead
    strip = _fit_boxes(ink, inv, lay, ink.right - ink.left, fields(inv, lay)[2:])
    return y + ink.boxes(ink.left, y, ink.right - ink.left, strip, shade=0.9) + ink.lead


def _modern(ink: Ink, inv, lay, y: float) -> float:
    big = ink.fit(_title(inv, lay), ink.size * lay.extra["title_size"] * 1.2, (ink.right - ink.left) * 0.5)
    ink.text(ink.left, y + big, _title(inv, lay), bold=True, size=big, colour=lay.extra["accent"])
    ink.text(ink.right, y + ink.size * 1.2, lay.seller[0], bold=True, size=ink.size * 1.2, align="right")
    for k, line in enumerate(seller_lines(lay)):
        ink.text(ink.right, y + ink.size * 1.2 + (k + 1) * ink.lead, line, align="right")
    y += max(big, ink.size * 1.2 + 4 * ink.lead) + ink.lead * 1.5
    third = (ink.right - ink.left) / 3
    h1 = ink.address(ink.left, y, lay.label("bill_to"), buyer(inv, lay))
    h2 = 0.0
    for label, value in fields(inv, lay):
        h2 += ink.above(ink.left + third, y + h2, label, value, grey=0.35)
    h3 = 0.0
    if "balance" in lay.labels:
        label = lay.label("balance") + (f" ({lay.currency})" if lay.extra["code_at"] == "total" else "")
        h3 = ink.above(ink.right, y, label, lay.money(inv.total(lay.tax_rate)), align="right", big=1.8)
    return y + max(h1, h2, h3) + ink.lead


def _banner(ink: Ink, inv, lay, y: float) -> float:
    band = ink.size * 3.4
    ink.box(ink.left, y, ink.right - ink.left, band, fill=lay.extra["accent"], stroke=False)
    ink.text(ink.left + ink.size, y + band * 0.68, _title(inv, lay), bold=True, size=ink.size * 2,
             colour=(1, 1, 1))
    ink.text(ink.right - ink.size, y + band * 0.62, lay.seller[0], bold=True, size=ink.size * 1.1, align="right",
             colour=(1, 1, 1))
    y += band + ink.lead
    h1 = ink.address(ink.left, y, None, seller_lines(lay), bold_first=False)
    items = fields(inv, lay)
    w = ink.pairs_width(items, bold_labels=True)
    h2 = ink.pairs(ink.right - w, y, items, bold_labels=True, right=ink.right)
    y += max(h1, h2) + ink.lead
    return y + ink.address(ink.left, y, lay.label("bill_to"), buyer(inv, lay)) + ink.lead


def _ledger(ink: Ink, inv, lay, y: float) -> float:
    width = ink.right - ink.left
    far = min(ink.left + width * 0.74, ink.right - max(ink.width(s, k == 0) for k, s in enumerate(
        [lay.seller[0], *seller_lines(lay)])))
    items = fields(inv, lay) + [(lay.label("vat_reg"), _vat_no(lay))]
    mid_w = max(max(ink.width(a.rstrip(":"), size=ink.size * 0.85), ink.width(v)) for a, v in items)
    mid = min(ink.left + width * 0.5, far - mid_w - ink.size * 1.5)
    big = ink.fit(_title(inv, lay), ink.size * lay.extra["title_size"], mid - ink.left - ink.size)
    ink.text(ink.left, y + big, _title(inv, lay), bold=True, size=big)
    h1 = big + ink.lead + ink.address(ink.left + ink.size, y + big + ink.lead, None, buyer(inv, lay))
    h2 = 0.0
    for label, value in items:
        h2 += ink.above(mid, y + h2, label.rstrip(":"), value, grey=0.0)
    h3 = ink.address(far, y, None, [lay.seller[0], *seller_lines(lay)])
    return y + max(h1, h2, h3) + ink.lead * 1.5


def _forms(ink: Ink, inv, lay, y: float) -> float:
    mid = (ink.left + ink.right) / 2
    ink.text(mid, y + ink.size * 1.6, lay.upper(lay.seller[0]), bold=True, size=ink.size * 1.6, align="centre")
    ink.text(mid, y + ink.size * 2.0 + ink.lead, ", ".join(seller_lines(lay)), size=ink.size * 0.9,
             align="centre")
    y += ink.size * 2.0 + ink.lead * 2.2
    ink.text(ink.left, y + ink.size * 1.5, _title(inv, lay), bold=True, size=ink.size * 1.5)
    y += ink.size * 1.5 + ink.lead
    items = fields(inv, lay)
    w = ink.pairs_width(items) + ink.size * 2
    label_w = max(ink.width(a) for a, _ in items) + ink.size
    for k, (label, value) in enumerate(items):
        top = y + k * ink.lead * 1.2
        ink.box(ink.right - w, top, label_w, ink.lead * 1.2, fill=0.92)
        ink.box(ink.right - w + label_w, top, w - label_w, ink.lead * 1.2)
        ink.text(ink.right - w + ink.size * 0.4, top + ink.lead * 0.9, label)
        ink.text(ink.right - ink.size * 0.5, top + ink.lead * 0.9, value, bold=True, align="right")
    rows, x = buyer(inv, lay), ink.left
    box_w = min(ink.right - w - ink.left - ink.size * 2, max(ink.width(r) for r in rows) * 1.4 + ink.size * 2)
    heads = ["bill_to", *(["ship_to"] if lay.extra["ship_block"] and len(items) <= 4 else [])]
    tall = (len(rows) + 1) * ink.lead + ink.size * 0.6
    for k, head in enumerate(heads):
        ink.box(x, y + k * (tall + ink.size), box_w, tall)
        ink.address(x + ink.size * 0.5, y + k * (tall + ink.size) + ink.size * 0.2, lay.label(head), rows,
                    bold_first=False)
    return y + max(len(items) * ink.lead * 1.2, len(heads) * (tall + ink.size)) + ink.lead


def _erp(ink: Ink, inv, lay, y: float) -> float:
    ink.text(ink.left, y + ink.size * 1.4, lay.seller[0], bold=True, size=ink.size * 1.4)
    ink.text(ink.left, y + ink.size * 1.4 + ink.lead, " \u00b7 ".join(seller_lines(lay)), size=ink.size * 0.85,
             colour=(0.3, 0.3, 0.3))
    ink.text(ink.right, y + ink.size * 1.6, _title(inv, lay), bold=True, size=ink.size * 1.6, align="right")
    y += ink.size * 1.6 + ink.lead * 1.6
    ink.rule(ink.left, ink.right, y, 0.8, grey=0.3)
    y += ink.lead
    h1 = ink.address(ink.left, y, lay.label("bill_to"), buyer(inv, lay))
    items = fields(inv, lay)
    w = max(ink.pairs_width(items) + ink.size * 2, (ink.right - ink.left) * 0.36)
    for k, (label, value) in enumerate(items):
        base = y + ink.size + k * ink.lead
        ink.text(ink.right - w, base, label, colour=(0.3, 0.3, 0.3))
        ink.text(ink.right, base, value, align="right")
        ink.rule(ink.right - w, ink.right, base + ink.size * 0.35, 0.3, grey=0.6)
    return y + max(h1, len(items) * ink.lead) + ink.lead * 1.2


def _centred(ink: Ink, inv, lay, y: float) -> float:
    mid = (ink.left + ink.right) / 2
    big = ink.fit(_title(inv, lay), ink.size * lay.extra["title_size"], ink.right - ink.left)
    ink.text(mid, y + big, _title(inv, lay), bold=True, size=big, align="centre")
    y += big + ink.lead
    ink.text(mid, y + ink.size * 1.1, lay.seller[0], bold=True, size=ink.size * 1.1, align="centre")
    ink.text(mid, y + ink.size * 1.1 + ink.lead, ", ".join(seller_lines(lay)), align="centre")
    y += ink.size * 1.1 + ink.lead * 2.5
    h1 = ink.address(ink.left, y, lay.label("bill_to"), buyer(inv, lay))
    items = fields(inv, lay)
    h2 = ink.pairs(ink.right - ink.pairs_width(items), y, items, right=ink.right)
    return y + max(h1, h2) + ink.lead


def _typed(ink: Ink, inv, lay, y: float) -> float:
    ink.text(ink.left, y + ink.size, lay.upper(lay.seller[0]), bold=True)
    ink.text(ink.right, y + ink.size, _title(inv, lay), bold=True, align="right")
    h = ink.address(ink.left, y + ink.lead, None, seller_lines(lay), bold_first=False) + ink.lead
    y += h
    rule = "=" * int((ink.right - ink.left) / ink.width("="))
    ink.text(ink.left, y + ink.size, rule)
    y += ink.lead * 1.2
    items = fields(inv, lay)
    half = (len(items) + 1) // 2
    mid = ink.left + (ink.right - ink.left) * 0.5
    h1 = ink.pairs(ink.left, y, items[:half], gap=ink.width(" "))
    h2 = ink.pairs(mid, y, items[half:], gap=ink.width(" "))
    y += max(h1, h2) + ink.lead * 0.5
    rows = buyer(inv, lay)
    h1 = ink.address(ink.left, y, lay.label("bill_to"), rows, bold_first=False)
    if "ship_to" in lay.labels and lay.extra["ship_block"]:
        ink.address(mid, y, lay.label("ship_to"), rows, bold_first=False)
    y += h1
    ink.text(ink.left, y + ink.size, rule)
    return y + ink.lead * 1.3


def _wide(ink: Ink, inv, lay, y: float) -> float:
    width = ink.right - ink.left
    big = ink.size * lay.extra["title_size"]
    name = lay.upper(lay.seller[0])
    ink.text(ink.left, y + ink.size * 1.5, name, bold=True, size=ink.fit(name, ink.size * 1.5, width * 0.34))
    h1 = ink.size * 1.9 + ink.address(ink.left, y + ink.size * 1.9, None, seller_lines(lay), bold_first=False)
    h2 = ink.address(ink.left + width * 0.36, y, lay.label("bill_to"), buyer(inv, lay))
    x3 = ink.left + width * 0.68
    big = ink.fit(_title(inv, lay), big, ink.right - x3)
    ink.text(x3, y + big, _title(inv, lay), bold=True, size=big)
    items = fields(inv, lay)
    h3 = big * 1.3 + ink.pairs(x3, y + big * 1.3, items[:6], bold_labels=True)
    y += max(h1, h2, h3) + ink.lead
    strip = _fit_boxes(ink, inv, lay, width, items[6:] + [(lay.label("vat_reg"), _vat_no(lay))])
    return y + ink.boxes(ink.left, y, width, strip, shade=lay.extra["shade"], centre=False) + ink.lead


STYLES = {"desk": _desk, "modern": _modern, "banner": _banner, "ledger": _ledger, "forms": _forms, "erp": _erp,
          "centred": _centred, "typed": _typed, "wide": _wide}


def first_header(ink: Ink, inv, lay, m: int) -> float:
    """The top of page 1 of ``m``; returns where the table may start."""
    return STYLES[lay.extra["header"]](ink, inv, lay, _top(ink, lay, 1, m))


def running_header(ink: Ink, inv, lay, n: int, m: int) -> float:
    """The top of page ``n`` > 1: the seller, the document's number and date repeated; returns where the table may
    start."""
    y = _top(ink, lay, n, m)
    ink.text(ink.left, y + ink.size, lay.upper(lay.seller[0]), bold=True)
    number = f"{_title(inv, lay)}  {lay.label('invoice_number', inv.is_credit)} {inv.number}"
    ink.text(ink.right, y + ink.size, number, bold=True, align="right")
    ink.text(ink.right, y + ink.size + ink.lead, f"{lay.label('invoice_date')} {lay.date(inv.date)}",
             align="right")
    y += ink.size + ink.lead * 1.6
    if lay.extra["header"] == "typed":
        ink.text(ink.left, y + ink.size, "=" * int((ink.right - ink.left) / ink.width("=")))
    else:
        ink.rule(ink.left, ink.right, y, 0.6)
    return y + ink.lead
