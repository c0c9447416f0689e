"""Reading structure a user notices (running headers gone, nested headings, column order, sideways text, tables,
a word split across pages) and scanned pages read with OCR, all on generated PDFs."""

from __future__ import annotations

import re

import pytest

from core.errors import NoTextLayer
from ingestion.reader import read_document
from tests.support import pdf_factory as factory
from tests.support import scan_factory as scans


def squash(text: str) -> str:
    """Lower-case text with runs of whitespace collapsed, for matching sentences across line breaks."""
    return re.sub(r"\s+", " ", text).strip().lower()


def _fail_layout(monkeypatch):
    """Make the layout reader fail, so every page is read by the fallback readers."""
    import pymupdf4llm

    def broken(*args, **kwargs):
        raise RuntimeError("layout model crashed")

    monkeypatch.setattr(pymupdf4llm, "to_markdown", broken)


# --- Running headers and footers -----------------------------------------------------------------------------------


def _assert_no_running_lines(result):
    total = len(factory.RUNNING_PAGE_SENTENCES)
    for page in result.pages:
        text = squash(page.text)
        assert squash(factory.RUNNING_HEADER) not in text
        assert "lighthouse office of freedonia" not in text
        assert squash(factory.RUNNING_FOOTER.format(n=page.number, total=total)) not in text
        assert squash(factory.RUNNING_PAGE_SENTENCES[page.number - 1]) in text


def test_running_header_and_numbered_footer_are_dropped():
    _assert_no_running_lines(read_document(factory.running_header_pdf(), "report.pdf"))


def test_running_lines_are_dropped_from_fallback_text(monkeypatch):
    # pdfplumber keeps every printed line; the margin lines repeated on every page still go.
    _fail_layout(monkeypatch)
    result = read_document(factory.running_header_pdf(), "report.pdf")
    assert {p.reader for p in result.pages} == {"pdfplumber"}
    _assert_no_running_lines(result)


# --- Headings ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("same_size", [False, True], ids=["by-font-size", "by-numbering"])
def test_heading_paths_nest(same_size):
    result = read_document(factory.nested_headings_pdf(same_size=same_size), "nested.pdf")
    assert {p.number: p.headings for p in result.pages} == factory.NESTED_PAGE_HEADINGS


def test_numbering_nests_headings_and_unnumbered_subheadings_stay_inside():
    # A figure title marked like a section heading must not close "3.2" and leave "3.2.1" under itself; a year is
    # no section number; an unnumbered heading at the level of the top sections ("References") closes them.
    markdown = (
        "# A Paper\n\n## 3 Model\n\n### 3.2 Attention\n\n### Scaled Dot-Product\n\n### 3.2.1 Scaled Dot-Product\n\n"
        "Text.\f### 3.2.2 Multi-Head\n\nText.\f### 2023 in review\n\nText.\f## References\n\nText.\fEnd."
    )
    result = read_document(markdown.encode(), "paper.md")
    assert [p.headings for p in result.pages] == [
        [],
        ["A Paper", "3 Model", "3.2 Attention", "3.2.1 Scaled Dot-Product"],
        ["A Paper", "3 Model", "3.2 Attention", "3.2.2 Multi-Head"],
        ["A Paper", "3 Model", "3.2 Attention", "3.2.2 Multi-Head", "2023 in review"],
        ["A Paper", "References"],
    ]


# --- Reading order, sideways text, tables --------------------------------------------------------------------------


def test_two_columns_are_read_column_by_column():
    text = squash(read_document(factory.two_column_pdf(), "columns.pdf").pages[0].text)
    positions = [text.find(squash(s)) for s in (*factory.LEFT_COLUMN, *factory.RIGHT_COLUMN)]
    assert -1 not in positions
    assert positions == sorted(positions)  # every left sentence, in order, before every right one


def test_sideways_caption_is_kept_next_to_upright_text():
    page = read_document(factory.sideways_block_pdf(), "caption.pdf").pages[0]
    text = squash(page.text)
    for sentence in factory.SIDEWAYS_BLOCK_BODY:
        assert squash(sentence) in text
    assert squash(factory.SIDEWAYS_BLOCK_CAPTION) in text
    assert "srewot" not in text  # no reversed letters


@pytest.mark.parametrize("rotation", [90, 270])
def test_turned_page_is_read_upright(rotation):
    # The page displays turned, so its body runs sideways on screen; it is read as printed, with its layout.
    page = read_document(factory.sideways_block_pdf(page_rotation=rotation), "turned.pdf").pages[0]
    assert page.reader == "pymupdf4llm"
    body = " ".join(squash(s) for s in factory.SIDEWAYS_BLOCK_BODY)
    assert body in squash(page.text)
    assert squash(factory.SIDEWAYS_BLOCK_CAPTION) in squash(page.text)


def test_table_rows_stay_together_as_clean_lines_that_keep_their_column_headings():
    page = read_document(factory.table_pdf(), "table.pdf").pages[0]
    text = page.text
    assert "|" not in text
    lines = text.splitlines()
    assert " ".join(factory.TABLE_HEADER) in lines
    rows = {text[b.start:b.end]: b for b in page.blocks if b.kind == "table_row"}
    for label, *values in factory.TABLE_ROWS:
        row = rows[" ".join([label, *values])]  # one line per row: label then values, as printed
        assert row.label == label and list(row.values) == values
        assert list(row.columns) == list(factory.TABLE_HEADER[1:])
    assert squash(factory.TABLE_INTRO) in squash(text)


