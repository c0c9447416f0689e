"""A table's columns: where one ends and the next begins, and what a column holds when its heading is unknown.

>>> cols = [Column("code", 50, 70, []), Column("description", 90, 140, []), Column("quantity", 400, 420, [])]
>>> rows = [[Word("22965", 50, 0, 76, 9, 1), Word("LONG", 90, 0, 250, 9, 1), Word("6", 415, 0, 420, 9, 1)]]
>>> [round(e) for e in boundaries(cols, rows)]
[84, 333]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingestion.invoices.kinds import (code_shaped, column_kind, counts_lines, distinct, has_digits, named, products,
                                      units_only, whole, wording)
from ingestion.invoices.vocab import HEADINGS, IDS, OTHER, keys_of, match_words
from ingestion.invoices.words import Word

__all__ = ["Column", "assign_roles", "boundaries", "code_rivals", "headed_code", "heading_tail", "merge_text",
           "split_counter", "split_unknown"]

_NUMBER_ROLES = ("quantity", "unit_price", "amount")
_CODE_NAMES = IDS | {"sku"}  # a heading word naming codes ("Item No.", "SKU"), even over codes of words


@dataclass
class Column:
    role: str | None  # code, description, quantity, unit_price, amount; None until found from the content
    x0: float
    x1: float
    heading: list[Word]

    def keys(self) -> set[str]:
        """The heading's words as compared with the vocabularies, a glued ``#`` apart (``STOCK#``: stock, #)."""
        return {k for w in self.heading for k in keys_of(w.text)}


def boundaries(columns: list[Column], rows: list[list[Word]]) -> list[float]:
    """The x between each pair of neighbouring columns: the middle of an emptiest strip (by how many rows' words
    cover it, in 1 pt steps) from the left heading's start to the right heading's end; of several, the one most
    within the gap between the two headings, then the widest; but, before the description, one further right in
    that gap (and :data:`_GUTTER` wide there, not a space between words) when the words between the two are values
    with digits on a quarter of the rows or more (a spreadsheet's numeric codes stand at their cell's right edge,
    just before the next column's text), not a text running on. The emptiest is counted between words, where the
    middles of words reaching into that span lie on both sides: a strip beside all of them (a margin under a
    heading wider than its values, or a column the rows leave empty) is as empty as nothing, and is taken only
    when it lies more within the headings' gap. Words OCR read in one line touch their neighbours, their x
    positions being estimates; they count only over their middle, and from twenty rows on, a strip one row in
    twenty covers is as empty as the emptiest. On OCR rows, an edge that leaves the left heading's values all to
    its right (read in one box with the next column's, their extents overlapping) gives way to the middle of the
    widest gap between word centres (:func:`_centre_gap`)."""
    ocr = any(w.ocr for row in rows for w in row)
    noise = len(rows) // 20 if ocr else 0
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
                    centres.append(w.cx)
        inside = [x for x in range(lo, hi) if any(c < x for c in centres) and any(c > x + 1 for c in centres)]
        least = min((cover[x - lo] for x in inside), default=min(cover))
        runs = _runs([x for x in range(lo, hi) if cover[x - lo] <= least + noise])
        gap0, gap1 = min(left.x1, right.x0) - 2, max(left.x1, right.x0) + 2

        def placed(r: tuple[int, int]) -> tuple[float, int]:  # how much within the headings' gap, then how wide
            return max(0.0, min(r[1], gap1) - max(r[0], gap0)), r[1] - r[0]

        def gained(r: tuple[int, int], mid: float) -> int:  # rows whose codes a strip further right leaves left
            words = [[w for w in row if mid <= w.cx < (r[0] + r[1]) / 2] for row in rows]
            if any(not any(ch.isdigit() for ch in w.text) for ws in words for w in ws):
                return 0  # words of a text running on, not values set at their cell's right edge
            return sum(1 for ws in words if ws)

        a, b = max(runs, key=placed)
        mid = (a + b) / 2
        right_of = [(max(r[0], int(gap0)), min(r[1], int(gap1))) for r in runs  # (parts in the gap) before the
                    if r[0] > b and right.role == "description"]  # description: a text, its words set from the left
        right_of = [(gained(r, mid), r[1] - r[0], r) for r in right_of if r[1] - r[0] >= _GUTTER]
        right_of = [c for c in right_of if 4 * c[0] >= len(rows)]
        if right_of:  # numbers at their cells' right edge, just before the next column's text: the left's values
            a, b = max(right_of, key=lambda c: c[:2])[2]
        low = min(cover[a - lo:b - lo])  # within a strip reaching over words beside an empty one, the empty part
        a, b = max(_runs([x for x in range(a, b) if cover[x - lo] == low]), key=placed)
        edge = (a + b) / 2
        if ocr and sum(1 for row in rows if any(left.x0 - 2 <= w.cx < edge for w in row)) < len(rows) / 3 and \
                sum(1 for row in rows if any(edge <= w.cx <= left.x1 + w.height for w in row)) >= len(rows) / 2:
            edge = _centre_gap(left, right, rows) or edge  # the left heading's values all put right of the edge
        edges.append(edge)
    return edges


