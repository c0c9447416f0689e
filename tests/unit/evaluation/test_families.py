"""The per-family report and the leave-one-document-out calibration compute what they say (hand-checked cases)."""

from __future__ import annotations

import doctest

import pytest

import evaluation.calibrate
from evaluation.calibrate import balanced_accuracy, leave_one_out
from evaluation.families import family, summarize, table


def row(doc, rank=None, answerable=True, abstained=False, cited=(), pages=(3,), top_page=3):
    return {"id": f"{doc}-{rank}-{abstained}", "doc": doc, "family": family(doc), "answerable": answerable,
            "rank": rank, "abstained": abstained, "citations": [[doc, p, p] for p in cited], "pages": list(pages),
            "top_page": top_page}


ROWS = [
    row("adam", rank=1, cited=(3,)),                          # found first, answered on the gold page
    row("attention", rank=None, abstained=True, top_page=9),  # missed, declined
    row("adam", rank=None, answerable=False, abstained=True, pages=(), top_page=1),
    row("attention", rank=None, answerable=False, abstained=False, pages=(), top_page=1),
    row("AMZN_2023Q3_10Q", rank=4, cited=(7,), top_page=5),  # found 4th, answered on another page
]
INGESTS = {"adam": {"pages": 15, "seconds": 30.0}, "attention": {"pages": 15, "seconds": 15.0},
           "AMZN_2023Q3_10Q": {"pages": 50, "seconds": None}}


def test_the_family_figures_are_the_hand_counted_ones():
    s = summarize(ROWS, INGESTS, 8)
    papers, filings = s["papers"], s["filings"]
    assert (papers["answerable"], papers["unanswerable"]) == (2, 2)
    assert papers["recall@1"] == 0.5 and papers["recall@8"] == 0.5 and papers["mrr"] == 0.5
    assert papers["top_on_gold_page"] == 0.5
    assert papers["cites_gold_page"] == 0.5  # of all answerable: the declined one counts as not citing
    assert papers["abstains_unanswerable"] == 0.5 and papers["false_abstention"] == 0.5
    assert papers["seconds_per_page"] == pytest.approx(45 / 30)
    assert filings["recall@1"] == 0.0 and filings["recall@8"] == 1.0 and filings["mrr"] == 0.25
    assert filings["cites_gold_page"] == 0.0 and filings["seconds_per_page"] is None  # not timed: no figure
    assert s["nist"]["recall@1"] is None  # a family without questions has no figures, not zeros
    assert s["all"]["answerable"] == 3


def test_the_table_shows_counts_of_declined_unanswerable_questions():
    text = table(summarize(ROWS, INGESTS, 8), None, 8)
    assert "| papers | product | 2 | 2 | 0.50 | 0.50 |" in text and "0.50 (1/2)" in text


def test_leave_one_out_applies_to_each_document_the_setting_best_on_the_others():
    # Setting "a" is perfect on adam and attention, wrong on nist; "b" the other way round.
    rows_of = {
        "a": [{"doc": "adam", "ok": 1}, {"doc": "attention", "ok": 1}, {"doc": "nist", "ok": 0}],
        "b": [{"doc": "adam", "ok": 0}, {"doc": "attention", "ok": 0}, {"doc": "nist", "ok": 1}],
    }
    score = lambda rows: sum(r["ok"] for r in rows) / len(rows)  # noqa: E731
    chosen, held_out = leave_one_out(["a", "b"], rows_of, score, ["adam", "attention", "nist"])
    assert chosen == {"adam": "a", "attention": "a", "nist": "a"}  # nist is never tuned on itself
    assert [r["ok"] for r in held_out] == [1, 1, 0]
    # Ties go to the setting listed first.
    tie = {"a": [{"doc": "x", "ok": 1}, {"doc": "y", "ok": 1}], "b": [{"doc": "x", "ok": 1}, {"doc": "y", "ok": 1}]}
    assert leave_one_out(["b", "a"], tie, score, ["x", "y"])[0] == {"x": "b", "y": "b"}


def test_balanced_accuracy_weighs_both_kinds_of_mistake_alike():
    many_answerable = [{"answerable": True, "abstained": False}] * 9 + [{"answerable": False, "abstained": False}]
    assert balanced_accuracy(many_answerable) == 0.5  # answering everything is no better than a coin
    assert doctest.testmod(evaluation.calibrate).failed == 0
