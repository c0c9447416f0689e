"""What a line-item row's cells hold beyond their columns: a code and a description printed in one column, a row of
words that may be a note rather than the rest of a description, and a word running across a column edge.

Nothing here changes a value a column gives; it says how one column's words divide (:func:`unjoin`) or why a reader
should look (:func:`wraps`, :func:`across`).
"""

from __future__ import annotations

import re

from ingestion.invoices.vocab import UNITS, norm
from ingestion.invoices.words import Word, span

__all__ = ["across", "attribute", "bracketed_code", "code_in_description", "code_like", "joined", "labelled_code",
           "marks_to_numbers", "text_limit", "unreferenced", "unjoin", "unsure_code", "wrapped_below", "wraps"]

_BRACKETED = re.compile(r"\[((?=[^\]]*\d)[A-Z0-9][A-Z0-9\-/._]{2,})\]", re.IGNORECASE)  # [22632] MUG: the code
_CODE = re.compile(r"^(?=.*\d)[A-Z0-9][A-Z0-9\-/.]{2,}$", re.IGNORECASE)  # 22632, 85123A, 84029G-X: 3 or more


def joined(cells: list[dict[str, list[Word]]]) -> str | None:
    """Which column holds both the code and the description, from the item rows' cells: ``"code"`` when there is
    no description column and the code cells hold several words on most rows ("Item": ``22632 HAND WARMER``),
    ``"description"`` when there is no code column and every description starts with a code of three characters
    or more with a digit in it (``22632 HAND WARMER``, ``85123A - HEART``), or two in three of three rows or more (a
    code such as ``POST`` has none; :func:`unsure_code` says which rows to check), a code alone among them (its
    description on the row below: ``85123A`` over ``WHITE HANGING HEART``); else ``None``. A description that
    starts with a count ("3 TRADITIONAL ...") has too few characters, and one such row is not every row.

    >>> def cell(*texts): return [Word(t, 10 * k, 0, 10 * k + 8, 9, 1) for k, t in enumerate(texts)]
    >>> joined([{"code": cell("22632", "HAND", "WARMER")}, {"code": cell("21135", "POSTCARD")}])
    'code'
    >>> joined([{"description": cell("22632", "HAND")}, {"description": cell("3", "STRIPEY", "MICE")}])
    >>> joined([{"description": cell("85123A")}, {"description": cell("71053")}])
    'description'
    """
    rows = [c for c in cells if c.get("code") or c.get("description")]
    if not rows:
        return None
    if all(not c.get("description") for c in rows) and \
            sum(1 for c in rows if len(c.get("code", [])) > 1) > len(rows) / 2:
        return "code"
    coded = sum(1 for c in rows if c.get("description") and _CODE.match(c["description"][0].text))
    if all(not c.get("code") for c in rows) and (coded == len(rows) or (len(rows) >= 3 and 3 * coded >= 2 * len(rows))):
        return "description"  # every row, or two in three of three or more (a code "POST" has no digit)
    return None


def unsure_code(cells: dict[str, list[Word]], column: str | None) -> str | None:
    """The first word of an item row's ``column`` holding both code and description, when it is not shaped as a code
    (no digit, or under three characters): taking it for the code is a guess a reviewer must see. Without such a
    column, the first word of a description shaped as a code on a line with no code: the code may be in it.

    >>> unsure_code({"description": [Word("POST", 0, 0, 20, 9, 1), Word("POSTAGE", 24, 0, 60, 9, 1)]}, "description")
    'POST'
    """
    if column is None:  # no column holds both: a description starting with a code while no code was read
        words = cells.get("description", [])
        return words[0].text if len(words) > 1 and not cells.get("code") and _CODE.match(words[0].text) else None
    words = cells.get(column, [])
    return words[0].text if words and not _CODE.match(words[0].text) else None


