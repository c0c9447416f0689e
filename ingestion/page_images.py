"""Render a PDF page with a cited passage highlighted, so a user sees at a glance where an answer came from.

A passage's text is not the page's raw text: it was read as layout Markdown (headings, ``**bold**``, table pipes,
list markers), repaired (NFKC, hyphenation joined, spaced decimals closed) and sometimes re-read with another
reader. So the passage is found by words, not by string search:

1. Both sides are cut into tokens: runs of letters and digits after compatibility decomposition (ligatures such as
   "ﬁ" become "fi"), accents dropped and case folded. Markup and punctuation vanish, and "FFN(x)" and "FFN( x )"
   give the same tokens whatever the spacing.
2. The page's words (``page.get_text("words")``) are taken in MuPDF's reading order (block, line, word). A word
   hyphenated at a line end ("optimiza-" / "tion") is joined into one token when the passage holds the joined
   word, else kept as two ("well-" / "known" matches "well-known").
3. The passage's tokens are aligned to the page's with :class:`difflib.SequenceMatcher`; runs of at least three
   tokens count. A second pass looks for passage parts the first missed anywhere on the page, since the layout
   reader may order columns, tables or footnotes differently from MuPDF.
4. Runs are kept around the longest one: a run must be long itself or lie close to a kept run on the page, so a
   phrase that recurs elsewhere on the page ("the model") is not highlighted there too. A passage whose longest
   run is short, or that is mostly unmatched, is not on the page.
5. Between the kept runs, what is still unmatched is filled in: two-token runs found inside the kept region (an
   author block or a table read in another order); page words whose letters agree with the passage's though the
   readers split them differently ("β1" / "β 1", "Executi|ve" / "Executive"), which then count as found; a few
   extra page words (a footnote mark) and punctuation-only words ("...", "−"), so the highlight reads as one piece.
6. The lit words' rectangles are merged into one box per run of neighbouring words on a line.

Pages without a text layer (scans read with OCR) have no words, so nothing is highlighted and ``matched`` is 0.

Usage::

    from ingestion.page_images import render_page

    image = render_page(pdf_bytes, chunk.page, chunk.on_page_text)
    image.png, image.boxes, image.matched   # PNG bytes, [(x0, y0, x1, y1), ...] in pixels, 0.97
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher

import pymupdf
from PIL import Image, ImageDraw
from rapidfuzz import fuzz

HIGHLIGHT_RGB = (255, 214, 0)
HIGHLIGHT_OPACITY = 0.4  # text under the tint stays black enough to read

# Letters and digits apart: readers space subscripts differently ("β1" / "β 1", "28.4" / "28 . 4").
_TOKEN = re.compile(r"[^\W\d_]+|\d+")
_LINE_END_HYPHENS = ("-", "\u2010", "\u2011", "\u00ad")
# Shortest run of tokens taken as a match; one or two common words ("of the") agree by chance on any page.
_MIN_RUN = 3
# Shortest run of the second, order-free pass, which searches the whole page and so meets more chance matches.
_MIN_RUN_UNORDERED = 4
# A run this long is the passage's text wherever it lies on the page; shorter ones must sit near a kept run.
_TRUSTED_RUN = 8
# The longest run must be at least this long (or the whole passage), else the passage is not on the page.
_MIN_ANCHOR = 6
# How many more page tokens than passage tokens may separate two runs that belong together (footnote marks,
# figure labels, words one reader dropped).
_SLACK = 15
# Two stretches between matched runs are the same text when their characters agree this much (0-100).
_SAME_CHARS = 70
# Below this share of the passage's tokens the runs found are chance agreement or boilerplate the page shares with
# the passage's own page (a table's column headings, "Continued on next page"), not the passage.
_MIN_MATCHED = 0.3


@dataclass
class PageImage:
    """A rendered page and where the passage was drawn on it.

    Attributes
    ----------
    png : the page as a PNG, highlight drawn in.
    width, height : size of the PNG in pixels.
    boxes : highlight rectangles ``(x0, y0, x1, y1)`` in image pixels, one per run of words on a line.
    matched : share of the passage's words found in the highlighted region, 0..1 (0 when nothing was highlighted
        or no passage was given).
    """

    png: bytes
    width: int
    height: int
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    matched: float = 0.0


MAX_SIDE_PX = 2400  # longest side of a rendered page; a Letter page at 110 dpi is 1210


def render_page(pdf: bytes, page_number: int, highlight: str | None = None, *, dpi: int = 110) -> PageImage:
    """Render one page of a PDF as a PNG with a passage highlighted in translucent yellow.

    Parameters
    ----------
    pdf : the PDF file's bytes (the original upload). An encrypted file opens if its user password is empty.
    page_number : 1-based page to render.
    highlight : the passage to highlight, or the part of it on this page; ``None`` or blank renders the page plain.
    dpi : resolution; 110 makes a Letter page about 935 x 1210 pixels, readable on screen.

    Returns
    -------
    PageImage
        The PNG, its size, the highlight boxes in image pixels (exactly what is drawn) and the share of the
        passage's words found.

    Raises
    ------
    ValueError
        The bytes are not a readable PDF, the PDF needs a password, or ``page_number`` is outside the document.
    """
    try:
        doc = pymupdf.open(stream=pdf, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError) as exc:
        raise ValueError(f"Cannot render the page: the file is not a readable PDF ({exc}).") from exc
    with doc:
        if not doc.is_pdf:  # MuPDF also opens HTML, XPS or images given the wrong file type
            raise ValueError("Cannot render the page: the file is not a readable PDF.")
        # Files that only restrict printing or copying have an empty user password; viewers open them silently.
        if doc.needs_pass and not doc.authenticate(""):
            raise ValueError("Cannot render the page: the PDF is protected by a password.")
        if not 1 <= page_number <= doc.page_count:
            raise ValueError(
                f"Page {page_number} does not exist: the PDF has {doc.page_count} page"
                f"{'s' * (doc.page_count != 1)}, numbered 1 to {doc.page_count}."
            )
        page = doc[page_number - 1]
        # A poster-sized page at the screen resolution would be a 20,000-pixel image (MuPDF refuses, and nobody
        # could read it): the longest side is kept to MAX_SIDE_PX.
        zoom = min(dpi / 72, MAX_SIDE_PX / max(page.rect.width, page.rect.height, 1))
        scale = pymupdf.Matrix(zoom, zoom)
        pix = page.get_pixmap(matrix=scale, alpha=False)
        rects, matched = find_boxes(page, highlight) if highlight and highlight.strip() else ([], 0.0)
        # Word rectangles are in unrotated page space; the pixmap shows the page turned by /Rotate, then scaled.
        to_pixels = page.rotation_matrix * scale
        boxes = [_clip(rect * to_pixels, pix) for rect in rects]
        boxes = [box for box in boxes if box[2] > box[0] and box[3] > box[1]]
        png = _draw(pix, boxes) if boxes else pix.tobytes("png")
        return PageImage(png=png, width=pix.width, height=pix.height, boxes=boxes,
                         matched=matched if boxes else 0.0)


def find_boxes(page: pymupdf.Page, text: str) -> tuple[list[pymupdf.Rect], float]:
    """Locate a passage on a page.

    Parameters
    ----------
    page : the PDF page.
    text : the passage as stored (Markdown, repaired), or only the part of it on this page.

    Returns
    -------
    tuple[list[pymupdf.Rect], float]
        Rectangles in PDF page coordinates (unrotated, as ``page.get_text`` gives them), one per run of matched
        words on a line, in reading order; and the share of the passage's words matched, 0..1. No rectangles and
        0.0 when the passage is not on the page (under 30 % of its words found around one region) or the page
        has no text layer.
    """
    wanted = _tokens(text)
    if not wanted:
        return [], 0.0
    words = sorted(page.get_text("words"), key=lambda w: (w[5], w[6], w[7]))
    tokens, owners = _page_tokens(words, set(wanted))
    if not tokens:
        return [], 0.0
    runs = _keep_near_anchor(_runs(wanted, tokens), len(wanted))
    if not runs:
        return [], 0.0
    runs = _fill_in(wanted, tokens, runs)
    positions, found = _cover(wanted, tokens, runs)
    matched = found / len(wanted)
    if matched < _MIN_MATCHED:
        return [], 0.0
    lit = sorted({n for j in positions for n in owners[j]})
    # Words without letters or digits ("...", "−", "·") between two lit words belong to the passage too.
    gaps = [range(a + 1, b) for a, b in zip(lit, lit[1:]) if b > a + 1]
    lit += [n for gap in gaps if not any(_tokens(words[n][4]) for n in gap) for n in gap]
    return _line_boxes(words, sorted(lit)), matched


# --- tokens -------------------------------------------------------------------------------------------------------


def _tokens(text: str) -> list[str]:
    """Letters-and-digits runs of ``text``, ligatures expanded, accents dropped, case folded."""
    decomposed = unicodedata.normalize("NFKD", text)
    # Accents are dropped because readers disagree on whether "é" is one character or "e" plus a combining mark.
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return _TOKEN.findall(plain)


def _page_tokens(words: list[tuple], vocabulary: set[str]) -> tuple[list[str], list[tuple[int, ...]]]:
    """The page's tokens in reading order and, for each, the indices of the words it was read from."""
    tokens: list[str] = []
    owners: list[tuple[int, ...]] = []
    join_next = False
    for n, word in enumerate(words):
        parts = _tokens(word[4])
        if join_next and parts and tokens:
            # "optimiza-" ended the previous line: the passage writes "optimization", so match one token.
            tokens[-1] += parts.pop(0)
            owners[-1] += (n,)
        tokens.extend(parts)
        owners.extend((n,) for _ in parts)
        join_next = False
        if parts and word[4].endswith(_LINE_END_HYPHENS) and n + 1 < len(words):
            after = words[n + 1]
            line_ends = (after[5], after[6]) != (word[5], word[6])
            following = _tokens(after[4])
            join_next = line_ends and bool(following) and parts[-1] + following[0] in vocabulary
    return tokens, owners


