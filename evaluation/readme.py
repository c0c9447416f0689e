"""Regenerate the README's results from the last runs' JSON files.

    python -m evaluation.readme [--readme README.md] [--results evaluation/results] [--check]

Every ``<!-- results:<stem> -->`` ... ``<!-- /results:<stem> -->`` block is replaced by the ``readme`` string of
``<results>/<stem>.json``. A block whose JSON file is missing, or has no ``readme``, is left as it is and named on
stderr. ``--check`` changes nothing and exits 1 if any block differs from its JSON (a README edited by hand, or a
run not yet copied in).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from evaluation.common import RESULTS

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- results:(?P<stem>[\w.-]+) -->\n)(?P<body>.*?)(<!-- /results:(?P=stem) -->)", re.DOTALL)


def fill(text: str, results: Path) -> tuple[str, list[str], list[str]]:
    """Return the README text with every block filled, the stems filled and the stems left alone."""
    filled: list[str] = []
    missing: list[str] = []

    def replace(match: re.Match) -> str:
        stem = match["stem"]
        path = results / f"{stem}.json"
        block = None
        if path.is_file():
            block = json.loads(path.read_text(encoding="utf-8")).get("readme")
        if not block:
            missing.append(stem)
            return match.group(0)
        filled.append(stem)
        return f"{match.group(1)}{block.rstrip()}\n{match.group(4)}"

    return BLOCK.sub(replace, text), filled, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.readme", description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--check", action="store_true", help="exit 1 if the README differs from the results")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    new, filled, missing = fill(text, args.results)
    for stem in missing:
        print(f"left as it is: results:{stem} (no {stem}.json with a 'readme' block in {args.results})",
              file=sys.stderr)
    if args.check:
        if new != text:
            print(f"{args.readme} differs from {args.results}; run python -m evaluation.readme", file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.readme.write_text(new, encoding="utf-8")
    print(f"{args.readme}: {len(filled)} result blocks regenerated ({', '.join(filled) or 'none'})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
