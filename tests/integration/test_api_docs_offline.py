"""The API's documentation pages work with no internet: ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) load every
file from the app itself (api_docs.py), and in a browser that may reach nothing but 127.0.0.1 they render the API.

The app runs as deployed (``uvicorn main:app``, Gradio UI mounted at ``/``) on 127.0.0.1 with empty storage. The
browser checks drive Debian's Chromium through Playwright like tests/integration/test_browser.py (``playwright install`` is
never needed); a control check shows that FastAPI's own CDN page stays blank under the same blocking, so the
blocking is real and the rendering checks can fail.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from tests.support.live_server import DeployedServer
from tests.integration.test_browser import _MISSING, browser  # noqa: F401 (the browser fixture)

WAIT_MS = 30_000
needs_browser = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")

# What each kind of asset must be served as, and the least it can weigh (the real files are 5 kB to 1.5 MB).
KINDS = {".js": ("javascript", 100_000), ".css": ("text/css", 10_000), ".png": ("image/png", 500)}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> str:
    with DeployedServer(tmp_path_factory.mktemp("api-docs") / "storage") as deployed:
        yield deployed.url


def referenced(html: str) -> list[str]:
    """Every ``src``/``href``/``spec-url`` of a page, and the ``url:`` Swagger UI is given for the schema."""
    return re.findall(r'\b(?:src|href|spec-url)="([^"]*)"', html) + re.findall(r"\burl: '([^']*)'", html)


def foreign_urls(html: str, base: str) -> list[str]:
    """Absolute URLs in a page (anywhere in it, scripts too) that point at another host than ``base``'s."""
    here = urlsplit(base).netloc
    return [u for u in re.findall(r"(?:https?:)?//[^\s\"'<>()]+", html) if urlsplit(u).netloc != here]


@pytest.mark.parametrize("path, assets", [
    ("/docs", {"swagger-ui-bundle.js": "SwaggerUIBundle", "swagger-ui.css": ".swagger-ui", "favicon.png": None}),
    ("/redoc", {"redoc.standalone.js": "Redoc", "favicon.png": None}),
])
def test_docs_page_references_only_local_assets_and_each_is_served(server, path, assets):
    page = httpx.get(server + path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert foreign_urls(page.text, server) == []
    urls = referenced(page.text)
    assert "/openapi.json" in urls
    files = [u for u in urls if u != "/openapi.json"]
    assert sorted(u.rsplit("/", 1)[-1] for u in files) == sorted(assets)
    for url in files:
        assert url.startswith("/") and not url.startswith("//"), url  # same origin: a path, no host
        r = httpx.get(urljoin(server, url))
        kind, least = KINDS[url[url.rfind("."):]]
        assert r.status_code == 200, url
        assert kind in r.headers["content-type"], (url, r.headers["content-type"])
        assert len(r.content) >= least, (url, len(r.content))
        if marker := assets[url.rsplit("/", 1)[-1]]:
            assert marker in r.text[:2_000_000], url


def test_oauth2_redirect_page_is_served_and_local(server):
    r = httpx.get(server + "/docs/oauth2-redirect")
    assert r.status_code == 200 and "oauth2" in r.text.lower()
    assert foreign_urls(r.text, server) == []


def test_openapi_schema_lists_the_api_and_not_the_docs(server):
    r = httpx.get(server + "/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    schema = r.json()
    assert schema["info"]["title"] == "Grounded document Q&A"
    assert {"/query", "/ingest", "/health"} <= set(schema["paths"])
    assert not [p for p in schema["paths"] if p.startswith(("/docs", "/redoc"))]


def test_a_missing_asset_is_a_404(server):
    assert httpx.get(server + "/docs-assets/no-such-file.js").status_code == 404


def test_with_an_api_key_the_docs_stay_open_like_the_schema(settings):
    """As with FastAPI's own pages: the key guards the API's routes, not the pages that describe them."""
    from fastapi.testclient import TestClient

    from main import create_app

    keyed = settings.model_copy(update={"api_key": "s3cret-key"})
    with TestClient(create_app(settings=keyed, ui=False)) as c:
        for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect", "/docs-assets/swagger-ui.css"):
            assert c.get(path).status_code == 200, path
        assert c.get("/documents").status_code == 401


# -- in a browser with no way out of 127.0.0.1 ---------------------------------------------------------------



class Offline:
    """A page whose requests to any host but 127.0.0.1 are aborted (and listed), with its JavaScript errors."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _route(self, route) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort("internetdisconnected")


@pytest.fixture
def offline(browser):
    session = Offline(browser)
    yield session
    session.context.close()


def swagger_ui_renders(offline: Offline, url: str, timeout: float = WAIT_MS) -> None:
    """Open Swagger UI at ``url``; fail unless it shows the API's title and its POST /query operation."""
    from playwright.sync_api import expect

    page = offline.page
    page.goto(url)
    query = page.locator("#operations-default-query_query_post")
    expect(query).to_be_visible(timeout=timeout)
    expect(query.locator(".opblock-summary-method")).to_have_text("POST")
    expect(query.locator(".opblock-summary-path")).to_have_attribute("data-path", "/query")
    expect(page.locator("#swagger-ui .info .title")).to_contain_text("Grounded document Q&A")
    # The operation opens and shows its request body schema: the UI works, not only its first paint.
    query.locator(".opblock-summary").click()
    expect(query.locator(".opblock-body")).to_contain_text("question", timeout=timeout)


@needs_browser
def test_swagger_ui_renders_the_api_with_no_internet(server, offline):
    swagger_ui_renders(offline, server + "/docs")
    assert offline.blocked == []  # nothing was even asked of another host
    assert offline.errors == []
    assert offline.page.locator("#swagger-ui .opblock").count() >= 10  # every route, not just /query


@needs_browser
def test_redoc_renders_the_api_with_no_internet(server, offline):
    from playwright.sync_api import expect

    page = offline.page
    page.goto(server + "/redoc")
    expect(page.locator("h1")).to_contain_text("Grounded document Q&A", timeout=WAIT_MS)
    query = page.locator("[data-section-id='operation/query_query_post'] h2")
    expect(query).to_have_text("Query", timeout=WAIT_MS)
    expect(page.locator("[data-section-id='operation/query_query_post']").first).to_contain_text("/query")
    assert offline.blocked == []
    assert offline.errors == []


@needs_browser
def test_the_blocking_is_real_fastapis_cdn_page_stays_blank(offline):
    """Control: FastAPI's default /docs, under the same blocking, fails the Swagger UI check above."""
    from fastapi import FastAPI

    from evaluation.common import serve

    cdn_app = FastAPI(title="Grounded document Q&A")

    @cdn_app.post("/query")
    def query(question: str) -> dict:
        return {"answer": question}

    with serve(cdn_app, start_timeout=30) as url:
        with pytest.raises(AssertionError):
            swagger_ui_renders(offline, url + "/docs", timeout=3_000)
    assert any(urlsplit(u).hostname == "cdn.jsdelivr.net" for u in offline.blocked), offline.blocked
    assert offline.page.evaluate("typeof SwaggerUIBundle") == "undefined"
