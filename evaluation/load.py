"""Bounded load test on 127.0.0.1: N clients ask questions while M others upload documents.

    python -m evaluation.load [--askers 8] [--uploaders 2] [--seconds 60] [--docs 2] [--seed 0]
                              [--max-ingests N] [--out evaluation/results]

The API (no UI) runs on uvicorn in a background thread, on a free 127.0.0.1 port, over a temporary data dir, with
the product's default settings except per-client quotas, raised because every client shares 127.0.0.1. Before the
clock starts, one collection per uploader plus a shared one get ``--docs`` generated PDFs each. Every PDF states one
fact found nowhere else ("The capital of Velorin is Dakum-41."), and its file name starts with its collection's.

For ``--seconds``, each asker thread (its own httpx client) picks a random collection and asks, at random:

- ``ask``: ``POST /query`` about a fact of that collection: the answer must quote it;
- ``ask_stream``: the same through ``POST /query/stream`` (the ``done`` event is checked);
- ``ask_foreign``: ``POST /query`` about another collection's fact: it must not be answered from there.

Every answer's sources and citations must be files of the collection asked, and no answer may contain another
collection's fact: a breach is a *mix-up*, and counts as an error too. Each uploader thread keeps uploading new PDFs
into its own collection; a 503 (the concurrent-ingest cap, ``RAG_MAX_CONCURRENT_INGESTS``) or 429 is counted apart
and the same file is sent again after ``Retry-After``. An uploaded fact joins the questions as soon as its upload
returns. After the run, every collection must list exactly the documents accepted into it (nothing lost, nothing
extra), and every document's fact must be answerable, quoted and cited from that document.

Reports requests, errors (target 0, with examples), mix-ups, p50/p95/max latency per request type (successful
requests) and throughput, to ``<out>/load.md`` and ``load.json`` (with its ``readme`` block), and prints the table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from evaluation.common import machine, machine_line, markdown_table, now, percentile, write_results
from evaluation.common import serve as serve_app
from evaluation.harness import add_arguments

TYPES = ("ask", "ask_stream", "ask_foreign", "upload")
MIX = (("ask", 0.6), ("ask_stream", 0.2), ("ask_foreign", 0.2))
SHARED = "load-shared"
TIMEOUT = 180.0  # seconds per request: generous, a slow answer under load is measured, not failed
MAX_EXAMPLES = 10


# -- the server ----------------------------------------------------------------------------------------------------
@contextmanager
def serve(pipeline):
    """The API (no UI) around ``pipeline`` on a live server; yields its base URL."""
    from main import create_app

    with serve_app(create_app(pipeline=pipeline, ui=False)) as url:
        yield url


def load_settings(data_dir: Path, **overrides):
    """The product's settings for a run: a temporary data dir, no samples, no API key, quotas out of the way."""
    from settings import Settings

    return Settings.preset("evaluation", data_dir=data_dir, questions_per_hour=10_000_000,
                           uploads_per_hour=10_000_000, **overrides)


# -- the documents -------------------------------------------------------------------------------------------------
@dataclass
class Fact:
    """One generated PDF and the one fact it states."""

    collection: str
    filename: str
    place: str  # an invented name, unique across the run
    capital: str  # the answer, unique across the run
    doc_id: str | None = None  # once the upload was accepted

    @property
    def question(self) -> str:
        return f"What is the capital of {self.place}?"

    def pdf(self) -> bytes:
        from tests.support.pdf_factory import BODY_SIZE, SUBHEADING_SIZE, make_pdf

        return make_pdf([[(f"Field notes on {self.place}", SUBHEADING_SIZE),
                          (f"These notes describe the island of {self.place}, kept in {self.collection}.", BODY_SIZE),
                          (f"The capital of {self.place} is {self.capital}.", BODY_SIZE),
                          (f"Visitors reach {self.place} by ferry in the summer months.", BODY_SIZE)]])


