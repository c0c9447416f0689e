"""Pages as clean text with their structure: Markdown in, no markup out, every part's kind and place kept."""

from __future__ import annotations

import doctest

import pytest

import core.types

import ingestion.blocks
import ingestion.layout_repair
import ingestion.roles
import ingestion.tables
import tests.support.pdf_factory as pf
from ingestion.blocks import SPANNED, from_markdown, page_from_markdown
from core.types import Block
from ingestion.chunking import chunk_pages
from ingestion.layout_repair import respace
from ingestion.reader import read_document
from ingestion.roles import mark_roles
from retrieval.sentence_index import indexable_sentences, vector_text
from tests.support import ROOT

DOCS = ROOT.parent / "shared" / "eval" / "docs"


@pytest.mark.parametrize("module", [core.types, ingestion.blocks, ingestion.tables, ingestion.layout_repair,
                                    ingestion.roles])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def kinds(text: str, blocks: list[Block]) -> list[tuple[str, str]]:
    return [(b.kind, text[b.start:b.end]) for b in blocks]


def test_markdown_becomes_clean_text_with_a_block_for_every_part():
    markdown = ("# **Guide**\n\n## 2 Setup\n\nInstall it _now_ , then run it.\nIt takes a minute.\n\n"
                "- first step\n- second **step**\n\nFigure 2: The set-up screen.\n\n```\n# not a heading\n```")
    text, blocks = from_markdown(markdown)
    assert kinds(text, blocks) == [
        ("heading", "Guide"), ("heading", "2 Setup"),
        ("paragraph", "Install it now, then run it.\nIt takes a minute."),
        ("list_item", "- first step"), ("list_item", "- second step"),
        ("caption", "Figure 2: The set-up screen."), ("code", "# not a heading"),
    ]
    assert [b.level for b in blocks[:2]] == [1, 2]
    assert "**" not in text and "_now_" not in text
    assert "- first step\n- second step" in text  # the items of one list are one line apart


def test_a_table_keeps_each_value_under_its_spanning_heading():
    markdown = ("Revenue was as follows:\n\n"
                f"||Three Months Ended|{SPANNED}|\n||2023|2022|\n|---|---|---|\n"
                "|Revenue|||\n|Cloud|$ 22,308|$ 18,388|\n|Total|$ 56,517|$ 50,122|\n|Other|1|2|")
    text, blocks = from_markdown(markdown)
    rows = {text[b.start:b.end]: b for b in blocks if b.kind == "table_row"}
    assert "Three Months Ended\n2023 2022\nRevenue\nCloud $ 22,308 $ 18,388" in text and "|" not in text
    cloud = rows["Cloud $ 22,308 $ 18,388"]
    assert cloud.label == "Revenue Cloud"  # under the label-only row "Revenue"
    assert cloud.values == ("$ 22,308", "$ 18,388")
    assert cloud.columns == ("Three Months Ended 2023", "Three Months Ended 2022")
    assert cloud.title == "Revenue was as follows:"
    assert rows["Other 1 2"].label == "Other"  # "Total" closed the group
    assert "Three Months Ended 2023 $ 22,308" in cloud.context()


def test_a_statement_pdf_reads_as_rows_that_carry_their_periods():
    page = read_document(pf.statement_pdf(), "statement.pdf").pages[0]
    lines = page.text.splitlines()
    assert "|" not in page.text
    assert " ".join(pf.STATEMENT_PERIODS) in lines  # the header as printed, one line per printed line
    rows = {page.text[b.start:b.end]: b for b in page.blocks if b.kind == "table_row"}
    periods = [f"{p} {pf.STATEMENT_DATE} {y}" for p, y in zip(
        [pf.STATEMENT_PERIODS[0]] * 2 + [pf.STATEMENT_PERIODS[1]] * 2, pf.STATEMENT_YEARS)]
    for label, values in pf.STATEMENT_ROWS:
        row = rows[" ".join([label, *values])]  # label then values, as printed: the line a user would quote
        assert list(row.values) == list(values)
        assert list(row.columns) == (periods if values else [])
    assert rows["Cost of sales 70,268 75,022 203,191 212,186"].label == "Operating expenses: Cost of sales"


