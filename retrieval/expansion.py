"""Query expansion, used only when the first search came back weak (best cosine below a threshold).

Two expanders behind one method, ``expand(question, top_passages) -> list[Query]``:

* :class:`LLMExpander` (when an LLM is configured): three rephrasings of the question and a one-sentence
  hypothetical answer, each searched like the question itself.
* :class:`FeedbackExpander` (no LLM): pseudo-relevance feedback from the first search's best passages: the
  question's vector moved towards theirs (Rocchio) and their rarest shared terms added to the keyword query.

The searcher fuses the rankings of the question and its expansions; the expansions are returned to the user.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from retrieval.tokenize import tokenize

log = logging.getLogger(__name__)


@dataclass
class Query:
    """One phrasing to search: its text (shown to the user), vector and keyword tokens."""

    text: str
    vector: np.ndarray
    tokens: list[str]
    source: str = "question"  # "question", "rephrasing", "hypothetical answer" or "feedback"


@dataclass
class Expansion:
    method: str  # "llm" or "feedback"
    queries: list[Query] = field(default_factory=list)
    error: str | None = None  # why expansion was skipped (e.g. the LLM failed)

    def to_dict(self) -> dict:
        return {"method": self.method, "error": self.error,
                "queries": [{"text": q.text, "source": q.source} for q in self.queries]}


EXPANSION_PROMPT = """You help a search engine find passages in a document.
Rewrite the user's question in three different ways that use other words a document might use, then write one
sentence that could plausibly answer it (it may be wrong; it is only used for searching).
Reply with exactly four lines and nothing else:
1. <rephrasing>
2. <rephrasing>
3. <rephrasing>
A: <hypothetical answer sentence>"""

_LINE = re.compile(r"^\s*(?:(\d)[.)]|(A|Answer)\s*:)\s*(.+?)\s*$", re.IGNORECASE)


def parse_expansions(reply: str) -> list[tuple[str, str]]:
    """``(source, text)`` pairs from the LLM's reply; lines that do not follow the format are ignored.

    Examples
    --------
    >>> parse_expansions("1. What is X?\\n2. Define X.\\n3. X means?\\nA: X is a thing.")
    [('rephrasing', 'What is X?'), ('rephrasing', 'Define X.'), ('rephrasing', 'X means?'), \
('hypothetical answer', 'X is a thing.')]
    """
    out = []
    for line in reply.splitlines():
        match = _LINE.match(line)
        if match and match.group(3):
            out.append(("rephrasing" if match.group(1) else "hypothetical answer", match.group(3)[:500]))
    rephrasings = [p for p in out if p[0] == "rephrasing"][:3]
    answers = [p for p in out if p[0] != "rephrasing"][:1]
    return rephrasings + answers


class LLMExpander:
    """Rephrasings and a hypothetical answer from the configured LLM (one short request).

    Parameters
    ----------
    llm : a :class:`generation.llm.LLM`.
    embedder : encodes the new phrasings (one batch).
    """

    method = "llm"

    def __init__(self, llm, embedder):
        self.llm = llm
        self.embedder = embedder

    def expand(self, question: str, vector: np.ndarray, tokens: list[str], top_passages) -> Expansion:
        from generation.llm import LLMError

        messages = [{"role": "system", "content": EXPANSION_PROMPT},
                    {"role": "user", "content": question}]
        try:
            pairs = parse_expansions(self.llm.complete(messages, max_tokens=200, temperature=0.0))
        except LLMError as exc:
            log.warning("query expansion skipped: %s", exc)
            return Expansion(self.method, error=str(exc))
        if not pairs:
            return Expansion(self.method, error="the LLM's reply held no usable rephrasing")
        vectors = self.embedder.encode([text for _, text in pairs])
        return Expansion(self.method, [Query(text, v, tokenize(text), source) for (source, text), v in
                                       zip(pairs, vectors)])


class FeedbackExpander:
    """Pseudo-relevance feedback: assume the first search's best passages are on topic and search again with
    the question moved towards them.

    Parameters
    ----------
    passages : how many of the best passages give feedback.
    alpha : weight of their mean vector added to the question's (Rocchio), before renormalising.
    terms : how many feedback terms join the keyword query: those in most of the passages, rarest first.
    """

    method = "feedback"

    def __init__(self, passages: int = 3, alpha: float = 0.5, terms: int = 5):
        self.passages, self.alpha, self.terms = passages, alpha, terms

    def expand(self, question: str, vector: np.ndarray, tokens: list[str], top_passages) -> Expansion:
        top = list(top_passages)[:self.passages]
        if not top:
            return Expansion(self.method)
        moved = vector + self.alpha * np.mean([v for _, v in top], axis=0)
        moved = moved / np.linalg.norm(moved)
        counts = Counter(t for chunk, _ in top for t in set(tokenize(chunk.text)) if t not in set(tokens))
        # Terms shared by several of the passages, ties broken by length (longer terms are rarer) then name.
        extra = [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))
                 if not t.isdigit()][:self.terms]
        text = " ".join(tokens + extra)
        return Expansion(self.method, [Query(text, moved, tokens + extra, "feedback")])


def make_expander(method: str, llm, embedder):
    """The expander for a ``RAG_EXPANSION`` value, or ``None`` (``off``, or ``llm`` without an LLM configured)."""
    if method == "off" or (method == "llm" and llm is None):
        return None
    if method in ("llm", "auto") and llm is not None:
        return LLMExpander(llm, embedder)
    return FeedbackExpander()
