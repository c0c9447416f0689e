"""BM25 over pre-tokenised passages, scored at query time from postings in segments (:mod:`retrieval.postings`).

:class:`KeywordIndex` scores like ``evaluation.bench_retrieval.LuceneBM25`` (rank-bm25 with Lucene's idf
``log(1 + (N - n + 0.5) / (n + 0.5))``): the same float64 operations in the same order, so the scores are equal,
not only close. Collection statistics (N, each term's document frequency, the average passage length) are those of
the version searched, however it was reached: a version made by :meth:`KeywordIndex.changed` scores exactly as one
built whole from the same passages (``tests/unit/retrieval/test_incremental_index.py`` checks it after random adds
and removes).

Why not bm25s (used before) or rank-bm25: neither can add or remove a passage. bm25s scores every (passage, term)
pair when the index is built, and those scores depend on the average passage length and N, which every change of
the collection moves, so every add or remove had to index the whole collection again: 6-15 s at 100,000 passages,
most of the time of a 100-passage upload. rank-bm25 keeps a term dictionary per passage and scans all of them per
query term (87 ms a query at 100,000). Here the postings are kept as term frequencies, which no other passage's
change touches, and the BM25 weight ``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))`` is worked out
for the query's terms only, per query. Measured by ``python -m evaluation.bench_retrieval --keyword-only`` (same
synthetic passages and tokenised questions for all three, top 50, identical top-50 rows; every synthetic term is in
most passages, so a query term reads ~N postings, the worst case):

=========  ====================  ====================  ====================  ===========================
chunks     rank-bm25 p50 / p95   bm25s p50 / p95       segments p50 / p95    add 100 passages s
           ms                    ms                    ms                    rank-bm25 / bm25s / segments
=========  ====================  ====================  ====================  ===========================
1,000      0.51 / 0.67           0.13 / 0.16           0.13 / 0.16           0.018 / 0.045 / 0.002
10,000     5.4 / 6.6             0.99 / 1.08           0.28 / 0.36           0.17 / 0.42 / 0.002
100,000    87 / 127              10.5 / 12.0           1.9 / 2.6             1.7 / 4.7 / 0.002
=========  ====================  ====================  ====================  ===========================

Scores are equal to rank-bm25's (largest relative difference 0; bm25s 1e-7), the top 50 rows the same for all
three. A whole build of 100,000 passages takes 1.3 s (bm25s 4.4 s), tokenising not included. The postings take 6
bytes each (int32 row, uint16 frequency) where bm25s kept 8 (int32 row, float32 score).

A version is never changed once made: :meth:`KeywordIndex.changed` returns a new one that shares the unchanged
segments, so threads can search one version while a write makes the next.
"""

from __future__ import annotations

import math

import numpy as np

from retrieval.postings import Segment, Vocabulary, build, compact_vocabulary, merge, select, settle

__all__ = ["KeywordIndex", "lucene_idf"]

# Terms no passage holds any longer are dropped from the vocabulary once they outnumber the others by this margin.
_SPARE_TERMS = 4096


def lucene_idf(n: int, df: int) -> float:
    """Lucene's idf of a term ``df`` of ``n`` passages hold: never zero or negative, unlike the classic form.

    >>> round(lucene_idf(10, 5), 4), round(lucene_idf(10, 10), 4)
    (0.6931, 0.0465)
    """
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


