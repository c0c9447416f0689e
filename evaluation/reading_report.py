"""The reading-fidelity report: ``reading.md`` and the README block, from the dict :func:`evaluation.reading.measure`
returned with its ``meta`` (see :mod:`evaluation.reading`)."""

from __future__ import annotations

from evaluation.common import machine_line, markdown_table
from evaluation.fidelity import LOW_SHARE


def share_text(r: dict) -> str:
    """A read's share of words matched in order, as the report and the progress lines show it."""
    return "error" if "error" in r else ("–" if r["share"] is None else f"{r['share']:.4f}")


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _cells(r: dict) -> list[str]:
    if "error" in r:
        return ["error: " + r["error"][:80].replace("|", "/")] + ["–"] * 7
    worst = r.get("worst_page")
    return [str(r["pages"]), share_text(r), str(r["pages_under"]),
            f"p{worst['number']}: {worst['share']:.3f}" if worst else "–", str(r["fffd"]), str(r["run_together"]),
            _seconds(r.get("s_per_page")), _seconds(r.get("cpu_s_per_page"))]


def _ratio(d: dict) -> str:
    wall, cpu = d.get("s_per_page_ratio"), d.get("cpu_s_per_page_ratio")
    return "–" if wall is None else f"{wall:.2f}x" + (f" (CPU {cpu:.2f}x)" if cpu else "")


def table(report: dict) -> str:
    """One row per document (and a "before" row under it when a baseline ran), then all documents together."""
    baseline = "baseline" in report
    head = ["document"] + (["code"] if baseline else []) + \
        ["pages", "words matched in order", "pages under 0.90", "worst page", "U+FFFD", "run-together tokens",
         "s/page", "CPU s/page"] + (["s/page after / before"] if baseline else [])
    before_label = f"before ({report['baseline']['ref']})" if baseline else ""
    rows = []
    for d in [*report["documents"], {"doc": "**all**", **report["total"], "total": True}]:
        after = {**d["after"], "worst_page": None} if d.get("total") else d["after"]
        rows.append([d["doc"]] + (["after"] if baseline else []) + _cells(after) + ([_ratio(d)] if baseline else []))
        if baseline:
            before = {**d["before"], "worst_page": None} if d.get("total") else d["before"]
            rows.append(["", before_label] + _cells(before) + [""])
    return markdown_table(head, rows, "llr" if baseline else "lr")


def _when(meta: dict) -> str:
    load = meta.get("load_average")
    busy = f", load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1/5/15 min) at the start" if load else ""
    return f"Measured {meta['date'][:10]} on {machine_line(meta['machine'])}{busy}"


def readme_block(report: dict) -> str:
    """The Markdown the README shows between ``<!-- results:reading -->`` markers."""
    meta = report["meta"]
    baseline = report.get("baseline")
    n = len(report["documents"])
    lines = [f"{_when(meta)}, {n} PDF{'s' if n != 1 else ''} against pdfplumber's text (x_tolerance "
             f"{meta['x_tolerance']}, NFKC, line-end hyphens re-joined: how the evidence strings were taken)"
             + (f", beside the reader of {baseline['ref']} (before)" if baseline else "") + ". Words matched in "
             "order: the longest common subsequence of the reference's words and ours over the reference's words. "
             "Run-together tokens: our words of 7+ letters that are 2+ consecutive reference words joined. "
             "s/page: wall time of `read_document` alone, after a warm-up"
             + ("; the two readers took turns document by document" if baseline else "") + ".", ""]
    return "\n".join([*lines, table(report)]) + "\n"


def _load(values: list[float] | None) -> str:
    return "unknown" if not values else " / ".join(f"{v:.2f}" for v in values)


def _readers(r: dict) -> str:
    return ", ".join(f"{name} {n}" for name, n in r["readers"].items()) if "readers" in r else "–"


def markdown(report: dict) -> str:
    meta = report["meta"]
    sides = ["after", "before"] if "baseline" in report else ["after"]
    lines = ["# Reading fidelity", "", f"- date: {meta['date']}", f"- machine: {machine_line(meta['machine'])}",
             f"- command: `{meta['command']}` ({meta['seconds']:.0f} s)",
             f"- load average (1/5/15 min) at the start {_load(meta['load_average'])}, at the end "
             f"{_load(meta['load_average_end'])}: timings taken while other work runs are slower",
             f"- reader (after): `{report['ingestion']}`"]
    if "baseline" in report:
        b = report["baseline"]
        lines.append(f"- before: git revision `{b['ref']}` ({b['commit'][:10]}), read from a temporary worktree "
                     "in a separate process")
    lines += ["- reference: pdfplumber `extract_text(x_tolerance=1.5)` per page, NFKC, `(cid:N)` removed, line-end "
              "hyphens re-joined, whitespace collapsed; words: NFKC, casefolded, split on whitespace, leading and "
              "trailing punctuation stripped", "", "## Per document", ""]
    lines += [table(report), "", "## Readers of the pages", "",
              markdown_table(["document", *sides], [[d["doc"], *(_readers(d[s]) for s in sides)]
                                                    for d in report["documents"]])]
    lines += ["", "## Lowest pages", "",
              f"Pages under {LOW_SHARE:.2f} (at most 5 per document, lowest first), with the longest runs of "
              "reference words missing from ours (lost) and of our words the reference lacks there (added)."]
    for d in report["documents"]:
        for side in sides:
            r = d[side]
            if "error" in r:
                continue
            low = sorted((p for p in r["page_figures"] if p["share"] is not None and p["share"] < LOW_SHARE),
                         key=lambda p: p["share"])[:5]
            examples = ", ".join(f"p{e['page']} `{e['token']}`" for e in r["run_together_examples"])
            if not low and not examples:
                continue
            lines += ["", f"### {d['doc']} ({side})", ""]
            if examples:
                lines += [f"Run-together tokens: {examples}", ""]
            for p in low:
                diff = p["differences"]
                lines.append(f"- p{p['number']} ({p['reader']}): {p['share']:.3f}, {p['matched']} of "
                             f"{p['reference_words']} reference words, {p['words']} ours; lost: "
                             + "; ".join(f"“{s}”" for s in diff["lost"]) + " | added: "
                             + "; ".join(f"“{s}”" for s in diff["added"])
                             + (f" ({diff['reversed']} reference words are ours spelt backwards: sideways text "
                                "pdfplumber read from the wrong end)" if diff.get("reversed") else ""))
    return "\n".join(lines) + "\n"
