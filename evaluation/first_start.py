"""Seconds from starting the server to the first answer from the sample document, with its index built at install
time (``python cli.py samples``, the install step of ``make run`` and of the Docker image) and without (the index
then built by the server itself, in the background, on its first start), measured side by side.

    python -m evaluation.first_start [--rounds 2] [--baseline REF] [--out evaluation/results]

Each round starts the server as it is deployed (``uvicorn main:app --http serving:GuardedH11Protocol``, UI
mounted, default settings) in a new process on 127.0.0.1 and times, from the moment the process is started:

- ``health``: ``GET /health`` answers (the server accepts requests);
- ``answer``: ``POST /query`` with a question on the sample answers from it (a cited passage of the sample); a
  question asked while the sample is still being indexed waits for it, so this is what a first visitor waits;
- ``ui``: ``GET /`` serves the UI (built after the server listens, :mod:`ui.deferred`; until then a page that
  reloads itself).

``--baseline REF`` also starts git revision ``REF`` (from a temporary worktree, on a copy of the same installed
data folder and this checkout's ``models/``) in each round, for a before/after ratio.

The two kinds of start alternate round by round ("installed" on a copy of a data folder the install step built,
"fresh" on an empty one), so a change in the machine's load weighs on both alike. The install step itself is timed
once, beside them. Writes ``first-start.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import contextlib
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


def start_and_ask(data_dir: Path, tree: Path = ROOT) -> dict:
    """Start the server of checkout ``tree`` on ``data_dir``; seconds until it is healthy, until it answers from
    the sample and until its UI is served."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False",
           "RAG_MODELS_DIR": str(ROOT / "models")}
    env.pop("PYTHONPATH", None)
    t0 = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "main:app", "--host", "127.0.0.1", "--port",
                                str(port), "--http", "serving:GuardedH11Protocol", "--log-level", "warning"],
                               cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = {"health": None, "answer": None, "cited": None, "ui": None}
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
        while out["answer"] and time.monotonic() - t0 < TIMEOUT_S and process.poll() is None:
            # The UI is built after the server listens (ui.deferred): "/" answers 503 until it is.
            try:
                if httpx.get(url + "/", timeout=5).status_code == 200:
                    out["ui"] = time.monotonic() - t0
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    return out


def median(values) -> str:
    values = [v for v in values if v is not None]
    return f"{statistics.median(values):.1f}" if values else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", metavar="REF", help="also start this git revision, for a ratio")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    from evaluation.reading import worktree

    started = time.monotonic()
    labels = {"installed": "sample index built at install (`python cli.py samples`)",
              "fresh": "no index: built by the server on its first start"}
    with tempfile.TemporaryDirectory(prefix="first-start-") as tmp, \
            (worktree(args.baseline) if args.baseline else contextlib.nullcontext((None, None))) as (tree, commit):
        built = Path(tmp) / "installed"
        install_s = install_step(built)
        print(f"install step: {install_s:.1f} s", file=sys.stderr)
        trees = {"installed": ROOT, "fresh": ROOT}
        if tree:
            labels["baseline"] = f"{args.baseline} ({commit[:10]}), index built at install"
            trees["baseline"] = tree
        runs: dict[str, list[dict]] = {kind: [] for kind in trees}
        for i in range(args.rounds):
            for kind in trees:
                folder = Path(tmp) / f"{kind}-{i}"
                if kind == "fresh":
                    folder.mkdir()
                else:
                    shutil.copytree(built, folder)
                runs[kind].append(start_and_ask(folder, trees[kind]))
                print(f"round {i + 1} {kind}: {runs[kind][-1]}", file=sys.stderr)
    rows = [[labels[kind], median(r["health"] for r in runs[kind]), median(r["answer"] for r in runs[kind]) if
             any(r["answer"] for r in runs[kind]) else "never", median(r["ui"] for r in runs[kind]),
             f"{sum(1 for r in runs[kind] if r['answer'])} of {len(runs[kind])}"] for kind in runs]

    def ratio(a: str, b: str) -> float | None:
        x, y = ([r["answer"] for r in runs.get(k, []) if r["answer"]] for k in (a, b))
        return statistics.median(x) / statistics.median(y) if x and y else None

    ratios = {"fresh_over_installed": ratio("fresh", "installed"), "baseline_over_installed":
              ratio("baseline", "installed")}
    m = machine()
    md = "\n".join([
        "# First start", "", f"- date: {now()}", f"- machine: {machine_line(m)}",
        f"- command: `python -m evaluation.first_start --rounds {args.rounds}"
        f"{f' --baseline {args.baseline}' if args.baseline else ''}` ({time.monotonic() - started:.0f} s)",
        f"- question: {QUESTION!r}; the install step (`python cli.py samples`) took {install_s:.1f} s", "",
        "Seconds from starting the server process (median of the rounds):", "",
        markdown_table(["start", "health s", "first answer s", "UI served s", "answered"], rows), "",
        *(f"{label}, first answer: {value:.2f}x" for label, value in (
            ("Fresh / installed", ratios["fresh_over_installed"]),
            (f"{args.baseline} / this revision", ratios["baseline_over_installed"])) if value), ""])
    readme = "\n".join(md.split("\n")[2:]).replace("- date:", "- measured:", 1)
    write_results("first-start", md, {"date": now(), "machine": m, "install_seconds": install_s, "runs": runs,
                                      "ratios": ratios, "baseline": commit, "question": QUESTION,
                                      "readme": readme}, args.out)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
