"""Reading uploads: what the user gets back (pages, text, headings, warnings) and how bad files are refused."""

from __future__ import annotations

import re

import pymupdf
import pytest

from core.errors import (
    DamagedPdf, EmptyFile, EncryptedPdf, FileTooLarge, IngestError, NoTextLayer, NotAPdf, UnsupportedFileType,
)
from ingestion.reader import read_document
from ingestion.repair import clean_markdown, hyphenated_vocabulary, repair_text
from tests.support import pdf_factory as factory
from tests.support import ROOT

DOCS = ROOT.parent / "shared" / "eval" / "docs"


def squash(text: str) -> str:
    """Lower-case text with runs of whitespace collapsed, for matching sentences across line breaks."""
    return re.sub(r"\s+", " ", text).strip().lower()


@pytest.fixture(scope="module")
def known():
    # Layout reading costs ~0.3 s a page, so the known PDF is read once for all tests that only look at it.
    return read_document(factory.known_text_pdf(), "known.pdf")


# --- A PDF with known content ----------------------------------------------------------------------------------


def test_pages_are_numbered_physically(known):
    assert known.page_count == 3
    assert [p.number for p in known.pages] == [1, 2, 3]
    assert known.filename == "known.pdf"
    assert known.warnings == []


@pytest.mark.parametrize("number", [1, 2, 3])
def test_known_sentence_lands_on_its_page(known, number):
    sentence = squash(factory.KNOWN_PAGE_FACTS[number])
    pages_with_it = [p.number for p in known.pages if sentence in squash(p.text)]
    assert pages_with_it == [number]


def test_line_end_hyphenation_is_rejoined(known):
    page1 = known.pages[0].text
    assert factory.JOINED_WORD in page1
    assert "experi-" not in page1 and "experi " not in page1


def test_word_the_document_hyphenates_keeps_its_hyphen(known):
    page1 = squash(known.pages[0].text)
    assert "results are well-known to the harbour office" in page1
    assert "method is well-known among" in page1
    assert "wellknown" not in page1


def test_heading_path_carries_over_pages(known):
    assert [p.headings for p in known.pages] == [
        factory.KNOWN_PAGE_HEADINGS[n] for n in (1, 2, 3)
    ]


def test_heading_text_is_kept_in_the_page_as_a_heading_block_without_markup(known):
    assert known.pages[0].text.startswith(f"{factory.HEADING_INTRO}\n\n")
    assert f"\n{factory.HEADING_METHODS}\n" in known.pages[1].text
    assert "#" not in known.pages[0].text + known.pages[1].text
    headings = [p.text[b.start:b.end] for p in known.pages[:2] for b in p.blocks if b.kind == "heading"]
    assert factory.HEADING_INTRO in headings and factory.HEADING_METHODS in headings


def test_title_falls_back_to_first_heading(known):
    assert known.title == factory.HEADING_INTRO


def test_title_comes_from_metadata():
    result = read_document(factory.make_pdf([[("Some body text on the page.", 11)] * 3], title="A Title"), "t.pdf")
    assert result.title == "A Title"


def test_title_falls_back_to_filename():
    result = read_document(factory.make_pdf([[("Plain text without any heading at all.", 11)] * 3]), "plain.pdf")
    assert result.title == "plain.pdf"


def test_markup_is_removed_from_the_text(known):
    for page in known.pages:
        assert "**" not in page.text and "<br>" not in page.text and "<!--" not in page.text


def test_pdfplumber_is_not_opened_for_good_pages(known, monkeypatch):
    import pdfplumber

    def fail(*args, **kwargs):
        raise AssertionError("pdfplumber opened for a page the layout reader read well")

    monkeypatch.setattr(pdfplumber, "open", fail)
    result = read_document(factory.known_text_pdf(), "known.pdf")
    assert {p.reader for p in result.pages} == {"pymupdf4llm"}


# --- Falling back to pdfplumber ------------------------------------------------------------------------------------


def _fake_layout(texts):
    """A stand-in for pymupdf4llm.to_markdown returning the given Markdown per page."""

    def to_markdown(doc, **kwargs):
        return [{"text": t, "metadata": {"page_number": i + 1}} for i, t in enumerate(texts)]

    return to_markdown


