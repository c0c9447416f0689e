"""Best-sentence scoring, stored sentence vectors and query expansion, with the real model, FAISS and BM25; the LLM
that rephrases questions is a real HTTP server on 127.0.0.1 speaking Groq's protocol."""

from __future__ import annotations

import numpy as np
import pytest

from generation.query_expansion import parse_expansions
from pipeline import Pipeline
from settings import Settings
from tests.support.fake_groq import FakeGroq, Reply, fake_groq  # noqa: F401 - fake_groq is a fixture

# Passage 1 is about the harbour; one of its sentences names the keeper's cat. Passage 2 is all about cats in
# general and never names this one: its passage vector is closer to a question about a cat's name.
HARBOUR = (
    "The harbour of Port Merrow was dredged in 1884 to admit steamships drawing twenty feet of water. "
    "Its breakwater, built of granite from the Carrow quarries, shelters a basin of eleven acres. "
    "Trade in slate and pilchards kept the quays busy until the railway reached the town in 1911. "
    "The lighthouse keeper's cat was named Marmalade. "
    "Tolls collected at the harbour paid for the new customs house and the widening of the western pier. "
    "Fishing boats still land their catch at the inner quay every morning before dawn."
)
CATS = (
    "Cats are small domesticated carnivores kept as pets in many households. A pet cat usually answers to a name "
    "chosen by its owner, and many cats learn to recognise that name. Cats groom themselves, sleep for much of the "
    "day and hunt small animals. Owners feed their cats, give them names and keep them indoors or let them roam."
)
QUESTION = "What was the lighthouse keeper's cat called?"


def text_doc(*paragraphs: str) -> bytes:
    return "\n\n".join(paragraphs).encode()


def make_pipeline(tmp_path, **overrides) -> Pipeline:
    return Pipeline(Settings.preset("tests", data_dir=tmp_path / "storage", parse_isolated=False,
                                    chunk_size=700, chunk_overlap=0, **overrides))


@pytest.fixture(scope="module")
def harbour(tmp_path_factory):
    pipeline = make_pipeline(tmp_path_factory.mktemp("harbour"), expansion="off")
    pipeline.ingest(text_doc(HARBOUR, CATS), "harbour.txt")
    return pipeline


def top_text(result) -> str:
    return result.hits[0].chunk.text


def test_a_passage_is_found_by_its_best_sentence(harbour):
    with_sentences = harbour.search(QUESTION, mode="semantic")
    harbour.searcher.sentence_weight = 0.0
    try:
        passage_only = harbour.search(QUESTION, mode="semantic")
    finally:
        harbour.searcher.sentence_weight = harbour.settings.sentence_weight
    assert "Marmalade" in top_text(with_sentences)
    assert "Marmalade" not in top_text(passage_only)  # the general passage about cats wins on its own vector
    top = with_sentences.hits[0].scores
    assert top["sentence"] > top["semantic"]  # the one sentence matches better than its passage as a whole


def test_sentence_vectors_survive_a_restart_and_answers_reuse_them(harbour, tmp_path):
    again = Pipeline(harbour.settings)  # reopens the same store from disk
    chunk = again.search(QUESTION).hits[0].chunk
    spans, vectors = again.store.sentence_vectors(chunk)
    assert len(spans) == len(vectors) >= 3
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-2)

    encoded: list[str] = []
    original = again.embedder.encode

    def counting(texts, progress=None):
        encoded.extend(texts)
        return original(texts, progress=progress)

    again.embedder.encode = counting
    reply = again.answer(QUESTION)
    assert "Marmalade" in reply.answer
    assert encoded == [QUESTION]  # only the question is embedded, once: the sentences' vectors were stored


def test_documents_indexed_without_sentence_vectors_still_rank(tmp_path):
    pipeline = make_pipeline(tmp_path, sentence_vectors=False, expansion="off")
    pipeline.ingest(text_doc(HARBOUR, CATS), "harbour.txt")
    result = pipeline.search(QUESTION)
    assert result.hits and all(h.scores["sentence"] is None for h in result.hits)
    assert pipeline.answer(QUESTION).answer  # the answerer embeds the sentences itself


