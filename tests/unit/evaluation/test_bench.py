"""The performance benchmark: the naive baseline recipe, the stand-in cross-encoder, and a small run of
``evaluation.bench`` on a generated PDF (real model, real FAISS, results written to a temporary folder)."""

from __future__ import annotations

import json
import math

import pytest

from tests.support.pdf_factory import BODY_SIZE, make_pdf

DOC = "survey"
# One fact per page; page 3 is long, so the splitter cuts it into several chunks, and its fact comes last.
FACTS = {
    1: "The lighthouse on Gull Rock was painted bright red in the spring of 1921.",
    2: "Fishing boats pay a harbour tax of four silver coins for every night in port.",
    3: "The tide gauge at Cape Sorrow was replaced by an automatic station in 1987.",
}
QUESTIONS = {
    1: "When was the lighthouse on Gull Rock painted red?",
    2: "How much harbour tax do fishing boats pay?",
    3: "When was the tide gauge at Cape Sorrow replaced?",
}
WEATHER = [f"Weather note {i}: the wind over the northern bay turned west before the evening rain."
           for i in range(1, 31)]


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    """A folder holding ``survey.pdf``: a short page 1 and 2, a long page 3 (about 2,500 characters)."""
    folder = tmp_path_factory.mktemp("bench-docs")
    pages = [[(FACTS[1], BODY_SIZE), ("Its keeper lived in a cottage beside the tower.", BODY_SIZE)],
             [(FACTS[2], BODY_SIZE), ("The harbour master collects it every morning.", BODY_SIZE)],
             [(line, BODY_SIZE) for line in WEATHER] + [(FACTS[3], BODY_SIZE)]]
    (folder / f"{DOC}.pdf").write_bytes(make_pdf(pages))
    return folder


@pytest.fixture(scope="module")
def naive(docs):
    from evaluation.naive import NaiveIndex

    return NaiveIndex.build([docs / f"{DOC}.pdf"])


def test_naive_recipe_finds_each_fact_on_its_page(naive):
    for page, question in QUESTIONS.items():
        text, doc, found_page = naive.search(question, DOC, k=3)[0]
        assert (doc, found_page) == (DOC, page) and FACTS[page] in text
    assert naive.search(QUESTIONS[2], k=1)[0].page == 2  # every document when none is named


def test_naive_chunks_follow_the_1000_200_splitter_page_by_page(naive):
    passages = naive.passages(DOC)
    assert [p.page for p in passages] == sorted(p.page for p in passages)
    assert {p.page for p in passages} == {1, 2, 3}
    long_page = [p.text for p in passages if p.page == 3]
    assert len(long_page) >= 3 and all(len(text) <= 1000 for text in long_page)
    for first, second in zip(long_page, long_page[1:]):
        assert first.splitlines()[-1] in second  # neighbours overlap (up to 200 characters)
    assert naive.documents[DOC]["pages"] == 3 and naive.documents[DOC]["chunks"] == len(passages)


def test_standin_cross_encoder_has_the_real_models_shape_and_loads_in_the_reranker(tmp_path):
    from evaluation.bench import build_standin_cross_encoder, quiet_transformers
    from retrieval.reranker import Reranker

    quiet_transformers()
    folder = build_standin_cross_encoder(tmp_path / "cross-encoder")
    config = json.loads((folder / "config.json").read_text())
    assert config["architectures"] == ["BertForSequenceClassification"]
    assert (config["num_hidden_layers"], config["hidden_size"], config["num_attention_heads"],
            config["intermediate_size"], len(config["id2label"])) == (6, 384, 12, 1536, 1)
    assert json.loads((folder / "tokenizer_config.json").read_text())["model_max_length"] == 512
    reranker = Reranker(str(folder))
    assert reranker.load(), reranker.error
    scores = reranker.scores(QUESTIONS[1], [FACTS[1], FACTS[2]])
    assert len(scores) == 2 and all(math.isfinite(s) for s in scores)


