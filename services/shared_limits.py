"""The quotas and the concurrent-ingest cap of :mod:`services.limits`, kept in PostgreSQL, so that every app process
and worker given the same ``RAG_DATABASE_URL`` applies one limit rather than one each.

:class:`SharedRateLimiter` keeps its events in the table ``limit_events``: the quota's name, the SHA-256 of the key
(client addresses and session ids are not stored as such) and the time. Times come from the database's clock, so
processes on different machines agree on the window. One ``acquire`` runs in a transaction holding an advisory lock
on (name, key), so of two processes racing for the last allowed event exactly one gets it. Each event counted also
deletes up to :data:`SWEEP` events of the same quota that have left the window, so the table holds about one
window's events.

:class:`SharedSlots` holds each slot as a session advisory lock on a connection of its own, for as long as the work
runs. The server releases a session's locks when the session ends, so a process that dies, even by ``kill -9``,
cannot keep a slot; for a machine that stops answering, the server's TCP keepalives are shortened on that connection
so that its slot is freed within about two minutes. Session locks need a session of one's own: behind a pooler in
transaction mode (PgBouncer's ``pool_mode = transaction``) they do not hold.

When no connection can be had within ``timeout`` seconds (about 5 by default), :class:`Unreachable` is raised
rather than waiting on.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import timedelta

from core.postgres import MissingDriver, lock_key, migrate, psycopg
from services.limits import Busy

COMPONENT = "limits"
STEPS = [
    """CREATE TABLE limit_events (
        name text NOT NULL,
        key bytea NOT NULL,
        at timestamptz NOT NULL);
    CREATE INDEX limit_events_key ON limit_events (name, key, at);
    CREATE INDEX limit_events_age ON limit_events (name, at)""",
]
"""The schema of the ``limits`` component (:func:`core.postgres.migrate`); a change is a new step."""

SWEEP = 100
"""Most expired events one counted event deletes."""

_WINDOW = """SELECT statement_timestamp(), count(*), min(at) FROM limit_events
    WHERE name = %s AND key = %s AND at > statement_timestamp() - %s"""
# statement_timestamp() is the database's clock when the statement arrived: after the lock was granted, and one
# value for the whole statement, which clock_timestamp() is not.

_COUNT = """WITH swept AS (
        DELETE FROM limit_events WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM limit_events WHERE name = %(name)s AND at <= %(cutoff)s
            LIMIT %(sweep)s FOR UPDATE SKIP LOCKED)))
    INSERT INTO limit_events (name, key, at) VALUES (%(name)s, %(key)s, %(now)s)"""
# SKIP LOCKED: a sweep never waits for rows another acquire is deleting, so two sweeps cannot deadlock.

_HELD = """SELECT count(*) FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 2
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid::bigint = %s AND objid::bigint < %s"""
# objsubid = 2: locks taken with two int4 keys, a space apart from the single bigint keys of lock_key().

_KEEPALIVES = "SET tcp_keepalives_idle = 60; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 6"


class Unreachable(ConnectionError):
    """No connection to PostgreSQL could be had in time: the database is down or unreachable, or every connection
    of the pool is in use."""


class SharedRateLimiter:
    """At most ``limit`` events per ``window`` seconds for each key (a sliding window), counted in PostgreSQL for
    every process that uses the same database and ``name``.

    Parameters
    ----------
    url_or_pool : the database's URL (a pool of up to 4 connections is opened for it), or a
        :class:`psycopg_pool.ConnectionPool` to borrow connections from.
    name : which quota ("api-uploads", ...): limiters with the same name count the same events.
    limit : events allowed per window; 0 allows none.
    window : window length in seconds.
    timeout : seconds to wait for a connection before :class:`Unreachable`.
    """

    def __init__(self, url_or_pool, name: str, limit: int, window: float = 3600.0, *, timeout: float = 5.0):
        self.name, self.limit, self.window = name, limit, window
        self._span = timedelta(seconds=window)
        self._own = isinstance(url_or_pool, str)
        self._pool = (open_pool(url_or_pool, 1, 4, timeout, f"limits-{name}") if self._own else url_or_pool)
        try:
            with self._connection() as conn:
                migrate(conn, COMPONENT, STEPS)
                conn.commit()  # a borrowed connection may not be in autocommit
        except BaseException:
            self.close()
            raise

    def acquire(self, key: str) -> float | None:
        """Count one event for ``key`` if it is within the quota.

        Returns
        -------
        float or None
            None when the event is allowed (and counted); otherwise the seconds until one more would be
            allowed (nothing is counted).
        """
        digest = _digest(key)
        with self._connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(f"limit:{self.name}\0{key}"),))
            now, used, oldest = conn.execute(_WINDOW, (self.name, digest, self._span)).fetchone()
            if used >= self.limit:
                return self.window - (now - oldest).total_seconds() if oldest else self.window
            conn.execute(_COUNT, {"name": self.name, "key": digest, "now": now, "cutoff": now - self._span,
                                  "sweep": SWEEP})
            return None

    def used(self, key: str) -> int:
        """Events counted for ``key`` in the current window."""
        with self._connection() as conn, conn.transaction():
            return int(conn.execute(_WINDOW, (self.name, _digest(key), self._span)).fetchone()[1])

    def close(self) -> None:
        """Close the pool opened for a URL (a pool passed in is left to its owner)."""
        if self._own:
            self._pool.close()

    @contextmanager
    def _connection(self) -> Iterator:
        with _borrow(self._pool, f"the {self.name!r} quota") as conn:
            yield conn


class SharedSlots:
    """At most ``n`` pieces of work at once across every process using the same database and ``name``; the next one
    is refused at once rather than queued.

    Refusing keeps a burst of uploads from holding memory and connections while they wait: the client is told to
    come back instead. Each slot held keeps one connection open (module docstring).

    Parameters
    ----------
    url : the database's URL.
    n : slots; 0 refuses everything.
    name : which cap: slots with the same name are the same slots.
    timeout : seconds to wait for a connection before :class:`Unreachable`.
    """

    def __init__(self, url: str, n: int, name: str = "ingest", *, timeout: float = 5.0):
        self.url, self.n, self.name, self.timeout = url, n, name, timeout
        self._key = int.from_bytes(hashlib.sha256(f"slots:{name}".encode()).digest()[:4], "big") & 0x7FFFFFFF
        self._pool = open_pool(url, 0, 1, timeout, f"slots-{name}")  # for `busy` only

    @property
    def busy(self) -> int:
        """Slots held now, by this process or any other."""
        with _borrow(self._pool, f"the {self.name!r} slots") as conn:
            return int(conn.execute(_HELD, (self._key, self.n)).fetchone()[0])

    @contextmanager
    def take(self):
        """Hold a slot for the ``with`` block; :class:`Busy` at once when all ``n`` are held."""
        try:
            conn = psycopg().connect(self.url, autocommit=True, connect_timeout=_whole_seconds(self.timeout))
        except psycopg().OperationalError as exc:
            raise Unreachable(f"PostgreSQL gave no connection for the {self.name!r} slots: {exc}") from exc
        try:
            conn.execute(_KEEPALIVES)
            slot = next((i for i in range(self.n) if conn.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (self._key, i)).fetchone()[0]), None)
            if slot is None:
                raise Busy(f"{self.n} documents are being indexed already")
            try:
                yield
            finally:
                # Unlocked before closing: closing alone frees the slot a moment after close() returns.
                with suppress(Exception):
                    conn.execute("SELECT pg_advisory_unlock(%s, %s)", (self._key, slot))
        finally:
            conn.close()

    def close(self) -> None:
        """Close the connection kept for :attr:`busy`; slots being held are not affected."""
        self._pool.close()


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def _whole_seconds(timeout: float) -> int:
    """libpq's ``connect_timeout``: whole seconds, and values under 2 count as 2."""
    return max(2, math.ceil(timeout))


def open_pool(url: str, min_size: int, max_size: int, timeout: float, name: str):
    """A connection pool for ``url`` with autocommit connections, waiting at most ``timeout`` seconds for one."""
    psycopg()  # MissingDriver, with the install command, when psycopg is missing
    try:
        from psycopg_pool import ConnectionPool
    except ImportError as exc:  # pragma: no cover - installed with psycopg
        raise MissingDriver("RAG_DATABASE_URL is set but psycopg-pool is not installed: "
                            "pip install psycopg-pool==3.3.3") from exc
    return ConnectionPool(url, min_size=min_size, max_size=max_size, open=True, timeout=timeout, name=name,
                          kwargs={"autocommit": True, "connect_timeout": _whole_seconds(timeout)})


@contextmanager
def _borrow(pool, what: str) -> Iterator:
    """A connection of ``pool``, or :class:`Unreachable` naming ``what`` it was wanted for."""
    try:
        conn = pool.getconn()
    except psycopg().OperationalError as exc:  # PoolTimeout, PoolClosed
        raise Unreachable(f"PostgreSQL gave no connection for {what}: {exc}") from exc
    try:
        yield conn
    finally:
        pool.putconn(conn)
