"""What runs inside the process that reads one upload: limits, reading, and sending back the outcome.

:mod:`ingestion.isolation` (the parent side) starts :func:`run_reader` in a fresh child of its fork server for every
upload and turns whatever happens here into an :class:`~core.errors.IngestError`. This module is what the child
does; it imports nothing of the parent side, so the fork server can preload it.

How the two sides talk
----------------------
They share one duplex pipe (a :class:`~multiprocessing.connection.Connection` each):

1. The parent writes the file's bytes with a single ``send_bytes``; the child reads them before anything else.
2. The child then sets its own limits (so that they bound only the parsing): soft ``RLIMIT_AS`` at the memory
   limit, ``RLIMIT_CPU`` at the CPU-time limit plus what it has used so far, no core file.
3. If the parent asked for progress, the child sends ``(PROGRESS, stage, done, total)`` while it reads.
4. It ends with exactly one outcome, pickled here so that an exception that would not survive the trip is replaced
   by one that does:

   * ``(RESULT, result)``: what the reading function returned;
   * ``(ERROR, (exception, traceback text))``: what it raised;
   * ``(OUT_OF_MEMORY, None)``: an allocation failed, even one the reader reported as a damaged file;
   * ``(LIMIT_TOO_LOW, megabytes)``: the process started with more address space than the limit allows.

A child that ends without an outcome (killed at the parent's deadline, stopped by its CPU limit, crashed) is judged
by the parent from its exit status and the address space it was seen to use (:func:`process_memory_mb`). The child
also exits as soon as the parent is gone, so no reading process outlives the server.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import pickle
import resource
import threading
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from core.errors import IngestError
from core.types import ReadResult

# Message kinds sent from the child to the parent (the first item of every message).
PROGRESS, RESULT, ERROR, OUT_OF_MEMORY, LIMIT_TOO_LOW = "progress", "result", "error", "oom", "limit too low"

_MB = 1024 * 1024
# Seconds of CPU time between SIGXCPU (soft limit, terminates the child) and SIGKILL (hard limit, for a child that
# ignores SIGXCPU).
_CPU_GRACE = 2


def run_reader(
    conn: Connection,
    *,
    target: Callable[..., ReadResult] | str,
    filename: str,
    read_kwargs: dict[str, Any],
    memory_mb: int,
    cpu_seconds: int,
    with_progress: bool,
) -> None:
    """Entry point of the reading process: receive the file, read it under the limits, send back the outcome, exit.

    Parameters
    ----------
    conn : this process's end of the pipe to the parent.
    target : the reading function, or its ``"module:function"`` name (imported here), called as
        ``target(data, filename, **read_kwargs)``.
    filename : the name the file was uploaded under.
    read_kwargs : passed on to ``target``.
    memory_mb : address-space limit, MiB.
    cpu_seconds : CPU-time limit, seconds, counted from when the file has arrived.
    with_progress : whether to pass ``target`` a ``progress=`` callback that sends progress messages.
    """
    _exit_with_parent()
    try:
        data = conn.recv_bytes()
    except (EOFError, OSError):
        return  # the parent gave up before sending the file
    baseline_mb, _ = process_memory_mb("self")
    if baseline_mb >= memory_mb:
        # Every allocation would fail, and the reader would fall back or crash on each file: say so instead.
        _send_outcome(conn, (LIMIT_TOO_LOW, baseline_mb))
        return
    # After receiving the file (its size is checked by the caller), so the limits bound only the parsing.
    _limit_resources(memory_mb, cpu_seconds)
    if isinstance(target, str):
        module, _, function = target.partition(":")
        target = getattr(importlib.import_module(module), function)
    kwargs = dict(read_kwargs)
    if with_progress:
        kwargs["progress"] = lambda stage, done, total: conn.send((PROGRESS, stage, done, total))
    try:
        outcome: tuple[str, Any] = (RESULT, target(data, filename, **kwargs))
    except MemoryError:
        outcome = (OUT_OF_MEMORY, None)
    except Exception as exc:  # noqa: BLE001 - every error goes back to the parent
        outcome = (OUT_OF_MEMORY, None) if _caused_by_memory(exc) else (ERROR, (exc, traceback.format_exc()))
    del data, kwargs
    _send_outcome(conn, outcome)


def process_memory_mb(pid: int | str) -> tuple[int, int]:
    """Current address space and resident size of a process (``"self"`` for this one), MB; ``(0, 0)`` if it is gone
    (or not on Linux)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        return int(fields["VmSize"].split()[0]) // 1024, int(fields["VmRSS"].split()[0]) // 1024
    except (OSError, KeyError, ValueError):
        return 0, 0


def _send_outcome(conn: Connection, outcome: tuple[str, Any]) -> None:
    # Sending needs memory too, which the limit may no longer allow; only the soft limit was set, so lift it.
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    conn.send_bytes(_pickle_outcome(outcome))


def _exit_with_parent() -> None:
    """Exit as soon as the parent process is gone, so that no reading process outlives the server."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _limit_resources(memory_mb: int, cpu_seconds: int) -> None:
    # No core file: a crashed parser would write hundreds of MB of it into the working directory.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # Only the soft limit: it makes allocations fail (MemoryError) and can be lifted again to report that; the file
    # cannot lift it, since parsing runs no code of the file's choosing.
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_capped(memory_mb * _MB, hard), hard))
    # The limit counts CPU time since the process started; a spawned child has already used some to start.
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime) + cpu_seconds
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (_capped(soft, hard), _capped(soft + _CPU_GRACE, hard)))


def _capped(value: int, hard: int) -> int:
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


def _caused_by_memory(exc: BaseException) -> bool:
    """Whether ``exc`` or an exception it was raised from is an allocation failure.

    The reader turns any library exception into :class:`~core.errors.DamagedPdf`, including a ``MemoryError``
    or MuPDF's own out-of-memory error, which would tell the user the file is damaged when it is only large.
    """
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, MemoryError):
            return True
        # MuPDF reports a failed allocation as FzErrorSystem "malloc (N bytes) failed". The reader's own messages
        # are not searched: they hold the file name, which may contain any word.
        if not isinstance(exc, IngestError) and any(mark in str(exc).lower() for mark in _ALLOCATION_FAILED):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


_ALLOCATION_FAILED = ("malloc (", "out of memory", "bad_alloc", "bad allocation", "failed to allocate")


def _pickle_outcome(outcome: tuple[str, Any]) -> bytes:
    """The outcome as bytes; an exception that would not survive the trip is replaced by a ``RuntimeError``."""
    kind, payload = outcome
    if kind == ERROR:
        exc, child_traceback = payload
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:
            payload = (_picklable_copy(exc), child_traceback)
    try:
        return pickle.dumps((kind, payload), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # a result that does not pickle: a bug in the target, not a problem of the file
        error = RuntimeError(f"the reading process could not send its result: {exc!r}")
        return pickle.dumps((ERROR, (error, traceback.format_exc())), protocol=pickle.HIGHEST_PROTOCOL)


def _picklable_copy(exc: BaseException) -> BaseException:
    """An exception that pickles, for one that does not (e.g. its ``__init__`` takes other arguments than ``args``).

    An :class:`IngestError` keeps its message and status, so the user still sees what was wrong.
    """
    if isinstance(exc, IngestError):
        copy = IngestError(str(exc))
        copy.status_code = exc.status_code
        return copy
    return RuntimeError(f"{type(exc).__qualname__}: {exc}")
