"""The UI is built after the server listens: while Gradio imports and builds, the API answers and ``/`` asks the
browser to come back; then ``/`` is the UI, with Gradio's queue running on the server's loop; a UI that fails to
build leaves the API answering and says so without the reason's text."""

from __future__ import annotations

import contextlib
import threading

import httpx
from fastapi import FastAPI

from evaluation.common import serve
from ui.deferred import DeferredUI


def app_with(ui: DeferredUI) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app):
        async with ui.running():
            yield

    app = FastAPI(lifespan=lifespan)

    @app.get("/ping")
    def ping():
        return {"pong": True}

    app.mount("/", ui)
    return app


def test_the_api_answers_while_the_ui_builds_and_then_the_ui_serves_with_its_queue():
    release = threading.Event()

    def build():
        import gradio as gr

        assert release.wait(60)
        with gr.Blocks() as blocks:
            name = gr.Textbox()
            out = gr.Textbox()
            gr.Button().click(lambda n: f"hello {n}", name, out, api_name="greet")
        return gr.mount_gradio_app(FastAPI(), blocks, path="/")

    ui = DeferredUI(build)
    with serve(app_with(ui), start_timeout=60) as url:
        page = httpx.get(url + "/", timeout=10)
        assert page.status_code == 503 and page.headers["retry-after"] == "2"
        assert "The interface is starting" in page.text and "http-equiv='refresh'" in page.text
        assert httpx.get(url + "/ping", timeout=10).json() == {"pong": True}
        assert ui.state == "starting"

        release.set()
        assert ui.wait(60) and ui.state == "ready"
        page = httpx.get(url + "/", timeout=10)
        assert page.status_code == 200 and "gradio" in page.text.lower()
        from gradio_client import Client

        # A call through Gradio's queue: the queue was started on the server's own loop.
        assert Client(url + "/", verbose=False).predict("ada", api_name="/greet") == "hello ada"
        assert httpx.get(url + "/ping", timeout=10).json() == {"pong": True}


def test_a_ui_that_cannot_be_built_leaves_the_api_answering_and_says_so():
    def build():
        raise RuntimeError("secret internal detail")

    ui = DeferredUI(build)
    with serve(app_with(ui), start_timeout=60) as url:
        assert ui.wait(30) is False and ui.state == "failed"
        page = httpx.get(url + "/", timeout=10)
        assert page.status_code == 500 and "The interface could not start" in page.text
        assert "secret" not in page.text and "retry-after" not in page.headers
        assert httpx.get(url + "/ping", timeout=10).json() == {"pong": True}
