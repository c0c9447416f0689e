"""A collection index changed document by document answers exactly as one built whole from the same documents, and
as the references it replaced: rank-bm25 with Lucene's idf for BM25, FAISS ``IndexFlatIP`` for vectors.

Documents are random: passages of words drawn Zipf-like from a small vocabulary (so terms are shared and segments
merge), some empty, repeated texts and repeated vectors (ties), pages 1-3, with and without sentence vectors. FAISS,
BM25 and the files are real."""

from __future__ import annotations

import doctest

import faiss
import numpy as np
import pytest

import retrieval.collection_index
import retrieval.passage_vectors
import retrieval.postings
import retrieval.stored_chunks
from core.types import Chunk, DocumentRecord
from evaluation.bench_retrieval import LuceneBM25
from retrieval.collection_index import CollectionIndex, IndexConfig
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore
from retrieval.tokenize import tokenize

DIM = 16
WORDS = [f"term{i}" for i in range(60)] + ["ships", "harbour", "lighthouse", "wheat", "mill"]
CONFIG = IndexConfig(DIM)


class Corpus:
    """Random documents, with texts and vectors repeated now and then across documents."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.texts: list[str] = []
        self.vectors: list[np.ndarray] = []
        self.made = 0

    def _text(self) -> str:
        if self.texts and self.rng.random() < 0.1:
            return self.texts[int(self.rng.integers(len(self.texts)))]
        weights = 1.0 / np.arange(1, len(WORDS) + 1)
        n = int(self.rng.integers(0, 25))
        text = " ".join(self.rng.choice(WORDS, size=n, p=weights / weights.sum()))
        self.texts.append(text)
        return text

    def _vector(self) -> np.ndarray:
        if self.vectors and self.rng.random() < 0.1:
            return self.vectors[int(self.rng.integers(len(self.vectors)))]
        v = self.rng.normal(size=DIM).astype(np.float32)
        v /= np.linalg.norm(v)
        self.vectors.append(v)
        return v

    def document(self, doc_id: str | None = None, collection: str = "c"):
        self.made += 1
        doc_id = doc_id or f"doc{self.made}"
        n = int(self.rng.integers(1, 9))
        chunks = [Chunk(f"{doc_id}-rc-p{i}-v{self.made}", doc_id, f"{doc_id}.pdf", int(self.rng.integers(1, 4)), "",
                        self._text(), 0, 10) for i in range(n)]
        vectors = np.array([self._vector() for _ in range(n)], dtype=np.float32)
        sentences = None
        if self.rng.random() < 0.7:  # 0-3 sentences per passage
            owner = np.repeat(np.arange(n, dtype=np.int32), self.rng.integers(0, 4, size=n))
            found = self.rng.normal(size=(len(owner), DIM)).astype(np.float32)
            found /= np.maximum(np.linalg.norm(found, axis=1, keepdims=True), 1e-9)
            sentences = SentenceVectors(owner, np.zeros(len(owner), np.int32), np.full(len(owner), 5, np.int32),
                                        found.astype(np.float16))
        record = DocumentRecord(doc_id, f"{doc_id}.pdf", collection, f"sha-{doc_id}-{self.made}", 3, n, 0.0)
        return record, chunks, vectors, sentences


def questions(rng: np.random.Generator) -> list[tuple[np.ndarray, list[str]]]:
    out = []
    for _ in range(6):
        v = rng.normal(size=DIM).astype(np.float32)
        out.append((v / np.linalg.norm(v), tokenize(" ".join(rng.choice(WORDS, size=int(rng.integers(1, 5)))))))
    out.append((out[0][0], ["ships", "ships", "not-a-term"]))  # a repeated term counts twice
    return out


def answers(index, rng: np.random.Generator) -> list:
    """Everything a search reads from the index, for a fixed set of questions and scopes."""
    doc_ids = list(index.records)
    scopes = [None, doc_ids[::2], doc_ids[-1:], ["missing"]] if doc_ids else [None, ["missing"]]
    out = []
    for vector, tokens in questions(rng):
        for scope in scopes:
            for k in (1, 5, 200):
                out.append(index.semantic_search(vector, k, scope))
                out.append(index.keyword_search(tokens, k, scope))
            out.append([index.passages_with(tokens[:1], scope), index.passages_with(tokens, scope),
                        index.passages_with(tokens, scope, first_page=True)])
    ids = [c.chunk_id for d in doc_ids for c in index.document_chunks(d)]
    rng.shuffle(ids)
    vector = questions(rng)[0][0]
    cosines, best = index.passage_scores(vector, ids)
    out.append((ids, cosines.tolist(), np.nan_to_num(best, nan=-9).tolist(), index.passage_vectors(ids).tolist()))
    for d in doc_ids:
        chunks = index.document_chunks(d)
        out.append((chunks, index.document_vectors(d).tolist()))
        for c in chunks:
            found = index.sentence_vectors(c)
            out.append(None if found is None else (found[0], found[1].tolist()))
    return out


def built_whole(records: dict, documents: dict) -> CollectionIndex:
    empty = CollectionIndex.empty(CONFIG)
    return empty.updated(records, {d: empty.prepare(*documents[d]) for d in records})


def test_the_docstring_examples_hold():
    for module in (retrieval.postings, retrieval.passage_vectors, retrieval.stored_chunks,
                   retrieval.collection_index):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_adds_removes_and_reindexing_answer_as_an_index_built_whole(seed):
    corpus, rng = Corpus(seed), np.random.default_rng(100 + seed)
    index = CollectionIndex.empty(CONFIG)
    records: dict[str, DocumentRecord] = {}
    documents: dict[str, tuple] = {}
    for step in range(60):
        roll = rng.random()
        if records and roll < 0.3:  # remove one, anywhere
            doc_id = list(records)[int(rng.integers(len(records)))]
            del records[doc_id], documents[doc_id]
            index = index.updated(dict(records), {})
        else:  # add a new one, or index one again in its place
            again = records and roll < 0.45
            doc_id = list(records)[int(rng.integers(len(records)))] if again else None
            record, chunks, vectors, sentences = corpus.document(doc_id)
            records[record.doc_id], documents[record.doc_id] = record, (chunks, vectors, sentences)
            index = index.updated(dict(records), {record.doc_id: index.prepare(chunks, vectors, sentences)})
        if step % 6 == 5:
            assert answers(index, np.random.default_rng(step)) == \
                answers(built_whole(records, documents), np.random.default_rng(step))
    assert len(index.bm25.segments) > 1  # the changes did leave several segments, merged along the way


def test_scores_are_those_of_rank_bm25_and_of_a_faiss_flat_index():
    corpus, rng = Corpus(7), np.random.default_rng(7)
    index = CollectionIndex.empty(CONFIG)
    records, documents = {}, {}
    for step in range(30):
        record, chunks, vectors, sentences = corpus.document()
        records[record.doc_id], documents[record.doc_id] = record, (chunks, vectors, sentences)
        index = index.updated(dict(records), {record.doc_id: index.prepare(chunks, vectors, sentences)})
        if step % 4 == 3:
            gone = list(records)[int(rng.integers(len(records)))]
            del records[gone], documents[gone]
            index = index.updated(dict(records), {})
    chunks = [c for d in records for c in documents[d][0]]
    vectors = np.vstack([documents[d][1] for d in records])
    reference = LuceneBM25([tokenize(c.text) for c in chunks])
    flat = faiss.IndexFlatIP(DIM)
    flat.add(vectors)
    for vector, tokens in questions(rng):
        expected = reference.get_scores(tokens)
        rows = np.lexsort((np.arange(len(chunks)), -expected))
        rows = [r for r in rows if expected[r] > 0][:10]
        assert index.keyword_search(tokens, 10) == [(chunks[r], float(expected[r])) for r in rows]  # equal, exactly
        scores, found = flat.search(vector.reshape(1, -1), 10)
        assert index.semantic_search(vector, 10) == [(chunks[i], float(s)) for s, i in zip(scores[0], found[0])]
        scope = [d for d in records][1::3]
        rows = np.flatnonzero(np.isin([c.doc_id for c in chunks], scope))
        scores, found = flat.search(vector.reshape(1, -1), min(10, len(rows)),
                                    params=faiss.SearchParameters(sel=faiss.IDSelectorBatch(rows)))
        assert index.semantic_search(vector, 10, scope) == [(chunks[i], float(s)) for s, i in zip(scores[0], found[0])]


def test_terms_no_passage_holds_any_longer_leave_the_vocabulary():
    corpus = Corpus(3)
    index = CollectionIndex.empty(CONFIG)
    record, chunks, vectors, sentences = corpus.document("kept")
    index = index.updated({"kept": record}, {"kept": index.prepare(chunks, vectors, sentences)})
    rare = [Chunk(f"rare-c{i}", "rare", "rare.pdf", 1, "", " ".join(f"zz{i}x{j}" for j in range(500)), 0, 1)
            for i in range(12)]
    rare_record = DocumentRecord("rare", "rare.pdf", "c", "sha-rare", 1, len(rare), 0.0)
    grown = index.updated({"kept": record, "rare": rare_record},
                          {"rare": index.prepare(rare, np.eye(DIM, dtype=np.float32)[:12], None)})
    assert grown.keyword_search(["zz3x7"], 5)[0][0].chunk_id == "rare-c3"
    shrunk = grown.updated({"kept": record}, {})
    assert len(shrunk.bm25._vocab) < 1000 < len(grown.bm25._vocab)  # 6,000 terms gone: the vocabulary was rebuilt
    assert answers(shrunk, np.random.default_rng(0)) == answers(index, np.random.default_rng(0))
    assert grown.keyword_search(["zz3x7"], 5)[0][0].chunk_id == "rare-c3"  # the version before still answers


def test_a_store_changed_by_writes_and_reloads_answers_as_one_opened_afresh(tmp_path):
    corpus, rng = Corpus(11), np.random.default_rng(11)
    writer, reader = LocalStore(tmp_path, DIM), LocalStore(tmp_path, DIM)
    for step in range(24):
        names = [r.doc_id for r in writer.documents("c")] if step else []
        if names and rng.random() < 0.3:
            writer.delete_document(names[int(rng.integers(len(names)))])
        else:
            again = names and rng.random() < 0.2
            writer.add_document(*corpus.document(names[int(rng.integers(len(names)))] if again else None))
        if step % 8 == 7:
            reader.documents("c")  # the reader takes in the writer's changes incrementally
            fresh = LocalStore(tmp_path, DIM)
            expected = answers(fresh._index("c"), np.random.default_rng(step))
            assert answers(writer._index("c"), np.random.default_rng(step)) == expected
            assert answers(reader._index("c"), np.random.default_rng(step)) == expected


def test_chunk_ids_of_the_same_hash_are_told_apart():
    import zlib

    from retrieval.collection_index import ChunkIds

    h = hash("doc-c1")
    ids = ChunkIds(np.array([h, h], dtype=np.int64), np.array([zlib.crc32(b"other"), zlib.crc32(b"doc-c1")],
                                                               dtype=np.uint32), np.array([3, 9], dtype=np.int64))
    assert ids.find(["doc-c1", "missing"]).tolist() == [9, -1]
