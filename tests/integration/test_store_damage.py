"""Damaged files on disk, a full disk, session collections and deleted collections: the store opens whatever it
finds, sets aside only what is damaged (listed with the reason, repaired by uploading the file again), leaves nothing
behind when a write fails, and never re-creates a collection without its key.

Store-level tests use random unit vectors (FAISS and BM25 are real); the server tests run ``uvicorn main:app`` in a
subprocess on a data folder that outlives it, and restart it for real.
"""

from __future__ import annotations

import json
import resource
from contextlib import contextmanager
from pathlib import Path

import httpx
import numpy as np
import pytest

from core.types import Chunk, DocumentRecord
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore
from core.errors import CollectionDamaged, CollectionGone, StorageFull, UnknownCollection
from retrieval.tokenize import tokenize
from tests.support.pdf_factory import known_text_pdf, make_pdf
from tests.integration.test_crash import CAPITAL, QUESTION, Server

DIM = 8
HARBOUR = make_pdf([[("The harbour master of Lowport is Ada Quell, appointed in 1911.", 11)]])


def make_doc(doc_id: str, texts: list[str], collection: str = "c1"):
    chunks = [Chunk(f"{doc_id}-p1-c{i}", doc_id, f"{doc_id}.pdf", 1, "", t, 0, len(t)) for i, t in enumerate(texts)]
    rng = np.random.default_rng(sum(map(ord, doc_id)))
    vectors = rng.normal(size=(len(texts), DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    sentences = SentenceVectors(np.arange(len(texts), dtype=np.int32), np.zeros(len(texts), dtype=np.int32),
                                np.array([len(t) for t in texts], dtype=np.int32), vectors.astype(np.float16))
    record = DocumentRecord(doc_id, f"{doc_id}.pdf", collection, f"sha-{doc_id}", 1, len(texts), 0.0)
    return record, chunks, vectors, sentences


def folder_of(root: Path, doc_id: str, collection: str = "c1") -> Path:
    (folder,) = (root / "collections" / collection / "docs").glob(f"{doc_id}.*")
    return folder


def cut(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def drop_last_line(path: Path) -> None:
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-1]))


def drop_last_vector(path: Path) -> None:
    np.save(path, np.load(path)[:-1])


def edit_text(path: Path) -> None:
    path.write_text(path.read_text().replace("harbour", "airport"))


DAMAGE = {
    "chunks cut mid-line": (lambda f: cut(f / "chunks.jsonl", 0.6), "chunks.jsonl is cut short (line 2 of 3)"),
    "a chunks line removed": (lambda f: drop_last_line(f / "chunks.jsonl"), "chunks.jsonl"),
    "vectors cut": (lambda f: cut(f / "vectors.npy"), "vectors.npy is cut short"),
    "a vector row removed": (lambda f: drop_last_vector(f / "vectors.npy"), "vectors.npy"),
    "sentences cut": (lambda f: cut(f / "sentences.npz"), "sentences.npz is cut short"),
    "folder deleted": (lambda f: __import__("shutil").rmtree(f), "is missing"),
    "text edited, same length": (lambda f: edit_text(f / "chunks.jsonl"), "checksum does not match"),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_document_is_set_aside_and_the_others_keep_answering(tmp_path, kind):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("bad", ["the harbour wall", "the harbour crane", "tides at noon"]))
    good = make_doc("good", ["lighthouse keepers count ships"])
    store.add_document(*good)
    damage, reason = DAMAGE[kind]
    damage(folder_of(tmp_path, "bad"))

    again = LocalStore(tmp_path, DIM)  # opens: no exception
    assert [d.doc_id for d in again.documents("c1")] == ["good"]
    (aside,) = again.damaged("c1")
    assert (aside.doc_id, aside.filename) == ("bad", "bad.pdf")
    assert reason in aside.reason and "upload the file again" in aside.reason
    # The healthy document answers by vector and by keyword; the damaged one is in no result.
    assert again.semantic_search("c1", good[2][0], 5)[0][0].doc_id == "good"
    assert [c.doc_id for c, _ in again.keyword_search("c1", tokenize("harbour ships"), 5)] == ["good"]
    if kind != "folder deleted":  # nothing is deleted: the folder is kept as it was, restart after restart
        LocalStore(tmp_path, DIM).add_document(*make_doc("third", ["rain in april"]))
        assert folder_of(tmp_path, "bad").exists()
        assert [d.doc_id for d in LocalStore(tmp_path, DIM).damaged("c1")] == ["bad"]


