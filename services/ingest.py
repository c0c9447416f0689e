"""Uploads, from bytes to a searchable document: check, de-duplicate, read, chunk, embed, store.

One :class:`Ingestion` per process serves the HTTP API, the UI and the CLI alike, so the limits it applies (the
number of documents read at once, identical uploads joined) hold whoever sends the file.

An upload goes: cheap checks (collection name, strategy, sizes) -> the same file already being indexed into the
same collection is joined (:class:`ingestion.inflight.SingleFlight`) -> the same file already indexed with the same
chunking is returned as it is -> the same file in another collection is copied, vectors and all -> otherwise it is
read (in an isolated process, :mod:`ingestion.isolation`), chunked, embedded and written in one step.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import threading
import time
from pathlib import Path

from core.answers import IngestResult
from core.errors import NoTextLayer, ServerBusy
from core.types import DamagedDocument, DocumentRecord
from ingestion.chunking import check_strategy, chunk_pages
from ingestion.inflight import SingleFlight
from ingestion.isolation import ParseLimits, read_isolated
from ingestion.pdf.layout_workers import default_workers
from retrieval.embedder import Embedder
from retrieval.sentence_index import SentenceVectors
from retrieval.store_api import Catalog, validate_collection_name
from services.limits import Busy, Slots
from services.progress import IngestProgress, Progress, Rates, Tracker
from settings import Settings

log = logging.getLogger(__name__)

SAMPLE_TYPES = {".pdf", ".txt", ".md"}


def clean_filename(name: str) -> str:
    """The bare file name, without folders or control characters, at most 200 characters.

    >>> clean_filename("C:\\\\Users\\\\me\\\\report.pdf"), clean_filename("../../x\\ty.txt"), clean_filename("")
    ('report.pdf', 'xy.txt', 'upload')
    """
    base = re.split(r"[\\/]", name or "")[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip() or "upload"
    return base[-200:]


def document_id(collection: str, sha256: str) -> str:
    """A document's id: the same file in the same collection always gets the same one."""
    return hashlib.sha256(f"{collection}\0{sha256}".encode()).hexdigest()[:16]