# --- alignment ----------------------------------------------------------------------------------------------------

Run = tuple[int, int, int]  # passage token index, page token index, length


def _runs(wanted: list[str], tokens: list[str]) -> list[Run]:
    """Runs of tokens shared by passage and page: an in-order alignment, then the passage parts it missed."""
    shortest = min(_MIN_RUN, len(wanted))
    matcher = SequenceMatcher(None, wanted, tokens, autojunk=False)
    runs = [(i, j, k) for i, j, k in matcher.get_matching_blocks() if k >= shortest]
    # Second pass: passage stretches left unmatched may sit elsewhere on the page, out of MuPDF's reading order.
    covered = [False] * len(wanted)
    used: list[object] = list(tokens)
    for i, j, k in runs:
        covered[i:i + k] = [True] * k
        for p in range(j, j + k):
            used[p] = object()  # matches nothing, so a page word is never given to two passage words
    for start, end in _gaps(covered):
        if end - start < _MIN_RUN_UNORDERED:
            continue
        matcher = SequenceMatcher(None, wanted[start:end], used, autojunk=False)
        for i, j, k in matcher.get_matching_blocks():
            if k >= _MIN_RUN_UNORDERED:
                runs.append((start + i, j, k))
                for p in range(j, j + k):
                    used[p] = object()
    return runs


