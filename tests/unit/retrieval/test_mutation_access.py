"""Collection keys on a real local store: who may see, search, change or create a collection, and what a refused
caller is told (the same as for a collection that does not exist)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from core.errors import CollectionLocked, UnknownCollection, UnknownDocument
from core.types import Chunk, DocumentRecord
from retrieval.access import CollectionAccess, key_hash
from retrieval.store import LocalStore

DIM = 8


@pytest.fixture
def store(tmp_path):
    return LocalStore(tmp_path / "store", DIM)


def add(store, doc_id: str, collection: str) -> None:
    text = "the windmill grinds wheat into flour"
    chunk = Chunk(f"{doc_id}-rc-p1-c0", doc_id, f"{doc_id}.pdf", 1, "", text, 0, len(text))
    record = DocumentRecord(doc_id, f"{doc_id}.pdf", collection, f"sha-{doc_id}", 1, 1, 0.0)
    store.add_document(record, [chunk], np.ones((1, DIM), dtype=np.float32) / np.sqrt(DIM))


def test_only_the_keys_sha256_is_stored():
    assert key_hash("s3cret") == hashlib.sha256(b"s3cret").hexdigest()
    assert key_hash(None) is None and key_hash("") is None


def test_a_collection_created_with_a_key_needs_it_from_then_on(store):
    keys = CollectionAccess(store)
    keys.authorize("private", "k1", create=True)
    assert store.key_hash("private") == key_hash("k1")
    keys.authorize("private", "k1", create=True)  # the same key uploads again
    keys.authorize("private", "k1")
    for wrong in (None, "k2", ""):
        with pytest.raises(UnknownCollection) as refused:
            keys.authorize("private", wrong)
        # Exactly what a collection that does not exist gives: a guess learns nothing.
        assert str(refused.value) == "Collection 'private' does not exist; upload a document to it first."
    with pytest.raises(CollectionLocked) as locked:
        keys.authorize("private", "k2", create=True)
    assert str(locked.value) == ("Collection 'private' needs its key: send it as X-Collection-Key, or use another "
                                 "collection name.")
    with pytest.raises(CollectionLocked):
        keys.authorize("private", None, create=True)


def test_a_collection_created_without_a_key_stays_open_and_can_never_get_one(store):
    keys = CollectionAccess(store)
    add(store, "mill", "public")
    keys.authorize("public", None)
    keys.authorize("public", "any key")  # a key is not needed, and not refused, to read it
    keys.authorize("public", None, create=True)
    with pytest.raises(CollectionLocked) as locked:
        keys.authorize("public", "k1", create=True)
    assert str(locked.value) == ("Collection 'public' already exists without a key; a key can only be set when a "
                                 "collection is created. Use a new collection name.")
    assert store.key_hash("public") is None
    keys.authorize("nothing yet", None)  # an unknown collection without a key: nothing to refuse
    assert "nothing yet" not in store.collections()


def test_a_key_sees_the_open_collections_and_those_it_opens(store):
    keys = CollectionAccess(store)
    add(store, "mill", "public")
    keys.authorize("a", "ka", create=True)
    keys.authorize("b", "kb", create=True)
    assert keys.open_collections(None) == ["public"]
    assert keys.open_collections("") == ["public"]
    assert keys.open_collections("ka") == ["a", "public"]
    assert keys.open_collections("kb") == ["b", "public"]
    assert keys.open_collections("wrong") == ["public"]


def test_a_document_of_a_locked_collection_does_not_exist_for_another_key(store):
    keys = CollectionAccess(store)
    keys.authorize("private", "k1", create=True)
    add(store, "secret-doc", "private")
    add(store, "mill", "public")
    keys.authorize_document("secret-doc", "k1")
    keys.authorize_document("mill", None)
    with pytest.raises(UnknownDocument) as refused:
        keys.authorize_document("secret-doc", "k2")
    assert str(refused.value) == "Document 'secret-doc' does not exist."
    assert refused.value.__cause__ is None and refused.value.__suppress_context__
