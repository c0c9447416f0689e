"""One collection's in-memory index (FAISS vectors, BM25 terms, sentence vectors), built whole and swapped whole."""

from __future__ import annotations

from typing import NamedTuple

import faiss
import numpy as np

from ingestion.chunking import Chunk
from retrieval.keyword_index import KeywordIndex
from retrieval.sentence_index import CollectionSentences, SentenceVectors
from retrieval.store_files import DocumentRecord
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
