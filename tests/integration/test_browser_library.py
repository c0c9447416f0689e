"""A browser's library in a real browser (headless Chromium, Playwright, the app on uvicorn at 127.0.0.1): it is
there again after a reload and only in that browser, it can be forgotten, a question searches the documents ticked,
and removing a document takes its citations with it (restarts: ``tests/integration/test_ui.py``).
"""

from __future__ import annotations

import re

import pytest

from tests.integration.test_browser import (WAIT_MS, ask, browser, js_errors, live_url, page, pytestmark, shot,  # noqa: F401
                                survey_pdf, upload)


@pytest.fixture
def ferry_txt(tmp_path):
    path = tmp_path / "ferry.txt"
    path.write_text("The ferry to Alder Island leaves at noon on weekdays and at nine on Sundays.")
    return path


def test_the_library_survives_a_reload_in_this_browser_only(browser, live_url, page, survey_pdf):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    page.reload()
    page.locator("#ask").wait_for(state="visible", timeout=WAIT_MS)
    expect(page.locator("#documents table")).to_contain_text(survey_pdf.name, timeout=WAIT_MS)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    shot(page, "20-library-after-reload.png")

    other = browser.new_context(viewport={"width": 1400, "height": 1000})  # another browser: its own storage
    stranger = other.new_page()
    stranger.goto(live_url)
    stranger.locator("#ask").wait_for(state="visible", timeout=WAIT_MS)
    expect(stranger.locator("#documents")).to_contain_text("No documents yet", timeout=WAIT_MS)
    other.close()


def test_forgetting_the_library_deletes_it_for_good(page, survey_pdf):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    page.locator("#forget").click()
    expect(page.locator("#upload-status")).to_contain_text("forgotten", timeout=WAIT_MS)
    expect(page.locator("#documents")).to_contain_text("No documents yet")
    page.reload()
    page.locator("#ask").wait_for(state="visible", timeout=WAIT_MS)
    expect(page.locator("#documents")).to_contain_text("No documents yet", timeout=WAIT_MS)
    answer = ask_text(page, "What is the capital of Freedonia?")
    assert "Marsupia" not in answer


def test_a_question_searches_only_the_documents_ticked(page, survey_pdf, ferry_txt):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    upload(page, ferry_txt)
    scope = page.locator("#scope")
    expect(scope).to_contain_text(survey_pdf.name)
    expect(scope).to_contain_text(ferry_txt.name)
    ask(page, "When does the ferry to Alder Island leave?", "noon")
    scope.get_by_label(ferry_txt.name).uncheck()
    answer = ask_text(page, "When does the ferry to Alder Island leave?")
    assert "noon" not in answer
    assert all(ferry_txt.name not in t for t in page.locator("#sources .source .meta").all_inner_texts())


def test_removing_a_document_takes_its_citations_with_it(page, survey_pdf):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    citations = page.locator("#citations label")
    expect(citations.first).to_contain_text("Page 2", timeout=WAIT_MS)
    page.locator("#doc-select input").click()
    page.get_by_role("option", name=survey_pdf.name).click()
    page.locator("#remove").click()
    expect(page.locator("#upload-status")).to_contain_text(f"Removed {survey_pdf.name}", timeout=WAIT_MS)
    expect(citations).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator("body")).not_to_contain_text(re.compile(r"Document '[0-9a-f]+' does not exist"))


def ask_text(page, question: str) -> str:  # noqa: F811
    """Ask and return the final answer, whatever it says."""
    from playwright.sync_api import expect

    answers = page.locator("#chat [data-testid=bot]")
    before = answers.count()
    page.locator("#question textarea").fill(question)
    page.locator("#ask").click()
    expect(answers).to_have_count(before + 1, timeout=WAIT_MS)
    expect(page.locator("#chat [data-testid=status-tracker]").first).to_have_class(re.compile(r"\bhide\b"),
                                                                                   timeout=WAIT_MS)
    return answers.last.inner_text()

