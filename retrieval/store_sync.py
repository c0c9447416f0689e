"""Keeping a :class:`~retrieval.store.LocalStore` in step with what other processes write into the same data folder.

The server, the CLI and any other process may open one ``RAG_DATA_DIR`` at once; each holds every collection in
memory. What one of them writes reaches the others this way:

* **Noticing.** A collection changes only by its ``manifest.json`` being replaced (a new file renamed over the old,
  :func:`retrieval.store_files.write_atomic`), and the manifest changes with every change. Its :func:`signature`
  (inode, modification time in ns, size) therefore changes too: the new file is created while the old one still
  exists, so it never gets the old inode. :class:`ManifestWatch` remembers the signature of each manifest as last
  loaded or written by this process; a read of one collection first stats that manifest (about 2 µs), a read of
  every collection's documents lists the collections folder and stats every manifest, and the list of collection
  names needs one stat of the collections folder while no collection folder is created or removed. A manifest this
  process wrote itself is remembered as written, so its own writes never make it read anything again.
* **Reading only what changed.** A changed collection is loaded again by :func:`load_collection`, which takes every
  document whose manifest entry is unchanged from the index already in memory (a document's files are never
  rewritten: a new version goes into a new folder) and reads only the new ones; the index in memory then changes
  by those documents only (:meth:`CollectionIndex.updated`), as it does for this process's own writes.
* **Never half a change.** Writers hold the data folder's lock exclusively (:class:`DiskLock`: ``flock`` on
  ``<RAG_DATA_DIR>/.store.lock``) from a document's first file until the files the new manifest no longer names are
  removed; a reload holds it shared. A reload therefore never reads a folder that is being removed, and removing
  crash leftovers when a store opens (done exclusively) never removes the files of another process's upload.
* **The same collection, or one created again.** A manifest carries its collection's ``created`` token (random,
  written when the collection is created), so a collection deleted and created again by another process gets a new
  generation here, and an upload into it that started before is refused as it is after a delete in this process.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from core.types import DamagedDocument
from retrieval import heap
from retrieval.collection_index import CollectionIndex, IndexConfig
from retrieval.store_api import COLLECTION_NAME
from retrieval.store_files import Damage, damaged_manifest, load_documents, read_manifest

try:
    import fcntl
except ImportError:  # Windows: no flock; one process per data folder there
    fcntl = None

MANIFEST = "manifest.json"
Signature = tuple[int, int, int]  # (st_ino, st_mtime_ns, st_size) of a manifest
# A listing of the collections folder is trusted while the folder's mtime stays the same only once it is older than
# this: a filesystem's clock ticks coarsely, and a folder created in the same tick as the last change leaves it as is.
SETTLED_NS = 2_000_000_000
# How long a replaced version of a collection's index stays at hand for the searches that read it: a search asks
# for its passages' vectors milliseconds after finding them.
RETIRED_S = 2.0


def signature(path: str | os.PathLike) -> Signature | None:
    """What identifies this version of the file at ``path`` (``None``: there is none)."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


