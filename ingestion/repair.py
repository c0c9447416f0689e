"""Text repairs applied to every page after reading, so quoted passages read like the document."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# --- clean_markdown ---------------------------------------------------------------------------------------------

# pymupdf4llm wraps text it read from inside figures in these comments; the text stays, the comments go.
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
# Only the inline tags pymupdf4llm emits. Other "<...>" is document text (e.g. "<EOS>" in a figure, "a < b").
_INLINE_TAG = re.compile(r"</?(?:sup|sub|u|mark)>", re.IGNORECASE)
# A run of emphasis markers: bold "**", strikethrough "~~", code "`" and italic "_". A lone "_" only, so
# identifiers such as "__init__" are not taken apart.
_MARKER_RUN = r"(?:\*\*|~~|`|(?<!_)_(?!_))+"
# A marker run at a word boundary: opening (not preceded by a word character) or closing (not followed by one).
# Markers inside a word ("snake_case", "2**3") are text. A closing marker also takes the space pymupdf4llm puts
# between it and the punctuation that follows ("_Adam_ ," -> "Adam,").
_MARKER = re.compile(rf"(?<!\w){_MARKER_RUN}|{_MARKER_RUN}(?:[ \t]+(?=[,.;:)\]]))?(?!\w)")
# Bold or strikethrough between two word characters: pymupdf4llm put the space that separated the words inside the
# span it marked ("the**MAP**function" for "the MAP function"), so the marker stands for a space.
_GLUED_MARKER = re.compile(r"(?<=\w)(?:\*\*|~~)+(?=\w)")


def clean_markdown(text: str) -> str:
    """Strip the inline markup pymupdf4llm adds, keeping the document's words and its block structure.

    Parameters
    ----------
    text : Markdown of one page as written by ``pymupdf4llm.to_markdown``.

    Returns
    -------
    str
        The same text without HTML comments, ``<br>`` (now a space), ``<sup>``/``<sub>``/``<u>`` tags (content
        kept) and emphasis markers (``**``, ``~~``, backticks, ``_``) at word boundaries; ``**`` or ``~~``
        between two words becomes a space. Heading lines (``# ...``), list markers and ``|`` table rows are kept.

    Examples
    --------
    >>> clean_markdown("We introduce _Adam_ , an algorithm")
    'We introduce Adam, an algorithm'
    >>> clean_markdown("## **1 Introduction**")
    '## 1 Introduction'
    """
    text = _HTML_COMMENT.sub("", text)
    text = _BR.sub(" ", text)
    text = _GLUED_MARKER.sub(" ", text)
    text = _MARKER.sub("", text)
    # Tags go last: removing them first can join two markers into "__", which reads as part of an identifier.
    return _INLINE_TAG.sub("", text)


# --- repair_text --------------------------------------------------------------------------------------------------

CID_PLACEHOLDER = re.compile(r"\(cid:\d+\)")  # a glyph the font maps to no Unicode character
# A word broken at a line end: "optimiza-\ntion". pymupdf4llm sometimes also leaves a blank line between the two
# halves, so one blank line is allowed. Both halves may be hyphenated compounds themselves ("state-of-\nthe-art").
# The match starts only where a word starts, so a long run of letters is scanned once, not once per letter.
_LINE_BREAK_HYPHEN = re.compile(
    r"(?<![\w-])(?P<left>\w(?:[\w-]*\w)?)-[ \t]*\n(?:[ \t]*\n)?[ \t]*(?P<right>[^\W_](?:[\w-]*\w)?)"
)
_SOFT_HYPHEN_BREAK = re.compile(r"\u00ad[ \t]*\n[ \t]*")
_SPACES = re.compile(r"[ \t]+")
_TRAILING_SPACES = re.compile(r"[ \t]+$", re.MULTILINE)
_BLANK_LINES = re.compile(r"\n{3,}")
# A decimal point set apart from its digits ("0 . 001", "0 .999"): the layout reader spaces maths out this way.
# A space before the point is required, so a sentence ending in a number ("in 2019. 2020 was") is left alone.
_SPACED_DECIMAL_POINT = re.compile(r"(?<=\d)[ \t]+\.[ \t]*(?=\d)")
# A word with an internal hyphen that is complete on its line (not followed by another hyphen or word character).
_HYPHENATED_WORD = re.compile(r"(?<![\w-])\w+(?:-\w+)+(?![\w-])")


def repair_text(text: str, keep_hyphenated: set[str] | frozenset[str] = frozenset()) -> str:
    """Normalise extracted text and undo line-end hyphenation.

    Parameters
    ----------
    text : text of one page.
    keep_hyphenated : lower-case hyphenated words the document writes elsewhere (see :func:`hyphenated_vocabulary`).
        A word split across lines whose hyphenated form is in this set keeps its hyphen.

    Returns
    -------
    str
        Text with NFKC normalisation (ligatures such as "ﬁ" become "fi"), ``(cid:N)`` placeholders removed, words
        split across lines re-joined, decimal points set apart from their digits closed up ("0 . 001" ->
        "0.001"), runs of spaces and tabs collapsed, trailing spaces trimmed, at most one blank line in a row and
        no leading or trailing blank lines.

    Examples
    --------
    >>> repair_text("optimiza-\\ntion of the state-of-\\nthe-art", {"state-of-the-art"})
    'optimization of the state-of-the-art'
    """
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = CID_PLACEHOLDER.sub("", text)
    # A soft hyphen only ever marks where a word may break, so drop it and the line break after it.
    text = _SOFT_HYPHEN_BREAK.sub("", text).replace("\u00ad", "")

    def join(match: re.Match[str]) -> str:
        left, right = match["left"], match["right"]
        hyphenated = f"{left}-{right}"
        # A second half starting upper-case or with a digit ("Anglo-\nSaxon", "COVID-\n19") is a compound.
        if hyphenated.lower() in keep_hyphenated or not right[0].islower():
            return hyphenated
        return left + right

    text = _LINE_BREAK_HYPHEN.sub(join, text)
    text = _SPACED_DECIMAL_POINT.sub(".", text)
    text = _SPACES.sub(" ", text)
    text = _TRAILING_SPACES.sub("", text)
    text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


def hyphenated_vocabulary(texts: Iterable[str]) -> set[str]:
    """Collect the words a document itself writes with an internal hyphen.

    Parameters
    ----------
    texts : the document's page texts.

    Returns
    -------
    set[str]
        Lower-case words such as ``"rights-preserving"`` found whole within a line, so a line-end split of the same
        word ("rights-" / "preserving") can be re-joined with its hyphen by :func:`repair_text`.
    """
    words: set[str] = set()
    for text in texts:
        # Halves of words split at a line end are not whole words; leave them out.
        text = _LINE_BREAK_HYPHEN.sub(" ", unicodedata.normalize("NFKC", text))
        words.update(w.lower() for w in _HYPHENATED_WORD.findall(text))
    return words
