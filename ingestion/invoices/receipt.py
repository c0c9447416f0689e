"""Items as a till prints them: no row of column headings, each item a row of ``quantity x price`` and its
amount, its description on that row or on the row above.

A point-of-sale receipt that names its buyer (a full VAT receipt, a ``TICKET-FACTURE``) is an invoice whose items no
heading row introduces; :mod:`ingestion.invoices.table` finds none, or takes a VAT summary (``Rate Net VAT
Gross``) for the table. Here an item row is told by its own arithmetic: a quantity, a multiplication sign (``x``,
``×``, ``*`` or ``@``; a unit such as ``pce`` or ``Stk`` may stand between), a price, and right of them an amount
equal to quantity x price to the cent, perhaps followed by the VAT rate's letter. What stands left of the quantity
is the code (a word shaped as one, see :func:`ingestion.invoices.cells.joined`) and the description; with no
description there, the row above holds it, with the code at its start when the item row has none:

======================================  =====================================
the till prints                         read as
======================================  =====================================
``22632 HAND WARMER RED POLKA DOT``     code 22632, that description,
``6 x 1,85            11,10 A``         quantity 6, price 1.85, amount 11.10
``HYACINTH BULB T-LIGHT CANDLES``       that description,
``85172  32 pce x 0,42   13,44 1``      code 85172, 32 x 0.42 = 13.44
``2 x MUG 1.50 3.00``                   not an item row (nothing is 2 x MUG)
======================================  =====================================

Such a reading replaces the table's only when it holds more lines whose arithmetic holds
(:func:`prefer`): an invoice with a table of headings is read as before.

>>> row = [Word(t, x, 0, x + 9, 9, 1) for t, x in (("6", 30), ("x", 40), ("1,85", 51), ("11,10", 181), ("A", 213))]
>>> above = [Word(t, x, -12, x + 9, -3, 1) for t, x in (("22632", 9), ("HAND", 40), ("WARMER", 66))]
>>> [(x.code, x.description, str(x.quantity), str(x.amount)) for x in read_receipt([[above, row]]).lines]
[('22632', 'HAND WARMER', '6', '11.10')]
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from core.invoices import InvoiceLine
from ingestion.invoices.cells import attribute, code_like, joined, labelled_code, unsure_code
from ingestion.invoices.lines import Table, texts
from ingestion.invoices.values import parse_money, parse_quantity
from ingestion.invoices.vocab import LABELS_ABOVE_ITEMS, match_words
from ingestion.invoices.words import Word, row_key, span

__all__ = ["prefer", "read_receipt"]

_TIMES = {"x", "X", "×", "*", "@"}
_GLUED = re.compile(r"^(-?\d+)?([xX×*@])(\S+)?$")  # 6x, x1,85, 6x1,85: OCR and narrow tills drop the spaces
_UNIT = re.compile(r"^[A-Za-zÅÄÖåäö]{1,4}\.?$")  # pce, Stk, st, ea, kg
_MARK = re.compile(r"^[A-Z0-9*]{1,2}$")  # the VAT rate's letter or number after the amount
_CENT = Decimal("0.01")
_CENTS = re.compile(r"\d[.,]\d\d$")
_SIGNS = {"€", "£", "$"}


def _unglued(row: list[Word]) -> list[Word]:
    """The row with a multiplication sign glued to a number cut apart (``6x1,85`` as ``6``, ``x``, ``1,85``)."""
    out = []
    for w in row:
        m = _GLUED.match(w.text)
        if not m or not (m[1] or m[3]) or (m[3] and parse_money(m[3]) is None):
            out.append(w)
            continue
        parts = [p for p in m.groups() if p]
        step = (w.x1 - w.x0) / len(w.text)
        x = w.x0
        for p in parts:
            out.append(Word(p, x, w.y0, x + step * len(p), w.y1, w.page, w.ocr))
            x += step * len(p)
    return out


def _item(row: list[Word]) -> dict | None:
    """The parts of an item row (see the module docstring), or ``None`` when the row is none: ``lead`` the words
    left of the quantity. A lone currency sign beside a number (``9,95 € × 2``) is no word of the row."""
    row = [w for w in row if w.text not in _SIGNS]
    for i, w in enumerate(row):
        if w.text not in _TIMES or i == 0 or i + 2 >= len(row):
            continue
        q = i - 2 if i >= 2 and _UNIT.match(row[i - 1].text) and not code_like(row[i - 1].text) else i - 1
        for lead, quantity, price, right in ((row[:q], row[q:i], row[i + 1], row[i + 2:]),  # 6 x 1,85 11,10
                                             (row[:i - 1], row[i + 1:i + 2], row[i - 1], row[i + 2:]),  # £3.25 × 6
                                             (row[:i], row[i + 1:i + 2], row[i + 2], row[i + 3:])):  # MUG × 6 £3.25
            parts = _priced(lead, quantity, price, right)
            if parts:
                return parts
    return None


def _priced(lead: list[Word], quantity: list[Word], price: Word, right: list[Word]) -> dict | None:
    """The parts of an item row read as ``quantity`` x ``price``, when an amount at the end of ``right`` (or before
    the VAT rate's letter) is their product to the cent; a quantity the price's side prints (``£3.25 × 6``) is a
    whole number."""
    count = parse_quantity(quantity[0].text) if quantity else None  # "24 ea": the count before its unit
    money = parse_money(price.text)
    if count is None or money is None or not right or (len(quantity) == 1 and quantity[0].x0 > price.x0 and
                                                       count != count.to_integral_value()):
        return None
    ends = right[-1:] if len(right) < 2 or not _MARK.match(right[-1].text) else right[-2:][::-1]
    for end in ends:  # the amount, or the amount before the VAT rate's letter or number
        amount = parse_money(end.text)
        if amount is not None and (count * money[0]).quantize(_CENT, ROUND_HALF_UP) == amount[0]:
            return {"lead": lead, "quantity": quantity, "unit_price": [price], "amount": [end],
                    "values": (count, money, amount)}
    return None


def _above(rows: list[list[Word]], k: int, taken: set[int]) -> tuple[int, list[Word]]:
    """The first of the rows over item row ``k`` that may hold its description, and their words: up to three rows
    set as close as lines of one block (no more than 1.6 heights apart), none used by another item, printing a label
    or a sum of money."""
    out: list[Word] = []
    j = k - 1
    while j >= 0 and k - j <= 3 and j not in taken and not _labelled(rows[j]) and \
            not any(_CENTS.search(w.text) for w in rows[j]):
        below = rows[j + 1]
        height = max(w.y1 - w.y0 for w in below)
        if min(w.y0 for w in below) - max(w.y1 for w in rows[j]) > 0.6 * height:
            break
        out = rows[j] + out
        j -= 1
    return j + 1, out


def read_receipt(pages: list[list[list[Word]]]) -> Table:
    """The items of every page (each page given as its rows) that print as a till's do; the rows they use. Where
    the code shares its words with the description, it is taken as :func:`ingestion.invoices.cells.joined` says
    for a table's column (every item, or two in three of three or more, starting with a code), with a doubt for
    one not shaped as a code (``POST``)."""
    table = Table(roles={"code", "description", "quantity", "unit_price", "amount"})
    found = []
    for rows in pages:
        items = {k: parts for k, row in enumerate(rows) if (parts := _item(_unglued(row)))}
        taken = set(items)
        for k, parts in items.items():
            lead, (first, above) = parts.pop("lead"), _above(rows, k, taken)
            if len(lead) > 1 and above and code_like(lead[0].text) and not any(c.isalpha() for w in lead[1:]
                                                                                for c in w.text):
                n = len(found) + 1  # a code, then a stray number (a scan's speck), no description: the row above's
                table.doubts.append((f"line {n}: description read", f"line {n} (page {rows[k][0].page}) prints "
                                     f"{texts(lead[1:])!r} between its code and quantity, read into nothing: check it"))
                lead = lead[:1]
            if len(lead) == 1 and above:  # the code on the quantity's row, the description over it
                parts.update(code=lead, description=above)
            else:
                parts.update(code=None, description=lead or above)
            if not lead:
                taken |= set(range(first, k))
            if parts["code"] is None:
                parts["code"], parts["description"] = _labelled_code(rows, k, parts["description"], taken)
            found.append((parts, rows[k][0].page))
        table.used |= {row_key(rows[k]) for k in taken}
    shared = joined([{"description": p["description"]} for p, _ in found if p["code"] is None])
    for parts, page in found:
        if parts["code"] is None:
            guess = unsure_code({"description": parts["description"]}, shared)
            words = parts["description"]
            split = shared and (len(words) > 1 or code_like(words[0].text))
            parts.update(code=words[:1] if split else [], description=words[1:] if split else words)
            if split and guess:
                n = len(table.lines) + 1
                table.doubts.append((f"line {n}: code told apart", f"line {n} (page {page}) starts with {guess!r}, "
                                     "taken for its code as most lines start with theirs: check it"))
        _add(table, parts, page)
    return table


def _labelled_code(rows: list[list[Word]], k: int, words: list[Word], taken: set[int]) -> tuple[list[Word] | None,
                                                                                              list[Word]]:
    """The code of item row ``k`` printed with its label, as shops print it after or under the product's name
    (``MUG SKU: 71477``; ``SKU 22149`` on a row below, perhaps under the item's variants, ``Size: One size``,
    which are no part of its description), and the description less it. The rows below that are read join
    ``taken``."""
    at = labelled_code(words)
    if at is not None:
        return words[-1:], words[:at]
    j = k + 1
    while j < len(rows) and j - k <= 3 and j not in taken:
        at = labelled_code(rows[j])
        if at == 0:
            taken |= set(range(k + 1, j + 1))
            return rows[j][-1:], words
        if not attribute(rows[j]):
            break
        j += 1
    return None, words


def _labelled(row: list[Word]) -> bool:
    """A row of the receipt's head (``Client: Tante Emma``, ``Land United Kingdom``: a colon, or a known label
    first), not an item's description."""
    return any(w.text.endswith(":") for w in row) or any(m.start == 0 for m in match_words(row, LABELS_ABOVE_ITEMS))


def _add(table: Table, parts: dict, page: int) -> None:
    quantity, price, amount = parts["values"]
    n = len(table.lines)
    table.lines.append(InvoiceLine(texts(parts["code"]) or None, texts(parts["description"]) or None, quantity,
                                   price[0], amount[0], page))
    table.currencies += [c for _, c in (price, amount) if c]
    for key in ("code", "description", "quantity", "unit_price", "amount"):
        if parts[key]:
            table.boxes[f"lines[{n}].{key}"] = span(parts[key])


def prefer(table: Table, *others: Table) -> Table:
    """The table's reading, or another's (a till's, :func:`read_receipt`; blocks of labelled values,
    :func:`ingestion.invoices.blocks.read_blocks`) where it holds more lines whose quantity x price is their amount
    (a quantity of 0, a VAT summary's rate letter, counts for none)."""
    def priced(lines: list[InvoiceLine]) -> int:
        return sum(1 for x in lines if None not in (x.quantity, x.unit_price, x.amount) and x.quantity and
                   (x.quantity * x.unit_price).quantize(_CENT, ROUND_HALF_UP) == x.amount)

    best = max(others, key=lambda t: priced(t.lines), default=table)
    return best if priced(best.lines) > priced(table.lines) else table
