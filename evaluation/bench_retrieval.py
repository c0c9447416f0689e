"""Retrieval latency and index memory at 1k, 10k and 100k chunks, through the product's store and searcher.

    python -m evaluation.bench_retrieval [--sizes 1000 10000 100000] [--queries 50] [--keyword-only]

Passages are synthetic (sentences drawn from a fixed vocabulary) with random unit vectors, so the numbers measure
FAISS, BM25 and fusion, not the embedding of a corpus; each question is embedded for real by the bundled model.

A second part compares the keyword side alone, on the same passages and the same tokenised questions: rank-bm25
(``LuceneBM25.get_scores`` and the store's top-k), bm25s (:class:`Bm25sIndex`, what the store used before) and
:class:`retrieval.keyword_index.KeywordIndex` (postings in segments, scored at query time), with query p50/p95,
build time, the time to add 100 passages (a rebuild for the first two, :meth:`KeywordIndex.changed` for the last)
and the memory the index holds (tracemalloc, in a second build). It also times
:func:`retrieval.tokenize.tokenize` over the passages, and over 1,000-character windows of the bundled NIST PDF when
it is there (real text has a larger vocabulary than the synthetic one). ``--keyword-only`` runs just this part
(seconds, no embedding model) and keeps the store part of an earlier run in the results.

Writes ``evaluation/results/bench_retrieval.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import math
import os
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from itertools import chain
from pathlib import Path

import numpy as np
import psutil
from rank_bm25 import BM25Okapi

from evaluation.common import machine, machine_line, markdown_table, now, percentile, write_results
from evaluation.harness import add_arguments
from core.types import Chunk, DocumentRecord
from retrieval.keyword_index import KeywordIndex
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore, Store
from retrieval.tokenize import tokenize

HERE = Path(__file__).resolve().parent
WORDS = ("risk model gradient optimizer attention layer bias governance measure manage trust data privacy "
         "security learning rate moment estimate decoder encoder token sequence training evaluation system "
         "framework policy impact fairness robustness transparency accountability validation testing").split()
QUESTIONS = ["How is the learning rate adjusted?", "What does the framework say about privacy?",
             "Which layers does the encoder use?", "How is bias measured and managed?",
             "What is estimated by the moment terms?"]


def synthetic_texts(n: int, rng: np.random.Generator) -> list[str]:
    return [" ".join(rng.choice(WORDS, size=int(rng.integers(60, 140)))) + "." for _ in range(n)]


SENTENCES_PER_CHUNK = 5  # what the papers average at 1000-character chunks (1490 sentences / 293 chunks)


def synthetic_document(n: int, dim: int, rng: np.random.Generator, doc_id: str = "bench"):
    """A document of ``n`` synthetic chunks: record, chunks, unit vectors and sentence vectors (collection
    ``bench``)."""
    chunks = []
    for i, text in enumerate(synthetic_texts(n, rng)):
        chunks.append(Chunk(f"{doc_id}-rc-p{i // 5 + 1}-c{i % 5 + 1}", doc_id, f"{doc_id}.pdf", i // 5 + 1, "", text,
                            0, len(text)))
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    record = DocumentRecord(doc_id, f"{doc_id}.pdf", "bench", "sha" if doc_id == "bench" else f"sha-{doc_id}",
                            n // 5 + 1, n, time.time())
    owner = np.repeat(np.arange(n, dtype=np.int32), SENTENCES_PER_CHUNK)
    sentence_vectors = rng.normal(size=(len(owner), dim)).astype(np.float32)
    sentence_vectors /= np.linalg.norm(sentence_vectors, axis=1, keepdims=True)
    spans = np.zeros(len(owner), dtype=np.int32)
    return record, chunks, vectors, SentenceVectors(owner, spans, spans + 1, sentence_vectors.astype(np.float16))


def add_synthetic(store: Store, n: int, dim: int, doc_id: str = "bench", seed: int | None = None) -> float:
    """Add a document of ``n`` synthetic chunks (seeded by ``seed``, by default ``n``) to ``store``, collection
    ``bench``.

    Returns
    -------
    float
        Seconds ``store.add_document`` took. The document is made before the clock starts and dropped on return,
        so afterwards only what the store keeps of it holds memory.
    """
    document = synthetic_document(n, dim, np.random.default_rng(n if seed is None else seed), doc_id)
    t0 = time.perf_counter()
    store.add_document(*document)
    return time.perf_counter() - t0


def timed(call: Callable, inputs: Sequence, n: int, warmup: int | None = None) -> tuple[list[float], list]:
    """Time ``n`` calls of ``call``, cycling over ``inputs``, after untimed warm-up calls.

    Parameters
    ----------
    call : takes one input.
    inputs : what the calls get, in turn.
    n : timed calls.
    warmup : untimed calls first, on the first inputs; one per input when ``None``.

    Returns
    -------
    tuple[list[float], list]
        Seconds of each timed call, and what each returned.
    """
    for item in inputs[:len(inputs) if warmup is None else warmup]:
        call(item)
    times, results = [], []
    for i in range(n):
        t = time.perf_counter()
        results.append(call(inputs[i % len(inputs)]))
        times.append(time.perf_counter() - t)
    return times, results


# -- the keyword side alone ----------------------------------------------------------------------------------------
KEYWORD_K = 50  # what the searcher asks of each side (candidates)
NIST_PDF = HERE.parent / "data" / "NIST.AI.100-1.pdf"


class LuceneBM25(BM25Okapi):
    """rank-bm25 with Lucene's idf, as the store used before bm25s: the baseline here and the reference that
    ``tests/unit/retrieval/test_keyword_index.py`` checks :class:`KeywordIndex`'s scores against (equal: the same
    float64 expression).

    rank-bm25's classic idf is zero or negative for a term in half or more of the passages, so a short document
    would lose its keyword side entirely; Lucene's form stays positive.
    """

    def _calc_idf(self, nd):
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))
        self.average_idf = sum(self.idf.values()) / max(len(self.idf), 1)


class Bm25sIndex:
    """BM25 on bm25s, as the store's keyword index was before it kept postings in segments: every (passage, term)
    score worked out at build time, a query adds up its terms' columns. Scores are those of :class:`LuceneBM25` to
    float32 precision (bm25s's "lucene" method leaves out the factor ``k1 + 1``, multiplied back here)."""

    def __init__(self, corpus: list[list[str]], k1: float = 1.5, b: float = 0.75):
        import bm25s

        logging.getLogger("bm25s").setLevel(logging.WARNING)  # it sets itself to DEBUG at import
        self._scale = k1 + 1.0
        self._vocab = {t: i for i, t in enumerate(dict.fromkeys(chain.from_iterable(corpus)))}
        self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene")
        self._bm25.index(([list(map(self._vocab.__getitem__, doc)) for doc in corpus], self._vocab),
                         create_empty_token=False, show_progress=False)

    def search(self, tokens: list[str], k: int) -> list[tuple[int, float]]:
        ids = [self._vocab[t] for t in tokens if t in self._vocab]
        if not ids:
            return []
        scores = self._bm25.get_scores_from_ids(ids)
        top = np.argsort(-scores, kind="stable")[:k]
        return [(int(i), float(scores[i]) * self._scale) for i in top if scores[i] > 0]


def rank_bm25_top(bm25: LuceneBM25, tokens: list[str], k: int) -> list[tuple[int, float]]:
    """What the store did with rank-bm25: every passage's score, then the best ``k`` above zero."""
    scores = bm25.get_scores(tokens)
    top = np.argsort(-scores, kind="stable")[:k]
    return [(int(i), float(scores[i])) for i in top if scores[i] > 0]


def held_mb(build) -> float:
    """Memory (MB) still held by what ``build()`` returns, by tracemalloc (a second build: tracing slows it)."""
    gc.collect()
    tracemalloc.start()
    index = build()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del index
    return held / 2**20


def query_ms(search, questions: list[list[str]], queries: int) -> tuple[float, float]:
    times, _ = timed(search, questions, queries)
    return 1000 * percentile(times, 50), 1000 * percentile(times, 95)


def tokenize_rate(n: int) -> dict | None:
    """Tokenising speed on ``n`` 1,000-character windows of real text (the bundled NIST PDF), if it is there."""
    if not NIST_PDF.exists():
        return None
    import pymupdf

    with pymupdf.open(NIST_PDF) as doc:
        text = " ".join(page.get_text() for page in doc)
    starts = np.random.default_rng(0).integers(0, len(text) - 1000, size=n)
    windows = [text[s:s + 1000] for s in starts]
    t = time.perf_counter()
    terms = sum(len(tokenize(w)) for w in windows)
    seconds = time.perf_counter() - t
    return {"passages": n, "chars": 1000, "seconds": seconds, "passages_per_s": n / seconds,
            "terms_per_passage": terms / n}


ADDED = 100  # passages added to an index of each size: one document


def keyword_comparison(sizes: list[int], queries: int) -> dict:
    questions = [tokenize(q) for q in QUESTIONS]
    rows = []
    for n in sizes:
        texts = synthetic_texts(n, np.random.default_rng(n))  # the passages of the store part, same seed
        t = time.perf_counter()
        corpus = [tokenize(text) for text in texts]
        tokenize_s = time.perf_counter() - t
        added = [tokenize(text) for text in synthetic_texts(ADDED, np.random.default_rng(-n % 2**32))]
        results = {}
        for engine, build, search, add in (
                ("rank-bm25", lambda: LuceneBM25(corpus), lambda index: lambda q: rank_bm25_top(index, q, KEYWORD_K),
                 lambda index: LuceneBM25(corpus + added)),
                ("bm25s", lambda: Bm25sIndex(corpus), lambda index: lambda q: index.search(q, KEYWORD_K),
                 lambda index: Bm25sIndex(corpus + added)),
                ("segments", lambda: KeywordIndex(corpus), lambda index: lambda q: index.search(q, KEYWORD_K),
                 lambda index: index.changed([range(len(index)), index.segment(added)]))):
            gc.collect()
            t = time.perf_counter()
            index = build()
            build_s = time.perf_counter() - t
            p50, p95 = query_ms(search(index), questions, queries)
            results[engine] = [search(index)(q) for q in questions]
            t = time.perf_counter()
            add(index)
            add_s = time.perf_counter() - t
            del index
            rows.append({"chunks": n, "engine": engine, "p50_ms": p50, "p95_ms": p95, "build_s": build_s,
                         "add_s": add_s, "memory_mb": held_mb(build), "tokenize_s": tokenize_s})
            print(f"{n:>7} chunks {engine:>9}: p50 {p50:.2f} ms, p95 {p95:.2f} ms, build {build_s:.1f} s, "
                  f"add {ADDED} {add_s:.3f} s, memory {rows[-1]['memory_mb']:.0f} MB")
        for row, engine in zip(rows[-3:], results):
            same = [[r for r, _ in a] == [r for r, _ in b] for a, b in zip(results["rank-bm25"], results[engine])]
            worst = max((abs(sa - sb) / sa for a, b in zip(results["rank-bm25"], results[engine])
                         for (_, sa), (_, sb) in zip(a, b)), default=0.0)
            row["same_top_k"], row["questions"], row["max_rel_score_diff"] = sum(same), len(same), worst
    real = tokenize_rate(min(max(sizes), 100_000))
    return {"date": now(), "machine": machine_line(machine()), "queries": queries, "k": KEYWORD_K, "added": ADDED,
            "rows": rows, "tokenize_real": real}


def run(sizes: list[int], queries: int) -> dict:
    from retrieval.embedder import Embedder  # here, so that --keyword-only needs no model
    from retrieval.expansion import FeedbackExpander
    from retrieval.searcher import Searcher

    embedder = Embedder()
    process = psutil.Process(os.getpid())
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            before = process.memory_info().rss
            store = LocalStore(Path(tmp), embedder.dim)
            build = add_synthetic(store, n, embedder.dim)
            rss = process.memory_info().rss - before
            plain = Searcher(store, embedder)
            # Threshold 1: every question is expanded, the worst case (a weak first search).
            expanding = Searcher(store, embedder, expander=FeedbackExpander(), expansion_threshold=1.0)
            for label, mode, searcher in (("hybrid", "hybrid", plain), ("semantic", "semantic", plain),
                                          ("keyword", "keyword", plain),
                                          ("hybrid + feedback expansion", "hybrid", expanding)):
                searcher.search(QUESTIONS[0], "bench", mode=mode)  # warm-up
                total, keyword, semantic = [], [], []
                for i in range(queries):
                    q = QUESTIONS[i % len(QUESTIONS)]
                    t = time.perf_counter()
                    result = searcher.search(q, "bench", top_k=5, mode=mode)
                    total.append(time.perf_counter() - t)
                    keyword.append(result.timings["keyword"])
                    semantic.append(result.timings["embed_and_semantic"])
                rows.append({"chunks": n, "mode": label, "p50_ms": 1000 * percentile(total, 50),
                             "p95_ms": 1000 * percentile(total, 95),
                             "keyword_p50_ms": 1000 * percentile(keyword, 50),
                             "embed_and_semantic_p50_ms": 1000 * percentile(semantic, 50),
                             "index_build_s": build, "index_rss_mb": rss / 2**20})
                print(f"{n:>7} chunks {label:>8}: p50 {rows[-1]['p50_ms']:.1f} ms, p95 {rows[-1]['p95_ms']:.1f} ms")
            del store, searcher, plain, expanding
    return {"date": now(), "machine": machine_line(machine()), "queries": queries, "rows": rows}


def markdown(report: dict) -> str:
    lines = ["# Retrieval latency by index size", ""]
    if "rows" in report:
        lines += [f"- date: {report['date']}", f"- machine: {report['machine']}",
                  f"- {report['queries']} questions per row, top_k 5, 50 candidates per side; synthetic passages with "
                  "random unit vectors; questions embedded by the bundled model", "",
                  markdown_table(["chunks", "mode", "p50 ms", "p95 ms", "of it: embed + FAISS p50 ms", "BM25 p50 ms",
                                  "index build s", "index memory MB"],
                                 [[r["chunks"], r["mode"], f"{r['p50_ms']:.1f}", f"{r['p95_ms']:.1f}",
                                   f"{r['embed_and_semantic_p50_ms']:.1f}", f"{r['keyword_p50_ms']:.1f}",
                                   f"{r['index_build_s']:.1f}", f"{r['index_rss_mb']:.0f}"] for r in report["rows"]],
                                 "rlr")]
    if "keyword" in report:
        kw = report["keyword"]
        lines += ["", "## Keyword side alone: rank-bm25, bm25s and segments", "", f"- date: {kw['date']}",
                  f"- machine: {kw['machine']}",
                  f"- same synthetic passages as above, tokenised once by `retrieval.tokenize`; the {len(QUESTIONS)} "
                  f"questions tokenised the same way, {kw['queries']} queries per row, top {kw['k']}; rank-bm25 is "
                  "`LuceneBM25.get_scores` and the store's top-k, bm25s is `Bm25sIndex.search` (the store's keyword "
                  "index before), segments is `KeywordIndex.search`; 'add' is the time to take in "
                  f"{kw.get('added', ADDED)} more passages (a rebuild, or `KeywordIndex.changed`); memory is what the "
                  "built index holds (tracemalloc), tokens excluded", "",
                  markdown_table(["chunks", "engine", "query p50 ms", "query p95 ms", "build s",
                                  f"add {kw.get('added', ADDED)} s", "index memory MB",
                                  f"same top {kw['k']} rows as rank-bm25", "tokenise s"],
                                 [[r["chunks"], r["engine"], f"{r['p50_ms']:.2f}", f"{r['p95_ms']:.2f}",
                                   f"{r['build_s']:.2f}", f"{r['add_s']:.3f}" if "add_s" in r else None,
                                   f"{r['memory_mb']:.1f}", f"{r['same_top_k']}/{r['questions']}",
                                   f"{r['tokenize_s']:.2f}"] for r in kw["rows"]], "rlr")]
        worst = {r["engine"]: r["max_rel_score_diff"] for r in kw["rows"]}
        lines += ["", "Largest relative score difference from rank-bm25: " + ", ".join(
            f"{engine} {diff:.1e}" for engine, diff in worst.items() if engine != "rank-bm25") +
            " (bm25s keeps float32 scores; segments computes rank-bm25's float64 expression)."]
        if kw.get("tokenize_real"):
            t = kw["tokenize_real"]
            lines += [f"Tokenising real text: {t['passages']} windows of {t['chars']} characters of the NIST PDF in "
                      f"{t['seconds']:.1f} s ({t['passages_per_s']:.0f} passages/s, "
                      f"{t['terms_per_passage']:.0f} terms each)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.bench_retrieval", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=50)
    add_arguments(parser, gold=False, docs=None, out="bench_retrieval.md and .json")
    parser.add_argument("--keyword-only", action="store_true",
                        help="only the keyword comparison (rank-bm25, bm25s, segments); keeps an earlier store part")
    args = parser.parse_args(argv)
    previous = args.out / "bench_retrieval.json"
    if args.keyword_only:
        report = json.loads(previous.read_text()) if previous.exists() else {}
    else:
        report = run(args.sizes, args.queries)
    report["keyword"] = keyword_comparison(args.sizes, args.queries)
    write_results("bench_retrieval", markdown(report), report, args.out)
    print(markdown(report))


if __name__ == "__main__":
    main()