def _centre_gap(left: Column, right: Column, rows: list[list[Word]]) -> float | None:
    """The middle of the widest gap between word centres from the left heading's middle to the right one's: where
    OCR read a narrow column's values and the next column's in one box, their estimated extents overlap and only
    their centres fall apart."""
    lo, hi = (left.x0 + left.x1) / 2, (right.x0 + right.x1) / 2
    centres = sorted({round(w.cx, 1) for row in rows for w in row if left.x0 - 2 <= w.cx <= right.x1 + 2})
    gaps = [(b - a, (a + b) / 2) for a, b in zip(centres, centres[1:]) if lo <= (a + b) / 2 <= hi]
    return max(gaps)[1] if gaps else None


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


def merge_text(columns: list[Column], edges: list[float], rows: list[list[str]]) -> tuple[list[Column], list[float]]:
    """The description column joined with a neighbour given no role whose cells are words too (``Item`` | ``Name``
    of one heading ``Item Name``, read as two): one text, not two columns. ``rows`` are the cell texts.

    >>> cols = [Column("description", 0, 20, []), Column(None, 30, 50, []), Column("amount", 90, 99, [])]
    >>> rows = [["3 HOOK", "PHOTO SHELF", "8.50"], ["NURSERY", "A,B,C PAINTED", "6.75"], ["BOX OF", "VINTAGE", "9.95"]]
    >>> merged, edges = merge_text(cols, [25.0, 70.0], rows)
    >>> [c.role for c in merged], edges
    (['description', 'amount'], [70.0])

    A column of its own, its heading further off, is left to the doubt of words read into nothing:

    >>> far = [Column("description", 0, 20, [Word("Item", 0, 0, 20, 9, 1)]),
    ...        Column(None, 40, 60, [Word("Colour", 40, 0, 60, 9, 1)]), cols[2]]
    >>> [c.role for c in merge_text(far, [30.0, 70.0], rows)[0]]
    ['description', None, 'amount']
    """
    columns, edges = list(columns), list(edges)
    k = next((k for k, c in enumerate(columns) if c.role == "description"), None)
    if k is None:
        return columns, edges
    for j in (k + 1, k - 1):
        a, b = min(j, k), max(j, k)
        if 0 <= j < len(columns) and columns[j].role is None and _close(columns[a], columns[b]) and \
                wording([[r[j]] for r in rows if j < len(r) and r[j]]):
            columns[a:b + 1] = [Column("description", columns[a].x0, columns[b].x1,
                                       columns[a].heading + columns[b].heading)]
            del edges[a]
            break
    return columns, edges


def _close(left: Column, right: Column) -> bool:
    """Whether two headings stand less than a line's height apart, as the words of one heading do (a column of its
    own, "Colour" beside "Description", stands further off); columns without heading words count as close."""
    if not left.heading or not right.heading:
        return True
    return right.heading[0].x0 - left.heading[-1].x1 < max(w.height for w in left.heading + right.heading)


