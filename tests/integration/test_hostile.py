"""Hostile and malformed uploads through a real server: each gets a clear refusal or a (partial) read, /health is
answered throughout and the document indexed before them stays answerable.

The corpus is :mod:`tests.support.hostile_factory`; uploading and checking is :mod:`evaluation.hostile` (``python -m
evaluation.hostile`` runs the same thing and writes the report). One module-scoped run posts the whole corpus to a
uvicorn server in a thread while /health is polled every 50 ms; each case then has its own test on that run's
answer to it.
"""

from __future__ import annotations

import io
import json
import time

import httpx
import pytest

from evaluation import hostile
from tests.support.hostile_factory import INJECTION_MARK, LIMITS, build_corpus

CASES = build_corpus()


@pytest.fixture(scope="module")
def server():
    with hostile.hostile_server() as url:
        yield url


@pytest.fixture(scope="module")
def report(server):
    return hostile.run(CASES, server)


def test_corpus_is_large_varied_and_quick_to_build():
    started = time.perf_counter()
    cases = build_corpus()
    assert time.perf_counter() - started < 10
    assert len(cases) >= 30
    assert len({c.name for c in cases}) == len(cases)
    statuses = {c.status for c in cases}
    assert {200, 400, 413, 415, 422} <= statuses
    # Every refusal the corpus expects is specific: a message fragment to find.
    assert all(c.message for c in cases if c.status != 200)
    over = next(c for c in cases if c.name == "over_upload_limit")
    assert len(over.data) > LIMITS["max_upload_mb"] * 1024 * 1024


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_upload_gets_the_expected_clear_outcome(report, case):
    row = report.row(case.name)
    assert row.status < 500, row
    assert row.ok, f"{case.name} ({case.hazard}): {row.problems}"


def test_health_is_answered_throughout(report):
    health = report.health
    assert health["failed"] == 0, health["failures"]
    # Polled every 50 ms for the whole corpus: hundreds of checks, none slower than the failure timeout.
    assert health["checks"] >= len(CASES)
    assert health["max_ms"] < 1000 * hostile.HEALTH_TIMEOUT


def test_earlier_document_stays_answerable_and_unchanged(report):
    known = report.known
    assert known["before"]["ok"], known["before"]
    assert known["after"]["ok"], known["after"]
    assert known["entry_unchanged"]
    assert hostile.KNOWN_ANSWER in known["after"]["answer"]


def test_prompt_injection_document_does_not_steer_answers(report):
    assert report.row("prompt_injection").status == 200  # indexed beside the known document...
    assert INJECTION_MARK not in report.known["after"]["answer"]  # ...and its "instructions" are only text


def test_every_refusal_names_the_file_and_no_upload_fails_the_server(report):
    assert all(r.status < 500 for r in report.rows)
    for row in report.rows:
        if row.status != 200:
            assert row.message.startswith("'") or "'" in row.message[:80], row.message


def test_html_comes_back_from_query_as_plain_text(report, server):
    doc_id = report.row("html_in_pdf").doc_id
    r = httpx.post(server + "/query", json={"question": "festival markup script alert", "doc_ids": [doc_id]},
                   timeout=60)
    assert r.headers["content-type"].startswith("application/json")
    raw = r.text
    body = json.loads(raw)
    texts = " ".join(s["text"] for s in body["sources"])
    assert "<script>alert(1)</script>" in texts  # stored as printed: escaping is the UI's job
    assert "&lt;script" not in raw


def test_results_are_written(report, tmp_path):
    md, js = hostile.write(report, tmp_path)
    data = json.loads(js.read_text(encoding="utf-8"))
    assert len(data["rows"]) == len(CASES)
    assert {"case", "size", "status", "seconds", "outcome", "message"} <= set(data["rows"][0])
    assert data["readme"].startswith("Measured ")
    assert f"| {len(CASES)} | {len(CASES)} |" in data["readme"]
    assert "| Case | Hazard |" in md.read_text(encoding="utf-8")


def test_page_image_of_a_huge_page_is_scaled_down_not_a_server_error(report, server):
    doc_id = report.row("huge_page").doc_id
    r = httpx.get(f"{server}/documents/{doc_id}/pages/1", timeout=60)
    assert r.status_code == 200 and r.headers["content-type"] == "image/png", r.text[:300]
    from PIL import Image

    assert max(Image.open(io.BytesIO(r.content)).size) <= 2400