def test_indexing_the_same_file_again_repairs_a_damaged_document(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("bad", ["the harbour wall", "tides at noon"]))
    damaged_folder = folder_of(tmp_path, "bad")
    cut(damaged_folder / "vectors.npy")
    again = LocalStore(tmp_path, DIM)
    assert again.damaged("c1") and again.documents("c1") == []
    again.add_document(*make_doc("bad", ["the harbour wall", "tides at noon"]))
    assert again.damaged() == [] and [d.doc_id for d in again.documents("c1")] == ["bad"]
    assert not damaged_folder.exists()  # the damaged copy is replaced
    reopened = LocalStore(tmp_path, DIM)
    assert reopened.damaged() == []
    assert reopened.keyword_search("c1", tokenize("harbour"), 5)[0][0].doc_id == "bad"


def test_old_manifests_without_checksums_still_load_and_are_checked_by_counts(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("a", ["kept text one", "kept text two"]))
    store.add_document(*make_doc("b", ["short one", "short two"]))
    manifest = tmp_path / "collections" / "c1" / "manifest.json"
    body = json.loads(manifest.read_text())
    for entry in body["documents"]:
        del entry["files"]
    manifest.write_text(json.dumps(body))
    drop_last_line(folder_of(tmp_path, "b") / "chunks.jsonl")
    again = LocalStore(tmp_path, DIM)
    assert [d.doc_id for d in again.documents("c1")] == ["a"]
    assert again.damaged("c1")[0].reason.startswith("chunks.jsonl holds 1 passages; the manifest says 2")


def test_a_garbage_manifest_sets_its_collection_aside_and_keeps_its_files(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("a", ["first collection text"], collection="first"))
    store.add_document(*make_doc("b", ["second collection text"], collection="second"))
    (tmp_path / "collections" / "second" / "manifest.json").write_bytes(b"\x00garbage{")
    again = LocalStore(tmp_path, DIM)
    assert again.collections() == ["first"]
    assert again.keyword_search("first", tokenize("text"), 5)[0][0].doc_id == "a"
    (aside,) = again.damaged()
    assert (aside.collection, aside.doc_id) == ("second", None) and "manifest.json is damaged" in aside.reason
    assert folder_of(tmp_path, "b", "second").exists()  # not deleted as if it had no manifest
    # Nothing is written over it: an upload into it is refused with the reason.
    with pytest.raises(CollectionDamaged, match="manifest.json is damaged"):
        again.add_document(*make_doc("c", ["new text"], collection="second"))
    with pytest.raises(CollectionDamaged):
        again.claim("second", "0" * 64)
    assert (tmp_path / "collections" / "second" / "manifest.json").read_bytes() == b"\x00garbage{"


