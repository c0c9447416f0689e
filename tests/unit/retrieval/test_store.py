"""The local store: persistence, atomic writes, filters. Vectors are random unit vectors (the store does not care
where vectors come from); FAISS and BM25 are real."""

from __future__ import annotations

import json

import numpy as np
import pytest

from core.types import Chunk, DocumentRecord
from retrieval.store import LocalStore
from core.errors import UnknownCollection, UnknownDocument
from retrieval.tokenize import tokenize

DIM = 8


def make_doc(doc_id: str, texts: list[str], collection: str = "c1"):
    chunks = [Chunk(f"{doc_id}-p1-c{i}", doc_id, f"{doc_id}.pdf", 1, "", t, 0, len(t)) for i, t in enumerate(texts)]
    rng = np.random.default_rng(abs(hash(doc_id)) % 2**32)
    vectors = rng.normal(size=(len(texts), DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    record = DocumentRecord(doc_id, f"{doc_id}.pdf", collection, f"sha-{doc_id}", 1, len(texts), 0.0)
    return record, chunks, vectors


def test_documents_survive_a_restart(tmp_path):
    store = LocalStore(tmp_path, DIM)
    record, chunks, vectors = make_doc("a", ["lighthouse keepers count ships", "rain falls in april"])
    store.add_document(record, chunks, vectors)
    again = LocalStore(tmp_path, DIM)
    assert [d.doc_id for d in again.documents("c1")] == ["a"]
    hit, score = again.semantic_search("c1", vectors[1], 1)[0]
    assert hit.text == "rain falls in april" and score == pytest.approx(1.0, abs=1e-5)
    assert again.keyword_search("c1", tokenize("ships"), 5)[0][0].chunk_id == "a-p1-c0"


def test_a_half_written_document_is_never_loaded(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("a", ["kept document text"]))
    # A crash after a document's files were written but before the manifest was replaced leaves files that the
    # manifest does not name, and maybe a temporary manifest: neither may be loaded.
    orphan = tmp_path / "collections" / "c1" / "docs" / "b"
    orphan.mkdir(parents=True)
    (orphan / "chunks.jsonl").write_text('{"broken": ')
    (tmp_path / "collections" / "c1" / ".manifest.json.tmp123").write_text("{not json")
    again = LocalStore(tmp_path, DIM)
    assert [d.doc_id for d in again.documents("c1")] == ["a"]
    assert not orphan.exists()  # crash leftovers are cleaned up when the store opens
    assert again.semantic_search("c1", np.ones(DIM, dtype=np.float32) / DIM**0.5, 5)[0][0].text == "kept document text"


def test_reindexing_replaces_a_document_whole(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("a", ["old one", "old two"]))
    record, chunks, vectors = make_doc("a", ["new only"])
    store.add_document(record, chunks, vectors)
    assert [c.text for c, _ in store.keyword_search("c1", tokenize("new"), 5)] == ["new only"]
    assert store.keyword_search("c1", tokenize("old"), 5) == []
    assert len(list((tmp_path / "collections" / "c1" / "docs").iterdir())) == 1
    assert [d.chunks for d in LocalStore(tmp_path, DIM).documents("c1")] == [1]


def test_a_failed_add_changes_nothing(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("a", ["first text"]))
    record, chunks, vectors = make_doc("b", ["second text", "third text"])
    with pytest.raises(ValueError):
        store.add_document(record, chunks, vectors[:1])  # wrong number of vectors
    assert [d.doc_id for d in store.documents("c1")] == ["a"]
    manifest = json.loads((tmp_path / "collections" / "c1" / "manifest.json").read_text())
    assert [d["doc_id"] for d in manifest["documents"]] == ["a"]


def test_filters_and_delete(tmp_path):
    store = LocalStore(tmp_path, DIM)
    ra, ca, va = make_doc("a", ["ships and lighthouses", "more about ships"])
    rb, cb, vb = make_doc("b", ["ships in the harbour"])
    store.add_document(ra, ca, va)
    store.add_document(rb, cb, vb)
    assert {c.doc_id for c, _ in store.semantic_search("c1", va[0], 10, doc_ids=["b"])} == {"b"}
    assert {c.doc_id for c, _ in store.keyword_search("c1", tokenize("ships"), 10, doc_ids=["a"])} == {"a"}
    assert len(store.keyword_search("c1", tokenize("ships"), 10)) == 3
    folder = tmp_path / "collections" / "c1" / "docs" / store.documents("c1")[0].folder
    assert folder.exists()
    store.delete_document("a")
    assert not folder.exists()
    assert [c.doc_id for c, _ in store.semantic_search("c1", va[0], 10)] == ["b"]
    with pytest.raises(UnknownDocument):
        store.delete_document("a")
    with pytest.raises(UnknownCollection):
        store.documents("nope")
    assert [d.doc_id for d in LocalStore(tmp_path, DIM).documents()] == ["b"]
