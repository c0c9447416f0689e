"""Several processes over one real PostgreSQL, as deployed: two app servers (uvicorn, each with a data folder of its
own that it never needs) and indexing workers (``python cli.py worker``), every one given the same
``RAG_DATABASE_URL``. An upload through one server is indexed by a worker and answered through the other; the
hourly upload quota is one for both servers; a worker killed with SIGKILL in the middle of a document leaves no part
of it, and the job is indexed whole by another worker."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import httpx
import pytest

from core.postgres import connect
from tests.support import ROOT
from tests.support.live_server import DeployedServer

HEARTBEAT = 0.5  # seconds; a silent worker's job is queued again after 3 times this
SAMPLE = ROOT / "data" / "NIST.AI.100-1.pdf"  # 48 pages: long enough to be killed in the middle of


class Worker:
    """``python cli.py worker`` in its own process."""

    def __init__(self, env: dict[str, str]):
        self.process = subprocess.Popen([sys.executable, "cli.py", "worker"], cwd=ROOT, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


def live_workers(url: str) -> int:
    with connect(url) as conn:
        return conn.execute("SELECT count(*) FROM procrastinate_workers WHERE last_heartbeat > now() - "
                            "make_interval(secs => %s)", (3 * HEARTBEAT,)).fetchone()[0]


def wait_for(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} did not happen within {seconds:g} s")


def start_workers(env: dict[str, str], n: int) -> list[Worker]:
    before = live_workers(env["RAG_DATABASE_URL"])
    workers = [Worker(env) for _ in range(n)]
    wait_for(lambda: live_workers(env["RAG_DATABASE_URL"]) >= before + n or any(
        w.process.poll() is not None for w in workers), 120, f"{n} workers starting")
    for w in workers:
        assert w.process.poll() is None, w.process.stderr.read()[-2000:]
    return workers


@pytest.fixture(scope="module")
def cluster(pg_server, tmp_path_factory):
    """Two app servers on one database, and the environment a worker needs to join them."""
    url = pg_server.database("cluster")
    env = {"RAG_DATABASE_URL": url, "RAG_WORKER_HEARTBEAT_SECONDS": str(HEARTBEAT), "RAG_UPLOADS_PER_HOUR": "3"}
    root = tmp_path_factory.mktemp("cluster")
    with DeployedServer(root / "a", **env) as a, DeployedServer(root / "b", **env) as b:
        yield a, b, {**a.env, "RAG_DATA_DIR": str(root / "worker")}


def job_of(server, job_id: str) -> dict:
    reply = httpx.get(f"{server.url}/jobs/{job_id}", timeout=10)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_uploaded_through_one_server_indexed_by_a_worker_answered_through_the_other(cluster, known_pdf):
    a, b, env = cluster
    workers = start_workers(env, 2)
    try:
        sent = httpx.post(f"{a.url}/ingest", files={"file": ("known.pdf", known_pdf, "application/pdf")},
                          data={"collection": "shared", "wait": "false"}, timeout=30)
        assert sent.status_code == 202 and sent.headers["location"] == f"/jobs/{sent.json()['job_id']}"
        job = wait_for(lambda: (j := job_of(b, sent.json()["job_id"]))["status"] in ("done", "failed") and j,
                       120, "the upload being indexed")
        assert job["status"] == "done", job
        assert job["attempts"] == 1 and job["progress"]["stage"] == "done"
        listed = httpx.get(f"{b.url}/documents", params={"collection": "shared"}, timeout=10).json()["documents"]
        assert [d["doc_id"] for d in listed] == [job["result"]["doc_id"]]
        answer = httpx.post(f"{b.url}/query", json={"question": "What is the capital of Freedonia?", "collection": "shared"},
                            timeout=60).json()
        assert not answer["abstained"] and answer["citations"], answer
        assert "Marsupia" in answer["answer"] and answer["citations"][0]["page"] == 2

        # Waited for (wait=true, the default) through the other server: the same file again is recognised.
        again = httpx.post(f"{b.url}/ingest", files={"file": ("copy.pdf", known_pdf, "application/pdf")},
                           data={"collection": "shared"}, timeout=120)
        assert again.status_code == 200 and again.json()["duplicate"] is True

        # One hourly quota of 3 uploads per client for both servers: 1 through a, 1 through b, 1 more, then no.
        assert httpx.post(f"{a.url}/ingest", files={"file": ("x.txt", b"Quota check text.", "text/plain")},
                          data={"collection": "shared"}, timeout=120).status_code == 200
        refused = httpx.post(f"{b.url}/ingest", files={"file": ("y.txt", b"One too many.", "text/plain")},
                             data={"collection": "shared"}, timeout=30)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    finally:
        for w in workers:
            w.stop()


def test_a_worker_killed_mid_document_leaves_nothing_and_another_indexes_it_whole(cluster):
    a, b, env = cluster
    url = env["RAG_DATABASE_URL"]
    (first,) = start_workers(env, 1)
    second = None
    try:
        # From another loopback address: another client, with a quota of its own.
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=30) as other:
            sent = other.post(f"{a.url}/ingest", files={"file": (SAMPLE.name, SAMPLE.read_bytes(), "application/pdf")},
                              data={"collection": "killed", "wait": "false"})
        assert sent.status_code == 202, sent.text
        job_id = sent.json()["job_id"]
        wait_for(lambda: job_of(a, job_id)["progress"]["pages_read"] >= 5, 120, "the worker reading pages")
        first.kill()
        # Killed in the middle: the collection holds nothing of the document, the job is still to be done.
        assert httpx.get(f"{b.url}/documents", params={"collection": "killed"}, timeout=10).status_code in (200, 404)
        with connect(url) as conn:
            assert conn.execute("SELECT count(*) FROM store_documents WHERE collection = 'killed'").fetchone()[0] == 0
        assert job_of(b, job_id)["status"] == "running"
        wait_for(lambda: live_workers(url) == 0, 30, "the killed worker falling silent")
        (second,) = start_workers(env, 1)
        job = wait_for(lambda: (j := job_of(b, job_id))["status"] in ("done", "failed") and j, 240,
                       "the job being indexed again")
        assert job["status"] == "done" and job["attempts"] == 2, job
        listed = httpx.get(f"{b.url}/documents", params={"collection": "killed"}, timeout=10).json()["documents"]
        assert len(listed) == 1 and listed[0]["chunks"] == job["result"]["chunks"] > 100
        with connect(url) as conn:
            stored = conn.execute("SELECT count(*) FROM store_chunks WHERE doc_id = %s", (listed[0]["doc_id"],)).fetchone()
        assert stored[0] == listed[0]["chunks"]  # every passage once: nothing left over from the killed attempt
    finally:
        first.kill()
        if second:
            second.stop()

