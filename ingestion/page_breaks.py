"""Sentences across a page break: the last chunk of a page ending inside a sentence also holds the rest of it.

Passages are cut page by page, so a sentence that starts on page 3 and ends on page 4 would otherwise be found in
no single chunk. When a page's text ends inside a sentence (its last character is not ``.``, ``!`` or ``?``, and it
does not end with a heading or a table row) and the next page's text starts with a continuation (a lower-case
letter, a digit, or punctuation such as ``,`` ``;`` ``)``), the last chunk of the page is extended with the next
page's text up to and including the end of that sentence:

* ``text == page.text[start:end] + joiner + next_page.text.lstrip()[:continuation_chars]``, where ``joiner`` is a
  space, or nothing when a word is hyphenated across the break. ``start``/``end`` still describe the part on
  ``page``, so offsets stay checkable; :attr:`Chunk.on_page_text` and :attr:`Chunk.continuation` return the parts.
* A word hyphenated across the break ("experi-" / "mental") is joined without its hyphen, unless the document
  writes the hyphenated word elsewhere ("well-known"); the dropped hyphen then lies just past ``end``.
* ``page_end`` is the next page's number, so a citation can name both pages.
* The continuation is not taken when the sentence runs on for more than ``max(chunk_size // 2, 300)`` characters,
  or stops at a paragraph break without ``.``, ``!``, ``?`` or ``:``: such a "sentence" is nearly always a
  figure's labels, a table or an equation printed at the top of the next page, not prose.

The next page's own chunks still hold the continuation too; those few characters are indexed twice, which costs
little and keeps every page's chunks covering its whole text.

Why this shape: the chunk keeps one page to cite first (where the sentence starts) and exact offsets into it, so
highlighting and offset checks work as for any other chunk, while ``page_end`` lets a citation name both pages.
A separate "bridge" chunk per page break would index more text twice and have no single page of its own; joining
the pages before chunking would make offsets refer to no page at all.

:func:`ends_mid_sentence` and :func:`starts_continuation` tell whether a page's text ends inside a sentence and
whether the next one carries it on; :class:`PageBreakJoiner` extends a page's last chunk with the rest of the
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.types import Chunk, Page
from ingestion.repair import hyphenated_vocabulary
from ingestion.sentences import split_sentences

_CLOSERS = "\"'”’)]}*_"  # may follow a full stop: 'end." ', 'end.)'
_CONTINUES_PUNCT = ",;:)]}%–—…"  # a page starting with one of these carries on the previous clause
# The longest continuation taken is max(chunk_size // 2, this): half a chunk, but never so little that an ordinary
# long sentence of a report (250-300 characters after the break) is refused at small chunk sizes.
_MIN_CONTINUATION = 300
_NOT_PROSE = frozenset({"heading", "table_header", "table_row", "toc", "code"})


def ends_mid_sentence(text: str) -> bool:
    """Whether a page's text stops inside a sentence: no final ``.``/``!``/``?``, and not a heading or table row."""
    text = text.rstrip()
    if not text:
        return False
    last_line = text.rsplit("\n", 1)[-1].strip()
    if last_line.startswith("#") or last_line.endswith("|"):
        return False
    return text.rstrip(_CLOSERS)[-1:] not in (".", "!", "?", "")


def starts_continuation(text: str) -> bool:
    """Whether a page's text opens by carrying on a clause: a lower-case letter, a digit or ``,;:)]`` etc."""
    first = text.lstrip()[:1]
    return bool(first) and (first.islower() or first.isdigit() or first in _CONTINUES_PUNCT)


class PageBreakJoiner:
    """Appends the rest of a sentence cut by a page break to the last chunk of the page (see module docstring)."""

    def __init__(self, pages: Sequence[Page], chunk_size: int):
        self._pages = pages
        self._limit = max(chunk_size // 2, _MIN_CONTINUATION)
        self._vocabulary: set[str] | None = None  # built on the first hyphen split; most documents never need it

    def extend(self, chunk: Chunk, page: Page, nxt: Page) -> None:
        """Extend ``chunk``, the last chunk of ``page``, with the start of ``nxt`` up to the end of the sentence the
        page break cut, when it was cut (see the module docstring); else leave it as it is."""
        text = page.text
        if (nxt.number != page.number + 1 or chunk.end < len(text.rstrip())
                or not ends_mid_sentence(text) or not starts_continuation(nxt.text)):
            return
        # A page ending in a heading, a table or a contents line does not end mid-sentence; nor does the next page
        # continue one when it opens with such a block.
        if any(b.kind in _NOT_PROSE and b.end >= len(text.rstrip()) for b in page.blocks[-1:]) or \
                any(b.kind in _NOT_PROSE and b.start <= len(nxt.text) - len(nxt.text.lstrip()) for b in nxt.blocks[:1]):
            return
        continuation = self._first_sentence(nxt.text.lstrip())
        if not continuation:
            return
        end, joiner = chunk.end, " "
        left = re.search(r"(\w[\w-]*)-$", text[chunk.start:end])
        if left:  # a word hyphenated across the break
            joiner = ""
            right = re.match(r"[^\W_][\w-]*", continuation)
            if right and right.group()[0].islower() and not self._keeps_hyphen(f"{left[1]}-{right.group()}"):
                end -= 1
        chunk.end = end
        chunk.text = text[chunk.start:end] + joiner + continuation
        chunk.page_end, chunk.page_end_label = nxt.number, nxt.label
        chunk.continuation_chars = len(continuation)

    def _first_sentence(self, text: str) -> str:
        """The text up to the first sentence end, or "" when that is further than the limit."""
        window = text[:self._limit + 1]
        sentences = split_sentences(window)
        if not sentences or sentences[0].start != 0:
            return ""
        end = sentences[0].end
        # A sentence reaching the window's end may run on beyond it; only one that stops inside is whole.
        complete = end < len(window.rstrip()) or len(window) == len(text)
        # Prose ends with punctuation; a "sentence" that stops at a paragraph break without it is a figure's
        # labels, a table or an equation, not the rest of the sentence cut by the page break.
        punctuated = window[:end].rstrip(_CLOSERS)[-1:] in (".", "!", "?", ":")
        return window[:end] if complete and punctuated and end <= self._limit else ""

    def _keeps_hyphen(self, word: str) -> bool:
        if self._vocabulary is None:
            self._vocabulary = hyphenated_vocabulary(p.text for p in self._pages)
        return word.lower() in self._vocabulary
