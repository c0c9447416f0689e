"""Chunking on pages made by hand, every span checked exactly: where windows end and start, which pieces are
stubs or wordless, where the semantic strategy cuts, and what each passage carries (id, page, section, text).
The semantic strategy's vectors come from a two-topic table (the embedding model is not what is tested here)."""

from __future__ import annotations

import numpy as np
import pytest

from core.types import Block, Page
from ingestion.blocks import page_from_markdown
from ingestion.chunkers.fixed_size import fixed_size_spans
from ingestion.chunkers.recursive_char import recursive_char_spans
from ingestion.chunkers.semantic import semantic_spans
from ingestion.chunkers.spans import drop_wordless, is_stub, skip_space, window_end, word_count
from ingestion.chunking import STRATEGIES, STRATEGY_TAGS, check_strategy, chunk_pages, heading_at

LAMP = "The lighthouse lamp is lit at dusk. The lighthouse keeper climbs the stairs."
BREAD = "Bread dough rises in a warm kitchen. Bake the bread dough for an hour."
HEADED = page_from_markdown(2, f"## Lamps\n\n{LAMP}\n\n## Bread\n\n{BREAD}")


def topics(texts):
    """One axis per topic, and a little of a third, so every sentence has a unit vector."""
    rows = [np.array([float("lighthouse" in t), float("dough" in t), 0.1]) for t in texts]
    return np.array([r / np.linalg.norm(r) for r in rows])


def texts(text: str, spans) -> list[str]:
    return [text[a:b] for a, b in spans]


# -- what the strategies share ---------------------------------------------------------------------------------
def test_a_window_ends_at_a_sentence_end_in_its_last_30_percent_else_at_a_word_end():
    text = "x" * 200
    assert window_end(text, 0, 100, [75], 100) == 75  # one sentence end, inside the zone
    assert window_end(text, 0, 100, [20, 70, 90], 100) == 90
    assert window_end(text, 0, 100, [70], 100) == 70  # the zone starts at 70 % of the window
    assert window_end(text, 50, 150, [125], 100) == 125
    assert window_end(text, 50, 150, [115], 100) == 150  # before the zone: not a cut point (no space: hard cut)
    assert window_end(text, 50, 150, [60], 100) == 150
    assert window_end(text, 0, 100, [120], 100) == 100  # a sentence end beyond the window is no cut point


def test_a_window_end_inside_a_word_moves_back_to_the_last_space_or_line_break():
    text = "aaaa bbbb cccc\ndddd eeee"
    assert window_end(text, 0, 9, [], 100) == 9  # on the space after "bbbb": no word is cut
    assert window_end(text, 0, 8, [], 100) == 4  # inside "bbbb"
    assert window_end(text, 0, 17, [], 100) == 14  # inside "dddd": back to the line break
    assert window_end("aaaa bbbb\tcccc", 0, 10, [], 100) == 9  # right after a tab: trailing space dropped
    assert window_end("a bbbbbbbbbb", 0, 8, [], 100) == 1
    assert window_end("a\nbbbbbbbbbb", 0, 6, [], 100) == 1
    assert window_end("aaaa\nbbbbbbb", 0, 8, [], 100) == 4
    assert window_end("aa\nbb\ncccccc", 0, 9, [], 100) == 5  # the last line break, not the first
    assert window_end("aaaa bbbbbbbbbbbb", 5, 12, [], 100) == 12  # no space after the start: a hard cut
    assert window_end("aaaa bbbb cccc", 0, 7, [], 100) == 4 and window_end("aaaa bbbb cccc\nd", 0, 7, [], 100) == 4


def test_skip_space_word_count_stubs_and_wordless_pieces():
    assert skip_space("  \n x", 0) == 4 and skip_space("x  ", 1) == 3 and skip_space("ab", 1) == 1
    assert word_count("β2 = 0.98, fine_tune!") == 4 and word_count(" - ") == 0
    assert is_stub("Two words", 0, 9) and not is_stub("Three whole words", 0, 17)
    page = page_from_markdown(1, "## Methods and results\n\nCounts were taken at dusk.")
    assert is_stub(page.text, 0, 20, page.blocks)  # a heading alone
    assert not is_stub(page.text, 0, len(page.text), page.blocks)
    assert not is_stub(page.text, 0, 20)  # without blocks, nothing is known to be a heading
    assert not is_stub(page.text, 22, len(page.text), page.blocks)
    two = page_from_markdown(1, "## Methods and results\n## Second heading here")
    assert is_stub(two.text, 0, len(two.text), two.blocks)  # heading lines only
    assert drop_wordless([(0, 2), (3, 9), (10, 13)], "p. Two words !!!") == [(3, 9)]
    assert drop_wordless([(0, 11)], "Hello world") == [(0, 11)]


