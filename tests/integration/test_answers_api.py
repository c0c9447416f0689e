"""Answers through the HTTP API: the LLM path (real ``groq`` client, a real server on 127.0.0.1 answering like
Groq), its fallbacks and gating, and follow-up questions resolved from the conversation."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from main import create_app
from pipeline import Pipeline
from settings import Settings
from tests.support.fake_groq import Reply, fake_groq  # noqa: F401 - fake_groq is a fixture
from tests.integration.test_api import sse_events as events

PAGES = [
    "# The Adam optimizer\n\nAdam is an algorithm for first-order gradient-based optimization of stochastic "
    "objective functions. Adam was proposed by Diederik Kingma and Jimmy Ba in 2014. The name Adam is derived from "
    "adaptive moment estimation.",
    "# Default settings\n\nGood default settings for the tested machine learning problems are a learning rate of "
    "0.001, beta1 of 0.9 and beta2 of 0.999, with epsilon of 1e-8.",
    "# Ferries\n\nThe ferry to Carrow Island leaves the inner quay at 7:15 and 16:40 every day.",
]
DOC = "\f".join(PAGES).encode()


def make_client(tmp_path, **overrides) -> TestClient:
    settings = Settings.preset("tests", data_dir=tmp_path / "storage", parse_isolated=False, chunk_size=400,
                               chunk_overlap=0, **overrides)
    client = TestClient(create_app(pipeline=Pipeline(settings), ui=False))
    r = client.post("/ingest", files={"file": ("adam.txt", DOC, "text/plain")})
    assert r.status_code == 200, r.text
    return client


def llm_client(tmp_path, server, **overrides) -> TestClient:
    return make_client(tmp_path, groq_api_key="gsk_test", groq_base_url=server.base_url, llm_max_retries=0,
                       llm_timeout_seconds=2, expansion="off", **overrides)


def source_of(body: dict, needle: str) -> int:
    """The [Source N] number a chat request (its JSON body) gave the passage containing ``needle``."""
    prompt = "\n".join(m["content"] for m in body["messages"])
    for label, body in re.findall(r"\[Source (\d+)\][^\n]*\n<passage[^>]*>(.*?)</passage", prompt, re.S):
        if needle in body:
            return int(label)
    raise AssertionError(f"{needle!r} was not sent")


def test_llm_answer_cites_sources_mapped_to_pages(tmp_path, fake_groq):
    fake_groq.responder = lambda body: (
        f"Adam's default learning rate is 0.001 [Source {source_of(body, '0.001')}].")
    with llm_client(tmp_path, fake_groq) as client:
        body = client.post("/query", json={"question": "What learning rate does Adam use by default?"}).json()
    assert body["answer_mode"] == "llm" and not body["abstained"]
    assert "0.001" in body["answer"]
    [citation] = body["citations"]
    assert citation["page"] == 2 and citation["filename"] == "adam.txt" and citation["source"] >= 1
    assert client.get("/stats").json()["answer_mode"] == "llm"


def test_stream_withdraws_an_answer_with_invented_citations_then_retries(tmp_path, fake_groq):
    fake_groq.script("Adam was proposed in 2014 [Source 9].")
    fake_groq.responder = lambda body: f"Kingma and Ba proposed Adam [Source {source_of(body, 'Kingma')}]."
    with llm_client(tmp_path, fake_groq) as client:
        r = client.post("/query/stream", json={"question": "Who proposed the Adam optimizer?"})
    got = events(r.text)
    kinds = [k for k, _ in got]
    assert kinds[0] == "sources" and kinds[-1] == "done"
    assert "reset" in kinds and kinds.index("reset") > kinds.index("delta")
    assert "Source 9" in got[kinds.index("reset")][1]["reason"]
    done = got[-1][1]
    assert done["answer"].startswith("Kingma and Ba proposed Adam") and done["citations"][0]["page"] == 1
    assert len(fake_groq.requests) == 2
    assert "Source 9" in fake_groq.requests[1].body["messages"][-1]["content"]  # the retry says what was wrong


@pytest.mark.parametrize("reply, expected", [
    (Reply.error(401), "API key"),
    (Reply.error(429, retry_after=7), "rate-limited"),
    (Reply.error(500), "500"),
])
def test_llm_failures_fall_back_to_quoted_sentences_with_a_note(tmp_path, fake_groq, reply, expected):
    fake_groq.script(reply)
    with llm_client(tmp_path, fake_groq) as client:
        r = client.post("/query", json={"question": "What learning rate does Adam use by default?"})
    assert r.status_code == 200
    body = r.json()
    assert body["answer_mode"] == "extractive-fallback" and expected in body["note"]
    assert "0.001" in body["answer"] and body["citations"][0]["page"] == 2


def test_an_unrelated_question_makes_no_llm_request(tmp_path, fake_groq):
    with llm_client(tmp_path, fake_groq) as client:
        body = client.post("/query", json={"question": "What is the population of Paris?"}).json()
    assert body["confidence_level"] == "insufficient" and body["abstained"]
    assert body["answer_mode"] == "gated" and fake_groq.requests == []


def test_follow_up_is_resolved_from_the_conversation(tmp_path):
    with make_client(tmp_path) as client:
        first = client.post("/query", json={"question": "What is Adam?"}).json()
        conversation = first["conversation_id"]
        assert conversation and first["rewrite"] == "unchanged"

        follow = client.post("/query", json={"question": "Who proposed it?", "conversation_id": conversation}).json()
        assert follow["rewrite"] == "local" and "Adam" in follow["resolved_question"]
        assert follow["question"] == "Who proposed it?"
        assert "Kingma" in follow["answer"] and follow["citations"][0]["page"] == 1

        alone = client.post("/query", json={"question": "When does the ferry to Carrow Island leave?",
                                            "conversation_id": conversation}).json()
        assert alone["rewrite"] == "unchanged" and "7:15" in alone["answer"]

        # Another conversation knows nothing of this one; a reset forgets it.
        other = client.post("/query", json={"question": "Who proposed it?"}).json()
        assert other["rewrite"] == "unchanged" and other["conversation_id"] != conversation
        assert client.delete(f"/conversations/{conversation}").status_code == 200
        again = client.post("/query", json={"question": "Who proposed it?", "conversation_id": conversation}).json()
        assert again["rewrite"] == "unchanged"


def test_stream_reports_the_conversation_and_resolved_question(tmp_path):
    with make_client(tmp_path) as client:
        conversation = client.post("/query", json={"question": "What is Adam?"}).json()["conversation_id"]
        r = client.post("/query/stream", json={"question": "Who proposed it?", "conversation_id": conversation})
    got = events(r.text)
    assert got[0][0] == "sources" and got[0][1]["conversation_id"] == conversation
    assert "Adam" in got[0][1]["resolved_question"]


def test_a_malformed_conversation_id_is_refused_plainly(tmp_path):
    with make_client(tmp_path) as client:
        r = client.post("/query", json={"question": "What is Adam?", "conversation_id": "x" * 500})
    assert r.status_code == 422 and "conversation" in r.json()["detail"].lower()


def test_an_unsure_follow_up_keeps_the_phrasing_that_retrieves_better(tmp_path):
    """When the rules cannot tell whether "it" refers to the conversation or to the document, both the question as
    asked and its rewrite are searched, and the one closer to the documents is answered."""
    from generation.conversation import Verdict, follow_up_verdict

    question = "What does it say about the default learning rate?"
    assert follow_up_verdict(question) is Verdict.UNSURE
    with make_client(tmp_path) as client:
        first = client.post("/query", json={"question": "When does the ferry to Carrow Island leave?"}).json()
        conversation = first["conversation_id"]
        body = client.post("/query", json={"question": question, "conversation_id": conversation}).json()
        rewrite = client.post("/query", json={"question": "What is the ferry to Carrow Island?",
                                              "conversation_id": conversation}).json()["resolved_question"]
        searched = {q: client.post("/debug/chunks", json={"question": q}).json()["confidence"]
                    for q in (question, body["resolved_question"])}
    better = max(searched, key=searched.get)
    assert body["resolved_question"] == better
    assert body["rewrite"] == ("unchanged" if better == question else "local")
    assert "0.001" in body["answer"]  # the document's answer, not the ferry's
    assert rewrite  # the conversation still resolves plain follow-ups
