"""``[Source N]`` citations as a user relies on them: which numbers are read, which replies are refused and with
which words, and which pages a citation opens."""

from __future__ import annotations

import pytest

from core.answers import LLMCitation
from core.types import Chunk, Hit
from generation.citations import MAX_RANGE, check_citations, is_no_answer, map_citations, parse_citations, units
from generation.prompts import NO_ANSWER


@pytest.mark.parametrize("text,numbers", [
    ("[Source 3]", [3]), ("[source 3]", [3]), ("[SOURCE 3]", [3]), ("[Source: 3]", [3]), ("[Source #3]", [3]),
    ("[ Source 3 ]", [3]), ("[Source 1, 2]", [1, 2]), ("[Sources 1 and 3]", [1, 3]), ("[Sources 1, 2, and 4]", [1, 2, 4]),
    ("[Sources 1 & 3]", [1, 3]), ("[Sources 1; 4]", [1, 4]), ("[Source 1, Source 2]", [1, 2]),
    ("[Sources 2-4]", [2, 3, 4]), ("[Sources 2 \u2013 4]", [2, 3, 4]), ("[Sources 12-13]", [12, 13]),
    ("(Source 2)", []), ("Source 2", []), ("[2]", []), ("[Page 4]", []), ("[Source two]", []), ("", []),
])
def test_the_citation_forms_read_and_those_that_are_not_citations(text, numbers):
    assert parse_citations(f"The rate is 0.1 {text}.") == numbers


def test_numbers_come_in_order_of_first_citation_without_repeats():
    assert parse_citations("A [Source 3]. B [Source 1]. C [Sources 3 and 2]. D [Sources 1-3].") == [3, 1, 2]
    assert parse_citations(None) == []


def test_a_range_wider_than_the_limit_or_reversed_counts_only_its_two_ends():
    assert MAX_RANGE == 20
    assert parse_citations("[Sources 1-21]") == list(range(1, 22))
    assert parse_citations("[Sources 1-22]") == [1, 22]
    assert parse_citations("[Sources 4-2]") == [4, 2]
    assert parse_citations("[Sources 5-5]") == [5]


@pytest.mark.parametrize("text", [NO_ANSWER, "the document does not say", "  The  document does not say!  ",
                                  "\u201cThe document does not say.\u201d", "'The document does not say.'",
                                  '"THE DOCUMENT DOES NOT SAY."'])
def test_the_abstention_sentence_give_or_take_case_quotes_and_punctuation(text):
    assert is_no_answer(text)
    assert check_citations(text, 0) is None


@pytest.mark.parametrize("text", ["The document does not say why.", "Does not say.", "", None])
def test_other_replies_are_not_the_abstention(text):
    assert not is_no_answer(text)


def test_a_reply_without_any_citation_is_refused_with_the_reason():
    assert check_citations("The rate is 0.1.", 3) == (
        "The answer cites no passage: it has no [Source N] marker, so none of it can be checked against the "
        "document.")


def test_invented_sources_are_named_with_what_was_given():
    assert check_citations("A [Source 2].", 1) == (
        "The answer cites [Source 2], but only [Source 1] was given; that source does not exist.")
    assert check_citations("A [Source 1].", 0) == (
        "The answer cites [Source 1], but no source was given; that source does not exist.")
    assert check_citations("A [Source 0] and [Source 5]. B [Source 4].", 4) == (
        "The answer cites [Source 0], [Source 5], but only [Source 1] to [Source 4] were given; those sources do "
        "not exist.")
    six = " ".join(f"[Source {n}]" for n in range(10, 16))
    assert check_citations(f"A {six}.", 2) == (
        "The answer cites [Source 10], [Source 11], [Source 12], [Source 13], [Source 14] and others, but only "
        "[Source 1] to [Source 2] were given; those sources do not exist.")
    five = " ".join(f"[Source {n}]" for n in range(10, 15))
    assert check_citations(f"A {five}.", 2).startswith(
        "The answer cites [Source 10], [Source 11], [Source 12], [Source 13], [Source 14], but")


def test_every_claim_needs_its_own_citation():
    assert check_citations("The rate is 0.1 [Source 1].\n\nIt was tuned by hand on the dev set.", 2) == (
        "The part of the answer beginning \u201cIt was tuned by hand on the dev\u2026\u201d cites no source.")
    long_claim = "one two three four five six seven eight nine ten"
    assert check_citations(f"A [Source 1].\n\n- {long_claim}", 1) == (
        "The part of the answer beginning \u201cone two three four five six seven eight\u2026\u201d cites no source.")
    assert check_citations("A [Source 1].\n\n1. one two three four five six seven", 1) == (
        "The part of the answer beginning \u201cone two three four five six seven\u201d cites no source.")
    assert check_citations("A [Source 1].\nB, on the next line of the paragraph.", 1) is None
    assert check_citations("The fees are:\n- ten euros [Source 1]\n- five [Source 2]\n\n## Sources\n\n---", 2) is None


def test_the_parts_that_each_need_a_citation():
    text = ("# Heading\n\nLead-in:\n- first item\n* second item\n  carried on\n\u2022 third\n2) fourth\n3. fifth\n\n"
            "A paragraph\non two lines.\n\n\n--- \n\n___\n\nLast.")
    assert units(text) == ["- first item", "* second item carried on", "\u2022 third", "2) fourth", "3. fifth",
                           "A paragraph on two lines.", "Last."]
    assert units("  \n\n ") == []
    assert units("Ends with a colon:  ") == []


def _chunk(n: int, page: int, page_end: int = 0, label: str = "", end_label: str = "") -> Chunk:
    return Chunk(chunk_id=f"d{n}-rc-p{page}-c1", doc_id=f"d{n}", filename=f"f{n}.pdf", page=page, section="",
                 text="Some text of the passage.", start=0, end=25, page_end=page_end, page_label=label,
                 page_end_label=end_label)


def test_each_cited_number_maps_to_its_passage_and_its_pages():
    hits = [Hit(_chunk(1, 4, 5, "iv", "v"), 1, 0.9, {}), Hit(_chunk(2, 7), 2, 0.8, {}),
            Hit(_chunk(3, 9), 3, 0.7, {})]
    cited = map_citations([2, 0, 1, 4, 2, -1, 3], hits)
    assert cited == [
        LLMCitation("d2", 7, "d2-rc-p7-c1", "f2.pdf", source=2, page_end=7),
        LLMCitation("d1", 4, "d1-rc-p4-c1", "f1.pdf", source=1, page_end=5, page_label="iv", page_end_label="v"),
        LLMCitation("d3", 9, "d3-rc-p9-c1", "f3.pdf", source=3, page_end=9),
    ]
    assert map_citations([1], []) == []