class ManifestWatch:
    """The signature of every collection's manifest as this process last loaded or wrote it.

    Read without a lock (the dictionary is only ever replaced item by item); changed under the store's lock.
    """

    def __init__(self, collections_dir: Path):
        self.dir = str(collections_dir)
        self.seen: dict[str, Signature | None] = {}
        self._listed: tuple[int, int] | None = None  # (st_ino, st_mtime_ns) of the folder at a settled listing
        self._odd: set[str] = set()  # names on disk but not loaded, or loaded but not on disk, at that listing

    def path(self, collection: str) -> str:
        return f"{self.dir}/{collection}/{MANIFEST}"

    def changed(self, collection: str) -> bool:
        """Whether ``collection``'s manifest is not the one last loaded or written (created, replaced or removed
        since). A stat that fails for another reason than a missing file counts as no change."""
        try:
            now = signature(self.path(collection))
        except OSError:
            return False
        return now != self.seen.get(collection)

    def changed_all(self) -> list[str]:
        """Every collection whose manifest changed, appeared or went away: one listing of the collections folder
        and one stat per collection. A folder without a manifest is not a collection (yet: another process may be
        writing its first document)."""
        try:
            with os.scandir(self.dir) as entries:
                on_disk = {e.name for e in entries if not e.name.startswith(".") and e.is_dir()}
        except OSError:
            on_disk = set()
        seen, changed = self.seen, []
        for name in on_disk | seen.keys():
            try:
                st = os.stat(f"{self.dir}/{name}/{MANIFEST}")
                now = st.st_ino, st.st_mtime_ns, st.st_size
            except (FileNotFoundError, NotADirectoryError):
                now = None
            except OSError:
                continue
            if now != seen.get(name):
                changed.append(name)
        return sorted(changed)

    def changed_names(self) -> list[str]:
        """The collections that appeared or went away, without a stat per collection: creating or removing a
        collection's folder changes the collections folder's mtime, so while that stays as it was at the last
        (settled) listing, only the names that were odd then are checked again (a folder still without its first
        manifest, one not loaded yet). A collection changed in place is left to :meth:`changed`."""
        try:
            st = os.stat(self.dir)
        except OSError:
            return self.changed_all()
        folder = st.st_ino, st.st_mtime_ns
        if folder != self._listed:
            try:
                with os.scandir(self.dir) as entries:
                    on_disk = {e.name for e in entries if not e.name.startswith(".") and e.is_dir()}
            except OSError:
                return self.changed_all()
            self._odd = on_disk ^ self.seen.keys()
            self._listed = folder if time.time_ns() - st.st_mtime_ns > SETTLED_NS else None
        return sorted(name for name in self._odd if self.changed(name))

    def note(self, collection: str, sig: Signature | None) -> None:
        if sig is None:
            self.seen.pop(collection, None)
        else:
            self.seen[collection] = sig

    def note_written(self, collection: str) -> None:
        """After this process replaced (or removed) ``collection``'s manifest, under the exclusive disk lock."""
        self.note(collection, signature(self.path(collection)))


class DiskLock:
    """The data folder's lock between processes: ``flock`` on one file, shared (reloading) or exclusive (writing).

    Every use is under the store's own (re-entrant) lock, so one thread at a time holds it here: a use nested in
    another is free, an exclusive one nested in a shared one turns the lock exclusive until the outer use ends.
    Where ``flock`` does not exist or the file cannot be opened (a read-only data folder), it locks nothing.
    """

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None
        self._depth = 0
        self._exclusive = False

    def _open(self) -> int | None:
        if fcntl is None:
            return None
        for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
            try:
                return os.open(self.path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
            except OSError:
                continue
        return None

    @contextmanager
    def hold(self, exclusive: bool) -> Iterator[None]:
        if self._depth == 0:
            self._fd = self._open()
            self._exclusive = exclusive
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        elif exclusive and not self._exclusive:
            self._exclusive = True
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_EX)
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._fd is not None:
                os.close(self._fd)  # releases the flock
                self._fd = None

    def exclusive(self):
        return self.hold(True)

    def shared(self):
        return self.hold(False)


@dataclass
class Loaded:
    """One collection as its manifest on disk describes it."""

    signature: Signature
    index: CollectionIndex | None  # None: the manifest cannot be read (``damaged`` then holds it, under None)
    damaged: dict[str | None, DamagedDocument] = field(default_factory=dict)
    key_sha256: str | None = None
    session: bool = False
    created: str | None = None  # which life of the collection this is (None in manifests older than the token)


