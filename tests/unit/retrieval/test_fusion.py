"""Fusion and confidence levels on hand-computed cases."""

from __future__ import annotations

import pytest

from retrieval.fusion import min_max, reciprocal_rank_fusion, weighted_fusion
from retrieval.searcher import Searcher


def test_min_max_edges():
    assert min_max({"a": 2.0, "b": 4.0, "c": 3.0}) == {"a": 0.0, "b": 1.0, "c": 0.5}
    assert min_max({"a": 0.7, "b": 0.7}) == {"a": 1.0, "b": 1.0}
    assert min_max({"a": 0.0}) == {"a": 0.0} and min_max({}) == {}


def test_weighted_fusion_by_hand():
    fused = weighted_fusion({"a": 0.9, "b": 0.5}, {"b": 10.0, "c": 4.0}, 0.7, 0.3)
    # a: 0.7*1 + 0.3*0 ; b: 0.7*0 + 0.3*1 ; c: keyword min -> 0, semantic missing -> 0
    assert fused == pytest.approx({"a": 0.7, "b": 0.3, "c": 0.0})
    with pytest.raises(ValueError):
        weighted_fusion({"a": 1.0}, {}, 0, 0)


def test_reciprocal_rank_fusion_by_hand():
    fused = reciprocal_rank_fusion(["a", "b", "c"], ["c", "a"], k=60)
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert fused["b"] == pytest.approx(1 / 62)
    assert sorted(fused, key=fused.get, reverse=True) == ["a", "c", "b"]


@pytest.mark.parametrize("cosine,level", [(0.1, "insufficient"), (0.299, "insufficient"), (0.3, "low"),
                                          (0.49, "low"), (0.5, "high"), (0.9, "high")])
def test_confidence_levels(cosine, level):
    searcher = Searcher(index=None, embedder=None, confidence_thresholds=(0.3, 0.5))
    assert searcher.level(cosine) == level
