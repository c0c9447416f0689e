"""One decision behind every answer: whether to answer, how confident to say it is, and what to warn about.

Confidence, warning and abstention used to come from different scores (the retrieval cosine gave "Confidence:
high" above an abstention the sentence score had made). :func:`decide` makes all three from the same evidence, so
they always agree:

=================  ===========================================================================  ===============
level              when                                                                          answer
=================  ===========================================================================  ===============
``insufficient``   nothing comes close (best passage cosine under ``retrieval_insufficient``);   not given
                   the question names something the documents never mention (a name such as
                   "BERT", "GPT-2", "Spanish"; or a word of the phrase it asks for: "which
                   *programming language*") and no sentence answers it strongly; no sentence
                   gives the kind of answer asked for (:mod:`generation.answer_fit`) in a passage
                   about what it names ("India", "2024"); or the best
                   sentence's support is under ``answer_threshold``
``low``            answered, but the support is under ``confident`` or the best passage cosine   given, with a
                   is under ``retrieval_low``                                                    warning
``high``           answered, support and retrieval both clear                                   given
=================  ===========================================================================  ===============

Every threshold is chosen on the dev questions by leave-one-document-out (``python -m evaluation.calibrate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from core.answers import Decision


_KIND_WORDS = {
    "number": "a number", "count": "a count", "quantity": "an amount in the unit asked for", "money": "an amount of money",
    "percent": "a percentage", "date": "a date", "definition": "a definition of the term asked about",
}


@dataclass(frozen=True)
class Policy:
    """The thresholds :func:`decide` applies (defaults from settings)."""

    answer_threshold: float = 0.40
    confident: float = 0.6
    retrieval_insufficient: float = 0.3
    retrieval_low: float = 0.5
    unknown_name_support: float = 1.0
    absent_focus_support: float = 0.55

    @classmethod
    def from_settings(cls, s) -> Policy:
        return cls(s.answer_threshold, s.answer_confident, s.confidence_insufficient, s.confidence_low,
                   s.unknown_name_support, s.absent_focus_support)


def decide(policy: Policy, *, retrieval: float, support: float | None, expectation_kind: str = "other",
           unknown: list[str] | tuple[str, ...] = (), missing: list[str] | tuple[str, ...] = (),
           unmet: list[str] | tuple[str, ...] = (), any_passage: bool = True, writer: str = "quote") -> Decision:
    """The decision for one question (module docstring).

    Parameters
    ----------
    retrieval : the best passage cosine of the question.
    support : the support of the best sentence that fits the question, or ``None`` when none fits.
    expectation_kind : what the question asks for (:class:`generation.answer_fit.Expectation`), for the reason.
    unknown : names in the question that the searched documents never mention
        (:func:`generation.answer_fit.names`).
    missing : words of the phrase the question asks for (:func:`generation.answer_fit.asked_for`) that the
        searched documents never use.
    unmet : names the question is about that no passage found names ("India" in "Apple's net sales in India"),
        for the reason given when no sentence fits.
    any_passage : whether anything was searched at all.
    writer : ``quote`` (extractive: the support decides) or ``llm`` (an LLM writes the answer from the passages:
        only the gates apply, and the level is the retrieval's).

    A sentence whose support clears ``answer_threshold`` is close to the question even where its passage as a
    whole is not (a short invoice line on a long scanned page), so a low passage cosine alone declines only when
    no sentence supports an answer.
    """
    if not any_passage:
        return Decision(False, "insufficient", reason="no passage of the selected documents could be searched")
    supported = support is not None and support >= policy.answer_threshold
    if retrieval < policy.retrieval_insufficient and not supported:
        return Decision(False, "insufficient", reason=f"nothing in it comes close to this question (best "
                                                      f"similarity {retrieval:.2f})")
    for words, needed in ((unknown, policy.unknown_name_support), (missing, policy.absent_focus_support)):
        if words and (support is None or support < needed):
            listed = ", ".join(f"\u201c{w}\u201d" for w in list(dict.fromkeys(words))[:3])
            return Decision(False, "insufficient", reason=f"it never mentions {listed}")
    if writer == "llm":
        support = 1.0  # the LLM reads the passages itself: its answer has no quoted sentence to score
    if support is None and unmet:
        listed = ", ".join(f"\u201c{w}\u201d" for w in list(dict.fromkeys(unmet))[:3])
        return Decision(False, "insufficient", reason=f"no passage found on this question mentions {listed}")
    if support is None:
        wanted = _KIND_WORDS.get(expectation_kind)
        return Decision(False, "insufficient", reason=f"no passage in it gives {wanted} for this question"
                        if wanted else "no passage in it answers this question")
    if support < policy.answer_threshold:
        return Decision(False, "insufficient", reason="no passage in it answers this question")
    if retrieval < policy.retrieval_low:
        return Decision(True, "low", warning=f"Low confidence: the best passage is only loosely related (similarity "
                                             f"{retrieval:.2f}); check the sources.")
    if support < policy.confident:
        return Decision(True, "low", warning="Low confidence: the quoted sentences only partly match the question; "
                                             "check them against the sources.")
    return Decision(True, "high")
