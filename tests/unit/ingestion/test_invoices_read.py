"""Invoices of the dev layout families read back into their truth: fields, lines, pages, boxes and checks; what is
not an invoice, and files that cannot be read, refused with the product's errors."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from decimal import Decimal

import pymupdf
import pytest

from core.errors import DamagedPdf, EncryptedPdf, NotAPdf, TooManyPages
from evaluation.invoice_layouts import DEV_FAMILIES, layout
from evaluation.invoice_records import SAMPLE, InvoiceRow, load_invoices
from evaluation.invoice_render import NON_INVOICE_KINDS, paginate, render_non_invoice, render_pdf, truth
from evaluation.invoice_scans import scan
from ingestion.invoices.checks import run_checks
from ingestion.invoices.read import read_invoice

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}


def _read(inv, lay, **kwargs):
    return read_invoice(render_pdf(inv, lay), f"{inv.number}.pdf", **kwargs), truth(inv, lay)


def _same(reading, expected):
    assert reading.is_invoice
    assert reading.fields.to_dict() == expected.fields.to_dict()
    assert [line.to_dict() for line in reading.lines] == [line.to_dict() for line in expected.lines]
    assert reading.pages == expected.pages


@pytest.mark.parametrize("family", DEV_FAMILIES)
@pytest.mark.parametrize("k, number", list(enumerate(INVOICES)))
def test_every_field_and_line_equals_the_truth(family, k, number):
    reading, expected = _read(INVOICES[number], layout(k, family))
    _same(reading, expected)
    assert not reading.needs_review and all(c.passed for c in reading.checks)


@pytest.mark.parametrize("family, seed", [("dev-a", 3), ("dev-b", 0), ("dev-c", 1), ("dev-c", 0)])
def test_a_multi_page_invoice_has_each_line_once_on_its_page(family, seed):
    reading, expected = _read(INVOICES["536591"], layout(seed, family))
    assert expected.pages > 1
    _same(reading, expected)
    assert len({line.page for line in reading.lines}) > 1


@pytest.mark.parametrize("family, seed", [("dev-a", 4), ("dev-c", 1)])
def test_a_wrapped_description_is_joined_with_one_space(family, seed):
    inv, lay = INVOICES["536370"], layout(seed, family)
    wrapped = [row.index for rows in paginate(inv, lay) for row in rows if len(row.cells["description"]) > 1]
    assert wrapped  # this layout's description column is narrow
    reading, expected = _read(inv, lay)
    _same(reading, expected)
    for n in wrapped:
        box = reading.boxes[f"lines[{n}].description"]
        assert box.y1 - box.y0 > 1.5 * lay.size  # the box covers the printed rows


def test_a_credit_note_keeps_its_number_and_negative_quantities():
    inv = INVOICES["C536548"]
    for family in DEV_FAMILIES:
        reading, expected = _read(inv, layout(2, family))
        _same(reading, expected)
        assert reading.fields.invoice_number == "C536548"
        assert all(line.quantity < 0 for line in reading.lines)
        assert reading.fields.total < 0


def test_an_invoice_without_customer_has_no_customer_id():
    for family in DEV_FAMILIES:
        reading, expected = _read(INVOICES["536414"], layout(5, family))
        _same(reading, expected)
        assert reading.fields.customer_id is None


@dataclass(frozen=True)
class _Misprinted(InvoiceRow):
    """A row printed with an amount one pound more than quantity x price."""

    @property
    def amount(self) -> Decimal:
        return super().amount + Decimal("1.00")


@pytest.mark.parametrize("family", DEV_FAMILIES)
def test_a_tampered_amount_is_flagged_and_its_line_named(family):
    inv = INVOICES["536365"]
    rows = list(inv.rows)
    rows[2] = _Misprinted(rows[2].code, rows[2].raw, rows[2].quantity, rows[2].unit_price)
    tampered = replace(inv, rows=tuple(rows))
    reading, expected = _read(tampered, layout(4, family))
    assert reading.lines[2].amount == expected.lines[2].amount  # read as printed, not corrected
    assert reading.needs_review
    failed = [c for c in reading.checks if not c.passed]
    assert [c.name for c in failed] == ["line 3: quantity x unit price"]
    assert "line 3" in failed[0].detail and rows[2].code in failed[0].detail


def test_a_total_that_is_not_subtotal_plus_tax_is_flagged():
    reading = read_invoice(render_pdf(INVOICES["536403"], layout(1, "dev-a")), "x.pdf")
    assert not reading.needs_review
    reading.fields.total += Decimal("0.01")
    checks, review = run_checks(reading.fields, reading.lines)
    assert review and [c.name for c in checks if not c.passed] == ["subtotal + tax = total"]


@pytest.mark.parametrize("seed", range(len(NON_INVOICE_KINDS)))
def test_a_document_that_is_not_an_invoice(seed):
    reading = read_invoice(render_non_invoice(seed), "letter.pdf")
    assert not reading.is_invoice and reading.note
    assert reading.lines == [] and all(v is None for v in reading.fields.to_dict().values())


def test_boxes_name_each_field_and_line_value_on_its_page():
    inv, lay = INVOICES["536591"], layout(0, "dev-b")
    reading, expected = _read(inv, lay)
    assert all(reading.boxes[name].page == 1 for name in ("invoice_number", "invoice_date", "customer_id", "country"))
    assert reading.boxes["subtotal"].page == reading.boxes["total"].page == expected.pages
    for n, line in enumerate(expected.lines):
        for key in ("code", "description", "quantity", "unit_price", "amount"):
            box = reading.boxes[f"lines[{n}].{key}"]
            assert box.page == line.page and box.x0 < box.x1 and box.y0 < box.y1


def test_files_that_cannot_be_read_raise_the_upload_errors():
    pdf = render_pdf(INVOICES["536591"], layout(0, "dev-a"))
    with pytest.raises(NotAPdf, match="not a PDF"):
        read_invoice(b"hello, world", "a.pdf")
    with pytest.raises(TooManyPages, match="pages"):
        read_invoice(pdf, "a.pdf", max_pages=1)
    with pytest.raises(DamagedPdf):
        read_invoice(pdf[:200], "a.pdf")
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    locked = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    with pytest.raises(EncryptedPdf, match="password"):
        read_invoice(locked, "a.pdf")


def test_the_reader_is_importable_as_the_service_names_it():
    from services.invoices import TARGET

    module, name = TARGET.split(":")
    assert getattr(importlib.import_module(module), name) is read_invoice


def test_a_scan_is_read_with_ocr_or_flagged():
    inv, lay = INVOICES["536365"], layout(2, "dev-b")
    reading = read_invoice(scan(render_pdf(inv, lay), 2), "scan.pdf")
    expected = truth(inv, lay)
    assert reading.is_invoice and reading.pages == 1
    right = reading.fields.total == expected.fields.total and \
        [line.to_dict() for line in reading.lines] == [line.to_dict() for line in expected.lines]
    assert right or reading.needs_review
    assert reading.fields.total == expected.fields.total
    assert [line.amount for line in reading.lines] == [line.amount for line in expected.lines]


def test_a_scan_without_ocr_is_not_read_as_an_invoice():
    inv, lay = INVOICES["536365"], layout(2, "dev-b")
    reading = read_invoice(scan(render_pdf(inv, lay), 2), "scan.pdf", ocr=False)
    assert not reading.is_invoice and "OCR" in reading.note
