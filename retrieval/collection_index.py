"""One collection's in-memory index (FAISS vectors, BM25 terms, sentence vectors), built whole and swapped whole."""

from __future__ import annotations

from typing import NamedTuple

import faiss
import numpy as np

from core.types import Chunk, DocumentRecord
from retrieval.keyword_index import KeywordIndex
from retrieval.sentence_index import CollectionSentences, SentenceVectors
from retrieval.tokenize import tokenize


class Part(NamedTuple):
    """One document in memory. Its BM25 terms are kept so that rebuilding the collection index after an add or a
    delete does not tokenise every other document again (at 100k chunks that took 12 s of a 17 s rebuild)."""

    chunks: list[Chunk]
    vectors: np.ndarray
    sentences: SentenceVectors | None
    tokens: list[list[str]]


def make_part(chunks: list[Chunk], vectors: np.ndarray, sentences: SentenceVectors | None, keyword_prefix: bool,
          keyword_section: bool = False) -> Part:
    def indexed(c: Chunk) -> str:
        if keyword_prefix:
            return f"{c.prefix}\n{c.text}"
        return f"{c.section}\n{c.text}" if keyword_section and c.section else c.text

    return Part(chunks, vectors.astype(np.float32), sentences, [tokenize(indexed(c)) for c in chunks])


class CollectionIndex:
    """Immutable in-memory index of one collection; rebuilt and swapped whole on every change."""

    def __init__(self, records: dict[str, DocumentRecord], parts: dict[str, Part], dim: int, k1: float, b: float):
        self.records = records
        self.parts = parts
        self.chunks: list[Chunk] = [c for doc_id in records for c in parts[doc_id].chunks]
        self.doc_of_row = np.array([c.doc_id for c in self.chunks], dtype=object)
        self.row_of = {c.chunk_id: row for row, c in enumerate(self.chunks)}
        # A document's first page names what it is about (its company, its period, its subject).
        self.first_page_rows = np.flatnonzero(np.array([c.page == 1 for c in self.chunks], dtype=bool))
        self.sentences = CollectionSentences([(len(parts[d].chunks), parts[d].sentences) for d in records], dim)
        self.faiss = faiss.IndexFlatIP(dim)
        if self.chunks:
            self.faiss.add(np.vstack([parts[doc_id].vectors for doc_id in records]))
        self.bm25 = KeywordIndex([t for doc_id in records for t in parts[doc_id].tokens], k1=k1, b=b)

    def rows_for(self, doc_ids: list[str] | None) -> np.ndarray | None:
        if doc_ids is None:
            return None
        return np.flatnonzero(np.isin(self.doc_of_row, list(doc_ids)))

    # -- the searches of :class:`retrieval.store_api.SearchIndex`, over this collection --------------------------
    def semantic_search(self, vector: np.ndarray, k: int,
                        doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        rows = self.rows_for(doc_ids)
        n = len(self.chunks) if rows is None else len(rows)
        if n == 0:
            return []
        params = None
        if rows is not None:
            params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(rows.astype(np.int64)))
        scores, ids = self.faiss.search(vector.reshape(1, -1).astype(np.float32), min(k, n), params=params)
        return [(self.chunks[i], float(s)) for s, i in zip(scores[0], ids[0]) if i >= 0]

    def keyword_search(self, tokens: list[str], k: int, doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        return [(self.chunks[row], score) for row, score in self.bm25.search(tokens, k, self.rows_for(doc_ids))]

    def passages_with(self, terms: list[str], doc_ids: list[str] | None = None, first_page: bool = False) -> int:
        rows = self.bm25.rows_with(terms)
        if first_page:
            rows = np.intersect1d(rows, self.first_page_rows, assume_unique=True)
        scope = self.rows_for(doc_ids)
        return int(len(rows) if scope is None else np.isin(rows, scope, assume_unique=True).sum())

    def _rows(self, chunk_ids: list[str]) -> np.ndarray:
        return np.array([self.row_of[cid] for cid in chunk_ids], dtype=np.int64)

    def passage_vectors(self, chunk_ids: list[str]) -> np.ndarray:
        rows = self._rows(chunk_ids)
        return self.faiss.reconstruct_batch(rows) if len(rows) else np.zeros((0, self.faiss.d), dtype=np.float32)

    def passage_scores(self, vector: np.ndarray, chunk_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        rows = self._rows(chunk_ids)
        if not len(rows):
            return np.zeros(0), np.zeros(0)
        cosines = self.faiss.reconstruct_batch(rows) @ vector.astype(np.float32)
        return cosines.astype(float), self.sentences.best(rows, vector.astype(np.float32))

    def sentence_vectors(self, chunk: Chunk) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        row = self.row_of.get(chunk.chunk_id)
        if row is None:
            return None
        spans, vectors = self.sentences.of(row)
        return (spans, vectors) if spans else None
