"""The store contract (:mod:`retrieval.store_api`), run against every backend through its two interfaces only.

Each check uses nothing but :class:`Catalog` and :class:`SearchIndex` methods, so a new backend is tested by adding
one entry to ``BACKENDS``: a function that opens a store on the data ``where`` names (called twice with the same
``where``, it opens a second store on the same data, as a second process would). Vectors are random unit vectors
of the bundled model's size (a store does not care where they come from); FAISS and BM25 are real, and so is the
PostgreSQL the ``postgres`` backend runs against (:mod:`tests.support.postgres`, a database of its own per test).
"""

from __future__ import annotations

import dataclasses
import doctest
from pathlib import Path

import numpy as np
import pytest

import retrieval.store_api
from core.errors import CollectionGone, UnknownCollection, UnknownDocument
from core.types import Chunk, DocumentRecord
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore
from retrieval.store_api import ANY, Catalog, SearchIndex, Store
from retrieval.tokenize import tokenize

DIM = 384
KEY_A, KEY_B = "a" * 64, "b" * 64  # key hashes (SHA-256 hex), as retrieval.access stores them


def local_store(where: Path) -> Store:
    return LocalStore(where, DIM)


_DATABASES: dict[Path, str] = {}  # where -> the URL of the database made for it


def postgres_store(where: Path) -> Store:
    from retrieval.pg_store import PostgresStore
    from tests.support.postgres import server

    if where not in _DATABASES:
        _DATABASES[where] = server().database()
    return PostgresStore(_DATABASES[where], DIM, pool_size=4)


BACKENDS = {"local": local_store, "postgres": postgres_store}


@pytest.fixture(params=sorted(BACKENDS))
def open_store(request, tmp_path):
    """Opens a store of the backend under test on this test's data (the same data each time it is called); the
    stores opened are closed after the test."""
    if request.param == "postgres":
        request.getfixturevalue("pg_server")  # the test run's PostgreSQL, started on first use
    opened = []

    def open_one() -> Store:
        opened.append(BACKENDS[request.param](tmp_path))
        return opened[-1]

    yield open_one
    for store in opened:
        if hasattr(store, "close"):
            store.close()


@pytest.fixture
def store(open_store) -> Store:
    return open_store()


