"""The third held-aside invoice family ("held-c"; do not read its modules while developing the invoice reader): its
layouts are deterministic and varied, most of its wordings are none of the developed families', it prints every
value of its truth legibly on the page the truth names and nothing off the page, and its scans are images only.

Checked by the generator's own means (the PDFs' text layer), never by reading the invoices with the reader. The
assertion messages name seeds and counts, not the family's wordings.
"""

from __future__ import annotations

import doctest
from decimal import Decimal

import pymupdf
import pytest

import evaluation.invoice_held_c
import evaluation.invoice_layouts
from evaluation.invoice_eval import GROUPS, HELD
from evaluation.invoice_families import DEV_FAMILIES, FAMILIES, layout, vocabulary
from evaluation.invoice_records import RECORDS, SAMPLE, load_invoices
from evaluation.invoice_render import OWN_PAGES, render_pdf, truth
from evaluation.invoice_scans import scan

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
FAMILY = "held-c"


def texts(pdf: bytes) -> list[str]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [page.get_text() for page in doc]


def test_doctests():
    assert doctest.testmod(evaluation.invoice_held_c).failed == 0


def test_the_family_is_held_aside_and_reported_as_its_own_group():
    assert FAMILY in FAMILIES and FAMILY not in DEV_FAMILIES and FAMILIES[FAMILIES.index(FAMILY) - 1] == "held-b"
    assert FAMILY not in evaluation.invoice_layouts.FAMILIES  # the family is only in evaluation.invoice_families
    with pytest.raises(ValueError, match="evaluation.invoice_families"):
        evaluation.invoice_layouts.layout(0, FAMILY)
    assert GROUPS[FAMILY] == "held aside (c), opened" and FAMILY in HELD
    assert layout(0, FAMILY).style in OWN_PAGES


def test_layouts_are_deterministic():
    for seed in range(20):
        assert layout(seed, FAMILY) == layout(seed, FAMILY) != layout(seed + 1, FAMILY)
    inv = INVOICES["C536548"]
    assert render_pdf(inv, layout(3, FAMILY)) == render_pdf(inv, layout(3, FAMILY))


def test_most_wordings_are_none_of_the_dev_families_and_every_printed_one_is_in_the_vocabulary():
    fresh = vocabulary(FAMILY)
    dev = set().union(*(vocabulary(f) for f in DEV_FAMILIES))
    shared = len(fresh & dev)
    assert len(fresh) >= 150 and shared * 2 < len(fresh), (len(fresh), shared)  # counts only
    layouts = [layout(s, FAMILY) for s in range(300)]
    assert all(lay.wordings() <= fresh for lay in layouts)


def test_layouts_vary_in_structure_and_formats():
    layouts = [layout(s, FAMILY) for s in range(300)]
    for attribute, least in (("header_place", 6), ("totals_place", 4), ("date_style", 8), ("negative", 4),
                             ("currency", 3), ("page_label", 4), ("font", 4), ("running", 3)):
        assert len({getattr(lay, attribute) for lay in layouts}) >= least, attribute
    assert len({lay.extra["house"] for lay in layouts}) >= 7 and len({lay.extra["table"] for lay in layouts}) >= 5
    assert len({(lay.thousands, lay.decimal) for lay in layouts}) >= 4
    assert {lay.tax_rate for lay in layouts} == {None, Decimal("0.19"), Decimal("0.20"), Decimal("0.21")}
    assert len({tuple(c.key for c in lay.columns) for lay in layouts}) >= 25
    extras = {c.key for lay in layouts for c in lay.columns} - {"code", "description", "quantity", "unit_price",
                                                                 "amount"}
    assert len(extras) >= 6
    assert {lay.extra["carry"] for lay in layouts} == {True, False}


