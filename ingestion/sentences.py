"""Sentence splitting with character offsets.

pysbd does the segmentation: abbreviations ("e.g.", "et al."), decimals ("0.001") and citations
("(Kingma et al., 2015)") do not end a sentence. pysbd still ends a sentence after a few abbreviations that
scientific text puts before a number or a name ("Eq. 3", "Figs. 2 and 3", "cf. Fig. 1b", "approx. 20 GB"); those
pieces are joined again here. A paragraph break always ends a sentence, and so does a line break before a list
item, a table row or a heading; other line breaks (prose wrapped line by line) do not.

Given the text's blocks (:mod:`ingestion.blocks`), a heading, a table row or header and a contents line are each
one sentence of its own kind, and the sentences of a list item, caption or reference carry that kind.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import pysbd

from ingestion.blocks import WHOLE
from core.types import Block

_LOCAL = threading.local()  # pysbd segmenters keep state; one per thread
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)")
_BLOCK = re.compile(r"[^\n]+(?:\n(?!\s*\n)[^\n]+)*")  # a paragraph: lines up to a blank line
_LINE_BREAK = re.compile(r"\n")
_STRUCTURE = re.compile(r"\s*(?:[-*+]\s|\d+[.)]\s|\||#)")  # a line opening a list item, a table row or a heading
# Abbreviations that never end a sentence in the documents this reads, whatever follows them.
# Case matters: "no." or "No." can end a sentence, "Fig." cannot.
_NEVER_FINAL = re.compile(
    r"(?:^|[\s(\[])(?:e\.g|i\.e|[Cc]f|vs|viz|approx|Figs?|Eqs?|Secs?|Sects?|Tabs?|Refs?|Chs?|Thm|pp)\.$"
)
# "et al." ends a sentence only when a new sentence follows ("... by Kingma et al. We then ..."); before a year,
# a bracket, a comma or a lower-case word it is mid-sentence.
_ET_AL = re.compile(r"\bet al\.$")
_MID_SENTENCE_START = re.compile(r"^[\d(\[,;:a-z]")


@dataclass
class Sentence:
    """One sentence of a passage.

    Attributes
    ----------
    text : the sentence as it stands in the passage, whitespace collapsed and Markdown markers removed.
    start, end : character offsets into the passage; ``passage[start:end]`` is the raw sentence.
    heading : it is (part of) a heading.
    kind : the kind of block it is in (:data:`ingestion.blocks.KINDS`): ``paragraph`` for prose.
    block : for a sentence that is a whole block (a table row above all), that block.
    """

    text: str
    start: int
    end: int
    heading: bool = False
    kind: str = "paragraph"
    block: Block | None = None


def _segmenter() -> pysbd.Segmenter:
    if not hasattr(_LOCAL, "seg"):
        _LOCAL.seg = pysbd.Segmenter(language="en", clean=False, char_span=True)
    return _LOCAL.seg


def _continues(previous: str, following: str) -> bool:
    """Whether pysbd cut after an abbreviation that does not end the sentence."""
    previous = previous.rstrip()
    if _NEVER_FINAL.search(previous):
        return True
    return bool(_ET_AL.search(previous) and _MID_SENTENCE_START.match(following.lstrip()))


def _spans(block: str) -> list[tuple[int, int]]:
    """Sentence spans of one paragraph, trimmed of surrounding whitespace, abbreviation cuts undone."""
    spans: list[tuple[int, int]] = []
    for piece in _segmenter().segment(block):
        raw = piece.sent
        start = piece.start + len(raw) - len(raw.lstrip())
        end = piece.start + len(raw.rstrip())
        if end <= start:
            continue
        if spans and _continues(block[spans[-1][0]:spans[-1][1]], block[start:end]):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _runs(block: str) -> list[tuple[int, str]]:
    """Split a paragraph where a line is structure (list item, table row, heading); join wrapped prose lines.

    pysbd ends a sentence at every line break, and text read line by line (pdfplumber, plain text) breaks lines
    mid-sentence. A wrapped line's newline becomes a space (same length, so offsets hold).
    """
    runs, start = [], 0
    for match in _LINE_BREAK.finditer(block):
        line = block[block.rfind("\n", 0, match.start()) + 1:match.start()].strip()
        if _STRUCTURE.match(block, match.end()) or line.startswith("#") or line.endswith("|"):
            runs.append((start, block[start:match.start()]))
            start = match.end()
    runs.append((start, block[start:]))
    return [(offset, run.replace("\n", " ")) for offset, run in runs if run.strip()]


def split_sentences(text: str, blocks: Sequence[Block] | None = None) -> list[Sentence]:
    """Split a passage into sentences.

    Parameters
    ----------
    text : any passage; Markdown headings, list items and table rows are allowed.
    blocks : the passage's blocks (offsets into ``text``). A block of a kind in :data:`ingestion.blocks.WHOLE`
        is one sentence; the sentences of other blocks take their kind; text outside every block is prose.

    Returns
    -------
    list[Sentence]
        In order, not overlapping. A paragraph break always ends a sentence. Pieces that are only Markdown markup
        (a lone list marker) are left out.

    Examples
    --------
    >>> [s.text for s in split_sentences("Adam (Kingma et al., 2015) uses 0.001, e.g. on MNIST. See Fig. 2.")]
    ['Adam (Kingma et al., 2015) uses 0.001, e.g. on MNIST.', 'See Fig. 2.']
    """
    if not blocks:
        return _split_prose(text)
    out: list[Sentence] = []
    position = 0
    for block in sorted(blocks, key=lambda b: b.start):
        if block.start < position:
            continue
        out.extend(_split_prose(text[position:block.start], position))
        if block.kind in WHOLE:
            raw = text[block.start:block.end]
            clean = " ".join(_MARKUP.sub("", raw).split()) if block.kind == "heading" else " ".join(raw.split())
            if clean:
                start = block.start + len(raw) - len(raw.lstrip())
                end = block.start + len(raw.rstrip())
                out.append(Sentence(clean, start, end, block.kind == "heading", block.kind, block))
        else:
            for sentence in _split_prose(text[block.start:block.end], block.start):
                sentence.kind = block.kind
                out.append(sentence)
        position = max(position, block.end)
    out.extend(_split_prose(text[position:], position))
    return out


def _split_prose(text: str, base_offset: int = 0) -> list[Sentence]:
    """Sentences of text without block information, offsets shifted by ``base_offset``."""
    out: list[Sentence] = []
    for block in _BLOCK.finditer(text):
        base = block.start()
        for offset, run in _runs(block.group()):
            heading = run.lstrip().startswith("#")
            for start, end in _spans(run):
                start, end = base + offset + start, base + offset + end
                clean = " ".join(_MARKUP.sub("", text[start:end]).split())
                if clean:
                    out.append(Sentence(clean, base_offset + start, base_offset + end, heading,
                                        "heading" if heading else "paragraph"))
    return out
