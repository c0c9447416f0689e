"""How far an upload has got, and an estimate of the time left.

An upload goes through four kinds of work whose amounts are known one after the other: pages to read (known when
the PDF opens), scanned pages to OCR (known after triage), passages to embed (known once the text is chunked) and
sentences to embed (known once the passages are split). :class:`Tracker` receives each count as it becomes known and
each step done, and turns them into an :class:`IngestProgress`: the counts, the seconds spent, and the seconds left,
estimated as

    remaining work of each kind x the seconds one unit of it costs

where a unit's cost is what it has cost so far in this upload (after a few units), else what it cost in the
process's earlier uploads (:class:`Rates`, a moving average), else a default measured on the project's 2-core
machine. Amounts not known yet are estimated from the pages: passages per page and sentences per passage, learnt
the same way. The share done is the time spent over the time spent plus the time left, so the bar and the estimate
agree; it never goes back (when a count becomes known and the estimate grows, the bar waits).

>>> clock = iter(range(100)).__next__
>>> seen = []
>>> t = Tracker(seen.append, Rates(), clock=lambda: float(clock()))
>>> t.pages(0, 10)
>>> t.pages(10, 10)
>>> p = seen[-1]
>>> (p.stage, p.pages_read, p.pages_total, p.passages_total)
('reading', 10, 10, 0)
>>> p.eta_seconds > 0 and 0 < p.fraction < 1
True
>>> t.passages(0, 30); t.passages(30, 30); t.sentences(0, 0); t.finish()
>>> (seen[-1].stage, seen[-1].fraction, seen[-1].eta_seconds)
('done', 1.0, 0.0)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

__all__ = ["IngestProgress", "Progress", "Rates", "Tracker"]

# Seconds per unit before anything was measured in this process: `python -m evaluation.bench` on the three papers
# (78 pages, 293 passages, 1,490 sentences; 2 cores). OCR from evaluation/results/ocr.md. Per page/passage counts
# from the same run and the SEC filings.
DEFAULT_COSTS = {"read": 0.44, "ocr": 2.5, "passage": 0.042, "sentence": 0.012}
DEFAULT_PASSAGES_PER_PAGE = 3.8
DEFAULT_SENTENCES_PER_PASSAGE = 5.0
SMOOTHING = 0.5  # weight of the newest upload in the moving averages
MIN_UNITS = 3  # units of a kind done in this upload before its own pace replaces the learnt one


@dataclass(frozen=True)
class IngestProgress:
    """One moment of an upload: what it is doing, the counts so far, and the time spent and left."""

    stage: str = "waiting"  # waiting | reading | ocr | chunking | embedding passages | embedding sentences
    #                         | indexing | done
    message: str = ""
    fraction: float = 0.0
    elapsed_seconds: float = 0.0
    eta_seconds: float | None = None  # None: nothing known yet to estimate from
    pages_read: int = 0
    pages_total: int = 0
    ocr_done: int = 0
    ocr_total: int = 0
    passages_embedded: int = 0
    passages_total: int = 0
    sentences_embedded: int = 0
    sentences_total: int = 0

    def to_dict(self) -> dict:
        d = asdict(self)
        d["fraction"] = round(self.fraction, 4)
        d["elapsed_seconds"] = round(self.elapsed_seconds, 2)
        d["eta_seconds"] = None if self.eta_seconds is None else round(self.eta_seconds, 1)
        return d


Progress = Callable[[IngestProgress], None]
"""What an upload's caller passes to follow it: called with every new :class:`IngestProgress`."""


def eta_text(seconds: float | None) -> str:
    """The time left in words.

    >>> [eta_text(s) for s in (None, 0.4, 12.2, 95, 3725)]
    ['', 'under a second left', 'about 12 s left', 'about 1 min 35 s left', 'about 62 min left']
    """
    if seconds is None:
        return ""
    if seconds < 1:
        return "under a second left"
    s = round(seconds)
    if s < 60:
        return f"about {s} s left"
    if s < 600:
        return f"about {s // 60} min {s % 60} s left"
    return f"about {round(seconds / 60)} min left"


class Rates:
    """What a unit of each kind of work has cost in this process's uploads (moving averages), thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self.costs = dict(DEFAULT_COSTS)
        self.passages_per_page = DEFAULT_PASSAGES_PER_PAGE
        self.sentences_per_passage = DEFAULT_SENTENCES_PER_PASSAGE

    def learn(self, costs: dict[str, float], passages_per_page: float | None, sentences_per_passage: float | None):
        """Blend one finished upload's measured costs per unit (and its counts per page / passage) in."""
        def blend(old: float, new: float) -> float:
            return (1 - SMOOTHING) * old + SMOOTHING * new

        with self._lock:
            for kind, cost in costs.items():
                self.costs[kind] = blend(self.costs[kind], cost)
            if passages_per_page:
                self.passages_per_page = blend(self.passages_per_page, passages_per_page)
            if sentences_per_passage:
                self.sentences_per_passage = blend(self.sentences_per_passage, sentences_per_passage)