class KeywordIndex:
    """BM25 (Lucene variant) over tokenised passages, rows ``0 .. len - 1``.

    Parameters
    ----------
    corpus_tokens : one list of terms per passage; row ``i`` of a search result is ``corpus_tokens[i]``. May be
        empty, and passages may be empty (they never match).
    k1, b : BM25 term-frequency saturation and length normalisation, as in rank-bm25 and Lucene.

    Notes
    -----
    Scores equal ``LuceneBM25(corpus_tokens, k1, b).get_scores(query_tokens)`` (float64, computed the same way).
    An index is immutable, so threads can search one index at once; :meth:`changed` makes the next version.

    Examples
    --------
    >>> index = KeywordIndex([["adam", "optim"], ["sgd", "momentum"], []])
    >>> [row for row, score in index.search(["optim", "unknown"], k=5)]
    [0]
    >>> len(index)
    3
    >>> grown = index.changed([range(0, 3), index.segment([["optim", "optim"]])])  # a passage added at the end
    >>> [row for row, score in grown.search(["optim"], k=5)], len(grown), len(index)
    ([3, 0], 4, 3)
    """

    def __init__(self, corpus_tokens=(), k1: float = 1.5, b: float = 0.75):
        vocab = Vocabulary()
        self._set(vocab, [build(corpus_tokens, vocab)], k1, b)

    @classmethod
    def _of(cls, vocab: Vocabulary, segments: list[Segment], k1: float, b: float) -> "KeywordIndex":
        index = cls.__new__(cls)
        index._set(vocab, segments, k1, b)
        return index

    def _set(self, vocab: Vocabulary, segments: list[Segment], k1: float, b: float) -> None:
        self.k1, self.b = k1, b
        segments = [s for s in segments if s.n_rows]
        df = np.zeros(len(vocab), dtype=np.int64)
        for s in segments:
            df[s.terms] += s.document_frequencies()
        if len(vocab) > 2 * np.count_nonzero(df) + _SPARE_TERMS:
            vocab, segments, df = compact_vocabulary(vocab, segments, df)
        self._vocab, self._segments, self._df = vocab, segments, df
        self._bases = np.cumsum([0] + [s.n_rows for s in segments])
        self._size = int(self._bases[-1])
        total = sum(int(s.lengths.sum()) for s in segments)
        avgdl = total / self._size if total else 1.0  # as rank-bm25: sum of lengths / passages (Python floats)
        # k1 * (1 - b + b * dl / avgdl) of every passage, evaluated as rank-bm25 evaluates it.
        self._norms = [k1 * (1 - b + b * s.lengths / avgdl) for s in segments]

    def __len__(self) -> int:
        return self._size

    @property
    def segments(self) -> list[Segment]:
        return list(self._segments)

    # -- changes -------------------------------------------------------------------------------------------------
    def segment(self, token_lists) -> Segment:
        """The postings of new passages (one list of terms each), with this index's term ids, for :meth:`changed`."""
        return build(token_lists, self._vocab)

    def changed(self, pieces: list[range | Segment]) -> "KeywordIndex":
        """The next version: its passages are ``pieces`` one after the other, each either a ``range`` of this
        version's rows or a :class:`Segment` from :meth:`segment` (new passages).

        Segments wholly kept are shared, not copied; rows taken from part of a segment make one smaller copy of it;
        consecutive new segments become one. Then :func:`retrieval.postings.settle` merges what has grown.
        """
        out: list[Segment] = []
        fresh: list[Segment] = []
        run: tuple[int, list[tuple[int, int]]] | None = None  # (segment, local ranges) taken from it so far

        def close_run() -> None:
            nonlocal run
            if run is not None:
                out.append(select(self._segments[run[0]], run[1]))
                run = None

        def close_fresh() -> None:
            if fresh:
                out.append(merge(fresh))
                fresh.clear()

        for piece in pieces:
            if isinstance(piece, Segment):
                close_run()
                fresh.append(piece)
                continue
            close_fresh()
            start, stop = piece.start, piece.stop
            i = int(np.searchsorted(self._bases, start, side="right")) - 1
            while start < stop:
                base = int(self._bases[i])
                lo, hi = start - base, min(stop, int(self._bases[i + 1])) - base
                if run is not None and run[0] == i and run[1][-1][1] <= lo:
                    if run[1][-1][1] == lo:
                        run[1][-1] = (run[1][-1][0], hi)
                    else:
                        run[1].append((lo, hi))
                else:
                    close_run()
                    run = (i, [(lo, hi)])
                start = base + hi
                i += 1
        close_run()
        close_fresh()
        return KeywordIndex._of(self._vocab, settle(out), self.k1, self.b)

    # -- searches ------------------------------------------------------------------------------------------------
    def _known(self, terms: list[str]) -> list[int]:
        ids = (self._vocab.get(t) for t in terms)
        # A term added to the shared vocabulary by a later version has an id past this version's statistics.
        return [i for i in ids if i is not None and i < len(self._df) and self._df[i]]

    def _mask(self, ids: list[int]) -> np.ndarray:
        mask = np.zeros(self._size, dtype=bool)
        for term in dict.fromkeys(ids):
            for s, base in zip(self._segments, self._bases.tolist()):
                if (found := s.postings(term)) is not None:
                    mask[base + found[0]] = True
        return mask

    def rows_with(self, terms: list[str]) -> np.ndarray:
        """The rows of the passages holding any of ``terms``, sorted.

        >>> KeywordIndex([["adam", "optim"], ["sgd"], ["optim"]]).rows_with(["optim", "unknown"]).tolist()
        [0, 2]
        """
        return np.flatnonzero(self._mask(self._known(terms)))

    def count_with(self, terms: list[str], within: np.ndarray | None = None) -> int:
        """How many passages hold any of ``terms``; only those where the boolean row mask ``within`` is true, if
        given. One term over every passage is its document frequency, read without touching its postings.

        >>> KeywordIndex([["adam", "optim"], ["sgd"], ["optim"]]).count_with(["optim", "sgd"])
        3
        """
        ids = self._known(terms)
        if not ids:
            return 0
        if within is None and len(set(ids)) == 1:
            return int(self._df[ids[0]])
        mask = self._mask(ids)
        return int(np.count_nonzero(mask if within is None else mask & within))

    def scores(self, query_tokens: list[str]) -> np.ndarray | None:
        """Every passage's BM25 score for ``query_tokens`` (float64), ``None`` when no passage holds any of them."""
        ids = self._known(query_tokens)
        if not ids:
            return None
        n, k1 = self._size, self.k1
        scores = np.zeros(n)
        for term in ids:  # a repeated term counts again, as in rank-bm25
            df = int(self._df[term])
            idf = lucene_idf(n, df)
            for s, base, norm in zip(self._segments, self._bases.tolist(), self._norms):
                if (found := s.postings(term)) is None:
                    continue
                rows, tf = found
                # rank-bm25's expression: idf * (tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))).
                weight = idf * (tf * (k1 + 1) / (tf + norm[rows]))
                part = scores[base:base + s.n_rows]
                if len(rows) * 8 > s.n_rows:  # dense: one pass over the segment beats a scattered update
                    part += np.bincount(rows, weight, minlength=s.n_rows)
                else:
                    part[rows] += weight
        return scores

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
        if k <= 0 or (scores := self.scores(query_tokens)) is None:
            return []
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
        return [(int(candidates[i]), float(found[i])) for i in order]
