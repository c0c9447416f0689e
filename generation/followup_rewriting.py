"""Rewriting a follow-up into a standalone question from the last exchange, by deterministic rules (no LLM).

:func:`rewrite_local` rewrites only questions that may need the history (:func:`~generation.followup_detection.
follow_up_verdict` not ``STANDALONE``), and only when there is a history. It uses the most recent exchange, its
standalone question (``Turn.resolved``) and its topic (``Turn.topic``, see :mod:`generation.followup_topics`).
In order:

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
     -> "the X of <that>". With neither, "they" is left as it is: it then most likely means the authors. "They"
     doing what authors do ("what did they use?") is always left as it is.
   - "this" / "that" alone -> the topic; "this/that/these/those X" -> the topic when X is a generic word (method,
     model, optimizer, function...) or shares a word with the topic, else the noun phrase of the previous question
     with the same head noun. "that other X" is, precisely, not the topic: unresolvable.
   - "the second one", "which one" -> "the second one of <plural topic>"; "the big one" -> "the big <topic's
     head noun>" ("the Transformer's base model" + "what about the big one?" -> "what about the big model?").

4. When any reference cannot be resolved this way ("is that true?", "he", "the same", a singular topic for "the
   second one"), or the fragment fits nowhere, a follow-up is kept as asked with the topic appended: "<question>
   (about <topic>)". That still gives retrieval the subject's words; the product's resolver searches the previous
   question joined to the follow-up instead, which retrieves better (:func:`rewrite_with_outcome` says which
   questions the rules could not resolve, :mod:`generation.followup_resolvers` has the measurement). An *unsure*
   question is only ever rewritten by substitution (rule 3): when that fails it is kept exactly as asked.

Everything here is deterministic: the same question and history always give the same rewrite.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from generation.followup_detection import (
    BARE,
    BARE_HOW,
    BARE_WHY,
    Verdict,
    bare_form,
    follow_up_verdict,
    references,
    split_starter,
)
from generation.followup_topics import Turn, topic_of
from generation.followup_words import ARTICLES, AUX, GENERIC_NOUNS, PREP
from generation.noun_phrases import Parse, Segment, head_noun, is_name, is_plural, key, possessive, tokens

__all__ = ["rewrite_local", "rewrite_with_outcome"]


def _capitalize_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _about(question: str, topic: str) -> str:
    return f"{question} (about {topic})"


def _plural_referent(topic: str, previous: str) -> str | None:
    """What "they" stands for: the topic if plural, else a plural noun phrase of the previous question."""
    if is_plural(topic):
        return topic
    parse = Parse(previous)
    for chunk in parse.chunks:
        phrase = parse.phrase(chunk.start, chunk.end)
        if is_plural(phrase):
            return phrase
    return None


def _this_np(noun: str, topic: str, topic_keys: set[str], prev: Parse) -> str | None:
    """What "this/that/these/those <noun>" stands for: the topic, a phrase of the previous question, or None."""
    words = noun.split()
    for word in words:
        if word.lower() in GENERIC_NOUNS or key(word) in topic_keys:
            return topic
    head = key(words[-1])
    for chunk in prev.chunks:
        for seg in chunk.segments:
            if key(prev.toks[seg.head].text) == head:
                return prev.phrase(seg.start, seg.end)
    return None


def _replacement(ref, topic: str, plural: str | None, topic_keys: set[str], prev: Parse) -> str | None:
    if ref.kind == "it":
        return topic
    if ref.kind == "its":
        poss = possessive(topic)
        return f"{poss} {ref.noun}" if poss else f"the {ref.noun} of {topic}"
    if ref.kind == "they":
        return plural
    if ref.kind == "their":
        return f"the {ref.noun} of {plural}" if plural else None
    if ref.kind == "this":
        return (plural or topic) if ref.plural else topic
    if ref.kind == "this_np":
        return _this_np(ref.noun, topic, topic_keys, prev)
    if ref.kind == "one":
        noun = head_noun(topic)
        if noun and not ref.plural and is_plural(noun):
            noun = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]  # "the big one" of "functions"
        return f"{ref.noun} {noun}" if noun else None
    if ref.kind == "ordinal":
        return f"the {ref.noun} one of {plural}" if plural else None
    if ref.kind == "which_one":
        return f"{ref.noun} one of {plural}" if plural else None
    return None


def _resolve_refs(text: str, topic: str, previous: str) -> str | None:
    """``text`` with every reference replaced (rule 3), or None when one of them cannot be."""
    parse = Parse(text)
    refs = references(parse)
    if not refs:
        return text
    prev = Parse(previous)
    topic_keys = {key(t.text) for t in tokens(topic)}
    plural = _plural_referent(topic, previous)
    out, cursor, resolved = [], 0, 0
    for ref in refs:
        if ref.kind == "they_agent" or (ref.kind in ("they", "their") and not plural):
            continue  # "what did they train?": most likely the authors (only an LLM, seeing the answers, can tell)
        resolved += 1
        replacement = _replacement(ref, topic, plural, topic_keys, prev)
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
    frag = Parse(fragment.strip(" ?.!"))
    if not frag.toks:
        return None
    prep = frag.lows[0] if frag.lows[0] in PREP else None
    body_start = 1 if prep else 0
    if body_start >= len(frag.toks):
        return None
    new = frag.span(body_start, len(frag.toks))
    chunk = frag.chunk_at(body_start) or frag.chunk_at(len(frag.toks) - 1)
    head_tok = frag.toks[chunk.segments[0].head] if chunk else frag.toks[-1]
    head = key(head_tok.text)
    prev = Parse(previous)
    new_bare = new[len(frag.toks[body_start].text) + 1:] if frag.lows[body_start] in ARTICLES \
        and len(frag.toks) > body_start + 1 else new

    def replace(seg: Segment) -> str:
        before = prev.lows[seg.start - 1] if seg.start else None
        text = new_bare if before in ("what", "which", "whose", "many", "much") else new
        return previous[:prev.toks[seg.start].start] + text + previous[prev.toks[seg.end - 1].end:]

    # (a) the noun phrase with the same head noun
    for c in prev.chunks:
        for seg in c.segments:
            if key(prev.toks[seg.head].text) == head and prev.span(seg.start, seg.end).lower() != new.lower():
                return replace(seg)
    # (b) the noun phrase after the same preposition (the last one)
    if prep:
        for k in range(len(prev.toks) - 2, -1, -1):
            if prev.lows[k] == prep:
                c = prev.chunk_at(k + 1)
                if c is not None and c.start == k + 1:
                    return replace(c.segments[0] if len(c.segments) == 1 else Segment(c.start, c.end, c.end - 1))
        return None
    # (c) the topic, when both are names or both are not
    if topic and topic.lower() in previous.lower() and frag.chunks:
        if frag.chunks[0].named == any(is_name(t) for t in tokens(topic)):
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

    Standalone questions, and any question when the history is empty, come back unchanged.

    Examples
    --------
    >>> adam = [Turn.from_exchange("What is Adam?", "What is Adam?", "An optimizer.")]
    >>> rewrite_local("who proposed it?", adam)
    'who proposed Adam?'
    >>> rewrite_local("what about its memory cost?", adam)
    "what about Adam's memory cost?"
    >>> rewrite_local("What learning rate does Adam use?", adam)
    'What learning rate does Adam use?'
    >>> rewrite_local("What does it say about sparse gradients?", adam)  # unsure: substituted, never tagged
    'What does Adam say about sparse gradients?'
    """
    return rewrite_with_outcome(question, history)[0]


