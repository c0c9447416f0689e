"""The Gradio UI: upload documents, ask questions, check every answer against its passage and page.

Document text is data: everything taken from a document is HTML-escaped before it is shown.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import gradio as gr
from gradio.utils import get_upload_folder
from PIL import Image as PILImage

from ingestion.chunking import STRATEGIES
from core.answers import Delta, Reset, Sources
from core.errors import IngestError, QuestionError, UnknownCollection, UnknownDocument
from ingestion.upload_checks import check_file, discard
from pipeline import Pipeline
from services.progress import IngestProgress, eta_text
from ui.invoices import build_invoice_tab
from ui.library import COLLECTION, Sessions
from ui.page_view import zoomed
from ui.render import (answer_text, citation_entries, citation_html, documents_html, esc, link_markers, mode_note,
                       page_list, rewrite_html, sources_html)

SAMPLE_WAIT_S = 600  # the longest a question waits for the sample to be indexed
SENTENCE_PAUSE_S = 0.12  # between the quoted sentences of an extractive answer as they are shown
CSS = """
.source {border:1px solid #d0d7de; border-radius:8px; padding:8px 12px; margin:8px 0;}
.source .meta {font-size:0.85em; color:#57606a;}
.source blockquote {white-space:pre-wrap; margin:6px 0 0 0; padding-left:10px; border-left:3px solid #0969da;}
#documents {overflow-x:auto; max-width:100%;}
#documents table {font-size:0.8em; width:100%; table-layout:fixed;}
#documents th, #documents td {overflow-wrap:anywhere; padding:4px;}
.source, .source blockquote {overflow-wrap:anywhere; max-width:100%;}
#sources, #citation-detail, #upload-status {min-width:0; overflow-wrap:anywhere;}
/* A phone: the chat and the question first, the documents after; nothing wider than the screen. */
@media (max-width: 720px) {
  #layout {flex-direction:column;}
  #answer-column {order:-1;}
  #layout > div {min-width:0 !important; width:100%;}
}
"""


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
                messages.append(f"Not indexed: a library holds at most {pipeline.settings.session_max_uploads} "
                                f"uploads; {len(files) - allowed} of these were not uploaded. Remove documents to "
                                "upload more.")
                files = files[:allowed]
            collection = sessions.own_collection(session) if files else sessions.collection(session)
            for i, path in enumerate(files):
                messages.append(upload_one(path, i, len(files), collection, strategy, chunk_size, progress, session))
        finally:
            for path in received:  # Gradio's copy of every file, refused or indexed
                discard(path, get_upload_folder())
        # The widget is emptied: the next upload sends only its own files, never these again.
        return ("<br>".join(messages), *library_view(session), None)

    def upload_one(path: str, i: int, count: int, collection: str, strategy, chunk_size, progress,
                   session: dict) -> str:
        """Index one checked file; the line the status shows for it."""
        name = Path(path).name

        def report(p: IngestProgress):
            progress((i + p.fraction) / count, desc=f"{name}: {p.message}")

        try:
            # In this process, or with PostgreSQL by a worker (the progress then comes from its job's row).
            r = pipeline.uploads.ingest(Path(path).read_bytes(), name, collection, progress=report, strategy=strategy,
                                        chunk_size=int(chunk_size))
        except IngestError as exc:
            return f"Not indexed: {esc(exc.message)}"
        except ValueError as exc:
            return f"Not indexed: {esc(name)}: {esc(exc)}"
        if r.duplicate:  # nothing new: it neither counts against the quota nor names the internal collection
            return f"Already indexed: {esc(name)} is in your documents as {esc(r.filename)}."
        note = f"{r.pages} pages, {r.chunks} passages, {r.seconds:.1f} s"
        if r.unread_pages:
            note += f"; pages not read: {page_list(r.unread_pages)}"
        return f"Indexed: {esc(name)}, {note}" + "".join(f"<br>Warning: {esc(w)}" for w in r.warnings)

    def library_view(session: dict) -> tuple:
        """What shows the library: the documents list, the removal choices, the state, the browser's token and
        the documents a question searches (all ticked)."""
        return (documents_html(pipeline, sessions.collection(session)),
                gr.update(choices=sessions.own_documents(session), value=None), session, session["token"],
                scope_update(session))

    def scope_update(session: dict, searchable: list[tuple[str, str]] | None = None):
        """Every document ticked under "Search in" (what the user unticks is left out of the next question)."""
        searchable = sessions.searchable(session) if searchable is None else searchable
        session["offered"] = [doc_id for _, doc_id in searchable]
        return gr.update(choices=searchable, value=session["offered"])

    def open_library(token, session):
        session = session or sessions.new()
        sessions.open(session, token)
        return library_view(session)

    def forget(session):
        session = session or sessions.new()
        sessions.forget(session)
        return ("Your library was deleted from the server and forgotten by this browser.", *library_view(session),
                gr.update(choices=[], value=None))

    def remove(doc_id, session):
        session = session or sessions.new()
        if not doc_id:
            message = "Choose one of your documents to remove."
        elif doc_id not in {own for _, own in sessions.own_documents(session)}:
            message = "Only documents uploaded in this library can be removed."
        else:
            record = pipeline.ingestion.delete_document(doc_id)
            message = f"Removed {esc(record.filename)}."
            # Its citations go too: none is left to open a page that is gone.
            session["citations"] = [c for c in session["citations"] if c["doc_id"] != doc_id]
        choices = [(c["label"], str(i)) for i, c in enumerate(session["citations"])]
        return (message, *library_view(session), gr.update(choices=choices, value=None))

    def ask(message, history, top_k, mode, rerank, scope, session):
        session = session or sessions.new()
        # One conversation per browser session, so follow-ups resolve against this chat only.
        session["conversation"] = session["conversation"] or pipeline.questions.conversation(None)
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
            sample = pipeline.ingestion.samples_progress[1]
            history[-1]["content"] = esc(f"Waiting for the sample document to finish indexing ({sample.fraction:.0%}"
                                         f"{', ' + eta_text(sample.eta_seconds) if sample.eta_seconds else ''}); "
                                         "your question is answered as soon as it is ready.")
            yield history, "", "", no_citations, session
            time.sleep(1.0)
        history[-1]["content"] = ""
        shown = "<p>Searching…</p>"
        yield history, shown, "", no_citations, session
        try:
            # Documents the user unticked are left out; one not offered yet (a sample just indexed) is searched,
            # and so is everything when nothing is ticked.
            searchable = [doc_id for _, doc_id in sessions.searchable(session)]
            unticked = set(session.get("offered") or []) - set(scope or [])
            chosen = [d for d in searchable if d not in unticked] or searchable
            doc_ids = None if len(chosen) == len(searchable) else chosen
            ask = pipeline.questions.ask(message, sessions.collection(session), doc_ids, int(top_k), mode,
                                         session["conversation"], bool(rerank))
            for event in pipeline.questions.stream(ask):
                if isinstance(event, Sources):
                    shown = sources_html(event.result)
                    yield history, shown, "", no_citations, session
                elif isinstance(event, Delta):
                    history[-1]["content"] += esc(event.text)
                    yield history, shown, "", no_citations, session
                    if pipeline.questions.mode == "extractive":
                        # Quoted sentences are ready at once: they are shown one after another, as an LLM's are.
                        time.sleep(SENTENCE_PAUSE_S)
                elif isinstance(event, Reset):  # the streamed text was withdrawn; say why, the new answer follows
                    history[-1]["content"] = esc(f"({event.reason})\n")
                    yield history, shown, "", no_citations, session
                else:
                    session["citations"] = citation_entries(event.result)
                    history[-1]["content"] = link_markers(esc(answer_text(event.result)), session["citations"])
                    choices = [(c["label"], str(i)) for i, c in enumerate(session["citations"])]
                    yield (history, rewrite_html(event.result) + shown, "", gr.update(choices=choices, value=None),
                           session)
        except (QuestionError, UnknownCollection, UnknownDocument) as exc:
            msg = str(exc.args[0]) if exc.args else str(exc)
            if isinstance(exc, UnknownCollection):
                msg = ("The sample document is still being indexed; ask again in a few seconds."
                       if pipeline.ingestion.samples_status == "indexing" else
                       "No documents are indexed yet: upload a PDF or text file first.")
            history[-1]["content"] = esc(msg)
            yield history, "", "", no_citations, session

    def show_citation(choice, whole, session):
        entries = (session or {}).get("citations") or []
        if choice is None or not choice.isdigit() or int(choice) >= len(entries):
            return None, ""
        entry = entries[int(choice)]
        try:
            image = pipeline.pages.image(entry["doc_id"], entry["page"], entry["chunk_id"], quote=entry["quote"])
            picture = PILImage.open(io.BytesIO(image.png))
            # Opened at the highlight: the band of the page that holds it, the whole page when asked.
            picture = picture if whole else zoomed(picture, image.boxes)
            found = "" if image.boxes else "<p class='meta'>The passage could not be located on the page image " \
                                            "(for example a scanned page); its text is below.</p>"
        except UnknownDocument:
            picture, found = None, "<p class='meta'>This document has been removed; its page cannot be shown.</p>"
        except ValueError as exc:
            picture, found = None, f"<p class='meta'>{esc(exc)}</p>"
        return picture, found + citation_html(entry)

    def sample_pending() -> bool:
        return pipeline.ingestion.samples_pending

    def refresh_documents(session):
        session = session or sessions.new()
        listing = documents_html(pipeline, sessions.collection(session))
        searchable = sessions.searchable(session)
        fresh = [doc_id for _, doc_id in searchable] != session.get("offered")
        return (listing, gr.Timer(active=sample_pending()), scope_update(session, searchable) if fresh else gr.update(),
                session)

    def new_conversation(session):
        session = session or sessions.new()
        if session.get("conversation"):
            pipeline.questions.forget(session["conversation"])
        session["conversation"], session["citations"] = None, []
        return [], "", gr.update(choices=[], value=None), None, "", session

    # Uploads are deleted as soon as they are handled; files Gradio refuses itself (a type outside file_types)
    # never reach the handler, so its cache is also swept of anything older than 15 minutes.
    with gr.Blocks(title="Grounded document Q&A", delete_cache=(900, 900)) as demo:
        session = gr.State(None)
        # The library's token, in this browser's local storage: the library is there again after a reload.
        library = gr.BrowserState(None, storage_key="grounded-qa-library")
        gr.Markdown(mode_note(pipeline))
        with gr.Tab("Documents", elem_id="documents-tab"):
            with gr.Row(elem_id="layout"):
                with gr.Column(scale=1, elem_id="library-column"):
                    files = gr.File(label="Upload PDF or text files", file_count="multiple",
                                    file_types=[".pdf", ".txt", ".md"], elem_id="upload")
                    with gr.Row():
                        strategy = gr.Dropdown(list(STRATEGIES),
                                               value=pipeline.settings.chunk_strategy, label="Chunking", scale=1)
                        chunk_size = gr.Number(pipeline.settings.chunk_size, label="Chunk size (characters)",
                                               minimum=100,
                                               maximum=20000, precision=0, scale=1)
                    status = gr.HTML(elem_id="upload-status")
                    docs = gr.HTML(documents_html(pipeline, COLLECTION), elem_id="documents")
                    with gr.Row():
                        doc_select = gr.Dropdown([], label="Your uploads", elem_id="doc-select", scale=3,
                                                 allow_custom_value=True)  # checked in remove()
                        remove_btn = gr.Button("Remove", size="sm", elem_id="remove", scale=1)
                    scope = gr.CheckboxGroup([], label="Search in (all of them when none is ticked)", elem_id="scope")
                    forget_btn = gr.Button("Forget this library", size="sm", variant="stop", elem_id="forget")
                    with gr.Accordion("Settings (apply to the next upload or question)", open=False):
                        top_k = gr.Slider(1, 10, value=pipeline.settings.top_k, step=1, label="Passages (top k)")
                        mode = gr.Radio(["hybrid", "semantic", "keyword"], value="hybrid", label="Retrieval")
                        rerank = gr.Checkbox(
                            value=pipeline.questions.can_rerank, interactive=pipeline.questions.can_rerank,
                            label="Rerank with the cross-encoder" + ("" if pipeline.questions.can_rerank else
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
                    whole_page = gr.Checkbox(False, label="Show the whole page", elem_id="whole-page")
                    citation_detail = gr.HTML(elem_id="citation-detail")
                    gr.Markdown("### Passages the answer may use")
                    sources = gr.HTML(elem_id="sources")
        with gr.Tab("Invoices", elem_id="invoices-tab"):
            build_invoice_tab(pipeline, sessions, session)
        view = [docs, doc_select, session, library, scope]
        # One progress display, on the status line, not one over every output.
        files.upload(upload, inputs=[files, strategy, chunk_size, session], outputs=[status, *view, files],
                     api_name="upload", show_progress_on=[status])
        remove_btn.click(remove, inputs=[doc_select, session], outputs=[status, *view, citations], api_name="remove")
        forget_btn.click(forget, inputs=[session], outputs=[status, *view, citations], api_name="forget")
        # While the sample is being indexed, its progress shows in the list of documents; then the timer stops.
        ticker = gr.Timer(2.0, active=sample_pending())
        demo.load(open_library, inputs=[library, session], outputs=view, api_name=False).then(
            refresh_documents, inputs=[session], outputs=[docs, ticker, scope, session], api_name=False,
            show_progress="hidden")
        ticker.tick(refresh_documents, inputs=[session], outputs=[docs, ticker, scope, session], api_name=False,
                    show_progress="hidden")
        asked = [chat, sources, question, citations, session]
        # Several at once: a question waiting for the sample must not hold up everyone else's.
        send.click(ask, inputs=[question, chat, top_k, mode, rerank, scope, session], outputs=asked, api_name="ask",
                   concurrency_limit=4, concurrency_id="ask")
        question.submit(ask, inputs=[question, chat, top_k, mode, rerank, scope, session], outputs=asked,
                        api_name=False, concurrency_limit=4, concurrency_id="ask")
        citations.change(show_citation, inputs=[citations, whole_page, session],
                         outputs=[page_image, citation_detail], api_name="citation")
        whole_page.change(show_citation, inputs=[citations, whole_page, session],
                          outputs=[page_image, citation_detail], api_name=False)
        reset.click(new_conversation, inputs=[session],
                    outputs=[chat, sources, citations, page_image, citation_detail, session], api_name=False)
    return demo