def unit_vectors(n: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def document(doc_id: str, texts: list[tuple[int, str]], collection: str = "reports", sentences: bool = True,
             seed: int = 0):
    """A document of passages ``(page, text)``; with ``sentences``, every passage but the last gets one sentence
    vector (its whole text), so the last shows what a passage without sentence vectors gives."""
    chunks = [Chunk(f"{doc_id}-rc-p{page}-c{i}", doc_id, f"{doc_id}.pdf", page, "", text, 0, len(text))
              for i, (page, text) in enumerate(texts)]
    vectors = unit_vectors(len(chunks), seed)
    record = DocumentRecord(doc_id, f"{doc_id}.pdf", collection, f"sha-{doc_id}", max(p for p, _ in texts),
                            len(chunks), 0.0)
    found = None
    if sentences:
        owner = np.arange(len(chunks) - 1, dtype=np.int32)
        found = SentenceVectors(owner, np.zeros(len(owner), dtype=np.int32),
                                np.array([len(chunks[i].text) for i in owner], dtype=np.int32),
                                vectors[owner].astype(np.float16))
    return record, chunks, vectors, found


HARBOUR = [(1, "lighthouse keepers count passing ships"), (1, "april rain falls on the harbour"),
           (2, "ships leave the harbour at dawn")]
MILL = [(1, "the windmill grinds wheat into flour")]


def ids(results) -> list[str]:
    return [chunk.chunk_id for chunk, _ in results]


def test_a_backend_is_a_catalog_and_a_search_index(store):
    assert isinstance(store, Catalog) and isinstance(store, SearchIndex)
    assert store.collections() == [] and store.documents() == [] and store.damaged() == []


def test_an_added_document_is_listed_found_and_read_back(store: Catalog):
    record, chunks, vectors, sentences = document("harbour", HARBOUR)
    store.add_document(record, chunks, vectors, sentences, original=b"%PDF-1.7 harbour")
    assert store.collections() == ["reports"]
    assert [r.doc_id for r in store.documents("reports")] == [r.doc_id for r in store.documents()] == ["harbour"]
    assert store.find_by_sha("reports", "sha-harbour").doc_id == "harbour"
    assert store.find_by_sha("reports", "sha-other") is None and store.find_by_sha("elsewhere", "sha-harbour") is None
    back, back_chunks, back_vectors = store.document_data("harbour")
    assert back.chunks == 3 and [c.text for c in back_chunks] == [t for _, t in HARBOUR]
    assert back_vectors.shape == (3, DIM) and np.allclose(back_vectors, vectors, atol=1e-6)
    assert np.array_equal(store.document_sentences("harbour").owner, sentences.owner)
    assert store.original("harbour") == b"%PDF-1.7 harbour"
    assert isinstance(store.generation("reports"), int)
    with pytest.raises(UnknownDocument):
        store.document_data("nothing")
    with pytest.raises(UnknownDocument):
        store.original("nothing")
    with pytest.raises(UnknownCollection):
        store.documents("elsewhere")


def test_a_document_is_searched_by_vector_and_by_keywords(store: Store):
    record, chunks, vectors, sentences = document("harbour", HARBOUR)
    store.add_document(record, chunks, vectors, sentences)
    store.add_document(*document("mill", MILL, sentences=False, seed=1))
    index: SearchIndex = store
    hits = index.semantic_search("reports", vectors[1], 2)
    assert ids(hits)[0] == "harbour-rc-p1-c1" and hits[0][1] == pytest.approx(1.0, abs=1e-5) and len(hits) == 2
    assert ids(index.semantic_search("reports", vectors[1], 10, doc_ids=["mill"])) == ["mill-rc-p1-c0"]
    assert index.semantic_search("reports", vectors[1], 10, doc_ids=[]) == []
    assert set(ids(index.keyword_search("reports", tokenize("ships"), 5))) == {"harbour-rc-p1-c0",
                                                                              "harbour-rc-p2-c2"}
    assert ids(index.keyword_search("reports", tokenize("lighthouse windmill"), 5, doc_ids=["mill"])) == \
        ["mill-rc-p1-c0"]
    assert index.keyword_search("reports", tokenize("volcano"), 5) == []
    assert all(score > 0 for _, score in index.keyword_search("reports", tokenize("harbour ships"), 5))
    assert index.passages_with("reports", tokenize("harbour")) == 2
    assert index.passages_with("reports", tokenize("harbour"), first_page=True) == 1
    assert index.passages_with("reports", tokenize("harbour wheat"), doc_ids=["mill"]) == 1
    assert index.chunk_count("reports") == 4 and index.chunk_count("reports", ["harbour"]) == 3
    for call in (lambda: index.semantic_search("elsewhere", vectors[0], 5),
                 lambda: index.keyword_search("elsewhere", ["ship"], 5),
                 lambda: index.passages_with("elsewhere", ["ship"]), lambda: index.chunk_count("elsewhere")):
        with pytest.raises(UnknownCollection):
            call()


def test_the_stored_vectors_of_searched_passages_are_read_back(store: Store):
    record, chunks, vectors, sentences = document("harbour", HARBOUR)
    store.add_document(record, chunks, vectors, sentences)
    index: SearchIndex = store
    order = ["harbour-rc-p2-c2", "harbour-rc-p1-c0"]
    assert np.allclose(index.passage_vectors("reports", order), vectors[[2, 0]], atol=1e-6)
    assert index.passage_vectors("reports", []).shape == (0, DIM)
    cosines, best = index.passage_scores("reports", vectors[0], ["harbour-rc-p1-c0", "harbour-rc-p2-c2"])
    assert cosines[0] == pytest.approx(1.0, abs=1e-5) and cosines[1] == pytest.approx(vectors[2] @ vectors[0],
                                                                                      abs=1e-5)
    assert best[0] == pytest.approx(1.0, abs=2e-3) and np.isnan(best[1])  # the last passage has no sentences
    spans, sentence_vectors = index.sentence_vectors(chunks[1])
    assert spans == [(0, len(chunks[1].text))] and sentence_vectors.shape == (1, DIM)
    assert sentence_vectors.dtype == np.float32 and np.allclose(sentence_vectors[0], vectors[1], atol=2e-3)
    assert index.sentence_vectors(chunks[2]) is None
    assert index.sentence_vectors(dataclasses.replace(chunks[0], chunk_id="gone-c0", doc_id="gone")) is None


def test_a_document_is_copied_into_another_collection_from_its_data(store: Catalog):
    store.add_document(*document("harbour", HARBOUR), original=b"%PDF harbour")
    record, chunks, vectors = store.document_data("harbour")
    copies = [dataclasses.replace(c, doc_id="copy", chunk_id="copy" + c.chunk_id[len("harbour"):]) for c in chunks]
    copy = dataclasses.replace(record, doc_id="copy", collection="archive", folder="")
    store.add_document(copy, copies, vectors, store.document_sentences("harbour"), original=store.original("harbour"),
                       expect=store.generation("archive"))
    assert store.collections() == ["archive", "reports"]
    assert store.find_by_sha("archive", "sha-harbour").doc_id == "copy" and store.original("copy") == b"%PDF harbour"
    hits = store.semantic_search("archive", vectors[2], 1)
    assert ids(hits) == ["copy-rc-p2-c2"] and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert store.passage_scores("archive", vectors[0], ["copy-rc-p1-c0"])[1][0] == pytest.approx(1.0, abs=2e-3)
    assert [r.doc_id for r in store.documents()] == ["copy", "harbour"]  # by collection name


def test_indexing_a_document_again_replaces_it_whole_in_its_place(store: Catalog):
    store.add_document(*document("harbour", HARBOUR))
    store.add_document(*document("mill", MILL, seed=1))
    store.add_document(*document("harbour", [(1, "a new lighthouse")], seed=2))
    assert [(r.doc_id, r.chunks) for r in store.documents("reports")] == [("harbour", 1), ("mill", 1)]
    assert ids(store.keyword_search("reports", tokenize("lighthouse ships"), 5)) == ["harbour-rc-p1-c0"]
    assert store.chunk_count("reports") == 2


def test_a_refused_write_changes_nothing(store: Catalog):
    record, chunks, vectors, _ = document("harbour", HARBOUR)
    with pytest.raises(ValueError):
        store.add_document(record, chunks, vectors[:2])
    with pytest.raises(ValueError):
        store.add_document(dataclasses.replace(record, collection="bad name!"), chunks, vectors)
    assert store.collections() == [] and store.generation("reports") is None
    store.add_document(*document("mill", MILL))
    with pytest.raises(ValueError):
        store.add_document(record, chunks, np.zeros((3, DIM + 1), dtype=np.float32))
    assert [r.doc_id for r in store.documents("reports")] == ["mill"] and store.chunk_count("reports") == 1


def test_deleting_a_document_and_a_collection(store: Catalog):
    store.add_document(*document("harbour", HARBOUR), original=b"%PDF")
    store.add_document(*document("mill", MILL, seed=1))
    assert store.delete_document("harbour").doc_id == "harbour"
    assert [r.doc_id for r in store.documents("reports")] == ["mill"]
    assert store.keyword_search("reports", tokenize("ships"), 5) == []
    assert ids(store.semantic_search("reports", unit_vectors(1, 7)[0], 5)) == ["mill-rc-p1-c0"]
    with pytest.raises(UnknownDocument):
        store.delete_document("harbour")
    with pytest.raises(UnknownDocument):
        store.original("harbour")
    store.delete_document("mill")
    assert store.collections() == ["reports"] and store.documents("reports") == []  # emptied, not gone

    store.add_document(*document("mill", MILL, seed=1))
    started = store.generation("reports")
    assert [r.doc_id for r in store.delete_collection("reports")] == ["mill"]
    assert store.collections() == [] and store.generation("reports") is None
    with pytest.raises(UnknownCollection):
        store.delete_collection("reports")
    with pytest.raises(UnknownDocument):
        store.document_data("mill")
    # An upload that started before the delete is refused, and does not create the collection again.
    with pytest.raises(CollectionGone):
        store.add_document(*document("late", MILL), expect=started)
    assert store.collections() == []
    store.add_document(*document("later", MILL), expect=None)  # one that started after it creates it anew
    assert store.generation("reports") not in (None, started)


def test_keys_and_session_collections(store: Catalog):
    assert store.claim("private", KEY_A) is True
    assert store.collections() == ["private"] and store.key_hash("private") == KEY_A
    assert store.claim("private", KEY_A) is True and store.claim("private", KEY_B) is False
    assert store.key_hash("private") == KEY_A
    store.add_document(*document("open", MILL, collection="public"))
    assert store.claim("public", KEY_B) is False and store.key_hash("public") is None
    assert store.key_hash("nothing") is None
    with pytest.raises(ValueError):
        store.claim("no/slash", KEY_A)
    # An upload that saw no collection is refused once another created it with a key.
    with pytest.raises(CollectionGone):
        store.add_document(*document("sneaky", MILL, collection="private"), expect=None)
    store.add_document(*document("mine", MILL, collection="private"), expect=store.generation("private"))
    assert [r.doc_id for r in store.documents("private")] == ["mine"]

    generation = store.create_session("ui-session")
    assert isinstance(generation, int) and store.generation("ui-session") == generation
    assert store.session_collections() == ["ui-session"] and store.key_hash("ui-session") not in (None, KEY_A)
    assert store.create_session("ui-session") is None and store.create_session("public") is None
    store.delete_collection("private")
    assert store.key_hash("private") is None and store.claim("private", KEY_B) is True  # a new life, a new key
    assert store.session_collections() == ["ui-session"]


def test_a_second_store_on_the_same_data_sees_every_write(open_store):
    first, second = open_store(), open_store()
    first.add_document(*document("harbour", HARBOUR), expect=ANY)
    first.claim("private", KEY_A)
    assert second.collections() == ["private", "reports"] and second.key_hash("private") == KEY_A
    assert ids(second.keyword_search("reports", tokenize("lighthouse"), 5)) == ["harbour-rc-p1-c0"]
    generation = second.generation("reports")
    second.delete_document("harbour")
    assert first.documents("reports") == [] and first.semantic_search("reports", unit_vectors(1, 0)[0], 5) == []
    second.delete_collection("reports")
    assert first.collections() == ["private"]
    first.add_document(*document("mill", MILL))
    assert second.generation("reports") not in (None, generation)  # created again: another life


def test_the_name_rule_doctests():
    assert doctest.testmod(retrieval.store_api).failed == 0
