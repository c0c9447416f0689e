"""Who may do what, for the HTTP API and the UI alike: collection keys, hourly quotas, and the collections the
UI keeps for each browser (its library).

A **client** is whoever the quotas count: an API caller by its network address, a browser by its session. Each
kind has its own limits in settings (``RAG_UPLOADS_PER_HOUR`` / ``RAG_QUESTIONS_PER_HOUR`` per address;
``RAG_SESSION_MAX_QUESTIONS_PER_HOUR`` per browser), counted here by one mechanism
(:class:`services.limits.RateLimiter`); a refusal is :class:`core.errors.OverQuota`, which the API answers with 429
and ``Retry-After`` and the UI shows as a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import OverQuota
from retrieval.access import CollectionAccess
from retrieval.store_api import Catalog
from services.limits import RateLimiter, retry_after
from settings import Settings

API, BROWSER = "api", "browser"


@dataclass(frozen=True)
class Client:
    """Whom a quota counts: ``kind`` is :data:`API` (``id`` a network address) or :data:`BROWSER` (``id`` a
    UI session)."""

    kind: str
    id: str


class Access:
    """Collection keys (:class:`retrieval.access.CollectionAccess`), quotas and the browsers' libraries."""

    def __init__(self, settings: Settings, store: Catalog):
        self.store = store
        self.keys = CollectionAccess(store)
        limits = {(API, "uploads"): settings.uploads_per_hour, (API, "questions"): settings.questions_per_hour,
                  (BROWSER, "questions"): settings.session_max_questions_per_hour,
                  (BROWSER, "invoices read"): settings.session_max_invoices_per_hour}
        if settings.database_url:  # one quota for every process on the database
            from services.shared_limits import SharedRateLimiter, open_pool

            pool = open_pool(settings.database_url, 1, 4, 5.0, "quotas")
            self._quotas = {k: SharedRateLimiter(pool, f"{k[0]}-{k[1]}", n) for k, n in limits.items()}
        else:
            self._quotas = {k: RateLimiter(n) for k, n in limits.items()}

    # -- keys ------------------------------------------------------------------------------------------------
    def authorize(self, collection: str, key: str | None, *, create: bool = False) -> None:
        """See :meth:`retrieval.access.CollectionAccess.authorize`."""
        self.keys.authorize(collection, key, create=create)

    def authorize_document(self, doc_id: str, key: str | None) -> None:
        self.keys.authorize_document(doc_id, key)

    def open_collections(self, key: str | None) -> list[str]:
        return self.keys.open_collections(key)

    # -- quotas ----------------------------------------------------------------------------------------------
    def count(self, client: Client, what: str) -> None:
        """Count one of ``what`` ("uploads", "questions" or, for a browser, "invoices read") for ``client``, or raise
        :class:`OverQuota` (nothing is counted then). A kind of client with no quota for ``what`` is not counted."""
        limiter = self._quotas.get((client.kind, what))
        if limiter is None:
            return
        wait = limiter.acquire(client.id)
        if wait is None:
            return
        if client.kind == BROWSER:
            done = f"had {limiter.limit} {what}" if what == "invoices read" else f"asked {limiter.limit} {what}"
            message = (f"This session has {done} in the last hour, the most allowed. "
                       f"Please ask again in about {int(wait) // 60 + 1} minutes.")
        else:
            message = (f"Too many {what}: at most {limiter.limit} per hour from one client. "
                       f"Try again in {retry_after(wait)} s.")
        raise OverQuota(message, what=what, limit=limiter.limit, wait=wait)

    # -- the UI's libraries: collections marked as a browser's, with a key nobody holds --------------------------
    def libraries(self) -> list[str]:
        """The collections the store marks as browsers' libraries."""
        return self.store.session_collections()

    def create_library(self, name: str) -> int | None:
        """Create library ``name`` (marked and keyed in one step); its generation, ``None`` if the name is taken."""
        return self.store.create_session(name)

    def exists(self, collection: str) -> bool:
        return collection in self.store.collections()