# -- fixed_size ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,size,overlap,expected", [
    ("Alpha beta gamma delta epsilon zeta eta. Done now.", 40, 0,
     ["Alpha beta gamma delta epsilon zeta eta.", "Done now."]),
    ("Alpha beta gamma delta epsilon zeta eta. Theta iota kappa lambda mu nu xi. Done now.", 40, 0,
     ["Alpha beta gamma delta epsilon zeta eta.", "Theta iota kappa lambda mu nu xi.", "Done now."]),
    ("Hello world", 40, 0, ["Hello world"]),
    ("One two three four five six seven eight nine ten eleven twelve", 20, 8,
     ["One two three four", "four five six seven", "seven eight nine ten", "nine ten eleven", "eleven twelve"]),
    ("One two three four five six seven eight nine ten eleven twelve", 20, 0,
     ["One two three four", "five six seven eight", "nine ten eleven"]),
    ("One two three four five six seven eight nine ten eleven twelve", 20, 30,  # at most half the size
     ["One two three four", "three four five six", "five six seven eight", "eight nine ten", "nine ten eleven",
      "ten eleven twelve"]),
    ("One two three. Four five six seven. Eight nine ten eleven. Twelve thirteen.", 30, 12,
     ["One two three. Four five six", "five six seven. Eight nine ten", "nine ten eleven. Twelve",
      "Twelve thirteen."]),
    ("  \n Indented start of a page here.  \n", 100, 0, ["Indented start of a page here."]),
    ("   \n  ", 100, 0, []),
    ("x y", 100, 0, ["x y"]),
])
def test_fixed_size_windows(text, size, overlap, expected):
    assert texts(text, fixed_size_spans([Page(1, text)], size, overlap)[0]) == expected


def test_fixed_size_overlap_starts_at_a_sentence_start_else_a_word_start():
    text = "Aaa bbb ccc ddd. Eee fff ggg hhh iii jjj kkk lll mmm."
    spans = fixed_size_spans([Page(1, text)], 24, 10)[0]
    assert texts(text, spans) == ["Aaa bbb ccc ddd. Eee fff", "Eee fff ggg hhh iii jjj", "iii jjj kkk lll mmm."]
    spans = fixed_size_spans([Page(1, text)], 22, 10)[0]
    assert texts(text, spans) == ["Aaa bbb ccc ddd.", "ccc ddd. Eee fff ggg", "fff ggg hhh iii jjj",
                                  "iii jjj kkk lll mmm."]
    text = "Aaaaaaaaaaaaaa aaaaaaaaaaaaaaa bbbbbbbb cccc dddd"  # the overlap is inside a word: skip past it
    assert texts(text, fixed_size_spans([Page(1, text)], 30, 10)[0]) == [
        "Aaaaaaaaaaaaaa aaaaaaaaaaaaaaa", "bbbbbbbb cccc dddd"]


def test_fixed_size_never_cuts_right_after_a_heading():
    page = page_from_markdown(1, "Some text about lamps here.\n\n## Methods\n\nCounts were taken at dusk and dawn.")
    assert texts(page.text, fixed_size_spans([page], 45, 0)[0]) == [
        "Some text about lamps here.\n\nMethods\n\nCounts", "were taken at dusk and dawn."]
    assert texts(page.text, fixed_size_spans([page], 30, 0)[0]) == [
        "Some text about lamps here.", "Methods\n\nCounts were taken at", "dusk and dawn."]


# -- recursive_char --------------------------------------------------------------------------------------------
def test_recursive_pieces_prefer_headings_then_sentences_and_stubs_join_their_neighbour():
    spans = recursive_char_spans([HEADED], 60, 10)[0]
    assert texts(HEADED.text, spans) == ["Lamps\n\nThe lighthouse lamp is lit at dusk.",
                                        "The lighthouse keeper climbs the stairs.",
                                        "Bread\n\nBread dough rises in a warm kitchen.",
                                        "Bake the bread dough for an hour."]
    assert texts(HEADED.text, recursive_char_spans([HEADED], 100, 0)[0]) == [
        f"Lamps\n\n{LAMP}", f"Bread\n\n{BREAD}"]
    tail = Page(1, f"{LAMP}\n\nThe end.")
    assert texts(tail.text, recursive_char_spans([tail], 80, 0)[0]) == [f"{LAMP}\n\nThe end."]
    alone = Page(1, "Hello world")
    assert recursive_char_spans([alone, Page(2, "  "), Page(3, "Hi")], 80, 0) == [[(0, 11)], [], []]