def code_in_description(cells: dict[str, list[Word]]) -> str | None:
    """The first word of an item row's description when it may be part of the code a word space before it (one run
    of words read into two columns): shaped as a code itself (:func:`code_like`), or holding a digit where the
    code holds none.

    >>> row = {"code": [Word("ART", 0, 0, 20, 9, 1)], "description": [Word("22632", 23, 0, 50, 9, 1)]}
    >>> code_in_description(row), code_in_description({**row, "code": [Word("ART", 0, 0, 10, 9, 1)]})
    ('22632', None)
    """
    code, words = cells.get("code"), cells.get("description")
    if not code or not words or words[0].x0 - code[-1].x1 >= 0.6 * words[0].height:
        return None
    first = words[0].text
    digits = any(ch.isdigit() for w in code for ch in w.text)
    return first if code_like(first) or (not digits and any(ch.isdigit() for ch in first)) else None


def code_like(text: str) -> bool:
    """A word shaped as a product code: three characters or more of letters and digits, half of them digits or more.

    >>> [code_like(t) for t in ("22632", "85123A", "A01", "SET/5", "12", "50'S", "DCGS0058")]
    [True, True, True, False, False, False, True]
    """
    return len(text) >= 3 and text.isalnum() and 2 * sum(ch.isdigit() for ch in text) >= len(text)


_CODE_LABELS = {"sku", "code", "item", "ref", "reference", "art", "article", "part", "product", "stock", "no", "#",
                "id", "item no", "item #", "art no", "part no", "product no", "product code", "stock code", "item code",
                "article no", "article #", "article number", "item number", "product number", "part number",
                "stock no", "sku no", "ref no", "product id", "item id", "réf", "référence", "artikel", "artikelnr",
                "art.-nr", "artikelnummer"}
"""Words that name a product's code printed beside it inside a description (``SKU: 21889``, ``Item #22632``)."""


def bracketed_code(words: list[Word]) -> str | None:
    """The code a description opens with in square brackets (``[22632] HAND WARMER``, as some business software
    names a product by its code and name; ``[37461]`` alone, a product with no name), or ``None``; the code holds
    a digit and three characters or more.

    >>> name = Word("MUG", 33, 0, 50, 9, 1)
    >>> bracketed_code([Word("[22632]", 0, 0, 30, 9, 1), name]), bracketed_code([Word("[3]", 0, 0, 9, 9, 1), name])
    ('22632', None)
    >>> bracketed_code([Word("[37461]", 0, 0, 30, 9, 1)])
    '37461'
    """
    m = _BRACKETED.fullmatch(words[0].text) if words else None
    return m.group(1) if m else None


def labelled_code(words: list[Word]) -> int | None:
    """Where a description's words end in a code printed with its label (``HAND WARMER`` / ``SKU: 21889``, as shops
    print the code under the product's name): the index of the label's first word, the code being the last word;
    ``None`` when they do not. The label must say it names a code: a colon, a ``#``, or ``SKU``; the code holds a
    digit. ``SET OF 3`` and ``RECORD FRAME 7"`` end in no code.

    >>> def ws(*t): return [Word(x, 10 * k, 0, 10 * k + 8, 9, 1) for k, x in enumerate(t)]
    >>> labelled_code(ws("JAM", "SET", "Code:", "22960")), labelled_code(ws("MUG", "Item", "#", "85123A"))
    (2, 1)
    >>> labelled_code(ws("SET", "OF", "3")), labelled_code(ws("HOLDER", "Ref", "22960"))
    (None, None)
    >>> labelled_code(ws("Item", "#2196"))
    0

    On scans, a colon read apart and a label cut in two read the same:

    >>> labelled_code(ws("JAM", "Article", "no.", ":", "22960")), labelled_code(ws("JAM", "SK", "U:", "22960"))
    (1, 1)
    >>> labelled_code(ws("JAM", "S", "K", "U:", "22960"))
    1
    """
    if len(words) < 2 or not _CODE.match(words[-1].text.lstrip("#")):
        return None
    colon = words[-2].text == ":"  # OCR's colon a word of its own ("Article no. : 84846A")
    end = len(words) - 1 - colon
    for n in (3, 2, 1):
        label = words[end - n:end]
        if len(label) < n:
            continue
        keys = [norm(w.text) for w in label]
        key = " ".join(keys)
        key = key if key in _CODE_LABELS else "".join(keys)  # OCR's "SK U:" or "S K U:" for "SKU:"
        said = colon or label[-1].text.endswith((":", "#")) or key in ("sku", "#") or key.endswith(" #") or \
            words[-1].text.startswith("#")
        if key in _CODE_LABELS and said:
            return end - n
    return None