class Facts:
    """Invents facts with names unique across the run (thread-safe, reproducible for one seed)."""

    SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]

    def __init__(self, seed: int):
        self._rng = random.Random(seed)
        self._used: set[str] = set()
        self._counts: Counter = Counter()
        self._lock = threading.Lock()

    def _word(self, syllables: int) -> str:
        while True:
            word = "".join(self._rng.choice(self.SYLLABLES) for _ in range(syllables)).capitalize()
            if word not in self._used:
                self._used.add(word)
                return word

    def new(self, collection: str) -> Fact:
        with self._lock:
            self._counts[collection] += 1
            place = self._word(3) + self._rng.choice(["ia", "or", "en", "ar"])
            capital = f"{self._word(2)}-{self._rng.randrange(10, 100)}"
            return Fact(collection, f"{collection}--{self._counts[collection]:03d}.pdf", place, capital)


# -- what happened -------------------------------------------------------------------------------------------------
@dataclass
class Tally:
    """Every request's outcome, shared by the client threads."""

    latencies: dict = field(default_factory=lambda: defaultdict(list))  # type -> seconds of successful requests
    counts: dict = field(default_factory=lambda: defaultdict(Counter))  # type -> Counter(ok, error, 503, 429)
    errors: list = field(default_factory=list)  # examples
    mixups: list = field(default_factory=list)  # examples
    n_mixups: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ok(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.counts[kind]["ok"] += 1
            self.latencies[kind].append(seconds)

    def refused(self, kind: str, status: int) -> None:
        with self.lock:
            self.counts[kind][str(status)] += 1

    def error(self, kind: str, what: str, mixup: bool = False) -> None:
        with self.lock:
            self.counts[kind]["error"] += 1
            if len(self.errors) < MAX_EXAMPLES:
                self.errors.append(f"{kind}: {what}")
            if mixup:
                self.n_mixups += 1
                if len(self.mixups) < MAX_EXAMPLES:
                    self.mixups.append(f"{kind}: {what}")


class Registry:
    """The facts accepted into each collection so far (thread-safe)."""

    def __init__(self, collections: list[str]):
        self.collections = collections
        self._facts: dict[str, list[Fact]] = {c: [] for c in collections}
        self._lock = threading.Lock()

    def add(self, fact: Fact) -> None:
        with self._lock:
            self._facts[fact.collection].append(fact)

    def facts(self, collection: str | None = None) -> list[Fact]:
        with self._lock:
            if collection is not None:
                return list(self._facts[collection])
            return [f for facts in self._facts.values() for f in facts]


# -- checks --------------------------------------------------------------------------------------------------------
def sse_done(text: str) -> dict:
    """The ``done`` event's data of an SSE answer; raises ValueError on an ``error`` event or none."""
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if fields.get("event") == "error":
            raise ValueError(f"error event: {fields.get('data')}")
        if fields.get("event") == "done":
            return json.loads(fields["data"])
    raise ValueError("no done event in the stream")


def check_answer(body: dict, fact: Fact, asked: str, registry: Registry) -> tuple[str | None, bool]:
    """What is wrong with an answer to ``fact``'s question asked of collection ``asked`` (None: nothing), and
    whether it is a mix-up (another collection's file or fact in it)."""
    files = {s["filename"] for s in body.get("sources", [])} | {c["filename"] for c in body.get("citations", [])}
    foreign = sorted(f for f in files if not f.startswith(asked + "--"))
    if foreign:
        return f"asked {asked!r}, got files of other collections: {foreign[:3]}", True
    answer = body.get("answer", "")
    leaked = [f.capital for f in registry.facts() if f.collection != asked and f.capital in answer]
    if leaked:
        return f"asked {asked!r} {fact.question!r}, answer holds other collections' facts {leaked[:3]}", True
    if fact.collection == asked:
        if fact.capital not in answer:
            return f"{fact.question!r} in {asked!r}: answer does not quote {fact.capital!r}: {answer[:160]!r}", False
        if fact.doc_id and fact.doc_id not in {c["doc_id"] for c in body.get("citations", [])}:
            return f"{fact.question!r} in {asked!r}: {fact.filename} not cited", False
    return None, False


# -- the clients ---------------------------------------------------------------------------------------------------
def ask(client: httpx.Client, kind: str, fact: Fact, collection: str, registry: Registry, tally: Tally) -> None:
    path = "/query/stream" if kind == "ask_stream" else "/query"
    t0 = time.perf_counter()
    try:
        r = client.post(path, json={"question": fact.question, "collection": collection})
        seconds = time.perf_counter() - t0
        if r.status_code in (429, 503):
            tally.refused(kind, r.status_code)
            return
        if r.status_code != 200:
            tally.error(kind, f"{path} {r.status_code}: {r.text[:200]}")
            return
        body = sse_done(r.text) if kind == "ask_stream" else r.json()
    except (httpx.HTTPError, ValueError) as exc:
        tally.error(kind, f"{path}: {type(exc).__name__}: {exc}")
        return
    problem, mixup = check_answer(body, fact, collection, registry)
    if problem:
        tally.error(kind, problem, mixup)
    else:
        tally.ok(kind, seconds)


def asker(base_url: str, seed: int, registry: Registry, tally: Tally, stop: threading.Event) -> None:
    rng = random.Random(seed)
    kinds, weights = zip(*MIX)
    with httpx.Client(base_url=base_url, timeout=TIMEOUT) as client:
        while not stop.is_set():
            collection = rng.choice(registry.collections)
            kind = rng.choices(kinds, weights)[0]
            others = [c for c in registry.collections if c != collection]
            if kind == "ask_foreign" and not others:
                kind = "ask"
            source = rng.choice(others) if kind == "ask_foreign" else collection
            try:
                ask(client, kind, rng.choice(registry.facts(source)), collection, registry, tally)
            except Exception as exc:  # noqa: BLE001 - a bug of this runner is reported, not a silent dead thread
                tally.error(kind, f"client failed: {exc!r}")


def upload(client: httpx.Client, fact: Fact, registry: Registry, tally: Tally, stop: threading.Event | None) -> bool:
    """Send one PDF until it is accepted (retrying after 503/429's Retry-After) or ``stop`` is set; True when
    accepted (then the fact is registered)."""
    data = fact.pdf()
    while True:
        t0 = time.perf_counter()
        try:
            r = client.post("/ingest", files={"file": (fact.filename, data, "application/pdf")},
                            data={"collection": fact.collection})
        except httpx.HTTPError as exc:
            tally.error("upload", f"{fact.filename}: {type(exc).__name__}: {exc}")
            return False
        seconds = time.perf_counter() - t0
        if r.status_code in (429, 503):
            tally.refused("upload", r.status_code)
            wait = float(r.headers.get("Retry-After", "1"))
            if stop is None:
                time.sleep(wait)
            elif stop.wait(wait):
                return False  # the run ended while waiting: the file was never accepted
            continue
        if r.status_code != 200 or r.json().get("collection") != fact.collection:
            tally.error("upload", f"{fact.filename} {r.status_code}: {r.text[:200]}")
            return False
        fact.doc_id = r.json()["doc_id"]
        registry.add(fact)
        tally.ok("upload", seconds)
        return True


def uploader(base_url: str, collection: str, facts: Facts, registry: Registry, tally: Tally,
             stop: threading.Event) -> None:
    with httpx.Client(base_url=base_url, timeout=TIMEOUT) as client:
        while not stop.is_set():
            try:
                upload(client, facts.new(collection), registry, tally, stop)
            except Exception as exc:  # noqa: BLE001
                tally.error("upload", f"client failed: {exc!r}")


# -- after the run -------------------------------------------------------------------------------------------------
def final_check(base_url: str, registry: Registry) -> dict:
    """Every accepted document listed in its collection (and nothing else there), and its fact answerable."""
    lost, extra, unanswerable = [], [], []
    with httpx.Client(base_url=base_url, timeout=TIMEOUT) as client:
        for collection in registry.collections:
            expected = {f.doc_id: f for f in registry.facts(collection)}
            listed = {d["doc_id"]: d for d in client.get("/documents", params={"collection": collection})
                      .raise_for_status().json()["documents"]}
            lost += [f"{f.filename} ({doc_id})" for doc_id, f in expected.items() if doc_id not in listed]
            extra += [f"{collection}: {d['filename']} ({doc_id})" for doc_id, d in listed.items()
                      if doc_id not in expected]
            for fact in expected.values():
                r = client.post("/query", json={"question": fact.question, "collection": collection})
                problem = f"{r.status_code}: {r.text[:200]}" if r.status_code != 200 else \
                    check_answer(r.json(), fact, collection, registry)[0]
                if problem:
                    unanswerable.append(f"{fact.filename}: {problem}")
    return {"documents": len(registry.facts()), "lost": lost, "extra": extra, "unanswerable": unanswerable,
            "ok": not (lost or extra or unanswerable)}


# -- the run -------------------------------------------------------------------------------------------------------
def run(askers: int = 8, uploaders: int = 2, seconds: float = 60.0, *, docs: int = 2, seed: int = 0,
        data_dir: Path | None = None, **settings_overrides) -> dict:
    """Serve, prepare the collections, load for ``seconds``, check, and return the report (JSON-ready)."""
    from pipeline import Pipeline

    with tempfile.TemporaryDirectory(prefix="rag-load-") as tmp:
        settings = load_settings(Path(data_dir or tmp) / "storage", **settings_overrides)
        pipeline = Pipeline(settings)
        collections = [f"load-u{i + 1}" for i in range(uploaders)] + [SHARED]
        registry, tally, facts = Registry(collections), Tally(), Facts(seed)
        with serve(pipeline) as url:
            setup = Tally()
            with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
                for collection in collections:
                    for _ in range(docs):
                        if not upload(client, facts.new(collection), registry, setup, None):
                            raise RuntimeError(f"preparing {collection} failed: {setup.errors}")
            stop = threading.Event()
            threads = [threading.Thread(target=asker, args=(url, seed * 1000 + i, registry, tally, stop),
                                        name=f"asker-{i}") for i in range(askers)]
            threads += [threading.Thread(target=uploader, args=(url, collections[i], facts, registry, tally, stop),
                                         name=f"uploader-{i}") for i in range(uploaders)]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            stop.wait(seconds)
            stop.set()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - t0
            final = final_check(url, registry)
    return report(tally, final, elapsed, askers=askers, uploaders=uploaders, seconds=seconds, docs=docs, seed=seed,
                  collections=collections, settings=settings, answer_mode="llm" if pipeline.llm else "extractive")


def report(tally: Tally, final: dict, elapsed: float, *, settings, **meta) -> dict:
    requests = {}
    for kind in TYPES:
        c, lat = tally.counts.get(kind, Counter()), tally.latencies.get(kind, [])
        requests[kind] = {"ok": c["ok"], "errors": c["error"], "503": c["503"], "429": c["429"],
                          "p50": percentile(lat, 50), "p95": percentile(lat, 95), "max": max(lat, default=None)}
    questions = sum(requests[k]["ok"] for k in TYPES if k != "upload")
    return {
        "meta": {"date": now(), "machine": machine(), "elapsed_seconds": round(elapsed, 1), **meta,
                 "max_concurrent_ingests": settings.max_concurrent_ingests, "parse_isolated": settings.parse_isolated},
        "requests": requests,
        # Requests that failed, plus every document lost, extra or not answerable after the run.
        "errors": sum(r["errors"] for r in requests.values()) + len(final["lost"]) + len(final["extra"])
        + len(final["unanswerable"]),
        "error_examples": tally.errors,
        "mixups": tally.n_mixups,
        "mixup_examples": tally.mixups,
        "refused": {"503": sum(r["503"] for r in requests.values()), "429": sum(r["429"] for r in requests.values())},
        "throughput": {"questions_per_second": round(questions / elapsed, 2),
                       "uploads_per_minute": round(requests["upload"]["ok"] / elapsed * 60, 1)},
        "final": final,
    }


# -- the report ----------------------------------------------------------------------------------------------------
def table(result: dict) -> str:
    def s(v):
        return "-" if v is None else f"{v:.2f}"

    lines = [markdown_table(["request", "ok", "errors", "503", "429", "p50 s", "p95 s", "max s"],
                            [[kind, r["ok"], r["errors"], r["503"], r["429"], s(r["p50"]), s(r["p95"]), s(r["max"])]
                             for kind, r in result["requests"].items()], "lr")]
    t, f = result["throughput"], result["final"]
    lines.append("")
    lines.append(f"Throughput: {t['questions_per_second']} questions/s, {t['uploads_per_minute']} uploads/min. "
                 f"Errors: {result['errors']}, mix-ups: {result['mixups']}. After the run: {f['documents']} documents, "
                 f"{len(f['lost'])} lost, {len(f['extra'])} extra, {len(f['unanswerable'])} not answerable.")
    return "\n".join(lines)


def render(result: dict) -> tuple[str, str]:
    """The Markdown report and the README block."""
    m = result["meta"]
    head = (f"Measured {m['date'][:10]} on {machine_line(m['machine'])}: {m['askers']} askers, {m['uploaders']} "
            f"uploaders, {m['seconds']:g} s")
    readme = f"{head}.\n\n{table(result)}\n"
    sections = [f"# Load test on 127.0.0.1\n\n- date: {m['date']}\n- machine: {machine_line(m['machine'])}\n"
                f"- {m['askers']} askers, {m['uploaders']} uploaders, {m['seconds']:g} s "
                f"(elapsed {m['elapsed_seconds']} s), {len(m['collections'])} collections "
                f"({', '.join(m['collections'])}) of {m['docs']} PDFs each to start, seed {m['seed']}\n"
                f"- answers: {m['answer_mode']}; concurrent ingests at most {m['max_concurrent_ingests']}; "
                f"isolated parsing: {m['parse_isolated']}\n"
                f"- latency over successful requests; 503/429 are refusals (retried after Retry-After), not errors",
                table(result)]
    for title, items in (("Errors", result["error_examples"]), ("Mix-ups", result["mixup_examples"]),
                         ("Lost", result["final"]["lost"]), ("Extra", result["final"]["extra"]),
                         ("Not answerable after the run", result["final"]["unanswerable"])):
        if items:
            sections.append(f"## {title}\n\n" + "\n".join(f"- {item}" for item in items[:MAX_EXAMPLES]))
    return "\n\n".join(sections) + "\n", readme


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--askers", type=int, default=8)
    parser.add_argument("--uploaders", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--docs", type=int, default=2, help="PDFs in each collection before the run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-ingests", type=int, default=None,
                        help="RAG_MAX_CONCURRENT_INGESTS for the run (default: the setting's)")
    add_arguments(parser, gold=False, docs=None, out="load.md and load.json")  # --docs here counts PDFs
    args = parser.parse_args(argv)
    if args.askers < 0 or args.uploaders < 0 or args.askers + args.uploaders == 0 or args.docs < 1:
        parser.error("need at least one asker or uploader, and --docs of at least 1")
    overrides = {"max_concurrent_ingests": args.max_ingests} if args.max_ingests else {}
    result = run(args.askers, args.uploaders, args.seconds, docs=args.docs, seed=args.seed, **overrides)
    markdown, result["readme"] = render(result)
    write_results("load", markdown, result, args.out)
    print(table(result))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
