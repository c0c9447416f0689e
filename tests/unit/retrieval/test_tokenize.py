"""The BM25 tokeniser, judged by what a user sees: which passage a question finds."""

from __future__ import annotations

import doctest
from concurrent.futures import ThreadPoolExecutor

import retrieval.tokenize
from retrieval.keyword_index import KeywordIndex
from retrieval.tokenize import tokenize


def ranked(question: str, passages: list[str]) -> list[int]:
    """Passages that share a term with the question, best BM25 score first."""
    index = KeywordIndex([tokenize(p) for p in passages])
    return [row for row, _ in index.search(tokenize(question), k=len(passages))]


def test_docstring_examples_hold():
    assert doctest.testmod(retrieval.tokenize).failed == 0


def test_a_question_about_optimizers_finds_the_passage_about_an_optimizer():
    # Snowball English: all of these become "optim".
    assert tokenize("optimizers") == tokenize("optimizer") == tokenize("optimization") == ["optim"]
    passages = ["The learning rate schedule follows a cosine curve.", "We compare the optimizer Adam with SGD."]
    assert ranked("Which optimizers are compared?", passages) == [1]
    assert ranked("How is the optimization done?", passages) == [1]


def test_snowball_also_joins_words_a_reader_would_keep_apart():
    # Known cost of stemming, kept visible: "optimal" meets "optimizer", "normalization" meets "normal".
    assert tokenize("optimal") == tokenize("optimizer")
    assert tokenize("normalization") == tokenize("normal") == ["normal"]
    assert tokenize("optimum") != tokenize("optimizer")


def test_stopwords_do_not_make_a_match():
    assert tokenize("What is the rate of the model?") == ["rate", "model"]
    assert tokenize("What is it that they were about?") == []
    passages = ["This is what it was about.", "The rate of the model."]
    assert ranked("What is it about?", passages) == []
    assert ranked("What is the rate?", passages) == [1]


def test_decimals_and_exponents_stay_whole():
    assert tokenize("lr 0.001, eps 1e-8, decay 2.5e+3 and 10^-8 of 1,000 steps") == [
        "lr", "0.001", "ep", "1e-8", "decay", "2.5e+3", "10^-8", "1,000", "step"]
    assert tokenize("1e\u22128") == ["1e-8"]  # PDF text writes the minus sign U+2212
    assert tokenize("The rate is 0.001.") == ["rate", "0.001"]  # a full stop is not a decimal point
    passages = ["A batch of 8 with weight decay 1e-3.", "Adam uses eps = 1e-8 for stability."]
    assert ranked("Which epsilon is 1e-8?", passages) == [1]


def test_greek_letters_and_subscripts():
    assert "β2" in tokenize("β2") and "β2" in tokenize("β_2") and "β2" in tokenize("β₂")  # NFKC: ₂ is 2
    assert {"β", "2"} <= set(tokenize("β 2"))  # PDF text often splits a subscript off
    passages = ["Adam sets β1 = 0.9 for the first moment.", "Adam sets β2 = 0.999 for the second moment."]
    assert ranked("What value does β2 take?", passages)[0] == 1
    assert ranked("What value does β_2 take?", passages)[0] == 1


def test_math_symbols_are_terms_and_a_quoted_expression_matches_exactly():
    assert tokenize("a ≤ b, ∑ x, ∇f, u ⊙ v, √d") == ["≤", "b", "∑", "x", "∇", "f", "u", "⊙", "v", "√", "d",
                                                      "∇f", "√d"]
    assert "=" not in tokenize("x = y + z")  # ASCII operators separate words (module docstring, rule 5)
    assert "o(√t)" in tokenize("Regret grows as (O(√T)).")
    assert "adam(kingma" not in " ".join(tokenize("Adam(Kingma & Ba, 2015)"))  # unbalanced: not an expression
    passages = ["Algorithm B achieves O(T) regret.", "Algorithm A achieves O(√T) regret.",
                "Algorithm C achieves O(log T) regret."]
    assert ranked("Which algorithm attains O(√T) regret?", passages)[0] == 1


def test_an_identifier_matches_its_words_and_itself():
    terms = tokenize("warmup_steps")
    assert {"warmup_steps", "warmup", "step"} <= set(terms)
    passages = ["The number of steps is 10.", "Set warmup_steps = 1000 in the config.", "The learning rate decays."]
    assert ranked("How many warmup steps are used?", passages)[0] == 1
    assert ranked("What is warmup_steps?", passages)[0] == 1
    assert tokenize("warmupSteps")[0] in terms  # camelCase, lowercased, meets the identifier's joined parts


def test_hyphenated_words_meet_their_other_spellings():
    joined, split, hyphen = tokenize("finetuning"), tokenize("fine tuning"), tokenize("fine-tuning")
    assert set(joined) <= set(hyphen) and set(split) <= set(hyphen)
    assert tokenize("pages 10-20") == ["page", "10", "20"]  # a range is not a word
    assert ranked("Is GPT4 evaluated?", ["We evaluate BERT.", "We evaluate GPT-4 on the benchmark."])[0] == 1


def test_case_ligatures_and_width_are_folded():
    assert tokenize("ADAM Optimizer") == tokenize("adam optimizer")
    assert tokenize("ﬁne-tuning") == tokenize("fine-tuning")  # the ligature "ﬁ" is "fi"
    assert tokenize("Ａｄａｍ") == ["adam"]  # full-width letters
    assert ranked("Where is the file?", ["The ﬁle is attached.", "Nothing here."]) == [0]


def test_possessives_and_empty_text():
    assert tokenize("the model's loss") == ["model", "loss"]
    assert tokenize("") == []
    assert tokenize("  ...  ") == []
    assert ranked("", ["a passage"]) == []


def test_threads_tokenise_alike():
    texts = [f"Optimizers {i} and β{i} with warmup_steps ≤ {i}.{i} using O(√T) bounds" for i in range(400)]
    expected = [tokenize(t) for t in texts]
    retrieval.tokenize._terms.cache_clear()  # make the threads stem concurrently, not read a warm cache
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(tokenize, texts)) == expected


def test_the_stopword_copy_is_scikit_learns_list():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from retrieval.stopwords import ENGLISH_STOP_WORDS as copied

    assert copied == ENGLISH_STOP_WORDS
