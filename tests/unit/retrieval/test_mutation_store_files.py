"""The local store's files, written and read back as a restart reads them: atomic writes, checksums, and the reason
a damaged document or manifest is set aside with (the words the user reads in the library)."""

from __future__ import annotations

import errno
import json
import logging
import os
import tempfile

import numpy as np
import pytest

from core.errors import CollectionGone, StorageFailed, StorageFull
from core.types import Chunk, DamagedDocument
from retrieval import store_files as sf
from retrieval.sentence_index import SentenceVectors
from retrieval.store_api import ANY

DIM = 4
KEY = "0123456789abcdef" * 4


def chunks(n: int) -> list[Chunk]:
    return [Chunk(f"d-rc-p1-c{i}", "d", "d.pdf", 1, "Intro", f"passage {i} about harbours", 0, 20) for i in range(n)]


def vectors(n: int) -> np.ndarray:
    return np.arange(n * DIM, dtype=np.float64).reshape(n, DIM) / 10


def sentences(owner: list[int], dim: int = DIM) -> SentenceVectors:
    n = len(owner)
    return SentenceVectors(np.array(owner, dtype=np.int32), np.zeros(n, dtype=np.int32), np.full(n, 5, np.int32),
                           np.ones((n, dim), dtype=np.float16))


# -- writing ---------------------------------------------------------------------------------------------------
def test_an_atomic_write_replaces_the_file_whole_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "chunks.jsonl"
    sf.write_atomic(path, b"old")
    sf.write_atomic(path, b"new content")
    assert path.read_bytes() == b"new content" and os.listdir(tmp_path) == ["chunks.jsonl"]


def test_an_atomic_write_is_on_disk_before_it_replaces_the_old_file(tmp_path, monkeypatch):
    path, seen = tmp_path / "vectors.npy", []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        seen.append(("fsync", os.fstat(fd).st_size))  # flushed first: every byte is in the file
        real_fsync(fd)

    def replace(src, dst):
        seen.append(("replace", os.path.dirname(src) == str(tmp_path), os.path.basename(src).startswith(
            ".vectors.npy."), dst == path))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "elsewhere"))  # the temporary file is beside the target
    sf.write_atomic(path, b"x" * 1000)
    assert seen == [("fsync", 1000), ("replace", True, True, True)]


def test_a_failed_atomic_write_keeps_the_old_content_and_removes_its_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "chunks.jsonl"
    sf.write_atomic(path, b"old")

    def fail(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError):
        sf.write_atomic(path, b"new")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["chunks.jsonl"]
    with pytest.raises(KeyboardInterrupt):  # an interrupted write cleans up as well
        monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(KeyboardInterrupt()))
        sf.write_atomic(path, b"new")
    assert os.listdir(tmp_path) == ["chunks.jsonl"]


