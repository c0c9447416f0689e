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
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

import faiss
import numpy as np

from ingestion.chunking import Chunk
from retrieval.keyword_index import KeywordIndex
from retrieval.sentence_index import CollectionSentences, SentenceVectors
from retrieval.tokenize import tokenize

ORIGINAL = "original"  # the uploaded file, in the document's folder
COLLECTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class UnknownCollection(LookupError):
    pass


class UnknownDocument(LookupError):
    pass


@dataclass
class DocumentRecord:
    """What the store knows about one indexed document."""

    doc_id: str
    filename: str
    collection: str
    sha256: str
    pages: int
    chunks: int
    added_at: float
    strategy: str = "recursive_char"
    chunk_size: int = 0
    chunk_overlap: int = 0
    warnings: list[str] = field(default_factory=list)
    title: str = ""
    ocr_pages: list[int] = field(default_factory=list)
    unread_pages: list[int] = field(default_factory=list)
    folder: str = ""  # where its files are, under docs/ (set by the store)

    def to_dict(self) -> dict:
        return asdict(self)


def validate_collection_name(name: str) -> str:
    if not COLLECTION_NAME.match(name or ""):
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
        """Make ``collection`` need the key hashing to ``key_hash`` if it does not exist yet; ``True`` if it was
        claimed now or already held that key."""

    @abstractmethod
    def document_data(self, doc_id: str) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
        """A document's record, chunks and vectors (to copy it into another collection without re-embedding)."""

    @abstractmethod
    def document_sentences(self, doc_id: str) -> SentenceVectors | None:
        """A document's sentence vectors (``None`` when it was indexed without them)."""

    @abstractmethod
    def add_document(self, record: DocumentRecord, chunks: list[Chunk], vectors: np.ndarray,
                     sentences: SentenceVectors | None = None, original: bytes | None = None) -> None:
        """Index a document; atomic: after a crash it is either wholly there or not at all. ``original`` (the
        uploaded file) is kept so that cited pages can be shown."""

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
    def passages_with(self, collection: str, terms: list[str], doc_ids: list[str] | None = None) -> int:
        """How many chunks (of ``doc_ids``, or of the whole collection) hold any of ``terms``."""

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


class _Part(NamedTuple):
    """One document in memory. Its BM25 terms are kept so that rebuilding the collection index after an add or a
    delete does not tokenise every other document again (at 100k chunks that took 12 s of a 17 s rebuild)."""

    chunks: list[Chunk]
    vectors: np.ndarray
    sentences: SentenceVectors | None
    tokens: list[list[str]]


def _part(chunks: list[Chunk], vectors: np.ndarray, sentences: SentenceVectors | None, keyword_prefix: bool,
          keyword_section: bool = False) -> _Part:
    def indexed(c: Chunk) -> str:
        if keyword_prefix:
            return f"{c.prefix}\n{c.text}"
        return f"{c.section}\n{c.text}" if keyword_section and c.section else c.text

    return _Part(chunks, vectors.astype(np.float32), sentences, [tokenize(indexed(c)) for c in chunks])