def test_feedback_expansion_runs_only_when_the_first_search_is_weak(tmp_path):
    pipeline = make_pipeline(tmp_path, expansion="feedback", expansion_threshold=0.0)
    pipeline.ingest(text_doc(HARBOUR, CATS), "harbour.txt")
    assert pipeline.search(QUESTION).expansion is None  # nothing is below a threshold of 0

    pipeline.searcher.expansion_threshold = 1.0  # every search is "weak"
    result = pipeline.search(QUESTION)
    assert result.expansion.method == "feedback"
    [query] = result.expansion.queries
    assert query.source == "feedback" and len(query.tokens) > len(query.text.split()) - 1
    assert "Marmalade" in top_text(result)


def test_api_reports_the_expansion(tmp_path):
    from fastapi.testclient import TestClient

    from main import create_app

    pipeline = make_pipeline(tmp_path, expansion="feedback", expansion_threshold=1.0)
    with TestClient(create_app(pipeline=pipeline, ui=False)) as client:
        r = client.post("/ingest", files={"file": ("harbour.txt", text_doc(HARBOUR, CATS), "text/plain")})
        assert r.status_code == 200, r.text
        body = client.post("/query", json={"question": QUESTION}).json()
        assert body["expansion"]["method"] == "feedback" and body["expansion"]["queries"]
        debug = client.post("/debug/chunks", json={"question": QUESTION}).json()
        assert debug["expansion"]["queries"][0]["source"] == "feedback"
        assert {"semantic", "sentence", "keyword", "fused"} <= set(debug["sources"][0]["scores"])


LLM_REPLY = ("1. What name did the lighthouse keeper give his cat?\n"
             "2. The keeper's cat at the lighthouse: what was it called?\n"
             "3. Name of the cat belonging to the lighthouse keeper\n"
             "A: The lighthouse keeper's cat was named Marmalade.")


def llm_pipeline(tmp_path, server: FakeGroq, threshold: float) -> Pipeline:
    pipeline = make_pipeline(tmp_path, expansion="auto", expansion_threshold=threshold,
                             groq_api_key="gsk_test", groq_base_url=server.base_url, llm_max_retries=0,
                             llm_timeout_seconds=2)
    pipeline.ingest(text_doc(HARBOUR, CATS), "harbour.txt")
    return pipeline


def test_llm_expansion_searches_each_rephrasing(tmp_path, fake_groq):
    fake_groq.script(LLM_REPLY)
    pipeline = llm_pipeline(tmp_path, fake_groq, threshold=1.0)
    result = pipeline.search(QUESTION)

    [request] = fake_groq.requests
    assert request.body["messages"][-1]["content"] == QUESTION
    assert result.expansion.method == "llm"
    assert [q.source for q in result.expansion.queries] == ["rephrasing"] * 3 + ["hypothetical answer"]
    assert result.expansion.queries[3].text == "The lighthouse keeper's cat was named Marmalade."
    assert "Marmalade" in top_text(result)


def test_a_confident_search_makes_no_llm_request(tmp_path, fake_groq):
    pipeline = llm_pipeline(tmp_path, fake_groq, threshold=0.0)
    result = pipeline.search(QUESTION)
    assert result.expansion is None and fake_groq.requests == []


def test_a_failing_llm_leaves_the_first_ranking_and_says_why(tmp_path, fake_groq):
    pipeline = llm_pipeline(tmp_path, fake_groq, threshold=1.0)
    fake_groq.script(Reply.error(500))
    result = pipeline.search(QUESTION)
    assert result.hits and "Marmalade" in top_text(result)
    assert result.expansion.queries == [] and "500" in result.expansion.error

    fake_groq.script("I cannot help with that.")  # no usable line
    assert "no usable" in pipeline.search(QUESTION).expansion.error


def test_parse_expansions_keeps_three_rephrasings_and_one_answer():
    reply = "Sure!\n1) a?\n2. b?\n3. c?\n4. d?\nAnswer: e.\nA: f."
    assert parse_expansions(reply) == [("rephrasing", "a?"), ("rephrasing", "b?"), ("rephrasing", "c?"),
                                       ("hypothetical answer", "e.")]


