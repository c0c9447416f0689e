"""The UI in a real browser: headless Chromium driven by Playwright against the app served by uvicorn on 127.0.0.1.

What a user does, click for click: upload a PDF through the file input, see it listed, ask a question, read the
answer with its page citation and the passages under it, open a citation and see the page with the passage
highlighted. Document text that looks like HTML must show as text and never run.

Needs Debian's ``chromium`` (``apt-get install chromium``) and ``pip install -r requirements-test.txt``
(Playwright's Python package; ``playwright install`` is never needed: the system browser is used). ``.ci/run``
installs both. Screenshots go to ``test-output/browser/``.
"""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.support import pdf_factory as pf
from tests.support import ROOT

CHROMIUM = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "test-output" / "browser"
# Generous: the first upload embeds the document on a cold CPU; every wait polls for a condition and returns early.
WAIT_MS = 60_000

HOSTILE_MARKUP = "<script>window.__pwned=1</script><b>bold</b>"
HOSTILE_SENTENCE = f"Quokkaville hosts the lantern parade {HOSTILE_MARKUP} every spring."


def _missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install -r requirements-test.txt"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        return (f"no Chromium at {CHROMIUM}: apt-get install chromium (Debian), or set CHROMIUM_PATH; "
                "`playwright install` is not needed")
    return None


_MISSING = _missing_browser()
if _MISSING and os.environ.get("REQUIRE_BROWSER_TESTS") == "1":  # .ci/run sets this: CI must not skip silently
    raise RuntimeError(f"browser tests required but cannot run: {_MISSING}")
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")


@pytest.fixture(scope="module")
def live_url(tmp_path_factory):
    """The real app (API + UI) on a free port, with its own empty storage and no sample indexing."""
    from evaluation.common import serve
    from main import create_app
    from pipeline import Pipeline
    from settings import Settings

    settings = Settings.preset("tests", data_dir=tmp_path_factory.mktemp("browser") / "storage")
    with serve(create_app(pipeline=Pipeline(settings)), start_timeout=60) as url:
        yield url + "/"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    # launch() starts Chromium with a fresh temporary --user-data-dir of its own, deleted on close.
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def js_errors() -> list[str]:
    """Uncaught JavaScript errors of the page, in order."""
    return []


