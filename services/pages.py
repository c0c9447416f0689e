"""Page images: the page a citation points at, rendered with the quoted sentences (or the passage) highlighted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.errors import UnknownDocument
from retrieval.store_api import Catalog

if TYPE_CHECKING:
    from ingestion.page_images import PageImage


class Pages:
    """Renders the pages of a store's documents from their kept originals."""

    def __init__(self, store: Catalog):
        self.store = store

    def image(self, doc_id: str, page: int, chunk_id: str | None = None, dpi: int = 110,
              quote: str = "") -> PageImage:
        """The page as a PNG (:class:`ingestion.page_images.PageImage`) with the passage ``chunk_id`` highlighted,
        or only ``quote`` (the sentences an answer quoted from it) when given and found on the page.

        Raises
        ------
        core.errors.UnknownDocument
            No such document, or the chunk is not one of its passages.
        ValueError
            The document is not a PDF (nothing to render), was indexed without its file, or has no such page.
        """
        from ingestion.page_images import render_page  # here: pymupdf is not needed to start the server

        record, chunks, _ = self.store.document_data(doc_id)
        if not record.filename.lower().endswith(".pdf"):
            raise ValueError(f"'{record.filename}' is a text file: it has no page images; its passage text is shown "
                             "instead.")
        original = self.store.original(doc_id)
        if original is None:
            raise ValueError(f"'{record.filename}' was indexed without keeping its file; upload it again to see "
                             "its pages.")
        highlight = None
        if chunk_id is not None:
            chunk = next((c for c in chunks if c.chunk_id == chunk_id), None)
            if chunk is None:
                raise UnknownDocument(f"Passage {chunk_id!r} is not in document {doc_id!r}.")
            # A passage extended across a page break holds text of two pages: highlight the part on this one.
            highlight = chunk.on_page_text if page == chunk.page else chunk.continuation if page == chunk.page_end \
                else None
        if quote and highlight:
            # The quoted sentences are what the user checks; the whole passage is the fallback when they are too
            # short to locate with confidence.
            image = render_page(original, page, quote, dpi=dpi)
            if image.boxes:
                return image
        return render_page(original, page, highlight, dpi=dpi)
