"""A document's passages held compactly in memory: one byte string, each passage's field values pickled and
compressed on its own (as Lucene compresses its stored fields).

A :class:`core.types.Chunk` object costs ~650 bytes beyond its text (the instance, its attribute dictionary, a string
object per field): 100,000 synthetic passages took 144 MB as objects. Pickled they take 89 MB, and compressed with
zlib (level 1) 39 MB; 1,000-character windows of real text (the NIST PDF) compress 1.7 times, synthetic ones 2.3
times. Searches return a few dozen passages, rebuilt on demand in ~10 µs each (half of it decompressing), ~1 ms
a query.
The pickles never leave the process: they are made and read here.
"""

from __future__ import annotations

import pickle
import zlib
from array import array
from dataclasses import fields
from operator import attrgetter

from core.types import Chunk

__all__ = ["StoredChunks"]

_FIELDS = tuple(f.name for f in fields(Chunk) if f.init)  # every field, so a new one is kept without a change here
_values = attrgetter(*_FIELDS)


class StoredChunks:
    """The passages of one document, in order.

    >>> c = Chunk("d-p1-c0", "d", "d.pdf", 1, "Intro", "Adam keeps moment estimates.", 0, 28)
    >>> stored = StoredChunks([c, Chunk("d-p2-c1", "d", "d.pdf", 2, "", "Second.", 0, 7)])
    >>> len(stored), stored[0] == c, [x.page for x in stored.all()]
    (2, True, [1, 2])
    """

    __slots__ = ("_data", "_ends")

    def __init__(self, chunks: list[Chunk]):
        # Appended one by one: a list of every pickle first would leave as many freed blocks in the heap.
        data = bytearray()
        self._ends = array("q")  # 8 bytes each, read back as ints
        for c in chunks:
            data += zlib.compress(pickle.dumps(_values(c), protocol=pickle.HIGHEST_PROTOCOL), 1)
            self._ends.append(len(data))
        self._data = bytes(data)  # exactly its size (a bytearray keeps room to grow)

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, i: int) -> Chunk:
        start = self._ends[i - 1] if i else 0
        return Chunk(*pickle.loads(zlib.decompress(memoryview(self._data)[start:self._ends[i]])))

    def all(self) -> list[Chunk]:
        return [self[i] for i in range(len(self))]

    @property
    def nbytes(self) -> int:
        return len(self._data) + 8 * len(self._ends)
