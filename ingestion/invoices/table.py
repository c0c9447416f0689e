"""The line-item table: its heading row, its columns, and its rows read into lines.

The heading row is a row naming at least two known column headings (:data:`ingestion.invoices.vocab.HEADINGS`)
with a money column among them or still to be found, or, on a page with none, the row of words (three groups or
more) just above the first row holding two amounts; words on it the vocabulary does not know are headings that get
their role from their column's content (:func:`ingestion.invoices.columns.assign_roles`), split first where the
rows show two columns under one (:func:`ingestion.invoices.columns.split_unknown`). Headings printed over two lines
(``Unit`` over ``price``) are read as one row when that reading finds more roles, or holds more of the upper
row's words in known headings, than either row alone; a row naming only the description over the heading row is
a two-row table's instead. A column counting the lines (1, 2, 3 ...) is read into no value. A
heading row whose row just above names only the description is a two-row table: each item's description is on a
row of its own above its other values. Headings alone on a row just above or below, of roles the heading row lacks,
are its own (a turned sheet's row read in two); stacked over or under its headings they leave it unclear which
column is which, and that page's lines are not read.

Column boundaries lie in the emptiest vertical strip between neighbouring headings, measured over the rows below,
so a short heading over long descriptions or over right-aligned numbers wider than it still gets its values. A row
without a quantity, a price or an amount continues the description of the line above (a wrapped description),
with a doubt when its first word would have fit on the line above (a note or a heading?); in a
two-row table it is the description of the line below. A code and a description printed in one column are read
apart, and a word of a text layer running across a column edge is a doubt (:mod:`ingestion.invoices.cells`). Rows stop at a totals label, a page foot ("continued",
"Page 1 of 2"), a wide gap or a row with one amount and no quantity (a total whose label is not known); a later
page resumes under its repeated heading row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from core.invoices import Box, InvoiceLine
from ingestion.invoices.cells import across, joined, text_limit, unjoin, wraps
from ingestion.invoices.columns import Column, assign_roles, boundaries, split_unknown
from ingestion.invoices.values import parse_money, parse_quantity
from ingestion.invoices.vocab import HEADINGS, LABELS, match_words
from ingestion.invoices.words import Word, row_key, span, split_at

__all__ = ["Heading", "Table", "find_heading", "read_table"]

_NUMBER_ROLES = ("quantity", "unit_price", "amount")
_FOOT = re.compile(r"^(page\s*\d+(\s*(of|/)\s*\d+)?|\d+\s*(/|of)\s*\d+)$|continued", re.IGNORECASE)
_DECIMAL = re.compile(r"\d[.,]\d\d(?![.,]?\d)")  # an amount's cents, not a date's 02.12.2010
_RULE = re.compile(r"^[-=_.*~]+$")
_DIGIT_LIKE = str.maketrans("lI|Oo", "11100")  # letters OCR reads for digits in a column of whole numbers


@dataclass
class Table:
    """What was read of the line-item table: the lines, each value's box, the currencies its money carried, and
    the rows used per page (so the header search can skip them)."""

    lines: list[InvoiceLine] = field(default_factory=list)
    boxes: dict[str, Box] = field(default_factory=dict)
    currencies: list[str] = field(default_factory=list)
    used: set[tuple[int, float]] = field(default_factory=set)  # (page, row centre) of heading and item rows
    roles: set[str] = field(default_factory=set)
    doubts: list[tuple[str, str]] = field(default_factory=list)  # (check name, detail) of what could not be told


class Heading(NamedTuple):
    index: int  # the first heading row
    columns: list[Column]  # left to right
    two_row: bool  # each item's description on a row of its own above its other values
    last: int  # the last heading row
    sure: bool  # False: headings stacked over or under the row's, so which column is which cannot be told


def find_heading(rows: list[list[Word]]) -> Heading | None:
    """The heading row of the table and its columns; headings a neighbouring row holds (heading words alone, of
    roles the row lacks, less than a line away) are the same row's, read a little higher or lower on a turned
    sheet; standing over or under one of its headings they make the columns unsure. A page with no row of known
    headings takes the row just above its first item row (a row holding two amounts), when that row is
    words only, in three groups or more: the table's headings in wordings the vocabulary does not know."""
    for i, row in enumerate(rows):
        found = match_words(row, HEADINGS, after=True)
        stacked = _stacked(row, rows[i + 1]) if i + 1 < len(rows) and not _description_row(found, row) else None
        if stacked is not None:  # headings of two words printed over two lines, or two rows of their own
            both, lower = match_words(stacked, HEADINGS, after=True), match_words(rows[i + 1], HEADINGS, after=True)
            if not _over(both, row, stacked) and \
                    _score(both, row, stacked) > max(_score(lower), _score(found, row, row)):
                found, row = both, stacked
            elif _score(lower) > _score(found):
                continue  # the row below is the heading row
        last = i if row is rows[i] else i + 1
        if len({m.role for m in found}) < 2 or sum(m.end - m.start for m in found) < len(row) * 0.5:
            continue
        heading = _heading(rows, i, found, row, last)
        if heading is not None:
            return heading
    for i in range(len(rows) - 1):
        if _wordy(rows[i]) and _items(rows[i + 1]):
            stacked = _stacked(rows[i - 1], rows[i]) if i else None
            first, words = (i - 1, stacked) if stacked else (i, rows[i])
            heading = _heading(rows, first, match_words(words, HEADINGS, after=True), words, i)
            if heading is not None:
                return heading
    return None


