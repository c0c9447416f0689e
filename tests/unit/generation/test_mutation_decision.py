"""The one decision behind every answer, branch by branch: whether it is given, its level, its warning and the
reason a user reads when it is not."""

from __future__ import annotations

import pytest

from core.answers import Decision
from generation.decision import Policy, decide
from settings import Settings

POLICY = Policy(answer_threshold=0.4, confident=0.6, retrieval_insufficient=0.3, retrieval_low=0.5,
                unknown_name_support=0.9, absent_focus_support=0.55)
NOTHING = "no passage in it answers this question"


def test_policy_defaults_and_its_settings():
    assert Policy() == Policy(0.40, 0.6, 0.3, 0.5, 1.0, 0.55)
    s = Settings(answer_threshold=0.11, answer_confident=0.22, confidence_insufficient=0.33, confidence_low=0.44,
                 unknown_name_support=0.66, absent_focus_support=0.77)
    p = Policy.from_settings(s)
    assert (p.answer_threshold, p.confident, p.retrieval_insufficient, p.retrieval_low, p.unknown_name_support,
            p.absent_focus_support) == (0.11, 0.22, 0.33, 0.44, 0.66, 0.77)


def test_nothing_searched_is_never_answered():
    assert decide(POLICY, retrieval=0.9, support=0.9, any_passage=False) == Decision(
        False, "insufficient", reason="no passage of the selected documents could be searched")


def test_a_distant_question_is_declined_with_the_similarity_unless_a_sentence_answers_it():
    assert decide(POLICY, retrieval=0.123, support=0.39) == Decision(
        False, "insufficient", reason="nothing in it comes close to this question (best similarity 0.12)")
    assert decide(POLICY, retrieval=0.2, support=None) == Decision(
        False, "insufficient", reason="nothing in it comes close to this question (best similarity 0.20)")
    # At the thresholds themselves: a support of exactly answer_threshold answers, a cosine of exactly
    # retrieval_insufficient is not "distant".
    assert decide(POLICY, retrieval=0.2, support=0.4).answer
    assert decide(POLICY, retrieval=0.3, support=0.39).reason == NOTHING


def test_names_the_documents_never_mention_decline_unless_the_support_reaches_their_bar():
    declined = decide(POLICY, retrieval=0.8, support=0.89, unknown=["BERT", "GPT-2", "BERT", "T5", "XLNet"])
    assert declined == Decision(False, "insufficient",
                                reason="it never mentions \u201cBERT\u201d, \u201cGPT-2\u201d, \u201cT5\u201d")
    assert decide(POLICY, retrieval=0.8, support=None, unknown=["BERT"]).reason == "it never mentions \u201cBERT\u201d"
    assert decide(POLICY, retrieval=0.8, support=0.9, unknown=["BERT"]) == Decision(True, "high")
    # The words of the phrase asked for have their own bar.
    assert decide(POLICY, retrieval=0.8, support=0.54, missing=["language"]).reason == \
        "it never mentions \u201clanguage\u201d"
    assert decide(POLICY, retrieval=0.8, support=0.55, missing=["language"]) == decide(POLICY, retrieval=0.8,
                                                                                       support=0.55)
    assert decide(POLICY, retrieval=0.8, support=0.55).answer


def test_no_fitting_sentence_says_what_was_looked_for():
    assert decide(POLICY, retrieval=0.8, support=None, expectation_kind="count") == Decision(
        False, "insufficient", reason="no passage in it gives a count for this question")
    assert decide(POLICY, retrieval=0.8, support=None, expectation_kind="date").reason == \
        "no passage in it gives a date for this question"
    assert decide(POLICY, retrieval=0.8, support=None).reason == NOTHING
    assert decide(POLICY, retrieval=0.8, support=None, unmet=["India", "2024", "India", "Peru", "Chile"]) == Decision(
        False, "insufficient",
        reason="no passage found on this question mentions \u201cIndia\u201d, \u201c2024\u201d, \u201cPeru\u201d")


def test_a_weak_sentence_is_not_quoted():
    assert decide(POLICY, retrieval=0.8, support=0.39) == Decision(False, "insufficient", reason=NOTHING)


def test_an_answer_from_a_loosely_related_passage_is_low_with_its_similarity():
    assert decide(POLICY, retrieval=0.456, support=0.9) == Decision(
        True, "low", warning="Low confidence: the best passage is only loosely related (similarity 0.46); "
                             "check the sources.")
    assert decide(POLICY, retrieval=0.5, support=0.9) == Decision(True, "high")


def test_a_partly_matching_sentence_is_low_and_a_clear_one_high():
    assert decide(POLICY, retrieval=0.8, support=0.59) == Decision(
        True, "low", warning="Low confidence: the quoted sentences only partly match the question; check them "
                             "against the sources.")
    assert decide(POLICY, retrieval=0.8, support=0.6) == Decision(True, "high")


@pytest.mark.parametrize("support", [None, 0.1])
def test_an_llm_writer_is_judged_by_the_gates_and_the_retrieval_only(support):
    assert decide(POLICY, retrieval=0.8, support=support, writer="llm") == Decision(True, "high")
    assert decide(POLICY, retrieval=0.45, support=support, writer="llm").level == "low"
    assert decide(POLICY, retrieval=0.8, support=support, unknown=["BERT"], writer="llm").reason == \
        "it never mentions \u201cBERT\u201d"
    assert not decide(POLICY, retrieval=0.1, support=support, writer="llm").answer
