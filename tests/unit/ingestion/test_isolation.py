"""Reading in a limited child process: same result as in-process, clear errors for files that hang, exhaust memory,
burn CPU or crash the parser, and a parent that keeps working afterwards. Real processes throughout.

The misbehaving readers below are module-level functions: the child imports this module by name to find them.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pymupdf
import pytest

from core.errors import DamagedPdf, FileTooLarge, IngestError, NotAPdf, ParserCrashed, ParserOutOfMemory, ParserTimeout
from ingestion.isolation import ParseLimits, read_isolated
from ingestion.reader import read_document
from tests.support import ROOT

# A child starts with ~550 MB of address space mapped (pymupdf, its layout model, ONNX Runtime); reading a small
# PDF peaks at ~700 MB. These limits leave room for that and keep failing reads short.
LIMITS = ParseLimits(memory_mb=1536, cpu_seconds=20, timeout_seconds=30)


# --- Readers that misbehave (run in the child) -------------------------------------------------------------------


def sleep_forever(data: bytes, filename: str, pid_file: str = "", **kwargs):
    Path(pid_file).write_text(str(os.getpid()))
    while True:
        time.sleep(60)


def allocate_until_failure(data: bytes, filename: str, **kwargs):
    blocks = []
    while True:
        blocks.append(bytearray(32 * 1024 * 1024))  # zero pages: address space grows, resident memory barely


def allocate_and_call_it_damaged(data: bytes, filename: str, **kwargs):
    # What the reader does with any library error, MemoryError included.
    try:
        allocate_until_failure(data, filename)
    except MemoryError as exc:
        raise DamagedPdf(f"'{filename}' cannot be read: the file is damaged or truncated.") from exc


def render_huge_and_call_it_damaged(data: bytes, filename: str, **kwargs):
    # MuPDF cannot allocate a 650 MB pixmap under the limit and raises its own error, which the reader would wrap.
    try:
        pymupdf.open(stream=data, filetype="pdf")[0].get_pixmap(dpi=1500)
    except Exception as exc:
        raise DamagedPdf(f"'{filename}' cannot be read: the file is damaged or truncated.") from exc


def segfault(data: bytes, filename: str, **kwargs):
    os.kill(os.getpid(), signal.SIGSEGV)
    time.sleep(60)


def burn_cpu(data: bytes, filename: str, **kwargs):
    count = 0
    while True:
        count += 1


def fail_with_bug(data: bytes, filename: str, **kwargs):
    raise ValueError("a bug in the reader")


def report_then_sleep(data: bytes, filename: str, progress=None, **kwargs):
    progress("read", 1, 2)
    time.sleep(60)


class PickyError(IngestError):
    """An error whose ``__init__`` does not take its ``args`` back, so it does not unpickle as is."""

    status_code = 409

    def __init__(self, message: str, detail: str):
        super().__init__(message)
        self.detail = detail


def fail_with_picky_error(data: bytes, filename: str, **kwargs):
    raise PickyError(f"'{filename}' clashes with another upload.", "detail")


def fingerprint(data: bytes, filename: str, **kwargs):
    return len(data), hashlib.sha256(data).hexdigest()


def count_pages(data: bytes, filename: str, progress=None, **kwargs):
    for done in range(1, 4):
        progress("read", done, 3)
    return kwargs


# --- Helpers -----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hello_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Hello isolated world", fontsize=12)
    data = doc.tobytes()
    doc.close()
    return data


def _status(pid: str) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as status:
        return dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)


def running(pid: int) -> bool:
    """Whether the process exists and has not exited (a zombie has exited)."""
    try:
        return _status(str(pid))["State"][0] != "Z"
    except (OSError, KeyError):
        return False


def reading_processes() -> list[int]:
    """Grandchildren of this process (the fork server's children, zombies included)."""
    statuses = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            statuses[int(pid)] = int(_status(pid)["PPid"])
        except (OSError, KeyError, ValueError):
            pass  # exited meanwhile
    children = {pid for pid, ppid in statuses.items() if ppid == os.getpid()}
    return sorted(pid for pid, ppid in statuses.items() if ppid in children)


def assert_parent_still_reads(data: bytes) -> None:
    """A normal read right after a failure succeeds, and the failed child left no process behind."""
    assert read_isolated(data, "hello.pdf", limits=LIMITS).pages[0].text == "Hello isolated world"
    assert reading_processes() == []


# --- Normal reads --------------------------------------------------------------------------------------------------


def test_reads_the_same_pages_as_in_process(hello_pdf):
    isolated = read_isolated(hello_pdf, "hello.pdf", limits=LIMITS)
    assert isolated == read_document(hello_pdf, "hello.pdf")
    assert isolated.pages[0].text == "Hello isolated world"


def test_passes_reader_options_through(hello_pdf):
    with pytest.raises(FileTooLarge) as error:
        read_isolated(hello_pdf, "hello.pdf", limits=LIMITS, max_bytes=10)
    assert error.value.status_code == 413


def test_progress_events_arrive_in_the_calling_thread(hello_pdf):
    events = []
    result = read_isolated(
        hello_pdf, "hello.pdf", limits=LIMITS, target=count_pages,
        progress=lambda *event: events.append((*event, threading.get_ident())), option=7,
    )
    assert result == {"option": 7}  # read options reach the target
    assert events == [("read", done, 3, threading.get_ident()) for done in (1, 2, 3)]


@pytest.mark.skipif(
    "progress" not in inspect.signature(read_document).parameters, reason="read_document reports no progress yet"
)
def test_progress_of_the_real_reader(hello_pdf):
    events = []
    result = read_isolated(hello_pdf, "hello.pdf", limits=LIMITS, progress=lambda *event: events.append(event))
    assert result.page_count == 1
    assert events and events[-1][1:] == (1, 1)


def test_ingest_error_keeps_class_message_and_status(hello_pdf):
    # A name that reads like an allocation failure must not turn the error into one.
    with pytest.raises(NotAPdf) as isolated:
        read_isolated(b"just some text", "out of memory.pdf", limits=LIMITS)
    with pytest.raises(NotAPdf) as in_process:
        read_document(b"just some text", "out of memory.pdf")
    assert type(isolated.value) is NotAPdf
    assert str(isolated.value) == str(in_process.value)
    assert isolated.value.message == in_process.value.message
    assert isolated.value.status_code == 415


def test_other_errors_keep_their_class_and_the_child_traceback(hello_pdf):
    with pytest.raises(ValueError, match="a bug in the reader") as error:
        read_isolated(hello_pdf, "hello.pdf", limits=LIMITS, target=fail_with_bug)
    assert "fail_with_bug" in "".join(error.value.__notes__)


def test_error_that_does_not_pickle_keeps_message_and_status(hello_pdf):
    with pytest.raises(IngestError) as error:
        read_isolated(hello_pdf, "hello.pdf", limits=LIMITS, target=fail_with_picky_error)
    assert type(error.value) is IngestError  # the class could not travel; message and status did
    assert str(error.value) == "'hello.pdf' clashes with another upload."
    assert error.value.status_code == 409


def test_large_file_arrives_intact(hello_pdf):
    data = os.urandom(64 * 1024 * 1024)
    length, digest = read_isolated(data, "large.pdf", limits=LIMITS, target=fingerprint)
    assert (length, digest) == (len(data), hashlib.sha256(data).hexdigest())


def test_concurrent_reads_all_succeed(hello_pdf):
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: read_isolated(hello_pdf, "hello.pdf", limits=LIMITS), range(4)))
    assert [r.pages[0].text for r in results] == ["Hello isolated world"] * 4
    assert reading_processes() == []


