"""The words of an invoice page with their boxes, from the text layer or, on a scan, from OCR; and the rows they
make.

A text layer gives MuPDF's words directly. A scan is read by the product's OCR engine
(:func:`ingestion.ocr.get_engine`), which finds text lines: each line's box is turned level (the angle at which
the rows are sharpest, near the slope of the wide boxes, is the sheet's skew, rotated away about the page's top
left) and its text split at spaces into words placed where the recogniser saw their characters (or, when it gives
no character boxes, in proportion to their characters). A blank strip of the image as wide as a space between two
letters of one word is a space the recogniser dropped, and parts the word (:func:`place_line`).

Measured on the 200 developed scans of the evaluation (``python -m evaluation.invoice_eval``), against placing
words in proportion to their characters: invoices entirely right 81.5 % -> 92.0 % (dev-d, whose narrow quantity
column OCR reads in one box with the description: 58 % -> 92 %); wrong and unflagged 5.0 % -> 0.5 %, together with
the look-alike doubt of :func:`ingestion.invoices.checks.misread_text`. The recogniser's character boxes cost 2 % of
its time (16 pages, each read both ways in turn).
Coordinates are PDF points, origin top left.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pymupdf

from core.invoices import Box
from ingestion.invoices.lookalike import english

__all__ = ["Word", "box_slope", "group_rows", "ocr_words", "page_words", "row_key", "row_number", "skew", "span",
           "split_at"]


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    page: int  # 1-based
    ocr: bool = False  # read by OCR: its x positions are the recogniser's, or estimates from its line's characters
    cuts: tuple[float, ...] = ()  # OCR: x of each edge between two of its characters, where the recogniser put it

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def span(words: list[Word]) -> Box | None:
    """The box around ``words`` (all on one page), or ``None`` for no words."""
    if not words:
        return None
    return Box(words[0].page, min(w.x0 for w in words), min(w.y0 for w in words), max(w.x1 for w in words),
               max(w.y1 for w in words))


def page_words(page: pymupdf.Page, number: int) -> list[Word]:
    """The text layer's words of ``page`` (numbered ``number``), less the rules typed in characters and the lines
    written in another direction than most of the page's words (a company's register entry printed up the margin,
    whose words would otherwise join the rows they cross)."""
    text = page.get_textpage(flags=pymupdf.TEXTFLAGS_WORDS)  # extracted once, read as lines and as words
    lines: dict[tuple[int, int], tuple[float, float]] = {}
    for block in page.get_text("dict", textpage=text)["blocks"]:
        for k, line in enumerate(block.get("lines", [])):
            lines[block["number"], k] = (round(line["dir"][0], 2), round(line["dir"][1], 2))
    words = [w for w in page.get_text("words", textpage=text) if w[4].strip() and not typed_rule(w[4])]
    ways = Counter(lines.get((w[5], w[6])) for w in words)
    main = ways.most_common(1)[0][0] if ways else None
    return [Word(w[4], w[0], w[1], w[2], w[3], number) for w in words if lines.get((w[5], w[6])) == main]


_TYPED_RULE = re.compile(r"[|¦]|[-=+_~*|]{3,}|={2}")


def typed_rule(text: str) -> bool:
    """Whether a word is a rule or a grid's bar typed in characters, as line printers and plain-text reports draw
    them (``+-----+----+``, ``=====``, ``|``, ``***``, and ``==``, what OCR keeps of a rule's end): no text, and
    never a value. A lone dash is kept, and two (a zero in some columns).

    >>> [typed_rule(t) for t in ("|", "+=====+====+", "-----", "***", "==", "-", "--", "1-2", "|A")]
    [True, True, True, True, True, False, False, False, False]
    """
    return bool(_TYPED_RULE.fullmatch(text.strip()))


def split_line(text: str, x0: float, y0: float, x1: float, y1: float, number: int) -> list[Word]:
    """One OCR line split into words at its spaces, each given a share of the width in proportion to its
    characters (a space counts as one).

    >>> [(w.text, w.x0, w.x1) for w in split_line("ab cd", 0, 0, 50, 10, 1)]
    [('ab', 0.0, 20.0), ('cd', 30.0, 50.0)]

    A label's colon read against the value after it is a word's end (``country:United``):

    >>> [w.text for w in split_line("Ship to country:United Kingdom at 10:30", 0, 0, 390, 10, 1)]
    ['Ship', 'to', 'country:', 'United', 'Kingdom', 'at', '10:30']
    """
    text = _line_text(text)
    step = (x1 - x0) / max(len(text), 1)
    out, start = [], 0
    for piece in text.split(" "):
        if piece:
            out.append(Word(piece, x0 + start * step, y0, x0 + (start + len(piece)) * step, y1, number, True))
        start += len(piece) + 1
    return out


def _line_text(text: str) -> str:
    """An OCR line's text cleaned (:func:`_clean`), a label's colon read against the value after it parted."""
    return re.sub(r"(?<=[A-Za-z]):(?=[A-Za-z0-9£€$])", ": ", _clean(text))


# What the recogniser reads for a lone "1" or a dash: a CJK "one" and its kin.
_CONFUSED = str.maketrans({"一": "1", "丨": "1", "|": "1", "—": "-", "–": "-", "−": "-"})


def _clean(text: str) -> str:
    """OCR text in the characters a printed invoice uses (NFKC, so full-width forms become ASCII).

    >>> _clean("一"), _clean("１２．６０")
    ('1', '12.60')
    """
    return unicodedata.normalize("NFKC", text).translate(_CONFUSED)


# The detector's least mean score for a text box: lower than its default (0.5), which drops a lone thin "1"
# (a quantity) on a blurred scan.
_BOX_THRESH = 0.3


def ocr_words(page: pymupdf.Page, number: int, dpi: int = 200) -> list[Word]:
    """The words OCR reads on ``page`` (a scan), levelled and in points."""
    from ingestion.ocr import get_engine, render_page

    engine = get_engine("rapidocr")
    image = render_page(page, dpi=dpi)
    if not _inked(image):
        return []
    bgr = np.ascontiguousarray(image[:, :, ::-1])
    with engine._lock:
        out = engine._ocr(bgr, box_thresh=_BOX_THRESH, return_word_box=True, return_single_char_box=True)
    if out.boxes is None or not out.txts:
        return []
    scale = page.rect.width / image.shape[1]
    chars = out.word_results if len(out.word_results) == len(out.txts) else [()] * len(out.txts)
    # Each text box as (its corners in pixels, in points, its text, its characters with their boxes).
    boxes = [(quad, quad * scale, text.strip(), line) for quad, text, line in
             zip((np.asarray(q, dtype=float) for q in out.boxes), out.txts, chars) if text.strip()]
    angle = skew([(float(p[:, 0].mean()), float(p[:, 1].mean()), float(np.ptp(p[:, 0])), float(np.ptp(p[:, 1])))
                  for _, p, _, _ in boxes], around=box_slope([p for _, p, _, _ in boxes]))
    cos, sin = math.cos(-angle), math.sin(-angle)

    def level_x(pts: np.ndarray) -> tuple[float, float]:
        xs = pts[:, 0] * cos - pts[:, 1] * sin
        return float(xs.min()), float(xs.max())

    ink = image.min(axis=2) < _INK
    placed = []
    for quad, pts, text, line in boxes:
        x0, x1 = level_x(pts)
        cy = float((pts[:, 0] * sin + pts[:, 1] * cos).mean())
        half = float((np.linalg.norm(pts[3] - pts[0]) + np.linalg.norm(pts[2] - pts[1])) / 4)
        spans = [(c, *level_x(np.asarray(b, dtype=float) * scale)) for c, _, b in line if b is not None]
        shift = float(pts[:, 1].mean()) * sin
        blanks = [(a * scale * cos - shift, b * scale * cos - shift) for a, b in blank_runs(ink, quad)]
        placed.append((text, spans, blanks, (x0, cy - half, x1, cy + half)))
    space = _space([(text, spans, blanks) for text, spans, blanks, _ in placed])
    words = []
    for text, spans, blanks, (x0, y0, x1, y1) in placed:
        words += place_line(text, spans, y0, y1, number, blanks, space) or split_line(text, x0, y0, x1, y1, number)
    return [w for w in words if not typed_rule(w.text)]  # as a text layer's are (page_words)


# A pixel darker than this (of 255, in its darkest channel) is ink; a scan's grey noise stays lighter.
_INK = 150
# A blank strip inside a word of letters at least this share of the page's median space between words, and twice
# the word's other strips (letter-spaced text is spaced evenly), is a space the recogniser dropped (``ILOVE``).
# Measured on 45 developed scans: inside 1,091 description words read right the widest strip was 0.56 of a space;
# the dropped spaces found were 0.8 to 1.1.
_LOST_SPACE = 0.7


def blank_runs(ink: np.ndarray, quad: np.ndarray) -> list[tuple[int, int]]:
    """Runs ``(start, end)`` of pixel columns inside the text box ``quad`` (image pixels, four corners, top left
    first) in which no pixel of the box is ink: the blank strips between its glyphs, as printed.

    >>> ink = np.zeros((10, 30), dtype=bool); ink[2:8, 0:5] = ink[2:8, 12:20] = True
    >>> blank_runs(ink, np.array([[0, 0], [29, 0], [29, 9], [0, 9]], dtype=float))
    [(5, 12), (20, 30)]
    """
    x0, x1 = max(int(quad[:, 0].min()), 0), min(int(quad[:, 0].max()) + 1, ink.shape[1])
    y0, y1 = max(int(quad[:, 1].min()), 0), min(int(quad[:, 1].max()) + 1, ink.shape[0])
    if x1 <= x0 or y1 <= y0:
        return []
    cols = np.arange(x0, x1)
    top = np.interp(cols, [quad[0, 0], quad[1, 0]], [quad[0, 1], quad[1, 1]])
    bottom = np.interp(cols, [quad[3, 0], quad[2, 0]], [quad[3, 1], quad[2, 1]])
    ys = np.arange(y0, y1)[:, None]
    inside = ink[y0:y1, x0:x1] & (ys >= np.floor(top)) & (ys <= np.ceil(bottom))
    inked = (inside & ~_rules(inside, y1 - y0)).any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate([[1], inked.astype(np.int8), [1]])))
    return [(int(a) + x0, int(b) + x0) for a, b in zip(edges[::2], edges[1::2])]


def _rules(inked: np.ndarray, length: int) -> np.ndarray:
    """The pixels of ``inked`` in horizontal runs of ink at least ``length`` long: a table's rule the text box
    touches (a ruled grid), which is no glyph and must not fill the blank strips between them.

    >>> ink = np.zeros((4, 30), dtype=bool); ink[3, :] = True; ink[1, 2:6] = True
    >>> _rules(ink, 10).sum(axis=1).tolist()
    [0, 0, 0, 30]
    """
    if length < 2 or inked.shape[1] < length:
        return np.zeros_like(inked)
    starts = np.lib.stride_tricks.sliding_window_view(inked, length, axis=1).all(axis=2)
    out = np.zeros_like(inked)
    for shift in range(length):  # each full window's pixels
        out[:, shift:shift + starts.shape[1]] |= starts
    return out


def _space(lines: list[tuple[str, list, list]]) -> float | None:
    """The page's median width of a space: the widest blank strip between each two words the recogniser read
    apart on a line."""
    widths = []
    for text, chars, blanks in lines:
        ends, k = [], 0
        for piece in text.split():
            if k + len(piece) > len(chars):
                break
            ends.append((chars[k], chars[k + len(piece) - 1]))
            k += len(piece)
        for (_, last), (first, _) in zip(ends, ends[1:]):
            lo, hi = (last[1] + last[2]) / 2, (first[1] + first[2]) / 2
            inside = [b - a for a, b in blanks if a >= lo and b <= hi]
            if inside:
                widths.append(max(inside))
    return float(np.median(widths)) if widths else None


def place_line(text: str, chars: list[tuple[str, float, float]], y0: float, y1: float, number: int,
               blanks: list[tuple[float, float]] = (), space: float | None = None) -> list[Word]:
    """One OCR line split into words at its spaces, each placed where the recogniser saw its characters
    (``chars``: each character, spaces left out, with its x range); empty when the characters do not spell the
    line's text, which then falls back to :func:`split_line`. A word of letters holding a blank strip
    (``blanks``) at least :data:`_LOST_SPACE` of ``space`` wide between its first and last character is two
    words: a space printed that the recogniser dropped.

    >>> [(w.text, w.x0, w.x1, w.cuts) for w in place_line("6 MUG", [("6", 0, 6), ("M", 20, 27), ("U", 28, 34),
    ...                                                        ("G", 35, 41)], 0, 10, 1)]
    [('6', 0, 6, ()), ('MUG', 20, 41, (27.5, 34.5))]
    """
    spread = [(ch, a, b) for c, a, b in chars for ch in _clean(c)]
    text = _line_text(text)
    if "".join(c for c, _, _ in spread) != text.replace(" ", "") or not spread:
        return []
    out, k = [], 0
    for piece in text.split(" "):
        if piece:
            part = spread[k:k + len(piece)]
            k += len(piece)
            out += _lost_spaces(piece, part, y0, y1, number, blanks, space)
    return out


def _lost_spaces(piece: str, part: list[tuple[str, float, float]], y0: float, y1: float, number: int,
                 blanks, space: float | None) -> list[Word]:
    """The word ``piece`` (its characters ``part``), split where a blank strip as wide as a space, and twice as
    wide as the word's own letter spacing, lies between two of its characters (not in one: the counter of an H
    whose thin bar the blur left grey), when the words it leaves are English: an English word is left whole
    (``GLASS``: the strip after a capital L of a small font is as wide as a space), and so is a name no cut makes
    English (``RETROSPOT``, not ``RE T ROSPOT``)."""
    cuts = tuple((a[2] + b[1]) / 2 for a, b in zip(part, part[1:]))
    if space and cuts and any(ch.isalpha() for ch in piece) and not any(ch.isdigit() for ch in piece) and \
            not (piece.replace("-", "").replace("/", "").isalpha() and english(piece)):  # "FOB," may be "FOB ,"
        # Inside the word's characters' boxes (a narrow I's box is wider than its glyph: the strip may start
        # before the box's middle).
        lo, hi = part[0][1], part[-1][2]
        inside = sorted(((b - a, (a + b) / 2) for a, b in blanks if lo < a and b < hi), reverse=True)
        for n, (width, at) in enumerate(inside):  # the widest strip between two characters (a comma's box is
            others = [w for m, (w, _) in enumerate(inside) if m != n]  # wider than its glyph: not that one)
            spacing = float(np.median(others)) if others else 0.0
            k = min(range(len(cuts)), key=lambda i: abs(cuts[i] - at)) + 1
            if abs(cuts[k - 1] - at) >= min(abs((a + b) / 2 - at) for _, a, b in part):
                continue
            if width >= max(_LOST_SPACE * space, 2 * spacing):
                words = _lost_spaces(piece[:k], part[:k], y0, y1, number, blanks, space) + \
                    _lost_spaces(piece[k:], part[k:], y0, y1, number, blanks, space)
                if all(english(w.text, shortest=1) or not any(ch.isalpha() for ch in w.text) for w in words):
                    return words
            break
    return [Word(piece, part[0][1], y0, part[-1][2], y1, number, True, cuts)]


def row_number(w: Word) -> bool:
    """Whether ``w`` may be a spreadsheet's row number (1 to 999, down the sheet's side): no address or text line."""
    return bool(re.fullmatch(r"\d{1,3}", w.text))


def row_key(row: list[Word]) -> tuple[int, float]:
    """A row's page and centre line (to 0.1 pt): how the table tells the header which rows it used."""
    return row[0].page, round(sum(w.cy for w in row) / len(row), 1)


