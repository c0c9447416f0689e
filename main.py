"""HTTP API (FastAPI) with the Gradio UI mounted at ``/``: ``uvicorn main:app``."""

from __future__ import annotations

import hmac
import json
import logging
import threading
from contextlib import asynccontextmanager, nullcontext
from dataclasses import replace
from typing import Literal

from fastapi import Depends, FastAPI, File, Form, Header, HTTPException, Request, UploadFile
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent
from pydantic import BaseModel, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from api_docs import mount_offline_docs
from core.errors import (CollectionLocked, FileTooLarge, IngestError, OverQuota, QuestionError, UnknownCollection,
                         UnknownDocument)
from core.text import check_text, safe_text
from ingestion.upload_checks import check_upload
from pipeline import Pipeline
from retrieval.store import validate_collection_name
from serving import BodyDeadline, BodyLimit
from services.access import API, Client
from services.query import Ask
from services.limits import retry_after
from ui.deferred import DeferredUI
from settings import Settings, get_settings

log = logging.getLogger("rag")


class QueryRequest(BaseModel):
    question: str = Field(..., description="A question about the documents.")
    collection: str = "default"
    doc_ids: list[str] | None = Field(None, description="Search only these documents.")
    top_k: int | None = Field(None, ge=1, le=50, description="Passages to return; default RAG_TOP_K (5).")
    mode: Literal["hybrid", "semantic", "keyword"] = "hybrid"
    rerank: bool = Field(True, description="Rerank with the cross-encoder when it is loaded.")
    conversation_id: str | None = Field(
        None, description="Continue this conversation (follow-ups are resolved from it); omitted: a new one is "
        "started and its id returned.")

    @field_validator("collection")
    @classmethod
    def _named_whole(cls, value: str) -> str:
        return validate_collection_name(value)

    @field_validator("question", "conversation_id")
    @classmethod
    def _text(cls, value: str | None, info) -> str | None:
        return value if value is None else check_text(value, f"The {info.field_name}")

    @field_validator("doc_ids")
    @classmethod
    def _ids_text(cls, value: list[str] | None) -> list[str] | None:
        for doc_id in value or ():
            check_text(doc_id, "A document id")
        return value


class ErrorDetail(BaseModel):
    detail: str = Field(..., description="What was wrong and what to do about it.")


ERRORS = {
    400: "The body cannot be parsed (not JSON, not UTF-8, broken multipart), or the uploaded file is empty.",
    401: "Missing or wrong API key (only when RAG_API_KEY is set).",
    403: "The collection needs its key (X-Collection-Key), or exists without one and a key was sent.",
    404: "No such collection, document or passage (or one that needs another X-Collection-Key).",
    409: "The collection was deleted while the file was being indexed, or its manifest is damaged; nothing was saved.",
    413: "The file is over the size or page limit, or a request body over RAG_MAX_REQUEST_KB.",
    408: "The request body did not arrive within RAG_BODY_TIMEOUT_SECONDS.",
    415: "Not a PDF, text or Markdown file.",
    422: "Invalid request, or a file that cannot be read.",
    429: "Over this client's hourly quota; try again after Retry-After seconds.",
    503: "Too many documents are being indexed (upload again after Retry-After seconds), or the data folder could not "
         "be written (nothing was saved).",
    507: "The server's disk is full; nothing was saved and earlier documents are untouched.",
}


def checked_name(name: str) -> str:
    """``name`` if it is a valid collection name, else a 422 saying why
    (:func:`retrieval.store.validate_collection_name`)."""
    try:
        return validate_collection_name(name)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None


def read_upload(file: UploadFile, settings: Settings) -> tuple[bytes, str]:
    """An uploaded file's bytes and name, its size and type checked before it is read, and never more than the
    upload limit held in memory (``RAG_MAX_UPLOAD_MB``)."""
    limit = int(settings.max_upload_mb * 1024 * 1024)
    check_upload(file.filename, file.size, limit)  # size and type, before the file is read into memory
    data = file.file.read(limit + 1)  # never hold more than the limit (+1 byte to know it was exceeded)
    if len(data) > limit:
        raise FileTooLarge(f"{file.filename!r} is larger than the {settings.max_upload_mb:g} MB upload limit "
                           "(RAG_MAX_UPLOAD_MB). Split the document or raise the limit.")
    return data, file.filename or "upload"


