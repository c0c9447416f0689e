"""The layout model shared between the reading process and helpers forked from it: the same text as one process
reading alone, each helper computing its share, a helper that dies leaving its pages to the reading process, and no
helper outliving the process that forked it. Real PDFs with columns and tables, the real layout model; each run in
a fresh interpreter, since a helper is forked from the process that asks for it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pymupdf

from ingestion.isolation import ParseLimits, read_isolated
from settings import Settings
from tests.support import ROOT
from tests.support import pdf_factory as factory


def model_pages_pdf() -> bytes:
    """Pages the layout model reads (columns, tables, statements, nested headings, text set sideways, which the
    reader turns upright first), twice over: 14 pages."""
    out = pymupdf.open()
    for make in (factory.two_column_pdf, factory.table_pdf, factory.statement_pdf, factory.nested_headings_pdf,
                 factory.sideways_text_pdf) * 2:
        out.insert_pdf(pymupdf.open(stream=make()))
    return out.tobytes()


# Run in a new interpreter: argv[1] the PDF, argv[2] the mode. Prints one JSON line.
SCRIPT = r"""
import json, os, signal, sys, time
import pymupdf, pymupdf.layout
from ingestion.pdf.layout_text import layout_markdown

doc = pymupdf.open(stream=open(sys.argv[1], "rb").read())  # as the reader opens an upload: from memory
mode = sys.argv[2]
pages = list(range(doc.page_count))

def children():
    found = []
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as f:
            found += [int(p) for p in f.read().split()]
    return found

if mode == "share":
    calls, real = [], pymupdf._get_layout
    pymupdf._get_layout = lambda page, *a, **k: (calls.append(page.number), real(page, *a, **k))[1]
    shared = layout_markdown(doc, pages, "x.pdf", [], lambda *a: None, workers=2)
    here = list(calls)
    alone = layout_markdown(doc, pages, "x.pdf", [], lambda *a: None, workers=1)
    print(json.dumps({"here": here, "alone": calls[len(here):], "same": shared == alone, "n": len(pages)}))
elif mode == "killed":
    killed = []
    def report(stage, done, total):
        if not killed:
            killed.extend(children())
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
    alone = layout_markdown(doc, pages, "x.pdf", [], lambda *a: None, workers=1)
    shared = layout_markdown(doc, pages, "x.pdf", [], report, workers=2)
    print(json.dumps({"killed": len(killed), "same": shared == alone, "pages": sum(bool(p) for p in shared),
                      "alone": sum(bool(p) for p in alone)}))
elif mode == "orphan":
    def report(stage, done, total):
        print(json.dumps({"helpers": children()}), flush=True)
        time.sleep(600)
    layout_markdown(doc, pages, "x.pdf", [], report, workers=2)
"""


def run(tmp_path, mode: str, **kwargs) -> subprocess.Popen | dict:
    pdf = tmp_path / "doc.pdf"
    if not pdf.exists():
        pdf.write_bytes(model_pages_pdf())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    if kwargs.get("background"):
        return subprocess.Popen([sys.executable, "-c", SCRIPT, str(pdf), mode], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, text=True)
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(pdf), mode], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_document_read_with_helpers_reads_as_it_does_alone():
    data = model_pages_pdf()
    limits = ParseLimits.from_settings(Settings.preset("tests"))
    alone = read_isolated(data, "doc.pdf", limits=limits, layout_workers=1)
    shared = read_isolated(data, "doc.pdf", limits=limits, layout_workers=2)
    assert [p.text for p in shared.pages] == [p.text for p in alone.pages]
    assert [(p.headings, p.blocks, p.reader) for p in shared.pages] == [(p.headings, p.blocks, p.reader)
                                                                       for p in alone.pages]
    assert shared.warnings == alone.warnings
    assert all(p.reader == "pymupdf4llm" and p.text for p in shared.pages)


def test_the_reading_process_runs_the_model_on_its_share_only_and_reads_the_same_text(tmp_path):
    out = run(tmp_path, "share")
    assert out["n"] == 14 and out["same"]
    # The reading process asked the model about every other page, the helper about the rest; alone, about all.
    assert out["here"] == [0, 2, 4, 6, 8, 10, 12] and out["alone"] == list(range(14))


def test_a_helper_killed_mid_read_leaves_its_pages_to_the_reading_process(tmp_path):
    out = run(tmp_path, "killed")
    # Every page with text alone has it still (the sideways pages, not turned here, have none either way).
    assert out["killed"] == 1 and out["same"] and out["pages"] == out["alone"] == 12


def test_no_helper_outlives_the_process_that_forked_it(tmp_path):
    process = run(tmp_path, "orphan", background=True)
    try:
        helpers = json.loads(process.stdout.readline())["helpers"]
        assert helpers and all(os.path.exists(f"/proc/{pid}") for pid in helpers)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(os.path.exists(f"/proc/{pid}") for pid in helpers)
