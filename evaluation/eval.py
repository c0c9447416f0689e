"""Measure retrieval and abstention on the gold set through the product's own Pipeline.

    python -m evaluation.eval [--gold PATH] [--docs DIR] [--mode hybrid|semantic|keyword] [--top-k N]
                              [--scope doc|collection] [--out evaluation/results] [--rebuild]

The gold PDFs are ingested once into a store under ``evaluation/.cache/<settings hash>`` and reused by later
runs with the same settings. Writes ``eval-<mode>-<scope>.md`` (table and run details) and ``.json``
(per-question rows) to ``--out`` and prints the table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from pathlib import Path

from evaluation.common import machine, machine_line, now, write_results
from evaluation.gold import GoldQuestion, load_gold
from evaluation.metrics import RECALL_KS, first_relevant_rank, ingestion_cost, markdown_table, summarize

HERE = Path(__file__).resolve().parent
# The shared evaluation folder sits beside the repository (../shared/eval).
SHARED_EVAL = HERE.parents[1] / "shared" / "eval"
DEFAULT_GOLD = SHARED_EVAL / "gold-dev.jsonl"
DEFAULT_DOCS = SHARED_EVAL / "docs"
CACHE_ROOT = HERE / ".cache"
COLLECTION = "eval"
# Recall is reported up to the largest cut-off, so search at least that deep whatever --top-k is.
SEARCH_DEPTH = max(RECALL_KS)

# Settings that cannot change what is stored. Everything else, including settings added later, goes into the
# cache key, so an unknown setting errs towards re-ingesting rather than measuring a stale index.
_NOT_IN_CACHE_KEY = {
    "data_dir", "sample_dir", "index_samples", "hub_offline", "max_upload_mb", "embedding_batch_size",
    "top_k", "answer_threshold", "answer_max_sentences", "max_question_chars", "groq_api_key", "llm_model",
    "fusion", "rrf_k", "confidence_insufficient", "confidence_low", "candidates", "semantic_weight",
    "keyword_weight", "reranker_model", "reranker_enabled", "rerank_candidates", "sentence_weight", "expansion",
    "expansion_threshold", "groq_base_url", "llm_timeout_seconds", "llm_max_retries", "llm_max_tokens",
    "llm_temperature", "keyword_prefix", "keyword_section", "answer_confident", "unknown_name_support",
    "absent_focus_support", "max_pages", "api_key", "uploads_per_hour", "questions_per_hour",
    "max_concurrent_ingests", "label_weight", "max_request_kb", "body_timeout_seconds", "header_timeout_seconds",
    "keep_alive_seconds", "max_header_kb",
}
_SECRETS = {"groq_api_key", "api_key"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evaluation.eval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD, help="gold JSONL file")
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help="folder holding <doc>.pdf")
    parser.add_argument("--mode", choices=("hybrid", "semantic", "keyword"), default="hybrid")
    parser.add_argument("--top-k", type=int, default=5, help="passages given to the answerer (1-50); the product default is 5")
    parser.add_argument("--scope", choices=("doc", "collection"), default="doc",
                        help="search only the question's document, or all gold documents")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="folder for the report files")
    parser.add_argument("--rebuild", action="store_true",
                        help="delete the cached store first (after changing reading/chunking code)")
    args = parser.parse_args(argv)
    if not 1 <= args.top_k <= 50:
        parser.error(f"--top-k must be between 1 and 50, got {args.top_k}")
    return args


def settings_digest(settings) -> str:
    """Short hash of the settings that shape the stored index, and of the code that reads and indexes, so that a
    change to either builds a new store instead of measuring a stale one."""
    values = settings.model_dump(mode="json", exclude=_NOT_IN_CACHE_KEY)
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:16] + "-" + code_digest()


# Code whose change alters what is stored: a cached store built by other code is not reused.
_STORE_CODE = ("ingestion", "retrieval/sentence_index.py", "retrieval/embedder.py", "retrieval/tokenize.py")


def code_digest(root: Path = HERE.parent) -> str:
    """Short hash of the source files that decide what an index holds (reading, chunking, sentence vectors)."""
    digest = hashlib.sha256()
    for name in _STORE_CODE:
        path = root / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:12]


def reported_settings(settings) -> dict:
    values = settings.model_dump(mode="json", exclude=_SECRETS)
    values["llm"] = bool(settings.groq_api_key)  # whether answers came from the LLM, never the key itself
    return values


def ingest_docs(pipeline, docs: list[str], docs_dir: Path, record_path: Path) -> dict[str, dict]:
    """Ingest each gold PDF into the eval collection; return doc -> ingestion record.

    An identical re-upload is recognised by the pipeline and is near-instant, so its timings say nothing about
    ingestion cost; the timings measured when the store was built are kept in ``record_path`` and reused.
    A re-upload with no recorded timings gets ``seconds`` None rather than a misleading near-zero.
    """
    records: dict[str, dict] = json.loads(record_path.read_text()) if record_path.exists() else {}
    out: dict[str, dict] = {}
    for doc in docs:
        path = docs_dir / f"{doc}.pdf"
        if not path.is_file():
            raise SystemExit(f"error: gold document {doc!r} not found at {path}")
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        result = pipeline.ingest(data, path.name, collection=COLLECTION)
        old = records.get(doc)
        if getattr(result, "duplicate", False) and old and old["sha256"] == sha and old["doc_id"] == result.doc_id:
            out[doc] = {**old, "reused": True}
            print(f"ingest {doc}: reused {result.doc_id} (built {old['measured_at']})", file=sys.stderr)
            continue
        measured = not getattr(result, "duplicate", False)
        out[doc] = records[doc] = {
            "doc_id": result.doc_id, "sha256": sha, "pages": _count(result.pages), "chunks": _count(result.chunks),
            "seconds": result.seconds if measured else None, "timings": dict(result.timings) if measured else {},
            "measured_at": now() if measured else None,
            "reused": not measured,
        }
        note = f"in {result.seconds:.1f}s" if measured else "already indexed, timings unknown (use --rebuild)"
        print(f"ingest {doc}: {out[doc]['pages']} pages, {out[doc]['chunks']} chunks {note}", file=sys.stderr)
        # Saved after each document so a run stopped part-way keeps what it measured.
        record_path.parent.mkdir(parents=True, exist_ok=True)
        record_path.write_text(json.dumps(records, indent=2))
    return out


def _count(value) -> int:
    return value if isinstance(value, int) else len(value)


def _passage(hit):
    # Hits may carry the passage fields themselves or wrap them in a ``chunk``; the score stays on the hit.
    return getattr(hit, "chunk", hit)


def evaluate(pipeline, questions: list[GoldQuestion], doc_ids: dict[str, str], mode: str, scope: str,
             top_k: int, answer: bool = True, quiet: bool = False, rerank: bool = True) -> list[dict]:
    """Search (and answer, unless ``answer`` is false) every question; return one JSON-ready row per question
    (see metrics.summarize). ``rerank=False`` skips the cross-encoder in both, as the API's ``rerank`` field does."""
    names = {doc_id: doc for doc, doc_id in doc_ids.items()}
    rows = []
    for i, q in enumerate(questions, start=1):
        started = time.perf_counter()
        scope_ids = [doc_ids[q.doc]] if scope == "doc" else None
        found = pipeline.search(q.question, collection=COLLECTION, doc_ids=scope_ids,
                                top_k=max(SEARCH_DEPTH, top_k), mode=mode, rerank=rerank)
        reply = pipeline.answer(q.question, collection=COLLECTION, doc_ids=scope_ids, top_k=top_k, mode=mode,
                                rerank=rerank) if answer else None
        hits = list(found.hits)
        passages = [_passage(h) for h in hits]
        rank = first_relevant_rank([p.text for p in passages], q.evidence) if q.answerable else None
        top = passages[0] if passages else None
        row = {
            "id": q.id, "doc": q.doc, "kind": q.kind, "answerable": q.answerable, "question": q.question,
            "pages": list(q.pages), "rank": rank,
            "top_doc": names.get(top.doc_id, top.doc_id) if top else None,
            "top_page": top.page if top else None,
            "search_confidence": found.confidence,
            "hits": [{"doc": names.get(p.doc_id, p.doc_id), "page": p.page, "chunk_id": p.chunk_id,
                      "score": h.score} for h, p in zip(hits, passages)],
            "expansion": found.expansion.to_dict() if getattr(found, "expansion", None) else None,
            "abstained": bool(reply.abstained) if reply else None, "answer": reply.answer if reply else None,
            "answer_confidence": reply.confidence if reply else None,
            "support": getattr(reply, "support", None),
            "citations": [{"doc": names.get(c.doc_id, c.doc_id), "page": c.page, "chunk_id": c.chunk_id}
                          for c in reply.citations] if reply else [],
            "seconds": round(time.perf_counter() - started, 3),
        }
        rows.append(row)
        page_ok = row["top_doc"] == q.doc and row["top_page"] in q.pages
        if not quiet:
            print(f"[{i}/{len(questions)}] {q.id} {q.kind}: rank={rank} top_page={'hit' if page_ok else 'miss'} "
                  f"abstained={row['abstained']} ({row['seconds']:.1f}s)", file=sys.stderr)
    return rows


