"""Per-client quotas and a cap on concurrent work, used by :mod:`services.access` and :mod:`services.ingest`.

Both are in memory: a restart forgets them, which errs towards letting people in.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from contextlib import contextmanager


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds for each key (a sliding window).

    Parameters
    ----------
    limit : events allowed per window; 0 allows none.
    window : window length in seconds.
    max_keys : most keys tracked; the least recently seen are forgotten first, so a flood of new client
        addresses cannot grow memory without bound.
    clock : seconds, monotonic; tests pass their own.
    """

    def __init__(self, limit: int, window: float = 3600.0, *, max_keys: int = 100_000,
                 clock: Callable[[], float] = time.monotonic):
        self.limit, self.window, self.max_keys, self.clock = limit, window, max_keys, clock
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def acquire(self, key: str) -> float | None:
        """Count one event for ``key`` if it is within the quota.

        Returns
        -------
        float or None
            None when the event is allowed (and counted); otherwise the seconds until one more would be
            allowed (nothing is counted).
        """
        now = self.clock()
        with self._lock:
            times = self._events.pop(key, None) or deque()
            while times and now - times[0] >= self.window:
                times.popleft()
            self._events[key] = times  # re-inserted last: most recently seen
            while len(self._events) > self.max_keys:
                self._events.popitem(last=False)
            if len(times) >= self.limit:
                return self.window - (now - times[0]) if times else self.window
            times.append(now)
            return None

    def used(self, key: str) -> int:
        """Events counted for ``key`` in the current window."""
        now = self.clock()
        with self._lock:
            return sum(1 for t in self._events.get(key, ()) if now - t < self.window)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


class Busy(Exception):
    """Every slot is taken; try again shortly."""


class Slots:
    """At most ``n`` pieces of work at once; the next one is refused at once rather than queued.

    Refusing keeps a burst of uploads from holding memory and connections while they wait: the client is told to
    come back instead.
    """

    def __init__(self, n: int):
        self.n = n
        self._sem = threading.BoundedSemaphore(n)
        self._busy = 0
        self._lock = threading.Lock()

    @property
    def busy(self) -> int:
        return self._busy

    @contextmanager
    def take(self):
        if not self._sem.acquire(blocking=False):
            raise Busy(f"{self.n} documents are being indexed already")
        with self._lock:
            self._busy += 1
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1
            self._sem.release()
