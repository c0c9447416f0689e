"""Which text pages need the layout model, decided from MuPDF's own data about each page in a few milliseconds.

The layout model costs most of a PDF's reading time, and on a plain page it tells nothing MuPDF's lines do not:
:func:`plain_pages` gives the regions (:mod:`ingestion.pdf.plain_layout`) of every page read without it, and
sends a page to the model when it is

* **not upright** (turned, or set mostly sideways): its regions would be in turned coordinates;
* **in columns**: prose lines side by side with a gutter between them (:func:`_in_columns`);
* **tabular**: rows of text cells set apart by wide gaps, or a header row of bold cells (:func:`_table_rows`), a
  table's caption, or many vector strokes (:data:`_MAX_PLAIN_DRAWINGS`: rules, which also catch charts and
  diagrams);
* **mathematical**: lines set in a mathematics font (:data:`_MATH_LINES`), which the model reads as formula
  regions;
* **illustrated**: an image large enough to be a figure, or with text printed over it;
* **in doubt**: a heading the page's lines cannot settle (set only in italics or capitals, in the top or bottom
  margin, or reading like a sentence), or regions that overlap (:func:`ingestion.pdf.plain_layout.plain_regions`).

Measured per page type on the three papers and the four SEC 10-Q filings of the evaluation (296 pages): CPU
seconds per page of ``pymupdf4llm.to_markdown`` on that page alone, with the model and with plain regions
(``time.process_time``, 2-core machine shared with other work); then what the plain regions change on those
pages if every page were read with them, against the layout model's reading (words of pdfplumber's text matched
in order, the model's heading blocks kept and headings added, table rows). Geometry and routing cost 9-23 ms a
page; a pdfplumber re-read 150-260 ms, on 5 of the 296 pages.

======================================  =====  =========  ===========  =====  ===============  =======  ========  ============  =============================
page type                               pages  model s/p  of it model  plain  words in order   headings  headings  table rows    routed
                                                          call         s/p    model -> plain   kept      added     model->plain
======================================  =====  =========  ===========  =====  ===============  =======  ========  ============  =============================
prose, one column (SEC filings)         108    0.614      0.535        0.060  0.9922 -> 0.9953 220/243   77        0 -> 0        doubt 68, plain 21, table 13,
                                                                                                                                drawings 5, turned 1
SEC statement and other table pages     104    1.035      0.889        0.069  0.9695 -> 0.9905 243/255   344       1562 -> 0     table 98, columns 3, other 3
prose, one column (papers, NIST)        44     0.659      0.576        0.068  0.9634 -> 0.9631 43/43     14        0 -> 0        plain 19, doubt 12, formulas 5,
                                                                                                                                figure 5, table 2, turned 1
paper table pages                       14     0.849      0.755        0.045  0.9273 -> 0.9731 11/11     15        89 -> 0       table 10, formulas 3, columns 1
figure pages                            8      0.865      0.705        0.086  0.8339 -> 0.8406 12/12     2         0 -> 0        table 4, drawings 3, formulas 1
formula pages                           6      0.798      0.617        0.080  0.8039 -> 0.7967 13/16     4         0 -> 0        formulas 6
reference lists                         6      0.882      0.725        0.062  0.8356 -> 0.8232 2/2       1         0 -> 0        formulas 4, doubt 1, plain 1
contents pages                          6      0.826      0.712        0.031  0.9803 -> 0.9854 10/12     29        0 -> 0        table 6
======================================  =====  =========  ===========  =====  ===============  =======  ========  ============  =============================

The model's reading order of columns is needed on no page of this set (none is set in columns; the generated
two-column page of the tests is). What it does bring: tables (every table row is lost without it), headings it
tells from bold paragraphs, captions and signature lines (5-10 % of the SEC filings' headings differ on plain
regions, ~50 % more headings appear), formulas. So the plain path is taken only where none of that is in play:
42 of 296 pages (14 %), each ~10x cheaper.
"""

from __future__ import annotations

import re

import pymupdf

from ingestion.pdf.geometry import Geometry, Line
from ingestion.pdf.plain_layout import body_size, plain_regions

# A page with more vector strokes than this (table rules, chart axes, diagram boxes) is read with the model.
_MAX_PLAIN_DRAWINGS = 20
# A page with this many rows of separate text cells holds a table.
_TABLE_ROWS = 3
# A table's caption ("Table 2: Categories ..."), which also heads the continuation of a table on the next page.
_TABLE_CAPTION = re.compile(r"^Table\s+[A-Z]?\d+(?:\.\d+)*\s*[.:]")
# Cells of a table row are set apart by a gap wider than this many times the font size.
_CELL_GAP = 1.5
# Lines of at least this many words are prose, the lines whose side-by-side placement makes columns.
_PROSE_WORDS = 4
# Each column holds at least this many prose lines, and at most this share of prose lines crosses the gutter.
_COLUMN_LINES = 3
_GUTTER_CROSSING = 0.1
# Lines whose centre lies in this share of the page height at the top or bottom are margin lines.
_MARGIN_BAND = 0.08

