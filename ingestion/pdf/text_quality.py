"""How much of a text is readable, and how many of another text's words it holds.

These measures decide whether a page's layout text lost words (and is read again, :mod:`ingestion.pdf.reread`),
which re-read text is kept, and which sideways line groups the kept text lacks (:mod:`ingestion.pdf.geometry`).
"""

from __future__ import annotations

import re
import unicodedata

from ingestion.repair import CID_PLACEHOLDER

_WORD = re.compile(r"\w\w+")
# Text where at least this share of the visible characters is U+FFFD or "(cid:N)" carries no readable words:
# the font has no Unicode mapping.
_JUNK_SHARE = 0.3
# A text holding less than this share of the words it should hold lost most of them: a re-read page, of the
# page's raw words; a page's kept text, of a sideways line group's words.
MOSTLY_LOST = 0.5


def word_count(text: str) -> int:
    """Words of at least two letters or digits in ``text``, as written (no normalisation)."""
    return len(_WORD.findall(text))


def is_junk(text: str) -> bool:
    """Whether ``text`` carries no readable words: too many U+FFFD or ``(cid:N)`` placeholders (see
    :func:`junk_share`)."""
    return junk_share(text) >= _JUNK_SHARE


def junk_share(text: str) -> float:
    """Share of the visible characters that are U+FFFD or ``(cid:N)`` placeholders; 0.0 for blank text."""
    visible = sum(not c.isspace() for c in text)
    if not visible:
        return 0.0
    junk = text.count("\ufffd") + sum(len(m) for m in CID_PLACEHOLDER.findall(text))
    return junk / visible


def coverage(text: str, raw: str) -> float:
    """Share of the words of ``raw`` (e.g. a page's raw text, with repeats) that also occur in ``text``; 1.0 when
    ``raw`` has none. Words are compared lower-cased and NFKC-normalised."""
    raw_words = _words(raw)
    if not raw_words:
        return 1.0
    found = set(_words(text))
    return sum(w in found for w in raw_words) / len(raw_words)


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())
