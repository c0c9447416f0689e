"""Single flight: work already under way for a key is joined, not started again.

Two identical uploads (same bytes, same collection, same chunking) arriving at the same moment would otherwise both
be read and embedded, and the second would silently replace the first. With :class:`SingleFlight` the second waits
for the first and gets its result (or its error).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What :meth:`SingleFlight.run` returned: the value, and whether this caller joined someone else's work."""

    value: T
    joined: bool


class SingleFlight(Generic[T]):
    """At most one call of the work for each key at a time; callers arriving meanwhile share its result.

    ``started`` and ``joined`` count the calls that did the work and those that waited for another's: what tests
    and ``/stats``-like reports can read.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[Hashable, Future[T]] = {}
        self.started = 0
        self.joined = 0

    def run(self, key: Hashable, work: Callable[[], T], *, on_wait: Callable[[], None] | None = None) -> Outcome[T]:
        """``work()``, unless it is running for ``key`` already: then wait for that call and share its outcome.

        Parameters
        ----------
        key : what makes two calls the same work.
        work : the work; called in this thread when this caller leads.
        on_wait : called (in this thread) before a joining caller starts to wait.

        Raises
        ------
        Exception
            Whatever ``work`` raised, in the leader and in every caller that joined it.
        """
        with self._lock:
            flight = self._flights.get(key)
            leader = flight is None
            if leader:
                flight = self._flights[key] = Future()
                self.started += 1
            else:
                self.joined += 1
        if not leader:
            if on_wait is not None:
                on_wait()
            return Outcome(flight.result(), joined=True)
        try:
            value = work()
        except BaseException as exc:
            flight.set_exception(exc)
            raise
        else:
            flight.set_result(value)
            return Outcome(value, joined=False)
        finally:
            with self._lock:
                del self._flights[key]

    def in_flight(self) -> int:
        """Keys whose work is running now."""
        with self._lock:
            return len(self._flights)
