"""The Invoices tab: a sample read through the live UI shows each value beside its record and in its box on the
page, failed checks first; an uploaded invoice is read and not kept; text from a PDF is shown as text."""

from __future__ import annotations

import json
import pytest

from tests.integration.test_ui import serve
from tests.support.invoices import misprinted_pdf
from ui.invoices import (FAILED_COLOR, OK_COLOR, SAMPLES, ZOOM, annotated_pages, drawn, read_invoice, reading_html,
                         sample_choices)


@pytest.fixture
def live_server(pipeline):
    with serve(pipeline) as url:
        yield url


def _total_box() -> list[float]:
    from ingestion.invoices.read import read_invoice as read

    return read((SAMPLES / "dev-a-536370.pdf").read_bytes(), "x.pdf").to_dict()["boxes"]["total"]["bbox"]


def _record(name: str) -> dict:
    return json.loads((SAMPLES / name).with_suffix(".truth.json").read_text())


def test_samples_offer_developed_and_held_aside_layouts_as_pdf_and_scan():
    labels = [label for label, _ in sample_choices()]
    assert any(x.startswith("Developed layout") and "PDF" in x for x in labels)
    assert any(x.startswith("Developed layout") and "scan" in x for x in labels)
    assert any(x.startswith("Held-aside layout, PDF") for x in labels)
    assert any(x.startswith("Held-aside layout, scan") for x in labels)


def test_a_sample_read_through_the_ui_matches_its_record_value_by_value(live_server):
    from gradio_client import Client

    client = Client(live_server + "/", verbose=False)
    html, image, page = client.predict("dev-a-536370.pdf", api_name="/invoice_sample")
    record = _record("dev-a-536370.pdf")
    assert "Every check passed" in html and "✗" not in html
    assert html.count("✓") == 8 + 6 * len(record["lines"])  # every field and every line value beside its record
    assert "855.86" in html and "ALARM CLOCK BAKELIKE PINK" in html
    # The page comes back with the total's box drawn in blue where the reading says it is.
    from PIL import Image

    drawn_page = Image.open(image).convert("RGB")
    box = [round(v * ZOOM) for v in _total_box()]
    r, g, b = drawn_page.getpixel((box[0], (box[1] + box[3]) // 2))  # compressed on the way: blue, not exact
    assert b > r + 60 and b > g + 30


def test_each_value_is_boxed_where_it_is_printed_on_the_page(pipeline):
    data = (SAMPLES / "dev-a-536370.pdf").read_bytes()
    reading = pipeline.invoices.extract(data, "dev-a-536370.pdf").to_dict()
    (image, boxes), = annotated_pages(data, reading)
    assert drawn((image, boxes), reading).size == image.size
    total = next(box for box, label in boxes if label.startswith("total:"))
    expected = [round(v * ZOOM) for v in reading["boxes"]["total"]["bbox"]]
    assert list(total) == expected and 0 <= total[0] < total[2] <= image.width and total[3] <= image.height
    # The box holds the printed total: the pixels inside are darker than paper.
    crop = image.convert("L").crop(total)
    assert min(crop.getdata()) < 100


def test_a_failed_check_is_shown_first_and_the_wrong_value_marked(pipeline):
    data, _ = misprinted_pdf("536370", 1, "-0.10")
    html, pages, first, _ = read_invoice(pipeline, data, "bill.pdf", _record("dev-a-536370.pdf"))
    assert "Needs review" in html
    assert html.index("FAILED") < html.index("passed")  # failed checks before the passing ones
    assert "line 2: quantity x unit price" in html[:html.index("passed")]
    assert "89.9" in html and "✗" in html and first is not None
    # On the page, the misprinted line's values are boxed in red, the others in blue.
    reading = pipeline.invoices.extract(data, "bill.pdf").to_dict()
    bad, good = reading["boxes"]["lines[1].amount"]["bbox"], reading["boxes"]["lines[0].amount"]["bbox"]
    assert first.getpixel((round(bad[0] * ZOOM), round((bad[1] + bad[3]) / 2 * ZOOM))) == FAILED_COLOR
    assert first.getpixel((round(good[0] * ZOOM), round((good[1] + good[3]) / 2 * ZOOM))) == OK_COLOR


def test_an_upload_is_read_and_deleted(live_server, tmp_path):
    from gradio_client import Client, handle_file

    path = tmp_path / "dev-b.pdf"
    path.write_bytes((SAMPLES / "dev-b-C536548.pdf").read_bytes())
    client = Client(live_server + "/", verbose=False)
    html, image, page, cleared = client.predict(handle_file(str(path)), api_name="/invoice_upload")
    assert "Every check passed" in html and "C536548" in html and "record" not in html
    from gradio.utils import get_upload_folder
    from pathlib import Path

    kept = [p for p in Path(get_upload_folder()).rglob("*.pdf") if p.read_bytes() == path.read_bytes()]
    assert kept == [] and cleared is None


def test_a_bad_upload_says_what_is_wrong(pipeline):
    html, pages, first, _ = read_invoice(pipeline, b"not a pdf at all", "bill.pdf", None)
    assert "Not read" in html and "PDF" in html and pages == [] and first is None


def test_text_from_a_pdf_is_shown_as_text():
    reading = {"is_invoice": True, "needs_review": False, "checks": [],
               "fields": {"invoice_number": "<b>1</b>"},
               "lines": [{"code": "X", "description": "<script>alert(1)</script>", "quantity": 1,
                          "unit_price": 1.0, "amount": 1.0, "page": 1}]}
    html = reading_html(reading)
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>1</b>" not in html


def test_a_document_that_is_not_an_invoice_says_so(pipeline):
    from evaluation.invoice_render import render_non_invoice

    html, pages, first, _ = read_invoice(pipeline, render_non_invoice(2), "letter.pdf", None)
    assert "Not an invoice" in html and pages == [] and first is None


def test_a_browser_that_had_its_hourly_invoices_read_is_told_so_and_another_is_not(tmp_path):
    from gradio_client import Client

    from pipeline import Pipeline
    from settings import Settings

    pipeline = Pipeline(Settings.preset("tests", data_dir=tmp_path / "storage", session_max_invoices_per_hour=2))
    with serve(pipeline) as url:
        alice, bob = Client(url + "/", verbose=False), Client(url + "/", verbose=False)
        for _ in range(2):
            assert "Every check passed" in alice.predict("dev-a-536370.pdf", api_name="/invoice_sample")[0]
        html = alice.predict("dev-a-536370.pdf", api_name="/invoice_sample")[0]
        assert "Not read: This session has had 2 invoices read in the last hour" in html
        assert "Every check passed" in bob.predict("dev-a-536370.pdf", api_name="/invoice_sample")[0]
