"""Which PDF pages are read with the layout model and which from MuPDF's own lines, and that the text read is right
either way: generated PDFs, the real layout model."""

from __future__ import annotations

import re

import pymupdf
import pytest

from ingestion.pdf.geometry import measure_pages
from ingestion.pdf.routing import needs_layout, plain_pages
from ingestion.reader import read_document
from tests.support import pdf_factory as factory


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _routes(data: bytes) -> dict[int, str]:
    """Each page's route: ``"plain"`` or the reason it needs the layout model."""
    doc = pymupdf.open(stream=data)
    geometry = measure_pages(doc, list(range(doc.page_count)))
    plain = plain_pages(doc, geometry)
    return {i: "plain" if i in plain else (needs_layout(doc[i], g) or "doubt") for i, g in geometry.items()}


@pytest.fixture
def model_calls(monkeypatch):
    """The pages (0-based) the layout model is asked about while a document is read."""
    calls: list[int] = []
    real = pymupdf._get_layout

    def counting(page, *args, **kwargs):
        calls.append(page.number)
        return real(page, *args, **kwargs)

    monkeypatch.setattr(pymupdf, "_get_layout", counting)
    return calls


def test_plain_pages_are_read_without_the_model_with_their_headings(model_calls):
    data = factory.known_text_pdf()
    assert set(_routes(data).values()) == {"plain"}
    result = read_document(data, "known.pdf")
    assert model_calls == []
    for number, fact in factory.KNOWN_PAGE_FACTS.items():
        assert squash(fact) in squash(result.pages[number - 1].text)
    assert {n: p.headings for n, p in enumerate(result.pages, 1)} == factory.KNOWN_PAGE_HEADINGS
    headings = [(p.text[b.start:b.end], b.level) for p in result.pages for b in p.blocks if b.kind == "heading"]
    assert [h for h, _ in headings] == [factory.HEADING_INTRO, factory.HEADING_METHODS, factory.HEADING_SAMPLING]
    assert headings[2][1] > headings[1][1]  # "2.1 Sampling" under "2 Methods"


def test_two_columns_go_to_the_model_and_are_read_column_by_column(model_calls):
    data = factory.two_column_pdf()
    assert _routes(data) == {0: "columns"}
    text = squash(read_document(data, "columns.pdf").pages[0].text)
    assert model_calls == [0]
    left_end = text.index(squash(factory.LEFT_COLUMN[-1]))
    right_start = text.index(squash(factory.RIGHT_COLUMN[0]))
    assert left_end < right_start


@pytest.mark.parametrize("make", [factory.table_pdf, factory.statement_pdf], ids=["ruled", "statement"])
def test_table_pages_go_to_the_model_and_keep_their_rows(make, model_calls):
    data = make()
    assert _routes(data) == {0: "table"}
    page = read_document(data, "table.pdf").pages[0]
    assert model_calls == [0]
    assert any(b.kind == "table_row" for b in page.blocks)


def test_a_table_row_keeps_its_cells_on_the_model_path():
    page = read_document(factory.table_pdf(), "table.pdf").pages[0]
    rows = [page.text[b.start:b.end] for b in page.blocks if b.kind == "table_row"]
    assert any(all(cell in row for cell in factory.TABLE_ROWS[1]) for row in rows)


def test_a_page_turned_sideways_goes_to_the_model():
    assert _routes(factory.sideways_block_pdf(page_rotation=90)) == {0: "turned"}


def test_plain_and_model_pages_of_one_document_are_read_in_order(model_calls):
    doc = pymupdf.open()
    doc.insert_pdf(pymupdf.open(stream=factory.known_text_pdf()))
    doc.insert_pdf(pymupdf.open(stream=factory.table_pdf()))
    data = doc.tobytes()
    routes = _routes(data)
    assert routes == {0: "plain", 1: "plain", 2: "plain", 3: "table"}
    result = read_document(data, "mixed.pdf")
    assert model_calls == [3]
    assert squash(factory.KNOWN_PAGE_FACTS[3]) in squash(result.pages[2].text)
    assert squash(factory.TABLE_INTRO) in squash(result.pages[3].text)
    assert result.pages[3].headings == [factory.HEADING_METHODS, factory.HEADING_SAMPLING]


def test_a_heading_the_lines_cannot_settle_is_left_to_the_model():
    # A line set only in italics may be a heading or an aside: the model decides, as on every such page.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 200
    for text, font in [("Survey methods", "heit"), *[(s, "helv") for s in factory.SIDEWAYS_BLOCK_BODY]]:
        page.insert_text((72, y), text, fontsize=11, fontname=font)
        y += 22 if font == "heit" else 15
    data = doc.tobytes()
    assert _routes(data) == {0: "doubt"}
    text = squash(read_document(data, "aside.pdf").pages[0].text)
    assert squash(" ".join(factory.SIDEWAYS_BLOCK_BODY)) in text
