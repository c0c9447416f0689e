"""The PostgreSQL store: :class:`retrieval.store_api.Store` over one database (pgvector for vectors, a ``tsvector``
and GIN index for keywords), shared by every process given the same URL.

Opening it applies the schema's migrations (:mod:`retrieval.pg_schema`, once per database, under
:func:`core.postgres.migrate`'s lock) and opens a pool of connections (``psycopg_pool``, 1 to ``pool_size``).
Nothing is cached between calls: every read asks the database, so it sees every write committed before it by any
process. The searches are in :mod:`retrieval.pg_search`.

Each write is one transaction (``READ COMMITTED``) that first locks its collection's row (``SELECT ... FOR
UPDATE``), so writers into one collection, in any process, take turns, and a crash or a killed connection at any
point leaves the transaction undone: the document is all there or not at all. A document's passages and
sentence vectors go in by binary ``COPY``: a 300-passage document with 1,500 sentence vectors is stored in 0.4 s
into an empty database and in 0.9 s once it holds 2,400 passages, three quarters of it pgvector adding the vectors
to the HNSW graph (~1.5 ms a vector; 0.3 s without the graph).

The BM25 statistics (passages and their total length on the collection's row, each term's document frequency in
``store_terms``) are changed by the same transaction: kept rather than counted at query time because the whole
collection's document frequencies are needed even when a search is limited to a few documents, or to the passages
holding every term, and counting them then reads every passage of the collection holding a query term, where
keeping them costs a write one upsert of the document's distinct terms (20-40 ms of a 300-passage document).

A database error during a write raises :class:`core.errors.StorageFull` when the server has no room (SQLSTATE
53100), else :class:`core.errors.StorageFailed`, each with a message for the user; the cause goes to the log.

The uploaded originals are kept in the database (``bytea``), or, with ``originals_dir``, as files in that folder
(shared by every process): written under a temporary name, flushed to disk and renamed before the transaction that
names them commits, and removed once the row naming them is gone. A file no row names (left by a crash) is removed
when a store opens, once it is an hour old.
"""

from __future__ import annotations

import dataclasses
import errno
import logging
import os
import re
import secrets
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import IsolationLevel
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from core.errors import StorageFailed, StorageFull, UnknownCollection, UnknownDocument
from core.postgres import migrate
from core.types import Chunk, DamagedDocument, DocumentRecord
from retrieval.collection_index import IndexConfig
from retrieval.pg_schema import (CHUNK_COPY, CHUNK_TYPES, COMPONENT, SENTENCE_COPY, SENTENCE_TYPES, halfvectors_from,
                                 lexeme, register_raw, steps, term_vector, vector_bytes, vectors_from)
from retrieval.pg_search import CHUNK_COLUMNS, PostgresSearch, chunk_of
from retrieval.sentence_index import SentenceVectors
from retrieval.store_api import ANY, Store, missing_collection, validate_collection_name
from retrieval.store_files import refuse_if_changed
from retrieval.tokenize import tokenize

__all__ = ["PostgresStore"]

log = logging.getLogger(__name__)

_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_ORIGINAL_NAME = re.compile(r"\.?[0-9a-f]{32}(\.tmp)?")
_ORPHAN_AGE = 3600.0  # seconds before a file no row names is taken for a crash's leftover
_RECORD_FIELDS = {f.name for f in dataclasses.fields(DocumentRecord)}


def _storable(text: str | None) -> str | None:
    """``text`` with any NUL (which a PostgreSQL text cannot hold) as U+FFFD, so that offsets into it still hold."""
    return text.replace("\x00", "\ufffd") if text and "\x00" in text else text


def _record(data: dict) -> DocumentRecord:
    return DocumentRecord(**{k: v for k, v in data.items() if k in _RECORD_FIELDS})


