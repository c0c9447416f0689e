"""Hostile and malformed uploads against a live server: every file gets a clear answer, the server stays up.

    python -m evaluation.hostile [--out evaluation/results] [--only CASE ...]

Starts the HTTP API (``main.create_app``, without the UI) on a real uvicorn in a background thread, on 127.0.0.1 with
a temporary data folder and the limits of :data:`tests.support.hostile_factory.LIMITS`. It indexes a known
document and asks it a question, then posts every file of the hostile corpus
(:func:`tests.support.hostile_factory.build_corpus`) to ``/ingest`` one after the other while a second thread asks
``/health`` every 50 ms. Each answer is checked against the case's expected outcome: a refusal with the right status and a message that names the file and says what was
wrong, or an indexed document with the right pages, unread pages, warnings and stored name whose passages (asked
through ``/query``) hold the text printed in the file, byte for byte, and nothing of its attachments or scripts.
At the end the known document must still be listed unchanged and answer its question the same way, and a
prompt-injection document indexed beside it must not change that answer.

Writes ``hostile.md`` and ``hostile.json`` (per-file rows, the health checks and a ``readme`` block for
``python -m evaluation.readme``) to ``--out`` and exits 1 if any check failed.
``tests/integration/test_hostile.py`` runs the same code.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import httpx

from evaluation.common import RESULTS, machine, machine_line, markdown_table, now, percentile, write_results
from evaluation.common import serve as serve_app
from evaluation.harness import add_arguments
from tests.support import pdf_factory as pf
from tests.support.hostile_factory import INJECTION_MARK, LIMITS, Case, build_corpus

KNOWN_NAME = "survey.pdf"
KNOWN_QUESTION = "What is the capital of Freedonia?"
KNOWN_ANSWER = pf.KNOWN_PAGE_FACTS[2]  # "The capital of Freedonia is Marsupia."
HEALTH_INTERVAL = 0.05  # seconds between /health requests
HEALTH_TIMEOUT = 2.0  # a /health request not answered within this counts as failed
INGEST_TIMEOUT = 120.0

# Why a file was refused, told from the refusal's message (first match), else from its HTTP status.
REFUSAL_MESSAGES = [("password", "encrypted"), ("decompression bomb", "decompression bomb"),
                    ("pages, more than", "too many pages"), ("larger than", "too large"), ("empty", "empty"),
                    ("only whitespace", "empty"), ("damaged or truncated", "damaged"), ("truncated", "truncated"),
                    ("cannot be parsed", "damaged"), ("damaged", "damaged"), ("has no pages", "no pages"), ("no text layer", "no text"),
                    ("not supported", "unsupported type"), ("is not a PDF", "not a PDF"),
                    ("is a PDF", "not a text file"), ("binary data", "not a text file")]
REFUSAL_STATUSES = {400: "bad request", 413: "too large", 415: "unsupported type", 422: "unreadable",
                    429: "rate limited", 503: "busy"}


# --- The server -----------------------------------------------------------------------------------------------------


def hostile_settings(data_dir: Path, limits: dict | None = None):
    """Settings for the run: a fresh data folder, no sample documents, the corpus limits, no upload quota."""
    from settings import Settings

    return Settings.preset("evaluation", data_dir=data_dir, uploads_per_hour=10_000, questions_per_hour=10_000,
                           _env_file=None, **{**LIMITS, **(limits or {})})


@contextmanager
def serve(settings) -> Iterator[str]:
    """The API with ``settings`` on a live server; yields its base URL."""
    from main import create_app

    with serve_app(create_app(settings, ui=False)) as url:
        yield url


class HealthPoller:
    """Asks ``/health`` every :data:`HEALTH_INTERVAL` seconds in a thread of its own, until stopped.

    A check fails when it is not answered within :data:`HEALTH_TIMEOUT`, or not with 200 and ``status: ok``.
    """

    def __init__(self, url: str):
        self.url = url + "/health"
        self.latencies: list[float] = []  # seconds, of the answered checks
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="health-poller", daemon=True)

    def __enter__(self) -> HealthPoller:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(HEALTH_TIMEOUT + 5)

    def _run(self) -> None:
        with httpx.Client(timeout=HEALTH_TIMEOUT) as client:
            while not self._stop.is_set():
                started = time.perf_counter()
                try:
                    r = client.get(self.url)
                    elapsed = time.perf_counter() - started
                    if r.status_code == 200 and r.json().get("status") == "ok":
                        self.latencies.append(elapsed)
                    else:
                        self.failures.append(f"HTTP {r.status_code}: {r.text[:200]}")
                except (httpx.HTTPError, ValueError) as exc:
                    self.failures.append(f"{type(exc).__name__}: {exc}")
                self._stop.wait(max(0.0, HEALTH_INTERVAL - (time.perf_counter() - started)))

    def summary(self) -> dict:
        ms = [1000 * s for s in self.latencies]
        return {"checks": len(ms) + len(self.failures), "failed": len(self.failures), "failures": self.failures[:10],
                "max_ms": round(max(ms), 1) if ms else None, "p50_ms": _round(percentile(ms, 50)),
                "p99_ms": _round(percentile(ms, 99)), "interval_ms": 1000 * HEALTH_INTERVAL,
                "timeout_ms": 1000 * HEALTH_TIMEOUT}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


# --- One upload -----------------------------------------------------------------------------------------------------


def multipart(filename: str, data: bytes, fields: dict[str, str] | None = None) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body carrying ``data`` under ``filename`` exactly as given (control characters,
    folders and all, as a hostile client sends it); returns the body and its content type."""
    boundary = uuid.uuid4().hex
    body = bytearray()
    for key, value in (fields or {}).items():
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{key}\"\r\n\r\n{value}\r\n").encode()
    quoted = filename.replace("\\", "\\\\").replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
    body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{quoted}\"\r\n"
             "Content-Type: application/octet-stream\r\n\r\n").encode()
    body += data + f"\r\n--{boundary}--\r\n".encode()
    return bytes(body), f"multipart/form-data; boundary={boundary}"


