"""Query expansion, used only when the first search came back weak (best cosine below a threshold).

The searcher calls an :class:`Expander`: ``expand(question, vector, tokens, top_passages) -> Expansion``. Two
exist:

* :class:`FeedbackExpander`, here (no LLM): pseudo-relevance feedback from the first search's best passages: the
  question's vector moved towards theirs (Rocchio) and their rarest shared terms added to the keyword query.
* :class:`generation.query_expansion.LLMExpander` (when an LLM is configured): three rephrasings of the question
  and a one-sentence hypothetical answer, each searched like the question itself. It lives in the generation layer,
  with the LLM, as does :func:`generation.query_expansion.make_expander`, which picks one for ``RAG_EXPANSION``.

The searcher fuses the rankings of the question and its expansions; the expansions are returned to the user.
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

import numpy as np

from retrieval.tokenize import tokenize
from core.types import Expansion, Query


class Expander(Protocol):
    """What the searcher calls when its first search is weak (:class:`FeedbackExpander` here; the LLM's,
    :class:`generation.query_expansion.LLMExpander`, in the generation layer)."""

    method: str  # named in the Expansion returned, and shown to the user

    def expand(self, question: str, vector: np.ndarray, tokens: list[str], top_passages) -> Expansion:
        """Extra queries for ``question`` (its vector and tokens given), from the first search's
        ``top_passages``: ``(chunk, vector)`` pairs, best first. Never raises: a failure is the Expansion's
        ``error``."""
        ...


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
