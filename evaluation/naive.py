"""The naive baseline: the first recipe most tutorials build, measured beside the product by ``evaluation.bench``.

1. page text from PyMuPDF, ``page.get_text()``, as it comes (no layout reading, no cleaning, no OCR);
2. LangChain's ``RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)``, page by page, so every chunk
   keeps its page number;
3. the same bundled all-MiniLM-L6-v2 embeddings as the product, unit vectors, of the chunk text alone (no prefix);
4. FAISS ``IndexFlatIP``: the top ``k`` chunks by cosine.

There is nothing else: no keyword side, no sentence vectors, no query expansion, no reranker and no abstention, so
only retrieval metrics can be compared. Each document gets its own index, so that a question can search its own
document (the evaluation's ``doc`` scope) exactly, as a metadata filter would::

    index = NaiveIndex.build([Path("docs/adam.pdf")])
    text, doc, page = index.search("What is AdaMax?", doc="adam", k=5)[0]
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import faiss
import numpy as np
import pymupdf
from langchain_text_splitters import RecursiveCharacterTextSplitter

CHUNK_SIZE = 1000
CHUNK_OVERLAP = 200


class Passage(NamedTuple):
    """One chunk: its text, its document (the PDF's file name without ``.pdf``) and its 1-based page."""

    text: str
    doc: str
    page: int


def split_pdf(path: Path) -> tuple[int, list[Passage]]:
    """Page count and chunks of one PDF: each page's text split on its own.

    Parameters
    ----------
    path : the PDF; its stem names the document.

    Returns
    -------
    tuple[int, list[Passage]]
        Pages in the file, and the chunks in page order (pages without text give none).
    """
    splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP)
    with pymupdf.open(path) as pdf:
        pages = [page.get_text() for page in pdf]
    passages = [Passage(text, path.stem, number)
                for number, page_text in enumerate(pages, start=1) for text in splitter.split_text(page_text)]
    return len(pages), passages


class NaiveIndex:
    """FAISS flat inner-product indexes of naive chunks, one per document.

    Parameters
    ----------
    embedder : anything with ``encode(texts) -> (n, dim) float32 unit vectors`` and ``dim``; the bundled
        all-MiniLM-L6-v2 (:class:`retrieval.embedder.Embedder`) when ``None``.

    Attributes
    ----------
    documents : per document, ``{"pages", "chunks", "seconds"}``: what :meth:`add` read and how long it took.
    """

    def __init__(self, embedder=None):
        if embedder is None:
            from retrieval.embedder import Embedder

            embedder = Embedder()
        self.embedder = embedder
        self.documents: dict[str, dict] = {}
        self._passages: dict[str, list[Passage]] = {}
        self._indexes: dict[str, faiss.IndexFlatIP] = {}

    @classmethod
    def build(cls, pdf_paths: Iterable[Path], embedder=None) -> "NaiveIndex":
        """Index every PDF (see the module docstring)."""
        index = cls(embedder)
        for path in pdf_paths:
            index.add(Path(path))
        return index

    def add(self, path: Path) -> dict:
        """Read, split, embed and index one PDF; return its ``{"pages", "chunks", "seconds"}``."""
        t0 = time.perf_counter()
        pages, passages = split_pdf(path)
        index = faiss.IndexFlatIP(self.embedder.dim)
        if passages:
            index.add(np.ascontiguousarray(self.embedder.encode([p.text for p in passages]), dtype=np.float32))
        self._passages[path.stem], self._indexes[path.stem] = passages, index
        self.documents[path.stem] = {"pages": pages, "chunks": len(passages), "seconds": time.perf_counter() - t0}
        return self.documents[path.stem]

    def passages(self, doc: str) -> list[Passage]:
        """The chunks of one document, in page order."""
        return list(self._passages[doc])

    def search(self, question: str, doc: str | None = None, k: int = 5) -> list[Passage]:
        """The ``k`` chunks closest to the question by cosine, best first.

        Parameters
        ----------
        question : the question, embedded as it is.
        doc : search only this document; every document when ``None``.
        k : how many chunks.

        Raises
        ------
        KeyError
            ``doc`` was never added.
        """
        vector = np.ascontiguousarray(self.embedder.encode([question]), dtype=np.float32)
        docs = [doc] if doc is not None else list(self._indexes)
        found: list[tuple[float, Passage]] = []
        for name in docs:
            index = self._indexes[name]
            scores, rows = index.search(vector, min(k, index.ntotal)) if index.ntotal else ([[]], [[]])
            found += [(float(s), self._passages[name][r]) for s, r in zip(scores[0], rows[0]) if r >= 0]
        found.sort(key=lambda pair: -pair[0])
        return [passage for _, passage in found[:k]]
