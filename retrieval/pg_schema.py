"""The PostgreSQL store's schema (:mod:`retrieval.pg_store`) and the binary forms its rows are written in.

Tables, all named ``store_*`` (the database is shared with the limits and the upload queue):

==================  ==============================================================================================
store_collections   one row a collection: its key's hash, whether it is a UI session's, its generation (a new
                    number from a sequence each time it is created), and its BM25 statistics: passages and the sum
                    of their lengths in terms
store_documents     one row a document: its collection, its place (a number from a sequence, kept when it is
                    indexed again), its upload's SHA-256 and its :class:`core.types.DocumentRecord` as JSON
store_chunks        one row a passage: the :class:`core.types.Chunk` fields, its place (the document's, then its
                    own), its vector (``vector(dim)``), its terms (``tsvector``, for matching), their count (its BM25
                    length) and each term's frequency (``jsonb``, for scoring)
store_sentences     one row a sentence vector (``halfvec(dim)``, float16 as given) with its passage and offsets
store_terms         per collection and term, how many passages hold it (BM25's document frequency)
store_originals     the uploaded file, or the name of its file in the originals folder
==================  ==============================================================================================

Deleting a collection's row deletes the rest of it (foreign keys ``ON DELETE CASCADE``), and a document's row its
passages, sentences and original. Indexes: HNSW (inner product) on the passage vectors, GIN on the terms, btrees on
each collection's passage order and on its documents' order and SHA-256s.

A term is stored as given (:func:`lexeme`): the tsvector is written in PostgreSQL's binary form
(:func:`term_vector`) and queries are tsquery literals (:func:`term_query`), so PostgreSQL's text parser never
touches a term. A tsvector keeps at most 256 positions of a term, so a term's positions here are ``1..tf`` (not
its places in the text) and its exact frequency is in ``tf``: a query matching 44,000 passages of 120 terms took
390 ms reading each term's key of that ``jsonb`` and 690 ms counting its positions in the tsvector (255 ms
matching alone). Terms of the section heading (or contextual prefix) indexed with a passage are labelled weight
A, the others B.

A passage's row is kept whole in its page unless it is larger than one (``toast_tuple_target`` 8160; the vector
never leaves the row): with PostgreSQL's default, the terms and frequencies of a 384-dimension passage went to
TOAST and a keyword search over 2,400 passages (all matching) took 45 ms instead of 15.
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from functools import lru_cache

import numpy as np
from psycopg.adapt import Dumper
from psycopg.pq import Format

__all__ = ["CHUNK_COPY", "CHUNK_TYPES", "COMPONENT", "SENTENCE_COPY", "SENTENCE_TYPES", "halfvectors_from", "lexeme",
           "register_raw", "steps", "term_query", "term_vector", "vector_bytes", "vectors_from"]

COMPONENT = "store"  # its name in schema_migrations
_MAX_LEXEME = 2046  # bytes; PostgreSQL refuses longer lexemes (2047) in a tsvector or tsquery
_MAX_POSITIONS = 256  # positions a tsvector keeps of one lexeme
_WEIGHT_A, _WEIGHT_B = 3 << 14, 2 << 14


def steps(dim: int) -> list[str]:
    """The schema's migration steps, for a store of ``dim``-dimensional vectors. Never edited once released: a
    change is a new step at the end."""
    return [
        "CREATE EXTENSION IF NOT EXISTS vector",
        f"""
        CREATE SEQUENCE store_generations;
        CREATE SEQUENCE store_positions;
        CREATE TABLE store_collections (
            name text PRIMARY KEY,
            key_hash text,
            session boolean NOT NULL DEFAULT false,
            generation bigint NOT NULL DEFAULT nextval('store_generations'),
            created_at timestamptz NOT NULL DEFAULT now(),
            passages bigint NOT NULL DEFAULT 0,
            terms bigint NOT NULL DEFAULT 0);
        CREATE TABLE store_documents (
            doc_id text PRIMARY KEY,
            collection text NOT NULL REFERENCES store_collections (name) ON DELETE CASCADE,
            position bigint NOT NULL,
            sha256 text NOT NULL,
            passages integer NOT NULL,
            has_sentences boolean NOT NULL,
            record jsonb NOT NULL);
        CREATE INDEX store_documents_order ON store_documents (collection, position);
        CREATE INDEX store_documents_sha ON store_documents (collection, sha256, position);
        CREATE TABLE store_chunks (
            chunk_id text PRIMARY KEY,
            doc_id text NOT NULL REFERENCES store_documents (doc_id) ON DELETE CASCADE,
            collection text NOT NULL,
            doc_position bigint NOT NULL,
            ord integer NOT NULL,
            filename text, page integer, section text, text text, char_start integer, char_end integer,
            strategy text, page_end integer, continuation_chars integer, blocks jsonb, page_label text,
            page_end_label text,
            embedding vector({dim}) NOT NULL,
            terms tsvector NOT NULL,
            n_terms integer NOT NULL,
            tf jsonb NOT NULL);
        ALTER TABLE store_chunks ALTER COLUMN embedding SET STORAGE PLAIN;
        ALTER TABLE store_chunks SET (toast_tuple_target = 8160);
        CREATE INDEX store_chunks_order ON store_chunks (collection, doc_position, ord);
        CREATE INDEX store_chunks_document ON store_chunks (doc_id, ord);
        CREATE INDEX store_chunks_terms ON store_chunks USING gin (terms);
        CREATE INDEX store_chunks_embedding ON store_chunks USING hnsw (embedding vector_ip_ops);
        CREATE TABLE store_sentences (
            doc_id text NOT NULL REFERENCES store_documents (doc_id) ON DELETE CASCADE,
            ord integer NOT NULL,
            chunk_id text NOT NULL,
            owner integer NOT NULL,
            char_start integer NOT NULL,
            char_end integer NOT NULL,
            embedding halfvec({dim}) NOT NULL,
            PRIMARY KEY (doc_id, ord));
        CREATE INDEX store_sentences_chunk ON store_sentences (chunk_id, ord);
        CREATE TABLE store_terms (
            collection text NOT NULL REFERENCES store_collections (name) ON DELETE CASCADE,
            lexeme text NOT NULL,
            df integer NOT NULL,
            PRIMARY KEY (collection, lexeme));
        CREATE TABLE store_originals (
            doc_id text PRIMARY KEY REFERENCES store_documents (doc_id) ON DELETE CASCADE,
            data bytea,
            file text,
            CHECK ((data IS NULL) <> (file IS NULL)));
        """,
    ]


# What a document's COPYs write, with each column's type (for ``set_types``).
CHUNK_COPY = ("COPY store_chunks (chunk_id, doc_id, collection, doc_position, ord, filename, page, section, text, "
              "char_start, char_end, strategy, page_end, continuation_chars, blocks, page_label, page_end_label, "
              "embedding, terms, n_terms, tf) FROM STDIN (FORMAT BINARY)")
CHUNK_TYPES = ["text", "text", "text", "int8", "int4", "text", "int4", "text", "text", "int4", "int4", "text", "int4",
               "int4", "jsonb", "text", "text", "vector", "tsvector", "int4", "jsonb"]
SENTENCE_COPY = ("COPY store_sentences (doc_id, ord, chunk_id, owner, char_start, char_end, embedding) "
                 "FROM STDIN (FORMAT BINARY)")
SENTENCE_TYPES = ["text", "int4", "text", "int4", "int4", "int4", "halfvec"]


# -- terms -------------------------------------------------------------------------------------------------------
def lexeme(token: str) -> str:
    """The lexeme a token is stored and searched as: itself, or for a token PostgreSQL cannot hold as a lexeme
    (empty, or longer than 2,046 bytes) a digest of it that no token is.

    >>> lexeme("o(√t)"), len(lexeme("x" * 3000))
    ('o(√t)', 65)
    """
    if 0 < len(token) <= _MAX_LEXEME // 4:  # 4 bytes a character at most
        return token
    data = token.encode("utf-8")
    if 0 < len(data) <= _MAX_LEXEME:
        return token
    return "\x1f" + hashlib.sha256(data).hexdigest()


def term_vector(tf: dict[str, int], heading: Counter | None = None) -> bytes:
    """A tsvector in PostgreSQL's binary form: each lexeme of ``tf`` with positions ``1..tf`` (at most 256),
    the first ``heading[lexeme]`` of them weight A, the rest B."""
    out = [struct.pack(">i", len(tf))]
    for data, lex, count in sorted((lex.encode("utf-8"), lex, count) for lex, count in tf.items()):  # by bytes
        out.append(data)
        out.append(_positions(min(count, _MAX_POSITIONS), heading.get(lex, 0) if heading else 0))
    return b"".join(out)


@lru_cache(maxsize=4096)
def _positions(n: int, a: int) -> bytes:
    """What follows a lexeme in a binary tsvector: its end, ``n`` positions, the first ``a`` of them weight A."""
    a = min(a, n)
    positions = [_WEIGHT_A | j for j in range(1, a + 1)] + [_WEIGHT_B | j for j in range(a + 1, n + 1)]
    return b"\0" + struct.pack(f">H{n}H", n, *positions)


def term_query(lexemes: list[str], operator: str = "|") -> str:
    """A tsquery literal matching passages holding any (``|``) or all (``&``) of ``lexemes``, each quoted so that
    it is taken as it is.

    >>> term_query(["a'b", "o(√t)"])
    "'a''b' | 'o(√t)'"
    """
    quoted = ("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in lexemes)
    return f" {operator} ".join(quoted)


# -- vectors -------------------------------------------------------------------------------------------------------
def vector_bytes(vectors: np.ndarray, half: bool = False) -> list[bytes]:
    """Each row in the binary form of pgvector's ``vector`` (float32) or ``halfvec`` (float16): big-endian
    dimension, a zero, then the values."""
    rows = np.ascontiguousarray(vectors, dtype=">f2" if half else ">f4")
    head = struct.pack(">HH", rows.shape[1] if rows.ndim == 2 else 0, 0)
    return [head + row.tobytes() for row in rows]


def _from(payloads: list[bytes], dim: int, dtype: str) -> np.ndarray:
    size = np.dtype(dtype).itemsize
    if not payloads:
        return np.zeros((0, dim), dtype=dtype[1:])
    raw = np.frombuffer(b"".join(payloads), dtype=np.uint8).reshape(len(payloads), 4 + size * dim)
    return raw[:, 4:].copy().view(dtype).astype(dtype[1:])


def vectors_from(payloads: list[bytes], dim: int) -> np.ndarray:
    """``(len(payloads), dim)`` float32 from ``vector_send`` values."""
    return _from(payloads, dim, ">f4")


def halfvectors_from(payloads: list[bytes], dim: int) -> np.ndarray:
    """``(len(payloads), dim)`` float16 from ``halfvec_send`` values, bit for bit as stored."""
    return _from(payloads, dim, ">f2")


class _Raw(Dumper):
    """Writes a value already in PostgreSQL's binary form (COPY with ``set_types`` only)."""

    format = Format.BINARY

    def dump(self, obj):
        return obj


def register_raw(conn) -> None:
    """Make COPY (``set_types``) take ``vector``, ``halfvec`` and ``tsvector`` values already in binary form
    (:func:`vector_bytes`, :func:`term_vector`) on this connection; nothing else is changed."""
    for name in ("vector", "halfvec", "tsvector"):
        info = conn.adapters.types.get(name)
        oid = info.oid if info is not None else conn.execute("SELECT %s::regtype::oid", (name,)).fetchone()[0]
        conn.adapters.register_dumper(None, type(f"Raw_{name}", (_Raw,), {"oid": oid}))
