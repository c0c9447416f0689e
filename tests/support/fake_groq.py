"""A fake Groq server: a real HTTP server on 127.0.0.1 speaking Groq's OpenAI-compatible chat-completions protocol.

It answers on Groq's path (``/openai/v1/chat/completions``) and on the path every OpenAI-compatible server uses
(``/v1/chat/completions``: Ollama, vLLM, llama.cpp), so the real ``groq`` client (``base_url=server.base_url``)
and the real ``openai`` client (``base_url=server.base_url_for("openai")``) both talk to it unchanged, and tests
exercise each client's own request building, retries, time limits, SSE parsing and error mapping. Replies are
scripted; every request is recorded. Use it as a context manager or through the ``fake_groq`` fixture::

    from tests.support.fake_groq import FakeGroq, Reply

    with FakeGroq() as server:
        server.script("Paris is the capital.", Reply.error(429, retry_after=1), Reply.slow(2.0))
        llm = LLM("gsk-test", "llama-3.3-70b-versatile", base_url=server.base_url)
        ...
        assert server.requests[0].body["model"] == "llama-3.3-70b-versatile"

    # or, with the fixture (import it into the test module so pytest finds it):
    from tests.support.fake_groq import fake_groq  # noqa: F401

Each request takes the next scripted reply; with the queue empty, ``responder(request_json)`` computes one (if
given and it returns something), else ``default`` is sent. A reply is a ``str`` (the completion's text) or a
:class:`Reply`.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

CHAT_PATH = "/openai/v1/chat/completions"  # the groq client appends this to base_url
# Per provider: the path its client posts to, and the part of it the client expects in base_url.
CHAT_PATHS = {"groq": CHAT_PATH, "openai": "/v1/chat/completions"}
_URL_SUFFIX = {"groq": "", "openai": "/v1"}

# Groq-style error bodies for the statuses tests provoke: (message, type, code).
_ERRORS = {
    400: ("Invalid request.", "invalid_request_error", None),
    401: ("Invalid API Key", "invalid_request_error", "invalid_api_key"),
    403: ("Forbidden", "permissions_error", "permission_denied"),
    404: ("The model does not exist or you do not have access to it.", "invalid_request_error", "model_not_found"),
    429: ("Rate limit reached for model in organization `org_fake` service tier `on_demand` on tokens per minute "
          "(TPM): Limit 6000, Used 6000, Requested 500. Please try again later.", "tokens", "rate_limit_exceeded"),
    500: ("Internal Server Error", "internal_server_error", "internal_server_error"),
    502: ("Bad Gateway", "internal_server_error", "bad_gateway"),
    503: ("Service Unavailable", "internal_server_error", "service_unavailable"),
}


@dataclass
class Reply:
    """One scripted answer of the fake server.

    Attributes
    ----------
    content : str
        The completion's text (sent whole, or as several deltas when the request asks to stream).
    status : int
        HTTP status; anything but 200 sends a Groq-style ``{"error": {"message", "type", "code"}}`` body.
    error_message, error_type, error_code : str, optional
        Override the error body's fields (defaults follow Groq's for the status).
    retry_after : float, optional
        Sent as the ``Retry-After`` header (seconds), as Groq does on 429.
    headers : dict
        Extra response headers, e.g. ``{"retry-after-ms": "20"}`` or ``{"x-should-retry": "false"}``.
    delay : float
        Seconds to wait before sending anything: longer than the client's timeout provokes a timeout.
    chunk_delay : float
        Streaming: seconds to wait before each delta after the first (a stall mid-answer).
    deltas : int, optional
        Streaming: how many content deltas to split ``content`` into (default: one per word).
    malformed_after : int, optional
        Streaming: after this many good deltas send ``data: `` followed by invalid JSON, then end the stream.
    body : dict or str, optional
        Send this as the (non-streaming) body verbatim instead of a built completion.
    finish_reason : str
        The choice's ``finish_reason``.
    """

    content: str = ""
    status: int = 200
    error_message: str | None = None
    error_type: str | None = None
    error_code: str | None = None
    retry_after: float | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    chunk_delay: float = 0.0
    deltas: int | None = None
    malformed_after: int | None = None
    body: dict | str | None = None
    finish_reason: str = "stop"

    @classmethod
    def text(cls, content: str, **kw) -> Reply:
        return cls(content=content, **kw)

    @classmethod
    def error(cls, status: int, message: str | None = None, *, retry_after: float | None = None, **kw) -> Reply:
        return cls(status=status, error_message=message, retry_after=retry_after, **kw)

    @classmethod
    def slow(cls, seconds: float, content: str = "A late answer.") -> Reply:
        return cls(content=content, delay=seconds)

    @classmethod
    def malformed(cls, content: str = "Half an answer and then garbage", after: int = 2) -> Reply:
        return cls(content=content, malformed_after=after)


@dataclass
class Request:
    """One request the fake server received."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict | None  # the parsed JSON body; None when it was not JSON
    raw: bytes

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")


