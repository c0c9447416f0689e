"""The local store's files: atomic writes, per-file checksums, and the checks a document's files pass when loaded.

A document whose files do not match what its manifest entry says (cut short, edited, missing, wrong counts) is
never loaded: it is set aside as a :class:`DamagedDocument`, its folder kept untouched, and listed with the reason.
Every other document keeps answering. A write that fails (a full disk above all) raises a typed error whose message
the user can act on; the caller removes whatever it had written.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from core.errors import CollectionGone, StorageFailed, StorageFull
from core.types import Chunk, DamagedDocument, DocumentRecord
from retrieval.sentence_index import SentenceVectors
from retrieval.store_api import ANY

log = logging.getLogger(__name__)

CHUNKS, VECTORS, SENTENCES, ORIGINAL = "chunks.jsonl", "vectors.npy", "sentences.npz", "original"
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}  # no space, over quota, over the file size limit
_KEY = re.compile(r'"key_sha256"\s*:\s*"[0-9a-f]{64}"')


class Damage(Exception):
    """A document's (or a manifest's) files do not match what was written; ``str()`` says how."""


def damaged_manifest(collection: str, path: Path, exc: Damage) -> DamagedDocument:
    """The entry listing a collection whose manifest cannot be read (its files are left as they are)."""
    log.error("collection %r set aside: %s", collection, exc)
    return DamagedDocument(collection, None, None, f"{exc}. Its files are kept as they are: restore manifest.json "
                           "from a backup, or remove the collection's folder, then restart.", "manifest.json",
                           keyed=manifest_names_a_key(path))


def refuse_if_changed(collection: str, expect: int | None | object, now: int | None, keyed: bool,
                      filename: str) -> None:
    """:class:`CollectionGone` unless the collection is the one the upload started with (generation ``expect``,
    ``None``: there was none, and one created meanwhile without a key is as good), or ``expect`` is :data:`ANY`."""
    if expect is ANY or now == expect or (expect is None and not keyed):
        return
    what = "was deleted" if now is None else "was deleted and created again" if expect is not None \
        else "was created with a key by another upload"
    raise CollectionGone(f"Collection {collection!r} {what} while {filename!r} was being indexed; nothing was saved "
                         "and the collection was not re-created. Upload the file again (into a new collection if "
                         "this one was deleted).")


# -- writing ---------------------------------------------------------------------------------------------------
def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that the path holds either the old content or all of the new (fsync'd)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def npy_bytes(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def digest(data: bytes) -> dict:
    """What a manifest records of one file: its SHA-256 and size."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


@contextmanager
def writing(what: str) -> Iterator[None]:
    """Turn a failed write into :class:`StorageFull` (no space) or :class:`StorageFailed` (anything else), with a
    message for the user; the cause goes to the log only."""
    try:
        yield
    except OSError as exc:
        log.error("could not save %s: %s", what, exc)
        if exc.errno in _FULL:
            raise StorageFull(f"The server's disk is full; nothing was saved ({what}). Earlier documents are "
                              "untouched. Free space in the data folder (RAG_DATA_DIR) and try again.") from None
        raise StorageFailed(f"The server could not write to its data folder; nothing was saved ({what}). Earlier "
                            "documents are untouched. Try again later; if this persists, the data folder "
                            "(RAG_DATA_DIR) needs checking.") from None


def write_document_files(folder: Path, chunks: list[Chunk], vectors: np.ndarray, sentences: SentenceVectors | None,
                         original: bytes | None) -> dict:
    """Write a document's files into the new ``folder``; returns what the manifest records of each."""
    folder.mkdir(parents=True)
    files = {CHUNKS: "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks).encode("utf-8"),
             VECTORS: npy_bytes(vectors.astype(np.float32))}
    if sentences is not None:
        files[SENTENCES] = sentences.to_bytes()
    if original is not None:
        files[ORIGINAL] = original
    for name, data in files.items():
        write_atomic(folder / name, data)
    return {name: digest(data) for name, data in files.items()}


def load_documents(collection: str, docs: Path, entries: list, dim: int,
                   numbers: list[int] | None = None) -> tuple[list, dict[str, DamagedDocument]]:
    """Read every document a manifest lists from ``docs`` (the collection's docs folder); ``numbers``: each entry's
    place in the manifest, when ``entries`` are only some of its entries (1, 2, ... by default).

    Returns ``[(record, chunks, vectors, sentences)]`` of the sound ones and, by doc id, those set aside (their
    folders are not touched).
    """
    loaded, damaged = [], {}
    for number, entry in zip(numbers or range(1, len(entries) + 1), entries):
        data = entry if isinstance(entry, dict) else {}
        doc_id = str(data.get("doc_id") or f"entry {number}")
        folder = str(data.get("folder") or doc_id)
        try:
            try:
                record = DocumentRecord(**data)
            except TypeError:
                raise Damage(f"its entry in manifest.json is damaged (entry {number})") from None
            loaded.append((record, *read_document(docs / folder, record.chunks, dim, record.files)))
        except Damage as exc:
            log.error("collection %r: document %s (%s) set aside: %s", collection, doc_id, data.get("filename"), exc)
            damaged[doc_id] = DamagedDocument(
                collection, doc_id, data.get("filename"),
                f"{exc}. Its files are kept as they are; upload the file again to repair it.", f"docs/{folder}",
                entry)
    return loaded, damaged


