"""The one object behind the UI, the HTTP API, the CLI and the evaluation: ingest -> index -> retrieve -> answer."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ingestion.inflight import SingleFlight
from limits import Busy, Slots, check_text, safe_text
from settings import Settings, get_settings

log = logging.getLogger(__name__)

Progress = Callable[[str, float], None]  # (what is happening, fraction done in [0, 1])


@dataclass
class IngestResult:
    doc_id: str
    filename: str
    collection: str
    pages: int
    chunks: int
    chunk_ids: list[str]
    seconds: float
    warnings: list[str] = field(default_factory=list)
    duplicate: bool = False  # an identical file with the same chunking was already indexed: nothing was done
    replaced: bool = False  # the same file was indexed before with other chunking and has been re-indexed
    strategy: str = "recursive_char"
    ocr_pages: list[int] = field(default_factory=list)
    unread_pages: list[int] = field(default_factory=list)  # scanned pages not OCR'd, or pages that cannot be parsed
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class AnswerResult:
    answer: str
    abstained: bool
    confidence: float
    sources: list  # list[Hit], rank order
    citations: list  # list[Citation]
    resolved_question: str
    timings: dict[str, float] = field(default_factory=dict)
    mode: str = "extractive"
    confidence_level: str = "high"  # the answer's level (generation.decision): high, low or insufficient
    support: float = 0.0  # how well the best quoted sentence covers the question (the abstention score)
    expansion: object = None  # retrieval.expansion.Expansion when the question was expanded
    question: str = ""  # as asked; resolved_question is what was searched (a follow-up made standalone)
    rewrite: str = "unchanged"  # how the question was resolved: unchanged, local or llm
    conversation_id: str | None = None
    warning: str | None = None  # shown with the answer (low retrieval confidence)
    note: str | None = None  # why the answer is not what the mode promised (e.g. the LLM failed: extractive)


class QuestionError(ValueError):
    """A question that cannot be asked (empty, too long)."""


def clean_filename(name: str) -> str:
    """The bare file name, without folders or control characters, at most 200 characters."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip() or "upload"
    return base[-200:]


