"""BM25 postings kept in segments, so that a collection's keyword index changes by its changed documents only.

A :class:`Segment` holds the postings of a run of consecutive passages: for each term it has (sorted term ids
``terms``, ``starts`` into the postings), the passages holding it (``rows``, local to the segment, ascending) and how
often (``tf``), plus each passage's length in terms. Segments are never changed once made: a new document becomes a
new segment, a removed one a copy of its segment without its rows (:func:`select`), and adjacent segments are merged
into one (:func:`merge`) when a later one grows to half the size of the one before it (:func:`settle`). Sizes
therefore fall off geometrically along the collection, as in Lucene's log merge policy: a collection of ``n``
postings added ~100 passages at a time has about ``log2(n / 3,000)`` segments (10 at 100,000 passages), and each
posting is copied ~``log2`` times over its life, not once per change.

Term ids come from a :class:`Vocabulary` shared by the successive versions of one collection's index; it only
grows, except that :func:`compact_vocabulary` drops the terms no passage holds any longer once they are the larger
part of it.

Everything here is NumPy: on this project's 2-core machine a segment of 3.1 million postings (100,000 synthetic
passages) loses a document's rows in ~50 ms, and its two halves are merged back in ~130 ms
(``python -m evaluation.bench_scale`` measures whole adds and removes through the store).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from itertools import chain, islice
from typing import NamedTuple

import numpy as np

__all__ = ["Segment", "Vocabulary", "build", "compact_vocabulary", "merge", "select", "settle"]

BLOCK_ROWS = 4096  # passages tokenised and sorted at once while a segment is built (bounds the memory it takes)
RATIO = 2  # a segment is merged into the one before it once that one is less than RATIO times its size


class Vocabulary:
    """Term -> id, ids in order of first appearance; only writers (one at a time) add, searches only look up.

    >>> v = Vocabulary()
    >>> v.ids_of(["adam", "sgd", "adam"]).tolist(), v.get("sgd"), v.get("lamb"), len(v)
    ([0, 1, 0], 1, None, 2)
    """

    def __init__(self, terms: Iterable[str] = ()):
        self.terms: list[str] = []
        self._ids: dict[str, int] = {}
        self._lock = threading.Lock()
        for term in terms:
            if term not in self._ids:
                self._ids[term] = len(self.terms)
                self.terms.append(term)

    def __len__(self) -> int:
        return len(self.terms)

    def get(self, term: str) -> int | None:
        return self._ids.get(term)

    def ids_of(self, tokens: list[str]) -> np.ndarray:
        """The ids of ``tokens`` (int32), new terms given the next ids. dict.fromkeys and map keep the loops in C."""
        with self._lock:
            for term in [t for t in dict.fromkeys(tokens) if t not in self._ids]:
                self._ids[term] = len(self.terms)
                self.terms.append(term)
            return np.fromiter(map(self._ids.__getitem__, tokens), dtype=np.int32, count=len(tokens))


class Segment(NamedTuple):
    """The postings of a run of consecutive passages (rows ``0 .. n_rows - 1`` of the segment)."""

    terms: np.ndarray  # int32, sorted distinct term ids
    starts: np.ndarray  # int64, len(terms) + 1: the postings of terms[j] are starts[j]:starts[j + 1]
    rows: np.ndarray  # int32, the passages holding each term, ascending within a term
    tf: np.ndarray  # unsigned ints: how often
    lengths: np.ndarray  # int32, one per passage: its number of terms

    @property
    def n_rows(self) -> int:
        return len(self.lengths)

    @property
    def size(self) -> int:
        """What merging it costs: postings plus passages (a passage without terms still has a row)."""
        return len(self.rows) + len(self.lengths)

    def postings(self, term: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(rows, tf) of ``term``, or ``None`` when no passage of the segment holds it."""
        j = int(np.searchsorted(self.terms, term))
        if j == len(self.terms) or self.terms[j] != term:
            return None
        lo, hi = self.starts[j], self.starts[j + 1]
        return self.rows[lo:hi], self.tf[lo:hi]

    def document_frequencies(self) -> np.ndarray:
        """How many of its passages hold each of ``terms``."""
        return np.diff(self.starts)


def empty_segment(n_rows: int = 0) -> Segment:
    return Segment(np.zeros(0, np.int32), np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.uint16),
                   np.zeros(n_rows, np.int32))


def _compact_tf(tf: np.ndarray) -> np.ndarray:
    return tf.astype(np.uint16 if not len(tf) or tf.max() < 2**16 else np.uint32)


def _block(token_lists: list[list[str]], vocab: Vocabulary) -> Segment:
    lengths = np.fromiter(map(len, token_lists), dtype=np.int32, count=len(token_lists))
    ids = vocab.ids_of(list(chain.from_iterable(token_lists)))
    n = len(token_lists)
    # One key per (term, passage) pair, sorted: term-major, passages ascending within a term; repeats are counted.
    keys, tf = np.unique(ids.astype(np.int64) * n + np.repeat(np.arange(n, dtype=np.int64), lengths),
                         return_counts=True)
    term_of = keys // n
    first = np.flatnonzero(np.r_[True, term_of[1:] != term_of[:-1]]) if len(keys) else np.zeros(0, np.int64)
    return Segment(term_of[first].astype(np.int32), np.r_[first, len(keys)].astype(np.int64),
                   (keys % n).astype(np.int32), _compact_tf(tf), lengths)


