"""Sentence embeddings of the bundled all-MiniLM-L6-v2 with ONNX Runtime: no torch, no sentence-transformers.

``python -m retrieval.embedding_build`` (:mod:`retrieval.embedding_build`) exports the bundled weights to ONNX at
install time, once in float32 (``onnx``) and once with most matrix products in int8 (``onnx-int8``), checks both
against float32 sentence-transformers and writes what it measured to ``check.json`` beside them. This module only
runs them: the tokenizer (``tokenizers``, the model's own ``tokenizer.json``), the transformer (ONNX Runtime) and
the pooling of sentence-transformers (mean over the attention mask, then L2 normalisation) in NumPy.

Texts are tokenized once per call, sorted by their number of tokens and batched in that order, so that a batch
pads to little more than its own longest text; the vectors come back in the order of the texts. Truncation is at
the model's ``max_seq_length`` (256 tokens, as sentence-transformers does; the bundled ``tokenizer.json`` itself
says 128 and pads every text to 128).

Measured by ``python -m evaluation.embedding_bench`` (120 passages and 360 sentences of the 7 evaluation PDFs,
3 rounds rotating the order, 2-core AMD EPYC with AVX2 and no VNNI, load average 3 to 5 from other work; speed as
the ratio to torch in the same rounds; memory and load time in a fresh process per backend):

=====================  ==========  ===========  ===========  ===========  ========  =======
backend                passages    sentences    mean cos     min cos      RSS MiB   load s
=====================  ==========  ===========  ===========  ===========  ========  =======
torch float32          1.00x       1.00x        1            1            543       6.5
ONNX float32           1.76x       3.47x        1.0000       1.0000       197       0.4
ONNX int8              1.62x       3.68x        0.9965       0.9916       134       0.3
=====================  ==========  ===========  ===========  ===========  ========  =======

Much of the sentences' gain is the sorting by length (the torch backend batches texts in the order given); with
both sorted, float32 ONNX measured 1.2x torch. int8 vectors also depend a little on the other texts of their batch
(activations are quantised per batch): a sentence alone and in a batch differ by up to 0.02 in cosine.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from core.errors import ModelLoadError

BUILD_COMMAND = "python -m retrieval.embedding_build"
CHECK_FILE = "check.json"
TOKENIZER_FILE = "tokenizer.json"
MODEL_FILES = {"onnx": "model-fp32.onnx", "onnx-int8": "model-int8.onnx"}
"""The file of each ONNX backend in the models folder."""
MAX_SEQ_LENGTH = 256  # sentence-transformers' max_seq_length of all-MiniLM-L6-v2 (sentence_bert_config.json)

_SESSIONS: dict[tuple[str, float], object] = {}
_LOCK = threading.Lock()


def read_check(models_dir: Path | str) -> dict | None:
    """The build's ``check.json`` in ``models_dir``, or None when there is none (or it cannot be read)."""
    try:
        return json.loads((Path(models_dir) / CHECK_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _session(path: Path):
    import onnxruntime as ort

    key = (str(path), path.stat().st_mtime)
    with _LOCK:  # one session per model file and process, however many pipelines
        if key not in _SESSIONS:
            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3  # warnings about unused initialisers are noise here
            try:
                _SESSIONS[key] = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            except Exception as exc:  # noqa: BLE001 - a damaged or foreign file gets the same advice
                raise ModelLoadError(f"The ONNX embedding model {path} could not be loaded: {exc}. To fix: build "
                                     f"it again with `{BUILD_COMMAND} --force --out {path.parent}`.") from exc
        return _SESSIONS[key]


def _tokenizer(path: Path, max_length: int):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()  # batches are padded here, to their own longest text
    tokenizer.enable_truncation(max_length=max_length)
    return tokenizer


class OnnxEmbedder:
    """Encodes passages and questions into unit vectors, like :class:`retrieval.embedder.Embedder`.

    Parameters
    ----------
    models_dir : the folder ``python -m retrieval.embedding_build`` wrote.
    backend : ``"onnx-int8"`` or ``"onnx"`` (float32).
    batch_size : texts per forward pass.
    name : the source model's name, shown in ``/stats`` (the folder of the bundled model).

    Raises
    ------
    ModelLoadError
        The folder holds no model for ``backend``, or the model cannot be loaded; the message gives the build
        command.
    """

    def __init__(self, models_dir: Path | str, backend: str = "onnx-int8", batch_size: int = 32, name: str = ""):
        if backend not in MODEL_FILES:
            raise ValueError(f"backend must be one of {sorted(MODEL_FILES)}, got {backend!r}")
        folder = Path(models_dir)
        path, vocab = folder / MODEL_FILES[backend], folder / TOKENIZER_FILE
        missing = [p.name for p in (path, vocab) if not p.is_file()]
        if missing:
            raise ModelLoadError(
                f"The {backend} embedding model is not built: {', '.join(missing)} missing in {folder}. To fix: run "
                f"`{BUILD_COMMAND} --out {folder}` (it exports the bundled all-MiniLM-L6-v2 in about a minute), "
                "or set RAG_EMBEDDING_BACKEND=auto or torch.")
        check = read_check(folder) or {}
        source = check.get("source", {})
        self.backend = backend
        self.name = name or source.get("name", "all-MiniLM-L6-v2")
        self.batch_size = batch_size
        self.dim = int(source.get("dim", 384))
        self.path = path
        self._session = _session(path)
        self._tokenizer = _tokenizer(vocab, int(source.get("max_seq_length", MAX_SEQ_LENGTH)))
        self._inputs = {i.name for i in self._session.get_inputs()}

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def encode(self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        """Return a ``(len(texts), dim)`` float32 array of unit vectors, in the order of ``texts``;
        ``progress(done, total)`` after each batch (batches go longest texts first).

        A text given more than once is embedded once (a sentence in the overlap of two passages, a table row
        repeated on every page): 3 % of the sentences of the papers, 15 % of a 10-Q's.
        """
        texts = [str(t) for t in texts]
        first: dict[str, int] = {}
        slots = np.fromiter((first.setdefault(t, len(first)) for t in texts), dtype=np.int64, count=len(texts))
        unique = list(first)
        out = np.zeros((len(unique), self.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(unique)
        lengths = np.array([len(e.ids) for e in encodings])
        order = np.argsort(-lengths, kind="stable")
        for start in range(0, len(order), self.batch_size):
            rows = order[start:start + self.batch_size]
            width = int(lengths[rows].max())
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                ids[r, :lengths[i]] = encodings[i].ids
                mask[r, :lengths[i]] = 1
            out[rows] = self._forward(ids, mask)
            if progress:
                done = start + len(rows)  # counted in the texts asked for, so it ends at their number
                progress(len(texts) if done == len(unique) else done * len(texts) // len(unique), len(texts))
        return out[slots]

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]
