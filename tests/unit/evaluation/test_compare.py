"""The chunking grid (evaluation.compare): configuration enumeration, rows, table and best row on hand-made
summaries, the chart, and a small end-to-end run on a generated PDF with and without a cross-encoder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation import compare
from evaluation.compare import ChunkConfig, best_row, chunk_configs, render_table, search_variants

# ---------------------------------------------------------------------------------------------------------------
# configurations and variants
# ---------------------------------------------------------------------------------------------------------------


def test_semantic_gets_one_config_per_size_whatever_the_overlaps():
    configs, skipped = chunk_configs(["fixed_size", "semantic"], [500, 1000], [0, 150])
    assert configs == [
        ChunkConfig("fixed_size", 500, 0), ChunkConfig("fixed_size", 500, 150),
        ChunkConfig("fixed_size", 1000, 0), ChunkConfig("fixed_size", 1000, 150),
        ChunkConfig("semantic", 500, None), ChunkConfig("semantic", 1000, None),
    ]
    assert skipped == []


def test_overlap_not_smaller_than_the_size_is_skipped_with_a_note():
    configs, skipped = chunk_configs(["recursive_char", "semantic"], [150, 500], [0, 150])
    assert configs == [ChunkConfig("recursive_char", 150, 0), ChunkConfig("recursive_char", 500, 0),
                       ChunkConfig("recursive_char", 500, 150), ChunkConfig("semantic", 150, None),
                       ChunkConfig("semantic", 500, None)]
    assert skipped == ["recursive_char size 150 overlap 150: skipped (overlap must be smaller than the size)"]


def test_repeated_values_give_one_config():
    configs, _ = chunk_configs(["fixed_size", "fixed_size"], [500, 500], [0, 0])
    assert configs == [ChunkConfig("fixed_size", 500, 0)]


def test_default_grid_has_fifteen_configs():
    args = compare.parse_args(["--reranker", "x"])
    configs, skipped = chunk_configs(args.strategies, args.sizes, args.overlaps)
    assert len(configs) == 15 and not skipped  # 2 strategies x 3 sizes x 2 overlaps + semantic x 3 sizes


def test_semantic_is_stored_with_overlap_zero_and_labelled_without_one():
    config = ChunkConfig("semantic", 1000, None)
    assert config.settings() == {"chunk_strategy": "semantic", "chunk_size": 1000, "chunk_overlap": 0}
    assert config.label == "semantic size 1000 overlap –"


def test_rerank_on_variants_need_loaded_weights():
    assert search_variants(["weighted", "rrf"], ["off", "on"], True) == [
        ("weighted", False), ("weighted", True), ("rrf", False), ("rrf", True)]
    assert search_variants(["weighted", "rrf"], ["off", "on"], False) == [("weighted", False), ("rrf", False)]
    assert search_variants(["rrf"], ["on"], False) == []


def test_sizes_outside_the_pipeline_limits_are_refused():
    with pytest.raises(SystemExit):
        compare.parse_args(["--sizes", "50", "--reranker", "x"])
    with pytest.raises(SystemExit):
        compare.parse_args(["--overlaps", "-1", "--reranker", "x"])


# ---------------------------------------------------------------------------------------------------------------
# rows, table, best row
# ---------------------------------------------------------------------------------------------------------------


def _summary(r1, r3, r5, mrr, abstain=0.5, false=0.25, n=6, answerable=4) -> dict:
    overall = {"n": n, "n_answerable": answerable, "recall@1": r1, "recall@3": r3, "recall@5": r5, "recall@8": r5,
               "mrr": mrr, "page_hit@1": r1, "abstain_on_unanswerable": abstain, "false_abstention": false}
    return {"by_kind": {"lexical": overall}, "overall": overall}


INGESTION = {"pages": 10, "chunks": 40, "mean_chunk_chars": 812.4, "seconds": 25.0, "seconds_per_page": 2.5}


def test_ingestion_summary_totals_and_per_page():
    records = {"a": {"pages": 4, "chunks": 10, "seconds": 6.0, "reused": False},
               "b": {"pages": 6, "chunks": 5, "seconds": 4.0, "reused": True}}
    out = compare.ingestion_summary(records, [100, 200, 300])
    assert out == {"pages": 10, "chunks": 15, "mean_chunk_chars": 200.0, "seconds": 10.0, "seconds_per_page": 1.0,
                   "unmeasured": [], "reused": True}


def test_ingestion_summary_gives_no_seconds_when_a_document_was_not_timed():
    records = {"a": {"pages": 4, "chunks": 10, "seconds": 6.0, "reused": False},
               "b": {"pages": 6, "chunks": 5, "seconds": None, "reused": True}}
    out = compare.ingestion_summary(records, [])
    assert out["seconds"] is None and out["seconds_per_page"] is None and out["unmeasured"] == ["b"]
    assert out["mean_chunk_chars"] is None


def test_grid_row_takes_acc_from_recall():
    row = compare.grid_row(ChunkConfig("fixed_size", 500, 0), "rrf", True, _summary(0.25, 0.5, 0.75, 0.4),
                           INGESTION)
    assert (row["acc@1"], row["acc@3"], row["acc@5"], row["mrr"]) == (0.25, 0.5, 0.75, 0.4)
    assert (row["fusion"], row["rerank"], row["overlap"], row["seconds_per_page"]) == ("rrf", True, 0, 2.5)
    assert row["by_kind"]["lexical"]["n"] == 6
    json.dumps(row)


def _rows() -> list[dict]:
    return [
        compare.grid_row(ChunkConfig("fixed_size", 500, 0), "weighted", False, _summary(0.5, 0.75, 1.0, 0.6),
                         INGESTION),
        compare.grid_row(ChunkConfig("fixed_size", 500, 0), "rrf", False, _summary(0.75, 0.75, 1.0, 0.8),
                         INGESTION),
        compare.grid_row(ChunkConfig("semantic", 1000, None), "weighted", False, _summary(1.0, 1.0, 1.0, 0.8),
                         {**INGESTION, "seconds": None, "seconds_per_page": None}),
    ]


def test_best_row_is_the_highest_mrr_then_acc_at_1():
    rows = _rows()
    assert best_row(rows) == 2  # ties with row 1 on MRR, wins on Acc@1
    rows[2]["acc@1"] = 0.75
    assert best_row(rows) == 1  # a full tie goes to the row listed first


def test_best_row_is_none_without_answerable_questions():
    rows = [compare.grid_row(ChunkConfig("fixed_size", 500, 0), "weighted", False,
                             _summary(None, None, None, None, answerable=0), INGESTION)]
    assert best_row(rows) is None
    assert "**" not in render_table(rows, best_row(rows))


def test_table_keeps_the_order_and_bolds_the_best_row():
    lines = render_table(_rows(), best=2).splitlines()
    assert lines[0].startswith("| strategy | size | overlap | fusion | rerank | Acc@1 | Acc@3 | Acc@5 | MRR |")
    assert len(lines) == 2 + 3
    assert lines[2] == ("| fixed_size | 500 | 0 | weighted | off | 0.50 | 0.75 | 1.00 | 0.600 | 0.50 | 0.50 | 0.25 "
                        "| 40 | 812 | 25.0 | 2.50 |")
    assert "| rrf |" in lines[3] and "**" not in lines[3]
    # semantic: no overlap; untimed ingestion shows as a dash, not a zero
    assert lines[4].startswith("| **semantic** | **1000** | **–** | **weighted** | **off** | **1.00** |")
    assert lines[4].endswith("| **–** | **–** |")


def test_chart_shows_weighted_rerank_off_rows():
    rows = _rows() + [dict(_rows()[0], rerank=True)]
    shown = compare.chart_rows(rows)
    assert [(r["strategy"], r["fusion"], r["rerank"]) for r in shown] == [("fixed_size", "weighted", False),
                                                                          ("semantic", "weighted", False)]
    only_rrf_on = [dict(r, fusion="rrf", rerank=True) for r in _rows()[:2]]
    assert compare.chart_rows(only_rrf_on) == only_rrf_on
    assert compare.chart_rows([]) == []


def test_chart_is_a_deterministic_1200_by_600_png(tmp_path):
    from PIL import Image

    first = compare.write_chart(compare.chart_rows(_rows()), tmp_path / "a.png", "grid")
    second = compare.write_chart(compare.chart_rows(_rows()), tmp_path / "b.png", "grid")
    assert first.read_bytes() == second.read_bytes()
    with Image.open(first) as image:
        assert image.format == "PNG" and image.size == (1200, 600)
    empty = compare.write_chart([], tmp_path / "empty.png", "grid")
    with Image.open(empty) as image:
        assert image.size == (1200, 600)


def test_reranker_note_says_why_reranking_was_not_measured():
    status = {"model": "hub/model", "loaded": False, "error": "reranker 'hub/model' could not be loaded (OSError)."}
    assert compare.reranker_note(status, True) == (
        "reranking: not measured — reranker 'hub/model' could not be loaded (OSError); pass --reranker PATH to a "
        "local cross-encoder folder")
    assert compare.reranker_note(dict(status, loaded=True), True) == "reranking: cross-encoder `hub/model`"
    assert "not requested" in compare.reranker_note(status, False)


# ---------------------------------------------------------------------------------------------------------------
# end to end on a generated PDF
# ---------------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gold_set(tmp_path_factory) -> tuple[Path, Path]:
    """A 3-page PDF with known facts and three gold questions about it (one unanswerable)."""
    from tests.support.pdf_factory import KNOWN_PAGE_FACTS, known_text_pdf

    folder = tmp_path_factory.mktemp("gold")
    docs = folder / "docs"
    docs.mkdir()
    (docs / "survey.pdf").write_bytes(known_text_pdf())
    questions = [
        {"id": "s-q1", "doc": "survey", "kind": "lexical", "question": "What is the capital of Freedonia?",
         "evidence": ["capital of Freedonia is Marsupia"], "pages": [2], "answer": "Marsupia", "split": "dev"},
        {"id": "s-q2", "doc": "survey", "kind": "paraphrase", "question": "When does it rain most in Marsupia?",
         "evidence": ["peaks in the month of April"], "pages": [3], "answer": "April", "split": "dev"},
        {"id": "s-q3", "doc": "survey", "kind": "unanswerable", "question": "Who is the king of Freedonia?",
         "evidence": [], "pages": [], "answer": "", "split": "dev"},
    ]
    assert KNOWN_PAGE_FACTS[2].startswith("The capital of Freedonia is Marsupia")
    gold = folder / "gold.jsonl"
    gold.write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    return gold, docs


@pytest.fixture
def ingest_calls(monkeypatch) -> list[str]:
    """The data folder of every Pipeline.ingest call."""
    from pipeline import Pipeline

    calls: list[str] = []
    real = Pipeline.ingest

    def counting(self, data, filename, *args, **kwargs):
        calls.append(str(self.settings.data_dir))
        return real(self, data, filename, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "ingest", counting)
    return calls


def _run(gold_set, tmp_path, *extra) -> dict:
    gold, docs = gold_set
    code = compare.main(["--gold", str(gold), "--docs", str(docs), "--out", str(tmp_path / "out"),
                         "--cache", str(tmp_path / "cache"), "--strategies", "recursive_char", "--sizes", "300",
                         "--overlaps", "50", "--fusions", "weighted", "rrf", *extra])
    assert code == 0
    return json.loads((tmp_path / "out" / "grid.json").read_text(encoding="utf-8"))


def _stored_documents(cache: Path) -> list[list[dict]]:
    return [json.loads(m.read_text())["documents"]
            for m in sorted(cache.glob("grid/*/collections/eval/manifest.json"))]


def test_grid_run_without_reranker_weights(gold_set, tmp_path, ingest_calls):
    from PIL import Image

    result = _run(gold_set, tmp_path, "--reranker", str(tmp_path / "no-such-model"))
    out = tmp_path / "out"
    assert {p.name for p in out.iterdir()} == {"grid.md", "grid.json", "grid.png"}
    with Image.open(out / "grid.png") as image:
        assert image.format == "PNG" and image.size == (1200, 600)

    # one config, one document: ingested once, by one of the two fusion pipelines, into one store
    assert len(ingest_calls) == 1
    stores = _stored_documents(tmp_path / "cache")
    assert len(stores) == 1 and [d["filename"] for d in stores[0]] == ["survey.pdf"]
    assert (stores[0][0]["strategy"], stores[0][0]["chunk_size"], stores[0][0]["chunk_overlap"]) == (
        "recursive_char", 300, 50)

    rows = result["rows"]
    assert [(r["fusion"], r["rerank"]) for r in rows] == [("weighted", False), ("rrf", False)]
    for row in rows:
        assert (row["strategy"], row["size"], row["overlap"], row["n"], row["n_answerable"]) == (
            "recursive_char", 300, 50, 3, 2)
        for key in ("acc@1", "acc@3", "acc@5", "mrr", "page_hit@1", "abstain_on_unanswerable", "false_abstention"):
            assert 0.0 <= row[key] <= 1.0
        assert row["acc@1"] <= row["acc@3"] <= row["acc@5"]
        assert row["ingest_seconds"] > 0 and row["seconds_per_page"] == pytest.approx(row["ingest_seconds"] / 3)
        assert row["chunks"] >= 3 and 0 < row["mean_chunk_chars"] <= 300 * 1.6
        assert set(row["questions"]) == {"s-q1", "s-q2", "s-q3"}
    assert rows[0]["questions"]["s-q1"]["rank"] is not None  # the capital sentence is found

    report = (out / "grid.md").read_text(encoding="utf-8")
    assert "reranking: not measured — reranker" in report and ".;" not in report
    assert "load average" in report
    assert "pass --reranker PATH to a local cross-encoder folder" in report
    assert "| on |" not in report
    meta = result["meta"]
    assert meta["questions"] == 3 and meta["reranker"]["loaded"] is False and meta["machine_line"] in report
    readme = result["readme"]
    assert readme.startswith(f"Measured {meta['date'][:10]} on {meta['machine_line']}, 3 questions\n")
    assert "| strategy | size |" in readme and "![Chunking grid](evaluation/results/grid.png)" in readme
    assert "reranking: not measured" in readme


def test_grid_run_with_a_local_cross_encoder(gold_set, tmp_path, ingest_calls, tiny_cross_encoder):
    result = _run(gold_set, tmp_path, "--reranker", tiny_cross_encoder)
    rows = result["rows"]
    assert [(r["fusion"], r["rerank"]) for r in rows] == [
        ("weighted", False), ("weighted", True), ("rrf", False), ("rrf", True)]
    assert len(ingest_calls) == 1
    assert result["meta"]["reranker"] == {"model": tiny_cross_encoder, "loaded": True, "error": None}
    report = (tmp_path / "out" / "grid.md").read_text(encoding="utf-8")
    assert "not measured" not in report and "| on |" in report

    # A second run reuses the store: the document is offered again, recognised, and keeps its build timings.
    again = _run(gold_set, tmp_path, "--reranker", tiny_cross_encoder, "--rerank", "off")
    assert len(ingest_calls) == 2 and len(_stored_documents(tmp_path / "cache")) == 1
    assert again["rows"][0]["ingest_seconds"] == rows[0]["ingest_seconds"]
    assert [r["rerank"] for r in again["rows"]] == [False, False]
