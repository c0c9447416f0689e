"""Tokens for the keyword (BM25) side: lowercase words and numbers, English stopwords removed."""

from __future__ import annotations

import re
import unicodedata

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

# Decimals such as "0.001" stay one token; other punctuation separates words.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)+|\w+")
STOPWORDS = frozenset(ENGLISH_STOP_WORDS)


def tokenize(text: str) -> list[str]:
    """Split ``text`` into BM25 terms.

    Examples
    --------
    >>> tokenize("The learning rate is 0.001, not 1e-3!")
    ['learning', 'rate', '0.001', '1e', '3']
    """
    text = unicodedata.normalize("NFKC", text).lower()
    return [t for t in _TOKEN.findall(text) if t not in STOPWORDS and t != "_"]