def attribute(words: list[Word]) -> bool:
    """Whether a row of words under an item's name is one of its attributes, ``Label: value``, as web shops print
    a variant (``Size: One size``, ``Colour: Assorted``, ``Taille : unique``) under the product's title: a label
    of one or two words in ordinary case (a capital, then small letters) closed by a colon, then a value of one to
    four words. Such a row names a property of the item, not the rest of its description. A description's own
    words are printed as the record holds them (``SET OF 3 CAKE TINS: PANTRY``), and its wrapped rest has no label.

    >>> def ws(*t): return [Word(x, 10 * k, 0, 10 * k + 8, 9, 1) for k, x in enumerate(t)]
    >>> attribute(ws("Size:", "One", "size")), attribute(ws("Taille", ":", "unique"))
    (True, True)
    >>> attribute(ws("Shoe", "size:", "9"))
    True
    >>> attribute(ws("CAKE", "TINS:", "PANTRY")), attribute(ws("Note:",)), attribute(ws("Size", "One", "size"))
    (False, False, False)
    """
    for n in (1, 2):
        label, rest = words[:n], words[n:]
        if rest and rest[0].text == ":":
            rest = rest[1:]
        elif not label or not label[-1].text.endswith(":") or len(label[-1].text) < 2:
            continue
        name = " ".join(w.text for w in label).rstrip(":").strip()
        if 1 <= len(rest) <= 4 and name[:1].isupper() and name[1:].replace(" ", "").replace("-", "").isalpha() and \
                any(ch.islower() for ch in name):
            return True
    return False


def unjoin(cells: dict[str, list[Word]], column: str | None, item: bool) -> dict[str, list[Word]]:
    """The cells of a row with the ``column`` that holds both (see :func:`joined`) divided: on an item row its
    first word is the code and the rest the description (a dash between them dropped); on a row continuing a
    description, all of it is description.

    >>> row = {"code": [Word("22632", 0, 0, 30, 9, 1), Word("-", 34, 0, 38, 9, 1), Word("MUG", 42, 0, 60, 9, 1)]}
    >>> {k: [w.text for w in v] for k, v in unjoin(row, "code", True).items()}
    {'code': ['22632'], 'description': ['MUG']}
    """
    if column is None or not cells.get(column):
        return cells
    words, out = cells[column], {k: v for k, v in cells.items() if k != column}
    if not item:
        out["description"] = words
        return out
    rest = words[1:]
    while rest and rest[0].text in ("-", "–", ":", "|"):
        rest = rest[1:]
    out["code"], out["description"] = words[:1], rest
    return out


def across(row: list[Word], edges: list[float]) -> Word | None:
    """A word of a text layer that runs across a column edge by more than half its height on each side: where the
    edges were put wrong, or a value overflows into the next column. (OCR's boxes are estimates.)

    >>> across([Word("CHRISTMAS", 100, 0, 160, 9, 1)], [150.0]).text, across([Word("MUG", 100, 0, 120, 9, 1)], [150.0])
    ('CHRISTMAS', None)
    """
    return next((w for w in row if not w.ocr for e in edges if w.x0 + w.height / 2 < e < w.x1 - w.height / 2), None)


_SIGN = re.compile(r"(?:[A-Z]{0,3}\$|£|€)", re.IGNORECASE)  # $, £, €, HK$, US$: a sign apart from its number
_AMOUNT = re.compile(r"[-(]?\d[\d.,' ]*[.,]\d{2,4}\)?-?")  # a number with cents, no sign


