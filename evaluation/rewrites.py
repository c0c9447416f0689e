"""Follow-up rewriting measured on a hand-written set: what the local rules rewrite, and whether they should.

    python -m evaluation.rewrites [--set evaluation/data/followups.jsonl] [--out evaluation/results]

Each line of the set is a (history, question) pair: ``id``, ``domain``, ``history`` (earlier ``{"question",
"answer"}`` exchanges, oldest first), ``question``, ``follow_up`` (whether it needs the history) and ``expected``
(a standalone rewrite a person would accept; the question itself for a standalone one), and optionally ``added``
(the pairs written after the rules, which they were never tuned on). Every pair is resolved as
the product resolves it without an LLM (:func:`generation.conversation.resolve_with_certainty`, no rewriter), the
history replayed through the same function first. Reported, overall and per domain:

* precision: of the questions rewritten, the share that are follow-ups;
* recall: of the follow-ups, the share rewritten;
* standalone questions wrongly rewritten, listed by id;
* the share of "unsure" verdicts (``certain`` False: the pipeline searches both the question and its rewrite);
* key words: of the follow-ups, the share whose rewrite holds every content word of ``expected`` that the question
  lacks (a loose check of the rewrite's content, not of its wording).

Writes ``rewrites.md`` and ``.json`` (with a ``readme`` block) and prints the table. The local rules were
written with this set in view: its figures guard against regressions rather than measure unseen questions.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evaluation.common import HERE, machine, machine_line, now, write_results

DEFAULT_SET = HERE / "data" / "followups.jsonl"
FIELDS = ("id", "domain", "history", "question", "follow_up", "expected")


@dataclass(frozen=True)
class Pair:
    """One (history, question) pair of the set; ``history`` holds (question, answer) tuples, oldest first;
    ``added`` marks a pair written after the rules."""

    id: str
    domain: str
    history: tuple[tuple[str, str], ...]
    question: str
    follow_up: bool
    expected: str
    added: bool = False


def load_pairs(path: Path) -> list[Pair]:
    """The pairs of a JSON-lines file; ValueError naming the line for a missing field or a duplicate id."""
    pairs: list[Pair] = []
    seen: set[str] = set()
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        missing = [f for f in FIELDS if f not in row]
        if missing:
            raise ValueError(f"{path}:{number}: missing {', '.join(missing)}")
        if row["id"] in seen:
            raise ValueError(f"{path}:{number}: duplicate id {row['id']!r}")
        seen.add(row["id"])
        history = tuple((h["question"], h["answer"]) for h in row["history"])
        pairs.append(Pair(row["id"], row["domain"], history, row["question"], bool(row["follow_up"]),
                          row["expected"], bool(row.get("added"))))
    return pairs


# --------------------------------------------------------------------------------------------------------------
# The loose key-word check
# --------------------------------------------------------------------------------------------------------------

_STOP = frozenset(
    "a an the of in on at for with by from to into about over under between during after before than as per via "
    "and or but so if then also is are was were be been being am do does did has have had can could should would "
    "will shall may might must what which who whom whose when where why how it its they them their this that these "
    "those he she his her i me my we our you your there here not no please tell more".split())
_WORD = re.compile(r"\w(?:[\w.\u2019'-]*\w)?")


def content_words(text: str) -> set[str]:
    """Lower-cased words that are not function words, possessive and plural ``s`` dropped.

    >>> sorted(content_words("How are the globs2 file's lines ordered?"))
    ['file', 'globs2', 'line', 'ordered']
    """
    words = set()
    for word in _WORD.findall(text.lower().replace("\u2019", "'")):
        word = re.sub(r"'s?$", "", word)
        if word in _STOP or not word:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
            word = word[:-1]
        words.add(word)
    return words


def key_words_kept(question: str, expected: str, rewrite: str) -> bool:
    """Whether ``rewrite`` holds every content word of ``expected`` that ``question`` lacks.

    >>> key_words_kept("who proposed it?", "Who proposed AdaMax?", "who proposed AdaMax?")
    True
    >>> key_words_kept("who proposed it?", "Who proposed AdaMax?", "who proposed it? (about Adam)")
    False
    """
    return (content_words(expected) - content_words(question)) <= content_words(rewrite)


# --------------------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------------------

# (question, history of Turns) -> (standalone question, method, certain)
Resolver = Callable[[str, Sequence], tuple[str, str, bool]]


def local_resolver(question: str, history: Sequence) -> tuple[str, str, bool]:
    """The product's resolution without an LLM."""
    from generation.conversation import resolve_with_certainty

    r = resolve_with_certainty(question, history)
    return r.question, r.method, r.certain


