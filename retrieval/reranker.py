"""Cross-encoder reranking (sentence-transformers ``CrossEncoder``) of the best fused candidates.

The weights are loaded once, lazily. When they cannot be loaded (no hub here, no local copy) the failure is logged
once, reported in ``/stats``, and ranking goes on without this stage.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)

DEFAULT_MODEL = "cross-encoder/ms-marco-MiniLM-L-6-v2"


def weights_on_disk(model: str) -> bool:
    """Whether ``model`` can load without a download: a local folder, a copy in the hub's cache, or hubs on.

    Checked before sentence-transformers is imported (about 6 s, mostly torch), so that a server whose reranker
    cannot load starts without paying for it.

    >>> os.environ["HF_HUB_OFFLINE"], weights_on_disk("/no/such/folder")  # the tests run with hubs off
    ('1', False)
    """
    if Path(model).is_dir():
        return True
    if os.environ.get("HF_HUB_OFFLINE") != "1":
        return True  # the hub may be reached: let the load try
    from huggingface_hub import try_to_load_from_cache

    try:
        return isinstance(try_to_load_from_cache(model, "config.json"), str)
    except Exception:  # noqa: BLE001 - a name that is no valid hub id is not in the cache either
        return False


class Reranker:
    """Scores (question, passage) pairs with a cross-encoder.

    Parameters
    ----------
    model : hub id or local folder of a sentence-transformers cross-encoder.
    enabled : ``False`` turns the stage off without trying to load anything.
    """

    def __init__(self, model: str = DEFAULT_MODEL, enabled: bool = True):
        self.model_name = model
        self.enabled = enabled
        self.error: str | None = None if enabled else "turned off (RAG_RERANKER_ENABLED=false)"
        self._model = None
        self._tried = False
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> bool:
        """Load the weights on first use; ``False`` (and ``error`` set, logged once) when they cannot be."""
        if not self.enabled:
            return False
        with self._lock:
            if not self._tried:
                self._tried = True
                if not weights_on_disk(self.model_name):
                    self.error = (f"reranker {self.model_name!r} could not be loaded: it is not on this machine and "
                                  "model hubs are off "
                                  "(HF_HUB_OFFLINE=1); ranking without it. Set RAG_RERANKER_MODEL to a local "
                                  "cross-encoder folder.")
                    log.warning(self.error)
                    return False
                try:
                    from sentence_transformers import CrossEncoder

                    self._model = CrossEncoder(self.model_name, device="cpu")
                except Exception as exc:  # noqa: BLE001 - any failure means: rank without this stage
                    self.error = (f"reranker {self.model_name!r} could not be loaded ({type(exc).__name__}); "
                                  "ranking without it. Set RAG_RERANKER_MODEL to a local cross-encoder folder.")
                    log.warning(self.error)
        return self.loaded

    def scores(self, question: str, passages: list[str]) -> list[float] | None:
        """One relevance score per passage (higher is better), or ``None`` when the model is not available."""
        if not passages or not self.load():
            return None
        return [float(s) for s in self._model.predict([(question, p) for p in passages], show_progress_bar=False)]
