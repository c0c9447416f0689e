"""Long uploads followed through the API (``POST /ingest`` with ``wait=false``, then ``GET /ingest/jobs/{id}``) and
the command line against a server: pages read, passages and sentences embedded, the time left, then the result."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from tests.support import ROOT
from tests.support import pdf_factory as pf
from tests.support.live_server import DeployedServer


def follow(client, reply, seconds: float = 120, headers: dict | None = None) -> tuple[dict, list[dict]]:
    """Poll a job until it ends; the job at the end and every progress seen."""
    assert reply.status_code == 202, reply.text
    job = reply.json()
    assert reply.headers["location"] == f"/jobs/{job['job_id']}"
    seen, deadline = [job["progress"]], time.monotonic() + seconds
    while job["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
        job = client.get(reply.headers["location"], headers=headers).json()
        seen.append(job["progress"])
    return job, seen


def test_a_background_upload_reports_its_progress_and_then_its_result(client):
    data = pf.make_pdf([pf.known_text_lines()[i % 3] for i in range(12)])
    job, seen = follow(client, client.post("/ingest", data={"wait": "false", "collection": "jobs"},
                                           files={"file": ("survey.pdf", data, "application/pdf")}))
    assert job["status"] == "done", job
    assert job["result"]["pages"] == 12 and job["result"]["chunks"] > 0
    end = job["progress"]
    assert end["stage"] == "done" and end["fraction"] == 1.0 and end["eta_seconds"] == 0.0
    assert end["pages_read"] == end["pages_total"] == 12
    assert end["passages_embedded"] == end["passages_total"] == job["result"]["chunks"]
    assert end["sentences_embedded"] == end["sentences_total"] > 0
    fractions = [p["fraction"] for p in seen]
    assert fractions == sorted(fractions)
    # The document is searchable like one uploaded with the request waiting for it.
    docs = client.get("/documents", params={"collection": "jobs"}).json()["documents"]
    assert [d["doc_id"] for d in docs] == [job["result"]["doc_id"]]


def test_a_background_upload_that_fails_says_why_as_a_waited_one_would(client):
    waited = client.post("/ingest", files={"file": ("fake.pdf", pf.NOT_A_PDF, "application/pdf")})
    job, _ = follow(client, client.post("/ingest", data={"wait": "false"},
                                        files={"file": ("fake.pdf", pf.NOT_A_PDF, "application/pdf")}))
    assert job["status"] == "failed" and "result" not in job
    assert job["error"] == {"status": waited.status_code, "detail": waited.json()["detail"]}
    assert "Traceback" not in job["error"]["detail"]


def test_jobs_are_private_to_their_collection_and_unknown_ones_are_404(client):
    key = {"X-Collection-Key": "k" * 24}
    job, _ = follow(client, client.post("/ingest", data={"wait": "false", "collection": "private"}, headers=key,
                                        files={"file": ("survey.pdf", pf.known_text_pdf(), "application/pdf")}),
                    headers=key)
    assert job["status"] == "done"
    # Without the key the job is as invisible as its collection (which answers 404 to keep its name secret).
    hidden = client.get(f"/ingest/jobs/{job['job_id']}")
    assert hidden.status_code == client.get("/documents", params={"collection": "private"}).status_code == 404
    assert "survey" not in hidden.text
    assert client.get(f"/ingest/jobs/{job['job_id']}", headers=key).json()["status"] == "done"
    missing = client.get("/ingest/jobs/not-a-job")
    assert missing.status_code == 404 and "Upload the file again" in missing.json()["detail"]


def test_the_command_line_shows_a_servers_progress_with_the_time_left(tmp_path):
    pdf = tmp_path / "survey.pdf"
    pdf.write_bytes(pf.make_pdf([pf.known_text_lines()[i % 3] for i in range(6)]))
    with DeployedServer(tmp_path / "server", RAG_PARSE_ISOLATED="false") as server:
        env = {**os.environ, "RAG_SERVER_URL": server.url, "RAG_DATA_DIR": str(tmp_path / "unused"),
               "HF_HUB_OFFLINE": "1"}
        done = subprocess.run([sys.executable, "cli.py", "ingest", str(pdf), "--collection", "cli"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "survey.pdf: 6 pages" in done.stdout
    # The job's progress, from its first report to its end (a small file: the estimate may never show).
    lines = [line.strip() for line in done.stderr.replace("\r", "\n").splitlines() if line.strip()]
    assert lines[0].startswith("0%") and lines[-1].startswith("100% Indexed"), lines
    assert not (tmp_path / "unused").exists()  # the server did the work, not this process
