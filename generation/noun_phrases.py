"""Tokens and noun phrases of a question, found without a tagger (for the follow-up rules).

A noun phrase is a run of words that are neither function words nor known verbs (:mod:`generation.followup_words`),
an article in front, runs joined by "of" kept together: "the four functions of the AI RMF core" is one phrase
(a :class:`Chunk`) of two segments. Words that are both verbs and nouns ("update", "cost", "match") count as nouns
after a determiner or inside a phrase, and as the verb right after an auxiliary's subject ("does Adam *use*").
These are heuristics: the rules built on them are checked by ``tests/unit/generation/test_conversation.py`` and measured by
``python -m evaluation.rewrites``.

>>> p = Parse("How many attention heads does the base model use?")
>>> [p.phrase(c.start, c.end) for c in p.chunks]
['attention heads', 'the base model']
>>> [(c.wh, c.after_do) for c in p.chunks]
[(True, False), (False, True)]
>>> is_plural("the four functions of the AI RMF core"), head_noun("the Transformer's base model")
(True, 'model')
"""

from __future__ import annotations

import re
from typing import NamedTuple

from generation.followup_words import (
    ARTICLES,
    AUX,
    DETS,
    DO_MODAL,
    DUAL,
    FUNCTION,
    NOT_ADVERBS,
    NUMBER_WORDS,
    PREDICATE_ADJ,
    PREP,
    VERBS,
    WH,
)
from retrieval.tokenize import tokenize

__all__ = ["Tok", "tokens", "is_name", "key", "Segment", "Chunk", "Parse", "is_plural", "head_noun", "possessive",
           "is_adverb"]

_WORD = re.compile(r"\w(?:[\w.'\u2019-]*\w)?")


class Tok(NamedTuple):
    """A word: its text, lower-cased form (curly apostrophe straightened) and character span."""

    text: str
    low: str
    start: int
    end: int


def tokens(text: str) -> list[Tok]:
    """The words of ``text`` ("Adam's", "10-Q", "1.7" and "bias-corrected" are one word each)."""
    return [Tok(m.group(), m.group().lower().replace("\u2019", "'"), m.start(), m.end())
            for m in _WORD.finditer(text)]


def is_adverb(low: str) -> bool:
    """An "-ly" word that is not a noun ("differently", not "family")."""
    return low.endswith("ly") and len(low) > 4 and low not in NOT_ADVERBS


def _past(low: str) -> bool:
    """A past participle by its look: "used", "accumulated" (not "speed", "embed")."""
    return low.endswith("ed") and len(low) > 3 and not low.endswith("eed") and low not in ("embed", "shed")


def _plain(low: str) -> bool:
    """A word that can only sit in a noun phrase (for looking one word ahead)."""
    return not (low in FUNCTION or low in VERBS or low in DUAL or is_adverb(low) or _past(low))


def is_name(tok: Tok) -> bool:
    """Capitals or digits: "Adam", "RMSProp", "AI", "GOVERN", "1.7", "β2"."""
    return tok.low != "i" and (any(c.isupper() for c in tok.text) or any(c.isdigit() for c in tok.text))


def key(word: str) -> str:
    """A word's comparable form: its BM25 stem ("rates" and "rate" meet), or the word itself."""
    terms = tokenize(word)
    return terms[0] if terms else word.lower()


class Segment(NamedTuple):
    """Part of a noun phrase between "of"s: token indices [start, end), ``head`` its last word."""

    start: int
    end: int
    head: int


class Chunk(NamedTuple):
    """A noun phrase: token indices [start, end) and its segments ("the four functions" "of" "the AI RMF core")."""

    start: int
    end: int
    segments: tuple[Segment, ...]
    wh: bool  # right after a question word ("which norm", "how many heads"): the thing asked for, not a referent
    after_do: bool  # right after an auxiliary: the inverted subject ("does Adam use", "is the optimizer")
    named: bool


