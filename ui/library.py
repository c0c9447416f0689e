"""Each browser's own library of documents: the bundled samples and its uploads, nobody else's, kept across reloads
and restarts.

A browser's first upload creates its library: a collection holding copies of the samples (their vectors are
reused, nothing is read again) and its files. The browser keeps a random token in its local storage
(``gr.BrowserState``); the library's name is derived from the token, so only that browser finds it again, and the
collection is marked as the UI's in the store with a key nobody holds, so the HTTP API can neither list, open nor
change it. "Forget this library" deletes it and the token.

A library unused for ``session_ttl_minutes`` (30 days by default) is deleted the next time anyone uses the app; at
start, libraries whose newest document is older than that are deleted, and so are empty ones.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time

from core.errors import OverQuota, UnknownCollection
from pipeline import Pipeline
from services.access import BROWSER, Client

COLLECTION = "default"  # the bundled samples; every browser sees them
SESSION_PREFIX = "session-"  # for the names only: libraries are told apart by the store's mark


def library_name(token: str) -> str:
    """The collection of the library a browser's token opens (the token itself is never stored on the server).

    >>> library_name("abc") == library_name("abc") != library_name("abd")
    True
    """
    return SESSION_PREFIX + hashlib.sha256(f"library:{token}".encode()).hexdigest()[:32]


class Sessions:
    """The browsers' libraries, their quotas and their expiry (module docstring)."""

    def __init__(self, pipeline: Pipeline):
        self.settings = pipeline.settings
        self.ingestion, self.access = pipeline.ingestion, pipeline.access
        self._last_used: dict[str, float] = {}
        self._lock = threading.Lock()
        ttl = self.settings.session_ttl_minutes * 60
        # Only collections the store marks as the UI's: an API collection named "session-..." is not one.
        for name in self.access.libraries():
            try:
                newest = max((d.added_at for d in self.ingestion.documents(name)), default=None)
            except UnknownCollection:
                continue
            if newest is None or time.time() - newest > ttl:
                self.ingestion.delete_collection(name)
            else:
                self._last_used[name] = newest

    @staticmethod
    def new() -> dict:
        return {"id": secrets.token_hex(8), "collection": None, "token": None, "conversation": None,
                "citations": [], "offered": []}

    def open(self, state: dict, token: str | None) -> bool:
        """Open the library ``token`` (from the browser's storage) names, if it is still there."""
        if not token or not isinstance(token, str):
            return False
        name = library_name(token)
        if name not in self.access.libraries():
            return False
        state["collection"], state["token"] = name, token
        self.collection(state)
        return True

    def collection(self, state: dict) -> str:
        if state["collection"]:
            self._last_used[state["collection"]] = time.time()
            return state["collection"]
        return COLLECTION

    def own_collection(self, state: dict) -> str:
        """The browser's library, created (with a new token) on its first upload."""
        if not state["collection"]:
            # Created marked as the UI's, with a key nobody holds, in one step. A name taken already (a token
            # drawn twice, or an API collection of that name) is skipped.
            generation, token = None, ""
            while generation is None:
                token = secrets.token_urlsafe(24)
                generation = self.access.create_library(library_name(token))
            for record in self._samples():
                self.ingestion.copy_document(record.doc_id, library_name(token), expect=generation)
            state["collection"], state["token"] = library_name(token), token
        return self.collection(state)

    def forget(self, state: dict) -> None:
        """Delete the browser's library and forget its token."""
        if state.get("collection"):
            with self._lock:
                self._last_used.pop(state["collection"], None)
            try:
                self.ingestion.delete_collection(state["collection"])
            except UnknownCollection:
                pass
        state.update(collection=None, token=None, citations=[])

    def searchable(self, state: dict) -> list[tuple[str, str]]:
        """(file name, doc id) of every document a question of this browser may search, samples included."""
        try:
            return [(d.filename, d.doc_id) for d in self.ingestion.documents(self.collection(state))]
        except UnknownCollection:
            return []

    def own_documents(self, state: dict) -> list[tuple[str, str]]:
        """(file name, doc id) of the documents this browser uploaded (not the sample copies)."""
        if not state["collection"]:
            return []
        samples = {r.sha256 for r in self._samples()}
        try:
            docs = self.ingestion.documents(state["collection"])
        except UnknownCollection:
            return []
        return [(d.filename, d.doc_id) for d in docs if d.sha256 not in samples]

    def _samples(self):
        try:
            return self.ingestion.documents(COLLECTION)
        except UnknownCollection:
            return []

    def uploads_left(self, state: dict) -> int:
        """Files this browser may still upload: the quota less what its library holds (a removal frees one)."""
        return max(self.settings.session_max_uploads - len(self.own_documents(state)), 0)

    def question_refused(self, state: dict) -> str | None:
        """A friendly message when this browser has asked its hourly quota, else ``None`` (and the question
        counts)."""
        try:
            self.access.count(Client(BROWSER, state["id"]), "questions")
        except OverQuota as exc:
            return exc.message
        return None

    def invoice_refused(self, state: dict) -> str | None:
        """A friendly message when this browser has had its hourly quota of invoices read, else ``None`` (and the
        reading counts)."""
        try:
            self.access.count(Client(BROWSER, state["id"]), "invoices read")
        except OverQuota as exc:
            return exc.message
        return None

    def expire(self, state: dict) -> str | None:
        """Delete unused libraries; a message if this browser's own was among them."""
        ttl = self.settings.session_ttl_minutes * 60
        now = time.time()
        with self._lock:
            idle = [name for name, used in self._last_used.items() if now - used > ttl]
            for name in idle:
                del self._last_used[name]
                try:
                    self.ingestion.delete_collection(name)
                except UnknownCollection:
                    pass
        if state["collection"] and not self.access.exists(state["collection"]):
            state.update(collection=None, token=None)
            return (f"Your uploads were deleted after {idle_words(self.settings.session_ttl_minutes)} without use; "
                    "upload them again to ask about them.")
        return None


def idle_words(minutes: int) -> str:
    """``90`` -> ``"90 minutes"``, ``43200`` -> ``"30 days"``.

    >>> idle_words(90), idle_words(43200), idle_words(1440)
    ('90 minutes', '30 days', '1 day')
    """
    if minutes % 1440 == 0:
        days = minutes // 1440
        return f"{days} day{'s' if days != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
