"""The follow-up set (evaluation/data/followups.jsonl) and its runner (evaluation/rewrites.py): the metrics on a tiny
hand-made set with hand-computed results, the loose key-word check, and the shape of the set itself."""

from __future__ import annotations

import json
import re

import pytest

from evaluation.rewrites import (
    DEFAULT_SET,
    by_domain,
    content_words,
    key_words_kept,
    load_pairs,
    main,
    outcomes,
    summarize,
    table,
)


def line(id_, question, follow_up, expected=None, domain="paper", history=None) -> str:
    history = history or [{"question": "What is Adam?", "answer": "An optimizer [p. 1]."}]
    return json.dumps({"id": id_, "domain": domain, "history": history, "question": question,
                       "follow_up": follow_up, "expected": expected or question})


TINY = [
    line("s1", "Why does Adam scale its step?", False),  # standalone, rewritten by the fake: a wrong rewrite
    line("s2", "What is this paper about?", False),  # standalone, kept
    line("s3", "What does it say about AdaGrad?", False, domain="spec"),  # standalone, kept, unsure
    line("f1", "who proposed it?", True, "Who proposed Adam?"),  # rewritten, key words kept
    line("f2", "why?", True, "Why does Adam use bias correction?", domain="spec"),  # rewritten, key words lost
    line("f3", "and AdaMax?", True, "What is AdaMax?"),  # not rewritten: adds no key word, so kept; unsure
]
REWRITES = {"Why does Adam scale its step?": ("Why does Adam scale Adam's step?", "local", True),
            "who proposed it?": ("who proposed Adam?", "local", True),
            "why?": ("why? (about Adam)", "local", True),
            "and AdaMax?": ("and AdaMax?", "unchanged", False),
            "What does it say about AdaGrad?": ("What does it say about AdaGrad?", "unchanged", False)}


def fake(question, history):
    return REWRITES.get(question, (question, "unchanged", True))


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.jsonl"
    path.write_text("\n".join(TINY) + "\n\n", encoding="utf-8")
    return path


def test_metrics_on_a_hand_made_set(tiny):
    rows = outcomes(load_pairs(tiny), fake)
    assert [r["rewritten"] for r in rows] == [True, False, False, True, True, False]
    assert [r["key_words"] for r in rows] == [None, None, None, True, False, True]
    s = summarize(rows)
    # rewritten: s1, f1, f2 -> 2 of 3 are follow-ups; follow-ups rewritten: f1, f2 of f1-f3
    assert s["precision"] == pytest.approx(2 / 3) and s["recall"] == pytest.approx(2 / 3)
    assert (s["standalone_rewritten"], s["standalone_rewritten_ids"]) == (1, ["s1"])
    assert (s["unsure"], s["unsure_standalone"], s["unsure_follow_ups"]) == (2, 1, 1)
    assert s["unsure_share"] == pytest.approx(2 / 6)
    assert (s["key_words"], s["key_words_share"]) == (2, pytest.approx(2 / 3))
    assert (s["pairs"], s["follow_ups"], s["standalone"], s["rewritten"]) == (6, 3, 3, 3)


def test_metrics_per_domain_and_the_table(tiny):
    summaries = by_domain(outcomes(load_pairs(tiny), fake))
    assert list(summaries) == ["paper", "spec", "all"]
    paper, spec = summaries["paper"], summaries["spec"]
    assert (paper["pairs"], paper["precision"], paper["recall"]) == (4, 0.5, 0.5)  # s1, f1 rewritten; f3 not
    assert (spec["pairs"], spec["precision"], spec["recall"], spec["unsure"]) == (2, 1.0, 1.0, 1)
    text = table(summaries)
    assert "| paper | 4 | 1 / 2 | 1 / 2 (0.50) | 0.50 | 2 / 2 | 1 (0.25) |" in text
    assert "| **all** | 6 | 1 / 3 | 2 / 3 (0.67) | 0.67 | 2 / 3 | 2 (0.33) |" in text


def test_nothing_rewritten_leaves_precision_undefined(tiny):
    s = summarize(outcomes(load_pairs(tiny), lambda q, h: (q, "unchanged", True)))
    assert s["precision"] is None and s["recall"] == 0 and s["unsure_share"] == 0
    assert "–" in table({"all": s})


def test_history_is_replayed_through_the_resolver(tmp_path):
    history = [{"question": "What is Adam?", "answer": "An optimizer."},
               {"question": "who proposed it?", "answer": "Kingma and Ba."}]
    path = tmp_path / "chain.jsonl"
    path.write_text(line("c1", "why?", True, "Why was Adam proposed?", history=history), encoding="utf-8")
    seen = []

    def record(question, turns):
        seen.append((question, [t.resolved for t in turns]))
        return fake(question, turns)

    outcomes(load_pairs(path), record)
    assert seen == [("What is Adam?", []), ("who proposed it?", ["What is Adam?"]),
                    ("why?", ["What is Adam?", "who proposed Adam?"])]