def _gaps(covered: list[bool]) -> list[tuple[int, int]]:
    """``(start, end)`` of each stretch of ``False`` in ``covered``."""
    gaps: list[tuple[int, int]] = []
    start = None
    for i, flag in enumerate([*covered, True]):
        if not flag and start is None:
            start = i
        elif flag and start is not None:
            gaps.append((start, i))
            start = None
    return gaps


def _keep_near_anchor(runs: list[Run], length: int) -> list[Run]:
    """The runs that form the passage's region: the longest, long runs, and runs close to kept ones."""
    if not runs:
        return []
    runs = sorted(runs, key=lambda r: -r[2])
    if runs[0][2] < min(_MIN_ANCHOR, length):
        return []
    kept = [runs[0]]
    pending = runs[1:]
    changed = True
    while changed:  # a run may only become near once a neighbour of it is kept
        changed = False
        for run in list(pending):
            if run[2] >= _TRUSTED_RUN or any(_near(run, other) for other in kept):
                kept.append(run)
                pending.remove(run)
                changed = True
    return sorted(kept, key=lambda r: r[1])


def _near(a: Run, b: Run) -> bool:
    """Whether two runs are as close on the page as they are in the passage, give or take :data:`_SLACK`."""
    (ia, ja, ka), (ib, jb, kb) = sorted((a, b), key=lambda r: r[1])
    page_gap = jb - (ja + ka)
    passage_gap = abs(ib - (ia + ka)) if ib >= ia else abs(ia - (ib + kb))
    return page_gap <= passage_gap + _SLACK


