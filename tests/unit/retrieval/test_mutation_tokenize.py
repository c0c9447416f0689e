"""Keyword terms a search depends on: symbols that are terms and punctuation that is not, and the compact
expressions ("f(x)", "30°") found whether the text around them is ASCII or not."""

from __future__ import annotations

import pytest

from retrieval import tokenize as tokenize_module
from retrieval.tokenize import tokenize


@pytest.fixture(autouse=True)
def cold_cache():
    """Each test tokenises from empty caches: a word's terms are cached per process, and terms cached by another
    test would hide what the rules give now."""
    tokenize_module._terms.cache_clear()
    tokenize_module._expression.cache_clear()


def test_symbols_are_terms_but_non_ascii_punctuation_is_not():
    assert tokenize("e.g. \u201cquoted\u201d \u2022 bullet \u2014 dash") == ["e", "g", "quot", "bullet", "dash"]
    assert tokenize("it is 30\u00b0 warm") == ["30", "\u00b0", "warm", "30\u00b0"]  # "°" is a symbol (So)
    assert tokenize("a \u2208 b") == ["\u2208", "b"]  # "∈" is a mathematical symbol (Sm)
    assert tokenize("caf\u00e9 na\u00efve") == ["caf\u00e9", "na\u00efve"]


@pytest.mark.parametrize("text,expression", [
    ("use f(x) now", "f(x)"), ("f(x) (note)", "f(x)"), ("(note) then f(x)", "f(x)"),
    ("x (y) + g(z) (w)", "g(z)"), ("apply warmup_(x)", "warmup_(x)"), ("O(n) time", "o(n)"),
    ("na\u00efve f(x)", "f(x)"), ("a 2(b) c", "2(b)"),
])
def test_a_call_is_kept_whole_wherever_it_is(text, expression):
    assert tokenize(text)[-1] == expression


@pytest.mark.parametrize("text", ["(a) plain text", "plain (text)", "( x )", "na\u00efve (caf\u00e9)", "x_ (y)"])
def test_brackets_that_are_no_call_add_no_expression(text):
    assert not any("(" in term for term in tokenize(text))


@pytest.mark.parametrize("text,terms", [
    ('The learning rate is 0.001, not 1e-8!', ['learn', 'rate', '0.001', '1e-8']),
    ('Optimizers such as Adam use β2 = 0.999.', ['optim', 'adam', 'use', 'β2', 'β', '2', '0.999']),
    ('Set warmup_steps before fine-tuning.', ['set', 'warmup_steps', 'warmupstep', 'warmup', 'step', 'finetun', 'fine', 'tune']),
    ('Regret grows as O(√T).', ['regret', 'grow', 'o', '√', 't', 'o(√t)']),
    ('the Adam beta2 hyperparameter', ['adam', 'β2', 'β', '2', 'hyperparamet']),
    ('epsilon and lambda', ['ε', 'λ']),
    ('ﬁne-tuned on 1,000 examples', ['finetun', 'fine', 'tune', '1,000', 'exampl']),
    ('pages 10-20', ['page', '10', '20']),
    ('gpt4 and β_2 and β₂ and β-2', ['gpt4', 'gpt', '4', 'β_2', 'β2', 'β', '2', 'β2', 'β', '2', 'β2', 'β', '2']),
    ("the model's loss", ['model', 'loss']),
    ('Regret grows as (O(√T)).', ['regret', 'grow', 'o', '√', 't', 'o(√t)']),
    ('Adam(Kingma & Ba, 2015)', ['adam', 'kingma', 'ba', '2015']),
    ('“f(x)”, and [0,1) or {a}', ['f', 'x', '0,1', 'f(x)']),
    ('x^2 ≤ y.', ['x', '2', '≤', 'y']),
    ('1e−8 pre‑training', ['1e-8', 'pretrain', 'pre', 'train']),
    ('warmupSteps', ['warmupstep']),
    ('mu2 and pi and eta', ['μ2', 'μ', '2', 'π', 'η']),
    ('a-b-c', ['abc', 'b', 'c']),
    ('in [f(x)] and (g(y)', ['f', 'x', 'g', 'y', 'f(x)', 'g(y)']),
    ('10^-8 and 2.5e+3', ['10^-8', '2.5e+3']),
    ('soft\xadhyphen 3⁄4', ['softhyphen', '3', '4']),
])
def test_every_rule_from_a_cold_cache(text, terms):
    assert tokenize(text) == terms
