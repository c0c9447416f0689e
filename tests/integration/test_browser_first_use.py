"""A first-time user's minutes in a real browser (headless Chromium, Playwright, the app on uvicorn at 127.0.0.1):
the sample is listed with its progress while it is indexed and a question asked meanwhile is answered once it is
ready; each upload is processed once, in plain words; on a phone (420 px) the question comes first and nothing is
wider than the screen. Screenshots at both widths go to ``test-output/browser/``.
"""

from __future__ import annotations

import re

import pytest

from tests.support import pdf_factory as pf
from tests.integration.test_browser import (CHROMIUM, CHROMIUM_ARGS, WAIT_MS, ask, browser, js_errors, live_url,  # noqa: F401
                                page, pytestmark, shot, survey_pdf, upload)

SAMPLE_FACT = "The lighthouse keepers of Port Alder count the herring boats every dawn."


def sample_pdf(pages: int = 40) -> bytes:
    """A sample long enough to take a while to index: filler pages, the fact on the last one."""
    filler = ["The coastal survey recorded tides, winds and the colour of the water at each station.",
              "Volunteers logged the weather twice a day and compared it with the harbour's old records."]
    body = [[(f"Station report {n}", 16.0)] + [(filler[(n + i) % 2], 11.0) for i in range(30)]
            for n in range(1, pages)]
    return pf.make_pdf(body + [[("Harbour customs", 16.0), (SAMPLE_FACT, 11.0)]])


@pytest.fixture(scope="module")
def sample_url(tmp_path_factory):
    """The app with a sample folder, indexed in the background from start-up as in a deployment."""
    from evaluation.common import serve
    from main import create_app
    from pipeline import Pipeline
    from settings import Settings

    root = tmp_path_factory.mktemp("first-use")
    (root / "samples").mkdir()
    (root / "samples" / "harbour.pdf").write_bytes(sample_pdf())
    settings = Settings(data_dir=root / "storage", sample_dir=root / "samples", index_samples=True, _env_file=None)
    with serve(create_app(pipeline=Pipeline(settings)), start_timeout=60) as url:
        yield url + "/"


def test_the_sample_is_listed_while_indexing_and_a_question_waits_for_it(browser, sample_url):  # noqa: F811
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()  # noqa: F811
    page.goto(sample_url)
    documents = page.locator("#documents")
    expect(documents).to_contain_text("Indexing the sample document", timeout=WAIT_MS)
    expect(documents).not_to_contain_text("No documents yet")
    shot(page, "10-sample-indexing.png")
    page.locator("#question textarea").fill("Who counts the herring boats?")
    page.locator("#ask").click()
    bot = page.locator("#chat [data-testid=bot]").last
    expect(bot).to_contain_text("Waiting for the sample document", timeout=WAIT_MS)
    expect(bot).to_contain_text("lighthouse keepers", timeout=3 * WAIT_MS)
    expect(bot).to_contain_text("Page 40]")
    expect(page.locator("#documents table")).to_contain_text("harbour.pdf", timeout=WAIT_MS)
    expect(documents).not_to_contain_text("Indexing the sample document")
    context.close()


def test_each_upload_is_processed_once_and_said_in_plain_words(page, survey_pdf, tmp_path, js_errors):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    status = page.locator("#upload-status")
    expect(status).to_contain_text(f"Indexed: {survey_pdf.name}, 3 pages")
    second = tmp_path / "ferry.txt"
    second.write_text("The ferry to Alder Island leaves at noon on weekdays.")
    upload(page, second)
    # The second upload reports the second file only: the first is not sent, read or counted again.
    expect(status).to_contain_text("Indexed: ferry.txt")
    expect(status).not_to_contain_text(survey_pdf.name)
    text = status.inner_text()
    assert not re.search(r"[\u2600-\u27bf\U0001f300-\U0001faff]", text), text  # no emoji: words a user can read
    # One progress display per upload, cleared when done: no overlay is left on the other parts of the page.
    for part in ("#documents", "#doc-select"):
        expect(page.locator(f"{part} .eta-bar, {part} .progress-text")).to_have_count(0)
    table = page.locator("#documents table")
    expect(table).to_contain_text(survey_pdf.name)
    expect(table).to_contain_text("ferry.txt")
    assert js_errors == []


