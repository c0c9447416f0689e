"""A collection's passage vectors in one float32 matrix that grows at its end, searched exactly by FAISS.

A version is a buffer and a row count (:class:`PassageVectors`). Adding passages writes them after the last row
into spare capacity of the same buffer, which no earlier version reads, so a search of the version before goes on
undisturbed; a removal, or rows written by a version that was then dropped, makes a new buffer holding only the
rows kept (one copy, ~0.1 s for 100,000 x 384 floats). A row once published is never written again, so any version
may be searched at any time by any thread.

The search is FAISS's own exhaustive inner product (``faiss.knn_inner_product``), the function
``IndexFlatIP.search`` calls, over the buffer in place: the same scores and the same order as an ``IndexFlatIP``
holding the same rows, without a second copy of the vectors inside FAISS. Spare capacity is allocated but never
touched until written, so it takes address space, not resident memory.
"""

from __future__ import annotations

import threading

import faiss
import numpy as np

__all__ = ["PassageVectors"]


class _Buffer:
    """The matrix rows are written into; ``written``: rows ever written (the next append goes after them)."""

    def __init__(self, capacity: int, dim: int):
        self.array = np.empty((max(capacity, 1), dim), dtype=np.float32)
        self.written = 0
        self.lock = threading.Lock()


def _capacity(rows: int) -> int:
    return rows + max(rows // 4, 1024)  # room to grow by a quarter before the next copy


class PassageVectors:
    """One version of the vectors: rows ``0 .. n - 1`` of a buffer.

    >>> v = PassageVectors.empty(2).appended([np.array([[1, 0], [0, 1]], dtype=np.float32)])
    >>> w = v.appended([np.array([[0.6, 0.8]], dtype=np.float32)])
    >>> len(v), len(w), w.search(np.array([0.0, 1.0], dtype=np.float32), 2)
    (2, 3, [(1, 1.0), (2, 0.800000011920929)])
    """

    def __init__(self, buffer: _Buffer, n: int):
        self._buffer, self.n = buffer, n

    @classmethod
    def empty(cls, dim: int) -> "PassageVectors":
        return cls(_Buffer(0, dim), 0)

    @property
    def dim(self) -> int:
        return self._buffer.array.shape[1]

    def __len__(self) -> int:
        return self.n

    @property
    def rows(self) -> np.ndarray:
        """A read-only view of this version's rows."""
        view = self._buffer.array[:self.n]
        view.flags.writeable = False
        return view

    def appended(self, blocks: list[np.ndarray]) -> "PassageVectors":
        """This version with ``blocks`` of vectors after its rows, in the same buffer when it has room and nothing
        was written after this version's rows."""
        m = sum(len(b) for b in blocks)
        if not m:
            return self
        buffer = self._buffer
        with buffer.lock:
            if buffer.written == self.n and self.n + m <= len(buffer.array):
                at = self.n
                for block in blocks:
                    buffer.array[at:at + len(block)] = block
                    at += len(block)
                buffer.written = at
                return PassageVectors(buffer, at)
        return self.rebuilt([range(self.n), *blocks])

    def rebuilt(self, pieces: list) -> "PassageVectors":
        """A new buffer of ``pieces`` one after the other: a ``range`` of this version's rows, or new vectors."""
        total = sum(len(p) for p in pieces)
        buffer = _Buffer(_capacity(total), self.dim)
        at = 0
        for piece in pieces:
            part = self._buffer.array[piece.start:piece.stop] if isinstance(piece, range) else piece
            buffer.array[at:at + len(part)] = part
            at += len(part)
        buffer.written = total
        return PassageVectors(buffer, total)

    def take(self, rows: np.ndarray) -> np.ndarray:
        """A copy of these rows, ``(len(rows), dim)`` (the vectors ``IndexFlatIP.reconstruct_batch`` returns)."""
        return self._buffer.array[:self.n][np.asarray(rows, dtype=np.int64)]

    def search(self, vector: np.ndarray, k: int, rows: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The ``k`` rows (of ``rows`` if given) with the highest inner product with ``vector``, best first."""
        n = self.n if rows is None else len(rows)
        k = min(k, n)
        if k <= 0:
            return []
        query = np.ascontiguousarray(vector.reshape(1, -1), dtype=np.float32)
        scores = np.empty((1, k), dtype=np.float32)
        ids = np.empty((1, k), dtype=np.int64)
        selector = None if rows is None else faiss.IDSelectorBatch(np.asarray(rows, dtype=np.int64))
        # The rows read are this version's first n: never written again, whatever another thread appends.
        array = self._buffer.array
        faiss.knn_inner_product(faiss.swig_ptr(query), faiss.swig_ptr(array), self.dim, 1, self.n, k,
                                faiss.swig_ptr(scores), faiss.swig_ptr(ids), selector)
        return [(int(i), float(s)) for s, i in zip(scores[0], ids[0]) if i >= 0]
