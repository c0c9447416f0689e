"""Where collections of indexed documents live.

The searcher talks only to :class:`Store`: add and delete documents, list them, and two searches (by vector and by
keywords). :class:`LocalStore` keeps everything in memory (FAISS ``IndexFlatIP`` and BM25) and on disk under
``RAG_DATA_DIR``; a server-grade backend (PostgreSQL with pgvector and full-text search) implements the same methods.

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
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import secrets
import shutil
import threading
import time
from abc import ABC, abstractmethod
from pathlib import Path

import faiss
import numpy as np

from ingestion.chunking import Chunk
from retrieval.collection_index import CollectionIndex, make_part
from retrieval.sentence_index import SentenceVectors
from retrieval.store_files import (ANY, ORIGINAL, CollectionDamaged, CollectionGone, Damage, DamagedDocument,
                                   DocumentRecord, damaged_manifest, load_documents, read_manifest, refuse_if_changed,
                                   write_atomic, write_document_files, writing)

__all__ = ["ORIGINAL", "CollectionGone", "DamagedDocument", "DocumentRecord", "LocalStore", "Store"]
COLLECTION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # matched whole (fullmatch)


class UnknownCollection(LookupError):
    pass


class UnknownDocument(LookupError):
    pass


def validate_collection_name(name: str) -> str:
    """``name`` if it is a valid collection name, checked whole ("abc\\n" is not "abc").

    >>> validate_collection_name("reports-2023")
    'reports-2023'
    >>> validate_collection_name("default\\n")
    Traceback (most recent call last):
    ...
    ValueError: Invalid collection name 'default\\n': use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.
    """
    if not isinstance(name, str) or not name:
        raise ValueError("The collection name is empty: give a name (1-64 letters, digits, '.', '_' or '-'), or "
                         "leave the field out to use 'default'.")
    if not COLLECTION_NAME.fullmatch(name):
        raise ValueError(
            f"Invalid collection name {name!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter "
            "or digit."
        )
    return name


def missing_collection(name: str) -> str:
    """The one message for a collection that does not exist (or that the caller's key does not open)."""
    return f"Collection {name!r} does not exist; upload a document to it first."


class Store(ABC):
    """The interface the pipeline and searcher rely on."""

    @abstractmethod
    def collections(self) -> list[str]: ...

    @abstractmethod
    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """Documents of one collection, or of all collections when ``None``."""

    @abstractmethod
    def find_by_sha(self, collection: str, sha256: str) -> DocumentRecord | None: ...

    @abstractmethod
    def key_hash(self, collection: str) -> str | None:
        """The SHA-256 (hex) of the key that opens ``collection``, or ``None`` when it is open to all."""

    @abstractmethod
    def claim(self, collection: str, key_hash: str) -> bool:
        """Create ``collection`` needing the key hashing to ``key_hash`` if it does not exist yet (one step, saved at
        once); ``True`` if it was created now or already held that key."""

    @abstractmethod
    def create_session(self, collection: str) -> int | None:
        """Create a UI session's collection (marked so, with a key nobody holds); its generation, or ``None``."""

    @abstractmethod
    def session_collections(self) -> list[str]: ...

    @abstractmethod
    def generation(self, collection: str) -> int | None:
        """What identifies this life of ``collection`` (``None``: none); new when it is created again."""

    @abstractmethod
    def damaged(self, collection: str | None = None) -> list[DamagedDocument]:
        """Documents (and unreadable manifests) set aside when the store opened, with the reason."""

    @abstractmethod
    def document_data(self, doc_id: str) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
        """A document's record, chunks and vectors (to copy it into another collection without re-embedding)."""

    @abstractmethod
    def document_sentences(self, doc_id: str) -> SentenceVectors | None:
        """A document's sentence vectors (``None`` when it was indexed without them)."""

    @abstractmethod
    def add_document(self, record: DocumentRecord, chunks: list[Chunk], vectors: np.ndarray,
                     sentences: SentenceVectors | None = None, original: bytes | None = None, *,
                     expect: int | None | object = ANY) -> None:
        """Index a document; atomic: after a crash (or a full disk) it is either wholly there or not at all.
        ``original`` (the upload) is kept to show cited pages. ``expect``: the collection's :meth:`generation` when
        the upload started (:class:`CollectionGone` if it was deleted or created with a key since)."""

    @abstractmethod
    def delete_document(self, doc_id: str) -> DocumentRecord: ...

    @abstractmethod
    def delete_collection(self, collection: str) -> list[DocumentRecord]:
        """Remove a collection and every document in it; returns what was removed."""

    @abstractmethod
    def original(self, doc_id: str) -> bytes | None:
        """The file a document was indexed from, or ``None`` when it was not kept."""

    @abstractmethod
    def semantic_search(self, collection: str, vector: np.ndarray, k: int,
                        doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        """The ``k`` chunks with the highest cosine similarity to ``vector`` (unit length)."""

    @abstractmethod
    def keyword_search(self, collection: str, tokens: list[str], k: int,
                       doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        """The ``k`` chunks with the highest BM25 score for ``tokens`` (zero scores left out)."""

    @abstractmethod
    def passages_with(self, collection: str, terms: list[str], doc_ids: list[str] | None = None,
                      first_page: bool = False) -> int:
        """How many chunks (of ``doc_ids``, or of the whole collection; only those on a first page when
        ``first_page``) hold any of ``terms``."""

    @abstractmethod
    def passage_vectors(self, collection: str, chunk_ids: list[str]) -> np.ndarray:
        """The stored vectors of these chunks, in order."""

    @abstractmethod
    def passage_scores(self, collection: str, vector: np.ndarray,
                       chunk_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """For each chunk id: its cosine with ``vector`` and its best sentence's (NaN when it has no sentence
        vectors)."""

    @abstractmethod
    def sentence_vectors(self, chunk: Chunk) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        """Offsets and vectors of a chunk's stored sentences, or ``None`` when there are none."""

    def chunk_count(self, collection: str | None = None) -> int:
        return sum(d.chunks for d in self.documents(collection))


class LocalStore(Store):
    """FAISS + BM25 in memory, files on disk.

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
        self._keys: dict[str, str] = {}  # collection -> SHA-256 of its key; saved in its manifest
        self._sessions: set[str] = set()  # the UI's session collections; saved in their manifests
        self._generations: dict[str, int] = {}
        self._counter = itertools.count(1)
        # collection -> doc id -> what was set aside at load; doc id None: the collection's manifest itself
        self._damaged: dict[str, dict[str | None, DamagedDocument]] = {}
        (self.root / "collections").mkdir(parents=True, exist_ok=True)
        for folder in sorted((self.root / "collections").iterdir()):
            if (folder / "manifest.json").exists():
                self._open(folder.name)
            elif folder.is_dir():  # a first document or a collection delete interrupted by a crash
                shutil.rmtree(folder, ignore_errors=True)

    # -- disk ------------------------------------------------------------------------------------------------
    def _dir(self, collection: str) -> Path:
        return self.root / "collections" / collection

    def _open(self, collection: str) -> None:
        """Load one collection; an unreadable manifest sets the whole collection aside, its files untouched."""
        path = self._dir(collection) / "manifest.json"
        try:
            manifest = read_manifest(path)
        except Damage as exc:
            self._damaged[collection] = {None: damaged_manifest(collection, path, exc)}
            return
        if manifest.get("key_sha256"):
            self._keys[collection] = manifest["key_sha256"]
        if manifest.get("session"):
            self._sessions.add(collection)
        loaded, self._damaged[collection] = load_documents(collection, self._dir(collection) / "docs",
                                                           manifest["documents"], self.dim)
        records = {record.doc_id: record for record, *_ in loaded}
        parts = {record.doc_id: make_part(chunks, vectors, sentences, self.keyword_prefix, self.keyword_section)
                 for record, chunks, vectors, sentences in loaded}
        self._indexes[collection] = CollectionIndex(records, parts, self.dim, self.k1, self.b)
        self._generations[collection] = next(self._counter)
        self._remove_orphans(collection)

    def _remove_orphans(self, collection: str) -> None:
        named = {r.folder or r.doc_id for r in self._indexes[collection].records.values()}
        named |= {d.folder.removeprefix("docs/") for d in self._damaged.get(collection, {}).values()}
        docs = self._dir(collection) / "docs"
        for folder in docs.iterdir() if docs.exists() else []:
            if folder.name not in named:
                shutil.rmtree(folder, ignore_errors=True)
        for tmp in self._dir(collection).glob(".manifest.json.*"):
            tmp.unlink(missing_ok=True)

    def _write_manifest(self, collection: str, records: dict[str, DocumentRecord]) -> None:
        # Documents set aside stay named, so their folders are kept until they are repaired or deleted.
        aside = [d.entry for d in self._damaged.get(collection, {}).values()
                 if d.doc_id is not None and d.doc_id not in records]
        body = json.dumps({"documents": [r.to_dict() for r in records.values()] + aside,
                           "key_sha256": self._keys.get(collection), "session": collection in self._sessions},
                          ensure_ascii=False, indent=1)
        self._dir(collection).mkdir(parents=True, exist_ok=True)
        write_atomic(self._dir(collection) / "manifest.json", body.encode("utf-8"))

    def _refuse_damaged(self, collection: str) -> None:
        if (aside := self._damaged.get(collection, {}).get(None)) is not None:
            raise CollectionDamaged(f"Collection {collection!r} cannot take uploads: {aside.reason}")

    # -- Store -----------------------------------------------------------------------------------------------
    def collections(self) -> list[str]:
        return sorted(self._indexes)

    def _index(self, collection: str) -> CollectionIndex:
        try:
            return self._indexes[collection]
        except KeyError:
            raise UnknownCollection(missing_collection(collection)) from None

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        names = self.collections() if collection is None else [collection]
        return [r for name in names for r in self._index(name).records.values()]

    def key_hash(self, collection: str) -> str | None:
        return self._keys.get(collection)

    def claim(self, collection: str, key_hash: str, *, session: bool = False) -> bool:
        with self._lock:
            self._refuse_damaged(collection)
            if collection in self._indexes:
                return self._keys.get(collection) == key_hash
            validate_collection_name(collection)
            self._keys[collection] = key_hash
            if session:
                self._sessions.add(collection)
            try:  # the collection exists, with its key, once this manifest is on disk: never without it
                with writing(f"collection {collection!r} was not created"):
                    self._write_manifest(collection, {})
            except BaseException:
                self._keys.pop(collection, None)
                self._sessions.discard(collection)
                if not (self._dir(collection) / "manifest.json").exists():
                    shutil.rmtree(self._dir(collection), ignore_errors=True)
                raise
            self._indexes[collection] = CollectionIndex({}, {}, self.dim, self.k1, self.b)
            self._generations[collection] = next(self._counter)
            return True

    def create_session(self, collection: str) -> int | None:
        with self._lock:
            if collection in self._indexes or collection in self._damaged:
                return None
            self.claim(collection, secrets.token_hex(32), session=True)  # the hash of a key nobody holds
            return self._generations[collection]

    def session_collections(self) -> list[str]:
        return sorted(self._sessions & set(self._indexes))

    def generation(self, collection: str) -> int | None:
        with self._lock:
            self._refuse_damaged(collection)
            return self._generations.get(collection)

    def damaged(self, collection: str | None = None) -> list[DamagedDocument]:
        names = sorted(self._damaged) if collection is None else [collection]
        return [dataclasses.replace(d, keyed=d.keyed or name in self._keys)
                for name in names for d in self._damaged.get(name, {}).values()]

    def find_by_sha(self, collection: str, sha256: str) -> DocumentRecord | None:
        index = self._indexes.get(collection)
        return next((r for r in index.records.values() if r.sha256 == sha256), None) if index else None

    def _locate(self, doc_id: str) -> CollectionIndex:
        for index in self._indexes.values():
            if doc_id in index.records:
                return index
        raise UnknownDocument(f"Document {doc_id!r} does not exist.")

    def document_data(self, doc_id: str) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
        index = self._locate(doc_id)
        part = index.parts[doc_id]
        return index.records[doc_id], part.chunks, part.vectors

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
        with self._lock:
            collection = validate_collection_name(record.collection)
            self._refuse_damaged(collection)
            refuse_if_changed(collection, expect, self._generations.get(collection), collection in self._keys,
                              record.filename)
            current = self._indexes.get(collection)
            previous = current.records.get(record.doc_id) if current else None
            record.folder = f"{record.doc_id}.{time.time_ns():x}"
            folder = self._dir(collection) / "docs" / record.folder
            try:
                with writing(f"{record.filename!r} was not indexed"):
                    record.files = write_document_files(folder, chunks, vectors, sentences, original)
                    records = dict(current.records) if current else {}
                    parts = dict(current.parts) if current else {}
                    records[record.doc_id] = record
                    parts[record.doc_id] = make_part(chunks, vectors, sentences, self.keyword_prefix,
                                                     self.keyword_section)
                    # Built before anything is visible.
                    index = CollectionIndex(records, parts, self.dim, self.k1, self.b)
                    self._write_manifest(collection, records)
            except BaseException:  # nothing left behind: the manifest still names what it named before
                shutil.rmtree(folder, ignore_errors=True)
                if current is None and not (self._dir(collection) / "manifest.json").exists():
                    shutil.rmtree(self._dir(collection), ignore_errors=True)
                raise
            self._indexes[collection] = index
            self._generations.setdefault(collection, next(self._counter))
            repaired = self._damaged.get(collection, {}).pop(record.doc_id, None)
            for old in ([previous.folder or previous.doc_id] if previous else []) + \
                    ([repaired.folder.removeprefix("docs/")] if repaired else []):
                # replaced or repaired: its files are no longer named by the manifest
                shutil.rmtree(self._dir(collection) / "docs" / old, ignore_errors=True)

    def delete_document(self, doc_id: str) -> DocumentRecord:
        with self._lock:
            current = self._locate(doc_id)
            record = current.records[doc_id]
            records = {k: v for k, v in current.records.items() if k != doc_id}
            parts = {k: v for k, v in current.parts.items() if k != doc_id}
            index = CollectionIndex(records, parts, self.dim, self.k1, self.b)
            with writing(f"{record.filename!r} was not deleted"):
                self._write_manifest(record.collection, records)
            self._indexes[record.collection] = index
            shutil.rmtree(self._dir(record.collection) / "docs" / (record.folder or doc_id), ignore_errors=True)
            return record

    def delete_collection(self, collection: str) -> list[DocumentRecord]:
        with self._lock:
            index = self._indexes.pop(collection, None)
            if index is None:
                raise UnknownCollection(missing_collection(collection))
            self._keys.pop(collection, None)
            self._sessions.discard(collection)
            self._generations.pop(collection, None)
            self._damaged.pop(collection, None)
            # The manifest goes first: a crash after it leaves only unnamed folders, removed when the store opens.
            (self._dir(collection) / "manifest.json").unlink(missing_ok=True)
            shutil.rmtree(self._dir(collection), ignore_errors=True)
            return list(index.records.values())

    def original(self, doc_id: str) -> bytes | None:
        index = self._locate(doc_id)
        record = index.records[doc_id]
        path = self._dir(record.collection) / "docs" / (record.folder or doc_id) / ORIGINAL
        return path.read_bytes() if path.exists() else None

    def semantic_search(self, collection, vector, k, doc_ids=None):
        index = self._index(collection)
        rows = index.rows_for(doc_ids)
        n = len(index.chunks) if rows is None else len(rows)
        if n == 0:
            return []
        params = None
        if rows is not None:
            params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(rows.astype(np.int64)))
        scores, ids = index.faiss.search(vector.reshape(1, -1).astype(np.float32), min(k, n), params=params)
        return [(index.chunks[i], float(s)) for s, i in zip(scores[0], ids[0]) if i >= 0]

    @staticmethod
    def _rows(index: CollectionIndex, chunk_ids: list[str]) -> np.ndarray:
        return np.array([index.row_of[cid] for cid in chunk_ids], dtype=np.int64)

    def passage_vectors(self, collection, chunk_ids):
        index = self._index(collection)
        rows = self._rows(index, chunk_ids)
        return index.faiss.reconstruct_batch(rows) if len(rows) else np.zeros((0, self.dim), dtype=np.float32)

    def passage_scores(self, collection, vector, chunk_ids):
        index = self._index(collection)
        rows = self._rows(index, chunk_ids)
        if not len(rows):
            return np.zeros(0), np.zeros(0)
        cosines = index.faiss.reconstruct_batch(rows) @ vector.astype(np.float32)
        return cosines.astype(float), index.sentences.best(rows, vector.astype(np.float32))

    def sentence_vectors(self, chunk):
        index = next((i for i in self._indexes.values() if chunk.doc_id in i.records), None)
        row = index.row_of.get(chunk.chunk_id) if index else None
        if row is None:
            return None
        spans, vectors = index.sentences.of(row)
        return (spans, vectors) if spans else None

    def keyword_search(self, collection, tokens, k, doc_ids=None):
        index = self._index(collection)
        return [(index.chunks[row], score) for row, score in index.bm25.search(tokens, k, index.rows_for(doc_ids))]

    def passages_with(self, collection, terms, doc_ids=None, first_page=False):
        index = self._index(collection)
        rows = index.bm25.rows_with(terms)
        if first_page:
            rows = np.intersect1d(rows, index.first_page_rows, assume_unique=True)
        scope = index.rows_for(doc_ids)
        return int(len(rows) if scope is None else np.isin(rows, scope, assume_unique=True).sum())

