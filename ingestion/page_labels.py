"""The label printed on each PDF page ("ii", "17", "A-3"), shown beside its physical page number in citations.

A PDF's own page labels (its ``/PageLabels`` tree) come first. Without them, or when they only repeat the physical
numbers, the page number printed in a page's header or footer is used. Candidates are taken from the rows of text
lines in the top and bottom margins and from the page's first and last rows wherever they lie (a filing converted
from HTML prints its number under the last line of text, often mid-page): a row part that is a number alone
("17", "- 17 -", "Page ii", "page 3 of 48"), a part ending "page 17", or a number opening or closing a short part
("17 Annual Report"). Parts of a row are its lines, split at wide gaps and at ``|``.

A number counts only when it is consistent: it increases by one from page to page over a run of at least
``_MIN_RUN`` pages (pages without it may lie between, up to ``_MAX_GAP`` apart), so that a stray number in a margin
(a footnote mark, a year, a table cell) is not taken for a label. A roman run of front matter needs only two pages
when an arabic run follows it. Numbers opening or closing words count only in a run whose words stay the same
(digits aside), so section headings ("3 Results", "4 Discussion") at the tops of pages are not page numbers.
Pages without a consistent number get ``""``.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymupdf

    from ingestion.pdf.geometry import Geometry, Line

logger = logging.getLogger(__name__)

_MIN_RUN = 3  # pages carrying the number in one run
_MIN_FRONT_RUN = 2  # pages of a roman run just before an arabic one
_MAX_GAP = 3  # most physical pages from one page carrying the run's number to the next
_GAP_HEIGHTS = 2.0  # lines of one row further apart than this many line heights are separate parts
_EDGE_WORDS = 8  # a number opening or closing a part of at most this many words
_LABEL_CHARS = 24
_ARABIC = r"\d{1,4}"
_ROMAN_TEXT = r"[ivxlcdm]{1,8}|[IVXLCDM]{1,8}"
_PREFIX = r"(?:[A-Z]{1,2}[-\u2013.])?"  # appendix pages "A-3", "B.2"
_DASH = r"[-\u2013\u2014\u2012]?"
_ALONE = re.compile(rf"(?i:page|pg\.?|p\.)?\s*{_DASH}\s*(?P<label>{_PREFIX}(?:{_ARABIC}|{_ROMAN_TEXT}))\s*{_DASH}"
                    rf"(?:\s*(?i:of|/)\s*\d{{1,4}})?")
_PAGE_AT_END = re.compile(rf".*\b(?i:page)\s+(?P<label>{_PREFIX}(?:{_ARABIC}|{_ROMAN_TEXT}))"
                          rf"(?:\s+(?i:of)\s+\d{{1,4}})?")
_EDGE_NUMBER = re.compile(rf"^(?P<first>{_ARABIC})\s|\s(?P<last>{_ARABIC})$")
_ROMAN = re.compile(r"m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_UNSAFE = re.compile(r"[^\w .,:/\u2013\u2014-]")


def page_labels(doc: pymupdf.Document, geometry: dict[int, Geometry]) -> list[str]:
    """Every page's printed label (``""`` when none is known), 0-based like ``doc``.

    ``geometry`` holds the measured pages (:func:`ingestion.pdf.geometry.measure_pages`); pages missing from it
    (scans, blank pages) get a label only from the PDF's own labels.
    """
    try:
        own = _pdf_labels(doc)
        if any(own) and any(label != str(i + 1) for i, label in enumerate(own)):
            if all(own):
                return own
            printed = printed_labels(geometry, doc.page_count)
            return [label or found for label, found in zip(own, printed)]
        return printed_labels(geometry, doc.page_count)
    except Exception:  # labels only decorate citations: finding none must never cost the document
        logger.exception("page labels could not be found")
        return [""] * doc.page_count


def _pdf_labels(doc: pymupdf.Document) -> list[str]:
    """The PDF's own page labels, all ``""`` when it defines none (or they cannot be read)."""
    try:
        if not doc.get_page_labels():
            return [""] * doc.page_count
        return [clean(doc[i].get_label() or "") for i in range(doc.page_count)]
    except Exception:  # a damaged label tree costs the labels, never the document
        return [""] * doc.page_count


def clean(label: str) -> str:
    """A label as shown: one short line of letters, digits and a little punctuation."""
    text = " ".join(_UNSAFE.sub(" ", unicodedata.normalize("NFKC", label)).split())
    return text[:_LABEL_CHARS].strip()


