"""Reading fidelity: how much of a reference text's words a reader's text keeps, in order (pure functions).

The reference is pdfplumber's page text, the way the evaluation questions' evidence strings were taken
(:func:`reference_text`). Both texts are split into words the same way (:func:`words`); the measures are the words
matched in order (a longest common subsequence, :func:`matched_in_order`), U+FFFD, and run-together tokens: our
words that are no reference word but several of them run together (:func:`run_together`). Used by
:mod:`evaluation.reading`, which reads the documents and reports.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Sequence

from rapidfuzz.distance import LCSseq

LOW_SHARE = 0.90  # pages under this share of words matched in order are counted
RUN_TOGETHER_MIN_LETTERS = 7
EXAMPLES = 5  # run-together tokens kept per document
SPANS = 3  # lost and added word runs kept per page under LOW_SHARE
SPAN_WORDS = 30  # words shown of each run

_CID = re.compile(r"\(cid:\d+\)")
_LINE_HYPHEN = re.compile(r"-\s*\n\s*")
_SPACE = re.compile(r"\s+")

def reference_text(raw: str) -> str:
    """Normalise one page of pdfplumber text the way the evaluation's evidence strings were taken.

    Unicode NFKC (ligatures such as "ﬁ" become "fi"), ``(cid:N)`` placeholders removed, a hyphen at a line break
    re-joined (``-\\s*\\n\\s*`` -> nothing: "optimiza-/tion" becomes "optimization", and "state-of-/the-art"
    becomes "state-ofthe-art" as in the evidence), then runs of whitespace collapsed to one space.

    >>> reference_text("The \\ufb01rst optimiza-\\n  tion(cid:12) of\\n\\nthe  model")
    'The first optimization of the model'
    """
    text = unicodedata.normalize("NFKC", raw)
    text = _CID.sub("", text)
    text = _LINE_HYPHEN.sub("", text)
    return _SPACE.sub(" ", text).strip()


@functools.lru_cache(maxsize=4096)
def _is_punctuation(ch: str) -> bool:
    return ch in string.punctuation or unicodedata.category(ch).startswith("P")


def _strip_punctuation(word: str) -> str:
    start, end = 0, len(word)
    while start < end and _is_punctuation(word[start]):
        start += 1
    while end > start and _is_punctuation(word[end - 1]):
        end -= 1
    return word[start:end]


def words(text: str) -> list[str]:
    """The words of a text, as both sides are compared: NFKC, casefolded, split on whitespace and table pipes,
    leading and trailing punctuation stripped (ASCII punctuation and Unicode's P* categories), empty words dropped.

    Markdown marks are punctuation and vanish; a pipe between two cells (``|4,202|4,118|``, as a reader writing
    Markdown tables puts it) separates words as the evidence matching does; inner punctuation stays.

    >>> words("The Adam (Kingma & Ba, 2014) — \\ufb01rst-order | **gradient**  methods.")
    ['the', 'adam', 'kingma', 'ba', '2014', 'first-order', 'gradient', 'methods']
    """
    out = []
    for raw in re.split(r"[\s|]+", unicodedata.normalize("NFKC", text).casefold()):
        word = _strip_punctuation(raw)
        if word:
            out.append(word)
    return out


def matched_in_order(reference: Sequence[str], ours: Sequence[str]) -> int:
    """How many of the reference's words are found in order in ours: the length of the longest common
    subsequence of the two word sequences (rapidfuzz's ``LCSseq``). Words out of order count once.

    >>> matched_in_order(["a", "b", "c", "d"], ["a", "b", "c", "d"])
    4
    >>> matched_in_order(["a", "b", "c", "d"], ["a", "c", "d"])  # one word lost
    3
    >>> matched_in_order(["a", "b", "c", "d"], ["c", "d", "a", "b"])  # two halves swapped: one half in order
    2
    """
    return int(LCSseq.similarity(list(reference), list(ours)))


def share_in_order(reference: Sequence[str], ours: Sequence[str]) -> float | None:
    """:func:`matched_in_order` over the number of reference words; None for a reference without words.

    >>> share_in_order(["a", "b", "c", "d"], ["a", "b", "x", "d"])
    0.75
    >>> share_in_order([], ["a"]) is None
    True
    """
    return matched_in_order(reference, ours) / len(reference) if reference else None


def run_together(ours: Sequence[str], reference: Sequence[str],
                 min_letters: int = RUN_TOGETHER_MIN_LETTERS) -> list[str]:
    """Our words that are several reference words run together, in our order, one entry per occurrence.

    A word counts when it is alphabetic with at least ``min_letters`` letters, is not itself a reference word,
    and equals the concatenation of 2 or more consecutive reference words (so a real long word the reference
    also has is never counted).

    >>> ref = words("so we can correct for the discrepancy between the two")
    >>> run_together(words("sowecancorrectforthediscrepancy between the two"), ref)
    ['sowecancorrectforthediscrepancy']
    >>> run_together(words("so we can correct for the discrepancy"), ref)  # "discrepancy" is a reference word
    []
    >>> run_together(["wecorrect"], ref)  # "we" and "correct" are not consecutive in the reference
    []
    """
    vocabulary = set(reference)
    starts: dict[str, list[int]] = {}
    for i, word in enumerate(reference):
        starts.setdefault(word[:1], []).append(i)
    verdict: dict[str, bool] = {}

    def joined(token: str) -> bool:
        for i in starts.get(token[:1], ()):
            end, j = 0, i
            while j < len(reference) and token.startswith(reference[j], end):
                end += len(reference[j])
                j += 1
                if end == len(token):
                    return j - i >= 2
        return False

    found = []
    for token in ours:
        if len(token) < min_letters or not token.isalpha() or token in vocabulary:
            continue
        if token not in verdict:
            verdict[token] = joined(token)
        if verdict[token]:
            found.append(token)
    return found


def replacement_characters(text: str) -> int:
    """How many U+FFFD (the character a decoder puts where it could not map a glyph) the text holds.

    >>> replacement_characters("a\\ufffdb \\ufffd\\ufffd")
    3
    """
    return text.count("\ufffd")


def differing_runs(reference: Sequence[str], ours: Sequence[str], keep: int = SPANS,
                   max_words: int = SPAN_WORDS) -> dict[str, list[str]]:
    """The longest runs of reference words missing from ours (``lost``) and of our words the reference lacks at
    that place (``added``), from the same alignment as :func:`matched_in_order`; ``keep`` runs each, longest
    first, each cut to ``max_words`` words (a cut run ends in "…" and says its length).

    >>> differing_runs("a b c d e".split(), "a d e x".split())
    {'lost': ['b c'], 'added': ['x']}
    """
    lost, added = [], []
    for op in LCSseq.opcodes(list(reference), list(ours)):
        if op.tag in ("delete", "replace"):
            lost.append(reference[op.src_start:op.src_end])
        if op.tag in ("insert", "replace"):
            added.append(ours[op.dest_start:op.dest_end])

    def shown(runs: list) -> list[str]:
        runs = sorted(runs, key=len, reverse=True)[:keep]
        return [" ".join(r[:max_words]) + (f" … ({len(r)} words)" if len(r) > max_words else "") for r in runs]

    return {"lost": shown(lost), "added": shown(added)}


def reversed_in_reference(reference: Sequence[str], ours: Sequence[str], min_letters: int = 3) -> int:
    """How many reference words (alphabetic, ``min_letters`` or more) are not our words but one of ours spelt
    backwards: text set sideways that pdfplumber read from the wrong end ("tsoc gniniart" for "training cost"),
    where a low share is the reference's fault, not ours.

    >>> reversed_in_reference(words("tsoc gniniart level"), words("training cost level"))
    2
    """
    mine = set(ours)
    return sum(1 for w in reference if len(w) >= min_letters and w.isalpha() and w not in mine
               and w[::-1] != w and w[::-1] in mine)


# -- scoring a read against the reference ---------------------------------------------------------------------------
def score_pages(reference: Sequence[str], pages: Sequence[dict]) -> list[dict]:
    """Per-page figures of one read (``pages``: ``{"number", "text", "reader"}``) against the reference (the
    normalised text of page 1, 2, ...). A reference page the read lacks scores 0 with reader ``missing``."""
    by_number = {p["number"]: p for p in pages}
    rows = []
    for number in range(1, max([len(reference), *by_number]) + 1):
        page = by_number.get(number, {"number": number, "text": "", "reader": "missing"})
        ref = words(reference[number - 1]) if number <= len(reference) else []
        ours = words(page["text"])
        matched = matched_in_order(ref, ours)
        joined = run_together(ours, ref)
        row = {"number": number, "reader": page["reader"], "reference_words": len(ref), "words": len(ours),
               "matched": matched, "share": round(matched / len(ref), 4) if ref else None,
               "fffd": replacement_characters(page["text"]), "run_together": joined}
        if ref and matched / len(ref) < LOW_SHARE:
            row["differences"] = {**differing_runs(ref, ours), "reversed": reversed_in_reference(ref, ours)}
        rows.append(row)
    return rows


def summarize_read(reference: Sequence[str], read: dict) -> dict:
    """Document figures of one read (:func:`read_pdf`'s dict) against the reference pages."""
    if read.get("error"):
        return {"error": read["error"]}
    pages = score_pages(reference, read["pages"])
    scored = [p for p in pages if p["share"] is not None]
    total_ref = sum(p["reference_words"] for p in pages)
    worst = min(scored, key=lambda p: (p["share"], p["number"])) if scored else None
    examples: list[dict] = []
    for p in pages:
        for token in p["run_together"]:
            if len(examples) < EXAMPLES and token not in {e["token"] for e in examples}:
                examples.append({"page": p["number"], "token": token})
    n_read = len(read["pages"])
    return {"pages": n_read, "reference_pages": len(reference), "reference_words": total_ref,
            "matched": sum(p["matched"] for p in pages),
            "share": sum(p["matched"] for p in pages) / total_ref if total_ref else None,
            "pages_under": sum(p["share"] < LOW_SHARE for p in scored),
            "worst_page": {"number": worst["number"], "share": worst["share"]} if worst else None,
            "fffd": sum(p["fffd"] for p in pages),
            "run_together": sum(len(p["run_together"]) for p in pages), "run_together_examples": examples,
            "seconds": read["seconds"], "s_per_page": read["seconds"] / n_read if n_read else None,
            "cpu_seconds": read["cpu_seconds"], "cpu_s_per_page": read["cpu_seconds"] / n_read if n_read else None,
            "readers": dict(Counter(p["reader"] for p in read["pages"]).most_common()),
            "warnings": read.get("warnings", []), "page_figures": pages}