class Parse:
    """A question's tokens, which of them are nouns-in-a-phrase (``nounish``) and its noun phrases (``chunks``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = tokens(text)
        self.lows = [t.low for t in self.toks]
        self.shouting = sum(c.isupper() for c in text) > 0.6 * max(1, sum(c.isalpha() for c in text))
        self.nounish = self._nounish()
        self.chunks = self._chunks()

    def _before(self, i: int) -> int:
        """Index of the token before a phrase starting at ``i``, skipping determiners and quantifiers."""
        j = i - 1
        while j >= 0 and (self.lows[j] in ARTICLES or self.lows[j] in DETS):
            j -= 1
        return j

    def _nounish(self) -> list[bool]:
        out: list[bool] = []
        run_after_do = False  # inside a phrase that follows do/does/did: its first noun-or-verb word is the verb
        run_after_wh = False  # inside a phrase that follows a question word ("which optimizer works best")
        for i, tok in enumerate(self.toks):
            low, prev = tok.low, (self.lows[i - 1] if i else None)
            nxt = self.lows[i + 1] if i + 1 < len(self.toks) else None
            prev_nounish = bool(i) and out[i - 1]
            if (tok.text.isupper() and len(tok.text) > 1 and not self.shouting) or any(c.isdigit() for c in tok.text):
                ok = True  # "MAP", "GOVERN", "1.7": names, whatever the lowercase word means
            elif low in FUNCTION or low in VERBS:
                ok = False
            elif low in PREDICATE_ADJ and prev_nounish:
                ok = False
            elif low in DUAL:
                after_det = prev in ARTICLES or prev in DETS
                # "which model uses dropout?": after the noun a question word asks for, an "-s" form not followed
                # by an auxiliary is the verb ("what rate schedules are used?" keeps its noun)
                wh_verb = run_after_wh and low.endswith("s") and not prev.endswith("s") and nxt not in AUX
                ok = after_det or (prev_nounish and not run_after_do and not wh_verb)
            elif is_adverb(low):
                ok = False  # "scaled differently", "formally review"
            elif _past(low) and "-" not in low and not tok.text[0].isupper():
                # "the scaled ...", "is scaled dot-product attention": an adjective; "estimates accumulated",
                # "who proposed Adam": a verb
                ok = prev in ARTICLES or prev in DETS or (
                    (prev is None or prev in AUX or prev in PREP) and nxt is not None and _plain(nxt))
            else:
                ok = True
            if ok and not prev_nounish:
                j = self._before(i)
                run_after_do = j >= 0 and self.lows[j] in DO_MODAL
                run_after_wh = j >= 0 and self.lows[j] in WH
            elif not ok:
                run_after_do = run_after_wh = False
            out.append(ok)
        return out

    def run(self, i: int) -> int:
        """End (exclusive) of the run of noun-phrase words starting at ``i``."""
        while i < len(self.toks) and self.nounish[i]:
            i += 1
        return i

    def _chunks(self) -> list[Chunk]:
        chunks, n, i = [], len(self.toks), 0
        while i < n:
            start = i
            word = i + 1 if self.lows[i] in ARTICLES and i + 1 < n and self.nounish[i + 1] else i
            if not self.nounish[word]:
                i += 1
                continue
            end = self.run(word)
            segments = [Segment(start, end, end - 1)]
            while end + 1 < n and self.lows[end] == "of":
                seg = end + 1
                word = seg + 1 if self.lows[seg] in ARTICLES and seg + 1 < n else seg
                if not self.nounish[word]:
                    break
                end = self.run(word)
                segments.append(Segment(seg, end, end - 1))
            before = self._before(start)
            chunks.append(Chunk(start, end, tuple(segments),
                                wh=before >= 0 and self.lows[before] in WH,
                                after_do=before >= 0 and self.lows[before] in AUX,
                                named=any(is_name(self.toks[k]) for k in range(start, end))))
            i = end
        return chunks

    def span(self, i: int, j: int) -> str:
        """The original text of tokens ``i`` to ``j`` (exclusive)."""
        return self.text[self.toks[i].start:self.toks[j - 1].end]

    def phrase(self, i: int, j: int) -> str:
        """Like :meth:`span`, with a sentence-initial article lower-cased ("The Transformer" -> "the Transformer")."""
        text = self.span(i, j)
        if self.lows[i] in ARTICLES and self.toks[i].text[0].isupper():
            text = text[0].lower() + text[1:]
        return text

    def chunk_at(self, i: int) -> Chunk | None:
        """The noun phrase holding token ``i``, if any."""
        for chunk in self.chunks:
            if chunk.start <= i < chunk.end:
                return chunk
        return None


def is_plural(phrase: str) -> bool:
    """Whether a noun phrase names several things: "the four functions of ...", "attention heads", "A and B"."""
    first = re.split(r"\s+of\s+", phrase.strip(), maxsplit=1)[0]
    words = first.split()
    if not words:
        return False
    if " and " in f" {phrase} " or any(w.lower() in NUMBER_WORDS for w in words):
        return True
    head = words[-1]
    return (head.islower() and len(head) > 3 and head.endswith("s")
            and not head.endswith(("ss", "us", "is", "'s")))


def head_noun(phrase: str) -> str | None:
    """The common noun heading a phrase ("model" for "the Transformer's base model"); None for a name."""
    words = re.split(r"\s+of\s+", phrase.strip(), maxsplit=1)[0].split()
    head = words[-1] if words else ""
    return head if head.isalpha() and head.islower() else None


def possessive(phrase: str) -> str | None:
    """ "Adam's", "the Transformer's"; None when the phrase is too long to read well as a possessive."""
    if len(phrase.split()) > 3 or " of " in phrase:
        return None
    if phrase.endswith(("'s", "'", "\u2019s")):
        return None  # "Microsoft's" cannot take another "'s"
    return phrase + ("'" if is_plural(phrase) else "'s")