# -- semantic --------------------------------------------------------------------------------------------------
PAGE = Page(1, f"{LAMP} {BREAD} {LAMP}")


@pytest.mark.parametrize("kwargs,expected", [
    (dict(), [LAMP, f"{BREAD} {LAMP}"]),
    (dict(percentile=0), [LAMP, BREAD, LAMP]),
    (dict(size=50), ["The lighthouse lamp is lit at dusk.", "The lighthouse keeper climbs the stairs.",
                     "Bread dough rises in a warm kitchen.", "Bake the bread dough for an hour.",
                     "The lighthouse lamp is lit at dusk.", "The lighthouse keeper climbs the stairs."]),
    (dict(size=160, percentile=100), [LAMP, f"{BREAD} {LAMP}"]),
    (dict(percentile=0, min_chars=80), [f"{LAMP} {BREAD}", LAMP]),
])
def test_semantic_cuts_where_the_topic_changes(kwargs, expected):
    args = {"size": 200, "percentile": 90.0, "min_chars": 10, **kwargs}
    spans = semantic_spans([PAGE], topics, args["size"], args["percentile"], args["min_chars"])[0]
    assert texts(PAGE.text, spans) == expected


def test_semantic_embeds_every_sentence_once_and_checks_what_it_gets():
    calls = []

    def embed(batch):
        calls.append(list(batch))
        return topics(batch)

    semantic_spans([PAGE, Page(2, ""), Page(3, BREAD)], embed, 200, 90.0, 10)
    assert len(calls) == 1 and len(calls[0]) == 8
    assert semantic_spans([Page(1, " ")], embed, 200, 90.0, 10) == [[]]
    with pytest.raises(ValueError, match=r"^embed returned an array of shape \(2, 3\) for 6 sentences\.$"):
        semantic_spans([PAGE], lambda batch: topics(batch[:2]), 200, 90.0, 10)
    with pytest.raises(ValueError, match=r"shape \(18,\)"):
        semantic_spans([PAGE], lambda batch: topics(batch).ravel(), 200, 90.0, 10)


def test_semantic_headings_open_a_chunk_and_stay_with_their_text():
    spans = semantic_spans([HEADED], topics, 300, 100, 10)[0]
    assert texts(HEADED.text, spans) == [f"Lamps\n\n{LAMP}", f"Bread\n\n{BREAD}"]
    two = page_from_markdown(1, f"# Guide\n\n## Lamps\n\n{LAMP}")
    assert texts(two.text, semantic_spans([two], topics, 300, 0, 10)[0]) == [f"Guide\n\nLamps\n\n{LAMP}"]


def test_semantic_cuts_an_over_long_sentence_at_word_ends():
    long = Page(1, "word " * 30 + "end.")
    spans = semantic_spans([long], topics, 42, 90.0, 1)[0]
    assert all(b - a <= 42 for a, b in spans) and texts(long.text, spans)[0] == ("word " * 8).strip()
    assert texts(long.text, spans)[-1].endswith("end.") and len(spans) == 4


# -- chunk_pages -----------------------------------------------------------------------------------------------
def test_every_passage_carries_its_id_page_section_and_text():
    for strategy in STRATEGIES:
        chunks = chunk_pages([HEADED], doc_id="d", filename="guide.pdf", strategy=strategy, chunk_size=60,
                             chunk_overlap=10, embed=topics, semantic_min_chars=10)
        tag = STRATEGY_TAGS[strategy]
        assert [c.chunk_id for c in chunks] == [f"d-{tag}-p2-c{n}" for n in range(1, len(chunks) + 1)]
        for c in chunks:
            assert (c.doc_id, c.filename, c.page, c.strategy) == ("d", "guide.pdf", 2, strategy)
            assert c.text == HEADED.text[c.start:c.end] and c.end - c.start <= 60
            assert c.section == ("Bread" if c.start >= HEADED.text.index("Bread") - 1 else "Lamps")
    default = chunk_pages([HEADED], doc_id="d", filename="guide.pdf", chunk_size=100)
    assert [c.strategy for c in default] == ["recursive_char", "recursive_char"]
    assert [c.text for c in default] == [f"Lamps\n\n{LAMP}", f"Bread\n\n{BREAD}"]