@dataclass
class Row:
    """What happened to one file."""

    case: str
    hazard: str
    filename: str
    size: int
    expected: str  # "accepted" or "refused <status>"
    status: int
    seconds: float
    outcome: str  # "accepted", "accepted with warnings", "partial (unread pages ...)", "refused 415 (wrong type)"
    message: str  # the refusal's detail, or the warnings joined
    ok: bool = True
    problems: list[str] = field(default_factory=list)
    doc_id: str | None = None
    stored_as: str | None = None
    pages: int | None = None
    unread_pages: list[int] = field(default_factory=list)


def ingest(client: httpx.Client, url: str, filename: str, data: bytes, collection: str = "default") \
        -> tuple[int, dict, float]:
    """POST one file to /ingest; return the status, the JSON body and the seconds it took."""
    body, content_type = multipart(filename, data, {"collection": collection})
    started = time.perf_counter()
    r = client.post(url + "/ingest", content=body, headers={"Content-Type": content_type}, timeout=INGEST_TIMEOUT)
    seconds = time.perf_counter() - started
    try:
        payload = r.json()
    except ValueError:
        payload = {"detail": r.text[:500]}
    return r.status_code, payload, seconds


def ask(client: httpx.Client, url: str, question: str, doc_ids: list[str] | None = None, top_k: int = 10,
        collection: str = "default") -> dict:
    r = client.post(url + "/query", json={"question": question[:1000], "doc_ids": doc_ids, "top_k": top_k,
                                          "collection": collection}, timeout=60)
    r.raise_for_status()
    return r.json()


def _squash(text: str) -> str:
    return " ".join(text.split())


