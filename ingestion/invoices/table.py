"""The line-item table's rows read into lines, under the heading row :mod:`ingestion.invoices.heading` finds.

Column boundaries lie in the emptiest vertical strip between neighbouring headings, measured over the rows below,
so a short heading over long descriptions or over right-aligned numbers wider than it still gets its values; a
column without a known heading gets its role from its content (:func:`ingestion.invoices.columns.assign_roles`),
split first where the rows show two columns under one (:func:`ingestion.invoices.columns.split_unknown`). A column
counting the lines (1, 2, 3 ...) is read into no value. A row without a quantity, a price or an amount continues
the description of the line above (a wrapped description), with a doubt when its first word would have fit on the
line above (a note or a heading?); in a two-row table it is the description of the line below. A code and a
description printed in one column are read apart, and a word of a text layer running across a column edge is a
doubt (:mod:`ingestion.invoices.cells`). Rows stop at a totals label, a page foot ("continued", "Page 1 of 2"), a
wide gap or a row with one amount and no quantity (a total whose label is not known); a later page resumes under
its repeated heading row, or, where it repeats none (a spreadsheet printed over pages), under the page before's
columns. A row of one amount equal to the sum of the lines so far, under a later page's headings ("Brought
forward") or under a page's last line where the table goes on ("Carried forward"), is a running sum, read into no
line and no total. A table whose rows of words each stand a line above the next item row and further below the last
(a spreadsheet's wrapped cells, their numbers at the foot) reads them as the first lines of the item below
(:func:`ingestion.invoices.cells.wrapped_below`); line numbers a word space before each description are a column of
their own (:func:`ingestion.invoices.columns.split_counter`).
"""

from __future__ import annotations

import re

from core.invoices import InvoiceLine
from ingestion.invoices.cells import (across, attribute, code_in_description, joined, split_run, text_limit, unjoin,
                                       unsure_code, wrapped_below, wraps)
from ingestion.invoices.columns import (Column, assign_roles, boundaries, code_rivals, headed_code, heading_tail,
                                        merge_text, split_counter, split_unknown)
from ingestion.invoices.heading import RULE, Heading, find_heading, item_row
from ingestion.invoices.kinds import counts_lines, wording
from ingestion.invoices.lines import DIGIT_LIKE, Table, add_line, extend_line, take_code
from ingestion.invoices.lines import texts as _texts
from ingestion.invoices.values import CENTS, parse_date, parse_money, parse_quantity
from ingestion.invoices.vocab import LABELS, OTHER, match_words, phrase_start
from ingestion.invoices.words import Word, row_key, row_number, span, split_at

__all__ = ["Table", "read_table"]

_NUMBER_ROLES = ("quantity", "unit_price", "amount")
_FOOT = re.compile(r"^(page\s*\d+(\s*(of|/)\s*\d+)?|\d+\s*(/|of)\s*\d+)$|continued|"
                   r"(^|\s)(page\s*\d+(\s*(of|/)\s*\d+)?|\d+\s+of\s+\d+)$", re.IGNORECASE)  # a foot ending in "1 of 2"
_DECIMAL = CENTS  # an amount's cents, not a date's 02.12.2010


def _stop(row: list[Word], below: list[Word] | None = None) -> bool:
    """Whether ``row`` ends the table: a totals label with an amount, a row of totals labels over the amounts of
    the row ``below`` (each amount under a label's words), or a page foot."""
    text = " ".join(w.text for w in row)
    if _FOOT.search(text) and not any(_DECIMAL.search(w.text) for w in row):
        return True
    found = match_words(row, LABELS)
    if not any(m.role in ("subtotal", "tax", "total") for m in found) or \
            found[0].start > 1 and phrase_start(row, 0, found[0].start):  # "Summe netto / Total net" is one label
        return False
    if _DECIMAL.search(text):
        return True
    if any(m.role not in ("subtotal", "tax", "total") for m in found):
        return False  # a row naming other fields too is no totals row
    amounts = [w for w in below or [] if _DECIMAL.search(w.text)]
    spans = [(row[phrase_start(row, found[k - 1].end if k else 0, m.start)].x0 - row[m.start].height,
              row[m.end - 1].x1 + row[m.start].height) for k, m in enumerate(found)]
    if len(amounts) == len(found) > 1:  # one amount each, in order, from its label on to the next one's end
        spans = [(a, spans[k + 1][1] if k + 1 < len(spans) else float("inf")) for k, (a, _) in enumerate(spans)]
        return all(w.x1 > a and w.x0 < b for w, (a, b) in zip(amounts, spans))
    return bool(amounts) and all(any(w.x1 > a and w.x0 < b for a, b in spans) for w in amounts)


