"""What a store backend implements: a :class:`Catalog` (records, keys, originals, writes) and a
:class:`SearchIndex` (what questions read).

Each caller depends on the narrower of the two it needs: the searcher reads a :class:`SearchIndex` only, the key
checks (:mod:`retrieval.access`) a :class:`Catalog` only; uploads, copies and deletes go through the catalog. One
object per backend implements both (:class:`Store`): :class:`retrieval.store.LocalStore` (FAISS, BM25 and files
under ``RAG_DATA_DIR``, the default) and, written from these docstrings alone, a server-grade one (e.g. PostgreSQL
with pgvector and full-text search). ``tests/unit/retrieval/test_store_contract.py`` runs the same checks against every backend.

Terms used throughout:

* a **collection** is named by :func:`validate_collection_name`; it exists once a document was added to it or it
  was created with a key (:meth:`Catalog.claim`), and until it is deleted;
* a **document** (:class:`core.types.DocumentRecord`) has a ``doc_id`` unique in the whole store, and its passages
  (:class:`core.types.Chunk`) a ``chunk_id`` unique too; a collection lists its documents in the order they were
  first added, and searches see its passages in that order (a document's own in its chunk order);
* **vectors** are float32 rows of the store's embedding size, unit length, one per passage: cosine is their dot
  product;
* **tokens** are BM25 terms made by :func:`retrieval.tokenize.tokenize`, final as given (a backend never stems or
  drops them again).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod

import numpy as np

from core.types import Chunk, DamagedDocument, DocumentRecord
from retrieval.sentence_index import SentenceVectors

__all__ = ["ANY", "COLLECTION_NAME", "Catalog", "SearchIndex", "Store", "missing_collection",
           "validate_collection_name"]

COLLECTION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # matched whole (fullmatch)
ANY = ...  # Catalog.add_document(expect=ANY): whatever became of the collection meanwhile


def validate_collection_name(name: str) -> str:
    """``name`` if it is a valid collection name, checked whole ("abc\\n" is not "abc").

    >>> validate_collection_name("reports-2023")
    'reports-2023'
    >>> validate_collection_name("default\\n")
    Traceback (most recent call last):
    ...
    ValueError: Invalid collection name 'default\\n': use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.
    """
    if not isinstance(name, str) or not name:
        raise ValueError("The collection name is empty: give a name (1-64 letters, digits, '.', '_' or '-'), or "
                         "leave the field out to use 'default'.")
    if not COLLECTION_NAME.fullmatch(name):
        raise ValueError(
            f"Invalid collection name {name!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter "
            "or digit."
        )
    return name


def missing_collection(name: str) -> str:
    """The one message for a collection that does not exist (or that the caller's key does not open)."""
    return f"Collection {name!r} does not exist; upload a document to it first."


class Catalog(ABC):
    """Collections, their documents and keys, the uploaded originals, and every write.

    Every read sees every write finished before it, in this process or in another one using the same data (the
    same data folder, the same database).
    Each write (:meth:`claim`, :meth:`create_session`, :meth:`add_document`, :meth:`delete_document`,
    :meth:`delete_collection`) changes the records and the :class:`SearchIndex` together, and an implementation
    makes it all-or-nothing: after a crash, a full disk or a refusal, the store is as before the write or as after
    it, never in between, and a search never sees half of it. A write that cannot be saved raises
    :class:`core.errors.StorageFull` (no room) or :class:`core.errors.StorageFailed` (anything else).
    """

    # -- collections and keys ------------------------------------------------------------------------------------
    @abstractmethod
    def collections(self) -> list[str]:
        """The names of every collection (keyed and session ones included), sorted. A collection set aside whole
        (see :meth:`damaged`) is not among them."""

    @abstractmethod
    def key_hash(self, collection: str) -> str | None:
        """The SHA-256 (hex) of the key that opens ``collection``, or ``None`` when it is open to all or does not
        exist. Never the key itself: only its hash is stored."""

    @abstractmethod
    def claim(self, collection: str, key_hash: str) -> bool:
        """Create ``collection`` needing the key that hashes to ``key_hash``, if it does not exist yet: in one step,
        so it never exists without its key.

        Returns ``True`` when it was created now or already needs that key; ``False`` when it exists with another
        key or without one (nothing changes then).

        Raises :class:`ValueError` for an invalid name (:func:`validate_collection_name`),
        :class:`core.errors.CollectionDamaged` when the collection is set aside whole, and the storage errors.
        """

    @abstractmethod
    def create_session(self, collection: str) -> int | None:
        """Create a UI session's collection: keyed with a key nobody holds, and listed by
        :meth:`session_collections`. Returns its :meth:`generation`, or ``None`` (nothing done) when the collection
        exists already or is set aside."""

    @abstractmethod
    def session_collections(self) -> list[str]:
        """The existing collections made by :meth:`create_session`, sorted."""

    @abstractmethod
    def generation(self, collection: str) -> int | None:
        """What identifies this life of ``collection``: an int that stays the same while it exists and is new once
        it is deleted and created again (by any process); ``None`` when it does not exist. An upload passes it to
        :meth:`add_document` as ``expect``.

        Raises :class:`core.errors.CollectionDamaged` when the collection is set aside whole."""

    @abstractmethod
    def damaged(self, collection: str | None = None) -> list[DamagedDocument]:
        """What was found unreadable and set aside (never searched) in ``collection``, or in every collection when
        ``None``: documents, and whole collections (``doc_id`` ``None``), each with the reason and ``keyed`` telling
        whether its collection needs a key. A backend that cannot hold damaged data returns ``[]``."""

    # -- documents -----------------------------------------------------------------------------------------------
    @abstractmethod
    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """The documents of ``collection`` in the order they were first added, or of every collection (by name,
        then that order) when ``None``. Raises :class:`core.errors.UnknownCollection` for a collection that does
        not exist."""

    @abstractmethod
    def find_by_sha(self, collection: str, sha256: str) -> DocumentRecord | None:
        """The document of ``collection`` whose upload had this SHA-256 (the first added, if several), or ``None``
        (also when the collection does not exist): how a second upload of the same file is recognised."""

    @abstractmethod
    def document_data(self, doc_id: str) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
        """A document's record, passages (in order) and their vectors (``(len(chunks), dim)``, float32): what
        copying it into another collection needs, without embedding it again. Raises
        :class:`core.errors.UnknownDocument`."""

    @abstractmethod
    def document_sentences(self, doc_id: str) -> SentenceVectors | None:
        """A document's sentence vectors as given to :meth:`add_document`, or ``None`` when it was indexed without
        them. Raises :class:`core.errors.UnknownDocument`."""

    @abstractmethod
    def original(self, doc_id: str) -> bytes | None:
        """The file a document was indexed from (to show its cited pages), or ``None`` when it was not kept. Raises
        :class:`core.errors.UnknownDocument`."""

    # -- writes --------------------------------------------------------------------------------------------------
    @abstractmethod
    def add_document(self, record: DocumentRecord, chunks: list[Chunk], vectors: np.ndarray,
                     sentences: SentenceVectors | None = None, original: bytes | None = None, *,
                     expect: int | None | object = ANY) -> None:
        """Index a document into ``record.collection``, all or nothing, records and search index together.

        Parameters
        ----------
        record : what is listed; ``record.chunks`` is ``len(chunks)``. A document with the same ``doc_id`` in the
            collection is replaced whole (re-indexing) and keeps its place. The store may fill the fields it owns
            (``folder``, ``files``).
        chunks, vectors : the passages and one unit vector each (``(len(chunks), dim)``).
        sentences : the passages' sentence vectors (:class:`SentenceVectors`, ``owner`` indexing ``chunks``), read
            back by :meth:`SearchIndex.passage_scores` and :meth:`SearchIndex.sentence_vectors`.
        original : the uploaded file, kept for :meth:`original`.
        expect : the collection's :meth:`generation` when the upload started, or :data:`ANY`. The collection is
            created (open to all) if it does not exist and ``expect`` is ``None`` or :data:`ANY`.

        Raises
        ------
        ValueError
            ``vectors`` or ``sentences`` do not match the passages or the store's embedding size, or the collection
            name is invalid.
        core.errors.CollectionGone
            The collection is not the one of ``expect``: deleted, deleted and created again, or (``expect``
            ``None``) created with a key meanwhile. Nothing is saved and the collection is not created again.
        core.errors.CollectionDamaged
            The collection is set aside whole.
        core.errors.StorageFull, core.errors.StorageFailed
            Nothing was saved.
        """

    @abstractmethod
    def delete_document(self, doc_id: str) -> DocumentRecord:
        """Remove a document (its passages, vectors and original) and return its record; its collection stays, even
        when emptied. Raises :class:`core.errors.UnknownDocument` and the storage errors."""

    @abstractmethod
    def delete_collection(self, collection: str) -> list[DocumentRecord]:
        """Remove a collection with its key and every document in it; returns the records removed. An upload into
        it that started before is then refused (:class:`core.errors.CollectionGone`). Raises
        :class:`core.errors.UnknownCollection`."""


class SearchIndex(ABC):
    """What questions read: the passages of each collection, searched by vector and by keywords, and their stored
    vectors. Written only through :class:`Catalog`'s writes; every method only reads and may run in many threads
    at once. ``doc_ids`` (where taken) limits a call to those documents (ids not in the collection are ignored);
    ``None`` means the whole collection.
    """

    @abstractmethod
    def semantic_search(self, collection: str, vector: np.ndarray, k: int,
                        doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        """The ``k`` passages (fewer when there are fewer) with the highest cosine to ``vector`` (unit length,
        ``(dim,)``), best first, each with that cosine: exact, not approximate, since the best cosine is the
        searcher's confidence. Raises :class:`core.errors.UnknownCollection`."""

    @abstractmethod
    def keyword_search(self, collection: str, tokens: list[str], k: int,
                       doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        """The ``k`` passages with the highest BM25 score for ``tokens``, best first (equal scores in collection
        order), leaving out those that hold none of them; a token given twice counts twice. The local store scores
        like Lucene (its idf, the store's ``k1`` and ``b``, over the passages' terms); the searcher min-max
        normalises these scores before fusing, so another backend's scale serves if its order matches. Raises
        :class:`core.errors.UnknownCollection`."""

    @abstractmethod
    def passages_with(self, collection: str, terms: list[str], doc_ids: list[str] | None = None,
                      first_page: bool = False) -> int:
        """How many passages hold any of ``terms`` (tokens, as for :meth:`keyword_search`); only those starting on
        page 1 when ``first_page``. Raises :class:`core.errors.UnknownCollection`."""

    @abstractmethod
    def chunk_count(self, collection: str, doc_ids: list[str] | None = None) -> int:
        """How many passages the collection (or its documents ``doc_ids``) has. Raises
        :class:`core.errors.UnknownCollection`."""

    # Chunk ids below come from a search of the same collection just made: a backend answers from the version of
    # the collection that search read when it can (the local store does not reload in between).
    @abstractmethod
    def passage_vectors(self, collection: str, chunk_ids: list[str]) -> np.ndarray:
        """The stored vectors of these passages, in order: ``(len(chunk_ids), dim)`` float32. Raises
        :class:`core.errors.UnknownCollection`; an id not in the collection raises :class:`KeyError`."""

    @abstractmethod
    def passage_scores(self, collection: str, vector: np.ndarray,
                       chunk_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """For each passage, in order: its cosine with ``vector``, and its best sentence's cosine (NaN when it has
        no sentence vectors); two float arrays of ``len(chunk_ids)``. Errors as :meth:`passage_vectors`."""

    @abstractmethod
    def sentence_vectors(self, chunk: Chunk) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        """The ``(start, end)`` offsets in ``chunk.text`` and float32 vectors (``(n, dim)``) of a passage's stored
        sentences, or ``None`` when it has none or is no longer stored. Never raises for an unknown passage."""


class Store(Catalog, SearchIndex, ABC):
    """A whole backend: its :class:`Catalog` and its :class:`SearchIndex` in one object."""
