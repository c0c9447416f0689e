"""The :class:`retrieval.store_api.SearchIndex` half of the PostgreSQL store (:mod:`retrieval.pg_store`).

Each call is one statement, or one ``REPEATABLE READ`` read-only transaction when it needs several, so it reads
one state of the collection, every write committed before it included.

Vector search is exact below ``exact_below`` passages (the collection's, or its documents' ``doc_ids``): ``ORDER
BY inner_product(...)``, which the HNSW index cannot serve, so the planner scans the collection's rows and small
collections get the local store's hits and cosines (float32 products: equal to FAISS's, bit for bit, for 200
queries of 20 hits on this project's machine). From ``exact_below`` on it goes through the HNSW index (``ORDER BY
embedding <#> query``) with ``hnsw.ef_search`` and ``hnsw.iterative_scan = strict_order`` for the transaction, so
that filtering by collection still yields ``k`` rows; should it yield fewer than there are, the exact search is
run instead.

Keyword search scores like :class:`retrieval.keyword_index.KeywordIndex`, to the bit: the collection's passage
count, total length and each term's document frequency (kept by every write in ``store_collections`` and
``store_terms``: the whole collection's, also when ``doc_ids`` or matching every term narrows the candidates, as
in the local store) give Lucene's idf in Python; the passages whose terms match (GIN) are scored in SQL by the
same float64 operations in the same order (``idf * (tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)))``
summed over the query's tokens, a repeated one again), and the best ``k`` come back, equal scores in collection
order. ``keyword_match="all-then-any"`` first takes only the passages holding every term of the query, and all
those holding any when none does.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from psycopg import IsolationLevel

from core.errors import UnknownCollection
from core.types import Chunk
from retrieval.keyword_index import lucene_idf
from retrieval.pg_schema import halfvectors_from, lexeme, term_query, vectors_from
from retrieval.store_api import SearchIndex, missing_collection

__all__ = ["CHUNK_COLUMNS", "PostgresSearch", "chunk_of"]

CHUNK_COLUMNS = ("c.chunk_id, c.doc_id, c.filename, c.page, c.section, c.text, c.char_start, c.char_end, "
                 "c.strategy, c.page_end, c.continuation_chars, c.blocks, c.page_label, c.page_end_label")
_DOCS = " AND c.doc_id = ANY(%(docs)s::text[])"


def chunk_of(row) -> Chunk:
    """The :class:`Chunk` of a row starting with :data:`CHUNK_COLUMNS`."""
    return Chunk(*row[:14])


def _missing(collection: str) -> UnknownCollection:
    return UnknownCollection(missing_collection(collection))


class PostgresSearch(SearchIndex):
    """Searches and reads of :class:`retrieval.pg_store.PostgresStore` (its pool, ``dim``, BM25 parameters and
    search settings)."""

    @contextmanager
    def _reading(self):
        """A connection in a read-only ``REPEATABLE READ`` transaction: several statements, one snapshot."""
        with self._pool.connection() as conn:
            conn.isolation_level, conn.read_only = IsolationLevel.REPEATABLE_READ, True
            with conn.transaction():
                yield conn

    def _count(self, conn, collection: str, doc_ids: list[str] | None) -> int:
        """The collection's passages (of ``doc_ids`` only, if given); :class:`UnknownCollection`."""
        if doc_ids is None:
            row = conn.execute("SELECT passages FROM store_collections WHERE name = %s", (collection,)).fetchone()
        else:
            row = conn.execute(
                "SELECT (SELECT coalesce(sum(d.passages), 0) FROM store_documents d WHERE d.collection = c.name "
                "AND d.doc_id = ANY(%s::text[])) FROM store_collections c WHERE c.name = %s",
                (list(doc_ids), collection)).fetchone()
        if row is None:
            raise _missing(collection)
        return int(row[0])

    # -- by vector -----------------------------------------------------------------------------------------------
    def semantic_search(self, collection: str, vector: np.ndarray, k: int,
                        doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape != (self.dim,):
            raise ValueError(f"expected a query vector of size {self.dim}, got {np.shape(vector)}")
        params = {"q": query, "collection": collection, "k": int(k), "docs": list(doc_ids or [])}
        where = "c.collection = %(collection)s" + (_DOCS if doc_ids is not None else "")
        with self._reading() as conn:
            n = self._count(conn, collection, doc_ids)
            if k <= 0 or n == 0:
                return []
            rows = None
            if n >= self.exact_below:
                conn.execute("SELECT set_config('hnsw.ef_search', %s, true), "
                             "set_config('hnsw.iterative_scan', 'strict_order', true)", (str(self.ef_search),))
                rows = conn.execute(f"SELECT {CHUNK_COLUMNS}, -(c.embedding <#> %(q)b) FROM store_chunks c "
                                    f"WHERE {where} ORDER BY c.embedding <#> %(q)b LIMIT %(k)s", params).fetchall()
                if len(rows) < min(k, n):  # the graph walk gave up before k rows of this collection
                    rows = None
            if rows is None:
                rows = conn.execute(f"SELECT {CHUNK_COLUMNS}, inner_product(c.embedding, %(q)b) AS score "
                                    f"FROM store_chunks c WHERE {where} "
                                    "ORDER BY score DESC, c.doc_position, c.ord LIMIT %(k)s", params).fetchall()
        return [(chunk_of(r), float(r[14])) for r in rows]

    # -- by keywords ---------------------------------------------------------------------------------------------
    def _statistics(self, conn, collection: str, lexemes: list[str]) -> tuple[int, int, dict[str, int]]:
        """The collection's passage count, total length in terms, and the document frequency of each of
        ``lexemes`` some passage holds."""
        rows = conn.execute(
            "SELECT c.passages, c.terms, t.lexeme, t.df FROM store_collections c LEFT JOIN store_terms t "
            "ON t.collection = c.name AND t.lexeme = ANY(%s::text[]) AND t.df > 0 WHERE c.name = %s",
            (sorted(set(lexemes)), collection)).fetchall()
        if not rows:
            raise _missing(collection)
        return int(rows[0][0]), int(rows[0][1]), {lex: int(df) for _, _, lex, df in rows if lex is not None}

    def keyword_search(self, collection: str, tokens: list[str], k: int,
                       doc_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        lexemes = [lexeme(t) for t in tokens]
        with self._reading() as conn:
            n, total, df = self._statistics(conn, collection, lexemes)
            known = [t for t in lexemes if t in df]  # as KeywordIndex: terms no passage holds are left out
            if k <= 0 or not known:
                return []
            idf = [lucene_idf(n, df[t]) for t in known]
            avgdl = total / n if total else 1.0
            args = (conn, collection, known, idf, avgdl, k, doc_ids)
            if self.keyword_match == "all-then-any":
                found = self._scored(*args, term_query(list(dict.fromkeys(lexemes)), "&"))
                if found:
                    return found
            return self._scored(*args, term_query(list(dict.fromkeys(known)), "|"))

    def _scored(self, conn, collection: str, known: list[str], idf: list[float], avgdl: float, k: int,
                doc_ids: list[str] | None, query: str) -> list[tuple[Chunk, float]]:
        """The best ``k`` passages matching the tsquery ``query``, scored in SQL as KeywordIndex.scores does:
        ``0.0``, then ``+ idf * (tf * (k1 + 1) / (tf + norm))`` for each known token in order (a token a passage
        lacks adds nothing)."""
        distinct = list(dict.fromkeys(known))
        slot = {t: j for j, t in enumerate(distinct)}
        params = {"collection": collection, "query": query, "k": int(k), "docs": list(doc_ids or []),
                  "k1": float(self.k1), "omb": 1 - self.b, "b": float(self.b), "avgdl": float(avgdl),
                  "k1p1": self.k1 + 1}
        params.update({f"l{j}": t for j, t in enumerate(distinct)})
        params.update({f"w{i}": w for i, w in enumerate(idf)})
        tfs = ", ".join(f"(c.tf ->> %(l{j})s::text)::float8 AS t{j}" for j in range(len(distinct)))
        score = "0::float8" + "".join(
            f" + coalesce(%(w{i})s::float8 * (v.t{slot[t]} * %(k1p1)s::float8 / (v.t{slot[t]} + v.norm)), "
            "0::float8)" for i, t in enumerate(known))
        rows = conn.execute(
            f"SELECT {CHUNK_COLUMNS}, s.score FROM store_chunks c "
            "CROSS JOIN LATERAL (SELECT %(k1)s::float8 * (%(omb)s::float8 + %(b)s::float8 * c.n_terms "
            f"/ %(avgdl)s::float8) AS norm, {tfs}) v CROSS JOIN LATERAL (SELECT {score} AS score) s "
            "WHERE c.collection = %(collection)s AND c.terms @@ %(query)s::tsquery"
            f"{_DOCS if doc_ids is not None else ''} ORDER BY s.score DESC, c.doc_position, c.ord LIMIT %(k)s",
            params).fetchall()
        return [(chunk_of(r), float(r[14])) for r in rows]

    def passages_with(self, collection: str, terms: list[str], doc_ids: list[str] | None = None,
                      first_page: bool = False) -> int:
        distinct = list(dict.fromkeys(lexeme(t) for t in terms))
        with self._pool.connection() as conn:
            if len(distinct) == 1 and doc_ids is None and not first_page:  # one term over all: its frequency
                row = conn.execute("SELECT (SELECT df FROM store_terms WHERE collection = c.name AND lexeme = %s) "
                                   "FROM store_collections c WHERE c.name = %s", (distinct[0], collection)).fetchone()
            elif distinct:
                row = conn.execute(
                    "SELECT (SELECT count(*) FROM store_chunks c WHERE c.collection = s.name AND "
                    f"c.terms @@ %(query)s::tsquery{' AND c.page = 1' if first_page else ''}"
                    f"{_DOCS if doc_ids is not None else ''}) FROM store_collections s WHERE s.name = %(collection)s",
                    {"query": term_query(distinct), "docs": list(doc_ids or []), "collection": collection}).fetchone()
            else:
                row = conn.execute("SELECT 0 FROM store_collections WHERE name = %s", (collection,)).fetchone()
        if row is None:
            raise _missing(collection)
        return int(row[0] or 0)

    def chunk_count(self, collection: str, doc_ids: list[str] | None = None) -> int:
        with self._pool.connection() as conn:
            return self._count(conn, collection, doc_ids)

    # -- stored vectors of passages just found ---------------------------------------------------------------------
    def _vectors(self, conn, collection: str, chunk_ids: list[str]) -> np.ndarray:
        rows = conn.execute(
            "SELECT c.chunk_id, vector_send(c.embedding) FROM store_collections s LEFT JOIN store_chunks c "
            "ON c.collection = s.name AND c.chunk_id = ANY(%s::text[]) WHERE s.name = %s",
            (list(chunk_ids), collection)).fetchall()
        if not rows:
            raise _missing(collection)
        found = {cid: data for cid, data in rows if cid is not None}
        missing = next((cid for cid in chunk_ids if cid not in found), None)
        if missing is not None:
            raise KeyError(missing)
        return vectors_from([found[cid] for cid in chunk_ids], self.dim)

    def passage_vectors(self, collection: str, chunk_ids: list[str]) -> np.ndarray:
        with self._pool.connection() as conn:
            return self._vectors(conn, collection, chunk_ids)

    def passage_scores(self, collection: str, vector: np.ndarray,
                       chunk_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        with self._reading() as conn:
            vectors = self._vectors(conn, collection, chunk_ids)
            if not len(chunk_ids):
                return np.zeros(0), np.zeros(0)
            rows = conn.execute("SELECT chunk_id, halfvec_send(embedding) FROM store_sentences "
                                "WHERE chunk_id = ANY(%s::text[]) ORDER BY chunk_id, ord",
                                (sorted(set(chunk_ids)),)).fetchall()
        # The same float32 products as CollectionIndex.passage_scores and DocumentSentences.best.
        vector = vector.astype(np.float32)
        cosines = vectors @ vector
        sentences = halfvectors_from([data for _, data in rows], self.dim)
        spans: dict[str, tuple[int, int]] = {}
        for i, (cid, _) in enumerate(rows):
            spans[cid] = (spans[cid][0], i + 1) if cid in spans else (i, i + 1)
        best = np.full(len(chunk_ids), np.nan)
        for i, cid in enumerate(chunk_ids):
            if cid in spans:
                lo, hi = spans[cid]
                best[i] = float((sentences[lo:hi].astype(np.float32) @ vector).max())
        return cosines.astype(float), best

    def sentence_vectors(self, chunk: Chunk) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT char_start, char_end, halfvec_send(embedding) FROM store_sentences "
                                "WHERE chunk_id = %s ORDER BY ord", (chunk.chunk_id,)).fetchall()
        if not rows:
            return None
        return [(s, e) for s, e, _ in rows], halfvectors_from([d for _, _, d in rows], self.dim).astype(np.float32)
