"""Words OCR may have misread that no arithmetic check covers: a word that is not English but becomes an English
word when one letter is swapped for its look-alike (``TRADITIONAI`` for ``TRADITIONAL``, ``5HED`` for ``SHED``).

The English words are the 126,000 of ``wordninja``'s list (unigrams of English Wikipedia, MIT licence, 0.5 MB),
read once. A word already English, or one no single swap makes English (a brand name, ``RETROSPOT``), raises no
doubt: the reader flags, it never corrects.

Measured on the 19,792 words of three letters or more in the 300 real invoices' descriptions
(``../shared/invoices/records.csv``), as printed: 5 would be doubted (``WINKIE``, one line printed five times),
0.03 %.

>>> lookalike("TRADITIONAI"), lookalike("5HED"), lookalike("RETROSPOT"), lookalike("LANTERN"), lookalike("85123A")
('TRADITIONAL', 'SHED', None, None, None)

A space dropped after a one-letter word reads as one word that is no English (``ILOVE``): 0 of the 16,893 words of
four letters or more in the records' descriptions are so. So does one dropped before it (``BOXI``): 0 of the 16,922
words of four letters or more are an English word and a last ``I`` or ``A`` while no English word themselves (``TAXI``
and ``PIZZA`` are).

>>> lookalike("ILOVE"), lookalike("BOXI"), lookalike("TAXI")
('I LOVE', 'BOX I', None)
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

__all__ = ["english", "lookalike"]

# Characters the recogniser reads for one another in printed invoices (capitals, digits, a lower-case l).
_SWAPS = {"I": "L1l", "L": "I1", "l": "I1", "1": "IL", "0": "O", "O": "0", "5": "S", "S": "5", "8": "B", "B": "8",
          "2": "Z", "Z": "2", "6": "G", "G": "6"}


@lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    # The list sits beside the module (importing it would build its splitter's model, which is not needed).
    spec = find_spec("wordninja")
    if spec is None or spec.origin is None:
        raise ImportError("the English word list is missing: pip install wordninja==2.0.0")
    with gzip.open(Path(spec.origin).parent / "wordninja" / "wordninja_words.txt.gz", "rt", encoding="utf-8") as f:
        return frozenset(f.read().split())


def english(word: str, shortest: int = 3) -> bool:
    """Whether ``word`` (``shortest`` letters or more; each part of ``T-LIGHT`` or ``LOVE/HATE``) is English: a word
    the recogniser read whole is not cut where its letters stand apart (``GLASS``, ``HOLDER``), and a cut must leave
    English on both sides (``I LOVE``, not ``RE TROSPOT``).

    >>> english("GLASS"), english("T-LIGHT"), english("ILOVE"), english("RETROSPOT"), english("I", shortest=1)
    (True, True, False, False, True)
    """
    parts = word.strip(".,;:()'\"!?").lower().replace("/", "-").split("-")
    return len(word) >= shortest and all(parts) and all(part in _english() for part in parts)


def lookalike(word: str) -> str | None:
    """The English word one look-alike swap makes of ``word``, when ``word`` (three letters or more, letters
    mostly) is not English itself; else ``None``."""
    word = word.strip(".,;:()'\"!?")
    letters = sum(ch.isalpha() for ch in word)
    if len(word) < 3 or letters < len(word) - 1 or not word.isalnum():
        return None
    english = _english()
    if word.lower() in english:
        return None
    for i, ch in enumerate(word):
        for swap in _SWAPS.get(ch, ""):
            candidate = word[:i] + swap + word[i + 1:]
            if candidate.isalpha() and candidate.lower() in english:
                return candidate.upper() if sum(c.isupper() for c in word) * 2 > letters else candidate.lower()
    if len(word) >= 4 and word[0] in "IAia" and word[1:].lower() in english:
        return f"{word[0]} {word[1:]}"  # a space the recogniser dropped after "I" or "A" (ILOVE)
    if len(word) >= 4 and word[-1] in "IAia" and word[:-1].lower() in english:
        return f"{word[:-1]} {word[-1]}"  # or before it (LUNCH BOXI LOVE LONDON)
    return None