def load_collection(folder: Path, config: IndexConfig, previous: CollectionIndex | None = None,
                    previous_damaged: dict[str | None, DamagedDocument] | None = None) -> Loaded | None:
    """Load the collection in ``folder`` from its manifest (``None``: it has none), reading only the documents whose
    entries are not those of ``previous`` (sound, in memory) or ``previous_damaged`` (set aside already, with the
    same entry: not read and logged again). An unreadable manifest sets the whole collection aside."""
    collection, path = folder.name, folder / MANIFEST
    sig = signature(path)
    if sig is None:
        return None
    try:
        manifest = read_manifest(path)
    except Damage as exc:
        if signature(path) is None:
            return None
        return Loaded(sig, None, {None: damaged_manifest(collection, path, exc)})
    entries = manifest["documents"]
    known = previous.records if previous else {}
    aside_before = previous_damaged or {}
    keep, kept_aside, fresh, numbers = {}, {}, [], []
    for number, entry in enumerate(entries, 1):
        doc_id = entry.get("doc_id") if isinstance(entry, dict) else None
        if doc_id is not None and doc_id in known and known[doc_id].to_dict() == entry:
            keep[doc_id] = known[doc_id]
        elif doc_id is not None and doc_id in aside_before and aside_before[doc_id].entry == entry:
            kept_aside[doc_id] = aside_before[doc_id]
        else:
            fresh.append(entry)
            numbers.append(number)
    base = previous if previous is not None else CollectionIndex.empty(config)
    new, damaged = {}, {}
    for entry, number in zip(fresh, numbers):
        # One document at a time: its passage objects are dropped, and their memory reused by the next one's, as
        # soon as it is compacted (read all at once, they left ~55 MB of Python's small-object arenas pinned at
        # 100,000 passages).
        loaded, aside = load_documents(collection, folder / "docs", [entry], config.dim, numbers=[number])
        damaged.update(aside)
        for record, chunks, vectors, sentences in loaded:
            new[record.doc_id] = record, base.prepare(chunks, vectors, sentences)
    records, documents = {}, {}
    for entry in entries:
        doc_id = entry.get("doc_id") if isinstance(entry, dict) else None
        if doc_id in keep:
            records[doc_id] = keep[doc_id]
        elif doc_id in new:
            records[doc_id], documents[doc_id] = new[doc_id]
    unchanged = previous is not None and not new and list(records) == list(previous.records)
    return Loaded(sig, previous if unchanged else base.updated(records, documents), {**kept_aside, **damaged},
                  manifest.get("key_sha256") or None, bool(manifest.get("session")), manifest.get("created"))


def remove_orphans(folder: Path, named: set[str]) -> None:
    """Remove the document folders under ``folder``/docs that ``named`` does not hold, and temporary manifests: what
    a crash leaves. Only with the disk lock held exclusively (no other process is writing)."""
    docs = folder / "docs"
    for doc in docs.iterdir() if docs.exists() else []:
        if doc.name not in named:
            shutil.rmtree(doc, ignore_errors=True)
    for tmp in folder.glob(f".{MANIFEST}.*"):
        tmp.unlink(missing_ok=True)


