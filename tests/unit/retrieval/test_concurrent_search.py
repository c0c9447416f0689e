"""Searches running while documents are added, indexed again and removed never fail and never see half of a
document: the real store, the real searcher with the bundled embedding model, real FAISS and files."""

from __future__ import annotations

import string
import threading
import time
import traceback

import numpy as np

from core.types import Chunk, DocumentRecord
from retrieval.embedder import Embedder
from retrieval.searcher import Searcher
from retrieval.sentence_index import SentenceVectors
from retrieval.store import LocalStore
from retrieval.tokenize import tokenize

PASSAGES = 6  # every document has this many, each holding the document's own marker word
SECONDS = 4.0


def marker(i: int) -> str:
    """A word of letters only, one per document (digits would split it into more terms)."""
    return "zq" + "".join(string.ascii_lowercase[int(d)] for d in str(i))


def document(i: int, dim: int, rng: np.random.Generator):
    doc_id = f"doc{i}"
    direction = rng.normal(size=dim).astype(np.float32)
    vectors = direction + 0.1 * rng.normal(size=(PASSAGES, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    chunks = [Chunk(f"{doc_id}-rc-p{p}-c{p}-{rng.integers(1 << 30)}", doc_id, f"{doc_id}.pdf", p + 1, "",
                    f"The {marker(i)} report, part {p}: ships leave the harbour at dawn.", 0, 40)
              for p in range(PASSAGES)]
    sentences = SentenceVectors(np.arange(PASSAGES, dtype=np.int32), np.zeros(PASSAGES, np.int32),
                                np.full(PASSAGES, 20, np.int32), vectors.astype(np.float16))
    record = DocumentRecord(doc_id, f"{doc_id}.pdf", "live", f"sha-{doc_id}", PASSAGES, PASSAGES, 0.0)
    return record, chunks, vectors, sentences, direction / np.linalg.norm(direction)


def test_searches_during_adds_and_removes_never_fail_nor_see_half_a_document(tmp_path):
    embedder = Embedder()
    store = LocalStore(tmp_path, embedder.dim)
    searcher = Searcher(store, embedder)
    rng = np.random.default_rng(0)
    directions: dict[int, np.ndarray] = {}
    for i in range(4):  # something to search from the start
        *doc, directions[i] = document(i, embedder.dim, rng)
        store.add_document(*doc)
    done = threading.Event()
    failures: list[BaseException] = []
    reads, writes = [0], [0]

    def write() -> None:
        i, wrng = 4, np.random.default_rng(1)
        try:
            while not done.is_set():
                *doc, directions[i] = document(i, embedder.dim, wrng)
                store.add_document(*doc)
                if wrng.random() < 0.3:  # indexed again: new passages in the same place
                    *doc, _ = document(i - 1, embedder.dim, wrng)
                    store.add_document(*doc)
                store.delete_document(f"doc{i - 3}")  # the oldest ones go, so rows shift under the readers
                i, writes[0] = i + 1, writes[0] + 1
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failures.append(exc)
            done.set()

    def read(seed: int) -> None:
        rrng = np.random.default_rng(seed)
        try:
            while not done.is_set():
                i = int(rrng.integers(max(0, len(directions) - 6), len(directions)))
                tokens = tokenize(marker(i))
                found = store.keyword_search("live", tokens, 50)
                assert len(found) in (0, PASSAGES) and {c.doc_id for c, _ in found} <= {f"doc{i}"}
                assert store.passages_with("live", tokens) in (0, PASSAGES)
                near = store.semantic_search("live", directions[i], PASSAGES, doc_ids=[f"doc{i}"])
                assert len(near) in (0, PASSAGES)
                if found:  # what a search found is read back, even if the document went meanwhile
                    cosines, best = store.passage_scores("live", directions[i], [c.chunk_id for c, _ in found])
                    assert len(cosines) == PASSAGES and not np.isnan(best).any()
                result = searcher.search(f"the {marker(i)} report about ships", "live", top_k=5)
                assert len(result.hits) == 5
                reads[0] += 1
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            failures.append(exc)
            done.set()

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    time.sleep(SECONDS)
    done.set()
    for t in threads:
        t.join(timeout=60)
    assert not failures, "".join(traceback.format_exception(failures[0]))
    assert writes[0] >= 5 and reads[0] >= 20  # both sides did run, at the same time
