"""Answers without an LLM: the passages' own sentences that best answer the question, quoted with their page.

Every word of an extractive answer comes from the document; the only added text is the citation marker (and the
abstention message, saying why, when no sentence supports an answer). Only a sentence that fits the question is
quoted (:mod:`generation.answer_fit`: a number for "how many", a date for "when was"), never a heading, a contents
line, a reference or a table's column headings; whether to answer at all, and how confidently, is one
:func:`generation.decision.decide`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from generation.answer_fit import asked_for, expect, fits, focus_names, named_in, names, on_focus
from generation.decision import Policy, decide
from core.types import Hit, SearchResult
from core.answers import Answer, Citation
from ingestion.sentences import split_sentences
from retrieval.embedder import Embedder
from retrieval.table_labels import row_match
from retrieval.tokenize import tokenize, words

NOT_FOUND = "Not in this document: no passage in it answers this question."
# Sentences never quoted: headings, column headings, contents lines and references point at an answer, they are
# not one; a figure's words (axis labels, legends) are not prose.
_NEVER_QUOTED = frozenset({"heading", "table_header", "toc", "reference", "figure"})


def page_reference(first: int, last: int, first_label: str = "", last_label: str = "") -> str:
    """``Page 5``, ``Pages 4-5``; with the printed labels when they differ from the physical numbers:
    ``Page 5 (printed iii)``, ``Pages 4-5 (printed 17-18)``. A range shows its labels only when both are known.

    >>> page_reference(5, 5, "iii"), page_reference(4, 5, "17", "18"), page_reference(2, 2, "2")
    ('Page 5 (printed iii)', 'Pages 4-5 (printed 17-18)', 'Page 2')
    """
    if first == last:
        return f"Page {first}" + (f" (printed {first_label})" if first_label and first_label != str(first) else "")
    printed = first_label and last_label and (first_label, last_label) != (str(first), str(last))
    return f"Pages {first}-{last}" + (f" (printed {first_label}-{last_label})" if printed else "")


@dataclass
class _Candidate:
    hit: Hit
    text: str
    start: int  # offsets of the sentence in the passage text
    end: int
    score: float = 0.0
    kind: str = "paragraph"  # the kind of block it is in
    named: float = 0.0  # for a row of amounts: the share of its label the question names (retrieval.table_labels)


@dataclass
class Prepared:
    """A question's scored sentences (``ranked``, best first), those that fit it (``fit``), the kind of answer it
    asks for, its words the searched documents never use: names (``unknown``) and words of the phrase it asks
    for (``missing``), and the names it is about that no found passage names (``unmet``)."""

    hits: list[Hit]
    ranked: list[_Candidate]
    fit: list[_Candidate]
    kind: str
    unknown: list[str]
    missing: list[str]
    unmet: list[str] = field(default_factory=list)  # focus names no found passage names (reason for declining)


def sentence_pages(chunk, start: int, end: int) -> tuple[int, int]:
    """First and last page of the sentence at ``text[start:end]``: a passage extended across a page break holds
    text of two pages."""
    on_page = chunk.end - chunk.start
    first = chunk.page if start < on_page else chunk.page_end
    last = chunk.page_end if end > on_page else chunk.page
    return first, last


class ExtractiveAnswerer:
    """Scores every sentence of the retrieved passages and quotes the best.

    A sentence's support is ``0.75 * cosine(question, sentence) + 0.25 * share of the question's words it
    contains`` (a word counts once however many BM25 terms it yields). Headings, and sentences with fewer than ``min_new_terms`` keywords beyond the question's, are
    skipped: they restate the question rather than answer it. Of the sentences that fit the question, the best
    decides (with ``policy``, :func:`generation.decision.decide`); other fitting sentences join it when they come
    within ``margin`` of it, up to ``max_sentences``, and are quoted in document order.
    """

    def __init__(self, embedder: Embedder, threshold: float = 0.45, max_sentences: int = 3, margin: float = 0.08,
                 min_new_terms: int = 1, sentence_vectors=None, policy: Policy | None = None):
        self.embedder = embedder
        # chunk -> (offsets, vectors) of its sentences embedded at ingestion, or None: those are not re-embedded.
        self.sentence_vectors = sentence_vectors
        self.min_new_terms = min_new_terms
        self.policy = policy or Policy(answer_threshold=threshold)
        self.max_sentences = max_sentences
        self.margin = margin

    def score(self, question: str, hits: list[Hit], question_vector: np.ndarray | None = None) -> list[_Candidate]:
        """Every candidate sentence with its support, best first."""
        terms = set(tokenize(question))
        # A heading, or a sentence that only restates the question, cannot hold its answer.
        candidates = [_Candidate(hit, s.text, s.start, s.end, kind=s.kind, named=row_match(s.block, terms))
                      for hit in hits for s in split_sentences(hit.chunk.text, hit.chunk.blocks)
                      if not s.heading and s.kind not in _NEVER_QUOTED
                      and len(set(tokenize(s.text)) - terms) >= self.min_new_terms]
        if not candidates:
            return []
        cosines = self._cosines(question, candidates, question_vector)
        # Coverage counts the question's words, not its terms: "update-mime-database" is one word asked about,
        # though it yields four terms.
        asked = [t for t in (set(tokenize(word)) for word in words(question)) if t]
        for cand, cos in zip(candidates, cosines):
            found = set(tokenize(cand.text))
            coverage = sum(bool(t & found) for t in asked) / len(asked) if asked else 0.0
            cand.score = float(0.75 * cos + 0.25 * coverage)
        return sorted(candidates, key=lambda c: -c.score)

    def _cosines(self, question: str, candidates: list[_Candidate], question_vector=None) -> np.ndarray:
        stored: dict[tuple[str, int, int], np.ndarray] = {}
        for hit in {id(c.hit): c.hit for c in candidates}.values():
            found = self.sentence_vectors(hit.chunk) if self.sentence_vectors else None
            for (start, end), vector in zip(*found) if found else ():
                stored[(hit.chunk.chunk_id, start, end)] = vector
        keys = [(c.hit.chunk.chunk_id, c.start, c.end) for c in candidates]
        missing = [c.text for c, key in zip(candidates, keys) if key not in stored]
        texts = ([] if question_vector is not None else [question]) + missing
        vectors = self.embedder.encode(texts) if texts else np.zeros((0, 0))
        q = question_vector if question_vector is not None else vectors[0]
        fresh = iter(vectors[len(texts) - len(missing):])
        matrix = np.array([stored[key] if key in stored else next(fresh) for key in keys], dtype=np.float32)
        return matrix @ q

    def fitting(self, question: str, hits: list[Hit], question_vector: np.ndarray | None = None,
                query: str | None = None, word_share: dict[str, float] | None = None,
                cover: list[str] | tuple[str, ...] = (),
                ) -> tuple[list[_Candidate], list[_Candidate], str, list[str]]:
        """Every scored sentence, those that fit the question, the kind of answer it asks for, and the focus names
        no found passage names though they must (``unmet``: "India" when no passage about Apple's sales names it).

        A sentence fits when it holds the kind of answer asked for (:func:`generation.answer_fit.fits`) and, when
        the question names something the documents hold but rarely ("India" in "Apple's net sales in India"), it
        or its passage names it too: a sentence about Apple's net sales elsewhere answers nothing. Every such name
        not on a searched document's first page (``cover``) must be named (:func:`generation.answer_fit.on_focus`).
        """
        expectation = expect(question)
        ranked = self.score(query or question, hits, question_vector)
        focus = focus_names(question, word_share or {})
        # chunk id -> (its text with its section, whether it is about the focus); each passage is read once
        passages: dict[str, tuple[str, bool]] = {}
        named_anywhere: set[str] = set()
        fit = []
        for c in ranked:
            chunk = c.hit.chunk
            if chunk.chunk_id not in passages:
                text = f"{chunk.section}\n{chunk.text}"
                named = named_in(text, focus)
                named_anywhere.update(named)
                passages[chunk.chunk_id] = (text, on_focus(named, focus, cover))
            passage, about = passages[chunk.chunk_id]
            if about and fits(expectation, c.text, table_row=c.kind == "table_row", passage=passage):
                fit.append(c)
        unmet = [w for w in focus if w not in cover and w not in named_anywhere]
        return ranked, fit, expectation.kind, unmet

    def answer(self, question: str, hits: list[Hit], question_vector: np.ndarray | None = None, *,
               retrieval: float | None = None, absent: list[str] | tuple[str, ...] = (),
               query: str | None = None, word_share: dict[str, float] | None = None,
               cover: list[str] | tuple[str, ...] = ()) -> Answer:
        """Quote the sentences that answer ``question``, or say why none does.

        ``retrieval`` is the best passage cosine (unknown: taken as clear), ``absent`` the question's words no
        searched passage holds, ``query`` what was searched (the question without the words naming the document),
        ``word_share`` the share of searched passages holding each word of it
        (:attr:`retrieval.searcher.SearchResult.word_share`), ``cover`` those of its words on a searched document's
        first page (:attr:`retrieval.searcher.SearchResult.cover_words`).
        """
        prepared = self.prepare(question, hits, question_vector, absent=absent, query=query, word_share=word_share,
                                cover=cover)
        return self.compose(prepared, retrieval=retrieval)

    def answer_found(self, question: str, result: SearchResult) -> Answer:
        """:meth:`answer` for what a search found (its passages, vector, confidence and word counts)."""
        return self.compose(self.prepare_found(question, result), retrieval=result.confidence)

    def prepare_found(self, question: str, result: SearchResult) -> Prepared:
        """:meth:`prepare` for what a search found."""
        return self.prepare(question, result.hits, result.vector, absent=result.absent, query=result.query,
                            word_share=result.word_share, cover=result.cover_words)

    def prepare(self, question: str, hits: list[Hit], question_vector: np.ndarray | None = None, *,
                absent: list[str] | tuple[str, ...] = (), query: str | None = None,
                word_share: dict[str, float] | None = None, cover: list[str] | tuple[str, ...] = ()) -> Prepared:
        """Everything about the question and its passages that no threshold changes (scored sentences, fit)."""
        ranked, fit, kind, unmet = self.fitting(question, hits, question_vector, query, word_share, cover)
        absent = list(absent)
        return Prepared(hits, ranked, fit, kind, names(question, absent),
                        [w for w in asked_for(question) if w in absent], unmet)

    def compose(self, prepared: Prepared, *, retrieval: float | None = None, policy: Policy | None = None) -> Answer:
        """The answer for prepared sentences under ``policy`` (default: the answerer's)."""
        policy = policy or self.policy
        hits, ranked, fit = prepared.hits, prepared.ranked, prepared.fit
        best = fit[0].score if fit else None
        decision = decide(policy, retrieval=1.0 if retrieval is None else retrieval, support=best,
                          expectation_kind=prepared.kind, unknown=prepared.unknown, missing=prepared.missing,
                          unmet=prepared.unmet, any_passage=bool(hits))
        if not decision.answer:
            text = f"Not in this document: {decision.reason}."
            support = best if best is not None else (ranked[0].score if ranked else 0.0)
            return Answer(text, True, pieces=[text], support=support, decision=decision)
        chosen, seen = [], set()
        for cand in fit:
            if len(chosen) == self.max_sentences or cand.score < max(policy.answer_threshold, best - self.margin):
                break
            if cand.text.lower() in seen:  # overlapping chunks repeat sentences
                continue
            seen.add(cand.text.lower())
            chosen.append(cand)
        # The row of amounts the question names ("server products and cloud services") is what it asks for, though
        # prose repeating the question's words scores higher: it is quoted too when it clears the threshold.
        named = max((c for c in fit if c.named and c.score >= policy.answer_threshold),
                    key=lambda c: (c.named, c.score), default=None)
        if named is not None and not any(c.named for c in chosen) and named.text.lower() not in seen:
            chosen = chosen[:self.max_sentences - 1] + [named]
        chosen.sort(key=lambda c: (c.hit.chunk.doc_id, c.hit.chunk.page, c.hit.chunk.start + c.start))
        several_files = len({h.chunk.doc_id for h in hits}) > 1
        pieces, citations = [], []
        for cand in chosen:
            chunk = cand.hit.chunk
            first, last = sentence_pages(chunk, cand.start, cand.end)
            where = page_reference(first, last, chunk.label_of(first), chunk.label_of(last))
            pieces.append(f"\u201c{cand.text}\u201d [{chunk.filename + ', ' if several_files else ''}{where}]")
            for page in range(first, last + 1):
                same = next((c for c in citations if (c.chunk_id, c.page) == (chunk.chunk_id, page)), None)
                if same:
                    same.quote += " " + cand.text
                else:
                    citations.append(Citation(chunk.doc_id, page, chunk.chunk_id, chunk.filename, cand.text,
                                              chunk.label_of(page)))
        pieces = [p + ("\n" if i < len(pieces) - 1 else "") for i, p in enumerate(pieces)]
        return Answer("".join(pieces), False, citations, pieces, support=best, decision=decision)


