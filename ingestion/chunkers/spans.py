"""What the three chunking strategies share: spans of one page's text and the rules for their ends.

A span is ``(start, end)``, offsets into one page's text. :func:`window_end` moves a cut back to a sentence end or a
word end, :func:`skip_space` moves a start past whitespace, :func:`is_stub` tells a piece too small to stand alone
(a heading on its own, fewer than three words), and :func:`drop_wordless` removes pieces with fewer than two words
(page numbers, stray symbols).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from core.types import Block

Span = tuple[int, int]  # start, end offsets into one page's text

_WORD = re.compile(r"\w+")
_FIXED_SENTENCE_ZONE = 0.3  # a fixed window end moves back to a sentence end found in this last share of it


def word_count(text: str) -> int:
    """Runs of letters, digits or underscores in ``text``."""
    return len(_WORD.findall(text))


def window_end(text: str, start: int, end: int, ends: list[int], size: int) -> int:
    """Move a window end back to a sentence end in the last part of the window, else to a word end.

    ``ends`` are the sorted sentence ends that may be cut at (none: only word ends); the window is
    ``text[start:end]``, of at most ``size`` characters.
    """
    i = bisect.bisect_right(ends, end) - 1
    if i >= 0 and ends[i] >= start + (1 - _FIXED_SENTENCE_ZONE) * size:
        return ends[i]
    if not text[end].isspace() and not text[end - 1].isspace():  # mid-word
        space = max(text.rfind(" ", start + 1, end), text.rfind("\n", start + 1, end))
        if space > start:
            end = space
    return start + len(text[start:end].rstrip())


def skip_space(text: str, pos: int) -> int:
    """The first offset at or after ``pos`` that is not whitespace (``len(text)`` when none is)."""
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def is_stub(text: str, start: int, end: int, blocks: Sequence[Block] = ()) -> bool:
    """``text[start:end]`` is a heading on its own (only heading lines), or too few words to answer anything."""
    piece = text[start:end]
    if word_count(piece) < 3:
        return True
    headings = [(b.start, b.end) for b in blocks if b.kind == "heading"]
    if not headings:
        return False
    offset = start
    for line in piece.split("\n"):
        if line.strip() and not any(a <= offset + len(line) - len(line.lstrip()) < b for a, b in headings):
            return False
        offset += len(line) + 1
    return True


def drop_wordless(spans: list[Span], text: str) -> list[Span]:
    """``spans`` without those holding fewer than two words of ``text``."""
    return [(a, b) for a, b in spans if word_count(text[a:b]) >= 2]
