"""Connecting to PostgreSQL and migrating its schema: shared by every part that keeps its data there when
``RAG_DATABASE_URL`` is set (the store, the shared limits, the upload queue).

Each part owns a *component*: a name and an ordered list of migration steps (SQL text, or a function taking the
connection). :func:`migrate` applies the steps a database has not seen yet, in order, each in its own transaction
together with its row in ``schema_migrations``, under an advisory lock, so that several processes starting at once
apply each step exactly once and a step that fails leaves the database as before that step. Steps are never edited
once released: a change is a new step.

psycopg (3) is imported only here and only when PostgreSQL is configured; without it, the error names the install
command.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["INSTALL", "MissingDriver", "connect", "lock_key", "migrate", "applied"]

INSTALL = 'pip install "psycopg[binary]==3.3.9" psycopg-pool==3.3.3 pgvector==0.5.1 procrastinate==3.10.0'
Step = str | Callable[[Any], None]


class MissingDriver(RuntimeError):
    """PostgreSQL is configured but its Python packages are not installed."""


def psycopg():
    """The psycopg module, or :class:`MissingDriver` saying how to install it."""
    try:
        import psycopg as module
    except ImportError as exc:  # pragma: no cover - installed with the app's requirements
        raise MissingDriver(f"RAG_DATABASE_URL is set but psycopg is not installed: {INSTALL}") from exc
    return module


def connect(url: str, **kwargs):
    """A new connection to ``url`` (``autocommit`` off unless given)."""
    return psycopg().connect(url, **kwargs)


def lock_key(name: str) -> int:
    """A stable signed 64-bit key for ``pg_advisory_lock`` derived from ``name``.

    >>> lock_key("schema") == lock_key("schema"), -2**63 <= lock_key("schema") < 2**63
    (True, True)
    """
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    component text NOT NULL,
    version integer NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (component, version))"""


def applied(conn, component: str) -> int:
    """How many steps of ``component`` the database holds (0 before the first migration)."""
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations WHERE component = %s",
                       (component,)).fetchone()
    return int(row[0])


def migrate(url_or_conn, component: str, steps: Sequence[Step]) -> int:
    """Apply the steps of ``component`` not applied yet (module docstring); returns how many were applied now.

    Raises :class:`RuntimeError` when the database holds more steps of ``component`` than this code knows (a newer
    release migrated it): running older code against it could corrupt data.
    """
    own = isinstance(url_or_conn, str)
    conn = connect(url_or_conn, autocommit=True) if own else url_or_conn
    try:
        key = lock_key(f"schema:{component}")
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            with conn.transaction():
                conn.execute(_TABLE)
            done = applied(conn, component)
            if done > len(steps):
                raise RuntimeError(f"the database holds {done} schema steps of {component!r} and this version knows "
                                   f"{len(steps)}: it was migrated by a newer release; run that release")
            for version, step in enumerate(steps[done:], start=done + 1):
                with conn.transaction():
                    if callable(step):
                        step(conn)
                    else:
                        conn.execute(step)
                    conn.execute("INSERT INTO schema_migrations (component, version) VALUES (%s, %s)",
                                 (component, version))
            return len(steps) - done
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
    finally:
        if own:
            conn.close()
