"""Follow-up questions by deterministic rules (no LLM): detection, topics and local rewriting.

A user who asked "What is Adam?" may go on with "who proposed it?". Retrieval cannot find "it", so the follow-up
is rewritten into a standalone question ("who proposed Adam?") before it is searched and answered. This module
holds the rule-based part: :func:`is_follow_up` tells whether a question leans on an earlier exchange,
:func:`rewrite_local` rewrites it from the last exchange (a :class:`Turn`) and :func:`topic_of` gives an
exchange's subject. The conversation memory, the LLM rewriter and ``resolve``, which ties them together, are in
:mod:`generation.conversation` (which re-exports these names).

Follow-up detection (:func:`is_follow_up`)
------------------------------------------
A question is a follow-up when it cannot stand alone, that is when it has one of:

1. A *bare* form with no content of its own: "why?", "how?", "how so?", "why is that?", "what else?", "tell me
   more", "for example?", "and?"...
2. An *elliptical starter* followed by a fragment: "what about ...", "how about ...", "what of ...", "same for ...",
   and "and / but / or / also / so ..." when what follows is not a full question ("and for the big model?"); a
   fragment starting with a preposition and holding no question word or auxiliary ("for the big model?").
   "And what is the NIST AI RMF?" is a full question after the "and": it is judged on that question alone.
3. A *reference* whose noun is missing:

   - "it", "its", "they", "them", "their" — except when bound inside the question itself: a clause subject after
     a noun ("words it hasn't produced", "if it has no recurrence") or "its" after a name ("how does Adam compute
     its step size?"); and except the expletive "it" ("is it possible to ...", "how long does it take to ...",
     "does it matter whether ...").
   - "this", "these", "those" alone or before a noun ("how does this method ..."), and the demonstrative "that"
     (at the end, or after a question word, auxiliary, preposition or verb: "how is that computed?", "who
     proposed that?"; not the relative or complementizer "that": "the layer that maps ...", "say that Adam ...").
   - Ordinal and "one" references: "the second one", "the first", "the last ones", "the other one", "which one",
     "the big one", "the former/latter".
   - "he", "she", "him", "her", "his", "the same", "do so", "what else".

   Document-level references are *not* follow-ups: in a product that answers from one document, "this paper",
   "this framework", "that document", "this work", "the authors" mean the document and its authors.

Local rewriting (:func:`rewrite_local`)
----------------------------------------
Only follow-ups are rewritten, and only when there is a history; it uses the most recent exchange, its standalone
question (``Turn.resolved``) and its *topic* (``Turn.topic``, see :func:`topic_of`). In order:

1. Bare "why?" / "how?" after a yes/no question become that question with "Why"/"How" in front: "Does Adam use
   bias correction?" + "why?" -> "Why does Adam use bias correction?".
2. An elliptical fragment with a reference in it has its references resolved (rule 3): "what about its memory
   cost?" -> "what about Adam's memory cost?". A fragment without one is put into the previous question, replacing
   (a) the noun phrase with the same head noun ("How many attention heads does the base model use?" + "and for
   the big model?" -> "How many attention heads does the big model use?"), else (b) the noun phrase after the same
   preposition ("... achieve on WMT 2016 Romanian-English?" + "and on English-German?" -> "... achieve on
   English-German?"), else (c) the topic, when the fragment has no preposition and both are names or both are
   not ("What learning rate does Adam use?" + "and AdaMax?" -> "What learning rate does AdaMax use?").
3. References are substituted in place:

   - "it" -> the topic ("who proposed it?" -> "who proposed Adam?"); "its X" -> "<topic>'s X", or "the X of
     <topic>" when the topic is long ("Adam's memory cost", "the names of the four functions of ...").
   - "they" / "them" -> the topic when it is plural, else a plural noun phrase of the previous question; "their X"
     -> "the X of <that>". With neither, "they" is left as it is: it then most likely means the authors ("what
     rate did they use for it?" -> "what rate did they use for dropout?").
   - "this" / "that" alone -> the topic; "this/that/these/those X" -> the topic when X is a generic word (method,
     model, optimizer, function...) or shares a word with the topic, else the noun phrase of the previous question
     with the same head noun. "that other X" is, precisely, not the topic: unresolvable.
   - "the second one", "which one" -> "the second one of <plural topic>" ("what does the second one cover?" ->
     "what does the second one of the four functions of the AI RMF core cover?"); "the big one" -> "the big
     <topic's head noun>" ("the Transformer's base model" + "what about the big one?" -> "what about the big
     model?").

4. When any reference cannot be resolved this way (a singular topic for "the second one", "is that true?", "what
   does that mean?", "he", "the same"...), or the fragment fits nowhere, the question is kept as asked and the
   topic appended: "<question> (about <topic>)". That still gives retrieval the subject's words.

The topic (:func:`topic_of`) of an exchange is taken from its standalone question: the X of a definition ("what
is X", "what are X", "who is X", "define / explain / describe X", "what does X mean / stand for", "tell me about
X"), else the subject after the auxiliary ("What learning rate does *Adam* use?", "How many attention heads does
*the base model* use?"), else the first noun phrase holding a name (capitals or digits: "What value was used for
*the Adam beta2 hyperparameter*?", "GOVERN 1.7"), else the first noun phrase. The phrase a question word asks for
("*which norm* does ...") is not the topic either: when the question has no other noun phrase ("What optimizer
did they use?"), the topic is taken from the answer (its first noun phrase with a name, else its first), and only
without an answer is it the phrase asked for. An appended "(about X)" carries X over, so a
chain of follow-ups keeps its subject. Noun phrases are runs of words that are neither function words nor known
verbs, joined by "of"; there is no tagger, so the rules are heuristics.

Everything here is deterministic: the same question and history always give the same rewrite.

Known limitations of the local rules (the LLM rewriter handles these; ``tests/test_conversation.py`` pins them as
expected failures)
-------------------------------------------------------------------------------------------------------------------
* A reference to something the *answer* introduced resolves to the question's topic: "Which optimizer did the
  Transformer use?" (answer: Adam) + "what were its parameters?" -> "the Transformer's parameters".
* A person in the answer cannot be referred to: "he", "she" only append the topic.
* Ellipsis needing reasoning is tagged, not rewritten: "Is the same true for AdaMax?", "and for English-German?"
  when the previous question used another preposition, "why?" after a wh-question.
* "what about X?" replaces the topic, which may not be the phrase the user meant to swap: "How does Adam compare
  to RMSProp?" + "what about AdaGrad?" -> "How does AdaGrad compare to RMSProp?".
* A second question joined by "and" is not bound to the first: "Why does Adam need bias correction and how is it
  computed?" is taken as a follow-up, "it" -> the previous topic.
* A pronoun meaning the document's subject rather than the last exchange ("How does it cope when the objective
  keeps changing?", asked about the Adam paper after a question on AdaMax) gets the last topic.
* Number agreement is not fixed: "what does it cover?" after a plural topic -> "what does the four functions of
  the AI RMF core cover?".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from retrieval.tokenize import tokenize

__all__ = ["Turn", "is_follow_up", "rewrite_local", "topic_of"]

# --------------------------------------------------------------------------------------------------------------
# Exchanges
# --------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Turn:
    """One exchange of a conversation.

    Attributes
    ----------
    question : str
        As the user asked it.
    resolved : str
        The standalone question that was searched and answered (``question`` itself when it stood alone).
    answer : str
        The answer given.
    topic : str
        The exchange's main subject phrase, used to resolve later follow-ups (see :func:`topic_of`).
    """

    question: str
    resolved: str
    answer: str
    topic: str

    @classmethod
    def from_exchange(cls, question: str, resolved: str, answer: str) -> Turn:
        """A turn whose topic is computed from the standalone question (and the answer if it has none)."""
        return cls(question, resolved, answer, topic_of(resolved or question, answer))


# --------------------------------------------------------------------------------------------------------------
# Words
# --------------------------------------------------------------------------------------------------------------

_WH = frozenset("what which who whom whose when where why how what's whats who's where's how's".split())
_DO_MODAL = frozenset("do does did don't doesn't didn't can could should would will shall may might must can't "
                      "couldn't shouldn't wouldn't won't".split())
_AUX = _DO_MODAL | frozenset("is are was were be been being am has have had isn't aren't wasn't weren't hasn't "
                             "haven't hadn't".split())
_PREP = frozenset("of in on at for with by from to into onto about over under between during without within against "
                  "across through after before than as per via among beyond toward towards upon behind below above "
                  "besides despite except like unlike along around throughout until".split())
_ARTICLES = frozenset(("the", "a", "an"))
_DETS = frozenset("this that these those its their his her our your my each every all some any no both either "
                  "neither such another other most many much few several".split())
_CONJ = frozenset("and or but nor so yet then if whether because while although though unless since once whereas "
                  "plus".split())
_PRON = frozenset("it it's its they them their theirs he she him her his hers we us our you your i me my itself "
                  "themselves one ones there here someone something anything everything nothing anyone everyone "
                  "that's".split())
_OTHER = frozenset("not also only just very more most much many few fewer less least too still ever even else really "
                   "exactly usually typically often always never already again well better best same own instead up "
                   "down out off away back please roughly approximately actually generally currently formally "
                   "exist".split())
_FUNCTION = _WH | _AUX | _PREP | _ARTICLES | _DETS | _CONJ | _PRON | _OTHER


def _verb_forms(bases: str) -> frozenset[str]:
    forms = set()
    for v in bases.split():
        forms.add(v)
        if v.endswith(("s", "sh", "ch", "x", "o")):
            forms.add(v + "es")
        elif v.endswith("y") and v[-2:-1] not in "aeiou":
            forms.add(v[:-1] + "ies")
        else:
            forms.add(v + "s")
    return frozenset(forms)


# Verbs that are rarely nouns: never part of a noun phrase.
_VERBS = _verb_forms(
    "mean stand compare relate differ affect define describe say require get achieve perform take contain cover "
    "need produce make handle cope compute apply prevent improve reduce propose introduce address show prove "
    "converge behave include consist depend come go happen look beat outperform recommend suggest exist become "
    "mitigate manage ensure find give explain solve deal allow let keep know think assess combine connect "
    "attend predict generate encode decode translate evaluate provide represent capture lead cause add remove "
    "replace choose select pick adapt adjust initialize initialise optimize optimise minimize minimise maximize "
    "diverge fail succeed rely refer vary try ask want hold lose win cite write read build invent create develop "
    "release denote correspond comprise divide multiply normalize normalise prevent avoid guarantee assume imply "
    "claim argue note observe see consider treat view play stop learn help"
) | frozenset("made done written known given taken found built chosen shown seen came wrote got led held began "
              "became brought thought left meant sent spent told went ran won lost did".split())
# Verbs that are also common nouns ("the update rule", "its memory cost"): a verb only where a verb is expected.
_DUAL = _verb_forms("use work run cost set update decay change increase start end limit bound drop mask call "
                    "support train test report design form state score rank map measure average sum scale stack "
                    "fit store schedule search process control matter mention estimate")
_SAY_VERBS = _verb_forms("say state claim argue note show prove suggest find mean imply assume ensure guarantee "
                         "report observe think know") | frozenset("said stated claimed argued noted showed shown "
                                                                  "proved proven suggested found meant implied "
                                                                  "assumed ensured guaranteed reported observed "
                                                                  "thought known".split())

_ORDINALS = frozenset("first second third fourth fifth sixth seventh eighth ninth tenth last final next other "
                      "previous former latter".split())
_NUMBER_WORDS = frozenset("two three four five six seven eight nine ten eleven twelve several multiple both".split())
# Nouns naming the document or its authors: "this paper" is the document, not the previous topic.
_DOC_NOUNS = frozenset("paper papers document documents framework report work study article publication text pdf "
                       "book chapter section author authors writers playbook guide guidance".split())
# Nouns general enough that "this X" means the previous topic, whatever X is.
_GENERIC_NOUNS = frozenset("method methods approach approaches technique techniques algorithm algorithms optimizer "
                           "optimizers optimiser optimisers model models architecture architectures mechanism "
                           "mechanisms function functions thing things idea ideas concept concepts term terms process "
                           "processes variant variants component components procedure procedures strategy strategies "
                           "scheme schemes system systems tool tools metric metrics property properties feature "
                           "features trick tricks step steps rule rules operation operations module modules category "
                           "categories characteristic characteristics value values parameter parameters "
                           "hyperparameter hyperparameters setting settings definition definitions principle "
                           "principles practice practices one ones option options idea aspect aspects".split())
_EXPLETIVE_ADJ = frozenset("possible necessary true better best worth ok okay advisable recommended required mandatory "
                           "important useful common safe hard difficult easy feasible likely fair reasonable wise "
                           "enough clear known true".split())
_EXPLETIVE_VERBS = frozenset("take takes took matter matters cost costs help helps pay pays make makes mean "
                             "means".split())
# Adjectives that end a noun phrase when they follow one: "are these values good ...", "is the optimizer stable".
_PREDICATE_ADJ = frozenset("good bad better worse true false possible necessary important useful enough sufficient "
                           "faster slower larger smaller bigger different similar correct wrong mandatory optional "
                           "required stable robust efficient effective accurate expensive cheap cheaper "
                           "impractical practical feasible infeasible invariant".split())
_COMPLEMENT = frozenset(("to", "that", "whether", "if", "for"))
_STATEMENT = frozenset("true so right correct wrong the case accurate".split())  # "is that true?" judges the answer
_BOUND_NEXT = _AUX  # "words it hasn't produced": a clause subject


# --------------------------------------------------------------------------------------------------------------
# Tokens and noun phrases
# --------------------------------------------------------------------------------------------------------------

_WORD = re.compile(r"\w(?:[\w.'\u2019-]*\w)?")


class _Tok(NamedTuple):
    text: str
    low: str
    start: int
    end: int


def _tokens(text: str) -> list[_Tok]:
    return [_Tok(m.group(), m.group().lower().replace("\u2019", "'"), m.start(), m.end())
            for m in _WORD.finditer(text)]


_NOT_ADVERBS = frozenset("family anomaly assembly supply reply early daily weekly monthly quarterly yearly "
                         "italy july".split())


def _adverb(low: str) -> bool:
    return low.endswith("ly") and len(low) > 4 and low not in _NOT_ADVERBS


def _past(low: str) -> bool:
    """A past participle by its look: "used", "accumulated" (not "speed", "embed")."""
    return low.endswith("ed") and len(low) > 3 and not low.endswith("eed") and low not in ("embed", "shed")


def _plain(low: str) -> bool:
    """A word that can only sit in a noun phrase (for looking one word ahead)."""
    return not (low in _FUNCTION or low in _VERBS or low in _DUAL or _adverb(low)
                or _past(low))


def _is_name(tok: _Tok) -> bool:
    """Capitals or digits: "Adam", "RMSProp", "AI", "GOVERN", "1.7", "β2"."""
    return tok.low != "i" and (any(c.isupper() for c in tok.text) or any(c.isdigit() for c in tok.text))


def _key(word: str) -> str:
    """A word's comparable form: its BM25 stem ("rates" and "rate" meet), or the word itself."""
    terms = tokenize(word)
    return terms[0] if terms else word.lower()


