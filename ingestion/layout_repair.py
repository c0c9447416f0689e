"""Mend the layout reader's Markdown region by region, against MuPDF's own words for the same region.

pymupdf4llm's layout mode returns, with each page's Markdown, the regions it found (``page_boxes``: class,
bounding box and the span of the Markdown they produced). Two of its faults are mended here, region by region:

* **Numeric tables** are read again from word positions (:mod:`ingestion.tables`), so a header cut mid-word
  (``|Three Mo|nths Ended|``) becomes column headings every value keeps.
* **Run-together words.** On lines mixing prose and maths the layout text sometimes loses its spaces
  ("sowecancorrectforthediscrepancybetweenthetwo") where MuPDF's words for the same region have them. A token
  that is no word of the region but the concatenation of several of its words, in order, is split back into them.
  U+FFFD (a glyph the font maps to no character: a hat over a letter, a summation sign) is dropped.
* **Figure text** (axis labels, legends) that the layout reader puts into a picture region is kept apart, as a
  ``figure`` block: a line such as "10-1 MNIST Multilayer Neural Network + dropout AdaGrad 10-2 0 50 100" must
  stay searchable but is never quoted as an answer.

Only pages read upright are mended: a page turned for the layout reader has its regions in turned coordinates.
"""

from __future__ import annotations

import re
import unicodedata

import pymupdf

from ingestion.repair import clean_markdown
from ingestion.tables import numeric_table_markdown

# Regions whose text is prose-like and may have lost spaces.
_TEXTUAL = frozenset({"text", "list-item", "section-header", "title", "caption", "footnote"})
_LONG_TOKEN = re.compile(r"[^\W\d_]{7,}")  # only long runs of letters can be several words run together
_EDGE_PUNCT = re.compile(r"^\W+|\W+$")
_LETTERS = re.compile(r"(?<![\w-])[^\W\d_]{2,}(?![\w-])")
_REPLACEMENT = re.compile(r"[ \t]?\ufffd+")


def mend_layout_page(page: pymupdf.Page, markdown: str, boxes: list[dict]) -> str:
    """``markdown`` of ``page`` with its numeric tables re-read, run-together words split and figure text fenced
    (module docstring), inline markup removed (:func:`ingestion.repair.clean_markdown`)."""
    if not boxes or page.rotation:
        return clean_markdown(_REPLACEMENT.sub("", markdown))
    words = page.get_text("words")
    pieces: list[str] = []
    last = 0
    for box in sorted(boxes, key=lambda b: tuple(b.get("pos") or (0, 0))):
        start, end = box.get("pos") or (0, 0)
        if start < last or end <= start:
            continue
        pieces.append(clean_markdown(markdown[last:start]))
        segment = markdown[start:end]
        kind = box.get("class")
        if kind == "picture":
            # After the markup is gone: clean_markdown would take the fence's backticks for code markers.
            segment = _figure(respace(clean_markdown(segment), _words_in(words, box["bbox"])))
        else:
            table = numeric_table_markdown(page, box["bbox"], words) if kind == "table" else None
            if table:
                segment = table + "\n\n"
            elif kind in _TEXTUAL or kind == "table":
                segment = respace(segment, _words_in(words, box["bbox"]))
            segment = clean_markdown(segment)
        pieces.append(segment)
        last = end
    pieces.append(clean_markdown(markdown[last:]))
    return _REPLACEMENT.sub("", "".join(pieces))


def _figure(segment: str) -> str:
    """The text printed inside a picture (axis labels, legends, diagram words) as a ``figure`` fence, so it stays
    searchable but is never taken for prose (:mod:`ingestion.blocks`)."""
    text = re.sub(r"<!--.*?-->", "", segment, flags=re.DOTALL)
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.IGNORECASE).strip()
    return f"```figure\n{text}\n```\n\n" if text else segment


def _words_in(words: list[tuple], bbox) -> list[str]:
    x0, y0, x1, y1 = bbox
    return [w[4] for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]


def _key(word: str) -> str:
    return _EDGE_PUNCT.sub("", unicodedata.normalize("NFKC", word)).casefold()


def respace(text: str, words: list[str]) -> str:
    """Split each long token of ``text`` that is not one of ``words`` but their concatenation, in order; and join
    two tokens that are no words of the region when together they are one ("appl icable" -> "applicable").

    >>> respace("the two,sowecancorrect for it", ["two,", "so", "we", "can", "correct", "for", "it"])
    'the two,so we can correct for it'
    >>> respace("Not appl icable.", ["Not", "applicable."])
    'Not applicable.'

    A word hyphenated at a line end ("how-" / "ever,") is one word, which the layout reader writes whole:
    "however" is left alone.

    >>> respace("AI technologies, however, also", ["AI", "technologies,", "how-", "ever,", "also"])
    'AI technologies, however, also'
    """
    if not words:
        return text
    keys = _hyphens_joined([_key(w) if not w.endswith("-") else _key(w) + "-" for w in words])
    known = set(keys)

    def split(match: re.Match[str]) -> str:
        token = match.group()
        if token.casefold() in known:
            return token
        parts = _concatenation(token, keys)
        return " ".join(parts) if parts else token

    return _join_split_words(_LONG_TOKEN.sub(split, text), known)


def _hyphens_joined(keys: list[str]) -> list[str]:
    """Keys with each word broken by a line-end hyphen joined to the next ("how-", "ever" -> "however")."""
    out: list[str] = []
    for key in keys:
        if out and out[-1].endswith("-") and key:
            out[-1] = out[-1][:-1] + key
        else:
            out.append(key)
    return [k.rstrip("-") for k in out]


def _join_split_words(text: str, known: set[str]) -> str:
    """``text`` with "appl icable" made "applicable" where only the joined form is a word of the region."""
    tokens = list(_LETTERS.finditer(text))
    cuts = []  # offsets of the spaces to remove
    for left, right in zip(tokens, tokens[1:]):
        if right.start() != left.end() + 1 or text[left.end()] != " " or (cuts and cuts[-1] == left.start() - 1):
            continue
        a, b = left.group(), right.group()
        if a.casefold() not in known and b.casefold() not in known and (a + b).casefold() in known:
            cuts.append(left.end())
    for cut in reversed(cuts):
        text = text[:cut] + text[cut + 1:]
    return text


def _concatenation(token: str, keys: list[str]) -> list[str] | None:
    """``token`` cut into consecutive region words (at least two), or ``None``."""
    folded = token.casefold()
    for i, key in enumerate(keys):
        if not key or not folded.startswith(key):
            continue
        pos, j, cuts = 0, i, []
        while j < len(keys) and pos < len(folded):
            key = keys[j]
            if not key:
                j += 1
                continue
            if not folded.startswith(key, pos):
                # A word may hold punctuation the token lacks ("two," in "two,so"): compare its letters only.
                letters = re.sub(r"\W+", "", key)
                if not letters or not folded.startswith(letters, pos):
                    break
                key = letters
            pos += len(key)
            cuts.append(pos)
            j += 1
        if pos == len(folded) and len(cuts) >= 2:
            bounds = [0, *cuts]
            return [token[a:b] for a, b in zip(bounds, bounds[1:])]
    return None
