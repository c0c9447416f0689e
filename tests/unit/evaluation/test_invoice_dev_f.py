"""The dev-f (erp) family: layouts drawn from a seed, every truth value printed on the page, nothing off the page
or overlapping, running sums that add up, and scans that are images only."""

from __future__ import annotations

import re
from decimal import Decimal

import pymupdf
import pytest

from evaluation.invoice_dev_f import dev_f_layout, dev_f_vocabulary
from evaluation.invoice_families import vocabulary
from evaluation.invoice_records import SAMPLE, load_invoices, records_path
from evaluation.invoice_render import paginate, render_pdf, truth
from evaluation.invoice_scans import scan

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}


def _words(pdf: bytes) -> list[list[tuple]]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [page.get_text("words") for page in doc]


def _text(pdf: bytes) -> str:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return "\n".join(page.get_text() for page in doc)


def test_layouts_are_deterministic_and_vary_in_structure():
    assert dev_f_layout(5) == dev_f_layout(5)
    layouts = [dev_f_layout(s) for s in range(40)]
    assert {lay.header_place for lay in layouts} == {"grid", "boxes", "block"}
    assert {lay.extra["forward"] for lay in layouts} == {True, False}
    extras = {c.key for lay in layouts for c in lay.columns} - {"code", "description", "quantity", "unit_price",
                                                                "amount"}
    assert extras == {"unit", "discount", "vat_rate", "line_vat", "gross", "line_no"}
    assert len({tuple(c.key for c in lay.columns) for lay in layouts}) > 20


def test_no_wording_is_one_of_a_held_aside_family():
    words = dev_f_vocabulary()
    assert len(words) > 60
    assert not words & vocabulary("held") and not words & vocabulary("held-b")  # counts only: nothing printed


@pytest.mark.parametrize("number, seed", [("C536548", 2), ("536414", 5), ("536365", 11), ("536591", 0)])
def test_every_truth_value_is_printed(number, seed):
    inv, lay = INVOICES[number], dev_f_layout(seed)
    expected = truth(inv, lay)
    text = _text(render_pdf(inv, lay))
    fields = expected.fields
    assert fields.invoice_number in text and lay.date(fields.invoice_date) in text and fields.country in text
    assert (fields.customer_id is None) == (inv.customer is None)
    if fields.customer_id:
        assert fields.customer_id in text
    for value in (fields.subtotal, fields.total, *([fields.tax] if fields.tax is not None else [])):
        assert lay.money(value) in text
    flat = " ".join(text.split())
    for line in expected.lines:
        assert lay.money(line.amount, lines=True) in text and line.code in text
        assert line.description is None or line.description in flat or all(w in flat for w in line.description.split())


def test_a_long_invoice_stays_on_its_pages_without_overlaps():
    if records_path() is None:
        pytest.skip("the full records are not here")
    inv = max(load_invoices(), key=lambda i: len(i.rows))
    for seed in (1, 4, 7):
        lay = dev_f_layout(seed)
        pages = _words(render_pdf(inv, lay))
        assert len(pages) == len(paginate(inv, lay)) > 3
        for words in pages:
            for x0, y0, x1, y1, *_ in words:
                assert 0 <= x0 and x1 <= lay.page[0] and 0 <= y0 and y1 <= lay.page[1]
            for k, a in enumerate(words):  # no two words' boxes overlap
                for b in words[k + 1:]:
                    assert min(a[2], b[2]) - max(a[0], b[0]) < 0.5 or min(a[3], b[3]) - max(a[1], b[1]) < 1.5, \
                        (a[4], b[4])


def test_carried_and_brought_forward_are_the_sums_of_the_lines_before():
    seed = next(s for s in range(100) if dev_f_layout(s).extra["forward"])
    inv, lay = INVOICES["536591"], dev_f_layout(seed)
    carry, bring = lay.extra["forward_words"]
    pages = paginate(inv, lay)
    assert len(pages) > 1
    with pymupdf.open(stream=render_pdf(inv, lay), filetype="pdf") as doc:
        texts = [" ".join(page.get_text().split()) for page in doc]
    running = Decimal("0.00")
    for n, rows in enumerate(pages[:-1]):
        running += sum(inv.rows[row.index].amount for row in rows)
        if pages[n + 1]:
            amount = re.escape(lay.money(running, lines=True))
            assert re.search(rf"{re.escape(carry)} {amount}", texts[n])
            assert re.search(rf"{re.escape(bring)} {amount}", texts[n + 1])


def test_the_same_seed_gives_the_same_bytes_and_a_scan_has_no_text():
    inv, lay = INVOICES["536365"], dev_f_layout(3)
    pdf = render_pdf(inv, lay)
    assert pdf == render_pdf(inv, lay)
    assert not "".join(_text(scan(pdf, seed=3)).split())
