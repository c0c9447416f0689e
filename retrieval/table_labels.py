"""Table rows the question names: a lift for the passage that holds the row.

A financial statement's row "Server products and cloud services $ 22,308 $ 18,388" is what a question about
"revenue from Microsoft's cloud services" asks for, yet both rankings put its passage low: BM25 weighs the
question's words in a passage of thirty rows of numbers, where they are a small share of its terms, against prose
that repeats them, and the passage's one vector averages every row. A row's *label* is short and says exactly what
its numbers are. So each candidate passage gets :func:`label_match`: the largest share of one of its rows' label
terms that the question holds ("cloud services" is 2 of the 4 terms of "Server products and cloud services"), counted
from ``floor`` (half the label) up, over the rows holding an amount, and the searcher adds ``label_weight`` times it
to the fused score.

Measured by ``python -m evaluation.calibrate`` (recall@1 / recall@8 / MRR of the evidence in the top 8 as the
product searches, dev questions, the other weights at their defaults):

==================================  ==================  ==================  ==================
label weight                        papers (35)         NIST (15)           filings (35)
==================================  ==================  ==================  ==================
0 (off)                             0.54 / 0.89 / 0.66  0.73 / 0.93 / 0.81  0.31 / 0.57 / 0.38
0.2                                 0.54 / 0.89 / 0.67  0.73 / 0.93 / 0.81  0.31 / 0.66 / 0.40
**0.5** (chosen in 6 of 7 folds)    0.54 / 0.89 / 0.67  0.73 / 0.93 / 0.81  0.43 / 0.69 / 0.50
0.7                                 0.54 / 0.89 / 0.67  0.73 / 0.93 / 0.81  0.40 / 0.69 / 0.49
1.5                                 0.54 / 0.89 / 0.67  0.73 / 0.93 / 0.81  0.31 / 0.69 / 0.42
leave-one-document-out              0.54 / 0.89 / 0.67  0.73 / 0.93 / 0.81  0.40 / 0.69 / 0.48
==================================  ==================  ==================  ==================

Rows of text are left out: lifting NIST's subcategory rows ("GOVERN 1.1: Legal and regulatory requirements ...",
whose label cells are fragments of sentences) took its recall@1 from 0.73 to 0.60 at weight 0.7 (fusion weights 0.7 / 0.3 then).

>>> from ingestion.blocks import Block
>>> from ingestion.chunking import Chunk
>>> row = Block("table_row", 0, 52, label="Server products and cloud services", values=("$ 22,308", "$ 18,388"))
>>> chunk = Chunk("c1", "d1", "10q.pdf", 27, "", "Server products and cloud services $ 22,308 $ 18,388", 0, 52,
...               blocks=[row])
>>> label_match(chunk, {"revenu", "cloud", "servic", "azur"})
0.5
>>> label_match(chunk, {"revenu", "azur"})
0.0
>>> text_row = Block("table_row", 0, 46, label="GOVERN 1.1", values=("Legal requirements are understood.",))
>>> label_match(Chunk("c2", "d2", "rmf.pdf", 5, "", "GOVERN 1.1 Legal requirements are understood.", 0, 46,
...                   blocks=[text_row]), set(tokenize("What does GOVERN 1.1 cover?")))
0.0
"""

from __future__ import annotations

import re

from core.types import Block, Chunk
from retrieval.tokenize import tokenize

FLOOR = 0.5  # a label the question names less than half of is not what it asks for
_CACHE_LIMIT = 200_000  # passages whose label terms are kept; the cache starts again past it


_AMOUNT = re.compile(r"[$€£¥]?\s*\(?-?[\d.,]*\d[\d.,]*\)?\s*%?")


def _numeric(row: Block) -> bool:
    """Whether a row holds an amount among its values ("$ 22,308", "(460)", "42.5 %"): a row of numbers, whose label
    says what they are. A row of text ("GOVERN 1.1: Legal and regulatory requirements ...") reads as prose and is
    ranked as prose."""
    return any(_AMOUNT.fullmatch(v.strip()) for v in row.values)


def row_terms(row: Block | None) -> frozenset[str]:
    """The BM25 terms of a row of amounts' label; empty for a row of text or anything but a table row."""
    if row is None or row.kind != "table_row" or not row.label or not _numeric(row):
        return frozenset()
    return frozenset(tokenize(row.label))


def _share(terms: frozenset[str], query_terms: set[str]) -> float:
    return len(terms & query_terms) / len(terms) if terms else 0.0


class LabelTerms:
    """The label terms (:func:`row_terms`) of every row of amounts of a passage, worked out once per passage."""

    def __init__(self) -> None:
        self._terms: dict[tuple, tuple[frozenset[str], ...]] = {}

    def of(self, chunk: Chunk) -> tuple[frozenset[str], ...]:
        # The id alone could name another text after a document is indexed again with other chunk sizes.
        key = (chunk.chunk_id, chunk.start, chunk.end, len(chunk.text))
        found = self._terms.get(key)
        if found is None:
            if len(self._terms) >= _CACHE_LIMIT:
                self._terms.clear()
            found = tuple(terms for b in (chunk.blocks or ()) if (terms := row_terms(b)))
            self._terms[key] = found
        return found


_SHARED = LabelTerms()


def row_match(row: Block | None, query_terms: set[str], floor: float = FLOOR) -> float:
    """:func:`label_match` for one row: the share of its label's terms in ``query_terms`` (0.0 under ``floor``, for
    a row of text, or for anything but a table row)."""
    share = _share(row_terms(row), query_terms)
    return share if share >= floor else 0.0


def label_match(chunk: Chunk, query_terms: set[str], floor: float = FLOOR, cache: LabelTerms | None = None) -> float:
    """The largest share of a table-row label's terms found in ``query_terms``, over the rows of ``chunk``; 0.0
    when no label reaches ``floor`` (or the passage has no table rows)."""
    best = max((_share(terms, query_terms) for terms in (cache or _SHARED).of(chunk)), default=0.0)
    return best if best >= floor else 0.0
