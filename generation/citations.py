"""``[Source N]`` markers in an LLM's answer: read them, check them against the passages sent, map them to pages.

Accepted forms (case-insensitive, inside square brackets, spaces optional)::

    [Source 3]            [source 3]            [Source: 3]           [Source #3]
    [Source 1, 2]         [Sources 1 and 3]     [Sources 1, 2, and 4] [Sources 1 & 3]   [Sources 1; 4]
    [Source 1, Source 2]  [Sources 2-4]  (a range; "–" works too)

Anything else is not a citation: ``(Source 2)``, ``Source 2`` without brackets, ``[2]``, ``[Page 4]``,
``[Source two]``. The prompt asks for the bracketed form, so the UI can rely on it; a reply without it is retried.

A reply must cite, and cite well (:func:`check_citations`):

* the reply equal to ``NO_ANSWER`` (whitespace, case and trailing punctuation aside) is a valid abstention;
* otherwise it needs at least one citation, and every cited number must be a passage that was sent;
* every paragraph (and every list item) stating something needs a citation of its own: a claim without one has no
  page the user could check. Exempt are lead-ins ending with ``:`` (they introduce cited items), Markdown headings,
  and lines without a letter or digit.
"""

from __future__ import annotations

import re

from core.types import Hit
from core.answers import LLMCitation
from generation.prompts import NO_ANSWER

_NUMBER = r"#?\s*\d+(?:\s*[-\u2013]\s*\d+)?"  # 3, #3, 2-4
_SEPARATOR = r"(?:\s*(?:,\s*and|,|;|&|\band\b)\s*)"
_BRACKET = re.compile(
    rf"\[\s*sources?\s*:?\s*{_NUMBER}(?:{_SEPARATOR}(?:sources?\s*:?\s*)?{_NUMBER})*\s*\]", re.IGNORECASE)
MARKER = _BRACKET  # one citation marker, e.g. ``[Sources 1 and 3]``
_RANGE = re.compile(r"(\d+)(?:\s*[-\u2013]\s*(\d+))?")
MAX_RANGE = 20  # a wider "range" is a typo or an abuse: only its two ends count (and get range-checked)

_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_ALNUM = re.compile(r"[^\W_]")


def parse_citations(text: str) -> list[int]:
    """Every source number cited in ``text``, in order of first citation, without repeats."""
    numbers: list[int] = []
    for match in _BRACKET.finditer(text or ""):
        inner = re.sub(r"sources?", " ", match.group(0), flags=re.IGNORECASE)
        for first, last in _RANGE.findall(inner):
            a = int(first)
            b = int(last) if last else a
            span = range(a, b + 1) if a <= b and b - a <= MAX_RANGE else (a, b)
            numbers.extend(n for n in span if n not in numbers)
    return numbers


def is_no_answer(text: str) -> bool:
    """Whether ``text`` is the abstention sentence, give or take whitespace, case, quotes and final punctuation."""
    def norm(s: str) -> str:
        return " ".join(s.split()).strip(" \"'\u201c\u201d.!").lower()
    return norm(text or "") == norm(NO_ANSWER)


def check_citations(text: str, n_sources: int) -> str | None:
    """What is wrong with the citations of ``text`` given ``n_sources`` passages, in plain words; None when valid.

    The description is shown to the user and sent back to the model for its one retry, so it names the problem
    exactly: the invented numbers, or the start of the paragraph left uncited.
    """
    if is_no_answer(text):
        return None
    cited = parse_citations(text)
    if not cited:
        return ("The answer cites no passage: it has no [Source N] marker, so none of it can be checked "
                "against the document.")
    invented = [n for n in cited if not 1 <= n <= n_sources]
    if invented:
        names = ", ".join(f"[Source {n}]" for n in invented[:5]) + (" and others" if len(invented) > 5 else "")
        given = {0: "no source was", 1: "only [Source 1] was"}.get(n_sources,
                                                                   f"only [Source 1] to [Source {n_sources}] were")
        return (f"The answer cites {names}, but {given} given; "
                f"{'that source does' if len(invented) == 1 else 'those sources do'} not exist.")
    for unit in units(text):
        if not _BRACKET.search(unit):
            return f"The part of the answer beginning \u201c{_start(unit)}\u201d cites no source."
    return None


def map_citations(numbers: list[int], hits: list[Hit]) -> list[LLMCitation]:
    """The passage behind each cited number (1-based into ``hits``), in citation order; unknown numbers and
    repeats are skipped."""
    citations: list[LLMCitation] = []
    for n in dict.fromkeys(numbers):
        if 1 <= n <= len(hits):
            chunk = hits[n - 1].chunk
            citations.append(LLMCitation(chunk.doc_id, chunk.page, chunk.chunk_id, chunk.filename, source=n,
                                         page_end=chunk.page_end, page_label=chunk.page_label,
                                         page_end_label=chunk.page_end_label))
    return citations


def units(text: str) -> list[str]:
    """The parts of ``text`` that each need a citation: paragraphs, with every list item a part of its own."""
    units: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        current: list[str] = []
        for line in block.splitlines():
            if _LIST_ITEM.match(line) and current:
                units.append(" ".join(current))
                current = []
            current.append(line.strip())
        if current:
            units.append(" ".join(current))
    # Exempt: lead-ins ("The fees are:"), headings, separators; none states a claim of its own.
    return [u for u in units if _ALNUM.search(u) and not u.startswith("#") and not u.rstrip().endswith(":")]


def _start(unit: str, words: int = 8) -> str:
    head = " ".join(_LIST_ITEM.sub("", unit).split()[:words])
    return head + ("\u2026" if len(unit.split()) > words else "")