def _missing(inv, lay) -> tuple[list[str], list]:
    """What of the truth is not in the text layer (a line's values on the page the truth names; a code or
    description wrapped in its column is found word by word)."""
    pages, reading = texts(render_pdf(inv, lay)), truth(inv, lay)
    assert len(pages) == reading.pages
    text, f = "\n".join(pages), reading.fields
    wanted = [f.invoice_number, lay.date(f.invoice_date), f.country, f.currency, lay.money(f.subtotal),
              lay.money(f.total)] + ([lay.money(f.tax)] if f.tax is not None else []) + \
        ([f.customer_id] if f.customer_id else [])
    missing = [v for v in wanted if v not in text]
    for line in reading.lines:
        page = pages[line.page - 1]
        values = (lay.quantity(line.quantity), lay.money(line.unit_price, lines=True),
                  lay.money(line.amount, lines=True))
        missing += [(line.page, v) for v in values if v not in page]
        missing += [(line.page, w) for w in f"{line.code} {line.description or ''}".split() if w not in page]
    return pages, missing


@pytest.mark.parametrize("number", ["C536548", "536414", "536558", "536381"])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for seed in range(14):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        assert not missing, (seed, len(missing))
        assert (lay.credit_title if inv.is_credit else lay.title) in pages[0], seed
        if inv.customer is None:
            assert lay.labels["customer_id"] not in "\n".join(pages), seed
        assert ("tax" in lay.labels) == (truth(inv, lay).fields.tax is not None)


def test_a_long_invoice_runs_over_pages_with_headings_labels_and_carried_sums():
    inv = INVOICES["536796"]  # 121 lines
    carried = 0
    for seed in range(16):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        reading = truth(inv, lay)
        assert not missing and len(pages) >= 3, (seed, len(missing), len(pages))
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(pages, 1):
            assert lay.page_label.format(n=n, m=len(pages)) in text, (seed, n)
            assert (lay.continued.format(next=n + 1) in text) == (n < len(pages)), (seed, n)
            if n in with_items:
                assert all(c.heading in text or all(part in text for part in c.heading.split(" ", 1))
                           for c in lay.columns), (seed, n)
            if n > 1:
                assert inv.number in text, (seed, n)
            if lay.extra["carry"] and n < len(pages):  # the sum of the amounts so far, under the amounts
                done = sum((line.amount for line in reading.lines if line.page <= n), Decimal("0.00"))
                assert lay.money(done, lines=True) in text, (seed, n)
                carried += 1
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)
    assert carried


def test_the_longest_invoice_of_the_records_is_printed_whole():
    if not RECORDS.is_file():
        pytest.skip(f"the full records are not here ({RECORDS}); see ../shared/invoices/SOURCES.md")
    inv = max(load_invoices(RECORDS), key=lambda i: len(i.rows))  # 592 lines
    for seed in (4, 9):
        pages, missing = _missing(inv, layout(seed, FAMILY))
        assert not missing and len(pages) >= 10, (seed, len(missing), len(pages))


def test_nothing_is_drawn_off_the_page_or_over_other_words():
    numbers = ["536381", "C536548", "536591", "536370", "536558", "C536391", "536414"]
    for seed in range(40, 68):
        lay = layout(seed, FAMILY)
        with pymupdf.open(stream=render_pdf(INVOICES[numbers[seed % len(numbers)]], lay), filetype="pdf") as doc:
            for page in doc:
                words = page.get_text("words")
                width, height = page.rect.width, page.rect.height
                assert all(15 < w[0] and w[2] < width - 15 and 10 < w[1] and w[3] < height - 10 for w in words), seed
                boxes = sorted(w[:4] for w in words)
                for k, a in enumerate(boxes):
                    for b in boxes[k + 1:]:
                        if b[0] >= a[2]:
                            break
                        overlap = min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1.5
                        assert not overlap, (seed, page.number)


def test_a_scan_is_images_only():
    inv, lay = INVOICES["536370"], layout(2, FAMILY)
    scanned = scan(render_pdf(inv, lay), seed=7)
    with pymupdf.open(stream=scanned, filetype="pdf") as doc:
        assert doc.page_count == truth(inv, lay).pages
        for page in doc:
            assert page.get_text().strip() == "" and len(page.get_images()) == 1