def split_at(word: Word, x: float) -> list[Word]:
    """An OCR word that runs across the column edge ``x`` cut there by its characters (two values the
    recogniser read as one); any other word unchanged, as is one whose cut would fall between two letters.

    >>> [w.text for w in split_at(Word("121928", 0, 0, 60, 9, 1, True), 12)]
    ['1', '21928']

    With the recogniser's edges between characters, an edge nearer the word's end than its last character's start
    leaves it whole (``CHARGES`` over the column edge by part of its ``S``):

    >>> [w.text for w in split_at(Word("CHARGES", 241.8, 0, 285.2, 9, 1, True,
    ...                                (248.0, 255.2, 262.4, 268.5, 274.6, 280.0)), 283.5)]
    ['CHARGES']

    and one nearer a cut between two letters leaves it whole too (a wrapped code running over the edge):

    >>> [w.text for w in split_at(Word("CHARGES", 241.8, 0, 285.2, 9, 1, True,
    ...                                (248.0, 255.2, 262.4, 268.5, 274.6, 280.0)), 281.5)]
    ['CHARGES']
    """
    if not word.ocr or not word.x0 < x < word.x1:
        return [word]
    step = (word.x1 - word.x0) / len(word.text)
    # Where each character ends: the recogniser's edges, else in proportion; an edge nearer the word's own
    # start or end than any of them leaves the word whole.
    edges = [word.x0, *(word.cuts or (word.x0 + i * step for i in range(1, len(word.text)))), word.x1]
    k = min(range(len(edges)), key=lambda i: abs(edges[i] - x))
    cut = edges[k]
    if k <= 0 or k >= len(word.text) or word.text[k - 1].isalpha() and word.text[k].isalpha():
        return [word]  # an edge inside a run of letters: one word running over it (a code wrapped, BANK CHARGES)
    return [Word(word.text[:k], word.x0, word.y0, cut, word.y1, word.page, True, word.cuts[:k - 1]),
            Word(word.text[k:], cut, word.y0, word.x1, word.y1, word.page, True, word.cuts[k:])]


