"""Invoices of the dev layout families read back into their truth: fields, lines, pages, boxes and checks; what is
not an invoice, and files that cannot be read, refused with the product's errors."""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, replace
from decimal import Decimal

import numpy as np
import pymupdf
import pytest

from core.errors import DamagedPdf, EncryptedPdf, NotAPdf, TooManyPages
from evaluation.invoice_families import DEV_FAMILIES, layout
from evaluation.invoice_layouts import UNKNOWN
from evaluation.invoice_records import SAMPLE, InvoiceRow, load_invoices
from evaluation.invoice_render import NON_INVOICE_KINDS, paginate, render_non_invoice, render_pdf, truth
from evaluation.invoice_scans import scan
from ingestion.invoices.checks import run_checks
from ingestion.invoices.read import read_invoice
from ingestion.invoices.table import read_table
from ingestion.invoices.words import Word, box_slope, group_rows, skew

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
    inv, lay = INVOICES[number], layout(k, family)
    reading, expected = _read(inv, lay)
    unknown = {c.key for c in lay.columns if c.heading in UNKNOWN.get(c.key, ())}
    failed = {c.name for c in reading.checks if not c.passed}
    failed -= {f"line {n}: description read" for n, row in enumerate(inv.rows, 1) if not row.description and all(
        not r.description for r in inv.rows)}  # a record with no description at all: a reviewer is asked to look
    if all(row.unit_price == 0 for row in inv.rows):
        # Priced 0.00, any whole number x price = amount and subtotal + 0.00 = total: which column is the quantity,
        # or which unlabelled zero the tax, is a guess when found from the values alone, and says so.
        assert failed <= {"columns of page 1 told apart", "tax told apart"}
        assert "columns of page 1 told apart" in failed or not {"quantity", "code"} <= unknown
        assert reading.fields.to_dict() == expected.fields.to_dict()
        if "columns of page 1 told apart" not in failed:
            _same(reading, expected)
    else:
        _same(reading, expected)
        assert not reading.needs_review and not failed


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


# Rows of words as the reader sees a scan, built by hand: each failure of column finding shown on a small page.

def _w(text, x0, x1, cy, h=12.0, ocr=True, top=None):
    y0 = cy - h / 2 if top is None else top
    return Word(text, x0, y0, x1, y0 + h if top is not None else cy + h / 2, 1, ocr)


def _row(cy, *words):
    return [_w(t, a, b, cy) for t, a, b in words]


def _lines(pages):
    return [(ln.code, ln.description, ln.quantity, ln.unit_price, ln.amount) for ln in read_table(pages).lines]


def test_a_quantity_ocr_read_in_one_line_with_the_code_stays_in_its_column():
    # "Quantity" printed wide over right-aligned numbers that touch the codes: the strip empty of words left of
    # the numbers is a margin, not the edge between the two columns.
    rows = [
        _row(217, ("Quantity", 65, 107), ("Item", 109, 128), ("no.", 133, 148), ("Details", 154, 187),
             ("Rate", 481, 506), ("Line", 514, 532), ("total", 537, 559)),
        _row(238, ("12", 92, 107), ("22670", 107, 138), ("FRENCH", 154, 189), ("SIGN", 195, 220),
             ("1.25", 477, 496), ("15.00", 525, 550)),
        _row(256, ("12", 93, 108), ("21586", 107, 138), ("KINGS", 155, 184), ("1.69", 476, 496), ("20.28", 525, 549)),
        _row(274, ("2", 96, 110), ("22927", 105, 137), ("GREEN", 155, 185), ("5.95", 476, 496), ("11.90", 525, 550)),
        _row(292, ("24", 91, 102), ("21121", 108, 137), ("SET/10", 154, 189), ("1.25", 476, 496),
             ("30.00", 525, 549)),
    ]
    assert _lines([rows]) == [
        ("22670", "FRENCH SIGN", 12, Decimal("1.25"), Decimal("15.00")),
        ("21586", "KINGS", 12, Decimal("1.69"), Decimal("20.28")),
        ("22927", "GREEN", 2, Decimal("5.95"), Decimal("11.90")),
        ("21121", "SET/10", 24, Decimal("1.25"), Decimal("30.00"))]


def test_a_glued_quantity_and_code_under_overlapping_headings_are_cut_apart():
    rows = [
        _row(159, ("Pcs", 49, 70), ("Stock", 68, 95), ("code", 100, 121), ("Product", 124, 161), ("Price", 473, 499),
             ("Amount", 513, 550)),
        _row(177, ("216", 49, 70), ("84946", 69, 99), ("ANTIQUE", 126, 162), ("1,06£", 470, 499),
             ("228,96£", 513, 550)),
        _row(193, ("320", 51, 68), ("84879", 69, 99), ("ASSORTED", 126, 170), ("1,45", 469, 489), ("£", 494, 499),
             ("464,00£", 512, 550)),
        _row(209, ("12822659", 50, 99), ("LUNCH", 125, 151), ("1,65£", 469, 499), ("211,20£", 511, 551)),
    ]
    assert [(c, q) for c, _, q, _, _ in _lines([rows])] == [("84946", 216), ("84879", 320), ("22659", 128)]


