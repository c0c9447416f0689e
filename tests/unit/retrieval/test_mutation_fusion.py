"""Fusion as a ranking reader meets it: exact fused scores, the defaults, and what a one-sided candidate gets."""

from __future__ import annotations

import pytest

from retrieval.fusion import min_max, reciprocal_rank_fusion, weighted_fusion


def test_min_max_scales_every_score_between_the_lowest_and_the_highest():
    assert min_max({"a": 1.0, "b": 3.0, "c": 2.5, "d": 1.5}) == {"a": 0.0, "b": 1.0, "c": 0.75, "d": 0.25}
    # Negative scores (BM25 can give them after a rewrite) scale the same way.
    assert min_max({"a": -2.0, "b": 2.0, "c": 0.0}) == {"a": 0.0, "b": 1.0, "c": 0.5}


def test_min_max_of_equal_scores_is_one_when_positive_and_zero_otherwise():
    assert min_max({"a": 3.0, "b": 3.0}) == {"a": 1.0, "b": 1.0}
    assert min_max({"a": 0.0, "b": 0.0}) == {"a": 0.0, "b": 0.0}
    assert min_max({"a": -1.5, "b": -1.5}) == {"a": 0.0, "b": 0.0}
    assert min_max({"only": 0.2}) == {"only": 1.0}
    assert min_max({}) == {}


def test_weighted_fusion_gives_the_weighted_mean_of_both_normalised_sides():
    fused = weighted_fusion({"a": 1.0, "b": 0.0, "c": 0.5}, {"a": 0.0, "b": 4.0, "c": 2.0}, 3.0, 1.0)
    # Weights 3 and 1 are divided by their sum 4.
    assert fused == pytest.approx({"a": 0.75, "b": 0.25, "c": 0.5})
    assert set(fused) == {"a", "b", "c"}


def test_a_candidate_found_by_one_side_only_gets_zero_from_the_other():
    fused = weighted_fusion({"a": 0.9, "b": 0.1}, {"c": 5.0, "d": 1.0}, 0.5, 0.5)
    assert fused == pytest.approx({"a": 0.5, "b": 0.0, "c": 0.5, "d": 0.0})
    assert weighted_fusion({}, {"x": 2.0}, 1.0, 1.0) == pytest.approx({"x": 0.5})
    assert weighted_fusion({"x": 2.0}, {}, 1.0, 1.0) == pytest.approx({"x": 0.5})


def test_weights_that_sum_to_zero_or_less_are_refused_with_the_reason():
    for weights in ((0.0, 0.0), (-1.0, 0.5), (0.2, -0.2)):
        with pytest.raises(ValueError, match=r"^semantic_weight \+ keyword_weight must be positive$"):
            weighted_fusion({"a": 1.0}, {"a": 1.0}, *weights)
    assert weighted_fusion({"a": 1.0}, {"a": 1.0}, 0.0, 0.001) == pytest.approx({"a": 1.0})


def test_reciprocal_rank_fusion_with_its_default_k_of_60():
    fused = reciprocal_rank_fusion(["a", "b"], ["b"])
    assert fused == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 61})
    assert reciprocal_rank_fusion(["x"], k=0) == pytest.approx({"x": 1.0})
    assert reciprocal_rank_fusion() == {}