def _description_row(found, row: list[Word]) -> bool:
    """Whether ``row`` names the description and nothing else: over a heading row, a two-row table's."""
    return [m.role for m in found] == ["description"] and found[0].end - found[0].start == len(row)


def _over(found, upper: list[Word], words: list[Word]) -> bool:
    """Whether a stacked reading (``words``) has a heading of the ``upper`` row over one of the lower row: two rows
    of headings (a two-row table's description over the others), not headings printed over two lines."""
    ups = {id(w) for w in upper}
    spans = [(all(id(w) in ups for w in ws), min(w.x0 for w in ws), max(w.x1 for w in ws))
             for m in found if (ws := words[m.start:m.end]) and (all(id(w) in ups for w in ws) or
                                                                   not any(id(w) in ups for w in ws))]
    return any(a[0] and not b[0] and a[1] < b[2] and b[1] < a[2] for a in spans for b in spans)


def _score(found, upper: list[Word] = (), words: list[Word] = ()) -> tuple[int, int]:
    """How well heading matches read a row: the roles found less the ones found twice, then how many of the
    ``upper`` row's words (of a stacked reading, ``words``) a match holds."""
    roles = {m.role for m in found}
    held = {id(w) for m in found for w in words[m.start:m.end]}
    return 2 * len(roles) - len(found), sum(id(w) in held for w in upper)


def _stacked(upper: list[Word], lower: list[Word]) -> list[Word] | None:
    """Two rows of headings printed one over the other (``Unit`` over ``price``, ``Qty`` on the lower row alone) as
    one row: the words of each column, the upper ones first, in the order of the columns; ``None`` when the rows
    are not that (a number or a typed rule in either, a line or more apart, or an upper word over no lower one).

    >>> up = [Word("Unit", 100, 0, 118, 9, 1)]
    >>> low = [Word("Qty", 50, 11, 65, 20, 1), Word("price", 98, 11, 120, 20, 1)]
    >>> [w.text for w in _stacked(up, low)]
    ['Qty', 'Unit', 'price']
    """
    words = upper + lower
    if any(ch.isdigit() for w in words for ch in w.text) or any(_RULE.match(w.text) for w in words) or \
            min(w.y0 for w in lower) - max(w.y1 for w in upper) > 0.6 * max(w.height for w in words):
        return None
    if not all(any(u.x0 < v.x1 and v.x0 < u.x1 for v in lower) for u in upper):
        return None
    cells: list[list[Word]] = []  # words whose x ranges overlap, over both rows
    for w in sorted(words, key=lambda w: w.x0):
        if cells and w.x0 < max(v.x1 for v in cells[-1]):
            cells[-1].append(w)
        else:
            cells.append([w])
    return [w for cell in cells for w in sorted(cell, key=lambda w: (w not in upper, w.x0))]


