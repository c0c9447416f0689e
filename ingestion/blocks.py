"""A page's structure as spans of clean text: what the user reads carries no markup, what it is lives beside it.

Readers speak Markdown (pymupdf4llm's layout mode, ``.md`` uploads, :mod:`ingestion.tables`). Everything after
reading sees a page as clean text, the words as printed with no ``#``, ``|`` or ``**``, plus :class:`Block` spans
saying what each part is: a heading and its level, a table row with its label, its values and each value's column
heading, a list item, a caption, the words printed inside a figure, a line of a table of contents, a reference. Blocks are separated by a blank line;
the rows of one table and the items of one list by a line break.

>>> text, blocks = from_markdown("## 2 Results\\n\\n|Item|2023|2022|\\n|---|---|---|\\n|Revenue|$ 5|$ 4|")
>>> print(text)
2 Results
<BLANKLINE>
Item 2023 2022
Revenue $ 5 $ 4
>>> [(b.kind, text[b.start:b.end]) for b in blocks]
[('heading', '2 Results'), ('table_header', 'Item 2023 2022'), ('table_row', 'Revenue $ 5 $ 4')]
>>> blocks[2].label, blocks[2].values, blocks[2].columns
('Revenue', ('$ 5', '$ 4'), ('2023', '2022'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ingestion.repair import clean_markdown
from core.types import Block, Page

KINDS = ("heading", "paragraph", "list_item", "table_header", "table_row", "caption", "code", "figure", "toc",
         "reference")
# Kinds that are one unit each: never cut into sentences, never joined with their neighbours.
WHOLE = frozenset({"heading", "table_header", "table_row", "toc", "figure"})
# A header cell covered by the heading of the cell on its left (see ingestion.tables). Never shown.
SPANNED = "\x1f"

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+•●▪◦]|\d{1,3}[.)]|\([a-z0-9]{1,3}\))[ \t]+\S")
_SEPARATOR_CELL = re.compile(r"^\s*:?-{3,}:?\s*$")
_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Exhibit|Chart|Listing)\s*[\dIVXA-Z]+(?:\.\d+)*\s*[.:—–-]\s*\S", re.I)
_SPACE = re.compile(r"[ \t]+")


def clip(blocks: Iterable[Block], start: int, end: int) -> list[Block]:
    """The blocks overlapping ``[start, end)``, cut to it and with offsets relative to ``start``; paragraphs are
    left out (a span no block covers is a paragraph)."""
    out = []
    for b in blocks:
        if b.kind == "paragraph" or b.end <= start or b.start >= end:
            continue
        lo, hi = max(b.start, start) - start, min(b.end, end) - start
        if hi > lo:
            out.append(Block(b.kind, lo, hi, b.level, b.label, b.values, b.columns, b.title))
    return out


def from_markdown(markdown: str) -> tuple[str, list[Block]]:
    """Clean text and its blocks from Markdown (see the module docstring).

    Headings (``#``), tables (``|`` rows, a ``|---|`` line closing their header rows), list items, fenced code and
    paragraphs are recognised; inline markup (emphasis, ``<br>``, ``<sup>``...) is removed. A paragraph starting
    "Figure 3:" or "Table 2." is a caption; a fence opened with "```figure" holds a picture's words. Every other
    character is kept as it is.
    """
    parts: list[tuple[str, Block | None, str]] = []  # (text, block with offsets relative to the text, joiner)
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if _FENCE.match(line):
            j = i + 1
            while j < len(lines) and not _FENCE.match(lines[j]):
                j += 1
            code = "\n".join(lines[i + 1:j]).strip("\n")
            # "```figure" fences hold the words printed inside a picture (ingestion.layout_repair).
            kind = "figure" if line.strip().lstrip("`~").strip() == "figure" else "code"
            text = _inline(code) if kind == "figure" else code
            if text.strip():
                parts.append((text, Block(kind, 0, len(text)), "\n\n"))
            i = j + 1
            continue
        heading = _HEADING.match(line)
        if heading:
            text = _inline(heading[2]).strip(" *_`~")
            if text:
                parts.append((text, Block("heading", 0, len(text), level=len(heading[1])), "\n\n"))
            i += 1
            continue
        if line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            parts.extend(_table(lines[i:j], _title(parts)))
            i = j
            continue
        if _LIST_ITEM.match(line):
            j = i + 1
            while j < len(lines) and lines[j].strip() and not _starts_structure(lines[j]):
                j += 1
            text = _inline("\n".join(lines[i:j]).strip())
            joiner = "\n" if parts and parts[-1][1] is not None and parts[-1][1].kind == "list_item" else "\n\n"
            parts.append((text, Block("list_item", 0, len(text)), joiner))
            i = j
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() and not _starts_structure(lines[j]):
            j += 1
        text = _inline("\n".join(lines[i:j]).strip())
        if text:
            kind = "caption" if _CAPTION.match(text) else "paragraph"
            parts.append((text, Block(kind, 0, len(text)), "\n\n"))
        i = j
    return _assemble(parts)


def _starts_structure(line: str) -> bool:
    stripped = line.lstrip()
    return bool(_HEADING.match(line) or stripped.startswith("|") or _FENCE.match(line) or _LIST_ITEM.match(line))


def _inline(text: str) -> str:
    """Inline markup removed, spaces and tabs collapsed within lines."""
    text = clean_markdown(text).replace(SPANNED, "")
    return "\n".join(_SPACE.sub(" ", line).strip() for line in text.split("\n")).strip()


def _title(parts: list[tuple[str, Block | None, str]]) -> str:
    """What the table about to start is: the heading before it, or a lead-in line ending with ":"."""
    if not parts:
        return ""
    text, block, _ = parts[-1]
    if block is not None and (block.kind == "heading" or text.rstrip().endswith(":") or block.kind == "caption"):
        return " ".join(text.split())[:300]
    return ""


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return line.split("|")


# A year heading a column, and the words of a period heading ("Three Months Ended", "Year Ending", "As of"); a
# note in parentheses ("(In millions, issuance by calendar year)") is none.
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_PERIOD_WORDS = re.compile(r"\b(?:ended|ending|as of|fiscal)\b", re.I)


def _lend_period(row: list[str]) -> list[str]:
    """A header row as it heads the columns: a period printed in the label column of a row of years ("Three
    Months Ended September 30,  2023  2022") heads those years, not the labels (the text shown is unchanged).

    >>> _lend_period(["Three Months Ended September 30,", "2023", "2022", "Percentage Change"])
    ['', 'Three Months Ended September 30, 2023', 'Three Months Ended September 30, 2022', 'Percentage Change']
    >>> _lend_period(["(In millions, issuance by calendar year)", "2023", "2022"])
    ['(In millions, issuance by calendar year)', '2023', '2022']
    """
    label = " ".join(_inline(row[0]).split()) if row else ""
    years = [j for j in range(1, len(row)) if _YEAR.match(row[j].strip())]
    if not years or label.startswith("(") or not _PERIOD_WORDS.search(label):
        return row
    return ["", *(f"{label} {c.strip()}" if j in years else c for j, c in enumerate(row) if j)]


def _table(rows: list[str], before: str) -> list[tuple[str, Block | None, str]]:
    cells = [_cells(r) for r in rows]
    separator = next((k for k, c in enumerate(cells) if c and all(_SEPARATOR_CELL.match(x) for x in c)), None)
    header = cells[:separator] if separator is not None else []
    body = cells[separator + 1:] if separator is not None else cells
    width = max(len(c) for c in cells)
    headings = []
    for j in range(width):
        words = []
        for row in map(_lend_period, header):
            k = j
            while 0 < k < len(row) and row[k] == SPANNED:
                k -= 1
            cell = _inline(row[k]) if k < len(row) else ""
            if cell:
                words.append(cell)
        headings.append(" ".join(" ".join(words).split()))
    title = " ".join(p for p in (before, headings[0] if headings else "") if p)
    out: list[tuple[str, Block | None, str]] = []
    for row in header:
        text = " ".join(c for c in (" ".join(_inline(x).split()) for x in row if x != SPANNED) if c)
        if text:
            out.append((text, Block("table_header", 0, len(text), title=title), "\n"))
    group = ""
    for row in body:
        clean = [" ".join(_inline(x).split()) for x in row]
        text = " ".join(c for c in clean if c)
        if not text:
            continue
        label = clean[0] if clean else ""
        values = [(headings[j] if j < len(headings) else "", c) for j, c in enumerate(clean) if j > 0 and c]
        if label and not values:
            group = label
        elif group and label:
            label = f"{group} {label}"
        if values and clean and clean[0].split(" ", 1)[0].lower() == "total":
            group = ""  # a total closes its group
        out.append((text, Block("table_row", 0, len(text), label=label, values=tuple(v for _, v in values),
                                columns=tuple(c for c, _ in values), title=title), "\n"))
    if out:
        out[0] = (out[0][0], out[0][1], "\n\n")
    return out


def _assemble(parts: list[tuple[str, Block | None, str]]) -> tuple[str, list[Block]]:
    pieces: list[str] = []
    blocks: list[Block] = []
    offset = 0
    for n, (text, block, joiner) in enumerate(parts):
        if n:
            pieces.append(joiner)
            offset += len(joiner)
        pieces.append(text)
        if block is not None:
            block.start, block.end = offset + block.start, offset + block.end
            blocks.append(block)
        offset += len(text)
    return "".join(pieces), blocks


def page_from_markdown(number: int, markdown: str, **kwargs) -> Page:
    """A page whose clean text and blocks come from Markdown (:func:`from_markdown`)."""
    text, blocks = from_markdown(markdown)
    return Page(number, text, blocks=blocks, **kwargs)
