"""held-i prints its truth: every field and every line's values on the page the truth gives, in the layout's formats,
with the arithmetic of the records; its layouts vary with the seed and draw the same bytes for the same seed.

Runs on the committed records sample (``tests/support/invoice_records_sample.csv``) through the public functions of
:mod:`evaluation.invoice_families` and :mod:`evaluation.invoice_render`.
"""

from __future__ import annotations

import doctest
import re
from decimal import ROUND_HALF_UP, Decimal

import pymupdf
import pytest

import evaluation.invoice_held_i
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_records import SAMPLE, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
SHORT, CREDIT, NO_CUSTOMER, LONG = "536365", "C536548", "536414", "536796"
SEEDS = range(12)


def pages_of(pdf: bytes) -> tuple[list[str], list[list[tuple]]]:
    """Each page's text and its words (x0, y0, x1, y1, word, ...)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [p.get_text() for p in doc], [p.get_text("words") for p in doc]


def flat(text: str) -> str:
    return " ".join(text.split())


def on_row(words: list[tuple], code: str, values: list[str]) -> bool:
    """Whether some printed row starting with ``code``'s first word carries every one of ``values`` (each as its
    words, on the code's baseline)."""
    first = code.split()[0]
    for w in words:
        if w[4] != first:
            continue
        same = {v[4] for v in words if abs(v[3] - w[3]) < 1.5}
        if all(part in same for value in values for part in value.split()):
            return True
    return False


def test_doctests():
    assert doctest.testmod(evaluation.invoice_held_i).failed == 0


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for seed in SEEDS if number != LONG else range(6):
        lay = layout(seed, "held-i")
        texts, words = pages_of(render_pdf(inv, lay))
        reading, fields = truth(inv, lay), truth(inv, lay).fields
        assert len(texts) == reading.pages
        first, last, every = texts[0], texts[-1], "\n".join(texts)
        assert (lay.credit_title if inv.is_credit else lay.title) in first
        assert inv.number in first and lay.date(inv.date) in first and inv.country in first
        if inv.customer is None:
            assert lay.labels["customer_id"] not in first
        else:
            assert f"{lay.labels['customer_id']}\n{inv.customer}" in first or inv.customer in first.split()
        for value in (fields.subtotal, fields.total) + ((fields.tax,) if fields.tax is not None else ()):
            assert lay.money(value) in last, (seed, value)
        if fields.tax is not None:
            assert lay.extra["rate_text"] in last
        assert fields.currency in every or lay.mark in every
        assert fields.currency in every or fields.currency in ("GBP", "EUR") or fields.currency == "USD" \
            and lay.mark == "$"
        for line, row in zip(reading.lines, inv.rows, strict=True):
            page = line.page - 1
            values = [lay.quantity(line.quantity), lay.money(line.unit_price, lines=True),
                      lay.money(line.amount, lines=True)]
            assert on_row(words[page], line.code, values), (seed, number, line.code, values)
            if line.description:
                assert line.description in flat(texts[page]), (seed, line.description)


def test_the_arithmetic_and_tax_are_the_records():
    for seed in range(60):
        lay = layout(seed, "held-i")
        for inv in INVOICES.values():
            fields = truth(inv, lay).fields
            assert fields.subtotal == sum(row.amount for row in inv.rows)
            if lay.tax_rate is None:
                assert fields.tax is None and fields.total == fields.subtotal
            else:
                assert Decimal("0.05") < lay.tax_rate < Decimal("0.25")
                assert fields.tax == (fields.subtotal * lay.tax_rate).quantize(Decimal("0.01"), ROUND_HALF_UP)
                assert fields.total == fields.subtotal + fields.tax


def test_a_long_invoice_runs_over_pages_with_headings_page_labels_and_continued_marks():
    inv = INVOICES[LONG]
    for seed in range(6):
        lay = layout(seed, "held-i")
        texts, _ = pages_of(render_pdf(inv, lay))
        m = len(texts)
        assert m >= 3 and m == len(paginate(inv, lay))
        with_items = {line.page for line in truth(inv, lay).lines}
        for n, text in enumerate(texts, 1):
            assert lay.page_label.format(n=n, m=m) in text
            assert (lay.continued.format(next=n + 1) in text) == (n < m)
            assert inv.number in text
            if n in with_items:
                assert all(c.heading in text for c in lay.columns), (seed, n)


def test_a_credit_note_prints_its_negative_figures_in_the_layouts_style():
    inv, styles = INVOICES[CREDIT], set()
    for seed in range(40):
        lay = layout(seed, "held-i")
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        total = lay.money(inv.total(lay.tax_rate))
        assert total in text and lay.credit_title in text and lay.title not in text.split("\n")[:1]
        styles.add(lay.negative)
        assert total.startswith("(") or "(" not in total and "-" in total
    assert styles == {"minus", "parentheses"}


def test_a_numeric_date_is_printed_with_a_later_date_that_fixes_its_order():
    seen = set()
    for seed in range(80):
        lay = layout(seed, "held-i")
        if not re.fullmatch(r"\d\d[/-]\d\d[/-]\d{4}", lay.date(INVOICES[SHORT].date)):
            continue  # month names and year-first dates are read one way only
        for number in (SHORT, CREDIT):
            inv = INVOICES[number]
            text = "\n".join(pages_of(render_pdf(inv, lay))[0])
            later = re.findall(r"\b(\d\d)[/-](\d\d)[/-](\d{4})\b", text)
            assert any(max(int(a), int(b)) > 12 for a, b, _ in later), (seed, number, later)
            seen.add(lay.date_style)
    assert {"i:mm/dd/Y", "i:dd/mm/Y"} <= seen


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = [layout(seed, "held-i") for seed in range(300)]
    assert {lay.extra["product"] for lay in lays} == {"banner", "ledger", "grid", "tax", "zoho"}
    assert len({lay.extra["locale"] for lay in lays}) == 8 and len({lay.currency for lay in lays}) == 6
    assert {lay.header_place for lay in lays} == {"columns", "grid", "stack"}
    assert len({lay.date_style for lay in lays}) >= 7 and len({lay.mark_place for lay in lays}) == 4
    assert len({tuple(c.heading for c in lay.columns) for lay in lays}) >= 30
    assert {lay.zebra for lay in lays} == {True, False} and {lay.extra["banner"] for lay in lays} == {True, False}
    words = vocabulary("held-i")
    assert set().union(*(lay.wordings() for lay in lays)) <= words


def test_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-i") == layout(5, "held-i") != layout(6, "held-i")
    assert render_pdf(inv, layout(5, "held-i")) == render_pdf(inv, layout(5, "held-i"))
    assert render_pdf(inv, layout(5, "held-i")) != render_pdf(inv, layout(6, "held-i"))