def check_outcome(case: Case, status: int, body: dict) -> list[str]:
    """What is wrong with the answer to ``case``'s upload (empty when it is what the case expects)."""
    problems = []
    if status != case.status:
        problems.append(f"status {status}, expected {case.status}: {str(body.get('detail', body))[:300]}")
        return problems
    if status != 200:
        detail = str(body.get("detail", ""))
        if case.message.lower() not in detail.lower():
            problems.append(f"message lacks {case.message!r}: {detail!r}")
        name = (case.stored_as or case.filename).replace("\\", "/").rsplit("/", 1)[-1]
        if name not in detail:
            problems.append(f"message does not name the file {name!r}: {detail!r}")
        return problems
    warnings = body.get("warnings") or []
    if case.message and not any(case.message.lower() in w.lower() for w in warnings):
        problems.append(f"no warning with {case.message!r}: {warnings}")
    if case.no_warnings and warnings:
        problems.append(f"unexpected warnings: {warnings}")
    if case.pages is not None and body.get("pages") != case.pages:
        problems.append(f"{body.get('pages')} pages, expected {case.pages}")
    if case.unread_pages is not None and body.get("unread_pages") != case.unread_pages:
        problems.append(f"unread pages {body.get('unread_pages')}, expected {case.unread_pages}")
    expected_name = case.stored_as or case.filename
    if body.get("filename") != expected_name:
        problems.append(f"stored as {body.get('filename')!r}, expected {expected_name!r}")
    if body.get("duplicate"):
        problems.append("reported as a duplicate of an earlier upload")
    return problems


def check_text(case: Case, client: httpx.Client, url: str, doc_id: str, collection: str = "default") -> list[str]:
    """Ask /query about an accepted document: its passages must hold ``case.text`` as printed (markup included, not
    escaped) and never ``case.absent``."""
    problems = []
    if case.text:
        body = ask(client, url, case.text, [doc_id], collection=collection)
        passages = " ".join(_squash(s["text"]) for s in body["sources"])
        if _squash(case.text) not in passages:
            problems.append(f"/query passages lack {case.text!r}: {passages[:300]!r}")
    if case.absent:
        body = ask(client, url, case.absent, [doc_id], collection=collection)
        texts = [s["text"] for s in body["sources"]] + [body.get("answer") or ""]
        if any(case.absent.lower() in t.lower() for t in texts):
            problems.append(f"indexed text holds {case.absent!r}, which the reader must ignore")
    return problems


def describe(status: int, body: dict) -> tuple[str, str]:
    """``(outcome, message)`` of one answer, for the report."""
    if status != 200:
        detail = str(body.get("detail", ""))
        return f"refused {status} ({refusal_reason(status, detail)})", detail
    warnings = body.get("warnings") or []
    if body.get("unread_pages"):
        outcome = f"partial (pages {', '.join(map(str, body['unread_pages']))} unread)"
    else:
        outcome = "accepted with warnings" if warnings else "accepted"
    return outcome, " | ".join(warnings)


def refusal_reason(status: int, detail: str) -> str:
    if status >= 500:
        return "server error"
    lowered = detail.lower()
    return next((label for mark, label in REFUSAL_MESSAGES if mark.lower() in lowered),
                REFUSAL_STATUSES.get(status, "other"))


def run_case(case: Case, client: httpx.Client, url: str, collection: str = "default") -> Row:
    """Upload one case, check the answer (and, when indexed, its text); return the row."""
    status, body, seconds = ingest(client, url, case.filename, case.data, collection)
    outcome, message = describe(status, body)
    problems = check_outcome(case, status, body)
    if status == 200 and not problems and "doc_id" in body:
        problems += check_text(case, client, url, body["doc_id"], collection)
    return Row(case.name, case.hazard, case.filename, len(case.data),
               "accepted" if case.status == 200 else f"refused {case.status}", status, round(seconds, 3), outcome,
               message, not problems, problems, body.get("doc_id"), body.get("filename"), body.get("pages"),
               body.get("unread_pages") or [])


# --- The whole run --------------------------------------------------------------------------------------------------


@dataclass
class Report:
    rows: list[Row]
    health: dict
    known: dict  # the earlier document: answerable before and after, its /documents entry unchanged
    limits: dict
    seconds: float

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows) and self.health["failed"] == 0 and self.known["ok"]

    def row(self, case: str) -> Row:
        return next(r for r in self.rows if r.case == case)


