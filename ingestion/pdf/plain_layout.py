"""The regions of a plain page told from MuPDF's own lines, in place of the layout model's.

pymupdf4llm's layout mode asks the layout model (``page.get_layout``) for a page's regions (text, headings, list
items, tables, pictures) and writes each as Markdown. On a plain page (one column of prose, no table, no figure;
:mod:`ingestion.pdf.routing` decides) the regions are plain to see in MuPDF's lines: :func:`plain_regions` gives
them in the model's own form, so pymupdf4llm writes the page as it writes the model's regions, and
:mod:`ingestion.layout_repair` mends them alike. The page's lines are grouped into rows (lines side by side), and
the rows, top to bottom, into regions:

* a row set **bold**, **larger** than the document's body text, in *italics* or in CAPITALS, not starting with a
  small letter, opens a heading; the rows under it set alike continue it; up to three rows of at most 25 words in
  all are a ``section-header``, a longer run is a paragraph set apart (``text``);
* a row starting with a bullet, or with an enumerator ("1.", "(a)", "[3]") after a gap or a finished sentence,
  opens a ``list-item``, which the rows under it continue (a numbered paragraph whose later rows start further
  left is ``text``, as the model has it);
* running headers and footers (:mod:`ingestion.pdf.geometry`) and a page number alone on the first or last row
  are ``page-header`` / ``page-footer``, which the reader drops;
* every other row continues the region above it, unless white space of about half a line or more
  (:data:`_PARAGRAPH_GAP`) or a line-end hyphen (left to :mod:`ingestion.repair`) ends that region.

Heading levels come, as for the model's headings, from the font sizes of all headings of the document. Where the
lines cannot settle a heading as the model would (:func:`_doubt`), or a line reaches into a neighbouring region
(:func:`_overlap`), the page is left to the model.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ingestion.pdf.geometry import Geometry, Line

# A row this much larger than the body text is display type (a heading), whatever its weight.
_LARGER = 1.12
# Most rows and words a heading region holds: a longer run of display rows is a bold paragraph.
_HEADING_ROWS = 3
_HEADING_WORDS = 25
_BULLET = re.compile(r"^[-–—•●▪◦∙·*](?:\s|$)")
_LIST_START = re.compile(r"^(?:\[\d{1,3}\]|[-–—•●▪◦∙·*]|\(?[0-9]{1,2}[.)]|\(?[a-zA-Z][.)]|\([ivx]{1,4}\))(?:\s|$)")
_LETTERS = re.compile(r"[^\W\d_]")
_PAGE_NUMBER = re.compile(r"^\W*(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,6})(?:\s+of\s+\d{1,4})?\W*$", re.I)
_PLAIN = (0.0, False, False, False)
# A heading region this near the top or bottom of the page (share of its height) may be a page header or footer.
_MARGIN_BAND = 0.1
# A heading of more words than this, or ending like a sentence, may be a paragraph set in bold.
_SENTENCE_WORDS = 14
_LINE_END_HYPHEN = re.compile(r"[^\W\d_]-$")
_ENDS_SENTENCE = re.compile(r"[.;:!?]\W*$")
# Share of a line's area inside a region's box from which pymupdf4llm writes it into that region (it takes spans
# more than half inside), less a margin.
_INSIDE = 0.4
# White space between rows, in line heights, that ends a paragraph.
_PARAGRAPH_GAP = 0.45


def body_size(geometries: Iterable[Geometry]) -> float:
    """The font size most of the document's characters are set in (rounded to half a point); 0.0 without text.

    >>> from ingestion.pdf.geometry import Line
    >>> g = Geometry(lines=[Line("Body text of the page", (0, 0, 1, 1), 0, 0, size=10.1),
    ...                     Line("Title", (0, 0, 1, 1), 0, 1, size=18)])
    >>> body_size([g])
    10.0
    """
    sizes: Counter[float] = Counter()
    for geometry in geometries:
        for line in geometry.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def plain_regions(geometry: Geometry, body: float, height: float) -> tuple[list[dict], str | None]:
    """The regions of an upright one-column page in the layout model's raw form (``class_name``,
    ``group_bbox``), top to bottom (module docstring), and why the model might tell its headings otherwise
    (:func:`_doubt`), ``None`` when it would not. ``body`` is :func:`body_size` of the document, ``height`` the
    page's."""
    rows = _rows(geometry)
    margins = _margin_rows(rows, geometry)
    regions: list[tuple[str, list[list[Line]]]] = []
    kind, members = "", []
    for n, row in enumerate(rows):
        if n in margins:
            if members:
                regions.append(_region(kind, members))
            regions.append((margins[n], [row]))
            kind, members = "", []
            continue
        row_kind = _row_kind(row, body, members[-1] if members else None)
        if members and _opens(row, row_kind, kind, members[-1], body):
            regions.append(_region(kind, members))
            members = []
        if not members:
            kind = row_kind
        members.append(row)
    if members:
        regions.append(_region(kind, members))
    boxes = [_box(kind, rows) for kind, rows in regions]
    return boxes, _overlap(boxes, regions) or _doubt(regions, height, body)


