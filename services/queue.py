"""Uploads as jobs in PostgreSQL, indexed by worker processes (``python cli.py worker``): what ``POST /ingest`` does
when ``RAG_DATABASE_URL`` is set.

The queue is Procrastinate's (its own tables, ``procrastinate_*``, in the same database); what a client follows is
a row of ``upload_jobs`` beside it, with the file in ``upload_files`` until it is indexed:

1. **submit** (any app process): one transaction inserts the job's row, its file and the Procrastinate job, so a
   job is queued whole or not at all. The same file (same bytes, collection and chunking) submitted while an
   earlier submission of it is queued or running is that job, not a second one (a unique index over the active
   rows decides, whichever process submits).
2. **run** (a worker): the row is claimed (``running``, one more attempt), the file indexed by the worker's
   :class:`services.ingest.Ingestion` exactly as an in-process upload (waiting while every one of the
   ``RAG_MAX_CONCURRENT_INGESTS`` slots, shared by all processes, is taken), progress written to the row at most every
   :data:`PROGRESS_EVERY` seconds, and the row ends ``done`` (with the result) or ``failed`` (with the HTTP status
   and message the upload would have got). The store writes a document in one transaction, so a worker killed
   mid-job leaves no part of it.
3. **retry**: every worker sends a heartbeat; a job whose worker has not sent one for ``3 x`` the heartbeat
   interval (killed, machine lost) is put back in the queue by whichever worker sweeps first, and runs again from
   the start, at most :data:`MAX_ATTEMPTS` times in all.

Finished rows are kept for :data:`KEEP_SECONDS` (an hour, as in-process jobs), then deleted by the sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field

from core.answers import IngestResult
from core.errors import IngestError, ServerBusy
from core.postgres import connect, lock_key, migrate
from services.jobs import INTERNAL, failure
from services.progress import IngestProgress, Progress

log = logging.getLogger(__name__)

QUEUE, TASK = "uploads", "index_upload"
MAX_ATTEMPTS = 3
KEEP_SECONDS = 3600
PROGRESS_EVERY = 0.5
ACTIVE = ("queued", "running")


def _procrastinate_schema(conn) -> None:
    from procrastinate.schema import SchemaManager

    conn.execute(SchemaManager.get_schema())


STEPS = [
    _procrastinate_schema,  # Procrastinate 3.10's schema; a later version's migrations are later steps
    """CREATE TABLE upload_jobs (
        id text PRIMARY KEY,
        collection text NOT NULL,
        filename text NOT NULL,
        sha256 text NOT NULL,
        options jsonb NOT NULL,
        same_upload text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        progress jsonb,
        result jsonb,
        error jsonb,
        queue_job bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz);
    CREATE UNIQUE INDEX upload_jobs_active ON upload_jobs (same_upload) WHERE status IN ('queued', 'running');
    CREATE INDEX upload_jobs_finished ON upload_jobs (finished_at) WHERE finished_at IS NOT NULL;
    CREATE TABLE upload_files (
        job_id text PRIMARY KEY REFERENCES upload_jobs (id) ON DELETE CASCADE,
        data bytea NOT NULL);""",
]


class UploadFailed(IngestError):
    """An upload indexed by a worker that failed: the status and message it would have had in process."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status_code = status


class NoWorker(IngestError):
    status_code = 503


@dataclass
class QueuedJob:
    """One upload's row (module docstring); :meth:`to_dict` is what ``GET /jobs/{id}`` answers, shaped as an
    in-process job's (:class:`services.jobs.Job`) with ``queued`` as a status of its own and the attempts."""

    id: str
    collection: str
    status: str
    attempts: int = 0
    progress: IngestProgress = field(default_factory=IngestProgress)
    result: dict | None = None
    error: dict | None = None

    def to_dict(self) -> dict:
        out = {"job_id": self.id, "status": self.status, "collection": self.collection,
               "progress": self.progress.to_dict(), "attempts": self.attempts}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


