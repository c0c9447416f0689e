"""Making a question asked in a conversation ready for retrieval: one interface (:class:`Resolver`), three choices.

A user who asked "What is Adam?" may go on with "who proposed it?"; retrieval cannot find "it". A resolver turns
the question and the conversation so far into the text that is searched and answered (a :class:`Resolution`).
:func:`make_resolver` builds one by name, ``RAG_FOLLOWUP_RESOLVER`` names the one the product uses:

* ``rules`` (the default, :class:`RulesResolver`): the hand-written English rules of :mod:`generation.followups`
  decide whether the question leans on the conversation and rewrite it by substitution ("who proposed Adam?"); a
  follow-up they cannot rewrite ("why not?", "tell me more") is searched as the previous standalone question
  joined to it (:func:`joined`). With an LLM configured, the LLM rewrites whatever the rules do not find
  standalone.
* ``rules-tagged``: the same rules, a follow-up they cannot rewrite tagged with its topic instead ("why not?
  (about Adam)", :func:`~generation.followup_rewriting.rewrite_local`'s rule 4).
* ``joined`` (:class:`JoinedResolver`): no rules, for any language: the previous standalone question joined in
  front of every question that has a history ("What is Adam? who proposed it?").

Measured by ``python -m evaluation.followup_methods`` (172 pairs of ``evaluation/data/followups.jsonl``, 56 of them
written after the rules, searched in their documents: hybrid, 8 passages, no reranker, no LLM). The share of
questions whose top 1 / top 8 passages hold the passage the right rewrite (the set's ``expected``) finds first, a
standalone question being its own right rewrite:

| resolver | follow-ups (82) | standalone (90) | every question (172) | pairs added after the rules (56) |
| --- | ---: | ---: | ---: | ---: |
| asked as is | 0.33 / 0.62 | 1.00 / 1.00 | 0.68 / 0.82 | 0.70 / 0.88 |
| rules | 0.76 / 0.89 | 0.98 / 0.97 | 0.87 / 0.95 | 0.82 / 0.95 |
| rules-tagged | 0.68 / 0.82 | 0.99 / 0.97 | 0.84 / 0.91 | 0.80 / 0.93 |
| joined | 0.76 / 0.95 | 0.44 / 0.00 | 0.59 / 0.91 | 0.57 / 0.93 |
| joined, only short questions or with a pronoun | 0.77 / 0.96 | 0.46 / 0.04 | 0.60 / 0.92 | 0.61 / 0.95 |
| spaCy noun chunks of the last exchange added | 0.52 / 0.90 | 0.28 / 0.00 | 0.40 / 0.85 | 0.34 / 0.88 |

Joining finds the follow-ups' passages as well as the rules do, but changes what more than half of the standalone
questions retrieve: the rules' detection is what earns its keep. Where the rules can rewrite, their rewrite makes
the better answer: the extractive answer to a follow-up is the right rewrite's one for 0.52 with ``rules``, 0.49
``rules-tagged``, 0.41 ``joined``, and 0.36 when the rules only detect and every follow-up is joined (which
retrieves as well, 0.87 / 0.97). Where they cannot, the join beats their topic tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from generation.followup_detection import Verdict, follow_up_verdict
from generation.followup_rewriting import rewrite_with_outcome
from generation.followup_topics import Turn

__all__ = ["Resolution", "Resolver", "RulesResolver", "JoinedResolver", "joined", "make_resolver", "RESOLVERS",
           "DEFAULT_RESOLVER"]


@dataclass(frozen=True)
class Resolution:
    """What a :class:`Resolver` made of a question.

    Attributes
    ----------
    question : str
        The question to search and answer: the standalone rewrite, or the question as asked.
    method : str
        "unchanged", "local" (a rewrite made here, without an LLM) or "llm".
    certain : bool
        Whether ``question`` can be used as it is. False when the question may stand alone as well as need the
        history: the caller should search both the question as asked and ``question`` and keep the one that
        retrieves better (they may be equal: an unsure question that could not be resolved is left unchanged).
    """

    question: str
    method: str
    certain: bool


class Resolver(Protocol):
    """Anything that resolves a question asked after ``history`` (oldest first)."""

    def resolve(self, question: str, history: Sequence[Turn]) -> Resolution: ...


class _Asker(Protocol):  # generation.conversation.LLMRewriter
    def ask(self, question: str, history: Sequence[Turn]) -> tuple[str, str] | None: ...


def joined(question: str, history: Sequence[Turn]) -> str:
    """The last exchange's standalone question, then ``question``.

    >>> joined("why not?", [Turn.from_exchange("Does Adam need X?", "Does Adam need X?", "No [p. 2].")])
    'Does Adam need X? why not?'
    """
    last = history[-1]
    return f"{' '.join((last.resolved or last.question).split())} {question}"


class RulesResolver:
    """The hand-written rules, and the LLM when one is given.

    A question the rules find standalone (:func:`follow_up_verdict`) is returned unchanged and never costs an LLM
    request. Any other question (a follow-up, or one the rules are unsure about) is rewritten by ``llm_rewriter``
    when given, which sees the history and may return it unchanged; on an LLM failure, and without a rewriter, by
    the rules (:func:`~generation.followup_rewriting.rewrite_with_outcome`). A follow-up the rules cannot rewrite is
    joined to the previous question (:func:`joined`), or with ``tag=True`` tagged with its topic. Unsure when the
    rules were unsure and no LLM decided.

    >>> adam = [Turn.from_exchange("Does Adam need a stationary objective?",
    ...                            "Does Adam need a stationary objective?", "No [p. 1].")]
    >>> RulesResolver().resolve("what about its memory cost?", adam)
    Resolution(question="what about Adam's memory cost?", method='local', certain=True)
    >>> RulesResolver().resolve("why not?", adam).question, RulesResolver(tag=True).resolve("why not?", adam).question
    ('Does Adam need a stationary objective? why not?', 'why not? (about Adam)')
    """

    def __init__(self, llm_rewriter: _Asker | None = None, *, tag: bool = False) -> None:
        self.llm_rewriter, self.tag = llm_rewriter, tag

    def resolve(self, question: str, history: Sequence[Turn]) -> Resolution:
        if not history:
            return Resolution(question, "unchanged", True)
        verdict = follow_up_verdict(question)
        if verdict is Verdict.STANDALONE:
            return Resolution(question, "unchanged", True)
        if self.llm_rewriter is not None:
            asked = self.llm_rewriter.ask(question, history)
            if asked is not None:
                return Resolution(*asked, True)
        rewritten, resolved = rewrite_with_outcome(question, history)
        if not resolved and not self.tag and verdict is Verdict.FOLLOW_UP:
            rewritten = joined(question, history)
        return Resolution(rewritten, "unchanged" if rewritten == question else "local",
                          verdict is Verdict.FOLLOW_UP)


class JoinedResolver:
    """Every question with a history joined to the previous standalone question (:func:`joined`); no rules.

    ``certain=False`` asks the caller to search the question as asked beside the join. An ``llm_rewriter``, when
    given, rewrites each question with a history instead; the join is its fallback.

    >>> adam = [Turn.from_exchange("What is Adam?", "What is Adam?", "An optimizer [p. 1].")]
    >>> JoinedResolver().resolve("who proposed it?", adam)
    Resolution(question='What is Adam? who proposed it?', method='local', certain=True)
    """

    def __init__(self, llm_rewriter: _Asker | None = None, *, certain: bool = True) -> None:
        self.llm_rewriter, self.certain = llm_rewriter, certain

    def resolve(self, question: str, history: Sequence[Turn]) -> Resolution:
        if not history:
            return Resolution(question, "unchanged", True)
        if self.llm_rewriter is not None:
            asked = self.llm_rewriter.ask(question, history)
            if asked is not None:
                return Resolution(*asked, True)
        return Resolution(joined(question, history), "local", self.certain)


RESOLVERS = {
    "rules": lambda llm_rewriter: RulesResolver(llm_rewriter),
    "rules-tagged": lambda llm_rewriter: RulesResolver(llm_rewriter, tag=True),
    "joined": lambda llm_rewriter: JoinedResolver(llm_rewriter),
}
DEFAULT_RESOLVER = "rules"


def make_resolver(name: str = DEFAULT_RESOLVER, llm_rewriter: _Asker | None = None) -> Resolver:
    """The resolver called ``name`` (a key of :data:`RESOLVERS`), asking ``llm_rewriter`` when given.

    >>> make_resolver("rule")
    Traceback (most recent call last):
    ...
    ValueError: unknown follow-up resolver 'rule'; choose one of rules, rules-tagged, joined
    """
    try:
        return RESOLVERS[name](llm_rewriter)
    except KeyError:
        raise ValueError(f"unknown follow-up resolver {name!r}; choose one of {', '.join(RESOLVERS)}") from None
