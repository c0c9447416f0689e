"""The UI's way in has the API's limits: Gradio's upload route refuses a file over RAG_MAX_UPLOAD_MB as it arrives,
the upload handler refuses by size and type from the file's metadata before reading it, and no uploaded file is
left in Gradio's temporary folder, refused or indexed."""

from __future__ import annotations

import html
import time
import tracemalloc
from pathlib import Path

import httpx
import pytest

from tests.support import pdf_factory as pf
from tests.support.live_server import DeployedServer


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("ui-limits")
    gradio_tmp = root / "gradio"
    with DeployedServer(root / "data", RAG_MAX_UPLOAD_MB="5", GRADIO_TEMP_DIR=str(gradio_tmp)) as s:
        s.gradio_tmp = gradio_tmp
        yield s


def test_gradio_upload_route_refuses_a_file_over_the_limit_and_keeps_nothing(server):
    big = b"%PDF-1.7\n" + bytes(20 * 1024 * 1024)  # 20 MB against a 5 MB limit
    r = httpx.post(server.url + "/gradio_api/upload", files={"files": ("big.pdf", big, "application/pdf")},
                   timeout=60)
    assert r.status_code == 413
    assert "maximum allowed size of 5242880 bytes" in r.text
    assert files_under(server.gradio_tmp) == []


def test_a_file_indexed_through_the_ui_leaves_no_copy_behind(server, tmp_path):
    from gradio_client import Client, handle_file

    (tmp_path / "survey.pdf").write_bytes(pf.known_text_pdf())
    client = Client(server.url + "/", verbose=False)
    status, docs, *_ = client.predict([handle_file(str(tmp_path / "survey.pdf"))], "recursive_char", 1000,
                                     api_name="/upload")
    assert "Indexed: survey.pdf, 3 pages" in status and "survey.pdf" in docs
    # Gradio's copy is deleted once handled. (Gradio itself leaves an empty placeholder per processed file.)
    assert [p for p in files_under(server.gradio_tmp) if p.stat().st_size or p.name == "survey.pdf"] == []


@pytest.fixture
def small_limit_pipeline(tmp_path):
    from pipeline import Pipeline
    from settings import Settings

    return Pipeline(Settings.preset("tests", data_dir=tmp_path / "storage", max_upload_mb=5))


def upload_handler(pipeline):
    from app_gradio import build_ui

    demo = build_ui(pipeline)
    [fn] = [f.fn for f in demo.fns.values() if f.api_name == "upload"]
    return fn


def test_the_handler_refuses_an_oversized_file_without_reading_it(small_limit_pipeline, tmp_path, monkeypatch):
    gradio_tmp = tmp_path / "gradio"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(gradio_tmp))
    (gradio_tmp / "abc").mkdir(parents=True)
    big = gradio_tmp / "abc" / "big.pdf"
    with big.open("wb") as f:
        f.truncate(300 * 1024 * 1024)  # 300 MB, sparse: no disk used
    wrong = gradio_tmp / "abc" / "slides.pptx"
    wrong.write_bytes(b"PK\x03\x04")
    upload = upload_handler(small_limit_pipeline)

    tracemalloc.start()
    t0 = time.perf_counter()
    shown, _docs, _choices, session, *_ = upload([str(big), str(wrong)], "recursive_char", 1000, None)
    elapsed = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    status = html.unescape(shown)
    assert "'big.pdf' is 300.0 MB, larger than the 5 MB upload limit (RAG_MAX_UPLOAD_MB)" in status
    assert "'slides.pptx' cannot be read: '.pptx' files are not supported" in status
    assert peak < 20 * 1024 * 1024, f"{peak / 2**20:.0f} MiB allocated: the file was read"
    assert elapsed < 5
    assert session["collection"] is None and session["token"] is None  # nothing was created for this session
    assert files_under(gradio_tmp) == []  # Gradio's copies are gone
    assert not (gradio_tmp / "abc").exists()


def test_the_handler_leaves_files_outside_gradios_folder_alone(small_limit_pipeline, tmp_path, monkeypatch):
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    mine = tmp_path / "mine.txt"
    mine.write_text("The ferry leaves at noon.")
    status, *_ = upload_handler(small_limit_pipeline)([str(mine)], "recursive_char", 1000, None)
    assert "Indexed: mine.txt, 1 pages" in status
    assert mine.exists()