def outcomes(pairs: Iterable[Pair], resolver: Resolver = local_resolver) -> list[dict]:
    """One row per pair: what ``resolver`` made of its question after replaying its history."""
    from generation.conversation import Turn

    rows = []
    for pair in pairs:
        turns: list = []
        for question, answer in pair.history:
            resolved = resolver(question, list(turns))[0]
            turns.append(Turn.from_exchange(question, resolved, answer))
        rewrite, method, certain = resolver(pair.question, turns)
        rewritten = " ".join(rewrite.split()) != " ".join(pair.question.split())
        rows.append({"id": pair.id, "domain": pair.domain, "follow_up": pair.follow_up, "question": pair.question,
                     "expected": pair.expected, "rewrite": rewrite, "method": method, "certain": bool(certain),
                     "rewritten": rewritten,
                     "key_words": key_words_kept(pair.question, pair.expected, rewrite) if pair.follow_up else None})
    return rows


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def summarize(rows: Sequence[dict]) -> dict:
    """Precision, recall, wrongly rewritten standalone questions, unsure share and key words over ``rows``."""
    follow = [r for r in rows if r["follow_up"]]
    alone = [r for r in rows if not r["follow_up"]]
    rewritten = [r for r in rows if r["rewritten"]]
    hits = sum(r["follow_up"] for r in rewritten)
    wrong = [r["id"] for r in alone if r["rewritten"]]
    return {
        "pairs": len(rows), "follow_ups": len(follow), "standalone": len(alone), "rewritten": len(rewritten),
        "precision": _share(hits, len(rewritten)), "recall": _share(hits, len(follow)),
        "standalone_rewritten": len(wrong), "standalone_rewritten_ids": wrong,
        "unsure": sum(not r["certain"] for r in rows), "unsure_share": _share(sum(not r["certain"] for r in rows),
                                                                               len(rows)),
        "unsure_standalone": sum(not r["certain"] for r in alone),
        "unsure_follow_ups": sum(not r["certain"] for r in follow),
        "key_words": sum(bool(r["key_words"]) for r in follow), "key_words_share": _share(
            sum(bool(r["key_words"]) for r in follow), len(follow)),
    }


def by_domain(rows: Sequence[dict]) -> dict[str, dict]:
    """:func:`summarize` for each domain, in order of first appearance, then ``"all"``."""
    domains = list(dict.fromkeys(r["domain"] for r in rows))
    out = {d: summarize([r for r in rows if r["domain"] == d]) for d in domains}
    out["all"] = summarize(rows)
    return out


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def table(summaries: dict[str, dict]) -> str:
    """The Markdown table of :func:`by_domain`."""
    lines = ["| domain | pairs | standalone wrongly rewritten | follow-ups rewritten (recall) | precision | "
             "rewrite has the key words | unsure |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, s in summaries.items():
        label = f"**{name}**" if name == "all" else name
        lines.append(f"| {label} | {s['pairs']} | {s['standalone_rewritten']} / {s['standalone']} | "
                     f"{s['rewritten'] - s['standalone_rewritten']} / {s['follow_ups']} ({_fmt(s['recall'])}) | "
                     f"{_fmt(s['precision'])} | {s['key_words']} / {s['follow_ups']} | "
                     f"{s['unsure']} ({_fmt(s['unsure_share'])}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.rewrites", description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="the (history, question) pairs")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    pairs = load_pairs(args.set)
    rows = outcomes(pairs)
    summaries = by_domain(rows)
    total = summaries.pop("all")
    added = [r for r, p in zip(rows, pairs) if p.added]
    if added:  # the pairs written with the rules in view, and those written after them
        summaries["original"] = summarize([r for r, p in zip(rows, pairs) if not p.added])
        summaries["added"] = summarize(added)
    summaries["all"] = total
    text = table(summaries)
    date, where = now(), machine()
    wrong = ", ".join(f"`{i}`" for i in total["standalone_rewritten_ids"]) or "none"
    source = args.set.relative_to(HERE.parent) if args.set.is_relative_to(HERE.parent) else args.set
    intro = (f"{total['pairs']} (history, question) pairs in `{source}` ({total['standalone']} standalone "
             f"questions, most holding it/its/this/they/their, {total['follow_ups']} follow-ups), resolved by the "
             f"local rules (no LLM). Standalone questions wrongly rewritten: {wrong}. The rules were written with "
             f"the original pairs in view, so their figures check for regressions; the {len(added)} added pairs were "
             f"written after the rules and never tuned on.")
    misses = [f"- `{r['id']}` {r['question']!r} -> {r['rewrite']!r}" + ("" if r["certain"] else " (unsure)")
              for r in rows if r["rewritten"] != r["follow_up"] or (r["follow_up"] and not r["key_words"])]
    unsure = [f"- `{r['id']}` {r['question']!r} -> {r['rewrite']!r}" for r in rows if not r["certain"]]
    report = (f"# Follow-up rewriting by the local rules\n\n- date: {date}\n- machine: {machine_line(where)}\n"
              f"- set: `{source}`\n\n{intro}\n\n{text}\n\n"
              f"## Wrong or incomplete\n\n{chr(10).join(misses) or 'none'}\n\n"
              f"## Unsure verdicts\n\n{chr(10).join(unsure) or 'none'}\n")
    readme = f"Measured {date[:10]} on {machine_line(where)}. {intro}\n\n{text}\n"
    write_results("rewrites", report, {"meta": {"date": date, "machine": where, "set": str(source)},
                                       "summary": summaries, "rows": rows, "readme": readme}, args.out)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