class Ingestion:
    """Adds, lists, copies and removes documents (module docstring)."""

    def __init__(self, settings: Settings, store: Catalog, embedder: Embedder):
        self.settings, self.store, self.embedder = settings, store, embedder
        self._write_lock = threading.Lock()  # store writes one at a time; reading and embedding run in parallel
        # ...but only this many documents at once, whoever sends them (API, UI, CLI): each holds a reading process
        # and its pages in memory.
        if settings.database_url:  # one cap for every process on the database
            from services.shared_limits import SharedSlots

            self.slots = SharedSlots(settings.database_url, settings.max_concurrent_ingests)
        else:
            self.slots = Slots(settings.max_concurrent_ingests)
        self.in_flight: SingleFlight[IngestResult] = SingleFlight()
        self.samples_status = "not requested"
        self.samples_progress: tuple[str, IngestProgress] = ("", IngestProgress())  # the sample being indexed
        self.rates = Rates()  # what reading and embedding have cost here: the uploads' estimates of time left

    def ingest(self, data: bytes, filename: str, collection: str = "default", progress: Progress | None = None,
               *, strategy: str | None = None, chunk_size: int | None = None,
               chunk_overlap: int | None = None) -> IngestResult:
        """Read, chunk, embed and index one file.

        Parameters
        ----------
        data, filename : the upload; the extension decides how it is read.
        collection : where it goes (created on first use).
        progress : called with an :class:`services.progress.IngestProgress` (counts, message, share done, seconds
            left) as pages are read or OCR'd and passages and sentences embedded.
        strategy, chunk_size, chunk_overlap : chunking for this upload; the settings' values when ``None``.

        An identical upload (same bytes, collection and chunking) already in progress is joined: this call waits
        for it and returns its document (``duplicate``), or raises its error.

        Raises
        ------
        core.errors.IngestError
            The file cannot be indexed; nothing already indexed is changed.
        ValueError
            The collection name, strategy or sizes are invalid.
        """
        s = self.settings
        report = Tracker(progress, self.rates)
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
        # The same file arriving again while it is being indexed into the same collection waits for that upload
        # and shares its result: read and embedded once, not twice with the second replacing the first.
        outcome = self.in_flight.run(
            (collection, sha, config),
            lambda: self._ingest_new(data, filename, collection, sha, config, report, t0),
            on_wait=lambda: report.stage("waiting", "Waiting for an identical upload in progress"))
        if not outcome.joined:
            return outcome.value
        report.finish("Indexed (by an identical upload in progress)")
        first = outcome.value
        return dataclasses.replace(first, seconds=time.perf_counter() - t0, duplicate=True, warnings=[
            f"An identical file was being indexed into collection {collection!r} at the same moment (as "
            f"{first.filename!r}); this upload shares its result and was not read or embedded again."])

    def _ingest_new(self, data: bytes, filename: str, collection: str, sha: str, config: tuple, report: Tracker,
                    t0: float) -> IngestResult:
        """:meth:`ingest` after its cheap checks: an identical document already indexed is reused, otherwise the
        file is read and embedded."""
        strategy = config[0]
        generation = self.store.generation(collection)  # into this collection or none (not one re-created since)
        existing = self.store.find_by_sha(collection, sha)
        if existing and (existing.strategy, existing.chunk_size, existing.chunk_overlap) == config:
            report.finish("Already indexed")
            return IngestResult(
                existing.doc_id, existing.filename, collection, existing.pages, existing.chunks,
                self.chunk_ids(existing.doc_id), time.perf_counter() - t0,
                [f"This file is already indexed in collection {collection!r} as {existing.filename!r}; "
                 "it was not embedded again."], duplicate=True, strategy=strategy,
                ocr_pages=existing.ocr_pages, unread_pages=existing.unread_pages)

        twin = None if existing else next(self._twins(sha, config), None)
        if twin is not None:
            # The same file, chunked the same way, in another collection: copy it (milliseconds) rather than read
            # and embed it again (seconds per page).
            copy = self.copy_document(twin.doc_id, collection, filename=filename, expect=generation)
            report.finish("Indexed (copied from an identical upload)")
            elapsed = time.perf_counter() - t0
            return IngestResult(copy.doc_id, copy.filename, collection, copy.pages, copy.chunks,
                                self.chunk_ids(copy.doc_id), elapsed, list(copy.warnings), strategy=strategy,
                                ocr_pages=list(copy.ocr_pages), unread_pages=list(copy.unread_pages),
                                timings={"copy": elapsed})
        try:
            with self.slots.take():
                return self._index(data, filename, collection, sha, config, existing, report, t0, generation)
        except Busy:
            raise self._busy(filename) from None

    def _busy(self, filename: str) -> ServerBusy:
        return ServerBusy(f"'{filename}' was not indexed: {self.settings.max_concurrent_ingests} document(s) are "
                          "being indexed already (RAG_MAX_CONCURRENT_INGESTS). Upload it again in a few seconds.")

    def refuse_if_busy(self, filename: str) -> None:
        """Raise the :class:`ServerBusy` an upload would meet now, for a caller that answers before indexing (a
        background job); the upload itself still takes its slot, so a race ends the same way, in the job."""
        if self.slots.busy >= self.slots.n:
            raise self._busy(clean_filename(filename))

    def _index(self, data: bytes, filename: str, collection: str, sha: str, config: tuple,
               existing: DocumentRecord | None, report: Tracker, t0: float, generation: int | None) -> IngestResult:
        """Read, chunk, embed and store one new file (``ingest`` has checked everything cheap)."""
        s = self.settings
        strategy, size, overlap = config
        doc_id = document_id(collection, sha)
        report.stage("reading", f"Reading {filename}")
        doc = self._read(data, filename, report)
        t1 = time.perf_counter()
        report.stage("chunking", f"Read {doc.page_count} pages; splitting them into passages")
        chunks = chunk_pages(doc.pages, doc_id=doc_id, filename=filename, strategy=strategy, chunk_size=size,
                             chunk_overlap=overlap, embed=self.embedder.encode,
                             semantic_percentile=s.semantic_percentile, semantic_min_chars=s.semantic_min_chars)
        if not chunks:
            raise NoTextLayer(f"'{filename}' has no passages with words to index.")
        t2 = time.perf_counter()
        reused = self._reuse_vectors(sha, config, chunks)
        if reused is None:
            report.passages(0, len(chunks))
            vectors = self.embedder.encode([c.embedding_text() if s.embed_prefix else c.text for c in chunks],
                                           progress=report.passages)
            sentences = SentenceVectors.build(chunks, self.embedder.encode, progress=report.sentences) \
                if s.sentence_vectors else None
        else:
            vectors, sentences = reused
        t3 = time.perf_counter()
        report.stage("indexing", f"Writing the index of {len(chunks)} passages")
        record = DocumentRecord(
            doc_id=doc_id, filename=filename, collection=collection, sha256=sha, pages=doc.page_count,
            chunks=len(chunks), added_at=time.time(), strategy=strategy, chunk_size=size, chunk_overlap=overlap,
            warnings=doc.warnings, title=doc.title, ocr_pages=list(doc.ocr_pages), unread_pages=list(doc.unread_pages))
        with self._write_lock:
            self.store.add_document(record, chunks, vectors, sentences, original=data, expect=generation)
        t4 = time.perf_counter()
        report.finish()
        return IngestResult(doc_id, filename, collection, doc.page_count, len(chunks), [c.chunk_id for c in chunks],
                            t4 - t0, list(doc.warnings), strategy=strategy, ocr_pages=list(doc.ocr_pages),
                            unread_pages=list(doc.unread_pages), replaced=existing is not None,
                            timings={"read": t1 - t0, "chunk": t2 - t1, "embed": t3 - t2, "index": t4 - t3})

    def _read(self, data: bytes, filename: str, report: Tracker):
        """Read the upload, in a limited child process unless ``RAG_PARSE_ISOLATED`` is off."""
        s = self.settings

        def on_page(stage: str, done: int, total: int) -> None:
            (report.ocr if stage == "ocr" else report.pages)(done, total)

        kwargs = dict(max_bytes=int(s.max_upload_mb * 1024 * 1024), garbled_threshold=s.garbled_threshold,
                      ocr=s.ocr_enabled, ocr_max_pages=s.ocr_max_pages, ocr_dpi=s.ocr_dpi, max_pages=s.max_pages,
                      progress=on_page)
        if s.parse_isolated:
            # Helpers are forked from the reading process, never from this one (ingestion.pdf.layout_workers).
            return read_isolated(data, filename, limits=ParseLimits.from_settings(s),
                                 layout_workers=s.layout_workers or default_workers(), **kwargs)
        # Imported here: it imports pymupdf (about 1 s), which a server reading uploads in the reading process
        # (the default) does not need to start.
        from ingestion.reader import read_document

        return read_document(data, filename, **kwargs)

    def chunk_ids(self, doc_id: str) -> list[str]:
        """The ids of a document's passages, in order."""
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

    def copy_document(self, doc_id: str, collection: str, filename: str | None = None, expect=...) -> DocumentRecord:
        """Put an indexed document into another collection too, reusing its vectors (nothing is read or embedded).

        ``filename`` names the copy (default: the original's name). Its passages keep the vectors embedded with the
        original's name in their prefix: a difference of one field in the prefix, not worth embedding again.
        Returns the copy's record; a copy already there is returned as it is. ``expect``: see the store's
        ``add_document``.
        """
        record, chunks, vectors = self.store.document_data(doc_id)
        new_id = document_id(collection, record.sha256)
        existing = self.store.find_by_sha(collection, record.sha256)
        if existing:
            return existing
        name = filename or record.filename
        copies = [dataclasses.replace(c, doc_id=new_id, chunk_id=new_id + c.chunk_id[len(record.doc_id):],
                                      filename=name) for c in chunks]
        copy = dataclasses.replace(record, doc_id=new_id, collection=collection, added_at=time.time(), folder="",
                                   filename=name)
        with self._write_lock:
            self.store.add_document(copy, copies, vectors, self.store.document_sentences(doc_id),
                                    original=self.store.original(doc_id), expect=expect)
        return copy

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """The records of ``collection``'s documents (every collection's when ``None``)."""
        return self.store.documents(collection)

    def damaged(self, collection: str | None = None) -> list[DamagedDocument]:
        """Documents set aside at start because their files are damaged, with the reason (uploading the file
        again repairs one)."""
        return self.store.damaged(collection)

    def delete_document(self, doc_id: str) -> DocumentRecord:
        with self._write_lock:
            return self.store.delete_document(doc_id)

    def delete_collection(self, collection: str) -> list[DocumentRecord]:
        with self._write_lock:
            return self.store.delete_collection(collection)

    def index_samples(self, collection: str = "default") -> list[IngestResult]:
        """Index the bundled sample documents (once: identical files are recognised and skipped)."""
        results = []
        self.samples_status = "indexing"
        try:
            for path in sorted(Path(self.settings.sample_dir).glob("*")):
                if path.suffix.lower() in SAMPLE_TYPES:
                    def report(progress: IngestProgress, name: str = path.name) -> None:
                        self.samples_progress = (name, progress)

                    result = self.ingest(path.read_bytes(), path.name, collection, progress=report)
                    log.info("sample %s: %s pages, %s chunks (%s)", path.name, result.pages, result.chunks,
                             "already indexed" if result.duplicate else f"{result.seconds:.1f} s")
                    results.append(result)
            self.samples_status = "ready"
        except Exception as exc:  # noqa: BLE001 - a broken sample must not stop the server
            self.samples_status = f"failed: {exc}"
            log.error("indexing the sample documents failed: %s", exc)
        return results

    @property
    def samples_pending(self) -> bool:
        """The samples are to be indexed and are not ready yet (a question may wait for them)."""
        return self.settings.index_samples and self.samples_status in ("not requested", "indexing")
