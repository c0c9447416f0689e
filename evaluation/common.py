"""What every evaluation runner shares for its report: the machine description, percentiles, Markdown tables,
writing results, and a live server.

Each runner writes ``evaluation/results/<stem>.md`` (for people) and ``<stem>.json`` (for programs). The JSON may
carry a ``readme`` string: the Markdown block that ``python -m evaluation.readme`` puts into the README between
``<!-- results:<stem> -->`` and ``<!-- /results:<stem> -->``, so the README's figures are always a run's output.
The arguments and the cached product pipeline of the runners are :mod:`evaluation.harness`'s.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def now() -> str:
    """Local date and time, ISO 8601 to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def machine() -> dict:
    """Platform, CPU model and count, memory and Python version of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory_gb = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        memory_gb = None
    return {"platform": platform.platform(), "cpu": cpu, "cpu_count": os.cpu_count(), "memory_gb": memory_gb,
            "python": platform.python_version()}


def load_average() -> list[float] | None:
    """The 1, 5 and 15-minute load averages (None where the platform has none): timings taken while other work
    runs are slower, and the reports say how busy the machine was."""
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def machine_line(m: dict) -> str:
    """One line naming the machine, for reports: ``2 CPUs (model), 24 GB, Python 3.11.x, Linux-...``."""
    memory = f", {m['memory_gb']:g} GB" if m.get("memory_gb") else ""
    cpu = f" ({m['cpu']})" if m.get("cpu") else ""
    return f"{m['cpu_count']} CPUs{cpu}{memory}, Python {m['python']}, {m['platform']}"


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100, linear interpolation as NumPy's default); None for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"q must be between 0 and 100, got {q}")
    if len(values) == 0:
        return None
    return float(np.percentile(np.asarray(values, dtype=float), q))


def markdown_table(head: Sequence[str], rows: Iterable[Sequence[object]], align: str = "l") -> str:
    """A Markdown table: the header line, the separator and one line per row, without a trailing newline.

    ``align`` has one letter per column, ``l`` (left) or ``r`` (right, for figures); its last letter goes on for the
    columns after it, so ``"lr"`` is a label column then figures. A cell is shown as ``str(cell)``, None as "–";
    numbers are formatted by the caller, which knows how many digits each column deserves.

    >>> print(markdown_table(["kind", "n", "recall@1"], [["lexical", 3, "0.67"], ["all", 4, None]], "lr"))
    | kind | n | recall@1 |
    | --- | ---: | ---: |
    | lexical | 3 | 0.67 |
    | all | 4 | – |
    """
    if not align or set(align) - {"l", "r"}:
        raise ValueError(f"align takes the letters l and r, got {align!r}")
    marks = [{"l": "---", "r": "---:"}[align[min(i, len(align) - 1)]] for i in range(len(head))]

    def line(cells: Sequence[object]) -> str:
        if len(cells) != len(head):
            raise ValueError(f"a row of {len(cells)} cells in a table of {len(head)} columns: {cells!r}")
        return "| " + " | ".join("–" if c is None else str(c) for c in cells) + " |"

    return "\n".join([line(head), line(marks), *(line(row) for row in rows)])


def write_results(stem: str, markdown: str, payload: dict, out: Path = RESULTS) -> tuple[Path, Path]:
    """Write ``<out>/<stem>.md`` and ``.json``; return both paths."""
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / f"{stem}.md", out / f"{stem}.json"
    md.write_text(markdown if markdown.endswith("\n") else markdown + "\n", encoding="utf-8")
    js.write_text(json.dumps(payload, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    print(f"wrote {md} and {js}", file=sys.stderr)
    return md, js


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(app, *, start_timeout: float = 120.0) -> Iterator[str]:
    """``app`` (ASGI) on a real uvicorn at 127.0.0.1 in a background thread; yields its base URL (no slash).

    Used by the load and hostile-file runs and by the tests that need a live server. With a UI (built after the
    server listens, :mod:`ui.deferred`), it is waited for too. On exit, connections still
    open (a streaming client) get one second before they are closed.
    """
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)  # polling server.started, not a fixed wait
    if not server.started:
        raise RuntimeError("the server did not start")
    ui = getattr(getattr(app, "state", None), "ui", None)
    if ui is not None and not ui.wait(max(deadline - time.monotonic(), 1)):
        raise RuntimeError("the server started but its UI did not")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
