"""Seconds from starting the server to the first answer from the sample document, with its index built at install
time (``python cli.py samples``, the install step of ``make run`` and of the Docker image) and without (the index
then built by the server itself, in the background, on its first start), measured side by side.

    python -m evaluation.first_start [--rounds 2] [--out evaluation/results]

Each round starts the server as it is deployed (``uvicorn main:app --http serving:GuardedH11Protocol``, UI
mounted, default settings) in a new process on 127.0.0.1 and times, from the moment the process is started:

- ``health``: ``GET /health`` answers (the server accepts requests);
- ``answer``: ``POST /query`` with a question on the sample answers from it (a cited passage of the sample); a
  question asked while the sample is still being indexed waits for it, so this is what a first visitor waits.

The two kinds of start alternate round by round ("installed" on a copy of a data folder the install step built,
"fresh" on an empty one), so a change in the machine's load weighs on both alike. The install step itself is timed
once, beside them. Writes ``first-start.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from evaluation.common import RESULTS, free_port, machine, machine_line, markdown_table, now, write_results

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "What are the characteristics of trustworthy AI systems?"
TIMEOUT_S = 600


def install_step(data_dir: Path) -> float:
    """``python cli.py samples`` into ``data_dir``: its seconds."""
    t0 = time.monotonic()
    subprocess.run([sys.executable, "cli.py", "samples"], cwd=ROOT, check=True, capture_output=True,
                   env={**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1"})
    return time.monotonic() - t0


def start_and_ask(data_dir: Path) -> dict:
    """Start a server on ``data_dir``; seconds until it is healthy and until it answers from the sample."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    t0 = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "main:app", "--host", "127.0.0.1", "--port",
                                str(port), "--http", "serving:GuardedH11Protocol", "--log-level", "warning"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = {"health": None, "answer": None, "cited": None}
    try:
        while time.monotonic() - t0 < TIMEOUT_S and process.poll() is None:
            try:
                if out["health"] is None:
                    if httpx.get(url + "/health", timeout=1).status_code == 200:
                        out["health"] = time.monotonic() - t0
                    continue
                reply = httpx.post(url + "/query", json={"question": QUESTION}, timeout=TIMEOUT_S)
                body = reply.json()
                if reply.status_code == 200 and body.get("sources"):
                    out["answer"] = time.monotonic() - t0
                    out["cited"] = body["sources"][0]["filename"]
                    break
                time.sleep(0.2)
            except httpx.HTTPError:
                time.sleep(0.05)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="first-start-") as tmp:
        built = Path(tmp) / "installed"
        install_s = install_step(built)
        print(f"install step: {install_s:.1f} s", file=sys.stderr)
        runs: dict[str, list[dict]] = {"installed": [], "fresh": []}
        for i in range(args.rounds):
            for kind in ("installed", "fresh"):
                folder = Path(tmp) / f"{kind}-{i}"
                if kind == "installed":
                    shutil.copytree(built, folder)
                else:
                    folder.mkdir()
                runs[kind].append(start_and_ask(folder))
                print(f"round {i + 1} {kind}: {runs[kind][-1]}", file=sys.stderr)
    rows = []
    for kind, label in (("installed", "sample index built at install (`python cli.py samples`)"),
                        ("fresh", "no index: built by the server on its first start")):
        health = [r["health"] for r in runs[kind] if r["health"] is not None]
        answer = [r["answer"] for r in runs[kind] if r["answer"] is not None]
        rows.append([label, f"{statistics.median(health):.1f}" if health else "-",
                     f"{statistics.median(answer):.1f}" if answer else "never",
                     f"{len(answer)} of {len(runs[kind])}"])
    fresh = [r["answer"] for r in runs["fresh"] if r["answer"]]
    installed = [r["answer"] for r in runs["installed"] if r["answer"]]
    ratio = statistics.median(fresh) / statistics.median(installed) if fresh and installed else None
    m = machine()
    md = "\n".join([
        "# First start", "", f"- date: {now()}", f"- machine: {machine_line(m)}",
        f"- command: `python -m evaluation.first_start --rounds {args.rounds}` ({time.monotonic() - started:.0f} s)",
        f"- question: {QUESTION!r}; the install step (`python cli.py samples`) took {install_s:.1f} s", "",
        "Seconds from starting the server process (median of the rounds):", "",
        markdown_table(["start", "health s", "first answer s", "answered"], rows), "",
        f"Fresh / installed, first answer: {ratio:.1f}x" if ratio else "", ""])
    write_results("first-start", md, {"date": now(), "machine": m, "install_seconds": install_s, "runs": runs,
                                      "ratio_fresh_over_installed": ratio, "question": QUESTION}, args.out)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