def known_answer(client: httpx.Client, url: str, doc_id: str) -> dict:
    """Ask the known document's question of the whole collection; whether the answer quotes it, and nothing else."""
    body = ask(client, url, KNOWN_QUESTION, top_k=5)
    cited = [c["doc_id"] for c in body["citations"]]
    answer = body["answer"] or ""
    return {"answer": answer, "cited": cited,
            "ok": KNOWN_ANSWER in answer and cited[:1] == [doc_id] and INJECTION_MARK not in answer}


def _entry(client: httpx.Client, url: str, doc_id: str) -> dict | None:
    docs = client.get(url + "/documents", timeout=30).json()["documents"]
    return next((d for d in docs if d["doc_id"] == doc_id), None)


def run(cases: list[Case], url: str, *, progress=None) -> Report:
    """Index the known document, post every case with /health polled, then check the known document again."""
    started = time.perf_counter()
    with httpx.Client() as client:
        status, body, _ = ingest(client, url, KNOWN_NAME, pf.known_text_pdf())
        if status != 200:
            raise RuntimeError(f"the known document was not indexed: {status} {body}")
        known_id = body["doc_id"]
        entry_before = _entry(client, url, known_id)
        before = known_answer(client, url, known_id)
        rows = []
        with HealthPoller(url) as poller:
            for case in cases:
                rows.append(run_case(case, client, url))
                if progress:
                    progress(rows[-1])
        after = known_answer(client, url, known_id)
        entry_after = _entry(client, url, known_id)
    known = {"doc_id": known_id, "question": KNOWN_QUESTION, "before": before, "after": after,
             "entry_unchanged": entry_before is not None and entry_before == entry_after,
             "ok": before["ok"] and after["ok"] and entry_before is not None and entry_before == entry_after}
    return Report(rows, poller.summary(), known, {**LIMITS}, round(time.perf_counter() - started, 1))


