"""Printed page labels ("ii", "17") beside physical page numbers: read from real PDFs (their own labels, else the
number printed in the footer when consistent), kept on pages and chunks, stored, and shown in citations and
answers through the HTTP API only where they differ from the physical number."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from generation.citations import map_citations
from generation.extractive import page_reference
from generation.prompts import build_messages, source_label
from ingestion.chunking import chunk_pages
from core.types import Chunk, Hit, Page
from ingestion.reader import read_document
from main import create_app
from pipeline import Pipeline
from settings import Settings
from tests.support import pdf_factory as pf

FOUNDED_Q = "When was the harbour of Quillon founded?"  # page 1
BANDS_Q = "Which colours are the bands of the lighthouse at Vennick Point?"  # page 2
CAPITAL_Q = "What is the capital of Freedonia?"  # page 3


def labels(data: bytes, name: str = "labels.pdf") -> list[str]:
    return [page.label for page in read_document(data, name).pages]


# --- reading ---------------------------------------------------------------------------------------------------------

def test_the_pdfs_own_labels_are_read_roman_front_matter_then_arabic():
    assert labels(pf.own_labels_pdf()) == ["i", "ii", "1", "2", "3"]


def test_footer_numbers_consistent_across_pages_become_labels_and_a_page_without_one_gets_none():
    # No PDF labels: the footers print 17, 18, (nothing), 20, 21 on physical pages 1-5.
    assert labels(pf.printed_numbers_pdf()) == ["17", "18", "", "20", "21"]


def test_printed_roman_front_matter_before_arabic_pages():
    assert labels(pf.printed_numbers_pdf(("i", "ii", "1", "2", "3"))) == ["i", "ii", "1", "2", "3"]


def test_a_stray_number_in_one_margin_is_no_label():
    data = pf.stray_number_pdf()
    assert labels(data) == [""] * 5
    # The number is on the page: it is left out because nothing else in the document continues it.
    import pymupdf

    with pymupdf.open(stream=data, filetype="pdf") as doc:
        assert "42" in doc[2].get_text()


def test_numbers_that_do_not_run_on_from_page_to_page_are_no_labels():
    # Printed numbers that do not increase by one from page to page (a repeated figure, a jump) are no page numbers.
    assert labels(pf.printed_numbers_pdf(("7", "7", "7", "7", "7"))) == [""] * 5
    assert labels(pf.printed_numbers_pdf(("3", "9", "27", "81", "243"))) == [""] * 5


def test_plain_text_files_get_no_labels():
    assert labels(b"Page one has 17 words.\f17\fPage three.\f19", "notes.txt") == ["", "", "", ""]


# --- chunks --------------------------------------------------------------------------------------------------------

def test_chunks_carry_the_label_of_their_page():
    pages = read_document(pf.printed_numbers_pdf(), "printed.pdf").pages
    chunks = chunk_pages(pages, doc_id="d", filename="printed.pdf")
    assert {(c.page, c.page_label) for c in chunks} == {(1, "17"), (2, "18"), (3, ""), (4, "20"), (5, "21")}
    assert all(c.page_end_label == c.page_label for c in chunks if c.page_end == c.page)


def test_a_chunk_across_a_page_break_has_the_labels_of_both_pages_and_keeps_them_when_stored():
    pages = [Page(1, "We ran three trials with", label="xvi"), Page(2, "twelve ships each. Then we stopped.",
                                                                   label="xvii")]
    chunk = chunk_pages(pages, doc_id="d", filename="f")[0]
    assert (chunk.page, chunk.page_end, chunk.page_label, chunk.page_end_label) == (1, 2, "xvi", "xvii")
    again = Chunk.from_dict(json.loads(json.dumps(chunk.to_dict())))
    assert (again.page_label, again.page_end_label) == ("xvi", "xvii")
    assert (again.label_of(1), again.label_of(2), again.label_of(3)) == ("xvi", "xvii", "")


def test_a_chunk_stored_without_labels_loads_with_none():
    old = {"chunk_id": "d-rc-p4-c1", "doc_id": "d", "filename": "f.pdf", "page": 4, "section": "", "text": "Words.",
           "start": 0, "end": 6, "strategy": "recursive_char", "page_end": 5, "continuation_chars": 0}
    chunk = Chunk.from_dict(old)
    assert (chunk.page_label, chunk.page_end_label) == ("", "")
    # An unlabelled chunk is stored as before: no label fields at all.
    assert set(chunk.to_dict()) == set(old)


# --- how a page is named -------------------------------------------------------------------------------------------

def test_page_reference_shows_the_printed_label_only_when_it_differs():
    assert page_reference(5, 5, "iii") == "Page 5 (printed iii)"
    assert page_reference(5, 5, "5") == "Page 5"
    assert page_reference(5, 5) == "Page 5"
    assert page_reference(4, 5, "17", "18") == "Pages 4-5 (printed 17-18)"
    assert page_reference(4, 5, "4", "5") == "Pages 4-5"
    assert page_reference(4, 5, "17", "") == "Pages 4-5"


def test_the_llm_is_told_the_printed_label_in_the_source_line():
    chunk = Chunk("d-rc-p5-c1", "d", "report.pdf", 5, "Fees", "The fee is 3 %.", 0, 15, page_label="iii")
    hit = Hit(chunk, 1, 1.0, {})
    assert source_label(2, hit) == '[Source 2] report.pdf, page 5 (printed iii), section "Fees"'
    plain = Chunk("d-rc-p5-c2", "d", "report.pdf", 5, "", "The fee is 3 %.", 0, 15, page_label="5")
    assert source_label(1, Hit(plain, 1, 1.0, {})) == "[Source 1] report.pdf, page 5"
    content = build_messages("What is the fee?", [hit], nonce="0123456789abcdef")[1]["content"]
    assert "page 5 (printed iii)" in content


def test_an_llm_citation_carries_the_labels_of_the_passages_pages():
    spanning = Chunk("d-rc-p4-c1", "d", "report.pdf", 4, "", "Fees rise. They fall.", 0, 10, page_end=5,
                     continuation_chars=10, page_label="17", page_end_label="18")
    single = Chunk("d-rc-p6-c1", "d", "report.pdf", 6, "", "Fees stay.", 0, 10, page_label="19")
    cited = map_citations([2, 1], [Hit(spanning, 1, 1.0, {}), Hit(single, 2, 0.9, {})])
    assert [(c.page, c.page_label, c.page_end, c.page_end_label) for c in cited] == [(6, "19", 6, "19"),
                                                                                    (4, "17", 5, "18")]


# --- through the HTTP API ------------------------------------------------------------------------------------------

def _settings(data_dir) -> Settings:
    return Settings.preset("tests", data_dir=data_dir, parse_isolated=False)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(pipeline=Pipeline(_settings(tmp_path_factory.mktemp("labels") / "storage")),
                               ui=False)) as client:
        for collection, data in (("own", pf.own_labels_pdf()), ("printed", pf.printed_numbers_pdf()),
                                 ("same", pf.printed_numbers_pdf(("1", "2", "3", "4", "5")))):
            r = client.post("/ingest", files={"file": (f"{collection}.pdf", data, "application/pdf")},
                            data={"collection": collection})
            assert r.status_code == 200, r.text
        yield client


def ask(client, question: str, collection: str) -> dict:
    r = client.post("/query", json={"question": question, "collection": collection})
    assert r.status_code == 200, r.text
    body = r.json()
    assert not body["abstained"], body["answer"]
    return body


def test_citations_and_answers_show_the_pdfs_own_labels(client):
    body = ask(client, FOUNDED_Q, "own")
    assert "[Page 1 (printed i)]" in body["answer"] and "1742" in body["answer"]
    assert [(c["page"], c["page_label"]) for c in body["citations"]] == [(1, "i")]
    body = ask(client, CAPITAL_Q, "own")
    assert "Marsupia" in body["answer"] and "[Page 3 (printed 1)]" in body["answer"]
    assert [(c["page"], c["page_label"], c["page_end_label"]) for c in body["citations"]] == [(3, "1", "1")]


def test_citations_and_answers_show_printed_footer_numbers(client):
    body = ask(client, BANDS_Q, "printed")
    assert "red and white" in body["answer"] and "[Page 2 (printed 18)]" in body["answer"]
    assert [(c["page"], c["page_label"]) for c in body["citations"]] == [(2, "18")]


def test_a_page_without_a_printed_number_is_cited_as_before(client):
    body = ask(client, CAPITAL_Q, "printed")
    assert "[Page 3]" in body["answer"] and "printed" not in body["answer"]
    assert [(c["page"], c["page_label"]) for c in body["citations"]] == [(3, "")]


def test_a_label_equal_to_the_physical_number_keeps_the_plain_form(client):
    body = ask(client, CAPITAL_Q, "same")
    assert "[Page 3]" in body["answer"] and "printed" not in body["answer"]
    assert [(c["page"], c["page_label"]) for c in body["citations"]] == [(3, "3")]


def test_a_store_written_without_labels_still_loads_and_answers(tmp_path, monkeypatch):
    data_dir = tmp_path / "storage"
    # Ingest as a version without labels would have: chunks.jsonl written without the label fields.
    unlabelled = Chunk.to_dict

    def without_labels(chunk):
        data = unlabelled(chunk)
        data.pop("page_label", None)
        data.pop("page_end_label", None)
        return data

    monkeypatch.setattr(Chunk, "to_dict", without_labels)
    with TestClient(create_app(pipeline=Pipeline(_settings(data_dir)), ui=False)) as client:
        r = client.post("/ingest", files={"file": ("own.pdf", pf.own_labels_pdf(), "application/pdf")})
        assert r.status_code == 200, r.text
    monkeypatch.undo()
    (stored,) = data_dir.rglob("chunks.jsonl")
    lines = [json.loads(line) for line in stored.read_text().splitlines()]
    assert lines and not any("page_label" in line or "page_end_label" in line for line in lines)

    with TestClient(create_app(pipeline=Pipeline(_settings(data_dir)), ui=False)) as client:
        documents = client.get("/documents").json()
        assert [d["filename"] for d in documents["documents"]] == ["own.pdf"] and not documents["damaged"]
        body = ask(client, CAPITAL_Q, "default")
    assert "[Page 3]" in body["answer"] and "printed" not in body["answer"]
    assert [(c["page"], c["page_label"]) for c in body["citations"]] == [(3, "")]
