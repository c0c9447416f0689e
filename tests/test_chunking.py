"""Chunking: passages stay on one page, carry their section and prefix, and have stable ids."""

from __future__ import annotations

import pytest

from ingestion.chunking import chunk_pages
from ingestion.document import Page
from ingestion.reader import read_document
from tests import pdf_factory as pf


@pytest.fixture(scope="module")
def known_pages():
    return read_document(pf.known_text_pdf(), "survey.pdf").pages


def test_chunks_never_straddle_pages_and_point_into_their_page(known_pages):
    chunks = chunk_pages(known_pages, doc_id="d1", filename="survey.pdf", chunk_size=200, chunk_overlap=30)
    assert {c.page for c in chunks} == {1, 2, 3}
    for c in chunks:
        assert known_pages[c.page - 1].text[c.start:c.end] == c.text
    fact_pages = {page: [c.page for c in chunks if fact in " ".join(c.text.split())]
                  for page, fact in pf.KNOWN_PAGE_FACTS.items()}
    assert all(found and set(found) == {page} for page, found in fact_pages.items()), fact_pages


def test_section_follows_headings_across_pages(known_pages):
    chunks = chunk_pages(known_pages, doc_id="d1", filename="survey.pdf", chunk_size=200, chunk_overlap=0)
    first_on_page2 = next(c for c in chunks if c.page == 2)
    assert pf.INTRO_CONTINUES[:30] in first_on_page2.text
    assert first_on_page2.section == pf.HEADING_INTRO  # the heading is on page 1; its section goes on
    sampling = next(c for c in chunks if "chosen at random" in c.text)
    assert sampling.section == pf.HEADING_SAMPLING
    assert next(c for c in chunks if c.page == 3).section == pf.HEADING_SAMPLING


def test_prefix_is_for_embedding_only(known_pages):
    chunk = chunk_pages(known_pages, doc_id="d1", filename="survey.pdf")[0]
    assert chunk.prefix == f"survey.pdf | Page 1 | {pf.HEADING_INTRO}"
    assert chunk.embedding_text() == f"{chunk.prefix}\n{chunk.text}"
    assert "| Page" not in chunk.text


def test_ids_are_deterministic_and_unique(known_pages):
    a = chunk_pages(known_pages, doc_id="d1", filename="survey.pdf", chunk_size=150, chunk_overlap=20)
    b = chunk_pages(known_pages, doc_id="d1", filename="survey.pdf", chunk_size=150, chunk_overlap=20)
    assert [c.chunk_id for c in a] == [c.chunk_id for c in b]
    assert len({c.chunk_id for c in a}) == len(a)


def test_a_heading_is_never_a_passage_on_its_own():
    long_paragraph = " ".join(f"Sentence number {i} talks about lighthouses and ships." for i in range(40))
    page = Page(1, f"## 4 Results\n\n{long_paragraph}\n\n## 5 Discussion\n\nShort closing words here.")
    chunks = chunk_pages([page], doc_id="d", filename="f.pdf", chunk_size=300, chunk_overlap=0)
    assert chunks[0].text.startswith("## 4 Results\n\nSentence number 0")
    assert all(c.text.strip() not in ("## 4 Results", "## 5 Discussion") for c in chunks)
    assert chunks[-1].section == "5 Discussion" and "Short closing words" in chunks[-1].text


def test_long_paragraphs_are_cut_at_sentence_ends():
    text = " ".join(f"This is sentence {i} of a long paragraph about harbour records." for i in range(60))
    chunks = chunk_pages([Page(1, text)], doc_id="d", filename="f.txt", chunk_size=400, chunk_overlap=60)
    assert len(chunks) > 5
    assert all(c.text.endswith(".") for c in chunks)
    assert all(len(c.text) <= 400 for c in chunks)


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="recursive_char"):
        chunk_pages([Page(1, "some words here")], doc_id="d", filename="f", strategy="magic")