class _CollectionIndex:
    """Immutable in-memory index of one collection; rebuilt and swapped whole on every change."""

    def __init__(self, records: dict[str, DocumentRecord], parts: dict[str, _Part], dim: int, k1: float, b: float):
        self.records = records
        self.parts = parts
        self.chunks: list[Chunk] = [c for doc_id in records for c in parts[doc_id].chunks]
        self.doc_of_row = np.array([c.doc_id for c in self.chunks], dtype=object)
        self.row_of = {c.chunk_id: row for row, c in enumerate(self.chunks)}
        self.sentences = CollectionSentences([(len(parts[d].chunks), parts[d].sentences) for d in records], dim)
        self.faiss = faiss.IndexFlatIP(dim)
        if self.chunks:
            self.faiss.add(np.vstack([parts[doc_id].vectors for doc_id in records]))
        self.bm25 = KeywordIndex([t for doc_id in records for t in parts[doc_id].tokens], k1=k1, b=b)

    def rows_for(self, doc_ids: list[str] | None) -> np.ndarray | None:
        if doc_ids is None:
            return None
        return np.flatnonzero(np.isin(self.doc_of_row, list(doc_ids)))


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
        self._indexes: dict[str, _CollectionIndex] = {}
        self._keys: dict[str, str] = {}  # collection -> SHA-256 of its key; saved in its manifest
        (self.root / "collections").mkdir(parents=True, exist_ok=True)
        for folder in sorted((self.root / "collections").iterdir()):
            if (folder / "manifest.json").exists():
                self._indexes[folder.name] = self._load(folder.name)
                self._remove_orphans(folder.name)
            elif folder.is_dir():  # a first document or a collection delete interrupted by a crash
                shutil.rmtree(folder, ignore_errors=True)

    # -- disk ------------------------------------------------------------------------------------------------
    def _dir(self, collection: str) -> Path:
        return self.root / "collections" / collection

    def _load(self, collection: str) -> _CollectionIndex:
        manifest = json.loads((self._dir(collection) / "manifest.json").read_text())
        if manifest.get("key_sha256"):
            self._keys[collection] = manifest["key_sha256"]
        records, parts = {}, {}
        for data in manifest["documents"]:
            record = DocumentRecord(**data)
            folder = self._dir(collection) / "docs" / (record.folder or record.doc_id)
            with open(folder / "chunks.jsonl", encoding="utf-8") as fh:
                chunks = [Chunk.from_dict(json.loads(line)) for line in fh]
            records[record.doc_id] = record
            sentences = SentenceVectors.from_file(folder / "sentences.npz") \
                if (folder / "sentences.npz").exists() else None
            parts[record.doc_id] = _part(chunks, np.load(folder / "vectors.npy"), sentences, self.keyword_prefix,
                                         self.keyword_section)
        return _CollectionIndex(records, parts, self.dim, self.k1, self.b)

    def _remove_orphans(self, collection: str) -> None:
        named = {r.folder or r.doc_id for r in self._indexes[collection].records.values()}
        docs = self._dir(collection) / "docs"
        for folder in docs.iterdir() if docs.exists() else []:
            if folder.name not in named:
                shutil.rmtree(folder, ignore_errors=True)
        for tmp in self._dir(collection).glob(".manifest.json.*"):
            tmp.unlink(missing_ok=True)

    @staticmethod
    def _write_atomic(path: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _write_manifest(self, collection: str, records: dict[str, DocumentRecord]) -> None:
        body = json.dumps({"documents": [r.to_dict() for r in records.values()],
                           "key_sha256": self._keys.get(collection)}, ensure_ascii=False, indent=1)
        self._dir(collection).mkdir(parents=True, exist_ok=True)
        self._write_atomic(self._dir(collection) / "manifest.json", body.encode("utf-8"))

    # -- Store -----------------------------------------------------------------------------------------------
    def collections(self) -> list[str]:
        return sorted(self._indexes)

    def _index(self, collection: str) -> _CollectionIndex:
        try:
            return self._indexes[collection]
        except KeyError:
            raise UnknownCollection(missing_collection(collection)) from None

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        names = self.collections() if collection is None else [collection]
        return [r for name in names for r in self._index(name).records.values()]

    def key_hash(self, collection: str) -> str | None:
        return self._keys.get(collection)

    def claim(self, collection: str, key_hash: str) -> bool:
        with self._lock:
            if collection not in self._indexes and collection not in self._keys:
                # Held in memory until the first document's manifest records it; a restart before that frees it.
                self._keys[collection] = key_hash
            return self._keys.get(collection) == key_hash

    def find_by_sha(self, collection: str, sha256: str) -> DocumentRecord | None:
        index = self._indexes.get(collection)
        return next((r for r in index.records.values() if r.sha256 == sha256), None) if index else None

    def _locate(self, doc_id: str) -> _CollectionIndex:
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
                     sentences: SentenceVectors | None = None, original: bytes | None = None) -> None:
        if vectors.shape != (len(chunks), self.dim):
            raise ValueError(f"expected {len(chunks)} vectors of size {self.dim}, got {vectors.shape}")
        if sentences is not None and len(sentences) and (
                sentences.vectors.shape[1] != self.dim or sentences.owner.max() >= len(chunks)):
            raise ValueError("sentence vectors do not match the document's chunks or the embedding size")
        with self._lock:
            collection = validate_collection_name(record.collection)
            current = self._indexes.get(collection)
            previous = current.records.get(record.doc_id) if current else None
            record.folder = f"{record.doc_id}.{time.time_ns():x}"
            folder = self._dir(collection) / "docs" / record.folder
            folder.mkdir(parents=True)
            lines = "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks)
            self._write_atomic(folder / "chunks.jsonl", lines.encode("utf-8"))
            buf = _npy_bytes(vectors.astype(np.float32))
            self._write_atomic(folder / "vectors.npy", buf)
            if sentences is not None:
                self._write_atomic(folder / "sentences.npz", sentences.to_bytes())
            if original is not None:
                self._write_atomic(folder / ORIGINAL, original)
            records = dict(current.records) if current else {}
            parts = dict(current.parts) if current else {}
            records[record.doc_id] = record
            parts[record.doc_id] = _part(chunks, vectors, sentences, self.keyword_prefix, self.keyword_section)
            # Built before anything is visible.
            index = _CollectionIndex(records, parts, self.dim, self.k1, self.b)
            self._write_manifest(collection, records)
            self._indexes[collection] = index
            if previous:  # replaced: its files are no longer named by the manifest
                shutil.rmtree(self._dir(collection) / "docs" / (previous.folder or previous.doc_id),
                              ignore_errors=True)

    def delete_document(self, doc_id: str) -> DocumentRecord:
        with self._lock:
            current = self._locate(doc_id)
            record = current.records[doc_id]
            records = {k: v for k, v in current.records.items() if k != doc_id}
            parts = {k: v for k, v in current.parts.items() if k != doc_id}
            index = _CollectionIndex(records, parts, self.dim, self.k1, self.b)
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
    def _rows(index: _CollectionIndex, chunk_ids: list[str]) -> np.ndarray:
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

    def passages_with(self, collection, terms, doc_ids=None):
        index = self._index(collection)
        rows = index.bm25.rows_with(terms)
        scope = index.rows_for(doc_ids)
        return int(len(rows) if scope is None else np.isin(rows, scope, assume_unique=True).sum())


def _npy_bytes(array: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()
