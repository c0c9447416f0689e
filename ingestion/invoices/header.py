"""The header fields: each found from its label, its value to the right of the label or below it, and read by
the field's type; a field whose label is not found is looked for by elimination from the values left over.

A value to the right runs from the label to the next label or a wide gap (dotted leaders skipped); a value below
is the text on the next row under the label, up to the next label on the label's row. A value that does not read
as its field's type (a date, an amount, a number) does not count, so ``VAT reg. no. GB 365 6271 67`` is not the
tax and ``Tax invoice`` is not a tax label with a value.
"""

from __future__ import annotations

import re
from collections import Counter

from core.invoices import Box, InvoiceFields
from ingestion.invoices.values import is_invoice_number, parse_date, parse_money
from ingestion.invoices.vocab import LABELS, match_words
from ingestion.invoices.words import Word, span

__all__ = ["COUNTRIES", "document_currency", "read_header"]

COUNTRIES = {c.lower() for c in (
    "United Kingdom", "France", "Australia", "Netherlands", "Germany", "Norway", "EIRE", "Ireland", "Switzerland",
    "Spain", "Poland", "Portugal", "Italy", "Belgium", "Lithuania", "Japan", "Iceland", "Channel Islands", "Denmark",
    "Cyprus", "Sweden", "Austria", "Israel", "Finland", "Bahrain", "Greece", "Hong Kong", "Singapore", "Lebanon",
    "United Arab Emirates", "Saudi Arabia", "Czech Republic", "Canada", "Unspecified", "Brazil", "USA",
    "European Community", "Malta", "RSA", "United States")}
_LEADER = re.compile(r"^[.·…_\-:]+$")
_MONEY_FIELDS = ("subtotal", "tax", "total")
_LAST_WINS = set(_MONEY_FIELDS)
# Labels that, printed, always carry a value: one with none read is reported. (A money word such as "VAT" or
# "Total" is also printed without a value of its own: in "VAT reg. no." or a column heading.)
_SAY_UNREAD = ("customer_id", "country")


def _right(row: list[Word], end: int, stop: int) -> list[Word]:
    out: list[Word] = []
    last = row[end - 1]
    for w in row[end:stop]:
        if _LEADER.match(w.text):
            last = w
            continue
        if w.x0 - last.x1 > max(300.0, 30 * w.height):
            break
        out.append(w)
        last = w
    return out


def _below(rows: list[list[Word]], r: int, first: Word, limit: float) -> list[Word]:
    row = rows[r]
    for nxt in rows[r + 1:r + 3]:
        if nxt[0].y0 - max(w.y1 for w in row) > 2.5 * first.height:
            break
        words = [w for w in nxt if w.x1 > first.x0 - 2 and w.x0 < limit]
        if words:
            return words
    return []


def _value(field: str, words: list[Word]):
    """The value of ``field`` read from ``words`` and the words it used, or ``None``."""
    text = " ".join(w.text for w in words).strip()
    if not text:
        return None
    if field == "invoice_number":
        token = words[0].text.strip("#:")
        return (token, words[:1]) if is_invoice_number(token) else None
    if field == "invoice_date":
        for n in range(len(words), 0, -1):
            date = parse_date(" ".join(w.text for w in words[:n]))
            if date:
                return date, words[:n]
        return None
    if field == "customer_id":
        token = words[0].text.strip("#:")
        return (token, words[:1]) if re.fullmatch(r"[A-Z0-9\-]*\d[A-Z0-9\-]*", token, re.IGNORECASE) else None
    if field == "country":
        if not re.fullmatch(r"[A-Za-z .&'-]+", text) or len(text) < 2:
            return None
        return text, words
    for n in range(len(words), 0, -1):
        money = parse_money(" ".join(w.text for w in words[:n]))
        if money:
            return money, words[:n]
    return None


def read_header(rows: list[list[Word]], skip: set[tuple[int, float]]) -> tuple[InvoiceFields, dict[str, Box],
                                                                                 list[str], dict[str, Box]]:
    """The header fields of the document's ``rows`` (all pages in order), leaving out the table's rows (``skip``),
    with each field's box, the currencies printed with its money values, and the labels printed with no value
    that reads as their field (field -> the label's box; a reviewer must look there)."""
    found: dict[str, tuple[object, list[Word]]] = {}
    labelled: set[str] = set()
    unread: dict[str, Box] = {}
    for r, row in enumerate(rows):
        if (row[0].page, round(sum(w.cy for w in row) / len(row), 1)) in skip:
            continue
        matches = match_words(row, LABELS)
        for k, m in enumerate(matches):
            stop = matches[k + 1].start if k + 1 < len(matches) else len(row)
            limit = row[stop].x0 if stop < len(row) else row[m.end - 1].x1 + 200
            got = _value(m.role, _right(row, m.end, stop)) if m.end < len(row) else None
            if got is None:
                got = _value(m.role, _below(rows, r, row[m.start], limit - 2))
            if got is None:
                if m.role in _SAY_UNREAD:
                    unread.setdefault(m.role, span(row[m.start:m.end]))
                continue
            labelled.add(m.role)
            if m.role not in found or m.role in _LAST_WINS:
                found[m.role] = got
    fields, boxes, currencies = InvoiceFields(), {}, []
    for name, (value, words) in found.items():
        if name in _MONEY_FIELDS:
            value, currency = value
            if currency:
                currencies.append(currency)
        setattr(fields, name, value)
        boxes[name] = span(words)
    _eliminate(fields, boxes, rows, skip)
    return fields, boxes, currencies, {k: b for k, b in unread.items() if getattr(fields, k) is None}


def _eliminate(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]],
               skip: set[tuple[int, float]]) -> None:
    """Fill fields whose label was not found from the values left on page 1 (dates, numbers, country names)."""
    first = [row for row in rows if row[0].page == 1 and (1, round(sum(w.cy for w in row) / len(row), 1)) not in skip]
    taken = {(b.page, round(b.y0), round(b.x0)) for b in boxes.values() if b}
    for row in first:
        free = [w for w in row if (w.page, round(w.y0), round(w.x0)) not in taken]
        text = " ".join(w.text for w in free)
        if fields.invoice_date is None:
            for i in range(len(free)):
                for n in (4, 3, 1):
                    date = parse_date(" ".join(w.text for w in free[i:i + n]))
                    if date:
                        fields.invoice_date, boxes["invoice_date"] = date, span(free[i:i + n])
                        break
                if fields.invoice_date:
                    break
        if fields.country is None:
            for name in COUNTRIES:
                if re.search(rf"\b{re.escape(name)}\b", text.lower()):
                    n = len(name.split())
                    for i in range(len(free)):
                        if " ".join(w.text for w in free[i:i + n]).lower() == name:
                            fields.country, boxes["country"] = " ".join(w.text for w in free[i:i + n]), \
                                span(free[i:i + n])
                            break
                    break
        if fields.invoice_number is None:
            for w in free:
                if re.fullmatch(r"C?\d{6,}", w.text):
                    fields.invoice_number, boxes["invoice_number"] = w.text, span([w])
                    break


def document_currency(*groups: list[str]) -> str | None:
    """The currency most printed, the totals' first.

    >>> document_currency([], ["EUR", "EUR", "GBP"]), document_currency([])
    ('EUR', None)
    """
    for group in groups:
        if group:
            return Counter(group).most_common(1)[0][0]
    return None

