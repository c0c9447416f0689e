"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), with every file they load served
by the app itself, so they work on a machine with no internet.

FastAPI's built-in pages load their JavaScript and CSS from a CDN and are blank offline. This follows FastAPI's
"Self-hosting JavaScript and CSS for docs": the app is built with ``docs_url=None, redoc_url=None`` and
:func:`mount_offline_docs` adds the pages again, pointing at local copies. The copies come from the
``fastapi-offline`` package (``fastapi_offline/static``: Swagger UI 5's ``swagger-ui-bundle.js`` and
``swagger-ui.css``, ReDoc 2's ``redoc.standalone.js``, FastAPI's ``favicon.png``); only its files are used, not its
``FastAPIOffline`` factory.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse

ASSETS_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"
ASSETS_URL = "/docs-assets"
SWAGGER_JS = "swagger-ui-bundle.js"
SWAGGER_CSS = "swagger-ui.css"
REDOC_JS = "redoc.standalone.js"
FAVICON = "favicon.png"


def mount_offline_docs(app: FastAPI, *, docs_url: str | None = "/docs", redoc_url: str | None = "/redoc",
                       assets_url: str = ASSETS_URL) -> None:
    """Serve Swagger UI at ``docs_url`` and ReDoc at ``redoc_url`` (``None``: that page is left out), with their
    JavaScript, CSS and icon under ``assets_url``; the pages reference no other host.

    ``app`` must be built with ``docs_url=None, redoc_url=None`` (its CDN pages would take the same paths) and an
    ``openapi_url``. Call this before anything is mounted at ``/`` (the Gradio UI), which would shadow these paths.
    Like FastAPI's own pages, these are plain routes: the app's dependencies (the API key) do not apply to them,
    and they are left out of the OpenAPI schema. A ``root_path`` (behind a proxy) is honoured as FastAPI does.
    """
    if app.docs_url or app.redoc_url:
        raise ValueError("build the app with docs_url=None, redoc_url=None: its own pages load files from a CDN")
    if not app.openapi_url:
        raise ValueError("the documentation pages need the app's openapi_url")
    for name in (SWAGGER_JS, SWAGGER_CSS, REDOC_JS, FAVICON):
        if not (ASSETS_DIR / name).is_file():
            raise RuntimeError(f"{ASSETS_DIR / name} is missing: reinstall fastapi-offline (requirements.txt)")

    assets_url = assets_url.rstrip("/")
    app.mount(assets_url, StaticFiles(directory=ASSETS_DIR), name="docs-assets")

    def prefix(request: Request) -> str:
        return request.scope.get("root_path", "").rstrip("/")

    if docs_url:
        async def swagger_ui_html(request: Request) -> HTMLResponse:
            root = prefix(request)
            oauth2_redirect_url = app.swagger_ui_oauth2_redirect_url
            return get_swagger_ui_html(
                openapi_url=root + app.openapi_url,
                title=f"{app.title} - Swagger UI",
                swagger_js_url=f"{root}{assets_url}/{SWAGGER_JS}",
                swagger_css_url=f"{root}{assets_url}/{SWAGGER_CSS}",
                swagger_favicon_url=f"{root}{assets_url}/{FAVICON}",
                oauth2_redirect_url=root + oauth2_redirect_url if oauth2_redirect_url else None,
                init_oauth=app.swagger_ui_init_oauth,
                swagger_ui_parameters=app.swagger_ui_parameters,
            )

        app.add_route(docs_url, swagger_ui_html, include_in_schema=False)
        if app.swagger_ui_oauth2_redirect_url:
            async def swagger_ui_redirect(request: Request) -> HTMLResponse:
                return get_swagger_ui_oauth2_redirect_html()

            app.add_route(app.swagger_ui_oauth2_redirect_url, swagger_ui_redirect, include_in_schema=False)

    if redoc_url:
        async def redoc_html(request: Request) -> HTMLResponse:
            root = prefix(request)
            page = get_redoc_html(
                openapi_url=root + app.openapi_url,
                title=f"{app.title} - ReDoc",
                redoc_js_url=f"{root}{assets_url}/{REDOC_JS}",
                redoc_favicon_url=f"{root}{assets_url}/{FAVICON}",
                with_google_fonts=False,  # the fonts would come from Google; the system's are used instead
            )
            # ReDoc's sidebar shows a logo from cdn.redoc.ly and drops it when it fails to load: refused here, the
            # page asks no other host, online or not.
            page.headers["Content-Security-Policy"] = "img-src 'self' data:"
            return page

        app.add_route(redoc_url, redoc_html, include_in_schema=False)
