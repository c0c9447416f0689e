"""``POST /invoices/extract``: an invoice read into JSON a bookkeeping system can take (numbers as numbers, ISO dates,
``null`` for what is missing), failed checks first and flagged for review, nothing kept, bad files refused."""

from __future__ import annotations

import json
import pytest

from tests.support import ROOT
from tests.support.invoices import misprinted_pdf

SAMPLES = ROOT / "data" / "invoices"


def extract(client, data: bytes, name: str = "invoice.pdf"):
    return client.post("/invoices/extract", files={"file": (name, data, "application/pdf")})


def sample(name: str) -> tuple[bytes, dict]:
    return (SAMPLES / f"{name}.pdf").read_bytes(), json.loads((SAMPLES / f"{name}.truth.json").read_text())


def test_an_invoice_pdf_is_read_into_the_record_it_was_drawn_from(client, settings):
    data, truth = sample("dev-a-536370")
    r = extract(client, data)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["is_invoice"] is True and body["needs_review"] is False
    assert body["fields"] == truth["fields"]
    assert body["fields"]["invoice_date"] == "2010-12-01" and body["fields"]["tax"] is None
    assert isinstance(body["fields"]["total"], float) and isinstance(body["lines"][0]["quantity"], int)
    assert body["lines"] == truth["lines"]
    assert all(c["passed"] for c in body["checks"]) and len(body["checks"]) >= len(truth["lines"])
    box = body["boxes"]["total"]
    assert box["page"] == 1 and box["bbox"][0] < box["bbox"][2] and box["bbox"][1] < box["bbox"][3]
    assert f"lines[{len(truth['lines']) - 1}].amount" in body["boxes"]
    # Not kept: nothing is indexed or written for it.
    assert client.get("/documents").json()["documents"] == []
    stored = [p for p in settings.data_dir.rglob("*") if p.is_file() and p.read_bytes().startswith(data[:64])]
    assert stored == []


def test_a_credit_note_keeps_its_signs_and_number(client):
    data, truth = sample("dev-b-C536548")
    body = extract(client, data).json()
    assert body["fields"]["invoice_number"] == "C536548" and body["fields"] == truth["fields"]
    assert body["fields"]["total"] < 0 and all(line["quantity"] < 0 for line in body["lines"])
    assert body["lines"] == truth["lines"] and body["needs_review"] is False


def test_a_wrong_line_amount_is_flagged_first_and_not_corrected(client):
    data, inv = misprinted_pdf("536370", 2, "1.00")
    body = extract(client, data).json()
    assert body["needs_review"] is True
    first = body["checks"][0]
    assert first["passed"] is False and "3" in first["name"], first  # names the line (1-based)
    assert all(c["passed"] for c in body["checks"][1:]) or not body["checks"][1]["passed"]
    # What is printed is what is read: the amount as printed, not quantity x price.
    assert body["lines"][2]["amount"] == pytest.approx(float(inv.rows[2].amount + 1))


def test_a_pdf_that_is_not_an_invoice_says_so_and_invents_nothing(client):
    from evaluation.invoice_render import render_non_invoice

    body = extract(client, render_non_invoice(1), "letter.pdf").json()
    assert body["is_invoice"] is False and body["note"]
    assert set(body["fields"].values()) == {None} and body["lines"] == [] and body["boxes"] == {}


def test_a_scanned_invoice_is_read_by_ocr(client):
    data, truth = sample("dev-c-536365-scan")
    body = extract(client, data, "scan.pdf").json()
    assert body["is_invoice"] is True
    assert body["fields"]["invoice_number"] == truth["fields"]["invoice_number"]
    assert body["fields"]["total"] == truth["fields"]["total"]
    assert len(body["lines"]) == len(truth["lines"])
    assert body["needs_review"] is False or any(not c["passed"] for c in body["checks"])


@pytest.mark.parametrize("name, data, status, words", [
    ("notes.txt", b"Invoice 1 total 3.00", 415, "not a PDF"),
    ("empty.pdf", b"", 400, "empty"),
    ("fake.pdf", b"this is not a pdf at all", 415, "PDF"),
    ("broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage", 422, "truncated"),
])
def test_bad_files_get_a_specific_error(client, name, data, status, words):
    r = extract(client, data, name)
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert words.lower() in detail.lower() and "Traceback" not in detail


def test_invoices_count_against_the_upload_quota(settings, pipeline):
    from fastapi.testclient import TestClient

    from main import create_app

    data, _ = sample("dev-a-536370")
    pipeline.settings = settings.model_copy(update={"uploads_per_hour": 1})
    with TestClient(create_app(settings=pipeline.settings, ui=False)) as c:
        assert extract(c, data).status_code == 200
        r = extract(c, data)
        assert r.status_code == 429 and "Retry-After" in r.headers
