"""The middle layer: what the product does, called by every front end (UI, HTTP API, CLI, evaluation) and wired
once in ``pipeline.py``: :mod:`services.ingest` (uploads), :mod:`services.query` (questions), :mod:`services.access`
(keys, quotas, the browsers' libraries) and :mod:`services.pages` (page images)."""
