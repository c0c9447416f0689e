"""Uploads that run in the background, for clients that follow a long file's progress instead of holding a request
open: ``POST /ingest`` with ``wait=false`` answers 202 with a job, and ``GET /jobs/{id}`` tells how far it
has got (:class:`services.progress.IngestProgress`) and, at the end, the result or the error.

A job's id is random (128 bits): only who started it knows it. Finished jobs are kept for ``KEEP_SECONDS`` and at
most ``MAX_JOBS`` jobs are remembered (the oldest finished ones are forgotten first).

>>> import threading
>>> jobs = IngestJobs()
>>> gate = threading.Event()
>>> job = jobs.start("papers", lambda progress: gate.wait(5) and "indexed")
>>> jobs.get(job.id).status
'running'
>>> gate.set(); jobs.wait(job.id, 5).status, jobs.get(job.id).result
('done', 'indexed')
>>> jobs.get("unknown") is None
True
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.errors import IngestError
from core.text import safe_text
from services.progress import IngestProgress, Progress

log = logging.getLogger(__name__)

KEEP_SECONDS = 3600
MAX_JOBS = 1000
INTERNAL = ("The file could not be indexed because of an error on the server; upload it again, or report it if "
            "it persists.")


@dataclass
class Job:
    """One background upload: ``status`` is "running", "done" (``result`` set) or "failed" (``error`` set, with
    the HTTP status the same upload would have got when waited for)."""

    id: str
    collection: str
    status: str = "running"
    progress: IngestProgress = field(default_factory=IngestProgress)
    result: Any = None
    error: dict | None = None
    finished_at: float | None = None
    done: threading.Event = field(default_factory=threading.Event, repr=False)

    def to_dict(self) -> dict:
        out = {"job_id": self.id, "status": self.status, "collection": self.collection,
               "progress": self.progress.to_dict()}
        if self.result is not None:
            out["result"] = self.result.to_dict() if hasattr(self.result, "to_dict") else self.result
        if self.error is not None:
            out["error"] = self.error
        return out


def failure(exc: BaseException) -> dict:
    """What a job reports for an exception: a typed error's status and message; anything else a generic 500 (the
    details stay in the log)."""
    if isinstance(exc, IngestError):
        return {"status": exc.status_code, "detail": safe_text(exc.message)}
    if isinstance(exc, ValueError):  # invalid collection name, strategy or sizes
        return {"status": 422, "detail": safe_text(str(exc))}
    return {"status": 500, "detail": INTERNAL}


class IngestJobs:
    """The background uploads of this process (module docstring)."""

    def __init__(self):
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(self, collection: str, work: Callable[[Progress], Any]) -> Job:
        """Run ``work(progress)`` in a thread as a new job; ``progress`` keeps the job's progress current."""
        job = Job(secrets.token_urlsafe(16), collection)
        with self._lock:
            self._forget_old()
            self._jobs[job.id] = job

        def update(progress: IngestProgress) -> None:
            job.progress = progress

        def run() -> None:
            try:
                job.result = work(update)
                job.status = "done"
            except Exception as exc:  # noqa: BLE001 - reported through the job, never raised into the server
                if not isinstance(exc, (IngestError, ValueError)):
                    log.exception("background upload %s failed", job.id)
                job.error, job.status = failure(exc), "failed"
            finally:
                job.finished_at = time.monotonic()
                job.done.set()

        threading.Thread(target=run, name=f"ingest-job-{job.id[:6]}", daemon=True).start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def wait(self, job_id: str, timeout: float | None = None) -> Job | None:
        """The job once finished (or after ``timeout`` seconds, still running)."""
        job = self.get(job_id)
        if job is not None:
            job.done.wait(timeout)
        return job

    def _forget_old(self) -> None:
        now = time.monotonic()
        for job_id, job in list(self._jobs.items()):
            if job.finished_at is not None and now - job.finished_at > KEEP_SECONDS:
                del self._jobs[job_id]
        finished = sorted((j.finished_at, j.id) for j in self._jobs.values() if j.finished_at is not None)
        while len(self._jobs) >= MAX_JOBS and finished:
            del self._jobs[finished.pop(0)[1]]


class LocalUploads:
    """Uploads indexed in this process (no ``RAG_DATABASE_URL``): :meth:`ingest` waits for one, :meth:`submit`
    starts one as a background job. :class:`services.queue.UploadQueue` has the same three methods for uploads
    indexed by workers."""

    def __init__(self, ingestion):
        self.ingestion = ingestion  # services.ingest.Ingestion
        self.jobs = IngestJobs()

    def ingest(self, data: bytes, filename: str, collection: str, progress: Progress | None = None, **options):
        return self.ingestion.ingest(data, filename, collection, progress, **options)

    def submit(self, data: bytes, filename: str, collection: str, **options) -> Job:
        self.ingestion.refuse_if_busy(filename)  # refused now rather than as a failed job
        return self.jobs.start(collection, lambda progress: self.ingestion.ingest(data, filename, collection,
                                                                                  progress, **options))

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)
