"""Measure where each PDF page's text lines lie, with MuPDF, and use it on the text a reader returned.

:func:`measure_pages` takes the open document and the pages with a text layer and gives each a :class:`Geometry`.
The measure gives a page's main reading direction (a page set sideways is turned upright for the layout reader),
the lines that repeat in the top or bottom margin of many pages (running headers and footers, dropped from
whichever reader's text is kept), and the lines running across the main direction (sideways captions, margin
stamps), added back where the kept text lost them: :func:`strip_running` and :func:`restore_off_axis` take a
reader's text and give it back without the running lines and with the sideways ones.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

import pymupdf

from ingestion.pdf.text_quality import MOSTLY_LOST, coverage, word_count

# Lines whose centre lies in this share of the page height at the top or bottom are margin lines (NIST sets its
# "Page 11" footer at 89.7 % of the height).
_MARGIN_BAND = 0.12
# A margin line (digits ignored) is a running header or footer when it recurs on at least this many pages and
# this share of the pages: books alternate headers between odd and even pages, so a half of them is common.
_RUNNING_MIN_PAGES = 3
_RUNNING_SHARE = 1 / 3
# Markup and list markers the readers add around a line; ignored when a text line is compared with a margin line.
_LINE_MARKUP = re.compile(r"[#*_`|>\s-]+")
_DIGITS = re.compile(r"\d+")
_ROMAN = re.compile(r"(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
# A line of at least this many words is prose; shorter ones are labels.
_PROSE_WORDS = 3
# Font names of bold faces whose flags do not say so ("Helvetica-Bold", "NimbusRomNo9L-Medi", "Arial-BoldMT").
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|-medi", re.I)
_MATH_FONT = re.compile(r"^(?:[A-Z]{6}\+)?(?:CM(?:MI|SY|EX|BSY)|MSAM|MSBM|rsfs|Symbol|.*Math)", re.I)
# How far from the start (headers) or end (footers) of a page's text a running line is looked for.
_RUNNING_SEARCH_LINES = 6


@dataclass
class Line:
    """One text line of a page, in MuPDF's unrotated coordinates."""

    text: str
    bbox: tuple[float, float, float, float]
    turn: int  # page rotation (0, 90, 180, 270) under which the line reads left to right
    block: int
    size: float = 0.0  # the largest font size of its spans, in points
    bold: bool = False  # every span with letters or digits is set bold
    italic: bool = False  # every span with letters or digits is set in italics
    math: bool = False  # some span is set in a mathematics font (TeX's CMMI, CMSY, CMEX; Symbol; "Math")


@dataclass
class Row:
    """A row of margin lines at one height, e.g. a header with a left and a right part."""

    band: str  # "top" or "bottom"
    lines: list[int]  # indices into Geometry.lines, left to right
    key: str
    segment_keys: list[str]


@dataclass
class Geometry:
    """How one page's text lies: its lines, its main direction and its margin rows (see :func:`measure_pages`)."""

    turn: int = 0  # rotation under which most of the text reads left to right
    rotation: int = 0  # the page's own /Rotate
    lines: list[Line] = field(default_factory=list)
    margin_rows: list[Row] = field(default_factory=list)
    running_rows: list[Row] = field(default_factory=list)

    @property
    def upright(self) -> bool:
        """The page is neither turned nor set mostly sideways (pdfplumber reads it as printed)."""
        return self.turn == 0 and self.rotation == 0

    def _running_lines(self) -> set[int]:
        return {i for row in self.running_rows for i in row.lines}

    def yardstick(self) -> str:
        """Text of the lines in the page's main direction, without running headers and footers."""
        skip = self._running_lines()
        return "\n".join(line.text for i, line in enumerate(self.lines) if line.turn == self.turn and i not in skip)

    def off_axis_groups(self) -> list[str]:
        """Text of the lines running across the main direction, one string per block and direction."""
        skip = self._running_lines()
        groups: list[str] = []
        key = None
        for i, line in enumerate(self.lines):
            if line.turn == self.turn or i in skip:
                key = None
                continue
            if (line.block, line.turn) == key:
                groups[-1] += "\n" + line.text
            else:
                groups.append(line.text)
                key = (line.block, line.turn)
        return groups


def _turn_of(direction: tuple[float, float]) -> int:
    """The page rotation that makes text running along ``direction`` (unrotated page, y down) read left to right."""
    dx, dy = direction
    if abs(dx) >= abs(dy):
        return 0 if dx > 0 else 180
    return 90 if dy < 0 else 270  # upwards text reads left to right once the page is turned 90 degrees clockwise


def _is_bold(span: dict) -> bool:
    return bool(span["flags"] & pymupdf.TEXT_FONT_BOLD) or bool(_BOLD_FONT.search(span["font"]))


def _line(text: str, line: dict, block: int) -> Line:
    """A line of MuPDF's ``dict`` output with its direction and the font facts of its spans."""
    inked = [s for s in line["spans"] if any(ch.isalnum() for ch in s["text"])] or line["spans"]
    return Line(text, tuple(line["bbox"]), _turn_of(line["dir"]), block, size=max(s["size"] for s in inked),
                bold=all(_is_bold(s) for s in inked),
                italic=all(s["flags"] & pymupdf.TEXT_FONT_ITALIC for s in inked),
                math=any(_MATH_FONT.search(s["font"]) for s in line["spans"]))


