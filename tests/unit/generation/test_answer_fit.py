"""A quoted sentence must fit the question, and confidence, warning and abstention come from one decision."""

from __future__ import annotations

import doctest

import pytest

import generation.answer_fit
import generation.decision
from generation.answer_fit import expect, fits, focus_names, names
from generation.decision import Policy, decide
from core.answers import LEVELS


@pytest.mark.parametrize("module", [generation.answer_fit, generation.decision])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("question, kind", [
    ("How many identical layers are in the encoder stack?", "count"),
    ("What percentage of AI systems fail bias audits?", "percent"),
    ("How many milliseconds does the model take to translate one sentence?", "quantity"),
    ("How much electricity in kilowatt-hours did training consume?", "quantity"),
    ("How much GPU memory did the big model need?", "quantity"),
    ("How long did one epoch take?", "quantity"),
    ("How much did the experiments cost to run?", "money"),
    ("In which year was the AMSGrad variant proposed?", "date"),
    ("When did NIST publish its profile?", "date"),
    ("What value was used for beta2?", "number"),
    ("What is AdaMax?", "definition"),
    ("What is the inner-layer dimensionality of the feed-forward network?", "number"),
    ("What is the purpose of the MAP function?", "other"),  # a property of X, not a definition of a term
    ("Does the framework tell organisations how much risk they should accept?", "other"),  # yes or no
    ("Why is the optimizer impractical on a GPU?", "other"),
    ("Who proposed the name Adam?", "other"),
])
def test_the_kind_of_answer_a_question_asks_for(question, kind):
    assert expect(question).kind == kind


@pytest.mark.parametrize("question, sentence, fit", [
    ("How many attention heads does it use?", "We employ h = 8 parallel attention layers, or heads.", True),
    ("How many attention heads does it use?", "Multi-head attention allows the model to attend jointly.", False),
    # A footnote mark, an amount of money or a year is no count.
    ("How many Prime members were there?", "(4) Includes annual and monthly fees of Amazon Prime memberships.",
     False),
    ("How many iPhone units did Apple sell?", "iPhone (1) $ 65,775 $ 71,628", False),
    ("How many members sit on the committee?", "The committee was formed in 2021.", False),
    ("How many milliseconds does one sentence take?", "Translating a sentence takes 40 ms on a CPU.", True),
    ("How many milliseconds does one sentence take?", "Translating a sentence takes 3.5 days on 8 GPUs.", False),
    ("How much GPU memory did the big model need?", "We trained on 8 NVIDIA P100 GPUs.", False),
    ("How much GPU memory did the big model need?", "The big model needs 16 GB per GPU.", True),
    ("What percentage of systems fail audits?", "Most systems fail audits.", False),
    ("What percentage of systems fail audits?", "About 12 % of systems fail audits.", True),
    ("When does the ferry leave?", "The ferry leaves at 7:15 every morning.", True),
    ("When did NIST publish its profile?", "NIST will review the framework with the community.", False),
    ("What is AdaMax?", "We propose a variant of Adam based on the infinity norm.", False),
    ("What is AdaMax?", "AdaMax is a variant of Adam based on the infinity norm.", True),
    ("Why is it impractical?", "Its memory requirement is linear in the number of partitions.", True),
])
def test_a_sentence_fits_only_when_it_holds_what_is_asked(question, sentence, fit):
    assert fits(expect(question), sentence) is fit


def test_a_definition_may_name_its_term_in_the_heading_above_it():
    expectation = expect("What is temporal averaging?")
    sentence = "Better generalization performance is often achieved by averaging the parameters."
    assert not fits(expectation, sentence)
    assert fits(expectation, sentence, passage="7.2 Temporal averaging\n\n" + sentence)


def test_a_money_question_is_answered_by_a_statement_row():
    assert fits(expect("How much did Apple spend on research and development?"), "Research and development 7,709 6,306",
                table_row=True)


def test_names_the_documents_never_mention_but_not_periods_or_the_opening_word():
    absent = ["Which", "LAMB", "GPT-2", "Q3", "FY2023", "Spanish", "knobs"]
    question = "Which LAMB and GPT-2 results in Q3 or FY2023 used Spanish knobs?"
    assert names(question, absent) == ["LAMB", "GPT-2", "Spanish"]


def test_the_focus_is_a_name_the_documents_hold_but_not_their_own_name():
    shares = {"Apple's": 0.9, "net": 0.3, "sales": 0.3, "India": 0.01, "Mars": 0.0}
    assert focus_names("What were Apple's net sales in India and Mars?", shares) == ["India"]


CASES = [
    dict(retrieval=0.1, support=0.9),
    dict(retrieval=0.6, support=None, expectation_kind="count"),
    dict(retrieval=0.6, support=0.4),
    dict(retrieval=0.6, support=0.55),
    dict(retrieval=0.45, support=0.8),
    dict(retrieval=0.7, support=0.8),
    dict(retrieval=0.7, support=0.7, unknown=["BERT"]),
    dict(retrieval=0.7, support=0.9, unknown=["BERT"]),
    dict(retrieval=0.7, support=0.9, any_passage=False),
]


@pytest.mark.parametrize("case", CASES)
def test_confidence_warning_and_abstention_always_agree(case):
    decision = decide(Policy(answer_threshold=0.5, confident=0.6, unknown_name_support=0.75), **case)
    assert decision.level in LEVELS
    if not decision.answer:
        assert decision.level == "insufficient" and decision.warning is None and decision.reason
    elif decision.level == "low":
        assert decision.warning and decision.warning.startswith("Low confidence")
    else:
        assert decision.level == "high" and decision.warning is None and not decision.reason


def test_the_reason_for_not_answering_says_what_is_missing():
    policy = Policy()
    assert decide(policy, retrieval=0.7, support=0.6, unknown=["BERT"]).reason == "it never mentions \u201cBERT\u201d"
    assert "a count" in decide(policy, retrieval=0.7, support=None, expectation_kind="count").reason
    assert "0.10" in decide(policy, retrieval=0.1, support=0.3).reason
    # A sentence that answers strongly is close enough, however loosely its passage as a whole matches.
    short_line = decide(policy, retrieval=0.2, support=0.7)
    assert short_line.answer and short_line.level == "low" and "0.20" in short_line.warning
    # With a support bar below 1, a name the document lacks is no obstacle when a sentence answers strongly (a
    # synonym, a spelling); the default bar (1.0, chosen by leave-one-document-out) always declines.
    assert decide(Policy(unknown_name_support=0.75), retrieval=0.7, support=0.9, unknown=["BERT"]).answer
    assert not decide(policy, retrieval=0.7, support=0.9, unknown=["BERT"]).answer
