"""A table's columns: where one ends and the next begins, and what a column holds when its heading is unknown.

>>> cols = [Column("code", 50, 70, []), Column("description", 90, 140, []), Column("quantity", 400, 420, [])]
>>> rows = [[Word("22965", 50, 0, 76, 9, 1), Word("LONG", 90, 0, 250, 9, 1), Word("6", 415, 0, 420, 9, 1)]]
>>> [round(e) for e in boundaries(cols, rows)]
[84, 333]
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ingestion.invoices.values import parse_int, parse_money
from ingestion.invoices.words import Word

__all__ = ["Column", "assign_roles", "boundaries"]

_CODE = re.compile(r"^[A-Z0-9][A-Z0-9\-/.]*\d[A-Z0-9\-/.]*$|^[A-Z]{1,4}$", re.IGNORECASE)
_MONEY = re.compile(r"\d[.,]\d\d\b")


@dataclass
class Column:
    role: str | None  # code, description, quantity, unit_price, amount; None until found from the content
    x0: float
    x1: float
    heading: list[Word]


def boundaries(columns: list[Column], rows: list[list[Word]]) -> list[float]:
    """The x between each pair of neighbouring columns: the middle of an emptiest strip (by how many rows' words
    cover it, in 1 pt steps) from the left heading's start to the right heading's end; of several, the one most
    within the gap between the two headings, then the widest. The emptiest is counted between words, where the
    middles of words reaching into that span lie on both sides: a strip beside all of them (a margin under a
    heading wider than its values, or a column the rows leave empty) is as empty as nothing, and is taken only
    when it lies more within the headings' gap. Words OCR read in one line touch their neighbours, their x
    positions being estimates; they count only over their middle."""
    edges = []
    for left, right in zip(columns, columns[1:]):
        lo, hi = int(left.x0) + 1, int(right.x1) - 1
        if hi <= lo:
            edges.append((left.x1 + right.x0) / 2)
            continue
        cover = [0] * (hi - lo)
        centres = []
        for row in rows:
            for w in row:
                x0, x1 = _extent(w)
                for x in range(max(lo, int(x0)), min(hi, int(x1) + 1)):
                    cover[x - lo] += 1
                if w.x0 < hi and w.x1 > lo:
                    centres.append((w.x0 + w.x1) / 2)
        inside = [x for x in range(lo, hi) if any(c < x for c in centres) and any(c > x + 1 for c in centres)]
        least = min((cover[x - lo] for x in inside), default=min(cover))
        runs = _runs([x for x in range(lo, hi) if cover[x - lo] <= least])
        gap0, gap1 = min(left.x1, right.x0) - 2, max(left.x1, right.x0) + 2
        a, b = max(runs, key=lambda r: (max(0.0, min(r[1], gap1) - max(r[0], gap0)), r[1] - r[0]))
        edges.append((a + b) / 2)
    return edges


def _extent(w: Word) -> tuple[float, float]:
    """The x range a word surely covers: an OCR word less a third of a character at each end."""
    if not w.ocr or not w.text:
        return w.x0, w.x1
    trim = min((w.x1 - w.x0) / len(w.text) / 3, (w.x1 - w.x0) / 4)
    return w.x0 + trim, w.x1 - trim


def _runs(xs: list[int]) -> list[tuple[int, int]]:
    """Increasing x as runs (start, end) of neighbours.

    >>> _runs([1, 2, 3, 7, 8])
    [(1, 4), (7, 9)]
    """
    runs: list[tuple[int, int]] = []
    for x in xs:
        if runs and runs[-1][1] == x:
            runs[-1] = (runs[-1][0], x + 1)
        else:
            runs.append((x, x + 1))
    return runs


def _kind(text: str) -> str | None:
    if not text:
        return None
    if parse_int(text) is not None:
        return "int"
    if _MONEY.search(text) and parse_money(text) is not None:
        return "money"
    if " " not in text and _CODE.match(text):
        return "code"
    return "text"


def assign_roles(columns: list[Column], rows: list[list[str]]) -> None:
    """Give each column without a role one from its cells (``rows`` of cell texts, one per column): whole numbers
    make the quantity, code-like tokens the code, the widest text the description, and of two money columns the
    amount is the one equal to quantity x the other on most rows."""
    have = {c.role for c in columns if c.role}
    kinds = []
    for k, col in enumerate(columns):
        counts = Counter(_kind(r[k]) for r in rows if k < len(r))
        counts.pop(None, None)
        kinds.append(counts.most_common(1)[0][0] if counts else None)
    unknown = [k for k, c in enumerate(columns) if c.role is None]
    money = [k for k in unknown if kinds[k] == "money"]
    for k in unknown:
        role = {"int": "quantity", "code": "code"}.get(kinds[k] or "")
        if role and role not in have:
            columns[k].role = role
            have.add(role)
    texts = [k for k in unknown if kinds[k] == "text" and columns[k].role is None]
    if texts and "description" not in have:
        widest = max(texts, key=lambda k: sum(len(r[k]) for r in rows))
        columns[widest].role = "description"
        have.add("description")
    money_roles = [r for r in ("unit_price", "amount") if r not in have]
    if len(money) == 1 and len(money_roles) == 1:
        columns[money[0]].role = money_roles[0]
    elif len(money) == 2 and len(money_roles) == 2:
        q = next((k for k, c in enumerate(columns) if c.role == "quantity"), None)
        a, b = money
        if q is not None and _products(rows, q, b, a) > _products(rows, q, a, b):
            a, b = b, a
        columns[a].role, columns[b].role = "unit_price", "amount"


def _products(rows: list[list[str]], q: int, price: int, amount: int) -> int:
    """On how many rows quantity x price equals amount, to the cent."""
    hits = 0
    for r in rows:
        qty, p, a = parse_int(r[q]), parse_money(r[price]), parse_money(r[amount])
        if qty is not None and p and a and abs(qty * p[0] - a[0]) <= 0.005:
            hits += 1
    return hits