@pytest.fixture
def page(browser, live_url, js_errors):
    """A new browser context (no cookies, no storage, so a new UI session) per test, with the app loaded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    page.goto(live_url)
    page.locator("#ask").wait_for(state="visible", timeout=WAIT_MS)
    yield page
    context.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def upload(page, path: Path) -> None:
    """Upload through the real file input and wait until the document is indexed and listed."""
    from playwright.sync_api import expect

    page.locator("#upload input[type=file]").set_input_files(str(path))
    # First upload: "Indexed: name, N pages, ..."; the same file again: "Already indexed: name ...". Both succeed.
    expect(page.locator("#upload-status")).to_contain_text(re.compile(rf"(Already indexed|Indexed): {re.escape(path.name)}"),
                                                           timeout=WAIT_MS)
    expect(page.locator("#upload-status")).not_to_contain_text("Not indexed")
    # In the table, not just anywhere in #documents: while reading, the progress overlay there shows the name too.
    expect(page.locator("#documents table")).to_contain_text(path.name, timeout=WAIT_MS)


def ask(page, question: str, *expected: str) -> str:
    """Type a question, click Ask, wait until the last answer contains every expected string; return its text."""
    from playwright.sync_api import expect

    answers = page.locator("#chat [data-testid=bot]")
    before = answers.count()
    page.locator("#question textarea").fill(question)
    page.locator("#ask").click()
    expect(answers).to_have_count(before + 1, timeout=WAIT_MS)
    bot = answers.last
    for text in expected:
        expect(bot).to_contain_text(text, timeout=WAIT_MS)
    # The answer streams in; the event is over (final text, citations set) when the chat's status tracker hides.
    expect(page.locator("#chat [data-testid=status-tracker]").first).to_have_class(re.compile(r"\bhide\b"),
                                                                                   timeout=WAIT_MS)
    expect(page.locator("#sources .source").first).to_be_visible(timeout=WAIT_MS)
    return bot.inner_text()


@pytest.fixture
def survey_pdf(tmp_path) -> Path:
    path = tmp_path / "survey.pdf"
    path.write_bytes(pf.known_text_pdf())
    return path


def test_upload_ask_and_read_the_sources(page, survey_pdf, js_errors):
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    expect(page.locator("#upload-status")).to_contain_text("3 pages")
    shot(page, "01-upload.png")

    answer = ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")
    assert pf.KNOWN_PAGE_FACTS[2] in answer
    sources = page.locator("#sources")
    expect(sources).to_contain_text("survey.pdf")
    expect(sources).to_contain_text("Page 2")
    expect(sources).to_contain_text(pf.KNOWN_PAGE_FACTS[2])
    assert page.locator("#sources .source").count() >= 1
    shot(page, "02-answer.png")
    assert js_errors == []


def test_citation_shows_the_highlighted_page(page, survey_pdf, js_errors):
    from playwright.sync_api import expect

    upload(page, survey_pdf)
    ask(page, "What is the capital of Freedonia?", "Marsupia", "Page 2]")

    choices = page.locator("#citations label")
    expect(choices.first).to_be_visible(timeout=WAIT_MS)
    expect(choices.first).to_contain_text("Page 2")
    expect(choices.first).to_contain_text("survey.pdf")
    choices.first.click()

    image = page.locator("#page-image img[src]").first
    image.wait_for(state="visible", timeout=WAIT_MS)
    expect(page.locator("#citation-detail")).to_contain_text(pf.KNOWN_PAGE_FACTS[2], timeout=WAIT_MS)
    expect(page.locator("#citation-detail")).to_contain_text("survey.pdf")

    src = image.get_attribute("src")
    assert src
    if src.startswith("data:"):
        data = base64.b64decode(src.split(",", 1)[1])
    else:
        response = page.request.get(page.evaluate("s => new URL(s, document.baseURI).href", src))
        assert response.ok, f"{response.status} for {src}"
        data = response.body()
    yellow, total = yellow_pixels(data)
    # The quoted sentence (about 0.5% of the page) or the whole passage (about 6%) highlighted: clearly present,
    # nowhere near the whole page. The page with nothing highlighted has no such pixel.
    assert 0.001 < yellow / total < 0.3, f"{yellow} yellow-tinted pixels of {total}"
    shot(page, "03-citation.png")
    assert js_errors == []


def yellow_pixels(data: bytes) -> tuple[int, int]:
    """Pixels tinted yellow (red and green high, blue clearly lower), and all pixels."""
    from PIL import Image

    img = Image.open(io.BytesIO(data)).convert("RGB")
    count = sum(1 for r, g, b in img.getdata() if r >= 180 and g >= 160 and b <= min(r, g) - 50)
    return count, img.width * img.height


@pytest.fixture
def parade_pdf(tmp_path) -> Path:
    path = tmp_path / "parade.pdf"
    path.write_bytes(pf.make_pdf([[("Lantern parades", 18.0), (HOSTILE_SENTENCE, 11.0)]]))
    return path


def test_markup_in_a_pdf_shows_as_text_in_the_sources(page, parade_pdf, js_errors):
    from playwright.sync_api import expect

    upload(page, parade_pdf)
    ask(page, "Which town hosts the lantern parade?", "Quokkaville")

    sources = page.locator("#sources")
    expect(sources).to_contain_text(HOSTILE_MARKUP)  # the literal characters, visible as text
    assert sources.locator("script").count() == 0 and sources.locator("b", has_text=re.compile("^bold$")).count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"  # nothing ran, in the sources or the chat
    shot(page, "04-markup-as-text.png")
    assert js_errors == []


def test_markup_in_a_pdf_shows_as_text_in_the_answer(page, parade_pdf):
    upload(page, parade_pdf)
    answer = ask(page, "Which town hosts the lantern parade?", "Quokkaville")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert HOSTILE_MARKUP in answer, answer
