"""The Gradio UI, served by a real uvicorn on 127.0.0.1 and driven through gradio_client."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.support import pdf_factory as pf


@contextmanager
def serve(pipeline):
    """The app (UI and API) on a real uvicorn at 127.0.0.1; yields its base URL."""
    from evaluation.common import serve as serve_app
    from main import create_app

    with serve_app(create_app(pipeline=pipeline), start_timeout=30) as url:
        yield url


@pytest.fixture
def live_server(pipeline):
    with serve(pipeline) as url:
        yield url


def test_page_and_api_share_one_server(live_server):
    import httpx

    page = httpx.get(live_server + "/")
    assert page.status_code == 200 and "gradio" in page.text.lower()
    assert httpx.get(live_server + "/health").json()["status"] == "ok"


def test_upload_then_ask_through_the_ui(live_server, tmp_path):
    from gradio_client import Client, handle_file

    hostile = pf.make_pdf([[("Marsupia hosts the <script>alert('x')</script> lighthouse festival.", 11)]])
    (tmp_path / "survey.pdf").write_bytes(pf.known_text_pdf())
    (tmp_path / "hostile.pdf").write_bytes(hostile)
    (tmp_path / "broken.pdf").write_bytes(pf.NOT_A_PDF)
    client = Client(live_server + "/", verbose=False)
    status, docs, *_ = client.predict([handle_file(str(tmp_path / n)) for n in ("survey.pdf", "hostile.pdf",
                                                                               "broken.pdf")],
                                     "recursive_char", 1000, api_name="/upload")
    assert "Indexed: survey.pdf, 3 pages" in status
    assert "broken.pdf" in status and "not a PDF" in status  # a bad file is reported, the others still indexed
    assert "survey.pdf" in docs and "hostile.pdf" in docs

    chat, sources, box, _ = client.predict("What is the capital of Freedonia?", [], 5, "hybrid", False,
                                           api_name="/ask")
    answer = chat[-1]["content"]
    answer = answer if isinstance(answer, str) else str(answer)
    assert "Marsupia" in answer and "[" in answer and "Page 2]" in answer
    assert "<b>Page 2</b>" in sources
    assert box == ""

    chat, sources, _, _ = client.predict("Which festival does Marsupia host?", [], 5, "hybrid", False,
                                         api_name="/ask")
    # Document text is shown as text: the script tag arrives escaped, never as markup.
    assert "&lt;script&gt;" in sources and "<script>" not in sources


def chat_text(message: dict) -> str:
    """A chat message's text, whether the client returns it as a string or as a list of typed parts."""
    content = message["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def test_a_rewritten_follow_up_is_shown_in_the_chat_beside_its_answer(live_server, tmp_path):
    from gradio_client import Client, handle_file

    (tmp_path / "survey.pdf").write_bytes(pf.known_text_pdf())
    client = Client(live_server + "/", verbose=False)
    client.predict([handle_file(str(tmp_path / "survey.pdf"))], "recursive_char", 1000, api_name="/upload")
    client.predict("What is the capital of Freedonia?", [], 5, "hybrid", False, api_name="/ask")
    chat, *_ = client.predict("When does its rainfall peak?", [], 5, "hybrid", False, api_name="/ask")
    answer = chat_text(chat[-1])
    # The reader sees which question was answered, in the answer itself, before the quote.
    assert answer.startswith("Understood as: When does the rainfall peak"), answer
    assert "Freedonia" in answer.split("\n")[0] and "April" in answer
    chat, *_ = client.predict("How many observers counted there?", [], 5, "hybrid", False, api_name="/ask")
    assert not chat_text(chat[-1]).startswith("Understood as")  # a question asked as it stands: no line


@pytest.fixture
def strict_server(tmp_path):
    """A server whose sessions may upload 2 files and ask 3 questions an hour."""
    from pipeline import Pipeline
    from settings import Settings

    pipeline = Pipeline(Settings.preset("tests", data_dir=tmp_path / "storage", session_max_uploads=2,
                                        session_max_questions_per_hour=3))
    with serve(pipeline) as url:
        yield url, pipeline


def session_documents(pipeline) -> dict[str, list[str]]:
    return {name: [d.filename for d in pipeline.documents(name)]
            for name in pipeline.store.collections() if name.startswith("session-")}


def test_each_browser_session_sees_only_its_own_uploads(strict_server, tmp_path):
    from gradio_client import Client, handle_file

    url, pipeline = strict_server
    (tmp_path / "survey.pdf").write_bytes(pf.known_text_pdf())
    alice, bob = Client(url + "/", verbose=False), Client(url + "/", verbose=False)

    status, docs, *_ = alice.predict([handle_file(str(tmp_path / "survey.pdf"))], "recursive_char", 1000,
                                    api_name="/upload")
    assert "Indexed: survey.pdf, 3 pages" in status and "survey.pdf" in docs
    [(alice_collection, files)] = session_documents(pipeline).items()
    assert files == ["survey.pdf"]

    chat, *_ = alice.predict("What is the capital of Freedonia?", [], 5, "hybrid", False, api_name="/ask")
    assert "Marsupia" in str(chat[-1]["content"])
    chat, *_ = bob.predict("What is the capital of Freedonia?", [], 5, "hybrid", False, api_name="/ask")
    assert "Marsupia" not in str(chat[-1]["content"])  # Bob has no documents: Alice's are not his

    # Bob cannot remove Alice's document, even knowing its id.
    [alice_doc] = [d.doc_id for d in pipeline.documents(alice_collection)]
    message, *_ = bob.predict(alice_doc, api_name="/remove")
    assert "Only documents uploaded in this library" in message
    assert [d.doc_id for d in pipeline.documents(alice_collection)] == [alice_doc]
    message, docs, *_ = alice.predict(alice_doc, api_name="/remove")
    assert "Removed survey.pdf" in message and "survey.pdf" not in docs


def test_a_cited_page_is_shown_with_its_passage(strict_server, tmp_path):
    from gradio_client import Client, handle_file

    url, _ = strict_server
    (tmp_path / "survey.pdf").write_bytes(pf.known_text_pdf())
    client = Client(url + "/", verbose=False)
    client.predict([handle_file(str(tmp_path / "survey.pdf"))], "recursive_char", 1000, api_name="/upload")
    client.predict("What is the capital of Freedonia?", [], 5, "hybrid", False, api_name="/ask")
    image, detail = client.predict("0", False, api_name="/citation")
    assert image and "Page 2" in detail and "Marsupia" in detail and "survey.pdf" in detail


def test_session_limits_answer_plainly(strict_server, tmp_path):
    from gradio_client import Client, handle_file

    url, _ = strict_server
    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text(f"Document {name} says the harbour opens at dawn.")
    client = Client(url + "/", verbose=False)
    status, *_ = client.predict([handle_file(str(tmp_path / n)) for n in ("a.txt", "b.txt", "c.txt")],
                                "recursive_char", 1000, api_name="/upload")
    assert "holds at most 2 uploads" in status and "1 of these were not uploaded" in status
    assert "a.txt" in status and "b.txt" in status
    for _ in range(3):
        chat, *_ = client.predict("When does the harbour open?", [], 5, "hybrid", False, api_name="/ask")
        assert "dawn" in str(chat[-1]["content"])
    chat, *_ = client.predict("When does the harbour open?", [], 5, "hybrid", False, api_name="/ask")
    assert "3 questions in the last hour" in str(chat[-1]["content"])


def test_idle_sessions_are_deleted_and_told_so(pipeline):
    from app_gradio import COLLECTION, Sessions

    pipeline.ingest(b"The sample says the museum opens at ten.", "sample.txt", COLLECTION)
    sessions = Sessions(pipeline)
    state = sessions.new()
    own = sessions.own_collection(state)
    pipeline.ingest(b"My notes say the ferry leaves at noon.", "notes.txt", own)
    assert [d.filename for d in pipeline.documents(own)] == ["sample.txt", "notes.txt"]  # samples copied in
    assert sessions.own_documents(state)[0][0] == "notes.txt"

    sessions._last_used[own] -= pipeline.settings.session_ttl_minutes * 60 + 1  # idle past the limit
    message = sessions.expire(state)
    assert "deleted after 30 days" in message and own not in pipeline.store.collections()
    assert sessions.collection(state) == COLLECTION and pipeline.documents(COLLECTION)  # the sample stays


def test_a_library_is_opened_again_after_a_restart_with_its_token_only(tmp_path):
    from pipeline import Pipeline
    from settings import Settings
    from ui.library import Sessions

    settings = Settings.preset("tests", data_dir=tmp_path / "storage", parse_isolated=False)
    first = Pipeline(settings)
    sessions = Sessions(first)
    state = sessions.new()
    first.ingest(pf.known_text_pdf(), "survey.pdf", sessions.own_collection(state))
    token = state["token"]
    stored = [f for f in (tmp_path / "storage").rglob("*") if f.is_file()]
    assert token and stored and not any(token.encode() in f.read_bytes() for f in stored)  # never kept server-side

    again = Pipeline(settings)  # a restart: a new process over the same storage
    reopened = Sessions(again)
    fresh = reopened.new()
    assert reopened.open(fresh, token) and [name for name, _ in reopened.own_documents(fresh)] == ["survey.pdf"]
    assert not reopened.open(reopened.new(), "a token nobody was given")



def test_an_extractive_answer_streams_sentence_by_sentence(live_server, tmp_path):
    from gradio_client import Client, handle_file

    (tmp_path / "ferry.txt").write_text("The Alder ferry leaves the harbour at noon on Mondays. The Alder ferry "
                                        "leaves the harbour at nine on Fridays.")
    client = Client(live_server + "/", verbose=False)
    client.predict([handle_file(str(tmp_path / "ferry.txt"))], "recursive_char", 1000, api_name="/upload")
    job = client.submit("When does the Alder ferry leave the harbour?", [], 5, "hybrid", False,
                        api_name="/ask")
    shown = []
    for output in job:  # every state of the chat the browser is sent, in order
        text = chat_text(output[0][-1]) if output[0] else ""
        if text and (not shown or text != shown[-1]):
            shown.append(text)
    final = chat_text(job.result()[0][-1])
    quoted = final.count("\u201c")
    assert quoted >= 2, final
    partial = [t for t in shown if t.count("\u201c") and t.count("\u201c") < quoted and t != final]
    assert partial, shown  # the first sentence was shown before the whole answer