def test_a_period_printed_beside_its_years_heads_each_value_and_the_page_reads_as_printed():
    page = read_document(pf.side_period_statement_pdf(), "comprehensive.pdf").pages[0]
    assert f"{pf.SIDE_PERIOD} 2023 2022" in page.text.splitlines()  # shown as printed
    rows = {b.label: b for b in page.blocks if b.kind == "table_row"}
    for label, values in pf.SIDE_ROWS:
        assert list(rows[label].values) == list(values)
        assert list(rows[label].columns) == [f"{pf.SIDE_PERIOD} 2023", f"{pf.SIDE_PERIOD} 2022"]
    assert pf.SIDE_PERIOD not in rows["Net income"].title  # the period heads the values, not the labels


def test_table_rows_are_embedded_with_their_column_headings_and_a_passage_inside_a_table_names_them():
    pages = read_document(pf.statement_pdf(), "statement.pdf").pages
    chunks = chunk_pages(pages, doc_id="s", filename="statement.pdf", strategy="fixed_size", chunk_size=300,
                         chunk_overlap=0)
    rows = [s for c in chunks for s in indexable_sentences(c.text, c.blocks) if s.kind == "table_row"]
    fulfillment = next(s for s in rows if s.text.startswith("Fulfillment"))
    assert "Nine Months Ended September 30, 2023 64,524" in vector_text(fulfillment)
    inside = next(c for c in chunks if c.text.startswith(("Net service", "Total net", "Operating", "Cost")))
    assert "Three Months Ended September 30, 2022" in inside.prefix


def test_contents_pages_and_reference_lists_are_marked():
    pages = [
        page_from_markdown(1, "## Contents\n\n1 Introduction 2\n\n2 Results 3"),
        page_from_markdown(2, "# 1 Introduction\n\nThe survey counted 412 ships at North Point in 2023."),
        page_from_markdown(3, "Part A overview 2\nPart B methods 2\nPart C results 3\nPart D notes 3\n"
                              "Part E index 3\nPart F annex 3"),
        page_from_markdown(4, "|Item|2023|2022|\n|---|---|---|\n|Dynamics|1,540|1,260|\n|Other|8|56|\n|Gaming|3|4|\n"
                              "|Devices|1|2|\n|Search|5|6|"),
        page_from_markdown(5, "## References\n\n[1] D. Kingma. Adam. 2015.\n\n- [2] A. Vaswani. Attention. 2017."),
        page_from_markdown(6, "[3] More references on the next page.\n\n## Appendix\n\nThe appendix says more."),
    ]
    mark_roles(pages)
    by_page = [{b.kind for b in p.blocks} for p in pages]
    assert by_page[0] == {"heading", "toc"} and by_page[2] == {"toc"}
    assert "toc" not in by_page[1] and "toc" not in by_page[3]  # a numeric table is no table of contents
    assert by_page[4] == {"heading", "reference"}
    assert kinds(pages[5].text, pages[5].blocks)[0] == ("reference", "[3] More references on the next page.")
    assert kinds(pages[5].text, pages[5].blocks)[-1] == ("paragraph", "The appendix says more.")


def test_run_together_words_are_split_only_into_the_regions_own_words():
    words = ["E[g2", "t", "],", "so", "we", "can", "correct", "for", "the", "discrepancy"]
    assert respace("moment E[ gt2],sowecancorrectforthediscrepancy now", words) == \
        "moment E[ gt2],so we can correct for the discrepancy now"
    assert respace("the discrepancy is small", words) == "the discrepancy is small"  # a word of the region
    assert respace("unrelatedwordsrun together", words) == "unrelatedwordsrun together"  # not its words


def test_a_real_paper_page_has_its_spaces_back_and_no_replacement_characters():
    path = DOCS / "adam.pdf"
    if not path.exists():
        pytest.skip(f"{path} is missing: the evaluation papers are not on this machine")
    import pymupdf

    with pymupdf.open(path) as doc:
        doc.select([1, 2])  # pages 2-3: the algorithm and the bias-correction derivation
        pdf = doc.tobytes()
    text = " ".join(p.text for p in read_document(pdf, "adam.pdf").pages)
    assert "so we can correct for the discrepancy between the two" in " ".join(text.split())
    assert "\ufffd" not in text