def _fill_in(wanted: list[str], tokens: list[str], runs: list[Run]) -> list[Run]:
    """``runs`` plus two-token runs of the passage's unmatched parts found between the kept runs on the page.

    Inside the region a short run is the passage's own text in another order (an author block, a table read
    by rows on one side and by columns on the other), not a phrase recurring elsewhere on the page.
    """
    covered = [False] * len(wanted)
    used: list[object] = list(tokens)
    for i, j, k in runs:
        covered[i:i + k] = [True] * k
        used[j:j + k] = [object() for _ in range(k)]
    # Strictly inside: just outside the region, a short run is as likely the neighbouring paragraph's words.
    lo = min(j for _, j, _ in runs)
    hi = max(j + k for _, j, k in runs)
    added = list(runs)
    for start, end in _gaps(covered):
        if end - start < 2:
            continue
        matcher = SequenceMatcher(None, wanted[start:end], used[lo:hi], autojunk=False)
        for i, j, k in matcher.get_matching_blocks():
            if k >= 2:
                added.append((start + i, lo + j, k))
                used[lo + j:lo + j + k] = [object() for _ in range(k)]
    return sorted(added, key=lambda r: r[1])


def _cover(wanted: list[str], tokens: list[str], runs: list[Run]) -> tuple[list[int], int]:
    """Page token positions to highlight and how many passage tokens they account for.

    Between two runs that follow each other on the page and in the passage, the page's tokens are highlighted
    when they spell about the same characters as the passage's (a formula spaced differently: "β 1" / "β1"), and
    then count as found; or when they are only a few (a footnote mark, a word one reader dropped).
    """
    positions: list[int] = []
    found: set[int] = set()  # passage token indices; a set, as runs out of page order may bracket other runs
    for n, (i, j, k) in enumerate(runs):
        positions.extend(range(j, j + k))
        found.update(range(i, i + k))
        if n + 1 == len(runs):
            break
        i2, j2, _ = runs[n + 1]
        page_gap, passage_gap = j2 - (j + k), i2 - (i + k)
        if page_gap <= 0 or passage_gap < 0:
            continue
        if passage_gap and page_gap <= 3 * passage_gap + _SLACK and fuzz.ratio(
                "".join(wanted[i + k:i2]), "".join(tokens[j + k:j2])) >= _SAME_CHARS:
            positions.extend(range(j + k, j2))
            found.update(range(i + k, i2))
        elif page_gap <= passage_gap + _SLACK // 3:
            positions.extend(range(j + k, j2))
    return positions, len(found)


# --- boxes and drawing --------------------------------------------------------------------------------------------


def _line_boxes(words: list[tuple], indices: list[int]) -> list[pymupdf.Rect]:
    """One rectangle per run of neighbouring highlighted words on the same line."""
    boxes: list[pymupdf.Rect] = []
    previous = None
    for n in indices:
        x0, y0, x1, y1, _, block, line, _ = words[n]
        if previous is not None and n == previous + 1 and words[previous][5:7] == (block, line):
            boxes[-1] |= pymupdf.Rect(x0, y0, x1, y1)
        else:
            boxes.append(pymupdf.Rect(x0, y0, x1, y1))
        previous = n
    return boxes


def _clip(rect: pymupdf.Rect, pix: pymupdf.Pixmap) -> tuple[float, float, float, float]:
    """``rect`` in the pixmap's pixel grid (its origin may not be 0, 0), inside the image."""
    rect = pymupdf.Rect(rect).normalize()  # a rotation turns a rectangle's corners around
    x0, y0 = max(rect.x0 - pix.x, 0.0), max(rect.y0 - pix.y, 0.0)
    x1, y1 = min(rect.x1 - pix.x, float(pix.width)), min(rect.y1 - pix.y, float(pix.height))
    return (round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1))


def _draw(pix: pymupdf.Pixmap, boxes: list[tuple[float, float, float, float]]) -> bytes:
    """The pixmap as a PNG with ``boxes`` tinted; overlapping boxes are tinted once, not twice as dark."""
    image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    for x0, y0, x1, y1 in boxes:
        draw.rectangle((round(x0), round(y0), round(x1) - 1, round(y1) - 1), fill=255)
    tinted = Image.blend(image, Image.new("RGB", image.size, HIGHLIGHT_RGB), HIGHLIGHT_OPACITY)
    image.paste(tinted, mask=mask)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)  # level 3 is several times faster than 9, a little bigger
    return out.getvalue()