def test_page_that_lost_words_is_reread(monkeypatch):
    import pymupdf4llm

    lines = factory.known_text_lines()
    layout = [
        "\n".join(t for t, _ in lines[0]),
        "Only a fragment survived.",  # the layout reader lost most of page 2
        "\n".join(t for t, _ in lines[2]),
    ]
    monkeypatch.setattr(pymupdf4llm, "to_markdown", _fake_layout(layout))
    result = read_document(factory.known_text_pdf(), "known.pdf")
    assert [p.reader for p in result.pages] == ["pymupdf4llm", "pdfplumber", "pymupdf4llm"]
    assert squash(factory.KNOWN_PAGE_FACTS[2]) in squash(result.pages[1].text)


@pytest.mark.parametrize("garbage", ["\ufffd" * 40, "(cid:12)(cid:7)(cid:99) " * 20, "   \n\n"])
def test_garbled_or_empty_layout_text_is_reread(monkeypatch, garbage):
    import pymupdf4llm

    lines = factory.known_text_lines()
    layout = ["\n".join(t for t, _ in lines[0]), garbage, "\n".join(t for t, _ in lines[2])]
    monkeypatch.setattr(pymupdf4llm, "to_markdown", _fake_layout(layout))
    result = read_document(factory.known_text_pdf(), "known.pdf")
    assert result.pages[1].reader == "pdfplumber"
    assert "\ufffd" not in result.pages[1].text and "(cid:" not in result.pages[1].text
    assert squash(factory.KNOWN_PAGE_FACTS[2]) in squash(result.pages[1].text)


def test_layout_reader_failure_falls_back_for_every_page(monkeypatch):
    import pymupdf4llm

    def broken(*args, **kwargs):
        raise RuntimeError("layout model crashed")

    monkeypatch.setattr(pymupdf4llm, "to_markdown", broken)
    result = read_document(factory.known_text_pdf(), "known.pdf")
    assert [p.reader for p in result.pages] == ["pdfplumber"] * 3
    assert any("layout reader failed" in w for w in result.warnings)
    for number, sentence in factory.KNOWN_PAGE_FACTS.items():
        assert squash(sentence) in squash(result.pages[number - 1].text)
    # pdfplumber keeps the printed line breaks, so re-joining is exercised here too.
    page1 = squash(result.pages[0].text)
    assert factory.JOINED_WORD in page1 and "results are well-known to" in page1


def test_sideways_text_is_recovered():
    # Most of the page runs sideways: it is turned upright for the layout reader, and the one upright line (now
    # running across the page) is added back.
    result = read_document(factory.sideways_text_pdf(), "sideways.pdf")
    page = squash(result.pages[0].text)
    for sentence in factory.SIDEWAYS_SENTENCES:
        assert squash(sentence) in page
    assert "sideways figure page" in page
    assert result.pages[0].reader == "pymupdf4llm"


def test_plain_text_is_used_when_both_readers_lose_most_words(monkeypatch):
    import pymupdf4llm

    from ingestion.pdf import reread

    lines = factory.known_text_lines()
    layout = ["\n".join(t for t, _ in lines[0]), "Only a fragment survived.", "\n".join(t for t, _ in lines[2])]
    monkeypatch.setattr(pymupdf4llm, "to_markdown", _fake_layout(layout))
    monkeypatch.setattr(reread.LazyPlumber, "page_text", lambda self, index, **kwargs: "Another fragment.")
    result = read_document(factory.known_text_pdf(), "known.pdf")
    assert result.pages[1].reader == "pymupdf"
    assert squash(factory.KNOWN_PAGE_FACTS[2]) in squash(result.pages[1].text)


def test_one_line_page_dropped_as_header_is_recovered():
    # The layout reader takes a lone line at the top of a page for a running header and drops it.
    result = read_document(factory.make_pdf([[("A single line of text.", 11)]]), "one.pdf")
    assert result.pages[0].text == "A single line of text."


# --- Pages without text --------------------------------------------------------------------------------------------


def test_blank_page_is_kept_and_named_in_a_warning():
    result = read_document(factory.mixed_blank_page_pdf(), "mixed.pdf")
    assert [p.number for p in result.pages] == [1, 2, 3]
    assert result.pages[1].text == ""
    assert "Third page text." in result.pages[2].text
    assert "page 2 has no extractable text" in result.warnings


def test_image_only_pdf_has_no_text_layer():
    # Its image covers a small part of each page, so it is no scan for OCR either.
    with pytest.raises(NoTextLayer) as err:
        read_document(factory.image_only_pdf(pages=2), "scan.pdf")
    assert err.value.status_code == 422
    assert "'scan.pdf'" in str(err.value) and "scanned" in str(err.value)


