"""One collection's in-memory index (passage vectors, BM25 postings, sentence vectors), changed by what changed.

A :class:`CollectionIndex` is one version of a collection and is never changed: a write makes the next version
with :meth:`CollectionIndex.prepare` and :meth:`CollectionIndex.updated`, and the store swaps it in under its lock.
A search takes one version and reads only it, without a lock, so it never sees half of a change. Rows are the
collection's passages in its order (documents in the order they were first added, each one's passages in order),
exactly as an index built whole would number them, so equal scores break the same way. What the next version
shares with the one before, and what it copies:

==========================  ==================  =====================  ================================  ========================
passages     add 100 passages s  remove 100 passages s  the index adds to the process MB  query p50 / naive p50
             old / new           old / new              old / new                         old / new
===========  ==================  =====================  ================================  ========================
1,000        0.082 / 0.027       0.069 / 0.004          15 / 5                            0.83 / 1.20
10,000       0.63 / 0.036        0.58 / 0.043           160 / 61                          1.57 / 1.35
100,000      6.2 / 0.16          4.6 / 0.42             1,581 / 596                       4.64 / 1.31
===========  ==================  =====================  ================================  ========================

At 100,000 passages the old index held every passage as an object (139 MB), its BM25 token lists (86 MB), and a
second copy of every passage vector (146 MB) and sentence vector (371 MB); now the index holds 146 MB of passage
vectors, 373 MB of sentence vectors, 39 MB of compressed passages, 19 MB of postings and 2 MB of row tables, and the
process with the model loaded takes 1,136 MB after opening the data folder and 1,141 MB after three adds and
removes (2,122 and 2,158 MB before). The same questions get the same hits, scores equal
to 4e-7 (bm25s's float32 before; now rank-bm25's own float64 expression).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from core.types import Chunk, DocumentRecord
from retrieval.keyword_index import KeywordIndex
from retrieval.passage_vectors import PassageVectors
from retrieval.postings import Segment
from retrieval.sentence_index import DocumentSentences, SentenceVectors
from retrieval.stored_chunks import StoredChunks
from retrieval.tokenize import tokenize

__all__ = ["CollectionIndex", "Document", "IndexConfig", "Part"]


@dataclass(frozen=True)
class IndexConfig:
    """How a store builds its collection indexes."""

    dim: int
    k1: float = 1.5
    b: float = 0.75
    keyword_prefix: bool = False  # index each chunk's contextual prefix (file, page, section) for BM25
    keyword_section: bool = False  # index each chunk's section heading for BM25

    def keyword_text(self, c: Chunk) -> str:
        if self.keyword_prefix:
            return f"{c.prefix}\n{c.text}"
        return f"{c.section}\n{c.text}" if self.keyword_section and c.section else c.text


class Part(NamedTuple):
    """One document as an index holds it (its vectors and postings are in the collection's structures)."""

    chunks: StoredChunks
    sentences: SentenceVectors | None  # as given to the store
    by_passage: DocumentSentences | None


class ChunkIds(NamedTuple):
    """Chunk id -> row, without a string per passage: 64-bit string hashes, sorted, with a CRC-32 of each id to
    tell two ids of the same hash apart (12 bytes a passage, where a dictionary took ~130)."""

    hashes: np.ndarray  # int64, sorted
    checks: np.ndarray  # uint32
    rows: np.ndarray  # int64

    @classmethod
    def of(cls, chunk_ids: list[str], base: int = 0) -> "ChunkIds":
        hashes = np.fromiter(map(hash, chunk_ids), dtype=np.int64, count=len(chunk_ids))
        checks = np.fromiter((zlib.crc32(c.encode()) for c in chunk_ids), dtype=np.uint32, count=len(chunk_ids))
        order = np.argsort(hashes, kind="stable")
        return cls(hashes[order], checks[order], order.astype(np.int64) + base)

    @classmethod
    def joined(cls, parts: list["ChunkIds"]) -> "ChunkIds":
        if len(parts) == 1:
            return parts[0]
        hashes = np.concatenate([p.hashes for p in parts])
        order = np.argsort(hashes, kind="stable")
        return cls(hashes[order], np.concatenate([p.checks for p in parts])[order],
                   np.concatenate([p.rows for p in parts])[order])

    def renumbered(self, new_row: np.ndarray) -> "ChunkIds":
        """Rows mapped through ``new_row`` (old row -> new row, -1: removed)."""
        rows = new_row[self.rows]
        keep = rows >= 0
        return ChunkIds(self.hashes[keep], self.checks[keep], rows[keep])

    def merged(self, other: "ChunkIds") -> "ChunkIds":
        at = np.searchsorted(self.hashes, other.hashes)
        return ChunkIds(np.insert(self.hashes, at, other.hashes), np.insert(self.checks, at, other.checks),
                        np.insert(self.rows, at, other.rows))

    def find(self, chunk_ids: list[str]) -> np.ndarray:
        """The row of each id, -1 for an id not here (vectorised; ids of equal hash are told apart by the check)."""
        if not len(self.hashes):
            return np.full(len(chunk_ids), -1, dtype=np.int64)
        hashes = np.fromiter(map(hash, chunk_ids), dtype=np.int64, count=len(chunk_ids))
        checks = np.fromiter((zlib.crc32(c.encode()) for c in chunk_ids), dtype=np.uint32, count=len(chunk_ids))
        at = np.minimum(np.searchsorted(self.hashes, hashes), len(self.hashes) - 1)
        rows = np.where((self.hashes[at] == hashes) & (self.checks[at] == checks), self.rows[at], -1)
        for i in np.flatnonzero((rows < 0) & (self.hashes[at] == hashes)).tolist():  # another id of the same hash
            j = int(at[i])
            while j < len(self.hashes) and self.hashes[j] == hashes[i]:
                if self.checks[j] == checks[i]:
                    rows[i] = self.rows[j]
                    break
                j += 1
        return rows


class Document(NamedTuple):
    """A document made ready to go into an index by :meth:`CollectionIndex.prepare` (tokenised, compacted)."""

    part: Part
    vectors: np.ndarray
    postings: Segment
    first_page: np.ndarray  # bool per passage: starts on page 1
    ids: ChunkIds  # rows local to the document


class CollectionIndex:
    """One version of one collection's index; make the next with :meth:`prepare` and :meth:`updated`."""

    def __init__(self, config: IndexConfig, records: dict[str, DocumentRecord], parts: dict[str, Part],
                 vectors: PassageVectors, bm25: KeywordIndex, first_page: np.ndarray, ids: ChunkIds):
        self.config = config
        self.records = records
        self.parts = parts
        self.vectors = vectors
        self.bm25 = bm25
        self.first_page = first_page  # bool per row: the passage starts on page 1 (what a document is about)
        self.ids = ids
        self._order = list(records)
        self._slot = {doc_id: i for i, doc_id in enumerate(records)}
        self._starts = np.cumsum([0] + [len(parts[d].chunks) for d in records], dtype=np.int64)

    @classmethod
    def empty(cls, config: IndexConfig) -> "CollectionIndex":
        none = np.zeros(0, dtype=np.int64)
        return cls(config, {}, {}, PassageVectors.empty(config.dim), KeywordIndex([], config.k1, config.b),
                   np.zeros(0, dtype=bool), ChunkIds(none, np.zeros(0, dtype=np.uint32), none))

    def __len__(self) -> int:
        return int(self._starts[-1])

    # -- changes -------------------------------------------------------------------------------------------------
    def prepare(self, chunks: list[Chunk], vectors: np.ndarray, sentences: SentenceVectors | None) -> Document:
        """Tokenise and compact a document for :meth:`updated` of this version (its terms get this index's ids)."""
        postings = self.bm25.segment(tokenize(self.config.keyword_text(c)) for c in chunks)
        by_passage = DocumentSentences(sentences, len(chunks)) if sentences is not None else None
        return Document(Part(StoredChunks(chunks), sentences, by_passage), np.asarray(vectors, dtype=np.float32),
                        postings, np.array([c.page == 1 for c in chunks], dtype=bool),
                        ChunkIds.of([c.chunk_id for c in chunks]))

    def updated(self, records: dict[str, DocumentRecord], fresh: dict[str, Document]) -> "CollectionIndex":
        """The next version: ``records`` in their order, each document taken from this version unless ``fresh``
        holds it (new, or indexed again: then its new passages take its old place)."""
        pieces: list[range | Document] = []
        parts: dict[str, Part] = {}
        for doc_id in records:
            if doc_id in fresh:
                pieces.append(fresh[doc_id])
                parts[doc_id] = fresh[doc_id].part
                continue
            parts[doc_id] = self.parts[doc_id]
            rows = self._rows_of(doc_id)
            if pieces and isinstance(pieces[-1], range) and pieces[-1].stop == rows.start:
                rows = range(pieces.pop().start, rows.stop)
            pieces.append(rows)
        new = [p for p in pieces if isinstance(p, Document)]
        appending = not any(isinstance(p, range) for p in pieces[1:]) and (
            not len(self) or pieces[:1] == [range(len(self))])
        if appending:  # this version's rows stay where they are: the new ones go after them
            vectors = self.vectors.appended([d.vectors for d in new])
        else:
            vectors = self.vectors.rebuilt([p if isinstance(p, range) else p.vectors for p in pieces])
            new_row = np.full(len(self), -1, dtype=np.int64)
        at, first_page, fresh_ids = 0, [], []
        for piece in pieces:
            if isinstance(piece, range):
                if not appending:
                    new_row[piece.start:piece.stop] = np.arange(at, at + len(piece))
                first_page.append(self.first_page[piece.start:piece.stop])
                at += len(piece)
            else:
                fresh_ids.append(piece.ids._replace(rows=piece.ids.rows + at))
                first_page.append(piece.first_page)
                at += len(piece.first_page)
        ids = self.ids if appending else self.ids.renumbered(new_row)
        if fresh_ids:
            ids = ids.merged(ChunkIds.joined(fresh_ids))
        bm25 = self.bm25.changed([p if isinstance(p, range) else p.postings for p in pieces])
        return CollectionIndex(self.config, dict(records), parts, vectors, bm25,
                               np.concatenate(first_page) if first_page else np.zeros(0, dtype=bool), ids)

    # -- rows ----------------------------------------------------------------------------------------------------
    def _rows_of(self, doc_id: str) -> range:
        slot = self._slot[doc_id]
        return range(int(self._starts[slot]), int(self._starts[slot + 1]))

    def rows_for(self, doc_ids: list[str] | None) -> np.ndarray | None:
        """The rows of these documents, ascending (ids not in the collection are ignored); ``None``: all."""
        if doc_ids is None:
            return None
        slots = sorted({self._slot[d] for d in doc_ids if d in self._slot})
        if not slots:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate([np.arange(self._starts[s], self._starts[s + 1]) for s in slots])

    def _locate(self, row: int) -> tuple[Part, int]:
        """The document holding ``row`` and the passage's index in it."""
        slot = int(np.searchsorted(self._starts, row, side="right")) - 1
        return self.parts[self._order[slot]], row - int(self._starts[slot])

    def chunk(self, row: int) -> Chunk:
        part, i = self._locate(row)
        return part.chunks[i]

    def holds(self, chunk_id: str) -> bool:
        return bool(self.ids.find([chunk_id])[0] >= 0)

    def _rows(self, chunk_ids: list[str]) -> np.ndarray:
        rows = self.ids.find(chunk_ids)
        if (rows < 0).any():
            raise KeyError(chunk_ids[int(np.flatnonzero(rows < 0)[0])])
        return rows

    # -- what a document holds -----------------------------------------------------------------------------------
    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return self.parts[doc_id].chunks.all()

    def document_vectors(self, doc_id: str) -> np.ndarray:
        """The document's passage vectors: a read-only view of the rows (never written again)."""
        rows = self._rows_of(doc_id)
        return self.vectors.rows[rows.start:rows.stop]

    # -- the searches of :class:`retrieval.store_api.SearchIndex`, over this collection --------------------------
    def semantic_search(self, vector: np.ndarray, k: int,
                        doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        return [(self.chunk(row), score) for row, score in self.vectors.search(vector, k, self.rows_for(doc_ids))]

    def keyword_search(self, tokens: list[str], k: int, doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        return [(self.chunk(row), score) for row, score in self.bm25.search(tokens, k, self.rows_for(doc_ids))]

    def passages_with(self, terms: list[str], doc_ids: list[str] | None = None, first_page: bool = False) -> int:
        within = self.first_page if first_page else None
        scope = self.rows_for(doc_ids)
        if scope is not None:
            mask = np.zeros(len(self), dtype=bool)
            mask[scope] = True
            within = mask if within is None else within & mask
        return self.bm25.count_with(terms, within)

    def passage_vectors(self, chunk_ids: list[str]) -> np.ndarray:
        rows = self._rows(chunk_ids)
        return self.vectors.take(rows) if len(rows) else np.zeros((0, self.config.dim), dtype=np.float32)

    def passage_scores(self, vector: np.ndarray, chunk_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        rows = self._rows(chunk_ids)
        if not len(rows):
            return np.zeros(0), np.zeros(0)
        vector = vector.astype(np.float32)
        cosines = self.vectors.take(rows) @ vector
        best = np.full(len(rows), np.nan)
        slots = np.searchsorted(self._starts, rows, side="right") - 1
        for i, (slot, row) in enumerate(zip(slots.tolist(), rows.tolist())):
            by_passage = self.parts[self._order[slot]].by_passage
            if by_passage is not None:
                best[i] = by_passage.best(row - int(self._starts[slot]), vector)
        return cosines.astype(float), best

    def sentence_vectors(self, chunk: Chunk) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        row = int(self.ids.find([chunk.chunk_id])[0])
        if row < 0:
            return None
        part, passage = self._locate(row)
        if part.by_passage is None:
            return None
        spans, vectors = part.by_passage.of(passage)
        return (spans, vectors) if spans else None