# A page with this many lines set partly in a mathematics font holds formulas, which the model reads as regions.
_MATH_LINES = 3
# An image covering this share of the page is a figure.
_FIGURE_AREA = 0.05

# Whether pages may be read without the model at all; off, every text page goes to it.
ROUTING = True


def plain_pages(doc: pymupdf.Document, geometry: dict[int, Geometry]) -> dict[int, list[dict]]:
    """The regions of every page of ``geometry`` (0-based index -> measure) that is read without the layout
    model; the pages left out need it (module docstring)."""
    if not ROUTING:
        return {}
    body = body_size(geometry.values())
    out = {}
    for index, g in geometry.items():
        page = doc[index]
        if needs_layout(page, g) is None:
            regions, doubt = plain_regions(g, body, page.rect.height)
            if doubt is None:
                out[index] = regions
    return out


def needs_layout(page: pymupdf.Page, geometry: Geometry) -> str | None:
    """Why ``page`` needs the layout model ("turned", "columns", "table", "drawings", "formulas", "figure"), or
    ``None`` when its regions are plain."""
    if not geometry.upright:
        return "turned"
    lines = [line for line in geometry.lines if line.turn == 0]
    if sum(line.math for line in lines) >= _MATH_LINES:
        return "formulas"
    height = page.rect.height
    body = [ln for ln in lines if _MARGIN_BAND * height < (ln.bbox[1] + ln.bbox[3]) / 2 < (1 - _MARGIN_BAND) * height]
    if _in_columns(body, page.rect.width):
        return "columns"
    cells, headers = _table_rows(body)
    if cells >= _TABLE_ROWS or headers or any(_TABLE_CAPTION.match(line.text) for line in body):
        return "table"
    if len(page.get_cdrawings()) > _MAX_PLAIN_DRAWINGS:
        return "drawings"
    if _has_figure(page, body):
        return "figure"
    return None


def _table_rows(lines: list[Line]) -> tuple[int, int]:
    """How many rows of the page hold separate text cells (lines side by side, set apart by wide gaps), and how
    many of those have every cell set bold (a table's header row)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: ((ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[0])):
        centre = (line.bbox[1] + line.bbox[3]) / 2
        if rows and abs((rows[-1][0].bbox[1] + rows[-1][0].bbox[3]) / 2 - centre) <= (line.bbox[3] - line.bbox[1]) / 2:
            rows[-1].append(line)
        else:
            rows.append([line])
    count = headers = 0
    for row in rows:
        row.sort(key=lambda ln: ln.bbox[0])
        gaps = [b.bbox[0] - a.bbox[2] for a, b in zip(row, row[1:])]
        size = max(ln.size for ln in row) or 10.0
        if any(gap > _CELL_GAP * size for gap in gaps):
            count += 1
            headers += all(ln.bold for ln in row)
    return count, headers


def _in_columns(lines: list[Line], width: float) -> bool:
    """Whether prose lines stand side by side with a gutter between them that almost none crosses."""
    prose = [ln for ln in lines if len(ln.text.split()) >= _PROSE_WORDS]
    if len(prose) < 2 * _COLUMN_LINES:
        return False
    for step in range(20, 81, 2):
        x = width * step / 100
        left = [ln for ln in prose if ln.bbox[2] <= x]
        right = [ln for ln in prose if ln.bbox[0] >= x]
        crossing = len(prose) - len(left) - len(right)
        if len(left) >= _COLUMN_LINES and len(right) >= _COLUMN_LINES and crossing <= _GUTTER_CROSSING * len(prose):
            top = max(min(ln.bbox[1] for ln in left), min(ln.bbox[1] for ln in right))
            bottom = min(max(ln.bbox[3] for ln in left), max(ln.bbox[3] for ln in right))
            if bottom > top:  # the two sides share some height: columns, not a layout that moves sideways
                return True
    return False


def _has_figure(page: pymupdf.Page, lines: list[Line]) -> bool:
    """Whether an image of the page is large enough to be a figure, or has text printed over it."""
    if not page.get_images():
        return False
    area = abs(page.rect) or 1.0
    for info in page.get_image_info():
        box = pymupdf.Rect(info["bbox"]) & page.rect
        if box.is_empty:
            continue
        if abs(box) >= _FIGURE_AREA * area:
            return True
        for line in lines:
            x0, y0, x1, y1 = line.bbox
            if box.contains(pymupdf.Point((x0 + x1) / 2, (y0 + y1) / 2)):
                return True
    return False