# --- Files that break the reader -----------------------------------------------------------------------------------


def test_hang_is_stopped_at_the_deadline(hello_pdf, tmp_path):
    pid_file = tmp_path / "pid"
    started = time.monotonic()
    with pytest.raises(ParserTimeout) as error:
        read_isolated(
            hello_pdf, "slow.pdf", limits=ParseLimits(memory_mb=1536, cpu_seconds=20, timeout_seconds=3),
            target=sleep_forever, pid_file=str(pid_file),
        )
    assert 3 <= time.monotonic() - started < 10
    assert "'slow.pdf' took longer than 3 s to read" in str(error.value)
    assert error.value.status_code == 422
    assert not Path(f"/proc/{pid_file.read_text()}").exists()  # killed and reaped
    assert_parent_still_reads(hello_pdf)


def test_memory_exhaustion_is_reported(hello_pdf):
    with pytest.raises(ParserOutOfMemory) as error:
        read_isolated(hello_pdf, "big.pdf", limits=ParseLimits(1024, 20, 30), target=allocate_until_failure)
    assert "'big.pdf' needed more than 1024 MB of memory" in str(error.value)
    assert error.value.status_code == 422
    assert_parent_still_reads(hello_pdf)


@pytest.mark.parametrize("target", [allocate_and_call_it_damaged, render_huge_and_call_it_damaged])
def test_memory_error_disguised_as_damage_is_reported_as_memory(hello_pdf, target):
    with pytest.raises(ParserOutOfMemory):
        read_isolated(hello_pdf, "malloc.pdf", limits=ParseLimits(1024, 20, 30), target=target)