def _overlap(boxes: list[dict], regions: list[tuple[str, list[list[Line]]]]) -> str | None:
    """``"regions overlap"`` when a line lies mostly inside the box of a neighbouring region (a tall formula line
    reaching into the heading under it): pymupdf4llm writes into a region every span mostly inside its box, so
    it would write that line twice."""
    for n in range(len(boxes) - 1):
        for a, b in ((n, n + 1), (n + 1, n)):
            box = boxes[a]["group_bbox"]
            for row in regions[b][1]:
                for line in row:
                    x0, y0, x1, y1 = line.bbox
                    inside = max(0.0, min(x1, box[2]) - max(x0, box[0])) * max(0.0, min(y1, box[3]) - max(y0, box[1]))
                    if inside > _INSIDE * (x1 - x0) * (y1 - y0):
                        return "regions overlap"
    return None


def _doubt(regions: list[tuple[str, list[list[Line]]]], height: float, body: float) -> str | None:
    """Why the layout model might tell the page's headings otherwise: a heading set only in italics or capitals
    (a heading, or an introduction set apart), one in the page's top or bottom margin (a heading, or a page
    header), or one that reads as a sentence (a heading, or a paragraph set in bold)."""
    for kind, rows in regions:
        if kind != "section-header":
            continue
        size, bold, _, _ = _style(rows[0], body)
        text = " ".join(_row_text(row) for row in rows)
        if not (size or bold):
            return "heading in italics or capitals"
        if _top(rows[0]) < _MARGIN_BAND * height or _bottom(rows[-1]) > (1 - _MARGIN_BAND) * height:
            return "heading in the margin"
        if len(text.split()) > _SENTENCE_WORDS or _ENDS_SENTENCE.search(text):
            return "heading like a sentence"
    return None


def _margin_rows(rows: list[list[Line]], geometry: Geometry) -> dict[int, str]:
    """The rows the layout model would call ``page-header`` or ``page-footer``, by position: running headers and
    footers (:mod:`ingestion.pdf.geometry`) and a page number alone on the first or last row."""
    running = {id(geometry.lines[i]) for row in geometry.running_rows for i in row.lines}
    out = {}
    for n, row in enumerate(rows):
        if all(id(line) in running for line in row):
            out[n] = "page-header" if n < len(rows) / 2 else "page-footer"
    for n, kind in ((0, "page-header"), (len(rows) - 1, "page-footer")):
        if rows and _PAGE_NUMBER.match(_row_text(rows[n])):
            out[n] = kind
    return out


def _rows(geometry: Geometry) -> list[list[Line]]:
    """The page's upright lines grouped into rows (lines side by side), rows top to bottom, each left to right."""
    rows: list[list[Line]] = []
    for line in sorted((ln for ln in geometry.lines if ln.turn == 0), key=lambda ln: (_centre(ln), ln.bbox[0])):
        if rows and _same_row(rows[-1][-1], line):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda ln: ln.bbox[0]) for row in rows]


def _centre(line: Line) -> float:
    return (line.bbox[1] + line.bbox[3]) / 2


def _same_row(a: Line, b: Line) -> bool:
    height = min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1])
    return abs(_centre(a) - _centre(b)) <= height / 2


