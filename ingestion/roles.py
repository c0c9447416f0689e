"""Parts of a document that point elsewhere rather than say something: contents pages and reference lists.

A line of a table of contents ("4 Characteristics of trustworthy AI systems ... 12") matches every question about
its topic and answers none, and a reference list names papers without saying what they found. Their blocks get the
kinds ``toc`` and ``reference``: they stay searchable, but an answer never quotes them.

* A **contents page** is one with a heading such as "Contents", "Table of Contents", "List of Figures", "List of
  Tables" or "Index", or one where at least :data:`_CONTENTS_MIN_LINES` lines, and at least half of its lines, end
  in a page number (a whole number no larger than the document's page count, after a word, not after another
  number: a table row "Total 1,540 1,260" is no contents line). Every line of such a page but its headings
  becomes a ``toc`` block.
* A **reference list** starts at a heading "References", "Bibliography", "Works Cited" (numbered or not) and runs,
  across pages, to the next heading; its blocks become ``reference`` blocks.
"""

from __future__ import annotations

import re

from core.types import Block, Page

_CONTENTS_HEADING = re.compile(
    r"^(?:table of contents|contents|list of (?:figures|tables|exhibits|illustrations)|index|"
    r"figures|tables)$", re.I)
_REFERENCES_HEADING = re.compile(
    r"^(?:(?:\d+(?:\.\d+)*|[A-Z])\.?\s+)?(?:references|bibliography|works cited|literature cited|reference list)$",
    re.I)
# A line ending in a page number: a word (or closing punctuation, dot leaders) then the number.
_PAGE_REFERENCE = re.compile(r"(?:[^\W\d_][^\s\d]*[.:)\]]?|\.{2,}|…)\s*(?:\.{2,}\s*)?(\d{1,4})$")
_CONTENTS_MIN_LINES = 5


def mark_roles(pages: list[Page]) -> None:
    """Re-kind the blocks of contents pages (``toc``) and reference lists (``reference``), in place."""
    total = len(pages)
    for page in pages:
        if _is_contents_page(page, total):
            page.blocks = _contents_blocks(page)
    in_references = False
    for page in pages:
        for block in page.blocks:
            if block.kind == "heading":
                in_references = bool(_REFERENCES_HEADING.match(page.text[block.start:block.end].strip()))
            elif in_references and block.kind != "toc":
                block.kind = "reference"


def is_contents_line(line: str, pages: int) -> bool:
    """Whether a line ends in a page number of a document of ``pages`` pages (see the module docstring).

    >>> is_contents_line("4 Characteristics of trustworthy AI systems 12", 48)
    True
    >>> is_contents_line("Dynamics 1,540 1,260", 48), is_contents_line("Other 8 56", 48)
    (False, False)
    """
    match = _PAGE_REFERENCE.search(line.strip())
    return bool(match) and 1 <= int(match[1]) <= max(pages, 1) and len(line.split()) >= 2


def _lines(page: Page) -> list[tuple[int, int]]:
    """Spans of the page's non-blank lines outside headings."""
    headings = [(b.start, b.end) for b in page.blocks if b.kind == "heading"]
    spans, offset = [], 0
    for line in page.text.split("\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        if line.strip() and not any(a <= start < b for a, b in headings):
            spans.append((start, end))
    return spans


def _is_contents_page(page: Page, total: int) -> bool:
    if any(b.kind == "heading" and _CONTENTS_HEADING.match(page.text[b.start:b.end].strip()) for b in page.blocks):
        return True
    lines = _lines(page)
    hits = sum(is_contents_line(page.text[a:b], total) for a, b in lines)
    return hits >= _CONTENTS_MIN_LINES and hits >= 0.5 * len(lines)


def _contents_blocks(page: Page) -> list[Block]:
    headings = [b for b in page.blocks if b.kind == "heading"]
    lines = [Block("toc", a, b) for a, b in _lines(page)]
    return sorted(headings + lines, key=lambda b: b.start)
