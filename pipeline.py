"""Where the product is put together: one :class:`Pipeline` builds the models and the store once and wires the
services every front end (the UI, the HTTP API, the CLI, the evaluation) calls.

==================  =====================================  ==========================================================
service             class                                  what it does
==================  =====================================  ==========================================================
``ingestion``       :class:`services.ingest.Ingestion`      uploads: check, de-duplicate, read, chunk, embed, store
``questions``       :class:`services.query.Questions`       questions: validate, resolve a follow-up, search, answer
``access``          :class:`services.access.Access`         collection keys, hourly quotas, the browsers' libraries
``pages``           :class:`services.pages.Pages`           page images with the quote highlighted
``invoices``        :class:`services.invoices.Invoices`     invoices read into fields, line items and checks
==================  =====================================  ==========================================================

The few methods on :class:`Pipeline` itself (``ingest``, ``answer``, ``search``, ``documents``, ``stats``) are the
short names scripts use; each is one call to a service.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator

from core.answers import AnswerResult, Event, IngestResult
from core.types import DocumentRecord, SearchResult
from generation.conversation import Conversations, LLMRewriter
from generation.decision import Policy
from generation.extractive import ExtractiveAnswerer
from generation.llm import LLM
from generation.llm_answerer import LLMAnswerer
from retrieval.embedder import make_embedder
from generation.query_expansion import make_expander
from retrieval.reranker import Reranker
from retrieval.searcher import Searcher
from retrieval.store_factory import open_store
from services.access import Access
from services.ingest import Ingestion
from services.invoices import Invoices
from services.jobs import LocalUploads
from services.pages import Pages
from services.progress import Progress
from services.query import Questions
from settings import Settings, get_settings


class Pipeline:
    """The product, built once per process (module docstring).

    Parameters
    ----------
    settings : defaults to the process-wide settings from the environment.
    """

    def __init__(self, settings: Settings | None = None):
        self.settings = s = settings or get_settings()
        if s.hub_offline:
            # Before any model code runs: a hub lookup offline otherwise retries for ~46 s before failing.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        self.embedder = make_embedder(s.embedding_model, s.embedding_batch_size, s.embedding_backend, s.models_dir)
        self.store = open_store(s, self.embedder.dim)  # PostgreSQL with RAG_DATABASE_URL, else RAG_DATA_DIR
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
        policy = Policy.from_settings(s)
        self.answerer = ExtractiveAnswerer(self.embedder, max_sentences=s.answer_max_sentences,
                                           sentence_vectors=self.store.sentence_vectors, policy=policy)
        self.ingestion = Ingestion(s, self.store, self.embedder)
        # Uploads: indexed here (waited for, or background jobs), or with PostgreSQL queued for `cli.py worker`.
        if s.database_url:
            from services.queue import UploadQueue

            self.uploads = UploadQueue(s.database_url, s.worker_heartbeat_seconds,
                                       wait_seconds=s.parse_timeout_seconds * 3 + 60)
        else:
            self.uploads = LocalUploads(self.ingestion)
        self.questions = Questions(
            s, self.store, self.searcher, self.answerer,
            LLMAnswerer(self.llm, self.answerer, policy) if self.llm else None,
            Conversations.from_settings(s), LLMRewriter(self.llm) if self.llm else None)
        self.access = Access(s, self.store)
        self.pages = Pages(self.store)
        self.invoices = Invoices(s, self.ingestion.slots)  # read and answered, never kept

    # -- the short names -------------------------------------------------------------------------------------
    def ingest(self, data: bytes, filename: str, collection: str = "default", progress: Progress | None = None,
               here: bool = False, **chunking) -> IngestResult:
        """:meth:`services.ingest.Ingestion.ingest`: in this process, or with PostgreSQL by a worker unless
        ``here`` (the evaluation, which measures the pipeline rather than the queue)."""
        return (self.ingestion if here else self.uploads).ingest(data, filename, collection, progress, **chunking)

    def answer(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
               top_k: int | None = None, mode: str = "hybrid", conversation_id: str | None = None,
               rerank: bool = True) -> AnswerResult:
        """:meth:`services.query.Questions.answer` of the question checked by :meth:`~services.query.Questions.ask`."""
        return self.questions.answer(self.questions.ask(question, collection, doc_ids, top_k, mode, conversation_id,
                                                        rerank))

    def answer_stream(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
                      top_k: int | None = None, mode: str = "hybrid", conversation_id: str | None = None,
                      rerank: bool = True) -> Iterator[Event]:
        """:meth:`services.query.Questions.stream` of the question checked by :meth:`~services.query.Questions.ask`."""
        return self.questions.stream(self.questions.ask(question, collection, doc_ids, top_k, mode, conversation_id,
                                                        rerank))

    def search(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
               top_k: int | None = None, mode: str = "hybrid", rerank: bool = True) -> SearchResult:
        """:meth:`services.query.Questions.search` of the question checked by :meth:`~services.query.Questions.ask`."""
        return self.questions.search(self.questions.ask(question, collection, doc_ids, top_k, mode, rerank=rerank))

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """The records of ``collection``'s documents (every collection's when ``None``)."""
        return self.ingestion.documents(collection)

    def index_samples(self, collection: str = "default") -> list[IngestResult]:
        """:meth:`services.ingest.Ingestion.index_samples`."""
        return self.ingestion.index_samples(collection)

    # -- status ----------------------------------------------------------------------------------------------
    def stats(self) -> dict:
        """What ``/stats`` shows: collections (keyed ones counted, never named), models, OCR, settings."""
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
                "embedding": {"model": self.embedder.name, "loaded": True, "dim": self.embedder.dim,
                              "backend": self.embedder.backend},
                "reranker": {"model": self.reranker.model_name, "loaded": self.reranker.loaded,
                             "error": self.reranker.error},
                "llm": {"model": s.llm_model, "configured": self.llm is not None,
                        "base_url": self.llm.base_url if self.llm else None,
                        "note": "answers are written by the LLM from the passages, citations checked"
                        if self.llm else "no LLM configured (RAG_LLM_API_KEY or GROQ_API_KEY): answers are extractive "
                        "(quoted from the document)"},
            },
            "ocr": {"engine": "rapidocr", "enabled": s.ocr_enabled, "max_pages": s.ocr_max_pages,
                    "installed": importlib.util.find_spec("rapidocr") is not None},
            "answer_mode": self.questions.mode,
            # With PostgreSQL: workers alive and uploads being indexed by any process (RAG_MAX_CONCURRENT_INGESTS).
            "queue": {"workers": self.uploads.workers(), "ingesting": self.ingestion.slots.busy}
            if s.database_url else None,
            "samples": self.ingestion.samples_status,
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
