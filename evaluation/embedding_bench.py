"""Embedding backends side by side: torch (sentence-transformers, float32), ONNX float32 and ONNX int8.

Run:  ``HF_HUB_OFFLINE=1 .venv/bin/python -m evaluation.embedding_bench [--passages N] [--sentences N] [--rounds N]``

On the passages (with their contextual prefix, as ingestion embeds them) and the sentences of the evaluation
documents (``../shared/eval/docs/*.pdf`` and ``../shared/eval/sec/docs/*.pdf``; ``data/`` when they are absent),
read as MuPDF's plain text and cut by the product's chunker and sentence splitter, spread evenly over the documents:

* **speed**: texts per second for passages and for sentences, in rounds that rotate the order of the backends
  (each round: every backend encodes the passages, then the sentences), and the ratio to torch of the same rounds;
* **agreement** with torch float32: mean and min cosine of each text's vectors, the share of texts whose 8 nearest
  neighbours (among all texts) are the same set, and the mean share of those neighbours in common;
* **memory**: the resident set of a fresh process after importing the backend, loading it and encoding one batch.

The models are built first if needed (``python -m retrieval.embedding_build``, a no-op when up to date). Writes
``evaluation/results/embedding.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from evaluation.common import load_average, machine, machine_line, markdown_table, now, write_results
from retrieval.embedding_build import agreement, build, check_texts
from retrieval.onnx_embedder import MODEL_FILES

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT.parent / "shared" / "eval"
BACKENDS = ("torch", "onnx", "onnx-int8")
LABELS = {"torch": "torch float32 (sentence-transformers)", "onnx": "ONNX float32", "onnx-int8": "ONNX int8"}


def documents() -> list[Path]:
    """The evaluation PDFs, or the sample document when the evaluation set is not beside the repository."""
    found = sorted((EVAL / "docs").glob("*.pdf")) + sorted((EVAL / "sec" / "docs").glob("*.pdf"))
    return found or sorted((ROOT / "data").glob("*.pdf"))


def embedder(backend: str, models_dir: Path):
    from retrieval.embedder import make_embedder

    return make_embedder(backend=backend, models_dir=models_dir)


def resident(backend: str, models_dir: Path) -> dict:
    """In a fresh process: seconds to import and load ``backend``, and its resident set (MiB) after one batch."""
    code = ("import json, sys, time\n"
            "t0 = time.perf_counter()\n"
            "from evaluation.embedding_bench import embedder\n"
            f"e = embedder({backend!r}, {str(models_dir)!r})\n"
            "load = time.perf_counter() - t0\n"
            "e.encode(['A passage about the risks of AI systems and how they are managed.'] * 32)\n"
            "kb = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmRSS:'))\n"
            "print(json.dumps({'rss_mb': round(kb / 1024), 'load_seconds': round(load, 2)}))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    if run.returncode:
        raise RuntimeError(f"measuring {backend} in a fresh process failed: {run.stderr[-2000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def bench(passages: list[str], sentences: list[str], models_dir: Path, rounds: int) -> dict:
    """Speed (rounds rotating the backends' order), agreement with torch and memory of each backend."""
    loaded = {b: embedder(b, models_dir) for b in BACKENDS}
    seconds = {b: [0.0, 0.0] for b in BACKENDS}
    vectors: dict[str, np.ndarray] = {}
    for r in range(rounds):
        for backend in BACKENDS[r % 3:] + BACKENDS[:r % 3]:
            parts = []
            for k, texts in enumerate((passages, sentences)):
                t0 = time.perf_counter()
                parts.append(loaded[backend].encode(texts))
                seconds[backend][k] += time.perf_counter() - t0
            vectors.setdefault(backend, np.concatenate(parts))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    rows = {}
    for backend in BACKENDS:
        speed = [rounds * len(passages) / seconds[backend][0], rounds * len(sentences) / seconds[backend][1]]
        rows[backend] = {
            "passages_per_second": round(speed[0], 1), "sentences_per_second": round(speed[1], 1),
            "passages_vs_torch": round(seconds["torch"][0] / seconds[backend][0], 2),
            "sentences_vs_torch": round(seconds["torch"][1] / seconds[backend][1], 2),
            **agreement(vectors["torch"], vectors[backend]), **resident(backend, models_dir)}
    return rows


def report(rows: dict, payload: dict) -> str:
    head = ["backend", "passages/s", "x torch", "sentences/s", "x torch", "mean cos", "min cos", "top-8 same",
            "top-8 overlap", "RSS MiB", "load s"]
    table = markdown_table(head, [[LABELS[b], f"{r['passages_per_second']:.1f}", f"{r['passages_vs_torch']:.2f}",
                                   f"{r['sentences_per_second']:.1f}", f"{r['sentences_vs_torch']:.2f}",
                                   f"{r['mean_cosine']:.4f}", f"{r['min_cosine']:.4f}",
                                   f"{r['top8_agreement']:.3f}", f"{r['top8_overlap']:.3f}", r["rss_mb"],
                                   f"{r['load_seconds']:.1f}"] for b, r in rows.items()], "lr")
    t = payload["texts"]
    return "\n".join([
        "# Embedding backends", "",
        f"{payload['date']}; {machine_line(payload['machine'])}; load average before {payload['load_before']}, "
        f"after {payload['load_after']}.", "",
        f"{t['passages']} passages and {t['sentences']} sentences of {len(t['documents'])} documents "
        f"({', '.join(t['documents'])}), {payload['rounds']} rounds rotating the backends' order; cosines and "
        "neighbours against torch float32 (top-8 same: share of texts whose 8 nearest texts are the same set; "
        "overlap: mean share of them in common); RSS and load time in a fresh process per backend, after one batch "
        f"of 32. `auto` chooses **{payload['auto']}** here: {payload['auto_reason']}.", "",
        table, ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.embedding_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=120, help="passages, spread over the documents")
    parser.add_argument("--sentences", type=int, default=360, help="sentences, spread over the documents")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: RAG_MODELS_DIR)")
    args = parser.parse_args(argv)
    from retrieval.embedder import choose_backend
    from settings import get_settings

    models_dir = (args.models or get_settings().models_dir).resolve()
    build(models_dir)
    pdfs = documents()
    passages, sentences = check_texts(pdfs, args.passages, args.sentences)
    load_before = load_average()
    rows = bench(passages, sentences, models_dir, args.rounds)
    auto, why = choose_backend(backend="auto", models_dir=models_dir)
    payload = {"date": now(), "machine": machine(), "load_before": load_before, "load_after": load_average(),
               "rounds": args.rounds, "models_dir": str(models_dir), "auto": auto, "auto_reason": why,
               "texts": {"documents": [p.name for p in pdfs], "passages": len(passages), "sentences": len(sentences)},
               "backends": rows, "files": dict(MODEL_FILES)}
    markdown = report(rows, payload)
    print(markdown)
    write_results("embedding", markdown, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