@pytest.fixture(scope="module")
def run(docs, tmp_path_factory):
    """``evaluation.bench.main`` on the generated PDF, four gold questions, 300 synthetic chunks, 3 queries."""
    from evaluation import bench

    folder = tmp_path_factory.mktemp("bench-run")
    gold = folder / "gold.jsonl"
    lines = [{"id": f"q{page}", "doc": DOC, "kind": "lexical", "question": question, "evidence": [FACTS[page]],
              "pages": [page], "answer": "", "split": "dev"} for page, question in QUESTIONS.items()]
    lines.append({"id": "q4", "doc": DOC, "kind": "unanswerable", "question": "Who founded the harbour bank?",
                  "evidence": [], "pages": [], "answer": "", "split": "dev"})
    gold.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    out = folder / "results"
    assert bench.main(["--sizes", "300", "--queries", "3", "--docs", str(docs), "--gold", str(gold),
                       "--out", str(out)]) == 0
    return (out / "bench.md").read_text(), json.loads((out / "bench.json").read_text())


def test_bench_writes_every_section(run):
    md, report = run
    for heading in ("## Product against the naive recipe", "## Ingestion", "## Second upload of the same file",
                    "## Query latency by index size", "## Memory"):
        assert heading in md
    assert report["readme"].startswith(f"Measured {report['meta']['date'][:10]} on ")
    assert "| 300 |" in report["readme"] and "naive" in report["readme"]
    assert report["meta"]["reranker_standin"] is True and "stand-in" in md


def test_ingestion_ratios_match_the_numbers_they_divide(run):
    md, report = run
    (doc,) = report["ingestion"]["documents"]
    assert (doc["doc"], doc["pages"]) == (DOC, 3) and doc["chunks"] >= 3 and doc["sentences"] > 0
    assert doc["wall_s"] > 0 and doc["bare_embed_s"] > 0 and doc["sentence_embed_s"] > 0
    assert doc["x_bare"] == pytest.approx(doc["wall_s"] / doc["bare_embed_s"])
    assert doc["s_per_page"] == pytest.approx(doc["wall_s"] / 3)
    assert doc["x_bare_and_sentences"] == pytest.approx(doc["wall_s"] / (doc["bare_embed_s"] + doc["sentence_embed_s"]))
    assert f"| {doc['x_bare']:.1f}x |" in md
    assert report["ingestion"]["total"]["x_bare"] == pytest.approx(doc["x_bare"])
    naive = report["naive_ingestion"]["total"]
    assert naive["pages"] == 3 and naive["s_per_page"] == pytest.approx(naive["seconds"] / 3)


def test_second_upload_is_recognised_and_reuses_vectors(run):
    _, report = run
    (upload,) = report["second_upload"]
    first = report["ingestion"]["documents"][0]
    assert upload["duplicate"] is True
    assert 0 < upload["same_collection_s"] < upload["first_s"] == first["wall_s"]
    assert upload["speedup_same"] == pytest.approx(upload["first_s"] / upload["same_collection_s"])
    # Another collection gets a copy: nothing read or embedded again.
    assert list(upload["other_collection_timings"]) == ["copy"]
    assert upload["other_collection_s"] < upload["first_s"]


def test_quality_and_latency_of_both_recipes(run):
    _, report = run
    for who in ("product", "naive"):
        overall = report["quality"][who]["overall"]
        assert overall["n_answerable"] == 3
        assert all(0 <= overall[m] <= 1 for m in ("recall@1", "recall@8", "mrr", "page_hit@1"))
        assert overall["recall@8"] == 1.0  # a three-page document: every fact is within reach
    latency = report["latency_documents"]
    for key in ("product", "product_rerank", "answer", "naive"):
        assert latency[key]["n"] == 4 and 0 < latency[key]["p50_ms"] <= latency[key]["p95_ms"]


def test_latency_by_size_and_memory(run):
    _, report = run
    (row,) = report["sizes"]
    assert row["chunks"] == 300 and row["build_s"] > 0
    assert row["plain"]["n"] == row["rerank"]["n"] == 3
    assert 0 < row["plain"]["p50_ms"] < row["rerank"]["p50_ms"]  # 20 cross-encoder passes cost more than none
    assert row["rerank"]["rerank_stage_p50_ms"] > 0 and row["plain"]["rerank_stage_p50_ms"] < 1
    memory = report["memory"]
    samples = [memory[key] for key in ("start_mb", "embedder_mb", "reranker_mb", "documents_mb")]
    samples += [row["rss_before_mb"], row["rss_after_mb"]]
    assert all(v > 0 for v in samples) and max(samples) <= memory["peak_mb"] * 1.01  # a peak is the most seen
    assert row["rss_after_mb"] == pytest.approx(row["rss_before_mb"] + row["rss_delta_mb"])
