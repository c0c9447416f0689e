"""End-to-end answers on the gold set, through the product's own answer stream, with an optional LLM judge.

    python -m evaluation.eval_e2e [--scope doc|collection] [--top-k N] [--gold PATH] [--limit N] [--docs DIR]
                                  [--out evaluation/results] [--cache DIR] [--rebuild] [--set NAME=VALUE ...]
                                  [--no-judge] [--judge-model NAME] [--judge-max-tokens N]

Every question is answered by ``Pipeline.answer_stream``, as the product answers it: extractive (sentences quoted
from the document) without an LLM key, written by the LLM when GROQ_API_KEY is set. The stream's events time each
answer: retrieval (question to passages), first text (question to the first piece of the answer) and total.

Per question it checks the answer's text (does it hold an evidence string?) and its citations (is one, and is the
first, on a gold page of the gold document?), and, when an LLM is configured and ``--no-judge`` is not given, asks
an LLM judge (:mod:`evaluation.judge`) to score correctness, faithfulness and relevance of every answered question,
within a token budget. The gold PDFs share :mod:`evaluation.eval`'s cached store. Writes ``eval-e2e.md`` and
``eval-e2e.json`` to ``--out`` and prints the tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from evaluation.common import load_average, machine, machine_line, markdown_table, now, write_results
from evaluation.gold import GoldQuestion, load_gold
from evaluation.harness import COLLECTION, add_arguments, open_store, reported_settings
from evaluation.judge import DEFAULT_BUDGET, Judge
from evaluation.metrics import JUDGE_SCORES, LATENCIES, cites_gold_page, evidence_in_answer, \
    first_citation_on_gold_page, summarize_answers

STEM = "eval-e2e"
NO_LLM = "no LLM configured: set GROQ_API_KEY"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evaluation.eval_e2e", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scope", choices=("doc", "collection"), default="doc",
                        help="search only the question's document, or all gold documents in the store")
    add_arguments(parser, out="the report files", store=True, overrides=True, top_k=5)
    group = parser.add_argument_group("judge")
    group.add_argument("--no-judge", action="store_true", help="do not judge answers even if an LLM is set")
    group.add_argument("--judge-model", default=None, help="judging model (default: the settings' llm_model)")
    group.add_argument("--judge-max-tokens", type=int, default=DEFAULT_BUDGET,
                       help="most prompt + completion tokens the judge may spend in this run")
    args = parser.parse_args(argv)
    if args.judge_max_tokens < 0:
        parser.error(f"--judge-max-tokens must be at least 0, got {args.judge_max_tokens}")
    return args


# -- answering ----------------------------------------------------------------------------------------------

def stream_answer(pipeline, q: GoldQuestion, doc_ids: dict[str, str], scope: str, top_k: int):
    """Answer one question through the pipeline's stream; return (search result, final answer, latencies in ms,
    number of resets)."""
    scope_ids = [doc_ids[q.doc]] if scope == "doc" else None
    result = final = None
    first_text = retrieval = None
    resets = 0
    started = time.perf_counter()
    for event in pipeline.answer_stream(q.question, collection=COLLECTION, doc_ids=scope_ids, top_k=top_k):
        elapsed = (time.perf_counter() - started) * 1000
        if event.kind == "sources":
            result, retrieval = event.result, elapsed
        elif event.kind == "delta" and first_text is None and event.text:
            first_text = elapsed
        elif event.kind == "reset":
            resets += 1
        elif event.kind == "done":
            final = event.result
    total = (time.perf_counter() - started) * 1000
    latencies = {"retrieval_ms": _ms(retrieval), "first_text_ms": _ms(first_text), "total_ms": _ms(total)}
    return result, final, latencies, resets


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def answer_row(q: GoldQuestion, final, latencies: dict, resets: int, names: dict[str, str]) -> dict:
    """One JSON-ready row: the question, the answer, its checks against the gold and its latencies."""
    # LLM citations carry the cited passage's last page; a passage across a page break covers both pages.
    citations = [{"doc": names.get(c.doc_id, c.doc_id), "page": c.page,
                  "page_end": getattr(c, "page_end", None) or c.page, "chunk_id": c.chunk_id}
                 for c in final.citations]
    cited = [(c["doc"], c["page"], c["page_end"]) for c in citations]
    checks = {"evidence_in_answer": None, "cites_gold_page": None, "first_citation_on_gold_page": None}
    if q.answerable:
        checks = {"evidence_in_answer": evidence_in_answer(final.answer, q.evidence),
                  "cites_gold_page": cites_gold_page(cited, q.doc, q.pages),
                  "first_citation_on_gold_page": first_citation_on_gold_page(cited, q.doc, q.pages)}
    return {
        "id": q.id, "doc": q.doc, "kind": q.kind, "answerable": q.answerable, "question": q.question,
        "reference": q.answer, "evidence": list(q.evidence), "pages": list(q.pages),
        "answer": final.answer, "abstained": bool(final.abstained), "mode": final.mode, "note": final.note,
        "resets": resets, "citations": citations, **checks, **latencies, "judge": None,
    }


def judge_passages(hits) -> list[tuple[str, str]]:
    """``(label, text)`` of the passages the answerer was shown, in its order (``[Source 1]`` first)."""
    out = []
    for hit in hits:
        chunk = hit.chunk
        pages = f"pages {chunk.page}-{chunk.page_end}" if chunk.page_end > chunk.page else f"page {chunk.page}"
        out.append((f"{chunk.filename}, {pages}", chunk.text))
    return out


def collection_names(pipeline) -> dict[str, str]:
    """doc_id -> document name (file name without ``.pdf``) of everything in the eval collection: with
    ``--scope collection`` a citation may point at a document of the store that no question of this run names."""
    return {r.doc_id: Path(r.filename).stem for r in pipeline.documents(COLLECTION)}


def run(pipeline, questions: Sequence[GoldQuestion], doc_ids: dict[str, str], scope: str, top_k: int,
        judge: Judge | None = None) -> list[dict]:
    """Answer (and judge, when ``judge`` is given) every question; one row per question, progress on stderr.

    Abstained answers are not sent to the judge: their row's ``judge`` is ``{"skipped": "abstained"}``.
    """
    names = collection_names(pipeline)
    names.update({doc_id: doc for doc, doc_id in doc_ids.items()})
    rows = []
    for i, q in enumerate(questions, start=1):
        result, final, latencies, resets = stream_answer(pipeline, q, doc_ids, scope, top_k)
        row = answer_row(q, final, latencies, resets, names)
        if judge is not None:
            row["judge"] = {"skipped": "abstained"} if row["abstained"] else judge.judge(
                q.question, q.answer, final.answer, judge_passages(result.hits))
        rows.append(row)
        print(f"[{i}/{len(questions)}] {progress_line(row)}", file=sys.stderr)
    return rows


def progress_line(row: dict) -> str:
    """One line per question for stderr: outcome, checks, time and the judge's verdict."""
    parts = [f"{row['id']} {row['kind']}: {'abstained' if row['abstained'] else 'answered'} ({row['mode']})"]
    if row["answerable"]:
        parts.append(f"evidence={_flag(row['evidence_in_answer'])} gold_page={_flag(row['cites_gold_page'])}")
    parts.append(f"total={row['total_ms']:.0f} ms")
    if row["judge"]:
        parts.append(f"judge c/f/r={verdict_text(row['judge'])}")
        if "error" in row["judge"]:
            parts.append(f"({row['judge']['error']})")
    return " ".join(parts)


