"""Answers per document family, as a client of the HTTP API gets them: ``top_k`` 8, extractive, one question at a time.

    python -m evaluation.families [--top-k 8] [--no-naive] [--out evaluation/results] [--stem families]
                                  [--cache DIR] [--rebuild] [--set NAME=VALUE ...]

Families are kinds of documents that fail differently: **papers** (Adam, Attention Is All You Need), **nist** (the
NIST AI RMF, a framework document) and **filings** (four SEC 10-Q reports). Their dev questions are
``../shared/eval/gold-dev.jsonl`` with ``gold-dev-unanswerable.jsonl`` (papers and nist) and
``../shared/eval/sec/gold-dev-sec.jsonl``. Every question is answered by :meth:`pipeline.Pipeline.answer` with the
passages of its own document, exactly as ``POST /query`` answers it; the passages it returns are the ranking.

Per family: evidence recall@1 and @8 and MRR over the returned passages, the top passage on a gold page, an answer
citing a gold page (share of *all* answerable questions), abstention on unanswerable questions, false abstention,
and ingestion seconds per page. The naive recipe (:mod:`evaluation.naive`) is measured beside it on the same
documents. The store is cached under ``evaluation/.cache/`` by the settings and the reading code
(:func:`evaluation.harness.open_store`), so a change to ``ingestion/`` re-reads the documents by itself. The report
names the code revision it ran on, so a run of an earlier revision (this file, ``harness.py`` and ``common.py``
copied into its ``evaluation/``, ``--stem families-before``) stands beside it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from evaluation.common import load_average, machine, machine_line, markdown_table, now, write_results
from evaluation.gold import GoldQuestion, load_gold
from evaluation.harness import (CACHE_ROOT, COLLECTION, SHARED_EVAL, add_arguments, open_store,
                                reported_settings)
from evaluation.metrics import cites_gold_page, first_relevant_rank, mrr, recall_at_k

STEM = "families"
GOLD = {
    "papers+nist": (SHARED_EVAL / "gold-dev.jsonl", SHARED_EVAL / "gold-dev-unanswerable.jsonl", SHARED_EVAL / "docs"),
    "filings": (SHARED_EVAL / "sec" / "gold-dev-sec.jsonl", None, SHARED_EVAL / "sec" / "docs"),
}
FAMILY_OF_DOC = {"adam": "papers", "attention": "papers", "nist": "nist"}
FAMILIES = ("papers", "nist", "filings")
def family(doc: str) -> str:
    return FAMILY_OF_DOC.get(doc, "filings")


def load_questions() -> tuple[list[GoldQuestion], dict[str, Path]]:
    """Every dev question of every family, and the folder each document is in."""
    questions: list[GoldQuestion] = []
    folders: dict[str, Path] = {}
    for gold, extra, docs in GOLD.values():
        found = load_gold(gold) + (load_gold(extra) if extra else [])
        questions += found
        folders.update({q.doc: docs for q in found})
    return questions, folders


def open_pipeline(rebuild: bool = False, cache: Path = CACHE_ROOT, **overrides):
    """The product pipeline over the cached store of every family's documents (``<cache>/families-<settings
    hash>``); returns it, the questions and doc -> ingestion record."""
    questions, folders = load_questions()
    # Folder by folder, each one's documents sorted: the order the store was first built in.
    order = list(dict.fromkeys(folders.values()))
    docs = sorted(folders, key=lambda doc: (order.index(folders[doc]), doc))
    store = open_store(docs, folders, cache=cache, prefix="families-", rebuild=rebuild, **overrides)
    return store.pipeline, questions, store.documents


def answer_all(pipeline, questions: Sequence[GoldQuestion], doc_ids: dict[str, str], top_k: int,
               quiet: bool = False) -> list[dict]:
    """One row per question: its ranking (the answer's sources), the answer, its citations and its decision."""
    rows = []
    for i, q in enumerate(questions, 1):
        t0 = time.perf_counter()
        reply = pipeline.answer(q.question, collection=COLLECTION, doc_ids=[doc_ids[q.doc]], top_k=top_k)
        texts = [h.chunk.text for h in reply.sources]
        rank = first_relevant_rank(texts, q.evidence) if q.answerable else None
        top = reply.sources[0].chunk if reply.sources else None
        rows.append({
            "id": q.id, "doc": q.doc, "family": family(q.doc), "kind": q.kind, "answerable": q.answerable,
            "question": q.question, "pages": list(q.pages), "rank": rank,
            "top_page": top.page if top else None, "abstained": bool(reply.abstained), "answer": reply.answer,
            "citations": [[q.doc, c.page, getattr(c, "page_end", c.page) or c.page] for c in reply.citations],
            "confidence": reply.confidence, "confidence_level": reply.confidence_level, "support": reply.support,
            "warning": reply.warning, "seconds": round(time.perf_counter() - t0, 3),
        })
        if not quiet:
            print(f"[{i}/{len(questions)}] {q.id}: rank={rank} abstained={reply.abstained}", file=sys.stderr)
    return rows


def naive_rows(questions: Sequence[GoldQuestion], folders: dict[str, Path], embedder, top_k: int):
    """The naive recipe's ranking of every answerable question, and its ingestion cost per document."""
    from evaluation.naive import NaiveIndex

    index = NaiveIndex(embedder)
    for doc in sorted({q.doc for q in questions}):
        index.add(folders[doc] / f"{doc}.pdf")
    rows = []
    for q in questions:
        if not q.answerable:
            continue
        found = index.search(q.question, doc=q.doc, k=top_k)
        rows.append({"id": q.id, "doc": q.doc, "family": family(q.doc), "rank": first_relevant_rank(
            [p.text for p in found], q.evidence), "top_page": found[0].page if found else None,
            "pages": list(q.pages)})
    return rows, index.documents


def _share(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def summarize(rows: Sequence[dict], ingests: dict[str, dict], k: int) -> dict[str, dict]:
    """Per family (and ``all``): the figures of the module docstring."""
    out = {}
    for name in (*FAMILIES, "all"):
        group = [r for r in rows if name in ("all", r["family"])]
        answerable = [r for r in group if r.get("answerable", True)]
        unanswerable = [r for r in group if not r.get("answerable", True)]
        ranks = [r["rank"] for r in answerable]
        docs = {r["doc"] for r in group}
        pages = sum(ingests[d]["pages"] for d in docs if ingests.get(d, {}).get("seconds") is not None)
        seconds = sum(ingests[d]["seconds"] for d in docs if ingests.get(d, {}).get("seconds") is not None)
        out[name] = {
            "answerable": len(answerable), "unanswerable": len(unanswerable),
            "recall@1": recall_at_k(ranks, 1), f"recall@{k}": recall_at_k(ranks, k), "mrr": mrr(ranks, k),
            "top_on_gold_page": _share([r["top_page"] in r["pages"] for r in answerable]),
            "cites_gold_page": _share([not r["abstained"] and cites_gold_page(r["citations"], r["doc"], r["pages"])
                                       for r in answerable]) if answerable and "abstained" in answerable[0] else None,
            "abstains_unanswerable": _share([r["abstained"] for r in unanswerable]),
            "false_abstention": _share([r["abstained"] for r in answerable]) if answerable and
            "abstained" in answerable[0] else None,
            "seconds_per_page": seconds / pages if pages else None,
        }
    return out


def _cell(value, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def table(product: dict, naive: dict | None, k: int) -> str:
    head = ["family", "system", "answerable", "unanswerable", "recall@1", f"recall@{k}", "MRR",
            "top passage on a gold page", "answer cites a gold page", "abstains on unanswerable",
            "false abstention", "ingestion s/page"]
    rows = []
    keys = ["answerable", "unanswerable", "recall@1", f"recall@{k}", "mrr", "top_on_gold_page", "cites_gold_page",
            "abstains_unanswerable", "false_abstention", "seconds_per_page"]
    for name in (*FAMILIES, "all"):
        for system, summary in (("product", product), ("naive recipe", naive)):
            if summary is None:
                continue
            s = summary[name]
            cells = [_cell(s[key]) for key in keys]
            if s["unanswerable"] and s["abstains_unanswerable"] is not None:
                cells[7] = f"{s['abstains_unanswerable']:.2f} ({round(s['abstains_unanswerable'] * s['unanswerable'])}" \
                           f"/{s['unanswerable']})"
            rows.append([name, system, *cells])
    return markdown_table(head, rows, "llr")


def revision(root: Path = Path(__file__).resolve().parents[1]) -> str:
    """The checkout's commit (short), with "+changes" when its files differ from it; "" outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+changes" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.families", description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-naive", action="store_true", help="skip the naive recipe")
    parser.add_argument("--stem", default=STEM, help="name of the report files (and of the README block)")
    # The gold sets and folders are the families' own (GOLD); top_k 8 is what a client asks.
    add_arguments(parser, gold=False, docs=None, out="<stem>.md and <stem>.json", store=True, overrides=True,
                  top_k=8)
    args = parser.parse_args(argv)
    pipeline, questions, ingests = open_pipeline(args.rebuild, args.cache, **args.overrides)
    doc_ids = {doc: rec["doc_id"] for doc, rec in ingests.items()}
    rows = answer_all(pipeline, questions, doc_ids, args.top_k)
    product = summarize(rows, ingests, args.top_k)
    naive = None
    if not args.no_naive:
        _, folders = load_questions()
        naive_found, naive_docs = naive_rows(questions, folders, pipeline.embedder, args.top_k)
        naive = summarize(naive_found, naive_docs, args.top_k)
    text = table(product, naive, args.top_k)
    meta = {"date": now(), "machine": machine(), "load_average": load_average(), "top_k": args.top_k,
            "questions": len(questions), "settings": reported_settings(pipeline.settings), "documents": ingests,
            "revision": revision()}
    code = f"code at `{meta['revision']}`" if meta["revision"] else "code of this checkout"
    block = (f"Measured {meta['date'][:10]} on {machine_line(meta['machine'])}, {code}; every dev question answered "
             f"as `POST /query` answers it (`top_k` {args.top_k}, extractive), each searching its own document.\n\n"
             f"{text}\n")
    report = f"# Answers per document family\n\n{block}"
    write_results(args.stem, report, {"meta": meta, "product": product, "naive": naive, "rows": rows, "readme": block},
                  args.out)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
