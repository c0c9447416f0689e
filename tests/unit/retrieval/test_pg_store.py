"""The PostgreSQL store (:mod:`retrieval.pg_store`) beyond the contract, against a real PostgreSQL with pgvector
(:mod:`tests.support.postgres`): the local store's hits and scores, matching every term first, writes left undone
when their connection is killed or the disk is full, two stores on one database, migrations, the exact and HNSW
vector paths, and the originals kept in the database or as files."""

from __future__ import annotations

import dataclasses
import doctest
import os
import threading
import time
from contextlib import contextmanager

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from core.errors import CollectionGone, StorageFailed, StorageFull
from core.types import Chunk, DocumentRecord
import retrieval.pg_schema
from retrieval.pg_schema import steps
from retrieval.pg_store import PostgresStore
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore
from retrieval.tokenize import tokenize
from tests.unit.retrieval.test_store_contract import DIM, HARBOUR, MILL, document, ids, unit_vectors

WORDS = ("revenue margin quarter growth demand supply customer product market price cost risk model training "
         "learning rate optimizer gradient batch layer network attention token sequence harbour ship lighthouse "
         "keeper dawn rain wheat flour windmill river bridge engine signal report annual filing segment income "
         "expense cash flow asset liability equity share dividend interest loan credit policy governance trust "
         "safety evaluation benchmark dataset accuracy precision recall error loss weight bias fairness privacy "
         "security system framework function process measure manage map govern document page table figure").split()
QUERIES = ["revenue growth", "learning rate optimizer", "harbour ship harbour", "risk governance trust safety",
           "cash flow", "volcano", "o(√t) regret", "windmill wheat flour river", "x" * 3000]


@pytest.fixture
def open_pg():
    """Opens PostgresStores (closed after the test)."""
    opened = []

    def open_one(url: str, **options) -> PostgresStore:
        opened.append(PostgresStore(url, DIM, pool_size=4, **options))
        return opened[-1]

    yield open_one
    for store in opened:
        store.close()