def test_a_column_the_rows_leave_empty_does_not_pull_its_edge_into_the_next_cell():
    rows = [
        _row(208, ("Code", 55, 87), ("Details", 105, 144), ("Price", 423, 454), ("Qty", 467, 489),
             ("Amount", 522, 566)),
        _row(229, ("22655", 56, 88), ("VINTAGE", 106, 149), ("CABINET", 155, 197), ("295,00", 393, 429),
             ("USD", 435, 453), ("295,00", 506, 541), ("USD", 547, 564)),
    ]
    assert _lines([rows]) == [("22655", "VINTAGE CABINET", None, Decimal("295.00"), Decimal("295.00"))]


def test_a_two_row_description_keeps_its_words_in_reading_order():
    # OCR read "PACK OF" and "60 DINOSAUR CAKE CASES" as two boxes, the second a little taller.
    rows = [
        _row(54, ("DESCRIPTION", 18, 74)),
        _row(65, ("ITEM", 18, 42), ("UNITS", 208, 237), ("UNIT", 240, 261), ("PRICE", 266, 292),
             ("AMOUNT", 310, 344)),
        [_w("PACK", 18, 41, 86, top=81), _w("OF", 46, 58, 86, top=81), _w("60", 54, 65, 86, h=14, top=79),
         _w("DINOSAUR", 70, 110, 86, h=14, top=79), _w("CASES", 140, 166, 86, h=14, top=79)],
        _row(97, ("21975", 18, 46), ("1", 228, 237), ("1,28", 269, 293), ("1,28", 321, 344)),
    ]
    assert _lines([rows]) == [("21975", "PACK OF 60 DINOSAUR CASES", 1, Decimal("1.28"), Decimal("1.28"))]


def test_two_printed_rows_joined_through_a_word_between_them_are_parted():
    words = [_w(t, a, b, 240, h=12.4) for t, a, b in (("HAND", 12, 31), ("WARMER", 36, 66), ("RED", 71, 86))]
    words += [_w("6", 38, 44, 251, h=12.4), _w("22632", 49, 77, 251, h=12.4), _w("1,85", 263, 287, 250, h=12.4),
              _w("11,10", 309, 339, 249, h=12.4)]
    assert [[w.text for w in r] for r in group_rows(words, 0.75)] == [
        ["HAND", "WARMER", "RED"], ["6", "22632", "1,85", "11,10"]]


def test_the_skew_is_sought_near_the_boxes_own_slope():
    # Two-row items 13 pt apart with the numbers far right: turned the wrong way by one row's rise over the
    # page's width, the numbers stack onto the description rows and the rows look sharper than at the true angle.
    angle = math.radians(-0.8)
    quads, centres = [], []
    for y in range(100, 620, 26):
        for x, width, dy in [(150, 300, 0), (30, 28, 13), (650, 25, 13), (700, 25, 13), (750, 25, 13)]:
            cy = y + dy + math.tan(angle) * x
            centres.append((x, cy, width, 9.0))
            x0, x1 = x - width / 2, x + width / 2
            quads.append(np.array([[x0, cy - 4.5 + math.tan(angle) * (x0 - x)], [x1, cy - 4.5 + math.tan(angle) * (x1 - x)],
                                   [x1, cy + 4.5 + math.tan(angle) * (x1 - x)], [x0, cy + 4.5 + math.tan(angle) * (x0 - x)]]))
    assert abs(math.degrees(skew(centres)) + 0.8) > 1  # the sharpest rows overall are the wrong ones
    assert round(math.degrees(skew(centres, around=box_slope(quads))), 2) == -0.8


def test_heading_words_read_a_little_lower_are_the_heading_rows_own():
    rows = [
        _row(100, ("Code", 50, 75), ("Description", 90, 150)),
        _row(106, ("Qty", 300, 320), ("Price", 350, 380), ("Amount", 420, 460)),
        _row(125, ("22633", 50, 78), ("HAND", 90, 112), ("WARMER", 116, 150), ("6", 312, 320), ("1.85", 355, 380),
             ("11.10", 430, 460)),
    ]
    assert _lines([rows]) == [("22633", "HAND WARMER", 6, Decimal("1.85"), Decimal("11.10"))]


def test_a_heading_stacked_under_another_leaves_the_page_unread_not_misread():
    # A two-row heading ("DESCRIPTION" over "ITEM") read with its rows crossed: the columns cannot be told apart.
    rows = [
        _row(55, ("DESCRIPTION", 13, 72), ("UNITS", 205, 235), ("UNIT", 235, 257), ("PRICE", 262, 290),
             ("AMOUNT", 307, 341)),
        _row(64, ("ITEM", 15, 39)),
        _row(91, ("CHRISTMAS", 15, 60), ("CARD", 65, 85), ("1", 225, 235), ("0,43", 268, 291), ("0,43", 319, 342)),
        _row(104, ("22043", 17, 45)),
    ]
    table = read_table([rows])
    assert table.lines == []
    assert {(1, round(sum(w.cy for w in r) / len(r), 1)) for r in rows[:2]} <= table.used
