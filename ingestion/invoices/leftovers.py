"""Header fields whose label was not found, read by elimination from the values no label claimed.

A date, a country name and an invoice-number-like token left on page 1 are the invoice's date, country and number
(when several different ones are, the first is taken and a doubt names the field); a lone whole number under or
after a word that is not a known label is the customer's number; and the amounts printed after the last item row
are the totals: the largest (in size) is the total, the next the subtotal, and an amount that makes
subtotal + it = total the tax. Nothing here is checked against the lines: the checks
(:mod:`ingestion.invoices.checks`) then test these values as they test labelled ones.
"""

from __future__ import annotations

import re
from decimal import Decimal

from core.invoices import Box, InvoiceFields
from ingestion.invoices.values import parse_date, parse_money
from ingestion.invoices.words import Word, row_key, span

__all__ = ["COUNTRIES", "eliminate"]

COUNTRIES = {c.lower() for c in (
    "United Kingdom", "France", "Australia", "Netherlands", "Germany", "Norway", "EIRE", "Ireland", "Switzerland",
    "Spain", "Poland", "Portugal", "Italy", "Belgium", "Lithuania", "Japan", "Iceland", "Channel Islands", "Denmark",
    "Cyprus", "Sweden", "Austria", "Israel", "Finland", "Bahrain", "Greece", "Hong Kong", "Singapore", "Lebanon",
    "United Arab Emirates", "Saudi Arabia", "Czech Republic", "Canada", "Unspecified", "Brazil", "USA",
    "European Community", "Malta", "RSA", "United States")}
_CUSTOMER = re.compile(r"\d{4,8}")
_WORDS = re.compile(r"[A-Za-z][A-Za-z.\-]*:?")


def _taken(w: Word, boxes: dict[str, Box]) -> bool:
    return any(b and b.page == w.page and b.x0 - 0.5 <= w.cx <= b.x1 + 0.5 and b.y0 - 0.5 <= w.cy <= b.y1 + 0.5
               for b in boxes.values())


def eliminate(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]],
              skip: set[tuple[int, float]]) -> list[tuple[str, str]]:
    """Fill the fields whose label was not found from the values no label claimed (``skip``: the table's rows).
    Returns the doubts, as (check name, detail): a field taken from several different candidates (two dates, two
    countries on page 1), which a reviewer must confirm."""
    first = [row for row in rows if row[0].page == 1 and row_key(row) not in skip]
    found: dict[str, list[tuple[object, list[Word]]]] = {"invoice_date": [], "country": [], "invoice_number": []}
    for row in first:
        free = [w for w in row if not _taken(w, boxes)]
        found["invoice_date"] += _dates(free)
        found["country"] += _countries(free)
        found["invoice_number"] += [(w.text, [w]) for w in free if re.fullmatch(r"C?\d{6,}", w.text)]
    doubts = []
    for name, candidates in found.items():
        if getattr(fields, name) is not None or not candidates:
            continue
        value, words = candidates[0]
        setattr(fields, name, value)
        boxes[name] = span(words)
        distinct = {str(v).lower() for v, _ in candidates}
        if len(distinct) > 1:
            label = name.replace("_", " ")
            doubts.append((f"{label} told apart", f"no known label names the {label}, and {len(distinct)} "
                                                  f"different ones are printed on page 1; {value} was taken: check it"))
    if fields.customer_id is None and skip:
        _customer(fields, boxes, [row for row in first if row_key(row) < min(skip)], doubts)
    if skip:
        _totals(fields, boxes, [row for row in rows if row_key(row) > max(skip)])
    return doubts


def _dates(free: list[Word]) -> list[tuple[object, list[Word]]]:
    out, i = [], 0
    while i < len(free):
        for n in (4, 3, 1):
            date = parse_date(" ".join(w.text for w in free[i:i + n])) if i + n <= len(free) else None
            if date:
                out.append((date, free[i:i + n]))
                i += n
                break
        else:
            i += 1
    return out


def _countries(free: list[Word]) -> list[tuple[str, list[Word]]]:
    out = []
    for i in range(len(free)):
        for n in (3, 2, 1):
            text = " ".join(w.text for w in free[i:i + n]) if i + n <= len(free) else ""
            if text.lower() in COUNTRIES:
                out.append((text, free[i:i + n]))
                break
    return out


def _customer(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]],
              doubts: list[tuple[str, str]]) -> None:
    """A lone number of 4 to 8 digits with a word label of its own (just before it, or just above it on the row
    above) is the customer's, when it is the only one above the table (a phone or VAT number has numbers beside
    it, and is not alone)."""
    found = []
    for r, row in enumerate(rows):
        for i, w in enumerate(row):
            if not _CUSTOMER.fullmatch(w.text) or _taken(w, boxes):
                continue
            near = [v for v in (row[i - 1] if i else None, row[i + 1] if i + 1 < len(row) else None)
                    if v is not None and abs(v.x0 - w.x1 if v.x0 > w.x0 else w.x0 - v.x1) < w.height]
            if any(any(ch.isdigit() for ch in v.text) for v in near):
                continue
            before = row[i - 1] if i and w.x0 - row[i - 1].x1 < 12 * w.height else None
            above = [v for v in rows[r - 1] if v.x0 < w.x1 and w.x0 < v.x1] if r else []
            labelled = (before is not None and _WORDS.fullmatch(before.text)) or \
                (above and all(_WORDS.fullmatch(v.text) for v in above))
            if labelled:
                found.append(w)
    if len(found) == 1:
        fields.customer_id, boxes["customer_id"] = found[0].text, span(found)
    elif len(found) > 1:
        doubts.append(("customer ID told apart", f"no known label names the customer, and {len(found)} numbers "
                                                 "standing alone under or after a label could be its number; none "
                                                 "was taken: check the page"))


def _totals(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]]) -> None:
    """The amounts after the last item row no label claimed, given to the totals still missing by size."""
    amounts: list[tuple[Decimal, list[Word]]] = []
    for row in rows:
        free = [w for w in row if not _taken(w, boxes)]
        i = 0
        while i < len(free):
            for n in (2, 1):
                money = parse_money(" ".join(w.text for w in free[i:i + n])) if i + n <= len(free) else None
                if money and any(ch in free[i].text for ch in ".,") or (money and n == 2):
                    amounts.append((money[0], free[i:i + n]))
                    i += n
                    break
            else:
                i += 1
    if not amounts:
        return
    amounts.sort(key=lambda a: abs(a[0]), reverse=True)
    if fields.total is None:
        value, words = amounts.pop(0)
        fields.total, boxes["total"] = value, span(words)
    if fields.subtotal is None and amounts:
        value, words = amounts.pop(0)
        fields.subtotal, boxes["subtotal"] = value, span(words)
    if fields.tax is None and fields.subtotal is not None and fields.total is not None:
        for value, words in amounts:
            if fields.subtotal + value == fields.total:
                fields.tax, boxes["tax"] = value, span(words)
                break
