"""The performance benchmark's report: ``bench.md`` and the README block, from the dict :mod:`evaluation.bench`
measured (``meta``, ``ingestion``, ``second_upload``, ``naive_ingestion``, ``quality``, ``latency_documents``,
``sizes``, ``memory``); a part the run skipped is left out of the report.
"""

from __future__ import annotations

from evaluation.common import machine_line, markdown_table
from evaluation.metrics import RECALL_KS
from evaluation.naive import CHUNK_OVERLAP, CHUNK_SIZE

TOP_K = 5  # what the product shows per question
METRICS = [f"recall@{k}" for k in RECALL_KS] + ["mrr", "page_hit@1"]  # the retrieval figures compared
REAL_RERANKER = "cross-encoder/ms-marco-MiniLM-L-6-v2"  # the reranker the stand-in is timed for

MEMORY_LABELS = [("start_mb", "at start (Python and libraries)"),
                 ("embedder_mb", "after loading the embedding model"),
                 ("reranker_mb", "after loading the reranker"),
                 ("documents_mb", "after the documents (product and naive recipe, this process)"),
                 ("peak_mb", "peak (ru_maxrss; PDFs are read in another process, not counted)")]


def _f(value, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pdfs(report: dict) -> str:
    n = len(report["ingestion"]["documents"])
    return f"{n} PDF{'s' if n != 1 else ''}"


def _label(metric: str) -> str:
    return {"mrr": f"MRR@{max(RECALL_KS)}", "page_hit@1": "page hit@1"}.get(metric, metric)


def comparison_table(report: dict, compact: bool = False) -> str:
    """Product against naive: quality, ingestion s/page and query latency, one row each; ``compact`` keeps
    recall@1 and @5, MRR, page hit@1, s/page and query p50."""
    quality, lat = report["quality"], report["latency_documents"]
    reranked = report["meta"]["quality_reranker"] is not None
    rows = [("product: hybrid" + (" + reranker" if reranked else ", no reranker"), quality["product"]["overall"],
             report["ingestion"]["total"]["s_per_page"], lat["product_rerank" if reranked else "product"]),
            (f"naive: page text, {CHUNK_SIZE}/{CHUNK_OVERLAP} splitter, MiniLM, FAISS", quality["naive"]["overall"],
             report["naive_ingestion"]["total"]["s_per_page"], lat["naive"])]
    metrics = ["recall@1", "recall@5", "mrr", "page_hit@1"] if compact else METRICS
    head = ["", *map(_label, metrics), "ingestion s/page", "query p50 ms"] + ([] if compact else ["query p95 ms"])
    return markdown_table(head, [[label, *(_f(group[m], 3) for m in metrics), f"{per_page:.2f}",
                                  f"{times['p50_ms']:.0f}", *([] if compact else [f"{times['p95_ms']:.0f}"])]
                                 for label, group, per_page, times in rows], "lr")


def ingestion_table(ingestion: dict) -> str:
    head = ["document", "pages", "chunks", "wall s", "s/page", "read s", "chunk s", "embed s", "index s",
            "bare passage embedding s", "wall / bare", "sentences", "sentence embedding s", "wall / (bare + sentences)",
            "time left at half-way: estimated / actual s"]
    rows = []
    for r in ingestion["documents"] + [{**ingestion["total"], "doc": "**all**"}]:
        t = r["timings"]
        eta = "" if r.get("eta_at_half_s") is None else f"{r['eta_at_half_s']:.1f} / {r['left_at_half_s']:.1f}"
        rows.append([r["doc"], r["pages"], r["chunks"], f"{r['wall_s']:.1f}", f"{r['s_per_page']:.2f}",
                     f"{t['read']:.1f}", f"{t['chunk']:.2f}", f"{t['embed']:.1f}", f"{t['index']:.2f}",
                     f"{r['bare_embed_s']:.1f}", f"{r['x_bare']:.1f}x", r["sentences"], f"{r['sentence_embed_s']:.1f}",
                     f"{r['x_bare_and_sentences']:.1f}x", eta])
    return markdown_table(head, rows, "lr")


def upload_table(uploads: list[dict]) -> str:
    head = ["document", "first upload s", "same collection ms", "recognised", "another collection ms",
            "first / another"]
    return markdown_table(head, [[u["doc"], f"{u['first_s']:.1f}", f"{1000 * u['same_collection_s']:.1f}",
                                  "yes" if u["duplicate"] else "no", f"{1000 * u['other_collection_s']:.1f}",
                                  f"{u['speedup_other']:.0f}x"] for u in uploads], "lr")


def sizes_table(rows: list[dict]) -> str:
    head = ["chunks", "query p50 ms", "query p95 ms", "+ reranker p50 ms", "+ reranker p95 ms",
            "of it reranking p50 ms", "index build s", "RSS after build MB", "RSS added MB"]
    return markdown_table(head, [[f"{r['chunks']:,}", f"{r['plain']['p50_ms']:.1f}", f"{r['plain']['p95_ms']:.1f}",
                                  f"{r['rerank']['p50_ms']:.1f}", f"{r['rerank']['p95_ms']:.1f}",
                                  f"{r['rerank']['rerank_stage_p50_ms']:.1f}", f"{r['build_s']:.1f}",
                                  f"{r['rss_after_mb']:.0f}", f"{r['rss_delta_mb']:.0f}"] for r in rows], "r")


def reranker_note(meta: dict) -> str:
    if meta["reranker_standin"]:
        return (f"Reranker timed with a stand-in of the same architecture as {REAL_RERANKER} (6-layer BERT, hidden "
                "384, 12 heads, 512 tokens; bundled MiniLM encoder with an untrained head): its cost is the real "
                "model's, its scores mean nothing, so quality is measured without a reranker.")
    return f"Reranker: `{meta['reranker']}` (given with --reranker), used for timing and for quality."


def markdown(report: dict) -> str:
    meta, memory = report["meta"], report["memory"]
    lines = ["# Performance benchmark", "",
             f"- date: {meta['date']}", f"- machine: {machine_line(meta['machine'])}",
             f"- command: `{meta['command']}` ({meta['seconds']:.0f} s)",
             f"- default settings, no LLM, a fresh store; top_k {TOP_K}; {reranker_note(meta)}"]
    if "quality" in report:
        lines += ["", "## Product against the naive recipe", "",
                  f"Same {_pdfs(report)}, {meta['questions']} gold questions "
                  f"({report['quality']['product']['overall']['n_answerable']} answerable), each searching its own "
                  "document; a passage is relevant when it holds an evidence string (the evaluation's rule). "
                  "Query times are per question on these documents (retrieval only, no LLM).", "",
                  comparison_table(report), "", "By kind of question:", "",
                  markdown_table(["", "kind", "n", *map(_label, METRICS)],
                                 [[who, kind, g["n_answerable"], *(_f(g[m], 3) for m in METRICS)]
                                  for who in ("product", "naive")
                                  for kind, g in report["quality"][who]["by_kind"].items()], "llr")]
        lat = report["latency_documents"]
        lines += ["", markdown_table(["on the documents, per question", "p50 ms", "p95 ms"], [
            ["product search, no reranker", f"{lat['product']['p50_ms']:.1f}", f"{lat['product']['p95_ms']:.1f}"],
            ["product search + reranker", f"{lat['product_rerank']['p50_ms']:.1f}",
             f"{lat['product_rerank']['p95_ms']:.1f}"],
            [f"product search + extractive answer (answer step p50 {lat['answer']['answer_stage_p50_ms']:.1f} ms)",
             f"{lat['answer']['p50_ms']:.1f}", f"{lat['answer']['p95_ms']:.1f}"],
            ["naive search", f"{lat['naive']['p50_ms']:.1f}", f"{lat['naive']['p95_ms']:.1f}"]], "lr")]
    if "ingestion" in report:
        total, naive = report["ingestion"]["total"], report["naive_ingestion"]["total"]
        lines += ["", "## Ingestion", "",
                  "Wall time of `Pipeline.ingest` per document (PDF read in an isolated process, chunked, passages "
                  "and sentences embedded, indexed), and the bare embedding of the same passage texts in one "
                  "`embedder.encode` call. The embed stage holds the passages and the sentence vectors.", "",
                  ingestion_table(report["ingestion"]), "",
                  f"The naive recipe: {naive['pages']} pages, {naive['chunks']} chunks in {naive['seconds']:.1f} "
                  f"s, {naive['s_per_page']:.2f} s/page (product: {total['chunks']} chunks, "
                  f"{total['s_per_page']:.2f} s/page).",
                  "", "## Second upload of the same file", "", upload_table(report["second_upload"])]
    if "sizes" in report:
        lines += ["", "## Query latency by index size", "",
                  f"Synthetic passages (evaluation/bench_retrieval.py) in the product's store, {meta['queries']} "
                  f"queries per cell after warm-up, hybrid, top {TOP_K}, query expansion off; the reranker rescores "
                  f"the best {meta['rerank_candidates']} candidates.", "", sizes_table(report["sizes"])]
    lines += ["", "## Memory", "", markdown_table(["resident memory (RSS)", "MB"], [
        [label, f"{memory[key]:.0f}"] for key, label in MEMORY_LABELS if memory.get(key) is not None], "lr")]
    return "\n".join(lines) + "\n"


def readme_block(report: dict) -> str:
    """The compact Markdown the README shows between ``<!-- results:bench -->`` markers."""
    meta = report["meta"]
    lines = [f"Measured {meta['date'][:10]} on {machine_line(meta['machine'])}.", ""]
    if "quality" in report:
        lines += [f"Same {_pdfs(report)} and {meta['questions']} gold questions, each "
                  "searching its own document:", "", comparison_table(report, compact=True), ""]
    if "ingestion" in report:
        t = report["ingestion"]["total"]
        uploads = report["second_upload"]
        same_ms = max(1000 * u["same_collection_s"] for u in uploads)
        other_ms = max(1000 * u["other_collection_s"] for u in uploads)
        lines += [markdown_table(["ingestion", "s/page", "wall / bare passage embedding",
                                  "wall / (passages + sentence vectors)", "same file again, same collection",
                                  "same file, another collection"],
                                 [[f"{t['pages']} pages, {t['chunks']} chunks", f"{t['s_per_page']:.2f}",
                                   f"{t['x_bare']:.1f}x", f"{t['x_bare_and_sentences']:.1f}x",
                                   f"at most {same_ms:.0f} ms", f"at most {other_ms:.0f} ms (a copy)"]], "lr"), ""]
    if "sizes" in report:
        lines += [markdown_table(["chunks", "query p50 / p95 ms", "+ reranker p50 / p95 ms",
                                  "process RSS MB (added by the index)"],
                                 [[f"{r['chunks']:,}", f"{r['plain']['p50_ms']:.0f} / {r['plain']['p95_ms']:.0f}",
                                   f"{r['rerank']['p50_ms']:.0f} / {r['rerank']['p95_ms']:.0f}",
                                   f"{r['rss_after_mb']:.0f} (+{r['rss_delta_mb']:.0f})"] for r in report["sizes"]],
                                 "r"), ""]
    memory = report["memory"]
    lines.append(f"Retrieval only, no LLM, top {TOP_K}. {reranker_note(meta)} Resident memory "
                 f"{memory['reranker_mb']:.0f} MB with the models loaded, peak {memory['peak_mb']:.0f} MB.")
    return "\n".join(lines) + "\n"
