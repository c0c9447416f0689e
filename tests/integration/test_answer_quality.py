"""What a user sees when asking through the HTTP API (extractive, no LLM): only sentences that answer are quoted,
never a contents line or a reference; questions the document cannot answer get "Not in this document" saying why;
and the confidence level, the warning and the abstention never contradict each other."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from main import create_app
from pipeline import Pipeline
from settings import Settings

PAGES = [
    "## Contents\n\n1 Characteristics of trustworthy AI systems 2\n\n2 The advisory board 2\n\n3 Revenue by offering 3"
    "\n\n4 References 4",
    "# 1 Characteristics of trustworthy AI systems\n\nTrustworthy AI systems are valid and reliable, safe, secure and "
    "resilient, accountable and transparent, explainable and interpretable, privacy-enhanced, and fair with harmful "
    "bias managed.\n\n# 2 The advisory board\n\nAn advisory board reviews the framework every year and publishes its "
    "findings for the public. The update-mime-database tool rebuilds the shared database after a package installs "
    "new XML files.",
    "# 3 Revenue by offering\n\nRevenue, classified by significant product and service offerings, was as follows:\n\n"
    "|(In millions)|2023|2022|\n|---|---|---|\n|Server products and cloud services|$ 22,308|$ 18,388|\n"
    "|Office products and cloud services|13,140|11,577|\n|Gaming|3,919|3,610|",
    "## References\n\n[1] A. Author. Characteristics of trustworthy AI systems revisited. Journal of AI, 2021.\n\n"
    "[2] B. Author. How advisory boards review frameworks. Policy Press, 2020.",
]


@contextmanager
def markdown_client(root: Path, filename: str, pages: list[str]):
    """The API (no UI) over a fresh store holding one Markdown document whose pages are ``pages``."""
    settings = Settings.preset("tests", data_dir=root / "storage", parse_isolated=False, chunk_size=400,
                               chunk_overlap=0)
    with TestClient(create_app(pipeline=Pipeline(settings), ui=False)) as client:
        r = client.post("/ingest", files={"file": (filename, "\f".join(pages).encode(), "text/markdown")})
        assert r.status_code == 200, r.text
        yield client


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with markdown_client(tmp_path_factory.mktemp("quality"), "framework.md", PAGES) as client:
        yield client


def ask(client, question: str) -> dict:
    r = client.post("/query", json={"question": question, "top_k": 8})
    assert r.status_code == 200, r.text
    return r.json()


def test_the_answer_quotes_the_body_never_the_contents_line(client):
    body = ask(client, "What are the characteristics of trustworthy AI systems?")
    assert not body["abstained"]
    assert "valid and reliable" in body["answer"] and "[Page 2]" in body["answer"]
    assert {c["page"] for c in body["citations"]} == {2}  # not the contents page, not the references
    assert "Characteristics of trustworthy AI systems 2" not in body["answer"]


def test_a_question_about_something_the_document_never_mentions_is_declined_saying_so(client):
    body = ask(client, "Which programming language is update-mime-database written in?")
    assert body["abstained"] and body["confidence_level"] == "insufficient" and not body["citations"]
    assert body["answer"].startswith("Not in this document: it never mentions")
    assert "programming" in body["answer"] or "language" in body["answer"]


def test_a_count_is_never_answered_by_a_sentence_without_one(client):
    # The board's page is the closest passage, but none of its sentences holds a number of members.
    body = ask(client, "How many members sit on the advisory board?")
    assert body["abstained"] and body["confidence_level"] == "insufficient"
    assert body["sources"][0]["page"] == 2


def test_a_table_row_answers_with_its_page(client):
    body = ask(client, "How much revenue came from server products and cloud services in 2023?")
    assert not body["abstained"]
    assert "Server products and cloud services $ 22,308 $ 18,388" in body["answer"]
    assert [c["page"] for c in body["citations"]] == [3]
    top = body["sources"][0]
    assert "|" not in top["text"] and "#" not in top["text"]  # passages are clean text


@pytest.mark.parametrize("question", [
    "What are the characteristics of trustworthy AI systems?",
    "Which programming language is update-mime-database written in?",
    "How many members sit on the advisory board?",
    "How often does the advisory board review the framework?",
    "Who wrote the paper on advisory boards?",
    "What does the update-mime-database tool do?",
    "zebra quantum saxophone",
])
def test_confidence_warning_and_abstention_agree_in_every_answer(client, question):
    body = ask(client, question)
    if body["abstained"]:
        assert body["confidence_level"] == "insufficient" and body["warning"] is None and not body["citations"]
    else:
        assert body["confidence_level"] in {"high", "low"} and body["citations"]
        assert (body["warning"] is not None) == (body["confidence_level"] == "low")
