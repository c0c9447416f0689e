"""Liveness under load and slow clients, against a real server process started as it is deployed: /health answers
quickly while 40 clients ask questions, and clients that trickle their body or never finish their headers are cut
off while everyone else is served."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest

from tests.support.live_server import DeployedServer
from tests.support.pdf_factory import known_text_pdf

HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 2.0
MARGIN = 3.0  # scheduling slack on a busy 2-core machine


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("slow-clients")
    with DeployedServer(data, RAG_HEADER_TIMEOUT_SECONDS=str(HEADER_TIMEOUT),
                        RAG_BODY_TIMEOUT_SECONDS=str(BODY_TIMEOUT), RAG_QUESTIONS_PER_HOUR="100000") as s:
        r = httpx.post(s.url + "/ingest", files={"file": ("survey.pdf", known_text_pdf(), "application/pdf")},
                       timeout=120)
        assert r.status_code == 200, r.text
        yield s


def connect(server: DeployedServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=BODY_TIMEOUT + MARGIN + 5)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_health_answers_quickly_while_40_clients_ask(server):
    stop = threading.Event()
    answered, failed = [], []

    def ask():
        with httpx.Client(base_url=server.url, timeout=120) as client:
            while not stop.is_set():
                r = client.post("/query", json={"question": "What is the capital of Freedonia?"})
                (answered if r.status_code == 200 else failed).append(r.status_code)

    askers = [threading.Thread(target=ask, daemon=True) for _ in range(40)]
    for t in askers:
        t.start()
    latencies = []
    try:
        time.sleep(1.0)  # every asker has a question in flight
        with httpx.Client(base_url=server.url, timeout=5) as probe:
            for _ in range(40):
                t0 = time.perf_counter()
                r = probe.get("/health")
                latencies.append(time.perf_counter() - t0)
                assert r.status_code == 200 and r.json()["status"] == "ok"
                time.sleep(0.1)
    finally:
        stop.set()
        for t in askers:
            t.join(120)
    print(f"\n/health under 40 askers: max {max(latencies) * 1000:.0f} ms, "
          f"median {sorted(latencies)[len(latencies) // 2] * 1000:.0f} ms; {len(answered)} questions answered")
    assert answered and not failed
    assert max(latencies) < 1.0  # a one-second liveness probe never restarts a busy, healthy server


def test_a_body_trickled_at_4_bytes_a_second_is_cut_off_while_others_are_served(server):
    sock = connect(server)
    body = b'{"question": "' + b"x" * 200 + b'"}'
    sock.sendall(b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    t0 = time.monotonic()
    answered_meanwhile = []
    reply = b""
    sock.settimeout(0.25)
    for i in range(0, len(body), 4):
        try:
            sock.sendall(body[i:i + 4])
        except OSError:  # the server closed the connection
            break
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            chunk = None
        if chunk is not None:
            reply += chunk
            if not chunk or b"}" in reply:
                break
        if time.monotonic() - t0 > BODY_TIMEOUT + MARGIN:
            break
        if not answered_meanwhile:
            answered_meanwhile.append(httpx.get(server.url + "/health", timeout=5).status_code)
        time.sleep(0.75)  # with the quarter-second wait for a reply: 4 bytes a second
    sock.settimeout(MARGIN)
    try:
        reply += read_until_closed(sock)
    except OSError:
        pass
    elapsed = time.monotonic() - t0
    sock.close()
    assert elapsed < BODY_TIMEOUT + MARGIN, f"still connected after {elapsed:.1f} s"
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b"did not arrive within" in reply and b"RAG_BODY_TIMEOUT_SECONDS" in reply
    assert answered_meanwhile == [200]
    r = httpx.post(server.url + "/query", json={"question": "What is the capital of Freedonia?"}, timeout=60)
    assert r.status_code == 200 and "Marsupia" in r.json()["answer"]


@pytest.mark.parametrize("sent", [b"", b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "],
                         ids=["nothing", "half the headers"])
def test_a_client_that_never_finishes_its_headers_is_disconnected(server, sent):
    sock = connect(server)
    t0 = time.monotonic()
    sock.sendall(sent)
    sock.settimeout(HEADER_TIMEOUT + MARGIN)
    reply = b""
    try:
        while time.monotonic() - t0 < HEADER_TIMEOUT + MARGIN:
            if sent:
                sock.sendall(b"a")  # one more header byte a second, never the end of the headers
            chunk = sock.recv(65536) if not sent else _recv_within(sock, 1.0)
            if chunk == b"":
                break
            reply += chunk or b""
    except OSError:
        pass  # reset by the server: disconnected too
    elapsed = time.monotonic() - t0
    sock.close()
    assert elapsed < HEADER_TIMEOUT + MARGIN, f"still connected after {elapsed:.1f} s"
    assert reply == b"" or reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert httpx.get(server.url + "/health", timeout=5).status_code == 200


def _recv_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What arrives within ``seconds`` (``b""`` when the server closed), or ``None`` when nothing did."""
    sock.settimeout(seconds)
    try:
        return sock.recv(65536)
    except TimeoutError:
        return None