def _body(rows: list[list[Word]], start: int) -> list[list[Word]]:
    """The rows below a heading row up to where the table stops."""
    body: list[list[Word]] = []
    last = rows[start - 1]
    for k, row in enumerate(rows[start:], start):
        if all(RULE.match(w.text) for w in row):
            continue
        gap = row[0].y0 - max(w.y1 for w in last)
        if _stop(row, rows[k + 1] if k + 1 < len(rows) else None) or gap > 4 * max(row[0].height, 6.0):
            break
        body.append(row)
        last = row
    return body


def _cells(row: list[Word], edges: list[float], columns: list[Column]) -> dict[str, list[Word]]:
    out: dict[str, list[Word]] = {}
    for w in _cut(row, edges):
        role = columns[_column(w, edges)].role
        if role and role != OTHER:  # a tariff number, an origin, a weight: no value read
            out.setdefault(role, []).append(w)
    return out


def read_table(pages: list[list[list[Word]]]) -> Table:
    """The line items of every page (each page given as its rows)."""
    table = Table()
    pending: list[Word] = []
    headings, table.doubts = _carried(pages, [find_heading(rows) for rows in pages])
    for p, (rows, heading) in enumerate(zip(pages, headings)):
        if heading is None:
            continue
        more = any(h is not None for h in headings[p + 1:])  # the table goes on over the page
        index, columns, two_row, last, sure = heading
        table.used |= {row_key(r) for r in rows[index:last + 1]}
        if not sure:
            continue  # the page's lines are left unread rather than read into the wrong columns
        start = last + 1
        while start < len(rows) and heading_tail(rows[start], rows[start - 1], columns):
            table.used.add(row_key(rows[start]))  # "VAT)" of "Unit price / (excl. / VAT)": the headings' third line
            start += 1
        if start < len(rows) and _running_sum(rows[start], table.lines) and _body(rows, start + 1):
            table.used.add(row_key(rows[start]))  # "Brought forward": the sum of the lines of the pages before
            #                                        (with no line under it, the subtotal of a heading repeated alone)
            start += 1
        body = _body(rows, start)
        measured = _priced(body) if two_row else _items_part(body, columns)
        columns = split_unknown(columns, measured)
        edges = boundaries(columns, measured or body)
        texts = [[_texts(c) for c in _split(r, edges, len(columns))] for r in measured]
        if not assign_roles(columns, texts, first=len(table.lines) + 1):
            table.doubts.append((f"columns of page {rows[index][0].page} told apart",
                                 "two columns of whole numbers could each be the quantity (quantity x price = "
                                 "amount either way); check which is the quantity and which the code"))
        columns, edges = merge_text(columns, edges, texts)
        columns, edges = split_counter(columns, edges, _priced(measured), len(table.lines) + 1)
        texts = [[_texts(c) for c in _split(r, edges, len(columns))] for r in measured]
        codes = [c for c in columns if c.role == "code"]
        if len(codes) > 1 and "description" not in {c.role for c in columns}:  # "Product #" and "Item / Service":
            for k, col in enumerate(columns):  # the one of several words on every line is the description
                cells = [r[k] for r in texts if r[k]]
                if col.role == "code" and cells and all(len(t.split()) > 1 for t in cells):
                    col.role = "description"
                    break
            codes = [c for c in columns if c.role == "code"]
        coded = [t for t in texts if all(t[columns.index(c)] for c in codes)]  # not a VAT summary's row
        counting = [c for c in codes if counts_lines(coded, columns.index(c), len(table.lines) + 1)]
        if len(codes) > 1 and 0 < len(counting) < len(codes):  # "Item" over 1, 2, 3 beside "Item code": positions
            for col in counting:
                col.role = "line_no"
            codes = [c for c in codes if c not in counting]
        for col in codes[1:]:  # "Item code" and "HSN code": the first is taken, and which is the products' said
            col.role = None
        if len(codes) > 1:
            table.doubts.append((f"columns of page {rows[index][0].page}: code told apart",
                                 f"{len(codes)} columns are headed as a code ({', '.join(repr(_texts(c.heading)) for c in codes)}); "
                                 "the first was taken: check which column is the products' code"))
        numbered = _numbered_codes(columns, texts, len(table.lines) + 1)
        rivals = code_rivals(columns, texts)
        if rivals:
            why = "the column headed as the code holds no codes" if headed_code(columns) else \
                "no known heading names the code"
            table.doubts.append((f"columns of page {rows[index][0].page}: code told apart",
                                 f"{why}, and the columns under "
                                 f"{', '.join(repr(_texts(columns[j].heading)) for j in rivals)} could hold it "
                                 "as well as the one taken: check which column is the products' code"))
        for k, col in enumerate(columns):
            cells = [[r[k]] for r in texts if r[k]]
            if col.role in (None, "line_no") and len(cells) > 1 and wording(cells):
                table.doubts.append((f"columns of page {rows[index][0].page}: words read into nothing",
                                     f"the column under {_texts(col.heading)!r} holds words that differ from line "
                                     f"to line ({cells[0][0]!r}, {cells[1][0]!r}, ...) but was given no value: "
                                     "part of a description or code may be missing; check the lines"))
        table.roles |= {c.role for c in columns if c.role}
        if two_row:
            table.used.add(row_key(rows[index - 1]))
        shared = joined([c for c in (_cells(r, edges, columns) for r in measured) if _has_numbers(c)])
        if shared:  # one column holds the code and the description
            table.roles |= {"code", "description"}
        limit = text_limit(measured or body, edges, next((k for k, c in enumerate(columns) if c.role == (
            shared or "description")), None))
        tail: list[Word] = []
        spacing = _spacing(body, measured)
        body_cells = [_cells(row, edges, columns) for row in body]
        items = [_has_numbers(cells) for cells in body_cells]  # the same after unjoin, which divides only the code
        below = not two_row and wrapped_below(body, items)  # and description
        for r, (row, cells, item) in enumerate(zip(body, body_cells, items)):
            guess = unsure_code(cells, shared) if item else None
            cells = unjoin(cells, shared, item)
            if _totals_row(row, cells, table.roles):
                break  # a totals row whose label the vocabulary does not know: the header reads it
            table.used.add(row_key(row))
            if not item or (two_row and not any(_DECIMAL.search(w.text) for w in row)):
                if not two_row and table.lines and _sentence(row, edges, columns):
                    break  # words across the columns (payment terms, a note): the table has ended
                if not two_row and r and spacing is not None and span(row).y0 - span(body[r - 1]).y1 > spacing \
                        and not below:
                    continue  # further below than the lines are apart: a heading of what follows, no wrap
                text = row if two_row else cells.get("description", []) + cells.get("code", [])
                if not table.lines and not pending and not two_row and not below and _dated(row):
                    continue  # "Según albarán 5238 del 29-11-2010" over the first line: a reference, no description
                if two_row or below or not table.lines or table.lines[-1].page != row[0].page and not pending:
                    pending += sorted(text, key=lambda w: w.x0)  # one row: left to right, whatever each box's top
                else:
                    if "code" not in table.roles:  # "SKU: 21889" under the product's name: its code
                        cells = {**cells, "description": take_code(table, cells.get("description", []))}
                    if attribute(cells.get("description", [])) and not cells.get("code"):
                        continue  # "Size: One size" under the product's title: the item's variant, not its name
                    if cells.get("description") and not wraps(tail, cells["description"], limit):
                        n = len(table.lines)
                        table.doubts.append((f"line {n}: description joined", f"the row under line {n} (page "
                                             f"{row[0].page}) holds no quantity, price or amount, and its first word "
                                             "would have fit on the line above: it may be a note or a heading, not "
                                             f"the rest of the description; it was joined to line {n}: check it"))
                    extend_line(table, cells)
                    tail = cells.get("description") or tail
                continue
            over, run = across(row, edges), split_run(row, edges)
            if over is not None or run is not None:
                what = f"{over.text!r} (page {row[0].page}) runs across the edge between two columns" if over else \
                    f"{run[0].text!r} and {run[1].text!r} (page {row[0].page}), a space apart, were read into two columns"
                table.doubts.append((f"line {len(table.lines) + 1}: column edge told apart",
                                     f"{what}, so the columns may be misread: check the line's values"))
            n = len(table.lines) + 1
            if pending and not two_row and not below:
                table.doubts.append((f"line {n}: description joined", f"words printed above line {n} (page "
                                     f"{row[0].page}), under the headings, were read as the start of its "
                                     "description: they may be a heading of a group of lines or a note; check it"))
            if guess:
                table.doubts.append((f"line {n}: code told apart", (
                    f"one column holds the codes and descriptions; {guess!r}, the first word of line {n} (page "
                    f"{row[0].page}), is not shaped as a code but was taken for it" if shared else
                    f"no code was read on line {n} (page {row[0].page}), and its description begins with {guess!r}, "
                    "shaped as a code") + ": check the line's code and description"))
            if len(cells.get("code", [])) > 1 and not cells.get("description") and not pending:
                table.doubts.append((f"line {n}: code told apart", f"the code of line {n} (page {row[0].page}) "
                                     f"holds several words ({_texts(cells['code'])!r}) and no description was read: "
                                     "the first was taken for the code and the rest for the description; check them"))
                cells = {**cells, "code": cells["code"][:1], "description": cells["code"][1:]}
            if numbered and len(cells.get("code", [])) > 1 and cells["code"][0].text.rstrip(".").isdigit():
                cells = {**cells, "code": cells["code"][1:]}  # "1 22556": the line's position, then its code
            first = code_in_description(cells)
            if first:
                table.doubts.append((f"line {n}: code told apart", f"the description of line {n} (page "
                                     f"{row[0].page}) begins with {first!r}, which may be part of the code "
                                     f"{_texts(cells['code'])!r}: check the line's code and description"))
            add_line(table, cells, pending, row[0].page, labelled="code" not in table.roles)
            pending, tail = [], cells.get("description", [])
        if more:  # "Carried forward" under the page's last line: the sum so far, no total
            table.used |= {row_key(r) for r in rows[start:] if row_key(r) not in table.used and
                           _running_sum(r, table.lines)}
    return table