# -- reading -----------------------------------------------------------------------------------------------------
def read_manifest(path: Path) -> dict:
    """A collection's manifest; :class:`Damage` when it cannot be read or is not a manifest."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Damage(f"manifest.json cannot be read ({type(exc).__name__})") from None
    try:
        manifest = json.loads(text)
    except ValueError:
        raise Damage("manifest.json is damaged (not valid JSON; cut short or overwritten)") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("documents"), list):
        raise Damage("manifest.json is damaged (it does not list the collection's documents)")
    return manifest


def manifest_names_a_key(path: Path) -> bool:
    """Whether an unreadable manifest still shows that its collection had a key (then it is never named)."""
    try:
        return bool(_KEY.search(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return True


def _read(folder: Path, name: str) -> bytes:
    path = folder / name
    if not path.is_file():
        raise Damage(f"{name} is missing")
    return path.read_bytes()


def _as_written(name: str, data: bytes, files: dict, checksum: bool = True) -> None:
    """:class:`Damage` unless the file's size (and checksum) are those the manifest recorded, if it did."""
    want = files.get(name) or {}
    if "bytes" in want and len(data) != want["bytes"]:
        raise Damage(f"{name} is {'cut short' if len(data) < want['bytes'] else 'longer than written'} "
                     f"({len(data)} of {want['bytes']} bytes)")
    if checksum and want.get("sha256") and hashlib.sha256(data).hexdigest() != want["sha256"]:
        raise Damage(f"{name} has changed since it was written (its checksum does not match)")


def read_document(folder: Path, chunks_expected: int, dim: int,
                  files: dict) -> tuple[list[Chunk], np.ndarray, SentenceVectors | None]:
    """Load one document's files, checking them against its manifest entry.

    Parameters
    ----------
    folder : the document's folder.
    chunks_expected : its passage count in the manifest.
    dim : the store's embedding size.
    files : name -> ``{"sha256", "bytes"}`` as written (empty for documents written before checksums were kept:
        then only counts and shapes are checked).

    Raises
    ------
    Damage
        Something does not match; the message names the file and what is wrong.
    """
    if not folder.is_dir():
        raise Damage(f"its folder docs/{folder.name} is missing")
    # The most telling reason first: the line where chunks.jsonl breaks; a binary file's size before its content.
    raw = {CHUNKS: _read(folder, CHUNKS), VECTORS: _read(folder, VECTORS)}
    chunks = _read_chunks(raw[CHUNKS], chunks_expected)
    _as_written(VECTORS, raw[VECTORS], files, checksum=False)
    vectors = _read_vectors(raw[VECTORS], chunks_expected, dim)
    sentences = None
    if SENTENCES in files or (folder / SENTENCES).exists():
        raw[SENTENCES] = _read(folder, SENTENCES)
        _as_written(SENTENCES, raw[SENTENCES], files, checksum=False)
        sentences = _read_sentences(raw[SENTENCES], chunks_expected, dim)
    for name, data in raw.items():
        _as_written(name, data, files)
    if ORIGINAL in files:  # size only: hashing every uploaded PDF at each start costs too much
        _as_written(ORIGINAL, _read(folder, ORIGINAL), files, checksum=False)
    return chunks, vectors, sentences


def _read_chunks(data: bytes, expected: int) -> list[Chunk]:
    lines = data.decode("utf-8", errors="replace").splitlines(keepends=True)
    chunks = []
    for number, line in enumerate(lines, 1):
        try:
            chunks.append(Chunk.from_dict(json.loads(line)))
        except (ValueError, TypeError):
            cut = number == len(lines) and not line.endswith("\n")
            raise Damage(f"{CHUNKS} is {'cut short' if cut else 'damaged'} (line {number} of {expected})") from None
    if len(chunks) != expected:
        raise Damage(f"{CHUNKS} holds {len(chunks)} passages; the manifest says {expected}")
    return chunks


def _read_vectors(data: bytes, expected: int, dim: int) -> np.ndarray:
    try:
        vectors = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, EOFError, OSError):
        raise Damage(f"{VECTORS} cannot be read (cut short or damaged)") from None
    if vectors.shape != (expected, dim):
        raise Damage(f"{VECTORS} holds vectors of shape {tuple(vectors.shape)}; expected ({expected}, {dim})")
    return vectors


def _read_sentences(data: bytes, passages: int, dim: int) -> SentenceVectors:
    try:
        sentences = SentenceVectors.from_file(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - a cut zip fails in many ways (BadZipFile, EOFError, KeyError, ValueError)
        raise Damage(f"{SENTENCES} cannot be read (cut short or damaged)") from None
    n = len(sentences.owner)
    if not (len(sentences.start) == len(sentences.end) == n and sentences.vectors.shape[0] == n) or (
            n and (sentences.vectors.shape[1] != dim or sentences.owner.min() < 0
                   or sentences.owner.max() >= passages)):
        raise Damage(f"{SENTENCES} does not match the document's {passages} passages")
    return sentences
