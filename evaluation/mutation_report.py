"""The mutation score per module, from the results mutmut left in ``mutants/``.

    python -m evaluation.mutation_report [--sample PATTERN] [--save-before] [--write] [--seconds S]
                                         [--min-score PCT]

A module's mutants are those of ``[tool.mutmut] only_mutate`` in pyproject.toml; a mutant counts as **killed** when
a test failed on it, or it ran past its time limit (a loop that never ends is a mistake the tests caught). The
score is killed / mutants: a mutant no test reaches counts as a survivor.

``--sample PATTERN`` counts only the mutants whose name matches the glob (the CI sample, see the Makefile).
``--save-before`` records the scores as ``mutation-before.json`` (the suite before the mutation tests were added);
``--write`` writes ``mutation.json`` and the table block of ``mutation.md`` (both in evaluation/results/), next to
the scores before, with ``--seconds`` as the run's duration. ``--min-score`` exits 1 when the overall score is below
it (CI's gate).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
import tomllib
from pathlib import Path

from evaluation.common import RESULTS

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
TABLE = re.compile(r"(<!-- mutation-table -->\n).*?(<!-- /mutation-table -->)", re.DOTALL)
KILLED = {"killed", "timeout"}
# mutmut's exit codes (mutmut.stats.status_by_exit_code, 3.8.1), kept here so a report needs no mutmut import.
_STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 36: "timeout",
           -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "not checked", 2: "interrupted",
           -11: "segfault", -9: "segfault"}


def modules(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The files mutation testing covers, as pyproject.toml's ``[tool.mutmut] only_mutate`` lists them."""
    return list(tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["mutmut"]["only_mutate"])


def statuses(module: str, mutants: Path = MUTANTS, sample: str | None = None) -> dict[str, str]:
    """Each mutant of ``module`` (a path such as ``retrieval/fusion.py``) and what became of it."""
    meta = mutants / f"{module}.meta"
    if not meta.is_file():
        return {}
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    return {name: _STATUS.get(code, "suspicious") for name, code in sorted(codes.items())
            if sample is None or fnmatch.fnmatch(name, sample)}


def score(found: dict[str, str]) -> dict:
    killed = sum(status in KILLED for status in found.values())
    survivors = sorted(name for name, status in found.items() if status not in KILLED)
    return {"mutants": len(found), "killed": killed,
            "score": round(100 * killed / len(found), 1) if found else None,
            "unchecked": sum(status == "not checked" for status in found.values()), "survivors": survivors}


def measure(mutants: Path = MUTANTS, sample: str | None = None) -> dict[str, dict]:
    """Per module (and ``all``): mutants, killed, score (percent) and the survivors' names."""
    by_module = {m: statuses(m, mutants, sample) for m in modules()}
    result = {m: score(found) for m, found in by_module.items()}
    result["all"] = score({name: status for found in by_module.values() for name, status in found.items()})
    return result


def _pct(value) -> str:
    return "-" if value is None else f"{value:.1f} %"


def table(after: dict[str, dict], before: dict[str, dict]) -> str:
    """The Markdown table: module, mutants, killed before and after, score before and after."""
    rows = ["| module | mutants | killed before | killed after | score before | score after |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for module, now in after.items():
        then = before.get(module, {})
        name = "**all**" if module == "all" else f"`{module}`"
        rows.append(f"| {name} | {now['mutants']} | {then.get('killed', '-')} | {now['killed']} | "
                    f"{_pct(then.get('score'))} | {_pct(now['score'])} |")
    return "\n".join(rows) + "\n"


def write(after: dict[str, dict], seconds: float | None, results: Path = RESULTS) -> Path:
    """``mutation.json`` and the table block of ``mutation.md``; returns the Markdown file's path."""
    before_path = results / "mutation-before.json"
    before = json.loads(before_path.read_text(encoding="utf-8"))["modules"] if before_path.is_file() else {}
    (results / "mutation.json").write_text(json.dumps({"seconds": seconds, "modules": after}, indent=2) + "\n",
                                           encoding="utf-8")
    md = results / "mutation.md"
    text = md.read_text(encoding="utf-8") if md.is_file() else (
        "# Mutation testing\n\n<!-- mutation-table -->\n<!-- /mutation-table -->\n")
    block = table(after, before) + (f"\nFull run: {seconds:.0f} s.\n" if seconds else "")
    md.write_text(TABLE.sub(lambda m: f"{m.group(1)}{block}{m.group(2)}", text), encoding="utf-8")
    return md


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.mutation_report", description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=Path, default=MUTANTS, help="mutmut's folder (default: ./mutants)")
    parser.add_argument("--sample", help="count only the mutants whose name matches this glob")
    parser.add_argument("--save-before", action="store_true", help="record these scores as the ones before")
    parser.add_argument("--write", action="store_true", help="write mutation.json and mutation.md's table")
    parser.add_argument("--seconds", type=float, help="the run's duration, for --write")
    parser.add_argument("--min-score", type=float, help="exit 1 when the overall score is below this percentage")
    args = parser.parse_args(argv)
    found = measure(args.mutants, args.sample)
    if not found["all"]["mutants"]:
        print(f"no mutation results in {args.mutants}: run `make mutation` first", file=sys.stderr)
        return 1
    print(table(found, {}), end="")
    if args.save_before:
        (RESULTS / "mutation-before.json").write_text(json.dumps({"modules": found}, indent=2) + "\n",
                                                      encoding="utf-8")
    if args.write:
        print(f"written: {write(found, args.seconds)}", file=sys.stderr)
    overall = found["all"]
    for name in overall["survivors"]:
        print(f"survived: {name}", file=sys.stderr)
    if overall["unchecked"]:
        print(f"{overall['unchecked']} mutants were not checked (an interrupted run?)", file=sys.stderr)
    if args.min_score is not None and (overall["score"] or 0.0) < args.min_score:
        print(f"mutation score {overall['score']} % is below {args.min_score} %", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
