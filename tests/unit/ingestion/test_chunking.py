"""Chunking: every strategy points into its page, ends on sentence ends, carries its section and prefix, has stable
ids, and keeps a sentence cut by a page break retrievable from one chunk."""

from __future__ import annotations

import functools
import re

import pytest

from ingestion.chunking import STRATEGIES, chunk_pages, ends_mid_sentence, starts_continuation
from core.types import Chunk, Page
from ingestion.reader import read_document
from ingestion.blocks import page_from_markdown
from ingestion.sentences import split_sentences
from tests.support import pdf_factory as pf

LIGHTHOUSES = [
    "The lighthouse stands on a granite cliff above the harbour entrance.",
    "Its lamp is lit every evening at sunset by the lighthouse keeper.",
    "The beam of the lighthouse can be seen by ships thirty miles out at sea.",
    "Keepers once climbed the spiral stairs of the tower to wind the lamp's clockwork.",
    "Lighthouse lenses were ground in France and shipped to coastal towers.",
    "Today most lighthouses are automated and their keepers have left the towers.",
]
BREAD = [
    "To bake bread, mix flour, water, salt and yeast into a dough.",
    "Knead the dough for ten minutes until it is smooth and elastic.",
    "Let the dough rise in a warm kitchen until it doubles in size.",
    "Shape the loaf and bake it in a hot oven for about forty minutes.",
    "A loaf of bread is done when it sounds hollow when tapped underneath.",
    "Let the baked bread cool on a rack before slicing it.",
]
CROSS_SENTENCE = "The team ran an experimental count of ships that passed each lighthouse at night."


# The model, the PDFs and their reading are made once per process (not once per module): a mutation run
# (`make mutation`) forks a process per mutant, and each fork then finds them ready.
@functools.cache
def _encode():
    """The real bundled model; sentences already seen are not embedded again (keeps the file fast)."""
    import numpy as np

    from retrieval.embedder import Embedder

    model, cache = Embedder(), {}

    def encode(texts):
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            cache.update(zip(missing, model.encode(missing)))
        return np.stack([cache[t] for t in texts])

    return encode


@pytest.fixture(scope="module")
def embed():
    return _encode()


@functools.cache
def _known_pages():
    return read_document(pf.known_text_pdf(), "survey.pdf").pages


@pytest.fixture(scope="module")
def known_pages():
    return _known_pages()


@pytest.fixture(scope="module")
def cross_page_pdf_pages():
    return _cross_page_pdf_pages()


@functools.cache
def _cross_page_pdf_pages():
    """A real PDF whose sentence "The team ran an experi- / mental count ..." runs from page 1 onto page 2, and
    whose sentence "... harbour records, which / list every ship by name." runs from page 2 onto page 3."""
    body = pf.BODY_SIZE
    pages = [
        [(pf.HEADING_INTRO, pf.HEADING_SIZE),
         (pf.KNOWN_PAGE_FACTS[1], body),
         ("Each keeper kept a written log of the passing ships at night.", body),
         ("The team ran an experi-", body)],
        [("mental count of ships that passed each lighthouse at night.", body),
         ("The logs were copied by hand and checked against the harbour records, which", body)],
        [("list every ship by name.", body),
         (pf.HEADING_METHODS, pf.HEADING_SIZE),
         ("Counts were taken at dusk and again at dawn by two observers.", body)],
    ]
    return read_document(pf.make_pdf(pages), "crossing.pdf").pages


def chunk(pages, strategy, embed, **kwargs):
    kwargs.setdefault("doc_id", "d1")
    kwargs.setdefault("filename", "survey.pdf")
    return chunk_pages(pages, strategy=strategy, embed=embed, **kwargs)


def assert_offsets(chunks, pages):
    """``text`` is the page's text at ``start:end``, then (across a break) a joiner and the next page's start."""
    by_number = {p.number: p for p in pages}
    for c in chunks:
        page = by_number[c.page]
        assert page.text[c.start:c.end] == c.on_page_text == c.text[:c.end - c.start], c
        if c.continuation_chars:
            assert c.page_end == c.page + 1
            assert by_number[c.page_end].text.lstrip().startswith(c.continuation)
            joiner = c.text[c.end - c.start:len(c.text) - c.continuation_chars]
            assert joiner in ("", " ")
            assert c.text == c.on_page_text + joiner + c.continuation
        else:
            assert c.page_end == c.page and c.text == c.on_page_text and c.continuation == ""


