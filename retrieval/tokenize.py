"""Terms for the keyword (BM25) side of hybrid search.

One public function, :func:`tokenize`, turns a passage or a question into BM25 terms. Both sides go through the same
function, so whatever a rule does to a passage it does to the question too: a term matches when both texts yield it.

Rules, in order:

1. Unicode NFKC, then lowercase: the ligature "ﬁ" becomes "fi", "β₂" becomes "β2", "x²" becomes "x2", the
   mathematical italic "𝑥" becomes "x". The minus sign "−", the hyphens U+2010/U+2011 and the fraction slash "⁄" are
   written as ASCII "-" and "/", and soft hyphens (U+00AD) are removed, because PDF text uses them where people type
   "-" ("1e−8", "pre‑training").
2. Numbers stay whole: decimals and grouped numbers "0.001", "1,000" and "1.2.3"; exponents "1e-8", "2.5e+3" and
   "10^-8". "1e-8" as one term matches the question "1e-8" exactly, where "1e" and "8" would match any "8".
3. Words are runs of Unicode letters, digits and "_" (Greek kept: "β2" is one word). sklearn's
   ``ENGLISH_STOP_WORDS`` are dropped (checked on the word as written, before stemming; the list also holds a few
   content words such as "system", "part", "find", "describe", "detail", "amount"), then ASCII letter-only words are
   stemmed with Snowball English (Porter2, via PyStemmer): "optimizers", "optimizer", "optimization", and also
   "optimal", all become "optim"; "normalization" becomes "normal". Words with digits, "_" or non-ASCII letters
   are not stemmed: Snowball is for English words, and "adam2" or "β" are names.
4. Compounds also yield their parts, so the spellings people mix up still meet:

   - ``warmup_steps`` yields the identifier itself, its parts joined ("warmupstep", also the stem of a camelCase
     "warmupSteps" once lowercased) and each part ("warmup", "step"): the question "warmup steps" finds it.
   - A hyphenated word whose first part starts with a letter yields its parts joined and each part:
     "fine-tuning" gives "finetun", "fine", "tune", so "fine-tuning", "finetuning" and "fine tuning" all meet.
     A digit first ("10-20", a range) gives only the parts.
   - Letters followed by digits also yield both halves: "β2" gives "β2", "β", "2"; "gpt4" gives "gpt4", "gpt", "4".

   Subscripts follow from these rules: "β_2", "β₂" (via NFKC), "β2", the hyphenated "β-2" and the PDF-split
   "β 2" all share the terms "β" and "2", and all but "β 2" share "β2", so a passage with the question's spelling
   ranks first without the others being lost. Parts are filtered and stemmed like words; a term a compound yields
   twice counts once.
5. Mathematical symbols are terms: each non-ASCII character of Unicode category Sm or So ("√", "≤", "∑", "∇", "⊙",
   "∈", "°") is a term of its own. ASCII "+", "<", "=", ">", "|", "~" (also Sm) are not: they appear in nearly
   every formula of extracted text, so they would only lengthen passages, and nobody asks for "=".
6. A compact expression, a run without spaces that holds such a symbol or a call such as "f(x)", additionally yields
   itself whole with sentence punctuation and unbalanced enclosing brackets trimmed: "O(√T)." gives "o(√t)" next to
   "o", "√" and "t", so a question quoting "O(√T)" ranks the passage that says exactly that first. Runs with
   unbalanced brackets inside ("Adam(Kingma") are not expressions.
7. A possessive "'s" is dropped ("model's" gives "model").
8. A Greek letter's name is the letter, as mathematics prints it: "beta2" gives the terms of "β2", "epsilon" the
   term "ε", so a question typed as "the Adam beta2 hyperparameter" meets a paper's "β2 = 0.98".

Terms from rule 6 come after the others; order does not matter to BM25.

Speed: the per-word work (stopwords, splitting, stemming) is cached by surface form (65,536 forms, ~17 MB at
most), so a corpus costs one regular-expression pass plus a cached look-up per word. On this project's 2-core
machine, 100,000 passages of 1,000 characters of real PDF text take ~11 s, about 9,000 passages a second
(``python -m evaluation.bench_retrieval --keyword-only`` measures it). Threads may call :func:`tokenize` at once.

Examples
--------
>>> tokenize("The learning rate is 0.001, not 1e-8!")
['learn', 'rate', '0.001', '1e-8']
>>> tokenize("Optimizers such as Adam use β2 = 0.999.")
['optim', 'adam', 'use', 'β2', 'β', '2', '0.999']
>>> tokenize("Set warmup_steps before fine-tuning.")
['set', 'warmup_steps', 'warmupstep', 'warmup', 'step', 'finetun', 'fine', 'tune']
>>> tokenize("Regret grows as O(√T).")
['regret', 'grow', 'o', '√', 't', 'o(√t)']
>>> tokenize("the Adam beta2 hyperparameter") == tokenize("the Adam β2 hyperparameter")
True
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import Stemmer

from retrieval.stopwords import ENGLISH_STOP_WORDS

__all__ = ["tokenize", "words", "STOPWORDS"]

STOPWORDS = frozenset(ENGLISH_STOP_WORDS)

# Written the way people type them, before anything else (rule 1). str.replace, not str.translate: translate with
# a table walks every character in Python-level look-ups and cost as much as the rest of tokenize together.
_CANONICAL = (("\u2212", "-"), ("\u2010", "-"), ("\u2011", "-"), ("\u2044", "/"), ("\u00ad", ""))

_NUM = r"\d+(?:\.\d+)?(?:e|\^)[-+]?\d+\b|\d+(?:[.,]\d+)+"
# Any non-ASCII character that is neither a word character nor a space: a candidate symbol, kept by _terms only if
# its category is Sm or So. Python's ``re`` has no ``\p{Sm}``, and a class listing the ~7,500 Sm/So characters made
# every regex below several times slower than this small class plus a cached category look-up.
_OTHER = r"[^\w\s\x00-\x7f]"
# One group, so findall returns the term without a possessive "'s" after it. Numbers are tried before words so that
# "1e-8" is not cut into "1e" and "8"; words take "-" joined parts (rule 4) and so keep "pre-training" together.
_TOKEN = re.compile(rf"({_NUM}|\w+(?:-\w+)*|{_OTHER})(?:['\u2019]s\b)?")
_NUMBER = re.compile(_NUM)
_LETTERS_DIGITS = re.compile(r"([^\W\d_]+)(\d+)")
_PARTS = re.compile(r"[-_]")
# Rule 6: runs that may hold a symbol or a call; _expression decides.
_EXPRESSION = re.compile(rf"(?<!\S)(?=\S*?(?:{_OTHER}|\w\())\S+")
_CALL = re.compile(r"\w\(")
_WORD_CHAR = re.compile(r"\w")
_OPEN, _CLOSE = "([{", ")]}"
_WRITTEN_WORD = re.compile(r"\w(?:[\w'’.-]*\w)?")
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ", "eta": "η",
          "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π",
          "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω"}
_GREEK_NAME = re.compile(rf"({'|'.join(_GREEK)})(\d*)")


def _is_symbol(char: str) -> bool:
    return not char.isascii() and unicodedata.category(char) in ("Sm", "So")


def _may_hold_expression(text: str) -> bool:
    # A cheap test before the run-by-run scan: most passages have neither symbols nor calls, though many have
    # non-ASCII punctuation (curly quotes, dashes, bullets) that a regex class alone cannot tell from symbols.
    # str.find hops between the few "(" (a regex for "\w\(" tries every position: 20 us per passage).
    i = text.find("(", 1)
    while i != -1:
        if text[i - 1].isalnum() or text[i - 1] == "_":
            return True
        i = text.find("(", i + 1)
    return not text.isascii() and any(map(_is_symbol, set(text)))


_local = threading.local()


def _stem(word: str) -> str:
    # PyStemmer's Stemmer objects are not thread-safe: each thread gets its own (the API serves several at once).
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer.stemWord(word)


def _word(word: str) -> tuple[str, ...]:
    """Terms of one word without "-": stopword filter, stemming, letters+digits halves (rules 3 and 4)."""
    if not word or word in STOPWORDS:
        return ()
    greek = _GREEK_NAME.fullmatch(word)
    if greek:
        word = _GREEK[greek.group(1)] + greek.group(2)  # rule 8
    if word.isascii() and word.isalpha():
        return (_stem(word),)
    halves = _LETTERS_DIGITS.fullmatch(word)
    if halves:
        return (word, *_word(halves.group(1)), halves.group(2))
    return (word,)


@lru_cache(maxsize=1 << 16)
def _terms(raw: str) -> tuple[str, ...]:
    """Terms for one regex match, cached: a corpus repeats its words, so each is stemmed once."""
    if len(raw) == 1 and not _WORD_CHAR.match(raw):
        return (raw,) if _is_symbol(raw) else ()  # "√" is a term, "“" or "•" is not
    if _NUMBER.fullmatch(raw):
        return (raw,)
    parts = [p for p in _PARTS.split(raw) if p]
    if len(parts) < 2:
        return _word(parts[0]) if parts else ()
    terms: list[str] = [raw] if "_" in raw else []  # the identifier exactly as written
    if not parts[0][0].isdigit():
        terms += _word("".join(parts))
    for part in parts:
        terms += _word(part)
    return tuple(dict.fromkeys(terms))  # "β_2" yields "β" via "β2" and as a part: once is enough


def _closes_at_end(run: str) -> bool:
    """Whether the bracket opening ``run`` is closed by its last character."""
    depth = 0
    for i, c in enumerate(run):
        depth += (c in _OPEN) - (c in _CLOSE)
        if depth == 0:
            return i == len(run) - 1
    return False


@lru_cache(maxsize=1 << 14)
def _expression(run: str) -> str | None:
    """``run`` trimmed to a compact expression (rule 6), or ``None`` if it is not one."""
    while True:
        before = run
        run = run.strip("\"'\u201c\u201d\u2018\u2019\u00ab\u00bb").rstrip(".,;:!?")
        opens = sum(run.count(c) for c in _OPEN)
        closes = sum(run.count(c) for c in _CLOSE)
        if run[:1] in _OPEN and opens > closes:
            run = run[1:]
        elif run[-1:] in _CLOSE and closes > opens:
            run = run[:-1]
        elif run[:1] in _OPEN and _closes_at_end(run):  # "(O(√T))" is the expression "O(√T)" in parentheses
            run = run[1:-1]
        if run == before:
            break
    # Brackets are counted together, so a half-open interval "[0,1)" is balanced.
    if (sum(run.count(c) for c in _OPEN) != sum(run.count(c) for c in _CLOSE)
            or not _WORD_CHAR.search(run) or not (_CALL.search(run) or any(map(_is_symbol, run)))):
        return None
    return run


def words(text: str) -> list[str]:
    """The words of ``text`` as written, compounds whole: what a reader counts as one word of a question.

    >>> words("How many GPT-2 heads, e.g. in ResNet-50's model?")
    ['How', 'many', 'GPT-2', 'heads', 'e.g', 'in', "ResNet-50's", 'model']
    """
    return _WRITTEN_WORD.findall(text)


def tokenize(text: str) -> list[str]:
    """Split ``text`` into BM25 terms (see the module docstring for the rules).

    Parameters
    ----------
    text : a passage or a question.

    Returns
    -------
    list of str
        The terms, repeated as often as they occur; empty for an empty or stopword-only text.

    Examples
    --------
    >>> tokenize("Optimizers")
    ['optim']
    >>> tokenize("ﬁne-tuned on 1,000 examples")
    ['finetun', 'fine', 'tune', '1,000', 'exampl']
    >>> tokenize("x ≤ y")
    ['x', '≤', 'y']
    >>> tokenize("")
    []
    """
    if not text.isascii():  # NFKC leaves ASCII as it is
        text = unicodedata.normalize("NFKC", text)
        for char, canonical in _CANONICAL:
            if char in text:
                text = text.replace(char, canonical)
    text = text.lower()
    terms = [term for raw in _TOKEN.findall(text) for term in _terms(raw)]
    if _may_hold_expression(text):
        terms += [e for e in map(_expression, _EXPRESSION.findall(text)) if e]
    return terms
