"""The Gradio UI, served by a real uvicorn on 127.0.0.1 and driven through gradio_client."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from tests import pdf_factory as pf


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server(pipeline):
    import uvicorn

    from main import create_app

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(pipeline=pipeline), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started and time.time() < deadline:
        time.sleep(0.1)
    assert server.started, "server did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_page_and_api_share_one_server(live_server):
    import httpx

    page = httpx.get(live_server + "/")
    assert page.status_code == 200 and "gradio" in page.text.lower()
    assert httpx.get(live_server + "/health").json() == {"status": "ok"}


def test_upload_then_ask_through_the_ui(live_server, tmp_path):
    from gradio_client import Client, handle_file

    hostile = pf.make_pdf([[("Marsupia hosts the <script>alert('x')</script> lighthouse festival.", 11)]])
    (tmp_path / "survey.pdf").write_bytes(pf.known_text_pdf())
    (tmp_path / "hostile.pdf").write_bytes(hostile)
    (tmp_path / "broken.pdf").write_bytes(pf.NOT_A_PDF)
    client = Client(live_server + "/", verbose=False)
    status, docs = client.predict([handle_file(str(tmp_path / n)) for n in ("survey.pdf", "hostile.pdf",
                                                                            "broken.pdf")],
                                  "recursive_char", 1000, api_name="/upload")
    assert "survey.pdf: 3 pages" in status
    assert "broken.pdf" in status and "not a PDF" in status  # a bad file is reported, the others still indexed
    assert "survey.pdf" in docs and "hostile.pdf" in docs

    chat, sources, box = client.predict("What is the capital of Freedonia?", [], 5, "hybrid", api_name="/ask")
    answer = chat[-1]["content"]
    answer = answer if isinstance(answer, str) else str(answer)
    assert "Marsupia" in answer and "[" in answer and "Page 2]" in answer
    assert "<b>Page 2</b>" in sources
    assert box == ""

    chat, sources, _ = client.predict("Which festival does Marsupia host?", [], 5, "hybrid", api_name="/ask")
    # Document text is shown as text: the script tag arrives escaped, never as markup.
    assert "&lt;script&gt;" in sources and "<script>" not in sources