class PostgresStore(PostgresSearch, Store):
    """The :class:`Catalog` and :class:`SearchIndex` of one PostgreSQL database (module docstring).

    Parameters
    ----------
    url : the database (``RAG_DATABASE_URL``); it needs the ``vector`` extension, or the right to create it.
    dim, bm25_k1, bm25_b, keyword_prefix, keyword_section : as :class:`retrieval.store.LocalStore`'s.
    originals_dir : folder for the uploaded originals; ``None`` keeps them in the database.
    pool_size : most connections this store opens.
    ef_search : HNSW candidates a vector search visits (``hnsw.ef_search``).
    exact_below : vector searches over fewer passages than this are exact (:mod:`retrieval.pg_search`).
    keyword_match : ``"any"`` (passages holding any query term, as the local store) or ``"all-then-any"``.
    """

    def __init__(self, url: str, dim: int, bm25_k1: float = 1.5, bm25_b: float = 0.75,
                 keyword_prefix: bool = False, keyword_section: bool = False, *, originals_dir: Path | None = None,
                 pool_size: int = 8, ef_search: int = 100, exact_below: int = 20000, keyword_match: str = "any"):
        if keyword_match not in ("any", "all-then-any"):
            raise ValueError(f"keyword_match is 'any' or 'all-then-any', not {keyword_match!r}")
        self.dim, self.k1, self.b = dim, bm25_k1, bm25_b
        self.config = IndexConfig(dim, bm25_k1, bm25_b, keyword_prefix, keyword_section)
        self.ef_search, self.exact_below, self.keyword_match = int(ef_search), int(exact_below), keyword_match
        self.originals_dir = Path(originals_dir) if originals_dir is not None else None
        migrate(url, COMPONENT, steps(dim))
        self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, kwargs={"autocommit": True},
                                    configure=self._configure, check=ConnectionPool.check_connection,
                                    name="rag-store", open=True)
        try:
            with self._pool.connection() as conn:
                held = conn.execute("SELECT atttypmod FROM pg_attribute WHERE attrelid = 'store_chunks'::regclass "
                                    "AND attname = 'embedding'").fetchone()[0]
            if held != dim:
                raise ValueError(f"The database holds vectors of size {held} and this store's are of size {dim}: "
                                 "use the embedding model the database was filled with, or another database.")
            if self.originals_dir is not None:
                self.originals_dir.mkdir(parents=True, exist_ok=True)
                self._remove_orphans()
        except BaseException:
            self._pool.close()
            raise

    @staticmethod
    def _configure(conn) -> None:
        register_vector(conn)
        register_raw(conn)

    def close(self) -> None:
        """Close the pool's connections; the store cannot be used after."""
        self._pool.close()

    # -- transactions --------------------------------------------------------------------------------------------
    @contextmanager
    def _writing(self, what: str):
        """A connection in a ``READ COMMITTED`` transaction, committed at the end; a database error becomes
        :class:`StorageFull` or :class:`StorageFailed` saying ``what`` was not done."""
        try:
            with self._pool.connection() as conn:
                conn.isolation_level, conn.read_only = IsolationLevel.READ_COMMITTED, False
                with conn.transaction():
                    yield conn
        except psycopg.errors.DiskFull as exc:
            log.error("could not save %s: %s", what, exc)
            raise StorageFull(f"The database server's disk is full; nothing was saved ({what}). Earlier documents "
                              "are untouched. Free space on the database server and try again.") from None
        except psycopg.Error as exc:
            log.error("could not save %s: %s: %s", what, type(exc).__name__, exc)
            raise StorageFailed(f"The database could not be written; nothing was saved ({what}). Earlier documents "
                                "are untouched. Try again later; if this persists, the database (RAG_DATABASE_URL) "
                                "needs checking.") from None

    def _lock_collection(self, conn, collection: str, create: bool) -> tuple[int | None, bool]:
        """Lock the collection's row (creating it open to all when ``create`` and it does not exist); its
        generation (``None``: it does not exist) and whether it is keyed."""
        select = "SELECT generation, key_hash IS NOT NULL FROM store_collections WHERE name = %s FOR UPDATE"
        row = conn.execute(select, (collection,)).fetchone()
        if row is None and create:
            row = conn.execute("INSERT INTO store_collections (name) VALUES (%s) ON CONFLICT (name) DO NOTHING "
                               "RETURNING generation, false", (collection,)).fetchone()
            if row is None:  # created by another writer a moment ago
                row = conn.execute(select, (collection,)).fetchone()
        return (int(row[0]), bool(row[1])) if row else (None, False)

    # -- Catalog: reads ------------------------------------------------------------------------------------------
    def _one(self, sql: str, params=()):
        with self._pool.connection() as conn:
            return conn.execute(sql, params).fetchone()

    def _all(self, sql: str, params=()) -> list:
        with self._pool.connection() as conn:
            return conn.execute(sql, params).fetchall()

    def collections(self) -> list[str]:
        return sorted(r[0] for r in self._all("SELECT name FROM store_collections"))

    def key_hash(self, collection: str) -> str | None:
        row = self._one("SELECT key_hash FROM store_collections WHERE name = %s", (collection,))
        return row[0] if row else None

    def session_collections(self) -> list[str]:
        return sorted(r[0] for r in self._all("SELECT name FROM store_collections WHERE session"))

    def generation(self, collection: str) -> int | None:
        row = self._one("SELECT generation FROM store_collections WHERE name = %s", (collection,))
        return int(row[0]) if row else None

    def damaged(self, collection: str | None = None) -> list[DamagedDocument]:
        return []  # a transaction is whole or undone: nothing is ever found half-written

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        if collection is None:
            rows = self._all('SELECT record FROM store_documents ORDER BY collection COLLATE "C", position')
            return [_record(r[0]) for r in rows]
        rows = self._all("SELECT d.record FROM store_collections c LEFT JOIN store_documents d "
                         "ON d.collection = c.name WHERE c.name = %s ORDER BY d.position", (collection,))
        if not rows:
            raise UnknownCollection(missing_collection(collection))
        return [_record(r[0]) for r in rows if r[0] is not None]

    def find_by_sha(self, collection: str, sha256: str) -> DocumentRecord | None:
        row = self._one("SELECT record FROM store_documents WHERE collection = %s AND sha256 = %s "
                        "ORDER BY position LIMIT 1", (collection, sha256))
        return _record(row[0]) if row else None

    def _unknown(self, doc_id: str) -> UnknownDocument:
        return UnknownDocument(f"Document {doc_id!r} does not exist.")

    def document_data(self, doc_id: str) -> tuple[DocumentRecord, list[Chunk], np.ndarray]:
        with self._reading() as conn:
            row = conn.execute("SELECT record FROM store_documents WHERE doc_id = %s", (doc_id,)).fetchone()
            if row is None:
                raise self._unknown(doc_id)
            rows = conn.execute(f"SELECT {CHUNK_COLUMNS}, vector_send(c.embedding) FROM store_chunks c "
                                "WHERE c.doc_id = %s ORDER BY c.ord", (doc_id,)).fetchall()
        return _record(row[0]), [chunk_of(r) for r in rows], vectors_from([r[14] for r in rows], self.dim)

    def document_sentences(self, doc_id: str) -> SentenceVectors | None:
        with self._reading() as conn:
            row = conn.execute("SELECT has_sentences FROM store_documents WHERE doc_id = %s", (doc_id,)).fetchone()
            if row is None:
                raise self._unknown(doc_id)
            if not row[0]:
                return None
            rows = conn.execute("SELECT owner, char_start, char_end, halfvec_send(embedding) FROM store_sentences "
                                "WHERE doc_id = %s ORDER BY ord", (doc_id,)).fetchall()
        column = [np.array([r[i] for r in rows], dtype=np.int32) for i in range(3)]
        return SentenceVectors(*column, halfvectors_from([r[3] for r in rows], self.dim))

    def original(self, doc_id: str) -> bytes | None:
        row = self._one("SELECT o.data, o.file FROM store_documents d LEFT JOIN store_originals o "
                        "ON o.doc_id = d.doc_id WHERE d.doc_id = %s", (doc_id,))
        if row is None:
            raise self._unknown(doc_id)
        data, name = row
        if name is None:
            return bytes(data) if data is not None else None
        if self.originals_dir is None:  # kept as a file by a store given the folder; this one was not
            return None
        try:
            return (self.originals_dir / name).read_bytes()
        except FileNotFoundError:  # replaced by another process a moment ago
            return None

    # -- Catalog: writes -----------------------------------------------------------------------------------------
    def claim(self, collection: str, key_hash: str) -> bool:
        validate_collection_name(collection)
        with self._writing(f"collection {collection!r} was not created") as conn:
            while True:
                if conn.execute("INSERT INTO store_collections (name, key_hash) VALUES (%s, %s) ON CONFLICT (name) "
                                "DO NOTHING RETURNING 1", (collection, key_hash)).fetchone():
                    return True
                row = conn.execute("SELECT key_hash FROM store_collections WHERE name = %s",
                                   (collection,)).fetchone()
                if row is not None:  # else deleted since: try again
                    return row[0] == key_hash

    def create_session(self, collection: str) -> int | None:
        validate_collection_name(collection)
        with self._writing(f"collection {collection!r} was not created") as conn:
            row = conn.execute("INSERT INTO store_collections (name, key_hash, session) VALUES (%s, %s, true) "
                               "ON CONFLICT (name) DO NOTHING RETURNING generation",
                               (collection, secrets.token_hex(32))).fetchone()  # the hash of a key nobody holds
        return int(row[0]) if row else None

    def _prepare(self, record: DocumentRecord, chunks: list[Chunk], vectors: np.ndarray,
                 sentences: SentenceVectors | None) -> tuple[list[tuple], list[tuple], Counter, int]:
        """Check and encode a document before any transaction: its passage rows (without their place), its
        sentence rows, its terms' document frequencies and its total length."""
        vectors = np.asarray(vectors)
        if vectors.shape != (len(chunks), self.dim):
            raise ValueError(f"expected {len(chunks)} vectors of size {self.dim}, got {vectors.shape}")
        if not np.isfinite(vectors).all():
            raise ValueError("the vectors hold NaN or infinite values")
        if len({c.chunk_id for c in chunks}) != len(chunks):
            raise ValueError("two of the document's passages have the same chunk_id")
        df, total, rows = Counter(), 0, []
        for c, payload in zip(chunks, vector_bytes(vectors)):
            tokens = [lexeme(t) for t in tokenize(self.config.keyword_text(c))]
            tf = Counter(tokens)
            head = c.prefix if self.config.keyword_prefix else c.section if self.config.keyword_section else ""
            heading = Counter(lexeme(t) for t in tokenize(head)) if head else None
            df.update(tf.keys())
            total += len(tokens)
            rows.append((c.chunk_id, record.doc_id, record.collection, c.filename, c.page, _storable(c.section),
                         _storable(c.text), c.start, c.end, c.strategy, c.page_end, c.continuation_chars,
                         [b.to_dict() for b in c.blocks],
                         c.page_label, c.page_end_label, payload, term_vector(tf, heading), len(tokens), dict(tf)))
        sentence_rows = []
        if sentences is not None and len(sentences):
            owner, half = np.asarray(sentences.owner), np.asarray(sentences.vectors, dtype=np.float16)
            n = len(owner)
            if half.ndim != 2 or half.shape != (n, self.dim) or len(sentences.start) != n or \
                    len(sentences.end) != n or owner.min() < 0 or owner.max() >= len(chunks):
                raise ValueError("sentence vectors do not match the document's chunks or the embedding size")
            if not np.isfinite(half).all():
                raise ValueError("the sentence vectors hold NaN or infinite values")
            sentence_rows = [(record.doc_id, i, chunks[o].chunk_id, o, s, e, p) for i, (o, s, e, p) in enumerate(zip(
                owner.tolist(), np.asarray(sentences.start).tolist(), np.asarray(sentences.end).tolist(),
                vector_bytes(half, half=True)))]
        return rows, sentence_rows, df, total

    def add_document(self, record: DocumentRecord, chunks: list[Chunk], vectors: np.ndarray,
                     sentences: SentenceVectors | None = None, original: bytes | None = None, *,
                     expect: int | None | object = ANY) -> None:
        collection = validate_collection_name(record.collection)
        rows, sentence_rows, df, total = self._prepare(record, chunks, vectors, sentences)
        what = f"{record.filename!r} was not indexed"
        stored = self._save_original(original, what) if original is not None and self.originals_dir else None
        replaced = None
        try:
            with self._writing(what) as conn:
                generation, keyed = self._lock_collection(conn, collection, create=expect is ANY or expect is None)
                refuse_if_changed(collection, expect, generation, keyed, record.filename)
                old = conn.execute("SELECT collection, position FROM store_documents WHERE doc_id = %s FOR UPDATE",
                                   (record.doc_id,)).fetchone()
                if old is not None and old[0] != collection:
                    raise ValueError(f"Document {record.doc_id!r} is in collection {old[0]!r} already; a document "
                                     "id is unique in the whole store.")
                if old is not None:  # indexed again: replaced whole, in its place
                    replaced = self._remove(conn, record.doc_id, collection)
                position = conn.execute(
                    "INSERT INTO store_documents (doc_id, collection, position, sha256, passages, has_sentences, "
                    "record) VALUES (%s, %s, coalesce(%s, nextval('store_positions')), %s, %s, %s, %s) "
                    "RETURNING position", (record.doc_id, collection, old[1] if old else None, record.sha256,
                                           len(chunks), sentences is not None, Jsonb(record.to_dict()))).fetchone()[0]
                with conn.cursor().copy(CHUNK_COPY) as copy:
                    copy.set_types(CHUNK_TYPES)
                    for i, row in enumerate(rows):
                        copy.write_row(row[:3] + (position, i) + row[3:])
                if sentence_rows:
                    with conn.cursor().copy(SENTENCE_COPY) as copy:
                        copy.set_types(SENTENCE_TYPES)
                        for row in sentence_rows:
                            copy.write_row(row)
                terms = sorted(df)
                conn.execute("INSERT INTO store_terms (collection, lexeme, df) SELECT %s, l, n FROM "
                             "unnest(%s::text[], %s::int4[]) AS u(l, n) ON CONFLICT (collection, lexeme) "
                             "DO UPDATE SET df = store_terms.df + excluded.df",
                             (collection, terms, [df[t] for t in terms]))
                conn.execute("UPDATE store_collections SET passages = passages + %s, terms = terms + %s "
                             "WHERE name = %s", (len(chunks), total, collection))
                if original is not None:
                    conn.execute("INSERT INTO store_originals (doc_id, data, file) VALUES (%s, %b, %s)",
                                 (record.doc_id, None if stored else original, stored))
        except BaseException:
            if stored:
                self._unlink(stored)
            raise
        self._unlink(replaced)

    def _remove(self, conn, doc_id: str, collection: str) -> str | None:
        """Delete a document (locked) and take it out of its collection's statistics; the name of its original's
        file, to remove once the transaction is committed."""
        changed = conn.execute(
            "WITH gone AS (SELECT k AS lexeme, count(*) AS n FROM store_chunks c, jsonb_object_keys(c.tf) k "
            "WHERE c.doc_id = %(doc)s GROUP BY k) UPDATE store_terms t SET df = t.df - gone.n FROM gone "
            "WHERE t.collection = %(collection)s AND t.lexeme = gone.lexeme RETURNING t.lexeme, t.df",
            {"doc": doc_id, "collection": collection}).fetchall()
        unused = [lex for lex, df in changed if df <= 0]
        if unused:
            conn.execute("DELETE FROM store_terms WHERE collection = %s AND lexeme = ANY(%s::text[]) AND df <= 0",
                         (collection, unused))
        conn.execute("UPDATE store_collections s SET passages = s.passages - x.n, terms = s.terms - x.t FROM "
                     "(SELECT count(*) AS n, coalesce(sum(n_terms), 0) AS t FROM store_chunks WHERE doc_id = %s) x "
                     "WHERE s.name = %s", (doc_id, collection))
        row = conn.execute("SELECT file FROM store_originals WHERE doc_id = %s", (doc_id,)).fetchone()
        conn.execute("DELETE FROM store_documents WHERE doc_id = %s", (doc_id,))  # passages, sentences, original
        return row[0] if row else None

    def delete_document(self, doc_id: str) -> DocumentRecord:
        with self._writing(f"document {doc_id!r} was not deleted") as conn:
            while True:
                row = conn.execute("SELECT collection FROM store_documents WHERE doc_id = %s", (doc_id,)).fetchone()
                if row is None:
                    raise self._unknown(doc_id)
                self._lock_collection(conn, row[0], create=False)  # the collection's row first, as every writer
                found = conn.execute("SELECT record FROM store_documents WHERE doc_id = %s AND collection = %s "
                                     "FOR UPDATE", (doc_id, row[0])).fetchone()
                if found is not None:  # else moved or deleted meanwhile: look again
                    break
            file = self._remove(conn, doc_id, row[0])
        self._unlink(file)
        return _record(found[0])

    def delete_collection(self, collection: str) -> list[DocumentRecord]:
        with self._writing(f"collection {collection!r} was not deleted") as conn:
            if self._lock_collection(conn, collection, create=False)[0] is None:
                raise UnknownCollection(missing_collection(collection))
            records = conn.execute("SELECT record FROM store_documents WHERE collection = %s ORDER BY position",
                                   (collection,)).fetchall()
            files = conn.execute("SELECT o.file FROM store_originals o JOIN store_documents d ON d.doc_id = o.doc_id "
                                 "WHERE d.collection = %s AND o.file IS NOT NULL", (collection,)).fetchall()
            conn.execute("DELETE FROM store_collections WHERE name = %s", (collection,))  # and all it holds
        for (name,) in files:
            self._unlink(name)
        return [_record(r[0]) for r in records]

    # -- originals as files ----------------------------------------------------------------------------------------
    def _save_original(self, data: bytes, what: str) -> str:
        """Write an original into the originals folder under a new name (flushed, then renamed into place)."""
        name = secrets.token_hex(16)
        tmp = self.originals_dir / f".{name}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.originals_dir / name)
            folder = os.open(self.originals_dir, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            (self.originals_dir / name).unlink(missing_ok=True)
            log.error("could not save %s: %s", what, exc)
            if exc.errno in _FULL:
                raise StorageFull(f"The originals folder's disk is full; nothing was saved ({what}). Earlier "
                                  "documents are untouched. Free space in RAG_DATABASE_ORIGINALS_DIR and try "
                                  "again.") from None
            raise StorageFailed(f"The originals folder could not be written; nothing was saved ({what}). Earlier "
                                "documents are untouched. Try again later; if this persists, "
                                "RAG_DATABASE_ORIGINALS_DIR needs checking.") from None
        return name

    def _unlink(self, name: str | None) -> None:
        if name and self.originals_dir is not None:
            (self.originals_dir / name).unlink(missing_ok=True)

    def _remove_orphans(self) -> None:
        named = {r[0] for r in self._all("SELECT file FROM store_originals WHERE file IS NOT NULL")}
        cutoff = time.time() - _ORPHAN_AGE
        for path in self.originals_dir.iterdir():
            try:
                if _ORIGINAL_NAME.fullmatch(path.name) and path.name not in named and path.stat().st_mtime < cutoff:
                    path.unlink()
            except OSError:  # removed by another process meanwhile
                continue