def _flag(value) -> str:
    return "–" if value is None else "yes" if value else "no"


def verdict_text(verdict: dict | None) -> str:
    """``4/5/3`` (correctness/faithfulness/relevance), ``error``, ``skipped (reason)``, or ``–`` (no judge)."""
    if not verdict:
        return "–"
    if all(s in verdict for s in JUDGE_SCORES):
        return "/".join(str(verdict[s]) for s in JUDGE_SCORES)
    return "error" if "error" in verdict else f"skipped ({verdict.get('skipped')})"


# -- the report ---------------------------------------------------------------------------------------------

QUALITY_COLUMNS = [
    ("n", "n"), ("answered", "answered"),
    ("evidence_in_answer_of_answered", "evidence in answer (answered)"),
    ("evidence_in_answer_of_answerable", "evidence in answer (all answerable)"),
    ("cites_gold_page_of_answered", "cites gold page (answered)"),
    ("cites_gold_page_of_answerable", "cites gold page (all answerable)"),
    ("first_citation_on_gold_page_of_answered", "first citation on gold page (answered)"),
    ("abstain_on_unanswerable", "abstain (unanswerable)"), ("false_abstention", "false abstention"),
]
JUDGE_COLUMNS = [("n_judged", "judged")] + [(f"judge_{s}", f"judge {s}") for s in JUDGE_SCORES]
LATENCY_LABELS = {"retrieval_ms": "retrieval", "first_text_ms": "first text", "total_ms": "total"}


