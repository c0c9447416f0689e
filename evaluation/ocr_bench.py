"""Benchmark the OCR engines on synthetic scanned pages: character error rate and seconds per page.

Run with ``python -m evaluation.ocr_bench`` (not part of the test suite: it takes about 15 minutes on 2 cores,
most of it Tesseract on noisy pages). It builds scanned pages with :mod:`tests.support.scan_factory` (varied sentences;
noise 8, 25 or 45 grey levels; skew 0, 1 or 2 degrees either way; print size and scan resolution cycling
through :data:`PROFILES`, by default 11 pt at 150 dpi and 9 pt at 100 dpi), reads each with every installed
engine as :func:`ingestion.ocr.ocr_page` does, and writes ``evaluation/results/ocr.md`` and ``ocr.json``.

Two experiments ride along: each engine is also run on deskewed pages (a projection-profile deskew, kept here
because it did not lower RapidOCR's CER and so has no place in the product), and RapidOCR is also run with its default,
larger text-detection size (``rapidocr-fulldet``) to check the smaller one the product uses.

CER is the Levenshtein distance between the OCR text and the printed text divided by the printed text's
length, after collapsing all whitespace (line breaks, blank lines) to single spaces: layout is judged by the
tests, the bench judges characters. Seconds per page cover rendering, deskewing and reading, after a warm-up
page, so loading the models is reported apart; both wall-clock seconds and CPU seconds (this process and its
children, such as the tesseract program) are given, since CPU seconds stay comparable on a busy machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import re
import resource
import statistics
import time

import numpy as np
import pymupdf
from PIL import Image

from evaluation.common import markdown_table, percentile, write_results
from evaluation.harness import add_arguments
from ingestion.ocr import INSTALL_COMMANDS, OcrUnavailable, RapidOcrEngine, get_engine, render_page
from tests.support.scan_factory import scanned_pdf

# Varied printed text: names, numbers, dates, amounts, punctuation and long words, as in business documents.
SENTENCES = [
    "The Freedonia survey counted every lighthouse on the northern coast.",
    "The capital of Freedonia is Marsupia, a port on a wide river delta.",
    "Invoice 4821 was paid on 12 March 2024 for a total of 1,250.00 euros.",
    "Section 3.2 describes the sampling method and its known limitations.",
    "Please return the signed form to the registry office before 30 June.",
    "Revenue grew by 7.5% in the third quarter, mostly from export sales.",
    "The committee met on Tuesday; two members sent written apologies.",
    "Contact the help desk at extension 2217 if the login page fails.",
    "Each sample was stored at -20 degrees Celsius for no more than 14 days.",
    "The warranty covers parts and labour for a period of twenty-four months.",
    "Dr. Alvarez reviewed the results and approved the final draft.",
    "Order no. A-1093 contains 36 boxes of printer paper and 4 toner cartridges.",
    "The bridge is closed to heavy vehicles between 22:00 and 06:00.",
    "Applicants must include a copy of their passport and two references.",
    "In 1998 the harbour authority replaced the wooden pier with concrete.",
    "The recommended dose is 250 mg twice a day, taken with food.",
    "Minutes were approved without changes and signed by the chairperson.",
    "Rainfall in Marsupia peaks in April, when the river floods the lower town.",
    "All measurements are reported in millimetres unless stated otherwise.",
    "The tenant shall give at least three months' notice before leaving.",
    "Figure 7 compares the predicted and observed values for each station.",
    "Shipping to Northern Europe takes between five and eight working days.",
    "The library opens at 9 a.m. on weekdays and at 10 a.m. on Saturdays.",
    "Quality checks found 3 defects in a batch of 1,200 assembled units.",
]
NOISE_LEVELS = (8.0, 25.0, 45.0)
SKEWS_DEG = (0.0, 1.0, 2.0)
# (font size in points, scan resolution in dpi): pages of each condition cycle through these.
PROFILES = ((11.0, 150), (9.0, 100), (12.0, 150), (9.0, 150))


def normalise(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends."""
    return re.sub(r"\s+", " ", text).strip()