# -- full disk ------------------------------------------------------------------------------------------------
@contextmanager
def file_size_limit(limit: int):
    """Writes past ``limit`` bytes into any file fail with EFBIG, as writes into a full disk fail with ENOSPC (the
    soft RLIMIT_FSIZE of this process; Python ignores SIGXFSZ, so the write returns an error)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_a_write_that_fails_leaves_nothing_behind_and_the_store_as_it_was(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.add_document(*make_doc("a", ["earlier document text"]))
    manifest = (tmp_path / "collections" / "c1" / "manifest.json").read_bytes()
    big = make_doc("big", [f"passage {i} about the harbour" for i in range(200)])
    with file_size_limit(2048), pytest.raises(StorageFull, match="disk is full; nothing was saved"):
        store.add_document(*big)
    with file_size_limit(2048), pytest.raises(StorageFull):
        store.add_document(*make_doc("new", [f"text {i}" for i in range(200)], collection="fresh"))
    assert [p.name.split(".")[0] for p in (tmp_path / "collections" / "c1" / "docs").iterdir()] == ["a"]
    assert not list((tmp_path / "collections" / "c1").glob(".*"))  # no temporary files either
    assert not (tmp_path / "collections" / "fresh").exists()
    assert (tmp_path / "collections" / "c1" / "manifest.json").read_bytes() == manifest
    assert [d.doc_id for d in store.documents("c1")] == ["a"] and store.collections() == ["c1"]
    store.add_document(*big)  # space again: it works
    assert {d.doc_id for d in LocalStore(tmp_path, DIM).documents("c1")} == {"a", "big"}


def test_a_full_disk_during_an_upload_gets_a_plain_message_through_the_pipeline(pipeline, known_pdf):
    """What the UI shows: its upload calls ``pipeline.ingest`` and prints an IngestError's message."""
    from core.errors import IngestError

    first = pipeline.ingest(known_pdf, "survey.pdf")
    with file_size_limit(1024), pytest.raises(IngestError) as caught:
        pipeline.ingest(HARBOUR, "harbour.pdf")
    assert isinstance(caught.value, StorageFull) and caught.value.message.startswith("The server's disk is full")
    assert [d.doc_id for d in pipeline.documents("default")] == [first.doc_id]
    assert pipeline.ingest(HARBOUR, "harbour.pdf").chunks > 0


def test_a_full_disk_answers_507_json_and_uploads_work_again_once_space_is_freed(tmp_path):
    """A running server whose file size limit (RLIMIT_FSIZE, set from outside with prlimit) stands in for a full
    disk: every write past 1 KiB fails as it would with no space left. Raising the limit again frees the space."""
    data_dir = tmp_path / "data"
    server = Server(data_dir).start()
    docs = data_dir / "collections" / "default" / "docs"
    try:
        first = httpx.post(server.url + "/ingest", files={"file": ("survey.pdf", known_text_pdf(), "application/pdf")},
                           timeout=120).json()
        manifest = (data_dir / "collections" / "default" / "manifest.json").read_bytes()
        folders = {p.name for p in docs.iterdir()}
        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (1024, hard))
        for collection in ("default", "newcollection"):
            full = httpx.post(server.url + "/ingest", files={"file": ("harbour.pdf", HARBOUR, "application/pdf")},
                              data={"collection": collection}, timeout=120)
            assert full.status_code == 507, full.text
            assert full.json()["detail"].startswith("The server's disk is full; nothing was saved")
            assert "Errno" not in full.text and "Traceback" not in full.text
        assert {p.name for p in docs.iterdir()} == folders  # no half-written folder
        assert (data_dir / "collections" / "default" / "manifest.json").read_bytes() == manifest
        assert not (data_dir / "collections" / "newcollection").exists()
        reply = httpx.post(server.url + "/query", json={"question": QUESTION}, timeout=60).json()
        assert CAPITAL in reply["answer"] and reply["citations"][0]["doc_id"] == first["doc_id"]

        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (hard, hard))  # space freed
        again = httpx.post(server.url + "/ingest", files={"file": ("harbour.pdf", HARBOUR, "application/pdf")},
                           timeout=120)
        assert again.status_code == 200, again.text
        reply = httpx.post(server.url + "/query", json={"question": "Who is the harbour master of Lowport?"},
                           timeout=60).json()
        assert "Ada Quell" in reply["answer"] and reply["citations"][0]["doc_id"] == again.json()["doc_id"]
    finally:
        server.stop()