def flat(text: str) -> str:
    return " ".join(text.split())


# --- every strategy ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("strategy", STRATEGIES)
def test_chunks_point_into_their_page_and_facts_stay_on_their_page(known_pages, strategy, embed):
    chunks = chunk(known_pages, strategy, embed, chunk_size=200, chunk_overlap=30, semantic_min_chars=50)
    assert {c.page for c in chunks} == {1, 2, 3}
    assert all(c.strategy == strategy for c in chunks)
    assert_offsets(chunks, known_pages)
    fact_pages = {page: [c.page for c in chunks if fact in flat(c.text)] for page, fact in pf.KNOWN_PAGE_FACTS.items()}
    assert all(found and set(found) == {page} for page, found in fact_pages.items()), fact_pages


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_section_follows_headings_across_pages(known_pages, strategy, embed):
    chunks = chunk(known_pages, strategy, embed, chunk_size=200, chunk_overlap=0, semantic_min_chars=50)
    first_on_page2 = next(c for c in chunks if c.page == 2)
    assert pf.INTRO_CONTINUES[:30] in first_on_page2.text
    assert first_on_page2.section == pf.HEADING_INTRO  # the heading is on page 1; its section goes on
    sampling = next(c for c in chunks if "chosen at random" in c.text)
    assert sampling.section == pf.HEADING_SAMPLING
    assert next(c for c in chunks if c.page == 3).section == pf.HEADING_SAMPLING


def test_prefix_is_for_embedding_only(known_pages):
    chunk_ = chunk_pages(known_pages, doc_id="d1", filename="survey.pdf")[0]
    assert chunk_.prefix == f"survey.pdf | Page 1 | {pf.HEADING_INTRO}"
    assert chunk_.embedding_text() == f"{chunk_.prefix}\n{chunk_.text}"
    assert "| Page" not in chunk_.text


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_ids_are_deterministic_unique_and_tagged(known_pages, strategy, embed):
    a = chunk(known_pages, strategy, embed, chunk_size=150, chunk_overlap=20)
    b = chunk(known_pages, strategy, embed, chunk_size=150, chunk_overlap=20)
    assert [c.chunk_id for c in a] == [c.chunk_id for c in b]
    assert len({c.chunk_id for c in a}) == len(a)
    tag = {"fixed_size": "fs", "recursive_char": "rc", "semantic": "se"}[strategy]
    for c in a:
        assert re.fullmatch(rf"d1-{tag}-p{c.page}-c\d+", c.chunk_id), c.chunk_id
    numbers = [int(c.chunk_id.rsplit("-c", 1)[1]) for c in a if c.page == 2]
    assert numbers == list(range(1, len(numbers) + 1))