def _levenshtein(a: str, b: str) -> int:
    try:
        from rapidfuzz.distance import Levenshtein
    except ImportError:  # a small dynamic programme; fine for page-sized strings
        previous = list(range(len(b) + 1))
        for i, ca in enumerate(a, start=1):
            current = [i]
            for j, cb in enumerate(b, start=1):
                current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
            previous = current
        return previous[-1]
    return Levenshtein.distance(a, b)


def cer(hypothesis: str, reference: str) -> float:
    """Character error rate: edit distance over reference length, after :func:`normalise` on both."""
    reference, hypothesis = normalise(reference), normalise(hypothesis)
    if not reference:
        return 0.0 if not hypothesis else 1.0
    return _levenshtein(hypothesis, reference) / len(reference)


def build_pages(per_condition: int = 2, seed: int = 0) -> list[dict]:
    """Build ``per_condition`` scanned pages for every (noise, skew) pair, with varied text and print sizes."""
    rng = random.Random(seed)
    pages = []
    for noise in NOISE_LEVELS:
        for skew in SKEWS_DEG:
            for _ in range(per_condition):
                index = len(pages)
                sentences = rng.sample(SENTENCES, rng.randint(6, 10))
                fontsize, scan_dpi = PROFILES[(index % per_condition) % len(PROFILES)]
                # Alternate the direction of the skew: a sheet can lie crooked either way.
                signed = skew if index % 2 == 0 else -skew
                data = scanned_pdf(
                    [sentences], noise=noise, skew_deg=signed, dpi=scan_dpi, seed=seed + index, fontsize=fontsize
                )
                pages.append(
                    {"pdf": data, "reference": " ".join(sentences), "noise": noise, "skew_deg": signed,
                     "fontsize": fontsize, "scan_dpi": scan_dpi}
                )
    return pages


# ---------------------------------------------------------------------------------------------------------------
# Deskew experiment: at 0-2 degrees it did not lower RapidOCR's CER, so the product does not deskew.
# ---------------------------------------------------------------------------------------------------------------
_SKEW_RANGE_DEG = 5.0
# Below this angle rotating costs time and blurs the glyphs for nothing.
_MIN_SKEW_DEG = 0.3
_SKEW_WORK_WIDTH = 1000  # the angle is estimated on a copy this wide: enough for 0.1 degree, and fast


def estimate_skew(image: np.ndarray) -> float:
    """Estimate the skew of a page image in degrees (counter-clockwise positive, as PIL's ``rotate``).

    Projection profiles: the ink pixels are projected onto the vertical axis at candidate angles; at the true
    angle text lines fall into few rows, so the profile is sharpest (largest sum of squares). Returns 0.0 for
    a page with too little ink to tell.
    """
    gray = np.asarray(Image.fromarray(image).convert("L"))
    scale = min(1.0, _SKEW_WORK_WIDTH / gray.shape[1])
    if scale < 1.0:
        size = (round(gray.shape[1] * scale), round(gray.shape[0] * scale))
        gray = np.asarray(Image.fromarray(gray).resize(size, Image.Resampling.BILINEAR))
    ink = gray < _otsu_threshold(gray)
    ys, xs = np.nonzero(ink)
    # Noise alone gives scattered "ink"; real text makes at least this many dark pixels on a work-size page.
    if len(ys) < 500 or ink.mean() > 0.5:
        return 0.0
    xs = xs - xs.mean()
    ys = ys - ys.mean()

    def sharpness(angle_deg: float) -> float:
        theta = np.deg2rad(angle_deg)
        # Row of each ink pixel after turning the page back by angle_deg (image y grows downwards).
        rows = ys * np.cos(theta) + xs * np.sin(theta)
        counts = np.bincount(np.round(rows - rows.min()).astype(np.int64))
        return float(np.dot(counts, counts))

    coarse = np.arange(-_SKEW_RANGE_DEG, _SKEW_RANGE_DEG + 1e-9, 0.25)
    best = max(coarse, key=sharpness)
    fine = np.arange(best - 0.25, best + 0.25 + 1e-9, 0.05)
    return float(round(max(fine, key=sharpness), 2))


def _otsu_threshold(gray: np.ndarray) -> float:
    hist = np.bincount(gray.ravel(), minlength=256).astype(np.float64)
    total = hist.sum()
    levels = np.arange(256)
    weight0 = np.cumsum(hist)
    weight1 = total - weight0
    mean0 = np.cumsum(hist * levels)
    with np.errstate(divide="ignore", invalid="ignore"):
        between = (mean0[-1] * weight0 / total - mean0) ** 2 / (weight0 * weight1)
    return float(np.nanargmax(between))


