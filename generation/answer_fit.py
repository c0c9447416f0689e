"""Whether a sentence can answer a question, by the kind of answer the question asks for.

A sentence that is merely *about* the question's topic is no answer: "How many members sit on the committee?" is not
answered by a sentence without a number, "How long did an epoch take in seconds?" not by one without a time, "When
did NIST publish it?" not by one without a date. :func:`expect` reads the expected answer from the question's
wording, and :func:`fits` checks a sentence for it:

==============  =================================================================  ===============================
kind            asked as                                                           a fitting sentence holds
==============  =================================================================  ===============================
``percent``     "what percentage / share / proportion", "how many percent"         a ``%``, "percent", "basis points"
``quantity``    a unit asked for: "how many milliseconds", "in kilowatt-hours",    a number and one of the units
                "how much memory / electricity / time", "how long"
``money``       "how much ... cost / spend / pay / earn / revenue", "in dollars"   a currency sign or word, or a
                                                                                   number with million / billion, or
                                                                                   a table row's numbers
``count``       "how many ..."                                                     a number that is no amount of
                                                                                   money, percentage, year or
                                                                                   footnote mark "(1)"
``number``      "how much", "what value / number / size / rate / score /           a number, in digits or words
                accuracy / probability ...", "how large / fast / often"
``date``        "what year / date", "in which year", "when was / did / will ...",  a year, month, weekday, quarter,
                "by when"                                                          date or time of day ("7:15",
                                                                                   "dawn", "every spring")
``definition``  "what is X", "define X", "what does X mean", "how does ... define  the defined term's first word,
                X"                                                                 in it or its passage's headings
``other``       everything else (why, who, which, yes/no: "Does it ... how much"?)   anything
==============  =================================================================  ===============================

Only what can be read from the words is checked; "who" and "why" questions are left to the support score, since
their answers ("executive leadership", a clause without "because") take no fixed form.

>>> expect("How many gigabytes of memory does Adam need?").kind, expect("What is AdaMax?").kind
('quantity', 'definition')
>>> fits(expect("How many attention heads does the base model use?"), "We employ h = 8 parallel attention layers.")
True
>>> fits(expect("How long did one epoch take in seconds?"), "Each epoch of training took 12 hours.")
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.tokenize import tokenize

# Units a question can ask for, each with the ways a sentence writes it after a number.
_UNITS: dict[str, str] = {
    "millisecond": r"ms|msec|milliseconds?",
    "second": r"s|sec|secs|seconds?",
    "minute": r"min|mins|minutes?",
    "hour": r"h|hr|hrs|hours?",
    "day": r"days?",
    "week": r"weeks?",
    "month": r"months?",
    "year": r"years?|yrs?",
    "byte": r"bytes?|[kmgtp]i?b|(?:kilo|mega|giga|tera|peta)bytes?",
    "watt": r"[kmg]?w|(?:kilo|mega|giga)?watts?",
    "watt-hour": r"[kmg]?wh|(?:kilo|mega|giga)?watt[- ]hours?",
    "joule": r"[kmg]?j|(?:kilo|mega)?joules?",
    "page": r"pages?",
    "flop": r"flops?|(?:peta|tera|giga)?flops?",
}
# Question words naming a unit, and the units they stand for.
_UNIT_WORDS: dict[str, tuple[str, ...]] = {
    **{w: ("millisecond",) for w in ("millisecond", "milliseconds", "ms")},
    **{w: ("second", "millisecond", "minute") for w in ("second", "seconds", "sec", "secs")},
    **{w: ("minute", "second", "hour") for w in ("minute", "minutes")},
    **{w: ("hour", "minute", "day") for w in ("hour", "hours")},
    **{w: ("day", "hour", "week") for w in ("day", "days")},
    **{w: ("week", "day", "month") for w in ("week", "weeks")},
    **{w: ("month", "week", "year") for w in ("month", "months")},
    **{w: ("byte",) for w in ("byte", "bytes", "kilobytes", "megabytes", "gigabytes", "terabytes", "kb", "mb",
                              "gb", "tb", "memory", "ram", "storage", "disk")},
    **{w: ("watt-hour", "joule", "watt") for w in ("kilowatt-hours", "kilowatt-hour", "kwh", "electricity",
                                                   "energy", "power", "joules", "watts")},
    **{w: ("page",) for w in ("page", "pages")},
    **{w: ("flop",) for w in ("flops", "flop")},
}
_TIME = ("second", "minute", "hour", "day", "week", "month", "year", "millisecond")
_NUMBER_WORDS = (r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fifteen|twenty|thirty|"
                 r"forty|fifty|hundred|thousand|million|billion|trillion|dozen|half|twice|double|triple|single|"
                 r"once")
# Numbers that only label a part of the document: "Table 2", "Figure 3", "Section 4.1", "[20]", "Item 1A".
_LABEL_NUMBER = re.compile(r"\b(?:fig(?:ure)?s?|tables?|sections?|sec|eqs?|equations?|chapters?|appendix|"
                           r"algorithms?|items?|notes?|parts?|exhibits?)\.?\s*[\dIVX]+[A-Z]?(?:\.\d+)*|"
                           r"\[\d+(?:\s*[,–-]\s*\d+)*\]", re.I)
_NUMBER = re.compile(rf"\d|\b(?:{_NUMBER_WORDS})\b", re.I)
_PERCENT = re.compile(r"%|\bper ?cent\b|\bpercentage points?\b|\bbasis points?\b", re.I)
_MONEY = re.compile(r"[$€£¥]|\b(?:dollars?|usd|eur|euros?|cents?|pounds sterling)\b|"
                    r"\d\s*(?:million|billion|thousand|trillion|[mbk]n?)\b", re.I)
_MONTHS = r"january|february|march|april|may|june|july|august|september|october|november|december"
_DAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|weekdays?|weekends?|daily|weekly|monthly|yearly"
_DATE = re.compile(rf"\b(?:1[5-9]|20)\d\d\b|\b(?:{_MONTHS}|{_DAYS})\b|\bq[1-4]\b|\bquarters?\b|"
                   r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*[ap]\.?m\b|"
                   r"\b(?:noon|midnight|dawn|dusk|morning|afternoon|evening|tonight|today|tomorrow|yesterday|"
                   r"annually|decades?|century|centuries|spring|summer|autumn|winter|fiscal|until|no later than|"
                   r"every \w+)\b", re.I)

_ASKS_PERCENT = re.compile(r"\b(?:percentage|percent|per cent|what share|what proportion|what fraction)\b", re.I)
_ASKS_MONEY = re.compile(
    r"\bin (?:dollars|euros|usd)\b|\bhow much (?:money|revenue|funding|income|profit)\b|"
    r"\bhow much\b.*\b(?:cost|costs|spend|spent|pay|paid|earn|earned|charge|charged|fund|funded|raise|raised)\b",
    re.I)
_ASKS_DATE = re.compile(
    r"\b(?:what|which|in which|in what) (?:year|date|month|day|decade)\b|\bby (?:what|which) (?:year|date)\b|"
    r"\bsince when\b|^\s*when (?:was|were|did|will|does|do|has|have|is \w+ (?:expected|scheduled|due|planned)|"
    r"are \w+ (?:expected|scheduled|due|planned))\b", re.I)
_ASKS_NUMBER = re.compile(
    r"\bhow (?:many|much|large|big|small|fast|often|far|long|wide|deep|high|tall)\b|"
    r"\bwhat (?:\S+ ){0,3}?(?:value|values|number|amount|size|rate|score|accuracy|probability|dimension|"
    r"dimensionality|ratio|count|length|depth|width|speed|price|percentage|fraction|total)\b", re.I)
_ASKS_DEFINITION = re.compile(
    r"^\s*(?:what(?:'s| is| are) (?:an? |the )?(?P<a>.+?)|define (?P<b>.+?)|what does (?P<c>.+?) (?:mean|stand for)|"
    r"how (?:does|do|is|are) .+? defin\w* (?P<d>.+?))\s*\??\s*$", re.I)
# "What is the X of Y?" asks for a property, not a definition: such questions are left as "other".
_PROPERTY = re.compile(r"\b(?:of|for|in|on|by|with|between|that|which|when|does|did|do)\b", re.I)
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|may|might|"
                     r"must|shall)\b", re.I)
_PERIOD = re.compile(r"^(?:Q[1-4]|H[12]|FY\d{2,4}|\d{4}s?)$", re.I)
_UNIT_ASKED = re.compile(r"\b(?:how many|how much|in)((?:\s+[\w-]+){1,3})", re.I)
# Numbers that are no count: footnote markers "(1)", amounts of money, percentages and years.
# Digits joined to letters name a thing ("M2 chip", "Apple TV 4K", "H100"), they count nothing.
_NOT_A_COUNT = re.compile(r"\(\d{1,2}\)|[$€£¥]\s*\(?[\d.,]+\)?(?:\s*(?:million|billion|thousand))?|"
                          r"[\d.,]+\s*(?:%|percent\b)|\b(?:19[5-9]\d|20[0-3]\d)\b|"
                          r"\b[a-z]+\d\w*|\b\d+[a-z]\w*", re.I)


def names(question: str, words: list[str]) -> list[str]:
    """The words of ``words`` (taken from ``question``) that are names: capitals inside the word ("BERT",
    "ResNet"), digits with letters ("GPT-2"), or a capital at the start of a word that does not start the question
    ("Spanish"). Periods ("Q3", "FY2023") are no names: documents write them in other ways.

    >>> names("How many heads does GPT-2 use, as in BERT and Spanish text?", ["GPT-2", "BERT", "heads", "Spanish"])
    ['GPT-2', 'BERT', 'Spanish']
    >>> names("Which optimizer is best?", ["Which", "optimizer"])
    []
    """
    first = re.match(r"\W*(\w+)", question)
    opening = first.group(1) if first else ""
    names = []
    for word in words:
        core = re.sub(r"(?:'s|’s)$", "", word)
        if _PERIOD.match(core):
            continue  # "Q3", "FY2023", "H1": a period, written as the document may not write it
        inner_capital = any(ch.isupper() for ch in core[1:])
        letters_and_digits = any(ch.isdigit() for ch in core) and any(ch.isalpha() for ch in core)
        # As the question writes it: the searched text may have had its first letter raised.
        capitalised = core[:1].isupper() and word != opening and re.search(rf"(?<!\w){re.escape(word)}", question)
        if inner_capital or letters_and_digits or capitalised:
            names.append(word)
    return names


_ASKED_FOR = re.compile(r"^\s*(?:which|what|how many|how much)\s+(.+?)\s+(?:is|are|was|were|do|does|did|has|have|"
                        r"had|can|could|should|would|will|may|might|must)\b", re.I)
_NOT_A_NOUN_PHRASE = re.compile(r"\b(?:the|a|an|this|that|these|those|its|their|his|her|our|my|your|of|in|on|for|"
                                r"to|with|by|from|at|as|about|into|than)\b", re.I)


def asked_for(question: str) -> list[str]:
    """The words of the noun phrase a "which / what / how many / how much" question asks for: "Which *programming
    language* is it written in?", "How many *gigabytes of memory* ...". Empty when the question word is followed by
    a verb ("What stops the decoder ...") or directly by an auxiliary ("What was ...").

    >>> asked_for("Which programming language is update-mime-database written in?")
    ['programming', 'language']
    >>> asked_for("What stops the decoder from looking ahead?"), asked_for("What was Amazon's gross margin?")
    ([], [])
    """
    match = _ASKED_FOR.match(question)
    if not match or len(match.group(1).split()) > 5:
        return []
    phrase = match.group(1)
    if _NOT_A_NOUN_PHRASE.search(phrase) and not re.match(r"^\S+ of \S+$", phrase):
        return []  # a verb and its object, or a clause: not the phrase asked for
    return re.findall(r"\w(?:[\w'’.-]*\w)?", phrase)


_YEAR_WORD = re.compile(r"(?:19|20)\d\d")


def focus_names(question: str, word_share: dict[str, float], ubiquitous: float = 0.2) -> list[str]:
    """The names and years in ``question`` that the searched documents hold, but not in nearly every passage: what
    the question is about ("India" in "Apple's net sales in India", "2024" in "guidance for 2024"), not the
    document's own name ("Apple"). ``word_share`` maps each word to the share of the searched passages holding it.

    >>> focus_names("What were Apple's net sales in India in 2022?", {"Apple's": 0.13, "net": 0.14, "India": 0.01,
    ...             "2022": 0.3, "sales": 0.16})
    ["Apple's", 'India']
    """
    years = [w for w in word_share if _YEAR_WORD.fullmatch(w)]
    return [w for w in [*names(question, list(word_share)), *years] if 0.0 < word_share[w] < ubiquitous]


def on_focus(named: list[str], focus: list[str], cover: list[str] | tuple[str, ...] = ()) -> bool:
    """Whether a passage that names ``named`` (of the question's ``focus`` names, :func:`named_in`) is about what
    the question asks: it names every focus name that is not on a searched document's first page (``cover``:
    "India", "2024" must be there), and at least one focus name when all of them are (the company of a filing is
    seldom repeated in its tables).

    >>> focus = ["Apple's", "India"]
    >>> on_focus(named_in("Total net sales 117,154", focus), focus, cover=["Apple's"])
    False
    >>> on_focus([], ["Apple's"], cover=["Apple's"]), on_focus(["Apple's"], ["Apple's"])
    (False, True)
    """
    if not focus:
        return True
    return bool(named) and all(w in named for w in focus if w not in cover)


def named_in(text: str, words: list[str]) -> list[str]:
    """The words of ``words`` that ``text`` holds (compared by their BM25 terms); ``text`` is tokenised once.

    >>> named_in("Net sales in India rose.", ["India", "Brazil"])
    ['India']
    """
    terms = set(tokenize(text))
    return [w for w in words if terms & set(tokenize(w))]


@dataclass(frozen=True)
class Expectation:
    """What a question asks for: ``kind`` (module table), the ``units`` a quantity must carry, and for a
    definition the defined term's BM25 terms (``subject``)."""

    kind: str = "other"
    units: tuple[str, ...] = ()
    subject: tuple[str, ...] = ()