def test_scan_with_ocr_off_has_no_text_layer():
    from tests.support.scan_factory import scanned_pdf

    with pytest.raises(NoTextLayer) as err:
        read_document(scanned_pdf([["A scanned page."], ["Another one."]]), "scan.pdf", ocr=False)
    assert err.value.status_code == 422
    assert "'scan.pdf' has no text layer (it looks scanned)" in str(err.value)
    assert "OCR is turned off" in str(err.value)


# --- Files that cannot be read -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "filename", "error", "status", "phrase"),
    [
        (b"", "empty.pdf", EmptyFile, 400, "empty"),
        (factory.NOT_A_PDF, "page.pdf", NotAPdf, 415, "is not a PDF"),
        (factory.encrypted_pdf(), "locked.pdf", EncryptedPdf, 422, "password-protected"),
        (factory.truncated_pdf(), "cut.pdf", DamagedPdf, 422, "truncated"),
        (factory.zero_page_pdf(), "nopages.pdf", DamagedPdf, 422, "has no pages"),
        (b"%PDF-1.7\nnot really a pdf", "junk.pdf", DamagedPdf, 422, "damaged"),
        (b"PK\x03\x04 zip bytes", "report.docx", UnsupportedFileType, 415, ".txt"),
        (b"no extension", "README", UnsupportedFileType, 415, ".pdf"),
    ],
)
def test_bad_input_is_refused_with_a_specific_message(data, filename, error, status, phrase):
    with pytest.raises(error) as err:
        read_document(data, filename)
    assert err.value.status_code == status
    assert f"'{filename}'" in str(err.value)
    assert phrase in str(err.value)


def test_oversized_file_names_size_and_limit():
    data = b"%PDF-1.4\n" + b"0" * (3 * 1024 * 1024)
    with pytest.raises(FileTooLarge) as err:
        read_document(data, "big.pdf", max_bytes=2 * 1024 * 1024)
    assert err.value.status_code == 413
    assert "'big.pdf' is 3.0 MB" in str(err.value) and "2 MB limit" in str(err.value)


def test_size_limit_is_checked_before_the_type():
    with pytest.raises(FileTooLarge):
        read_document(b"x" * 11, "notes.exe", max_bytes=10)


def test_empty_user_password_pdf_reads():
    result = read_document(factory.empty_user_password_pdf(), "restricted.pdf")
    assert result.pages[0].text == factory.EMPTY_PASSWORD_SENTENCE


def test_unexpected_library_error_becomes_damaged_pdf(monkeypatch):
    def explode(self, *args, **kwargs):
        raise RuntimeError("code=2: cannot parse content stream")

    monkeypatch.setattr(pymupdf.Page, "get_text", explode)
    with pytest.raises(DamagedPdf) as err:
        read_document(factory.make_pdf([[("Text.", 11)]]), "broken.pdf")
    assert "'broken.pdf'" in str(err.value)


def test_path_in_filename_is_reduced_to_the_name():
    with pytest.raises(IngestError) as err:
        read_document(b"", "C:\\Users\\me\\Downloads\\report.pdf")
    assert "'report.pdf'" in str(err.value) and "Users" not in str(err.value)


# --- Text files ----------------------------------------------------------------------------------------------------


def test_text_file_form_feeds_split_pages():
    data = "First page about owls.\fSecond page about\nexperi-\nmental otters.\fThird page.\f".encode()
    result = read_document(data, "notes.txt")
    assert [p.number for p in result.pages] == [1, 2, 3]
    assert [p.reader for p in result.pages] == ["text"] * 3
    assert result.pages[1].text == "Second page about\nexperimental otters."
    assert result.title == "notes.txt"
    assert result.warnings == []


def test_text_file_without_form_feed_is_one_page():
    result = read_document(b"\xef\xbb\xbfOne page only.\r\nSecond line.", "one.txt")  # UTF-8 with BOM, CRLF
    assert result.page_count == 1
    assert result.pages[0].text == "One page only.\nSecond line."


def test_cp1252_text_is_read_with_a_warning():
    result = read_document("Caf\u00e9 costs 5 \u20ac \u2013 cheap.".encode("cp1252"), "menu.txt")
    assert result.pages[0].text == "Caf\u00e9 costs 5 \u20ac \u2013 cheap."
    assert len(result.warnings) == 1 and "not UTF-8" in result.warnings[0] and "'menu.txt'" in result.warnings[0]


