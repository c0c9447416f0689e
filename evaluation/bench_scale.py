"""Adding and removing a document, memory and query latency at 1k, 10k and 100k chunks: the incremental index beside
the index rebuilt whole on every change (the code before), in the same run.

    python -m evaluation.bench_scale [--sizes 1000 10000 100000] [--queries 50] [--baseline REV] [--out DIR]

Each variant runs in its own process (so that each one's resident memory is its own), one after the other at each
size: ``new`` is this tree; ``old`` is this tree with the files of the index (``retrieval/collection_index.py``,
``keyword_index.py``, ``sentence_index.py``, ``store.py``, ``store_sync.py``) taken from git revision ``--baseline``
(by default the last one before the incremental index), which needs ``git`` and this repository's history; without
them only ``new`` runs.

The data: a collection of ``size / 100`` documents of 100 chunks each, added through this tree's store by
:func:`evaluation.bench_retrieval.add_synthetic` (synthetic passages, random unit vectors, 5 sentence vectors per
chunk), once per size; each variant gets its own copy. In each variant's process, with the bundled embedding model
loaded and through the real :class:`retrieval.store.LocalStore` (files written as always, fsync'd):

1. opening the data folder (the index built from disk, as at a restart): seconds, the resident memory it adds (RSS
   after ``gc.collect()``) and what each structure of the index holds;
2. adding a 100-chunk document (``LocalStore.add_document``, the document made before the clock starts) and
   removing one of the first documents (``LocalStore.delete_document``: every later row moves), several times, then
   the process's resident memory and its peak;
3. query latency, p50/p95 over ``--queries`` questions (the 5 of ``bench_retrieval``, after a warm-up of each): the
   product's :class:`retrieval.searcher.Searcher` (hybrid, top 5, no expansion, no reranker, as in ``bench.md``)
   and, interleaved query by query, the naive recipe (:class:`evaluation.naive.NaiveIndex`: the question embedded,
   a flat FAISS index, top 5) over the same passages and vectors, all in one index (the recipe makes one per
   document, which would only slow it down here).

Both variants' hits (top 5 of the searcher, top 50 of each side) are compared question by question. Writes
``scale.md`` and ``scale.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil

from evaluation.bench_retrieval import QUESTIONS, add_synthetic, synthetic_document
from evaluation.common import machine, machine_line, markdown_table, now, percentile, write_results
from evaluation.harness import add_arguments

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "7c24da6855afd12deaf743f45124192fe13f90c8"  # the last revision that rebuilt the index on every change
INDEX_FILES = ["collection_index.py", "keyword_index.py", "sentence_index.py", "store.py", "store_sync.py"]
DOC = 100  # chunks of each document of the collection, and of each one added
DIM = 384  # the bundled model's


def rss_mb() -> float:
    gc.collect()
    return psutil.Process(os.getpid()).memory_info().rss / 2**20


def deep_mb(obj, seen: set | None = None) -> float:
    """Bytes held by ``obj`` and what it refers to (containers, objects' attributes, arrays that own their data),
    in MB; each object counted once."""
    seen = set() if seen is None else seen
    stack, total = [obj], 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, np.ndarray):
            total += o.nbytes if o.base is None else 0
            continue
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack += [*o.keys(), *o.values()]
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack += list(o)
        elif hasattr(o, "__dict__") and not isinstance(o, type):
            stack.append(o.__dict__)
    return total / 2**20


def breakdown(index) -> dict[str, float]:
    """MB held by each structure of one collection's index, old layout or new."""
    mb = 2**20
    if hasattr(index, "faiss"):  # rebuilt whole: Part objects, FAISS, bm25s, CollectionSentences
        parts = list(index.parts.values())
        seen: set = set()
        out = {"passages (Chunk objects, text, blocks)": sum(deep_mb(p.chunks, seen) for p in parts),
               "BM25 token lists kept per passage": sum(
                   sum(sys.getsizeof(t) for t in p.tokens) + sys.getsizeof(p.tokens) for p in parts) / mb,
               "passage vectors kept per document": sum(p.vectors.nbytes for p in parts) / mb,
               "passage vectors in FAISS": index.faiss.ntotal * index.faiss.d * 4 / mb,
               "sentence vectors kept per document": sum(
                   sum(a.nbytes for a in (p.sentences.vectors, p.sentences.owner, p.sentences.start,
                                          p.sentences.end)) for p in parts if p.sentences is not None) / mb,
               "sentence vectors of the collection": sum(a.nbytes for a in (
                   index.sentences.vectors, index.sentences.start, index.sentences.end, index.sentences.bounds)) / mb}
        bm25 = index.bm25._bm25
        out["BM25 (bm25s score matrix, vocabulary)"] = (sum(a.nbytes for a in bm25.scores.values()
                                                            if isinstance(a, np.ndarray)) / mb if bm25 else 0) + \
            deep_mb(index.bm25._vocab)
        out["row -> document, chunk id -> row"] = index.doc_of_row.nbytes / mb + (
            sys.getsizeof(index.row_of) + sum(sys.getsizeof(v) for v in index.row_of.values() if v > 256)) / mb
        return out
    parts = list(index.parts.values())
    segments = index.bm25.segments
    return {"passages (pickled, StoredChunks)": sum(p.chunks.nbytes for p in parts) / mb,
            "passage vectors (one buffer, searched by FAISS)": len(index.vectors) * index.vectors.dim * 4 / mb,
            "sentence vectors (each document's, as given)": sum(
                sum(a.nbytes for a in (p.sentences.vectors, p.sentences.owner, p.sentences.start, p.sentences.end,
                                       p.by_passage.bounds)) for p in parts if p.sentences is not None) / mb,
            "BM25 postings (segments, norms, vocabulary)": (sum(
                sum(a.nbytes for a in s) for s in segments) + sum(n.nbytes for n in index.bm25._norms)
                + index.bm25._df.nbytes) / mb + deep_mb([index.bm25._vocab.terms, index.bm25._vocab._ids]),
            "chunk id -> row (hashes), first-page rows": (sum(a.nbytes for a in index.ids)
                                                         + index.first_page.nbytes) / mb}


def latency(times: list[float]) -> dict:
    return {"p50_ms": 1000 * percentile(times, 50), "p95_ms": 1000 * percentile(times, 95)}


def build_data(folder: Path, size: int) -> float:
    """The collection both variants open: ``size / 100`` documents added one by one; returns the seconds taken."""
    from retrieval.store import LocalStore

    store = LocalStore(folder, DIM)
    t = time.perf_counter()
    for i in range(size // DOC):
        add_synthetic(store, DOC, DIM, doc_id=f"doc{i}", seed=i)
    return time.perf_counter() - t


def naive_index(embedder, size: int, skip: int):
    """The naive recipe over the same passages and vectors as the store's after the changes (the documents made
    again, same seeds; the first ``skip`` removed, as many added at the end), in one flat index: the recipe keeps one
    per document, and a search of all of them would pay a call per document."""
    import faiss

    from evaluation.naive import NaiveIndex, Passage

    naive, passages, index = NaiveIndex(embedder), [], faiss.IndexFlatIP(embedder.dim)
    made = [(f"doc{i}", i) for i in range(skip, size // DOC)] + [(f"added{r}", 10_000 + r) for r in range(skip)]
    for doc_id, seed in made:
        _, chunks, vectors, _ = synthetic_document(DOC, embedder.dim, np.random.default_rng(seed), doc_id)
        index.add(vectors)
        passages += [Passage(c.text, doc_id, c.page) for c in chunks]
    # NaiveIndex.add reads a PDF; its two tables are filled here as add fills them.
    naive._passages["bench"], naive._indexes["bench"] = passages, index
    return naive


def hits_of(store, searcher) -> list[dict]:
    """What the product finds for each question: top 5 with their scores, and each side's top 50."""
    from retrieval.tokenize import tokenize

    out = []
    for question in QUESTIONS:
        result = searcher.search(question, "bench", top_k=5, mode="hybrid", expand=False, rerank=False)
        out.append({"top5": [(h.chunk.chunk_id, h.score) for h in result.hits],
                    "semantic": [(c.chunk_id, s) for c, s in store.semantic_search("bench", result.vector, 50)],
                    "keyword": [(c.chunk_id, s) for c, s in store.keyword_search("bench", tokenize(question), 50)]})
    return out


def work(variant: str, size: int, queries: int, reps: int, folder: Path) -> dict:
    """One variant at one size, in this process (see the module docstring, steps 1-3)."""
    from retrieval.embedder import Embedder
    from retrieval.searcher import Searcher
    from retrieval.store import LocalStore

    row = {"variant": variant, "chunks": size, "rss_start_mb": rss_mb()}
    embedder = Embedder()
    embedder.encode_one("warm up")
    row["rss_model_mb"] = rss_mb()
    t = time.perf_counter()
    store = LocalStore(folder, embedder.dim)
    row["open_s"] = time.perf_counter() - t
    row["rss_opened_mb"] = rss_mb()
    row["rss_index_mb"] = row["rss_opened_mb"] - row["rss_model_mb"]
    row["breakdown_mb"] = breakdown(store._indexes["bench"])
    searcher = Searcher(store, embedder)
    ask = lambda q: searcher.search(q, "bench", top_k=5, mode="hybrid", expand=False, rerank=False)  # noqa: E731
    for question in QUESTIONS:  # warm-up
        ask(question)
    row["hits"] = hits_of(store, searcher)  # before the changes: the same collection in both variants
    row["add_s"], row["remove_s"] = [], []
    for r in range(reps):
        document = synthetic_document(DOC, embedder.dim, np.random.default_rng(10_000 + r), f"added{r}")
        t = time.perf_counter()
        store.add_document(*document)
        row["add_s"].append(time.perf_counter() - t)
        del document
        t = time.perf_counter()
        store.delete_document(f"doc{r}")  # at the head of the collection: every later row moves
        row["remove_s"].append(time.perf_counter() - t)
    time.sleep(2.5)  # past the moment a replaced version is kept for the searches that read it
    store.documents("bench")
    row["rss_after_changes_mb"] = rss_mb()
    row["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # The naive recipe's index last: it is not the product's memory.
    naive = naive_index(embedder, size, skip=reps)
    for question in QUESTIONS:
        naive.search(question, None, 5)
    product_times, naive_times = [], []
    for i in range(queries):  # interleaved, so that both see the same load of the machine
        question = QUESTIONS[i % len(QUESTIONS)]
        t = time.perf_counter()
        ask(question)
        product_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        naive.search(question, None, 5)
        naive_times.append(time.perf_counter() - t)
    row["product"], row["naive"] = latency(product_times), latency(naive_times)
    return row


# -- the two variants, each in its own process ----------------------------------------------------------------------
def baseline_tree(rev: str, into: Path) -> Path | None:
    """This tree's ``retrieval`` package with the index files of ``rev``, under ``into`` (``None``: no git)."""
    target = into / "retrieval"
    shutil.copytree(ROOT / "retrieval", target, ignore=shutil.ignore_patterns("__pycache__"))
    for name in INDEX_FILES:
        try:
            text = subprocess.run(["git", "show", f"{rev}:retrieval/{name}"], cwd=ROOT, check=True,
                                  capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"no baseline ({exc}); measuring this tree only", file=sys.stderr)
            return None
        (target / name).write_text(text, encoding="utf-8")
    return into


def reps(args, variant: str, size: int) -> int:
    return 1 if variant == "old" and size >= 50_000 else args.reps  # each old change costs ~15-30 s there


def run_worker(variant: str, size: int, args, folder: Path, old_tree: Path | None) -> dict:
    """Run :func:`work` in a new process; ``old`` runs from ``old_tree``, whose ``retrieval`` comes first on the path
    (the working directory of ``python -m``)."""
    command = [sys.executable, "-m", "evaluation.bench_scale", "--worker", "--variant", variant, "--size", str(size),
               "--queries", str(args.queries), "--reps", str(reps(args, variant, size)), "--folder", str(folder)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, cwd=old_tree if variant == "old" else ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def same_hits(old: list[dict], new: list[dict]) -> dict:
    """Questions whose hits (ids, in order) agree between the variants, and the largest relative score difference."""
    agree, worst = 0, 0.0
    for a, b in zip(old, new):
        lists = [(a[key], b[key]) for key in ("top5", "semantic", "keyword")]
        agree += all([x[0] for x in p] == [y[0] for y in q] for p, q in lists)
        worst = max([worst] + [abs(x[1] - y[1]) / max(abs(x[1]), 1e-12) for p, q in lists for x, y in zip(p, q)])
    return {"questions": len(new), "same": agree, "max_rel_score_diff": worst}


# -- the report -------------------------------------------------------------------------------------------------------
def markdown(report: dict) -> str:
    by = {(r["variant"], r["chunks"]): r for r in report["rows"]}
    sizes = sorted({r["chunks"] for r in report["rows"]})
    old, new = (lambda n: by.get(("old", n))), (lambda n: by[("new", n)])

    def cell(row, key, f=".2f"):
        if row is None:
            return None
        value = row[key]
        return format(float(np.median(value)) if isinstance(value, list) else value, f)

    lines = ["# Adding and removing a document, memory and query latency by index size", "",
             f"- date: {report['date']}", f"- machine: {report['machine']}",
             f"- old: the index files of {report['baseline'][:12]} (rebuilt whole on every change); new: this tree. "
             "Each variant in its own process with the bundled embedding model loaded, through the real LocalStore "
             f"and its files; collections of 100-chunk synthetic documents; {report['queries']} questions per latency "
             "cell; add and remove: the median of the repetitions", "",
             "## Adding one 100-chunk document, removing one", "",
             markdown_table(["chunks", "add s old", "add s new", "remove s old", "remove s new",
                             "repetitions old / new"],
                            [[f"{n:,}", cell(old(n), "add_s", ".3f"), cell(new(n), "add_s", ".3f"),
                              cell(old(n), "remove_s", ".3f"), cell(new(n), "remove_s", ".3f"),
                              f"{len(old(n)['add_s']) if old(n) else '-'} / {len(new(n)['add_s'])}"]
                             for n in sizes], "rr"), "",
             "## Resident memory (MB) and opening the data folder (s)", "",
             markdown_table(["chunks", "model loaded", "the index adds, old", "new", "process after opening, old",
                             "new", "after the changes, old", "new", "peak, old", "new", "open s, old", "new"],
                            [[f"{n:,}", f"{new(n)['rss_model_mb']:.0f}"]
                             + [cell(r, key, f) for key, f in (("rss_index_mb", ".0f"), ("rss_opened_mb", ".0f"),
                                                               ("rss_after_changes_mb", ".0f"), ("peak_rss_mb", ".0f"),
                                                               ("open_s", ".1f"))
                                for r in (old(n), new(n))] for n in sizes], "rr"), "",
             "## Query latency (ms, p50 / p95)", "",
             markdown_table(["chunks", "product old", "product new", "naive (old's run)", "naive (new's run)",
                             "p50 product / naive, old", "new"],
                            [[f"{n:,}"] + [None if r is None else f"{r[k]['p50_ms']:.1f} / {r[k]['p95_ms']:.1f}"
                                           for r, k in ((old(n), "product"), (new(n), "product"), (old(n), "naive"),
                                                        (new(n), "naive"))]
                             + [None if r is None else f"{r['product']['p50_ms'] / r['naive']['p50_ms']:.2f}"
                                for r in (old(n), new(n))] for n in sizes], "rr")]
    if report.get("same"):
        lines += ["", "## Same results, old and new", "",
                  markdown_table(["chunks", "questions with the same hits (top 5, top 50 by vector, top 50 by BM25)",
                                  "largest relative score difference"],
                                 [[f"{int(n):,}", f"{s['same']}/{s['questions']}", f"{s['max_rel_score_diff']:.1e}"]
                                  for n, s in sorted(report["same"].items(), key=lambda x: int(x[0]))], "rr")]
    largest = max(sizes)
    a, b = (old(largest) or {}).get("breakdown_mb", {}), new(largest)["breakdown_mb"]
    mb = lambda d, k: (f"{d[k]:.0f}" if d[k] >= 10 else f"{d[k]:.1f}") if k in d else None  # noqa: E731
    lines += ["", f"## Where the index's memory goes at {largest:,} chunks (MB, by structure)", "",
              markdown_table(["structure", "old", "new"], [[k, mb(a, k), mb(b, k)] for k in [*a, *b]]
                             + [["total of the structures", f"{sum(a.values()):.0f}" if a else None,
                                 f"{sum(b.values()):.0f}"],
                                ["resident memory the open index adds", cell(old(largest), "rss_index_mb", ".0f"),
                                 cell(new(largest), "rss_index_mb", ".0f")]], "lr")]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.bench_scale", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--reps", type=int, default=3, help="adds and removes at each size (old: 1 from 50k)")
    parser.add_argument("--baseline", default=BASELINE, help="git revision of the old index files")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite scale.md from the scale.json in --out")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--variant", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    add_arguments(parser, gold=False, docs=None, out="scale.md and .json")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(work(args.variant, args.size, args.queries, args.reps, args.folder)))
        return
    if args.markdown_only:
        report = json.loads((args.out / "scale.json").read_text(encoding="utf-8"))
        write_results("scale", markdown(report), report, args.out)
        return
    if min(args.sizes) < 4 * DOC or any(n % DOC for n in args.sizes):
        parser.error(f"sizes must be multiples of {DOC} chunks, from {4 * DOC}")
    report = {"date": now(), "machine": machine_line(machine()), "queries": args.queries, "baseline": args.baseline,
              "rows": [], "built_s": {}, "same": {}}
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = baseline_tree(args.baseline, Path(tmp) / "old")
        for size in args.sizes:
            data = Path(tmp) / f"data-{size}"
            print(f"{size} chunks: adding {size // DOC} documents", file=sys.stderr)
            report["built_s"][str(size)] = build_data(data, size)
            found = {}
            for variant in (["old"] if old_tree else []) + ["new"]:
                folder = Path(tmp) / f"data-{size}-{variant}"
                shutil.copytree(data, folder)
                print(f"{size} chunks, {variant}: opening, querying, adding and removing", file=sys.stderr)
                found[variant] = row = run_worker(variant, size, args, folder, old_tree)
                report["rows"].append(row)
                print(f"  open {row['open_s']:.1f} s, index {row['rss_index_mb']:.0f} MB, add {row['add_s']} s, "
                      f"remove {row['remove_s']} s, p50 {row['product']['p50_ms']:.1f} ms (naive "
                      f"{row['naive']['p50_ms']:.1f} ms)", file=sys.stderr)
                shutil.rmtree(folder, ignore_errors=True)
            shutil.rmtree(data, ignore_errors=True)
            if "old" in found:
                report["same"][str(size)] = same_hits(found["old"]["hits"], found["new"]["hits"])
    write_results("scale", markdown(report), report, args.out)
    print(markdown(report))


if __name__ == "__main__":
    main()