def test_key_words_are_the_expected_content_words_the_question_lacks():
    assert content_words("What are the Transformer's attention heads?") == {"transformer", "attention", "head"}
    assert key_words_kept("and for the big model?", "How many heads does the big model use?",
                          "How many attention heads does the big model use?")
    assert not key_words_kept("and for the big model?", "How many heads does the big model use?",
                              "and for the big model? (about the base model)")
    assert key_words_kept("what are its lines?", "What are the globs2 file's lines?", "what are globs2 file lines?")


@pytest.mark.parametrize("bad, message", [
    ('{"id": "x", "domain": "paper", "history": [], "question": "q?", "follow_up": false}', "missing expected"),
    (line("a", "q?", False) + "\n" + line("a", "r?", False), "duplicate id 'a'"),
])
def test_a_malformed_set_is_refused_with_its_line(tmp_path, bad, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_pairs(path)


def test_the_runner_writes_its_report_and_readme_block(tiny, tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["--set", str(tiny), "--out", str(out)]) == 0
    payload = json.loads((out / "rewrites.json").read_text(encoding="utf-8"))
    assert payload["readme"].startswith("Measured ") and "| **all** | 6 |" in payload["readme"]
    assert {r["id"] for r in payload["rows"]} == {"s1", "s2", "s3", "f1", "f2", "f3"}
    assert payload["summary"]["all"]["pairs"] == 6
    assert "# Follow-up rewriting" in (out / "rewrites.md").read_text(encoding="utf-8")
    assert "| domain |" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------------------------
# The set itself
# --------------------------------------------------------------------------------------------------------------

PRONOUN = re.compile(r"\b(?:it|its|this|they|their)\b", re.I)


def test_the_follow_up_set_has_the_promised_shape():
    pairs = load_pairs(DEFAULT_SET)
    assert len(pairs) >= 60
    standalone = [p for p in pairs if not p.follow_up]
    assert sum(bool(PRONOUN.search(p.question)) for p in standalone) >= len(pairs) / 2
    assert {p.domain for p in pairs} == {"paper", "framework", "filing", "specification"}
    for domain in ("paper", "framework", "filing", "specification"):
        assert sum(p.domain == domain for p in standalone) >= 8, domain
    for p in pairs:
        assert 1 <= len(p.history) <= 3 and all(q and a for q, a in p.history), p.id
        assert p.follow_up or p.expected == p.question, p.id
        assert not p.follow_up or p.expected != p.question, p.id
    questions = {p.question for p in pairs}
    assert "Which command must an application run after installing or modifying its XML file?" in questions
    assert "What version of the specification is this?" in questions


# --------------------------------------------------------------------------------------------------------------
# The retrieval measurement (evaluation/followup_methods.py): its counts and tables on hand-made rows
# --------------------------------------------------------------------------------------------------------------

def test_retrieval_counts_and_tables_on_hand_made_rows():
    from evaluation.followup_methods import groups, has_cue, summarize, tables

    def got(hit1, hit8, same1=False, same8=False, answer_same=False, cites_best=False, answer="a"):
        return {"hit1": hit1, "hit8": hit8, "same1": same1, "same8": same8, "answer_same": answer_same,
                "cites_best": cites_best, "answer": answer}

    rows = [  # f1 found at 1 by both; f2 found at 8 by the rules only; s1 kept by the rules, moved by the join
        {"domain": "paper", "follow_up": True, "added": False,
         "methods": {"rules": got(True, True, cites_best=True), "joined": got(True, True), "oracle": got(1, 1)}},
        {"domain": "paper", "follow_up": True, "added": True,
         "methods": {"rules": got(False, True), "joined": got(False, False), "oracle": got(1, 1)}},
        {"domain": "filing", "follow_up": False, "added": True,
         "methods": {"rules": got(True, True, True, True, True), "joined": got(False, True), "oracle": got(1, 1)}},
    ]
    parts = groups(rows)
    assert list(parts) == ["paper", "filing", "original", "added", "all"]
    rules = summarize(parts["all"], "rules")
    assert (rules["hit1"], rules["hit8"], rules["follow_ups"]) == (1, 2, 2)
    assert (rules["same1"], rules["standalone"], rules["all_hit1"], rules["cites_follow"]) == (1, 1, 2, 1)
    assert summarize(parts["all"], "joined")["all_hit8"] == 2
    text = tables({g: {n: summarize(p, n) for n in ("rules", "joined")} for g, p in parts.items()})
    assert "| method | paper (2) | filing (0) | original (1) | added (1) | all (2) |" in text
    assert "| rules | 0.50 / 1.00 | – / – | 1.00 / 1.00 | 0.00 / 1.00 | 0.50 / 1.00 |" in text
    assert has_cue("and Apple?") and has_cue("Why did they fall?") and not has_cue(
        "What dividend did Microsoft declare in the quarter?")
