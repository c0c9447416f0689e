"""Questions, from text to a cited answer: validate once, resolve a follow-up, search, answer.

A question goes: checked (text, length, collection, documents) -> a follow-up ("who proposed it?") made standalone
from its conversation's memory (:mod:`generation.conversation`) -> searched (:class:`retrieval.searcher.Searcher`)
-> answered by the LLM when one is configured and retrieval allows (:class:`generation.llm_answerer.LLMAnswerer`),
else quoted (:class:`generation.extractive.ExtractiveAnswerer`) -> remembered in its conversation. It streams as
typed events (:mod:`core.answers`: :class:`Sources`, :class:`Delta`, :class:`Reset`, :class:`Done`), which every
front end turns into what it shows with their ``to_dict()``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from core.answers import AnswerResult, Delta, Done, Event, Reset, Sources
from core.errors import QuestionError, UnknownCollection, UnknownDocument
from core.text import check_text, safe_text
from core.types import SearchResult
from generation.conversation import Conversations, LLMRewriter, Turn, resolve_with_certainty
from generation.extractive import ExtractiveAnswerer
from generation.llm_answerer import LLMAnswerer
from retrieval.searcher import Searcher
from retrieval.store_api import Catalog, missing_collection
from settings import Settings


@dataclass(frozen=True)
class Ask:
    """A question as the services take it, made by :meth:`Questions.ask`, which checks it once: the text tidied,
    the collection and documents known, the conversation id valid."""

    question: str
    collection: str = "default"
    doc_ids: tuple[str, ...] | None = None
    top_k: int | None = None
    mode: str = "hybrid"
    conversation_id: str | None = None
    rerank: bool = True


class Questions:
    """Answers questions over a store (module docstring)."""

    def __init__(self, settings: Settings, store: Catalog, searcher: Searcher, answerer: ExtractiveAnswerer,
                 llm_answerer: LLMAnswerer | None, conversations: Conversations, rewriter: LLMRewriter | None):
        self.settings, self.store, self.searcher = settings, store, searcher
        self.answerer, self.llm_answerer = answerer, llm_answerer
        self.conversations, self.rewriter = conversations, rewriter

    @property
    def mode(self) -> str:
        """How answers are written: ``"llm"`` (an LLM is configured) or ``"extractive"`` (quoted)."""
        return "llm" if self.llm_answerer is not None else "extractive"

    @property
    def can_rerank(self) -> bool:
        """The cross-encoder's weights loaded, so ``rerank=True`` reranks."""
        reranker = self.searcher.reranker
        return reranker is not None and reranker.loaded

    # -- checks ----------------------------------------------------------------------------------------------
    def validate(self, question: str, collection: str, doc_ids: list[str] | None = None) -> str:
        """The question, whitespace tidied, if it can be asked of that collection and those documents.

        Raises
        ------
        QuestionError, core.errors.UnknownCollection, core.errors.UnknownDocument
        """
        try:
            check_text(question or "", "The question")
        except ValueError as exc:
            raise QuestionError(str(exc)) from None
        question = " ".join((question or "").split())
        if not question:
            raise QuestionError("The question is empty: type a question about the document.")
        limit = self.settings.max_question_chars
        if len(question) > limit:
            raise QuestionError(f"The question is {len(question)} characters long; the limit is {limit}. Ask a "
                                "shorter question.")
        if collection not in self.store.collections():
            raise UnknownCollection(missing_collection(collection))
        if doc_ids is not None:
            known = {r.doc_id for r in self.store.documents(collection)}
            missing = [d for d in doc_ids if d not in known]
            if missing:
                raise UnknownDocument(safe_text(f"Document(s) {', '.join(missing)} are not in collection "
                                                f"{collection!r}."))
        return question

    def ask(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
            top_k: int | None = None, mode: str = "hybrid", conversation_id: str | None = None,
            rerank: bool = True) -> Ask:
        """The question checked (:meth:`validate`, and the conversation id if one is given), ready for
        :meth:`stream` or :meth:`answer`.

        Raises
        ------
        QuestionError, core.errors.UnknownCollection, core.errors.UnknownDocument
        """
        question = self.validate(question, collection, doc_ids)
        conversation_id = None if conversation_id is None else self.conversation(conversation_id)
        return Ask(question, collection, None if doc_ids is None else tuple(doc_ids), top_k, mode, conversation_id,
                   rerank)

    def conversation(self, conversation_id: str | None) -> str:
        """``conversation_id`` checked, or a new conversation's id when it is ``None``.

        Raises
        ------
        QuestionError
            The id is not one this server could have given.
        """
        if conversation_id is None:
            return self.conversations.new_id()
        try:
            return self.conversations.validate_id(conversation_id)
        except ValueError as exc:
            raise QuestionError(str(exc)) from None

    def forget(self, conversation_id: str) -> None:
        """Forget a conversation's memory (its next question stands alone)."""
        self.conversations.reset(self.conversation(conversation_id))

    # -- search and answer -----------------------------------------------------------------------------------
    def search(self, ask: Ask) -> SearchResult:
        """Ranked passages with every stage's score (see :class:`core.types.SearchResult`), no answer."""
        return self.searcher.search(ask.question, ask.collection, None if ask.doc_ids is None else list(ask.doc_ids),
                                    ask.top_k or self.settings.top_k, ask.mode, rerank=ask.rerank)

    def stream(self, ask: Ask) -> Iterator[Event]:
        """Answer a question checked by :meth:`ask`, as events: :class:`Sources` (its result's ``question`` is the
        one searched: a follow-up made standalone), then :class:`Delta` pieces of the answer, with a
        :class:`Reset` when text already sent is withdrawn (an LLM answer failed its citation check or broke off),
        then :class:`Done`.

        ``ask.conversation_id`` keeps the exchange in that conversation's memory and lets a follow-up ("who
        proposed it?") be rewritten from it before retrieval; ``None`` asks a standalone question.
        ``ask.rerank=False`` skips the cross-encoder for this question.
        """
        t0 = time.perf_counter()
        question, collection, mode, rerank = ask.question, ask.collection, ask.mode, ask.rerank
        doc_ids, conversation_id = None if ask.doc_ids is None else list(ask.doc_ids), ask.conversation_id
        history = self.conversations.history(conversation_id) if conversation_id else []
        resolution = resolve_with_certainty(question, history, self.rewriter,
                                            resolver=self.settings.followup_resolver)
        resolved, rewrite = resolution.question, resolution.method
        k = ask.top_k or self.settings.top_k
        result = self.searcher.search(resolved, collection, doc_ids, k, mode, rerank=rerank)
        if not resolution.certain and resolved != question:
            # The rules could not tell a follow-up from a question that stands alone: search it as asked too and
            # keep whichever comes closer to the documents.
            as_asked = self.searcher.search(question, collection, doc_ids, k, mode, rerank=rerank)
            if as_asked.confidence > result.confidence:
                result, resolved, rewrite = as_asked, question, "unchanged"
        yield Sources(result, conversation_id)
        t1 = time.perf_counter()
        if self.llm_answerer is not None:
            final = None
            for event in self.llm_answerer.stream(resolved, result, [(t.resolved, t.answer) for t in history]):
                if isinstance(event, (Delta, Reset)):
                    yield event
                else:
                    final = event
            text, abstained, citations, support = final.text, final.abstained, final.citations, final.support
            answer_mode, note, decision = final.mode, final.note, final.decision
        else:
            answer = self.answerer.answer_found(resolved, result)
            for piece in answer.pieces:
                yield Delta(piece)
            text, abstained, citations, support = answer.text, answer.abstained, answer.citations, answer.support
            answer_mode, note, decision = "extractive", None, answer.decision
        t2 = time.perf_counter()
        if conversation_id:
            self.conversations.add(conversation_id, Turn.from_exchange(question, resolved, text))
        yield Done(AnswerResult(
            answer=text, abstained=abstained, confidence=result.confidence,
            confidence_level=decision.level, sources=result.hits, citations=citations,
            resolved_question=resolved, question=question, rewrite=rewrite, conversation_id=conversation_id,
            timings={**result.timings, "retrieve": t1 - t0, "answer": t2 - t1, "total": t2 - t0},
            support=support, expansion=result.expansion, mode=answer_mode, warning=decision.warning, note=note))

    def answer(self, ask: Ask) -> AnswerResult:
        """:meth:`stream`'s final answer."""
        final = None
        for event in self.stream(ask):
            if isinstance(event, Done):
                final = event.result
        return final
