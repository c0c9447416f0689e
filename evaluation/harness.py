"""How a runner is put together: its command-line arguments and the product pipeline over a cached store.

A runner that measures the product on gold documents does the same things every time, written here once:

- :func:`add_arguments` adds the argument groups it needs in one call: the gold set (``--gold``, ``--limit``),
  the documents (``--docs``), the output folder (``--out``), the cached store (``--cache``, ``--rebuild``), settings
  overrides (``--set NAME=VALUE``, any field of :class:`settings.Settings`) and the answer depth (``--top-k``);
- :func:`open_store` opens the product's :class:`pipeline.Pipeline` over a store cached under
  ``evaluation/.cache/<settings hash>`` and ingests the gold documents into it (:func:`ingest_docs`), so that later
  runs with the same settings and the same reading code reuse the index and the ingestion timings measured when it
  was built;
- :func:`reported_settings` is what a report says about the settings (never a key).

The reports themselves (Markdown tables, the ``.md`` and ``.json`` results) are written with
:mod:`evaluation.common`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from evaluation.common import RESULTS, now
from generation.llm import is_configured

HERE = Path(__file__).resolve().parent
# The shared evaluation folder sits beside the repository (../shared/eval).
SHARED_EVAL = HERE.parents[1] / "shared" / "eval"
DEFAULT_GOLD = SHARED_EVAL / "gold-dev.jsonl"
DEFAULT_DOCS = SHARED_EVAL / "docs"
CACHE_ROOT = HERE / ".cache"
COLLECTION = "eval"

# Settings that cannot change what is stored. Everything else, including settings added later, goes into the
# cache key, so an unknown setting errs towards re-ingesting rather than measuring a stale index.
_NOT_IN_CACHE_KEY = {
    "data_dir", "sample_dir", "index_samples", "hub_offline", "max_upload_mb", "embedding_batch_size",
    "top_k", "answer_threshold", "answer_max_sentences", "max_question_chars", "groq_api_key", "llm_model",
    "fusion", "rrf_k", "confidence_insufficient", "confidence_low", "candidates", "semantic_weight",
    "keyword_weight", "reranker_model", "reranker_enabled", "rerank_candidates", "sentence_weight", "expansion",
    "expansion_threshold", "groq_base_url", "llm_timeout_seconds", "llm_max_retries", "llm_max_tokens",
    "llm_temperature", "keyword_prefix", "keyword_section", "answer_confident", "unknown_name_support",
    "absent_focus_support", "max_pages", "api_key", "uploads_per_hour", "questions_per_hour",
    "max_concurrent_ingests", "label_weight", "max_request_kb", "body_timeout_seconds", "header_timeout_seconds",
    "keep_alive_seconds", "max_header_kb", "llm_provider", "followup_resolver",
}
_SECRETS = {"groq_api_key", "api_key"}
# Code whose change alters what is stored: a cached store built by other code is not reused.
_STORE_CODE = ("core/types.py", "ingestion", "retrieval/sentence_index.py", "retrieval/embedder.py",
               "retrieval/tokenize.py")


# -- arguments ------------------------------------------------------------------------------------------------------
def at_least_one(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def passages(text: str) -> int:
    """An argparse type: a passage count the product accepts (1-50)."""
    value = int(text)
    if not 1 <= value <= 50:
        raise argparse.ArgumentTypeError(f"must be between 1 and 50, got {value}")
    return value


class _SetSetting(argparse.Action):
    """``--set NAME=VALUE``, repeatable, into a dict of settings overrides, each value checked as the setting's own
    type and bounds (``chunk_size=abc`` stops here, not half-way through a run)."""

    def __call__(self, parser, namespace, value, option_string=None):
        from typing import Annotated

        from pydantic import TypeAdapter, ValidationError

        from settings import Settings

        name, equals, text = value.partition("=")
        if not equals or name not in Settings.model_fields:
            parser.error(f"{option_string} takes NAME=VALUE, NAME a field of settings.Settings; got {value!r}")
        spec = Settings.model_fields[name]
        kind = Annotated[(spec.annotation, *spec.metadata)] if spec.metadata else spec.annotation
        try:
            checked = TypeAdapter(kind).validate_python(text)
        except ValidationError as err:
            parser.error(f"{option_string} {name}={text}: {err.errors()[0]['msg']}")
        setattr(namespace, self.dest, {**(getattr(namespace, self.dest) or {}), name: checked})


def add_arguments(parser: argparse.ArgumentParser, *, gold: bool = True, docs: str | None = "folder holding <doc>.pdf",
                  out: str = "the report files", store: bool = False, overrides: bool = False,
                  top_k: int | None = None) -> argparse.ArgumentParser:
    """Add the shared argument groups to ``parser``; return it.

    Parameters
    ----------
    gold : ``--gold PATH`` (default the dev set) and ``--limit N`` (only the first N questions).
    docs : help of ``--docs DIR`` (default the gold documents' folder); None for no ``--docs``.
    out : what ``--out DIR`` (default ``evaluation/results``) is the folder for.
    store : ``--cache DIR`` (the cached stores, default ``evaluation/.cache``) and ``--rebuild``.
    overrides : ``--set NAME=VALUE``, repeatable, into ``args.overrides`` (a dict, empty by default).
    top_k : the default of ``--top-k N`` (1-50); None for no ``--top-k``.
    """
    if gold or docs:
        group = parser.add_argument_group("gold set")
        if gold:
            group.add_argument("--gold", type=Path, default=DEFAULT_GOLD, metavar="PATH", help="gold JSONL file")
            group.add_argument("--limit", type=at_least_one, default=None, metavar="N",
                               help="only the first N gold questions (quick runs)")
        if docs:
            group.add_argument("--docs", type=Path, default=DEFAULT_DOCS, metavar="DIR", help=docs)
    group = parser.add_argument_group("output")
    group.add_argument("--out", type=Path, default=RESULTS, metavar="DIR", help=f"folder for {out}")
    if store:
        group = parser.add_argument_group("cached store")
        group.add_argument("--cache", type=Path, default=CACHE_ROOT, metavar="DIR",
                           help="folder of the cached stores (default evaluation/.cache, shared by the runners)")
        group.add_argument("--rebuild", action="store_true",
                           help="delete the cached store first (after changing reading/chunking code)")
    if overrides or top_k is not None:
        group = parser.add_argument_group("settings")
        if overrides:
            group.add_argument("--set", dest="overrides", action=_SetSetting, default={}, metavar="NAME=VALUE",
                               help="a setting for this run (settings.py; repeatable), e.g. --set chunk_size=800")
        if top_k is not None:
            group.add_argument("--top-k", type=passages, default=top_k, metavar="N",
                               help=f"passages given to the answerer (1-50; default {top_k})")
    return parser


# -- the cached store -----------------------------------------------------------------------------------------------
def code_digest(root: Path = HERE.parent) -> str:
    """Short hash of the source files that decide what an index holds (reading, chunking, sentence vectors)."""
    digest = hashlib.sha256()
    for name in _STORE_CODE:
        path = root / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:12]


def settings_digest(settings) -> str:
    """Short hash of the settings that shape the stored index, and of the code that reads and indexes, so that a
    change to either builds a new store instead of measuring a stale one."""
    values = settings.model_dump(mode="json", exclude=_NOT_IN_CACHE_KEY)
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:16] + "-" + code_digest()


def reported_settings(settings) -> dict:
    """The settings as a report shows them: every value but the keys, and whether an LLM answered."""
    values = settings.model_dump(mode="json", exclude=_SECRETS)
    values["llm"] = is_configured(settings)  # whether answers came from the LLM, never the key itself
    return values


def ingest_docs(pipeline, docs: Iterable[str], folder: Path | Mapping[str, Path], record_path: Path) -> dict[str, dict]:
    """Ingest each gold PDF (``<folder>/<doc>.pdf``, or each document's own folder) into the eval collection;
    return doc -> ingestion record.

    An identical re-upload is recognised by the pipeline and is near-instant, so its timings say nothing about
    ingestion cost; the timings measured when the store was built are kept in ``record_path`` and reused.
    A re-upload with no recorded timings gets ``seconds`` None rather than a misleading near-zero.
    """
    records: dict[str, dict] = json.loads(record_path.read_text()) if record_path.exists() else {}
    out: dict[str, dict] = {}
    for doc in docs:
        path = (folder[doc] if isinstance(folder, Mapping) else folder) / f"{doc}.pdf"
        if not path.is_file():
            raise SystemExit(f"error: gold document {doc!r} not found at {path}")
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        # In this process whatever the store (with PostgreSQL too: the measure is the pipeline, not the queue).
        result = pipeline.ingest(data, path.name, collection=COLLECTION, here=True)
        old = records.get(doc)
        if getattr(result, "duplicate", False) and old and old["sha256"] == sha and old["doc_id"] == result.doc_id:
            out[doc] = {**old, "reused": True}
            print(f"ingest {doc}: reused {result.doc_id} (built {old['measured_at']})", file=sys.stderr)
            continue
        measured = not getattr(result, "duplicate", False)
        out[doc] = records[doc] = {
            "doc_id": result.doc_id, "sha256": sha, "pages": _count(result.pages), "chunks": _count(result.chunks),
            "seconds": result.seconds if measured else None, "timings": dict(result.timings) if measured else {},
            "measured_at": now() if measured else None,
            "reused": not measured,
        }
        note = f"in {result.seconds:.1f}s" if measured else "already indexed, timings unknown (use --rebuild)"
        print(f"ingest {doc}: {out[doc]['pages']} pages, {out[doc]['chunks']} chunks {note}", file=sys.stderr)
        # Saved after each document so a run stopped part-way keeps what it measured.
        record_path.parent.mkdir(parents=True, exist_ok=True)
        record_path.write_text(json.dumps(records, indent=2))
    return out


def _count(value) -> int:
    return value if isinstance(value, int) else len(value)


@dataclass
class GoldStore:
    """The product pipeline over a cached store, with the gold documents ingested (see :func:`open_store`).

    Attributes
    ----------
    pipeline : the :class:`pipeline.Pipeline`, its settings the defaults (and the environment) plus ``overrides``.
    path : the store's folder; ``record``: its ingestion record (JSON).
    documents : doc -> ingestion record from :func:`ingest_docs` (``doc_id``, ``pages``, ``chunks``, ``seconds``...).
    overrides : the settings given to :func:`open_store`.
    """

    pipeline: object
    path: Path
    record: Path
    documents: dict[str, dict]
    overrides: dict = field(default_factory=dict)

    @property
    def doc_ids(self) -> dict[str, str]:
        """doc -> the product's doc_id."""
        return {doc: rec["doc_id"] for doc, rec in self.documents.items()}

    def reopen(self, **search_settings):
        """Another pipeline over the same store, with settings that do not change what is stored (fusion, reranker,
        weights...); a store is read from disk when opened, so open it after the ingestion."""
        stored = sorted(set(search_settings) - _NOT_IN_CACHE_KEY)
        if stored:
            raise ValueError(f"{', '.join(stored)} change what is stored: open another store for them")
        return _pipeline(self.path, {**self.overrides, **search_settings})


def _product():
    try:
        from pipeline import Pipeline
        from settings import Settings
    except ModuleNotFoundError as err:
        raise SystemExit(f"error: cannot import the product pipeline ({err}); run from the repository root")
    return Pipeline, Settings


def _pipeline(path: Path, overrides: dict):
    Pipeline, Settings = _product()
    return Pipeline(Settings.preset("evaluation", data_dir=path, **overrides))


def store_paths(cache: Path = CACHE_ROOT, prefix: str = "", **overrides) -> tuple[Path, Path]:
    """The store folder and ingestion record for these settings: ``<cache>/<prefix><settings hash>`` and
    ``<cache>/<prefix><settings hash>.ingest.json``."""
    _, Settings = _product()
    digest = settings_digest(Settings.preset("evaluation", **overrides))
    return cache / f"{prefix}{digest}", cache / f"{prefix}{digest}.ingest.json"


def open_store(docs: Iterable[str], folder: Path | Mapping[str, Path], *, cache: Path = CACHE_ROOT, prefix: str = "",
               rebuild: bool = False, **overrides) -> GoldStore:
    """The product pipeline over the cached store for the default settings plus ``overrides``, with ``docs``
    ingested (:func:`ingest_docs`).

    Parameters
    ----------
    docs : document names, ingested in this order from ``folder`` (one folder, or doc -> folder).
    cache, prefix : the store is ``<cache>/<prefix><settings hash>`` (:func:`store_paths`); the hash covers every
        setting that shapes the index and the code that builds it (:func:`settings_digest`).
    rebuild : delete the store first.
    overrides : settings for this store; search-time ones (fusion, reranker) do not change the store's hash.
    """
    path, record = store_paths(cache, prefix, **overrides)
    if rebuild and path.exists():
        shutil.rmtree(path)
    if not path.exists():
        # Recorded timings belong to a store that is gone; keeping them would hide this run's real cost.
        record.unlink(missing_ok=True)
    pipeline = _pipeline(path, overrides)
    return GoldStore(pipeline, path, record, ingest_docs(pipeline, docs, folder, record), dict(overrides))
