"""The chunking-strategy grid: strategy x chunk size x overlap, each searched with every fusion method, with and
without the cross-encoder.

    python -m evaluation.compare [--strategies ...] [--sizes 500 1000 1500] [--overlaps 0 150]
                                 [--fusions weighted rrf] [--rerank off on] [--reranker MODEL]
                                 [--gold PATH] [--limit N] [--docs DIR] [--out evaluation/results]
                                 [--cache evaluation/.cache] [--rebuild] [--set NAME=VALUE ...]

Every chunking configuration gets its own store under ``<cache>/grid/<settings hash>``, into which each gold
document is ingested once; the search-time variants (fusion, reranking) then run over that same store, so nothing
is ingested per question or per variant. Each question searches its own document and is answered, as in
``python -m evaluation.eval``. Writes ``grid.md``, ``grid.json`` (with the README block) and ``grid.png`` to
``--out`` and prints the table.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evaluation.common import load_average, machine, machine_line, markdown_table, now, write_results
from evaluation.eval import evaluate
from evaluation.gold import load_gold
from evaluation.grid_chart import chart_rows, write_chart
from evaluation.harness import add_arguments, open_store, reported_settings
from evaluation.metrics import summarize

STRATEGIES = ("fixed_size", "recursive_char", "semantic")
FUSIONS = ("weighted", "rrf")
RERANK = ("off", "on")
# Strategies that do not use the overlap: one configuration per size, whatever --overlaps says.
NO_OVERLAP = {"semantic"}
ACC_KS = (1, 3, 5)
MODE, SCOPE = "hybrid", "doc"  # fusion only matters in hybrid mode; doc scope as in evaluation.eval
README_IMAGE = "evaluation/results/grid.png"  # the README lives at the repository root

_COLUMNS = (["strategy", "size", "overlap", "fusion", "rerank"] + [f"Acc@{k}" for k in ACC_KS]
            + ["MRR", "page hit@1", "abstain (unanswerable)", "false abstention", "chunks", "mean chars",
               "ingest s", "s/page"])


@dataclass(frozen=True)
class ChunkConfig:
    """One way of chunking the documents: what a store is built with.

    Attributes
    ----------
    strategy : ``fixed_size``, ``recursive_char`` or ``semantic``.
    size : chunk size in characters.
    overlap : characters shared by neighbours; None for a strategy that ignores it.
    """

    strategy: str
    size: int
    overlap: int | None

    @property
    def label(self) -> str:
        overlap = "–" if self.overlap is None else self.overlap
        return f"{self.strategy} size {self.size} overlap {overlap}"

    def settings(self) -> dict:
        """Settings overrides that build this configuration's store.

        A strategy that ignores the overlap is stored with overlap 0, so its cache key does not depend on
        ``--overlaps``.
        """
        return {"chunk_strategy": self.strategy, "chunk_size": self.size, "chunk_overlap": self.overlap or 0}


def chunk_configs(strategies: Iterable[str], sizes: Iterable[int],
                  overlaps: Iterable[int]) -> tuple[list[ChunkConfig], list[str]]:
    """Every chunking configuration to build, in the order given, and a note for each combination skipped.

    Parameters
    ----------
    strategies, sizes, overlaps : the values to combine; repeated values are used once.

    Returns
    -------
    configs : list[ChunkConfig]
        Strategy outermost, then size, then overlap. A strategy that ignores the overlap appears once per size
        with ``overlap`` None, since its stores would otherwise be identical.
    skipped : list[str]
        One line per combination whose overlap is not smaller than its size (the pipeline refuses those).
    """
    overlaps = list(dict.fromkeys(overlaps))
    configs: list[ChunkConfig] = []
    skipped: list[str] = []
    for strategy in dict.fromkeys(strategies):
        for size in dict.fromkeys(sizes):
            if strategy in NO_OVERLAP:
                configs.append(ChunkConfig(strategy, size, None))
                continue
            for overlap in overlaps:
                if overlap >= size:
                    skipped.append(f"{strategy} size {size} overlap {overlap}: skipped (overlap must be smaller "
                                   "than the size)")
                else:
                    configs.append(ChunkConfig(strategy, size, overlap))
    return configs, skipped


def search_variants(fusions: Iterable[str], rerank: Iterable[str], reranker_loaded: bool) -> list[tuple[str, bool]]:
    """(fusion, rerank) pairs to run on each store, in the order given.

    Rerank-on pairs are dropped when the cross-encoder did not load: searching "with" a reranker that is not
    there would only repeat the rerank-off row under another name.
    """
    return [(fusion, mode == "on") for fusion in dict.fromkeys(fusions) for mode in dict.fromkeys(rerank)
            if mode == "off" or reranker_loaded]


def ingestion_summary(records: dict[str, dict], chunk_lengths: Sequence[int]) -> dict:
    """Ingestion cost and chunk shape of one configuration.

    Parameters
    ----------
    records : doc -> record from :func:`evaluation.harness.ingest_docs` (``pages``, ``chunks``, ``seconds``,
        ``reused``).
    chunk_lengths : characters of every stored chunk of those documents.

    Returns
    -------
    dict
        ``pages``, ``chunks``, ``mean_chunk_chars``, ``seconds`` (total), ``seconds_per_page``, ``unmeasured``
        (documents whose ingestion was not timed) and ``reused`` (timings are from when the store was built).
        The seconds are None when any document was not timed: a partial total would make this configuration look
        cheaper than the others.
    """
    pages = sum(r["pages"] for r in records.values())
    unmeasured = sorted(doc for doc, r in records.items() if r["seconds"] is None)
    seconds = None if unmeasured or not records else sum(r["seconds"] for r in records.values())
    return {
        "pages": pages,
        "chunks": sum(r["chunks"] for r in records.values()),
        "mean_chunk_chars": sum(chunk_lengths) / len(chunk_lengths) if chunk_lengths else None,
        "seconds": seconds,
        "seconds_per_page": seconds / pages if seconds is not None and pages else None,
        "unmeasured": unmeasured,
        "reused": any(r["reused"] for r in records.values()),
    }


def grid_row(config: ChunkConfig, fusion: str, rerank: bool, summary: dict, ingestion: dict) -> dict:
    """One table row: a configuration, a search variant, its metrics (from metrics.summarize) and ingestion cost.

    ``acc@k`` is metrics' ``recall@k``: the share of answerable questions with a relevant passage in the top k.
    """
    overall = summary["overall"]
    return {
        "strategy": config.strategy, "size": config.size, "overlap": config.overlap, "fusion": fusion,
        "rerank": rerank,
        **{f"acc@{k}": overall[f"recall@{k}"] for k in ACC_KS},
        "mrr": overall["mrr"], "page_hit@1": overall["page_hit@1"],
        "abstain_on_unanswerable": overall["abstain_on_unanswerable"],
        "false_abstention": overall["false_abstention"],
        "n": overall["n"], "n_answerable": overall["n_answerable"],
        "chunks": ingestion["chunks"], "mean_chunk_chars": ingestion["mean_chunk_chars"],
        "ingest_seconds": ingestion["seconds"], "seconds_per_page": ingestion["seconds_per_page"],
        "by_kind": summary["by_kind"],
    }


def best_row(rows: Sequence[dict]) -> int | None:
    """Index of the row with the highest MRR; ties go to the higher Acc@1, then to the earlier row.

    None when no row has an MRR (no answerable questions).
    """
    scored = [i for i, r in enumerate(rows) if r["mrr"] is not None]
    if not scored:
        return None
    # max() keeps the first of equal keys, so among exact ties the configuration listed first wins.
    return max(scored, key=lambda i: (rows[i]["mrr"], rows[i]["acc@1"] or 0.0))


def _fmt(value, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _cells(row: dict) -> list[str]:
    return [
        row["strategy"], str(row["size"]), "–" if row["overlap"] is None else str(row["overlap"]), row["fusion"],
        "on" if row["rerank"] else "off",
        *[_fmt(row[f"acc@{k}"], 2) for k in ACC_KS],
        _fmt(row["mrr"], 3), _fmt(row["page_hit@1"], 2), _fmt(row["abstain_on_unanswerable"], 2),
        _fmt(row["false_abstention"], 2), str(row["chunks"]), _fmt(row["mean_chunk_chars"], 0),
        _fmt(row["ingest_seconds"], 1), _fmt(row["seconds_per_page"], 2),
    ]


def render_table(rows: Sequence[dict], best: int | None = None) -> str:
    """Markdown table of the grid rows in the order given; row ``best`` is set in bold."""
    return markdown_table(_COLUMNS, [[f"**{c}**" for c in _cells(row)] if i == best else _cells(row)
                                     for i, row in enumerate(rows)], "lllllr")


def reranker_note(status: dict, requested: bool) -> str:
    """One line saying whether the rerank-on rows were measured, and why not."""
    if not requested:
        return "reranking: not requested (--rerank off)"
    if status["loaded"]:
        return f"reranking: cross-encoder `{status['model']}`"
    # The pipeline's message ends with a full stop and names the environment variable; the grid has its own flag.
    error = (status["error"] or "the cross-encoder did not load").rstrip(". ")
    return f"reranking: not measured — {error}; pass --reranker PATH to a local cross-encoder folder"


def _chunk_lengths(pipeline, doc_ids: Iterable[str]) -> list[int]:
    return [len(c.text) for doc_id in doc_ids for c in pipeline.store.document_data(doc_id)[1]]


def _progress(fusion: str, rerank: bool, row: dict, seconds: float) -> str:
    return (f"  {fusion}/rerank {'on' if rerank else 'off'}: Acc@1 {_fmt(row['acc@1'], 2)} "
            f"Acc@3 {_fmt(row['acc@3'], 2)} Acc@5 {_fmt(row['acc@5'], 2)} MRR {_fmt(row['mrr'], 3)} "
            f"abstain {_fmt(row['abstain_on_unanswerable'], 2)} false abstention {_fmt(row['false_abstention'], 2)} "
            f"({row['n']} questions in {seconds:.1f} s)")


def run_config(config: ChunkConfig, questions, args: argparse.Namespace) -> tuple[list[dict], dict, dict]:
    """Build (or reuse) the store of one configuration and run every search variant on it.

    Returns
    -------
    rows : list[dict]
        One :func:`grid_row` per variant, each with ``questions`` (id -> rank and abstention).
    ingestion : dict
        :func:`ingestion_summary` plus the store path and per-document records.
    reranker : dict
        ``model``, ``loaded`` and ``error`` of the cross-encoder as this configuration's pipeline found it.
    """
    fusions = list(dict.fromkeys(args.fusions))
    settings = {**args.overrides, **config.settings(), "fusion": fusions[0], "reranker_model": args.reranker,
                "reranker_enabled": "on" in args.rerank}
    store = open_store(sorted({q.doc for q in questions}), args.docs, cache=args.cache / "grid", rebuild=args.rebuild,
                       **settings)
    first, records, doc_ids = store.pipeline, store.documents, store.doc_ids
    ingestion = ingestion_summary(records, _chunk_lengths(first, doc_ids.values()))
    cost = "timings unknown (rerun with --rebuild)" if ingestion["seconds"] is None else \
        f"{ingestion['seconds']:.1f} s ({ingestion['seconds_per_page']:.2f} s/page)"
    print(f"  ingest: {cost}, {ingestion['chunks']} chunks of {_fmt(ingestion['mean_chunk_chars'], 0)} chars"
          f"{' (timings from when the store was built)' if ingestion['reused'] else ''}", file=sys.stderr)

    reranker = {"model": first.reranker.model_name, "loaded": first.reranker.load(), "error": first.reranker.error}
    # Pipelines for the other fusions open the store after ingestion: a store is read from disk when opened.
    pipelines = {fusions[0]: first, **{f: store.reopen(fusion=f) for f in fusions[1:]}}
    rows = []
    for fusion, rerank in search_variants(fusions, args.rerank, reranker["loaded"]):
        started = time.perf_counter()
        per_question = evaluate(pipelines[fusion], questions, doc_ids, MODE, SCOPE,
                                args.top_k, answer=True, quiet=True, rerank=rerank)
        row = grid_row(config, fusion, rerank, summarize(per_question), ingestion)
        row["questions"] = {r["id"]: {"rank": r["rank"], "abstained": r["abstained"]} for r in per_question}
        rows.append(row)
        print(_progress(fusion, rerank, row, time.perf_counter() - started), file=sys.stderr)
    return rows, {**ingestion, "store": str(store.path), "documents": records}, reranker


def render_report(table: str, meta: dict) -> str:
    """``grid.md``: run details, notes and the table."""
    answerer = f"LLM `{meta['settings']['llm_model']}`" if meta["settings"]["llm"] else "extractive (no LLM key)"
    return "\n".join([
        "# Chunking grid: strategy x size x overlap x fusion x reranking",
        "",
        f"- date: {meta['date']}",
        f"- machine: {meta['machine_line']}",
        f"- gold: `{meta['gold']}` ({meta['questions']} questions: {meta['answerable']} answerable, "
        f"{meta['questions'] - meta['answerable']} unanswerable; documents {', '.join(meta['docs'])})",
        f"- {MODE} retrieval, each question searching its own document; answers: {answerer}, top_k {meta['top_k']}",
        f"- {meta['reranker_note']}",
        *[f"- {note}" for note in meta["skipped"]],
        "- Acc@k: share of answerable questions with a relevant passage in the top k; MRR cut at 8; abstention "
        "columns over unanswerable (higher is better) and answerable questions (lower is better)",
        "- ingestion: seconds to read, chunk, embed and index the documents when the configuration's store was "
        "built (the same for every search variant of a configuration); `–` overlap: the strategy ignores it",
        f"- best MRR in bold; chunking configurations: {len(meta['configs'])}; run in {meta['elapsed_seconds']:.0f} s, "
        f"load average {_loads(meta['load_average'])} at the start and {_loads(meta['load_average_end'])} at the end "
        "(timings are slower on a busy machine)",
        "",
        table,
        "",
        "![Chunking grid](grid.png)",
        "",
    ])


def _loads(values) -> str:
    return "–" if values is None else "/".join(f"{v:.1f}" for v in values)


def readme_block(table: str, meta: dict) -> str:
    """The Markdown the README shows between its ``results:grid`` markers (the day only, as the other blocks)."""
    notes = [meta["reranker_note"]] if not meta["reranker"]["loaded"] else []
    return "\n".join([
        f"Measured {meta['date'][:10]} on {meta['machine_line']}, {meta['questions']} questions",
        "",
        table,
        "",
        *[f"{note}" for note in notes],
        *([""] if notes else []),
        f"![Chunking grid]({README_IMAGE})",
        "",
    ])


def _shared_settings(settings) -> dict:
    """The settings every row shares; the ones the grid varies are in the rows, not here."""
    values = reported_settings(settings)
    for varied in ("chunk_strategy", "chunk_size", "chunk_overlap", "fusion", "data_dir"):
        values.pop(varied, None)
    return values


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evaluation.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategies", nargs="+", choices=STRATEGIES, default=list(STRATEGIES))
    parser.add_argument("--sizes", nargs="+", type=int, default=[500, 1000, 1500], help="chunk sizes, characters")
    parser.add_argument("--overlaps", nargs="+", type=int, default=[0, 150], help="chunk overlaps, characters")
    parser.add_argument("--fusions", nargs="+", choices=FUSIONS, default=list(FUSIONS))
    parser.add_argument("--rerank", nargs="+", choices=RERANK, default=list(RERANK))
    parser.add_argument("--reranker", default=None, metavar="MODEL",
                        help="cross-encoder: local folder or hub id (default: the settings' reranker_model)")
    # The stores go under <cache>/grid; --rebuild empties each configuration's store first.
    add_arguments(parser, out="grid.md, grid.json and grid.png", store=True, overrides=True)
    args = parser.parse_args(argv)
    # The pipeline's own limits, checked here so a typo fails before any ingestion rather than mid-grid.
    if any(not 100 <= s <= 20000 for s in args.sizes):
        parser.error(f"--sizes must be between 100 and 20000 characters, got {args.sizes}")
    if any(o < 0 for o in args.overlaps):
        parser.error(f"--overlaps must be at least 0, got {args.overlaps}")
    if args.reranker is None:
        from settings import Settings

        args.reranker = Settings().reranker_model
    args.top_k = 5  # the product's default answer depth, as evaluation.eval uses
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    questions = load_gold(args.gold)[:args.limit]
    configs, skipped = chunk_configs(args.strategies, args.sizes, args.overlaps)
    for note in skipped:
        print(note, file=sys.stderr)
    started = time.perf_counter()
    load_at_start = load_average()
    rows: list[dict] = []
    configs_meta: list[dict] = []
    reranker = {"model": args.reranker, "loaded": False, "error": "no configuration was run"}
    for i, config in enumerate(configs, start=1):
        print(f"[{i}/{len(configs)}] {config.label}: ingest ...", file=sys.stderr)
        config_rows, ingestion, reranker = run_config(config, questions, args)
        rows.extend(config_rows)
        configs_meta.append({"strategy": config.strategy, "size": config.size, "overlap": config.overlap,
                             **ingestion})

    from settings import Settings

    best = best_row(rows)
    table = render_table(rows, best)
    meta = {
        "date": now(), "machine": machine(), "machine_line": machine_line(machine()), "gold": str(args.gold),
        "questions": len(questions), "answerable": sum(1 for q in questions if q.answerable),
        "docs": sorted({q.doc for q in questions}), "limit": args.limit, "top_k": args.top_k,
        "strategies": args.strategies, "sizes": args.sizes, "overlaps": args.overlaps, "fusions": args.fusions,
        "rerank": args.rerank, "reranker": reranker, "reranker_note": reranker_note(reranker, "on" in args.rerank),
        "skipped": skipped, "configs": configs_meta, "best": best,
        "elapsed_seconds": round(time.perf_counter() - started, 1),
        # Ingestion and question timings depend on what else the machine was doing; this says how busy it was.
        "load_average": load_at_start, "load_average_end": load_average(),
        "settings": _shared_settings(Settings.preset("evaluation",
                                                     **{**args.overrides, "reranker_model": args.reranker})),
    }
    shown = chart_rows(rows)
    variant = f" ({shown[0]['fusion']} fusion, rerank {'on' if shown[0]['rerank'] else 'off'})" if shown else ""
    write_chart(shown, args.out / "grid.png", f"Chunking configurations, {len(questions)} gold questions{variant}")
    write_results("grid", render_report(table, meta),
                  {"meta": meta, "rows": rows, "readme": readme_block(table, meta)}, args.out)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
