"""Read an upload in a separate, limited process so that a hostile or broken file cannot take the server down.

A PDF can make MuPDF loop for ever, allocate without bound or crash with a segmentation fault. Each upload is
therefore read in a child process of its own with an address-space limit (``RLIMIT_AS``), a CPU-time limit
(``RLIMIT_CPU``) and a wall-clock deadline enforced by the parent. Whatever happens in the child becomes an
:class:`~core.errors.IngestError` in the parent; the server carries on. A fresh child per document also hands
all of the parser's memory back to the system when it exits.

How the child is started
------------------------
The server holds torch, FAISS and an embedding model, each with thread pools, so forking the server itself is
unsafe (a lock held by another thread at fork time stays locked in the child for ever). The two safe options were
measured on the 2-core development machine, shared with other work (load average ~6): Python 3.11, pymupdf 2.0, a
one-page PDF, a parent with torch and the embedding model loaded, median of 10 calls after a first one:

==============================================  ===============  ==================  =====================
start method                                    per read         child start-up [1]  first read [2]
==============================================  ===============  ==================  =====================
in-process ``read_document`` (no isolation)     0.54-0.76 s      --                  --
``spawn`` (new interpreter, imports pymupdf)    2.0-2.9 s        0.13-0.17 s         2.4-3.1 s
``forkserver`` preloading the readers           0.56-0.58 s      0.03-0.04 s         2.3-2.6 s
==============================================  ===============  ==================  =====================

[1] a target that returns at once. [2] includes starting the fork server; :func:`warm_up` does that ahead.

``forkserver`` is used: a small server process, started once by fork+exec (safe from a threaded parent), imports
pymupdf, pymupdf4llm, pdfplumber, :mod:`ingestion.reader` and :mod:`ingestion.reading_process` and then forks one
child per upload. A child starts in ~40 ms with everything imported, while ``spawn`` pays ~1.5-2.3 s per upload to
import pymupdf again (it loads its ONNX layout model on import). Importing pymupdf 2.0 also starts ONNX Runtime
worker threads, which a child forked from the server does not have: it runs the layout model on its own thread,
since ONNX Runtime's thread pool lets the calling thread take back work no worker picked up. Such children return
the same text as in-process reads (checked on the three evaluation PDFs), and no slower per read on this machine.

Memory
------
A child reading a PDF of at least 4 pages the layout model reads forks a helper for half of them
(:mod:`ingestion.pdf.layout_workers`): a copy of the child with the same limits, which dies with it; its memory is
not in the sampled peaks below.

``RLIMIT_AS`` counts address space, not resident memory, and a child starts with ~550 MB of it mapped (the
preloaded libraries and layout model). Measured peaks (address space / resident):

* 1-page text PDF: ~700 MB / ~200 MB.
* 48-page NIST AI RMF: ~910 MB / ~480 MB; 15-page papers: ~800 MB / ~350-390 MB.
* 3 scanned pages read with OCR at 200 dpi: ~1.7 GB / ~1.0 GB.

The default ``RAG_PARSE_MEMORY_MB=3072`` leaves ~3x headroom for text PDFs and ~1.8x for OCR at the default
resolution. Near the limit the layout model fails to allocate and the reader falls back to plain text (the NIST
document read at 1024 MB lost its headings), and some native code crashes instead of reporting the failure; both are
logged, and a crash close to the limit is reported as running out of memory. Every read logs its child's sampled
peaks (``DEBUG`` on this module's logger).

The two sides
-------------
This module is the parent side: the limits, starting the child, relaying its progress, the deadline, and the error
for a child that ended without an outcome. What runs inside the child (setting its limits, reading, sending back
the outcome) is :mod:`ingestion.reading_process`, whose docstring describes the messages the two exchange over
their pipe.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import PurePath
from typing import Any

from core.errors import IngestError, ParserCrashed, ParserOutOfMemory, ParserTimeout
from core.types import ReadResult
from ingestion.pdf.progress import Progress
from ingestion.reading_process import (
    LIMIT_TOO_LOW, OUT_OF_MEMORY, PROGRESS, RESULT, process_memory_mb, run_reader,
)
from ingestion.upload_checks import display_name

log = logging.getLogger(__name__)

_START_METHOD = "forkserver"
# Imported once by the fork server so that children start with them loaded. pymupdf is the slow one (~1 s).
# "__main__" (multiprocessing's default) runs the parent's main script once in the server instead of once in every
# child. The fork server gets no sys.path from its parent in Python 3.11, so a module of this repository is found
# only when the working directory is the repository root; an import that fails is skipped and done in the child.
_PRELOAD = ["__main__", "pymupdf", "pymupdf4llm", "pdfplumber", "ingestion.reader", "ingestion.reading_process"]
_DEFAULT_TARGET = "ingestion.reader:read_document"

# Seconds a child that has sent its outcome may take to exit before it is killed.
_EXIT_GRACE = 5.0
# Seconds between looks at a running child's peak address space.
_SAMPLE_SECONDS = 0.1
# A child that crashed after its address space came this close to the limit (share of it) ran out of memory.
_NEAR_LIMIT = 0.9

# Serialises starting and reaping children. Process.start() polls every live child of this process, and a
# forkserver child's exit status is read from a pipe: two threads polling the same child at once would read it
# twice and the second would see a wrong status. Only non-blocking calls are made under the lock.
_process_lock = threading.Lock()
_context_lock = threading.Lock()
_context: multiprocessing.context.BaseContext | None = None


@dataclass
class ParseLimits:
    """Limits of the process that reads one upload.

    Attributes
    ----------
    memory_mb : address-space limit, MiB. It includes the ~550 MB of libraries the process starts with.
    cpu_seconds : CPU-time limit, seconds (all threads together).
    timeout_seconds : wall-clock limit, seconds, from the start of the process to its result.
    """

    memory_mb: int
    cpu_seconds: int
    timeout_seconds: float

    def __post_init__(self) -> None:
        if self.memory_mb <= 0 or self.cpu_seconds <= 0 or self.timeout_seconds <= 0:
            raise ValueError(f"every parse limit must be positive: {self}")

    @classmethod
    def from_settings(cls, settings: Any) -> ParseLimits:
        """The limits configured by ``parse_memory_mb``, ``parse_cpu_seconds`` and ``parse_timeout_seconds``."""
        return cls(
            memory_mb=int(settings.parse_memory_mb),
            cpu_seconds=int(settings.parse_cpu_seconds),
            timeout_seconds=float(settings.parse_timeout_seconds),
        )


def warm_up() -> None:
    """Start the fork server now (e.g. at server start), so that the first upload does not wait for it to import
    the readers (~1-2 s)."""
    context = _get_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def read_isolated(
    data: bytes,
    filename: str,
    *,
    limits: ParseLimits,
    progress: Progress | None = None,
    target: Callable[..., ReadResult] | None = None,
    **read_kwargs: Any,
) -> ReadResult:
    """Read an upload in a child process with memory, CPU-time and wall-clock limits.

    Parameters
    ----------
    data : the file's bytes; sent to the child over a pipe without an extra copy in this process.
    filename : the name it was uploaded under.
    limits : the child's limits.
    progress : called in this thread with ``(stage, done, total)`` for every progress event of the reader; passed
        to ``target`` as ``progress=`` only when given.
    target : the reading function, called in the child as ``target(data, filename, **read_kwargs)``; it must be
        importable by name (a module-level function). Default :func:`ingestion.reader.read_document`.
    **read_kwargs : passed on to ``target``; must pickle.

    Returns
    -------
    ReadResult
        What ``target`` returned in the child.

    Raises
    ------
    IngestError
        Any error ``target`` raised, unchanged (same class and message).
    ParserTimeout
        The child exceeded ``limits.timeout_seconds`` (it is killed) or ``limits.cpu_seconds``.
    ParserOutOfMemory
        The child ran out of its ``limits.memory_mb`` or was killed by the system.
    ParserCrashed
        The child died without a result, e.g. from a segmentation fault.
    """
    name = display_name(filename)
    context = _get_context()
    parent_end, child_end = context.Pipe(duplex=True)
    process = context.Process(
        target=run_reader,
        args=(child_end,),
        kwargs=dict(
            target=target or _DEFAULT_TARGET, filename=filename, read_kwargs=read_kwargs,
            memory_mb=limits.memory_mb, cpu_seconds=limits.cpu_seconds, with_progress=progress is not None,
        ),
        name=f"read {name}",
        daemon=True,  # terminated by multiprocessing's exit handler should this process exit mid-read
    )
    watch = _Watch(process, parent_end, limits)
    try:
        with _process_lock:
            process.start()
        # The child holds its own copy now; closing ours lets a read see EOF as soon as the child is gone.
        child_end.close()
        # Written straight from ``data``, without a pickled copy. The child reads it before anything else, so a large
        # file does not keep this call waiting for longer than the copy takes.
        try:
            parent_end.send_bytes(data)
        except OSError:
            pass  # the child died before reading the file; its exit status says why
        message = watch.collect(progress)
    except BaseException:
        _kill(process)  # e.g. the progress callback raised: nobody waits for this read any more
        raise
    finally:
        child_end.close()
        parent_end.close()
        _reap(process)
        exitcode = process.exitcode
        with _process_lock:
            process.close()

    if message is None:
        raise _failure(name, limits, exitcode, watch)
    kind, payload = message
    log.debug(
        "read %r in a child process in %.2f s: address space up to %d MB, resident up to %d MB (sampled)",
        name, watch.elapsed(), watch.peak_mb, watch.peak_resident_mb,
    )
    if kind == RESULT:
        if watch.peak_mb >= _NEAR_LIMIT * limits.memory_mb:
            # The reader falls back to plainer text when the layout model cannot allocate, so a result read at the
            # limit may lack headings and tables.
            log.warning(
                "reading %r came within %.0f%% of the %d MB memory limit (%d MB); parts of it may have been read "
                "without layout. Consider raising RAG_PARSE_MEMORY_MB.",
                name, 100 * (1 - _NEAR_LIMIT), limits.memory_mb, watch.peak_mb,
            )
        return payload
    if kind == LIMIT_TOO_LOW:
        log.error(
            "RAG_PARSE_MEMORY_MB=%d is below the %d MB of address space the reading process starts with: "
            "no file can be read. Raise it (3072 suits most PDFs).",
            limits.memory_mb, payload,
        )
        raise _out_of_memory(name, limits)
    if kind == OUT_OF_MEMORY:
        raise _out_of_memory(name, limits)
    exc, child_traceback = payload
    if not isinstance(exc, IngestError):
        # A bug in the reader rather than a problem of the file: keep where it happened.
        exc.add_note(f"Raised in the reading process:\n{child_traceback}")
    raise exc


# --- Watching the child and naming its end -------------------------------------------------------------------------


def _get_context() -> multiprocessing.context.BaseContext:
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context(_START_METHOD)
            if _START_METHOD == "forkserver":
                # Process-wide, and only effective before the fork server starts (on the first read).
                context.set_forkserver_preload(_PRELOAD)
            _context = context
        return _context


class _Watch:
    """The parent's view of one reading process: its messages, deadline and peak address space."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection, limits: ParseLimits):
        self.process = process
        self.conn = conn
        self.limits = limits
        self.started = time.monotonic()
        self.killed = False  # by this process, at the deadline
        # Largest address space and resident size seen while the child ran, MB. Sampled rather than the child's
        # VmPeak, which starts at whatever peak the fork server reached.
        self.peak_mb = 0
        self.peak_resident_mb = 0

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def collect(self, progress: Progress | None) -> tuple[str, Any] | None:
        """Relay progress until the child's outcome arrives (returned), the child dies or the deadline passes
        (``None``; the child is killed at the deadline)."""
        deadline = self.started + self.limits.timeout_seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                _kill(self.process)
                self.killed = True
                return None
            ready = wait([self.conn, self.process.sentinel], timeout=min(remaining, _SAMPLE_SECONDS))
            self._sample()
            # Messages first: a child that sent its outcome and exited leaves both ready.
            if self.conn in ready or (ready and self.conn.poll()):
                try:
                    message = self.conn.recv()
                except (EOFError, OSError):
                    return None  # the child died
                if message[0] == PROGRESS:
                    if progress is not None:
                        progress(*message[1:])
                    continue
                return message
            if self.process.sentinel in ready:
                return None

    def _sample(self) -> None:
        size, resident = process_memory_mb(self.process.pid)
        self.peak_mb = max(self.peak_mb, size)
        self.peak_resident_mb = max(self.peak_resident_mb, resident)