def _measure_page(page: pymupdf.Page) -> Geometry:
    """Lines of a page with their direction, the page's main direction and its rows of margin lines.

    Coordinates are MuPDF's unrotated ones, so the measure does not depend on the page's /Rotate.
    """
    lines: list[Line] = []
    for block_number, block in enumerate(page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]):
        for line in block.get("lines", ()):
            text = "".join(span["text"] for span in line["spans"]).strip()
            if text:
                lines.append(_line(text, line, block_number))
    # The main direction is the one most prose runs in. Lines of a few words do not count: a figure labelled
    # with many short sideways words (axis ticks, attention maps) is still read upright with its caption.
    chars: Counter[int] = Counter()
    for line in lines:
        if word_count(line.text) >= _PROSE_WORDS:
            chars[line.turn] += len(line.text)
    if not chars:
        for line in lines:
            chars[line.turn] += len(line.text)
    # Ties go to upright reading.
    turn = max(chars, key=lambda t: (chars[t], t == 0)) if chars else 0
    return Geometry(turn=turn, rotation=page.rotation, lines=lines,
                     margin_rows=_margin_rows(lines, page.cropbox.height))


def _margin_rows(lines: list[Line], height: float) -> list[Row]:
    """Rows of horizontal lines whose centre lies in the top or bottom margin band."""
    rows: list[tuple[str, float, list[int]]] = []  # band, centre, line indices
    for i, line in enumerate(lines):
        if line.turn != 0 or height <= 0:
            continue
        x0, y0, x1, y1 = line.bbox
        centre = (y0 + y1) / 2
        band = "top" if centre <= _MARGIN_BAND * height else "bottom" if centre >= (1 - _MARGIN_BAND) * height else ""
        if not band:
            continue
        for row_band, row_centre, members in rows:
            if row_band == band and abs(row_centre - centre) <= (y1 - y0) / 2:
                members.append(i)
                break
        else:
            rows.append((band, centre, [i]))
    result = []
    for band, _, members in rows:
        members.sort(key=lambda i: lines[i].bbox[0])
        texts = [lines[i].text for i in members]
        result.append(Row(band, members, _line_key(" ".join(texts)), [_line_key(t) for t in texts]))
    return result


def _line_key(text: str) -> str:
    """A line as compared across pages and readers: no markup or case, every number (and roman numeral) ``#``."""
    text = _LINE_MARKUP.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()
    if _ROMAN.fullmatch(text):
        return "#"
    return _DIGITS.sub("#", text)


def measure_pages(doc: pymupdf.Document, indices: list[int]) -> dict[int, Geometry]:
    """Measure the given pages (0-based ``indices``), mark running headers and footers, turn sideways pages
    upright, and give each page's :class:`Geometry` by index.

    The layout reader reads the page as displayed (it bakes the page's /Rotate into its content first) and
    returns nothing for text that runs sideways there; setting /Rotate to the page's main direction makes that
    text upright. Only this in-memory copy of the document changes.
    """
    geometry = {i: _measure_page(doc[i]) for i in indices}
    counts: Counter[tuple[str, str]] = Counter()
    for g in geometry.values():
        counts.update({(row.band, row.key) for row in g.margin_rows if row.key})
    needed = max(_RUNNING_MIN_PAGES, _RUNNING_SHARE * len(indices))
    for g in geometry.values():
        g.running_rows = [row for row in g.margin_rows if counts[(row.band, row.key)] >= needed]
    for i, g in geometry.items():
        if g.turn != g.rotation:
            doc[i].set_rotation(g.turn)
    return geometry


def strip_running(text: str, rows: list[Row]) -> str:
    """Drop the page's running header and footer lines from ``text``, wherever a reader left them.

    A header is looked for among the first lines and a footer among the last; a row is matched whole (one text
    line) or part by part (a reader that kept its parts apart). Table rows are never touched.
    """
    if not rows:
        return text
    lines = text.split("\n")
    alive = [bool(line.strip()) for line in lines]
    for row in rows:
        content = [i for i, keep in enumerate(alive) if keep]
        window = content[:_RUNNING_SEARCH_LINES] if row.band == "top" else content[::-1][:_RUNNING_SEARCH_LINES]
        keys: list[str | None] = [None if lines[i].lstrip().startswith("|") else _line_key(lines[i]) for i in window]
        if row.key in keys:
            alive[window[keys.index(row.key)]] = False
            continue
        for segment in row.segment_keys:
            if segment in keys:
                position = keys.index(segment)
                alive[window[position]] = False
                keys[position] = None
    kept = [line for line, keep in zip(lines, alive) if keep or not line.strip()]
    return "\n".join(kept)


def restore_off_axis(text: str, groups: list[str]) -> str:
    """Append the sideways line groups whose words ``text`` mostly lacks, each as its own paragraph."""
    missing = [group for group in groups if coverage(text, group) < MOSTLY_LOST]
    if not missing:
        return text
    return "\n\n".join([text.rstrip()] * bool(text.strip()) + missing)
