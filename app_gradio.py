"""The Gradio UI: upload documents, ask questions, check every answer against its passage and page.

Document text is data: everything taken from a document is HTML-escaped before it is shown.
"""

from __future__ import annotations

import io
import secrets
import threading
import time
from pathlib import Path

import gradio as gr
from gradio.utils import get_upload_folder
from PIL import Image as PILImage

from ingestion.chunking import STRATEGIES
from ingestion.errors import IngestError
from ingestion.upload_checks import check_file, discard
from limits import RateLimiter
from pipeline import Pipeline, QuestionError
from retrieval.store import UnknownCollection, UnknownDocument
from ui.render import (answer_text, citation_entries, citation_html, documents_html, esc, mode_note, page_list,
                       rewrite_html, sources_html)

COLLECTION = "default"  # the bundled samples; every session sees them
SAMPLE_WAIT_S = 600  # the longest a question waits for the sample to be indexed
SESSION_PREFIX = "session-"  # for the names only: sessions are told apart by the store's mark
CSS = """
.source {border:1px solid #d0d7de; border-radius:8px; padding:8px 12px; margin:8px 0;}
.source .meta {font-size:0.85em; color:#57606a;}
.source blockquote {white-space:pre-wrap; margin:6px 0 0 0; padding-left:10px; border-left:3px solid #0969da;}
#documents {overflow-x:auto;}
#documents table {font-size:0.8em; width:100%;}
.source, .source blockquote {overflow-wrap:anywhere; max-width:100%;}
#sources, #citation-detail, #upload-status {min-width:0; overflow-wrap:anywhere;}
/* A phone: the chat and the question first, the documents after; nothing wider than the screen. */
@media (max-width: 720px) {
  #layout {flex-direction:column;}
  #answer-column {order:-1;}
  #layout > div {min-width:0 !important; width:100%;}
}
"""


class Sessions:
    """Each browser session sees the bundled samples and its own uploads, nobody else's.

    A session's first upload creates its own collection holding copies of the samples (their vectors are reused,
    nothing is read again) and its files. Collections idle for ``session_ttl_minutes`` are deleted the next time
    anyone uses the app; at start, those left by a previous run are deleted (their browsers' state is gone).
    """

    def __init__(self, pipeline: Pipeline):
        self.pipeline = pipeline
        self.settings = pipeline.settings
        self._last_used: dict[str, float] = {}
        self._questions = RateLimiter(self.settings.session_max_questions_per_hour)
        self._lock = threading.Lock()
        # Only collections the store marks as a session's: an API collection named "session-..." is not one.
        for name in pipeline.store.session_collections():
            pipeline.delete_collection(name)

    @staticmethod
    def new() -> dict:
        return {"id": secrets.token_hex(8), "collection": None, "conversation": None, "uploads": 0, "citations": []}

    def collection(self, state: dict) -> str:
        if state["collection"]:
            self._last_used[state["collection"]] = time.monotonic()
            return state["collection"]
        return COLLECTION

    def own_collection(self, state: dict) -> str:
        if not state["collection"]:
            # Created marked as a session's, with a key nobody holds, in one step: the HTTP API can neither list,
            # open nor create such a collection. A name an API client took already is skipped.
            name, generation = "", None
            while generation is None:
                name = SESSION_PREFIX + secrets.token_hex(8)
                generation = self.pipeline.store.create_session(name)
            for record in self._samples():
                self.pipeline.copy_document(record.doc_id, name, expect=generation)
            state["collection"] = name
        return self.collection(state)

    def own_documents(self, state: dict) -> list[tuple[str, str]]:
        """(file name, doc id) of the documents this session uploaded (not the sample copies)."""
        if not state["collection"]:
            return []
        samples = {r.sha256 for r in self._samples()}
        try:
            docs = self.pipeline.documents(state["collection"])
        except UnknownCollection:
            return []
        return [(d.filename, d.doc_id) for d in docs if d.sha256 not in samples]

    def _samples(self):
        try:
            return self.pipeline.documents(COLLECTION)
        except UnknownCollection:
            return []

    def uploads_left(self, state: dict) -> int:
        return max(self.settings.session_max_uploads - state["uploads"], 0)

    def question_refused(self, state: dict) -> str | None:
        """A friendly message when this session has asked its hourly quota, else ``None`` (and the question
        counts)."""
        wait = self._questions.acquire(state["id"])
        if wait is None:
            return None
        return (f"This session has asked {self._questions.limit} questions in the last hour, the most allowed. "
                f"Please ask again in about {int(wait) // 60 + 1} minutes.")

    def expire(self, state: dict) -> str | None:
        """Delete idle sessions' collections; a message if this session's own uploads were among them."""
        ttl = self.settings.session_ttl_minutes * 60
        now = time.monotonic()
        with self._lock:
            idle = [name for name, used in self._last_used.items() if now - used > ttl]
            for name in idle:
                del self._last_used[name]
                try:
                    self.pipeline.delete_collection(name)
                except UnknownCollection:
                    pass
        if state["collection"] and state["collection"] not in self.pipeline.store.collections():
            state["collection"], state["uploads"] = None, 0
            return (f"Your uploads were deleted after {self.settings.session_ttl_minutes} minutes without use; "
                    "upload them again to ask about them.")
        return None


