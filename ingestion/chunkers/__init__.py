"""The three ways :func:`ingestion.chunking.chunk_pages` cuts pages into passages, one module each; every strategy
takes the document's pages and gives, per page, the spans ``(start, end)`` of its passages.

* :mod:`~ingestion.chunkers.fixed_size`: sliding windows moved to sentence and word ends.
* :mod:`~ingestion.chunkers.recursive_char`: Markdown-aware recursive splitting, stubs joined.
* :mod:`~ingestion.chunkers.semantic`: cuts where the similarity of neighbouring sentences drops.
* :mod:`~ingestion.chunkers.spans`: what they share (window ends, stubs, wordless pieces).
"""