def test_a_digest_is_the_sha256_and_size():
    assert sf.digest(b"abc") == {"sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                                 "bytes": 3}


def test_a_documents_files_are_written_with_what_the_manifest_records(tmp_path):
    folder = tmp_path / "docs" / "d"
    found = sentences([0, 1])
    files = sf.write_document_files(folder, chunks(2), vectors(2), found, b"%PDF-1.4")
    assert sorted(os.listdir(folder)) == ["chunks.jsonl", "original", "sentences.npz", "vectors.npy"]
    assert files == {name: sf.digest((folder / name).read_bytes()) for name in os.listdir(folder)}
    lines = (folder / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["chunk_id"] for line in lines] == ["d-rc-p1-c0", "d-rc-p1-c1"]
    assert np.load(folder / "vectors.npy").dtype == np.float32
    back = sf.read_document(folder, 2, DIM, files)
    assert [c.chunk_id for c in back[0]] == ["d-rc-p1-c0", "d-rc-p1-c1"]
    assert np.allclose(back[1], vectors(2)) and list(back[2].owner) == [0, 1]
    bare = sf.write_document_files(tmp_path / "docs" / "e", chunks(1), vectors(1), None, None)
    assert sorted(bare) == ["chunks.jsonl", "vectors.npy"]
    assert sf.read_document(tmp_path / "docs" / "e", 1, DIM, bare)[2] is None


def test_non_ascii_passages_are_stored_as_written(tmp_path):
    chunk = Chunk("d-rc-p1-c0", "d", "d.pdf", 1, "", "\u03b22 = 0.98 \u2014 na\u00efve", 0, 17)
    sf.write_document_files(tmp_path / "d", [chunk], vectors(1), None, None)
    assert "\u03b22 = 0.98" in (tmp_path / "d" / "chunks.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EFBIG])
def test_a_full_disk_is_told_as_such(code, caplog):
    with pytest.raises(StorageFull) as full, caplog.at_level(logging.ERROR):
        with sf.writing("report.pdf"):
            raise OSError(code, "full")
    assert str(full.value) == ("The server's disk is full; nothing was saved (report.pdf). Earlier documents are "
                               "untouched. Free space in the data folder (RAG_DATA_DIR) and try again.")
    assert full.value.__cause__ is None and full.value.__suppress_context__
    assert "could not save report.pdf" in caplog.text


def test_any_other_write_failure_is_told_without_its_cause():
    with pytest.raises(StorageFailed) as failed:
        with sf.writing("report.pdf"):
            raise PermissionError(errno.EACCES, "denied")
    assert str(failed.value) == ("The server could not write to its data folder; nothing was saved (report.pdf). "
                                 "Earlier documents are untouched. Try again later; if this persists, the data "
                                 "folder (RAG_DATA_DIR) needs checking.")
    assert failed.value.__suppress_context__
    with pytest.raises(ValueError):  # not a write failure: passes unchanged
        with sf.writing("x"):
            raise ValueError("bug")
    with sf.writing("x"):
        pass


def test_an_upload_into_a_collection_that_changed_meanwhile_is_refused():
    sf.refuse_if_changed("c", ANY, None, True, "a.pdf")
    sf.refuse_if_changed("c", 3, 3, True, "a.pdf")
    sf.refuse_if_changed("c", None, None, False, "a.pdf")
    sf.refuse_if_changed("c", None, 2, False, "a.pdf")  # created meanwhile without a key: as good
    cases = {(3, None, False): "was deleted", (3, 4, False): "was deleted and created again",
             (None, 2, True): "was created with a key by another upload"}
    for (expect, now, keyed), what in cases.items():
        with pytest.raises(CollectionGone) as gone:
            sf.refuse_if_changed("reports", expect, now, keyed, "a.pdf")
        assert str(gone.value) == (f"Collection 'reports' {what} while 'a.pdf' was being indexed; nothing was saved "
                                   "and the collection was not re-created. Upload the file again (into a new "
                                   "collection if this one was deleted).")


# -- reading ---------------------------------------------------------------------------------------------------
@pytest.fixture
def written(tmp_path):
    folder = tmp_path / "docs" / "d"
    files = sf.write_document_files(folder, chunks(3), vectors(3), sentences([0, 2]), b"%PDF original")
    return folder, files


def damage(folder, files, expected: int = 3, dim: int = DIM) -> str:
    with pytest.raises(sf.Damage) as damaged:
        sf.read_document(folder, expected, dim, files)
    return str(damaged.value)


def test_a_missing_folder_or_file_is_named(written):
    folder, files = written
    assert damage(folder.parent / "gone", files) == "its folder docs/gone is missing"
    (folder / "sentences.npz").unlink()
    assert damage(folder, files) == "sentences.npz is missing"
    (folder / "vectors.npy").unlink()
    assert damage(folder, files) == "vectors.npy is missing"
    (folder / "chunks.jsonl").rename(folder / "chunks.jsonl.bak")
    (folder / "chunks.jsonl").mkdir()  # not a file
    assert damage(folder, files) == "chunks.jsonl is missing"


def test_a_cut_or_edited_chunks_file_names_its_line(written):
    folder, files = written
    data = (folder / "chunks.jsonl").read_bytes()
    (folder / "chunks.jsonl").write_bytes(data[:-10])
    assert damage(folder, files) == "chunks.jsonl is cut short (line 3 of 3)"
    lines = data.decode().splitlines(keepends=True)
    (folder / "chunks.jsonl").write_text(lines[0] + "not json\n" + lines[2])
    assert damage(folder, files) == "chunks.jsonl is damaged (line 2 of 3)"
    (folder / "chunks.jsonl").write_text(lines[0] + '{"chunk_id": 1}\n' + lines[2])  # JSON, but no passage
    assert damage(folder, files) == "chunks.jsonl is damaged (line 2 of 3)"
    (folder / "chunks.jsonl").write_text("".join(lines[:2]))
    assert damage(folder, {}) == "chunks.jsonl holds 2 passages; the manifest says 3"
    (folder / "chunks.jsonl").write_text(lines[0] + lines[1] + lines[2].replace("passage 2", "passage 9"))
    assert damage(folder, files) == "chunks.jsonl has changed since it was written (its checksum does not match)"


def test_a_vectors_file_of_the_wrong_size_or_shape_is_named(written):
    folder, files = written
    data = (folder / "vectors.npy").read_bytes()
    (folder / "vectors.npy").write_bytes(data[:-8])
    assert damage(folder, files) == f"vectors.npy is cut short ({len(data) - 8} of {len(data)} bytes)"
    assert damage(folder, {}) == "vectors.npy cannot be read (cut short or damaged)"
    (folder / "vectors.npy").write_bytes(data + b"\0" * 4)
    assert damage(folder, files) == f"vectors.npy is longer than written ({len(data) + 4} of {len(data)} bytes)"
    (folder / "vectors.npy").write_bytes(data)
    assert damage(folder, files, dim=5) == "vectors.npy holds vectors of shape (3, 4); expected (3, 5)"
    (folder / "vectors.npy").write_bytes(sf.npy_bytes(np.zeros((3, DIM), dtype=np.float32)))
    assert damage(folder, files) == "vectors.npy has changed since it was written (its checksum does not match)"
    (folder / "vectors.npy").write_bytes(b"\x93NUMPY garbage" + b"\0" * (len(data) - 14))
    assert damage(folder, files) == "vectors.npy cannot be read (cut short or damaged)"


def test_sentence_vectors_that_do_not_match_the_passages_are_named(written):
    folder, files = written
    data = (folder / "sentences.npz").read_bytes()
    (folder / "sentences.npz").write_bytes(data[:-20])
    assert damage(folder, files) == f"sentences.npz is cut short ({len(data) - 20} of {len(data)} bytes)"
    assert damage(folder, {}) == "sentences.npz cannot be read (cut short or damaged)"
    mismatch = "sentences.npz does not match the document's 3 passages"
    for bad in (sentences([0, 3]), sentences([-1, 0]), sentences([0, 1], dim=5)):
        (folder / "sentences.npz").write_bytes(bad.to_bytes())
        assert damage(folder, {}) == mismatch
    uneven = SentenceVectors(np.array([0, 1], np.int32), np.zeros(1, np.int32), np.zeros(2, np.int32),
                             np.ones((2, DIM), np.float16))
    (folder / "sentences.npz").write_bytes(uneven.to_bytes())
    assert damage(folder, {}) == mismatch
    short = SentenceVectors(np.array([0, 1], np.int32), np.zeros(2, np.int32), np.zeros(1, np.int32),
                            np.ones((2, DIM), np.float16))
    (folder / "sentences.npz").write_bytes(short.to_bytes())
    assert damage(folder, {}) == mismatch
    few = SentenceVectors(np.array([0, 1], np.int32), np.zeros(2, np.int32), np.zeros(2, np.int32),
                          np.ones((1, DIM), np.float16))
    (folder / "sentences.npz").write_bytes(few.to_bytes())
    assert damage(folder, {}) == mismatch
    (folder / "sentences.npz").write_bytes(sentences([0, 2]).to_bytes())
    assert list(sf.read_document(folder, 3, DIM, {})[2].owner) == [0, 2]
    (folder / "sentences.npz").write_bytes(SentenceVectors.empty(DIM).to_bytes())
    assert len(sf.read_document(folder, 3, DIM, {})[2]) == 0
    (folder / "sentences.npz").write_bytes(sentences([1, 0]).to_bytes())
    assert damage(folder, files) == "sentences.npz has changed since it was written (its checksum does not match)"


def test_the_sentences_file_is_read_when_the_manifest_or_the_folder_has_one(written):
    folder, files = written
    (folder / "sentences.npz").unlink()
    assert damage(folder, files) == "sentences.npz is missing"
    without = {k: v for k, v in files.items() if k != "sentences.npz"}
    assert sf.read_document(folder, 3, DIM, without)[2] is None


def test_the_original_is_checked_by_size_only(written):
    folder, files = written
    (folder / "original").write_bytes(b"%PDF ORIGINAL")  # same size, other bytes: not hashed at each start
    assert len(sf.read_document(folder, 3, DIM, files)[0]) == 3
    (folder / "original").write_bytes(b"%PDF")
    assert damage(folder, files) == "original is cut short (4 of 13 bytes)"
    (folder / "original").unlink()
    assert damage(folder, files) == "original is missing"
    assert len(sf.read_document(folder, 3, DIM, {k: v for k, v in files.items() if k != "original"})[0]) == 3


def test_a_manifest_that_cannot_be_read_or_is_not_a_manifest(tmp_path):
    path = tmp_path / "manifest.json"
    path.write_text('{"documents": []}', encoding="utf-8")
    assert sf.read_manifest(path) == {"documents": []}
    cases = {b'{"documents": [': "manifest.json is damaged (not valid JSON; cut short or overwritten)",
             b'[]': "manifest.json is damaged (it does not list the collection's documents)",
             b'{"documents": {}}': "manifest.json is damaged (it does not list the collection's documents)",
             b'{"docs": []}': "manifest.json is damaged (it does not list the collection's documents)",
             b'\xff\xfe{}': "manifest.json cannot be read (UnicodeDecodeError)"}
    for data, reason in cases.items():
        path.write_bytes(data)
        with pytest.raises(sf.Damage, match=f"^{reason.replace('(', '.').replace(')', '.')}$"):
            sf.read_manifest(path)
    with pytest.raises(sf.Damage, match=r"^manifest.json cannot be read \(FileNotFoundError\)$"):
        sf.read_manifest(tmp_path / "none.json")


def test_an_unreadable_manifest_still_tells_whether_its_collection_had_a_key(tmp_path, caplog):
    path = tmp_path / "manifest.json"
    path.write_bytes(b'{"key_sha256" : "' + KEY.encode() + b'", "documents": [\xff')
    assert sf.manifest_names_a_key(path) is True
    path.write_bytes(b'{"key_sha256": "' + KEY[:-1].encode() + b'", "documents": [')
    assert sf.manifest_names_a_key(path) is False
    path.write_bytes(b'{"key_sha256": "' + KEY.upper().encode() + b'"')
    assert sf.manifest_names_a_key(path) is False
    assert sf.manifest_names_a_key(tmp_path / "none.json") is True  # unreadable: never named, to be safe
    path.write_text(f'{{"key_sha256": "{KEY}", "documents": [', encoding="utf-8")
    with caplog.at_level(logging.ERROR):
        listed = sf.damaged_manifest("private", path, sf.Damage("manifest.json is damaged (x)"))
    assert listed == DamagedDocument("private", None, None, "manifest.json is damaged (x). Its files are kept as "
                                     "they are: restore manifest.json from a backup, or remove the collection's "
                                     "folder, then restart.", "manifest.json", keyed=True)
    assert [r.getMessage() for r in caplog.records] == ["collection 'private' set aside: manifest.json is damaged (x)"]


def test_documents_load_and_the_damaged_ones_are_set_aside_with_their_reason(tmp_path, caplog):
    docs = tmp_path / "docs"
    good = sf.write_document_files(docs / "good", chunks(2), vectors(2), None, None)
    cut = sf.write_document_files(docs / "cut", chunks(2), vectors(2), None, None)
    (docs / "cut" / "chunks.jsonl").write_bytes((docs / "cut" / "chunks.jsonl").read_bytes()[:-5])
    entry = {"doc_id": "good", "filename": "good.pdf", "collection": "c", "sha256": "s", "pages": 1, "chunks": 2,
             "added_at": 0.0, "files": good, "folder": "good"}
    entries = [entry, {**entry, "doc_id": "cut", "filename": "cut.pdf", "files": cut, "folder": "cut"},
               {"doc_id": "odd", "filename": "odd.pdf", "unknown": 1}, "not an entry",
               {**entry, "doc_id": "gone", "folder": ""}]
    with caplog.at_level(logging.ERROR):
        loaded, damaged = sf.load_documents("c", docs, entries, DIM)
    assert [(r.doc_id, len(c), v.shape) for r, c, v, _ in loaded] == [("good", 2, (2, DIM))]
    assert sorted(damaged) == ["cut", "entry 4", "gone", "odd"]
    assert damaged["cut"] == DamagedDocument("c", "cut", "cut.pdf", "chunks.jsonl is cut short (line 2 of 2). Its "
                                             "files are kept as they are; upload the file again to repair it.",
                                             "docs/cut", entries[1])
    assert damaged["odd"].reason.startswith("its entry in manifest.json is damaged (entry 3).")
    assert damaged["odd"].folder == "docs/odd" and damaged["odd"].filename == "odd.pdf"
    assert damaged["entry 4"].reason.startswith("its entry in manifest.json is damaged (entry 4).")
    assert damaged["entry 4"].filename is None and damaged["entry 4"].entry == "not an entry"
    assert damaged["gone"].reason.startswith("its folder docs/gone is missing.")
    assert caplog.records[0].getMessage() == ("collection 'c': document cut (cut.pdf) set aside: chunks.jsonl is cut "
                                              "short (line 2 of 2)")
    # Entries that are only some of a manifest's are numbered by their place in it.
    _, damaged = sf.load_documents("c", docs, [entries[3]], DIM, numbers=[7])
    assert list(damaged) == ["entry 7"] and "(entry 7)" in damaged["entry 7"].reason


def test_a_damaged_last_line_that_is_complete_is_damaged_not_cut(written):
    folder, files = written
    lines = (folder / "chunks.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "chunks.jsonl").write_text(lines[0] + lines[1] + "not json\n", encoding="utf-8")
    assert damage(folder, {}) == "chunks.jsonl is damaged (line 3 of 3)"


def test_bytes_that_are_not_utf8_inside_a_passage_are_read_replaced(tmp_path):
    folder = tmp_path / "d"
    sf.write_document_files(folder, chunks(1), vectors(1), None, None)
    data = (folder / "chunks.jsonl").read_bytes().replace(b"harbours", b"harb\xffurs")
    (folder / "chunks.jsonl").write_bytes(data)
    assert sf.read_document(folder, 1, DIM, {})[0][0].text == "passage 0 about harb\ufffdurs"


def test_vectors_stored_as_python_objects_are_never_loaded(written):
    import io

    folder, _ = written
    buf = io.BytesIO()
    np.save(buf, np.empty((3, DIM), dtype=object), allow_pickle=True)
    (folder / "vectors.npy").write_bytes(buf.getvalue())
    assert damage(folder, {}) == "vectors.npy cannot be read (cut short or damaged)"


def test_a_sentences_file_of_the_right_size_that_cannot_be_read_says_so(written):
    folder, files = written
    size = files["sentences.npz"]["bytes"]
    (folder / "sentences.npz").write_bytes(b"\0" * size)  # the size it was written with, nothing readable
    assert damage(folder, files) == "sentences.npz cannot be read (cut short or damaged)"