def test_two_strategies_of_one_document_never_share_an_id(known_pages, embed):
    ids = [c.chunk_id for s in STRATEGIES for c in chunk(known_pages, s, embed, chunk_size=150, chunk_overlap=20)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_heading_is_never_a_passage_on_its_own(strategy, embed):
    long_paragraph = " ".join(f"Sentence number {i} talks about lighthouses and ships." for i in range(40))
    page = page_from_markdown(1, f"## 4 Results\n\n{long_paragraph}\n\n## 5 Discussion\n\nShort closing words here.")
    chunks = chunk([page], strategy, embed, chunk_size=300, chunk_overlap=0)
    assert chunks[0].text.startswith("4 Results\n\nSentence number 0")
    assert "#" not in "".join(c.text for c in chunks)  # clean text: the heading is a block, not markup
    headings = {"4 Results", "5 Discussion"}
    assert all(not all(line in headings for line in c.text.splitlines() if line.strip()) for c in chunks)
    assert all(c.text[b.start:b.end] in headings for c in chunks for b in c.blocks if b.kind == "heading")
    assert chunks[-1].section == "5 Discussion" and "Short closing words" in chunks[-1].text


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_long_paragraphs_are_cut_at_sentence_ends(strategy, embed):
    text = " ".join(f"This is sentence {i} of a long paragraph about harbour records." for i in range(60))
    chunks = chunk([Page(1, text)], strategy, embed, doc_id="d", filename="f.txt", chunk_size=400,
                   chunk_overlap=60)
    assert len(chunks) > 5
    assert all(c.text.endswith(".") for c in chunks)
    assert all(len(c.text) <= 400 for c in chunks)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_chunks_end_on_sentence_ends_with_abbreviations_and_stay_within_the_bound(strategy, embed):
    """Bound: ``end - start <= chunk_size`` for fixed_size and semantic; recursive_char may add one joined stub
    (a heading line here). A chunk ending where no sentence ends would have cut "e.g." or "Fig. 2" apart."""
    sentences = [
        "Adam (Kingma et al., 2015) uses a step size of 0.001 by default, e.g. on MNIST.",
        "Fig. 2 shows the training cost of the logistic regression model over many epochs.",
        "The bias correction matters most when beta two is close to one, as Eq. 3 shows.",
        "We compare it with AdaGrad and RMSProp, i.e. the methods closest to ours.",
    ]
    paragraphs = [" ".join(sentences[(i + k) % 4] for k in range(4)) for i in range(6)]
    text = "## 6 Experiments\n\n" + "\n\n".join(paragraphs[:3]) + "\n\n## 7 Results\n\n" + "\n\n".join(paragraphs[3:])
    page = page_from_markdown(1, text)
    size = 350
    chunks = chunk([page], strategy, embed, chunk_size=size, chunk_overlap=80, semantic_min_chars=100)
    assert_offsets(chunks, [page])
    stub = len("7 Results\n\n")
    for c in chunks:
        assert c.end - c.start <= size + (stub if strategy == "recursive_char" else 0), (c.end - c.start, c.text)
        assert c.text.endswith("."), c.text
    assert [c.section for c in chunks][-1] == "7 Results"
    assert chunks[0].section == "6 Experiments"


def test_fixed_size_windows_overlap_and_start_at_sentence_or_word_starts():
    text = " ".join(f"Record {i} lists {i * 3} ships, e.g. the Marsupia and the Fredonia, at dawn." for i in range(30))
    page = Page(1, text)
    chunks = chunk_pages([page], doc_id="d", filename="f", strategy="fixed_size", chunk_size=300, chunk_overlap=90)
    starts = {s.start for s in split_sentences(text)}
    for prev, cur in zip(chunks, chunks[1:]):
        assert prev.start < cur.start < prev.end, "neighbours share some text"
        assert prev.end - cur.start <= 90
        assert cur.start in starts or text[cur.start - 1] == " "
        assert cur.end - cur.start <= 300
    assert all(c.text.endswith("dawn.") for c in chunks)
    assert chunks[-1].end == len(text)


def test_fixed_size_never_cuts_a_word_in_text_without_sentence_ends():
    text = " ".join(f"word{i}" for i in range(400))  # no full stop anywhere
    chunks = chunk_pages([Page(1, text)], doc_id="d", filename="f", strategy="fixed_size", chunk_size=200,
                         chunk_overlap=30)
    words = set(text.split())
    for c in chunks:
        assert c.end - c.start <= 200
        assert set(c.text.split()) <= words  # every piece is a whole word
    assert {w for c in chunks for w in c.text.split()} == words


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="recursive_char"):
        chunk_pages([Page(1, "some words here")], doc_id="d", filename="f", strategy="magic")


def test_semantic_needs_an_embed_function():
    with pytest.raises(ValueError, match="embed"):
        chunk_pages([Page(1, "some words here")], doc_id="d", filename="f", strategy="semantic")


# --- sentences across a page break -------------------------------------------------------------------------------