def _kill(process: multiprocessing.process.BaseProcess) -> None:
    if process.pid is None:
        return  # never started
    try:
        process.kill()
    except (OSError, ValueError):
        pass  # already gone


def _reap(process: multiprocessing.process.BaseProcess) -> None:
    """Wait for the child to exit, killing it if it lingers."""
    if process.pid is None:
        return  # never started
    # Waiting on the sentinel reads nothing, so it needs no lock; join() below then returns at once.
    if not wait([process.sentinel], timeout=_EXIT_GRACE):
        _kill(process)
        wait([process.sentinel])
    with _process_lock:
        process.join()


def _failure(name: str, limits: ParseLimits, exitcode: int | None, watch: _Watch) -> IngestError:
    """The error for a child that ended without sending an outcome."""
    log.warning(
        "reading process for %r ended without a result after %.1f s: exit code %s, killed at the deadline: %s, "
        "address space seen up to %d MB of %d MB",
        name, watch.elapsed(), exitcode, watch.killed, watch.peak_mb, limits.memory_mb,
    )
    if watch.killed:
        return ParserTimeout(
            f"'{name}' took longer than {limits.timeout_seconds:g} s to read, so reading was stopped. "
            f"{_ADVICE_HEAVY}"
        )
    if exitcode is not None and exitcode < 0:
        number = -exitcode
        if number == signal.SIGXCPU or (number == signal.SIGKILL and _could_use_cpu(limits, watch.elapsed())):
            return _cpu_timeout(name, limits)
        if number == signal.SIGKILL:
            # Not killed here and too soon for the CPU limit: the system's out-of-memory killer.
            return ParserOutOfMemory(
                f"'{name}' was stopped by the system while being read, most likely because it needed too much "
                f"memory. {_ADVICE_HEAVY}"
            )
        if watch.peak_mb >= _NEAR_LIMIT * limits.memory_mb:
            # Native code that does not check for failed allocations crashes at the limit rather than reporting it.
            return _out_of_memory(name, limits)
        return _crashed(name, f"signal {_signal_name(number)}")
    return _crashed(name, f"exit code {exitcode}")


