"""Identical uploads at the same moment: the second joins the first instead of reading and embedding the file again
and replacing it; both get the same document."""

from __future__ import annotations

import threading

import httpx

from tests.support.pdf_factory import known_text_pdf
from tests.integration.test_crash import big_pdf


def wait_until(condition, seconds: float = 30.0) -> bool:
    done = threading.Event()
    deadline = threading.Timer(seconds, done.set)
    deadline.start()
    try:
        while not condition() and not done.wait(0.01):
            pass
        return condition()
    finally:
        deadline.cancel()


def test_an_identical_upload_in_progress_is_joined_and_the_file_read_once(pipeline):
    data = known_text_pdf()
    events = {"first": [], "second": []}
    results = {}

    def first_progress(progress):
        events["first"].append(progress.message)
        if len(events["first"]) == 1:  # hold the first upload at its start until the second has arrived
            assert wait_until(lambda: pipeline.ingestion.in_flight.joined == 1)

    def upload(who, progress):
        results[who] = pipeline.ingest(data, f"{who}.pdf", "papers", progress=progress)

    first = threading.Thread(target=upload, args=("first", first_progress))
    first.start()
    assert wait_until(lambda: pipeline.ingestion.in_flight.in_flight() == 1)
    second = threading.Thread(target=upload, args=("second", lambda p: events["second"].append(p.message)))
    second.start()
    first.join(120)
    second.join(120)

    assert results["first"].doc_id == results["second"].doc_id
    assert not results["first"].duplicate and results["second"].duplicate
    assert "at the same moment" in results["second"].warnings[0]
    assert [d.doc_id for d in pipeline.documents("papers")] == [results["first"].doc_id]  # listed once
    # Read once: only the first upload's progress went through the pages.
    assert any(m.startswith("Read page") for m in events["first"])
    assert not any(m.startswith(("Read", "Embedded")) for m in events["second"]), events["second"]
    assert events["second"][0] == "Waiting for an identical upload in progress"
    assert (pipeline.ingestion.in_flight.started, pipeline.ingestion.in_flight.joined) == (1, 1)


def test_two_identical_uploads_through_the_api_at_once_get_one_document(pipeline):
    from evaluation.common import serve
    from main import create_app

    data = big_pdf()  # ten pages and a 6 MB image: seconds to read, so the two overlap
    start = threading.Barrier(2)
    replies = []

    def post(name):
        start.wait()
        replies.append(httpx.post(url + "/ingest", files={"file": (name, data, "application/pdf")},
                                  data={"collection": "harbour"}, timeout=180))

    with serve(create_app(pipeline=pipeline, ui=False), start_timeout=60) as url:
        threads = [threading.Thread(target=post, args=(name,)) for name in ("a.pdf", "b.pdf")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        listed = httpx.get(url + "/documents", params={"collection": "harbour"}).json()["documents"]

    assert [r.status_code for r in replies] == [200, 200], [r.text for r in replies]
    bodies = [r.json() for r in replies]
    assert bodies[0]["doc_id"] == bodies[1]["doc_id"]
    assert sorted(b["duplicate"] for b in bodies) == [False, True]
    assert [d["doc_id"] for d in listed] == [bodies[0]["doc_id"]]
    assert (pipeline.ingestion.in_flight.started, pipeline.ingestion.in_flight.joined) == (1, 1)
