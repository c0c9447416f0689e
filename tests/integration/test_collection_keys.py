"""Isolation through the API: a collection created with a key can be listed, searched, shown and deleted only with
that key, and the UI's session collections are out of the API's reach altogether."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from main import create_app
from tests.support.pdf_factory import make_pdf

ALPHA = make_pdf([[("Alpha team notes: the launch code word is heliotrope.", 11)]])
BETA = make_pdf([[("Beta team notes: the launch code word is marigold.", 11)]])
OPEN = make_pdf([[("Open notes: the cafeteria opens at eight.", 11)]])
K1, K2 = "alpha-key-0123456789", "beta-key-9876543210"
ASK = "What is the launch code word?"


def upload(client, data, name, collection, key=None):
    headers = {"X-Collection-Key": key} if key else {}
    return client.post("/ingest", files={"file": (name, data, "application/pdf")}, data={"collection": collection},
                       headers=headers)


def key(k):
    return {"X-Collection-Key": k} if k else {}


@pytest.fixture
def three(settings):
    with TestClient(create_app(settings=settings, ui=False)) as c:
        ids = {"alpha": upload(c, ALPHA, "alpha.pdf", "alpha", K1).json()["doc_id"],
               "beta": upload(c, BETA, "beta.pdf", "beta", K2).json()["doc_id"],
               "open": upload(c, OPEN, "open.pdf", "default").json()["doc_id"]}
        yield c, ids


@pytest.mark.parametrize("who", [None, K2], ids=["no key", "another collection's key"])
def test_a_keyed_collection_is_invisible_without_its_key(three, who):
    c, ids = three
    listed = c.get("/documents", headers=key(who)).json()["documents"]
    assert ids["alpha"] not in {d["doc_id"] for d in listed}
    assert ids["open"] in {d["doc_id"] for d in listed}  # open collections are listed to all
    # Every way in answers exactly as for a collection or document that does not exist.
    for r, missing in [
        (c.get("/documents", params={"collection": "alpha"}, headers=key(who)),
         c.get("/documents", params={"collection": "nosuch"}, headers=key(who))),
        (c.post("/query", json={"question": ASK, "collection": "alpha"}, headers=key(who)),
         c.post("/query", json={"question": ASK, "collection": "nosuch"}, headers=key(who))),
        (c.post("/query/stream", json={"question": ASK, "collection": "alpha"}, headers=key(who)), None),
        (c.post("/debug/chunks", json={"question": ASK, "collection": "alpha"}, headers=key(who)), None),
        (c.get(f"/documents/{ids['alpha']}/pages/1", headers=key(who)),
         c.get("/documents/0123456789abcdef/pages/1", headers=key(who))),
        (c.delete(f"/documents/{ids['alpha']}", headers=key(who)),
         c.delete("/documents/0123456789abcdef", headers=key(who))),
    ]:
        assert r.status_code == 404, r.text
        assert "heliotrope" not in r.text
        if missing is not None:
            assert r.json()["detail"] == missing.json()["detail"].replace("nosuch", "alpha").replace(
                "0123456789abcdef", ids["alpha"])
    # Nothing was deleted, and the key still opens it.
    docs = c.get("/documents", params={"collection": "alpha"}, headers=key(K1)).json()["documents"]
    assert [d["doc_id"] for d in docs] == [ids["alpha"]]
    stats = c.get("/stats").json()
    assert set(stats["collections"]) == {"default"} and stats["collections_with_key"] == 2


def test_the_key_opens_its_collection_and_only_that(three):
    c, ids = three
    listed = {d["doc_id"] for d in c.get("/documents", headers=key(K1)).json()["documents"]}
    assert listed == {ids["alpha"], ids["open"]}
    reply = c.post("/query", json={"question": ASK, "collection": "alpha"}, headers=key(K1)).json()
    assert "heliotrope" in reply["answer"] and "marigold" not in reply["answer"]
    assert {s["doc_id"] for s in reply["sources"]} == {ids["alpha"]}
    assert c.get(f"/documents/{ids['alpha']}/pages/1", headers=key(K1)).headers["content-type"] == "image/png"
    assert c.delete(f"/documents/{ids['alpha']}", headers=key(K1)).status_code == 200
    # Beta's key never opened alpha, and beta is untouched.
    reply = c.post("/query", json={"question": ASK, "collection": "beta"}, headers=key(K2)).json()
    assert "marigold" in reply["answer"]


def test_uploads_into_someone_elses_collection_are_refused(three):
    c, ids = three
    r = upload(c, OPEN, "mine.pdf", "alpha")
    assert r.status_code == 403
    assert r.json()["detail"] == ("Collection 'alpha' needs its key: send it as X-Collection-Key, or use another "
                                  "collection name.")
    assert upload(c, OPEN, "mine.pdf", "alpha", K2).status_code == 403
    r = upload(c, ALPHA, "mine.pdf", "default", K1)
    assert r.status_code == 403 and "already exists without a key" in r.json()["detail"]
    assert [d["doc_id"] for d in c.get("/documents", params={"collection": "alpha"},
                                       headers=key(K1)).json()["documents"]] == [ids["alpha"]]
    # The owner adds to it as usual.
    assert upload(c, OPEN, "more.pdf", "alpha", K1).status_code == 200


def test_keys_survive_a_restart_and_only_their_hash_is_stored(settings, three):
    c, ids = three
    manifest = (settings.data_dir / "collections" / "alpha" / "manifest.json").read_text()
    assert K1 not in manifest
    with TestClient(create_app(settings=settings, ui=False)) as again:
        assert again.get("/documents", params={"collection": "alpha"}).status_code == 404
        r = again.post("/query", json={"question": ASK, "collection": "alpha"}, headers=key(K1))
        assert "heliotrope" in r.json()["answer"]


def test_ui_session_collections_are_out_of_the_apis_reach(pipeline):
    from app_gradio import Sessions

    sessions = Sessions(pipeline)
    state = sessions.new()
    name = sessions.own_collection(state)
    pipeline.ingest(ALPHA, "private.pdf", collection=name)
    with TestClient(create_app(pipeline=pipeline, ui=False)) as c:
        assert c.get("/documents").json()["documents"] == []
        assert c.get("/documents", params={"collection": name}).status_code == 404
        assert c.post("/query", json={"question": ASK, "collection": name}).status_code == 404
        (doc,) = sessions.own_documents(state)
        assert c.delete(f"/documents/{doc[1]}").status_code == 404
        assert name not in c.get("/stats").json()["collections"]
    # The session itself still sees its upload.
    assert sessions.own_documents(state) == [("private.pdf", doc[1])]