def test_word_split_across_pages_survives_on_both_pages():
    # Page texts stay per page: the halves are kept as printed, so the word can be rejoined across the break.
    first, second = read_document(factory.page_break_hyphen_pdf(), "break.pdf").pages
    assert first.text.endswith(factory.PAGE_BREAK_HEAD)
    assert second.text.startswith(factory.PAGE_BREAK_TAIL)
    assert "experimental count" in first.text[:-1] + second.text


# --- OCR of scanned pages ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ocr_engine():
    from ingestion.ocr import OcrUnavailable, get_engine

    try:
        return get_engine("rapidocr")
    except OcrUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def mixed(ocr_engine):
    events: list[tuple[str, int, int]] = []
    result = read_document(scans.mixed_pdf(), "mixed.pdf", progress=lambda *event: events.append(event))
    return result, events


def test_scanned_pdf_is_read_with_ocr(ocr_engine):
    result = read_document(scans.scanned_pdf(scans.SCANNED_SENTENCES), "scan.pdf")
    assert [p.reader for p in result.pages] == ["ocr", "ocr"]
    assert result.ocr_pages == [1, 2] and result.unread_pages == []
    text = " ".join(p.text for p in result.pages)
    for word in scans.SCANNED_KEY_WORDS:
        assert word in text


def test_mixed_pdf_reads_each_page_its_own_way(mixed):
    result, _ = mixed
    readers = [p.reader for p in result.pages]
    assert readers[1] == "ocr" and readers[0] != "ocr" and readers[2] != "ocr"
    assert result.ocr_pages == [2] and result.unread_pages == []
    assert result.pages[0].text == scans.MIXED_TEXT_PAGE_1
    assert result.pages[2].text == scans.MIXED_TEXT_PAGE_3
    scanned = squash(result.pages[1].text)
    assert "ferry timetable" in scanned and "marsupia" in scanned


def test_progress_runs_in_order_and_ends_at_total(mixed):
    _, events = mixed
    stages = [stage for stage, _, _ in events]
    assert stages == sorted(stages, key=["read", "ocr"].index)  # text pages first, then OCR
    for stage, total in (("read", 2), ("ocr", 1)):
        done = [d for s, d, t in events if s == stage]
        assert all(t == total for s, _, t in events if s == stage)
        assert done == sorted(done) and done[-1] == total


def test_pages_over_the_ocr_limit_are_listed_as_unread(ocr_engine):
    data = scans.scanned_pdf([["Page one of the scan."], ["Page two of the scan."], ["Page three of the scan."]])
    result = read_document(data, "long-scan.pdf", ocr_max_pages=1)
    assert result.ocr_pages == [1] and result.unread_pages == [2, 3]
    assert [p.reader for p in result.pages] == ["ocr", "unread", "unread"]
    assert "page one" in squash(result.pages[0].text)
    assert result.pages[1].text == result.pages[2].text == ""
    assert (
        "pages 2-3 are scanned and were not read: the limit is 1 OCR page per document (RAG_OCR_MAX_PAGES)"
        in result.warnings
    )
    assert not any("no extractable text" in w for w in result.warnings)


def test_ocr_off_lists_scanned_pages_as_unread():
    result = read_document(scans.mixed_pdf(), "mixed.pdf", ocr=False)
    assert result.unread_pages == [2] and result.ocr_pages == []
    assert result.pages[1].reader == "unread" and result.pages[1].text == ""
    assert result.warnings == ["page 2 is scanned and was not read: OCR is turned off (RAG_OCR_ENABLED)"]


def test_unavailable_ocr_lists_scanned_pages_with_the_install_command(monkeypatch):
    import ingestion.ocr

    def unavailable(name="rapidocr"):
        raise ingestion.ocr.OcrUnavailable("The OCR engine 'rapidocr' is not installed. Install it with: pip x")

    monkeypatch.setattr(ingestion.ocr, "get_engine", unavailable)
    result = read_document(scans.mixed_pdf(), "mixed.pdf")
    assert result.unread_pages == [2]
    assert "OCR is not available" in result.warnings[0] and "pip x" in result.warnings[0]


@pytest.mark.parametrize(
    ("options", "phrase"),
    [
        ({"ocr": False}, "OCR is turned off"),
        ({"ocr_engine": "no-such-engine"}, "pip install"),
        ({"ocr_max_pages": 0}, "RAG_OCR_MAX_PAGES"),
    ],
)
def test_scan_that_cannot_be_ocrd_has_no_text_layer(options, phrase):
    with pytest.raises(NoTextLayer) as err:
        read_document(scans.scanned_pdf([["A page nobody will read."]]), "scan.pdf", **options)
    assert "'scan.pdf'" in str(err.value) and "scanned" in str(err.value) and phrase in str(err.value)


def test_ocr_text_is_repaired_and_low_confidence_is_reported(monkeypatch):
    import ingestion.ocr

    monkeypatch.setattr(ingestion.ocr, "get_engine", lambda name="rapidocr": object())
    monkeypatch.setattr(
        ingestion.ocr, "ocr_page",
        lambda page, dpi=200, engine=None: ingestion.ocr.OcrText("The \ufb01eld count was experi-\nmental.", 0.4),
    )
    result = read_document(scans.scanned_pdf([["unused"]]), "scan.pdf")
    assert result.pages[0].text == "The field count was experimental."
    assert any("low confidence" in w and "page 1" in w for w in result.warnings)


def test_progress_is_optional_and_a_failing_callback_does_not_stop_reading():
    def broken(stage, done, total):
        raise ValueError("progress bar gone")

    data = factory.make_pdf([[("A single page of text for the progress check.", 11)]])
    assert read_document(data, "one.pdf", progress=broken).pages[0].text.startswith("A single page")
