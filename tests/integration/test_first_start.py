"""The first start answers at once: the sample's index is built by the install step (``python cli.py samples``, run
by ``make run`` and the Docker build), and a server started on that data folder answers the first question from it
without reading or embedding anything again."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx

from tests.support import ROOT
from tests.support import pdf_factory as pf
from tests.support.live_server import DeployedServer


def test_the_install_step_indexes_the_samples_and_the_first_start_answers_from_them(tmp_path):
    samples, data = tmp_path / "samples", tmp_path / "storage"
    samples.mkdir()
    (samples / "survey.pdf").write_bytes(pf.known_text_pdf())
    env = {**os.environ, "RAG_DATA_DIR": str(data), "RAG_SAMPLE_DIR": str(samples), "HF_HUB_OFFLINE": "1"}
    built = subprocess.run([sys.executable, "cli.py", "samples"], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stderr
    assert "survey.pdf: 3 pages" in built.stdout and "samples: ready" in built.stdout
    manifest = (data / "collections" / "default" / "manifest.json").read_bytes()

    with DeployedServer(data, RAG_INDEX_SAMPLES="true", RAG_SAMPLE_DIR=str(samples)) as server:
        # Asked as soon as the server is up: answered from the sample, which nobody waits for.
        body = httpx.post(server.url + "/query", json={"question": "What is the capital of Freedonia?"},
                          timeout=60).json()
        assert body["sources"] and body["sources"][0]["filename"] == "survey.pdf"
        assert "Marsupia" in body["answer"]
        stats = httpx.get(server.url + "/stats", timeout=10).json()
    assert stats["samples"] == "ready" and stats["documents"] == 1
    # The server found the sample indexed and left the index as the install step wrote it.
    assert (data / "collections" / "default" / "manifest.json").read_bytes() == manifest
    assert json.loads(manifest)


def test_the_server_is_built_without_importing_the_ui_or_the_pdf_reader(tmp_path):
    # Gradio (about 4.5 s to import and build on 2 cores) is built after the server listens (ui.deferred), and
    # pymupdf (about 1 s) is imported by the reading process, not by the server.
    code = ("import sys, main; app = main.create_app(); "
            "print(sorted(m for m in ('gradio', 'pymupdf', 'pymupdf4llm', 'pdfplumber') if m in sys.modules), "
            "app.state.ui.state)")
    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path), "HF_HUB_OFFLINE": "1", "RAG_INDEX_SAMPLES": "false"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[]", "starting"]


def test_the_ui_is_served_once_built_and_health_says_so(tmp_path):
    with DeployedServer(tmp_path / "storage") as server:  # waits for /health to say the UI is no longer starting
        assert httpx.get(server.url + "/health", timeout=10).json()["ui"] == "ready"
        page = httpx.get(server.url + "/", timeout=30)
        assert page.status_code == 200 and "gradio" in page.text.lower()