def expect(question: str) -> Expectation:
    """The answer ``question`` asks for (see the module docstring)."""
    q = " ".join(question.split())
    if _YES_NO.match(q):
        return Expectation()  # "Does it tell organisations how much risk to accept?" wants a yes or a no
    if _ASKS_PERCENT.search(q):
        return Expectation("percent")
    units = _asked_units(q)
    if units:
        return Expectation("quantity", units)
    if re.search(r"\bhow long\b", q, re.I):
        return Expectation("quantity", _TIME)
    if _ASKS_MONEY.search(q):
        return Expectation("money")
    if _ASKS_DATE.search(q):
        return Expectation("date")
    if re.search(r"\bhow many\b", q, re.I):
        return Expectation("count")
    if _ASKS_NUMBER.search(q):
        return Expectation("number")
    match = _ASKS_DEFINITION.match(q)
    if match:
        term = next(g for g in match.groups() if g)
        if len(term.split()) <= 6 and not _PROPERTY.search(term):
            return Expectation("definition", subject=tuple(dict.fromkeys(tokenize(term))))
    return Expectation()


def _asked_units(question: str) -> tuple[str, ...]:
    """Units named right after "how many", "how much" or "in" ("how many milliseconds", "in kilowatt-hours")."""
    units: list[str] = []
    for match in _UNIT_ASKED.finditer(question):
        for word in re.findall(r"[\w-]+", match.group(1).lower()):
            units.extend(_UNIT_WORDS.get(word, ()))
    return tuple(dict.fromkeys(units))


