"""The abstention trade-off of extractive answers: for each threshold, what is declined and what is answered well.

    python -m evaluation.abstention_curve [--gold PATH] [--docs DIR] [--out evaluation/results]
                                          [--thresholds 0.35 0.4 ...]

Each question is searched once (default settings, its own document); the product's extractive answerer then
answers the same passages at every threshold (sentence vectors are stored, so this costs no embedding). Per
threshold: false abstention (answerable questions declined), abstention on unanswerable questions, and, over
answerable questions, the share whose answer quotes an evidence string and the share citing a gold page.
Writes ``abstention-curve.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evaluation.eval import CACHE_ROOT, COLLECTION, DEFAULT_DOCS, DEFAULT_GOLD, HERE, ingest_docs, settings_digest
from evaluation.common import machine, machine_line, now, write_results
from evaluation.gold import load_gold
from evaluation.metrics import is_relevant

THRESHOLDS = [0.35, 0.40, 0.45, 0.50, 0.55, 0.60]


def curve(pipeline, questions, doc_ids: dict[str, str], thresholds: list[float]) -> list[dict]:
    """One row per threshold (see the module docstring)."""
    searched = [(q, pipeline.search(q.question, collection=COLLECTION, doc_ids=[doc_ids[q.doc]])) for q in questions]
    answerer, original = pipeline.answerer, pipeline.answerer.threshold
    rows = []
    try:
        for t in thresholds:
            answerer.threshold = t
            quotes = cites = declined = declined_unanswerable = 0
            for q, result in searched:
                answer = answerer.answer(q.question, result.hits, result.vector)
                if not q.answerable:
                    declined_unanswerable += answer.abstained
                elif answer.abstained:
                    declined += 1
                else:
                    quotes += is_relevant(answer.text, q.evidence)
                    cites += any(c.doc_id == doc_ids[q.doc] and c.page in q.pages for c in answer.citations)
            n = sum(q.answerable for q in questions)
            rows.append({"threshold": t, "false_abstention": declined / n,
                         "abstain_on_unanswerable": declined_unanswerable / max(len(questions) - n, 1),
                         "quotes_evidence": quotes / n, "cites_gold_page": cites / n})
    finally:
        answerer.threshold = original
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.abstention_curve",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument("--thresholds", type=float, nargs="+", default=THRESHOLDS)
    args = parser.parse_args(argv)
    from pipeline import Pipeline
    from settings import Settings

    questions = load_gold(args.gold)
    digest = settings_digest(Settings(index_samples=False))
    pipeline = Pipeline(Settings(data_dir=CACHE_ROOT / digest, index_samples=False))
    ingests = ingest_docs(pipeline, sorted({q.doc for q in questions}), args.docs,
                          CACHE_ROOT / f"{digest}.ingest.json")
    rows = curve(pipeline, questions, {d: r["doc_id"] for d, r in ingests.items()}, args.thresholds)
    current = pipeline.settings.answer_threshold
    lines = ["| threshold | false abstention | abstains on unanswerable | answer quotes an evidence string | "
             "answer cites a gold page |", "| ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        mark = "**" if abs(r["threshold"] - current) < 1e-9 else ""
        lines.append(f"| {mark}{r['threshold']:.2f}{mark} | {r['false_abstention']:.2f} | "
                     f"{r['abstain_on_unanswerable']:.2f} | {r['quotes_evidence']:.2f} | {r['cites_gold_page']:.2f} |")
    table = "\n".join(lines)
    n = sum(q.answerable for q in questions)
    date, where = now(), machine()
    report = (f"# Abstention trade-off of extractive answers\n\n- date: {date}\n- machine: {machine_line(where)}\n"
              f"- gold: `{args.gold}` ({n} answerable, {len(questions) - n} unanswerable)\n"
              f"- current `RAG_ANSWER_THRESHOLD`: {current}\n\n{table}\n")
    readme = (f"Measured {date[:10]} on {machine_line(where)}; {n} answerable and {len(questions) - n} unanswerable "
              f"questions, the current threshold in bold.\n\n{table}\n")
    write_results("abstention-curve", report, {"meta": {"date": date, "machine": where, "gold": str(args.gold),
                                                        "threshold": current}, "rows": rows, "readme": readme},
                  args.out)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
