"""The reading-fidelity benchmark (``evaluation.reading``): its metrics (``evaluation.fidelity``) on hand-made
strings, one measurement of a PDF built here, and the baseline path (another revision's reader, from a temporary git
worktree)."""

from __future__ import annotations

import doctest
import json
import subprocess
from pathlib import Path

import pymupdf
import pytest

from evaluation import fidelity, reading
from evaluation.fidelity import (
    matched_in_order,
    reference_text,
    replacement_characters,
    reversed_in_reference,
    run_together,
    share_in_order,
    words,
)

# Two pages of plain prose, one line a sentence; every word is a reference word.
PAGES = [
    ["Reading Fidelity Survey",
     "The harbour master counted every boat that entered the bay in April.",
     "Her ledger lists the name, the owner and the cargo of each vessel.",
     "Most boats carried salted fish, timber or barrels of lamp oil."],
    ["The second page continues the account of the spring season.",
     "Storms closed the harbour for nine days at the end of the month.",
     "When the weather cleared, the fleet sailed north to the islands."],
]


def pdf(tmp_path: Path, pages: list[list[str]] = PAGES, name: str = "survey.pdf") -> Path:
    """A PDF with one line of 11-point Helvetica per string, 20 points apart, from the top of each page."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for i, line in enumerate(lines):
            page.insert_text((72, 90 + 20 * i), line, fontsize=16 if i == 0 and lines is pages[0] else 11)
    path = tmp_path / name
    path.write_bytes(doc.tobytes())
    return path


def test_doctests():
    assert doctest.testmod(fidelity).failed == 0 and doctest.testmod(reading).failed == 0


def test_reference_text_joins_line_end_hyphens_and_drops_cid():
    raw = "Adaptive optimiza-\n tion of the \ufb01rst(cid:42) model\n\n  and  more"
    assert reference_text(raw) == "Adaptive optimization of the first model and more"


def test_words_fold_case_compatibility_forms_and_outer_punctuation():
    assert words("“Adam,” he said: ﬁne-tuned (x2) | **Bold** ...") == ["adam", "he", "said", "fine-tuned", "x2",
                                                                         "bold"]


def test_exact_copy_scores_one():
    ref = words("The quick brown fox jumps over the lazy dog.")
    assert matched_in_order(ref, ref) == len(ref) and share_in_order(ref, list(ref)) == 1.0


def test_a_missing_word_lowers_the_share_by_one_reference_word():
    ref = words("one two three four five six seven eight nine ten")
    ours = words("one two three four six seven eight nine ten")  # "five" lost
    assert share_in_order(ref, ours) == pytest.approx(9 / 10)
    assert share_in_order(ref, words("one two three four six seven eight nine")) == pytest.approx(8 / 10)


def test_words_out_of_order_count_once():
    ref = words("alpha beta gamma delta")
    assert matched_in_order(ref, words("gamma delta alpha beta")) == 2  # one half in order, not both
    assert matched_in_order(ref, words("alpha beta gamma delta alpha beta")) == 4  # a repeat adds nothing
    assert share_in_order([], words("anything")) is None


def test_a_run_together_token_is_found_and_a_real_long_word_is_not():
    ref = words("so we can correct for the discrepancy between the two estimates")
    ours = words("sowecancorrectforthediscrepancybetweenthetwo estimates")
    assert run_together(ours, ref) == ["sowecancorrectforthediscrepancybetweenthetwo"]
    assert run_together(words("so we can correct for the discrepancy between the two estimates"), ref) == []
    assert run_together(["correctfor"], ref) == ["correctfor"]
    assert run_together(["extraordinary"], ref) == []  # long, but no run of reference words
    assert run_together(["wecan"], ref) == []  # shorter than 7 letters
    assert run_together(["estimates2"], ref) == []  # not alphabetic


def test_replacement_characters_are_counted():
    assert replacement_characters("ca\ufffd\ufffde and \ufffd") == 3
    assert replacement_characters("clean text") == 0


def test_reversed_reference_words_are_recognised():
    assert reversed_in_reference(words("gniniart tsoc 0.5"), words("training cost 0.5")) == 2
    assert reversed_in_reference(words("level noon"), words("other words")) == 0


def test_score_pages_counts_a_missing_page_as_nothing_read():
    reference = ["alpha beta gamma", "delta epsilon"]
    rows = fidelity.score_pages(reference, [{"number": 1, "text": "alpha beta gamma", "reader": "x"}])
    assert [(r["number"], r["reader"], r["share"]) for r in rows] == [(1, "x", 1.0), (2, "missing", 0.0)]


def test_measurement_of_a_generated_pdf(tmp_path):
    path = pdf(tmp_path)
    report = reading.measure([path])
    doc = report["documents"][0]["after"]
    assert doc["pages"] == 2 and doc["reference_pages"] == 2
    assert doc["share"] >= 0.98 and doc["pages_under"] == 0 and doc["worst_page"]["share"] >= 0.98
    assert doc["fffd"] == 0 and doc["run_together"] == 0 and doc["run_together_examples"] == []
    assert doc["seconds"] > 0 and doc["s_per_page"] == pytest.approx(doc["seconds"] / 2)
    assert sum(doc["readers"].values()) == 2
    assert "baseline" not in report and "before" not in report["documents"][0]
    assert Path(report["ingestion"]) == reading.ROOT / "ingestion"


def test_main_writes_markdown_and_json_with_a_readme_block(tmp_path, monkeypatch):
    path = pdf(tmp_path)
    canned = {"doc": "survey", "seconds": 0.5, "cpu_seconds": 0.4, "warnings": [],
              "pages": [{"number": 1, "text": " ".join(PAGES[0]), "reader": "pymupdf4llm"},
                        {"number": 2, "text": "The second page continues", "reader": "pdfplumber"}]}
    monkeypatch.setattr(reading, "warm_up", lambda: None)
    monkeypatch.setattr(reading, "read_pdf", lambda p: canned)
    assert reading.main(["--docs", str(path), "--out", str(tmp_path / "out")]) == 0
    payload = json.loads((tmp_path / "out" / "reading.json").read_text(encoding="utf-8"))
    md = (tmp_path / "out" / "reading.md").read_text(encoding="utf-8")
    doc = payload["documents"][0]["after"]
    assert doc["pages"] == 2 and doc["readers"] == {"pymupdf4llm": 1, "pdfplumber": 1}
    assert doc["worst_page"]["number"] == 2 and doc["pages_under"] == 1
    assert doc["s_per_page"] == 0.25 and doc["cpu_s_per_page"] == 0.2
    assert payload["readme"].startswith("Measured ") and "| survey | 2 | " in payload["readme"]
    assert "| document | pages | words matched in order | pages under 0.90 | worst page |" in payload["readme"]
    assert "### survey (after)" in md and "p2 (pdfplumber)" in md


def _worktrees() -> str:
    return subprocess.run(["git", "worktree", "list"], cwd=reading.ROOT, capture_output=True, text=True).stdout


def test_the_worktree_is_removed_when_the_block_fails():
    with pytest.raises(RuntimeError, match="inside"):
        with reading.worktree("HEAD") as (tree, commit):
            assert (tree / "ingestion" / "reader.py").is_file() and len(commit) == 40
            assert str(tree) in _worktrees()
            raise RuntimeError("inside")
    assert not tree.exists() and not tree.parent.exists() and str(tree) not in _worktrees()


def test_a_baseline_process_that_dies_is_an_error_and_leaves_no_worktree():
    with pytest.raises(RuntimeError, match=r"exited \(status 1\)"):
        with reading.baseline_reader("HEAD", python="false"):  # exits at once, before any reply
            pass
    assert "reading-baseline-" not in _worktrees()


def test_json_only_writes_the_pages_read(tmp_path):
    path = pdf(tmp_path)
    assert reading.main(["--docs", str(path), "--json-only", str(tmp_path / "pages.json")]) == 0
    pages = json.loads((tmp_path / "pages.json").read_text(encoding="utf-8"))
    assert pages["ingestion"] == str(reading.ROOT / "ingestion")
    read = pages["reads"][0]
    assert [p["number"] for p in read["pages"]] == [1, 2] and "harbour master counted" in read["pages"][0]["text"]


def test_an_unknown_revision_is_refused_before_any_worktree():
    before = _worktrees()
    with pytest.raises(RuntimeError, match="rev-parse"):
        with reading.worktree("no-such-revision-xyz"):
            pass
    assert _worktrees() == before


def test_baseline_reads_with_the_revisions_own_ingestion(tmp_path):
    # About 5 s: a new interpreter imports the reader and reads the page (the slow marker is for > 15 s).
    path = pdf(tmp_path, [PAGES[0]], name="one.pdf")
    assert reading.main(["--docs", str(path), "--out", str(tmp_path / "out"), "--baseline", "HEAD"]) == 0
    payload = json.loads((tmp_path / "out" / "reading.json").read_text(encoding="utf-8"))
    baseline = payload["baseline"]
    tree = Path(baseline["ingestion"]).parent
    assert tree.name == "tree" and tree.parent.name.startswith("reading-baseline-")  # the worktree's, not ours
    assert not tree.exists() and str(tree) not in _worktrees()  # removed afterwards
    assert baseline["commit"] == subprocess.run(["git", "rev-parse", "HEAD"], cwd=reading.ROOT, capture_output=True,
                                                text=True).stdout.strip()
    doc = payload["documents"][0]
    assert doc["before"]["pages"] == doc["after"]["pages"] == 1
    assert doc["before"]["share"] >= 0.98 and doc["before"]["fffd"] == 0
    assert doc["s_per_page_ratio"] == pytest.approx(doc["after"]["s_per_page"] / doc["before"]["s_per_page"])
    assert "| before (HEAD) |" in payload["readme"] and "s/page after / before" in payload["readme"]
