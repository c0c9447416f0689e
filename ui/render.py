"""What the UI shows, as HTML or plain text: passages, answers, documents and citations.

Document text is data: everything taken from a document is HTML-escaped here before it is shown.
"""

from __future__ import annotations

import html
import re

from generation.extractive import page_reference
from pipeline import Pipeline
from core.errors import UnknownCollection


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def sources_html(result) -> str:
    """The retrieved passages, best first, with page, section and every score."""
    if not result.hits:
        return "<p>No passage matched.</p>"
    # No confidence level here: the passages come before the answer, whose level (shown with it) also weighs
    # whether a sentence answers the question.
    parts = [f"<p>Best passage similarity {result.confidence:.2f}</p>", expansion_html(result.expansion)]
    for hit in result.hits:
        c, s = hit.chunk, hit.scores
        fmt = lambda v: "–" if v is None else f"{v:.3f}"  # noqa: E731
        parts.append(
            f"<div class='source'><div class='meta'><b>#{hit.rank}</b> {esc(c.filename)} · "
            f"<b>{esc(page_reference(c.page, c.page, c.page_label))}</b>"
            f"{' · ' + esc(c.section) if c.section else ''} · fused {fmt(s.get('fused'))} · "
            f"semantic {fmt(s.get('semantic'))} · best sentence {fmt(s.get('sentence'))} · "
            f"keyword {fmt(s.get('keyword'))}"
            f"{' · table row named ' + fmt(s['label']) if s.get('label') is not None else ''}"
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
    if pipeline.questions.mode == "llm":
        return ("## Ask your documents\nAnswers are written by the LLM from the passages shown, every claim cited "
                "`[Source N]` and checked; when the check fails you get sentences quoted from the document. "
                f"**Mode: LLM** ({esc(pipeline.settings.llm_model)}).")
    return ("## Ask your documents\nAnswers are quoted word for word from the documents, with the page they came "
            "from, or say plainly that the document does not answer. **Mode: extractive** (no LLM key set; works "
            "offline).")


def answer_text(result) -> str:
    """The final answer as shown in the chat (plain text: the chat does not render HTML), with the question it
    answers when a follow-up was rewritten, its confidence (one decision with the warning and the abstention, so
    they never disagree) and any note. Plain words, no emoji: they show as empty boxes without an emoji font."""
    parts = []
    if result.rewrite != "unchanged":
        parts.append(f"Understood as: {result.resolved_question}")
    parts.append(result.answer)
    if not result.abstained:
        parts.append(f"Confidence: {result.confidence_level}")
    if result.warning:
        parts.append(f"Warning: {result.warning}")
    if result.note:
        parts.append(f"Note: {result.note}")
    return "\n\n".join(parts)


def rewrite_html(result) -> str:
    """The standalone question a follow-up was rewritten into, when it was."""
    if result.rewrite == "unchanged":
        return ""
    how = "by the LLM" if result.rewrite == "llm" else "from the conversation"
    return f"<p class='meta'>Follow-up understood {how} as: <b>{esc(result.resolved_question)}</b></p>"


def samples_html(pipeline: Pipeline) -> str:
    """A line on the sample document while it is being indexed (questions asked meanwhile wait for it)."""
    if pipeline.ingestion.samples_status != "indexing":
        return ""
    name, progress = pipeline.ingestion.samples_progress
    what = f"{esc(name)}: {esc(progress.message or 'starting')} ({progress.fraction:.0%})" if name else "starting"
    return (f"<p id='sample-progress'>Indexing the sample document, {what}. A question asked now is answered as "
            "soon as it is ready.</p>")


def documents_html(pipeline: Pipeline, collection: str) -> str:
    try:
        docs = pipeline.ingestion.documents(collection)
    except UnknownCollection:
        docs = []
    indexing = samples_html(pipeline)
    if not docs:
        return indexing or "<p>No documents yet. Upload a PDF or text file.</p>"
    rows = "".join(
        f"<tr><td>{esc(d.filename)}</td><td>{d.pages}</td><td>{d.chunks}</td><td>{esc(d.strategy)}</td>"
        f"<td>{page_list(d.ocr_pages)}</td><td>{page_list(d.unread_pages)}</td></tr>" for d in docs)
    return (indexing + "<table><tr><th>Document</th><th>Pages</th><th>Passages</th><th>Chunking</th>"
            f"<th>OCR pages</th><th>Pages not read</th></tr>{rows}</table>")


def citation_entries(result) -> list[dict]:
    """What the citation panel needs for each cited page of an answer, in answer order."""
    hits = {h.chunk.chunk_id: h for h in result.sources}
    entries = []
    for c in result.citations:
        hit = hits.get(c.chunk_id)
        source = getattr(c, "source", None)
        where = page_reference(c.page, c.page, c.page_label)
        label = (f"[Source {source}] " if source else "") + f"{where} · {c.filename}"
        entries.append({"label": label, "doc_id": c.doc_id, "page": c.page, "where": where, "chunk_id": c.chunk_id,
                        "source": source, "filename": c.filename, "quote": c.quote, "section": hit.chunk.section if hit else "",
                        "text": hit.chunk.text if hit else "", "scores": dict(hit.scores) if hit else {}})
    return entries


def citation_html(entry: dict) -> str:
    scores = " · ".join(f"{name} {value:.3f}" for name, value in entry["scores"].items() if value is not None)
    return (f"<div class='source'><div class='meta'><b>{esc(entry['filename'])}</b> · <b>{esc(entry['where'])}</b>"
            f"{' · ' + esc(entry['section']) if entry['section'] else ''}<br>{esc(scores)}</div>"
            + (f"<p><b>Quoted:</b> {esc(entry['quote'])}</p>" if entry["quote"] else "") +
            f"<blockquote>{esc(entry['text'])}</blockquote></div>")


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


_MARKER = re.compile(r"\[(?:(?P<file>[^\[\]]+?), )?Pages? (?P<page>\d+)(?:-\d+)?(?: \(printed [^)\]]*\))?\]"
                     r"|\[Source (?P<source>\d+)\]")


def link_markers(text: str, entries: list[dict]) -> str:
    """``text`` (escaped already) with each citation marker ("[Page 2]", "[a.pdf, Page 2]", "[Source 1]") made a
    link that opens its entry of the citation panel (``entries``, from :func:`citation_entries`); a marker no entry
    matches stays plain text.

    >>> link_markers("Marsupia. [Page 2]", [{"page": 2, "filename": "s.pdf", "source": None}])
    'Marsupia. <a href="#cite-0" class="cite">[Page 2]</a>'
    """
    def link(match: re.Match) -> str:
        for i, entry in enumerate(entries):
            if match.group("source"):
                hit = str(entry.get("source")) == match.group("source")
            else:
                hit = entry["page"] == int(match.group("page")) and match.group("file") in (None, esc(entry["filename"]))
            if hit:
                return f'<a href="#cite-{i}" class="cite">{match.group(0)}</a>'
        return match.group(0)

    return _MARKER.sub(link, text)


# Clicking a citation marker in the answer opens that citation in the panel (the radio choice of the same number).
CITATION_JS = """
() => {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.cite");
    if (!link) return;
    event.preventDefault();
    const choice = link.getAttribute("href").replace("#cite-", "");
    const input = document.querySelector(`#citations input[value="${choice}"]`);
    if (input) { input.click(); document.querySelector("#page-image")?.scrollIntoView({behavior: "smooth"}); }
  });
}
"""
