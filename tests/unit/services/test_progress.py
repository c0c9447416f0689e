"""An upload's progress: counts as they become known, the share done, and an estimate of the time left that a user
can trust (it shrinks as work is done, and it learns from earlier uploads)."""

from __future__ import annotations

from services.progress import IngestProgress, Rates, Tracker


class Clock:
    """Seconds that advance only when the test says so."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run_upload(tracker: Tracker, clock: Clock, pages: int, passages: int, sentences: int,
               page_s: float, passage_s: float, sentence_s: float) -> None:
    tracker.stage("reading", "Reading")
    for done in range(pages + 1):
        tracker.pages(done, pages)
        clock.now += page_s
    tracker.stage("chunking", "Chunking")
    tracker.passages(0, passages)
    for done in range(10, passages + 1, 10):
        clock.now += 10 * passage_s
        tracker.passages(done, passages)
    for done in range(50, sentences + 1, 50):
        clock.now += 50 * sentence_s
        tracker.sentences(done, sentences)
    tracker.stage("indexing", "Writing")
    tracker.finish()


def test_the_estimate_shrinks_the_share_grows_and_the_end_is_exact():
    clock, seen = Clock(), []
    run_upload(Tracker(seen.append, Rates(), clock=clock), clock, 20, 80, 400, 0.5, 0.05, 0.01)
    timed = [p for p in seen if p.eta_seconds is not None]
    fractions = [p.fraction for p in timed]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert timed[-1].stage == "done" and timed[-1].eta_seconds == 0.0
    # Reading done: 4 s of embedding at the measured pace of this upload's passages is what is left
    during = [p for p in seen if p.stage == "embedding passages" and p.passages_embedded == 40][0]
    assert during.passages_total == 80 and during.pages_read == 20
    assert 4.0 <= during.eta_seconds <= 8.0, during  # 40 passages x 0.05 + 400 sentences x ~0.01
    assert "left" in during.message


def test_a_second_upload_is_estimated_from_what_the_first_cost():
    rates = Rates()
    clock = Clock()
    run_upload(Tracker(None, rates, clock=clock), clock, 20, 80, 400, 2.0, 0.2, 0.05)  # a slow machine
    assert rates.costs["read"] > 1.0 and rates.costs["passage"] > 0.1
    seen: list[IngestProgress] = []
    second = Tracker(seen.append, rates, clock=clock)
    second.pages(0, 10)
    slow_guess = seen[-1].eta_seconds
    fresh: list[IngestProgress] = []
    Tracker(fresh.append, Rates(), clock=clock).pages(0, 10)
    assert slow_guess > 2 * fresh[-1].eta_seconds  # learnt: this machine is slower than the defaults


def test_a_broken_count_never_makes_the_estimate_negative_or_the_share_pass_one():
    clock, seen = Clock(), []
    t = Tracker(seen.append, Rates(), clock=clock)
    t.pages(5, 3)  # more done than announced
    clock.now += 1
    t.passages(50, 10)
    assert all(p.eta_seconds is None or p.eta_seconds >= 0 for p in seen)
    assert all(0 <= p.fraction < 1 for p in seen)
    assert set(seen[-1].to_dict()) >= {"stage", "message", "fraction", "eta_seconds", "pages_read", "pages_total",
                                       "passages_embedded", "passages_total", "sentences_embedded",
                                       "sentences_total", "elapsed_seconds"}