@contextmanager
def hostile_server(limits: dict | None = None) -> Iterator[str]:
    """A fresh server with a temporary data folder and the corpus limits; yields its URL."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        with serve(hostile_settings(Path(tmp) / "storage", limits)) as url:
            yield url


# --- Reporting ------------------------------------------------------------------------------------------------------


def summary(report: Report) -> dict:
    rows = report.rows
    accepted = [r for r in rows if r.status == 200]
    refused = [r for r in rows if r.status != 200]
    return {
        "files": len(rows),
        "as_expected": sum(r.ok for r in rows),
        "accepted": len(accepted),
        "accepted_clean": sum(r.outcome == "accepted" for r in accepted),
        "accepted_with_warnings": sum(r.outcome == "accepted with warnings" for r in accepted),
        "partial": sum(r.outcome.startswith("partial") for r in accepted),
        "refused": len(refused),
        "refused_by_reason": dict(Counter(r.outcome.split("(", 1)[1].rstrip(")") for r in refused).most_common()),
        "refused_by_status": dict(sorted(Counter(r.status for r in refused).items())),
        "server_errors": sum(r.status >= 500 for r in rows),
        "max_seconds": max((r.seconds for r in rows), default=0.0),
        "total_bytes": sum(r.size for r in rows),
    }


def _limits_line(limits: dict) -> str:
    return (f"uploads up to {limits['max_upload_mb']:g} MB, {limits['max_pages']} pages, {limits['ocr_max_pages']} "
            f"OCR page(s); each read limited to {limits['parse_memory_mb']} MB, {limits['parse_cpu_seconds']} s CPU, "
            f"{limits['parse_timeout_seconds']:g} s")


def _cell(text: str, width: int = 160) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def readme_block(report: Report, when: str, machine_info: dict) -> str:
    s = summary(report)
    h = report.health
    reasons = ", ".join(f"{reason} {n}" for reason, n in s["refused_by_reason"].items())
    statuses = ", ".join(f"{n}\u00d7{status}" for status, n in s["refused_by_status"].items())
    known = report.known
    answerable = ("yes" if known["ok"] else "no") + (", entry unchanged" if known["entry_unchanged"] else
                                                      ", entry changed")
    lines = [
        f"Measured {when} on {machine_line(machine_info)}; {_limits_line(report.limits)}.",
        "",
        markdown_table(["Files tried", "As expected", "Accepted", "of which with warnings / partial (pages unread)",
                        "Refused", "Server errors", "/health checks (failed)", "/health max latency",
                        "Earlier document answerable"],
                       [[s["files"], s["as_expected"], s["accepted"], f"{s['accepted_with_warnings']} / {s['partial']}",
                         f"{s['refused']} ({statuses})", s["server_errors"], f"{h['checks']} ({h['failed']})",
                         f"{h['max_ms']} ms", answerable]], "rrrlrrlrl"),
        "",
        f"Refused by reason: {reasons}.",
    ]
    return "\n".join(lines) + "\n"


def markdown(report: Report, when: str, machine_info: dict) -> str:
    h = report.health
    out = [
        "# Hostile and malformed uploads",
        "",
        f"`python -m evaluation.hostile`, {when}, {machine_line(machine_info)}. Limits: {_limits_line(report.limits)}.",
        f"Corpus: `tests/support/hostile_factory.py`. Run took {report.seconds:g} s.",
        "",
        readme_block(report, when, machine_info).split("\n", 2)[2],
        f"/health asked every {h['interval_ms']:g} ms while the files were posted: {h['checks']} checks, "
        f"{h['failed']} failed (not answered within {h['timeout_ms']:g} ms or not ok); latency p50 {h['p50_ms']} ms, "
        f"p99 {h['p99_ms']} ms, max {h['max_ms']} ms.",
        "",
        f"Known document asked {KNOWN_QUESTION!r} before and after the corpus: "
        f"{'answered from it both times' if report.known['ok'] else 'FAILED'} "
        f"(after: {report.known['after']['answer'][:120]!r}).",
        "",
        markdown_table(["Case", "Hazard", "Size", "Expected", "Status", "Seconds", "Outcome", "Message", "Check"],
                       [[r.case, _cell(r.hazard, 70), f"{r.size:,}", r.expected, r.status, f"{r.seconds:.2f}",
                         r.outcome, _cell(r.message), _cell("ok" if r.ok else "FAIL: " + "; ".join(r.problems), 200)]
                        for r in report.rows], "llrlrrlll"),
    ]
    return "\n".join(out) + "\n"


def payload(report: Report, when: str, machine_info: dict) -> dict:
    return {"date": when, "machine": machine_info, "limits": report.limits, "seconds": report.seconds,
            "summary": summary(report), "health": report.health, "known_document": report.known,
            "rows": [asdict(r) for r in report.rows], "readme": readme_block(report, when, machine_info)}


def write(report: Report, out: Path = RESULTS) -> tuple[Path, Path]:
    when, machine_info = now(), machine()
    return write_results("hostile", markdown(report, when, machine_info), payload(report, when, machine_info), out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.hostile", description=__doc__.split("\n\n")[0])
    add_arguments(parser, gold=False, docs=None, out="hostile.md and hostile.json")
    parser.add_argument("--only", nargs="+", metavar="CASE", help="run only these cases")
    args = parser.parse_args(argv)
    cases = build_corpus()
    if args.only:
        unknown = set(args.only) - {c.name for c in cases}
        if unknown:
            parser.error(f"unknown case(s): {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c.name in args.only]

    def show(row: Row) -> None:
        mark = "ok  " if row.ok else "FAIL"
        print(f"{mark} {row.case:<26} {row.status} {row.seconds:6.2f} s  {row.outcome}"
              + ("" if row.ok else f"  <- {'; '.join(row.problems)}"), file=sys.stderr, flush=True)

    with hostile_server() as url:
        report = run(cases, url, progress=show)
    _, js = write(report, args.out)
    print(json.loads(js.read_text(encoding="utf-8"))["readme"])
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
