"""Scanned uploads through the API: OCR'd page by page, a page cap that lists what was not read."""

from __future__ import annotations

import pytest

from tests.support import scan_factory as sf


def upload(client, data: bytes, name: str):
    return client.post("/ingest", files={"file": (name, data, "application/pdf")})


@pytest.fixture(scope="module")
def scan() -> bytes:
    return sf.scanned_pdf(sf.SCANNED_SENTENCES)


def test_a_scanned_pdf_is_read_with_ocr_and_answers(client, scan):
    r = upload(client, scan, "scan.pdf")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ocr_pages"] == [1, 2] and body["unread_pages"] == []
    answer = client.post("/query", json={"question": "When was invoice 4821 paid?"}).json()
    assert "12 March 2024" in answer["answer"] and answer["citations"][0]["page"] == 1


def test_pages_over_the_ocr_cap_are_listed_not_lost(settings, scan):
    from fastapi.testclient import TestClient

    from main import create_app

    capped = settings.model_copy(update={"ocr_max_pages": 1})
    with TestClient(create_app(settings=capped, ui=False)) as c:
        body = upload(c, scan, "scan.pdf").json()
        assert body["ocr_pages"] == [1] and body["unread_pages"] == [2]
        assert any("RAG_OCR_MAX_PAGES" in w for w in body["warnings"])
        listed = c.get("/documents").json()["documents"][0]
        assert listed["unread_pages"] == [2]


def test_ocr_off_refuses_an_all_scanned_pdf_and_says_why(settings, scan):
    from fastapi.testclient import TestClient

    from main import create_app

    with TestClient(create_app(settings=settings.model_copy(update={"ocr_enabled": False}), ui=False)) as c:
        r = upload(c, scan, "scan.pdf")
        assert r.status_code == 422 and "OCR" in r.json()["detail"]
        assert c.get("/documents").json()["documents"] == []


def test_mixed_document_reads_every_page(client):
    body = upload(client, sf.mixed_pdf(), "mixed.pdf").json()
    assert body["pages"] == 3 and body["ocr_pages"] == [2]
