"""Every tuned value chosen by leave-one-document-out, and the abstention trade-off it sits on.

    python -m evaluation.calibrate [--top-k 8] [--out evaluation/results]

The dev questions of every family (:mod:`evaluation.families`: papers, NIST, filings; 85 answerable, 39
unanswerable) are searched once, as ``POST /query`` searches them. Then, for every candidate setting:

* **answering** (:class:`generation.decision.Policy`): ``answer_threshold`` (the least support of the best fitting
  sentence), ``unknown_name_support`` (the support needed when the question names something the document never
  mentions) and ``absent_focus_support`` (the same for a word of the phrase the question asks for) are swept and
  every question re-answered from the same scored sentences. The score of a setting is the *balanced accuracy* of
  its decision to answer: the mean of its abstention on unanswerable questions and its answer rate on answerable
  ones, so that both kinds of mistake count alike whatever the mix of questions.
* **retrieval**: the fusion's ``keyword_weight`` (``semantic_weight`` is one minus it), ``sentence_weight`` and
  ``keyword_section`` (BM25 over each passage's section heading too), scored by MRR of the evidence within the top
  ``k``; then, the others at their defaults, ``label_weight`` (the lift of a passage whose table row's label the
  question names, :mod:`retrieval.table_labels`), scored the same way.

For each of the seven documents in turn, the setting with the best score on the *other six* is applied to it; the
held-out results are reported per family, beside the same figures for the default settings. The value proposed for
the product is the median of the seven choices. The trade-off curve (false abstention against abstention on
unanswerable questions, per family) is written with the chosen threshold in bold.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from collections.abc import Callable, Sequence
from itertools import product

from evaluation.common import machine, machine_line, markdown_table, now, write_results
from evaluation.families import FAMILIES, family, open_pipeline
from evaluation.harness import COLLECTION, add_arguments
from evaluation.metrics import first_relevant_rank

STEM = "calibration"
THRESHOLDS = [round(0.38 + 0.02 * i, 2) for i in range(13)]  # 0.38 .. 0.62
NAME_SUPPORT = [0.6, 0.7, 0.8, 0.9, 1.0]  # 1.0: a name the documents lack always declines
FOCUS_SUPPORT = [0.0, 0.55, 0.65, 0.75, 1.0]  # 0.0: a missing word of the phrase asked for changes nothing
KEYWORD_WEIGHTS = [0.1, 0.2, 0.3, 0.4, 0.5]
SENTENCE_WEIGHTS = [0.0, 0.25, 0.5, 0.75]
KEYWORD_SECTION = [False, True]
LABEL_WEIGHTS = [0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5]


def balanced_accuracy(rows: Sequence[dict]) -> float:
    """Mean of the abstention on unanswerable questions and the answer rate on answerable ones (a side with no
    questions counts as perfect).

    >>> balanced_accuracy([{"answerable": True, "abstained": False}, {"answerable": True, "abstained": True},
    ...                    {"answerable": False, "abstained": True}])
    0.75
    """
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    answered = sum(not r["abstained"] for r in answerable) / len(answerable) if answerable else 1.0
    declined = sum(r["abstained"] for r in unanswerable) / len(unanswerable) if unanswerable else 1.0
    return (answered + declined) / 2


def prepare_all(pipeline, searched: Sequence[tuple]) -> list[tuple]:
    """Each question with its search and its prepared sentences (what no threshold changes)."""
    answerer = pipeline.answerer
    return [(q, result, answerer.prepare_found(q.question, result)) for q, result in searched]


def answer_rows(pipeline, prepared: Sequence[tuple], policy) -> list[dict]:
    """Every question answered from its prepared sentences under ``policy``, as the product answers it."""
    rows = []
    for q, result, ready in prepared:
        answer = pipeline.answerer.compose(ready, retrieval=result.confidence, policy=policy)
        cited = {c.page for c in answer.citations}
        rows.append({"id": q.id, "doc": q.doc, "family": family(q.doc), "answerable": q.answerable,
                     "abstained": answer.abstained, "cites_gold": bool(cited & set(q.pages))})
    return rows


def retrieval_rows(pipeline, questions, doc_ids: dict[str, str], k: int, keyword_weight: float,
                   sentence_weight: float, section: bool = False, label_weight: float | None = None) -> list[dict]:
    store, searcher = pipeline.store, pipeline.searcher
    if store.keyword_section != section:  # the keyword index is built when a collection loads
        store.keyword_section = section
        store._open(COLLECTION)
    saved = searcher.semantic_weight, searcher.keyword_weight, searcher.sentence_weight, searcher.label_weight
    searcher.semantic_weight, searcher.keyword_weight, searcher.sentence_weight = \
        1 - keyword_weight, keyword_weight, sentence_weight
    if label_weight is not None:
        searcher.label_weight = label_weight
    try:
        rows = []
        for q in questions:
            if not q.answerable:
                continue
            found = searcher.search(q.question, COLLECTION, [doc_ids[q.doc]], top_k=k)
            rank = first_relevant_rank([h.chunk.text for h in found.hits], q.evidence)
            rows.append({"id": q.id, "doc": q.doc, "family": family(q.doc), "rr": 1 / rank if rank else 0.0,
                         "hit": rank is not None, "first": rank == 1})
        return rows
    finally:
        searcher.semantic_weight, searcher.keyword_weight, searcher.sentence_weight, searcher.label_weight = saved


def leave_one_out(settings: Sequence, rows_of: dict, score: Callable[[list[dict]], float],
                  docs: Sequence[str]) -> tuple[dict[str, object], list[dict]]:
    """For each document, the setting scoring best on the others, and the held-out rows under it.

    Ties go to the setting listed first, so ``settings`` should be ordered from the most cautious (or the default).
    """
    chosen, held_out = {}, []
    for doc in docs:
        best = max(settings, key=lambda s: score([r for r in rows_of[s] if r["doc"] != doc]))
        chosen[doc] = best
        held_out += [r for r in rows_of[best] if r["doc"] == doc]
    return chosen, held_out


def _nearest(grid: Sequence[float], value: float) -> float:
    return min(grid, key=lambda g: abs(g - value))


def _share(flags) -> float | None:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else None


def answer_summary(rows: list[dict]) -> dict:
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    return {"false_abstention": _share(r["abstained"] for r in answerable),
            "abstains_unanswerable": _share(r["abstained"] for r in unanswerable),
            "cites_gold_page": _share(not r["abstained"] and r["cites_gold"] for r in answerable),
            "balanced_accuracy": balanced_accuracy(rows) if rows else None,
            "answerable": len(answerable), "unanswerable": len(unanswerable)}


def retrieval_summary(rows: list[dict]) -> dict:
    return {"mrr": _share(r["rr"] for r in rows), "recall@1": _share(r["first"] for r in rows),
            "recall@k": _share(r["hit"] for r in rows), "answerable": len(rows)}


def by_family(rows: list[dict], summary: Callable[[list[dict]], dict]) -> dict[str, dict]:
    return {name: summary([r for r in rows if name in ("all", r["family"])]) for name in (*FAMILIES, "all")}


def _f(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def _bold(text: str, bold: bool) -> str:
    return f"**{text}**" if bold else text


def curve_table(curve: dict[float, dict[str, dict]], chosen: float) -> str:
    head = ["answer threshold"] + [f"{f}: false abstention / abstains on unanswerable / cites gold page"
                                   for f in (*FAMILIES, "all")]
    rows = [[_bold(c, t == chosen) for c in
             [f"{t:.2f}", *(" / ".join(_f(fams[f][k]) for k in ("false_abstention", "abstains_unanswerable",
                                                                 "cites_gold_page")) for f in (*FAMILIES, "all"))]]
            for t, fams in curve.items()]
    return markdown_table(head, rows, "rl")


def comparison_table(rows: list[tuple[str, dict[str, dict]]], keys: Sequence[str]) -> str:
    return markdown_table(["family", "settings", *keys],
                          [[name, label, *(_f(fams[name][k]) for k in keys)]
                           for name in (*FAMILIES, "all") for label, fams in rows], "llr")


def label_table(by_label: dict[float, list[dict]], default: float) -> str:
    """Retrieval per family at every label weight, the default in bold."""
    head = ["label weight", *(f"{f}: recall@1 / recall@k / MRR" for f in (*FAMILIES, "all"))]
    return markdown_table(head, [[_bold(f"{w:.2f}", w == default), *(
        "{recall@1:.2f} / {recall@k:.2f} / {mrr:.2f}".format(**by_family(by_label[w], retrieval_summary)[f])
        for f in (*FAMILIES, "all"))] for w in LABEL_WEIGHTS], "rl")


def choice_table(docs: Sequence[str], chosen: dict, r_chosen: dict, l_chosen: dict) -> str:
    """The setting chosen for each held-out document."""
    head = ["held-out document", "answer threshold", "name support", "focus support", "keyword weight",
            "sentence weight", "section in BM25", "label weight"]
    rows = [[doc, f"{chosen[doc].answer_threshold:.2f}", f"{chosen[doc].unknown_name_support:.2f}",
             f"{chosen[doc].absent_focus_support:.2f}", f"{r_chosen[doc][0]:.2f}", f"{r_chosen[doc][1]:.2f}",
             "on" if r_chosen[doc][2] else "off", f"{l_chosen[doc]:.2f}"] for doc in docs]
    return markdown_table(head, rows, "lr")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.calibrate", description=__doc__.split("\n\n")[0])
    # The questions and the store are evaluation.families' (its cached store, shared).
    add_arguments(parser, gold=False, docs=None, out="calibration.md and calibration.json", store=True,
                  overrides=True, top_k=8)
    args = parser.parse_args(argv)
    pipeline, questions, ingests = open_pipeline(args.rebuild, args.cache, **args.overrides)
    doc_ids = {doc: rec["doc_id"] for doc, rec in ingests.items()}
    docs = sorted(doc_ids)
    s = pipeline.settings

    print("searching every question once", file=sys.stderr)
    searched = [(q, pipeline.searcher.search(q.question, COLLECTION, [doc_ids[q.doc]], top_k=args.top_k))
                for q in questions]
    base = pipeline.answerer.policy
    prepared = prepare_all(pipeline, searched)
    # Most cautious first, so that ties go to declining.
    policies = [dataclasses.replace(base, answer_threshold=t, unknown_name_support=n, absent_focus_support=f)
                for t, n, f in product(reversed(THRESHOLDS), reversed(NAME_SUPPORT), reversed(FOCUS_SUPPORT))]
    policies.sort(key=lambda p: p != base)  # the default first: a tie keeps it
    print(f"answering with {len(policies)} settings", file=sys.stderr)
    answers = {p: answer_rows(pipeline, prepared, p) for p in policies}
    default_rows = answer_rows(pipeline, prepared, base)
    chosen, held_out = leave_one_out(policies, answers, balanced_accuracy, docs)
    proposal = dataclasses.replace(
        base, answer_threshold=_nearest(THRESHOLDS, statistics.median(p.answer_threshold for p in chosen.values())),
        unknown_name_support=_nearest(NAME_SUPPORT, statistics.median(p.unknown_name_support for p in chosen.values())),
        absent_focus_support=_nearest(FOCUS_SUPPORT, statistics.median(p.absent_focus_support for p in chosen.values())))
    curve = {t: by_family(answer_rows(pipeline, prepared, dataclasses.replace(proposal, answer_threshold=t)),
                          answer_summary) for t in THRESHOLDS}

    print("searching with every retrieval weighting", file=sys.stderr)
    default = (s.keyword_weight, s.sentence_weight, s.keyword_section)
    weightings = [default] + [w for w in product(KEYWORD_WEIGHTS, SENTENCE_WEIGHTS, KEYWORD_SECTION) if w != default]
    weightings.sort(key=lambda w: w[2] != default[2])  # one index rebuild: every weighting of one index, then the other
    retrieval = {w: retrieval_rows(pipeline, questions, doc_ids, args.top_k, *w) for w in weightings}
    retrieval_rows(pipeline, questions[:0], doc_ids, args.top_k, *default)  # the index as it was
    mrr = lambda rows: _share(r["rr"] for r in rows) or 0.0  # noqa: E731
    r_chosen, r_held_out = leave_one_out(weightings, retrieval, mrr, docs)
    print("searching with every label weight", file=sys.stderr)
    labels = [s.label_weight] + [w for w in LABEL_WEIGHTS if w != s.label_weight]
    by_label = {w: retrieval_rows(pipeline, questions, doc_ids, args.top_k, *default, label_weight=w) for w in labels}
    l_chosen, l_held_out = leave_one_out(labels, by_label, mrr, docs)
    label_curve = label_table(by_label, s.label_weight)

    answer_keys = ("abstains_unanswerable", "false_abstention", "cites_gold_page", "balanced_accuracy")
    answer_table = comparison_table([
        (f"default (threshold {base.answer_threshold:.2f}, name support {base.unknown_name_support:.2f})",
         by_family(default_rows, answer_summary)),
        ("leave-one-document-out", by_family(held_out, answer_summary))], answer_keys)
    retrieval_table = comparison_table([
        (f"default (keyword {s.keyword_weight:.2f}, sentence {s.sentence_weight:.2f}, section "
         f"{'on' if s.keyword_section else 'off'})", by_family(retrieval[default], retrieval_summary)),
        ("leave-one-document-out", by_family(r_held_out, retrieval_summary)),
        (f"label weight {s.label_weight:.2f} (default), others default", by_family(by_label[s.label_weight],
                                                                                  retrieval_summary)),
        ("label weight 0 (off), others default", by_family(by_label[0.0], retrieval_summary)),
        ("label weight leave-one-document-out", by_family(l_held_out, retrieval_summary))],
        ("recall@1", "recall@k", "mrr"))
    choices = choice_table(docs, chosen, r_chosen, l_chosen)
    date = now()
    block = (
        f"Measured {date[:10]} on {machine_line(machine())}; {len(questions)} dev questions, top {args.top_k}, "
        f"extractive. Each document's figures come from the setting that scored best on the other six.\n\n"
        f"Answers (balanced accuracy: the mean of the abstention on unanswerable questions and the answer rate on "
        f"answerable ones):\n\n{answer_table}\n\nRetrieval (MRR of the evidence in the top {args.top_k}):\n\n"
        f"{retrieval_table}\n\nLabel weight (the other weights at their defaults):\n\n{label_curve}\n\n"
        f"Chosen per held-out document:\n\n{choices}\n\n"
        f"Proposed (medians of the choices): answer threshold {proposal.answer_threshold:.2f}, name support "
        f"{proposal.unknown_name_support:.2f}, focus support {proposal.absent_focus_support:.2f}.\n\n"
        f"Trade-off (answer threshold; false abstention / abstains on unanswerable / cites a gold page):\n\n"
        f"{curve_table(curve, proposal.answer_threshold)}\n")
    payload = {"meta": {"date": date, "machine": machine(), "top_k": args.top_k},
               "chosen": {d: dataclasses.asdict(p) for d, p in chosen.items()},
               "retrieval_chosen": {d: list(w) for d, w in r_chosen.items()}, "label_chosen": l_chosen,
               "label_held_out": l_held_out,
               "proposal": dataclasses.asdict(proposal),
               "held_out": held_out, "default": default_rows, "retrieval_held_out": r_held_out,
               "curve": {str(t): v for t, v in curve.items()}, "readme": block}
    write_results(STEM, f"# Calibration\n\n{block}", payload, args.out)
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