def split_unknown(columns: list[Column], rows: list[list[Word]]) -> list[Column]:
    """Unknown headings split where the rows below show two columns: a strip no row's word covers, at least
    :data:`_GUTTER` wide, between two of the heading's words, with values under both sides on most rows. OCR
    places words of one text box by estimate, so two headings a little apart can be read as one; a text layer's
    words are exact and are split the same way. Needs three rows or more (one row's spaces could look like it).

    >>> rows = [[Word("1", 85, 0, 91, 9, 1), Word("BASKET", 97, 0, 139, 9, 1)]] * 3
    >>> [[w.text for w in c.heading] for c in split_unknown([Column(None, 53, 129, [
    ...     Word("Shipped", 53, 0, 97, 9, 1), Word("Name", 104, 0, 129, 9, 1)])], rows)]
    [['Shipped'], ['Name']]
    """
    if len(rows) < 3:
        return columns
    out = []
    for col in columns:
        words = [piece for w in col.heading for piece in _camel(w)]
        if col.role not in (None, OTHER) or len(words) < 2:
            out.append(col)
            continue
        start, parts = 0, []
        for k in range(1, len(words)):
            if _gutter(words[start:k], words[k:], rows):
                parts.append(Column(None, words[start].x0, words[k - 1].x1, words[start:k]))
                start = k
        parts.append(Column(None, words[start].x0, words[-1].x1, words[start:]))
        if col.role == OTHER and not any(m.role != OTHER for p in parts for m in match_words(p.heading, HEADINGS)):
            parts = [col]  # "Net Wt (kg)" stays one; "UOM Code" over two columns is a unit's and the code's
        out += parts
    return out


_GUTTER = 3.0