def box_slope(quads: list[np.ndarray]) -> float | None:
    """The median slope in radians of the top edges of the wide OCR boxes (four corners each, top left first), or
    ``None`` with none wide. The detector's boxes are level rectangles on a sheet turned a little, so this says
    roughly, not exactly, how the lines run.

    >>> box_slope([np.array([[0, 0], [200, 3.5], [200, 13.5], [0, 10]])])
    0.0175
    """
    slopes = [math.atan2(q[1, 1] - q[0, 1], q[1, 0] - q[0, 0]) for q in quads
              if np.ptp(q[:, 0]) > 4 * max(float(np.ptp(q[:, 1])), 1.0)]
    return round(float(np.median(slopes)), 4) if slopes else None


def skew(boxes: list[tuple[float, float, float, float]], limit: float = 2.0, step: float = 0.05,
         around: float | None = None, within: float = 0.5) -> float:
    """The sheet's skew in radians (positive: lines fall to the right) from OCR boxes given as (centre x, centre y,
    width, height): the angle, within ``limit`` degrees, at which the boxes' centres, weighted by their widths,
    stack into the sharpest rows (the largest sum of squares of a histogram in quarter-line bins; the middle
    of the best angles when several tie). With ``around`` (the boxes' own slope, :func:`box_slope`) only angles
    ``within`` degrees of it are tried: on a page of evenly spaced rows, turning the boxes by one row's rise over
    the page's width stacks each row's right end onto its neighbour's left and can look as sharp.

    >>> boxes = [(x, y + 0.017 * x, 40.0, 10.0) for y in (100, 130, 160) for x in range(0, 600, 25)]
    >>> round(math.degrees(skew(boxes)), 1)
    1.0

    Items of two rows 13 pt apart, a wide description above a code with the numbers far right, on a sheet
    level: a turn of 1.35 degrees puts the numbers on the description row, which is sharper still.

    >>> two = [b for y in range(100, 620, 26) for b in [(150, y, 300, 9), (30, y + 13, 28, 9)] +
    ...        [(x, y + 13, 25, 9) for x in (650, 700, 750)]]
    >>> round(math.degrees(skew(two)), 2), round(math.degrees(skew(two, around=0.003)), 2)
    (1.35, 0.0)
    """
    if not boxes:
        return 0.0
    cx, cy, width, height = (np.array(v, dtype=float) for v in zip(*boxes))
    bin_height = 0.25 * max(float(np.median(height)), 1.0)
    angles = [k * step for k in range(-round(limit / step), round(limit / step) + 1)]
    if around is not None:
        near = [a for a in angles if abs(a - math.degrees(around)) <= within + 1e-9]
        angles = near or angles
    angles = [math.radians(a) for a in angles]
    scores = []
    for angle in angles:
        y = cy - math.tan(angle) * cx
        scores.append(float((np.bincount(((y - y.min()) / bin_height).astype(int), weights=width) ** 2).sum()))
    top = max(scores)
    best = [a for a, s in zip(angles, scores) if s >= top * (1 - 1e-9)]
    return best[len(best) // 2]  # the middle of a plateau of equally sharp angles


def _inked(image: np.ndarray) -> bool:
    return int(np.count_nonzero(image.min(axis=2) < 160)) > 50


def group_rows(words: list[Word], tolerance: float = 0.5) -> list[list[Word]]:
    """``words`` of one page in rows, top to bottom, each row left to right: a word joins the nearest of the last
    rows whose centre line is within ``tolerance`` of its height (OCR boxes sit less exactly than a text
    layer's words, so a scan is grouped with a larger one); a row of OCR words whose centre lines leave a gap of
    half a line is two."""
    rows: list[list[Word]] = []
    centres: list[float] = []
    for w in sorted(words, key=lambda w: w.cy):
        near = [i for i in range(max(0, len(rows) - 3), len(rows))
                if abs(centres[i] - w.cy) < tolerance * max(w.height, 1.0)]
        if near:
            i = min(near, key=lambda i: abs(centres[i] - w.cy))
            rows[i].append(w)
            centres[i] = sum(x.cy for x in rows[i]) / len(rows[i])
        else:
            rows.append([w])
            centres.append(w.cy)
    split = [part for row in rows for part in _split_gap(row)]
    split.sort(key=lambda r: sum(w.cy for w in r) / len(r))
    return [sorted(r, key=lambda w: w.x0) for r in split]


def _split_gap(row: list[Word], gap: float = 0.5) -> list[list[Word]]:
    """A row of OCR words in two or more where their centre lines leave a gap of more than ``gap`` of their median
    height: two printed rows closer than the tolerance that one word halfway between had joined. (A text layer's
    words sit exactly, and are grouped with a tolerance too small for this.)

    >>> row = [Word(t, x, y, x + 20, y + 10, 1, True) for t, x, y in (("HAND", 0, 235), ("6", 30, 244), ("1.85", 60, 245))]
    >>> [[w.text for w in part] for part in _split_gap(row)]
    [['HAND'], ['6', '1.85']]
    """
    if len(row) < 2 or not all(w.ocr for w in row):
        return [row]
    ordered = sorted(row, key=lambda w: w.cy)
    height = sorted(w.height for w in row)[len(row) // 2]
    parts = [[ordered[0]]]
    for w in ordered[1:]:
        if w.cy - parts[-1][-1].cy > gap * max(height, 1.0):
            parts.append([])
        parts[-1].append(w)
    return parts
