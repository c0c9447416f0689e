"""Measure retrieval and abstention on the gold set through the product's own Pipeline.

    python -m evaluation.eval [--mode hybrid|semantic|keyword] [--scope doc|collection] [--top-k N]
                              [--gold PATH] [--limit N] [--docs DIR] [--out evaluation/results]
                              [--cache DIR] [--rebuild] [--set NAME=VALUE ...]

The gold PDFs are ingested once into a store under ``evaluation/.cache/<settings hash>``
(:func:`evaluation.harness.open_store`) and reused by later runs with the same settings and reading code. Writes
``eval-<mode>-<scope>.md`` (table and run details) and ``.json`` (per-question rows) to ``--out`` and prints the
table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from evaluation.common import machine, machine_line, now, write_results
from evaluation.gold import GoldQuestion, load_gold
from evaluation.harness import COLLECTION, add_arguments, open_store, reported_settings
from evaluation.metrics import RECALL_KS, first_relevant_rank, ingestion_cost, markdown_table, summarize

# Recall is reported up to the largest cut-off, so search at least that deep whatever --top-k is.
SEARCH_DEPTH = max(RECALL_KS)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evaluation.eval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("hybrid", "semantic", "keyword"), default="hybrid")
    parser.add_argument("--scope", choices=("doc", "collection"), default="doc",
                        help="search only the question's document, or all gold documents")
    add_arguments(parser, out="the report files", store=True, overrides=True, top_k=5)
    return parser.parse_args(argv)


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
    questions = load_gold(args.gold)[:args.limit]
    store = open_store(sorted({q.doc for q in questions}), args.docs, cache=args.cache, rebuild=args.rebuild,
                       **args.overrides)
    rows = evaluate(store.pipeline, questions, store.doc_ids, args.mode, args.scope, args.top_k)

    summary = summarize(rows)
    table = markdown_table(summary)
    ingests = store.documents
    meta = {
        "date": now(), "machine": machine(),
        "gold": str(args.gold), "questions": len(questions), "mode": args.mode, "scope": args.scope,
        "top_k": args.top_k, "search_depth": max(SEARCH_DEPTH, args.top_k), "store": str(store.path),
        "settings": reported_settings(store.pipeline.settings),
        # Only documents whose ingestion was timed; a page count without its seconds would lower s/page.
        "ingestion": ingestion_cost(rec for rec in ingests.values() if rec["seconds"] is not None),
        "ingestion_unmeasured": [doc for doc, rec in ingests.items() if rec["seconds"] is None],
        "ingestion_reused": any(rec["reused"] and rec["seconds"] is not None for rec in ingests.values()),
        "documents": ingests,
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
