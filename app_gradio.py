"""The Gradio UI: upload documents, ask questions, check every answer against its passage and page.

Document text is data: everything taken from a document is HTML-escaped before it is shown.
"""

from __future__ import annotations

import html
from pathlib import Path

import gradio as gr

from ingestion.chunking import STRATEGIES
from ingestion.errors import IngestError
from pipeline import Pipeline, QuestionError
from retrieval.store import UnknownCollection, UnknownDocument

COLLECTION = "default"
CSS = """
.source {border:1px solid #d0d7de; border-radius:8px; padding:8px 12px; margin:8px 0;}
.source .meta {font-size:0.85em; color:#57606a;}
.source blockquote {white-space:pre-wrap; margin:6px 0 0 0; padding-left:10px; border-left:3px solid #0969da;}
#documents {overflow-x:auto;}
#documents table {font-size:0.8em; width:100%;}
"""


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def sources_html(result) -> str:
    """The retrieved passages, best first, with page, section and every score."""
    if not result.hits:
        return "<p>No passage matched.</p>"
    parts = [f"<p><b>Confidence: {esc(result.confidence_level)}</b> (best cosine similarity "
             f"{result.confidence:.2f})</p>", expansion_html(result.expansion)]
    for hit in result.hits:
        c, s = hit.chunk, hit.scores
        fmt = lambda v: "–" if v is None else f"{v:.3f}"  # noqa: E731
        parts.append(
            f"<div class='source'><div class='meta'><b>#{hit.rank}</b> {esc(c.filename)} · <b>Page {c.page}</b>"
            f"{' · ' + esc(c.section) if c.section else ''} · fused {fmt(s.get('fused'))} · "
            f"semantic {fmt(s.get('semantic'))} · best sentence {fmt(s.get('sentence'))} · "
            f"keyword {fmt(s.get('keyword'))}"
            f"{' · rerank ' + fmt(s['rerank']) if s.get('rerank') is not None else ''}</div>"
            f"<blockquote>{esc(c.text)}</blockquote></div>")
    return "".join(parts)


def expansion_html(expansion) -> str:
    """How the question was expanded (the first search was weak), or nothing."""
    if expansion is None:
        return ""
    if expansion.error:
        return f"<p class='meta'>Query expansion was skipped: {esc(expansion.error)}</p>"
    how = "rephrased by the LLM" if expansion.method == "llm" else "expanded with terms from the best passages"
    items = "".join(f"<li>{esc(q.source)}: {esc(q.text)}</li>" for q in expansion.queries)
    return f"<details><summary>The first search was weak, so the question was {how}</summary><ul>{items}</ul></details>"


def mode_note(pipeline: Pipeline) -> str:
    if pipeline.llm is not None:
        return ("## Ask your documents\nAnswers are written by the LLM from the passages shown, every claim cited "
                "`[Source N]` and checked; when the check fails you get sentences quoted from the document. "
                f"**Mode: LLM** ({esc(pipeline.settings.llm_model)}).")
    return ("## Ask your documents\nAnswers are quoted word for word from the documents, with the page they came "
            "from, or say plainly that the document does not answer. **Mode: extractive** (no LLM key set; works "
            "offline).")


def answer_text(result) -> str:
    """The final answer as shown in the chat (plain text: the chat does not render HTML), with any warning or note."""
    parts = [result.answer]
    if result.warning:
        parts.append(f"⚠️ {result.warning}")
    if result.note:
        parts.append(f"ℹ️ {result.note}")
    return "\n\n".join(parts)


def rewrite_html(result) -> str:
    """The standalone question a follow-up was rewritten into, when it was."""
    if result.rewrite == "unchanged":
        return ""
    how = "by the LLM" if result.rewrite == "llm" else "from the conversation"
    return f"<p class='meta'>Follow-up understood {how} as: <b>{esc(result.resolved_question)}</b></p>"


def documents_html(pipeline: Pipeline) -> str:
    try:
        docs = pipeline.documents(COLLECTION)
    except UnknownCollection:
        docs = []
    if not docs:
        return "<p>No documents yet. Upload a PDF or text file.</p>"
    rows = "".join(
        f"<tr><td>{esc(d.filename)}</td><td>{d.pages}</td><td>{d.chunks}</td><td>{esc(d.strategy)}</td>"
        f"<td>{page_list(d.ocr_pages)}</td><td>{page_list(d.unread_pages)}</td></tr>" for d in docs)
    return ("<table><tr><th>Document</th><th>Pages</th><th>Passages</th><th>Chunking</th><th>OCR pages</th>"
            f"<th>Pages not read</th></tr>{rows}</table>")