def checked_uploads(paths: list[str], settings, messages: list[str]) -> list[str]:
    """The files that pass the API's checks (size, type) from ``os.stat`` alone, before any is read; a line in
    ``messages`` for each refused one."""
    passed = []
    for path in paths:
        try:
            check_file(path, int(settings.max_upload_mb * 1024 * 1024))
            passed.append(path)
        except IngestError as exc:
            messages.append(f"Not indexed: {esc(exc.message)}")
        except OSError:
            messages.append(f"Not indexed: {esc(Path(path).name)} did not arrive completely. Upload it again.")
    return passed


def build_ui(pipeline: Pipeline) -> gr.Blocks:
    """The Blocks app; mount it with ``gr.mount_gradio_app`` (see ``main.py``)."""

    sessions = Sessions(pipeline)

    def upload(files, strategy, chunk_size, session, progress=gr.Progress()):
        session = session or sessions.new()
        messages = []
        received = [str(f) for f in files or []]
        try:
            expired = sessions.expire(session)
            if expired:
                messages.append(f"Note: {esc(expired)}")
            files = checked_uploads(received, pipeline.settings, messages)
            allowed = sessions.uploads_left(session)
            if len(files) > allowed:
                messages.append(f"Not indexed: this session may upload {pipeline.settings.session_max_uploads} files; "
                                f"{len(files) - allowed} of these were not uploaded. Remove documents or start a "
                                "new session (reload the page) to upload more.")
                files = files[:allowed]
            collection = sessions.own_collection(session) if files else sessions.collection(session)
            for i, path in enumerate(files):
                messages.append(upload_one(path, i, len(files), collection, strategy, chunk_size, progress, session))
        finally:
            for path in received:  # Gradio's copy of every file, refused or indexed
                discard(path, get_upload_folder())
        # The widget is emptied: the next upload sends only its own files, never these again.
        return ("<br>".join(messages), documents_html(pipeline, sessions.collection(session)),
                gr.update(choices=sessions.own_documents(session), value=None), session, None)

    def upload_one(path: str, i: int, count: int, collection: str, strategy, chunk_size, progress,
                   session: dict) -> str:
        """Index one checked file; the line the status shows for it."""
        name = Path(path).name

        def report(msg, frac):
            progress((i + frac) / count, desc=f"{name}: {msg}")

        try:
            r = pipeline.ingest(Path(path).read_bytes(), name, collection, progress=report, strategy=strategy,
                                chunk_size=int(chunk_size))
        except IngestError as exc:
            return f"Not indexed: {esc(exc.message)}"
        except ValueError as exc:
            return f"Not indexed: {esc(name)}: {esc(exc)}"
        if r.duplicate:  # nothing new: it neither counts against the quota nor names the internal collection
            return f"Already indexed: {esc(name)} is in your documents as {esc(r.filename)}."
        session["uploads"] += 1
        note = f"{r.pages} pages, {r.chunks} passages, {r.seconds:.1f} s"
        if r.unread_pages:
            note += f"; pages not read: {page_list(r.unread_pages)}"
        return f"Indexed: {esc(name)}, {note}" + "".join(f"<br>Warning: {esc(w)}" for w in r.warnings)

    def remove(doc_id, session):
        session = session or sessions.new()
        if not doc_id:
            message = "Choose one of your documents to remove."
        elif doc_id not in {own for _, own in sessions.own_documents(session)}:
            message = "Only documents uploaded in this session can be removed."
        else:
            record = pipeline.delete_document(doc_id)
            message = f"Removed {esc(record.filename)}."
        return (message, documents_html(pipeline, sessions.collection(session)),
                gr.update(choices=sessions.own_documents(session), value=None), session)

    def ask(message, history, top_k, mode, rerank, session):
        session = session or sessions.new()
        # One conversation per browser session, so follow-ups resolve against this chat only.
        session["conversation"] = session["conversation"] or pipeline.conversations.new_id()
        # The chat renders HTML even with render_markdown=False: everything put in it is escaped, so document
        # text (and the question) shows as text.
        history = list(history or []) + [{"role": "user", "content": esc(message)},
                                         {"role": "assistant", "content": ""}]
        no_citations = gr.update(choices=[], value=None)
        refusal = sessions.expire(session) or sessions.question_refused(session)
        if refusal:
            history[-1]["content"] = esc(refusal)
            yield history, "", "", no_citations, session
            return
        # A question asked while the sample is still being indexed waits for it (when it is all there is to search).
        waited = time.monotonic()
        while (sample_pending() and not session["collection"]
               and time.monotonic() - waited < SAMPLE_WAIT_S):
            name, step, done = pipeline.samples_progress
            history[-1]["content"] = esc(f"Waiting for the sample document to finish indexing ({done:.0%}); your "
                                         "question is answered as soon as it is ready.")
            yield history, "", "", no_citations, session
            time.sleep(1.0)
        history[-1]["content"] = ""
        shown = "<p>Searching…</p>"
        yield history, shown, "", no_citations, session
        try:
            for kind, payload in pipeline.answer_stream(message, sessions.collection(session), None, int(top_k),
                                                        mode, session["conversation"], rerank=bool(rerank)):
                if kind == "sources":
                    shown = sources_html(payload)
                    yield history, shown, "", no_citations, session
                elif kind == "delta":
                    history[-1]["content"] += esc(payload)
                    yield history, shown, "", no_citations, session
                elif kind == "reset":  # the streamed text was withdrawn; say why, then the new answer follows
                    history[-1]["content"] = esc(f"({payload})\n")
                    yield history, shown, "", no_citations, session
                elif kind == "done":
                    history[-1]["content"] = esc(answer_text(payload))
                    session["citations"] = citation_entries(payload)
                    choices = [(c["label"], str(i)) for i, c in enumerate(session["citations"])]
                    yield (history, rewrite_html(payload) + shown, "", gr.update(choices=choices, value=None),
                           session)
        except (QuestionError, UnknownCollection, UnknownDocument) as exc:
            msg = str(exc.args[0]) if exc.args else str(exc)
            if isinstance(exc, UnknownCollection):
                msg = ("The sample document is still being indexed; ask again in a few seconds."
                       if pipeline.samples_status == "indexing" else
                       "No documents are indexed yet: upload a PDF or text file first.")
            history[-1]["content"] = esc(msg)
            yield history, "", "", no_citations, session

    def show_citation(choice, session):
        entries = (session or {}).get("citations") or []
        if choice is None or not choice.isdigit() or int(choice) >= len(entries):
            return None, ""
        entry = entries[int(choice)]
        try:
            image = pipeline.page_image(entry["doc_id"], entry["page"], entry["chunk_id"], quote=entry["quote"])
            picture = PILImage.open(io.BytesIO(image.png))
            found = "" if image.boxes else "<p class='meta'>The passage could not be located on the page image " \
                                            "(for example a scanned page); its text is below.</p>"
        except (ValueError, UnknownDocument) as exc:
            picture, found = None, f"<p class='meta'>{esc(exc)}</p>"
        return picture, found + citation_html(entry)

    def sample_pending() -> bool:
        return pipeline.settings.index_samples and pipeline.samples_status in ("not requested", "indexing")

    def refresh_documents(session):
        listing = documents_html(pipeline, sessions.collection(session or sessions.new()))
        return listing, gr.Timer(active=sample_pending())

    def new_conversation(session):
        session = session or sessions.new()
        if session.get("conversation"):
            pipeline.conversations.reset(session["conversation"])
        session["conversation"], session["citations"] = None, []
        return [], "", gr.update(choices=[], value=None), None, "", session

    # Uploads are deleted as soon as they are handled; files Gradio refuses itself (a type outside file_types)
    # never reach the handler, so its cache is also swept of anything older than 15 minutes.
    with gr.Blocks(title="Grounded document Q&A", delete_cache=(900, 900)) as demo:
        session = gr.State(None)
        gr.Markdown(mode_note(pipeline))
        with gr.Row(elem_id="layout"):
            with gr.Column(scale=1, elem_id="library-column"):
                files = gr.File(label="Upload PDF or text files", file_count="multiple",
                                file_types=[".pdf", ".txt", ".md"], elem_id="upload")
                with gr.Row():
                    strategy = gr.Dropdown(list(STRATEGIES),
                                           value=pipeline.settings.chunk_strategy, label="Chunking", scale=1)
                    chunk_size = gr.Number(pipeline.settings.chunk_size, label="Chunk size (characters)", minimum=100,
                                           maximum=20000, precision=0, scale=1)
                status = gr.HTML(elem_id="upload-status")
                docs = gr.HTML(documents_html(pipeline, COLLECTION), elem_id="documents")
                with gr.Row():
                    doc_select = gr.Dropdown([], label="Your uploads", elem_id="doc-select", scale=3,
                                             allow_custom_value=True)  # checked in remove()
                    remove_btn = gr.Button("Remove", size="sm", elem_id="remove", scale=1)
                with gr.Accordion("Settings (apply to the next upload or question)", open=False):
                    top_k = gr.Slider(1, 10, value=pipeline.settings.top_k, step=1, label="Passages (top k)")
                    mode = gr.Radio(["hybrid", "semantic", "keyword"], value="hybrid", label="Retrieval")
                    rerank = gr.Checkbox(
                        value=pipeline.reranker.loaded, interactive=pipeline.reranker.loaded,
                        label="Rerank with the cross-encoder" + ("" if pipeline.reranker.loaded else
                                                                 " (not available: no model weights)"))
            with gr.Column(scale=2, elem_id="answer-column"):
                chat = gr.Chatbot(label="Answer", height=360, render_markdown=False, elem_id="chat")
                question = gr.Textbox(label="Question", placeholder="e.g. What are the characteristics of "
                                      "trustworthy AI?", elem_id="question")
                with gr.Row():
                    send = gr.Button("Ask", variant="primary", elem_id="ask", scale=3)
                    reset = gr.Button("New conversation", elem_id="new-conversation", scale=1)
                citations = gr.Radio([], label="Check a citation: the page, with the passage highlighted",
                                     elem_id="citations")
                # The passage below its page, at the chat's width: beside the image it was a 170 px column.
                page_image = gr.Image(label="Cited page", type="pil", interactive=False, elem_id="page-image",
                                      buttons=["fullscreen"])
                citation_detail = gr.HTML(elem_id="citation-detail")
                gr.Markdown("### Passages the answer may use")
                sources = gr.HTML(elem_id="sources")
        listing = [status, docs, doc_select, session]
        # One progress display, on the status line, not one over every output.
        files.upload(upload, inputs=[files, strategy, chunk_size, session], outputs=[*listing, files],
                     api_name="upload", show_progress_on=[status])
        remove_btn.click(remove, inputs=[doc_select, session], outputs=listing, api_name="remove")
        # While the sample is being indexed, its progress shows in the list of documents; then the timer stops.
        ticker = gr.Timer(2.0, active=sample_pending())
        ticker.tick(refresh_documents, inputs=[session], outputs=[docs, ticker], api_name=False,
                    show_progress="hidden")
        demo.load(refresh_documents, inputs=[session], outputs=[docs, ticker], api_name=False,
                  show_progress="hidden")
        asked = [chat, sources, question, citations, session]
        # Several at once: a question waiting for the sample must not hold up everyone else's.
        send.click(ask, inputs=[question, chat, top_k, mode, rerank, session], outputs=asked, api_name="ask",
                   concurrency_limit=4, concurrency_id="ask")
        question.submit(ask, inputs=[question, chat, top_k, mode, rerank, session], outputs=asked,
                        api_name=False, concurrency_limit=4, concurrency_id="ask")
        citations.change(show_citation, inputs=[citations, session], outputs=[page_image, citation_detail],
                         api_name="citation")
        reset.click(new_conversation, inputs=[session],
                    outputs=[chat, sources, citations, page_image, citation_detail, session], api_name=False)
    return demo
