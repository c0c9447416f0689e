"""The PostgreSQL benchmark (:mod:`evaluation.bench_pg`) on a tiny collection against the test run's PostgreSQL:
300 passages in documents of 100, 5 queries, both stores, the HNSW index made after the load; its report; and
(slow) one document indexed by one worker process."""

from __future__ import annotations

import numpy as np
import pytest

from evaluation import bench_pg
from evaluation.bench_retrieval import QUESTIONS

SIZE, QUERIES, DOC = 300, 5, 100


def test_space_draws_the_same_documents_again_with_closer_passages_within_a_document():
    space = bench_pg.Space(doc=DOC)
    record, chunks, vectors, sentences = space.document(1)
    again = space.document(1)[2]
    other = space.document(2)[2]
    assert len(chunks) == record.chunks == DOC and vectors.shape == (DOC, bench_pg.DIM)
    assert np.array_equal(vectors, again)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert sentences.vectors.shape == (5 * DOC, bench_pg.DIM) and sentences.vectors.dtype == np.float16
    within, across = float((vectors @ vectors.T).mean()), float((vectors @ other.T).mean())
    assert 0.35 < within < 0.75 and 0.0 < across < 0.35 and within > across + 0.2
    queries = space.queries(4, docs=3)
    assert [kind for _, _, kind in queries] == ["near", "new", "near", "new"]
    assert all(tokens for _, tokens, _ in queries)


def test_a_tiny_run_reports_latency_recall_and_the_same_hits_in_both_stores(database_url):
    report = bench_pg.run([SIZE], QUERIES, database_url, workers_docs=0, local_max=SIZE, defer_from=SIZE, doc=DOC)

    loads = {r["store"]: r for r in report["load"]}
    assert set(loads) == {"postgres", "local"}
    assert loads["postgres"]["deferred_index"] and loads["postgres"]["index_s"] > 0
    assert loads["postgres"]["database_mb"] > 0 and loads["local"]["rss_mb"] is not None
    for row in loads.values():
        assert row["size"] == SIZE and row["load_s"] > 0 and row["add_one_s"] > 0 and row["remove_one_s"] > 0

    assert {r["store"] for r in report["latency"]} == {"postgres", "local"}
    for row in report["latency"]:
        for call in ("semantic", "keyword", "hybrid"):
            assert 0 < row[call]["p50_ms"] <= row[call]["p95_ms"], (row["store"], call)
        assert 0.5 < row["keyword_matching"] <= 1  # bench_retrieval's 41 words: almost every passage matches

    (recall,) = report["recall"]
    assert recall["size"] == SIZE and 0 < recall["exact"]["p50_ms"] <= recall["exact"]["p95_ms"]
    assert recall["same_as_local"] == QUERIES and recall["same_keyword_as_local"] == len(QUESTIONS)
    assert set(recall["ef"]) == {str(ef) for ef in bench_pg.EF_SEARCH}
    for row in recall["ef"].values():
        assert 0 <= row["recall_near"] <= 1 and 0 <= row["recall_new"] <= 1 and 0 <= row["recall"] <= 1
        assert 0 < row["p50_ms"] <= row["p95_ms"]
    assert recall["ef"]["400"]["recall"] >= 0.9  # 300 passages: the graph finds nearly all
    assert recall["smallest_ef"] in (*bench_pg.EF_SEARCH, None)
    assert report["chosen_ef_search"] == recall["smallest_ef"]
    assert report["load_average"] is None or len(report["load_average"]) == 3

    text = bench_pg.markdown(report)
    same = f"| 300 | {recall['exact']['p50_ms']:.1f} | {QUERIES}/{QUERIES} | {len(QUESTIONS)}/{len(QUESTIONS)} |"
    for line in ("| 300 | local | 0.", "| 300 | postgres | 0.", "| 300 | postgres | exact |",
                 "| 300 | local | exact (FAISS) |", "ef 400: recall (near / new), ms", "load average (1/5/15", same):
        assert line in text, line
    assert "## Indexing through workers" not in text


@pytest.mark.slow
def test_one_worker_indexes_a_queued_document(database_url, tmp_path):
    row = bench_pg.ingest(database_url, workers=1, docs=1, folder=tmp_path)
    assert row["documents"] == 1 and row["pages"] == 3
    assert row["seconds"] > 0 and row["pages_per_min"] == pytest.approx(3 * row["documents_per_min"])
