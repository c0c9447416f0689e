"""Numeric tables read from the positions of their words, so every value keeps the column heading it stands under.

The layout reader finds tables well but cuts their header cells where the text of a spanning heading crosses a
column line (``|Three Mo|nths Ended|``), and puts several stacked values into one cell. A financial statement is
only useful when a row such as "Server products and cloud services $ 22,308 $ 18,388" keeps the periods its two
values belong to, so a region the layout reader calls a table is read again from MuPDF's words when it is numeric:

1. words are grouped into lines by their vertical centre, left to right;
2. a line's *values* are the numbers at its end ("$ 22,308", "(1,673)", "12.5 %", "—"); the words before them are
   its *label*; a line with a label and values is a data row;
3. the value columns are the horizontal extents of the values, merged where they overlap from row to row;
4. the lines above the first data row (and lines of years only) are header lines: each phrase on them (words
   closer together than a word space or two) heads every column it lies over, so "Three Months Ended" centred over
   two columns heads both;
5. the table is written as a Markdown table with one header row per header line, which
   :func:`ingestion.blocks.from_markdown` turns into rows that carry their columns' headings.

A region with fewer than two data rows, or where data rows are under 40 % of the lines, is not numeric: the layout
reader's own table (text in cells) is kept.

>>> _is_value("(1,673)"), _is_value("12.5%"), _is_value("—"), _is_value("September")
(True, True, True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from statistics import median

import pymupdf

# A number as statements print it: currency sign, sign or parentheses, thousands separators, decimals, percent, or a
# dash standing for zero. "$" and "%" alone are parts of a value set apart from its digits.
_VALUE = re.compile(
    r"^[(\[]?[-+−]?[$€£¥]?[(]?[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?<=\d)[KMBx%]?[%)\]*]*$"
    r"|^[—–-]{1,3}$|^[$€£¥%)]$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
# A header cell covered by the phrase of the cell on its left (a heading spanning several columns). Never shown.
SPANNED = "\x1f"
_NUMERIC_SHARE = 0.4  # least share of a region's lines that are data rows for it to be read as a numeric table
_MIN_DATA_ROWS = 2


def _is_value(word: str) -> bool:
    return bool(_VALUE.match(word))


@dataclass
class _Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


@dataclass
class _Line:
    words: list[_Word]
    label: list[_Word] = field(default_factory=list)
    values: list[list[_Word]] = field(default_factory=list)  # each value: its words ("$", "22,308")

    @property
    def top(self) -> float:
        return min(w.y0 for w in self.words)

    @property
    def is_data(self) -> bool:
        """At least one value that is not a year (years at a line's end are column headings), and a label or a
        second value (a grid of numbers whose rows carry no label of their own)."""
        numbers = [v for v in self.values if any(ch.isdigit() for w in v for ch in w.text)]
        return any(not (len(v) == 1 and _YEAR.match(v[0].text)) for v in numbers) and (
            bool(self.label) or len(numbers) >= 2)


def numeric_table_markdown(page: pymupdf.Page, bbox, page_words: list[tuple] | None = None) -> str | None:
    """The numeric table in ``bbox`` of ``page`` as Markdown with a header row per header line, or ``None`` when
    the region is not a numeric table (see the module docstring). ``page_words`` is the page's
    ``get_text("words")`` when the caller has it already."""
    x0, y0, x1, y1 = bbox
    words = [_Word(*w[:5]) for w in (page.get_text("words") if page_words is None else page_words)
             if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]
    if not words:
        return None
    lines = _lines(words)
    for line in lines:
        _split_values(line)
    data = [i for i, line in enumerate(lines) if line.is_data]
    if len(data) < _MIN_DATA_ROWS or len(data) < _NUMERIC_SHARE * len(lines):
        return None
    columns = _columns([v for i in data for v in lines[i].values])
    if not columns:
        return None
    # Header lines: those above the first data row down to the last one with words over the value columns; the
    # label-only lines under them ("Revenue", "Net revenue:") open the body as group labels.
    left = columns[0][0]
    over = [i for i in range(data[0]) if any((w.x0 + w.x1) / 2 >= left for w in lines[i].words)]
    first = over[-1] + 1 if over else 0
    return _markdown(lines[:first], lines[first:], columns)


def _lines(words: list[_Word]) -> list[_Line]:
    """Words grouped into lines by vertical centre, each line left to right, lines top to bottom."""
    height = median(w.y1 - w.y0 for w in words) or 1.0
    rows: list[tuple[float, list[_Word]]] = []
    for word in sorted(words, key=lambda w: ((w.y0 + w.y1) / 2, w.x0)):
        centre = (word.y0 + word.y1) / 2
        if rows and abs(rows[-1][0] - centre) <= 0.5 * height:
            rows[-1][1].append(word)
        else:
            rows.append((centre, [word]))
    return [_Line(sorted(ws, key=lambda w: w.x0)) for _, ws in rows]


def _split_values(line: _Line) -> None:
    """Set a line's label (leading words) and values (the run of number words at its end, "$" joined to its
    amount and "%" to its number)."""
    words = line.words
    i = len(words)
    while i > 0 and _is_value(words[i - 1].text):
        i -= 1
    # A row labelled with a year ("2024 $ 1,000" in a maturity table): the year is its label.
    if i == 0 and len(words) > 1 and _YEAR.match(words[0].text) and not all(_YEAR.match(w.text) for w in words):
        i = 1
    tail = words[i:]
    values: list[list[_Word]] = []
    for word in tail:
        if values and (values[-1][-1].text in "$€£¥" or word.text in ("%", ")")):
            values[-1].append(word)
        else:
            values.append([word])
    line.label, line.values = words[:i], values


def _columns(values: list[list[_Word]]) -> list[tuple[float, float]]:
    """Horizontal extents of the value columns: the values' extents merged where they overlap."""
    spans = sorted((v[0].x0, v[-1].x1) for v in values)
    merged: list[list[float]] = []
    for x0, x1 in spans:
        if merged and x0 <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    return [(a, b) for a, b in merged]