def _priced(rows: list[list[Word]]) -> list[list[Word]]:
    """The rows printing an amount with cents (item rows, not a wrapped description's)."""
    return [r for r in rows if any(_DECIMAL.search(w.text) for w in r)]


def _carried(pages: list[list[list[Word]]],
             headings: list[Heading | None]) -> tuple[list[Heading | None], list[tuple[str, str]]]:
    """``headings`` with a page that prints none of known wording (none at all, or only a spreadsheet's column
    letters, A B C) given the columns of the page before, from its first item row on (with the rows of words just
    above it, within the description's column, a sheet's row number aside: a wrapped description's first lines),
    when the table went on over the page: no totals row followed its items there, nor comes before that row on
    its own page. Words left just above that row within the description's column are a doubt: the start of its
    description, read where OCR set it apart."""
    out, doubts = list(headings), []
    for p in range(1, len(pages)):
        before, rows = out[p - 1], pages[p]
        if before is None or not before.sure or before.two_row or (out[p] and any(c.role for c in out[p].columns)):
            continue
        if _totals_among(pages[p - 1][before.last + 1:]):
            continue  # the table ended on the page before: its totals follow it there
        first = next((k for k, r in enumerate(rows) if item_row(r)), None)
        text = next((k for k, c in enumerate(before.columns) if c.role == "description"), None)
        if first is None or _totals_among(rows[:first]):
            continue  # none, or totals above it: what follows them (a VAT breakdown's rates) is no item
        if text is not None and text + 1 < len(before.columns):
            x0 = (before.columns[text - 1].x1 + before.columns[text].x0) / 2 if text else float("-inf")
            x1 = before.columns[text + 1].x0

            def near(k: int) -> bool:  # the row above row k, a line or less above it
                return k > 0 and rows[k][0].y0 - rows[k - 1][0].y1 < rows[k][0].height

            while near(first) and any(x0 <= w.x0 for w in rows[first - 1]) and all(  # a row number left of it
                    x0 <= w.x0 and w.x1 < x1 or w.x1 < x0 and row_number(w)
                    for w in rows[first - 1]):
                first -= 1
            if near(first) and any(x0 <= w.cx < x1 and len(w.text) > 1 for w in rows[first - 1]):  # not "C"
                doubts.append((f"page {p + 1}: description joined", f"page {p + 1} prints no headings: its lines "
                               "were read under the columns of the page before, and words just above its first line "
                               "were read into none: they may begin its description; check it"))
        columns = [Column(c.role, c.x0, c.x1, c.heading) for c in before.columns]
        out[p] = Heading(first, columns, False, first - 1, True)
    return out, doubts


