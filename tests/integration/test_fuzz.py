"""Fuzz every route of the HTTP API from its own OpenAPI schema (schemathesis): no input may cause a 5xx, and every
response must be one the schema declares, shaped as declared.

The app under test holds one real document (tests/pdf_factory.known_text_pdf) in a temporary data dir; half the
generated document ids (and chunk ids) are swapped for its real ones, so the fuzzer reaches past the 404s.
"""

from __future__ import annotations

import types
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from main import create_app
from settings import Settings
from tests.support.pdf_factory import known_text_pdf

KEY = "fuzz-key"
SPARE = "spare-2f9c"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Bounded and reproducible: the same examples on every run.
FUZZ = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
STATUSES: Counter = Counter()  # (operation, status) over the module: printed at the end (-s or -rA)


def fuzz_settings(data_dir, **update) -> Settings:
    """Quotas high enough that 429s do not hide what the routes do."""
    return Settings.preset("tests", data_dir=data_dir, questions_per_hour=100_000,
                           uploads_per_hour=100_000, **update)


# The schema is read from the app at import time; the routes' declarations don't depend on the pipeline, so a
# stand-in spares loading models during collection. Each test sends its cases to a real app (``app=``).
# (schemathesis.pytest.from_fixture, the lazy alternative, fails on pytest 9's node ids.)
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(settings=fuzz_settings("/nonexistent"), pipeline=types.SimpleNamespace(), ui=False))


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    from pipeline import Pipeline

    p = Pipeline(fuzz_settings(tmp_path_factory.mktemp("fuzz") / "storage"))
    # A spare copy out of the fuzzer's reach, put back (vectors reused, nothing read) when a DELETE removed the
    # one in "default".
    p.ingest(known_text_pdf(), "survey.pdf", SPARE)
    p.ingestion.copy_document(p.documents(SPARE)[0].doc_id, "default")
    yield p
    print("\nfuzzed responses (operation, status): count")
    for (label, status), n in sorted(STATUSES.items()):
        print(f"  {label} {status}: {n}")


@pytest.fixture(scope="module")
def open_app(pipeline):
    return create_app(settings=pipeline.settings, pipeline=pipeline, ui=False)


@pytest.fixture(scope="module")
def keyed_app(pipeline):
    return create_app(settings=pipeline.settings.model_copy(update={"api_key": KEY}), pipeline=pipeline, ui=False)


def real_document(pipeline):
    """The survey's record in "default" (put back if a fuzzed DELETE removed it) and its chunk ids."""
    docs = pipeline.documents("default") if "default" in pipeline.store.collections() else []
    doc = docs[0] if docs else pipeline.ingestion.copy_document(pipeline.documents(SPARE)[0].doc_id, "default")
    return doc.doc_id, pipeline.ingestion.chunk_ids(doc.doc_id)


def aim_at_real_ids(case, data, pipeline) -> None:
    """Half the time, aim at the document that exists, its pages and passages (generated ids are almost never real
    ones, generated page numbers rarely 1-3)."""
    params = case.path_parameters or {}
    if "doc_id" in params and data.draw(st.booleans(), label="real doc_id"):
        doc_id, chunk_ids = real_document(pipeline)
        params["doc_id"] = doc_id
        if "page" in params and data.draw(st.booleans(), label="real page"):
            params["page"] = data.draw(st.integers(0, 4), label="page")
        if isinstance(case.query, dict) and "chunk_id" in case.query and data.draw(st.booleans(), label="real chunk"):
            case.query["chunk_id"] = data.draw(st.sampled_from(chunk_ids), label="chunk_id")


def fuzz(case, data, app, pipeline, headers=None):
    aim_at_real_ids(case, data, pipeline)
    response = case.call(app=app, headers=headers)
    STATUSES[(case.operation.label, response.status_code)] += 1
    case.validate_response(response, checks=CHECKS, headers=headers)
    return response


@pytest.mark.slow
@schema.parametrize()
@schema.given(data=st.data())
@hsettings(max_examples=60, **FUZZ)
def test_every_route_survives_fuzzing(case, data, open_app, pipeline):
    fuzz(case, data, open_app, pipeline)


@schema.parametrize()
@schema.given(data=st.data())
@hsettings(max_examples=25, **FUZZ)
def test_every_route_survives_fuzzing_quick(case, data, open_app, pipeline):
    fuzz(case, data, open_app, pipeline)