def test_on_a_phone_the_question_comes_first_and_nothing_overflows(browser, live_url, survey_pdf):  # noqa: F811
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 420, "height": 900}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()  # noqa: F811
    page.goto(live_url)
    question = page.locator("#question textarea")
    question.wait_for(state="visible", timeout=WAIT_MS)
    box = question.bounding_box()
    assert box and box["y"] + box["height"] < 900, f"the question box is {box} on a 900 px high screen"
    assert page.locator("#ask").bounding_box()["y"] < page.locator("#upload").bounding_box()["y"]

    upload(page, survey_pdf)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 421, f"the page is {wide} px wide on a 420 px screen"
    quote = page.locator("#sources .source blockquote").first
    expect(quote).to_be_visible()
    width = quote.bounding_box()["width"]
    assert width >= 300, f"passage text runs in a {width:.0f} px column"
    shot(page, "11-phone-420.png")
    context.close()


def test_a_wide_screen_keeps_documents_beside_the_answer(page, survey_pdf):  # noqa: F811
    upload(page, survey_pdf)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    library, answer = page.locator("#library-column").bounding_box(), page.locator("#answer-column").bounding_box()
    assert library["x"] + library["width"] <= answer["x"] + 1  # side by side, documents on the left
    shot(page, "12-wide-1400.png")



def test_a_citation_opens_at_its_highlight_and_the_whole_page_is_one_click_away(page, survey_pdf):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    page.locator("#citations label").first.click()
    image = page.locator("#page-image img[src]").first
    image.wait_for(state="visible", timeout=WAIT_MS)

    def aspect() -> float:
        return page.evaluate("img => img.naturalHeight / img.naturalWidth", image.element_handle())

    zoomed = aspect()
    assert zoomed < 0.7, f"the cited page opens whole (height/width {zoomed:.2f}), not at the passage"
    detail = page.locator("#citation-detail blockquote")
    assert detail.bounding_box()["width"] >= 500  # the passage reads at the chat's width, not in a narrow column
    before = image.get_attribute("src")
    page.locator("#whole-page input").check()
    expect(image).not_to_have_attribute("src", before, timeout=WAIT_MS)
    image = page.locator("#page-image img[src]").first
    whole = page.evaluate("img => img.naturalHeight / img.naturalWidth", image.element_handle())
    assert whole > 1.2, f"the whole page has height/width {whole:.2f}"
    shot(page, "13-citation-zoomed.png")


def test_a_citation_marker_in_the_answer_opens_its_page(page, survey_pdf):  # noqa: F811
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    marker = page.locator("#chat [data-testid=bot] a.cite").last
    expect(marker).to_have_text("[Page 2]")
    marker.click()
    expect(page.locator("#page-image img[src]").first).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#citations input[value='0']")).to_be_checked()
    expect(page.locator("#citation-detail")).to_contain_text(pf.KNOWN_PAGE_FACTS[2], timeout=WAIT_MS)


def test_citations_name_the_page_as_printed_and_a_follow_up_shows_what_it_was_read_as(page, tmp_path):  # noqa: F811
    from playwright.sync_api import expect

    report = tmp_path / "report.pdf"
    report.write_bytes(pf.printed_numbers_pdf())  # physical page 2 prints "18" in its footer
    upload(page, report)
    answer = ask(page, "How is the lighthouse at Vennick Point painted?", "red and white")
    assert "[Page 2 (printed 18)]" in answer, answer
    choice = page.locator("#citations label").first
    expect(choice).to_contain_text("Page 2 (printed 18)")
    choice.click()
    expect(page.locator("#citation-detail")).to_contain_text("Page 2 (printed 18)", timeout=WAIT_MS)
    expect(page.locator("#sources")).to_contain_text("Page 2 (printed 18)")

    follow_up = ask(page, "What colours are its bands?", "red and white")
    assert follow_up.startswith("Understood as:"), follow_up  # the rewrite, in the chat with its answer
    assert "lighthouse" in follow_up.split("\n")[0]  # "its" read as the lighthouse asked about