def test_the_section_is_the_nearest_heading_above_else_the_inherited_one():
    page = Page(3, HEADED.text, blocks=HEADED.blocks, headings=["Earlier"])
    assert heading_at(page, 0) == "Lamps" and heading_at(page, len(page.text)) == "Bread"
    assert heading_at(Page(3, "text", headings=["Intro", "Earlier"]), 2) == "Earlier"
    assert heading_at(Page(3, "text"), 2) == ""
    late = Page(1, "Text first. Title", blocks=[Block("heading", 12, 17)])
    assert heading_at(late, 5) == "" and heading_at(late, 12) == "Title"
    labelled = chunk_pages([Page(1, LAMP, label="iv")], doc_id="d", filename="f", strategy="fixed_size")
    assert labelled[0].page_label == "iv" and labelled[0].blocks == []


def test_the_last_passage_of_a_page_takes_the_rest_of_a_sentence_from_the_next():
    pages = [Page(1, "The keeper counts the ships that pass the"), Page(2, "harbour at night. Then he sleeps.")]
    for strategy in ("fixed_size", "recursive_char"):
        chunks = chunk_pages(pages, doc_id="d", filename="f", strategy=strategy, chunk_size=200)
        assert chunks[0].text == "The keeper counts the ships that pass the harbour at night."
        assert (chunks[0].page, chunks[0].page_end) == (1, 2) and chunks[1].page_end == 2


def test_arguments_out_of_range_are_refused_with_the_choices():
    assert check_strategy("semantic") == "semantic"
    with pytest.raises(ValueError, match=r"^Unknown chunking strategy 'words'; choose one of fixed_size, "
                                         r"recursive_char, semantic\.$"):
        chunk_pages([HEADED], doc_id="d", filename="f", strategy="words")
    for size, overlap in ((0, 0), (10, -1)):
        with pytest.raises(ValueError, match=rf"^chunk_size must be at least 1 and chunk_overlap at least 0, got "
                                             rf"{size}, {overlap}\.$"):
            chunk_pages([HEADED], doc_id="d", filename="f", chunk_size=size, chunk_overlap=overlap)
    assert chunk_pages([HEADED], doc_id="d", filename="f", chunk_size=1, chunk_overlap=0)
    with pytest.raises(ValueError, match=r"^The semantic strategy needs an embed function"):
        chunk_pages([HEADED], doc_id="d", filename="f", strategy="semantic")
    for percentile in (-0.1, 100.5):
        with pytest.raises(ValueError, match=rf"^semantic_percentile must be within 0-100, got {percentile}\.$"):
            chunk_pages([HEADED], doc_id="d", filename="f", strategy="semantic", embed=topics,
                        semantic_percentile=percentile)
    for percentile in (0, 100):
        assert chunk_pages([HEADED], doc_id="d", filename="f", strategy="semantic", embed=topics,
                           semantic_percentile=percentile)


def test_recursive_neighbours_share_up_to_the_overlap_and_at_most_half_the_size():
    text = "aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp qq rr ss tt uu vv"
    spans = recursive_char_spans([Page(1, text)], 30, 14)[0]
    assert texts(text, spans) == ["aa bb cc dd ee ff gg hh ii jj", "gg hh ii jj kk ll mm nn oo pp",
                                  "mm nn oo pp qq rr ss tt uu vv"]
    assert texts(text, recursive_char_spans([Page(1, text)], 30, 100)[0]) == [
        "aa bb cc dd ee ff gg hh ii jj", "ff gg hh ii jj kk ll mm nn oo", "kk ll mm nn oo pp qq rr ss tt",
        "pp qq rr ss tt uu vv"]


def test_a_heading_split_off_by_the_splitter_opens_the_passage_after_it():
    page = page_from_markdown(1, "## Methods and results here\n\nCounts were taken at dusk and at dawn.")
    assert texts(page.text, recursive_char_spans([page], 40, 0)[0]) == [page.text]
    stub_last = Page(1, "Intro text is long enough to stand alone here. Done.")
    assert texts(stub_last.text, recursive_char_spans([stub_last], 48, 0)[0]) == [stub_last.text]
    lone = page_from_markdown(1, "## Methods and results here")
    assert texts(lone.text, recursive_char_spans([lone], 40, 0)[0]) == ["Methods and results here"]
    assert recursive_char_spans([Page(1, "Done.")], 40, 0) == [[]]