def _wordy(row: list[Word]) -> bool:
    """Whether ``row`` could be a row of headings: no numbers, three groups of words or more."""
    return not any(ch.isdigit() for w in row for ch in w.text) and len(_groups(row)) >= 3


def _items(row: list[Word]) -> bool:
    """Whether ``row`` looks like an item row: two amounts or more among three values or more."""
    return sum(1 for w in row if _DECIMAL.search(w.text)) >= 2 and len(_groups(row)) >= 3


def _heading(rows: list[list[Word]], i: int, found, row: list[Word], last: int) -> Heading | None:
    """The heading of rows ``i`` to ``last`` (one row, or two of stacked headings, whose words are ``row``)."""
    roles = {m.role for m in found}
    columns, used = [], set()
    for m in found:
        words = row[m.start:m.end]
        columns.append(Column(m.role, min(w.x0 for w in words), max(w.x1 for w in words), words))
        used.update(range(m.start, m.end))
    rest = [w for k, w in enumerate(row) if k not in used]
    for group in _groups(rest):
        columns.append(Column(None, group[0].x0, group[-1].x1, group))
    two_row = False
    if i > 0 and "description" not in roles:
        above = rows[i - 1]
        if [m.role for m in match_words(above, HEADINGS, after=True)] == ["description"] and \
                rows[i][0].y0 - above[-1].y1 < 2 * rows[i][0].height:
            two_row = True
    first, sure = i, True
    for ref, k in ([(last, last + 1)] if two_row else [(i, i - 1), (last, last + 1)]):
        more = _more_headings(rows, ref, k, roles | {c.role for c in columns})
        if more:
            first, last = min(first, k), max(last, k)
            sure = sure and not any(c.x0 < m.x1 and m.x0 < c.x1 for m in more for c in columns)
            columns += more
    if len(columns) < 3:
        return None
    columns.sort(key=lambda c: c.x0)
    return Heading(first, columns, two_row, last, sure)


def _more_headings(rows: list[list[Word]], i: int, k: int, roles: set[str]) -> list[Column]:
    """The headings of ``rows[k]``, next to the heading row ``rows[i]``, when it holds nothing else, none of
    ``roles``, less than a line away."""
    if not 0 <= k < len(rows):
        return []
    row, other = rows[i], rows[k]
    found = match_words(other, HEADINGS, after=True)
    if not found or sum(m.end - m.start for m in found) < len(other) or {m.role for m in found} & roles:
        return []
    centre = sum(w.cy for w in row) / len(row)
    if abs(sum(w.cy for w in other) / len(other) - centre) > max(w.height for w in row):
        return []
    return [Column(m.role, other[m.start].x0, other[m.end - 1].x1, other[m.start:m.end]) for m in found]


def _groups(words: list[Word]) -> list[list[Word]]:
    """Neighbouring words closer than half their height (a space or two; a narrow column's heading may stand
    closer than a line's height to the next) as one unknown heading each; OCR's estimated word boxes can join two
    headings, which :func:`ingestion.invoices.columns.split_unknown` parts again."""
    groups: list[list[Word]] = []
    for w in sorted(words, key=lambda w: w.x0):
        if groups and w.x0 - groups[-1][-1].x1 < 0.5 * w.height:
            groups[-1].append(w)
        else:
            groups.append([w])
    return groups


