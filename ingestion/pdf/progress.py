"""Progress of reading a PDF, passed on to the caller's optional callback."""

from __future__ import annotations

import logging
from collections.abc import Callable

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: ``stage`` is ``"read"`` (pages with a text layer) or ``"ocr"``."""

logger = logging.getLogger(__name__)


class Reporter:
    """A :data:`Progress` that passes on only forward steps (per stage) to an optional callback, and never lets the
    callback break reading: what it raises is logged."""

    def __init__(self, callback: Progress | None):
        self._callback = callback
        self._last: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self._callback is None or self._last.get(stage, -1) >= done:
            return
        self._last[stage] = done
        try:
            self._callback(stage, done, total)
        except Exception:  # a broken progress bar must not fail the upload (nor pass for a damaged PDF)
            logger.exception("progress callback failed")