def same_upload(collection: str, sha256: str, options: dict) -> str:
    """What makes two submissions one job: the bytes, the collection and the chunking asked for.

    >>> same_upload("a", "f00", {"strategy": None}) == same_upload("a", "f00", {"strategy": None})
    True
    >>> same_upload("a", "f00", {"strategy": None}) == same_upload("b", "f00", {"strategy": None})
    False
    """
    key = json.dumps([collection, sha256, options], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()


def _row_job(row) -> QueuedJob:
    job_id, collection, status, attempts, progress, result, error = row
    known = IngestProgress.__dataclass_fields__
    return QueuedJob(job_id, collection, status, attempts,
                     IngestProgress(**{k: v for k, v in (progress or {}).items() if k in known}), result, error)


class UploadQueue:
    """Submitting uploads, following them, and (in a worker) running them; module docstring.

    Parameters
    ----------
    url : the PostgreSQL database (``RAG_DATABASE_URL``); the queue's tables are migrated on first use.
    heartbeat_seconds : how often a worker tells it is alive; its jobs are retried ``3 x`` this after it stops.
    wait_seconds : longest :meth:`ingest` waits for a worker to index a file.
    """

    def __init__(self, url: str, heartbeat_seconds: float = 10.0, wait_seconds: float = 1800.0):
        import procrastinate

        self.url, self.heartbeat, self.wait_seconds = url, heartbeat_seconds, wait_seconds
        migrate(url, "queue", STEPS)
        self.app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url))
        self._ingestion = None  # a worker's services.ingest.Ingestion

        @self.app.task(name=TASK, queue=QUEUE, pass_context=False)
        def index_upload(job_id: str) -> None:
            self.run(job_id)

        self._task = index_upload

    # -- app processes -----------------------------------------------------------------------------------------
    def submit(self, data: bytes, filename: str, collection: str, **options) -> QueuedJob:
        """Queue one upload, or return the job of the same upload already queued or running."""
        from procrastinate.jobs import Job

        sha = hashlib.sha256(data).hexdigest()
        same = same_upload(collection, sha, options)
        for _ in range(5):  # an earlier job of the same file may end between the insert and the look-up
            with connect(self.url) as conn:
                job_id = secrets.token_urlsafe(16)
                row = conn.execute(
                    "INSERT INTO upload_jobs (id, collection, filename, sha256, options, same_upload) "
                    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (same_upload) WHERE status IN ('queued', 'running') "
                    "DO NOTHING RETURNING id", (job_id, collection, filename, sha, json.dumps(options), same)).fetchone()
                if row is None:
                    found = conn.execute("SELECT id FROM upload_jobs WHERE same_upload = %s AND status IN "
                                         "('queued', 'running')", (same,)).fetchone()
                    conn.rollback()
                    if found:
                        return self.get(found[0])
                    continue
                conn.execute("INSERT INTO upload_files (job_id, data) VALUES (%s, %s)", (job_id, data))
                queued = self.app.job_manager.defer_job(
                    Job(queue=QUEUE, task_name=TASK, lock=None, queueing_lock=None, task_kwargs={"job_id": job_id}),
                    connection=conn)
                conn.execute("UPDATE upload_jobs SET queue_job = %s WHERE id = %s", (queued.id, job_id))
                conn.commit()
            return self.get(job_id)
        raise RuntimeError("the same upload kept finishing while it was submitted again")  # pragma: no cover

    def ingest(self, data: bytes, filename: str, collection: str, progress: Progress | None = None,
               **options) -> IngestResult:
        """Queue one upload and wait for a worker to index it: what an in-process upload returns or raises.

        Raises :class:`NoWorker` (503) when no worker is running (the job stays queued for the next one), and
        :class:`UploadFailed` with the status and message the upload failed with.
        """
        job = self.submit(data, filename, collection, **options)
        if job.status in ACTIVE and not self.workers():
            raise NoWorker(f"No indexing worker is running, so {filename!r} waits in the queue (job {job.id}) until "
                           "one starts: start one with `python cli.py worker`, then follow the job at "
                           f"GET /jobs/{job.id}.")
        job = self.wait(job.id, progress, self.wait_seconds)
        if job is not None and job.status == "done":
            return IngestResult(**job.result)
        if job is not None and job.status == "failed":
            raise UploadFailed(int(job.error.get("status", 500)), job.error.get("detail") or INTERNAL)
        raise NoWorker(f"{filename!r} was not indexed within {self.wait_seconds:g} s; it is still queued as job "
                       f"{job.id if job else '?'}: follow it at GET /jobs/{{job_id}}.")

    def get(self, job_id: str, conn=None) -> QueuedJob | None:
        """The job's row, read on ``conn`` (autocommit) when given, else on a connection of its own."""
        if conn is None:
            with connect(self.url, autocommit=True) as own:
                return self.get(job_id, own)
        row = conn.execute("SELECT id, collection, status, attempts, progress, result, error FROM upload_jobs "
                           "WHERE id = %s", (job_id,)).fetchone()
        return _row_job(row) if row else None

    def workers(self) -> int:
        """Workers that sent a heartbeat within ``3 x`` the interval: those that will take a queued job."""
        with connect(self.url) as conn:
            row = conn.execute("SELECT count(*) FROM procrastinate_workers WHERE last_heartbeat > now() - "
                               "make_interval(secs => %s)", (3 * self.heartbeat,)).fetchone()
        return int(row[0])

    def wait(self, job_id: str, progress: Progress | None = None, timeout: float | None = None,
             poll: float = 0.2) -> QueuedJob:
        """The job once finished, passing each new progress to ``progress``; after ``timeout`` seconds, as it is."""
        deadline = None if timeout is None else time.monotonic() + timeout
        seen = None
        with connect(self.url, autocommit=True) as conn:  # one connection for every poll
            while True:
                job = self.get(job_id, conn)
                if job is None or job.status in ("done", "failed"):
                    return job
                if progress is not None and job.progress != seen:
                    seen = job.progress
                    progress(job.progress)
                if deadline is not None and time.monotonic() > deadline:
                    return job
                time.sleep(poll)

    # -- worker processes --------------------------------------------------------------------------------------
    def run(self, job_id: str) -> None:
        """Index one queued upload (the task a worker runs)."""
        with connect(self.url, autocommit=True) as conn:
            row = conn.execute(
                "UPDATE upload_jobs SET status = 'running', attempts = attempts + 1, updated_at = now() "
                "WHERE id = %s AND status IN ('queued', 'running') RETURNING attempts, collection, filename, options",
                (job_id,)).fetchone()
            if row is None:  # finished meanwhile, or deleted
                return
            attempts, collection, filename, options = row
            if attempts > MAX_ATTEMPTS:
                self._finish(conn, job_id, "failed", error={"status": 500, "detail": (
                    f"Indexing this file stopped {MAX_ATTEMPTS} times before it ended (the worker was stopped or "
                    "ran out of memory); it was not indexed. Upload it again, or split it.")})
                return
            data = conn.execute("SELECT data FROM upload_files WHERE job_id = %s", (job_id,)).fetchone()
            if data is None:
                self._finish(conn, job_id, "failed", error={"status": 500, "detail": INTERNAL})
                return
            last = [0.0]

            def report(p: IngestProgress) -> None:
                now = time.monotonic()
                if now - last[0] >= PROGRESS_EVERY or p.stage == "done":
                    last[0] = now
                    conn.execute("UPDATE upload_jobs SET progress = %s, updated_at = now() WHERE id = %s",
                                 (json.dumps(p.to_dict()), job_id))

            try:
                while True:
                    try:
                        result = self._ingestion.ingest(bytes(data[0]), filename, collection, report, **options)
                        break
                    except ServerBusy:  # every indexing slot (RAG_MAX_CONCURRENT_INGESTS) is taken: wait for one
                        report(IngestProgress(message="Waiting for a free indexing slot"))
                        time.sleep(1.0)
            except Exception as exc:  # noqa: BLE001 - reported through the job, never raised into the worker
                if not isinstance(exc, (IngestError, ValueError)):
                    log.exception("queued upload %s failed", job_id)
                self._finish(conn, job_id, "failed", error=failure(exc))
                return
            self._finish(conn, job_id, "done", result=result.to_dict())

    @staticmethod
    def _finish(conn, job_id: str, status: str, result: dict | None = None, error: dict | None = None) -> None:
        with conn.transaction():
            conn.execute("UPDATE upload_jobs SET status = %s, result = %s, error = %s, finished_at = now(), "
                         "updated_at = now() WHERE id = %s",
                         (status, None if result is None else json.dumps(result),
                          None if error is None else json.dumps(error), job_id))
            conn.execute("DELETE FROM upload_files WHERE job_id = %s", (job_id,))

    async def sweep(self) -> int:
        """Put back in the queue the jobs of workers that stopped sending heartbeats, and delete finished rows
        older than :data:`KEEP_SECONDS`; returns how many jobs were put back. Several workers may sweep at once:
        one at a time does it."""
        manager = self.app.job_manager
        with connect(self.url, autocommit=True) as conn:
            if not conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key("upload-sweep"),)).fetchone()[0]:
                return 0
            try:
                conn.execute("DELETE FROM upload_jobs WHERE finished_at < now() - make_interval(secs => %s)",
                             (KEEP_SECONDS,))
                stalled = list(await manager.get_stalled_jobs(queue=QUEUE, seconds_since_heartbeat=3 * self.heartbeat))
                for job in stalled:
                    log.warning("upload job %s: its worker stopped; queued again", job.task_kwargs.get("job_id"))
                    await manager.retry_job(job)
                return len(stalled)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key("upload-sweep"),))

    def run_worker(self, ingestion, concurrency: int = 1, name: str | None = None,
                   stop: threading.Event | None = None) -> None:
        """Run queued uploads with ``ingestion`` until the process is stopped (SIGINT, SIGTERM) or ``stop`` is set."""
        self._ingestion = ingestion

        async def main() -> None:
            async with self.app.open_async():
                worker = asyncio.create_task(self.app.run_worker_async(
                    queues=[QUEUE], concurrency=concurrency, name=name, delete_jobs="always",
                    update_heartbeat_interval=self.heartbeat, stalled_worker_timeout=3 * self.heartbeat,
                    install_signal_handlers=stop is None))
                while not worker.done():
                    try:
                        await self.sweep()
                    except Exception:  # noqa: BLE001 - a failed sweep is tried again on the next beat
                        log.exception("sweeping stalled upload jobs failed")
                    if stop is not None and stop.is_set():
                        worker.cancel()
                        break
                    await asyncio.wait([worker], timeout=self.heartbeat)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await worker

        asyncio.run(main())
