"""What a table column's cells hold, as their text shows: whole numbers (quantities), money, codes, rates, units of
measure or words; whether they count the lines or differ from line to line; and on how many rows three columns
multiply (quantity x price = amount). :mod:`ingestion.invoices.columns` gives columns their roles from these.

>>> cell_kind("6"), cell_kind("1.85"), cell_kind("85123A"), cell_kind("20%"), cell_kind("HAND WARMER")
('int', 'money', 'code', 'rate', 'text')
"""

from __future__ import annotations

import re
from collections import Counter

from ingestion.invoices.cells import code_like
from ingestion.invoices.values import (CENTS, CURRENCIES, decimal_readings, parse_int, parse_money, parse_quantity,
                                      three_decimals)
from ingestion.invoices.vocab import UNITS, norm

__all__ = ["cell_kind", "code_shaped", "column_kind", "counts_lines", "distinct", "has_digits", "named", "products",
           "units_only", "whole", "wording"]

_CODE = re.compile(r"^[A-Z0-9][A-Z0-9\-/.]*\d[A-Z0-9\-/.]*$|^[A-Z]{1,4}$", re.IGNORECASE)
_RATE = re.compile(r"[-(]?\d+(?:[.,]\d+)?\s?%\)?")


def wording(cells: list[list[str]]) -> bool:
    """Whether cells hold words, different from row to row, as a description does (not a unit or a rate repeated
    on every line, not codes or numbers): the two sides of a strip between such cells are one text, read apart.

    >>> wording([["RED"], ["GREY"], ["SINGLE"]]), wording([["PCS"], ["PK"], ["EA"], ["BOX"]]), wording([["22632"], ["X1"]])
    (True, False, False)
    """
    texts = [" ".join(c) for c in cells]
    words = sum(1 for t in texts if t.replace(" ", "").replace("-", "").isalpha() and norm(t) not in UNITS)
    return words > len(texts) / 2 and len(set(texts)) > len(texts) / 2


def named(cells: list[str]) -> bool:
    """Whether cells hold names: on most of them several words, the first not shaped as a code (no digit, or under
    three characters: ``3 PIECE COOKIE CUTTER SET``), where a column of codes and names holds ``22632 HAND WARMER``.

    >>> named(["CLOTHES PEGS PACK 24", "3 PIECE SET", "JAM SET"]), named(["22632 HAND WARMER", "21135 POSTCARD"])
    (True, False)
    """
    texts = [t for t in cells if t]
    firsts = [t.split()[0] for t in texts if len(t.split()) > 1]
    return sum(1 for f in firsts if len(f) < 3 or not any(ch.isdigit() for ch in f)) > len(texts) / 2


def cell_kind(text: str) -> str | None:
    """What one cell holds: ``"rate"``, ``"int"``, ``"money"``, ``"code"`` or ``"text"`` (``None`` when empty)."""
    if not text:
        return None
    if _RATE.fullmatch(text):
        return "rate"  # 20%: a tax or discount rate, no description nor code
    if parse_int(text) is not None or (parse_quantity(text) is not None and parse_money(text) is None):
        return "int"  # 6, 1,200, 6 pcs, 160,00 each
    if CENTS.search(text) and parse_money(text) is not None:
        return "money"
    if three_decimals(text) is not None and parse_money(text)[1]:  # "GBP 2.950", "€4.250": a price to 1/10 cent
        return "money"
    if " " not in text and _CODE.match(text):
        return "code"
    return "text"


def column_kind(rows: list[list[str]], k: int) -> str | None:
    """The :func:`cell_kind` most of column ``k``'s filled cells are, or ``None`` for an empty column."""
    counts = Counter(cell_kind(r[k]) for r in rows if k < len(r))
    counts.pop(None, None)
    return counts.most_common(1)[0][0] if counts else None