def _column_of(x0: float, x1: float, columns: list[tuple[float, float]]) -> int | None:
    """The column a word or value lies over (most overlap), or ``None`` when it lies left of every column."""
    best, overlap = None, 0.0
    for j, (a, b) in enumerate(columns):
        o = min(x1, b) - max(x0, a)
        if o > overlap:
            best, overlap = j, o
    if best is None and x0 >= columns[0][0]:
        # Between columns: the nearest one.
        best = min(range(len(columns)), key=lambda j: min(abs(x0 - columns[j][1]), abs(x1 - columns[j][0])))
    return best


def _phrases(words: list[_Word]) -> list[list[_Word]]:
    """Words split where the gap between them is wider than a word space or two."""
    if not words:
        return []
    height = median(w.y1 - w.y0 for w in words) or 1.0
    phrases = [[words[0]]]
    for word in words[1:]:
        if word.x0 - phrases[-1][-1].x1 > 0.9 * height:
            phrases.append([word])
        else:
            phrases[-1].append(word)
    return phrases


def _text(words: list[_Word]) -> str:
    return " ".join(w.text for w in words)


def _cell(text: str) -> str:
    return text.replace("|", "/")


def _markdown(header: list[_Line], body: list[_Line], columns: list[tuple[float, float]]) -> str:
    n = len(columns)
    rows: list[list[str]] = []
    for line in header:
        cells = [""] * (n + 1)
        for phrase in _phrases(line.words):
            x0, x1 = phrase[0].x0, phrase[-1].x1
            covered = [j for j, (a, b) in enumerate(columns) if min(x1, b) - max(x0, a) > 0]
            if not covered:
                column = _column_of(x0, x1, columns)
                covered = [] if column is None or x1 < columns[0][0] else [column]
            if not covered:
                cells[0] = (cells[0] + " " + _text(phrase)).strip()
                continue
            # A phrase over several columns heads each: it is written once, in the first, and the others hold
            # SPANNED, read back as "the heading on my left" (ingestion.blocks).
            cells[covered[0] + 1] = (cells[covered[0] + 1] + " " + _text(phrase)).strip()
            for j in covered[1:]:
                cells[j + 1] = cells[j + 1] or SPANNED
        rows.append(cells)
    separator = ["---"] * (n + 1)
    lines = [_row(r) for r in rows] + [_row(separator)]
    for line in body:
        cells = [""] * (n + 1)
        label_words = list(line.label)
        for value in line.values:
            column = _column_of(value[0].x0, value[-1].x1, columns)
            if column is None:
                label_words.extend(value)
            else:
                cells[column + 1] = (cells[column + 1] + " " + _text(value)).strip()
        # Label words over a value column (a label that runs across the table) stay in the label.
        cells[0] = _text(label_words)
        lines.append(_row(cells))
    return "\n".join(lines)


def _row(cells: list[str]) -> str:
    return "|" + "|".join(_cell(c) for c in cells) + "|"
