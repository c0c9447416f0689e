"""Inputs that used to get a 500 or be silently changed, sent to a real server as raw bytes: collection names are
checked whole, an empty name is an error, a lone surrogate in any text field gets a plain 4xx, and request bodies
have a size limit. The document indexed first answers the same before and after."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.integration.test_crash import CAPITAL, QUESTION, Server

FACT = f"Freedonia is a small country. {CAPITAL} It lies by the sea."


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = Server(tmp_path_factory.mktemp("inputs")).start()
    first = httpx.post(live.url + "/ingest", files={"file": ("freedonia.txt", FACT.encode(), "text/plain")},
                       data={"collection": "atlas"}, timeout=120)
    assert first.status_code == 200, first.text
    yield live
    live.stop()


def raw_json(server: Server, path: str, body: bytes) -> httpx.Response:
    return httpx.post(server.url + path, content=body, headers={"content-type": "application/json"}, timeout=60)


def asked(server: Server) -> str:
    reply = httpx.post(server.url + "/query", json={"question": QUESTION, "collection": "atlas"}, timeout=60)
    assert reply.status_code == 200, reply.text
    return reply.json()["answer"]


@pytest.mark.parametrize("name", ["abc\n", "default\n", "atlas\n", " atlas", "a/b", "x" * 65])
def test_a_name_is_checked_whole_and_no_folder_is_made(server, name):
    reply = httpx.post(server.url + "/ingest", files={"file": ("n.txt", FACT.encode(), "text/plain")},
                       data={"collection": name}, timeout=60)
    assert reply.status_code == 422
    assert "Invalid collection name" in reply.json()["detail"]
    folders = {p.name for p in (server.data_dir / "collections").iterdir()}
    assert folders == {"atlas"}, folders
    listed = httpx.get(server.url + "/documents", params={"collection": name}, timeout=30)
    assert listed.status_code == 422


def test_an_empty_collection_name_is_an_error_not_the_default(server):
    reply = httpx.post(server.url + "/ingest", files={"file": ("e.txt", FACT.encode(), "text/plain")},
                       data={"collection": ""}, timeout=60)
    assert reply.status_code == 422
    assert "empty" in reply.json()["detail"]
    assert httpx.get(server.url + "/documents", params={"collection": "default"}, timeout=30).status_code == 404
    for path in ("/query", "/debug/chunks"):
        reply = httpx.post(server.url + path, json={"question": QUESTION, "collection": ""}, timeout=30)
        assert reply.status_code == 422 and "empty" in reply.json()["detail"]


@pytest.mark.parametrize("path", ["/query", "/debug/chunks", "/query/stream"])
@pytest.mark.parametrize("field", ["question", "doc_ids", "conversation_id"])
def test_a_lone_surrogate_gets_a_plain_422_on_every_route(server, path, field):
    body = {"question": QUESTION, "collection": "atlas"}
    text = json.dumps(body)[:-1]
    value = '["x\\ud800"]' if field == "doc_ids" else '"x\\ud800"'
    if field == "question":
        text = text.replace(json.dumps(QUESTION), value)
    else:
        text += f', "{field}": {value}'
    reply = raw_json(server, path, (text + ("}" if field != "question" else "}")).encode())
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert "not text" in detail and "\\ud800" in detail
    assert "Traceback" not in detail and "codec" not in detail


def test_a_json_body_over_the_limit_is_refused_before_it_is_parsed(server):
    huge = b'{"question": "' + b"a" * (1024 * 1024 + 10) + b'", "collection": "atlas"}'
    reply = raw_json(server, "/query", huge)
    assert reply.status_code == 413
    assert "RAG_MAX_REQUEST_KB" in reply.json()["detail"]

    def trickle():  # no Content-Length: the body is counted as it arrives
        yield b'{"question": "'
        for _ in range(40):
            yield b"b" * 32768
        yield b'"}'

    chunked = httpx.post(server.url + "/query", content=trickle(), headers={"content-type": "application/json"},
                         timeout=60)
    assert chunked.status_code == 413


def test_the_first_document_still_answers_after_every_bad_input(server):
    assert CAPITAL in asked(server)


def test_the_ui_and_cli_path_refuses_a_lone_surrogate_with_the_same_message(pipeline):
    from core.errors import QuestionError

    with pytest.raises(QuestionError, match="not text at position 8"):
        pipeline.answer("Where? \ud800", collection="default")