def test_limit_below_what_the_reader_needs_is_reported_as_memory(hello_pdf):
    # The real reader under a limit smaller than the libraries it starts with: it fails or crashes on allocation.
    with pytest.raises(ParserOutOfMemory):
        read_isolated(hello_pdf, "hello.pdf", limits=ParseLimits(256, 20, 30))
    assert_parent_still_reads(hello_pdf)


def test_segfault_is_reported_as_a_crash(hello_pdf):
    with pytest.raises(ParserCrashed) as error:
        read_isolated(hello_pdf, "broken.pdf", limits=LIMITS, target=segfault)
    assert "'broken.pdf' cannot be read: the PDF reader crashed on this file (signal SEGV)" in str(error.value)
    assert error.value.status_code == 422
    assert_parent_still_reads(hello_pdf)


def test_cpu_limit_is_reported_as_a_timeout(hello_pdf):
    with pytest.raises(ParserTimeout) as error:
        read_isolated(hello_pdf, "loop.pdf", limits=ParseLimits(1536, 1, 30), target=burn_cpu)
    assert "'loop.pdf' needed more than 1 s of CPU time" in str(error.value)
    assert_parent_still_reads(hello_pdf)


def test_no_pipe_or_process_left_behind(hello_pdf):
    read_isolated(hello_pdf, "hello.pdf", limits=LIMITS)  # the fork server is up and its descriptors are open
    before = sorted(os.listdir("/proc/self/fd"))
    for target in (None, segfault, fail_with_bug):
        try:
            read_isolated(hello_pdf, "hello.pdf", limits=LIMITS, target=target)
        except (IngestError, ValueError):
            pass
    with pytest.raises(NotAPdf):
        read_isolated(b"not a pdf", "x.pdf", limits=LIMITS)
    assert sorted(os.listdir("/proc/self/fd")) == before
    assert reading_processes() == []


def test_failing_progress_callback_stops_the_read(hello_pdf):
    def explode(*event):
        raise RuntimeError("the client went away")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="the client went away"):
        read_isolated(hello_pdf, "hello.pdf", limits=LIMITS, target=report_then_sleep, progress=explode)
    assert time.monotonic() - started < 10  # killed, not left to sleep
    assert reading_processes() == []


def test_reading_process_does_not_outlive_a_killed_server(tmp_path):
    pid_file = tmp_path / "pid"
    root = ROOT
    server = textwrap.dedent(f"""
        from ingestion.isolation import ParseLimits, read_isolated
        from tests.unit.ingestion.test_isolation import sleep_forever
        read_isolated(b"%PDF-", "x.pdf", limits=ParseLimits(1536, 60, 60), target=sleep_forever,
                      pid_file={str(pid_file)!r})
    """)
    process = subprocess.Popen([sys.executable, "-c", server], cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    try:
        deadline = time.monotonic() + 30
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        reader = int(pid_file.read_text())
        assert running(reader)
    finally:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 10
    while running(reader) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running(reader)
