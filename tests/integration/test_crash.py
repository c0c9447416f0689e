"""Crash safety with a real server process: SIGKILL in the middle of an upload loses nothing indexed before it, and
the restarted server never loads a half-written document."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import pymupdf
import pytest

from evaluation.common import free_port
from tests.support.live_server import wait_until_healthy
from tests.support.pdf_factory import known_text_pdf
from tests.support import ROOT

QUESTION = "What is the capital of Freedonia?"
CAPITAL = "The capital of Freedonia is Marsupia."


class Server:
    """``uvicorn main:app`` in its own process on a data folder that outlives it."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.process: subprocess.Popen | None = None
        self.url = ""

    def start(self) -> Server:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "RAG_DATA_DIR": str(self.data_dir), "RAG_INDEX_SAMPLES": "false",
               "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "main:app", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_healthy(self.process, self.url)
        return self

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


def big_pdf() -> bytes:
    """Ten pages of prose and a 6 MB incompressible image: long to read and embed, slow to write to disk."""
    doc = pymupdf.open()
    noise = np.random.default_rng(0).integers(0, 256, size=(1400, 1400, 3), dtype=np.uint8)
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, 1400, 1400, noise.tobytes(), False)
    for i in range(10):
        page = doc.new_page()
        for line in range(12):
            page.insert_text((50, 60 + 20 * line), f"Harbour report {i}.{line}: tides, dredging and the quay wall.",
                             fontsize=10)
        if i == 0:
            page.insert_image(pymupdf.Rect(50, 320, 550, 820), pixmap=pixmap)
    data = doc.tobytes()
    doc.close()
    return data


def manifest_ids(data_dir: Path, collection: str = "default") -> set[str]:
    path = data_dir / "collections" / collection / "manifest.json"
    return {d["doc_id"] for d in json.loads(path.read_text())["documents"]} if path.exists() else set()


def doc_folders(data_dir: Path, collection: str = "default") -> set[str]:
    docs = data_dir / "collections" / collection / "docs"
    return {p.name for p in docs.iterdir()} if docs.exists() else set()


def upload_in_background(url: str, data: bytes) -> threading.Thread:
    def post():
        try:
            httpx.post(url + "/ingest", files={"file": ("harbour.pdf", data, "application/pdf")}, timeout=300)
        except httpx.HTTPError:
            pass  # the server is killed under it

    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    return thread


def assert_first_document_intact(server: Server, first_id: str) -> None:
    listed = httpx.get(server.url + "/documents").json()["documents"]
    assert first_id in {d["doc_id"] for d in listed}
    reply = httpx.post(server.url + "/query", json={"question": QUESTION}, timeout=60).json()
    assert not reply["abstained"] and CAPITAL in reply["answer"]
    assert reply["citations"][0]["doc_id"] == first_id


@pytest.mark.parametrize("moment", ["while reading", "while writing its files"])
def test_sigkill_during_an_upload_keeps_earlier_documents_and_loads_no_half_document(tmp_path, moment):
    data_dir = tmp_path / "data"
    server = Server(data_dir).start()
    try:
        first = httpx.post(server.url + "/ingest", files={"file": ("survey.pdf", known_text_pdf(), "application/pdf")},
                           timeout=120).json()
        assert_first_document_intact(server, first["doc_id"])
        before = doc_folders(data_dir)

        upload_in_background(server.url, big_pdf())
        deadline = time.monotonic() + 120
        if moment == "while reading":
            while httpx.get(server.url + "/health").json()["ingesting"] == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.5)
        else:
            # The new document's folder appears when the store starts writing it; the manifest naming it is
            # replaced only after every file is on disk.
            while doc_folders(data_dir) == before and time.monotonic() < deadline:
                time.sleep(0.0005)
        server.kill()
        named_at_kill = manifest_ids(data_dir)
        left_at_kill = doc_folders(data_dir) - before

        server.start()
        assert_first_document_intact(server, first["doc_id"])
        listed = {d["doc_id"]: d for d in httpx.get(server.url + "/documents").json()["documents"]}
        # What the manifest named at the kill is what is loaded: all of a document or none of it.
        assert set(listed) == named_at_kill
        for doc_id in set(listed) - {first["doc_id"]}:
            assert listed[doc_id]["chunks"] > 0
        # Folders of documents that never made it into the manifest are cleared away at start.
        assert doc_folders(data_dir) == {f for f in doc_folders(data_dir) if f.split(".")[0] in named_at_kill}
        if moment == "while writing its files":
            assert left_at_kill, "the kill came before the store started writing"
        # The interrupted file can simply be uploaded again.
        again = httpx.post(server.url + "/ingest", files={"file": ("harbour.pdf", big_pdf(), "application/pdf")},
                           timeout=300)
        assert again.status_code == 200
        reply = httpx.post(server.url + "/query", json={"question": "What does the harbour report cover?"},
                           timeout=60).json()
        assert any(c["doc_id"] == again.json()["doc_id"] for c in reply["citations"])
    finally:
        server.stop()
