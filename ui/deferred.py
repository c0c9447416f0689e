"""The UI mounted once the server is already answering: importing and building Gradio costs seconds (about 4.5 s
on 2 cores, most of it Gradio's import), and the API should not wait for it.

:class:`DeferredUI` is an ASGI app mounted at ``/`` in place of the Gradio app. Its :meth:`~DeferredUI.running`
context (entered by the server's lifespan) builds the UI in a worker thread while the event loop serves the API,
then starts Gradio's own lifespan and queue on the loop, and from then on passes every request to it. Until then
a page asks the browser to come back in two seconds (``503`` with ``Retry-After``, and a page that reloads itself);
if the build fails, the page says the UI could not start (``500``, the reason in the server's log) and the API
keeps answering.

    >>> import asyncio
    >>> ui = DeferredUI(lambda: None)
    >>> ui.state
    'starting'
    >>> sent = []
    >>> async def send(message): sent.append(message)
    >>> asyncio.run(ui({"type": "http", "method": "GET", "path": "/"}, None, send))
    >>> sent[0]["status"], dict(sent[0]["headers"])[b"retry-after"]
    (503, b'2')
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from starlette.routing import Mount

log = logging.getLogger("rag")

RETRY_S = 2
_PAGE = ("<!doctype html><html lang='en'><head><meta charset='utf-8'>{refresh}<title>Grounded document Q&amp;A"
         "</title></head><body style='font-family:sans-serif;margin:3em'><h1>{title}</h1><p>{text}</p></body></html>")
STARTING = _PAGE.format(
    refresh=f"<meta http-equiv='refresh' content='{RETRY_S}'>", title="Starting",
    text="The interface is starting; this page reloads itself in a moment. The API already answers (see /docs).")
FAILED = _PAGE.format(
    refresh="", title="The interface could not start",
    text="The API still answers (see /docs); the reason is in the server's log.")


class DeferredUI:
    """An ASGI app that serves ``build()``'s Gradio app once it is built.

    ``build`` runs in a worker thread and returns a FastAPI app on which ``gradio.mount_gradio_app`` mounted the
    UI at ``/``; the Gradio app mounted there is served, and that app's lifespan (Gradio's startup events and
    queue) runs on the server's event loop for as long as :meth:`running` is entered.
    """

    def __init__(self, build: Callable[[], Any]):
        self._build = build
        self._app = None
        self._failed = False
        self._done = threading.Event()

    @property
    def ready(self) -> bool:
        """Whether the UI is being served."""
        return self._app is not None

    @property
    def state(self) -> str:
        """``starting``, ``ready`` or ``failed``."""
        return "ready" if self.ready else "failed" if self._failed else "starting"

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the build has finished (or failed); whether the UI is being served."""
        self._done.wait(timeout)
        return self.ready

    @contextlib.asynccontextmanager
    async def running(self):
        """Build and start the UI in the background for as long as this context is entered (the server's
        lifespan); on exit, stop it."""
        async with contextlib.AsyncExitStack() as stack:
            task = asyncio.create_task(self._start(stack))
            try:
                yield
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _start(self, stack: contextlib.AsyncExitStack) -> None:
        try:
            holder = await asyncio.to_thread(self._build)
            await stack.enter_async_context(holder.router.lifespan_context(holder))
            self._app = next(route.app for route in holder.routes if isinstance(route, Mount))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the UI could not be built; the API keeps answering")
            self._failed = True
        finally:
            self._done.set()

    async def __call__(self, scope, receive, send) -> None:
        if self._app is not None:
            await self._app(scope, receive, send)
        elif scope["type"] == "http":
            status, page = (500, FAILED) if self._failed else (503, STARTING)
            body = page.encode()
            headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                       (b"cache-control", b"no-store")]
            if status == 503:
                headers.append((b"retry-after", str(RETRY_S).encode()))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1013})  # "try again later"
