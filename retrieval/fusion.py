"""Combining rankings: min-max normalisation and weighted fusion."""

from __future__ import annotations

from collections.abc import Mapping


def min_max(scores: Mapping[str, float]) -> dict[str, float]:
    """Scale scores to [0, 1]. All-equal scores map to 1 (or 0 if they are all zero or less)."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi == lo:
        return {key: (1.0 if hi > 0 else 0.0) for key in scores}
    return {key: (value - lo) / (hi - lo) for key, value in scores.items()}


def weighted_fusion(semantic: Mapping[str, float], keyword: Mapping[str, float],
                    semantic_weight: float, keyword_weight: float) -> dict[str, float]:
    """``w_s * minmax(semantic) + w_k * minmax(keyword)`` over the union of candidates.

    A candidate found by only one side gets 0 from the other: it ranked below every candidate that side returned.
    Weights are divided by their sum so fused scores stay in [0, 1].
    """
    total = semantic_weight + keyword_weight
    if total <= 0:
        raise ValueError("semantic_weight + keyword_weight must be positive")
    ns, nk = min_max(semantic), min_max(keyword)
    return {key: (semantic_weight * ns.get(key, 0.0) + keyword_weight * nk.get(key, 0.0)) / total
            for key in set(ns) | set(nk)}


def reciprocal_rank_fusion(*rankings: list[str], k: int = 60) -> dict[str, float]:
    """``sum(1 / (k + rank))`` over the rankings that hold each key (ranks from 1).

    Only the order counts, so it needs no score normalisation; ``k`` damps the weight of the very top ranks.
    """
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, 1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank)
    return fused
