"""Whether a question leans on an earlier exchange: certainly, possibly, or not at all (deterministic rules).

:func:`follow_up_verdict` gives a :class:`Verdict`; :func:`is_follow_up` is true unless it is ``STANDALONE``.
A question is a **follow-up** when it has one of:

1. A *bare* form with no content of its own: "why?", "how so?", "why is that?", "what else?", "tell me more"...
2. An *elliptical starter* followed by a fragment: "what about ...", "how about ...", "what of ...", "same for
   ...", "and / but / or / also / so ..." when what follows is not a full question ("and for the big model?"), a
   fragment opening with a preposition and holding no question word or auxiliary ("for the big model?"). "And what
   is the NIST AI RMF?" is a full question after the "and": it is judged on that question alone.
3. A *reference* with nothing in the question to refer to (:func:`references`): a pronoun with no antecedent, a
   demonstrative ("this method", "how is that computed?"), "the second one", "which one", "the former", "he",
   "the same", "do so".

A pronoun is **bound inside the question**, hence no reference, when an earlier noun phrase can be its antecedent:

* "its", "their" (and "his", "her") take any earlier noun phrase that agrees: singular (or holding a possessor:
  "an AI system's risks") for "its", plural, coordinated ("Kingma and Ba") or naming people ("an organisation")
  for "their" — "an application run after modifying *its* XML file", "organisations ... *their* risk", "which
  optimizer keeps *its* rate". Not the phrase the possessive sits in ("the default value of *its* rate"), and a
  named subject after the auxiliary counts too ("how many shares of *its* stock did Apple buy back?").
* "it", "they", "them" take only a phrase *outside their own clause*, since a pronoun is not the subject or object
  of its own clause-mate ("does Adam beat it?", "what should an organisation decide after completing it?" refer
  back). Clauses open at a question word, a relative or complement "that", a subordinator followed by a subject
  ("if it has", "before they apply"), "and / or / but" before a question word or auxiliary ("... and how is it
  computed?"), and a subject pronoun right after a noun or a verb of saying ("the XML files *it* finds", "what
  risks does Amazon say *it* faces"). The noun a relative clause hangs on is not its pronoun's antecedent
  ("the layer that feeds it").

Other uses that are **not references**: the empty "it" ("is it possible to ...", "how long does it take to ...",
"why is it that ..."); the document itself: "this / that + paper, framework, document, specification, standard,
filing, 10-Q, section, report ..." and "this" ending a copular question about the document ("what version of the
specification is this?"); the reported period ("this quarter").

The verdict is **unsure** when the only references found may or may not need the history: "they" doing what
authors or a filer do ("what optimizer did they use?", "how much did they spend?",
:data:`~generation.followup_words.AGENT_VERBS`: the authors, unless the last answer named people), "it" as the
subject of what documents do ("what does it say about ...?"), a possessive whose only antecedent is the document
("what does the paper say about its convergence?"), and "this" ending a copular question whose noun is not about
the document ("what method is this?"). Otherwise a reference makes a **follow-up**, and none makes the question
**standalone**.

>>> follow_up_verdict("who proposed it?").value, follow_up_verdict("What does it say about risk?").value
('follow-up', 'unsure')
>>> follow_up_verdict("Which command must an application run after installing or modifying its XML file?").value
'standalone'
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from generation.followup_words import (
    AGENT_VERBS,
    ARTICLES,
    AUX,
    COMPLEMENT,
    CONJ,
    COPULA,
    DO_MODAL,
    DOC_ATTRIBUTES,
    DOC_NOUNS,
    DOC_VERBS,
    DUAL,
    EXPLETIVE_ADJ,
    EXPLETIVE_VERBS,
    ORDINALS,
    PEOPLE_NOUNS,
    PREP,
    PRON,
    SAY_VERBS,
    STATEMENT,
    SUBJECT_PRON,
    SUBORDINATORS,
    TIME_NOUNS,
    VERBS,
    WH,
)
from generation.noun_phrases import Chunk, Parse, is_adverb, is_name, is_plural, tokens

__all__ = ["Verdict", "Ref", "follow_up_verdict", "is_follow_up", "references", "split_starter", "bare_form",
           "BARE", "BARE_WHY", "BARE_HOW"]


class Verdict(str, Enum):
    """Whether a question needs the conversation: certainly, possibly, or not."""

    FOLLOW_UP = "follow-up"
    UNSURE = "unsure"
    STANDALONE = "standalone"


BARE_WHY = frozenset(("why", "why so", "why is that", "why is this", "how come", "why's that", "why was that"))
BARE_HOW = frozenset(("how", "how so", "in what way", "how exactly"))
BARE = BARE_WHY | BARE_HOW | frozenset((
    "when", "where", "which", "really", "example", "examples", "for example", "for instance", "such as",
    "like what", "what else", "anything else", "tell me more", "more", "go on", "continue", "elaborate",
    "explain", "explain more", "explain further", "more details", "details", "and", "and then", "then what",
    "meaning", "source", "citation", "why not", "say more", "more please", "can you elaborate",
    "could you elaborate", "what do you mean", "in what sense",
))
_CONJ_STARTERS = re.compile(r"^(?P<s>and|but|or|also|so|plus|then)\b[\s,]*(?P<rest>.*)$", re.I | re.S)
_FRAGMENT_STARTERS = re.compile(
    r"^(?P<s>(?:(?:and|but|or|so)\s+)?(?:what|how)\s+about|what\s+of|(?:and\s+)?(?:the\s+)?same\s+(?:question\s+|"
    r"thing\s+)?for|(?:and|but|or)\s+(?:also\s+)?(?:for|in|on|with|without|at|after|before|during|under|of))\b"
    r"[\s,]*(?P<rest>.*)$", re.I | re.S)
_RELATIVES = frozenset(("that", "which", "who", "whom", "whose"))


class Ref(NamedTuple):
    """A reference whose noun is missing, at token indices [start, end)."""

    start: int
    end: int
    kind: str  # it | its | they | they_agent | their | this | this_np | one | ordinal | which_one | fail
    noun: str = ""  # the noun phrase after "its"/"their"/"this", or the ordinal word
    plural: bool = False
    sure: bool = True  # False: the question may stand alone all the same (an unsure verdict)


def bare_form(question: str) -> str:
    """The question lower-cased, punctuation dropped: the key of :data:`BARE`."""
    return " ".join(re.sub(r"[^\w\s']", " ", question.lower()).split())


# --------------------------------------------------------------------------------------------------------------
# Clauses and antecedents
# --------------------------------------------------------------------------------------------------------------

def _that_points(parse: Parse, i: int) -> bool:
    """Whether the "that" at ``i`` points at something (demonstrative), rather than opening a clause."""
    toks, lows, n = parse.toks, parse.lows, len(parse.toks)
    prev = lows[i - 1] if i else None
    nxt = lows[i + 1] if i + 1 < n else None
    if nxt is None or prev is None:
        return True
    return (prev in WH or prev in AUX or prev in PREP or prev in ("and", "but", "so", "or")
            or ((prev in VERBS or prev in DUAL or prev.endswith("ed")) and prev not in SAY_VERBS
                and nxt not in ARTICLES and nxt not in PRON and not is_name(toks[i + 1])))


def _starts_clause(parse: Parse, i: int) -> bool:
    """Whether a new clause opens at token ``i`` (the rules of the module docstring)."""
    lows, n = parse.lows, len(parse.toks)
    low, prev = lows[i], lows[i - 1]
    nxt = lows[i + 1] if i + 1 < n else None
    if low == "that":
        return not _that_points(parse, i)
    if low in WH:
        return prev not in WH
    if low in SUBORDINATORS:
        return low in CONJ or (nxt in SUBJECT_PRON and i + 2 < n)
    if low in ("and", "or", "but"):
        return nxt is not None and (nxt in WH or nxt in AUX)
    if low in SUBJECT_PRON and nxt is not None:  # "the XML files it finds", "does Amazon say it faces"
        after = (parse.nounish[i - 1] or prev in ("one", "ones") or prev in SAY_VERBS)
        verb_next = not parse.nounish[i + 1] and nxt not in PREP and nxt not in ARTICLES and nxt not in CONJ
        return after and verb_next
    return False


def _clauses(parse: Parse) -> list[int]:
    """The clause number of each token: 0 for the main clause, then one more at each clause opening."""
    out, clause = [], 0
    for i in range(len(parse.toks)):
        if i and _starts_clause(parse, i):
            clause += 1
        out.append(clause)
    return out


def _singular(parse: Parse, c: Chunk) -> bool:
    """Whether "it"/"its" can stand for the phrase ``c`` or a part of it between "of"s: a singular one, or one
    holding a possessor ("the patterns of *a MIME type*", "*an AI system's* risks")."""
    return any(not is_plural(parse.phrase(g.start, g.end)) for g in c.segments) \
        or any(parse.lows[k].endswith("'s") for k in range(c.start, c.end))


def _plural(parse: Parse, c: Chunk, chunks: list[Chunk]) -> bool:
    """Whether "they"/"their" can stand for ``c`` or a part of it: plural, naming people, or coordinated
    ("Kingma and Ba")."""
    if any(is_plural(parse.phrase(g.start, g.end)) or parse.lows[g.head] in PEOPLE_NOUNS for g in c.segments):
        return True
    return any((d.start == c.end + 1 or c.start == d.end + 1) and parse.lows[min(c.end, d.end)] == "and"
               for d in chunks if d is not c)


def _agrees(parse: Parse, c: Chunk, low: str) -> bool:
    if low in ("it", "it's", "its"):
        return _singular(parse, c)
    if low in ("he", "she", "him", "his", "her", "hers"):
        return c.named and not is_plural(parse.phrase(c.start, c.end))
    return _plural(parse, c, parse.chunks)


def _is_doc(parse: Parse, c: Chunk) -> bool:
    """Whether ``c`` is the document itself ("the paper"), not its authors."""
    head = parse.lows[c.segments[0].head]
    return head in DOC_NOUNS and head not in PEOPLE_NOUNS


def _bound_pronoun(parse: Parse, clauses: list[int], i: int) -> bool:
    """Whether "it"/"they"/"them"/"he"... at ``i`` has an antecedent outside its own clause, earlier."""
    own = clauses[i]
    opener = next(k for k in range(i, -1, -1) if k == 0 or clauses[k - 1] < own)  # where its clause opens
    for c in parse.chunks:
        if c.end > i or clauses[c.start] >= own or not _agrees(parse, c, parse.lows[i]):
            continue
        if c.end == opener and (parse.lows[opener] in _RELATIVES or opener == i):
            continue  # "the layer that feeds it", "the files it finds": the head is the clause's other argument
        return True
    return False


def _possessive(parse: Parse, i: int) -> bool | None:
    """For "its"/"their"/"his"/"her" at ``i``: True bound, None bound only to the document, False not bound."""
    low, found = parse.lows[i], []
    for c in parse.chunks:
        if c.end <= i:
            if c.end == i - 1 and parse.lows[i - 1] == "of":
                continue  # "the default value of its rate": not the phrase the possessive is part of
            if _agrees(parse, c, low):
                found.append(c)
        elif c.start > i + 1 and c.after_do and c.named and _agrees(parse, c, low):
            return True  # "how many shares of its stock did Apple repurchase?"
    if not found:
        return False
    return None if all(_is_doc(parse, c) for c in found) else True


def _expletive(lows: list[str], i: int) -> bool:
    """An "it" that stands for nothing: "is it possible to ...", "how long does it take to ...", "why is it that"."""
    if i and lows[i - 1] in AUX and i + 2 < len(lows) and lows[i + 1] == "that":
        return True  # a cleft: "why is it that Adam needs bias correction?"
    for k in range(i + 1, min(i + 5, len(lows))):
        if lows[k] in EXPLETIVE_ADJ or lows[k] in EXPLETIVE_VERBS:
            return any(w in COMPLEMENT for w in lows[k + 1:k + 4])
    return False


def _agentive(lows: list[str], i: int) -> bool:
    """ "they use", "did they report", "they then chose": "they" doing what authors or a company do."""
    k = i + 1
    while k < len(lows) and is_adverb(lows[k]):
        k += 1
    return k < len(lows) and lows[k] in AGENT_VERBS


def _demonstrative(parse: Parse, i: int) -> Ref | None:
    """A reference made with this/that/these/those at token ``i``, or None (relative "that", "this paper")."""
    lows, n = parse.lows, len(parse.toks)
    low = lows[i]
    prev = lows[i - 1] if i else None
    nxt = lows[i + 1] if i + 1 < n else None
    plural = low in ("these", "those")
    if low == "that" and not _that_points(parse, i):
        return None  # "the layer that maps ...", "does the paper say that ..."
    if nxt is None:
        if prev in COPULA and low in ("this", "these"):  # "what version of the specification is this?"
            earlier = [c for c in parse.chunks if c.end < i]
            words = {parse.lows[k] for c in earlier for k in range(c.start, c.end)}
            if words & (DOC_NOUNS | DOC_ATTRIBUTES):
                return None
            if any(c.wh for c in earlier):
                return Ref(i, i + 1, "this", plural=plural, sure=False)  # "what method is this?"
        return Ref(i, i + 1, "this", plural=plural)  # "who proposed that?"
    if nxt in DOC_NOUNS and not (i + 2 >= n and prev in AUX):
        return None  # "this paper", "this framework": the document itself
    if low in ("this", "these") and nxt in TIME_NOUNS:
        return None  # "this quarter": the period the document reports on
    inverted_verb = prev in AUX and i + 2 >= n  # "how does this work?", "is this mandatory?"
    if nxt in ("other", "same", "latter", "former"):
        return Ref(i, i + 2, "fail")  # "that other approach" is precisely not the topic
    if nxt in STATEMENT or (nxt in ("mean", "means", "imply", "implies") and not plural):
        return Ref(i, i + 1, "fail")  # "is that true?", "what does that mean?": about the answer, not a thing
    if parse.nounish[i + 1] and not inverted_verb:
        end = parse.run(i + 1)
        return Ref(i, end, "this_np", parse.span(i + 1, end), plural=plural)
    return Ref(i, i + 1, "this", plural=plural)


# --------------------------------------------------------------------------------------------------------------
# References
# --------------------------------------------------------------------------------------------------------------

def references(parse: Parse) -> list[Ref]:
    """The references in a question that its own words do not resolve (rule 3 of the module docstring)."""
    toks, lows, n = parse.toks, parse.lows, len(parse.toks)
    clauses = _clauses(parse)
    refs: list[Ref] = []
    i = 0
    while i < n:
        low = lows[i]
        prev = lows[i - 1] if i else None
        nxt = lows[i + 1] if i + 1 < n else None
        if low in ("it", "it's"):
            if _expletive(lows, i) or _bound_pronoun(parse, clauses, i):
                pass
            elif nxt in STATEMENT and prev in AUX and i + 2 >= n:
                refs.append(Ref(i, i + 1, "fail"))  # "is it true?"
            else:
                says = nxt in DOC_VERBS and (prev is None or prev in DO_MODAL or clauses[i] == 0)
                refs.append(Ref(i, i + 1, "it", sure=not says))  # "what does it say ...?" may be the document
        elif low in ("they", "them"):
            if _bound_pronoun(parse, clauses, i):
                pass
            elif low == "they" and _agentive(lows, i):  # the authors, or people the last answer named
                refs.append(Ref(i, i + 1, "they_agent", plural=True, sure=False))
            else:
                refs.append(Ref(i, i + 1, "they", plural=True))
        elif low in ("its", "their"):
            end = parse.run(i + 1) if i + 1 < n else i + 1
            bound = _possessive(parse, i)
            if bound is True:
                pass  # "how does Adam compute its step size?"
            elif end == i + 1:
                refs.append(Ref(i, i + 1, "it" if low == "its" else "they", plural=low == "their",
                                sure=bound is False))
            else:
                refs.append(Ref(i, end, low, parse.span(i + 1, end), plural=low == "their", sure=bound is False))
                i = end
                continue
        elif low in ("this", "that", "these", "those"):
            ref = _demonstrative(parse, i)
            if ref is not None:
                refs.append(ref)
                i = ref.end
                continue
        elif low == "the" and nxt in ORDINALS:
            after = i + 2
            if after < n and lows[after] in ("one", "ones"):
                if not (after + 1 < n and lows[after + 1] == "of"):  # "the second one of the four functions"
                    refs.append(Ref(i, after + 1, "ordinal", nxt, plural=True))
                i = after + 1
                continue
            if nxt in ("former", "latter"):
                refs.append(Ref(i, i + 2, "fail"))
            elif after >= n or not parse.nounish[after]:
                refs.append(Ref(i, i + 2, "ordinal", nxt, plural=True))  # "and the first?"
        elif low == "the" and nxt in ("others", "rest", "same"):
            refs.append(Ref(i, i + 2, "fail"))
        elif low in ("which", "each") and nxt in ("one", "ones"):
            if not (i + 2 < n and lows[i + 2] == "of"):  # "which one of the functions ..." names its set
                refs.append(Ref(i, i + 2, "which_one", low, plural=True))
            i += 2
            continue
        elif low in ("one", "ones") and i and parse.nounish[i - 1] and nxt != "of" \
                and not any(c.isdigit() for c in toks[i - 1].text):
            start = i - 1  # "the big one": the adjectives before "one" are kept
            while start > 0 and parse.nounish[start - 1]:
                start -= 1
            refs.append(Ref(start, i + 1, "one", parse.span(start, i), plural=low == "ones"))
        elif low in ("his", "her", "hers"):
            if _possessive(parse, i) is not True:
                refs.append(Ref(i, i + 1, "fail"))
        elif low in ("he", "she", "him"):
            if not _bound_pronoun(parse, clauses, i):
                refs.append(Ref(i, i + 1, "fail"))
        elif low == "so" and prev in ("do", "does", "did", "doing"):
            refs.append(Ref(i - 1, i + 1, "fail"))
        elif low == "else" and prev in ("what", "who", "anything", "something", "which", "where", "how"):
            refs.append(Ref(i, i + 1, "fail"))
        i += 1
    return refs


def split_starter(question: str) -> tuple[str, str, bool] | None:
    """(starter, rest, rest_is_fragment) for an elliptical start ("what about X", "and X"), else None."""
    m = _FRAGMENT_STARTERS.match(question)
    if m:
        return m.group("s"), m.group("rest"), True
    m = _CONJ_STARTERS.match(question)
    if m:
        rest = m.group("rest")
        rest_toks = tokens(rest)
        full = bool(rest_toks) and (rest_toks[0].low in WH or rest_toks[0].low in AUX
                                    or rest_toks[0].low in ("tell", "explain", "describe", "define", "list"))
        return m.group("s"), rest, not full
    toks = tokens(question)
    if toks and toks[0].low in PREP and not any(t.low in WH or t.low in AUX for t in toks):
        return "", question, True  # "for the big model?"
    return None


def follow_up_verdict(question: str) -> Verdict:
    """Whether ``question`` needs the conversation: certainly, possibly or not (rules in the module docstring).

    Examples
    --------
    >>> [follow_up_verdict(q).value for q in ("why?", "and for the big model?", "what are their names?")]
    ['follow-up', 'follow-up', 'follow-up']
    >>> [follow_up_verdict(q).value for q in ("What version of the specification is this?",
    ...                                       "How long does it take to train the big model?",
    ...                                       "What optimizer did they use to train the Transformer?")]
    ['standalone', 'standalone', 'unsure']
    """
    text = " ".join(str(question).split())
    if not text:
        return Verdict.STANDALONE
    if bare_form(text) in BARE:
        return Verdict.FOLLOW_UP
    split = split_starter(text)
    if split is not None:
        _, rest, fragment = split
        if fragment or not rest.strip():
            return Verdict.FOLLOW_UP
        text = rest
    refs = references(Parse(text))
    if any(r.sure for r in refs):
        return Verdict.FOLLOW_UP
    return Verdict.UNSURE if refs else Verdict.STANDALONE


def is_follow_up(question: str) -> bool:
    """Whether ``question`` may lean on an earlier exchange: its verdict is a follow-up or unsure.

    Examples
    --------
    >>> is_follow_up("who proposed it?"), is_follow_up("and for the big model?"), is_follow_up("why?")
    (True, True, True)
    >>> is_follow_up("What learning rate does Adam use?"), is_follow_up("Is following this framework mandatory?")
    (False, False)
    >>> is_follow_up("How should organisations decide how much risk they are willing to accept?")
    False
    """
    return follow_up_verdict(question) is not Verdict.STANDALONE
