"""What the answer side makes, below every layer that uses it: the :class:`Decision` behind an answer, its
:class:`Citation` s, the extractive :class:`Answer`, the services' :class:`IngestResult` and
:class:`AnswerResult`, and the :class:`Event` s an answer streams as.

Each has one ``to_dict()``: the JSON the HTTP API sends and the CLI prints.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import ClassVar

from core.types import fill_page_end


LEVELS = ("high", "low", "insufficient")


@dataclass(frozen=True)
class Decision:
    """``answer``: quote (or write) an answer; ``level``: one of :data:`LEVELS`; ``warning``: shown with an answer
    given at level ``low``; ``reason``: why no answer was given, in plain words ("" when answered)."""

    answer: bool
    level: str
    warning: str | None = None
    reason: str = ""


@dataclass
class Citation:
    """Where an answer's words come from: a passage (``chunk_id``) of a document, on ``page`` (to ``page_end``
    for a passage the LLM cited that runs onto the next page) with their printed labels, and the sentences quoted
    (``quote``, "" when the whole passage is cited). ``source`` is the N of an LLM's ``[Source N]``, ``None`` for
    a quote."""

    doc_id: str
    page: int
    chunk_id: str
    filename: str = ""
    quote: str = ""
    page_label: str = ""  # the label printed on ``page`` ("ii", "17"), "" when unknown
    source: int | None = None
    page_end: int = 0
    page_end_label: str = ""

    def __post_init__(self) -> None:
        fill_page_end(self)

    def to_dict(self) -> dict:
        return {"doc_id": self.doc_id, "page": self.page, "page_end": self.page_end, "chunk_id": self.chunk_id,
                "filename": self.filename, "source": self.source, "quote": self.quote,
                "page_label": self.page_label, "page_end_label": self.page_end_label}


@dataclass
class LLMCitation(Citation):
    """A :class:`Citation` the LLM made (``source`` set): the passage, not the sentence, is what the model cited,
    so both pages of a page-spanning passage count."""

    source: int | None = 0


@dataclass
class Answer:
    text: str
    abstained: bool
    citations: list[Citation] = field(default_factory=list)
    pieces: list[str] = field(default_factory=list)  # the answer in the order it streams
    support: float = 0.0  # score of the best sentence that fits the question (of the best sentence, if none fits)
    decision: Decision = field(default_factory=lambda: Decision(True, "high"))


@dataclass
class IngestResult:
    doc_id: str
    filename: str
    collection: str
    pages: int
    chunks: int
    chunk_ids: list[str]
    seconds: float
    warnings: list[str] = field(default_factory=list)
    duplicate: bool = False  # an identical file with the same chunking was already indexed: nothing was done
    replaced: bool = False  # the same file was indexed before with other chunking and has been re-indexed
    strategy: str = "recursive_char"
    ocr_pages: list[int] = field(default_factory=list)
    unread_pages: list[int] = field(default_factory=list)  # scanned pages not OCR'd, or pages that cannot be parsed
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class AnswerResult:
    answer: str
    abstained: bool
    confidence: float
    sources: list  # list[Hit], rank order
    citations: list  # list[Citation]
    resolved_question: str
    timings: dict[str, float] = field(default_factory=dict)
    mode: str = "extractive"
    confidence_level: str = "high"  # the answer's level (generation.decision): high, low or insufficient
    support: float = 0.0  # how well the best quoted sentence covers the question (the abstention score)
    expansion: object = None  # retrieval.expansion.Expansion when the question was expanded
    question: str = ""  # as asked; resolved_question is what was searched (a follow-up made standalone)
    rewrite: str = "unchanged"  # how the question was resolved: unchanged, local or llm
    conversation_id: str | None = None
    warning: str | None = None  # shown with the answer (low retrieval confidence)
    note: str | None = None  # why the answer is not what the mode promised (e.g. the LLM failed: extractive)

    def to_dict(self) -> dict:
        return {
            "answer": self.answer, "abstained": self.abstained, "confidence": self.confidence,
            "confidence_level": self.confidence_level, "support": self.support, "answer_mode": self.mode,
            "sources": [h.to_dict() for h in self.sources], "citations": [c.to_dict() for c in self.citations],
            "question": self.question, "resolved_question": self.resolved_question, "rewrite": self.rewrite,
            "conversation_id": self.conversation_id, "warning": self.warning, "note": self.note,
            "timings": self.timings, "expansion": self.expansion.to_dict() if self.expansion else None,
        }


# -- the events an answer streams as (services.query.QueryService.stream) ---------------------------------------
@dataclass(frozen=True)
class Sources:
    """The passages found, before any answer text: ``result.question`` is what was searched (a follow-up made
    standalone)."""

    result: object  # core.types.SearchResult
    conversation_id: str | None = None
    kind: ClassVar[str] = "sources"

    def to_dict(self) -> dict:
        return {"conversation_id": self.conversation_id, **self.result.to_dict()}


@dataclass(frozen=True)
class Delta:
    """The next piece of the answer's text."""

    text: str
    kind: ClassVar[str] = "delta"

    def to_dict(self) -> dict:
        return {"text": self.text}


@dataclass(frozen=True)
class Reset:
    """The text sent so far is withdrawn (an LLM answer failed its citation check or broke off); ``reason`` says
    why, and the answer that replaces it follows."""

    reason: str
    kind: ClassVar[str] = "reset"

    def to_dict(self) -> dict:
        return {"reason": self.reason}


@dataclass(frozen=True)
class Done:
    """The whole answer, last."""

    result: AnswerResult
    kind: ClassVar[str] = "done"

    def to_dict(self) -> dict:
        return self.result.to_dict()


Event = Sources | Delta | Reset | Done
