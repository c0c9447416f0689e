"""Turn page texts into :class:`~core.types.Page` objects: repaired clean text with its blocks, and the
heading path in effect where each page starts. Headings are the Markdown ``#`` lines in order, nested by their
section numbers ("2", "2.1", "2.1.3") where a document numbers them, else by their marker levels. The Markdown
itself ends here: pages leave as clean text (:func:`ingestion.blocks.from_markdown`), with contents pages and
reference lists marked (:mod:`ingestion.roles`).

:func:`finish_pages` takes every page's text (Markdown) and reader and gives the pages; :func:`first_heading` gives
the text of a document's first heading, a title when it has no other.
"""

from __future__ import annotations

import re
from collections import Counter

from ingestion.blocks import from_markdown
from core.types import Page
from ingestion.repair import hyphenated_vocabulary, repair_text
from ingestion.roles import mark_roles

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
# A section number opening a heading: "2", "2.1", "2.1.3", "3." or an appendix "A.1". At most two digits a part,
# so a year ("2023 in review") is not taken for one.
_SECTION_NUMBER = re.compile(r"(?:\d{1,2}(?:\.\d{1,2})*|[A-Z](?:\.\d{1,2})+)\.?(?=\s)")


def finish_pages(texts: list[str], readers: list[str], outline: list[str] | None = None) -> list[Page]:
    """Repair every page's text and attach the heading path in effect where each page starts.

    Parameters
    ----------
    texts, readers : each page's text and the reader that produced it, in page order.
    outline : per page, the Markdown to take headings from; the page texts themselves when ``None``.

    Returns
    -------
    list[Page]
        One page per text, numbered from 1.
    """
    vocabulary = hyphenated_vocabulary(texts)
    repaired = [repair_text(t, vocabulary) for t in texts]
    sources = repaired if outline is None else outline
    found = [_headings(source) for source in sources]
    base = _numbered_base(found)
    pages: list[Page] = []
    path: list[tuple[int, str, bool]] = []  # (level, heading, numbered), outermost first
    for number, (markdown, reader, headings) in enumerate(zip(repaired, readers, found), start=1):
        text, blocks = from_markdown(markdown)
        pages.append(Page(number=number, text=text, headings=[h for _, h, _ in path], reader=reader, blocks=blocks))
        for level, heading in headings:
            depth = _section_depth(heading) if base else 0
            if depth:
                level = base + depth - 1
            elif base and level > base:
                # An unnumbered heading marked below the top sections (a figure title, a run-in paragraph
                # title) sits inside the open numbered section; it must not close "3.2" and leave "3.2.1" under
                # itself.
                inner = [lvl for lvl, _, numbered in path if numbered]
                level = max(level, inner[-1] + 1) if inner else level
            # A heading closes every open heading at its level or deeper.
            path = [entry for entry in path if entry[0] < level]
            path.append((level, heading, bool(depth)))
    mark_roles(pages)
    return pages


def _section_depth(heading: str) -> int:
    """How deep a heading's section number nests it ("2" -> 1, "2.1.3" -> 3); 0 when it has none."""
    match = _SECTION_NUMBER.match(heading)
    return match[0].rstrip(".").count(".") + 1 if match else 0


def _numbered_base(pages: list[list[tuple[int, str]]]) -> int:
    """The Markdown level of the document's top numbered sections ("1", "2"), or 0 when none is numbered.

    Font sizes do not always tell "2.1" from "2" (many papers set both alike), so a numbered heading gets the
    level its number says: ``n`` levels below this one for ``n`` more parts. The top sections keep the level
    they are most often marked with.
    """
    numbered = [(level, depth) for page in pages for level, h in page if (depth := _section_depth(h))]
    if not numbered:
        return 0
    tops = Counter(level for level, depth in numbered if depth == 1)
    if tops:
        return min(tops, key=lambda level: (-tops[level], level))
    return max(1, min(level - depth + 1 for level, depth in numbered))


def _headings(text: str) -> list[tuple[int, str]]:
    """Markdown headings ``(level, text)`` in order, ignoring ``#`` lines inside fenced code blocks."""
    found = []
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else _HEADING.match(line)
        if match:
            heading = repair_text(match[2]).strip(" *_`~")
            if heading:
                found.append((len(match[1]), heading))
    return found


def first_heading(pages: list[Page]) -> str:
    """The text of the first heading block of ``pages``, ``""`` when there is none."""
    for page in pages:
        for block in page.blocks:
            if block.kind == "heading":
                return page.text[block.start:block.end]
    return ""
