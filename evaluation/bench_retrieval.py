"""Retrieval latency and index memory at 1k, 10k and 100k chunks, through the product's store and searcher.

    python -m evaluation.bench_retrieval [--sizes 1000 10000 100000] [--queries 50]

Passages are synthetic (sentences drawn from a fixed vocabulary) with random unit vectors, so the numbers measure
FAISS, BM25 and fusion, not the embedding of a corpus; each question is embedded for real by the bundled model.
Writes ``evaluation/results/bench_retrieval.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import psutil

from ingestion.chunking import Chunk
from retrieval.embedder import Embedder
from retrieval.searcher import Searcher
from retrieval.store import DocumentRecord, LocalStore

HERE = Path(__file__).resolve().parent
WORDS = ("risk model gradient optimizer attention layer bias governance measure manage trust data privacy "
         "security learning rate moment estimate decoder encoder token sequence training evaluation system "
         "framework policy impact fairness robustness transparency accountability validation testing").split()
QUESTIONS = ["How is the learning rate adjusted?", "What does the framework say about privacy?",
             "Which layers does the encoder use?", "How is bias measured and managed?",
             "What is estimated by the moment terms?"]


def synthetic_document(n: int, dim: int, rng: np.random.Generator) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
    chunks = []
    for i in range(n):
        text = " ".join(rng.choice(WORDS, size=int(rng.integers(60, 140)))) + "."
        chunks.append(Chunk(f"bench-rc-p{i // 5 + 1}-c{i % 5 + 1}", "bench", "bench.pdf", i // 5 + 1, "", text, 0,
                            len(text)))
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    record = DocumentRecord("bench", "bench.pdf", "bench", "sha", n // 5 + 1, n, time.time())
    return record, chunks, vectors


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def run(sizes: list[int], queries: int) -> dict:
    embedder = Embedder()
    process = psutil.Process(os.getpid())
    rows = []
    for n in sizes:
        rng = np.random.default_rng(n)
        with tempfile.TemporaryDirectory() as tmp:
            before = process.memory_info().rss
            store = LocalStore(Path(tmp), embedder.dim)
            t0 = time.perf_counter()
            store.add_document(*synthetic_document(n, embedder.dim, rng))
            build = time.perf_counter() - t0
            rss = process.memory_info().rss - before
            searcher = Searcher(store, embedder)
            for mode in ("hybrid", "semantic", "keyword"):
                searcher.search(QUESTIONS[0], "bench", mode=mode)  # warm-up
                total, keyword, semantic = [], [], []
                for i in range(queries):
                    q = QUESTIONS[i % len(QUESTIONS)]
                    t = time.perf_counter()
                    result = searcher.search(q, "bench", top_k=5, mode=mode)
                    total.append(time.perf_counter() - t)
                    keyword.append(result.timings["keyword"])
                    semantic.append(result.timings["embed_and_semantic"])
                rows.append({"chunks": n, "mode": mode, "p50_ms": 1000 * percentile(total, 50),
                             "p95_ms": 1000 * percentile(total, 95),
                             "keyword_p50_ms": 1000 * percentile(keyword, 50),
                             "embed_and_semantic_p50_ms": 1000 * percentile(semantic, 50),
                             "index_build_s": build, "index_rss_mb": rss / 2**20})
                print(f"{n:>7} chunks {mode:>8}: p50 {rows[-1]['p50_ms']:.1f} ms, p95 {rows[-1]['p95_ms']:.1f} ms")
            del store, searcher
    return {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
            "queries": queries, "rows": rows}


def markdown(report: dict) -> str:
    lines = ["# Retrieval latency by index size", "", f"- date: {report['date']}", f"- machine: {report['machine']}",
             f"- {report['queries']} questions per row, top_k 5, 50 candidates per side; synthetic passages with "
             "random unit vectors; questions embedded by the bundled model", "",
             "| chunks | mode | p50 ms | p95 ms | of it: embed + FAISS p50 ms | BM25 p50 ms | index build s | "
             "index memory MB |", "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in report["rows"]:
        lines.append(f"| {r['chunks']} | {r['mode']} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | "
                     f"{r['embed_and_semantic_p50_ms']:.1f} | {r['keyword_p50_ms']:.1f} | {r['index_build_s']:.1f} | "
                     f"{r['index_rss_mb']:.0f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.bench_retrieval", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    report = run(args.sizes, args.queries)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench_retrieval.json").write_text(json.dumps(report, indent=2))
    (args.out / "bench_retrieval.md").write_text(markdown(report))
    print(markdown(report))


if __name__ == "__main__":
    main()