def _stop(row: list[Word]) -> bool:
    """Whether ``row`` ends the table: a totals label with an amount, or a page foot."""
    text = " ".join(w.text for w in row)
    if _FOOT.search(text) and not any(_DECIMAL.search(w.text) for w in row):
        return True
    found = match_words(row, LABELS)
    return any(m.role in ("subtotal", "tax", "total") for m in found) and bool(_DECIMAL.search(text)) and \
        found[0].start <= 1


def _body(rows: list[list[Word]], start: int) -> list[list[Word]]:
    """The rows below a heading row up to where the table stops."""
    body: list[list[Word]] = []
    last = rows[start - 1]
    for row in rows[start:]:
        if all(_RULE.match(w.text) for w in row):
            continue
        gap = row[0].y0 - max(w.y1 for w in last)
        if _stop(row) or gap > 4 * max(row[0].height, 6.0):
            break
        body.append(row)
        last = row
    return body


def _cells(row: list[Word], edges: list[float], columns: list[Column]) -> dict[str, list[Word]]:
    out: dict[str, list[Word]] = {}
    for w in _cut(row, edges):
        k = sum(1 for e in edges if w.cx >= e)
        role = columns[k].role
        if role:
            out.setdefault(role, []).append(w)
    return out


def read_table(pages: list[list[list[Word]]]) -> Table:
    """The line items of every page (each page given as its rows)."""
    table = Table()
    pending: list[Word] = []
    for rows in pages:
        heading = find_heading(rows)
        if heading is None:
            continue
        index, columns, two_row, last, sure = heading
        table.used |= {row_key(r) for r in rows[index:last + 1]}
        if not sure:
            continue  # the page's lines are left unread rather than read into the wrong columns
        body = _body(rows, last + 1)
        measured = [r for r in body if any(_DECIMAL.search(w.text) for w in r)] if two_row else _items_part(body)
        columns = split_unknown(columns, measured)
        edges = boundaries(columns, measured or body)
        if not assign_roles(columns, [[_texts(c) for c in _split(r, edges, len(columns))] for r in measured],
                            first=len(table.lines) + 1):
            table.doubts.append((f"columns of page {rows[index][0].page} told apart",
                                 "two columns of whole numbers could each be the quantity (quantity x price = "
                                 "amount either way); check which is the quantity and which the code"))
        table.roles |= {c.role for c in columns if c.role}
        if two_row:
            table.used.add(row_key(rows[index - 1]))
        shared = joined([c for c in (_cells(r, edges, columns) for r in measured) if _has_numbers(c)])
        if shared:  # one column holds the code and the description
            table.roles |= {"code", "description"}
        limit = text_limit(measured or body, edges, next((k for k, c in enumerate(columns) if c.role == (
            shared or "description")), None))
        tail: list[Word] = []
        for row in body:
            cells = _cells(row, edges, columns)
            cells = unjoin(cells, shared, _has_numbers(cells))
            if _totals_row(row, cells, table.roles):
                break  # a totals row whose label the vocabulary does not know: the header reads it
            table.used.add(row_key(row))
            if not _has_numbers(cells) or (two_row and not any(_DECIMAL.search(w.text) for w in row)):
                text = row if two_row else cells.get("description", []) + cells.get("code", [])
                if two_row or not table.lines or table.lines[-1].page != row[0].page and not pending:
                    pending += sorted(text, key=lambda w: w.x0)  # one row: left to right, whatever each box's top
                else:
                    if not wraps(tail, cells.get("description", []), limit):
                        n = len(table.lines)
                        table.doubts.append((f"line {n}: description joined", f"the row under line {n} (page "
                                             f"{row[0].page}) holds no quantity, price or amount, and its first word "
                                             "would have fit on the line above: it may be a note or a heading, not "
                                             f"the rest of the description; it was joined to line {n}: check it"))
                    _extend(table, cells)
                    tail = cells.get("description") or tail
                continue
            over = across(row, edges)
            if over is not None:
                table.doubts.append((f"line {len(table.lines) + 1}: column edge told apart",
                                     f"{over.text!r} (page {row[0].page}) runs across the edge between two "
                                     "columns, so the columns may be misread: check the line's values"))
            _add(table, cells, pending, row[0].page)
            pending, tail = [], cells.get("description", [])
    return table


