"""Quotas and the cap on concurrent work as a client meets them: when the next event is allowed, what a refusal
says, and whom a quota counts. The limiter runs on a clock moved by hand; the store behind the keys is real."""

from __future__ import annotations

import time

import pytest

from core.errors import CollectionLocked, OverQuota, UnknownCollection
from retrieval.store import LocalStore
from services.access import API, BROWSER, Access, Client
from services.limits import Busy, RateLimiter, Slots, retry_after
from settings import Settings


class Clock:
    def __init__(self, now: float = 500.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_an_event_expires_exactly_one_window_after_it_was_counted():
    clock = Clock()
    limiter = RateLimiter(2, window=100, clock=clock)
    assert limiter.acquire("a") is None and limiter.used("a") == 1
    clock.now += 30
    assert limiter.acquire("a") is None and limiter.used("a") == 2
    clock.now += 10
    assert limiter.acquire("a") == pytest.approx(60.0)  # the first event leaves the window in 60 s
    assert limiter.used("a") == 2  # a refused event is not counted
    clock.now += 59.5
    assert limiter.acquire("a") == pytest.approx(0.5) and limiter.used("a") == 2
    clock.now += 0.5  # exactly 100 s after the first event: it no longer counts
    assert limiter.used("a") == 1
    assert limiter.acquire("a") is None and limiter.used("a") == 2
    clock.now += 100
    assert limiter.used("a") == 0 and limiter.used("never seen") == 0


def test_the_window_defaults_to_an_hour_and_each_client_has_its_own_quota():
    clock = Clock()
    limiter = RateLimiter(1, clock=clock)
    assert limiter.window == 3600.0
    assert limiter.acquire("a") is None and limiter.acquire("b") is None
    clock.now += 600
    assert limiter.acquire("a") == pytest.approx(3000.0)
    assert limiter.used("a") == 1 and limiter.used("b") == 1


def test_a_quota_of_zero_allows_nothing_and_waits_a_whole_window():
    limiter = RateLimiter(0, window=50, clock=Clock())
    assert limiter.acquire("a") == 50 and limiter.used("a") == 0


def test_the_least_recently_seen_clients_are_forgotten_first():
    clock = Clock()
    limiter = RateLimiter(1, window=100, max_keys=2, clock=clock)
    assert limiter.acquire("a") is None and limiter.acquire("b") is None
    assert limiter.acquire("a") is not None  # refused, but "a" is now the most recently seen
    assert limiter.acquire("c") is None  # "b" is forgotten, not "a"
    assert limiter.used("b") == 0 and limiter.used("a") == 1 and limiter.used("c") == 1
    assert limiter.acquire("a") is not None and limiter.acquire("b") is None
    assert RateLimiter(1).max_keys == 100_000


@pytest.mark.parametrize("seconds,header", [(0, "1"), (0.2, "1"), (1.0, "1"), (1.01, "2"), (59.5, "60"),
                                            (3600, "3600")])
def test_retry_after_is_whole_seconds_rounded_up_and_never_zero(seconds, header):
    assert retry_after(seconds) == header


def test_slots_take_up_to_n_pieces_of_work_and_refuse_the_next_one():
    slots = Slots(2)
    assert slots.busy == 0
    with slots.take():
        assert slots.busy == 1
        with slots.take():
            assert slots.busy == 2
            with pytest.raises(Busy, match=r"^2 documents are being indexed already$"):
                with slots.take():
                    pass
            assert slots.busy == 2
        assert slots.busy == 1
    assert slots.busy == 0
    with pytest.raises(RuntimeError):  # work that fails gives its slot back
        with slots.take():
            raise RuntimeError("reading failed")
    assert slots.busy == 0
    with slots.take(), slots.take():
        assert slots.busy == 2


@pytest.fixture
def access(tmp_path):
    settings = Settings.preset("tests", data_dir=tmp_path / "storage", uploads_per_hour=2, questions_per_hour=3,
                               session_max_questions_per_hour=1, session_max_invoices_per_hour=2)
    return Access(settings, LocalStore(tmp_path / "store", 8))


def test_an_api_client_over_its_quota_is_told_the_limit_and_when_to_come_back(access):
    client = Client(API, "10.0.0.1")
    access.count(client, "uploads")
    access.count(client, "uploads")
    with pytest.raises(OverQuota) as refused:
        access.count(client, "uploads")
    e = refused.value
    assert (e.what, e.limit) == ("uploads", 2) and 3599 < e.wait <= 3600
    assert str(e) == "Too many uploads: at most 2 per hour from one client. Try again in 3600 s."
    access.count(Client(API, "10.0.0.2"), "uploads")  # another address has its own quota
    for _ in range(3):
        access.count(client, "questions")
    with pytest.raises(OverQuota, match=r"^Too many questions: at most 3 per hour"):
        access.count(client, "questions")


def test_a_browser_over_its_quota_is_told_in_minutes(access):
    browser = Client(BROWSER, "session-1")
    access.count(browser, "questions")
    with pytest.raises(OverQuota) as refused:
        access.count(browser, "questions")
    assert str(refused.value) == ("This session has asked 1 questions in the last hour, the most allowed. "
                                  "Please ask again in about 60 minutes.")
    assert (refused.value.what, refused.value.limit) == ("questions", 1)
    access._quotas[(BROWSER, "questions")].clock = clock = Clock(time.monotonic() + 650)  # 11 minutes later
    with pytest.raises(OverQuota, match=r"Please ask again in about 50 minutes\.$"):
        access.count(browser, "questions")
    clock.now += 2945  # 5 s before the hour is over
    with pytest.raises(OverQuota, match=r"Please ask again in about 1 minutes\.$"):
        access.count(browser, "questions")
    access.count(browser, "invoices read")
    access.count(browser, "invoices read")
    with pytest.raises(OverQuota) as refused:
        access.count(browser, "invoices read")
    assert str(refused.value).startswith("This session has had 2 invoices read in the last hour, the most allowed.")


def test_what_a_kind_of_client_has_no_quota_for_is_not_counted(access):
    for _ in range(5):
        access.count(Client(BROWSER, "session-1"), "uploads")  # a browser's uploads are capped per library
        access.count(Client(API, "10.0.0.1"), "invoices read")


def test_keys_and_libraries_through_access(access):
    access.authorize("open", None, create=True)
    assert access.exists("open") is False  # authorizing creates nothing on its own
    access.authorize("mine", "s3cret", create=True)
    assert access.exists("mine") and access.open_collections(None) == []
    assert access.open_collections("s3cret") == ["mine"]
    access.authorize("mine", "s3cret")
    with pytest.raises(UnknownCollection):
        access.authorize("mine", "wrong")
    with pytest.raises(CollectionLocked):
        access.authorize("mine", None, create=True)
    assert access.create_library("ui-1") is not None and access.create_library("ui-1") is None
    assert access.libraries() == ["ui-1"] and access.exists("ui-1")


def test_a_document_of_a_keyed_collection_is_refused_to_another_key_through_access(access, tmp_path):
    import numpy as np

    from core.errors import UnknownDocument
    from core.types import Chunk, DocumentRecord

    access.authorize("mine", "s3cret", create=True)
    text = "the windmill grinds wheat into flour"
    access.store.add_document(DocumentRecord("doc", "doc.pdf", "mine", "sha", 1, 1, 0.0),
                              [Chunk("doc-rc-p1-c0", "doc", "doc.pdf", 1, "", text, 0, len(text))],
                              np.full((1, 8), 8 ** -0.5, dtype=np.float32))
    access.authorize_document("doc", "s3cret")
    with pytest.raises(UnknownDocument):
        access.authorize_document("doc", "other")


def test_every_process_on_one_database_counts_one_quota(database_url, tmp_path):
    settings = Settings.preset("tests", data_dir=tmp_path / "storage", uploads_per_hour=2, questions_per_hour=1,
                               session_max_questions_per_hour=1, database_url=database_url)
    first, second = (Access(settings, LocalStore(tmp_path / "store", 8)) for _ in range(2))
    first.count(Client(API, "10.0.0.1"), "uploads")
    second.count(Client(API, "10.0.0.1"), "uploads")
    with pytest.raises(OverQuota, match=r"^Too many uploads: at most 2 per hour from one client\. Try again in "):
        first.count(Client(API, "10.0.0.1"), "uploads")
    second.count(Client(BROWSER, "s"), "questions")
    with pytest.raises(OverQuota, match=r"^This session has asked 1 questions in the last hour"):
        first.count(Client(BROWSER, "s"), "questions")
    first.count(Client(API, "s"), "questions")  # an address's questions and a browser's are two quotas
    first.count(Client(BROWSER, "s"), "uploads")  # still no quota for what a kind of client has none of
