"""Limits on slow clients, so that a connection trickling its request cannot be held open for ever.

``uvicorn main:app --http serving:GuardedH11Protocol`` (the Dockerfile's and the Makefile's command) applies all of
them, from the settings:

- ``RAG_HEADER_TIMEOUT_SECONDS``: a connection whose request headers are not complete this long after they began
  gets 408 and is closed. h11 has no such limit; :class:`GuardedH11Protocol` adds it.
- ``RAG_BODY_TIMEOUT_SECONDS``: a request whose body has not all arrived this long after its headers gets 408 and
  the connection is closed (:class:`BodyDeadline`, installed by ``main.create_app``, so plain ``uvicorn main:app``
  has it too).
- ``RAG_KEEP_ALIVE_SECONDS``: an idle kept-alive connection is closed after this long (uvicorn's
  ``timeout_keep_alive``, set by the protocol); ``RAG_MAX_HEADER_KB`` bounds the request line and headers.
- ``RAG_MAX_REQUEST_KB``: a request body other than a file upload larger than this gets 413 before it is parsed
  (:class:`BodyLimit`, installed by ``main.create_app``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("rag")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def _json_bytes(detail: str) -> bytes:
    return json.dumps({"detail": detail}).encode()


async def _send_error(send: Send, status: int, detail: str) -> None:
    """An ASGI response ``{"detail": ...}`` with ``status``, closing the connection."""
    body = _json_bytes(detail)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyDeadline:
    """ASGI middleware: the whole request body must arrive within ``seconds`` of the request's headers.

    A body still incomplete then (a client trickling it, or one that stopped sending) is answered 408 with a JSON
    ``detail`` and ``Connection: close``, and the application sees the client as disconnected. Requests whose body
    is complete are not limited further (a streamed answer may take as long as it takes).
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], seconds: float):
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.seconds:
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        state = {"body_done": False, "started": False, "timed_out": False}

        async def guarded_receive() -> Message:
            if state["timed_out"]:
                return {"type": "http.disconnect"}
            if state["body_done"]:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.0))
            except asyncio.TimeoutError:
                state["timed_out"] = True
                if not state["started"]:
                    state["started"] = True
                    await self._refuse(send)
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                state["body_done"] = True
            return message

        async def guarded_send(message: Message) -> None:
            if state["timed_out"]:
                return  # the 408 went out instead
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        try:
            await self.app(scope, guarded_receive, guarded_send)
        except Exception:
            if not state["timed_out"]:
                raise
            # The application failed on the body it never got; the client has its 408 already.

    async def _refuse(self, send: Send) -> None:
        log.warning("request body not complete after %g s: 408", self.seconds)
        await _send_error(send, 408, f"The request body did not arrive within {self.seconds:g} seconds "
                                     "(RAG_BODY_TIMEOUT_SECONDS). Send it again over a faster connection.")


class BodyLimit:
    """ASGI middleware: a request body other than a file upload (``multipart/form-data``, whose size the upload
    limit checks) larger than ``max_bytes`` is answered 413 before the application parses any of it.

    The declared ``Content-Length`` is checked first; a chunked body is counted as it arrives and never held beyond
    ``max_bytes``. A body within the limit is passed on unchanged.
    """

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._is_upload(scope):
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            return await self._refuse(send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the application see it
                return await self.app(scope, _replay([message], receive), send)
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                return await self._refuse(send)
            if not message.get("more_body"):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        return await self.app(scope, _replay([body], receive), send)

    @staticmethod
    def _is_upload(scope: Scope) -> bool:
        content_type = dict(scope.get("headers") or ()).get(b"content-type", b"")
        return content_type.split(b";")[0].strip().lower() == b"multipart/form-data"

    async def _refuse(self, send: Send) -> None:
        await _send_error(send, 413, f"The request body is larger than {self.max_bytes // 1024} KiB, the most "
                                     "accepted (RAG_MAX_REQUEST_KB); send a shorter question or fewer ids.")


def _replay(messages: list, receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` first, then whatever the connection sends next (a disconnect)."""
    pending = list(messages)

    async def replayed():
        return pending.pop(0) if pending else await receive()

    return replayed


@dataclass(frozen=True)
class SlowClientLimits:
    """What :class:`GuardedH11Protocol` enforces on each connection."""

    header_timeout: float
    keep_alive: float
    max_header_bytes: int

    @classmethod
    def from_settings(cls, settings: Any) -> SlowClientLimits:
        return cls(settings.header_timeout_seconds, settings.keep_alive_seconds, settings.max_header_kb * 1024)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the slow-client limits of the settings: ``--http serving:GuardedH11Protocol``.

    A connection whose request headers are not complete ``header_timeout`` seconds after it opened, or after the
    first byte of a later request on it, gets a 408 and is closed; an idle kept-alive connection is closed after
    ``keep_alive`` seconds and headers over ``max_header_bytes`` get 400. ``limits`` (a class attribute) overrides
    the settings.
    """

    limits: SlowClientLimits | None = None

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if self.limits is None:
            from settings import get_settings

            type(self).limits = SlowClientLimits.from_settings(get_settings())
        limits = self.limits
        self.header_timeout = limits.header_timeout
        self.timeout_keep_alive = limits.keep_alive
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=limits.max_header_bytes)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._arm_header_timer()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        body = _json_bytes(f"The request headers did not arrive within {self.header_timeout:g} seconds "
                           "(RAG_HEADER_TIMEOUT_SECONDS).")
        self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                             b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        self.transport.close()
