"""Collections with a key: who may see, search, change or create a collection.

A collection created with a key (``X-Collection-Key`` on its first upload) needs that key from then on; one created
without stays open to all. Only the key's SHA-256 is stored. A request with the wrong key is refused exactly as for a
collection that does not exist, so a guess learns nothing.
"""

from __future__ import annotations

import hashlib
import hmac

from core.errors import CollectionLocked, UnknownCollection, UnknownDocument
from retrieval.store_api import Catalog, missing_collection


def key_hash(key: str | None) -> str | None:
    """What is stored of a collection key: its SHA-256, never the key.

    >>> key_hash("s3cret")[:12], key_hash(None)
    ('1ec1c26b50d5', None)
    """
    return hashlib.sha256(key.encode()).hexdigest() if key else None


class CollectionAccess:
    """The key checks of one store's catalog (used by the HTTP API; the UI's sessions hold keys nobody is given)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def authorize(self, collection: str, key: str | None, *, create: bool = False) -> None:
        """Let ``key`` into ``collection`` or refuse as if the collection did not exist.

        A collection created with a key (``create`` and a key for a collection not there yet) needs that key
        from then on; one created without stays open to all. Only the key's SHA-256 is stored.

        Raises
        ------
        UnknownCollection
            The collection needs another key (the message is the one for a collection that does not exist, so
            a guess learns nothing).
        CollectionLocked
            ``create``: the collection exists and needs another key, or exists without one and a key was given.
        """
        given = key_hash(key)
        if create and given and self.catalog.claim(collection, given):
            return
        wanted = self.catalog.key_hash(collection)
        if wanted is None:
            if create and given:
                raise CollectionLocked(f"Collection {collection!r} already exists without a key; a key can only be "
                                       "set when a collection is created. Use a new collection name.")
            return
        if given is not None and hmac.compare_digest(wanted, given):
            return
        if create:
            raise CollectionLocked(f"Collection {collection!r} needs its key: send it as X-Collection-Key, or use "
                                   "another collection name.")
        raise UnknownCollection(missing_collection(collection))

    def open_collections(self, key: str | None) -> list[str]:
        """The collections ``key`` may see: those without a key and those its key opens."""
        given = key_hash(key)
        return [c for c in self.catalog.collections()
                if (wanted := self.catalog.key_hash(c)) is None or (given and hmac.compare_digest(wanted, given))]

    def authorize_document(self, doc_id: str, key: str | None) -> None:
        """Refuse a document of a collection ``key`` does not open, as if it did not exist."""
        record = self.catalog.document_data(doc_id)[0]
        try:
            self.authorize(record.collection, key)
        except UnknownCollection:
            raise UnknownDocument(f"Document {doc_id!r} does not exist.") from None