def markdown_tables(summary: dict) -> str:
    """The quality table (with judge columns when judged) and the latency table, one row per kind and "all"."""
    judged = "n_judged" in summary["overall"]
    quality = QUALITY_COLUMNS + (JUDGE_COLUMNS if judged else [])
    latency = [(f"{key}_{p}", f"{LATENCY_LABELS[key]} {p} (ms)") for key in LATENCIES for p in ("p50", "p95")]
    return _table(summary, quality) + "\n\n" + _table(summary, latency)


def _table(summary: dict, columns: list[tuple[str, str]]) -> str:
    groups = list(summary["by_kind"].items()) + [("all", summary["overall"])]
    return markdown_table(["kind", *(label for _, label in columns)],
                          [[name, *(_cell(key, group[key]) for key, _ in columns)] for name, group in groups], "lr")


def _cell(key: str, value) -> str:
    if value is None:
        return "–"
    if key.endswith(("_p50", "_p95")):
        return f"{value:.0f}"
    if key.startswith("judge_") and isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def judge_summary(meta_judge: dict) -> str:
    """The judge's part of the report's first line."""
    if meta_judge["status"] != "ran":
        return f"skipped ({meta_judge['reason']})"
    text = f"{meta_judge['model']}, {meta_judge['judged']} judged, {meta_judge['tokens_used']:,} tokens used"
    if meta_judge["skipped_budget"]:
        text += f", {meta_judge['skipped_budget']} not judged (the {meta_judge['budget']:,}-token cap)"
    if meta_judge["errors"]:
        text += f", {meta_judge['errors']} judge errors"
    return text


def answers_summary(meta: dict) -> str:
    return f"LLM {meta['llm_model']}" if meta["answers"] == "llm" else "extractive (no LLM key)"


def readme_block(meta: dict, tables: str) -> str:
    """The README's block: one line saying when, where and how, then the tables."""
    return (f"Measured {meta['date']} on {machine_line(meta['machine'])}; answers: {answers_summary(meta)}; "
            f"judge: {judge_summary(meta['judge'])}\n\n{tables}\n")


NOTES = """\
- **answered**: share of questions not declined. **evidence in answer**: the answer's text holds one of the \
question's evidence strings (after the same normalisation as retrieval matching); it measures quoting, so an LLM \
answer in its own words can be right without it. **cites gold page**: some citation is on a gold page of the gold \
document (the right page of another document is a miss); **first citation on gold page**: the first one is.
- "(answered)" columns count answerable questions that were answered; "(all answerable)" columns count every \
answerable question, a declined one as a miss. Abstention columns count the questions that should \
(unanswerable) or should not (answerable) be declined.
- Latency, from the question: **retrieval** until the passages are found, **first text** until the first piece \
of the answer is shown, **total** until the answer is complete (judging excluded).
- The judge (`evaluation/judge.py`, temperature 0) scores each answered question 1-5 for correctness against the \
reference answer, faithfulness to the passages the answerer was shown, and relevance to the question. \
Abstentions are not sent to the judge: the abstention columns measure them. An unusable judge reply is counted \
as a judge error, never as a score."""


def render_report(meta: dict, rows: list[dict], tables: str) -> str:
    """The Markdown report: how the run was made, the tables, what they mean, each question and the settings."""
    judge = meta["judge"]
    judge_line = judge_summary(judge)
    if judge["status"] == "ran":
        judge_line += (f"; budget {judge['budget']:,} tokens ({judge['tokens_estimated']:,} of those used are "
                       f"estimates)" if judge["tokens_estimated"] else f"; budget {judge['budget']:,} tokens")
        if judge["model"] == meta.get("llm_model") and meta["answers"] == "llm":
            judge_line += "; the judge is the answering model, which may grade its own answers leniently"
        n = judge["not_sent_abstained"]
        judge_line += f"; {n} abstention{'' if n == 1 else 's'} not sent to the judge"
    count = (f"the first {meta['questions']} of {meta['gold_questions']} questions (--limit)"
             if meta["questions"] < meta["gold_questions"] else f"{meta['questions']} questions")
    scope_text = ("each question's own document" if meta["scope"] == "doc" else
                  f"every document of the store's collection: {', '.join(meta['searched_documents'])}")
    return "\n".join([
        f"# End-to-end answers: {answers_summary(meta)}, {meta['scope']} scope",
        "",
        f"- date: {meta['date']}",
        f"- machine: {machine_line(meta['machine'])}; 1-minute load average {_load_text(meta['load_average'])} "
        "(latencies grow with it)",
        f"- gold: `{meta['gold']}` ({count})",
        f"- answers: {answers_summary(meta)}, from the top {meta['top_k']} passages, through `Pipeline.answer_stream`",
        f"- searched: {scope_text}",
        f"- judge: {judge_line}",
        "",
        tables,
        "",
        NOTES,
        "",
        "## Per question",
        "",
        per_question_table(rows),
        "",
        "## Settings",
        "",
        "```json",
        json.dumps(meta["settings"], indent=2, sort_keys=True),
        "```",
        "",
    ])


