"""The second held-aside invoice family ("held-b"; do not read its modules while developing the invoice reader):
its layouts are deterministic, its wordings, formats and column orders are none of the developed families', it
prints every value of its truth on the page the truth names, and its scans are images only.

Checked by the generator's own means (the PDFs' text layer), never by reading the invoices with the reader.
"""

from __future__ import annotations

import doctest

import pymupdf
import pytest

import evaluation.invoice_held_b
import evaluation.invoice_layouts
from evaluation.invoice_eval import GROUPS, HELD
from evaluation.invoice_families import FAMILIES, layout, vocabulary
from evaluation.invoice_held_b import FORMATS, ORDERS
from evaluation.invoice_layouts import DEV_FAMILIES, ORDERS as DEV_ORDERS
from evaluation.invoice_records import SAMPLE, load_invoices
from evaluation.invoice_render import render_pdf, truth
from evaluation.invoice_scans import scan

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
FAMILY = "held-b"


def texts(pdf: bytes) -> list[str]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [page.get_text() for page in doc]


def test_doctests():
    assert doctest.testmod(evaluation.invoice_held_b).failed == 0


def test_the_family_is_held_aside_and_reported_as_its_own_group():
    assert FAMILY in FAMILIES and FAMILY not in DEV_FAMILIES
    assert FAMILY not in evaluation.invoice_layouts.FAMILIES  # the family is only in evaluation.invoice_families
    with pytest.raises(ValueError, match="evaluation.invoice_families"):
        evaluation.invoice_layouts.layout(0, FAMILY)
    assert GROUPS[FAMILY] not in (GROUPS["held"], GROUPS["dev-a"]) and FAMILY in HELD


def test_layouts_are_deterministic():
    for seed in range(20):
        assert layout(seed, FAMILY) == layout(seed, FAMILY) != layout(seed + 1, FAMILY)
    inv = INVOICES["536381"]
    assert render_pdf(inv, layout(3, FAMILY)) == render_pdf(inv, layout(3, FAMILY))


def test_the_family_shares_no_wording_order_or_format_with_the_dev_families():
    fresh = vocabulary(FAMILY)
    dev = set().union(*(vocabulary(f) for f in DEV_FAMILIES))
    assert fresh and dev
    assert not fresh & dev, sorted(fresh & dev)  # names only the shared wordings
    dev_layouts = [layout(s, f) for f in DEV_FAMILIES for s in range(150)]
    fresh_layouts = [layout(s, FAMILY) for s in range(150)]
    assert set().union(*(lay.wordings() for lay in fresh_layouts)) <= fresh
    for attribute in ("date_style", "negative", "page_label", "continued", "running", "style", "mark_place"):
        assert not {getattr(a, attribute) for a in dev_layouts} & {getattr(h, attribute) for h in fresh_layouts}
    assert not {(a.thousands, a.decimal) for a in dev_layouts} & set(FORMATS["numbers"])
    assert {(h.thousands, h.decimal) for h in fresh_layouts} <= set(FORMATS["numbers"])
    orders = set(ORDERS["tax"]) | set(ORDERS["free"])
    assert not orders & set().union(*(set(DEV_ORDERS[f]) for f in DEV_FAMILIES))
    assert {tuple(c.key for c in h.columns) for h in fresh_layouts} <= orders
    # Every arrangement the family draws from is used.
    for attribute, values in (("header_place", "header"), ("totals_place", "totals"), ("mark_place", "mark_place")):
        assert {getattr(h, attribute) for h in fresh_layouts} == set(FORMATS[values])
    assert {h.extra["table"] for h in fresh_layouts} == set(FORMATS["table"])


def _printed(inv, lay) -> tuple[list[str], list]:
    """What of the truth is not in the text layer (a line's values on the page the truth names)."""
    pages, reading = texts(render_pdf(inv, lay)), truth(inv, lay)
    assert len(pages) == reading.pages
    text, f = "\n".join(pages), reading.fields
    wanted = [f.invoice_number, lay.date(f.invoice_date), f.country, f.currency, lay.money(f.subtotal),
              lay.money(f.total)] + ([lay.money(f.tax)] if f.tax is not None else []) + \
        ([f.customer_id] if f.customer_id else [])
    missing = [v for v in wanted if v not in text]
    for line in reading.lines:
        page = pages[line.page - 1]
        values = (line.code, lay.quantity(line.quantity), lay.money(line.unit_price), lay.money(line.amount))
        missing += [(line.page, v) for v in values if v not in page]
        missing += [(line.page, w) for w in (line.description or "").split() if w not in page]
    return pages, missing


@pytest.mark.parametrize("number", ["C536548", "536414", "536796"])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for seed in range(12):
        lay = layout(seed, FAMILY)
        pages, missing = _printed(inv, lay)
        assert not missing, (seed, missing[:5])
        title = lay.credit_title if inv.is_credit else lay.title
        assert title in pages[0]
        if inv.customer is None:
            assert lay.labels["customer_id"] not in "\n".join(pages)
        assert ("tax" in lay.labels) == (truth(inv, lay).fields.tax is not None)


def test_a_long_invoice_paginates_with_headings_page_labels_and_continued_marks():
    inv = INVOICES["536796"]  # 121 lines
    for seed in range(12):
        lay = layout(seed, FAMILY)
        pages, reading = texts(render_pdf(inv, lay)), truth(inv, lay)
        assert len(pages) == reading.pages >= 3
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(pages, 1):
            assert lay.page_label.format(n=n, m=len(pages)) in text
            assert (lay.continued.format(next=n + 1) in text) == (n < len(pages)), (seed, n)
            if n in with_items:
                assert all(c.heading in text for c in lay.columns), (seed, n)
            if n > 1:
                assert inv.number in text
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)


def test_nothing_is_drawn_off_the_page_or_over_other_words():
    for seed, number in enumerate(["536381", "C536548", "536591", "536370", "536558", "C536391"]):
        lay = layout(40 + seed, FAMILY)
        with pymupdf.open(stream=render_pdf(INVOICES[number], lay), filetype="pdf") as doc:
            for page in doc:
                words = page.get_text("words")
                width, height = page.rect.width, page.rect.height
                assert all(15 < w[0] and w[2] < width - 15 and 10 < w[1] and w[3] < height - 10 for w in words)
                boxes = sorted(w[:4] for w in words)
                for k, a in enumerate(boxes):
                    for b in boxes[k + 1:]:
                        if b[0] >= a[2]:
                            break
                        assert not (min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1.5)


def test_a_scan_is_images_only():
    inv, lay = INVOICES["536370"], layout(2, FAMILY)
    scanned = scan(render_pdf(inv, lay), seed=7)
    with pymupdf.open(stream=scanned, filetype="pdf") as doc:
        for page in doc:
            assert page.get_text().strip() == "" and len(page.get_images()) == 1
