"""Query expansion by the LLM, and the choice of expander for ``RAG_EXPANSION``.

The searcher expands a question only when its first search came back weak, through whatever :class:`Expander`
it was given (:mod:`retrieval.expansion`). Retrieval knows nothing of LLMs, so the expander that asks one lives
here: :class:`LLMExpander` gets three rephrasings of the question and a one-sentence hypothetical answer (prompt:
:func:`generation.prompts.expansion_messages`), each searched like the question itself. :func:`make_expander`
picks it, the LLM-free :class:`retrieval.expansion.FeedbackExpander`, or none.
"""

from __future__ import annotations

import logging
import re

import numpy as np

from core.errors import LLMError
from core.types import Expansion, Query
from generation.prompts import expansion_messages
from retrieval.expansion import Expander, FeedbackExpander
from retrieval.tokenize import tokenize

log = logging.getLogger(__name__)

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
        """The rephrasings as queries; on an LLM failure or an unusable reply, none, with the reason."""
        try:
            pairs = parse_expansions(self.llm.complete(expansion_messages(question), max_tokens=200,
                                                       temperature=0.0))
        except LLMError as exc:
            log.warning("query expansion skipped: %s", exc)
            return Expansion(self.method, error=str(exc))
        if not pairs:
            return Expansion(self.method, error="the LLM's reply held no usable rephrasing")
        vectors = self.embedder.encode([text for _, text in pairs])
        return Expansion(self.method, [Query(text, v, tokenize(text), source) for (source, text), v in
                                       zip(pairs, vectors)])


def make_expander(method: str, llm, embedder) -> Expander | None:
    """The expander for a ``RAG_EXPANSION`` value (auto, llm, feedback or off), or None.

    ``llm`` and ``auto`` with an LLM: :class:`LLMExpander`; ``feedback``, and ``auto`` without one:
    :class:`FeedbackExpander`; ``off``, and ``llm`` without an LLM configured: None (no expansion).
    """
    if method == "off" or (method == "llm" and llm is None):
        return None
    if method in ("llm", "auto") and llm is not None:
        return LLMExpander(llm, embedder)
    return FeedbackExpander()