# -- a real server on damaged files -------------------------------------------------------------------------
def test_the_server_starts_on_damaged_files_lists_them_and_a_reupload_repairs(tmp_path):
    data_dir = tmp_path / "data"
    server = Server(data_dir).start()
    try:
        def upload(name, data, collection="default"):
            r = httpx.post(server.url + "/ingest", files={"file": (name, data, "application/pdf")},
                           data={"collection": collection}, timeout=120)
            assert r.status_code == 200, r.text
            return r.json()

        good = upload("survey.pdf", known_text_pdf())
        bad = upload("harbour.pdf", HARBOUR)
        upload("other.pdf", make_pdf([[("Other collection notes about tides.", 11)]]), "other")
        server.stop()
        docs = data_dir / "collections" / "default" / "docs"
        (bad_folder,) = docs.glob(f"{bad['doc_id']}.*")
        cut(bad_folder / "chunks.jsonl", 0.7)
        cut(bad_folder / "vectors.npy")
        (data_dir / "collections" / "other" / "manifest.json").write_text('{"documents": [{"doc_id": ')

        server.start()  # starts: a traceback here would fail the test
        stats = httpx.get(server.url + "/stats").json()
        by_collection = {d["collection"]: d for d in stats["damaged"]}
        assert by_collection["default"]["doc_id"] == bad["doc_id"]
        assert by_collection["default"]["filename"] == "harbour.pdf"
        assert "chunks.jsonl is cut short (line 1 of 1)" in by_collection["default"]["reason"]
        assert by_collection["other"]["doc_id"] is None and "manifest.json" in by_collection["other"]["reason"]
        listed = httpx.get(server.url + "/documents", params={"collection": "default"}).json()
        assert [d["doc_id"] for d in listed["documents"]] == [good["doc_id"]]
        assert [d["doc_id"] for d in listed["damaged"]] == [bad["doc_id"]]
        # The healthy document answers, with its citation; the damaged one's folder is still there.
        reply = httpx.post(server.url + "/query", json={"question": QUESTION}, timeout=60).json()
        assert CAPITAL in reply["answer"] and reply["citations"][0]["doc_id"] == good["doc_id"]
        assert bad_folder.exists()
        # Uploading the damaged file again repairs it.
        assert upload("harbour.pdf", HARBOUR)["doc_id"] == bad["doc_id"]
        reply = httpx.post(server.url + "/query", json={"question": "Who is the harbour master of Lowport?"},
                           timeout=60).json()
        assert "Ada Quell" in reply["answer"] and reply["citations"][0]["doc_id"] == bad["doc_id"]
        assert [d["collection"] for d in httpx.get(server.url + "/stats").json()["damaged"]] == ["other"]
        assert httpx.get(server.url + "/documents", params={"collection": "default"}).json()["damaged"] == []
        # The damaged collection is refused plainly, its files untouched.
        r = httpx.post(server.url + "/ingest", files={"file": ("n.pdf", HARBOUR, "application/pdf")},
                       data={"collection": "other"}, timeout=60)
        assert r.status_code == 409 and "manifest.json" in r.json()["detail"]
        assert (data_dir / "collections" / "other" / "manifest.json").read_text() == '{"documents": [{"doc_id": '
    finally:
        server.stop()


def test_damaged_documents_of_a_keyed_collection_show_only_with_its_key(client, known_pdf, settings):
    k = {"X-Collection-Key": "private-key-0123456789"}
    r = client.post("/ingest", files={"file": ("p.pdf", HARBOUR, "application/pdf")}, data={"collection": "private"},
                    headers=k)
    (folder,) = (settings.data_dir / "collections" / "private" / "docs").iterdir()
    cut(folder / "chunks.jsonl")
    from fastapi.testclient import TestClient

    from main import create_app

    with TestClient(create_app(settings=settings, ui=False)) as again:
        stats = again.get("/stats").json()
        assert stats["damaged"] == [] and stats["damaged_with_key"] == 1
        assert again.get("/documents").json()["damaged"] == []
        assert again.get("/documents", params={"collection": "private"}).status_code == 404
        shown = again.get("/documents", params={"collection": "private"}, headers=k).json()["damaged"]
        assert [d["doc_id"] for d in shown] == [r.json()["doc_id"]]


# -- session collections ---------------------------------------------------------------------------------------
def test_an_api_collection_named_like_a_session_survives_a_restart(tmp_path):
    data_dir = tmp_path / "data"
    server = Server(data_dir).start()
    try:
        notes = httpx.post(server.url + "/ingest", files={"file": ("survey.pdf", known_text_pdf(), "application/pdf")},
                           data={"collection": "session-notes"}, timeout=120).json()
        server.stop()
        # A UI session collection left by the previous run (its browsers are gone).
        LocalStore(data_dir, 384).create_session("session-0123456789abcdef")
        assert (data_dir / "collections" / "session-0123456789abcdef" / "manifest.json").exists()

        server.start()
        assert not (data_dir / "collections" / "session-0123456789abcdef").exists()
        listed = httpx.get(server.url + "/documents", params={"collection": "session-notes"}).json()["documents"]
        assert [d["doc_id"] for d in listed] == [notes["doc_id"]]
        reply = httpx.post(server.url + "/query", json={"question": QUESTION, "collection": "session-notes"},
                           timeout=60).json()
        assert CAPITAL in reply["answer"] and reply["citations"][0]["doc_id"] == notes["doc_id"]
    finally:
        server.stop()


