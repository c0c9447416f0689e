"""The searcher: rank a collection's passages for a question (semantic, keyword, or both fused)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ingestion.chunking import Chunk
from retrieval.embedder import Embedder
from retrieval.fusion import reciprocal_rank_fusion, weighted_fusion
from retrieval.store import Store
from retrieval.tokenize import tokenize

MODES = ("hybrid", "semantic", "keyword")


@dataclass
class Hit:
    """A ranked passage. ``scores`` holds every stage's score (``None`` where that stage did not find it)."""

    chunk: Chunk
    rank: int
    score: float
    scores: dict[str, float | None]


@dataclass
class SearchResult:
    hits: list[Hit]
    confidence: float  # the best raw cosine similarity among candidates: how close anything came to the question
    mode: str
    timings: dict[str, float] = field(default_factory=dict)
    confidence_level: str = "high"  # "high", "low" or "insufficient" (thresholds in settings)


class Searcher:
    """Ranks passages with weighted fusion of cosine similarity and BM25.

    Parameters
    ----------
    store : where the collections live.
    embedder : encodes the question.
    candidates : how many passages each side contributes before fusion.
    semantic_weight, keyword_weight : fusion weights (applied after min-max normalisation).
    fusion : ``weighted`` (the weights above) or ``rrf`` (reciprocal rank fusion with ``rrf_k``).
    confidence_thresholds : best cosine below the first is ``insufficient``, below the second ``low``.
    reranker : a :class:`retrieval.reranker.Reranker`; when its model is available the best ``rerank_candidates``
        fused passages are re-ordered by its scores (``scores["rerank"]``), else the fused order stands.
    """

    def __init__(self, store: Store, embedder: Embedder, *, candidates: int = 50,
                 semantic_weight: float = 0.7, keyword_weight: float = 0.3, fusion: str = "weighted",
                 rrf_k: int = 60, confidence_thresholds: tuple[float, float] = (0.3, 0.5),
                 reranker=None, rerank_candidates: int = 20):
        self.store = store
        self.embedder = embedder
        self.candidates = candidates
        self.semantic_weight = semantic_weight
        self.keyword_weight = keyword_weight
        self.fusion = fusion
        self.rrf_k = rrf_k
        self.insufficient, self.low = confidence_thresholds
        self.reranker = reranker
        self.rerank_candidates = rerank_candidates

    def search(self, question: str, collection: str = "default", doc_ids: list[str] | None = None,
               top_k: int = 5, mode: str = "hybrid") -> SearchResult:
        if mode not in MODES:
            raise ValueError(f"Unknown mode {mode!r}; choose one of {', '.join(MODES)}.")
        timings: dict[str, float] = {}
        k = max(self.candidates, top_k)
        t0 = time.perf_counter()
        # The semantic side always runs: its best cosine is the confidence, whatever the mode.
        vector = self.embedder.encode_one(question)
        semantic = self.store.semantic_search(collection, vector, k, doc_ids)
        t1 = time.perf_counter()
        keyword = self.store.keyword_search(collection, tokenize(question), k, doc_ids) if mode != "semantic" else []
        t2 = time.perf_counter()
        timings.update(embed_and_semantic=t1 - t0, keyword=t2 - t1)

        chunks = {c.chunk_id: c for c, _ in semantic} | {c.chunk_id: c for c, _ in keyword}
        sem = {c.chunk_id: s for c, s in semantic}
        kw = {c.chunk_id: s for c, s in keyword}
        if mode == "hybrid" and self.fusion == "rrf":
            fused = reciprocal_rank_fusion([c.chunk_id for c, _ in semantic], [c.chunk_id for c, _ in keyword],
                                           k=self.rrf_k)
        elif mode == "hybrid":
            fused = weighted_fusion(sem, kw, self.semantic_weight, self.keyword_weight)
        elif mode == "semantic":
            fused = dict(sem)
        else:
            fused = dict(kw)
        # Ties broken by cosine, then chunk id, so rankings are reproducible.
        order = sorted(fused, key=lambda cid: (-fused[cid], -sem.get(cid, -1.0), cid))
        t3 = time.perf_counter()
        rerank: dict[str, float] = {}
        if self.reranker is not None and order:
            head = order[:max(self.rerank_candidates, top_k)]
            scored = self.reranker.scores(question, [chunks[cid].text for cid in head])
            if scored is not None:
                rerank = dict(zip(head, scored))
                order = sorted(head, key=lambda cid: -rerank[cid]) + order[len(head):]
        timings.update(fusion=t3 - t2, rerank=time.perf_counter() - t3)
        hits = [Hit(chunk=chunks[cid], rank=i + 1, score=rerank.get(cid, fused[cid]),
                    scores={"semantic": sem.get(cid), "keyword": kw.get(cid), "fused": fused[cid],
                            "rerank": rerank.get(cid)})
                for i, cid in enumerate(order[:top_k])]
        confidence = float(max(sem.values(), default=0.0))
        return SearchResult(hits=hits, confidence=confidence, mode=mode, timings=timings,
                            confidence_level=self.level(confidence))

    def level(self, confidence: float) -> str:
        """``insufficient`` below the first threshold, ``low`` below the second, else ``high``."""
        if confidence < self.insufficient:
            return "insufficient"
        return "low" if confidence < self.low else "high"