def test_markdown_headings_feed_heading_paths():
    data = "# Guide\n\n## Setup\n\nInstall it.\f## Usage\n\n```\n# not a heading\n```\nRun it.\fMore usage.".encode()
    result = read_document(data, "guide.md")
    assert [p.headings for p in result.pages] == [[], ["Guide", "Setup"], ["Guide", "Usage"]]
    assert result.title == "Guide"


def test_text_file_repairs_ligatures_and_cid_placeholders():
    result = read_document("The \ufb01eld(cid:12) was \ufb02at.".encode(), "lig.txt")
    assert result.pages[0].text == "The field was flat."


@pytest.mark.parametrize("data", [b"   \n\t\f \n", "\ufeff".encode()])
def test_whitespace_only_text_file_is_refused(data):
    with pytest.raises(EmptyFile) as err:
        read_document(data, "blank.txt")
    assert err.value.status_code == 400 and "'blank.txt'" in str(err.value)


def test_empty_text_page_is_named_in_a_warning():
    result = read_document(b"Page one.\f\fPage three.", "gap.txt")
    assert [p.text for p in result.pages] == ["Page one.", "", "Page three."]
    assert "page 2 has no extractable text" in result.warnings


# --- Repairs -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("We introduce _Adam_ , an algorithm", "We introduce Adam, an algorithm"),
        ("intended to be **_voluntary_** , rights-preserving", "intended to be voluntary, rights-preserving"),
        ("## **1 Introduction**", "## 1 Introduction"),
        ("|**Part 1**|Foundational Information|4|", "|Part 1|Foundational Information|4|"),
        ("- **Govern** tasks", "- Govern tasks"),
        ("<!-- Start of picture text -->x<br>y<!-- End of picture text -->", "x y"),
        ("1<sup>st</sup> and H<sub>2</sub>O, <u>see</u> ~~√~~ T", "1st and H2O, see √ T"),
        ("(_Adam_) and `code` ; _x_ :", "(Adam) and code; x:"),
        ("during the**MAP**function and **GOVERN**function", "during the MAP function and GOVERN function"),
        *[(kept, kept) for kept in ["snake_case and __init__ stay", "<EOS> and a < b stay"]],
    ],
)
def test_clean_markdown(markdown, expected):
    assert clean_markdown(markdown) == expected


def test_repair_text():
    vocab = hyphenated_vocabulary(["the state-of-the-art method", "is well-known"])
    text = "optimiza-\ntion of the state-of-\nthe-art and  well-\n\nknown\tways\n\n\n\n\ufb01ne (cid:3)end  \n"
    assert repair_text(text, vocab) == "optimization of the state-of-the-art and well-known ways\n\nfine end"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\u03b1 = 0 . 001, \u03b2 = 0 .999 and 3 .3", "\u03b1 = 0.001, \u03b2 = 0.999 and 3.3"),
        ("It rose in 2019. 2020 was flat.", "It rose in 2019. 2020 was flat."),
        ("Counts 1 , 2 . Then 3 ... 5", "Counts 1 , 2 . Then 3 ... 5"),
    ],
)
def test_repair_text_closes_up_spaced_decimal_points(text, expected):
    assert repair_text(text) == expected


def test_repair_text_keeps_compounds_with_capital_or_digit():
    assert repair_text("Anglo-\nSaxon and COVID-\n19", set()) == "Anglo-Saxon and COVID-19"


def test_hyphenated_vocabulary_ignores_split_halves():
    vocab = hyphenated_vocabulary(["A rights-preserving, State-of-the-Art idea", "self-\nsupervised x-\ny-z"])
    assert vocab == {"rights-preserving", "state-of-the-art"}


# --- A real paper --------------------------------------------------------------------------------------------------


def test_real_paper_adam():
    path = DOCS / "adam.pdf"
    if not path.exists():
        pytest.skip(f"evaluation document missing: {path}")
    result = read_document(path.read_bytes(), "adam.pdf")
    assert result.page_count == 15 and len(result.pages) == 15
    assert result.title == "Adam: A Method for Stochastic Optimization"
    assert "closely related to adam is rmsprop" in squash(result.pages[4].text)
    assert "a variant of adam based on the infinity norm" in squash(result.pages[0].text)
    assert all(p.text for p in result.pages)
