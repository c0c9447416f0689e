"""Sentence splitting with character offsets (pysbd: abbreviations, decimals and citations are handled)."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import pysbd

_LOCAL = threading.local()  # pysbd segmenters keep state; one per thread
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)")


@dataclass
class Sentence:
    text: str   # the sentence as it stands in the passage (whitespace collapsed, Markdown markers removed)
    start: int  # offsets into the passage
    end: int
    heading: bool = False  # it is (part of) a Markdown heading line


def _segmenter() -> pysbd.Segmenter:
    if not hasattr(_LOCAL, "seg"):
        _LOCAL.seg = pysbd.Segmenter(language="en", clean=False, char_span=True)
    return _LOCAL.seg


def split_sentences(text: str) -> list[Sentence]:
    """Split a passage into sentences; paragraph breaks always end a sentence (headings, list items, rows)."""
    out: list[Sentence] = []
    for block in re.finditer(r"[^\n]+(?:\n(?!\s*\n)[^\n]+)*", text):
        base = block.start()
        heading = block.group().lstrip().startswith("#")
        for span in _segmenter().segment(block.group()):
            raw = span.sent
            lead = len(raw) - len(raw.lstrip())
            start = base + span.start + lead
            end = base + span.start + len(raw.rstrip())
            clean = " ".join(_MARKUP.sub("", text[start:end]).split())
            if clean:
                out.append(Sentence(clean, start, end, heading))
    return out