def deskew(image: np.ndarray) -> tuple[np.ndarray, float]:
    """Turn a page image upright; return the image and the angle it was skewed by (0.0 if left alone)."""
    angle = estimate_skew(image)
    if abs(angle) < _MIN_SKEW_DEG:
        return image, 0.0
    turned = Image.fromarray(image).rotate(
        -angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=(255, 255, 255)
    )
    return np.asarray(turned), angle



def _cpu_seconds() -> float:
    """CPU seconds used so far by this process (all threads) and its waited-for children (tesseract)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_engine(label: str, engine, pages: list[dict], *, straighten: bool, dpi: int) -> dict:
    """OCR every page with one engine and summarise CER and timing."""
    started = time.perf_counter()
    with pymupdf.open(stream=pages[0]["pdf"], filetype="pdf") as doc:
        engine.read(render_page(doc[0], dpi=dpi))  # warm-up: the first inference allocates and is slower
    warmup_s = time.perf_counter() - started
    rows = []
    for page in pages:
        with pymupdf.open(stream=page["pdf"], filetype="pdf") as doc:
            wall, cpu = time.perf_counter(), _cpu_seconds()
            image = render_page(doc[0], dpi=dpi)
            if straighten:
                image, _ = deskew(image)
            result = engine.read(image)
            wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
        rows.append(
            {"noise": page["noise"], "skew_deg": page["skew_deg"], "fontsize": page["fontsize"],
             "scan_dpi": page["scan_dpi"], "cer": cer(result.text, page["reference"]), "seconds": wall,
             "cpu_seconds": cpu, "confidence": result.confidence}
        )
    by_condition = {}
    for noise in NOISE_LEVELS:
        for skew in SKEWS_DEG:
            subset = [r["cer"] for r in rows if r["noise"] == noise and abs(r["skew_deg"]) == skew]
            if subset:
                by_condition[f"noise {noise:g}, skew {skew:g}"] = statistics.mean(subset)
    by_profile = {}
    for fontsize, scan_dpi in PROFILES:
        subset = [r["cer"] for r in rows if r["fontsize"] == fontsize and r["scan_dpi"] == scan_dpi]
        if subset:
            by_profile[f"{fontsize:g} pt at {scan_dpi} dpi"] = statistics.mean(subset)
    seconds = [r["seconds"] for r in rows]
    cpu_seconds = [r["cpu_seconds"] for r in rows]
    return {
        "engine": label,
        "deskew": straighten,
        "cer_mean": statistics.mean(r["cer"] for r in rows),
        "cer_max": max(r["cer"] for r in rows),
        "cer_by_condition": by_condition,
        "cer_by_profile": by_profile,
        "seconds_p50": percentile(seconds, 50),
        "seconds_p95": percentile(seconds, 95),
        "cpu_seconds_p50": percentile(cpu_seconds, 50),
        "cpu_seconds_p95": percentile(cpu_seconds, 95),
        "warmup_seconds": warmup_s,
        "pages": rows,
    }



def _cer_breakdown(runs: list[dict], key: str, columns: list[str], title: str) -> list[str]:
    """Markdown lines of a table: one row per engine run, one CER column per value of ``key``."""
    return ["", title, "", markdown_table(["engine", "deskew", *columns],
                                          [[run["engine"], "on" if run["deskew"] else "off",
                                            *(f"{run[key][c]:.4f}" for c in columns)] for run in runs])]


def _markdown(report: dict) -> str:
    runs = report["runs"]
    conditions = list(runs[0]["cer_by_condition"]) if runs else []
    machine = report["machine"]
    lines = [
        "# OCR benchmark",
        "",
        f"{report['date']} on {machine['platform']}, {machine['cpu_count']} CPUs, Python {machine['python']}; "
        f"load average {machine['load_before']} before and {machine['load_after']} after (other work on the "
        "machine inflates wall-clock seconds; CPU seconds are less affected).",
        "",
        f"{report['page_count']} synthetic scanned Letter pages from tests.support.scan_factory (greyscale JPEG, "
        f"Helvetica, 6-10 sentences each; print size and scan resolution: {report['profiles']}), rendered "
        f"at {report['render_dpi']} dpi for OCR. CER = Levenshtein distance / reference length after "
        "collapsing whitespace. Seconds per page include rendering (and deskewing when on), after a warm-up "
        "page. `rapidocr-fulldet` is RapidOCR with its default (larger) detection size. Made by "
        "`python -m evaluation.ocr_bench`.",
        "",
        markdown_table(["engine", "deskew", "CER mean", "CER max", "s/page p50", "s/page p95", "CPU s/page p50",
                        "CPU s/page p95"],
                       [[run["engine"], "on" if run["deskew"] else "off", f"{run['cer_mean']:.4f}",
                         f"{run['cer_max']:.4f}", f"{run['seconds_p50']:.2f}", f"{run['seconds_p95']:.2f}",
                         f"{run['cpu_seconds_p50']:.2f}", f"{run['cpu_seconds_p95']:.2f}"] for run in runs]),
    ]
    lines += _cer_breakdown(runs, "cer_by_condition", conditions,
                            "CER mean by condition (noise in grey levels, skew in degrees, either direction):")
    profiles = list(runs[0]["cer_by_profile"]) if runs else []
    lines += _cer_breakdown(runs, "cer_by_profile", profiles,
                            "CER mean by print size and scan resolution (all noise and skew levels):")
    lines += ["", "Loading the engine, then the warm-up page, in seconds:", ""]
    lines += [
        f"- {run['engine']} (deskew {'on' if run['deskew'] else 'off'}): load {run['load_seconds']:.2f}, "
        f"warm-up page {run['warmup_seconds']:.2f}"
        for run in runs
    ]
    if report["unavailable"]:
        lines += ["", "Not measured:", ""]
        lines += [f"- {name}: {message}" for name, message in report["unavailable"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.ocr_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--per-condition", type=int, default=2, help="pages per (noise, skew) pair (default 2)")
    parser.add_argument("--engines", nargs="+", default=sorted(INSTALL_COMMANDS), help="engines to run")
    parser.add_argument("--dpi", type=int, default=200, help="render resolution for OCR (default 200)")
    parser.add_argument("--no-experiments", action="store_true", help="skip the deskew and full-detection runs")
    add_arguments(parser, gold=False, docs=None, out="ocr.md and ocr.json")
    args = parser.parse_args(argv)

    load_before = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    pages = build_pages(args.per_condition)
    configs, unavailable, load_seconds = [], {}, {}
    for name in args.engines:
        try:
            started = time.perf_counter()
            engine = get_engine(name)
            load_seconds[name] = time.perf_counter() - started
        except OcrUnavailable as exc:
            unavailable[name] = str(exc)
            continue
        configs.append((name, engine, False))
        if not args.no_experiments:
            configs.append((name, engine, True))
            if name == "rapidocr":
                started = time.perf_counter()
                configs.append(("rapidocr-fulldet", RapidOcrEngine(det_max_side=None), False))
                load_seconds["rapidocr-fulldet"] = time.perf_counter() - started
    runs = []
    for label, engine, straighten in configs:
        run = run_engine(label, engine, pages, straighten=straighten, dpi=args.dpi)
        run["load_seconds"] = load_seconds[label]
        runs.append(run)
        print(
            f"{label:16} deskew={'on ' if straighten else 'off'} CER {run['cer_mean']:.4f} "
            f"(max {run['cer_max']:.4f})  s/page p50 {run['seconds_p50']:.2f} p95 {run['seconds_p95']:.2f}  "
            f"CPU s/page p50 {run['cpu_seconds_p50']:.2f}",
            flush=True,
        )
    report = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": {
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "load_before": load_before,
            "load_after": ", ".join(f"{v:.1f}" for v in os.getloadavg()),
        },
        "page_count": len(pages),
        "profiles": ", ".join(sorted({f"{p['fontsize']:g} pt at {p['scan_dpi']} dpi" for p in pages})),
        "render_dpi": args.dpi,
        "runs": runs,
        "unavailable": unavailable,
    }
    markdown = _markdown(report)
    write_results("ocr", markdown, report, args.out)
    print()
    print(markdown)


if __name__ == "__main__":
    main()
