"""Several processes on one data folder: a running server sees what the CLI (or another store) writes there without a
restart, and the CLI with RAG_SERVER_URL set sends its commands to the server instead of loading the models."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from evaluation.common import free_port
from retrieval import store_files, store_sync
from core.errors import CollectionGone
from retrieval.store import LocalStore
from retrieval.tokenize import tokenize
from tests.support.live_server import DeployedServer
from tests.unit.retrieval.test_store import DIM, make_doc
from tests.support import ROOT

NOTES = ("# Lighthouses of Vellmar\n\nThe lighthouse keeper of Vellmar counts 412 ships every winter. She writes "
         "each ship into a ledger kept in the tower.\n\nIn summer the harbour of Vellmar is closed for repairs.")
QUESTION = "How many ships does the lighthouse keeper of Vellmar count every winter?"
INGESTED = re.compile(r"^(\S+): 1 pages, \d+ passages in \d+\.\d s \(doc_id ([0-9a-f]{16})\)$", re.M)
# Runs the real CLI, then says on stderr whether the process loaded the embedding model (its module, whichever
# backend runs it) or the model libraries.
PROBE = ("import sys, cli\ncode = cli.main(sys.argv[1:])\n"
         "print('MODELS-LOADED' if {'sentence_transformers', 'torch', 'retrieval.embedder'} & set(sys.modules) "
         "else 'NO-MODELS', "
         "file=sys.stderr)\nsys.exit(code)\n")


# -- two stores on one folder, in this process: each stands for a process ------------------------------------------
def test_a_store_sees_collections_and_documents_another_one_adds_changes_and_deletes(tmp_path):
    writer, reader = LocalStore(tmp_path, DIM), LocalStore(tmp_path, DIM)
    assert reader.collections() == []
    first = make_doc("a", ["lighthouse keepers count ships"])
    writer.add_document(*first)
    assert reader.collections() == ["c1"] and [d.doc_id for d in reader.documents("c1")] == ["a"]
    assert reader.semantic_search("c1", first[2][0], 1)[0][0].doc_id == "a"
    writer.add_document(*make_doc("a", ["rain falls in april", "and in may"]))  # indexed again: new folder
    assert [c.text for c, _ in reader.keyword_search("c1", tokenize("rain"), 5)] == ["rain falls in april"]
    assert reader.keyword_search("c1", tokenize("ships"), 5) == []
    writer.delete_document("a")
    assert reader.documents("c1") == [] and reader.passages_with("c1", tokenize("rain")) == 0
    writer.delete_collection("c1")
    assert reader.collections() == [] and reader.documents() == []


def test_only_what_changed_is_read_again_and_a_store_never_reloads_its_own_writes(tmp_path, monkeypatch):
    writer, reader = LocalStore(tmp_path, DIM), LocalStore(tmp_path, DIM)
    writer.add_document(*make_doc("a", ["first text"]))
    writer.add_document(*make_doc("x", ["other collection"], collection="c2"))
    assert reader.collections() == ["c1", "c2"]
    reads, loads = [], []
    real_read, real_load = store_files.read_document, store_sync.load_collection
    monkeypatch.setattr(store_files, "read_document", lambda folder, *a: reads.append(folder.name) or
                        real_read(folder, *a))
    monkeypatch.setattr(store_sync, "load_collection", lambda folder, *a: loads.append(folder.name) or
                        real_load(folder, *a))
    for _ in range(3):
        reader.collections(), reader.documents(), reader.keyword_search("c1", tokenize("text"), 5)
    assert loads == [] and reads == []  # nothing changed: nothing is read
    writer.add_document(*make_doc("b", ["second text"]))
    assert sorted(d.doc_id for d in reader.documents()) == ["a", "b", "x"]
    assert loads == ["c1"] and [name.split(".")[0] for name in reads] == ["b"]  # not "a", not collection c2
    loads.clear()
    writer.add_document(*make_doc("c", ["third text"]))
    writer.collections(), writer.documents("c1"), writer.keyword_search("c1", tokenize("text"), 5)
    assert loads == []  # its own writes are what it holds already


def test_which_collections_exist_takes_one_stat_while_no_collection_folder_comes_or_goes(tmp_path, monkeypatch):
    writer, reader = LocalStore(tmp_path, DIM), LocalStore(tmp_path, DIM)
    writer.add_document(*make_doc("a", ["first"]))
    (tmp_path / "collections" / "c3").mkdir()  # another process's first upload into c3: no manifest yet
    past = time.time() - 60
    os.utime(tmp_path / "collections", (past, past))  # its last change is long past: a listing of it is trusted
    assert reader.collections() == ["c1"]
    listings = []
    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: listings.append(path) or real_scandir(path))
    assert reader.collections() == ["c1"] and listings == []
    writer.add_document(*make_doc("b", ["in c3"], collection="c3"))  # a manifest in c3: the folder above is as it was
    assert reader.collections() == ["c1", "c3"] and listings == []
    writer.add_document(*make_doc("x", ["new"], collection="c2"))  # a new collection folder
    assert reader.collections() == ["c1", "c2", "c3"] and len(listings) == 1
    writer.delete_collection("c1")
    assert reader.session_collections() == [] and reader.collections() == ["c2", "c3"]


def test_a_collection_deleted_and_created_again_elsewhere_is_a_new_one_here(tmp_path):
    here, elsewhere = LocalStore(tmp_path, DIM), LocalStore(tmp_path, DIM)
    here.claim("shared", "a" * 64)
    started = here.generation("shared")  # an upload into it starts here
    here.add_document(*make_doc("one", ["first"], collection="shared"), expect=started)
    elsewhere.add_document(*make_doc("two", ["second"], collection="shared"))  # a change: the same collection
    assert here.generation("shared") == started and len(here.documents("shared")) == 2
    elsewhere.delete_collection("shared")
    elsewhere.claim("shared", "b" * 64)
    assert here.key_hash("shared") == "b" * 64 and here.generation("shared") != started
    with pytest.raises(CollectionGone, match="deleted and created again"):
        here.add_document(*make_doc("late", ["late text"], collection="shared"), expect=started)


def test_two_writers_keep_each_others_documents(tmp_path):
    one, two = LocalStore(tmp_path, DIM), LocalStore(tmp_path, DIM)
    one.add_document(*make_doc("a", ["from the first"]))
    two.add_document(*make_doc("b", ["from the second"]))  # two had not read "a": it does before writing
    one.add_document(*make_doc("c", ["from the first again"]))
    assert sorted(d.doc_id for d in LocalStore(tmp_path, DIM).documents("c1")) == ["a", "b", "c"]


def test_a_store_opening_meanwhile_waits_for_a_write_and_removes_none_of_its_files(tmp_path):
    writer = LocalStore(tmp_path, DIM)
    opened: list[LocalStore] = []
    with writer._lock, writer._disk.exclusive():  # as during an upload: files first, the manifest last
        thread = threading.Thread(target=lambda: opened.append(LocalStore(tmp_path, DIM)))
        thread.start()
        time.sleep(0.5)
        assert not opened  # it would remove the new document's folder, named by no manifest yet
        writer.add_document(*make_doc("a", ["written while another store opened"]))
    thread.join(10)
    assert [d.doc_id for d in opened[0].documents("c1")] == ["a"] and opened[0].damaged() == []


# -- a real server and the real CLI ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with DeployedServer(tmp_path_factory.mktemp("sync") / "data", RAG_PARSE_ISOLATED="false") as running:
        yield running


def run_cli(*args: str, data_dir: Path, server_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "RAG_SERVER_URL": server_url, "RAG_INDEX_SAMPLES": "false",
           "RAG_PARSE_ISOLATED": "false", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=180)


def listed(server: DeployedServer, collection: str | None = None) -> list[str]:
    reply = httpx.get(server.url + "/documents", params={"collection": collection} if collection else None)
    assert reply.status_code == 200, reply.text
    return [d["doc_id"] for d in reply.json()["documents"]]


def test_the_server_answers_from_what_the_cli_ingests_directly_and_forgets_what_it_deletes(server, tmp_path):
    notes = tmp_path / "vellmar.md"
    notes.write_text(NOTES)
    data_dir = Path(server.env["RAG_DATA_DIR"])
    nobody = f"http://127.0.0.1:{free_port()}"  # no server there: the CLI works on the data folder and says so
    done = run_cli("ingest", str(notes), "--collection", "clitest", data_dir=data_dir, server_url=nobody)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(f"No server answers at {nobody}") == 1 and "MODELS-LOADED" in done.stderr
    (name, doc_id), = INGESTED.findall(done.stdout)
    assert name == "vellmar.md"

    assert listed(server, "clitest") == [doc_id] and doc_id in listed(server)  # no restart
    reply = httpx.post(server.url + "/query", json={"question": QUESTION, "collection": "clitest"}, timeout=60)
    assert reply.status_code == 200, reply.text
    assert "412" in reply.json()["answer"] and reply.json()["citations"][0]["doc_id"] == doc_id

    gone = run_cli("delete", doc_id, data_dir=data_dir, server_url="")
    assert gone.returncode == 0 and gone.stdout.strip() == f"deleted vellmar.md ({doc_id})", gone.stderr
    assert listed(server, "clitest") == [] and doc_id not in listed(server)
    reply = httpx.post(server.url + "/query", json={"question": QUESTION, "collection": "clitest"}, timeout=60)
    assert reply.status_code == 200 and doc_id not in reply.text


def test_with_the_server_url_set_the_cli_goes_through_the_server_and_loads_no_model(server, tmp_path):
    notes = tmp_path / "harbour.md"
    notes.write_text(NOTES)
    elsewhere = tmp_path / "not-the-servers-folder"  # anything written directly would land here, not on the server

    def cli(*args: str) -> subprocess.CompletedProcess:
        return run_cli(*args, "--collection", "remote", data_dir=elsewhere, server_url=server.url)

    done = cli("ingest", str(notes))
    assert done.returncode == 0 and "NO-MODELS" in done.stderr and "No server answers" not in done.stderr, \
        done.stderr
    (name, doc_id), = INGESTED.findall(done.stdout)
    assert name == "harbour.md" and listed(server, "remote") == [doc_id]
    assert not (elsewhere / "collections").exists()

    docs = cli("documents")
    assert re.fullmatch(rf"{doc_id}\s+1 pages\s+\d+ passages  harbour\.md\n", docs.stdout), docs.stdout
    asked = cli("ask", QUESTION)
    assert asked.returncode == 0 and "412" in asked.stdout and "passages searched)" in asked.stdout, asked.stderr
    assert "NO-MODELS" in asked.stderr
    missing = run_cli("ask", QUESTION, "--collection", "nowhere", data_dir=elsewhere, server_url=server.url)
    assert missing.returncode == 2 and "Collection 'nowhere' does not exist" in missing.stderr

    gone = cli("delete", doc_id)
    assert gone.stdout.strip() == f"deleted harbour.md ({doc_id})" and listed(server, "remote") == []
    assert "NO-MODELS" in gone.stderr and not (elsewhere / "collections").exists()