class _Kind:
    """One kind of work in one upload: units done and total, and the seconds spent on it."""

    def __init__(self):
        self.done = self.total = 0
        self.known = False  # total reported (else estimated)
        self.started: float | None = None
        self.spent = 0.0

    def step(self, done: int, total: int, now: float, since: float) -> None:
        if self.started is None:  # the work began when the step before it ended (a first report may come late)
            self.started = since
        self.done, self.total, self.known = done, total, True
        self.spent = now - self.started


class Tracker:
    """Receives an upload's counts and turns them into :class:`IngestProgress` for ``callback`` (module docstring).

    Parameters
    ----------
    callback : called with each new progress; what it raises is not caught here (the caller decides).
    rates : the process's learnt costs, updated by :meth:`finish`.
    clock : seconds, monotonic (tests pass their own).
    """

    def __init__(self, callback: Progress | None, rates: Rates, clock: Callable[[], float] = time.monotonic):
        self._callback, self._rates, self._clock = callback, rates, clock
        self._start = self._last = clock()
        self._kinds = {kind: _Kind() for kind in DEFAULT_COSTS}
        self.latest = IngestProgress()

    # -- what the upload reports ----------------------------------------------------------------------------
    def pages(self, done: int, total: int) -> None:
        self._step("read", done, total, "reading", f"Read page {done}/{total}")

    def ocr(self, done: int, total: int) -> None:
        self._step("ocr", done, total, "ocr", f"OCR'd {done}/{total} scanned pages")

    def passages(self, done: int, total: int) -> None:
        self._step("passage", done, total, "embedding passages", f"Embedded {done}/{total} passages")

    def sentences(self, done: int, total: int) -> None:
        self._step("sentence", done, total, "embedding sentences", f"Embedded {done}/{total} sentences")

    def stage(self, stage: str, message: str) -> None:
        """A step without counts (waiting for an identical upload, chunking, indexing)."""
        self._emit(stage, message)

    def finish(self, message: str = "Indexed") -> None:
        """The upload is done: report it and teach the process's rates what this upload's work cost."""
        k = self._kinds
        costs = {kind: w.spent / w.done for kind, w in k.items() if w.done >= MIN_UNITS and w.spent > 0}
        pages, passages = k["read"].total, k["passage"].total
        self._rates.learn(costs, passages / pages if pages and passages else None,
                          k["sentence"].total / passages if passages and k["sentence"].known else None)
        self.latest = replace(self._snapshot("done", message), fraction=1.0, eta_seconds=0.0)
        if self._callback:
            self._callback(self.latest)

    # -- the estimate -------------------------------------------------------------------------------------
    def _step(self, kind: str, done: int, total: int, stage: str, message: str) -> None:
        self._kinds[kind].step(done, total, self._clock(), self._last)
        self._emit(stage, message)

    def _cost(self, kind: str) -> float:
        w = self._kinds[kind]
        return w.spent / w.done if w.done >= MIN_UNITS and w.spent > 0 else self._rates.costs[kind]

    def _totals(self) -> dict[str, float]:
        k, r = self._kinds, self._rates
        pages = k["read"].total
        passages = k["passage"].total if k["passage"].known else pages * r.passages_per_page
        sentences = k["sentence"].total if k["sentence"].known else passages * r.sentences_per_passage
        return {"read": pages, "ocr": k["ocr"].total, "passage": passages, "sentence": sentences}

    def _snapshot(self, stage: str, message: str) -> IngestProgress:
        k = self._kinds
        elapsed = self._clock() - self._start
        eta = None
        if any(w.known for w in k.values()):
            totals = self._totals()
            eta = sum(max(totals[kind] - k[kind].done, 0) * self._cost(kind) for kind in k)
        fraction = elapsed / (elapsed + eta) if eta is not None and elapsed + eta > 0 else 0.0
        return IngestProgress(
            stage=stage, message=message, fraction=min(fraction, 0.99), elapsed_seconds=elapsed, eta_seconds=eta,
            pages_read=k["read"].done, pages_total=k["read"].total, ocr_done=k["ocr"].done, ocr_total=k["ocr"].total,
            passages_embedded=k["passage"].done, passages_total=k["passage"].total,
            sentences_embedded=k["sentence"].done, sentences_total=k["sentence"].total)

    def _emit(self, stage: str, message: str) -> None:
        snap = self._snapshot(stage, message)
        # The bar never goes back when a count becomes known and the estimate grows; the seconds left may.
        snap = replace(snap, fraction=max(snap.fraction, self.latest.fraction))
        self._last = self._clock()
        left = eta_text(snap.eta_seconds)
        self.latest = replace(snap, message=f"{message} · {left}" if left else message)
        if self._callback:
            self._callback(self.latest)