@schema.parametrize()
@schema.given(data=st.data())
@hsettings(max_examples=10, **FUZZ)
def test_with_an_api_key_wrong_or_missing_keys_get_401(case, data, keyed_app, pipeline):
    """With RAG_API_KEY set: no key or a wrong one is a 401 everywhere but /health, never a 5xx; the right key
    behaves as without one."""
    sent = data.draw(st.sampled_from([None, "wrong", KEY]), label="key")
    headers = {"Authorization": f"Bearer {sent}"} if sent else None
    response = fuzz(case, data, keyed_app, pipeline, headers=headers)
    if sent != KEY and case.operation.path != "/health":
        assert response.status_code == 401, response.text
        assert response.headers.get("www-authenticate") == ["Bearer"]


@pytest.fixture(scope="module")
def stingy_app(pipeline):
    return create_app(settings=pipeline.settings.model_copy(update={"questions_per_hour": 2, "uploads_per_hour": 1}),
                      pipeline=pipeline, ui=False)


@schema.include(path_regex="^/(ingest|query|debug)").parametrize()
@schema.given(data=st.data())
@hsettings(max_examples=8, **FUZZ)
def test_with_tiny_quotas_429s_are_declared_and_never_5xx(case, data, stingy_app, pipeline):
    fuzz(case, data, stingy_app, pipeline)


NAMES = st.text(max_size=30) | st.sampled_from(["survey", "../../etc/passwd", "a\\b", "CON", ".hidden"])
EXTENSIONS = st.sampled_from([".pdf", ".txt", ".md", ".PDF", ".markdown", "", ".exe", ".pdf.txt"])
CONTENTS = st.sampled_from(["pdf", "text", "empty", "junk", "not-utf8"])


@given(name=NAMES, ext=EXTENSIONS, content=CONTENTS,
       collection=st.none() | st.sampled_from(["default", "fuzz-uploads", "", "-x", "a" * 65]) | st.text(max_size=12),
       strategy=st.none() | st.sampled_from(["fixed_size", "recursive_char", "semantic", "bogus"]),
       chunk_size=st.none() | st.integers(-5, 25000), chunk_overlap=st.none() | st.integers(-5, 25000))
@hsettings(max_examples=20, **FUZZ)
def test_uploads_of_real_files_with_fuzzed_names_and_form_fields(open_app, name, ext, content, collection, strategy,
                                                                  chunk_size, chunk_overlap):
    """The schema can only send text as the file (named "file", so always 415): here real files go in, under fuzzed
    names and form fields. Nothing is a 5xx; an accepted file is listed in its collection."""
    from fastapi.testclient import TestClient

    body = {"pdf": known_text_pdf(), "text": f"Fuzzed upload {name!r} says the ferry leaves at noon.".encode(),
            "empty": b"", "junk": bytes(range(256)) * 4, "not-utf8": b"\xff\xfe caf\xe9 \x80\x81"}[content]
    form = {k: str(v) for k, v in dict(collection=collection, strategy=strategy, chunk_size=chunk_size,
                                       chunk_overlap=chunk_overlap).items() if v is not None}
    r = TestClient(open_app).post("/ingest", files={"file": (name + ext, body)}, data=form)
    STATUSES[("POST /ingest (real files)", r.status_code)] += 1
    assert r.status_code < 500, r.text
    assert r.status_code in (200, 400, 413, 415, 422), r.text
    assert isinstance(r.json()["detail"] if r.status_code != 200 else r.json()["doc_id"], str)
    if r.status_code == 200:
        listed = TestClient(open_app).get("/documents", params={"collection": r.json()["collection"]}).json()
        assert r.json()["doc_id"] in [d["doc_id"] for d in listed["documents"]]


def test_a_body_that_cannot_be_parsed_still_needs_the_key(keyed_app):
    """Found by the fuzzer: FastAPI parses the body before the key is checked, so a broken body used to get its
    422/400 without the key."""
    from fastapi.testclient import TestClient

    client = TestClient(keyed_app)
    for body, status in ((b"{not json", 422), (b"\x80 not UTF-8", 400)):
        r = client.post("/query", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 401 and "API key" in r.json()["detail"], r.text
        assert r.headers["WWW-Authenticate"] == "Bearer"
        r = client.post("/query", content=body, headers={"Content-Type": "application/json", "X-API-Key": KEY})
        assert r.status_code == status and isinstance(r.json()["detail"], str), r.text