class FakeGroq:
    """A real HTTP server on ``127.0.0.1`` (a free port, a background thread) that answers like Groq.

    Parameters
    ----------
    replies : iterable of str or Reply
        The initial queue of scripted replies, used in order.
    responder : callable, optional
        ``responder(request_json) -> str | Reply | None``, used when the queue is empty.
    default : str or Reply
        The reply when the queue is empty and no responder answered.
    api_key : str, optional
        When set, any other bearer key is rejected with 401 like Groq does; a missing key is always rejected.
    models : iterable of str, optional
        When set, other models are rejected with 404 ``model_not_found``.
    """

    def __init__(self, replies=(), *, responder: Callable[[dict], str | Reply | None] | None = None,
                 default: str | Reply = "This is the fake Groq server's default answer.",
                 api_key: str | None = None, models=None) -> None:
        self.responder = responder
        self.default = default
        self.api_key = api_key
        self.models = set(models) if models is not None else None
        self._queue: deque[str | Reply] = deque(replies)
        self._requests: list[Request] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------------------
    def start(self) -> FakeGroq:
        self._stop.clear()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-groq", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stop.set()  # wakes handlers sleeping in a scripted delay
        self._server.shutdown()
        self._server.close_connections()  # idle keep-alive connections would otherwise linger
        self._server.server_close()
        self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> FakeGroq:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- scripting and inspection --------------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._server is not None, "FakeGroq is not running"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        """Pass this as the groq client's ``base_url`` (it appends ``/openai/v1/chat/completions``)."""
        return f"http://127.0.0.1:{self.port}"

    def base_url_for(self, provider: str) -> str:
        """The ``base_url`` to give ``provider``'s client: the server root for groq, root + ``/v1`` for openai."""
        return self.base_url + _URL_SUFFIX[provider]

    def script(self, *replies: str | Reply) -> FakeGroq:
        """Queue replies for the next requests, in order."""
        with self._lock:
            self._queue.extend(replies)
        return self

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        with self._lock:
            return len(self._queue)

    @property
    def requests(self) -> list[Request]:
        """Every request received so far, oldest first (a copy)."""
        with self._lock:
            return list(self._requests)

    def clear(self) -> None:
        """Forget recorded requests and scripted replies."""
        with self._lock:
            self._requests.clear()
            self._queue.clear()

    # -- used by the handler ---------------------------------------------------------------------------------
    def _record(self, request: Request) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_reply(self, body: dict) -> Reply:
        with self._lock:
            reply = self._queue.popleft() if self._queue else None
        if reply is None and self.responder is not None:
            reply = self.responder(body)
        if reply is None:
            reply = self.default
        return Reply(content=reply) if isinstance(reply, str) else reply


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeGroq

    def __init__(self, *args, **kwargs) -> None:
        self.connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address) -> None:
        with self._conn_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        with self._conn_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._conn_lock:
            conns = list(self.connections)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request, client_address) -> None:
        pass  # a client that hung up (after a timeout) is expected, not an error worth a traceback


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming, like Groq's front end
    disable_nagle_algorithm = True  # headers and body go out as separate writes; don't let each wait ~40 ms
    server: _Server

    def log_message(self, format, *args) -> None:  # noqa: A002 - silence the per-request log lines
        pass

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    # -- dispatch --------------------------------------------------------------------------------------------
    def _handle(self) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        fake._record(Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                             body if isinstance(body, dict) else None, raw))
        try:
            self._respond(fake, body)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True  # the client gave up (a timeout) or shut down

    def _respond(self, fake: FakeGroq, body) -> None:
        # Checks in Groq's order: route, key, body, model.
        if self.command != "POST" or self.path.split("?")[0] not in CHAT_PATHS.values():
            return self._send_error(Reply.error(404, f"Unknown request URL: {self.command} {self.path}. Please "
                                                     "check the URL for typos.", error_code="unknown_url"))
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Bearer ") or (fake.api_key is not None and auth != f"Bearer {fake.api_key}"):
            return self._send_error(Reply.error(401))
        if not isinstance(body, dict):
            return self._send_error(Reply.error(400, "We could not parse the JSON body of your request."))
        for name in ("model", "messages"):
            if name not in body:
                return self._send_error(Reply.error(400, f"'{name}' : property '{name}' is missing"))
        if fake.models is not None and body["model"] not in fake.models:
            return self._send_error(Reply.error(404, f"The model `{body['model']}` does not exist or you do not "
                                                     "have access to it."))

        reply = fake._next_reply(body)
        if reply.delay and fake._stop.wait(reply.delay):
            self.close_connection = True
            return  # shutting down mid-delay
        if reply.status != 200:
            return self._send_error(reply)
        if body.get("stream"):
            return self._send_stream(fake, body, reply)
        self._send_json(200, reply.body if reply.body is not None else _completion(body, reply), reply.headers)

    # -- writing ---------------------------------------------------------------------------------------------
    def _send_json(self, status: int, payload, headers: dict[str, str] | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-request-id", f"req_{uuid.uuid4().hex[:26]}")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_error(self, reply: Reply) -> None:
        message, kind, code = _ERRORS.get(reply.status, ("Error", "api_error", None))
        headers = dict(reply.headers)
        if reply.retry_after is not None:
            headers.setdefault("Retry-After", f"{reply.retry_after:g}")
        error = {"message": reply.error_message or message, "type": reply.error_type or kind,
                 "code": reply.error_code or code}
        self._send_json(reply.status, {"error": error}, headers)

    def _send_stream(self, fake: FakeGroq, body: dict, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("x-request-id", f"req_{uuid.uuid4().hex[:26]}")
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()

        ident, created, model = _ids(body)

        def chunk(delta: dict, finish: str | None = None, **extra) -> dict:
            return {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model,
                    "system_fingerprint": "fp_fake", "choices": [{"index": 0, "delta": delta, "logprobs": None,
                                                                  "finish_reason": finish}], **extra}

        self._write_event(json.dumps(chunk({"role": "assistant", "content": ""}, x_groq={"id": ident})))
        for i, piece in enumerate(_split(reply.content, reply.deltas)):
            if reply.malformed_after is not None and i >= reply.malformed_after:
                self._write_event('{"id": "' + ident + '", "choices": [{"delta": {"content": "trunc')
                return self._end_chunks()
            if i and reply.chunk_delay and fake._stop.wait(reply.chunk_delay):
                return self._end_chunks()
            self._write_event(json.dumps(chunk({"content": piece})))
        if reply.malformed_after is not None:  # fewer pieces than `after`: still send the bad chunk
            self._write_event("{not json")
            return self._end_chunks()
        usage = _usage(body, reply.content)
        self._write_event(json.dumps(chunk({}, reply.finish_reason, x_groq={"id": ident, "usage": usage})))
        if (body.get("stream_options") or {}).get("include_usage"):
            last = chunk({})
            last.update(choices=[], usage=usage)
            self._write_event(json.dumps(last))
        self._write_event("[DONE]")
        self._end_chunks()

    def _write_event(self, data: str) -> None:
        payload = f"data: {data}\n\n".encode()
        # HTTP/1.1 chunked framing, flushed per event so the client sees each delta as it is sent.
        self.wfile.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
        self.wfile.flush()

    def _end_chunks(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def _ids(body: dict) -> tuple[str, int, str]:
    return f"chatcmpl-{uuid.uuid4()}", int(time.time()), str(body.get("model", ""))


def _usage(body: dict, content: str) -> dict:
    # Word counts stand in for tokens: enough for tests that check usage is reported.
    prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []) if isinstance(m, dict))
    completion = len(content.split())
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _completion(body: dict, reply: Reply) -> dict:
    ident, created, model = _ids(body)
    return {
        "id": ident, "object": "chat.completion", "created": created, "model": model,
        "system_fingerprint": "fp_fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.content}, "logprobs": None,
                     "finish_reason": reply.finish_reason}],
        "usage": _usage(body, reply.content),
        "x_groq": {"id": f"req_{uuid.uuid4().hex[:26]}"},
    }


def _split(content: str, parts: int | None) -> list[str]:
    """``content`` as deltas that join back to it exactly: one per word, or ``parts`` roughly equal ones."""
    words = re.findall(r"\s*\S+", content)
    tail = content[len("".join(words)):]  # trailing whitespace (or all of a blank content)
    if tail:
        words[-1:] = [(words[-1] if words else "") + tail]
    if parts is None or parts >= len(words):
        return words
    size = -(-len(words) // max(parts, 1))
    return ["".join(words[i:i + size]) for i in range(0, len(words), size)]


@pytest.fixture
def fake_groq():
    """A running :class:`FakeGroq`, stopped after the test."""
    with FakeGroq() as server:
        yield server