def corpus(seed: int = 0) -> list[tuple]:
    """Three documents of English-like passages (sections, repeated words, a passage given twice, a term 300 times,
    an expression, a 3,000-character token), with sentence vectors on most passages."""
    rng = np.random.default_rng(seed)
    p = 1 / np.arange(1, len(WORDS) + 1)
    out = []
    for d in range(3):
        doc_id, texts = f"d{d}", []
        for i in range(14):
            words = rng.choice(WORDS, size=int(rng.integers(8, 60)), p=p / p.sum())
            texts.append((1 + i // 4, f"Section {WORDS[(d * 7 + i // 4) % len(WORDS)]} growth", " ".join(words)))
        texts.append((5, "Notes", "the harbour ship sails at dawn"))  # the same passage in every document: ties
        if d == 1:
            texts += [(6, "", "harbour " * 300), (6, "Proof", "Regret grows as O(√T) for f(x') here."),
                      (7, "", "x" * 3000 + " report")]
        chunks = [Chunk(f"{doc_id}-rc-p{page}-c{i}", doc_id, f"{doc_id}.pdf", page, section, text, 0, len(text))
                  for i, (page, section, text) in enumerate(texts)]
        vectors = unit_vectors(len(chunks), seed * 10 + d)
        owner = np.array([i for i in range(len(chunks) - 1) for _ in range(1 + i % 3)], dtype=np.int32)
        sentences = SentenceVectors(owner, np.zeros(len(owner), np.int32), np.full(len(owner), 5, np.int32),
                                    unit_vectors(len(owner), 100 + d).astype(np.float16))
        record = DocumentRecord(doc_id, f"{doc_id}.pdf", "reports", f"sha-{doc_id}", 7, len(chunks), 0.0)
        out.append((record, chunks, vectors, sentences))
    return out


def add(store, record, chunks, vectors, sentences=None, **kw):
    store.add_document(dataclasses.replace(record), chunks, vectors, sentences, **kw)  # a store may fill the record


def assert_same_keyword_hits(local, pg, tokens, k, doc_ids=None):
    want, got = local.keyword_search("reports", tokens, k, doc_ids), pg.keyword_search("reports", tokens, k, doc_ids)
    assert ids(got) == ids(want), (tokens, k, doc_ids)
    for (_, a), (_, b) in zip(want, got):
        assert abs(a - b) <= 1e-9 * abs(a)


def assert_statistics_hold(url: str):
    """The kept BM25 statistics are those counted from the passages."""
    with psycopg.connect(url) as conn:
        kept = conn.execute("SELECT c.name, c.passages, c.terms, count(k.chunk_id), coalesce(sum(k.n_terms), 0) "
                            "FROM store_collections c LEFT JOIN store_chunks k ON k.collection = c.name "
                            "GROUP BY c.name, c.passages, c.terms").fetchall()
        assert all(r[1] == r[3] and r[2] == r[4] for r in kept), kept
        df = conn.execute("SELECT collection, lexeme, df FROM store_terms ORDER BY 1, 2").fetchall()
        counted = conn.execute("SELECT collection, key, count(*) FROM store_chunks, jsonb_object_keys(tf) key "
                               "GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
        assert df == counted


@pytest.mark.parametrize("prefix, section", [(False, False), (False, True), (True, False)])
def test_the_same_hits_and_scores_as_the_local_store(tmp_path, database_url, open_pg, prefix, section):
    local = LocalStore(tmp_path, DIM, keyword_prefix=prefix, keyword_section=section)
    pg = open_pg(database_url, keyword_prefix=prefix, keyword_section=section)
    docs = corpus()
    for store in (local, pg):
        for doc in docs:
            add(store, *doc)

    def compare():
        for query in QUERIES:
            tokens = tokenize(query)
            for k, doc_ids in [(50, None), (3, None), (50, ["d1"]), (4, ["d0", "d2", "nope"]), (5, [])]:
                assert_same_keyword_hits(local, pg, tokens, k, doc_ids)
            for doc_ids, first_page in [(None, False), (None, True), (["d2"], False), (["d0"], True)]:
                assert pg.passages_with("reports", tokens, doc_ids, first_page) == \
                    local.passages_with("reports", tokens, doc_ids, first_page)
        for doc_ids in (None, ["d1"], ["d0", "d2"]):
            assert pg.chunk_count("reports", doc_ids) == local.chunk_count("reports", doc_ids)
            for vector in [docs[0][2][3], docs[2][2][0], unit_vectors(1, 77)[0]]:
                want = local.semantic_search("reports", vector, 6, doc_ids)
                got = pg.semantic_search("reports", vector, 6, doc_ids)
                assert ids(got) == ids(want)
                assert np.allclose([s for _, s in got], [s for _, s in want], rtol=0, atol=1e-5)
                chunk_ids = ids(want)
                (lc, lb), (pc, pb) = local.passage_scores("reports", vector, chunk_ids), \
                    pg.passage_scores("reports", vector, chunk_ids)
                assert np.allclose(pc, lc, atol=1e-6) and np.allclose(pb, lb, atol=1e-6, equal_nan=True)
        for chunk in docs[1][1][:5]:
            (ls, lv), (ps, pv) = local.sentence_vectors(chunk), pg.sentence_vectors(chunk)
            assert ps == ls and np.array_equal(pv, lv)

    compare()
    # The kept statistics follow a document removed and one indexed again (new passages, in its old place).
    for store in (local, pg):
        store.delete_document("d0")
        add(store, *corpus(seed=5)[2])
    assert [r.doc_id for r in pg.documents("reports")] == [r.doc_id for r in local.documents("reports")]
    compare()
    assert_statistics_hold(database_url)


def test_section_heading_terms_are_weight_a_and_body_terms_weight_b(database_url, open_pg):
    pg = open_pg(database_url, keyword_section=True)
    record, chunks, vectors, _ = document("mill", MILL)
    add(pg, record, [dataclasses.replace(chunks[0], section="Windmill flour")], vectors)
    with psycopg.connect(database_url) as conn:
        heading, body = conn.execute("SELECT tsvector_to_array(ts_filter(terms, '{a}')), "
                                     "tsvector_to_array(ts_filter(terms, '{b}')) FROM store_chunks").fetchone()
    assert sorted(heading) == ["flour", "windmil"] and sorted(body) == ["flour", "grind", "wheat", "windmil"]


def test_a_nul_in_a_passage_is_kept_as_a_replacement_character(database_url, open_pg):
    pg = open_pg(database_url)
    record, chunks, vectors, _ = document("mill", [(1, "the windmill\x00grinds wheat")])
    add(pg, record, chunks, vectors)
    assert pg.document_data("mill")[1][0].text == "the windmill\ufffdgrinds wheat"
    assert ids(pg.keyword_search("reports", tokenize("grinds"), 5)) == ["mill-rc-p1-c0"]


def test_all_then_any_takes_the_passages_holding_every_term_first(database_url, open_pg):
    strict, anyway = open_pg(database_url, keyword_match="all-then-any"), open_pg(database_url)
    add(strict, *document("harbour", HARBOUR))
    add(strict, *document("mill", MILL, seed=1))
    scores = dict((c.chunk_id, s) for c, s in anyway.keyword_search("reports", tokenize("harbour ships"), 10))
    assert len(scores) == 3
    hits = strict.keyword_search("reports", tokenize("harbour ships"), 10)
    assert ids(hits) == ["harbour-rc-p2-c2"] and hits[0][1] == scores["harbour-rc-p2-c2"]  # BM25 all the same
    for query, doc_ids in [("harbour windmill", None), ("harbour volcano", None), ("harbour wheat", ["mill"])]:
        # none holds every term: every passage holding one, as "any" gives
        got, want = (s.keyword_search("reports", tokenize(query), 10, doc_ids) for s in (strict, anyway))
        assert got == want and got
    with pytest.raises(ValueError):
        PostgresStore(database_url, DIM, keyword_match="most")


def big_document(doc_id="big", passages=300, per=5, collection="reports"):
    texts = [(1 + i // 3, " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(40))) for i in range(passages)]
    record, chunks, vectors, _ = document(doc_id, texts, collection=collection, sentences=False, seed=3)
    owner = np.repeat(np.arange(passages, dtype=np.int32), per)
    sentences = SentenceVectors(owner, np.zeros(len(owner), np.int32), np.full(len(owner), 9, np.int32),
                                unit_vectors(len(owner), 4).astype(np.float16))
    return record, chunks, vectors, sentences


def snapshot(url: str) -> list:
    with psycopg.connect(url) as conn:
        return [conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in
                ("store_documents", "store_chunks", "store_sentences", "store_terms", "store_originals")] + \
            conn.execute("SELECT name, passages, terms FROM store_collections ORDER BY name").fetchall()


def test_a_large_document_is_stored_quickly_and_read_back_bit_for_bit(database_url, open_pg):
    pg = open_pg(database_url)
    record, chunks, vectors, sentences = big_document()
    started = time.perf_counter()
    add(pg, record, chunks, vectors, sentences)
    took = time.perf_counter() - started
    assert took < 1.5, f"a 300-passage document with 1,500 sentence vectors took {took:.2f} s"
    back = pg.document_sentences("big")
    assert back.vectors.dtype == np.float16 and np.array_equal(back.vectors.view(np.uint16),
                                                               sentences.vectors.view(np.uint16))
    assert np.array_equal(back.owner, sentences.owner) and np.array_equal(back.end, sentences.end)
    assert np.array_equal(pg.document_data("big")[2], vectors)
    add(pg, *document("plain", MILL, sentences=False))
    assert pg.document_sentences("plain") is None


def test_a_write_whose_connection_is_killed_leaves_no_trace(database_url, open_pg):
    pg = open_pg(database_url)
    add(pg, *document("harbour", HARBOUR))
    before = snapshot(database_url)
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                      "IF NEW.ord = 700 THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$")
        admin.execute("CREATE TRIGGER stall BEFORE INSERT ON store_sentences FOR EACH ROW EXECUTE FUNCTION stall()")
        killed = []

        def kill():  # the writer's backend, once it sleeps half-way through the sentences' COPY
            with psycopg.connect(database_url, autocommit=True) as conn:
                for _ in range(200):
                    row = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                       "datname = current_database() AND wait_event = 'PgSleep'").fetchone()
                    if row:
                        killed.append(row[0])
                        return
                    time.sleep(0.05)

        killer = threading.Thread(target=kill)
        killer.start()
        with pytest.raises(StorageFailed) as failed:
            add(pg, *big_document())
        killer.join()
        assert killed == [True]
        assert "terminat" not in str(failed.value) and "nothing was saved" in str(failed.value)
        assert snapshot(database_url) == before
        assert [r.doc_id for r in pg.documents("reports")] == ["harbour"]
        assert ids(pg.keyword_search("reports", tokenize("lighthouse"), 5)) == ["harbour-rc-p1-c0"]
        assert ids(pg.semantic_search("reports", document("harbour", HARBOUR)[2][1], 1)) == ["harbour-rc-p1-c1"]
        admin.execute("DROP TRIGGER stall ON store_sentences")
    add(pg, *big_document())  # the pool replaced the dead connection
    assert pg.chunk_count("reports") == 303
    assert_statistics_hold(database_url)


def test_a_full_disk_is_storage_full_and_nothing_is_kept(database_url, tmp_path, open_pg):
    pg = open_pg(database_url, originals_dir=tmp_path / "originals")
    add(pg, *document("harbour", HARBOUR), original=b"%PDF harbour")
    before = snapshot(database_url)
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                      "IF NEW.ord = 3 THEN RAISE EXCEPTION 'could not extend file' USING ERRCODE = '53100'; END IF; "
                      "RETURN NEW; END $$")
        admin.execute("CREATE TRIGGER full_disk BEFORE INSERT ON store_sentences FOR EACH ROW "
                      "EXECUTE FUNCTION full_disk()")
    with pytest.raises(StorageFull) as full:
        add(pg, *big_document(), original=b"%PDF big")
    assert "extend" not in str(full.value) and "disk is full" in str(full.value)
    assert snapshot(database_url) == before and len(os.listdir(tmp_path / "originals")) == 1
    with pytest.raises(ValueError):  # refused before anything is written
        add(pg, *big_document()[:2], np.full((300, DIM), np.nan, dtype=np.float32))
    assert snapshot(database_url) == before


def test_two_stores_on_one_database_see_each_other_and_write_in_turn(database_url, open_pg):
    first, second = open_pg(database_url), open_pg(database_url)
    add(first, *document("harbour", HARBOUR))
    tokens = tokenize("harbour ships")
    assert second.keyword_search("reports", tokens, 5) == first.keyword_search("reports", tokens, 5)
    errors, start = [], threading.Barrier(2)

    def upload(store, name):
        try:
            start.wait()
            for i in range(3):
                add(store, *document(f"{name}{i}", HARBOUR + MILL, collection="shared", seed=i))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=upload, args=(s, n)) for s, n in ((first, "a"), (second, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(r.doc_id for r in second.documents("shared")) == ["a0", "a1", "a2", "b0", "b1", "b2"]
    with psycopg.connect(database_url) as conn:
        positions = [r[0] for r in conn.execute("SELECT position FROM store_documents WHERE collection = 'shared'")]
    assert len(set(positions)) == 6 and first.chunk_count("shared") == 24
    assert_statistics_hold(database_url)
    with pytest.raises(ValueError, match="unique in the whole store"):
        add(first, *document("a0", MILL, collection="reports"))


def test_migrations_run_once(database_url, open_pg):
    open_pg(database_url)
    open_pg(database_url)
    with psycopg.connect(database_url) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations WHERE component = 'store' "
                                               "ORDER BY version")]
    assert versions == list(range(1, len(steps(DIM)) + 1))
    with pytest.raises(ValueError, match="size 384"):
        PostgresStore(database_url, 768)


class _Recorder:
    """A connection that notes every statement run through it."""

    def __init__(self, conn, log):
        object.__setattr__(self, "_conn", conn)
        object.__setattr__(self, "_log", log)

    def execute(self, sql, params=None, **kw):
        self._log.append((sql, params))
        return self._conn.execute(sql, params, **kw)

    def __getattr__(self, name):
        return getattr(self._conn, name)

    def __setattr__(self, name, value):
        setattr(self._conn, name, value)


def recorded(monkeypatch, store: PostgresStore) -> list:
    """The statements ``store`` runs from now on, as they run."""
    log, real = [], store._pool.connection

    @contextmanager
    def recording(*args, **kwargs):
        with real(*args, **kwargs) as conn:
            yield _Recorder(conn, log)

    monkeypatch.setattr(store._pool, "connection", recording)
    return log


def plan_of_last_search(url: str, log: list) -> str:
    """EXPLAIN of the last vector search statement logged, with the settings the store gave its transaction."""
    sql, params = next(entry for entry in reversed(log) if "FROM store_chunks" in entry[0] and "embedding" in entry[0])
    with psycopg.connect(url) as conn:
        register_vector(conn)
        settings = next((e for e in reversed(log) if "hnsw.ef_search" in e[0]), None)
        if settings is not None and "<#>" in sql:
            conn.execute(*settings)
        return "\n".join(r[0] for r in conn.execute("EXPLAIN " + sql, params))


def test_exact_search_below_the_threshold_and_hnsw_above_it(database_url, open_pg, monkeypatch):
    pg = open_pg(database_url, exact_below=1000)
    rng = np.random.default_rng(0)
    centres = unit_vectors(100, 5)
    points = centres[rng.integers(0, 100, 5000)] + 0.08 * rng.normal(size=(5000, DIM)).astype(np.float32)
    points = (points / np.linalg.norm(points, axis=1, keepdims=True)).astype(np.float32)
    for d in range(10):
        texts = [(1, f"passage {i}") for i in range(500)]
        record, chunks, _, _ = document(f"big{d}", texts, collection="big", sentences=False)
        add(pg, record, chunks, points[d * 500:(d + 1) * 500])
    add(pg, *document("harbour", HARBOUR, collection="small"))
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("ANALYZE")
    exact = open_pg(database_url, exact_below=10**6)
    log, exact_log = recorded(monkeypatch, pg), recorded(monkeypatch, exact)
    query = points[7]
    hits = exact.semantic_search("big", query, 8)  # 5,000 passages, but below this store's threshold
    assert "store_chunks_embedding" not in plan_of_last_search(database_url, exact_log)
    assert ids(hits) == [f"big{i // 500}-rc-p1-c{i % 500}" for i in np.argsort(-(points @ query))[:8].tolist()]
    pg.semantic_search("small", query, 8)
    assert "store_chunks_embedding" not in plan_of_last_search(database_url, log)
    assert len(pg.semantic_search("big", query, 8, doc_ids=["big3"])) == 8  # 500 passages: exact
    assert "store_chunks_embedding" not in plan_of_last_search(database_url, log)
    hits = pg.semantic_search("big", query, 8, doc_ids=["big0", "big4"])  # 1,000 passages: HNSW, filtered
    assert "store_chunks_embedding" in plan_of_last_search(database_url, log)
    assert len(hits) == 8 and {c.doc_id for c, _ in hits} <= {"big0", "big4"}
    pg.semantic_search("big", query, 8)
    assert "store_chunks_embedding" in plan_of_last_search(database_url, log)

    # Questions near some passages, as real ones are: a random direction in 384 dimensions is about as far from
    # every passage, and HNSW finds only ~80% of such a direction's top 8 at ef_search 100 (measured).
    queries = points[rng.integers(0, 5000, 100)] + 0.05 * rng.normal(size=(100, DIM)).astype(np.float32)
    whole, found = 0, 0
    for q in (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32):
        hits = pg.semantic_search("big", q, 8)
        exact = np.argsort(-(points @ q), kind="stable")[:8]
        want = {f"big{i // 500}-rc-p1-c{i % 500}" for i in exact.tolist()}
        whole += set(ids(hits)) == want
        found += len(set(ids(hits)) & want)
        for chunk, score in hits:  # cosines, as the exact search gives them
            i = int(chunk.doc_id[3:]) * 500 + int(chunk.chunk_id.rsplit("c", 1)[1])
            assert abs(score - float(points[i] @ q)) < 1e-5
    assert whole >= 99 and found >= 0.99 * 800, (whole, found)  # the exact top 8 for 99% of the questions


def test_originals_in_the_database_and_in_a_folder(database_url, pg_server, tmp_path, open_pg):
    in_db = open_pg(database_url)
    add(in_db, *document("harbour", HARBOUR), original=b"%PDF-1.7 harbour")
    assert in_db.original("harbour") == b"%PDF-1.7 harbour"
    add(in_db, *document("mill", MILL))
    assert in_db.original("mill") is None

    folder = tmp_path / "originals"
    url = pg_server.database()
    in_files = open_pg(url, originals_dir=folder)
    add(in_files, *document("harbour", HARBOUR), original=b"%PDF first")
    add(in_files, *document("mill", MILL, seed=1), original=b"%PDF mill")
    assert in_files.original("harbour") == b"%PDF first" and len(os.listdir(folder)) == 2
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM store_originals WHERE data IS NULL").fetchone()[0] == 2
    add(in_files, *document("harbour", HARBOUR), original=b"%PDF second")  # indexed again: the old file goes
    assert in_files.original("harbour") == b"%PDF second" and len(os.listdir(folder)) == 2
    in_files.delete_document("mill")
    with pytest.raises(CollectionGone):  # refused inside the transaction: its file is removed too
        add(in_files, *document("late", MILL), original=b"%PDF late", expect=in_files.generation("reports") + 1000)
    named = set(os.listdir(folder))
    assert len(named) == 1
    (folder / ("0" * 32)).write_bytes(b"left by a crash")
    (folder / ("1" * 32)).write_bytes(b"being written by another process")
    os.utime(folder / ("0" * 32), (time.time() - 7200, time.time() - 7200))
    open_pg(url, originals_dir=folder)  # opening removes files no row names, once an hour old
    assert set(os.listdir(folder)) == named | {"1" * 32}
    in_files.delete_collection("reports")
    assert os.listdir(folder) == ["1" * 32]


def test_the_schema_doctests():
    assert doctest.testmod(retrieval.pg_schema).failed == 0