def errors(*codes: int) -> dict:
    """The error responses a route declares in its OpenAPI schema, all ``{"detail": "..."}``; 401 always, since
    every route but /health is behind the optional API key."""
    # The schema inline rather than ``model=``: FastAPI would file a model under the route's own media type, which
    # for /query/stream is text/event-stream, while errors are always JSON.
    schema = ErrorDetail.model_json_schema()
    return {code: {"description": ERRORS[code], "content": {"application/json": {"schema": schema}}}
            for code in sorted({401, *codes})}


def create_app(settings: Settings | None = None, pipeline: Pipeline | None = None, *, ui: bool = True) -> FastAPI:
    """Build the API (and UI) around one pipeline. Tests pass their own settings or pipeline."""
    settings = settings or (pipeline.settings if pipeline else get_settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if settings.parse_isolated:
            from ingestion.isolation import warm_up

            # Start the reading process server now, not during the first upload.
            threading.Thread(target=warm_up, name="parser-warm-up", daemon=True).start()
        if settings.index_samples:
            # In the background: the server answers at once and the sample becomes searchable when ready.
            threading.Thread(target=app.state.pipeline.ingestion.index_samples, name="index-samples",
                             daemon=True).start()
        ui_started = app.state.ui.running() if app.state.ui else nullcontext()
        async with ui_started:
            yield

    def key_refusal(request: Request) -> HTTPException | None:
        """With ``RAG_API_KEY`` set, every route but /health needs the key (Bearer or X-API-Key): the 401 for a
        request without it."""
        if not settings.api_key or request.url.path == "/health":
            return None
        auth = request.headers.get("authorization", "")
        given = auth[7:].strip() if auth[:7].lower() == "bearer " else request.headers.get("x-api-key", "")
        # Constant-time comparison: the time taken says nothing about how much of a guess was right.
        if not hmac.compare_digest(given.encode(), settings.api_key.encode()):
            return HTTPException(401, "Missing or wrong API key: send it as 'Authorization: Bearer <key>' or "
                                 "'X-API-Key: <key>'.", headers={"WWW-Authenticate": "Bearer"})
        return None

    async def require_key(request: Request) -> None:
        # async: checked on the event loop, so /health never waits for a worker thread busy with queries.
        if (refusal := key_refusal(request)) is not None:
            raise refusal

    # docs_url/redoc_url None: mount_offline_docs serves those pages with local JS/CSS instead of a CDN's.
    app = FastAPI(title="Grounded document Q&A", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  dependencies=[Depends(require_key)],
                  description="Upload PDFs or text files, ask questions, get answers quoted from the documents "
                              "with the page they came from.")
    mount_offline_docs(app)
    app.state.pipeline = pipeline or Pipeline(settings)
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_kb * 1024)
    # Added last, so outermost: a body trickling in meets its deadline before anything waits for all of it.
    app.add_middleware(BodyDeadline, seconds=settings.body_timeout_seconds)
    def get_pipeline(request: Request) -> Pipeline:
        return request.app.state.pipeline

    def collection_key(x_collection_key: str | None = Header(
            None, description="The key of a collection created with one: it opens that collection and its "
            "documents; sent with the first upload into a new collection, it makes the collection need it.")
    ) -> str | None:
        return x_collection_key or None

    def client(request: Request) -> Client:
        """Whom the quotas count: the request's network address."""
        return Client(API, request.client.host if request.client else "unknown")

    # -- errors: always {"detail": "<what was wrong and what to do>"} --------------------------------------
    # FastAPI parses the body before any dependency runs, so a body it cannot parse (422 invalid JSON, 400
    # undecodable) would be answered before the key is checked: without the key, the answer is 401 all the same.
    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        refusal = key_refusal(request) if exc.status_code == 400 else None
        exc = refusal or exc
        if isinstance(exc.detail, str):  # a message quoting the client's input must still encode
            exc.detail = safe_text(exc.detail)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        if (refusal := key_refusal(request)) is not None:
            return await http_exception_handler(request, refusal)
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "form"))
            msg = str(err.get("msg")).removeprefix("Value error, ")  # a validator's own message reads on its own
            parts.append(f"{where}: {msg}" if where else msg)
        return JSONResponse({"detail": safe_text("Invalid request: " + "; ".join(parts))}, status_code=422)

    @app.exception_handler(IngestError)
    async def _ingest_error(_request: Request, exc: IngestError):
        headers = {"Retry-After": str(exc.retry_after)} if getattr(exc, "retry_after", None) else None
        return JSONResponse({"detail": safe_text(exc.message)}, status_code=exc.status_code, headers=headers)

    @app.exception_handler(UnknownCollection)
    @app.exception_handler(UnknownDocument)
    async def _unknown(_request: Request, exc: LookupError):
        return JSONResponse({"detail": safe_text(str(exc.args[0]) if exc.args else str(exc))}, status_code=404)

    @app.exception_handler(CollectionLocked)
    async def _locked(_request: Request, exc: CollectionLocked):
        return JSONResponse({"detail": safe_text(str(exc))}, status_code=403)

    @app.exception_handler(OverQuota)
    async def _over_quota(_request: Request, exc: OverQuota):
        return JSONResponse({"detail": exc.message}, status_code=429, headers={"Retry-After": retry_after(exc.wait)})

    @app.exception_handler(QuestionError)
    async def _question(_request: Request, exc: QuestionError):
        return JSONResponse({"detail": safe_text(str(exc))}, status_code=422)

    # -- routes -------------------------------------------------------------------------------------------
    @app.get("/health")
    async def health(request: Request):
        """Liveness: answered on the event loop, touching nothing that blocks, so it is quick however busy the
        worker threads are with questions and uploads."""
        ui, p = request.app.state.ui, request.app.state.pipeline
        # With PostgreSQL the uploads being indexed are counted in the database: /stats tells them, not this.
        ingesting = None if p.settings.database_url else p.ingestion.slots.busy
        return {"status": "ok", "ingesting": ingesting, "ui": ui.state if ui else "off"}

    @app.get("/stats", responses=errors())
    def stats(p: Pipeline = Depends(get_pipeline)):
        return p.stats()

    async def no_empty_collection(request: Request) -> None:
        """An empty ``collection`` form field is an error, not the default collection (the form parser would
        treat it as left out)."""
        form = await request.form()  # parsed once for the route already; this reads the same form
        if "collection" in form and not str(form["collection"]):
            checked_name("")

    @app.post("/ingest", responses={202: {"description": "wait=false: the upload runs in the background; the body "
                                          "is its job (as GET /jobs/{job_id} answers)"},
                                    **errors(400, 403, 408, 409, 413, 415, 422, 429, 503, 507)},
              dependencies=[Depends(no_empty_collection)])
    def ingest(request: Request, file: UploadFile = File(...), collection: str = Form("default"),
               strategy: Literal["fixed_size", "recursive_char", "semantic"] | None = Form(None),
               chunk_size: int | None = Form(None, ge=100, le=20000),
               chunk_overlap: int | None = Form(None, ge=0),
               wait: bool = Form(True, description="false: answer 202 at once with a job whose progress (pages "
                                 "read, passages and sentences embedded, seconds left) GET /jobs/{job_id} "
                                 "reports, and its result at the end."),
               key: str | None = Depends(collection_key), p: Pipeline = Depends(get_pipeline)):
        """Index one file. By default the request waits for it; ``wait=false`` makes it a background job."""
        collection = checked_name(collection)
        # A new collection uploaded into with a key is claimed for that key before anything is read.
        p.access.authorize(collection, key, create=True)
        p.access.count(client(request), "uploads")
        data, name = read_upload(file, p.settings)
        chunking = {"strategy": strategy, "chunk_size": chunk_size, "chunk_overlap": chunk_overlap}
        try:
            if not wait:
                job = p.uploads.submit(data, name, collection, **chunking)
                return JSONResponse(job.to_dict(), status_code=202, headers={"Location": f"/jobs/{job.id}"})
            return p.uploads.ingest(data, name, collection, **chunking).to_dict()
        except ValueError as exc:  # invalid collection name, strategy or sizes
            raise HTTPException(422, str(exc)) from None

    @app.post("/invoices/extract", responses=errors(400, 408, 413, 415, 422, 429, 503))
    def extract_invoice(request: Request, file: UploadFile = File(..., description="An invoice or credit note: a "
                                                                   "PDF with a text layer, or a scanned one."),
                        p: Pipeline = Depends(get_pipeline)):
        """Read an invoice into its header fields, line items and arithmetic checks, with where each value was
        found (``boxes``: page and rectangle in PDF points, origin top left). ``needs_review`` is true when a
        check failed or a value the checks need is missing; the failed checks come first and name the line or
        field. Numbers are JSON numbers, dates ISO 8601, what was not found ``null``; a PDF that is not an
        invoice answers ``is_invoice`` false with nothing filled in. The file is not kept. Counts as an upload
        towards the hourly quota."""
        p.access.count(client(request), "uploads")
        data, name = read_upload(file, p.settings)
        return p.invoices.extract(data, name).to_dict()

    @app.get("/jobs/{job_id}", responses=errors(403, 404))
    @app.get("/ingest/jobs/{job_id}", responses=errors(403, 404), include_in_schema=False)
    def ingest_job(job_id: str, key: str | None = Depends(collection_key), p: Pipeline = Depends(get_pipeline)):
        """A background upload (``POST /ingest`` with ``wait=false``): ``status`` running, done or failed;
        ``progress`` (pages read, passages and sentences embedded, ``eta_seconds``); ``result`` (what a waited-for
        upload answers) or ``error`` (``status``, the HTTP status it would have had, and ``detail``)."""
        job = p.uploads.get(job_id)
        if job is None:
            raise HTTPException(404, "No such upload job: job ids are kept for an hour after the upload ends. "
                                "Upload the file again to index it.")
        p.access.authorize(job.collection, key)
        return job.to_dict()

    @app.get("/documents", responses=errors(404, 422))
    def documents(collection: str | None = None, key: str | None = Depends(collection_key),
                  p: Pipeline = Depends(get_pipeline)):
        """The documents of ``collection``, or of every collection the request may see: those without a key and
        the one its ``X-Collection-Key`` opens."""
        if collection is not None:
            p.access.authorize(checked_name(collection), key)
        names = [collection] if collection is not None else p.access.open_collections(key)
        # Documents set aside at start (damaged files), with the reason; uploading the file again repairs one.
        return {"documents": [r.to_dict() for name in names for r in p.ingestion.documents(name)],
                "damaged": [d.to_dict() for name in names for d in p.ingestion.damaged(name)]}

    @app.delete("/documents/{doc_id}", responses=errors(404, 422, 503, 507))
    def delete_document(doc_id: str, key: str | None = Depends(collection_key), p: Pipeline = Depends(get_pipeline)):
        p.access.authorize_document(doc_id, key)
        record = p.ingestion.delete_document(doc_id)
        return {"deleted": record.doc_id, "filename": record.filename, "collection": record.collection}

    def checked(req: QueryRequest, request: Request, key: str | None = Depends(collection_key),
                p: Pipeline = Depends(get_pipeline)) -> Ask:
        """The question checked once: refused if bad, in a collection the key does not open, or over the client's
        quota, before any streaming starts, so the status code can say so. Without a ``conversation_id`` a new
        conversation is started."""
        p.access.authorize(req.collection, key)
        ask = p.questions.ask(req.question, req.collection, req.doc_ids, req.top_k, req.mode, req.conversation_id,
                              req.rerank)
        p.access.count(client(request), "questions")
        return ask if ask.conversation_id else replace(ask, conversation_id=p.questions.conversation(None))

    @app.post("/query", responses=errors(400, 404, 408, 413, 422, 429))
    def query(ask: Ask = Depends(checked), p: Pipeline = Depends(get_pipeline)):
        return p.questions.answer(ask).to_dict()

    @app.post("/query/stream", response_class=EventSourceResponse, responses=errors(400, 404, 408, 413, 422, 429))
    def query_stream(ask: Ask = Depends(checked), p: Pipeline = Depends(get_pipeline)):
        try:
            for event in p.questions.stream(ask):
                yield ServerSentEvent(event=event.kind, data=event.to_dict())
        except Exception:  # noqa: BLE001 - the stream has started: report, don't crash
            log.exception("query stream failed")  # the details stay in the server's log, never in the reply
            yield ServerSentEvent(event="error", data={"detail": "The answer could not be completed because of an "
                                                       "error on the server; ask again, or report it if it persists."})

    @app.get("/documents/{doc_id}/pages/{page}", response_class=Response,
             responses={200: {"content": {"image/png": {}}, "description": "the page, passage highlighted"},
                        **errors(404, 422)})
    def page_image(doc_id: str, page: int, chunk_id: str | None = None, quote: str = "",
                   key: str | None = Depends(collection_key), p: Pipeline = Depends(get_pipeline)):
        """The page rendered as PNG, with passage ``chunk_id`` highlighted (only ``quote``, a citation's quoted
        sentences, when given and found); ``X-Highlight-Boxes`` lists the boxes (image pixels) and
        ``X-Highlight-Matched`` the share of the highlighted words found on the page."""
        p.access.authorize_document(doc_id, key)
        try:
            image = p.pages.image(doc_id, page, chunk_id, quote=quote[:5000])
        except ValueError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=422)
        return Response(image.png, media_type="image/png", headers={
            "X-Highlight-Boxes": json.dumps([[round(v, 1) for v in box] for box in image.boxes]),
            "X-Highlight-Matched": f"{image.matched:.2f}", "Cache-Control": "private, max-age=3600"})

    @app.delete("/conversations/{conversation_id}", responses=errors(422))
    def forget_conversation(conversation_id: str, p: Pipeline = Depends(get_pipeline)):
        p.questions.forget(conversation_id)
        return {"reset": conversation_id}

    @app.post("/debug/chunks", responses=errors(400, 404, 408, 413, 422, 429))
    def debug_chunks(ask: Ask = Depends(checked), p: Pipeline = Depends(get_pipeline)):
        result = p.questions.search(ask)
        # No answer here: the ranking's level is the only one there is.
        return {"question": ask.question, **result.to_dict(), "confidence_level": result.confidence_level,
                "timings": result.timings}

    # The UI is built after the server listens (ui.deferred): the API answers while Gradio imports.
    app.state.ui = DeferredUI(lambda: build_gradio(app.state.pipeline, settings)) if ui else None
    if ui:
        app.mount("/", app.state.ui)
    return app


def build_gradio(pipeline: Pipeline, settings: Settings) -> FastAPI:
    """A FastAPI app with the Gradio UI mounted at ``/`` (what :class:`ui.deferred.DeferredUI` serves)."""
    import gradio as gr

    from app_gradio import CSS, build_ui
    from ui.render import CITATION_JS

    # Gradio's own upload route refuses a file over the limit while it arrives, and deletes what it wrote.
    return gr.mount_gradio_app(FastAPI(), build_ui(pipeline), path="/", css=CSS, js=CITATION_JS,
                               max_file_size=int(settings.max_upload_mb * 1024 * 1024))


def __getattr__(name: str):
    # `uvicorn main:app` builds the app on first access, so importing this module (tests) loads no model.
    if name == "app":
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        globals()["app"] = create_app()
        return globals()["app"]
    raise AttributeError(name)
