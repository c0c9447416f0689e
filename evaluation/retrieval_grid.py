"""Every retrieval variant on the gold set, side by side: ranking mode x fusion x query expansion, plus the
contextual-prefix and best-sentence ablations.

    python -m evaluation.retrieval_grid [--gold PATH] [--limit N] [--docs DIR] [--out evaluation/results]
                                        [--cache DIR] [--rebuild] [--set NAME=VALUE ...]

Retrieval only (no answers), each question searching its own document. Variants that change what is stored
(embedding without the prefix, no sentence vectors) get their own cached store under ``evaluation/.cache``.
Writes ``retrieval-grid.md`` and ``.json`` and prints the table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evaluation.common import machine, machine_line, markdown_table, now, write_results
from evaluation.eval import SEARCH_DEPTH, evaluate
from evaluation.gold import load_gold
from evaluation.harness import add_arguments, open_store, store_paths
from evaluation.metrics import RECALL_KS, summarize

# (label, search mode, settings overrides)
VARIANTS: list[tuple[str, str, dict]] = [
    ("semantic", "semantic", {"expansion": "off"}),
    ("semantic + feedback expansion", "semantic", {"expansion": "feedback"}),
    ("keyword", "keyword", {"expansion": "off"}),
    ("keyword + feedback expansion", "keyword", {"expansion": "feedback"}),
    ("weighted 0.7/0.3", "hybrid", {"expansion": "off"}),
    ("weighted + feedback expansion (default)", "hybrid", {"expansion": "feedback"}),
    ("RRF k=60", "hybrid", {"fusion": "rrf", "expansion": "off"}),
    ("RRF + feedback expansion", "hybrid", {"fusion": "rrf", "expansion": "feedback"}),
    # ablations, all on weighted fusion without expansion
    ("weighted, passage cosine only (no best sentence)", "hybrid", {"expansion": "off", "sentence_weight": 0.0}),
    ("weighted, embedded without prefix", "hybrid", {"expansion": "off", "embed_prefix": False}),
    ("semantic, embedded without prefix", "semantic", {"expansion": "off", "embed_prefix": False}),
    ("weighted, BM25 over prefix + text", "hybrid", {"expansion": "off", "keyword_prefix": True}),
    ("keyword, BM25 over prefix + text", "keyword", {"expansion": "off", "keyword_prefix": True}),
]


def run_variant(questions, docs_dir: Path, mode: str, overrides: dict, cache: Path, rebuild: bool = False) -> dict:
    store = open_store(sorted({q.doc for q in questions}), docs_dir, cache=cache, rebuild=rebuild, **overrides)
    rows = evaluate(store.pipeline, questions, store.doc_ids, mode, "doc", SEARCH_DEPTH, answer=False, quiet=True)
    expanded = sum(1 for r in rows if r["expansion"])
    return {"summary": summarize(rows)["overall"], "expanded": expanded, "rows": rows}


def table(results: list[dict]) -> str:
    head = ["variant"] + [f"recall@{k}" for k in RECALL_KS] + ["MRR", "page hit@1", "expanded"]
    return markdown_table(head, [[r["label"], *(f"{r['summary'][f'recall@{k}']:.2f}" for k in RECALL_KS),
                                  f"{r['summary']['mrr']:.3f}", f"{r['summary']['page_hit@1']:.2f}", r["expanded"]]
                                 for r in results], "lr")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.retrieval_grid", description=__doc__.split("\n\n")[0])
    # --set applies under every variant's own settings.
    add_arguments(parser, out="retrieval-grid.md and .json", store=True, overrides=True)
    args = parser.parse_args(argv)
    questions = load_gold(args.gold)[:args.limit]
    results, rebuilt = [], set()
    for i, (label, mode, overrides) in enumerate(VARIANTS, 1):
        print(f"[{i}/{len(VARIANTS)}] {label}", file=sys.stderr)
        settings = {**args.overrides, **overrides}
        path, _ = store_paths(args.cache, **settings)  # variants differing only at search time share a store
        results.append({"label": label, "mode": mode, "overrides": overrides,
                        **run_variant(questions, args.docs, mode, settings, args.cache,
                                      rebuild=args.rebuild and path not in rebuilt)})
        rebuilt.add(path)
    text = table(results)
    n = sum(1 for q in questions if q.answerable)
    date, where = now(), machine()
    report = "\n".join([
        "# Retrieval variants on the gold set",
        "",
        f"- date: {date}",
        f"- machine: {machine_line(where)}",
        f"- gold: `{args.gold}` ({len(questions)} questions, {n} answerable; metrics over answerable ones)",
        "- each question searches its own document; no LLM (expansion is pseudo-relevance feedback); "
        "no cross-encoder weights are available here, so no reranked row",
        "- `expanded`: questions whose first search was weak enough (best cosine < 0.45) to be expanded",
        "",
        text,
        "",
    ])
    readme = (f"Measured {date[:10]} on {machine_line(where)}; {n} answerable questions, retrieval only, each "
              f"searching its own document.\n\n{text}\n")
    write_results("retrieval-grid", report, {"meta": {"date": date, "machine": where, "gold": str(args.gold)},
                                             "variants": results, "readme": readme}, args.out)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