@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_sentence_across_a_page_break_is_in_one_chunk_citing_both_pages(cross_page_pdf_pages, strategy, embed):
    pages = cross_page_pdf_pages
    assert pages[0].text.endswith("experi-") and pages[1].text.startswith("mental")  # as printed
    chunks = chunk(pages, strategy, embed, filename="crossing.pdf", chunk_size=200, chunk_overlap=30,
                   semantic_min_chars=50)
    assert_offsets(chunks, pages)

    holders = [c for c in chunks if CROSS_SENTENCE in flat(c.text)]
    assert len(holders) == 1, [c.text for c in chunks]
    hit = holders[0]
    assert (hit.page, hit.page_end) == (1, 2) and list(hit.pages) == [1, 2]
    assert hit.end == len(pages[0].text) - 1  # the line-break hyphen is dropped, just past ``end``
    assert hit.continuation == "mental count of ships that passed each lighthouse at night."
    assert hit.prefix.startswith("crossing.pdf | Pages 1-2")
    assert hit.section == pf.HEADING_INTRO

    second = next(c for c in chunks if "harbour records, which list every ship by name." in flat(c.text))
    assert (second.page, second.page_end) == (2, 3)
    assert second.text.endswith("records, which list every ship by name.")  # joined with one space
    assert second.section == pf.HEADING_INTRO
    # The next page's own chunks still hold the continuation.
    assert any(c.page == 2 and c.text.startswith("mental count") for c in chunks)
    assert any(c.page == 3 and c.text.startswith("list every ship") for c in chunks)


def test_a_hyphenated_word_the_document_writes_elsewhere_keeps_its_hyphen():
    pages = [Page(1, "The method is well-known among sailors. Its results are well-"),
             Page(2, "known to the harbour office. Other text follows here.")]
    hit = chunk_pages(pages, doc_id="d", filename="f", strategy="recursive_char")[0]
    assert hit.text.endswith("Its results are well-known to the harbour office.")
    assert (hit.end, hit.page_end) == (len(pages[0].text), 2)


@pytest.mark.parametrize("page1, page2, joined", [
    ("We ran three trials with", "12 ships each. Then we stopped.", "with 12 ships each."),
    ("The result, shown in the table", "(see below), holds. Then more.", None),  # "(" may open anything
    ("The counts were checked", ", then stored. More text.", "checked , then stored."),
    ("A full sentence ends here.", "lower case start after a full stop. More.", None),
    ("Nothing ends here", "Upper case start is a new sentence. More.", None),
    ("## 3 Heading at the page end", "text under it. More.", None),
    ("|a|b|\n|---|---|\n|1|2|", "continues the table. More.", None),
    ("Text stops during", "0.5 0.4 0.3 iterations training cost\n\nFigure 1: Cost.", None),  # figure labels
    ("A long one ends with", "words " * 120 + "the end. More.", None),  # over max(chunk_size // 2, 300)
])
def test_which_page_breaks_are_joined(page1, page2, joined):
    pages = [Page(1, page1), Page(2, page2)]
    chunks = chunk_pages(pages, doc_id="d", filename="f", strategy="fixed_size", chunk_size=400)
    first = chunks[0]
    if joined is None:
        assert first.page_end == 1 and first.text == page1.rstrip()
    else:
        assert first.page_end == 2 and first.text.endswith(joined)


def test_no_join_over_a_missing_page():
    pages = [Page(1, "We ran three trials with"), Page(3, "twelve ships each. Then we stopped.")]
    assert all(c.page_end == c.page for c in chunk_pages(pages, doc_id="d", filename="f"))


def test_page_break_predicates():
    assert ends_mid_sentence("words and") and ends_mid_sentence("an experi-")
    assert not ends_mid_sentence('He said "stop."') and not ends_mid_sentence("(see Fig. 3.)")
    assert not ends_mid_sentence("") and not ends_mid_sentence("# Heading")
    assert starts_continuation("mental count") and starts_continuation("  2 ships") and starts_continuation("; and")
    assert not starts_continuation("The next") and not starts_continuation("- item") and not starts_continuation("")


def test_stored_chunks_without_page_end_still_load():
    old = {"chunk_id": "a-p1-c0", "doc_id": "a", "filename": "a.pdf", "page": 4, "section": "", "text": "t",
           "start": 0, "end": 1, "strategy": "recursive_char"}
    c = Chunk.from_dict(old)
    assert (c.page_end, c.continuation_chars, c.continuation) == (4, 0, "")
    assert Chunk.from_dict(c.to_dict()) == c
    assert Chunk.from_dict({**c.to_dict(), "added_later": 1}) == c


# --- semantic -----------------------------------------------------------------------------------------------------

def test_semantic_cuts_at_the_topic_change(embed):
    page = Page(1, " ".join(LIGHTHOUSES + BREAD))
    chunks = chunk_pages([page], doc_id="d", filename="f", strategy="semantic", embed=embed, chunk_size=2000,
                         semantic_min_chars=100)
    assert [flat(c.text) for c in chunks] == [" ".join(LIGHTHOUSES), " ".join(BREAD)]