def page_list(pages: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``1-3, 7``; ``–`` when empty."""
    if not pages:
        return "–"
    runs, start = [], pages[0]
    for prev, cur in zip(pages, pages[1:] + [None]):
        if cur is None or cur != prev + 1:
            runs.append(f"{start}-{prev}" if prev != start else f"{start}")
            start = cur
    return ", ".join(runs)


def build_ui(pipeline: Pipeline) -> gr.Blocks:
    """The Blocks app; mount it with ``gr.mount_gradio_app`` (see ``main.py``)."""

    def upload(files, strategy, chunk_size, progress=gr.Progress()):
        messages = []
        for i, path in enumerate(files or []):
            name = Path(path).name

            def report(msg, frac, i=i, name=name):
                progress((i + frac) / len(files), desc=f"{name}: {msg}")

            try:
                r = pipeline.ingest(Path(path).read_bytes(), name, COLLECTION, progress=report, strategy=strategy,
                                    chunk_size=int(chunk_size))
                note = "already indexed" if r.duplicate else f"{r.pages} pages, {r.chunks} passages, {r.seconds:.1f} s"
                if r.unread_pages:
                    note += f"; pages not read: {page_list(r.unread_pages)}"
                messages.append(f"✅ {esc(name)}: {note}" + "".join(f"<br>⚠️ {esc(w)}" for w in r.warnings))
            except IngestError as exc:
                messages.append(f"❌ {esc(exc.message)}")
            except ValueError as exc:
                messages.append(f"❌ {esc(name)}: {esc(exc)}")
        return "<br>".join(messages), documents_html(pipeline)

    def ask(message, history, top_k, mode, conversation):
        # One conversation per browser session (gr.State), so follow-ups resolve against this chat only.
        conversation = conversation or pipeline.conversations.new_id()
        history = list(history or []) + [{"role": "user", "content": message},
                                         {"role": "assistant", "content": ""}]
        shown = "<p>Searching…</p>"
        yield history, shown, "", conversation
        try:
            for kind, payload in pipeline.answer_stream(message, COLLECTION, None, int(top_k), mode, conversation):
                if kind == "sources":
                    shown = sources_html(payload)
                    yield history, shown, "", conversation
                elif kind == "delta":
                    history[-1]["content"] += payload
                    yield history, shown, "", conversation
                elif kind == "reset":  # the streamed text was withdrawn; say why, then the new answer follows
                    history[-1]["content"] = f"({payload})\n"
                    yield history, shown, "", conversation
                elif kind == "done":
                    history[-1]["content"] = answer_text(payload)
                    yield history, rewrite_html(payload) + shown, "", conversation
        except (QuestionError, UnknownCollection, UnknownDocument) as exc:
            msg = str(exc.args[0]) if exc.args else str(exc)
            if isinstance(exc, UnknownCollection):
                msg = ("The sample document is still being indexed; ask again in a few seconds."
                       if pipeline.samples_status == "indexing" else
                       "No documents are indexed yet: upload a PDF or text file first.")
            history[-1]["content"] = msg
            yield history, "", "", conversation

    def new_conversation():
        return [], "", None

    with gr.Blocks(title="Grounded document Q&A") as demo:
        gr.Markdown(mode_note(pipeline))
        with gr.Row():
            with gr.Column(scale=1):
                files = gr.File(label="Upload PDF or text files", file_count="multiple",
                                file_types=[".pdf", ".txt", ".md"], elem_id="upload")
                with gr.Row():
                    strategy = gr.Dropdown(list(STRATEGIES),
                                           value=pipeline.settings.chunk_strategy, label="Chunking", scale=1)
                    chunk_size = gr.Number(pipeline.settings.chunk_size, label="Chunk size (characters)", minimum=100,
                                           maximum=20000, precision=0, scale=1)
                status = gr.HTML(elem_id="upload-status")
                docs = gr.HTML(documents_html(pipeline), elem_id="documents")
                refresh = gr.Button("Refresh document list", size="sm")
                top_k = gr.Slider(1, 10, value=pipeline.settings.top_k, step=1, label="Passages (top k)")
                mode = gr.Radio(["hybrid", "semantic", "keyword"], value="hybrid", label="Retrieval")
            with gr.Column(scale=2):
                chat = gr.Chatbot(label="Answer", height=360, render_markdown=False, elem_id="chat")
                question = gr.Textbox(label="Question", placeholder="e.g. What are the characteristics of "
                                      "trustworthy AI?", elem_id="question")
                with gr.Row():
                    send = gr.Button("Ask", variant="primary", elem_id="ask", scale=3)
                    reset = gr.Button("New conversation", elem_id="new-conversation", scale=1)
                gr.Markdown("### Passages the answer may use")
                sources = gr.HTML(elem_id="sources")
        files.upload(upload, inputs=[files, strategy, chunk_size], outputs=[status, docs], api_name="upload")
        refresh.click(lambda: documents_html(pipeline), outputs=docs)
        conversation = gr.State(None)
        send.click(ask, inputs=[question, chat, top_k, mode, conversation],
                   outputs=[chat, sources, question, conversation], api_name="ask")
        question.submit(ask, inputs=[question, chat, top_k, mode, conversation],
                        outputs=[chat, sources, question, conversation], api_name=False)
        reset.click(new_conversation, outputs=[chat, sources, conversation], api_name=False)
    return demo