# A quarterly report: prose that keeps naming "server products and cloud services", other topics, and the one table
# whose row holds the number asked for.
REPORT_PROSE = [
    "Server products and cloud services revenue increased, driven by Azure and other cloud services. Azure and other "
    "cloud services revenue grew because of consumption-based services. Server products revenue increased because of "
    "demand for hybrid solutions, offset in part by customers moving to cloud offerings.",
    "Our commercial cloud business includes server products and cloud services, office products and enterprise "
    "services. Revenue from these offerings is recognised as customers consume the services or over the contract.",
    "We invest in datacenters, servers and networking for our cloud services. Operating expenses for server products "
    "and cloud services grew with headcount and infrastructure, and we expect investment in cloud capacity to continue.",
    "Customers buy server products and cloud services through enterprise agreements, which may include on-premises "
    "licenses. Cloud services revenue depends on customer consumption, which can vary from quarter to quarter.",
    "Legal proceedings: the company is a defendant in several patent and antitrust cases. The outcome of these "
    "matters is uncertain, and an adverse ruling could require payments or changes to business practices.",
    "Income taxes: our effective tax rate was lower than last year because of tax benefits from stock-based "
    "compensation and the geographic mix of earnings. Tax authorities in several countries are examining past years.",
    "Liquidity: cash, cash equivalents and short-term investments totalled a large balance at the end of the quarter. "
    "We believe existing cash and cash from operations will be enough to fund operations and dividends.",
    "Share repurchases: the board approved a new program, and shares were bought back during the quarter under the "
    "existing authorisation. Dividends were declared and paid to shareholders of record.",
    "Risk factors: competition, cybersecurity incidents, regulation of data privacy and changes in foreign exchange "
    "rates could harm results. Our global operations face political and economic risks in many regions.",
]
REPORT_TABLE = (
    "The following table shows amounts by product line:\n\n"
    "| (In millions) | 2023 | 2022 |\n|---|---|---|\n"
    "| Server products and cloud services | $ 22,308 | $ 18,388 |\n| Office products | 13,140 | 11,577 |\n"
    "| Windows | 5,567 | 5,313 |\n| Gaming | 3,919 | 3,610 |\n| Devices | 1,125 | 1,448 |\n"
    "| Search and news advertising | 3,053 | 2,913 |\n| Enterprise and partner services | 1,944 | 1,929 |\n"
    "| Total | $ 56,517 | $ 50,122 |"
)


def test_a_table_row_the_question_names_lifts_its_passage_above_prose_that_repeats_the_words(tmp_path):
    pipeline = make_pipeline(tmp_path, expansion="off")
    pipeline.ingest("\n\n".join([*REPORT_PROSE, REPORT_TABLE]).encode(), "quarterly-report.md")
    question = "How much revenue came from server products and cloud services?"
    with_labels = pipeline.search(question, top_k=3)
    pipeline.searcher.label_weight = 0.0
    try:
        without = pipeline.search(question, top_k=3)
    finally:
        pipeline.searcher.label_weight = pipeline.settings.label_weight
    assert "22,308" in top_text(with_labels)
    assert "22,308" not in top_text(without)  # BM25 and the passage vector both prefer the prose
    assert "22,308" in pipeline.answer(question).answer  # and the answer quotes the row


def test_the_row_the_question_names_is_quoted_even_when_prose_repeating_its_words_scores_higher(tmp_path):
    pipeline = make_pipeline(tmp_path, expansion="off")
    pipeline.ingest("\n\n".join([*REPORT_PROSE, REPORT_TABLE]).encode(), "quarterly-report.md")
    reply = pipeline.answer("What was the revenue from server products and cloud services in the latest quarter?")
    assert not reply.abstained
    assert "revenue increased, driven by Azure" in reply.answer  # the prose scores higher and is quoted first
    assert "“Server products and cloud services $ 22,308 $ 18,388”" in reply.answer  # the number asked for
