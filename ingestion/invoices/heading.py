"""The line-item table's heading row and its columns.

The heading row is a row naming at least two known column headings (:data:`ingestion.invoices.vocab.HEADINGS`),
which with the words glued to them a space apart (``Unit Price Excl. VAT``) hold half its words or more, or, on a
page with none, the row of words (three groups or more) just above the first row holding two amounts (or above a
row of one amount over it, a "Brought forward"); words on it the vocabulary does not know are headings whose role
the column's content gives. Headings a space apart are one heading: a known one keeps its role with words that
narrow it (``Amount (EUR)``, ``excl. VAT``) and gives it up to words naming another value (``Amount incl. VAT``).
Headings printed over two lines (``Unit`` over ``price``) are read as one row when that reading finds more roles,
or holds more of the upper row's words in known headings, than either row alone; a row naming only the description
over the heading row is a two-row table's instead: each item's description is on a row of its own above its other
values. Headings alone on a row just above or below, of roles the heading row lacks, are its own (a turned sheet's
row read in two); stacked over or under its headings they leave it unclear which column is which, and that page's
lines are not read.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ingestion.invoices.columns import Column
from ingestion.invoices.values import CENTS, CURRENCIES
from ingestion.invoices.vocab import (BEFORE, HEADINGS, IDS, OTHER, SUMS, TAXES, WHICH_QUANTITY, Match, match_words,
                                     norm)
from ingestion.invoices.words import Word

__all__ = ["RULE", "Heading", "find_heading", "item_row"]

RULE = re.compile(r"^[-=_.*~]+$")
"""A rule typed as text."""


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
            both, lower = _cell_matches(stacked), match_words(rows[i + 1], HEADINGS, after=True)
            if not _over(both, row, stacked) and \
                    _score(both, row, stacked) > max(_score(lower), _score(found, row, row)):
                found, row = both, stacked
            elif _score(lower) > _score(found):
                continue  # the row below is the heading row
        last = i if row is rows[i] else i + 1
        if len({m.role for m in found} - {OTHER}) < 2 or _held(found, row) < len(row) * 0.5 or \
                any(CENTS.search(w.text) for w in row):  # amounts: a totals row ("Tax Total 21% on 408,00 85,68")
            continue
        heading = _heading(rows, i, found, row, last)
        if heading is not None:
            return heading
    for i in range(len(rows) - 1):
        if _wordy(rows[i]) and (item_row(rows[i + 1]) or (  # or under a row of one amount ("Brought forward")
                i + 2 < len(rows) and sum(1 for w in rows[i + 1] if CENTS.search(w.text)) == 1 and
                item_row(rows[i + 2])) or (  # or over its headings' second line ("Discount" over "%")
                i + 2 < len(rows) and item_row(rows[i + 2]) and not any(ch.isdigit() for w in rows[i + 1]
                                                                        for ch in w.text))):
            stacked = _stacked(rows[i - 1], rows[i]) if i else None
            first, words = (i - 1, stacked) if stacked else (i, rows[i])
            heading = _heading(rows, first, match_words(words, HEADINGS, after=True), words, i)
            if heading is not None:
                return heading
    return None


def _held(found, row: list[Word]) -> int:
    """How many of the row's words known headings hold, with the words glued to them a space apart (``Excl. VAT``
    of ``Unit Price Excl. VAT``), as :func:`_glued` joins them."""
    held = {k for m in found for k in range(m.start, m.end)}
    for k in sorted(held):
        for step in (1, -1):
            j = k + step
            while 0 <= j < len(row) and j not in held and _gap(row, min(j, j - step), max(j, j - step)) < \
                    0.5 * max(row[j].height, 4.0):
                held.add(j)
                j += step
    return len(held)


def _gap(row: list[Word], a: int, b: int) -> float:
    return row[b].x0 - row[a].x1


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
    """How well heading matches read a row: the roles found, then how many of the ``upper`` row's words (of a
    stacked reading, ``words``) a match holds less the matches of a role found before (a line printer's ``Qty
    Ord`` beside ``Qty`` shipped is one more quantity, and leaves no upper word unread as ``Qty`` alone would)."""
    roles = {m.role for m in found} - {OTHER}
    held = {id(w) for m in found for w in words[m.start:m.end]}
    return len(roles), sum(id(w) in held for w in upper) - (len(found) - len(roles))


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
    if any(ch.isdigit() for w in words for ch in w.text) or any(RULE.match(w.text) for w in words) or \
            min(w.y0 for w in lower) - max(w.y1 for w in upper) > 0.6 * max(w.height for w in words):
        return None
    if _sentence(upper) or (len(upper) == 1 and sum(upper[0].x0 < v.x1 and v.x0 < upper[0].x1 for v in lower) > 1):
        return None  # "We invoice you for the following deliveries:", or a section's title, over the headings
    if 2 * sum(any(u.x0 < v.x1 and v.x0 < u.x1 for v in lower) for u in upper) < len(upper) and \
            not all(any(u.x0 < v.x1 and v.x0 < u.x1 for u in upper) for v in lower):
        return None  # neither most upper words over lower ones nor every lower word under one: no second line
    cells: list[list[Word]] = []  # words whose x ranges overlap, over both rows
    for w in sorted(words, key=lambda w: w.x0):
        if cells and w.x0 < max(v.x1 for v in cells[-1]) + (0.5 * w.height if w in lower and _linked(
                w, cells[-1], lower) else 0):
            cells[-1].append(w)
        else:
            cells.append([w])
    return [w for cell in cells for w in sorted(cell, key=lambda w: (w not in upper, w.x0))]


def _sentence(row: list[Word]) -> bool:
    """Whether ``row`` is a sentence, not a heading line: four words or more a space apart, or ending in a colon.

    >>> _sentence([Word(t, 30 * k, 0, 30 * k + 25, 9, 1) for k, t in enumerate(("We", "invoice", "you", "for"))])
    True
    """
    return row[-1].text.endswith(":") or len(row) >= 4 and all(
        b.x0 - a.x1 < 0.6 * b.height for a, b in zip(row, row[1:]))


def _linked(w: Word, cell: list[Word], lower: list[Word]) -> bool:
    """Whether ``w``, a space after ``cell`` on the lower row, goes on its heading: it is "of" or "per", or follows
    one (``Description`` ``of`` ``Goods``); other words a space apart may be two narrow columns (``Nos`` ``SKU``)."""
    last = max((v for v in cell if v in lower), key=lambda v: v.x1, default=None)
    return last is not None and (norm(w.text) in ("of", "per") or norm(last.text) in ("of", "per"))


def _cell_matches(words: list[Word]) -> list[Match]:
    """The heading matches of a stacked reading (:func:`_stacked`), one per column cell (words whose x ranges
    overlap) that names a known heading: a cell's words are one heading, named by its head word as English
    compounds are, the last known one (``Billed Quantity``, ``Stock Item Code``), or the last before "of" or "per"
    (``Value of Goods``), so a word of a qualifier is no column of its own; a sum "per" a unit is the unit price
    (``Value per item``).

    >>> up = [Word("Value", 100, 0, 130, 9, 1), Word("Stock", 40, 0, 70, 9, 1)]
    >>> low = [Word("Item", 40, 11, 60, 20, 1), Word("Code", 62, 11, 80, 20, 1), Word("of", 95, 11, 105, 20, 1),
    ...        Word("Goods", 107, 11, 135, 20, 1)]
    >>> [(m.role, m.start, m.end) for m in _cell_matches(_stacked(up, low))]
    [('code', 0, 3), ('amount', 3, 6)]
    """
    out, start = [], 0
    while start < len(words):
        end = start + 1
        while end < len(words) and words[end].x0 < max(w.x1 for w in words[start:end]) + (
                0.5 * words[end].height if {norm(words[end].text), norm(words[end - 1].text)} & {"of", "per"} or
                not match_words(words[end:end + 1], HEADINGS) or _one_heading(words[start:end + 1]) else 0):
            end += 1  # a space apart: one heading, unless the word is a heading of its own ("Nos" "SKU")
        cell = words[start:end]
        of = next((k for k, w in enumerate(cell) if norm(w.text) in ("of", "per")), len(cell))
        found = match_words(cell, HEADINGS, after=True, keep=True)  # "Billed Quantity": the head word names it
        head = [m for m in found if m.end <= of] or found
        after = cell[head[-1].end:of] if head else []  # words after the head: narrowing it, or naming another
        if head and after and head[-1].role in ("code", "description") and all(norm(w.text) in IDS for w in after):
            out.append(Match("code", start, end))  # "Product #", "Stock Ref.": a product's identifier
            start = end
            continue
        if head and any(_qualifier(w.text) not in (_SAME | _CURRENCY | {""}) - {"%"} and not w.text.startswith("(")
                        for w in after):
            head = []  # "Rate %", "Amount incl. VAT": the column's content tells what it holds
        if head:
            per = (of < len(cell) and norm(cell[of].text) == "per" and head[-1].role in ("amount", "unit_price")) or (
                head[-1].role == "amount" and norm(cell[0].text) == "unit" and head[-1].start > 0)  # "Unit Net"
            out.append(Match("unit_price" if per else head[-1].role, start, end))  # "Value per item": a price
        start = end
    return out


_STARTS = {phrase[:n] for phrase in HEADINGS for n in range(2, len(phrase))}
"""The first words of the known headings of three words or more (``net unit`` of ``Net unit price``)."""


def _one_heading(words: list[Word]) -> bool:
    """Whether the last two of ``words`` are one known heading (``Product Code``, ``Item Description``), or begin
    one (``Net unit`` over ``price``), though the last is a heading of its own too."""
    return any(m.start == 0 and m.end == 2 for m in match_words(words[-2:], HEADINGS)) or \
        tuple(norm(w.text) for w in words[-2:]) in _STARTS


def _wordy(row: list[Word]) -> bool:
    """Whether ``row`` could be a row of headings: three groups of words or more, and no value: no number but a
    rate or one digit in one word (``VAT 20%``, a ``%`` OCR read as ``8``).

    >>> row = [Word(t, 40 * k, 0, 40 * k + 30, 9, 1) for k, t in enumerate(["Item", "Qty", "Disc.", "8", "Net"])]
    >>> _wordy(row), _wordy(row[:3] + [Word("2.55", 200, 0, 230, 9, 1)])
    (True, False)
    """
    numbers = [w.text for w in row if any(ch.isdigit() for ch in w.text)]
    return len(numbers) <= 1 and all(re.fullmatch(r"\(?\d{1,2}(?:[.,]\d)?\s?%?\)?", t) for t in numbers) and \
        len(_groups(row)) >= 3


def item_row(row: list[Word]) -> bool:
    """Whether ``row`` looks like an item row: two amounts or more among three values or more."""
    return sum(1 for w in row if CENTS.search(w.text)) >= 2 and len(_groups(row)) >= 3


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
    columns = _glued(columns)
    two_row = False
    if i > 0 and "description" not in roles:
        above = rows[i - 1]
        if [m.role for m in match_words(above, HEADINGS, after=True)] == ["description"] and \
                rows[i][0].y0 - above[-1].y1 < 2 * rows[i][0].height:
            two_row = True
    first, sure = i, True
    columns.sort(key=lambda c: c.x0)
    lower = None if two_row else _second_line(rows, last, columns)
    if lower:  # "Line" over "Total": one heading, not a row of headings of its own
        columns, last = lower, last + 1
    for ref, k in ([(last, last + 1)] if two_row else [(i, i - 1)] if lower else [(i, i - 1), (last, last + 1)]):
        more = _more_headings(rows, ref, k, roles | {c.role for c in columns})
        if more:
            first, last = min(first, k), max(last, k)
            sure = sure and not any(c.x0 < m.x1 and m.x0 < c.x1 for m in more for c in columns)
            columns += more
    if len(columns) < 3:
        return None
    columns = sorted((_taxed(c) for c in columns), key=lambda c: c.x0)
    return Heading(first, columns, two_row, last, sure)


_TAX_WORDS = TAXES | {"pst", "qst", "tva", "ust", "moms"}  # and Canada's provincial, France's, Germany's, Sweden's
_SUM_WORDS = SUMS | {"net", "nett"}  # a heading's "Net" is the net amount


def _taxed(col: Column) -> Column:
    """A heading naming a tax as what the column holds is no price nor amount of the goods: ``VAT rate``, ``HST
    amount`` and ``Total (incl. VAT)`` beside the net amount, whose content may still tell (no role); naming the tax
    left out, it is the goods' own (``Total (excl. VAT)`` the amount, ``Unit price excl. VAT`` the price).

    >>> def col(role, *texts): return Column(role, 0, 9, [Word(t, 0, 0, 9, 9, 1) for t in texts])
    >>> [_taxed(col(*c)).role for c in (("amount", "HST", "amount"), (None, "Total", "(excl.", "VAT)"),
    ...                                 ("unit_price", "VAT", "rate"), ("unit_price", "Price", "ex", "VAT"))]
    [None, 'amount', None, 'unit_price']
    """
    keys = {k.strip("()").strip(".") for k in col.keys()}
    if not keys & _TAX_WORDS:
        return col
    if keys & BEFORE:
        role = col.role or ("amount" if keys & _SUM_WORDS else None)
    else:
        role = None if col.role in ("unit_price", "amount") else col.role
    return Column(role, col.x0, col.x1, col.heading)


def _second_line(rows: list[list[Word]], last: int, columns: list[Column]) -> list[Column] | None:
    """The columns with their headings' second line, when the row under the heading row is one (``Qty`` over
    ``Desp.``, ``Item`` over ``Code``, ``Line`` over ``Total``): close under it, words only (no number, no typed
    rule), each standing under one heading (overlapping it and no other), and not all under the description (a first
    item's words) unless they name an identifier (``Product`` over ``#``); else ``None``. Each heading is read again
    over both lines as one cell (:func:`_cell_matches`), so ``Item Code`` is the code, ``Line Total`` the amount and
    ``Product #`` a code; a heading whose two lines name no one value is left to the column's content."""
    if last + 1 >= len(rows):
        return None
    row, above = rows[last + 1], rows[last]
    height = max(w.height for w in above)
    if min(w.y0 for w in row) - max(w.y1 for w in above) > 0.6 * height or \
            any(RULE.match(w.text) or any(ch.isdigit() for ch in w.text) for w in row):
        return None
    homes = [[k for k, c in enumerate(columns) if c.x0 < w.x1 and w.x0 < c.x1] for w in row]
    if any(len(ks) != 1 for ks in homes) or (all(columns[ks[0]].role == "description" for ks in homes) and
                                             not all(norm(w.text) in IDS for w in row)):
        return None
    out = []
    for k, col in enumerate(columns):
        words = [w for w, ks in zip(row, homes) if ks[0] == k]
        if not words:
            out.append(col)
            continue
        cell = col.heading + words
        found = _cell_matches(cell)
        role = found[0].role if len(found) == 1 else None
        out.append(Column(role, min(col.x0, *(w.x0 for w in words)), max(col.x1, *(w.x1 for w in words)), cell))
    return out


_SAME = {"excl", "ex", "excluding", "before", "net", "exc",  # words keeping what "Amount excl. VAT" names
         "each"} | WHICH_QUANTITY  # or "Qty Desp.", "Price Ea.": which quantity, and a price per unit
_OTHER = {"incl", "inc", "including", "gross", "vat", "tax", "after"}  # words making it another value
_CURRENCY = {mark.lower() for mark in CURRENCIES} | {"%"}  # "Amount AUD", "Price (A$)", "Rate %"
_JOINS = {"/", "&", "+", "and", "or"}  # a word joining two names of one column ("Product / Service")


def _glued(columns: list[Column]) -> list[Column]:
    """Neighbouring headings a space apart as one heading (``Amount Excl. VAT``, ``Amount (EUR)``, ``Net Value``),
    as the words of an unknown heading are grouped: a known heading keeps its role with words of the same role or
    that narrow it (a currency, "excl. VAT"), and gives it up to words naming another value ("incl. VAT": the
    column's content then tells what it holds). Of an unknown group after a known heading, only its first words
    of that kind are glued to it (OCR may group ``(EUR) No.`` of two columns); other unknown words stay a heading
    of their own ("Pos." beside "Item", however close OCR reads them). OCR's one-letter slips in such a word
    (``Exel.``) are read as the word. In a text layer, a one-word heading a word space before another known one
    makes one heading with it, named by its head word, the last, as English compounds are (``Article code`` the
    code, ``Item price`` the price), and words joined by a slash or "and" are one heading (``Product / Service``);
    an unknown word a word space before the description's heading narrows it (``Full Description of Goods``).

    >>> cols = [Column("amount", 0, 30, [Word("Amount", 0, 0, 30, 9, 1)]),
    ...         Column(None, 32, 70, [Word("Incl.", 32, 0, 50, 9, 1), Word("VAT", 52, 0, 70, 9, 1)])]
    >>> [(c.role, c.x1) for c in _glued(cols)]
    [(None, 70)]
    >>> cols = [Column("amount", 0, 30, [Word("Amount", 0, 0, 30, 9, 1)]),
    ...         Column(None, 32, 80, [Word("(EUR)", 32, 0, 55, 9, 1), Word("No.", 60, 0, 80, 9, 1)])]
    >>> [(c.role, [w.text for w in c.heading]) for c in _glued(cols)]
    [('amount', ['Amount', '(EUR)']), (None, ['No.'])]
    >>> cols = [Column("description", 0, 30, [Word("Article", 0, 0, 30, 9, 1)]),
    ...         Column("code", 33, 50, [Word("code", 33, 0, 50, 9, 1)])]
    >>> [(c.role, c.x1) for c in _glued(cols)]
    [('code', 50)]

    OCR's word boxes are taller than the letters: a word making the heading another value (``VAT``) glues to it
    only a space away, not at a column's gap (``Unit`` and a ``VAT`` column 11 points apart, boxes 14 high):

    >>> cols = [Column("unit_price", 438, 458, [Word("Unit", 438, 287, 458, 301, 1, True)]),
    ...         Column(None, 469, 484, [Word("VAT", 469, 287, 484, 301, 1, True)])]
    >>> [c.role for c in _glued(cols)]
    ['unit_price', None]
    """
    out: list[Column] = []
    for col in sorted(columns, key=lambda c: c.x0):
        prev = out[-1] if out else None
        apart = prev is None or col.x0 - prev.x1 >= (0.8 if col.heading[0].ocr else 0.5) * max(
            col.heading[0].height, 4.0)
        spaced = not apart and not col.heading[0].ocr  # a word space of a text layer (OCR's gaps are estimates)
        narrows = prev is not None and (prev.role not in (None, OTHER, "quantity") and prev.role != col.role or (
            prev.role is None and col.role == "description" and len(prev.heading[0].text) > 3 and
            prev.heading[0].text.isalpha()))  # "Item price", "Full Description" ("Quantity" beside "Part #": two)
        if spaced and col.role and len(prev.heading) == 1 and narrows:
            out[-1] = Column(col.role, prev.x0, col.x1, prev.heading + col.heading)  # the head word names it
            continue
        joins = not apart and norm(col.heading[0].text) in _JOINS  # OCR's "&" too, however far it puts it
        if (joins or spaced and norm(col.heading[0].text) == col.heading[0].text) and prev.role:  # "Product / Service"
            out[-1] = Column(prev.role, prev.x0, col.x1, prev.heading + col.heading)
            continue
        if not apart and {prev.role, col.role} <= {"code", "description"} and len(prev.heading) > 1 and \
                norm(prev.heading[-1].text) in _JOINS:  # "Item & Description": one column, the code first
            out[-1] = Column("code" if "code" in (prev.role, col.role) else prev.role, prev.x0, col.x1,
                             prev.heading + col.heading)
            continue
        if apart or (prev.role and col.role and prev.role != col.role):
            out.append(col)
            continue
        lead, rest = col.heading, []
        if prev.role and col.role is None:
            n = next((k for k, w in enumerate(col.heading) if _qualifier(w.text) is None), len(col.heading))
            lead, rest = col.heading[:n], col.heading[n:]
        extra = {_qualifier(w.text) for c in (prev, col) if c.role is None for w in (c.heading if c is prev else lead)}
        if not lead or None in extra:
            out.append(col)  # an unknown heading of its own ("Pos.", "Ln"), however close OCR puts it
            continue
        role = prev.role or col.role
        if extra & _OTHER and not extra & _SAME:
            if col.x0 - prev.x1 >= 0.5 * max(col.heading[0].height, 4.0):
                out.append(col)  # OCR's wide gap: "Unit" and a "VAT" column, not one "Unit VAT"
                continue
            role = None
        out[-1] = Column(role, prev.x0, max(prev.x1, lead[-1].x1), prev.heading + lead)
        if rest:
            out.append(Column(None, rest[0].x0, col.x1, rest))
    return out


def _qualifier(text: str) -> str | None:
    """The word of :data:`_SAME`, :data:`_OTHER` or :data:`_CURRENCY` that ``text`` is (``""`` for a stray full
    stop), allowing OCR one slipped letter in a word of four or more (``Exel.`` for ``Excl.``); else ``None``.

    >>> _qualifier("Exel."), _qualifier("(EUR)"), _qualifier("."), _qualifier("No.")
    ('excl', 'eur', '', None)
    """
    key = norm(text).strip("()").strip(".")
    known = _SAME | _OTHER | _CURRENCY
    if key in known or not key.strip(".,:;-"):
        return key if key in known else ""
    near = [k for k in known if len(k) >= 4 and len(k) == len(key) and sum(a != b for a, b in zip(k, key)) == 1]
    return near[0] if len(near) == 1 else None


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
