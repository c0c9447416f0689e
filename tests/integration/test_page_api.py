"""Cited pages as images through the API: the stored original file, rendered with the passage highlighted."""

from __future__ import annotations

import io
import json

from PIL import Image



def test_a_cited_page_comes_back_as_a_png_with_the_passage_highlighted(client, known_pdf):
    doc = client.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")}).json()
    answer = client.post("/query", json={"question": "What is the capital of Freedonia?"}).json()
    citation = answer["citations"][0]
    assert citation["page"] == 2

    r = client.get(f"/documents/{doc['doc_id']}/pages/2", params={"chunk_id": citation["chunk_id"]})
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    boxes = json.loads(r.headers["x-highlight-boxes"])
    assert boxes and float(r.headers["x-highlight-matched"]) >= 0.8
    image = Image.open(io.BytesIO(r.content)).convert("RGB")
    x0, y0, x1, y1 = boxes[0]
    red, green, blue = image.getpixel((int(x0 + 2), int((y0 + y1) / 2)))
    assert red > 200 and green > 200 and blue < 200  # the translucent yellow over the passage

    plain = client.get(f"/documents/{doc['doc_id']}/pages/2")  # no passage: the page alone
    assert plain.status_code == 200 and json.loads(plain.headers["x-highlight-boxes"]) == []


def test_page_requests_that_cannot_be_served_say_why(client, known_pdf):
    doc = client.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")}).json()
    r = client.get(f"/documents/{doc['doc_id']}/pages/9")
    assert r.status_code == 422 and "page" in r.json()["detail"].lower()
    r = client.get("/documents/0000000000000000/pages/1")
    assert r.status_code == 404
    r = client.get(f"/documents/{doc['doc_id']}/pages/1", params={"chunk_id": "nope"})
    assert r.status_code == 404 and "nope" in r.json()["detail"]
    text = client.post("/ingest", files={"file": ("notes.txt", b"Plain text notes about ferries.", "text/plain")})
    r = client.get(f"/documents/{text.json()['doc_id']}/pages/1")
    assert r.status_code == 422 and "text file" in r.json()["detail"]


def test_a_session_copy_keeps_pages_and_deleting_a_collection_keeps_others(pipeline, known_pdf):
    original = pipeline.ingest(known_pdf, "survey.pdf", "default")
    copy = pipeline.ingestion.copy_document(original.doc_id, "session-abc")
    assert copy.doc_id != original.doc_id
    hits = pipeline.search("What is the capital of Freedonia?", collection="session-abc").hits
    assert hits[0].chunk.doc_id == copy.doc_id and hits[0].chunk.page == 2
    assert pipeline.pages.image(copy.doc_id, 2, hits[0].chunk.chunk_id).boxes
    assert pipeline.store.original(copy.doc_id) == known_pdf

    removed = pipeline.ingestion.delete_collection("session-abc")
    assert [r.doc_id for r in removed] == [copy.doc_id]
    assert "session-abc" not in pipeline.store.collections()
    assert pipeline.search("What is the capital of Freedonia?").hits[0].chunk.page == 2  # the original stays


def test_a_quoted_sentence_is_highlighted_alone(client, known_pdf):
    def area(boxes):
        return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)

    doc = client.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")}).json()
    citation = client.post("/query", json={"question": "What is the capital of Freedonia?"}).json()["citations"][0]
    assert citation["quote"] == "The capital of Freedonia is Marsupia."
    url = f"/documents/{doc['doc_id']}/pages/{citation['page']}"
    passage = json.loads(client.get(url, params={"chunk_id": citation["chunk_id"]}).headers["x-highlight-boxes"])
    quote = json.loads(client.get(url, params={"chunk_id": citation["chunk_id"], "quote": citation["quote"]})
                       .headers["x-highlight-boxes"])
    assert len(quote) == 1 and area(quote) < area(passage) / 3  # one line, not the whole passage
    assert any(q[1] >= p[1] - 1 and q[3] <= p[3] + 1 for q in quote for p in passage)  # inside the passage's region
