"""Cross-encoder reranking: a tiny cross-encoder made and saved here (no weights can be downloaded), and the
offline fallback when the configured model cannot be loaded."""

from __future__ import annotations

import logging

from fastapi.testclient import TestClient

from main import create_app

CAPITAL_Q = "What is the capital of Freedonia?"


def upload(client, data: bytes):
    r = client.post("/ingest", files={"file": ("survey.pdf", data, "application/pdf")})
    assert r.status_code == 200, r.text


def test_unloadable_weights_are_reported_once_and_ranking_goes_on(settings, known_pdf, caplog):
    caplog.set_level(logging.WARNING, logger="retrieval.reranker")
    with TestClient(create_app(settings=settings, ui=False)) as c:  # default hub id, hubs offline
        upload(c, known_pdf)
        for _ in range(2):
            body = c.post("/query", json={"question": CAPITAL_Q}).json()
            assert body["sources"][0]["page"] == 2 and body["sources"][0]["scores"]["rerank"] is None
        reranker = c.get("/stats").json()["models"]["reranker"]
    assert reranker["loaded"] is False and "RAG_RERANKER_MODEL" in reranker["error"]
    assert reranker["model"] == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    assert len([r for r in caplog.records if "could not be loaded" in r.getMessage()]) == 1


def test_a_local_cross_encoder_reorders_the_top_candidates(settings, known_pdf, tiny_cross_encoder):
    local = settings.model_copy(update={"reranker_model": tiny_cross_encoder, "rerank_candidates": 10})
    with TestClient(create_app(settings=local, ui=False)) as c:
        upload(c, known_pdf)
        assert c.get("/stats").json()["models"]["reranker"] == {"model": tiny_cross_encoder, "loaded": True,
                                                               "error": None}
        body = c.post("/debug/chunks", json={"question": CAPITAL_Q, "top_k": 5}).json()
    sources = body["sources"]
    reranked = [s["scores"]["rerank"] for s in sources]
    assert all(r is not None for r in reranked)
    assert reranked == sorted(reranked, reverse=True)  # the final order is the cross-encoder's
    assert all(s["score"] == s["scores"]["rerank"] for s in sources)
    assert all(s["scores"]["fused"] is not None for s in sources)  # earlier stages' scores are still shown


def test_reranker_can_be_turned_off(settings, known_pdf, tiny_cross_encoder):
    off = settings.model_copy(update={"reranker_model": tiny_cross_encoder, "reranker_enabled": False})
    with TestClient(create_app(settings=off, ui=False)) as c:
        upload(c, known_pdf)
        body = c.post("/debug/chunks", json={"question": CAPITAL_Q}).json()
        assert all(s["scores"]["rerank"] is None for s in body["sources"])
        assert c.get("/stats").json()["models"]["reranker"]["loaded"] is False


def test_one_request_can_skip_the_reranker(settings, known_pdf, tiny_cross_encoder):
    local = settings.model_copy(update={"reranker_model": tiny_cross_encoder})
    with TestClient(create_app(settings=local, ui=False)) as c:
        upload(c, known_pdf)
        skipped = c.post("/debug/chunks", json={"question": CAPITAL_Q, "rerank": False}).json()
        reranked = c.post("/debug/chunks", json={"question": CAPITAL_Q}).json()
    assert all(s["scores"]["rerank"] is None for s in skipped["sources"])
    assert all(s["scores"]["rerank"] is not None for s in reranked["sources"])
