"""The extractive answerer, quote by quote: which sentences it scores and quotes, with which support, pages and
citations, and what it says when it declines. The sentence vectors come from a fixed table (the embedding model is
not what is tested here), so every support is a number worked out by hand: ``0.75 * cosine + 0.25 * coverage``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.answers import Citation, Decision
from core.types import Chunk, Hit
from generation.decision import Policy
from generation.extractive import NOT_FOUND, ExtractiveAnswerer, page_reference, sentence_pages

QUESTION = "What does the keeper light every evening?"  # words with terms: does, keeper, light, evening
DUSK = "The keeper lights the lamp at dusk."  # coverage 2/4
BEAM = "Ships see the beam from far away."  # coverage 0
LIT = "At dusk the lamp is lit by the keeper."  # coverage 1/4
AGAIN = "The keeper lights it every evening."  # no term beyond the question's: never a candidate
DAY = "The keeper sleeps by day."  # coverage 1/4, a vector unlike the question's


def unit(*xs: float) -> np.ndarray:
    v = np.array([*xs, 0.0, 0.0, 0.0, 0.0][:4], dtype=np.float32)
    return v / np.linalg.norm(v)


class Table:
    """Vectors by text (any other text: a vector orthogonal to all of them); remembers what it was asked."""

    def __init__(self, vectors: dict[str, np.ndarray]):
        self.vectors, self.calls = vectors, []

    def encode(self, texts):
        self.calls.append(list(texts))
        return np.array([self.vectors.get(t, unit(0, 0, 0, 1)) for t in texts], dtype=np.float32).reshape(-1, 4)


VECTORS = {QUESTION: unit(1, 0, 0), DUSK: unit(0.8, 0.6, 0), BEAM: unit(0.6, 0, 0.8), LIT: unit(0.85, math.sqrt(
    1 - 0.85 ** 2), 0)}


def hit(text: str, page: int = 3, doc: str = "d", rank: int = 1, **chunk) -> Hit:
    c = Chunk(chunk.pop("chunk_id", f"{doc}-rc-p{page}-c{rank}"), doc, f"{doc}.pdf", page, "Lights", text, 0,
              chunk.pop("end", len(text)), **chunk)
    return Hit(c, rank, 1.0, {})


def answerer(**kwargs) -> tuple[ExtractiveAnswerer, Table]:
    table = Table(VECTORS)
    return ExtractiveAnswerer(table, **kwargs), table


def test_support_is_three_quarters_cosine_and_a_quarter_word_coverage():
    reader, _ = answerer()
    scored = reader.score(QUESTION, [hit(f"{BEAM} {DUSK} {AGAIN} {LIT}")])
    assert [(c.text, round(c.score, 4)) for c in scored] == [
        (DUSK, round(0.75 * 0.8 + 0.25 * 0.5, 4)), (LIT, round(0.75 * 0.85 + 0.25 * 0.25, 4)), (BEAM, 0.45)]
    assert [(c.start, c.end) for c in scored] == [(34, 69), (106, 144), (0, 33)]
    assert reader.score(QUESTION, [hit(AGAIN)]) == []
    assert reader.score(QUESTION, []) == []


def test_sentences_with_too_few_new_terms_are_skipped():
    reader, _ = answerer(min_new_terms=3)
    assert [c.text for c in reader.score(QUESTION, [hit(f"{BEAM} {DUSK} {LIT}")])] == [LIT, BEAM]
    reader, _ = answerer(min_new_terms=0)
    assert AGAIN in [c.text for c in reader.score(QUESTION, [hit(f"{DUSK} {AGAIN}")])]


def test_headings_and_contents_lines_are_never_quoted():
    from ingestion.blocks import page_from_markdown

    page = page_from_markdown(3, f"## The keeper lights the lamp\n\n{DUSK}")
    reader, _ = answerer()
    chunk_hit = hit(page.text, blocks=page.blocks)
    assert [c.text for c in reader.score(QUESTION, [chunk_hit])] == [DUSK]


def test_the_best_sentence_and_those_within_the_margin_are_quoted_in_document_order():
    reader, _ = answerer()
    answer = reader.answer(QUESTION, [hit(f"{LIT} {BEAM} {DUSK}")], retrieval=0.9)
    assert answer.text == f"\u201c{LIT}\u201d [Page 3]\n\u201c{DUSK}\u201d [Page 3]"
    assert answer.pieces == [f"\u201c{LIT}\u201d [Page 3]\n", f"\u201c{DUSK}\u201d [Page 3]"]
    assert answer.abstained is False and answer.support == pytest.approx(0.725)
    assert answer.decision == Decision(True, "high")
    assert answer.citations == [Citation("d", 3, "d-rc-p3-c1", "d.pdf", f"{LIT} {DUSK}", "")]
    # A narrower margin keeps only the best; max_sentences caps how many are quoted.
    assert answerer(margin=0.02)[0].answer(QUESTION, [hit(f"{LIT} {DUSK}")]).text == f"\u201c{DUSK}\u201d [Page 3]"
    assert answerer(max_sentences=1)[0].answer(QUESTION, [hit(f"{LIT} {DUSK}")]).text == \
        f"\u201c{DUSK}\u201d [Page 3]"
    wide = answerer(margin=0.5, threshold=0.4)[0].answer(QUESTION, [hit(f"{LIT} {BEAM} {DUSK}")])
    assert wide.text.count("\u201c") == 3 and wide.text.startswith(f"\u201c{LIT}")


def test_a_sentence_below_the_threshold_is_never_quoted_even_within_the_margin():
    reader, _ = answerer(margin=0.5, threshold=0.46)
    assert BEAM not in reader.answer(QUESTION, [hit(f"{BEAM} {DUSK}")]).text
    reader, _ = answerer(margin=0.5, threshold=0.45)
    assert BEAM in reader.answer(QUESTION, [hit(f"{BEAM} {DUSK}")]).text


def test_a_sentence_repeated_by_overlapping_passages_is_quoted_once():
    reader, _ = answerer()
    answer = reader.answer(QUESTION, [hit(DUSK, rank=1), hit(f"{DUSK} {DAY}", rank=2)])
    assert answer.text == f"\u201c{DUSK}\u201d [Page 3]" and len(answer.citations) == 1


def test_quotes_from_several_files_name_their_file_and_keep_their_order():
    reader, _ = answerer(margin=0.1)
    answer = reader.answer(QUESTION, [hit(DUSK, page=7, doc="b"), hit(LIT, page=2, doc="a", rank=2)])
    assert answer.text == f"\u201c{LIT}\u201d [a.pdf, Page 2]\n\u201c{DUSK}\u201d [b.pdf, Page 7]"
    assert [(c.doc_id, c.page, c.quote) for c in answer.citations] == [("a", 2, LIT), ("b", 7, DUSK)]


def test_a_quote_across_a_page_break_cites_both_pages_with_their_labels():
    text = f"{BEAM} {DUSK}"
    reader, _ = answerer()
    spanning = hit(text, page=4, end=len(BEAM) + 12, page_end=5, continuation_chars=len(DUSK) - 11,
                   page_label="iv", page_end_label="v")
    answer = reader.answer(QUESTION, [spanning])
    assert answer.text == f"\u201c{DUSK}\u201d [Pages 4-5 (printed iv-v)]"
    assert [(c.page, c.page_label, c.quote) for c in answer.citations] == [(4, "iv", DUSK), (5, "v", DUSK)]


def test_when_no_sentence_answers_the_reason_is_given_with_the_best_support():
    reader, _ = answerer()
    declined = reader.answer(QUESTION, [hit(DAY)], retrieval=0.9)
    assert declined.abstained and declined.text == NOT_FOUND
    assert declined.pieces == [NOT_FOUND] and declined.citations == []
    assert declined.support == pytest.approx(0.0625) and declined.decision.level == "insufficient"
    assert answerer(threshold=0.46)[0].answer(QUESTION, [hit(BEAM)]).abstained
    assert not answerer(threshold=0.45)[0].answer(QUESTION, [hit(BEAM)]).abstained
    nothing = reader.answer(QUESTION, [], retrieval=0.9)
    assert nothing.text == "Not in this document: no passage of the selected documents could be searched."
    assert nothing.support == 0.0
    assert reader.answer(QUESTION, [hit(AGAIN)]).support == 0.0
    distant = reader.answer(QUESTION, [hit(DAY)], retrieval=0.1)
    assert distant.text == "Not in this document: nothing in it comes close to this question (best similarity 0.10)."


def test_a_count_question_without_a_count_declines_with_the_best_fitting_support():
    table = Table({"How many ships does the keeper count?": unit(1, 0, 0), DUSK: unit(0.8, 0.6, 0),
                   "The keeper counts 42 ships a night.": unit(0.6, 0.8, 0)})
    reader = ExtractiveAnswerer(table)
    question = "How many ships does the keeper count?"
    declined = reader.answer(question, [hit(DUSK)])
    assert declined.text == "Not in this document: no passage in it gives a count for this question."
    answered = reader.answer(question, [hit(f"{DUSK} The keeper counts 42 ships a night.")])
    assert answered.text == "\u201cThe keeper counts 42 ships a night.\u201d [Page 3]"
    assert answered.support == pytest.approx(0.75 * 0.6 + 0.25 * 0.75)  # "does" is not in it


def test_the_levels_follow_the_retrieval_and_the_policy_given():
    reader, _ = answerer()
    low = reader.answer(QUESTION, [hit(DUSK)], retrieval=0.45)
    assert low.decision.level == "low" and not low.abstained and "0.45" in low.decision.warning
    assert reader.answer(QUESTION, [hit(DUSK)]).decision == Decision(True, "high")  # no retrieval: taken as clear
    prepared = reader.prepare(QUESTION, [hit(DUSK)])
    assert reader.compose(prepared, policy=Policy(answer_threshold=0.8)).abstained
    assert not reader.compose(prepared, retrieval=0.9).abstained
    assert reader.policy == Policy(answer_threshold=0.45)


def test_absent_names_and_asked_for_words_reach_the_decision():
    reader, _ = answerer()
    prepared = reader.prepare("What does BERT light every evening?", [hit(DUSK)], absent=["BERT"])
    assert prepared.unknown == ["BERT"] and prepared.missing == []
    assert reader.compose(prepared).text == "Not in this document: it never mentions \u201cBERT\u201d."


def test_stored_sentence_vectors_and_a_given_question_vector_are_not_embedded_again():
    passage = hit(f"{DUSK} {BEAM}")
    stored = {passage.chunk.chunk_id: ([(0, len(DUSK))], [VECTORS[DUSK]])}
    table = Table(VECTORS)
    reader = ExtractiveAnswerer(table, sentence_vectors=lambda chunk: stored.get(chunk.chunk_id))
    scored = reader.score(QUESTION, [passage])
    assert table.calls == [[QUESTION, BEAM]]
    assert [round(c.score, 3) for c in scored] == [0.725, 0.45]
    table.calls.clear()
    scored = reader.score(QUESTION, [passage], question_vector=VECTORS[QUESTION])
    assert table.calls == [[BEAM]] and [round(c.score, 3) for c in scored] == [0.725, 0.45]
    table.calls.clear()
    reader.sentence_vectors = lambda chunk: ([(0, len(DUSK)), (len(DUSK) + 1, len(DUSK) + 1 + len(BEAM))],
                                             [VECTORS[DUSK], VECTORS[BEAM]])
    assert [round(c.score, 3) for c in reader.score(QUESTION, [passage], VECTORS[QUESTION])] == [0.725, 0.45]
    assert table.calls == []


def test_the_searched_query_is_scored_and_the_question_decides_the_kind():
    reader, table = answerer()
    answer = reader.answer("How many?", [hit(DUSK)], query=QUESTION)
    assert table.calls[0][0] == QUESTION
    assert answer.text == "Not in this document: no passage in it gives a count for this question."


@pytest.mark.parametrize("start,end,pages", [(0, 10, (4, 4)), (0, 30, (4, 5)), (19, 30, (4, 5)), (20, 30, (5, 5)),
                                             (0, 20, (4, 4)), (19, 20, (4, 4))])
def test_the_pages_of_a_sentence_in_a_passage_across_a_page_break(start, end, pages):
    chunk = Chunk("d-rc-p4-c1", "d", "d.pdf", 4, "", "x" * 30, 100, 120, page_end=5, continuation_chars=10)
    assert sentence_pages(chunk, start, end) == pages


def test_page_references_show_printed_labels_only_when_they_differ():
    assert page_reference(5, 5) == "Page 5"
    assert page_reference(5, 5, "5") == "Page 5" and page_reference(5, 5, "iii") == "Page 5 (printed iii)"
    assert page_reference(4, 5) == "Pages 4-5"
    assert page_reference(4, 5, "17", "18") == "Pages 4-5 (printed 17-18)"
    assert page_reference(4, 5, "4", "5") == "Pages 4-5"
    assert page_reference(4, 5, "4", "6") == "Pages 4-5 (printed 4-6)"
    assert page_reference(4, 5, "17", "") == "Pages 4-5" and page_reference(4, 5, "", "18") == "Pages 4-5"


NORWAY_Q = "What does the keeper light in Norway?"
NORWAY = "In Norway the keeper lights the lamp at dusk."
SHARE = {"Norway": 0.05, "keeper": 0.5}


def norway_reader() -> ExtractiveAnswerer:
    return ExtractiveAnswerer(Table({NORWAY_Q: unit(1, 0, 0), DUSK: unit(0.8, 0.6, 0),
                                     NORWAY: unit(0.7, math.sqrt(1 - 0.49), 0)}))


def test_a_rare_name_the_question_is_about_must_be_named_by_the_quoted_passage():
    reader = norway_reader()
    assert reader.answer(NORWAY_Q, [hit(DUSK)], word_share=SHARE).text == (
        "Not in this document: no passage found on this question mentions \u201cNorway\u201d.")
    # On a searched document's first page, the name is what the document is about: no passage must repeat it.
    assert reader.answer(NORWAY_Q, [hit(DUSK)], word_share=SHARE, cover=["Norway"]).text == (
        "Not in this document: no passage in it answers this question.")
    assert reader.answer(NORWAY_Q, [hit(DUSK), hit(NORWAY, rank=2)], word_share=SHARE).text == \
        f"\u201c{NORWAY}\u201d [Page 3]"
    in_section = hit(DUSK, rank=3)
    in_section.chunk.section = "Norway"
    assert reader.answer(NORWAY_Q, [in_section], word_share=SHARE).text == f"\u201c{DUSK}\u201d [Page 3]"
    assert reader.answer(NORWAY_Q, [hit(DUSK)]).text == f"\u201c{DUSK}\u201d [Page 3]"  # no shares: no focus
    prepared = reader.prepare(NORWAY_Q, [hit(DUSK)], word_share=SHARE)
    assert prepared.unmet == ["Norway"] and prepared.fit == [] and [c.text for c in prepared.ranked] == [DUSK]


def test_a_missing_word_of_the_phrase_asked_for_declines():
    question = "Which programming language does the keeper light the lamp with?"
    reader = ExtractiveAnswerer(Table({question: unit(1, 0, 0), DUSK: unit(0.5, math.sqrt(0.75), 0)}))
    prepared = reader.prepare(question, [hit(DUSK)], absent=["language", "keeper"])
    assert prepared.missing == ["language"] and prepared.unknown == []
    assert reader.compose(prepared).text == "Not in this document: it never mentions \u201clanguage\u201d."
    assert not reader.answer(question, [hit(DUSK)]).abstained


def test_the_row_of_amounts_the_question_names_is_quoted_beside_the_prose():
    from ingestion.blocks import page_from_markdown
    from ingestion.sentences import split_sentences

    question = "How much revenue did server products and cloud services bring in 2024?"
    page = page_from_markdown(1, "Revenue of server products and cloud services rose 23% to $97.7 billion in "
                                 "2024.\n\n| Item | 2023 | 2024 |\n|---|---|---|\n| Server products and cloud "
                                 "services | 79,970 | 97,726 |\n| Office products | 48,728 | 54,861 |")
    prose, _, named, other = [s.text for s in split_sentences(page.text, page.blocks)]
    table = Table({question: unit(1, 0, 0), prose: unit(0.95, math.sqrt(1 - 0.95 ** 2), 0),
                   named: unit(0.5, math.sqrt(0.75), 0), other: unit(0.6, 0.8, 0)})
    reader = ExtractiveAnswerer(table)
    passage = hit(page.text, page=1, blocks=page.blocks)
    scored = reader.score(question, [passage])
    assert [(c.text, c.kind, c.named) for c in scored] == [(prose, "paragraph", 0.0), (named, "table_row", 1.0),
                                                         (other, "table_row", 0.5)]
    answer = reader.answer(question, [passage])
    assert answer.text == f"\u201c{prose}\u201d [Page 1]\n\u201c{named}\u201d [Page 1]"
    assert answer.citations[0].quote == f"{prose} {named}"
    assert ExtractiveAnswerer(table, max_sentences=1).answer(question, [passage]).text == \
        f"\u201c{named}\u201d [Page 1]"
    assert ExtractiveAnswerer(table, threshold=0.6).answer(question, [passage]).text == f"\u201c{prose}\u201d [Page 1]"


def test_a_sentence_with_one_new_term_is_a_candidate_by_default():
    one_new = "The keeper lights the lamp."  # "lamp" is its only term beyond the question's
    reader = ExtractiveAnswerer(Table({QUESTION: unit(1, 0, 0), one_new: unit(0.9, math.sqrt(0.19), 0)}))
    assert [c.text for c in reader.score(QUESTION, [hit(one_new)])] == [one_new]


def test_a_question_of_stopwords_only_is_scored_by_its_cosine_alone():
    question = "What is it?"
    reader = ExtractiveAnswerer(Table({question: unit(1, 0, 0), DUSK: unit(0.8, 0.6, 0)}))
    assert [round(c.score, 4) for c in reader.score(question, [hit(DUSK)])] == [0.6]


def test_every_passages_stored_sentence_vectors_are_used():
    first, second = hit(DUSK, rank=1), hit(BEAM, rank=2)
    stored = {first.chunk.chunk_id: ([(0, len(DUSK))], [VECTORS[DUSK]]),
              second.chunk.chunk_id: ([(0, len(BEAM))], [VECTORS[BEAM]])}
    table = Table(VECTORS)
    reader = ExtractiveAnswerer(table, sentence_vectors=lambda chunk: stored[chunk.chunk_id])
    assert [round(c.score, 3) for c in reader.score(QUESTION, [first, second])] == [0.725, 0.45]
    assert table.calls == [[QUESTION]]


def test_a_search_result_is_answered_with_its_vector_query_shares_and_confidence():
    from core.types import SearchResult

    reader = norway_reader()
    result = SearchResult(hits=[hit(DUSK), hit(NORWAY, rank=2)], confidence=0.45, mode="hybrid",
                          vector=unit(1, 0, 0), question=NORWAY_Q, query=NORWAY_Q, absent=[],
                          word_share=SHARE, cover_words=[])
    answer = reader.answer_found(NORWAY_Q, result)
    assert answer.text == f"\u201c{NORWAY}\u201d [Page 3]" and answer.decision.level == "low"
    assert "0.45" in answer.decision.warning
    assert reader.embedder.calls == [[DUSK, NORWAY]]  # the search's vector is used: the question is not embedded
    prepared = reader.prepare_found("Which lamp does BERT light?", SearchResult(
        hits=[hit(DUSK)], confidence=0.9, mode="hybrid", vector=unit(1, 0, 0), query="lamp", absent=["BERT"],
        word_share={"BERT": 0.0}, cover_words=["lamp"]))
    assert prepared.unknown == ["BERT"] and prepared.kind == "other"
    reader.answer(NORWAY_Q, [hit(DUSK)], unit(1, 0, 0), word_share=SHARE)
    assert all(NORWAY_Q not in call for call in reader.embedder.calls)


def test_a_declined_answer_reports_the_support_of_the_best_fitting_sentence_else_of_the_best():
    question = "How many ships does the keeper count?"
    count = "The keeper counts 42 ships a night."
    reader = ExtractiveAnswerer(Table({question: unit(1, 0, 0), DUSK: unit(0.8, 0.6, 0),
                                       count: unit(0.6, 0.8, 0)}))
    prepared = reader.prepare(question, [hit(f"{DUSK} {count}")])
    assert [round(c.score, 4) for c in prepared.ranked] == [0.6625, 0.6375]  # the best does not fit
    declined = reader.compose(prepared, policy=Policy(answer_threshold=0.9))
    assert declined.abstained and declined.support == pytest.approx(0.6375)
    nothing_fits = reader.answer(question, [hit(DUSK)])
    assert nothing_fits.abstained and nothing_fits.support == pytest.approx(0.6625)


def test_a_repeated_sentence_does_not_stop_the_next_one_from_being_quoted():
    reader, _ = answerer()
    answer = reader.answer(QUESTION, [hit(DUSK, rank=1), hit(DUSK, rank=2), hit(LIT, rank=3)])
    assert answer.text == f"\u201c{DUSK}\u201d [Page 3]\n\u201c{LIT}\u201d [Page 3]"


def test_at_most_three_sentences_are_quoted_by_default():
    reader, _ = answerer(margin=1.0, threshold=0.0)
    answer = reader.answer(QUESTION, [hit(f"{DUSK} {LIT} {BEAM} {DAY}")], retrieval=0.9)
    assert answer.text.count("\u201c") == 3 and DAY not in answer.text
    assert page_reference(4, 5, "17") == "Pages 4-5" and page_reference(4, 4, "") == "Page 4"


def test_a_name_on_the_documents_first_page_need_not_be_repeated_but_the_others_must():
    from core.types import SearchResult

    question = "What does the keeper of Acme light in Norway?"
    reader = ExtractiveAnswerer(Table({question: unit(1, 0, 0), NORWAY: unit(0.7, math.sqrt(0.51), 0),
                                       DUSK: unit(0.8, 0.6, 0)}))
    share = {"Acme": 0.05, "Norway": 0.05}
    assert reader.answer(question, [hit(NORWAY)], word_share=share, cover=["Acme"]).text == \
        f"\u201c{NORWAY}\u201d [Page 3]"
    assert reader.answer(question, [hit(NORWAY)], word_share=share).abstained  # Acme must be named then
    found = SearchResult(hits=[hit(NORWAY)], confidence=0.9, mode="hybrid", vector=unit(1, 0, 0), query=question,
                         word_share=share, cover_words=["Acme"])
    assert not reader.answer_found(question, found).abstained
    assert reader.answer(question, [hit(DUSK)], absent=["Acme"]).text == \
        "Not in this document: it never mentions \u201cAcme\u201d."


def test_a_search_results_query_is_what_its_sentences_are_scored_against():
    from core.types import SearchResult

    reader, _ = answerer()
    found = SearchResult(hits=[hit(DUSK)], confidence=0.9, mode="hybrid", vector=unit(1, 0, 0), query=QUESTION)
    prepared = reader.prepare_found("The keeper, in this document: what does he light every evening?", found)
    assert [round(c.score, 4) for c in prepared.ranked] == [0.725]  # coverage 2/4, of the query's words