class _Segment(NamedTuple):
    start: int  # token index, an article included
    end: int  # exclusive
    head: int  # token index of the head noun (the last word)


class _Chunk(NamedTuple):
    start: int
    end: int
    segments: tuple[_Segment, ...]  # "the four functions" "of" "the AI RMF core"
    wh: bool  # right after a question word ("which norm", "how many heads"): the thing asked for, not a referent
    after_do: bool  # right after an auxiliary: the inverted subject ("does Adam use", "is the optimizer")
    named: bool


class _Parse:
    """A question's tokens, with which of them are nouns-in-a-phrase and its noun phrases."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.lows = [t.low for t in self.toks]
        self.shouting = sum(c.isupper() for c in text) > 0.6 * max(1, sum(c.isalpha() for c in text))
        self.nounish = self._nounish()
        self.chunks = self._chunks()

    def _before(self, i: int) -> int:
        """Index of the token before a phrase starting at ``i``, skipping determiners and quantifiers."""
        j = i - 1
        while j >= 0 and (self.lows[j] in _ARTICLES or self.lows[j] in _DETS):
            j -= 1
        return j

    def _nounish(self) -> list[bool]:
        out: list[bool] = []
        run_after_do = False  # inside a phrase that follows do/does/did: its first noun-or-verb word is the verb
        for i, tok in enumerate(self.toks):
            low, prev = tok.low, (self.lows[i - 1] if i else None)
            prev_nounish = bool(i) and out[i - 1]
            if (tok.text.isupper() and len(tok.text) > 1 and not self.shouting) or any(c.isdigit() for c in tok.text):
                ok = True  # "MAP", "GOVERN", "1.7": names, whatever the lowercase word means
            elif low in _FUNCTION or low in _VERBS:
                ok = False
            elif low in _PREDICATE_ADJ and prev_nounish:
                ok = False
            elif low in _DUAL:
                after_det = prev in _ARTICLES or prev in _DETS
                ok = after_det or (prev_nounish and not run_after_do)
            elif _adverb(low):
                ok = False  # "scaled differently", "formally review"
            elif _past(low) and "-" not in low and not tok.text[0].isupper():
                # "the scaled ...", "is scaled dot-product attention": an adjective; "estimates accumulated",
                # "who proposed Adam": a verb
                nxt = self.lows[i + 1] if i + 1 < len(self.toks) else None
                ok = prev in _ARTICLES or prev in _DETS or (
                    (prev is None or prev in _AUX or prev in _PREP) and nxt is not None and _plain(nxt))
            else:
                ok = True
            if ok and not prev_nounish:
                j = self._before(i)
                run_after_do = j >= 0 and self.lows[j] in _DO_MODAL
            elif not ok:
                run_after_do = False
            out.append(ok)
        return out

    def _run(self, i: int) -> int:
        """End (exclusive) of the run of noun-phrase words starting at ``i``."""
        while i < len(self.toks) and self.nounish[i]:
            i += 1
        return i

    def _chunks(self) -> list[_Chunk]:
        chunks, n, i = [], len(self.toks), 0
        while i < n:
            start = i
            word = i + 1 if self.lows[i] in _ARTICLES and i + 1 < n and self.nounish[i + 1] else i
            if not self.nounish[word]:
                i += 1
                continue
            end = self._run(word)
            segments = [_Segment(start, end, end - 1)]
            while end + 1 < n and self.lows[end] == "of":
                seg = end + 1
                word = seg + 1 if self.lows[seg] in _ARTICLES and seg + 1 < n else seg
                if not self.nounish[word]:
                    break
                end = self._run(word)
                segments.append(_Segment(seg, end, end - 1))
            before = self._before(start)
            chunks.append(_Chunk(start, end, tuple(segments),
                                 wh=before >= 0 and self.lows[before] in _WH,
                                 after_do=before >= 0 and self.lows[before] in _AUX,
                                 named=any(_is_name(self.toks[k]) for k in range(start, end))))
            i = end
        return chunks

    def span(self, i: int, j: int) -> str:
        """The original text of tokens ``i`` to ``j`` (exclusive)."""
        return self.text[self.toks[i].start:self.toks[j - 1].end]

    def phrase(self, i: int, j: int) -> str:
        """Like :meth:`span`, with a sentence-initial article lower-cased ("The Transformer" -> "the Transformer")."""
        text = self.span(i, j)
        if self.lows[i] in _ARTICLES and self.toks[i].text[0].isupper():
            text = text[0].lower() + text[1:]
        return text

    def chunk_at(self, i: int) -> _Chunk | None:
        for chunk in self.chunks:
            if chunk.start <= i < chunk.end:
                return chunk
        return None


def _is_plural(phrase: str) -> bool:
    """Whether a noun phrase names several things: "the four functions of ...", "attention heads", "A and B"."""
    first = re.split(r"\s+of\s+", phrase.strip(), maxsplit=1)[0]
    words = first.split()
    if not words:
        return False
    if " and " in f" {phrase} " or any(w.lower() in _NUMBER_WORDS for w in words):
        return True
    head = words[-1]
    return (head.islower() and len(head) > 3 and head.endswith("s")
            and not head.endswith(("ss", "us", "is", "'s")))


def _head_noun(phrase: str) -> str | None:
    """The common noun heading a phrase ("model" for "the Transformer's base model"); None for a name."""
    words = re.split(r"\s+of\s+", phrase.strip(), maxsplit=1)[0].split()
    head = words[-1] if words else ""
    return head if head.isalpha() and head.islower() else None


def _possessive(phrase: str) -> str | None:
    """ "Adam's", "the Transformer's"; None when the phrase is too long to read well as a possessive."""
    if len(phrase.split()) > 3 or " of " in phrase:
        return None
    return phrase + ("'" if _is_plural(phrase) else "'s")


# --------------------------------------------------------------------------------------------------------------
# Topic
# --------------------------------------------------------------------------------------------------------------

_ABOUT = re.compile(r"\(about (?P<t>[^()]+)\)\s*$")
_DEFINITIONS = (
    re.compile(r"^(?:(?:and|so)\s+)?(?P<wh>what|who)(?:\s+(?:is|are|was|were)|['\u2019]s)\s+(?P<x>.+?)[\s?.!]*$",
               re.I),
    re.compile(r"^(?:please\s+)?(?:define|explain|describe|summari[sz]e)\s+(?P<x>.+?)[\s?.!]*$", re.I),
    re.compile(r"^(?:tell me (?:more )?about|what do you know about)\s+(?P<x>.+?)[\s?.!]*$", re.I),
    re.compile(r"^what (?:does|do) (?P<x>.+?) (?:mean|stand for)[\s?.!]*$", re.I),
    re.compile(r"^what (?:is|are) meant by (?P<x>.+?)[\s?.!]*$", re.I),
)
_RELATIVE = re.compile(r"\s+(?:that|which|who|whom|where|when|if|whether|used|according)\s+.*$|\s*[,;:(].*$", re.I)


def _definition_subject(text: str) -> str | None:
    for pattern in _DEFINITIONS:
        m = pattern.match(text)
        if not m:
            continue
        x = _RELATIVE.sub("", m.group("x")).strip(" \"'\u201c\u201d")
        parse = _Parse(x)
        if not parse.toks or len(parse.toks) > 12:
            return None
        first = parse.toks[0]
        if first.low not in _ARTICLES and first.low not in ("its", "their") and not parse.nounish[0]:
            return None  # "what is used for ...", "what is not ..."
        if m.groupdict().get("wh", "").lower() == "who" and first.low not in _ARTICLES and not _is_name(first):
            return None  # "who is responsible for ..." asks for a person, it names none
        if any(low in ("it", "they", "them", "this", "that", "these", "those") for low in parse.lows):
            return None
        return parse.phrase(0, len(parse.toks))
    return None


def topic_of(question: str, answer: str = "") -> str:
    """The main subject phrase of an exchange, to resolve later follow-ups (rules in the module docstring).

    Examples
    --------
    >>> topic_of("What are the four functions of the AI RMF core?")
    'the four functions of the AI RMF core'
    >>> topic_of("What learning rate does Adam use?")
    'Adam'
    >>> topic_of("How many attention heads does the base model use?")
    'the base model'
    """
    text = " ".join(question.split())
    about = _ABOUT.search(text)
    if about:
        return about.group("t").strip()
    subject = _definition_subject(text)
    if subject:
        return subject
    parse = _Parse(text)
    chunks = [c for c in parse.chunks if not c.wh]
    if not chunks:
        # Only the thing asked for ("What optimizer did they use?"): the answer names it. A statement's subject
        # comes first: the answer's first noun phrase with a name, else its first one.
        sentence = _Parse(re.split(r"(?<=[.!?])\s", " ".join(answer.split()), maxsplit=1)[0])
        for choice in ([c for c in sentence.chunks if c.named], sentence.chunks, parse.chunks):
            if choice:
                source = sentence if choice is not parse.chunks else parse
                return source.phrase(choice[0].start, choice[0].end)
        return ""
    subjects = [c for c in chunks if c.after_do]
    for choice in ([c for c in subjects if c.named], subjects, [c for c in chunks if c.named], chunks):
        if choice:
            chunk = choice[0]
            return parse.phrase(chunk.start, chunk.end)
    return ""  # unreachable: `chunks` is not empty


# --------------------------------------------------------------------------------------------------------------
# Follow-up detection
# --------------------------------------------------------------------------------------------------------------

_BARE_WHY = frozenset(("why", "why so", "why is that", "why is this", "how come", "why's that", "why was that"))
_BARE_HOW = frozenset(("how", "how so", "in what way", "how exactly"))
_BARE = _BARE_WHY | _BARE_HOW | frozenset((
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


class _Ref(NamedTuple):
    start: int  # token indices [start, end)
    end: int
    kind: str  # it | its | they | their | this | this_np | ordinal | which_one | fail
    noun: str = ""  # the noun phrase after "its"/"their"/"this", or the ordinal word
    plural: bool = False


def _bare(question: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", question.lower()).split())


def _references(parse: _Parse) -> list[_Ref]:
    """The references in a question whose noun is missing (rule 3 of the module docstring)."""
    toks, lows, n = parse.toks, parse.lows, len(parse.toks)
    refs: list[_Ref] = []

    def earlier_chunks(i: int) -> list[_Chunk]:
        return [c for c in parse.chunks if c.end <= i and not c.wh]

    def noun_after(i: int) -> int:
        """End of the noun phrase starting at ``i`` (``i`` if there is none)."""
        return parse._run(i) if i < n else i

    i = 0
    while i < n:
        low = lows[i]
        prev = lows[i - 1] if i else None
        nxt = lows[i + 1] if i + 1 < n else None
        if low in ("it", "it's"):
            if _expletive(lows, i):
                pass
            elif any(w in _STATEMENT for w in lows[i + 1:i + 2]) and prev in _AUX and i + 2 >= n:
                refs.append(_Ref(i, i + 1, "fail"))  # "is it true?"
            elif prev not in _AUX and prev not in _WH and prev is not None and nxt in _BOUND_NEXT \
                    and earlier_chunks(i):
                pass  # "words it hasn't produced": bound to "words"
            elif prev in _CONJ and prev not in ("and", "or", "but", "so") and earlier_chunks(i):
                pass  # "if it has no recurrence"
            else:
                refs.append(_Ref(i, i + 1, "it"))
        elif low in ("they", "them"):
            if low == "they" and prev is not None and prev not in _AUX and prev not in _WH \
                    and (nxt in _BOUND_NEXT or prev in _CONJ) and earlier_chunks(i):
                pass
            else:
                refs.append(_Ref(i, i + 1, "they", plural=True))
        elif low in ("its", "their"):
            end = noun_after(i + 1)
            if any(c.named for c in earlier_chunks(i)):
                pass  # "how does Adam compute its step size?"
            elif end == i + 1:
                refs.append(_Ref(i, i + 1, "it" if low == "its" else "they", plural=low == "their"))
            else:
                refs.append(_Ref(i, end, low, parse.span(i + 1, end), plural=low == "their"))
                i = end
                continue
        elif low in ("this", "that", "these", "those"):
            ref = _demonstrative(parse, i)
            if ref is not None:
                refs.append(ref)
                i = ref.end
                continue
        elif low == "the" and nxt in _ORDINALS:
            after = i + 2
            if after < n and lows[after] in ("one", "ones"):
                refs.append(_Ref(i, after + 1, "ordinal", nxt, plural=True))
                i = after + 1
                continue
            if nxt in ("former", "latter"):
                refs.append(_Ref(i, i + 2, "fail"))
            elif after >= n or not parse.nounish[after]:
                refs.append(_Ref(i, i + 2, "ordinal", nxt, plural=True))  # "and the first?"
        elif low == "the" and nxt in ("others", "rest", "same"):
            refs.append(_Ref(i, i + 2, "fail"))
        elif low in ("which", "each") and nxt in ("one", "ones"):
            refs.append(_Ref(i, i + 2, "which_one", low, plural=True))
            i += 2
            continue
        elif low in ("one", "ones") and i and parse.nounish[i - 1] and nxt != "of" \
                and not any(c.isdigit() for c in toks[i - 1].text):
            start = i - 1  # "the big one": the adjectives before "one" are kept
            while start > 0 and parse.nounish[start - 1]:
                start -= 1
            refs.append(_Ref(start, i + 1, "one", parse.span(start, i), plural=low == "ones"))
        elif low in ("he", "she", "him", "her", "his", "hers"):
            refs.append(_Ref(i, i + 1, "fail"))
        elif low == "so" and prev in ("do", "does", "did", "doing"):
            refs.append(_Ref(i - 1, i + 1, "fail"))
        elif low == "else" and prev in ("what", "who", "anything", "something", "which", "where", "how"):
            refs.append(_Ref(i, i + 1, "fail"))
        i += 1
    return refs


def _expletive(lows: list[str], i: int) -> bool:
    """An "it" that stands for nothing: "is it possible to ...", "how long does it take to ..."."""
    for k in range(i + 1, min(i + 5, len(lows))):
        if lows[k] in _EXPLETIVE_ADJ or lows[k] in _EXPLETIVE_VERBS:
            return any(w in _COMPLEMENT for w in lows[k + 1:k + 4])
    return False


def _demonstrative(parse: _Parse, i: int) -> _Ref | None:
    """A reference made with this/that/these/those at token ``i``, or None (relative "that", "this paper")."""
    toks, lows, n = parse.toks, parse.lows, len(parse.toks)
    low = lows[i]
    prev = lows[i - 1] if i else None
    nxt = lows[i + 1] if i + 1 < n else None
    plural = low in ("these", "those")
    if low == "that" and nxt is not None and prev is not None:
        pointing = (prev in _WH or prev in _AUX or prev in _PREP or prev in ("and", "but", "so", "or")
                    or ((prev in _VERBS or prev in _DUAL or prev.endswith("ed")) and prev not in _SAY_VERBS
                        and nxt not in _ARTICLES and nxt not in _PRON and not _is_name(toks[i + 1])))
        if not pointing:
            return None  # "the layer that maps ...", "does the paper say that ..."
    if nxt is None:
        return _Ref(i, i + 1, "this", plural=plural)  # "who proposed that?"
    if nxt in _DOC_NOUNS and not (i + 2 >= n and prev in _AUX):
        return None  # "this paper", "this framework": the document itself
    inverted_verb = prev in _AUX and i + 2 >= n  # "how does this work?", "is this mandatory?"
    if nxt in ("other", "same", "latter", "former"):
        return _Ref(i, i + 2, "fail")  # "that other approach" is precisely not the topic
    if nxt in _STATEMENT or (nxt in ("mean", "means", "imply", "implies") and not plural):
        return _Ref(i, i + 1, "fail")  # "is that true?", "what does that mean?": about the answer, not a thing
    if parse.nounish[i + 1] and not inverted_verb:
        end = parse._run(i + 1)
        return _Ref(i, end, "this_np", parse.span(i + 1, end), plural=plural)
    return _Ref(i, i + 1, "this", plural=plural)


def _split_starter(question: str) -> tuple[str, str, bool] | None:
    """(starter, rest, rest_is_fragment) for an elliptical start ("what about X", "and X"), else None."""
    m = _FRAGMENT_STARTERS.match(question)
    if m:
        return m.group("s"), m.group("rest"), True
    m = _CONJ_STARTERS.match(question)
    if m:
        rest = m.group("rest")
        rest_toks = _tokens(rest)
        full = bool(rest_toks) and (rest_toks[0].low in _WH or rest_toks[0].low in _AUX
                                    or rest_toks[0].low in ("tell", "explain", "describe", "define", "list"))
        return m.group("s"), rest, not full
    toks = _tokens(question)
    if toks and toks[0].low in _PREP and not any(t.low in _WH or t.low in _AUX for t in toks):
        return "", question, True  # "for the big model?"
    return None


def is_follow_up(question: str) -> bool:
    """Whether ``question`` leans on an earlier exchange and cannot stand alone (rules in the module docstring).

    Examples
    --------
    >>> is_follow_up("who proposed it?"), is_follow_up("and for the big model?"), is_follow_up("why?")
    (True, True, True)
    >>> is_follow_up("What learning rate does Adam use?"), is_follow_up("Is following this framework mandatory?")
    (False, False)
    """
    text = " ".join(str(question).split())
    if not text:
        return False
    if _bare(text) in _BARE:
        return True
    split = _split_starter(text)
    if split is not None:
        _, rest, fragment = split
        if fragment or not rest.strip():
            return True
        text = rest
    return bool(_references(_Parse(text)))


# --------------------------------------------------------------------------------------------------------------
# Local rewriting
# --------------------------------------------------------------------------------------------------------------

def _capitalize_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _about(question: str, topic: str) -> str:
    return f"{question} (about {topic})"


def _plural_referent(topic: str, previous: str) -> str | None:
    """What "they" stands for: the topic if plural, else a plural noun phrase of the previous question."""
    if _is_plural(topic):
        return topic
    parse = _Parse(previous)
    for chunk in parse.chunks:
        phrase = parse.phrase(chunk.start, chunk.end)
        if _is_plural(phrase):
            return phrase
    return None


def _this_np(noun: str, topic: str, topic_keys: set[str], prev: _Parse) -> str | None:
    """What "this/that/these/those <noun>" stands for: the topic, a phrase of the previous question, or None."""
    words = noun.split()
    for word in words:
        if word.lower() in _GENERIC_NOUNS or _key(word) in topic_keys:
            return topic
    head = _key(words[-1])
    for chunk in prev.chunks:
        for seg in chunk.segments:
            if _key(prev.toks[seg.head].text) == head:
                return prev.phrase(seg.start, seg.end)
    return None


def _resolve_refs(text: str, topic: str, previous: str) -> str | None:
    """``text`` with every reference replaced (rule 3), or None when one of them cannot be."""
    parse = _Parse(text)
    refs = _references(parse)
    if not refs:
        return text
    prev_parse = _Parse(previous)
    topic_keys = {_key(t.text) for t in _tokens(topic)}
    plural = _plural_referent(topic, previous)
    out, cursor, resolved = [], 0, 0
    for ref in refs:
        if ref.kind in ("they", "their") and not plural:
            continue  # a singular topic: "they" most likely means the authors ("what did they train?")
        resolved += 1
        if ref.kind == "it":
            replacement = topic
        elif ref.kind == "its":
            poss = _possessive(topic)
            replacement = f"{poss} {ref.noun}" if poss else f"the {ref.noun} of {topic}"
        elif ref.kind == "they":
            replacement = plural
        elif ref.kind == "their":
            replacement = f"the {ref.noun} of {plural}" if plural else None
        elif ref.kind == "this":
            replacement = (plural or topic) if ref.plural else topic
        elif ref.kind == "this_np":
            replacement = _this_np(ref.noun, topic, topic_keys, prev_parse)
        elif ref.kind == "one":
            noun = _head_noun(topic)
            if noun and not ref.plural and _is_plural(noun):
                noun = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]  # "the big one" of "functions"
            replacement = f"{ref.noun} {noun}" if noun else None
        elif ref.kind == "ordinal":
            replacement = f"the {ref.noun} one of {plural}" if plural else None
        elif ref.kind == "which_one":
            replacement = f"{ref.noun} one of {plural}" if plural else None
        else:
            replacement = None
        if not replacement:
            return None
        start, end = parse.toks[ref.start].start, parse.toks[ref.end - 1].end
        if parse.lows[ref.end - 1] == "it's":
            replacement += " is"
        if start == 0:
            replacement = _capitalize_first(replacement)
        elif replacement[:4] in ("The ", "A ", "An "):
            replacement = replacement[0].lower() + replacement[1:]
        out.append(text[cursor:start])
        out.append(replacement)
        cursor = end
    if not resolved:
        return None
    out.append(text[cursor:])
    return "".join(out)


def _fill_previous(fragment: str, topic: str, previous: str) -> str | None:
    """``previous`` with the matching phrase replaced by ``fragment`` (rule 2 a-c), or None."""
    frag = _Parse(fragment.strip(" ?.!"))
    if not frag.toks:
        return None
    prep = frag.lows[0] if frag.lows[0] in _PREP else None
    body_start = 1 if prep else 0
    if body_start >= len(frag.toks):
        return None
    new = frag.span(body_start, len(frag.toks))
    chunk = frag.chunk_at(body_start) or frag.chunk_at(len(frag.toks) - 1)
    head_tok = frag.toks[chunk.segments[0].head] if chunk else frag.toks[-1]
    head = _key(head_tok.text)
    prev = _Parse(previous)
    new_bare = new[len(frag.toks[body_start].text) + 1:] if frag.lows[body_start] in _ARTICLES \
        and len(frag.toks) > body_start + 1 else new

    def replace(seg: _Segment) -> str:
        before = prev.lows[seg.start - 1] if seg.start else None
        text = new_bare if before in ("what", "which", "whose", "many", "much") else new
        return previous[:prev.toks[seg.start].start] + text + previous[prev.toks[seg.end - 1].end:]

    # (a) the noun phrase with the same head noun
    for c in prev.chunks:
        for seg in c.segments:
            if _key(prev.toks[seg.head].text) == head and prev.span(seg.start, seg.end).lower() != new.lower():
                return replace(seg)
    # (b) the noun phrase after the same preposition (the last one)
    if prep:
        for k in range(len(prev.toks) - 2, -1, -1):
            if prev.lows[k] == prep:
                c = prev.chunk_at(k + 1)
                if c is not None and c.start == k + 1:
                    return replace(c.segments[0] if len(c.segments) == 1 else _Segment(c.start, c.end, c.end - 1))
        return None
    # (c) the topic, when both are names or both are not
    if topic and topic.lower() in previous.lower() and frag.chunks:
        if frag.chunks[0].named == any(_is_name(t) for t in _tokens(topic)):
            at = previous.lower().index(topic.lower())
            return previous[:at] + new + previous[at + len(topic):]
    return None


def _last_topic(history: Sequence[Turn]) -> tuple[str, str]:
    """(topic, previous standalone question) from the most recent turn that has a topic."""
    for turn in reversed(history):
        previous = turn.resolved or turn.question
        topic = turn.topic or topic_of(previous, turn.answer)
        if topic:
            return topic, previous
    return "", (history[-1].resolved or history[-1].question) if history else ""


def rewrite_local(question: str, history: Sequence[Turn]) -> str:
    """``question`` rewritten to stand alone using ``history`` (oldest first), by the rules of the module docstring.

    Self-contained questions, and any question when the history is empty, come back unchanged.

    Examples
    --------
    >>> adam = [Turn.from_exchange("What is Adam?", "What is Adam?", "An optimizer.")]
    >>> rewrite_local("who proposed it?", adam)
    'who proposed Adam?'
    >>> rewrite_local("what about its memory cost?", adam)
    "what about Adam's memory cost?"
    >>> rewrite_local("What learning rate does Adam use?", adam)
    'What learning rate does Adam use?'
    """
    if not history or not is_follow_up(question):
        return question
    text = " ".join(question.split())
    topic, previous = _last_topic(history)
    if not topic:
        return question
    bare = _bare(text)
    if bare in _BARE_WHY or bare in _BARE_HOW:  # rule 1
        prev_toks = _tokens(previous)
        if prev_toks and prev_toks[0].low in _AUX and not prev_toks[0].low.endswith("n't"):
            word = "Why" if bare in _BARE_WHY else "How"
            return f"{word} {previous[0].lower()}{previous[1:]}"
        return _about(text, topic)
    if bare in _BARE:
        return _about(text, topic)
    split = _split_starter(text)
    if split is not None:
        starter, rest, fragment = split
        if fragment:  # rule 2
            if _references(_Parse(rest)):
                resolved = _resolve_refs(text, topic, previous)
                return resolved if resolved else _about(text, topic)
            fragment_text = rest
            m = re.match(r"^(?:and|but|or)\s+(?:also\s+)?", starter, re.I)
            if m and starter[m.end():].strip():  # "and for" + "the big model": the preposition is the fragment's
                fragment_text = f"{starter[m.end():].strip()} {rest}"
            filled = _fill_previous(fragment_text, topic, previous)
            return _capitalize_first(filled) if filled else _about(text, topic)
        text = _capitalize_first(rest.strip())  # "and what does it stand for?": the "and" adds nothing
    resolved = _resolve_refs(text, topic, previous)  # rule 3
    return resolved if resolved else _about(" ".join(question.split()), topic)  # rule 4