def _row_text(row: list[Line]) -> str:
    return " ".join(line.text for line in row)


def _top(row: list[Line]) -> float:
    return min(line.bbox[1] for line in row)


def _bottom(row: list[Line]) -> float:
    return max(line.bbox[3] for line in row)


def _height(row: list[Line]) -> float:
    return max(line.bbox[3] - line.bbox[1] for line in row)


def _gap(above: list[Line], row: list[Line]) -> float:
    """The white space between two rows, in heights of the lower one."""
    return (_top(row) - _bottom(above)) / (_height(row) or 1.0)


def _row_kind(row: list[Line], body: float, above: list[Line] | None) -> str:
    """``heading`` for a row of display type standing apart from the text above it, ``list-item`` for one opening
    a list item, else ``text``."""
    text = _row_text(row)
    if _BULLET.match(text):
        return "list-item"
    letters = _LETTERS.findall(text)
    style = _style(row, body)
    if style != _PLAIN and above is not None and _gap(above, row) <= _PARAGRAPH_GAP and _style(above, body) == style:
        return "heading"  # the next row of a heading (or of a paragraph) set alike
    if style != _PLAIN and letters and not letters[0].islower():
        return "heading"  # display type after body text, or after a gap
    if _LIST_START.match(text) and (above is None or _gap(above, row) > _PARAGRAPH_GAP
                                    or _ENDS_SENTENCE.search(_row_text(above))):
        return "list-item"
    return "text"


def _style(row: list[Line], body: float) -> tuple:
    """How a row is set, as far as it tells a heading: its size when larger than the body text, bold, italic,
    capitals; :data:`_PLAIN` for body text."""
    text = _row_text(row)
    size = max(line.size for line in row)
    letters = _LETTERS.findall(text)
    return (round(size * 2) / 2 if body > 0 and size >= _LARGER * body else 0.0, all(line.bold for line in row),
            all(line.italic for line in row), len(letters) >= 4 and text.upper() == text)


def _opens(row: list[Line], row_kind: str, kind: str, above: list[Line], body: float) -> bool:
    """Whether ``row`` starts a new region after the region of ``kind`` whose last row is ``above``."""
    if row_kind == "list-item" or _gap(above, row) > _PARAGRAPH_GAP:
        return True
    if _LINE_END_HYPHEN.search(_row_text(above)):
        # pymupdf4llm drops a line-end hyphen inside a region ("well-" / "known" -> "wellknown"); across regions
        # it is kept for ingestion.repair, which knows the words the document hyphenates.
        return True
    if row_kind == kind:
        # Heading rows set alike are one heading; "PART II" in capitals over "Item 1. Legal" are two.
        return kind == "heading" and (_style(above, body) != _style(row, body)
                                      or abs(max(ln.size for ln in above) - max(ln.size for ln in row)) > 0.5)
    # A text row under a list item's first row continues it; under a heading it starts the paragraph.
    return not (kind == "list-item" and row_kind == "text")


def _region(kind: str, rows: list[list[Line]]) -> tuple[str, list[list[Line]]]:
    """The model's class for a region of ``rows`` of ``kind``: a heading run too long for a heading is text, and so
    is a list item whose later rows start left of its first (a numbered paragraph, which the model calls text)."""
    if kind == "heading":
        words = sum(len(_row_text(row).split()) for row in rows)
        kind = "section-header" if len(rows) <= _HEADING_ROWS and words <= _HEADING_WORDS else "text"
    elif kind == "list-item" and any(row[0].bbox[0] < rows[0][0].bbox[0] - 2 for row in rows[1:]):
        kind = "text"
    return kind, rows


def _box(kind: str, rows: list[list[Line]]) -> dict:
    """A region as the layout model gives it (``page.layout_information`` with ``return_raw=True``)."""
    lines = [line for row in rows for line in row]
    bbox = [min(ln.bbox[0] for ln in lines), min(ln.bbox[1] for ln in lines),
            max(ln.bbox[2] for ln in lines), max(ln.bbox[3] for ln in lines)]
    return {"class_name": kind, "group_bbox": bbox, "table_grid": None}
