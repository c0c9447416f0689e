"""The searcher: rank a collection's passages for a question (semantic, keyword, or both fused).

Stages, each score kept per passage:

0. the words of the question that name the document itself ("in the latest 10-Q", "in this paper") are left out
   of what is searched (:mod:`retrieval.scope`);
1. candidates: the ``candidates`` nearest passages by cosine (FAISS) and the best by BM25;
2. semantic score of every candidate: ``(1 - w) * passage cosine + w * best sentence cosine``;
3. fusion of the semantic and keyword scores (weighted after min-max, or reciprocal rank fusion), plus
   ``label_weight`` times the share of a table row's label the question names (:mod:`retrieval.table_labels`);
4. only when the best passage cosine (the confidence) is below ``expansion_threshold``: the question is expanded
   (LLM rephrasings, or pseudo-relevance feedback), every phrasing runs stages 1-3, and the fused scores are
   averaged;
5. the cross-encoder reorders the best ``rerank_candidates`` when its weights are loaded.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field


from core.types import Chunk, Hit, Query, SearchResult
from retrieval.embedder import Embedder
from retrieval.fusion import reciprocal_rank_fusion, weighted_fusion
from retrieval.scope import document_free
from retrieval.store_api import SearchIndex
from retrieval.table_labels import LabelTerms, label_match
from retrieval.tokenize import tokenize, words

MODES = ("hybrid", "semantic", "keyword")


@dataclass
class _Ranking:
    """Stages 1-3 for one phrasing."""

    fused: dict[str, float]
    cosine: dict[str, float]
    sentence: dict[str, float]
    keyword: dict[str, float]
    chunks: dict[str, Chunk]
    confidence: float
    label: dict[str, float] = field(default_factory=dict)  # the lift of a passage whose table row the question names


class Searcher:
    """Ranks passages with weighted fusion of cosine similarity and BM25.

    Parameters
    ----------
    index : the collections' passages to search (a :class:`retrieval.store_api.SearchIndex`: the store).
    embedder : encodes the question.
    candidates : how many passages each side contributes before fusion.
    semantic_weight, keyword_weight : fusion weights (applied after min-max normalisation).
    sentence_weight : share of a passage's semantic score that comes from its best sentence (0 = passage cosine).
    fusion : ``weighted`` (the weights above) or ``rrf`` (reciprocal rank fusion with ``rrf_k``).
    confidence_thresholds : best cosine below the first is ``insufficient``, below the second ``low``.
    reranker : a :class:`retrieval.reranker.Reranker`; when its model is available the best ``rerank_candidates``
        fused passages are re-ordered by its scores (``scores["rerank"]``), else the fused order stands.
    expander : an expander from :mod:`retrieval.expansion`, used when the confidence is below
        ``expansion_threshold``; ``None`` never expands.
    label_weight : added to a passage's fused score (weighted hybrid fusion) times the largest share of one of its
        table rows' labels that the question names (:func:`retrieval.table_labels.label_match`); 0 turns it off.
    """

    def __init__(self, index: SearchIndex, embedder: Embedder, *, candidates: int = 50,
                 semantic_weight: float = 0.7, keyword_weight: float = 0.3, sentence_weight: float = 0.5,
                 fusion: str = "weighted", rrf_k: int = 60, confidence_thresholds: tuple[float, float] = (0.3, 0.5),
                 reranker=None, rerank_candidates: int = 20, expander=None, expansion_threshold: float = 0.45,
                 label_weight: float = 0.0):
        self.index = index
        self.embedder = embedder
        self.candidates = candidates
        self.semantic_weight = semantic_weight
        self.keyword_weight = keyword_weight
        self.sentence_weight = sentence_weight
        self.fusion = fusion
        self.rrf_k = rrf_k
        self.insufficient, self.low = confidence_thresholds
        self.reranker = reranker
        self.rerank_candidates = rerank_candidates
        self.expander = expander
        self.expansion_threshold = expansion_threshold
        self.label_weight = label_weight
        self._labels = LabelTerms()

    def search(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
               top_k: int = 5, mode: str = "hybrid", expand: bool = True, rerank: bool = True) -> SearchResult:
        """Rank passages for ``question``; ``expand=False`` never expands, whatever the confidence, and
        ``rerank=False`` skips the cross-encoder."""
        if mode not in MODES:
            raise ValueError(f"Unknown mode {mode!r}; choose one of {', '.join(MODES)}.")
        timings: dict[str, float] = {}
        k = max(self.candidates, top_k)
        t0 = time.perf_counter()
        searched = document_free(question)
        query = Query(searched, self.embedder.encode_one(searched), tokenize(searched))
        timings["embed"] = time.perf_counter() - t0
        first = self._rank(query, collection, doc_ids, k, mode, timings)
        timings["embed_and_semantic"] = timings["embed"] + timings["semantic"]

        expansion, fused = None, first.fused
        if expand and self.expander is not None and first.fused and first.confidence < self.expansion_threshold:
            t1 = time.perf_counter()
            order = self._order(first.fused, first.cosine)[:5]
            vectors = self.index.passage_vectors(collection, order)
            expansion = self.expander.expand(searched, query.vector, query.tokens,
                                             [(first.chunks[cid], v) for cid, v in zip(order, vectors)])
            rankings = [first] + [self._rank(q, collection, doc_ids, k, mode) for q in expansion.queries]
            for r in rankings[1:]:
                for cid, chunk in r.chunks.items():
                    first.chunks.setdefault(cid, chunk)
            # Averaged over phrasings: a passage every phrasing finds beats one a single phrasing loved.
            fused = {cid: sum(r.fused.get(cid, 0.0) for r in rankings) / len(rankings)
                     for cid in set().union(*(r.fused for r in rankings))}
            timings["expansion"] = time.perf_counter() - t1

        order = self._order(fused, first.cosine)
        t2 = time.perf_counter()
        reranked: dict[str, float] = {}
        if rerank and self.reranker is not None and order:
            head = order[:max(self.rerank_candidates, top_k)]
            scored = self.reranker.scores(searched, [first.chunks[cid].text for cid in head])
            if scored is not None:
                reranked = dict(zip(head, scored))
                order = sorted(head, key=lambda cid: -reranked[cid]) + order[len(head):]
        timings["rerank"] = time.perf_counter() - t2
        word_share = self.word_shares(searched, collection, doc_ids)
        absent = [w for w, share in word_share.items() if share == 0.0]
        cover = self.cover_words(word_share, collection, doc_ids)
        hits = [Hit(chunk=first.chunks[cid], rank=i + 1, score=reranked.get(cid, fused[cid]),
                    scores={"semantic": first.cosine.get(cid), "sentence": first.sentence.get(cid),
                            "keyword": first.keyword.get(cid), "label": first.label.get(cid), "fused": fused[cid],
                            "rerank": reranked.get(cid)})
                for i, cid in enumerate(order[:top_k])]
        return SearchResult(hits=hits, confidence=first.confidence, mode=mode, timings=timings,
                            confidence_level=self.level(first.confidence), expansion=expansion,
                            vector=query.vector, question=question, query=searched, absent=absent,
                            word_share=word_share, cover_words=cover)

    def _rank(self, query: Query, collection: str, doc_ids: list[str] | None, k: int, mode: str,
              timings: dict[str, float] | None = None) -> _Ranking:
        timings = {} if timings is None else timings
        t0 = time.perf_counter()
        # The semantic side always runs: its best cosine is the confidence, whatever the mode.
        semantic = self.index.semantic_search(collection, query.vector, k, doc_ids)
        t1 = time.perf_counter()
        keyword = self.index.keyword_search(collection, query.tokens, k, doc_ids) if mode != "semantic" else []
        t2 = time.perf_counter()
        chunks = {c.chunk_id: c for c, _ in semantic} | {c.chunk_id: c for c, _ in keyword}
        kw = {c.chunk_id: s for c, s in keyword}
        confidence = float(max((s for _, s in semantic), default=0.0))
        # Every candidate gets its exact cosine and best-sentence cosine, keyword-only ones included.
        ids = list(chunks) if mode == "hybrid" else [c.chunk_id for c, _ in semantic]
        cos, best = self.index.passage_scores(collection, query.vector, ids)
        cosine = dict(zip(ids, cos.tolist()))
        sentence = {cid: float(b) for cid, b in zip(ids, best) if not math.isnan(b)}
        w = self.sentence_weight
        sem = {cid: (1 - w) * c + w * sentence.get(cid, c) for cid, c in cosine.items()}
        if mode == "hybrid" and self.fusion == "rrf":
            fused = reciprocal_rank_fusion(self._order(sem, cosine), [c.chunk_id for c, _ in keyword],
                                           k=self.rrf_k)
        elif mode == "hybrid":
            fused = weighted_fusion(sem, kw, self.semantic_weight, self.keyword_weight)
        elif mode == "semantic":
            fused = sem
        else:
            fused = dict(kw)
        label: dict[str, float] = {}
        if self.label_weight and mode == "hybrid" and self.fusion == "weighted":  # on the scale it was measured on
            terms = set(query.tokens)
            for cid in fused:
                lift = label_match(chunks[cid], terms, cache=self._labels)
                if lift:
                    label[cid] = self.label_weight * lift
                    fused[cid] += label[cid]
        timings.update(semantic=t1 - t0, keyword=t2 - t1, fusion=time.perf_counter() - t2)
        return _Ranking(fused, cosine, sentence, kw, chunks, confidence, label)

    def word_shares(self, text: str, collection: str, doc_ids: list[str] | None = None) -> dict[str, float]:
        """For each word of ``text`` (as written; stopwords and bare numbers left out), the share of the searched
        documents' passages that hold one of its BM25 terms. A word a document never uses (0.0) is a strong sign it
        does not answer a question about it; a word in nearly every passage ("Apple" in Apple's filing) names the
        document rather than what is asked."""
        total = self.index.chunk_count(collection, doc_ids) or 1
        shares: dict[str, float] = {}
        for word in dict.fromkeys(words(text)):
            # A word is there when its whole term is, or every part of a compound but bare numbers is: "beta2" is
            # there as a spaced "β 2", "English-to-Spanish" is not there because "Spanish" is not.
            terms = tokenize(word)
            if not terms:
                continue
            found = self.index.passages_with(collection, terms[:1], doc_ids)
            parts = [t for t in terms[1:] if not t.replace(".", "").replace(",", "").isdigit()]
            if not found and parts and all(self.index.passages_with(collection, [t], doc_ids) for t in parts):
                found = self.index.passages_with(collection, parts, doc_ids)
            shares[word] = min(1.0, found / total)
        return shares

    def cover_words(self, word_share: dict[str, float], collection: str,
                    doc_ids: list[str] | None = None) -> list[str]:
        """The words of ``word_share`` (present ones only) that a searched document's first page holds."""
        return [w for w, share in word_share.items() if share > 0.0 and self.index.passages_with(
            collection, tokenize(w)[:1], doc_ids, first_page=True)]

    @staticmethod
    def _order(scores: dict[str, float], cosine: dict[str, float]) -> list[str]:
        # Ties broken by cosine, then chunk id, so rankings are reproducible.
        return sorted(scores, key=lambda cid: (-scores[cid], -cosine.get(cid, -1.0), cid))

    def level(self, confidence: float) -> str:
        """``insufficient`` below the first threshold, ``low`` below the second, else ``high``."""
        if confidence < self.insufficient:
            return "insufficient"
        return "low" if confidence < self.low else "high"
