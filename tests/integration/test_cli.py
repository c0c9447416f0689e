"""The command line drives the same pipeline: progress per page and per embedding batch, then answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import pdf_factory as pf
from tests.support import ROOT



def run_cli(*args: str, data_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_ingest_shows_progress_then_ask_answers(tmp_path):
    pdf = tmp_path / "survey.pdf"
    pdf.write_bytes(pf.known_text_pdf())
    done = run_cli("ingest", str(pdf), "--collection", "cli", "--strategy", "fixed_size", data_dir=tmp_path / "s")
    assert done.returncode == 0, done.stderr
    assert "survey.pdf: 3 pages" in done.stdout
    assert "Read page 3/3" in done.stderr and "Embedded" in done.stderr
    asked = run_cli("ask", "What is the capital of Freedonia?", "--collection", "cli", data_dir=tmp_path / "s")
    assert asked.returncode == 0, asked.stderr
    assert "Marsupia" in asked.stdout and "[Page 2]" in asked.stdout


def test_bad_file_and_empty_question_fail_plainly(tmp_path):
    bad = tmp_path / "fake.pdf"
    bad.write_bytes(pf.NOT_A_PDF)
    done = run_cli("ingest", str(bad), data_dir=tmp_path / "s")
    assert done.returncode == 1 and "not a PDF" in done.stderr and "Traceback" not in done.stderr


def test_invoice_prints_the_reading_and_the_same_json_as_the_api(tmp_path):
    import json

    sample = ROOT / "data" / "invoices" / "dev-b-C536548.pdf"
    truth = json.loads(sample.with_suffix(".truth.json").read_text())
    shown = run_cli("invoice", str(sample), "--server", "", data_dir=tmp_path / "s")
    assert shown.returncode == 0, shown.stderr
    assert "every check passed" in shown.stdout and "C536548" in shown.stdout
    as_json = run_cli("invoice", str(sample), "--json", "--server", "", data_dir=tmp_path / "s")
    body = json.loads(as_json.stdout)
    assert body["fields"] == truth["fields"] and body["lines"] == truth["lines"]
    bad = tmp_path / "fake.pdf"
    bad.write_bytes(pf.NOT_A_PDF)
    refused = run_cli("invoice", str(bad), "--server", "", data_dir=tmp_path / "s")
    assert refused.returncode == 1 and "not a PDF" in refused.stderr and "Traceback" not in refused.stderr
