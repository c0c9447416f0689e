"""Words that point at the document itself, left out of what is searched.

People name the document they ask about: "What was Amazon's gross margin *in the most recent 10-Q filing*?",
"*According to the framework*, ...", "*In this paper*, how ...". Searching those words finds the passages that name
the document (a filing's certifications, cover page and exhibit index say "Quarterly Report on Form 10-Q" and
little else; a paper's abstract says "in this paper") instead of the answer. Every question is searched only within
the documents chosen, so a phrase that refers to one of them adds nothing but noise, and is removed from the
searched text when it is a prepositional phrase ending in a document noun ("in", "from", "according to", "as
reported in" ... "the latest 10-Q", "its Q3 2023 10-Q", "this paper", "the report"). The question shown and
answered is never changed.

>>> document_free("What was Amazon's gross margin in the most recent 10-Q filing?")
"What was Amazon's gross margin?"
>>> document_free("In Amazon's Q3 2023 10-Q, how do inventory levels relate to supply chain strategy?")
'How do inventory levels relate to supply chain strategy?'
>>> document_free("How does the framework define risk?")
'How does the framework define risk?'
"""

from __future__ import annotations

import re

_DOCUMENT = (r"(?:10-?[QK](?:/A)?|8-K|20-F|S-1|(?:quarterly|annual|interim) reports?|"
             r"filings?|reports?|paper|article|document|publication|framework|specification|spec|manual|guide|"
             r"study|white ?paper|standard|handbook|text|pdf)")
_OWNER = r"(?:(?:the|this|that|these|its|their|his|her|our|your|[A-Z][\w.&-]*(?:'s|’s|s'))\s+)?"
_MODIFIERS = (r"(?:(?:latest|most recent|recent|current|last|newest|new|original|same|above|present|quarterly|"
              r"annual|fiscal|form|q[1-4]|fy\s?\d{2,4}|\d{4}|first|second|third|fourth|quarter|year|"
              r"(?:19|20)\d\d)[\s,]+)*")
_LEAD = (r"(?:in|from|within|according to|per|based on|as (?:stated|reported|disclosed|described|mentioned|"
         r"outlined|noted|presented|shown|discussed|given|published) in|(?:stated|reported|disclosed|described|"
         r"mentioned|outlined|noted|presented|shown|discussed|given|published) in)")
_PHRASE = re.compile(rf"(?<![\w-]){_LEAD}\s+{_OWNER}{_MODIFIERS}{_DOCUMENT}(?:\s+filing)?(?![\w-])", re.I)


def document_free(question: str) -> str:
    """``question`` without the phrases that refer to the document (see the module docstring); the question
    itself when nothing of it would be left."""
    stripped = _PHRASE.sub(" ", question)
    if stripped == question:
        return question
    stripped = re.sub(r"\s+([,.?!;:])", r"\1", " ".join(stripped.split()))
    stripped = re.sub(r"^[\s,;:]+", "", stripped)
    stripped = re.sub(r",\s*([?.!])$", r"\1", stripped)
    if len(re.findall(r"\w{3,}", stripped)) < 2:
        return question
    return stripped[:1].upper() + stripped[1:]