def fits(expectation: Expectation, sentence: str, *, table_row: bool = False, passage: str = "") -> bool:
    """Whether ``sentence`` holds what ``expectation`` asks for (``table_row``: it is a row of a table, whose
    numbers are amounts in the table's unit; ``passage``: the text around it, where a definition's term may stand
    in a heading above the sentence that defines it)."""
    kind = expectation.kind
    if kind == "other":
        return True
    if kind == "percent":
        return bool(_PERCENT.search(sentence))
    sentence = _LABEL_NUMBER.sub(" ", sentence)
    if kind == "number":
        return bool(_NUMBER.search(sentence))
    if kind == "count":
        return bool(_NUMBER.search(_NOT_A_COUNT.sub(" ", sentence)))
    if kind == "money":
        return bool(_MONEY.search(sentence)) or (table_row and bool(re.search(r"\d", sentence)))
    if kind == "date":
        return bool(_DATE.search(sentence))
    if kind == "quantity":
        return any(re.search(rf"(?:\d|\b(?:{_NUMBER_WORDS}))\s*-?\s*(?:{_UNITS[u]})\b", sentence, re.I)
                   for u in expectation.units)
    if kind == "definition":
        terms = set(tokenize(sentence)) | set(tokenize(passage))
        return not expectation.subject or expectation.subject[0] in terms
    return True
