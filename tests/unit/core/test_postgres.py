"""Schema migrations (:mod:`core.postgres`) against a real PostgreSQL: applied once, in order, all or nothing."""

from __future__ import annotations

import threading

import pytest

from core.postgres import applied, connect, migrate


def test_steps_apply_once_in_order_and_new_steps_later(database_url):
    steps = ["CREATE TABLE a (x int)", "INSERT INTO a VALUES (1)"]
    assert migrate(database_url, "demo", steps) == 2
    assert migrate(database_url, "demo", steps) == 0  # a second start changes nothing
    assert migrate(database_url, "demo", [*steps, lambda c: c.execute("INSERT INTO a VALUES (2)")]) == 1
    with connect(database_url) as conn:
        assert [r[0] for r in conn.execute("SELECT x FROM a ORDER BY x")] == [1, 2]
        assert applied(conn, "demo") == 3 and applied(conn, "other") == 0


def test_a_failing_step_leaves_the_database_as_before_it(database_url):
    with pytest.raises(Exception, match="nope"):
        migrate(database_url, "demo", ["CREATE TABLE a (x int)", "INSERT INTO a VALUES (1); SELECT nope"])
    with connect(database_url) as conn:
        assert applied(conn, "demo") == 1
        assert conn.execute("SELECT count(*) FROM a").fetchone()[0] == 0  # the insert went with the failed step


def test_processes_starting_together_apply_each_step_once(database_url):
    steps = ["CREATE TABLE a (x int)", "INSERT INTO a VALUES (1)", "INSERT INTO a VALUES (2)"]
    counts, errors = [], []

    def start():
        try:
            counts.append(migrate(database_url, "demo", steps))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and sorted(counts) == [0, 0, 0, 3]
    with connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM a").fetchone()[0] == 2


def test_a_database_migrated_by_a_newer_release_is_refused(database_url):
    migrate(database_url, "demo", ["SELECT 1", "SELECT 2"])
    with pytest.raises(RuntimeError, match="newer release"):
        migrate(database_url, "demo", ["SELECT 1"])