def rewrite_with_outcome(question: str, history: Sequence[Turn]) -> tuple[str, bool]:
    """(:func:`rewrite_local`'s rewrite, whether the rules resolved the question): False when it was left as asked
    or only tagged with its topic (rule 4), True when it was rewritten or needed no rewriting.

    >>> adam = [Turn.from_exchange("What is Adam?", "What is Adam?", "An optimizer.")]
    >>> rewrite_with_outcome("who proposed it?", adam), rewrite_with_outcome("tell me more", adam)
    (('who proposed Adam?', True), ('tell me more (about Adam)', False))
    """
    if not history:
        return question, True
    verdict = follow_up_verdict(question)
    if verdict is Verdict.STANDALONE:
        return question, True
    text = " ".join(question.split())
    topic, previous = _last_topic(history)
    if not topic:
        return question, False
    if verdict is Verdict.UNSURE:
        split = split_starter(text)
        body = _capitalize_first(split[1].strip()) if split else text
        resolved = _resolve_refs(body, topic, previous)
        return (resolved, True) if resolved else (question, False)
    bare = bare_form(text)
    if bare in BARE_WHY or bare in BARE_HOW:  # rule 1
        prev_toks = tokens(previous)
        if prev_toks and prev_toks[0].low in AUX and not prev_toks[0].low.endswith("n't"):
            word = "Why" if bare in BARE_WHY else "How"
            return f"{word} {previous[0].lower()}{previous[1:]}", True
        return _about(text, topic), False
    if bare in BARE:
        return _about(text, topic), False
    split = split_starter(text)
    if split is not None:
        starter, rest, fragment = split
        if fragment:  # rule 2
            if references(Parse(rest)):
                resolved = _resolve_refs(text, topic, previous)
                return (resolved, True) if resolved else (_about(text, topic), False)
            fragment_text = rest
            m = re.match(r"^(?:and|but|or)\s+(?:also\s+)?", starter, re.I)
            if m and starter[m.end():].strip():  # "and for" + "the big model": the preposition is the fragment's
                fragment_text = f"{starter[m.end():].strip()} {rest}"
            filled = _fill_previous(fragment_text, topic, previous)
            return (_capitalize_first(filled), True) if filled else (_about(text, topic), False)
        text = _capitalize_first(rest.strip())  # "and what does it stand for?": the "and" adds nothing
    resolved = _resolve_refs(text, topic, previous)  # rule 3
    return (resolved, True) if resolved else (_about(" ".join(question.split()), topic), False)  # rule 4
