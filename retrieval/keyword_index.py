"""BM25 over pre-tokenised passages, on bm25s.

:class:`KeywordIndex` scores like ``evaluation.bench_retrieval.LuceneBM25`` (rank-bm25 with Lucene's idf
``log(1 + (N - n + 0.5) / (n + 0.5))``), to float32 precision, but bm25s computes every passage's score for every
term once, when the index is built, and keeps them in a sparse matrix (one column per term). A query then only adds
up the columns of its terms, instead of rank-bm25's pass over every passage's term dictionary for every query term.
Measured by
``python -m evaluation.bench_retrieval --keyword-only`` on this project's 2-core machine (same synthetic passages and
tokenised questions for both, top 50, identical top-50 rows):

=========  =====================  =====================  ======================  ======================
chunks     rank-bm25 p50 / p95    bm25s p50 / p95        build s                 index memory MB
           ms                     ms                     (rank-bm25 / bm25s)     (rank-bm25 / bm25s)
=========  =====================  =====================  ======================  ======================
1,000      0.47 / 0.66            0.06 / 0.08            0.02 / 0.03             0.8 / 0.2
10,000     5.8 / 11.6             0.12 / 0.14            0.15 / 0.30             8.1 / 2.4
100,000    69 / 92                0.70 / 0.89            1.2 / 3.8               81 / 24
=========  =====================  =====================  ======================  ======================

On 100,000 windows of real text (the NIST PDF) queries took 82 / 109 ms against 0.53 / 0.87 ms, and the index held
155 MB against 53 MB. The price is the build, about three times rank-bm25's (5.0 s against 1.9 s there, tokenising
not included): bm25s scores every (passage, term) pair up front, in a Python loop over passages. bm25s needs only
NumPy (it uses SciPy, orjson and tqdm when installed, as they are here through other packages) and imports in
~0.25 s.

Terms come from :func:`retrieval.tokenize.tokenize` and are final: the vocabulary is built here and bm25s gets token
ids, so its own tokeniser, stopwords and stemmer never run.
"""

from __future__ import annotations

import logging
from itertools import chain

import bm25s
import numpy as np

__all__ = ["KeywordIndex"]

# bm25s sets its own logger to DEBUG at import, so an application that logs at INFO through a root handler would
# print bm25s's debug lines on every index build.
logging.getLogger("bm25s").setLevel(logging.WARNING)


class KeywordIndex:
    """BM25 (Lucene variant) over a fixed list of tokenised passages.

    Parameters
    ----------
    corpus_tokens : one list of terms per passage; row ``i`` of a search result is ``corpus_tokens[i]``. May be
        empty, and passages may be empty (they never match).
    k1, b : BM25 term-frequency saturation and length normalisation, as in rank-bm25 and Lucene.

    Notes
    -----
    Scores equal ``LuceneBM25(corpus_tokens, k1, b).get_scores(query_tokens)`` to float32 precision (relative error
    below 1e-6): bm25s's "lucene" method leaves out the constant factor ``k1 + 1`` of rank-bm25's formula, which
    changes no ranking, and :meth:`search` multiplies it back so that scores keep their scale. Scores are float32
    inside, as in Lucene, which halves the index's memory.

    The index is immutable, and :meth:`search` only reads it, so threads can search one index at once.

    Examples
    --------
    >>> index = KeywordIndex([["adam", "optim"], ["sgd", "momentum"], []])
    >>> [row for row, score in index.search(["optim", "unknown"], k=5)]
    [0]
    >>> len(index)
    3
    """

    def __init__(self, corpus_tokens: list[list[str]], k1: float = 1.5, b: float = 0.75):
        self._size = len(corpus_tokens)
        self._scale = k1 + 1.0
        # Term ids in order of first appearance; dict.fromkeys and map keep the loops in C (3x faster than a loop).
        self._vocab = {t: i for i, t in enumerate(dict.fromkeys(chain.from_iterable(corpus_tokens)))}
        ids = [list(map(self._vocab.__getitem__, doc)) for doc in corpus_tokens]
        self._bm25: bm25s.BM25 | None = None
        if self._vocab:  # bm25s cannot index an empty vocabulary (no passages, or only empty ones)
            self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene")
            # A (token ids, vocabulary) pair skips bm25s's tokenisation; no empty token: our vocabulary is complete.
            self._bm25.index((ids, self._vocab), create_empty_token=False, show_progress=False)

    def __len__(self) -> int:
        return self._size

    def rows_with(self, terms: list[str]) -> np.ndarray:
        """The rows of the passages holding any of ``terms``, sorted (read from the score matrix's columns).

        >>> KeywordIndex([["adam", "optim"], ["sgd"], ["optim"]]).rows_with(["optim", "unknown"]).tolist()
        [0, 2]
        """
        if self._bm25 is None:
            return np.zeros(0, dtype=np.intp)
        scores = self._bm25.scores
        columns = [scores["indices"][scores["indptr"][i]:scores["indptr"][i + 1]]
                   for i in (self._vocab[t] for t in terms if t in self._vocab)]
        return np.unique(np.concatenate(columns)).astype(np.intp) if columns else np.zeros(0, dtype=np.intp)

    def search(self, query_tokens: list[str], k: int, rows: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The ``k`` best-scoring passages with a score above zero.

        Parameters
        ----------
        query_tokens : the question's terms. Terms no passage has are ignored; a term given twice counts twice,
            as in rank-bm25's ``get_scores``.
        k : at most this many results.
        rows : if given, only these passages (distinct row indices) are candidates, e.g. those of some documents.

        Returns
        -------
        list of (row, score)
            Best first; equal scores in row order, so results are reproducible.
        """
        if self._bm25 is None or k <= 0:
            return []
        ids = [self._vocab[t] for t in query_tokens if t in self._vocab]
        if not ids:
            return []
        scores = self._bm25.get_scores_from_ids(ids)
        if rows is None:
            candidates = np.flatnonzero(scores > 0)
        else:
            rows = np.asarray(rows, dtype=np.intp)
            candidates = rows[scores[rows] > 0]
        found = scores[candidates]
        if len(candidates) > k:
            # Keep every candidate tied with the k-th best, so that the row order decides among them below.
            kth = np.partition(found, len(found) - k)[len(found) - k]
            keep = found >= kth
            candidates, found = candidates[keep], found[keep]
        order = np.lexsort((candidates, -found))[:k]
        return [(int(candidates[i]), float(found[i]) * self._scale) for i in order]