def test_no_api_call_creates_a_session_collection(client, settings):
    r = client.post("/ingest", files={"file": ("p.pdf", HARBOUR, "application/pdf")},
                    data={"collection": "session-x"}, headers={"X-Collection-Key": "some-key-0123456789"})
    assert r.status_code == 200
    manifest = json.loads((settings.data_dir / "collections" / "session-x" / "manifest.json").read_text())
    assert manifest["session"] is False
    assert client.app.state.pipeline.store.session_collections() == []


# -- a collection deleted during an upload ----------------------------------------------------------------------
def test_a_claimed_collection_exists_with_its_key_at_once(tmp_path):
    store = LocalStore(tmp_path, DIM)
    assert store.claim("private", "a" * 64)
    assert LocalStore(tmp_path, DIM).key_hash("private") == "a" * 64  # on disk before any document


def test_an_upload_into_a_collection_deleted_meanwhile_fails_and_recreates_nothing(tmp_path):
    store = LocalStore(tmp_path, DIM)
    store.claim("private", "a" * 64)
    started = store.generation("private")
    store.delete_collection("private")  # idle expiry while the upload is being read
    with pytest.raises(CollectionGone, match="was deleted while 'doc.pdf' was being indexed"):
        store.add_document(*make_doc("doc", ["private text"], collection="private"), expect=started)
    assert store.collections() == [] and not (tmp_path / "collections" / "private").exists()
    # Deleted and created again by someone else: still not the upload's collection.
    store.claim("private", "b" * 64)
    with pytest.raises(CollectionGone, match="deleted and created again"):
        store.add_document(*make_doc("doc", ["private text"], collection="private"), expect=started)
    assert store.documents("private") == []


def test_an_expired_session_collection_is_not_recreated_by_its_running_upload(pipeline):
    from fastapi.testclient import TestClient

    from app_gradio import Sessions
    from main import create_app

    sessions = Sessions(pipeline)
    state = sessions.new()
    name = sessions.own_collection(state)

    def expire_midway(progress) -> None:
        if progress.message.startswith("Read ") and name in pipeline.store.collections():
            pipeline.ingestion.delete_collection(name)  # what Sessions.expire does for another visitor meanwhile

    with pytest.raises(CollectionGone) as caught:
        pipeline.ingest(HARBOUR, "private.pdf", collection=name, progress=expire_midway)
    assert "nothing was saved" in caught.value.message
    assert name not in pipeline.store.collections()
    with TestClient(create_app(pipeline=pipeline, ui=False)) as c:
        assert c.get("/documents").json()["documents"] == []
        assert c.get("/documents", params={"collection": name}).status_code == 404
        assert c.get("/stats").json()["collections_with_key"] == 0
    assert sessions.expire(state) is not None and sessions.collection(state) == "default"


def test_the_api_answers_409_when_the_collection_goes_during_the_upload(client):
    p = client.app.state.pipeline
    encode = p.embedder.encode

    def delete_then_encode(*args, **kwargs):
        if "private" in p.store.collections():
            p.ingestion.delete_collection("private")
        return encode(*args, **kwargs)

    p.embedder.encode = delete_then_encode
    try:
        r = client.post("/ingest", files={"file": ("p.pdf", HARBOUR, "application/pdf")},
                        data={"collection": "private"}, headers={"X-Collection-Key": "private-key-0123456789"})
    finally:
        p.embedder.encode = encode
    assert r.status_code == 409 and "was deleted while 'p.pdf' was being indexed" in r.json()["detail"]
    assert client.get("/documents", params={"collection": "private"}).status_code == 404
    assert client.get("/documents").json()["documents"] == []
    with pytest.raises(UnknownCollection):
        p.documents("private")