class DiskSync:
    """The part of :class:`~retrieval.store.LocalStore` that loads collections from disk: all of them when it opens,
    then again whichever another process changed. It works on the store's tables (``_indexes``, ``_keys``,
    ``_sessions``, ``_generations``, ``_created``, ``_damaged``) under the store's ``_lock``."""

    root: Path
    dim: int
    k1: float
    b: float
    keyword_prefix: bool
    keyword_section: bool
    _lock: threading.RLock
    _watch: ManifestWatch
    _disk: DiskLock
    _indexes: dict[str, CollectionIndex]
    _retired: list[tuple[float, str, CollectionIndex]]  # (until, collection, version replaced), oldest first
    _retired_lock: threading.Lock
    _keys: dict[str, str]
    _sessions: set[str]
    _generations: dict[str, int]
    _created: dict[str, str | None]
    _damaged: dict[str, dict[str | None, DamagedDocument]]
    _counter: Iterator[int]

    @property
    def _config(self) -> IndexConfig:
        return IndexConfig(self.dim, self.k1, self.b, self.keyword_prefix, self.keyword_section)

    def _dir(self, collection: str) -> Path:
        return self.root / "collections" / collection

    def _open_all(self) -> None:
        """Load every collection and remove what crashes left, holding the disk lock exclusively: no other process
        is writing, so what no manifest names is a leftover, not an upload in progress."""
        with self._lock, self._disk.exclusive():
            for folder in sorted((self.root / "collections").iterdir()):
                if (folder / MANIFEST).exists():
                    self._apply(folder.name, load_collection(folder, self._config))
                    self._remove_orphans(folder.name)
                elif folder.is_dir():  # a first document or a collection delete interrupted by a crash
                    shutil.rmtree(folder, ignore_errors=True)
        heap.release()

    def _open(self, collection: str) -> None:
        """Load ``collection`` afresh, every document read again (after a change of the keyword settings)."""
        with self._lock, self._disk.shared():
            self._apply(collection, load_collection(self._dir(collection), self._config))
        heap.release()

    def _apply(self, collection: str, loaded: Loaded | None) -> None:
        """Make ``collection`` what ``loaded`` says (``None``: it no longer exists). Its generation stays unless it
        is another life of the collection (deleted and created again)."""
        if loaded is None:
            for table in (self._indexes, self._keys, self._generations, self._damaged, self._created):
                table.pop(collection, None)
            self._sessions.discard(collection)
            self._watch.note(collection, None)
            return
        again = collection not in self._generations or self._created.get(collection) != loaded.created
        self._created[collection] = loaded.created
        if loaded.key_sha256:
            self._keys[collection] = loaded.key_sha256
        else:
            self._keys.pop(collection, None)
        (self._sessions.add if loaded.session else self._sessions.discard)(collection)
        self._damaged[collection] = loaded.damaged
        if loaded.index is None:  # an unreadable manifest: the collection is set aside whole
            self._indexes.pop(collection, None)
            self._generations.pop(collection, None)
        else:
            self._publish(collection, loaded.index)
            if again:
                self._generations[collection] = next(self._counter)
        self._watch.note(collection, loaded.signature)  # last: a reader sees "changed" until all of it is in place

    def _publish(self, collection: str, index: CollectionIndex) -> None:
        """Make ``index`` the version of ``collection`` that searches read. The version it replaces stays at hand for
        :data:`RETIRED_S` seconds (:meth:`_retired_versions`): a search that read it a moment ago may still ask for
        the vectors of the passages it found, some of which the new version may no longer hold."""
        with self._retired_lock:
            now = time.monotonic()
            retired = [r for r in self._retired if r[0] > now]
            old = self._indexes.get(collection)
            if old is not None and old is not index:
                retired.append((now + RETIRED_S, collection, old))
            self._indexes[collection] = index
            self._retired = retired  # replaced whole, never changed in place: readers take it without the lock

    def _drop_retired(self) -> None:
        """Let the versions replaced more than :data:`RETIRED_S` seconds ago go (one comparison while none are), and
        hand the memory they held alone back to the system (~5 ms at 100,000 passages, once after a write)."""
        if self._retired and self._retired[0][0] <= time.monotonic():
            with self._retired_lock:
                now = time.monotonic()
                self._retired = [r for r in self._retired if r[0] > now]
            heap.release()  # what only those versions held (after a removal: a copy of the vectors)

    def _retired_versions(self, collection: str) -> list[CollectionIndex]:
        """The versions of ``collection`` replaced in the last :data:`RETIRED_S` seconds, newest first."""
        self._drop_retired()
        return [index for _, name, index in reversed(self._retired) if name == collection]

    def _sync(self, collection: str) -> None:
        """Load ``collection`` again if another process changed it since (one stat when it did not)."""
        if (collection in self._watch.seen or COLLECTION_NAME.fullmatch(collection)) \
                and self._watch.changed(collection):
            self._reload([collection])

    def _sync_names(self) -> None:
        """Take in the collections another process created or deleted since (one stat while there are none)."""
        if changed := self._watch.changed_names():
            self._reload(changed)

    def _sync_all(self) -> None:
        """Load again every collection another process created, changed or deleted since (one stat each)."""
        if changed := self._watch.changed_all():
            self._reload(changed)

    def _reload(self, names: list[str]) -> None:
        with self._lock, self._disk.shared():
            for name in names:
                if self._watch.changed(name):  # not already loaded by another thread meanwhile
                    self._apply(name, load_collection(self._dir(name), self._config, self._indexes.get(name),
                                                      self._damaged.get(name)))
        heap.release()

    def _remove_orphans(self, collection: str) -> None:
        index = self._indexes.get(collection)
        named = {r.folder or r.doc_id for r in index.records.values()} if index else set()
        named |= {d.folder.removeprefix("docs/") for d in self._damaged.get(collection, {}).values()}
        if index is not None:  # an unreadable manifest may name any folder: nothing is removed
            remove_orphans(self._dir(collection), named)