def _load_text(load: dict) -> str:
    return " → ".join("?" if v is None else f"{v:.2f}" for v in (load["before"], load["after"]))


def per_question_table(rows: list[dict]) -> str:
    """One line per question: outcome, checks, cited pages, time and the judge's scores."""
    def cells(r: dict) -> list:
        # Two quotes from one page (different passages) are two citations but one page to show.
        cited = dict.fromkeys(f"{c['doc']} p{c['page']}" + (f"-{c['page_end']}" if c["page_end"] > c["page"] else "")
                              for c in r["citations"])
        return [r["id"], r["kind"], _flag(not r["abstained"]), r["mode"], _flag(r["evidence_in_answer"]),
                _flag(r["cites_gold_page"]), _flag(r["first_citation_on_gold_page"]), ", ".join(cited) or "–",
                f"{r['total_ms']:.0f}", verdict_text(r["judge"])]

    return markdown_table(["id", "kind", "answered", "mode", "evidence in answer", "cites gold page",
                           "first citation on gold page", "cited pages", "total (ms)", "judge c/f/r"],
                          [cells(r) for r in rows], "llllllllrl")


# -- main ---------------------------------------------------------------------------------------------------

def make_judge(settings, args) -> tuple[Judge | None, dict]:
    """The judge to use (None for none) and its initial report entry."""
    if args.no_judge:
        return None, {"status": "skipped", "reason": "--no-judge"}
    judge = Judge.from_settings(settings, model=args.judge_model, budget=args.judge_max_tokens)
    if judge is None:
        return None, {"status": "skipped", "reason": NO_LLM}
    return judge, {"status": "ran", **judge.status()}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    every = load_gold(args.gold)
    questions = every[:args.limit]
    # The store is evaluation.eval's (the same settings give the same hash), so both runners share one index.
    store = open_store(sorted({q.doc for q in questions}), args.docs, cache=args.cache, rebuild=args.rebuild,
                       **args.overrides)
    pipeline, settings, ingests = store.pipeline, store.pipeline.settings, store.documents

    judge, judge_meta = make_judge(settings, args)
    if judge is None:
        print(f"judge: skipped ({judge_meta['reason']})", file=sys.stderr)
    else:
        print(f"judge: {judge.model}, at most {judge.budget:,} tokens", file=sys.stderr)

    load_before = (load_average() or [None])[0]
    rows = run(pipeline, questions, store.doc_ids, args.scope, args.top_k, judge)
    if judge is not None:
        judge_meta = {"status": "ran", **judge.status(),
                      "not_sent_abstained": sum(1 for r in rows if r["judge"] == {"skipped": "abstained"})}

    summary = summarize_answers(rows)
    tables = markdown_tables(summary)
    meta = {
        "date": now(), "machine": machine(), "gold": str(args.gold), "questions": len(questions),
        "gold_questions": len(every), "limit": args.limit, "scope": args.scope, "top_k": args.top_k,
        "answers": "llm" if pipeline.llm is not None else "extractive",
        "llm_model": settings.llm_model if pipeline.llm is not None else None,
        # Latencies on a shared machine depend on what else runs: the 1-minute load average before and after.
        "load_average": {"before": load_before, "after": (load_average() or [None])[0]},
        "settings": reported_settings(settings), "judge": judge_meta,
        "store": str(settings.data_dir), "documents": ingests,
        "searched_documents": sorted(set(collection_names(pipeline).values())) if args.scope == "collection"
        else sorted(ingests),
    }
    payload = {"meta": meta, "summary": summary, "rows": rows, "readme": readme_block(meta, tables)}
    write_results(STEM, render_report(meta, rows, tables), payload, args.out)
    print(f"answers: {answers_summary(meta)}; judge: {judge_summary(judge_meta)}")
    print(tables)
    return 0


if __name__ == "__main__":
    sys.exit(main())