def printed_labels(geometry: dict[int, Geometry], page_count: int) -> list[str]:
    """The page numbers printed in the pages' headers and footers that form consistent runs (module docstring)."""
    # (page, style, value, text, key): key is "" for a number standing alone, else its part with digits masked.
    found = [(i + 1, *candidate) for i, g in sorted(geometry.items()) for candidate in _candidates(g)]
    groups: dict[tuple, list[int]] = defaultdict(list)
    for page, style, value, _, key in found:
        groups[(style, value - page, key)].append(page)
    runs = [(style, offset, run) for (style, offset, _), pages in groups.items() for run in _runs(sorted(set(pages)))]
    accepted = [(style, offset, run[0], run[-1], len(run)) for style, offset, run in runs if len(run) >= _MIN_RUN]
    arabic_starts = [first for style, _, first, _, _ in accepted if not style.endswith("roman")]
    accepted += [(style, offset, run[0], run[-1], len(run)) for style, offset, run in runs
                 if style.endswith("roman") and _MIN_FRONT_RUN <= len(run) < _MIN_RUN
                 and any(0 < start - run[-1] <= _MAX_GAP for start in arabic_starts)]
    labels = [""] * page_count
    best = [0] * page_count
    for page, style, value, text, _ in found:
        for run_style, offset, first, last, size in accepted:
            if (style, value - page) == (run_style, offset) and first <= page <= last and size > best[page - 1]:
                labels[page - 1], best[page - 1] = clean(text), size
    return labels


def _runs(pages: list[int]) -> list[list[int]]:
    """``pages`` (sorted) cut where two neighbours lie more than ``_MAX_GAP`` apart."""
    runs: list[list[int]] = []
    for page in pages:
        if runs and page - runs[-1][-1] <= _MAX_GAP:
            runs[-1].append(page)
        else:
            runs.append([page])
    return runs


def _candidates(g: Geometry) -> list[tuple[str, int, str, str]]:
    """``(style, value, text, key)`` of every page-number-like part of the page's header and footer rows."""
    found = []
    for row in _edge_rows(g):
        for part in _parts(row):
            candidate = _number(part)
            if candidate:
                found.append(candidate)
    return found


def _edge_rows(g: Geometry) -> list[list[Line]]:
    """Rows of upright lines (left to right): those in the margin bands, and the page's first and last rows."""
    upright = [line for line in g.lines if line.turn == 0]
    if not upright:
        return []

    def centre(line: Line) -> float:
        return (line.bbox[1] + line.bbox[3]) / 2

    rows = [[g.lines[i] for i in row.lines] for row in g.margin_rows]
    seen = {id(line) for row in rows for line in row}
    for edge in (min(upright, key=centre), max(upright, key=centre)):
        if id(edge) in seen:
            continue
        row = [line for line in upright if abs(centre(line) - centre(edge)) <= (edge.bbox[3] - edge.bbox[1]) / 2]
        rows.append(sorted(row, key=lambda line: line.bbox[0]))
        seen.update(id(line) for line in row)
    return rows


def _parts(row: list[Line]) -> list[str]:
    """A row's texts: neighbouring lines closer than ``_GAP_HEIGHTS`` line heights join; ``|`` splits."""
    parts: list[str] = []
    previous = None
    for line in row:
        height = line.bbox[3] - line.bbox[1]
        if previous is not None and line.bbox[0] - previous.bbox[2] < _GAP_HEIGHTS * height:
            parts[-1] += " " + line.text
        else:
            parts.append(line.text)
        previous = line
    return [p.strip() for part in parts for p in unicodedata.normalize("NFKC", part).split("|") if p.strip()]


def _number(part: str) -> tuple[str, int, str, str] | None:
    """``(style, value, text, key)`` of the page number ``part`` holds, if any (module docstring)."""
    match = _ALONE.fullmatch(part) or _PAGE_AT_END.fullmatch(part)
    if match:
        return _value(match["label"], "")
    if len(part.split()) <= _EDGE_WORDS:
        match = _EDGE_NUMBER.search(part)
        if match:
            number = match["first"] or match["last"]
            return _value(number, re.sub(r"\d+", "#", part.casefold()))
    return None


def _value(label: str, key: str) -> tuple[str, int, str, str] | None:
    prefix, number = re.fullmatch(rf"({_PREFIX})(.+)", label).groups()
    style = prefix.rstrip("-\u2013.")
    if number.isdigit():
        value = int(number)
        return (f"{style}arabic", value, label, key) if value > 0 else None
    if not _ROMAN.fullmatch(number.casefold()):
        return None
    value = 0
    digits = [_ROMAN_VALUES[c] for c in number.casefold()]
    for i, digit in enumerate(digits):
        value += -digit if i + 1 < len(digits) and digits[i + 1] > digit else digit
    return (f"{style}{'R' if number.isupper() else 'r'}oman", value, label, key)
