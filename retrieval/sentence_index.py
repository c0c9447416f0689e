"""Sentence vectors of a document's passages, for scoring a passage by its best sentence.

A 1000-character passage mixes several topics; its one vector is an average that a pointed question matches
weakly. Each passage's sentences are also embedded at ingestion, and the searcher scores a candidate passage by its
own cosine *and* its best sentence's. On the dev set this lifted recall@1 from 0.52 to 0.58 and page hit@1 from
0.68 to 0.72 (see README). The extractive answerer reuses the same vectors instead of embedding sentences per
question.

Vectors are stored as float16: half the memory, and cosines change by less than 1e-3. The index keeps each
document's vectors as given (:class:`DocumentSentences`), never one copy of the whole collection's: a change of the
collection then copies none of them.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import numpy as np

from ingestion.sentences import Sentence, split_sentences

MIN_WORDS = 3  # shorter "sentences" (a lone label, "Adam.") match many questions by accident
# Sentences that point elsewhere (contents lines, references) or only name columns get no vector: a contents line
# "4 Characteristics of trustworthy AI systems 12" would otherwise win every question on its topic.
_NO_VECTOR = frozenset({"heading", "toc", "reference", "table_header", "figure"})


def indexable_sentences(text: str, blocks=None) -> list[Sentence]:
    """The sentences of a passage worth a vector: prose, list items, captions and table rows of at least
    ``MIN_WORDS`` words (a table row counts its label and values)."""
    return [s for s in split_sentences(text, blocks)
            if not s.heading and s.kind not in _NO_VECTOR and len(s.text.split()) >= MIN_WORDS]


def vector_text(sentence: Sentence) -> str:
    """What is embedded for a sentence: the sentence, or for a table row of numbers its table, label and every value
    with its column heading (:meth:`ingestion.blocks.Block.context`)."""
    if sentence.kind == "table_row" and sentence.block is not None:
        return sentence.block.context() or sentence.text
    return sentence.text


@dataclass
class SentenceVectors:
    """Sentences of one document's passages: ``owner[i]`` is the index of the passage holding sentence ``i``,
    ``start[i]:end[i]`` its offsets in that passage's text, ``vectors[i]`` its unit vector (float16)."""

    owner: np.ndarray
    start: np.ndarray
    end: np.ndarray
    vectors: np.ndarray

    @classmethod
    def empty(cls, dim: int) -> "SentenceVectors":
        none = np.zeros(0, dtype=np.int32)
        return cls(none, none.copy(), none.copy(), np.zeros((0, dim), dtype=np.float16))

    @classmethod
    def build(cls, passages, encode, progress=None) -> "SentenceVectors":
        """Split every passage (a :class:`ingestion.chunking.Chunk`, or its text) and embed its sentences in one
        batch call of ``encode``."""
        found = [(i, s) for i, p in enumerate(passages)
                 for s in indexable_sentences(getattr(p, "text", p), getattr(p, "blocks", None))]
        vectors = encode([vector_text(s) for _, s in found], progress=progress) if found else np.zeros((0, 1))
        return cls(np.array([i for i, _ in found], dtype=np.int32),
                   np.array([s.start for _, s in found], dtype=np.int32),
                   np.array([s.end for _, s in found], dtype=np.int32),
                   np.asarray(vectors, dtype=np.float16))

    def __len__(self) -> int:
        return len(self.owner)

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        np.savez(buf, owner=self.owner, start=self.start, end=self.end, vectors=self.vectors)
        return buf.getvalue()

    @classmethod
    def from_file(cls, path) -> "SentenceVectors":
        with np.load(path) as data:
            return cls(data["owner"], data["start"], data["end"], data["vectors"])


class DocumentSentences:
    """One document's sentence vectors, addressed by passage (its index in the document).

    Parameters
    ----------
    stored : the document's :class:`SentenceVectors` (sentences stored passage by passage), kept as given.
    passages : the document's number of passages.
    """

    __slots__ = ("stored", "bounds")

    def __init__(self, stored: SentenceVectors, passages: int):
        self.stored = stored
        # Passage p's sentences are rows bounds[p]:bounds[p + 1].
        self.bounds = np.searchsorted(stored.owner, np.arange(passages + 1))

    def best(self, passage: int, vector: np.ndarray) -> float:
        """Best sentence cosine of one passage (NaN when it has no sentence vectors)."""
        lo, hi = self.bounds[passage], self.bounds[passage + 1]
        if hi > lo:
            return float((self.stored.vectors[lo:hi].astype(np.float32) @ vector).max())
        return math.nan

    def of(self, passage: int) -> tuple[list[tuple[int, int]], np.ndarray]:
        """Offsets and float32 vectors of one passage's sentences."""
        lo, hi = self.bounds[passage], self.bounds[passage + 1]
        spans = list(zip(self.stored.start[lo:hi].tolist(), self.stored.end[lo:hi].tolist()))
        return spans, self.stored.vectors[lo:hi].astype(np.float32)
