"""Quotas, the concurrent-ingest cap, the page limit and the optional API key, as an API client meets them."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

from services.limits import RateLimiter, Slots, retry_after
from main import create_app
from tests.support.pdf_factory import make_pdf

QUESTION = {"question": "Where did the survey take place?"}


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


# --- the limiter itself, on a clock we move by hand ------------------------------------------------------------

def test_sliding_window_allows_the_limit_then_says_when_to_come_back():
    clock = Clock()
    limiter = RateLimiter(2, window=60, clock=clock)
    assert limiter.acquire("a") is None  # t=1000
    clock.now += 10
    assert limiter.acquire("a") is None  # t=1010
    clock.now += 5
    # Third within the window: refused; the oldest event (t=1000) leaves the window at t=1060, 45 s from now.
    assert limiter.acquire("a") == pytest.approx(45)
    assert limiter.used("a") == 2  # a refused event is not counted
    assert limiter.acquire("b") is None  # other clients are not affected
    clock.now = 1060
    assert limiter.acquire("a") is None  # the first event has left the window
    assert limiter.acquire("a") == pytest.approx(10)  # the t=1010 one leaves at 1070


def test_limiter_forgets_the_least_recent_clients_beyond_its_bound():
    clock = Clock()
    limiter = RateLimiter(1, window=60, max_keys=2, clock=clock)
    for key in ("a", "b", "c"):
        assert limiter.acquire(key) is None
    # "a" was dropped to keep two keys, so it starts afresh; "c" is still remembered.
    assert limiter.acquire("a") is None
    assert limiter.acquire("c") is not None


def test_retry_after_is_whole_seconds_and_never_zero():
    assert retry_after(0.01) == "1"
    assert retry_after(44.2) == "45"
    assert retry_after(45.0) == "45"


def test_slots_refuse_the_next_piece_of_work_instead_of_queueing_it():
    from services.limits import Busy

    slots = Slots(1)
    with slots.take():
        assert slots.busy == 1
        with pytest.raises(Busy):
            with slots.take():
                pass
    assert slots.busy == 0
    with slots.take():  # freed again
        pass


# --- through the API -------------------------------------------------------------------------------------------

@pytest.fixture
def limited(settings, known_pdf):
    s = settings.model_copy(update={"questions_per_hour": 2, "uploads_per_hour": 2})
    with TestClient(create_app(settings=s, ui=False)) as c:
        assert c.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")}).status_code == 200
        yield c


def test_questions_over_the_hourly_quota_get_429_with_retry_after(limited):
    assert limited.post("/query", json=QUESTION).status_code == 200
    assert limited.post("/query/stream", json=QUESTION).status_code == 200  # streams count too
    r = limited.post("/query", json=QUESTION)
    assert r.status_code == 429
    assert 3500 <= int(r.headers["Retry-After"]) <= 3600
    assert "at most 2 per hour" in r.json()["detail"]
    # Documents stay listable: only questions are limited.
    assert limited.get("/documents").status_code == 200


def test_uploads_over_the_hourly_quota_get_429_and_change_nothing(limited):
    other = make_pdf([[("A second file about river otters.", 11)]])
    assert limited.post("/ingest", files={"file": ("otters.pdf", other, "application/pdf")}).status_code == 200
    third = make_pdf([[("A third file about mountain goats.", 11)]])
    r = limited.post("/ingest", files={"file": ("goats.pdf", third, "application/pdf")})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert sorted(d["filename"] for d in limited.get("/documents").json()["documents"]) == ["otters.pdf",
                                                                                           "survey.pdf"]


def test_a_pdf_over_the_page_limit_is_refused_before_reading(settings):
    s = settings.model_copy(update={"max_pages": 3})
    pages = [[(f"Page {i} says something.", 11)] for i in range(1, 5)]
    with TestClient(create_app(settings=s, ui=False)) as c:
        r = c.post("/ingest", files={"file": ("long.pdf", make_pdf(pages), "application/pdf")})
        assert r.status_code == 413
        assert r.json()["detail"] == ("'long.pdf' has 4 pages, more than the 3-page limit (RAG_MAX_PAGES). "
                                      "Split it into smaller files and upload those.")
        assert c.get("/documents").json()["documents"] == []


def test_uploads_beyond_the_concurrent_cap_get_503_while_one_is_indexing(settings, known_pdf):
    s = settings.model_copy(update={"max_concurrent_ingests": 1})
    # Eight pages keep the first upload busy for seconds (layout reading, embedding).
    slow = make_pdf([[(f"Page {i} of a long report on coastal erosion and the sea walls built against it.", 11)]
                     * 8 for i in range(8)])
    with TestClient(create_app(settings=s, ui=False)) as c:
        first: dict = {}
        worker = threading.Thread(target=lambda: first.setdefault(
            "r", c.post("/ingest", files={"file": ("report.pdf", slow, "application/pdf")})))
        worker.start()
        deadline = time.monotonic() + 60
        while c.get("/health").json()["ingesting"] == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        r = c.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")})
        worker.join()
        assert r.status_code == 503 and r.headers["Retry-After"] == "5"
        assert r.json()["detail"] == ("'survey.pdf' was not indexed: 1 document(s) are being indexed already "
                                      "(RAG_MAX_CONCURRENT_INGESTS). Upload it again in a few seconds.")
        assert first["r"].status_code == 200
        assert c.get("/health").json()["ingesting"] == 0
        # Once the first is done the refused file goes in.
        assert c.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")}).status_code == 200


def test_api_key_guards_every_route_but_health(settings, known_pdf):
    s = settings.model_copy(update={"api_key": "s3cret-key"})
    with TestClient(create_app(settings=s, ui=False)) as c:
        assert c.get("/health").status_code == 200
        for method, path, kwargs in [("get", "/documents", {}), ("get", "/stats", {}),
                                     ("post", "/query", {"json": QUESTION}),
                                     ("delete", "/documents/0123456789abcdef", {}),
                                     ("post", "/ingest", {"files": {"file": ("a.pdf", known_pdf)}})]:
            r = getattr(c, method)(path, **kwargs)
            assert r.status_code == 401, path
            assert r.headers["WWW-Authenticate"] == "Bearer"
            assert "API key" in r.json()["detail"]
        wrong = c.get("/documents", headers={"Authorization": "Bearer s3cret-kez"})
        assert wrong.status_code == 401
        assert c.post("/ingest", files={"file": ("survey.pdf", known_pdf, "application/pdf")},
                      headers={"Authorization": "Bearer s3cret-key"}).status_code == 200
        listed = c.get("/documents", headers={"X-API-Key": "s3cret-key"})
        assert [d["filename"] for d in listed.json()["documents"]] == ["survey.pdf"]


def test_without_a_key_configured_the_api_is_open(client):
    assert client.get("/documents").status_code == 200
