"""The store a process uses: PostgreSQL when ``RAG_DATABASE_URL`` is set, else the embedded store under
``RAG_DATA_DIR``. Both implement :class:`retrieval.store_api.Store` and pass the same contract tests."""

from __future__ import annotations

from pathlib import Path

from retrieval.store_api import Store


def open_store(settings, dim: int) -> Store:
    """The configured backend, opened (PostgreSQL's schema migrated on the way)."""
    s = settings
    if s.database_url:
        from retrieval.pg_store import PostgresStore

        return PostgresStore(s.database_url, dim, s.bm25_k1, s.bm25_b, keyword_prefix=s.keyword_prefix,
                             keyword_section=s.keyword_section, originals_dir=s.database_originals_dir,
                             pool_size=s.database_pool_size, ef_search=s.database_ef_search,
                             keyword_match=s.database_keyword_match)
    from retrieval.store import LocalStore

    return LocalStore(Path(s.data_dir), dim, s.bm25_k1, s.bm25_b, keyword_prefix=s.keyword_prefix,
                      keyword_section=s.keyword_section)