def test_semantic_splits_an_over_long_chunk_at_its_largest_drop(embed):
    page = Page(1, " ".join(LIGHTHOUSES + BREAD))
    # A percentile this high makes no cut; only the size limit does, and the largest drop is the topic change.
    chunks = chunk_pages([page], doc_id="d", filename="f", strategy="semantic", embed=embed, chunk_size=600,
                         semantic_percentile=99.99, semantic_min_chars=0)
    assert len(chunks) >= 2 and all(c.end - c.start <= 600 for c in chunks)
    assert any(c.text.endswith(LIGHTHOUSES[-1]) for c in chunks)


def test_semantic_joins_short_pieces_up_to_the_minimum(embed):
    page = Page(1, " ".join(LIGHTHOUSES + BREAD))
    chunks = chunk_pages([page], doc_id="d", filename="f", strategy="semantic", embed=embed, chunk_size=400,
                         semantic_percentile=1, semantic_min_chars=150)  # cut nearly everywhere, then join
    assert all(c.end - c.start <= 400 for c in chunks)
    assert all(c.end - c.start >= 150 for c in chunks)


def test_semantic_embeds_each_sentence_once_in_one_call(known_pages, embed):
    calls = []

    def counting(texts):
        calls.append(list(texts))
        return embed(texts)

    chunk_pages(known_pages, doc_id="d", filename="f", strategy="semantic", embed=counting)
    sentences = [s.text for p in known_pages for s in split_sentences(p.text)]
    assert len(calls) == 1 and calls[0] == sentences


def test_semantic_cuts_an_over_long_sentence_at_word_ends(embed):
    text = "The register lists " + ", ".join(f"lighthouse number {i}" for i in range(80)) + "."
    chunks = chunk_pages([Page(1, text)], doc_id="d", filename="f", strategy="semantic", embed=embed,
                         chunk_size=300, semantic_min_chars=0)
    assert len(chunks) > 1 and all(c.end - c.start <= 300 for c in chunks)
    assert flat(" ".join(c.text for c in chunks)) == text


# --- sentence splitting -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Many optimizers, e.g. Adam and RMSProp, adapt. Next.", ["Many optimizers, e.g. Adam and RMSProp, adapt."]),
    ("As shown by Smith et al. the method converges. Next.", ["As shown by Smith et al. the method converges."]),
    ("Smith et al. (2015) showed this. Next.", ["Smith et al. (2015) showed this."]),
    ("See Fig. 2 for details. Next.", ["See Fig. 2 for details."]),
    ("See Figs. 2 and 3 and Eq. 4 here. Next.", ["See Figs. 2 and 3 and Eq. 4 here."]),
    ("The learning rate was 0.001 in all runs. Next.", ["The learning rate was 0.001 in all runs."]),
    ("Adam is popular (Kingma et al., 2015). Next.", ["Adam is popular (Kingma et al., 2015)."]),
    ("It uses approx. 20 GB, cf. Fig. 1b. Next.", ["It uses approx. 20 GB, cf. Fig. 1b."]),
    ("Is it? No. Next.", ["Is it?", "No."]),  # a real "No." still ends a sentence
])
def test_abbreviations_decimals_and_citations_do_not_end_a_sentence(text, expected):
    got = [s.text for s in split_sentences(text)]
    assert got[:len(expected)] == expected and got[-1] == "Next."


def test_sentence_offsets_headings_and_line_breaks():
    text = ("## 2 Methods\n\nCounts were taken at dusk.  Both observers wrote\ntheir counts down\n\n- A list item\n"
            "- another item\n|a|b|\n|1|2|\n# 3 Results\nText under it")
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == [
        "2 Methods", "Counts were taken at dusk.", "Both observers wrote their counts down",  # a wrapped line joins
        "A list item", "another item", "|a|b|", "|1|2|", "3 Results", "Text under it"]
    assert [s.heading for s in sentences] == [True, False, False, False, False, False, False, True, False]
    assert text[sentences[2].start:sentences[2].end] == "Both observers wrote\ntheir counts down"
    assert all(text[s.start:s.end].strip() == text[s.start:s.end] for s in sentences)