L1, B1 = "The lighthouse lamp is lit at dusk.", "Bread dough rises in a warm kitchen."


def test_semantic_reads_each_pages_own_vectors_in_a_document_of_several_pages():
    pages = [Page(1, LAMP), Page(2, f"{BREAD} {LAMP}"), Page(3, f"{LAMP} {BREAD}"), Page(4, B1)]
    spans = semantic_spans(pages, topics, 200, 50, 10)
    assert [texts(p.text, s) for p, s in zip(pages, spans)] == [[LAMP], [BREAD, LAMP], [LAMP, BREAD], [B1]]
    two = [Page(1, f"{L1} {B1}"), Page(2, LAMP)]
    assert [texts(p.text, s) for p, s in zip(two, semantic_spans(two, topics, 200, 0, 10))] == [[L1, B1], [LAMP]]
    singles = [Page(1, L1), Page(2, B1)]  # no page has two sentences: no drop to cut at
    assert semantic_spans(singles, topics, 200, 90, 10) == [[(0, 35)], [(0, 36)]]


def test_semantic_pieces_of_a_long_sentence_are_embedded_as_their_words():
    calls = []

    def embed(batch):
        calls.append(list(batch))
        return topics(batch)

    page = Page(1, "The   lighthouse keepers\nof the northern coast and their lamps.")
    assert texts(page.text, semantic_spans([page], embed, 30, 90, 1)[0]) == [
        "The   lighthouse keepers\nof", "the northern coast and their"]  # "lamps." alone is one word: dropped
    assert calls == [["The lighthouse keepers of", "the northern coast and their", "lamps."]]


def test_a_long_heading_cut_into_pieces_still_opens_its_section():
    page = page_from_markdown(1, f"## The lighthouse keepers of the northern coast and their lamps\n\n{LAMP} {BREAD}")
    assert texts(page.text, semantic_spans([page], topics, 40, 90, 10)[0]) == [
        "The lighthouse keepers of the northern", "coast and their lamps", L1,
        "The lighthouse keeper climbs the stairs.", B1, "Bake the bread dough for an hour."]
    assert texts(page.text, semantic_spans([page], topics, 100, 90, 10)[0]) == [
        f"The lighthouse keepers of the northern coast and their lamps\n\n{L1}",
        "The lighthouse keeper climbs the stairs.", BREAD]


def test_passages_keep_the_structure_of_their_text():
    chunks = chunk_pages([HEADED], doc_id="d", filename="guide.pdf", strategy="fixed_size", chunk_size=60,
                         chunk_overlap=10)
    assert [[(b.kind, b.start, b.end) for b in c.blocks] for c in chunks] == [
        [("heading", 0, 5)], [], [("heading", 9, 14)], []]  # offsets into each passage's own text
    assert chunks[1].start < chunks[0].end  # fixed-size windows overlap
    assert [c.text for c in chunks] == [
        "Lamps\n\nThe lighthouse lamp is lit at dusk.", "at dusk. The lighthouse keeper climbs the stairs.",
        "stairs.\n\nBread\n\nBread dough rises in a warm kitchen.", "kitchen. Bake the bread dough for an hour."]
    with pytest.raises(ValueError) as refused:
        chunk_pages([HEADED], doc_id="d", filename="f", strategy="semantic")
    assert str(refused.value) == ("The semantic strategy needs an embed function (texts -> unit vectors), e.g. "
                                  "retrieval.embedder.Embedder().encode.")


def test_a_window_that_ends_right_after_its_start_moves_on():
    text = "a bbbbbbbbbbbbbbbbbbbbbbbbbb cc dd"
    assert texts(text, fixed_size_spans([Page(1, text)], 20, 10)[0]) == ["bbbbbb cc dd"]


def test_the_default_passage_is_at_most_1000_characters_sharing_at_most_150():
    words = [f"w{i:03d}" for i in range(200)]  # 999 characters with their spaces
    page = Page(1, " ".join(words) + " a")  # 1001 characters: one too many for one passage
    assert [(c.start, c.end) for c in chunk_pages([page], doc_id="d", filename="f")] == [(0, 999), (850, 1001)]
    words[170] += "x"  # the 30 words before the cut now take 151 characters: one too many to share
    page = Page(1, " ".join(words) + " ab cd")
    assert [(c.start, c.end) for c in chunk_pages([page], doc_id="d", filename="f")] == [(0, 1000), (856, 1006)]
