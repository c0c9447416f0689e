"""A short bounded run of the load test (evaluation/load.py): concurrent askers and uploaders on a real uvicorn at
127.0.0.1, nothing failed, lost or mixed up between collections, and the report has its numbers."""

from __future__ import annotations

import json

from evaluation import load


def test_a_short_load_run_has_no_errors_no_mixups_and_loses_nothing(tmp_path):
    # Two uploaders against a cap of one ingest at a time: 503 + Retry-After is met and retried, not an error.
    rc = load.main(["--askers", "4", "--uploaders", "2", "--seconds", "15", "--max-ingests", "1",
                    "--out", str(tmp_path)])
    result = json.loads((tmp_path / "load.json").read_text())
    assert result["errors"] == 0, result["error_examples"] + result["final"]["unanswerable"]
    assert rc == 0
    assert result["mixups"] == 0, result["mixup_examples"]
    final = result["final"]
    assert final["ok"] and final["lost"] == final["extra"] == final["unanswerable"] == []
    assert final["documents"] > 3 * 2  # the prepared ones and at least one upload during the run

    requests = result["requests"]
    assert set(requests) == {"ask", "ask_stream", "ask_foreign", "upload"}
    for kind in ("ask", "upload"):
        r = requests[kind]
        assert r["ok"] > 0 and r["errors"] == 0
        assert 0 < r["p50"] <= r["p95"] <= r["max"]
    assert result["throughput"]["questions_per_second"] > 0 and result["throughput"]["uploads_per_minute"] > 0
    assert set(result["refused"]) == {"503", "429"} and result["refused"]["429"] == 0
    assert result["meta"]["max_concurrent_ingests"] == 1

    readme = result["readme"]
    assert readme.startswith("Measured ") and ": 4 askers, 2 uploaders, 15 s." in readme
    assert "| request | ok | errors | 503 | 429 | p50 s | p95 s | max s |" in readme and "| upload | " in readme
    assert "Errors: 0, mix-ups: 0" in (tmp_path / "load.md").read_text()


def test_an_answer_from_another_collection_is_a_mixup():
    mine = load.Fact("load-u1", "load-u1--001.pdf", "Velorin", "Dakum-41", doc_id="aaaa")
    theirs = load.Fact("load-u2", "load-u2--001.pdf", "Soparia", "Tibe-17", doc_id="bbbb")
    registry = load.Registry(["load-u1", "load-u2"])
    registry.add(mine)
    registry.add(theirs)

    def body(answer, filename="load-u1--001.pdf", doc_id="aaaa"):
        cited = {"filename": filename, "doc_id": doc_id}
        return {"answer": answer, "sources": [cited], "citations": [cited]}

    assert load.check_answer(body("The capital of Velorin is Dakum-41."), mine, "load-u1", registry) == (None, False)
    # Another collection's file among the sources, or its fact in the answer: mix-ups.
    assert load.check_answer(body("x", "load-u2--001.pdf", "bbbb"), mine, "load-u1", registry)[1] is True
    assert load.check_answer(body("It is Tibe-17."), theirs, "load-u1", registry)[1] is True
    # Own fact not quoted, or quoted without citing its document: errors, not mix-ups.
    assert load.check_answer(body("Not in this document."), mine, "load-u1", registry) == (
        "'What is the capital of Velorin?' in 'load-u1': answer does not quote 'Dakum-41': 'Not in this document.'",
        False)
    problem, mixup = load.check_answer(body("Dakum-41", doc_id="cccc"), mine, "load-u1", registry)
    assert "not cited" in problem and not mixup
    # A foreign question answered (or not) from the collection asked is fine.
    assert load.check_answer(body("Not in this document."), theirs, "load-u1", registry) == (None, False)
    assert load.check_answer({"answer": "", "sources": [], "citations": []}, theirs, "load-u1", registry) == (None, False)
