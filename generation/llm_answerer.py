"""Answers written by an LLM from the retrieved passages, checked before they are trusted.

The flow for one question:

1. Gate with the same decision as extractive answers (:func:`generation.decision.decide`): when nothing in the
   document comes close to the question, or the question names something the document never mentions, no request
   is made (an LLM handed loosely related passages tends to answer anyway); in the low band the answer carries a
   warning. The answer's level and warning come from that decision, so they agree with what is shown.
2. Stream the reply, then check its ``[Source N]`` citations against the passages actually sent.
3. A reply with a bad or missing citation is withdrawn (``"reset"``) and asked for once more, with the problem
   explained. A second bad reply, or any LLM failure (key, rate limit, timeout, server, broken stream), falls back
   to the extractive answer: sentences quoted from the document, which need no LLM at all.
4. A reply whose citations are well formed must also be supported by them: each sentence is scored against the
   passages it cites (:mod:`generation.support`). A sentence its sources do not support (the model followed text
   planted in a document, or cited the wrong passage) is withdrawn at once, without a retry, and the extractive
   answer is shown, with the reason in ``note``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from generation.citations import check_citations, is_no_answer, map_citations, parse_citations
from generation.answer_fit import asked_for, names
from generation.decision import Policy, decide
from core.types import SearchResult
from core.answers import Decision, Delta, Reset
from core.errors import LLMError
from generation.prompts import NO_ANSWER, build_messages
from generation.support import SupportChecker, describe

log = logging.getLogger(__name__)

FALLBACK = "showing sentences quoted from the document instead"
UNSUPPORTED = "The generated answer cited a passage that does not support it"


@dataclass
class LLMAnswer:
    """The final answer of :meth:`LLMAnswerer.stream` (``kind`` "final", after its :class:`core.answers.Delta` and
    :class:`core.answers.Reset` events).

    Attributes
    ----------
    text : str
        The answer as shown (the concatenated deltas after the last reset).
    abstained : bool
        True when the answer says the document does not answer the question.
    citations : list
        :class:`generation.citations.LLMCitation` per cited source (mode "llm"), or the extractive answer's
        :class:`generation.extractive.Citation` list (mode "extractive-fallback").
    mode : str
        "llm", "gated" (no request: retrieval confidence too low) or "extractive-fallback".
    warning : str, optional
        Shown with the answer when retrieval confidence is low.
    note : str, optional
        Why the LLM's answer is not shown (mode "extractive-fallback").
    support : float
        The retrieval confidence for "llm" and "gated"; the best quoted sentence's score for the fallback.
    attempts : int
        LLM requests made: 0 (gated), 1 or 2.
    decision : Decision
        Whether an answer is given and at what level; ``warning`` is its warning.
    """

    text: str
    abstained: bool
    citations: list = field(default_factory=list)
    mode: str = "llm"
    warning: str | None = None
    note: str | None = None
    support: float = 0.0
    attempts: int = 0
    decision: Decision = field(default_factory=lambda: Decision(True, "high"))
    kind: ClassVar[str] = "final"


class LLMAnswerer:
    """Streams an LLM's answer from the passages, with citation checks, one retry and an extractive fallback.

    Parameters
    ----------
    llm : generation.llm.LLM
        The client; its own ``max_retries`` covers transport failures, so none are added here.
    fallback : generation.extractive.ExtractiveAnswerer
        Answers when the LLM cannot (or cannot cite).
    policy : generation.decision.Policy
        Retrieval confidence below ``retrieval_insufficient``: no request, an honest "not enough information"
        answer; below ``retrieval_low``: the answer carries a warning.
    support : generation.support.SupportChecker, optional
        Checks that each cited sentence is supported by its source; by default one using the fallback's
        embedder (``fallback.embedder.encode``). None when the fallback has no embedder: citations are then
        only checked for form.
    """

    def __init__(self, llm, fallback, policy: Policy | None = None,
                 support: SupportChecker | None = None) -> None:
        self.llm = llm
        self.fallback = fallback
        self.policy = policy or Policy()
        embedder = getattr(fallback, "embedder", None)
        self.support = support or (SupportChecker(embedder.encode) if embedder is not None else None)

    def stream(self, question: str, result: SearchResult,
               history: list[tuple[str, str]] | None = None) -> Iterator[Delta | Reset | LLMAnswer]:
        """Answer ``question`` from ``result.hits``.

        Yields
        ------
        core.answers.Delta
            The next piece of the answer.
        core.answers.Reset
            Everything streamed so far is withdrawn, for the reason given (fit to show); new deltas follow.
        LLMAnswer
            Last: the answer with its citations, mode, warning and note.
        """
        hits = result.hits
        confidence = float(result.confidence)
        gate = self._gate(question, result)
        if not gate.answer:
            text = _not_enough(gate.reason)
            yield Delta(text)
            yield LLMAnswer(text, True, [], "gated", support=confidence, decision=gate)
            return
        decision = gate
        warning = decision.warning

        problem = None
        for attempt in (1, 2):
            parts: list[str] = []
            replies = self.llm.stream(build_messages(question, hits, history, problem))
            try:
                for piece in replies:
                    parts.append(piece)
                    yield Delta(piece)
            except LLMError as err:
                if parts:
                    yield Reset(f"The LLM's answer broke off; {FALLBACK}.")
                yield from self._fallback(question, result, warning, str(err), attempt)
                return
            finally:
                # Releases the HTTP connection at once, even when our caller stops reading mid-answer.
                replies.close()

            text = "".join(parts)
            if is_no_answer(text):
                declined = Decision(False, "insufficient", reason="the LLM found no answer in the passages")
                yield LLMAnswer(NO_ANSWER, True, [], "llm", None, support=confidence, attempts=attempt,
                                         decision=declined)
                return
            problem = check_citations(text, len(hits))
            unsupported = self.support.check(text, hits) if problem is None and self.support else None
            if unsupported:
                log.warning("LLM answer unsupported by its sources (%s): %r", describe(unsupported),
                            unsupported.claim.text[:120])
                yield Reset(f"{UNSUPPORTED}; showing quoted passages instead.")
                yield from self._fallback(question, result, warning,
                                          f"{UNSUPPORTED} ({describe(unsupported)}); showing quoted passages "
                                          "instead.", attempt)
                return
            if problem is None:
                citations = map_citations(parse_citations(text), hits)
                yield LLMAnswer(text, False, citations, "llm", warning, support=confidence,
                                         attempts=attempt, decision=decision)
                return
            yield Reset(f"{problem} {'Asking the LLM again.' if attempt == 1 else FALLBACK.capitalize() + '.'}")

        note = (f"The LLM's answer failed the citation check twice (last time: {_lower_first(problem)}); "
                f"{FALLBACK}.")
        yield from self._fallback(question, result, warning, note, 2)

    def _gate(self, question: str, result: SearchResult) -> Decision:
        """Whether the LLM may be asked: the extractive decision's gates (something comes close, and any name the
        question uses is in the documents unless a sentence answers it strongly), not its support threshold, which
        is for quoting and would hold back answers the LLM can write from several passages. The sentences are
        scored only when a name or a word asked for is missing, so an off-topic question is declined at once."""
        if not result.hits:
            return decide(self.policy, retrieval=0.0, support=None, any_passage=False)
        unknown = names(question, list(result.absent))
        missing = [w for w in asked_for(question) if w in result.absent]
        support = None
        if (unknown or missing) and result.confidence >= self.policy.retrieval_insufficient:
            fit = self.fallback.prepare_found(question, result).fit
            support = fit[0].score if fit else None
        return decide(self.policy, retrieval=float(result.confidence), support=support, unknown=unknown,
                      missing=missing, writer="llm")

    def _fallback(self, question: str, result: SearchResult, warning: str | None, note: str,
                  attempts: int) -> Iterator[tuple[str, object]]:
        answer = self.fallback.answer_found(question, result)
        for piece in answer.pieces:
            yield Delta(piece)
        yield LLMAnswer(answer.text, answer.abstained, answer.citations, "extractive-fallback",
                                 answer.decision.warning, note, answer.support, attempts, answer.decision)


def _not_enough(reason: str) -> str:
    return (f"Not enough information in the document: {reason}, so no answer was written. Try rephrasing the "
            "question, or check the right document is selected.")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:].rstrip(".")
