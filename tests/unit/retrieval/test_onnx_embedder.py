"""The ONNX embedding backends against float32 sentence-transformers, and how ``auto`` chooses between the backends.

The models are the ones ``python -m retrieval.embedding_build`` wrote into the default ``models_dir`` when they are
up to date, else they are built once here into a temporary folder (about a minute).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

from core.errors import ModelLoadError
from retrieval import embedding_build
from retrieval.embedder import Embedder, choose_backend, make_embedder
from retrieval.onnx_embedder import BUILD_COMMAND, CHECK_FILE, MODEL_FILES, TOKENIZER_FILE, OnnxEmbedder
from tests.support import ROOT


def _long_text() -> str:
    """3,000 characters of the sample document (~610 tokens): cut at 256 tokens, and a cut at 128 (the bundled
    tokenizer file's own limit) would give a vector 0.90 in cosine from sentence-transformers'."""
    import pymupdf

    with pymupdf.open(ROOT / "data" / "NIST.AI.100-1.pdf") as doc:
        return " ".join(" ".join(doc[p].get_text().split()) for p in (10, 11))[:3000]


LONG = _long_text()
VARIED = ["Adam.", "What learning rate does Adam use by default?", LONG, "Ünïcödé naïve café — 東京都 🚀 αβγ ∑x²", "",
          "Table 3: top-1 accuracy 94.2% (±0.3) on ImageNet-1k, 25 epochs",
          *[f"Risk number {i} is measured {i * i} times per year by the operator." for i in range(30)]]


@pytest.fixture(scope="session")
def models(tmp_path_factory):
    """A folder holding up-to-date ONNX models and their check."""
    import onnxruntime

    from settings import Settings

    default = ROOT / Settings().models_dir
    source = embedding_build.source_info(embedding_build.source_dir())
    if embedding_build.up_to_date(default, source, onnxruntime.__version__):
        return default
    out = tmp_path_factory.mktemp("models")
    embedding_build.build(out)
    return out


@pytest.fixture(scope="session")
def reference():
    """float32 sentence-transformers, as the torch backend runs it."""
    return Embedder()


def linked(models, tmp_path, check: dict | None):
    """A models folder with the same model files and the given ``check.json`` (none when None)."""
    for name in [*MODEL_FILES.values(), TOKENIZER_FILE]:
        (tmp_path / name).symlink_to(models / name)
    if check is not None:
        (tmp_path / CHECK_FILE).write_text(json.dumps(check))
    return tmp_path


def test_float32_onnx_vectors_are_sentence_transformers_vectors(models, reference):
    onnx = OnnxEmbedder(models, "onnx", batch_size=8)  # 36 texts: five batches
    ours, theirs = onnx.encode(VARIED), reference.encode(VARIED)
    assert ours.shape == (len(VARIED), 384) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1, atol=1e-5)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() >= embedding_build.MIN_COSINE and cosines.mean() >= embedding_build.MEAN_COSINE
    assert cosines.min() > 0.9999, dict(zip(VARIED, cosines.round(5)))  # in practice the same vectors
    # Cut at 256 tokens: what follows changes nothing (and the match above rules out a cut at 128).
    assert np.dot(onnx.encode_one(LONG), onnx.encode_one(LONG + " and more words after the end")) > 0.99999


def test_int8_vectors_stay_close_to_float32(models, reference):
    ours, theirs = OnnxEmbedder(models, "onnx-int8").encode(VARIED), reference.encode(VARIED)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() > 0.98 and cosines.mean() > 0.99  # an approximation, whether or not it passed its check


def test_vectors_come_back_in_the_order_of_the_texts(models):
    onnx = OnnxEmbedder(models, "onnx", batch_size=4)
    texts = [VARIED[i] for i in (6, 2, 0, 5, 3, 1, 7)]  # lengths mixed: batched longest first
    batch = onnx.encode(texts)
    alone = np.stack([onnx.encode_one(t) for t in texts])
    sims = batch @ alone.T
    assert np.all(np.diag(sims) > 0.9999)
    assert np.all(sims.argmax(axis=1) == np.arange(len(texts)))
    done = []
    onnx.encode(texts, progress=lambda d, total: done.append((d, total)))
    assert done == [(4, 7), (7, 7)]
    assert onnx.encode([]).shape == (0, 384)


class CountingEmbedder(OnnxEmbedder):
    """The real model, counting the texts it runs."""

    ran = 0

    def _forward(self, ids, mask):
        self.ran += len(ids)
        return super()._forward(ids, mask)


def test_a_text_given_twice_is_embedded_once_and_both_get_its_vector(models):
    onnx = CountingEmbedder(models, "onnx", batch_size=2)
    texts = [VARIED[0], VARIED[1], VARIED[0], VARIED[2], VARIED[1]]
    done = []
    vectors = onnx.encode(texts, progress=lambda d, total: done.append((d, total)))
    assert onnx.ran == 3  # three different texts
    assert np.array_equal(vectors[0], vectors[2]) and np.array_equal(vectors[1], vectors[4])
    assert np.allclose(vectors[3], onnx.encode_one(VARIED[2]), atol=1e-6)
    assert done[-1] == (5, 5) and [d for d, _ in done] == sorted(d for d, _ in done)


def test_auto_runs_int8_when_its_check_passed(models, tmp_path, caplog):
    check = json.loads((models / CHECK_FILE).read_text())
    check["models"]["onnx-int8"].update(passed=True, failed=[])
    folder = linked(models, tmp_path, check)
    caplog.set_level(logging.INFO, logger="retrieval.embedder")
    embedder = make_embedder(models_dir=folder)
    assert embedder.backend == "onnx-int8" and isinstance(embedder, OnnxEmbedder)
    assert embedder.encode(["a question"]).shape == (1, 384)
    assert any("onnx-int8" in r.getMessage() and "passed its check" in r.getMessage() for r in caplog.records)


def test_auto_falls_back_to_float32_onnx_when_int8_failed_its_check(models, tmp_path, caplog):
    check = json.loads((models / CHECK_FILE).read_text())
    check["models"]["onnx-int8"].update(passed=False, failed=["top-8 agreement 0.44 < 0.95"])
    folder = linked(models, tmp_path, check)
    caplog.set_level(logging.INFO, logger="retrieval.embedder")
    assert make_embedder(models_dir=folder).backend == "onnx"
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "onnx-int8 failed its check: top-8 agreement 0.44 < 0.95" in said and "Embedding backend: onnx" in said


def test_auto_falls_back_to_torch_without_models_or_with_a_stale_check(models, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="retrieval.embedder")
    embedder = make_embedder(models_dir=tmp_path / "nowhere")
    assert embedder.backend == "torch" and isinstance(embedder, Embedder)
    assert any("no ONNX models in" in r.getMessage() and BUILD_COMMAND in r.getMessage() for r in caplog.records)
    check = json.loads((models / CHECK_FILE).read_text())
    check["onnxruntime"] = "0.1.0"  # checked with another onnxruntime: vouches for nothing here
    stale = tmp_path / "stale"
    stale.mkdir()
    backend, why = choose_backend(models_dir=linked(models, stale, check))
    assert backend == "torch" and "onnxruntime 0.1.0" in why and BUILD_COMMAND in why
    assert choose_backend("/some/other/model", "auto", models)[0] == "torch"  # only the bundled model has ONNX


@pytest.mark.parametrize("backend", ["onnx-int8", "onnx"])
def test_an_explicit_backend_without_its_model_names_the_build_command(tmp_path, backend):
    with pytest.raises(ModelLoadError, match=BUILD_COMMAND.replace(".", r"\.")) as raised:
        make_embedder(backend=backend, models_dir=tmp_path)
    assert MODEL_FILES[backend] in str(raised.value)
    with pytest.raises(ModelLoadError, match="RAG_EMBEDDING_BACKEND=torch"):
        make_embedder("/some/other/model", backend=backend, models_dir=tmp_path)


def test_the_onnx_backend_imports_neither_torch_nor_sentence_transformers(models):
    code = ("import sys\n"
            "from retrieval.embedder import make_embedder\n"
            f"e = make_embedder(backend='onnx', models_dir={str(models)!r})\n"
            "assert e.encode(['What is a risk?']).shape == (1, 384)\n"
            "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_second_build_of_the_same_source_does_nothing(models, capsys):
    before = {f: (models / f).stat().st_mtime for f in [*MODEL_FILES.values(), CHECK_FILE]}
    check = embedding_build.build(models)
    assert "nothing to do" in capsys.readouterr().out
    assert {f: (models / f).stat().st_mtime for f in before} == before
    assert check["models"]["onnx"]["passed"] and check["source"]["max_seq_length"] == 256