def render_report(table: str, meta: dict) -> str:
    cost = meta["ingestion"]
    per_page = "–" if cost["seconds_per_page"] is None else f"{cost['seconds_per_page']:.2f} s/page"
    embed = "–" if cost["embed_share"] is None else f"{cost['embed_share']:.0%}"
    reused = " (timings from when the cached store was built)" if meta["ingestion_reused"] else ""
    if meta["ingestion_unmeasured"]:
        reused += f"; not timed: {', '.join(meta['ingestion_unmeasured'])} (rerun with --rebuild)"
    return "\n".join([
        f"# Evaluation: {meta['mode']} retrieval, {meta['scope']} scope",
        "",
        f"- date: {meta['date']}",
        f"- machine: {machine_line(meta['machine'])}",
        f"- gold: `{meta['gold']}` ({meta['questions']} questions)",
        f"- search depth {meta['search_depth']} passages (recall, MRR, page hit); answer top_k {meta['top_k']}",
        f"- ingestion: {cost['pages']} pages in {cost['seconds']:.1f} s, {per_page}, {embed} of it embedding"
        f"{reused}",
        "",
        table,
        "",
        "Retrieval metrics count answerable questions only; abstention columns count the questions that "
        "should (unanswerable) or should not (answerable) be declined.",
        "",
        "## Settings",
        "",
        "```json",
        json.dumps(meta["settings"], indent=2, sort_keys=True),
        "```",
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    questions = load_gold(args.gold)
    try:
        from pipeline import Pipeline
        from settings import Settings
    except ModuleNotFoundError as err:
        raise SystemExit(f"error: cannot import the product pipeline ({err}); run from the repository root")

    digest = settings_digest(Settings(index_samples=False))
    store = CACHE_ROOT / digest
    record_path = CACHE_ROOT / f"{digest}.ingest.json"
    if args.rebuild and store.exists():
        shutil.rmtree(store)
    if not store.exists():
        # Recorded timings belong to a store that is gone; keeping them would hide this run's real cost.
        record_path.unlink(missing_ok=True)
    settings = Settings(data_dir=store, index_samples=False)
    pipeline = Pipeline(settings)

    docs = sorted({q.doc for q in questions})
    ingests = ingest_docs(pipeline, docs, args.docs, record_path)
    rows = evaluate(pipeline, questions, {doc: rec["doc_id"] for doc, rec in ingests.items()},
                    args.mode, args.scope, args.top_k)

    summary = summarize(rows)
    table = markdown_table(summary)
    meta = {
        "date": now(), "machine": machine(),
        "gold": str(args.gold), "questions": len(questions), "mode": args.mode, "scope": args.scope,
        "top_k": args.top_k, "search_depth": max(SEARCH_DEPTH, args.top_k), "store": str(store),
        "settings": reported_settings(settings),
        # Only documents whose ingestion was timed; a page count without its seconds would lower s/page.
        "ingestion": ingestion_cost(rec for rec in ingests.values() if rec["seconds"] is not None),
        "ingestion_unmeasured": [doc for doc, rec in ingests.items() if rec["seconds"] is None],
        "ingestion_reused": any(rec["reused"] and rec["seconds"] is not None for rec in ingests.values()), "documents": ingests,
    }
    write_results(f"eval-{args.mode}-{args.scope}", render_report(table, meta),
                  {"meta": meta, "summary": summary, "rows": rows, "readme": readme_block(table, meta)}, args.out)
    print(table)
    return 0


def readme_block(table: str, meta: dict) -> str:
    """The README's copy of this run: when, where, what was measured, and the table."""
    scope = "each question searching its own document" if meta["scope"] == "doc" else \
        "every question searching all gold documents at once"
    return (f"Measured {meta['date'][:10]} on {machine_line(meta['machine'])}: {meta['mode']} retrieval, {scope}, "
            f"{meta['questions']} questions, {meta['search_depth']} passages deep, answers from the top "
            f"{meta['top_k']}.\n\n{table}\n")


if __name__ == "__main__":
    sys.exit(main())