def marks_to_numbers(row: list[Word]) -> list[Word]:
    """A currency sign printed apart from the amount after it (a spreadsheet's accounting format sets it at the
    cell's left edge, the amount at its right) moved to stand just before that amount, so both fall in the
    amount's column, whatever column the gap between them reaches into (a sign a space before its amount is left
    where it is). A row whose signs follow its amounts
    (``3.39 €  72  244.08 €``) prints each after its own, and is left as it is.

    >>> row = [Word("12", 390, 0, 402, 9, 1), Word("€", 406, 0, 412, 9, 1), Word("2.10", 438, 0, 452, 9, 1)]
    >>> [(w.text, w.x0) for w in marks_to_numbers(row)]
    [('12', 390), ('€', 437.0), ('2.10', 438)]
    >>> [w.x0 for w in marks_to_numbers(row + [Word("€", 455, 0, 461, 9, 1), Word("72", 480, 0, 490, 9, 1)])]
    [390, 406, 438, 455, 480]
    """
    signs = [k for k, w in enumerate(row) if _SIGN.fullmatch(w.text)]
    before = sum(1 for k in signs if k and _AMOUNT.fullmatch(row[k - 1].text))
    after = [k for k in signs if k + 1 < len(row) and _AMOUNT.fullmatch(row[k + 1].text) and
             row[k + 1].x0 - row[k].x1 > 0.5 * row[k].height]  # further off than a space: "€ 2.10" stays
    if len(after) <= before:
        return row  # "2,55 €  15,30 €": each sign after its amount
    out = list(row)
    for k in after:
        w, to = row[k], row[k + 1]
        out[k] = Word(w.text, to.x0 - 1.0, w.y0, to.x0 - 1.0 + min(w.x1 - w.x0, 1.0), w.y1, w.page, w.ocr)
    return out


_REFERENCE = re.compile(r"^[(\[]?B[TG]-\d{1,3}[)\]]?(:?)$")  # EN 16931's business terms: (BT-1), [BG-25], BT-2


def unreferenced(row: list[Word]) -> list[Word]:
    """The row less the business-term references an e-invoice's visualisation prints beside its labels
    (``Invoice number (BT-1): 536754``, ``BT-2 Invoice issue date``, or a narrow column of them), a colon after
    one kept on the word before it, so the label reads as one with its value.

    >>> row = [Word(t, 10 * k, 0, 10 * k + 8, 9, 1) for k, t in enumerate(("Invoice", "number", "(BT-1):", "536754"))]
    >>> [w.text for w in unreferenced(row)]
    ['Invoice', 'number:', '536754']
    """
    out: list[Word] = []
    for w in row:
        m = _REFERENCE.match(w.text)
        if not m:
            out.append(w)
        elif m[1] and out and not out[-1].text.endswith(":"):
            out[-1] = Word(out[-1].text + ":", out[-1].x0, out[-1].y0, out[-1].x1, out[-1].y1, out[-1].page,
                           out[-1].ocr, out[-1].cuts)
    return out


def split_run(row: list[Word], edges: list[float]) -> tuple[Word, Word] | None:
    """Two words a space apart on either side of a column edge, both words of letters (not a unit of measure):
    one text run read into two columns, where the edges were put wrong.

    >>> row = [Word("3", 85, 0, 91, 9, 1), Word("HOOK", 95, 0, 119, 9, 1), Word("PHOTO", 123, 0, 155, 9, 1)]
    >>> [w.text for w in split_run(row, [121.0])], split_run(row, [88.0]), split_run(row[:2] + [Word("pc", 123, 0, 133, 9, 1)], [121.0])
    (['HOOK', 'PHOTO'], None, None)
    """
    for edge in edges:
        left = max((w for w in row if w.cx < edge), key=lambda w: w.x1, default=None)
        right = min((w for w in row if w.cx >= edge), key=lambda w: w.x0, default=None)
        if left is None or right is None or right.x0 - left.x1 >= 0.6 * max(left.height, right.height):
            continue
        if all(_letters(w.text) and norm(w.text) not in UNITS | {"cr", "dr"} for w in (left, right)):  # 2 CR
            return left, right
    return None