def _totals_among(rows: list[list[Word]]) -> bool:
    """Whether any of ``rows`` is a totals row (:func:`_stop`, a page foot aside)."""
    return any(_stop(r) and not _FOOT.search(_texts(r)) for r in rows)


def _sentence(row: list[Word], edges: list[float], columns: list[Column]) -> bool:
    """Whether a row with no numbers runs out of the text columns: words under a column of numbers or of no value,
    or one run of words a space apart read into two columns. A wrapped description stays in its column; such a row
    is a note or the payment terms under the last line ("Please pay by bank transfer to ...").

    >>> cols = [Column("code", 0, 40, []), Column("description", 50, 150, []), Column("amount", 200, 240, [])]
    >>> _sentence([Word("HOLDER", 50, 0, 90, 9, 1)], [45.0, 180.0], cols)
    False
    >>> _sentence([Word("Please", 50, 0, 80, 9, 1), Word("transfer", 190, 0, 230, 9, 1)], [45.0, 180.0], cols)
    True
    """
    texts = ("description", "code")
    return split_run(row, edges) is not None or any(
        columns[_column(w, edges)].role not in texts and re.search(r"[^\W\d_]{2}", w.text)
        for w in _cut(row, edges))


def _spacing(body: list[list[Word]], items: list[list[Word]]) -> float | None:
    """How far below the row above a wrapped description may start: twice the usual gap between two item rows one
    after the other, and at least half a height more; without two such pairs, a height, or half one read by OCR,
    whose boxes are taller than the letters (``None`` without items). A wrap follows its line as closely as lines
    follow each other or closer; a row further down ("Document totals") begins something else."""
    ids = {id(r) for r in items}
    gaps = sorted(span(b).y0 - span(a).y1 for a, b in zip(body, body[1:]) if id(a) in ids and id(b) in ids)
    if len(gaps) < 2:
        return max((w.height * (0.5 if w.ocr else 1.0) for r in items for w in r), default=None)
    usual = max(gaps[len(gaps) // 2], 0.0)
    return max(2 * usual, usual + 0.5 * max(w.height for r in items for w in r))


def _items_part(body: list[list[Word]], columns: list[Column]) -> list[list[Word]]:
    """The rows up to the last with two amounts: those after it may be totals whose label is not known, which
    must not fill the strips between columns; and before a gap more than twice as tall as the usual gap between
    two item rows (and than 0.6 of a row's height), or a row of words with no digit under two of the number
    columns' headings: below either a VAT breakdown's rows of two amounts are no items."""
    items = [k for k, r in enumerate(body) if item_row(r)]
    numbers = [c for c in columns if c.role in ("quantity", "unit_price", "amount")]
    heads = next((k for k, r in enumerate(body) if items and k > items[0] and not any(
        ch.isdigit() for w in r for ch in w.text) and sum(any(c.x0 - 2 <= w.cx <= c.x1 + 2 for w in r)
                                                            for c in numbers) >= 2), None)
    items = [k for k in items if heads is None or k < heads] or items
    last = items[-1] if items else len(body) - 1
    gaps = sorted(span(body[k]).y0 - span(body[k - 1]).y1 for k in items if k - 1 in items)
    if len(gaps) >= 2:
        most = max(2 * max(gaps[len(gaps) // 2], 0.0), 0.6 * max(w.height for w in body[items[0]]))
        cut = next((k for k in range(items[0] + 1, len(body)) if span(body[k]).y0 - span(body[k - 1]).y1 > most), None)
        last = max((k for k in items if cut is None or k < cut), default=last)
    return body[:last + 1]


def _totals_row(row: list[Word], cells: dict[str, list[Word]], roles: set[str]) -> bool:
    """Whether a row of a table with quantities and prices is a total: one amount, and no quantity."""
    if not {"quantity", "unit_price", "amount"} <= roles:
        return False
    spans = _money_spans(row)
    grouped = {id(w) for j, k in spans for w in row[j:k]}  # the "2" of "2 170.90" is no quantity
    quantity = _texts([w for w in cells.get("quantity", []) if id(w) not in grouped])
    return len(spans) == 1 and parse_quantity(quantity) is None and \
        parse_quantity(quantity.translate(DIGIT_LIKE)) is None


def _running_sum(row: list[Word], lines: list[InvoiceLine]) -> bool:
    """Whether ``row`` holds one amount, and it is the sum of the lines read so far ("Brought forward" under a later
    page's headings, "Carried forward" under a page's last line, where the table goes on over the page).

    >>> from decimal import Decimal
    >>> line = InvoiceLine("22632", "HAND WARMER", Decimal("6"), Decimal("1.85"), Decimal("11.10"), 1)
    >>> _running_sum([Word("Brought", 0, 0, 30, 9, 2), Word("forward", 33, 0, 70, 9, 2),
    ...               Word("11.10", 400, 0, 420, 9, 2)], [line])
    True
    """
    money = _amounts(row)
    if len(money) != 1 or not money[0] or not lines or any(line.amount is None for line in lines):
        return False
    return money[0][0] == sum(line.amount for line in lines)


def _amounts(row: list[Word]) -> list[tuple | None]:
    """The amounts of a row, each read with the groups of thousands printed a space before it (``1 815,90``).

    >>> [a[0] for a in _amounts([Word("Fwd", 0, 0, 20, 9, 1), Word("1", 100, 0, 104, 9, 1),
    ...                          Word("815,90", 106, 0, 130, 9, 1)])]
    [Decimal('1815.90')]
    """
    return [parse_money(_texts(row[j:k + 1])) or parse_money(row[k].text) for j, k in _money_spans(row)]


def _money_spans(row: list[Word]) -> list[tuple[int, int]]:
    """The first and last word of each amount of a row, with the thousands a space before it."""
    out = []
    for k, w in enumerate(row):
        if not _DECIMAL.search(w.text):
            continue
        j = k
        while j and re.fullmatch(r"\d{1,3}", row[j - 1].text) and row[j].x0 - row[j - 1].x1 < 0.6 * w.height:
            j -= 1
        out.append((j, k) if parse_money(_texts(row[j:k + 1])) else (k, k))
    return out


def _has_numbers(cells: dict[str, list[Word]]) -> bool:
    """Whether a row's number columns hold a number: an item row, not a wrapped description."""
    if cells.get("quantity") and parse_quantity(_texts(cells["quantity"])) is not None:
        return True
    return any(cells.get(k) and parse_money(_texts(cells[k])) for k in ("unit_price", "amount"))


def _column(w: Word, edges: list[float]) -> int:
    """The index of the column whose strip holds the centre of ``w``."""
    return sum(1 for e in edges if w.cx >= e)


def _cut(row: list[Word], edges: list[float]) -> list[Word]:
    """The row's words, those OCR read across a column edge cut at it."""
    for edge in edges:
        row = [piece for w in row for piece in split_at(w, edge)]
    return row


def _split(row: list[Word], edges: list[float], n: int) -> list[list[Word]]:
    out: list[list[Word]] = [[] for _ in range(n)]
    for w in _cut(row, edges):
        out[_column(w, edges)].append(w)
    return out


def _numbered_codes(columns: list[Column], texts: list[list[str]], first: int) -> bool:
    """Whether the code column's cells each begin with the line's position, a heading over both (``Item no.`` over
    ``1  22556``): the cells of more than one word, all of them or all but one and two at least, begin with their
    line's position counting from ``first`` (OCR may drop a position: ``21733``, ``2 22113``, ``3 22804``).

    >>> code = [Column("code", 0, 40, [])]
    >>> _numbered_codes(code, [["1 22556"], ["2 21984"]], 1), _numbered_codes(code, [["BANK CHARGES"]], 1)
    (True, False)
    >>> _numbered_codes(code, [["21733"], ["2 22113"], ["3 22804"]], 1), _numbered_codes(code, [["21733"], ["2 X"]], 1)
    (True, False)
    """
    k = next((k for k, c in enumerate(columns) if c.role == "code"), None)
    cells = [r[k] for r in texts if k is not None and k < len(r) and r[k]]
    words = [(n, c.split()) for n, c in enumerate(cells) if len(c.split()) > 1]
    return len(words) == len(cells) and counts_lines([[c.split()[0]] for c in cells], 0, first) or \
        len(words) >= max(2, len(cells) - 1) and all(counts_lines([[w[0]]], 0, first + n) for n, w in words)


def _dated(row: list[Word]) -> bool:
    """Whether a row of words prints a date (``Delivery note No. 6222 of 29/11/10``): a reference, not an item.

    >>> _dated([Word(t, 9 * k, 0, 9 * k + 8, 9, 1) for k, t in enumerate(("Albarán", "del", "29", "Nov", "2010"))])
    True
    """
    texts = [w.text for w in row]
    return any(parse_date(" ".join(texts[i:i + n])) for n in (1, 3) for i in range(len(texts) - n + 1))
