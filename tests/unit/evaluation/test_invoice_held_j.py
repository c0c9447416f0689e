"""held-j prints its truth: every field and every line's values on the page the truth gives, in the layout's formats,
with per-line taxes that add up to the foot's (the records' arithmetic is checked for every family in
test_invoice_set.py); its layouts vary with the seed and draw the same bytes for the same seed.

Uses the invoices of the committed records sample and the page readers of held-i's test; renders through
:mod:`evaluation.invoice_families` and :mod:`evaluation.invoice_render` as the evaluation set does.
"""

from __future__ import annotations

import doctest
import re
from decimal import Decimal

import pytest

import evaluation.invoice_held_j
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_j import HINTS, line_taxes, qty
from evaluation.invoice_render import paginate, render_pdf, truth
from tests.unit.evaluation.test_invoice_held_i import CREDIT, INVOICES, LONG, NO_CUSTOMER, SHORT, on_row, pages_of

SEEDS = range(14)


def row_values(lay, line, tax) -> list[str]:
    """What a line prints in the number columns the layout has."""
    keys = {c.key for c in lay.columns}
    values = [qty(lay, line.quantity), lay.money(line.unit_price, lines=True), lay.money(line.amount, lines=True)]
    if "tax_amount" in keys:
        values.append(lay.money(tax, lines=True))
    if "gross" in keys:
        values.append(lay.money(line.amount + tax, lines=True))
    if "vat_rate" in keys:
        values.append(lay.extra["rate_text"])
    return values


def test_doctests():
    assert doctest.testmod(evaluation.invoice_held_j).failed == 0


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for seed in SEEDS if number != LONG else range(8):
        lay = layout(seed, "held-j")
        texts, words = pages_of(render_pdf(inv, lay))
        reading, fields = truth(inv, lay), truth(inv, lay).fields
        assert len(texts) == reading.pages
        first, last, every = texts[0], texts[-1], "\n".join(texts)
        assert (lay.credit_title if inv.is_credit else lay.title) in first
        assert inv.number in first.split() and lay.date(inv.date) in first and inv.country in first
        if inv.customer is not None:
            assert inv.customer in first.split()
        elif lay.extra["kind"] == "web":
            assert lay.labels["customer_id"] not in every
        for value in (fields.subtotal, fields.total) + ((fields.tax,) if fields.tax is not None else ()):
            assert lay.money(value) in last, (seed, value)
        if fields.tax is not None:
            assert lay.extra["rate_text"] in last
        assert fields.currency in every, seed
        taxes = line_taxes(inv, lay.tax_rate) if lay.tax_rate is not None else [Decimal(0)] * len(inv.rows)
        under = "sku" in lay.labels
        for line, tax in zip(reading.lines, taxes, strict=True):
            page, values = line.page - 1, row_values(lay, line, tax)
            first_word = (line.description or lay.labels["sku"] + ":").split()[0] if under else line.code.split()[0]
            assert on_row(words[page], first_word, values), (seed, number, line.code, values)
            assert line.code in texts[page]
            printed = {w[4] for w in words[page]}
            assert all(w in printed for w in (line.description or "").split()), (seed, line.description)


def test_per_line_taxes_add_up_to_the_foot_and_stay_within_a_cent_of_each_line():
    seen = 0
    for seed in range(40):
        lay = layout(seed, "held-j")
        if lay.tax_rate is None:
            continue
        for inv in INVOICES.values():
            taxes = line_taxes(inv, lay.tax_rate)
            assert sum(taxes) == inv.tax(lay.tax_rate)
            assert sum(row.amount + t for row, t in zip(inv.rows, taxes)) == inv.total(lay.tax_rate)
            assert all(abs(t - row.amount * lay.tax_rate) < Decimal("0.01") for row, t in zip(inv.rows, taxes))
            seen += any(c.key == "tax_amount" for c in lay.columns)
    assert seen > 20


def test_a_long_invoice_runs_over_pages_with_headers_headings_page_labels_and_continued_marks():
    inv = INVOICES[LONG]
    for seed in range(8):
        lay = layout(seed, "held-j")
        texts, _ = pages_of(render_pdf(inv, lay))
        m = len(texts)
        assert m >= 2 and m == len(paginate(inv, lay))
        with_items = {line.page for line in truth(inv, lay).lines}
        for n, text in enumerate(texts, 1):
            assert lay.page_label.format(n=n, m=m) in text
            assert (lay.continued.format(next=n + 1) in text) == (n < m)
            assert inv.number in text
            if lay.extra["kind"] == "print":  # a printed form repeats its whole header
                assert lay.date(inv.date) in text and inv.country in text
            if n in with_items:
                assert all(word in text for c in lay.columns for word in c.heading.split()), (seed, n)


def test_a_credit_note_prints_its_negative_figures_in_the_layouts_style():
    inv, styles = INVOICES[CREDIT], set()
    for seed in range(40):
        lay = layout(seed, "held-j")
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        total = lay.money(inv.total(lay.tax_rate))
        assert total in text and lay.credit_title in text
        assert qty(lay, inv.rows[0].quantity) in text.split()
        styles.add(lay.negative)
        assert total.startswith("-") or "-" in total.split()[0] or "CR" in total
    assert {"minus", "minus after", "j:CR"} <= styles


def test_a_numeric_date_that_reads_either_way_names_its_order():
    seen = set()
    for seed in range(200):
        lay = layout(seed, "held-j")
        if lay.date_style not in HINTS:
            assert not re.fullmatch(r"\d\d/\d\d/\d+", lay.date(INVOICES[SHORT].date))
            continue
        seen.add(lay.date_style)
        text = "\n".join(pages_of(render_pdf(INVOICES[CREDIT], lay))[0])
        assert f"({HINTS[lay.date_style]})" in lay.labels["invoice_date"] and lay.labels["invoice_date"] in text
    assert seen == set(HINTS)


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = [layout(seed, "held-j") for seed in range(300)]
    first = lays[:40]
    assert len({lay.extra["template"] for lay in first}) >= 4 and len({lay.extra["locale"] for lay in first}) >= 5
    assert {lay.extra["template"] for lay in lays} == {"greenbar", "grid", "spool", "marketplace", "webshop"}
    assert {lay.extra["locale"] for lay in lays} == {"US", "UK", "CA", "DE", "CH", "PL"}
    assert {lay.currency for lay in lays} == {"USD", "GBP", "CAD", "EUR", "CHF", "PLN"}
    assert {(lay.thousands, lay.decimal) for lay in lays} >= {(",", "."), (".", ","), ("'", "."), (" ", ","), ("", ".")}
    assert {lay.extra["lang"] for lay in lays} == {"en", "de"} and {lay.font for lay in lays} >= {"Courier", "Times"}
    assert len({lay.date_style for lay in lays}) >= 10 and len({lay.page for lay in lays}) == 3
    assert len({tuple(c.heading for c in lay.columns) for lay in lays}) >= 60
    words = vocabulary("held-j")
    assert set().union(*(lay.wordings() for lay in lays)) <= words


def test_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-j") == layout(5, "held-j") != layout(6, "held-j")
    assert render_pdf(inv, layout(5, "held-j")) == render_pdf(inv, layout(5, "held-j"))
    assert render_pdf(inv, layout(5, "held-j")) != render_pdf(inv, layout(6, "held-j"))