def _items_part(body: list[list[Word]]) -> list[list[Word]]:
    """The rows up to the last with two amounts: those after it may be totals whose label is not known, which
    must not fill the strips between columns."""
    last = max((k for k, r in enumerate(body) if _items(r)), default=len(body) - 1)
    return body[:last + 1]


def _totals_row(row: list[Word], cells: dict[str, list[Word]], roles: set[str]) -> bool:
    """Whether a row of a table with quantities and prices is a total: one amount, and no quantity."""
    if not {"quantity", "unit_price", "amount"} <= roles:
        return False
    quantity = _texts(cells.get("quantity", []))
    return sum(1 for w in row if _DECIMAL.search(w.text)) == 1 and parse_quantity(quantity) is None and \
        parse_quantity(quantity.translate(_DIGIT_LIKE)) is None


def _has_numbers(cells: dict[str, list[Word]]) -> bool:
    """Whether a row's number columns hold a number: an item row, not a wrapped description."""
    if cells.get("quantity") and parse_quantity(_texts(cells["quantity"])) is not None:
        return True
    return any(cells.get(k) and parse_money(_texts(cells[k])) for k in ("unit_price", "amount"))


def _cut(row: list[Word], edges: list[float]) -> list[Word]:
    """The row's words, those OCR read across a column edge cut at it."""
    for edge in edges:
        row = [piece for w in row for piece in split_at(w, edge)]
    return row


def _split(row: list[Word], edges: list[float], n: int) -> list[list[Word]]:
    out: list[list[Word]] = [[] for _ in range(n)]
    for w in _cut(row, edges):
        out[sum(1 for e in edges if w.cx >= e)].append(w)
    return out


def _texts(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


def _extend(table: Table, cells: dict[str, list[Word]]) -> None:
    """Join a wrapped row's description (and code) to the line above."""
    n = len(table.lines) - 1
    line = table.lines[n]
    for key in ("description", "code"):
        words = cells.get(key)
        if not words:
            continue
        text = _texts(words)
        setattr(line, key, f"{getattr(line, key)} {text}" if getattr(line, key) else text)
        old = table.boxes.get(f"lines[{n}].{key}")
        new = span(words)
        table.boxes[f"lines[{n}].{key}"] = new if old is None else Box(
            old.page, min(old.x0, new.x0), min(old.y0, new.y0), max(old.x1, new.x1), max(old.y1, new.y1))


def _add(table: Table, cells: dict[str, list[Word]], pending: list[Word], page: int) -> None:
    n = len(table.lines)
    values = {}
    description = pending + cells.get("description", [])
    values["description"] = _texts(description) or None
    values["code"] = _texts(cells.get("code", [])) or None
    values["quantity"] = parse_quantity(_texts(cells.get("quantity", [])))
    if values["quantity"] is None and any(w.ocr for w in cells.get("quantity", [])):
        values["quantity"] = parse_quantity(_texts(cells["quantity"]).translate(_DIGIT_LIKE))
    if values["quantity"] is None and cells.get("quantity"):
        money = parse_money(_texts(cells["quantity"]))
        values["quantity"] = money[0] if money else None
    for key in ("unit_price", "amount"):
        money = parse_money(_texts(cells.get(key, [])))
        values[key] = money[0] if money else None
        if money and money[1]:
            table.currencies.append(money[1])
    table.lines.append(InvoiceLine(values["code"], values["description"], values["quantity"], values["unit_price"],
                                   values["amount"], page))
    for key, words in (("description", description), *((k, cells.get(k, [])) for k in
                                                         ("code", "quantity", "unit_price", "amount"))):
        box = span(words)
        if box is not None:
            table.boxes[f"lines[{n}].{key}"] = box