def counts_lines(rows: list[list[str]], k: int, first: int | None) -> bool:
    """Whether column ``k`` counts the lines: ``first``, ``first + 1``, ... on the rows with a value in it, printed
    with leading zeros (``0001``) or a full stop (``1.``) or, as positions, in tens (``10``, ``20``).

    >>> counts_lines([["1", "A"], ["", "B"], ["2", "C"]], 0, 1), counts_lines([["22632"], ["22633"]], 0, 1)
    (True, False)
    >>> counts_lines([["0001"], ["0002"]], 0, 1), counts_lines([["10"], ["20"], ["30"]], 0, 1), counts_lines([["3."]], 0, 3)
    (True, True, True)
    """
    if first is None:
        return False
    cells = [r[k].rstrip(".") for r in rows if k < len(r) and r[k]]
    if not cells or not all(c.isdigit() and c.isascii() for c in cells):
        return False
    return any(all(int(c) == step * (first + n) for n, c in enumerate(cells)) for step in (1, 10))


def distinct(rows: list[list[str]], k: int) -> bool:
    """Whether column ``k`` holds a different value on most of its rows, as products' codes do (under three rows: yes).

    >>> distinct([["EA"], ["EA"], ["BOX"], ["EA"]], 0), distinct([["22632"], ["21135"], ["22632"]], 0)
    (False, True)
    """
    cells = [r[k] for r in rows if k < len(r) and r[k]]
    return len(cells) < 3 or len(set(cells)) > len(cells) / 2


def units_only(rows: list[list[str]], k: int) -> bool:
    """Whether column ``k``'s cells are all units of measure or currencies, as no codes are: ``[["PCS"], ["BOX"]]``
    and ``[["CHF"], ["CHF"]]`` (the currency printed after each amount) yes."""
    cells = [norm(r[k]) for r in rows if k < len(r) and r[k]]
    return bool(cells) and all(c in UNITS or c.upper() in CURRENCIES for c in cells)


def has_digits(rows: list[list[str]], k: int) -> bool:
    """Whether most of column ``k``'s cells hold a digit.

    >>> has_digits([["PCS"], ["PK"]], 0), has_digits([["22632"], ["POST"], ["84880"]], 0)
    (False, True)
    """
    cells = [r[k] for r in rows if k < len(r) and r[k]]
    return sum(any(ch.isdigit() for ch in c) for c in cells) > len(cells) / 2


def whole(rows: list[list[str]], k: int) -> bool:
    """Whether column ``k`` holds quantities printed with zero decimals (``6.00``) on every row that has one."""
    cells = [r[k] for r in rows if k < len(r) and r[k]]
    return bool(cells) and all(parse_quantity(c) is not None for c in cells)


def products(rows: list[list[str]], q: int, price: int, amount: int, priced: bool = False) -> int:
    """On how many rows quantity x price equals amount, to the cent (``priced``: counting only rows whose price is
    not 0.00, where any number would do); a price or quantity with three decimals (``2.950`` each, ``6,000`` units)
    read either way.

    >>> products([["6,000", "1,85", "11,10"], ["24,000", "0,42", "10,08"]], 0, 1, 2)
    2
    """
    hits = 0
    for r in rows:
        if max(q, price, amount) >= len(r):
            continue
        qty, p, a = parse_quantity(r[q]), parse_money(r[price]), parse_money(r[amount])
        readings = decimal_readings(qty, p[0] if p else None, r[q], r[price])  # 2.950 each, as the table reads it
        if a and any(abs(n * v - a[0]) <= 0.005 for n, v in readings) and not (priced and p[0] == 0):
            hits += 1
    return hits


def code_shaped(rows: list[list[str]], k: int) -> bool:
    """Whether most of column ``k``'s filled cells are shaped as products' codes (:func:`code_like`).

    >>> code_shaped([["10", "22113"], ["20", "85123A"]], 0), code_shaped([["10", "22113"], ["20", "85123A"]], 1)
    (False, True)
    """
    cells = [r[k] for r in rows if k < len(r) and r[k]]
    return 2 * sum(code_like(c) for c in cells) > len(cells)
