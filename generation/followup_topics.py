"""The exchanges of a conversation (:class:`Turn`) and their topics (:func:`topic_of`), for resolving follow-ups.

The topic of an exchange is taken from its standalone question: the X of a definition ("what is X", "what are X",
"who is X", "define / explain / describe X", "what does X mean / stand for", "tell me about X"), else the subject
after the auxiliary ("What learning rate does *Adam* use?", "How many attention heads does *the base model* use?"),
else the first noun phrase holding a name (capitals or digits: "What value was used for *the Adam beta2
hyperparameter*?", "GOVERN 1.7"), else the first noun phrase. The phrase a question word asks for ("*which norm*
does ...") is not the topic either: when the question has no other noun phrase ("What optimizer did they use?"),
the topic is taken from the answer (its first noun phrase with a name, else its first), and only without an answer
is it the phrase asked for. An appended "(about X)" carries X over, so a chain of follow-ups keeps its subject, and
a definition ends at a question mark, so a follow-up joined to it ("What is AdaMax? why?") keeps it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generation.followup_words import ARTICLES
from generation.noun_phrases import Parse, is_name

__all__ = ["Turn", "topic_of"]


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
        """A turn whose topic is computed from the standalone question (and the answer if it has none).

        >>> Turn.from_exchange("who proposed it?", "who proposed Adam?", "Kingma and Ba.").topic
        'Adam'
        """
        return cls(question, resolved, answer, topic_of(resolved or question, answer))


_ABOUT = re.compile(r"\(about (?P<t>[^()]+)\)\s*$")
_DEFINITIONS = (
    re.compile(r"^(?:(?:and|so)\s+)?(?P<wh>what|who)(?:\s+(?:is|are|was|were)|['\u2019]s)\s+(?P<x>.+?)[\s?.!]*$",
               re.I),
    re.compile(r"^(?:please\s+)?(?:define|explain|describe|summari[sz]e)\s+(?P<x>.+?)[\s?.!]*$", re.I),
    re.compile(r"^(?:tell me (?:more )?about|what do you know about)\s+(?P<x>.+?)[\s?.!]*$", re.I),
    re.compile(r"^what (?:does|do) (?P<x>.+?) (?:mean|stand for)[\s?.!]*$", re.I),
    re.compile(r"^what (?:is|are) meant by (?P<x>.+?)[\s?.!]*$", re.I),
)
_RELATIVE = re.compile(r"\s+(?:that|which|who|whom|where|when|if|whether|used|according)\s+.*$|\s*[,;:(?].*$", re.I)


def _definition_subject(text: str) -> str | None:
    for pattern in _DEFINITIONS:
        m = pattern.match(text)
        if not m:
            continue
        x = _RELATIVE.sub("", m.group("x")).strip(" \"'\u201c\u201d")
        parse = Parse(x)
        if not parse.toks or len(parse.toks) > 12:
            return None
        first = parse.toks[0]
        if first.low not in ARTICLES and first.low not in ("its", "their") and not parse.nounish[0]:
            return None  # "what is used for ...", "what is not ..."
        if m.groupdict().get("wh", "").lower() == "who" and first.low not in ARTICLES and not is_name(first):
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
    >>> topic_of("What optimizer did they use?", "Adam, with β1 = 0.9 [p. 7].")
    'Adam'
    """
    text = " ".join(question.split())
    about = _ABOUT.search(text)
    if about:
        return about.group("t").strip()
    subject = _definition_subject(text)
    if subject:
        return subject
    parse = Parse(text)
    chunks = [c for c in parse.chunks if not c.wh]
    if not chunks:
        # Only the thing asked for ("What optimizer did they use?"): the answer names it. A statement's subject
        # comes first: the answer's first noun phrase with a name, else its first one.
        sentence = Parse(re.split(r"(?<=[.!?])\s", " ".join(answer.split()), maxsplit=1)[0])
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
