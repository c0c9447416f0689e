"""The embedded store, the default backend: collections of indexed documents in memory and on disk.

:class:`LocalStore` implements both halves of :class:`retrieval.store_api.Store`: the :class:`Catalog` (collections,
documents, keys, originals, writes) and the :class:`SearchIndex` the searcher reads (exact FAISS inner product and
BM25 per collection, :mod:`retrieval.collection_index`), with every file under ``RAG_DATA_DIR``. A server-grade
backend (PostgreSQL with pgvector and full-text search) implements the same two interfaces.

Each collection's index in memory is a version that is never changed: a write makes the next one from it by the
document added or removed only (0.25 s to add and 0.6 s to remove a 100-passage document at 100,000 passages, where
rebuilding it whole took 6-15 s) and swaps it in under the store's lock, so searches read one whole version without
a lock. The version replaced stays at hand for a moment (:meth:`DiskSync._publish`), for the passages a search
found in it just before.

Disk layout, one folder per collection::

    collections/<name>/manifest.json                  the documents in the collection (the only file ever rewritten)
    collections/<name>/docs/<folder>/chunks.jsonl, vectors.npy, sentences.npz (sentence vectors, optional),
                                     original (the uploaded file, for showing cited pages)

A document's files go into a new folder, then the manifest naming that folder is replaced atomically (write, fsync,
``os.replace``), so a crash at any point leaves the previous manifest, which never names a half-written folder.
Re-indexing a document (another chunking strategy) writes a new folder too; the old one is removed only after the
new manifest is in place. Folders no manifest names (left by a crash) are removed when the store opens.

Damaged files are set aside at load and listed, never loaded (:mod:`retrieval.store_files`). A collection is
created with its key in one step (:meth:`LocalStore.claim`); an upload whose collection was deleted meanwhile is
refused rather than creating it again without its key.

Several processes may use one data folder at once (the server and the CLI): each read first checks, with a stat per
manifest, whether another process changed what it reads, and loads again only the collections (and in them only the
documents) that changed; writers hold the folder's lock between processes (:mod:`retrieval.store_sync`).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import secrets
import shutil
import threading
import time
from pathlib import Path

import numpy as np

from core.errors import CollectionDamaged, UnknownCollection, UnknownDocument
from core.types import Chunk, DamagedDocument, DocumentRecord
from retrieval import heap
from retrieval.collection_index import CollectionIndex
from retrieval.sentence_index import SentenceVectors
from retrieval.store_api import (ANY, Catalog, SearchIndex, Store, missing_collection,
                                 validate_collection_name)
from retrieval.store_files import ORIGINAL, refuse_if_changed, write_atomic, write_document_files, writing
from retrieval.store_sync import DiskLock, DiskSync, ManifestWatch

# The interfaces and the name rule are re-exported: callers that build a store import them from here.
__all__ = ["ANY", "ORIGINAL", "Catalog", "LocalStore", "SearchIndex", "Store", "missing_collection",
           "validate_collection_name"]


class LocalStore(DiskSync, Store):
    """FAISS + BM25 in memory, files on disk: the :class:`Catalog` and :class:`SearchIndex` of one data folder.

    Parameters
    ----------
    root : the data folder (``RAG_DATA_DIR``).
    dim : embedding dimension.
    bm25_k1, bm25_b : BM25 parameters.
    keyword_prefix : index each chunk's contextual prefix (file, page, section) for BM25 along with its text.
    keyword_section : index each chunk's section heading for BM25 along with its text.
    """

    def __init__(self, root: Path, dim: int, bm25_k1: float = 1.5, bm25_b: float = 0.75,
                 keyword_prefix: bool = False, keyword_section: bool = False):
        self.root = Path(root)
        self.keyword_prefix = keyword_prefix
        self.keyword_section = keyword_section
        self.dim = dim
        self.k1, self.b = bm25_k1, bm25_b
        self._lock = threading.RLock()
        self._indexes: dict[str, CollectionIndex] = {}
        self._retired: list = []  # versions just replaced, for the searches that read them (DiskSync._publish)
        self._retired_lock = threading.Lock()
        self._keys: dict[str, str] = {}  # collection -> SHA-256 of its key; saved in its manifest
        self._sessions: set[str] = set()  # the UI's session collections; saved in their manifests
        self._generations: dict[str, int] = {}
        self._created: dict[str, str | None] = {}  # collection -> its life's token; saved in its manifest
        self._counter = itertools.count(1)
        # collection -> doc id -> what was set aside at load; doc id None: the collection's manifest itself
        self._damaged: dict[str, dict[str | None, DamagedDocument]] = {}
        (self.root / "collections").mkdir(parents=True, exist_ok=True)
        self._watch = ManifestWatch(self.root / "collections")
        self._disk = DiskLock(self.root / ".store.lock")
        self._open_all()

    # -- disk (loading and reloading: retrieval.store_sync.DiskSync) -----------------------------------------
    def _write_manifest(self, collection: str, records: dict[str, DocumentRecord]) -> None:
        # Documents set aside stay named, so their folders are kept until they are repaired or deleted.
        aside = [d.entry for d in self._damaged.get(collection, {}).values()
                 if d.doc_id is not None and d.doc_id not in records]
        body = json.dumps({"documents": [r.to_dict() for r in records.values()] + aside,
                           "key_sha256": self._keys.get(collection), "session": collection in self._sessions,
                           "created": self._created.get(collection)}, ensure_ascii=False, indent=1)
        self._dir(collection).mkdir(parents=True, exist_ok=True)
        write_atomic(self._dir(collection) / "manifest.json", body.encode("utf-8"))
        self._watch.note_written(collection)  # this process's own write: nothing to load again

    def _refuse_damaged(self, collection: str) -> None:
        if (aside := self._damaged.get(collection, {}).get(None)) is not None:
            raise CollectionDamaged(f"Collection {collection!r} cannot take uploads: {aside.reason}")

    # -- Catalog -------------------------------------------------------------------------------------------------
    # Reads first take in what another process changed (:meth:`_sync` one collection, :meth:`_sync_names` which
    # collections exist, :meth:`_sync_all` every collection); writes do so under the disk lock, so that they build
    # on what is on disk, not on what this process last saw.
    def collections(self) -> list[str]:
        self._sync_names()
        return sorted(self._indexes)

    def _index(self, collection: str, sync: bool = True) -> CollectionIndex:
        if sync:
            self._sync(collection)
        self._drop_retired()
        try:
            return self._indexes[collection]
        except KeyError:
            raise UnknownCollection(missing_collection(collection)) from None

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        if collection is not None:
            return list(self._index(collection).records.values())
        self._sync_all()
        indexes = dict(self._indexes)
        return [r for name in sorted(indexes) for r in indexes[name].records.values()]

    def key_hash(self, collection: str) -> str | None:
        self._sync(collection)
        return self._keys.get(collection)

    def claim(self, collection: str, key_hash: str, *, session: bool = False) -> bool:
        with self._lock, self._disk.exclusive():
            self._sync(collection)
            self._refuse_damaged(collection)
            if collection in self._indexes:
                return self._keys.get(collection) == key_hash
            validate_collection_name(collection)
            self._keys[collection] = key_hash
            self._created[collection] = secrets.token_hex(8)
            if session:
                self._sessions.add(collection)
            try:  # the collection exists, with its key, once this manifest is on disk: never without it
                with writing(f"collection {collection!r} was not created"):
                    self._write_manifest(collection, {})
            except BaseException:
                self._keys.pop(collection, None)
                self._created.pop(collection, None)
                self._sessions.discard(collection)
                if not (self._dir(collection) / "manifest.json").exists():
                    shutil.rmtree(self._dir(collection), ignore_errors=True)
                raise
            self._publish(collection, CollectionIndex.empty(self._config))
            self._generations[collection] = next(self._counter)
            return True

    def create_session(self, collection: str) -> int | None:
        with self._lock, self._disk.exclusive():
            self._sync(collection)
            if collection in self._indexes or collection in self._damaged:
                return None
            self.claim(collection, secrets.token_hex(32), session=True)  # the hash of a key nobody holds
            return self._generations[collection]

    def session_collections(self) -> list[str]:
        self._sync_names()
        return sorted(self._sessions & set(self._indexes))

    def generation(self, collection: str) -> int | None:
        with self._lock:
            self._sync(collection)
            self._refuse_damaged(collection)
            return self._generations.get(collection)

    def damaged(self, collection: str | None = None) -> list[DamagedDocument]:
        if collection is None:
            self._sync_all()
        else:
            self._sync(collection)
        names = sorted(self._damaged) if collection is None else [collection]
        return [dataclasses.replace(d, keyed=d.keyed or name in self._keys)
                for name in names for d in self._damaged.get(name, {}).values()]

    def find_by_sha(self, collection: str, sha256: str) -> DocumentRecord | None:
        self._sync(collection)
        index = self._indexes.get(collection)
        return next((r for r in index.records.values() if r.sha256 == sha256), None) if index else None

    def _find(self, doc_id: str) -> tuple[str, CollectionIndex] | None:
        return next(((name, index) for name, index in list(self._indexes.items()) if doc_id in index.records), None)

    def _locate(self, doc_id: str) -> CollectionIndex:
        """The index of the collection holding ``doc_id``, as on disk now: its collection is checked when it is
        known here, every collection when it is not."""
        found = self._find(doc_id)
        if found is not None:
            self._sync(found[0])
            found = self._find(doc_id)
        if found is None:
            self._sync_all()
            found = self._find(doc_id)
        if found is None:
            raise UnknownDocument(f"Document {doc_id!r} does not exist.")
        return found[1]

    def document_data(self, doc_id: str) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
        index = self._locate(doc_id)
        return index.records[doc_id], index.document_chunks(doc_id), index.document_vectors(doc_id)

    def document_sentences(self, doc_id: str) -> SentenceVectors | None:
        return self._locate(doc_id).parts[doc_id].sentences

    def add_document(self, record: DocumentRecord, chunks: list[Chunk], vectors: np.ndarray,
                     sentences: SentenceVectors | None = None, original: bytes | None = None, *,
                     expect: int | None | object = ANY) -> None:
        if vectors.shape != (len(chunks), self.dim):
            raise ValueError(f"expected {len(chunks)} vectors of size {self.dim}, got {vectors.shape}")
        if sentences is not None and len(sentences) and (
                sentences.vectors.shape[1] != self.dim or sentences.owner.max() >= len(chunks)):
            raise ValueError("sentence vectors do not match the document's chunks or the embedding size")
        with self._lock, self._disk.exclusive():
            collection = validate_collection_name(record.collection)
            self._sync(collection)
            self._refuse_damaged(collection)
            refuse_if_changed(collection, expect, self._generations.get(collection), collection in self._keys,
                              record.filename)
            current = self._indexes.get(collection)
            base = current if current is not None else CollectionIndex.empty(self._config)
            previous = base.records.get(record.doc_id)
            if current is None:
                self._created[collection] = secrets.token_hex(8)
            record.folder = f"{record.doc_id}.{time.time_ns():x}"
            folder = self._dir(collection) / "docs" / record.folder
            try:
                with writing(f"{record.filename!r} was not indexed"):
                    record.files = write_document_files(folder, chunks, vectors, sentences, original)
                    records = dict(base.records)
                    records[record.doc_id] = record  # a document indexed again keeps its place
                    # Built before anything is visible; only this document is tokenised and added.
                    index = base.updated(records, {record.doc_id: base.prepare(chunks, vectors, sentences)})
                    self._write_manifest(collection, records)
            except BaseException:  # nothing left behind: the manifest still names what it named before
                shutil.rmtree(folder, ignore_errors=True)
                if current is None:
                    self._created.pop(collection, None)
                    if not (self._dir(collection) / "manifest.json").exists():
                        shutil.rmtree(self._dir(collection), ignore_errors=True)
                raise
            self._publish(collection, index)
            self._generations.setdefault(collection, next(self._counter))
            repaired = self._damaged.get(collection, {}).pop(record.doc_id, None)
            for old in ([previous.folder or previous.doc_id] if previous else []) + \
                    ([repaired.folder.removeprefix("docs/")] if repaired else []):
                # replaced or repaired: its files are no longer named by the manifest
                shutil.rmtree(self._dir(collection) / "docs" / old, ignore_errors=True)
        heap.release()  # what this change freed (the index's own copies, the files' bytes) goes back to the system

    def delete_document(self, doc_id: str) -> DocumentRecord:
        with self._lock, self._disk.exclusive():
            current = self._locate(doc_id)
            record = current.records[doc_id]
            records = {k: v for k, v in current.records.items() if k != doc_id}
            index = current.updated(records, {})
            with writing(f"{record.filename!r} was not deleted"):
                self._write_manifest(record.collection, records)
            self._publish(record.collection, index)
            shutil.rmtree(self._dir(record.collection) / "docs" / (record.folder or doc_id), ignore_errors=True)
        heap.release()
        return record

    def delete_collection(self, collection: str) -> list[DocumentRecord]:
        with self._lock, self._disk.exclusive():
            self._sync(collection)
            index = self._indexes.get(collection)
            if index is None:
                raise UnknownCollection(missing_collection(collection))
            self._apply(collection, None)
            # The manifest goes first: a crash after it leaves only unnamed folders, removed when the store opens.
            (self._dir(collection) / "manifest.json").unlink(missing_ok=True)
            shutil.rmtree(self._dir(collection), ignore_errors=True)
        heap.release()
        return list(index.records.values())

    def original(self, doc_id: str) -> bytes | None:
        index = self._locate(doc_id)
        record = index.records[doc_id]
        path = self._dir(record.collection) / "docs" / (record.folder or doc_id) / ORIGINAL
        try:
            return path.read_bytes()
        except FileNotFoundError:  # not kept, or replaced by another process a moment ago
            return None

    # -- SearchIndex: one collection's CollectionIndex, taken whole (a write swaps in a new one) -----------------
    def semantic_search(self, collection: str, vector: np.ndarray, k: int,
                        doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        return self._index(collection).semantic_search(vector, k, doc_ids)

    def keyword_search(self, collection: str, tokens: list[str], k: int,
                       doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        return self._index(collection).keyword_search(tokens, k, doc_ids)

    def passages_with(self, collection: str, terms: list[str], doc_ids: list[str] | None = None,
                      first_page: bool = False) -> int:
        return self._index(collection).passages_with(terms, doc_ids, first_page)

    def chunk_count(self, collection: str, doc_ids: list[str] | None = None) -> int:
        records = self._index(collection).records.values()
        return sum(r.chunks for r in records if doc_ids is None or r.doc_id in doc_ids)

    # The next three take chunk ids from searches just made: they read the index those searches read, not one loaded
    # from disk since. A write of this process may have replaced it meanwhile (between the vector and the keyword
    # search, even): then each passage is read from the version that still holds it (DiskSync._publish).
    def _recent(self, collection: str, chunk_ids: list[str], read) -> tuple[np.ndarray, ...]:
        index = self._index(collection, sync=False)
        try:
            return read(index, chunk_ids)
        except KeyError:
            versions = [index, *self._retired_versions(collection)]
        holder = [next((v for v in versions if v.holds(cid)), None) for cid in chunk_ids]
        if None in holder:
            raise KeyError(chunk_ids[holder.index(None)])
        out = None
        for version in {id(v): v for v in holder}.values():
            at = [i for i, v in enumerate(holder) if v is version]
            found = read(version, [chunk_ids[i] for i in at])
            if out is None:
                out = tuple(np.zeros((len(chunk_ids), *a.shape[1:]), dtype=a.dtype) for a in found)
            for whole, part in zip(out, found):
                whole[at] = part
        return out

    def passage_vectors(self, collection: str, chunk_ids: list[str]) -> np.ndarray:
        return self._recent(collection, chunk_ids, lambda index, ids: (index.passage_vectors(ids),))[0]

    def passage_scores(self, collection: str, vector: np.ndarray,
                       chunk_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        return self._recent(collection, chunk_ids, lambda index, ids: index.passage_scores(vector, ids))

    def sentence_vectors(self, chunk: Chunk) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        index = next((i for i in list(self._indexes.values()) if chunk.doc_id in i.records), None)
        return index.sentence_vectors(chunk) if index else None
