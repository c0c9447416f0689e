"""Uploads queued in a real PostgreSQL and indexed by a worker (:mod:`services.queue`), here a worker thread over
this process's real ingestion (reading, embedding, the embedded store); workers as separate processes, killed
mid-job, are in ``tests/integration/test_workers.py``."""

from __future__ import annotations

import threading
import time

import pytest

from core.errors import IngestError
from services.queue import NoWorker, UploadQueue, UploadFailed


@pytest.fixture
def queue(database_url):
    return UploadQueue(database_url, heartbeat_seconds=0.5, wait_seconds=120)


@pytest.fixture
def worker(queue, pipeline, database_url):
    """``queue`` with a worker running: a queue object of its own, as in a worker process."""
    stop = threading.Event()
    own = UploadQueue(database_url, heartbeat_seconds=0.5)
    thread = threading.Thread(target=own.run_worker, args=(pipeline.ingestion,), kwargs={"stop": stop},
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not queue.workers():
        assert time.monotonic() < deadline and thread.is_alive(), "the worker did not start"
        time.sleep(0.1)
    yield queue
    stop.set()
    thread.join(30)
    assert not thread.is_alive(), "the worker did not stop when asked"


def test_the_same_upload_submitted_twice_is_one_job(queue, known_pdf):
    first = queue.submit(known_pdf, "a.pdf", "papers", strategy=None)
    again = queue.submit(known_pdf, "a-copy.pdf", "papers", strategy=None)
    elsewhere = queue.submit(known_pdf, "a.pdf", "other", strategy=None)
    rechunked = queue.submit(known_pdf, "a.pdf", "papers", strategy="fixed_size")
    assert again.id == first.id and again.status == "queued"
    assert len({first.id, elsewhere.id, rechunked.id}) == 3
    assert queue.get("no-such-job") is None


def test_without_a_worker_a_waited_for_upload_is_refused_at_once_and_stays_queued(queue, known_pdf):
    with pytest.raises(NoWorker, match="cli.py worker") as refused:
        queue.ingest(known_pdf, "a.pdf", "papers")
    assert refused.value.status_code == 503
    job_id = refused.value.message.split("(job ")[1].split(")")[0]
    assert queue.get(job_id).status == "queued"


def test_a_worker_indexes_a_queued_upload_with_progress(worker, pipeline, known_pdf):
    seen = []
    result = worker.ingest(known_pdf, "known.pdf", "papers", progress=seen.append)
    assert result.chunks > 0 and result.collection == "papers" and not result.duplicate
    assert [d.doc_id for d in pipeline.documents("papers")] == [result.doc_id]
    assert pipeline.search("known", "papers").hits  # searchable once the job is done
    job = worker.get(next(iter(worker_jobs(worker))))
    assert job.status == "done" and job.attempts == 1 and job.result["doc_id"] == result.doc_id
    assert job.progress.stage == "done" and job.progress.pages_total >= 1
    assert seen, "the waiting caller saw no progress"
    with worker_connection(worker) as conn:
        assert conn.execute("SELECT count(*) FROM upload_files").fetchone()[0] == 0  # the file is not kept


def test_a_file_that_cannot_be_indexed_fails_with_the_error_it_would_have_had(worker, pipeline):
    with pytest.raises(UploadFailed) as failed:
        worker.ingest(b"%PDF-1.7 this is not really a PDF", "broken.pdf", "papers")
    assert isinstance(failed.value, IngestError) and failed.value.status_code in (415, 422)
    assert "broken.pdf" in failed.value.message and "Traceback" not in failed.value.message
    assert pipeline.documents() == []


def worker_connection(queue):
    from core.postgres import connect

    return connect(queue.url)


def worker_jobs(queue) -> list[str]:
    with worker_connection(queue) as conn:
        return [r[0] for r in conn.execute("SELECT id FROM upload_jobs ORDER BY created_at")]