def _could_use_cpu(limits: ParseLimits, elapsed: float) -> bool:
    """Whether the child may have used up its CPU-time limit in ``elapsed`` wall-clock seconds."""
    return elapsed * (os.cpu_count() or 1) >= limits.cpu_seconds


_ADVICE_HEAVY = (
    "The file may be damaged or unusually complex: re-export it (e.g. print it to a new PDF) or split it into "
    "smaller files and upload those."
)


def _cpu_timeout(name: str, limits: ParseLimits) -> ParserTimeout:
    return ParserTimeout(
        f"'{name}' needed more than {limits.cpu_seconds} s of CPU time to read, so reading was stopped. "
        f"{_ADVICE_HEAVY}"
    )


def _out_of_memory(name: str, limits: ParseLimits) -> ParserOutOfMemory:
    return ParserOutOfMemory(
        f"'{name}' needed more than {limits.memory_mb} MB of memory to read, so reading was stopped. "
        f"{_ADVICE_HEAVY}"
    )


def _crashed(name: str, how: str) -> ParserCrashed:
    reader = "the PDF reader" if PurePath(name).suffix.lower() == ".pdf" else "the reader"
    return ParserCrashed(
        f"'{name}' cannot be read: {reader} crashed on this file ({how}). The file is probably damaged: "
        "re-export or re-download it and upload it again."
    )


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name.removeprefix("SIG")
    except ValueError:
        return str(number)