class Pipeline:
    """Everything the product does, shared by every front end.

    Parameters
    ----------
    settings : defaults to the process-wide settings from the environment.
    """

    def __init__(self, settings: Settings | None = None):
        self.settings = settings or get_settings()
        if self.settings.hub_offline:
            # Before any model code runs: a hub lookup offline otherwise retries for ~46 s before failing.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from generation.decision import Policy
        from generation.extractive import ExtractiveAnswerer
        from generation.conversation import Conversations, LLMRewriter
        from generation.llm import LLM
        from generation.llm_answerer import LLMAnswerer
        from retrieval.expansion import make_expander
        from retrieval.embedder import Embedder
        from retrieval.reranker import Reranker
        from retrieval.searcher import Searcher
        from retrieval.store import LocalStore
        from retrieval.access import CollectionAccess

        s = self.settings
        self.embedder = Embedder(s.embedding_model, s.embedding_batch_size)
        self.store = LocalStore(Path(s.data_dir), self.embedder.dim, s.bm25_k1, s.bm25_b, keyword_prefix=s.keyword_prefix,
                                keyword_section=s.keyword_section)
        self.reranker = Reranker(s.reranker_model, s.reranker_enabled)
        self.reranker.load()  # once, at start: fails in milliseconds offline and says so in the log and /stats
        self.llm = LLM.from_settings(s)
        self.searcher = Searcher(self.store, self.embedder, candidates=s.candidates,
                                 semantic_weight=s.semantic_weight, keyword_weight=s.keyword_weight,
                                 sentence_weight=s.sentence_weight, fusion=s.fusion, rrf_k=s.rrf_k,
                                 confidence_thresholds=(s.confidence_insufficient, s.confidence_low),
                                 reranker=self.reranker, rerank_candidates=s.rerank_candidates,
                                 expander=make_expander(s.expansion, self.llm, self.embedder),
                                 expansion_threshold=s.expansion_threshold, label_weight=s.label_weight)
        self.access = CollectionAccess(self.store)  # collection keys: the HTTP API checks them here
        self.policy = Policy.from_settings(s)
        self.answerer = ExtractiveAnswerer(
            self.embedder, max_sentences=s.answer_max_sentences, sentence_vectors=self.store.sentence_vectors,
            policy=self.policy)
        self.llm_answerer = LLMAnswerer(self.llm, self.answerer, self.policy) if self.llm else None
        self.conversations = Conversations.from_settings(s)
        self.rewriter = LLMRewriter(self.llm) if self.llm else None
        self._ingest_lock = threading.Lock()  # store writes one at a time; reading and embedding run in parallel
        # ...but only this many documents at once, whoever sends them (API, UI, CLI): each holds a reading process
        # and its pages in memory.
        self.ingest_slots = Slots(s.max_concurrent_ingests)
        self.uploads_in_flight: SingleFlight[IngestResult] = SingleFlight()
        self.samples_status = "not requested"
        self.samples_progress = ("", "", 0.0)  # the sample being indexed: its file name, the step, the share done

    # -- ingest ----------------------------------------------------------------------------------------------
    def ingest(self, data: bytes, filename: str, collection: str = "default", progress: Progress | None = None,
               *, strategy: str | None = None, chunk_size: int | None = None,
               chunk_overlap: int | None = None) -> IngestResult:
        """Read, chunk, embed and index one file.

        Parameters
        ----------
        data, filename : the upload; the extension decides how it is read.
        collection : where it goes (created on first use).
        progress : ``progress(message, fraction)`` as pages are read or OCR'd and passages embedded.
        strategy, chunk_size, chunk_overlap : chunking for this upload; the settings' values when ``None``.

        An identical upload (same bytes, collection and chunking) already in progress is joined: this call waits
        for it and returns its document (``duplicate``), or raises its error.

        Raises
        ------
        ingestion.errors.IngestError
            The file cannot be indexed; nothing already indexed is changed.
        ValueError
            The collection name, strategy or sizes are invalid.
        """
        from ingestion.chunking import check_strategy
        from retrieval.store import validate_collection_name

        s = self.settings
        report = progress or (lambda _msg, _frac: None)
        t0 = time.perf_counter()
        collection = validate_collection_name(collection)
        filename = clean_filename(filename)
        strategy = check_strategy(strategy or s.chunk_strategy)  # before the costly read
        size = chunk_size or s.chunk_size
        overlap = s.chunk_overlap if chunk_overlap is None else chunk_overlap
        if not 100 <= size <= 20000 or not 0 <= overlap < size:
            raise ValueError(f"Invalid chunk size {size} / overlap {overlap}: the size must be 100-20000 characters "
                             "and the overlap at least 0 and smaller than the size.")
        config = (strategy, size, overlap)
        sha = hashlib.sha256(data).hexdigest()
        doc_id = hashlib.sha256(f"{collection}\0{sha}".encode()).hexdigest()[:16]
        # The same file arriving again while it is being indexed into the same collection waits for that upload
        # and shares its result: read and embedded once, not twice with the second replacing the first.
        outcome = self.uploads_in_flight.run(
            (collection, sha, config),
            lambda: self._ingest_new(data, filename, collection, doc_id, sha, config, report, t0),
            on_wait=lambda: report("Waiting for an identical upload in progress", 0.0))
        if not outcome.joined:
            return outcome.value
        report("Indexed (by an identical upload in progress)", 1.0)
        first = outcome.value
        return dataclasses.replace(first, seconds=time.perf_counter() - t0, duplicate=True, warnings=[
            f"An identical file was being indexed into collection {collection!r} at the same moment (as "
            f"{first.filename!r}); this upload shares its result and was not read or embedded again."])

    def _ingest_new(self, data: bytes, filename: str, collection: str, doc_id: str, sha: str, config: tuple,
                    report: Progress, t0: float) -> IngestResult:
        """:meth:`ingest` after its cheap checks: an identical document already indexed is reused, otherwise the
        file is read and embedded."""
        from ingestion.errors import ServerBusy

        s = self.settings
        strategy = config[0]
        generation = self.store.generation(collection)  # into this collection or none (not one re-created since)
        existing = self.store.find_by_sha(collection, sha)
        if existing and (existing.strategy, existing.chunk_size, existing.chunk_overlap) == config:
            report("Already indexed", 1.0)
            return IngestResult(
                existing.doc_id, existing.filename, collection, existing.pages, existing.chunks,
                self._chunk_ids(existing.doc_id), time.perf_counter() - t0,
                [f"This file is already indexed in collection {collection!r} as {existing.filename!r}; "
                 "it was not embedded again."], duplicate=True, strategy=strategy,
                ocr_pages=existing.ocr_pages, unread_pages=existing.unread_pages)

        twin = None if existing else next(self._twins(sha, config), None)
        if twin is not None:
            # The same file, chunked the same way, in another collection: copy it (milliseconds) rather than read
            # and embed it again (seconds per page).
            copy = self.copy_document(twin.doc_id, collection, filename=filename, expect=generation)
            report("Indexed (copied from an identical upload)", 1.0)
            elapsed = time.perf_counter() - t0
            return IngestResult(copy.doc_id, copy.filename, collection, copy.pages, copy.chunks,
                                self._chunk_ids(copy.doc_id), elapsed, list(copy.warnings), strategy=strategy,
                                ocr_pages=list(copy.ocr_pages), unread_pages=list(copy.unread_pages),
                                timings={"copy": elapsed})
        try:
            with self.ingest_slots.take():
                return self._index(data, filename, collection, doc_id, sha, config, existing, report, t0, generation)
        except Busy:
            raise ServerBusy(f"'{filename}' was not indexed: {s.max_concurrent_ingests} document(s) are being "
                             "indexed already (RAG_MAX_CONCURRENT_INGESTS). Upload it again in a few seconds.") \
                from None

    def _index(self, data: bytes, filename: str, collection: str, doc_id: str, sha: str, config: tuple,
               existing, report: Progress, t0: float, generation: int | None) -> IngestResult:
        """Read, chunk, embed and store one new file (``ingest`` has checked everything cheap)."""
        from ingestion.chunking import chunk_pages
        from ingestion.errors import NoTextLayer
        from retrieval.sentence_index import SentenceVectors
        from retrieval.store import DocumentRecord

        s = self.settings
        strategy, size, overlap = config
        report(f"Reading {filename}", 0.0)
        doc = self._read(data, filename, report)
        t1 = time.perf_counter()
        chunks = chunk_pages(doc.pages, doc_id=doc_id, filename=filename, strategy=strategy, chunk_size=size,
                             chunk_overlap=overlap, embed=self.embedder.encode,
                             semantic_percentile=s.semantic_percentile, semantic_min_chars=s.semantic_min_chars)
        if not chunks:
            raise NoTextLayer(f"'{filename}' has no passages with words to index.")
        t2 = time.perf_counter()
        report(f"Read {doc.page_count} pages; embedding {len(chunks)} passages", 0.5)
        reused = self._reuse_vectors(sha, config, chunks)
        if reused is None:
            share = 0.45 if not s.sentence_vectors else 0.19  # sentences take about 1.4x the passages' time
            vectors = self.embedder.encode(
                [c.embedding_text() if s.embed_prefix else c.text for c in chunks],
                progress=lambda done, total: report(f"Embedded {done}/{total} passages", 0.5 + share * done / total))
            sentences = SentenceVectors.build(
                chunks, self.embedder.encode,
                progress=lambda done, total: report(f"Embedded {done}/{total} sentences",
                                                    0.5 + share + (0.45 - share) * done / total),
            ) if s.sentence_vectors else None
        else:
            vectors, sentences = reused
        t3 = time.perf_counter()
        record = DocumentRecord(
            doc_id=doc_id, filename=filename, collection=collection, sha256=sha, pages=doc.page_count,
            chunks=len(chunks), added_at=time.time(), strategy=strategy, chunk_size=size, chunk_overlap=overlap,
            warnings=doc.warnings, title=doc.title, ocr_pages=list(doc.ocr_pages), unread_pages=list(doc.unread_pages))
        with self._ingest_lock:
            self.store.add_document(record, chunks, vectors, sentences, original=data, expect=generation)
        t4 = time.perf_counter()
        report("Indexed", 1.0)
        return IngestResult(doc_id, filename, collection, doc.page_count, len(chunks), [c.chunk_id for c in chunks],
                            t4 - t0, list(doc.warnings), strategy=strategy, ocr_pages=list(doc.ocr_pages),
                            unread_pages=list(doc.unread_pages), replaced=existing is not None,
                            timings={"read": t1 - t0, "chunk": t2 - t1, "embed": t3 - t2, "index": t4 - t3})

    def _read(self, data: bytes, filename: str, report: Progress):
        """Read the upload, in a limited child process unless ``RAG_PARSE_ISOLATED`` is off."""
        from ingestion.isolation import ParseLimits, read_isolated
        from ingestion.reader import read_document

        s = self.settings

        def on_page(stage: str, done: int, total: int) -> None:
            verb = "OCR'd" if stage == "ocr" else "Read"
            report(f"{verb} page {done}/{total}" if stage != "ocr" else f"{verb} {done}/{total} scanned pages",
                   0.5 * done / max(total, 1))

        kwargs = dict(max_bytes=int(s.max_upload_mb * 1024 * 1024), garbled_threshold=s.garbled_threshold,
                      ocr=s.ocr_enabled, ocr_max_pages=s.ocr_max_pages, ocr_dpi=s.ocr_dpi, max_pages=s.max_pages,
                      progress=on_page)
        if s.parse_isolated:
            return read_isolated(data, filename, limits=ParseLimits.from_settings(s), **kwargs)
        return read_document(data, filename, **kwargs)

    def _chunk_ids(self, doc_id: str) -> list[str]:
        return [c.chunk_id for c in self.store.document_data(doc_id)[1]]

    def _twins(self, sha: str, config: tuple):
        """Indexed documents, in any collection, of the same file chunked the same way."""
        return (r for r in self.store.documents()
                if r.sha256 == sha and (r.strategy, r.chunk_size, r.chunk_overlap) == config)

    def _reuse_vectors(self, sha: str, config: tuple, chunks):
        """Passage and sentence vectors of the same file chunked the same way in another collection, if any."""
        for record in self._twins(sha, config):
            _, old_chunks, vectors = self.store.document_data(record.doc_id)
            sentences = self.store.document_sentences(record.doc_id)
            if [c.text for c in old_chunks] == [c.text for c in chunks] and (
                    sentences is not None or not self.settings.sentence_vectors):
                return vectors, sentences
        return None

    def documents(self, collection: str | None = None):
        return self.store.documents(collection)

    def copy_document(self, doc_id: str, collection: str, filename: str | None = None, expect=...):
        """Put an indexed document into another collection too, reusing its vectors (nothing is read or embedded).

        ``filename`` names the copy (default: the original's name). Its passages keep the vectors embedded with the
        original's name in their prefix: a difference of one field in the prefix, not worth embedding again.
        Returns the copy's record; a copy already there is returned as it is. ``expect``: see the store's
        ``add_document``.
        """
        record, chunks, vectors = self.store.document_data(doc_id)
        new_id = hashlib.sha256(f"{collection}\0{record.sha256}".encode()).hexdigest()[:16]
        existing = self.store.find_by_sha(collection, record.sha256)
        if existing:
            return existing
        name = filename or record.filename
        copies = [dataclasses.replace(c, doc_id=new_id, chunk_id=new_id + c.chunk_id[len(record.doc_id):],
                                      filename=name) for c in chunks]
        copy = dataclasses.replace(record, doc_id=new_id, collection=collection, added_at=time.time(), folder="",
                                   filename=name)
        with self._ingest_lock:
            self.store.add_document(copy, copies, vectors, self.store.document_sentences(doc_id),
                                    original=self.store.original(doc_id), expect=expect)
        return copy

    def delete_collection(self, collection: str):
        with self._ingest_lock:
            return self.store.delete_collection(collection)

    def page_image(self, doc_id: str, page: int, chunk_id: str | None = None, dpi: int = 110, quote: str = ""):
        """The page as a PNG (:class:`ingestion.page_images.PageImage`) with the passage ``chunk_id`` highlighted,
        or only ``quote`` (the sentences an answer quoted from it) when given and found on the page.

        Raises
        ------
        retrieval.store.UnknownDocument
            No such document, or the chunk is not one of its passages.
        ValueError
            The document is not a PDF (nothing to render), was indexed without its file, or has no such page.
        """
        from ingestion.page_images import render_page
        from retrieval.store import UnknownDocument

        record, chunks, _ = self.store.document_data(doc_id)
        if not record.filename.lower().endswith(".pdf"):
            raise ValueError(f"'{record.filename}' is a text file: it has no page images; its passage text is shown "
                             "instead.")
        original = self.store.original(doc_id)
        if original is None:
            raise ValueError(f"'{record.filename}' was indexed without keeping its file; upload it again to see "
                             "its pages.")
        highlight = None
        if chunk_id is not None:
            chunk = next((c for c in chunks if c.chunk_id == chunk_id), None)
            if chunk is None:
                raise UnknownDocument(f"Passage {chunk_id!r} is not in document {doc_id!r}.")
            # A passage extended across a page break holds text of two pages: highlight the part on this one.
            highlight = chunk.on_page_text if page == chunk.page else chunk.continuation if page == chunk.page_end \
                else None
        if quote and highlight:
            # The quoted sentences are what the user checks; the whole passage is the fallback when they are too
            # short to locate with confidence.
            image = render_page(original, page, quote, dpi=dpi)
            if image.boxes:
                return image
        return render_page(original, page, highlight, dpi=dpi)

    def delete_document(self, doc_id: str):
        with self._ingest_lock:
            return self.store.delete_document(doc_id)

    # -- ask -------------------------------------------------------------------------------------------------
    def validate_query(self, question: str, collection: str, doc_ids: list[str] | None = None) -> str:
        """The question, whitespace tidied, if it can be asked of that collection and those documents.

        Raises
        ------
        QuestionError, retrieval.store.UnknownCollection, retrieval.store.UnknownDocument
        """
        from retrieval.store import UnknownCollection, missing_collection

        question = self._check_question(question)
        if collection not in self.store.collections():
            raise UnknownCollection(missing_collection(collection))
        if doc_ids is not None:
            self._check_doc_ids(collection, doc_ids)
        return question

    def _check_question(self, question: str) -> str:
        try:
            check_text(question or "", "The question")
        except ValueError as exc:
            raise QuestionError(str(exc)) from None
        question = " ".join((question or "").split())
        if not question:
            raise QuestionError("The question is empty: type a question about the document.")
        if len(question) > self.settings.max_question_chars:
            raise QuestionError(f"The question is {len(question)} characters long; the limit is "
                                f"{self.settings.max_question_chars}. Ask a shorter question.")
        return question

    def search(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
               top_k: int | None = None, mode: str = "hybrid", rerank: bool = True):
        """Ranked passages with every stage's score (see :class:`retrieval.searcher.SearchResult`)."""
        question = self.validate_query(question, collection, doc_ids)
        return self.searcher.search(question, collection, doc_ids, top_k or self.settings.top_k, mode,
                                    rerank=rerank)

    def _check_doc_ids(self, collection: str, doc_ids: list[str]) -> None:
        from retrieval.store import UnknownDocument

        known = {r.doc_id for r in self.store.documents(collection)}
        missing = [d for d in doc_ids if d not in known]
        if missing:
            raise UnknownDocument(safe_text(f"Document(s) {', '.join(missing)} are not in collection {collection!r}."))

    def answer_stream(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
                      top_k: int | None = None, mode: str = "hybrid",
                      conversation_id: str | None = None, rerank: bool = True) -> Iterator[tuple[str, object]]:
        """Answer a question, as events.

        Yields ``("sources", SearchResult)`` (its ``question`` is the one searched: a follow-up made standalone),
        then ``("delta", str)`` pieces of the answer, with ``("reset", reason)`` when text already sent is withdrawn
        (an LLM answer failed its citation check or broke off), then ``("done", AnswerResult)``.

        ``conversation_id`` keeps the exchange in that conversation's memory and lets a follow-up ("who proposed
        it?") be rewritten from it before retrieval; ``None`` asks a standalone question. ``rerank=False`` skips
        the cross-encoder for this question.
        """
        from generation.conversation import Turn, resolve_with_certainty

        t0 = time.perf_counter()
        question = self.validate_query(question, collection, doc_ids)
        history = self.conversations.history(conversation_id) if conversation_id else []
        resolution = resolve_with_certainty(question, history, self.rewriter)
        resolved, rewrite = resolution.question, resolution.method
        k = top_k or self.settings.top_k
        result = self.searcher.search(resolved, collection, doc_ids, k, mode, rerank=rerank)
        if not resolution.certain and resolved != question:
            # The rules could not tell a follow-up from a question that stands alone: search it as asked too and
            # keep whichever comes closer to the documents.
            as_asked = self.searcher.search(question, collection, doc_ids, k, mode, rerank=rerank)
            if as_asked.confidence > result.confidence:
                result, resolved, rewrite = as_asked, question, "unchanged"
        yield "sources", result
        t1 = time.perf_counter()
        if self.llm_answerer is not None:
            final = None
            for kind, payload in self.llm_answerer.stream(resolved, result, [(t.resolved, t.answer) for t in history]):
                if kind == "final":
                    final = payload
                else:
                    yield kind, payload
            text, abstained, citations, support = final.text, final.abstained, final.citations, final.support
            answer_mode, note, decision = final.mode, final.note, final.decision
        else:
            answer = self.answerer.answer_found(resolved, result)
            for piece in answer.pieces:
                yield "delta", piece
            text, abstained, citations, support = answer.text, answer.abstained, answer.citations, answer.support
            answer_mode, note, decision = "extractive", None, answer.decision
        t2 = time.perf_counter()
        if conversation_id:
            self.conversations.add(conversation_id, Turn.from_exchange(question, resolved, text))
        yield "done", AnswerResult(
            answer=text, abstained=abstained, confidence=result.confidence,
            confidence_level=decision.level, sources=result.hits, citations=citations,
            resolved_question=resolved, question=question, rewrite=rewrite, conversation_id=conversation_id,
            timings={**result.timings, "retrieve": t1 - t0, "answer": t2 - t1, "total": t2 - t0},
            support=support, expansion=result.expansion, mode=answer_mode, warning=decision.warning, note=note)

    def answer(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
               top_k: int | None = None, mode: str = "hybrid", conversation_id: str | None = None,
               rerank: bool = True) -> AnswerResult:
        final = None
        for kind, payload in self.answer_stream(question, collection, doc_ids, top_k, mode, conversation_id,
                                                rerank=rerank):
            if kind == "done":
                final = payload
        return final

    # -- status ----------------------------------------------------------------------------------------------
    def stats(self) -> dict:
        s = self.settings
        collections = {}
        for name in self.store.collections():
            docs = self.store.documents(name)
            collections[name] = {"documents": len(docs), "chunks": sum(d.chunks for d in docs)}
        keyed = [name for name in collections if self.store.key_hash(name)]
        damaged = self.store.damaged()
        return {
            # Collections with a key (the UI's sessions among them) are counted, never named.
            "collections": {name: c for name, c in collections.items() if name not in keyed},
            "collections_with_key": len(keyed),
            "documents": sum(c["documents"] for c in collections.values()),
            "chunks": sum(c["chunks"] for c in collections.values()),
            # Set aside at start (files damaged); those of keyed collections counted only, like the collections.
            "damaged": [d.to_dict() for d in damaged if not d.keyed],
            "damaged_with_key": sum(d.keyed for d in damaged),
            "models": {
                "embedding": {"model": self.embedder.name, "loaded": True, "dim": self.embedder.dim},
                "reranker": {"model": self.reranker.model_name, "loaded": self.reranker.loaded,
                             "error": self.reranker.error},
                "llm": {"model": s.llm_model, "configured": self.llm is not None,
                        "base_url": self.llm.base_url if self.llm else None,
                        "note": "answers are written by the LLM from the passages, citations checked"
                        if self.llm else "no GROQ_API_KEY: answers are extractive (quoted from the document)"},
            },
            "ocr": {"engine": "rapidocr", "enabled": s.ocr_enabled, "max_pages": s.ocr_max_pages,
                    "installed": importlib.util.find_spec("rapidocr") is not None},
            "answer_mode": "llm" if self.llm else "extractive",
            "samples": self.samples_status,
            "settings": {
                "data_dir": str(s.data_dir), "chunk_strategy": s.chunk_strategy, "chunk_size": s.chunk_size,
                "chunk_overlap": s.chunk_overlap, "ocr_enabled": s.ocr_enabled, "ocr_max_pages": s.ocr_max_pages,
                "parse_isolated": s.parse_isolated,
                "top_k": s.top_k, "candidates": s.candidates, "fusion": s.fusion, "rrf_k": s.rrf_k,
                "confidence_thresholds": [s.confidence_insufficient, s.confidence_low],
                "semantic_weight": s.semantic_weight,
                "keyword_weight": s.keyword_weight, "answer_threshold": s.answer_threshold,
                "max_upload_mb": s.max_upload_mb,
            },
        }

    def index_samples(self, collection: str = "default") -> list[IngestResult]:
        """Index the bundled sample documents (once: identical files are recognised and skipped)."""
        folder = Path(self.settings.sample_dir)
        results = []
        self.samples_status = "indexing"
        try:
            for path in sorted(folder.glob("*")):
                if path.suffix.lower() in {".pdf", ".txt", ".md"}:
                    def report(step: str, done: float, name: str = path.name) -> None:
                        self.samples_progress = (name, step, done)

                    result = self.ingest(path.read_bytes(), path.name, collection, progress=report)
                    log.info("sample %s: %s pages, %s chunks (%s)", path.name, result.pages, result.chunks,
                             "already indexed" if result.duplicate else f"{result.seconds:.1f} s")
                    results.append(result)
            self.samples_status = "ready"
        except Exception as exc:  # noqa: BLE001 - a broken sample must not stop the server
            self.samples_status = f"failed: {exc}"
            log.error("indexing the sample documents failed: %s", exc)
        return results
