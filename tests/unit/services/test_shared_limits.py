"""Quotas and the concurrent-ingest cap kept in PostgreSQL (:mod:`services.shared_limits`), against a real server:
several instances on one database stand for several app processes, and one test uses a real second process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from core.postgres import connect
from services.limits import Busy
from services.shared_limits import SharedRateLimiter, SharedSlots, Unreachable
from tests.support import ROOT


@pytest.fixture
def made():
    """Limiters and slots made by a test, closed after it."""
    things: list = []
    yield things
    for thing in things:
        thing.close()


def limiter(made, url_or_pool, limit, window=3600.0, name="api-questions"):
    made.append(SharedRateLimiter(url_or_pool, name, limit, window))
    return made[-1]


def slots(made, url, n, **kwargs):
    made.append(SharedSlots(url, n, **kwargs))
    return made[-1]


def rows(url) -> int:
    with connect(url) as conn:
        return conn.execute("SELECT count(*) FROM limit_events").fetchone()[0]


# --- quotas -----------------------------------------------------------------------------------------------------

def test_two_processes_share_one_quota(database_url, made):
    from psycopg_pool import ConnectionPool

    first = limiter(made, database_url, 3)
    with ConnectionPool(database_url, min_size=1, max_size=2, open=True) as pool:  # the other process's own pool
        second = limiter(made, pool, 3)
        assert first.acquire("10.0.0.7") is None
        assert first.acquire("10.0.0.7") is None
        assert second.acquire("10.0.0.7") is None
        # The fourth is refused through either, with the time until the first of the three leaves the hour.
        for through in (first, second):
            wait = through.acquire("10.0.0.7")
            assert wait is not None and 3590 < wait <= 3600
        assert first.used("10.0.0.7") == second.used("10.0.0.7") == 3  # refusals are not counted
        # Other clients, and other quotas for the same client, are counted apart.
        assert second.acquire("10.0.0.8") is None
        assert limiter(made, database_url, 3, name="api-uploads").acquire("10.0.0.7") is None
        assert limiter(made, database_url, 0, name="closed").acquire("10.0.0.7") == 3600


def test_a_long_key_is_counted_like_any_other(database_url, made):
    quota = limiter(made, database_url, 1)
    session = "s" * 10_000
    assert quota.acquire(session) is None
    assert quota.acquire(session) is not None and quota.used(session) == 1
    assert quota.acquire(session[:-1]) is None


def test_events_older_than_the_window_stop_counting_and_are_deleted(database_url, made):
    quota = limiter(made, database_url, 1, window=0.5)
    assert quota.acquire("a") is None
    wait = quota.acquire("a")
    assert wait is not None and 0 < wait <= 0.5
    time.sleep(wait + 0.05)
    assert quota.used("a") == 0
    assert quota.acquire("b") is None  # counting b deletes a's expired event
    assert rows(database_url) == 1
    assert quota.acquire("a") is None


def test_processes_racing_for_the_last_events_get_exactly_the_limit(database_url, made):
    quotas = [limiter(made, database_url, 5) for _ in range(8)]
    start = threading.Barrier(len(quotas))
    results: list = []

    def ask(quota):
        start.wait()
        results.append(quota.acquire("10.0.0.7"))

    threads = [threading.Thread(target=ask, args=(q,)) for q in quotas]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r is None for r in results) == 5 and len(results) == 8
    assert all(r > 0 for r in results if r is not None)
    assert quotas[0].used("10.0.0.7") == 5 and rows(database_url) == 5


# --- slots ------------------------------------------------------------------------------------------------------

def test_slots_are_shared_by_processes_and_freed_after_use(database_url, made):
    one, other = slots(made, database_url, 2), slots(made, database_url, 2)
    with one.take(), other.take():
        assert one.busy == other.busy == 2
        with pytest.raises(Busy, match="2 documents are being indexed already"):
            with one.take():
                pass
        assert slots(made, database_url, 2, name="other").busy == 0  # another cap is not affected
    assert one.busy == other.busy == 0
    with other.take(), one.take():
        assert one.busy == 2


def test_a_slot_held_by_a_killed_process_is_free_again(database_url, made):
    code = ("import sys, time\nfrom services.shared_limits import SharedSlots\n"
            "with SharedSlots(sys.argv[1], 1).take():\n    print('held', flush=True)\n    time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", code, database_url], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert child.stdout.readline().strip() == "held"
        cap = slots(made, database_url, 1)
        assert cap.busy == 1  # held by the other process
        with pytest.raises(Busy):
            with cap.take():
                pass
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
        deadline = time.monotonic() + 5
        while cap.busy and time.monotonic() < deadline:
            time.sleep(0.05)
        with cap.take():
            assert cap.busy == 1
    finally:
        child.kill()
        child.wait(10)
        child.stdout.close()


# --- a database that does not answer ----------------------------------------------------------------------------

def test_a_database_that_does_not_answer_is_reported_within_the_timeout(made):
    with socket.socket() as silent:  # accepts connections and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        cap = slots(made, f"postgresql://u:p@127.0.0.1:{silent.getsockname()[1]}/db", 1, timeout=2)
        t0 = time.monotonic()
        with pytest.raises(Unreachable, match="'ingest' slots"):
            with cap.take():
                pass
        assert time.monotonic() - t0 < 4.5


def test_a_database_that_refuses_connections_is_reported_within_the_timeout():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    t0 = time.monotonic()
    with pytest.raises(Unreachable, match="'api-questions' quota"):
        SharedRateLimiter(f"postgresql://u:p@127.0.0.1:{port}/db", "api-questions", 3, timeout=1)
    assert time.monotonic() - t0 < 4