def _letters(text: str) -> bool:
    """A word of letters, or of letters and then digits (``SET/5``, ``C2``), as a description holds; not a number."""
    return bool(re.fullmatch(r"[^\W\d_]+(?:[-'/.][^\W\d_]+)*[.,]?|[^\W\d_]+[/.\-]?\d+", text))


def text_limit(rows: list[list[Word]], edges: list[float], k: int | None) -> float | None:
    """The right end of column ``k`` (the description's) as printed: the furthest its words reach on a row holding
    two of them or more (a word too long for the column stands alone on its row, running past the end).

    >>> rows = [[Word("PINK", 90, 0, 110, 9, 1), Word("NEW", 112, 0, 130, 9, 1)],
    ...         [Word("BAROQUECANDLESTICK", 90, 12, 188, 21, 1)]]
    >>> text_limit(rows, [80.0, 200.0], 1), text_limit(rows[1:], [80.0, 200.0], 1)
    (130, 188)
    """
    if k is None:
        return None
    lo, hi = edges[k - 1] if k else float("-inf"), edges[k] if k < len(edges) else float("inf")
    cells = [[w for w in row if lo <= w.cx < hi] for row in rows]
    return max((w.x1 for cell in cells if len(cell) > 1 for w in cell), default=None) or \
        max((w.x1 for cell in cells for w in cell), default=None)


def wraps(tail: list[Word], words: list[Word], limit: float | None) -> bool:
    """Whether ``words``, a row with no numbers, can be the rest of the description ending in ``tail``: its first
    word would not have fit after the line above's last one within the column (``limit``), so it was wrapped. OCR
    places words by estimate, and is given a character's width or two more.

    >>> a = [Word("HAND", 90, 0, 120, 9, 1), Word("WARMER", 124, 0, 170, 9, 1)]
    >>> wraps(a, [Word("UNION", 90, 12, 126, 21, 1)], 172), wraps(a, [Word("UNION", 90, 12, 126, 21, 1)], 260)
    (True, False)
    """
    if not tail or not words or limit is None:
        return True
    first, last = min(words, key=lambda w: w.x0), max(tail, key=lambda w: w.x1)
    slack = (1.5 if first.ocr or last.ocr else 0.5) * first.height
    return last.x1 + 0.25 * first.height + (first.x1 - first.x0) > limit - slack


def wrapped_below(body: list[list[Word]], items: list[bool]) -> bool:
    """Whether the rows without numbers (``items`` False) are the first lines of the item row below them, not the
    rest of the one above: a spreadsheet sets a wrapped cell's numbers at its foot, so each run of such rows stands
    a line apart from the item row under it and further from the one over it (the cells' padding). Every run
    between two item rows must show it, by a tenth of a line and by a fifth on average, measured between the rows'
    middles (OCR's boxes are taller than the letters, by more or less, so the gaps between them tell less); a run
    under the last item row says the table wraps downwards.

    >>> rows = [[Word(t, 0, y, 9, y + 8, 1)] for t, y in (("1", 0), ("A", 18), ("2", 29), ("B", 47), ("3", 58))]
    >>> wrapped_below(rows, [True, False, True, False, True]), wrapped_below(rows[:4], [True, False, True, False])
    (True, False)
    """
    more: list[float] = []  # how much further each run is from the item row over it than from the one under it
    r = 0
    while r < len(body):
        if items[r]:
            r += 1
            continue
        start = r
        while r < len(body) and not items[r]:
            r += 1
        if r == len(body):
            return False
        if start == 0:
            continue
        top, foot, under, over = span(body[start]), span(body[r - 1]), span(body[r]), span(body[start - 1])
        more.append(((top.y0 + top.y1 - over.y0 - over.y1) - (under.y0 + under.y1 - foot.y0 - foot.y1)) /
                    (2 * (top.y1 - top.y0)))
    return bool(more) and min(more) > 0.1 and sum(more) / len(more) > 0.2