def split_counter(columns: list[Column], edges: list[float], rows: list[list[Word]],
                  first: int) -> tuple[list[Column], list[float]]:
    """The description's column split where each row's first word counts the lines (``first``, ``first + 1``, ...)
    and ends left of where every row's next word starts: ``Item`` over the line numbers a word space before
    ``Description`` reads as one heading (``Item Description``), though the rows show two columns. On one row, the
    number must stand further off than a word space.

    >>> rows = [[Word(str(n), 50, 0, 55, 9, 1), Word("MUG", 61, 0, 80, 9, 1)] for n in (1, 2)]
    >>> cols, edges = split_counter([Column("description", 39, 110, [])], [], rows, 1)
    >>> [c.role for c in cols], edges
    (['line_no', 'description'], [58.0])
    """
    k = next((k for k, c in enumerate(columns) if c.role == "description"), None)
    if k is None or not rows:
        return columns, edges
    lo, hi = edges[k - 1] if k else float("-inf"), edges[k] if k < len(edges) else float("inf")
    cells = [[w for w in row if lo <= w.cx < hi] for row in rows]
    if not all(len(c) > 1 for c in cells) or not counts_lines([[c[0].text] for c in cells], 0, first):
        return columns, edges
    end, start = max(c[0].x1 for c in cells), min(c[1].x0 for c in cells)
    spaces = sorted(b.x0 - a.x1 for a, b in zip(cells[0][1:], cells[0][2:])) or [0.25 * cells[0][0].height]
    if end >= start or len(rows) == 1 and start - end < 1.8 * spaces[len(spaces) // 2]:
        return columns, edges  # one row: the number stands further off than a word space ("12 PENCILS")
    col, edge = columns[k], (end + start) / 2
    parts = [Column("line_no", col.x0, edge, []), Column("description", edge, col.x1, col.heading)]
    return columns[:k] + parts + columns[k + 1:], edges[:k] + [edge] + edges[k:]


def _camel(w: Word) -> list[Word]:
    """An OCR word with a capital after a small letter (``ShippedSpecification``: the space between two headings
    lost) cut there, each part given its share of the width.

    >>> [(p.text, p.x0, p.x1) for p in _camel(Word("TakenName", 0, 0, 90, 9, 1, True))]
    [('Taken', 0.0, 50.0), ('Name', 50.0, 90.0)]
    """
    cuts = [m.start() for m in re.finditer(r"(?<=[a-z])(?=[A-Z])", w.text)] if w.ocr else []
    if not cuts:
        return [w]
    step, out, start = (w.x1 - w.x0) / len(w.text), [], 0
    for end in [*cuts, len(w.text)]:
        out.append(Word(w.text[start:end], w.x0 + start * step, w.y0, w.x0 + end * step, w.y1, w.page, True))
        start = end
    return out


def _gutter(left: list[Word], right: list[Word], rows: list[list[Word]]) -> bool:
    """Whether the rows show a column edge between heading words ``left`` and ``right``: an empty strip within a
    word's height of the gap between them, with values on both sides of it on most rows."""
    slack = left[-1].height
    lo, hi = int(max(left[-1].cx, left[-1].x1 - slack)), int(min(right[0].cx, right[0].x0 + slack)) + 1
    if hi <= lo:
        return False
    cover = [0] * (hi - lo)
    for row in rows:
        for w in row:
            x0, x1 = _extent(w)
            for x in range(max(lo, int(x0)), min(hi, int(x1) + 1)):
                cover[x - lo] += 1
    runs = _runs([lo + i for i, c in enumerate(cover) if c == 0])
    a, b = max(runs, key=lambda r: r[1] - r[0]) if runs else (lo, lo)
    if b - a < _GUTTER:
        if not any(w.ocr for w in left + right):
            return False
        # OCR may read a narrow column's values and the next one's as one box, their extents overlapping: a
        # strip no word's centre falls in then shows the edge.
        centres = sorted(w.cx for row in rows for w in row if lo <= w.cx <= hi)
        gaps = [(y - x, x, y) for x, y in zip([lo, *centres], [*centres, hi])]
        width, a, b = max(gaps)
        if width < 2 * _GUTTER:
            return False
    edge = (a + b) / 2
    sides = [([w.text for w in row if left[0].x0 - 2 <= w.cx < edge],
              [w.text for w in _run([w for w in row if w.cx > edge], right[-1].x1 + 2)]) for row in rows]
    sides = [(lt, rt) for lt, rt in sides if lt and rt]
    return len(sides) >= len(rows) / 2 and not (wording([lt for lt, _ in sides]) and
                                                 wording([rt for _, rt in sides]))


def _run(words: list[Word], end: float) -> list[Word]:
    """The words starting before ``end``, with those following them a space apart (a text running on)."""
    out: list[Word] = []
    for w in sorted(words, key=lambda w: w.x0):
        if (not out and w.cx <= end) or (out and w.x0 - out[-1].x1 < 0.6 * w.height):
            out.append(w)
        elif out or w.cx > end:
            break
    return out


def assign_roles(columns: list[Column], rows: list[list[str]], first: int | None = None) -> bool:
    """Give each column without a role one from its cells (``rows`` of cell texts, one per column). A column
    counting the lines (``first``, ``first + 1``, ... on the rows that have a value: the page's lines numbered on
    from the pages before) is ``line_no``, read into no value, unless no other column can be the quantity (then it
    is, and over two rows or more, or on lines priced 0.00 only, False is returned: a guess a reviewer must see; so
    it is when only lines priced 0.00 give the products and another column holds whole numbers). The
    quantity, unit price and amount are the columns of whole numbers and of money where quantity x price = amount
    on most rows (a column of whole numbers that is not the quantity is the code); then code-like tokens make the code
    (those differing line to line first; the same token on most lines is a unit or a rate, no code) and the widest
    text the description. Without such rows, one money column left takes the money role left, and of
    two the amount is the right one. Returns False when two columns could each be the quantity (as on one line
    priced 0.00, where any number times 0 is 0): which one was taken is a guess a reviewer must see.

    >>> cols = [Column(None, 0, 1, []) for _ in range(5)]
    >>> assign_roles(cols, [["22632", "HAND WARMER", "1.85", "6", "11.10"], ["21135", "POSTCARD", "1.69", "16", "27.04"]])
    True
    >>> [c.role for c in cols]
    ['code', 'description', 'unit_price', 'quantity', 'amount']
    """
    kinds = []
    for k, col in enumerate(columns):
        kinds.append(column_kind(rows, k))
        if col.role in _NUMBER_ROLES + ("code",) and rows and not any(k < len(r) and r[k] for r in rows):
            col.role = None  # a heading over no value ("Item" of "Item price"): the other columns' content tells
        if col.role in _NUMBER_ROLES and kinds[k] in ("text", "code"):
            col.role = None  # "Unit" over EA, PCS: a heading other software gives another role; the cells tell
        codes_named = bool(col.keys() & _CODE_NAMES)
        if col.role == "code" and wording([[r[k]] for r in rows if k < len(r) and r[k]]) and not codes_named:
            col.role = None  # "Item" over words: part of "Item Name", a description; "Item No." names codes
        if col.role == "code" and not codes_named and not any(c.role == "description" for c in columns) and \
                named([r[k] for r in rows if k < len(r)]):
            col.role = "description"  # "Item" over names with digits (CLOTHES PEGS PACK 24): the item's name
        if col.role == "description" and kinds[k] in ("code", "int") and has_digits(rows, k):
            col.role = None  # "Product" over 22558: part of "Product ID", the code, not the description
        if col.role == "code" and counts_lines(rows, k, first) and (sum(1 for r in rows if k < len(r) and r[k]) > 1
                                                                     or sum(c.role == "code" for c in columns) > 1):
            col.role = None  # "Item" over 1, 2, 3 (or over 1 beside "Item no."): the lines counted, not the codes
    have = {c.role for c in columns if c.role}
    counters = [k for k, c in enumerate(columns) if c.role is None and counts_lines(rows, k, first)]

    def candidates(role: str, kind: str, skip: list[int]) -> list[int]:
        fixed = [k for k, c in enumerate(columns) if c.role == role]
        return fixed or [k for k, c in enumerate(columns) if c.role is None and k not in skip and (
            kinds[k] == kind or (role == "quantity" and kinds[k] == "money" and whole(rows, k)))]

    for skip in (counters, []):  # a column counting the lines is the quantity only when no other column can be
        best, hits, quantities = None, 0, set()
        for q in candidates("quantity", "int", skip):
            for p in candidates("unit_price", "money", skip):
                for a in candidates("amount", "money", skip):
                    n = products(rows, q, p, a) if len({q, p, a}) == 3 else 0
                    if n > hits:
                        best, hits, quantities = (q, p, a), n, {q}
                    elif n and n == hits:
                        quantities.add(q)
                        if a > best[2]:
                            best = (q, p, a)
        if best:
            break
    # Whole numbers that could be the quantity too; two columns counting "1" on one row: either may be the count.
    others = [k for k, c in enumerate(columns) if c.role is None and kinds[k] == "int" and k != best[0] and (
        k not in counters or (len(rows) < 2 and len(counters) > 1))] if best else []
    for k in counters:
        if best is None or k not in best:
            columns[k].role = "line_no"
    vacuous = bool(best) and columns[best[0]].role is None and not products(rows, *best, priced=True)
    if best and ((best[0] in counters and (vacuous or sum(1 for r in rows if best[0] < len(r) and r[best[0]]) > 1))
                 or (vacuous and others)):
        quantities.add(-1)  # a column counting 1, 2, 3 ..., or of two whole numbers x 0.00: the quantity is a guess
    if best:
        for k, role in zip(best, _NUMBER_ROLES):
            columns[k].role = role
            have.add(role)
        for k, col in enumerate(columns):
            if col.role in _NUMBER_ROLES and k not in best:
                col.role = None  # "Net" and "Total" over a net and a gross amount: the arithmetic tells the amount
    unknown = [k for k, c in enumerate(columns) if c.role is None]
    # A code differs line to line, a unit not; and a code holds a digit ("22632"), a unit ("PCS", "PK") not.
    for k in sorted(unknown, key=lambda k: (not distinct(rows, k), not has_digits(rows, k))):
        role = {"int": "quantity" if "quantity" not in have else "code", "code": "code"}.get(kinds[k] or "")
        if role == "code" and (not distinct(rows, k) or units_only(rows, k)):
            continue  # "EA", "PCS", "20" on every line, or units alone: a unit or a rate, not the products' codes
        if role and role not in have:
            columns[k].role = role
            have.add(role)
    texts = [k for k in unknown if kinds[k] == "text" and columns[k].role is None]
    if texts and "description" not in have:
        widest = max(texts, key=lambda k: sum(len(r[k]) for r in rows if k < len(r)))
        columns[widest].role = "description"
        have.add("description")
    money = [k for k in unknown if kinds[k] == "money" and columns[k].role is None]
    money_roles = [r for r in ("unit_price", "amount") if r not in have]
    if len(money) == 1 and len(money_roles) == 1:
        columns[money[0]].role = money_roles[0]
    elif len(money) == 2 and len(money_roles) == 2:
        columns[money[0]].role, columns[money[1]].role = "unit_price", "amount"
    return len(quantities) < 2


def code_rivals(columns: list[Column], rows: list[list[str]]) -> list[int]:
    """The columns given no role that could hold the products' codes as well as the one that was given the code
    from its content (no known heading names it): different on most lines, a digit in most cells. Which of them
    holds the codes is a guess a reviewer must see.

    >>> cols = [Column("code", 0, 1, []), Column(None, 2, 3, []), Column("description", 4, 5, [])]
    >>> code_rivals(cols, [["22632", "5012345678900", "MUG"], ["21135", "5012345678917", "BAG"]])
    [1]
    >>> code_rivals(cols, [["22632", "EA", "MUG"], ["21135", "EA", "BAG"], ["21136", "EA", "CUP"]])
    []

    A column a heading names the code (``Item``) is rivalled only when it holds no codes (a position, ``10``) and
    another holds them (``Material``, as some ERP systems head the product's number):

    >>> cols = [Column("code", 0, 1, [Word("Item", 0, 0, 20, 9, 1)]), Column(None, 2, 3, []),
    ...         Column("description", 4, 5, [])]
    >>> code_rivals(cols, [["10", "22113", "BOTTLE"]]), code_rivals(cols, [["22113", "10", "BOTTLE"]])
    ([1], [])
    """
    k = next((k for k, c in enumerate(columns) if c.role == "code"), None)
    headed = headed_code(columns)
    if k is None or (headed and code_shaped(rows, k)):
        return []
    return [j for j, c in enumerate(columns) if c.role is None and distinct(rows, j) and has_digits(rows, j) and
            column_kind(rows, j) in ("code", "int") and (not headed or code_shaped(rows, j)) and
            not c.keys() & _OTHER_CODES]


def headed_code(columns: list[Column]) -> bool:
    """Whether the column taken for the code has a heading the vocabulary knows (not its content alone)."""
    k = next((k for k, c in enumerate(columns) if c.role == "code"), None)
    return k is not None and bool(match_words(columns[k].heading, HEADINGS))


_OTHER_CODES = {"vat", "tax", "hs", "hsn", "tariff", "commodity", "customs", "gst", "sac"}
"""Words of a heading naming the code of something other than the product (``VAT Code``, ``HS code``)."""


def heading_tail(row: list[Word], above: list[Word], columns: list[Column]) -> bool:
    """Whether ``row``, right under the heading rows (``above`` the last), ends headings printed over more lines
    than two: no digit, each word under the heading of a column of numbers (a wrapped description's first row
    stands under its own heading).

    >>> cols = [Column("description", 0, 60, []), Column("unit_price", 100, 130, [])]
    >>> above = [Word("(excl.", 100, 0, 125, 9, 1)]
    >>> heading_tail([Word("VAT)", 102, 10, 120, 19, 1)], above, cols), heading_tail(
    ...     [Word("HOLDER", 2, 10, 40, 19, 1)], above, cols)
    (True, False)
    """
    if not row or any(ch.isdigit() for w in row for ch in w.text) or \
            min(w.y0 for w in row) - max(w.y1 for w in above) > 0.6 * max(w.height for w in row):
        return False
    return all(any(c.role not in ("description", "code") and c.x0 - w.height < w.cx < c.x1 + w.height
                   for c in columns) for w in row)