def build(token_lists: Iterable[list[str]], vocab: Vocabulary) -> Segment:
    """The segment of these passages (one list of terms each, in row order), their terms added to ``vocab``.

    >>> v = Vocabulary()
    >>> s = build([["adam", "optim", "adam"], [], ["optim"]], v)
    >>> s.terms.tolist(), s.starts.tolist(), s.rows.tolist(), s.tf.tolist(), s.lengths.tolist()
    ([0, 1], [0, 1, 3], [0, 0, 2], [2, 1, 1], [3, 0, 1])
    """
    rows, blocks = iter(token_lists), []
    while block := list(islice(rows, BLOCK_ROWS)):  # a block's terms are dropped once its postings are made
        blocks.append(_block(block, vocab))
    return merge(blocks)


def select(segment: Segment, ranges: list[tuple[int, int]]) -> Segment:
    """The segment of only the rows in ``ranges`` (sorted, disjoint ``(start, stop)`` local rows), renumbered from 0.

    >>> s = build([["a"], ["b"], ["a", "b"], ["c"]], Vocabulary())
    >>> t = select(s, [(0, 1), (2, 3)])  # rows 0 and 2
    >>> t.terms.tolist(), t.rows.tolist(), t.lengths.tolist()
    ([0, 1], [0, 1, 1], [1, 2])
    """
    if ranges == [(0, segment.n_rows)]:
        return segment
    keep = np.zeros(segment.n_rows, dtype=bool)
    for lo, hi in ranges:
        keep[lo:hi] = True
    renumber = np.cumsum(keep, dtype=np.int64) - 1
    mask = keep[segment.rows]
    kept_before = np.r_[0, np.cumsum(mask, dtype=np.int64)]  # postings kept before each position
    counts = np.diff(kept_before[segment.starts])
    held = counts > 0
    return Segment(segment.terms[held], np.r_[0, np.cumsum(counts[held])].astype(np.int64),
                   renumber[segment.rows[mask]].astype(np.int32), segment.tf[mask], segment.lengths[keep])


def merge(segments: list[Segment]) -> Segment:
    """One segment of ``segments`` one after the other (the rows of each follow those of the one before).

    Each segment's postings are already in term order, so a stable sort by term (timsort, which merges the sorted
    runs) puts them in term order with rows ascending within a term.

    >>> v = Vocabulary()
    >>> m = merge([build([["a", "b"]], v), build([["b"], ["c", "a"]], v)])
    >>> m.terms.tolist(), m.starts.tolist(), m.rows.tolist(), m.lengths.tolist()
    ([0, 1, 2], [0, 2, 4, 5], [0, 2, 0, 1, 2], [2, 1, 2])
    """
    segments = [s for s in segments if s.n_rows]
    if len(segments) <= 1:
        return segments[0] if segments else empty_segment()
    bases = np.cumsum([0] + [s.n_rows for s in segments[:-1]])
    term_of = np.concatenate([np.repeat(s.terms, s.document_frequencies()) for s in segments])
    order = np.argsort(term_of, kind="stable")
    term_of = term_of[order]
    rows = np.concatenate([s.rows.astype(np.int64) + base for s, base in zip(segments, bases)])[order]
    first = np.flatnonzero(np.r_[True, term_of[1:] != term_of[:-1]]) if len(term_of) else np.zeros(0, np.int64)
    return Segment(term_of[first], np.r_[first, len(term_of)].astype(np.int64), rows.astype(np.int32),
                   np.concatenate([s.tf for s in segments])[order],
                   np.concatenate([s.lengths for s in segments]))


def settle(segments: list[Segment]) -> list[Segment]:
    """Merge adjacent segments until each is at least :data:`RATIO` times the size of the one after it.

    >>> v = Vocabulary()
    >>> sizes = lambda segs: [s.n_rows for s in segs]
    >>> sizes(settle([build([["a"]] * 8, v), build([["b"]] * 4, v), build([["c"]] * 3, v)]))
    [15]
    >>> sizes(settle([build([["a"]] * 8, v), build([["b"]] * 4, v), build([["c"]], v)]))
    [8, 4, 1]
    """
    out = [s for s in segments if s.n_rows]
    i = len(out) - 2
    while i >= 0:
        if out[i].size < RATIO * out[i + 1].size:
            out[i:i + 2] = [merge(out[i:i + 2])]
            i = min(i, len(out) - 2)
        else:
            i -= 1
    return out


def compact_vocabulary(vocab: Vocabulary, segments: list[Segment],
                       df: np.ndarray) -> tuple[Vocabulary, list[Segment], np.ndarray]:
    """A vocabulary of only the terms some passage holds (``df > 0``), in the same order, and the segments and
    document frequencies renumbered to it (term order is kept, so the postings stay as they are)."""
    held = np.flatnonzero(df > 0)
    renumber = np.full(len(df), -1, dtype=np.int32)
    renumber[held] = np.arange(len(held), dtype=np.int32)
    terms = vocab.terms
    fresh = Vocabulary(terms[i] for i in held.tolist())
    return fresh, [s._replace(terms=renumber[s.terms]) for s in segments], df[held]
