"""Evaluation metrics, gold loading and the evaluation runner's wiring, on hand-checked cases.

Expected values are worked out in the test itself so a reader can verify them without running anything.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from evaluation import eval as runner
from evaluation import harness
from evaluation.gold import GoldFormatError, GoldQuestion, load_gold
from evaluation.metrics import (
    abstention_rates,
    first_relevant_rank,
    ingestion_cost,
    is_relevant,
    markdown_table,
    mrr,
    normalize_for_match,
    page_hit_at_1,
    recall_at_k,
    summarize,
)

SHARED_GOLD = Path("/work/shared/eval/gold-dev.jsonl")


# --- ranks: recall@k and MRR -------------------------------------------------------------------------------

def test_recall_and_mrr_on_the_reference_example():
    ranks = [1, 3, None, 2]
    # Within top 1: only the first question. Within top 3: questions 1, 2 and 4.
    assert recall_at_k(ranks, 1) == pytest.approx(1 / 4)
    assert recall_at_k(ranks, 2) == pytest.approx(2 / 4)
    assert recall_at_k(ranks, 3) == pytest.approx(3 / 4)
    assert recall_at_k(ranks, 8) == pytest.approx(3 / 4)
    assert mrr(ranks) == pytest.approx((1 + 1 / 3 + 0 + 1 / 2) / 4)


def test_rank_equal_to_k_counts_and_rank_k_plus_one_does_not():
    # Catches `<` for `<=` and a k shifted by one in either direction.
    assert recall_at_k([3], 3) == 1.0
    assert recall_at_k([3], 2) == 0.0
    assert recall_at_k([4], 3) == 0.0
    assert recall_at_k([8], 8) == 1.0
    assert recall_at_k([9], 8) == 0.0


def test_rank_one_is_the_top_passage_and_rank_zero_is_rejected():
    assert recall_at_k([1], 1) == 1.0
    assert mrr([1]) == 1.0
    assert mrr([2]) == 0.5
    # A 0-based index leaking in would otherwise count as a hit at every k (and divide by zero in MRR).
    with pytest.raises(ValueError, match="1-based"):
        recall_at_k([0], 1)
    with pytest.raises(ValueError, match="1-based"):
        mrr([1, 0])
    with pytest.raises(ValueError, match="1-based"):
        recall_at_k([-1], 5)
    with pytest.raises(ValueError, match="1-based"):
        recall_at_k([True], 5)


def test_k_and_cutoff_must_be_positive():
    with pytest.raises(ValueError, match="k must be"):
        recall_at_k([1], 0)
    with pytest.raises(ValueError, match="cutoff"):
        mrr([1], cutoff=0)


def test_mrr_cutoff_drops_ranks_beyond_it():
    ranks = [1, 3, None, 2]
    # Cut at 2: the rank-3 question now contributes 0.
    assert mrr(ranks, cutoff=2) == pytest.approx((1 + 0 + 0 + 1 / 2) / 4)
    # Cut exactly at the largest rank: nothing changes.
    assert mrr(ranks, cutoff=3) == pytest.approx(mrr(ranks))


def test_no_questions_gives_none_not_zero():
    assert recall_at_k([], 5) is None
    assert mrr([]) is None
    assert page_hit_at_1([], []) is None


def test_all_misses_give_zero():
    assert recall_at_k([None, None], 8) == 0.0
    assert mrr([None, None]) == 0.0


# --- matching evidence -------------------------------------------------------------------------------------

def test_normalize_collapses_whitespace_and_case():
    assert normalize_for_match("  Closely\n related\t\tto  ADAM ") == "closely related to adam"


def test_normalize_folds_ligatures_and_removes_cid_placeholders():
    assert normalize_for_match("inﬁnity") == "infinity"  # U+FB01 LATIN SMALL LIGATURE FI
    assert normalize_for_match("eﬀective") == "effective"  # U+FB00 LATIN SMALL LIGATURE FF
    assert normalize_for_match("ef(cid:3)cient and (cid:12) fast") == "efcient and fast"


def test_normalize_treats_table_pipes_as_spaces():
    assert normalize_for_match("| GOVERN 1.7: | Processes are |") == "govern 1.7: processes are"
    assert normalize_for_match("a｜b") == "a b"  # full-width pipe becomes "|" under NFKC, then a space


def test_is_relevant_across_line_breaks_case_and_ligatures():
    passage = "The method is\nCLOSELY related to Adam is RMSProp, based on the inﬁnity norm."
    assert is_relevant(passage, ["closely related to Adam is RMSProp"])
    assert is_relevant(passage, ["based on the infinity norm"])


def test_is_relevant_across_table_cells():
    passage = "| Model | BLEU |\n|---|---|\n| Transformer (big) | 28.4 |"
    assert is_relevant(passage, ["Transformer (big) 28.4"])


def test_is_relevant_needs_the_whole_evidence_string():
    assert not is_relevant("establishing a trust region", ["establishing a trust region around the current"])
    assert not is_relevant("trust-region methods", ["trust region"])


def test_any_one_evidence_string_is_enough():
    assert is_relevant("beta two is 0.98", ["not here", "0.98"])


def test_empty_or_blank_evidence_is_never_relevant():
    # "" is a substring of every string; without a guard every passage would count.
    assert not is_relevant("any passage at all", [])
    assert not is_relevant("any passage at all", [""])
    assert not is_relevant("any passage at all", ["   \n"])
    assert not is_relevant("", [])


def test_first_relevant_rank_is_one_based():
    passages = ["nothing here", "the infinity norm", "infinity norm again"]
    assert first_relevant_rank(passages, ["infinity norm"]) == 2
    assert first_relevant_rank(["the infinity norm"], ["infinity norm"]) == 1
    assert first_relevant_rank(passages, ["absent"]) is None
    assert first_relevant_rank([], ["infinity norm"]) is None
    assert first_relevant_rank(passages, []) is None


def test_first_relevant_rank_accepts_a_one_shot_iterable_of_evidence():
    # Evidence is checked against every passage; a generator must not be exhausted by the first one.
    passages = ["nothing", "nothing", "target text"]
    assert first_relevant_rank(passages, (e for e in ["target"])) == 3


# --- page hit ----------------------------------------------------------------------------------------------

def test_page_hit_requires_the_right_document_and_page():
    top = [("adam", 5), ("attention", 5), None, ("nist", 27), ("nist", 28)]
    gold = [("adam", [5]), ("adam", [5]), ("adam", [5]), ("nist", [28]), ("nist", [26, 28])]
    # Hits: question 1 (same doc and page) and question 5 (page 28 is one of the gold pages).
    # Misses: right page of the wrong doc, nothing returned, neighbouring page.
    assert page_hit_at_1(top, gold) == pytest.approx(2 / 5)


def test_page_hit_rejects_misaligned_inputs():
    with pytest.raises(ValueError):
        page_hit_at_1([("adam", 1)], [])


# --- abstention --------------------------------------------------------------------------------------------

def test_abstention_rates_split_by_answerability():
    abstained = [True, False, True, False, False]
    answerable = [False, False, True, True, True]
    rates = abstention_rates(abstained, answerable)
    assert rates["abstain_on_unanswerable"] == pytest.approx(1 / 2)  # 1 of the 2 unanswerable
    assert rates["false_abstention"] == pytest.approx(1 / 3)  # 1 of the 3 answerable


def test_abstention_rate_of_an_empty_group_is_none():
    assert abstention_rates([False, True], [True, True]) == {
        "abstain_on_unanswerable": None,
        "false_abstention": 0.5,
    }
    assert abstention_rates([True], [False]) == {"abstain_on_unanswerable": 1.0, "false_abstention": None}
    assert abstention_rates([], []) == {"abstain_on_unanswerable": None, "false_abstention": None}


def test_abstention_rejects_misaligned_inputs():
    with pytest.raises(ValueError):
        abstention_rates([True], [True, False])


# --- summary and table -------------------------------------------------------------------------------------

def _row(kind, rank, top, doc="adam", pages=(3,), abstained=False):
    return {
        "kind": kind, "answerable": kind != "unanswerable", "rank": rank, "doc": doc, "pages": list(pages),
        "top_doc": top[0] if top else None, "top_page": top[1] if top else None, "abstained": abstained,
    }


ROWS = [
    _row("lexical", 1, ("adam", 3)),
    _row("lexical", 4, ("adam", 2)),
    _row("paraphrase", None, ("nist", 3), abstained=True),
    _row("unanswerable", None, ("adam", 7), pages=(), abstained=True),
]


def test_summarize_per_kind():
    summary = summarize(ROWS)
    assert list(summary["by_kind"]) == ["lexical", "paraphrase", "unanswerable"]

    lexical = summary["by_kind"]["lexical"]  # ranks [1, 4]
    assert lexical["n"] == 2 and lexical["n_answerable"] == 2
    assert lexical["recall@1"] == pytest.approx(1 / 2)
    assert lexical["recall@3"] == pytest.approx(1 / 2)
    assert lexical["recall@5"] == pytest.approx(2 / 2)
    assert lexical["recall@8"] == pytest.approx(2 / 2)
    assert lexical["mrr"] == pytest.approx((1 + 1 / 4) / 2)
    assert lexical["page_hit@1"] == pytest.approx(1 / 2)  # page 3 hit, page 2 miss
    assert lexical["false_abstention"] == 0.0
    assert lexical["abstain_on_unanswerable"] is None

    paraphrase = summary["by_kind"]["paraphrase"]  # page 3 but of the wrong document
    assert paraphrase["page_hit@1"] == 0.0 and paraphrase["false_abstention"] == 1.0

    unanswerable = summary["by_kind"]["unanswerable"]  # nothing to retrieve: retrieval metrics do not apply
    assert unanswerable["n"] == 1 and unanswerable["n_answerable"] == 0
    assert unanswerable["recall@1"] is None and unanswerable["mrr"] is None and unanswerable["page_hit@1"] is None
    assert unanswerable["abstain_on_unanswerable"] == 1.0 and unanswerable["false_abstention"] is None


def test_summarize_overall_counts_retrieval_over_answerable_questions_only():
    overall = summarize(ROWS)["overall"]  # answerable ranks [1, 4, None]
    assert overall["n"] == 4 and overall["n_answerable"] == 3
    assert overall["recall@1"] == pytest.approx(1 / 3)
    assert overall["recall@5"] == pytest.approx(2 / 3)
    assert overall["mrr"] == pytest.approx((1 + 1 / 4 + 0) / 3)
    assert overall["page_hit@1"] == pytest.approx(1 / 3)
    assert overall["abstain_on_unanswerable"] == 1.0
    assert overall["false_abstention"] == pytest.approx(1 / 3)


def test_summarize_mrr_is_cut_at_the_largest_k():
    # A rank of 10 is beyond recall@8, so MRR@8 must not count it either.
    assert summarize([_row("lexical", 10, None)])["overall"]["mrr"] == 0.0


def test_summarize_accepts_rows_read_back_from_json():
    assert summarize(json.loads(json.dumps(ROWS))) == summarize(ROWS)


def test_markdown_table_layout():
    table = markdown_table(summarize(ROWS))
    lines = table.splitlines()
    assert lines[0] == (
        "| kind | n | recall@1 | recall@3 | recall@5 | recall@8 | MRR@8 | page_hit@1 | abstain (unanswerable) "
        "| false abstention |"
    )
    assert [line.split("|")[1].strip() for line in lines[2:]] == ["lexical", "paraphrase", "unanswerable", "all"]
    assert lines[2] == "| lexical | 2 | 0.500 | 0.500 | 1.000 | 1.000 | 0.625 | 0.500 | – | 0.000 |"
    assert lines[-1].startswith("| all | 4 | 0.333 |")
    assert all(line.count("|") == lines[0].count("|") for line in lines)


# --- ingestion cost ----------------------------------------------------------------------------------------

def test_ingestion_cost():
    cost = ingestion_cost([
        {"pages": 10, "seconds": 20.0, "timings": {"read": 5.0, "embed": 12.0}},
        {"pages": 5, "seconds": 10.0, "timings": {"embed": 3.0}},
    ])
    assert cost["pages"] == 15
    assert cost["seconds_per_page"] == pytest.approx(30 / 15)
    assert cost["embed_share"] == pytest.approx((12 + 3) / 30)
    assert ingestion_cost([]) == {"pages": 0, "seconds": 0.0, "seconds_per_page": None, "embed_share": None}


# --- gold file ---------------------------------------------------------------------------------------------

GOOD = {
    "id": "q1", "doc": "adam", "kind": "lexical", "question": "What is AdaMax?",
    "evidence": ["a variant of Adam"], "pages": [1, 9], "answer": "A variant.", "split": "dev",
}
UNANSWERABLE = {**GOOD, "id": "u1", "kind": "unanswerable", "evidence": [], "pages": [], "answer": ""}


def _write(tmp_path, *lines):
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def test_load_gold_reads_questions_and_skips_blank_lines(tmp_path):
    questions = load_gold(_write(tmp_path, GOOD, "", UNANSWERABLE))
    assert questions == [
        GoldQuestion("q1", "adam", "lexical", "What is AdaMax?", ("a variant of Adam",), (1, 9), "A variant.", "dev"),
        GoldQuestion("u1", "adam", "unanswerable", "What is AdaMax?", (), (), "", "dev"),
    ]
    assert questions[0].answerable and not questions[1].answerable


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ('{"id": "q2", "doc": ', "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ({k: v for k, v in GOOD.items() if k != "evidence"} | {"id": "q2"}, "missing field(s) evidence"),
        ({**GOOD, "id": "q2", "kind": "trick"}, "'kind' is 'trick'"),
        ({**GOOD, "id": "q2", "pages": [0]}, "1-based page numbers"),
        ({**GOOD, "id": "q2", "pages": [True]}, "1-based page numbers"),
        ({**GOOD, "id": "q2", "pages": "5"}, "'pages' must be"),
        ({**GOOD, "id": "q2", "evidence": "a variant"}, "'evidence' must be"),
        ({**GOOD, "id": "q2", "evidence": [" "]}, "blank string"),
        ({**GOOD, "id": "q2", "evidence": []}, "needs at least one 'evidence'"),
        ({**UNANSWERABLE, "id": "q2", "evidence": ["x"]}, "must have empty 'evidence'"),
        (GOOD, "id 'q1' already used on line 1"),
    ],
)
def test_malformed_gold_line_names_line_and_problem(tmp_path, bad_line, message):
    path = _write(tmp_path, GOOD, bad_line)
    with pytest.raises(GoldFormatError) as err:
        load_gold(path)
    assert f"{path}:2:" in str(err.value)
    assert message in str(err.value)


def test_empty_gold_file_is_an_error(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text("\n")
    with pytest.raises(GoldFormatError, match="no questions"):
        load_gold(path)


@pytest.mark.skipif(not SHARED_GOLD.exists(), reason="shared gold set not present")
def test_shared_dev_set_loads():
    questions = load_gold(SHARED_GOLD)
    assert len(questions) == 55
    kinds = [q.kind for q in questions]
    assert (kinds.count("lexical"), kinds.count("paraphrase"), kinds.count("unanswerable")) == (19, 31, 5)
    assert {q.doc for q in questions} == {"adam", "attention", "nist"}


# --- runner wiring, against a stand-in with the pipeline's API ---------------------------------------------

class FakePipeline:
    """Returns canned passages and records how it was called.

    ``wrap`` puts the passage fields in a ``chunk`` attribute of each hit, as the product's searcher does.
    """

    def __init__(self, wrap=False):
        self.calls = []
        self.reranks = []
        self.wrap = wrap

    def search(self, question, collection="default", doc_ids=None, top_k=5, mode="hybrid", rerank=True):
        self.calls.append(("search", collection, doc_ids, top_k, mode))
        self.reranks.append(("search", rerank))
        hits = [
            SimpleNamespace(text="unrelated", page=2, doc_id="id-nist", filename="nist.pdf", chunk_id="n1", score=0.9),
            SimpleNamespace(text="A variant of\nAdam based on the inﬁnity norm", page=9, doc_id="id-adam",
                            filename="adam.pdf", chunk_id="a1", score=0.5),
        ]
        if self.wrap:
            hits = [SimpleNamespace(chunk=h, score=h.score, rank=i) for i, h in enumerate(hits, start=1)]
        return SimpleNamespace(hits=hits[:top_k], confidence=0.7)

    def answer(self, question, collection="default", doc_ids=None, top_k=5, mode="hybrid", rerank=True):
        self.calls.append(("answer", collection, doc_ids, top_k, mode))
        self.reranks.append(("answer", rerank))
        cite = SimpleNamespace(doc_id="id-adam", page=9, chunk_id="a1")
        return SimpleNamespace(answer="A variant.", abstained=False, sources=[], citations=[cite], confidence=0.6)


@pytest.mark.parametrize("wrap", [False, True], ids=["flat-hits", "chunk-hits"])
def test_runner_ranks_maps_documents_and_scopes_searches(wrap):
    fake = FakePipeline(wrap)
    question = GoldQuestion("q1", "adam", "lexical", "What is AdaMax?", ("based on the infinity norm",), (1, 9),
                            "", "dev")
    doc_ids = {"adam": "id-adam", "nist": "id-nist"}

    [row] = runner.evaluate(fake, [question], doc_ids, mode="keyword", scope="doc", top_k=5)
    assert row["rank"] == 2
    assert (row["top_doc"], row["top_page"]) == ("nist", 2)  # doc_id mapped back to the gold doc name
    assert row["citations"] == [{"doc": "adam", "page": 9, "chunk_id": "a1"}]
    assert [h["score"] for h in row["hits"]] == [0.9, 0.5]
    # Searches at least 8 deep for recall@8; the answer gets the requested top_k; doc scope passes the doc's id.
    assert fake.calls == [("search", "eval", ["id-adam"], 8, "keyword"), ("answer", "eval", ["id-adam"], 5, "keyword")]
    json.dumps(row)  # rows are written as JSON
    assert summarize([row])["overall"]["recall@1"] == 0.0

    fake.calls.clear()
    runner.evaluate(fake, [question], doc_ids, mode="hybrid", scope="collection", top_k=12)
    assert fake.calls == [("search", "eval", None, 12, "hybrid"), ("answer", "eval", None, 12, "hybrid")]


def test_runner_passes_the_rerank_choice_to_search_and_answer():
    # The grid's rerank-off rows must skip the cross-encoder in both calls, whatever the pipeline's default.
    fake = FakePipeline()
    question = GoldQuestion("q1", "adam", "lexical", "What is AdaMax?", ("infinity norm",), (9,), "", "dev")
    runner.evaluate(fake, [question], {"adam": "id-adam", "nist": "id-nist"}, mode="hybrid", scope="doc", top_k=5,
                    rerank=False, quiet=True)
    assert fake.reranks == [("search", False), ("answer", False)]
    fake.reranks.clear()
    runner.evaluate(fake, [question], {"adam": "id-adam", "nist": "id-nist"}, mode="hybrid", scope="doc", top_k=5,
                    quiet=True)
    assert fake.reranks == [("search", True), ("answer", True)]


def test_runner_cache_key_ignores_location_and_report_hides_the_key():
    settings_module = pytest.importorskip("settings")
    base = settings_module.Settings(index_samples=False, groq_api_key="secret-value")
    moved = settings_module.Settings(index_samples=False, data_dir=Path("/elsewhere"), answer_threshold=0.9)
    rechunked = settings_module.Settings(index_samples=False, chunk_size=500)
    assert harness.settings_digest(base) == harness.settings_digest(moved)
    assert harness.settings_digest(base) != harness.settings_digest(rechunked)
    reported = harness.reported_settings(base)
    assert "secret-value" not in json.dumps(reported) and reported["llm"] is True


def test_runner_rejects_out_of_range_top_k():
    with pytest.raises(SystemExit):
        runner.parse_args(["--top-k", "0"])


class FakeIngester:
    """Indexes by content hash like the product: a second upload of the same bytes is a duplicate."""

    def __init__(self):
        self.seen = set()

    def ingest(self, data, filename, collection="default", here=False):
        duplicate = data in self.seen
        self.seen.add(data)
        timings = {} if duplicate else {"read": 1.0, "embed": 3.0}
        return SimpleNamespace(doc_id=f"id-{filename}", pages=2, chunks=5, seconds=0.01 if duplicate else 4.0,
                               timings=timings, duplicate=duplicate)


def test_runner_keeps_ingestion_timings_measured_when_the_store_was_built(tmp_path):
    (tmp_path / "adam.pdf").write_bytes(b"adam bytes")
    record = tmp_path / "cache" / "key.ingest.json"
    fake = FakeIngester()

    first = harness.ingest_docs(fake, ["adam"], tmp_path, record)
    assert first["adam"]["seconds"] == 4.0 and not first["adam"]["reused"]
    # The re-upload takes 0.01 s; reporting that as ingestion cost would be wrong.
    again = harness.ingest_docs(fake, ["adam"], tmp_path, record)
    assert again["adam"]["seconds"] == 4.0 and again["adam"]["reused"]
    assert ingestion_cost(again.values())["seconds_per_page"] == pytest.approx(4.0 / 2)

    record.unlink()  # store kept, timings lost: say "unknown" rather than near zero
    lost = harness.ingest_docs(fake, ["adam"], tmp_path, record)
    assert lost["adam"]["seconds"] is None and lost["adam"]["doc_id"] == "id-adam.pdf"


def test_runner_reports_a_missing_gold_pdf(tmp_path):
    with pytest.raises(SystemExit, match="not found"):
        harness.ingest_docs(FakeIngester(), ["nist"], tmp_path, tmp_path / "r.json")


# --- shared result helpers: percentiles and the README's result blocks ---------------------------------------

def test_percentile_interpolates_like_numpy_and_is_none_without_values():
    from evaluation.common import percentile

    # Sorted [10, 20, 30, 40]: the median sits halfway between 20 and 30; p95 is 40 - 0.15 * (40 - 30) = 38.5.
    assert percentile([40, 10, 30, 20], 50) == pytest.approx(25.0)
    assert percentile([40, 10, 30, 20], 95) == pytest.approx(38.5)
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_readme_blocks_are_replaced_from_their_results_and_others_left_alone(tmp_path):
    from evaluation import readme

    results = tmp_path / "results"
    results.mkdir()
    (results / "bench.json").write_text(json.dumps({"readme": "| a |\n| --- |\n| 1 |\n"}))
    (results / "old.json").write_text(json.dumps({"rows": []}))  # a run from before README blocks existed
    page = tmp_path / "README.md"
    page.write_text("intro\n<!-- results:bench -->\nstale table\n<!-- /results:bench -->\n"
                    "<!-- results:old -->\nkept\n<!-- /results:old -->\n"
                    "<!-- results:gone -->\nkept too\n<!-- /results:gone -->\nend\n")

    assert readme.main(["--readme", str(page), "--results", str(results), "--check"]) == 1
    assert readme.main(["--readme", str(page), "--results", str(results)]) == 0
    text = page.read_text()
    assert "stale table" not in text
    assert "<!-- results:bench -->\n| a |\n| --- |\n| 1 |\n<!-- /results:bench -->" in text
    assert "kept\n" in text and "kept too\n" in text and text.startswith("intro\n") and text.endswith("end\n")
    # Filling twice changes nothing, and the check now passes.
    assert readme.main(["--readme", str(page), "--results", str(results), "--check"]) == 0
