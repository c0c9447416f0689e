"""KeywordIndex (postings in segments) against rank-bm25 with Lucene's idf, and its search contract."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import retrieval.keyword_index
from evaluation.bench_retrieval import LuceneBM25  # the rank-bm25 reference
from retrieval.keyword_index import KeywordIndex
from retrieval.tokenize import tokenize


def random_corpus(seed: int, n: int = 300, vocab: int = 200) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    weights = 1.0 / np.arange(1, vocab + 1)  # Zipf-like: some terms in most passages, most in few
    corpus = [list(rng.choice(words, size=int(rng.integers(0, 80)), p=weights / weights.sum())) for _ in range(n)]
    corpus[3] = []  # an empty passage among the others
    return corpus


def all_scores(index: KeywordIndex, query: list[str]) -> np.ndarray:
    scores = np.zeros(len(index))
    for row, score in index.search(query, k=len(index)):
        scores[row] = score
    return scores


def test_docstring_examples_hold():
    assert doctest.testmod(retrieval.keyword_index).failed == 0


@pytest.mark.parametrize("k1, b", [(1.5, 0.75), (1.2, 0.4), (0.9, 1.0)])
def test_scores_equal_rank_bm25_with_lucene_idf(k1, b):
    corpus = random_corpus(seed=int(10 * k1 + b))
    index, reference = KeywordIndex(corpus, k1=k1, b=b), LuceneBM25(corpus, k1=k1, b=b)
    queries = [["w0"], ["w1", "w50"], ["w3", "w3", "w7"],  # a repeated term counts twice in both
               ["w199", "w120", "w2", "w0"], ["w5", "not-a-term"]]
    for query in queries:
        # With b = 1 rank-bm25 divides 0 by 0 for an empty passage (NaN); KeywordIndex never scores it.
        with np.errstate(invalid="ignore"):
            expected = np.nan_to_num(reference.get_scores(query), nan=0.0)
        assert all_scores(index, query) == pytest.approx(expected, rel=1e-6, abs=1e-6)
    assert len(index) == len(corpus)


def test_results_are_the_best_positive_scores_best_first():
    corpus = random_corpus(seed=1)
    index, reference = KeywordIndex(corpus), LuceneBM25(corpus)
    query = ["w10", "w40"]
    expected = reference.get_scores(query)
    found = index.search(query, k=10)
    assert [row for row, _ in found] == list(np.argsort(-expected, kind="stable")[:10])
    assert all(a[1] >= b[1] > 0 for a, b in zip(found, found[1:]))


def test_a_repeated_query_term_counts_twice():
    index = KeywordIndex([["adam", "sgd"], ["sgd"], ["lamb"]])
    once, twice = dict(index.search(["adam"], 5)), dict(index.search(["adam", "adam"], 5))
    assert twice[0] == pytest.approx(2 * once[0])


def test_rows_restrict_the_candidates():
    corpus = random_corpus(seed=2)
    index = KeywordIndex(corpus)
    rows = np.arange(0, len(corpus), 3)
    found = index.search(["w0", "w9"], k=20, rows=rows)
    assert found and {row for row, _ in found} <= set(rows.tolist())
    everything = index.search(["w0", "w9"], k=len(corpus))
    assert found == [hit for hit in everything if hit[0] % 3 == 0][:20]  # the same ranking, filtered
    assert index.search(["w0"], k=5, rows=np.array([], dtype=int)) == []


def test_an_empty_corpus_or_empty_passages_find_nothing():
    empty = KeywordIndex([])
    assert len(empty) == 0 and empty.search(["adam"], k=5) == []
    blank = KeywordIndex([[], [], []])
    assert len(blank) == 3 and blank.search(["adam"], k=5) == [] and blank.search([], k=5) == []


def test_unknown_terms_are_ignored():
    index = KeywordIndex([["adam", "optim"], ["sgd", "momentum"]])
    assert index.search(["rmsprop"], k=5) == []
    assert index.search([], k=5) == []
    assert index.search(["rmsprop", "sgd", "nadam"], k=5) == index.search(["sgd"], k=5)


def test_k_larger_than_the_corpus_returns_every_match_and_k_zero_none():
    index = KeywordIndex([["adam"], ["sgd"], ["adam", "sgd"], ["lamb"]])
    assert sorted(row for row, _ in index.search(["adam", "sgd"], k=100)) == [0, 1, 2]
    assert index.search(["adam"], k=0) == []


def test_ties_are_broken_by_row_even_at_the_cut():
    index = KeywordIndex([["x", "y"], ["adam", "z"], ["z", "adam"], ["y", "x"], ["adam", "w"], ["adam", "q"]])
    found = index.search(["adam"], k=2)
    assert [row for row, _ in found] == [1, 2] and found[0][1] == found[1][1]
    assert [row for row, _ in index.search(["adam"], k=10, rows=np.array([5, 2, 4]))] == [2, 4, 5]
    assert index.search(["adam"], k=3) == index.search(["adam"], k=3)


def test_tokenised_text_end_to_end():
    passages = ["Adam keeps moment estimates for each parameter.", "SGD with momentum uses one buffer.",
                "Warmup steps raise the learning rate slowly."]
    index = KeywordIndex([tokenize(p) for p in passages])
    assert index.search(tokenize("What do optimizers estimate?"), k=3)[0][0] == 0
    assert index.search(tokenize("how many warmup_steps"), k=3)[0][0] == 2
