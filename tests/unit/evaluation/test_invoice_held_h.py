"""The ``held-h`` invoice family keeps its promises: its layouts vary with the seed over every dimension it names
and not otherwise, its PDFs print every value of the truth as the layout formats it (page by page), a long document
runs over pages with the headings repeated under a running header, and its vocabulary holds every title, label and
heading it prints.

Runs on invoices built here (a long one, a credit note, one without a customer, one with a large quantity, an empty
description and a long code); the check on the real records skips when ``../shared/invoices/records.csv`` is absent.
"""

from __future__ import annotations

import datetime as dt
import doctest
import random
from decimal import Decimal

import pymupdf
import pytest

import evaluation.invoice_held_h
import evaluation.invoice_held_h_draw
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_h import DATE_HINTS, held_h_layout, held_h_vocabulary
from evaluation.invoice_held_h_parts import field_values
from evaluation.invoice_held_h_words import REGIONS, split_heading
from evaluation.invoice_records import RECORDS, Invoice, InvoiceRow, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth

FAMILY = "held-h"
NAMES = ("WHITE HANGING HEART T-LIGHT HOLDER", "WHITE METAL LANTERN", "CREAM CUPID HEARTS COAT HANGER",
         "KNITTED UNION FLAG HOT WATER BOTTLE", "RED WOOLLY HOTTIE WHITE HEART.", "SET 7 BABUSHKA NESTING BOXES",
         "GLASS STAR FROSTED T-LIGHT HOLDER", "HAND WARMER UNION JACK", "ASSORTED COLOUR BIRD ORNAMENT",
         "POPPY'S PLAYHOUSE BEDROOM ", "JAM MAKING SET WITH JARS", "RETROSPOT TEA SET CERAMIC 11 PC ")


def _rows(n: int, sign: int = 1) -> tuple[InvoiceRow, ...]:
    rng = random.Random(n)
    return tuple(InvoiceRow(f"{rng.randint(20000, 90000)}{rng.choice(('', 'A', 'B'))}", NAMES[k % len(NAMES)],
                            Decimal(sign * rng.choice((1, 2, 6, 12, 24, 48))),
                            Decimal(rng.choice(("0.85", "1.25", "2.55", "3.39", "7.65", "12.75", "165"))))
                 for k in range(n))


LONG = Invoice("536796", dt.date(2010, 12, 2), "15574", "United Kingdom", _rows(121))
CREDIT = Invoice("C536379", dt.date(2010, 12, 1), "14527", "Germany",
                 (InvoiceRow("D", "Discount", Decimal("-1"), Decimal("27.50")),) + _rows(5, -1))
NO_CUSTOMER = Invoice("536414", dt.date(2010, 12, 1), None, "United Kingdom",
                      (InvoiceRow("22139", "", Decimal("56"), Decimal("0")),
                       InvoiceRow("BANK CHARGES", "Bank Charges", Decimal("1"), Decimal("15")),
                       InvoiceRow("84879", "ASSORTED COLOUR BIRD  ORNAMENT", Decimal("1600"), Decimal("1.45"))))
SHORT = Invoice("536365", dt.date(2010, 12, 1), "17850", "EIRE", _rows(7))
INVOICES = (LONG, CREDIT, NO_CUSTOMER, SHORT)
LAYOUTS = [held_h_layout(seed) for seed in range(240)]


def texts(pdf: bytes) -> list[str]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [page.get_text() for page in doc]


def test_doctests_and_registration():
    assert doctest.testmod(evaluation.invoice_held_h).failed == 0
    assert doctest.testmod(evaluation.invoice_held_h_draw).failed == 0
    assert layout(9, FAMILY) == held_h_layout(9) and vocabulary(FAMILY) == held_h_vocabulary()


def test_the_same_seed_gives_the_same_layout_and_file_and_another_seed_another():
    assert held_h_layout(17) == held_h_layout(17) != held_h_layout(18)
    assert render_pdf(CREDIT, held_h_layout(17)) == render_pdf(CREDIT, held_h_layout(17))
    assert len({repr(lay.summary()) for lay in LAYOUTS}) == len(LAYOUTS)


def test_layouts_vary_over_every_dimension_the_family_names():
    def values(get):
        return {get(lay) for lay in LAYOUTS}

    assert values(lambda lay: lay.extra["region"]) == set(REGIONS)
    assert values(lambda lay: lay.currency) == {"USD", "GBP", "EUR", "CHF", "SGD", "AUD"}
    assert values(lambda lay: lay.extra["lang"]) == {"en-us", "en-gb", "en-sg", "en-au", "en", "de-en", "ch-en",
                                                    "fi-en"}
    assert values(lambda lay: (lay.thousands, lay.decimal)) == {(",", "."), (".", ","), ("'", "."), (" ", ",")}
    assert len(values(lambda lay: lay.date_style)) >= 10
    assert values(lambda lay: lay.negative) == {"minus", "parentheses", "minus after"}
    assert values(lambda lay: lay.mark_place) == {"before", "after", "total", "field", "note"}
    assert {"$", "£", "€", "S$", "A$", "CHF", "EUR", "USD"} <= values(lambda lay: lay.mark)
    assert values(lambda lay: lay.mark_lines) == {True, False}
    assert values(lambda lay: lay.font) == {"Helvetica", "Times", "Courier"}
    assert values(lambda lay: lay.header_place) == {"info-right", "info-left", "two-col", "strip"}
    assert values(lambda lay: lay.extra["pairs"]) == {"inline", "below"}
    assert values(lambda lay: lay.totals_place) == {"stack", "box", "band"}
    assert values(lambda lay: lay.extra["table_style"]) == {"grid", "lines", "band", "zebra", "open"}
    assert values(lambda lay: lay.extra["seller_place"]) == {"left", "right", "center"}
    assert values(lambda lay: lay.extra["page_label_place"]) == {"foot-right", "foot-center", "top-right"}
    for flag in ("billto", "carry", "number_in_title", "sender_line"):
        assert values(lambda lay: lay.extra[flag]) == {True, False}, flag
    assert values(lambda lay: lay.colon) == {":", ""} and values(lambda lay: lay.tax_rate is None) == {True, False}
    orders = values(lambda lay: tuple(c.key for c in lay.columns))
    assert len(orders) >= 15 and len(values(lambda lay: tuple(c.key for c in lay.columns)[0])) >= 4
    keys = set().union(*orders)
    assert keys == {"line_no", "code", "description", "quantity", "uom", "unit_price", "discount", "vat", "amount"}
    assert values(lambda lay: lay.extra["line_step"]) == {1, 10}
    assert values(lambda lay: any("\n" in c.heading for c in lay.columns)) == {True, False}  # two-line headings
    widths = values(lambda lay: next(c.width for c in lay.columns if c.key == "description"))
    assert min(widths) < 140 < max(widths)  # narrow ones wrap long descriptions
    for key in ("invoice_number", "invoice_date", "customer_id", "country", "subtotal", "tax", "total"):
        assert len(values(lambda lay: lay.labels[key])) >= 8, key
    for key in ("code", "description", "quantity", "unit_price", "amount"):
        assert len(values(lambda lay: next(c.heading for c in lay.columns if c.key == key))) >= 8, key
    assert len(values(lambda lay: lay.page_label)) >= 6 and len(values(lambda lay: lay.running)) >= 5


def test_each_market_charges_its_tax_in_its_currency_and_names_numeric_dates_order():
    for lay in LAYOUTS:
        spec = REGIONS[lay.extra["region"]]
        assert lay.currency == spec["currency"] and lay.tax_rate == spec["rate"]
        assert lay.tax_rate is None or Decimal("0.05") < lay.tax_rate < Decimal("0.25")
        assert (lay.thousands, lay.decimal) in spec["numbers"] and lay.date_style in spec["dates"]
        if lay.date_style in DATE_HINTS:  # 01/12/2010 is read either way without its order beside it
            assert lay.labels["invoice_date"].endswith(DATE_HINTS[lay.date_style])
        if lay.mark_place in ("before", "after"):
            assert lay.mark in (lay.currency, {"USD": "$", "GBP": "£", "EUR": "€", "SGD": "S$", "AUD": "A$"}.get(
                lay.currency))
        else:
            assert lay.mark == lay.currency and lay.mark_lines is False
        if lay.tax_rate is not None:
            assert spec["rate_text"] in lay.labels["tax"] or lay.labels["tax"] in ("GST", "Total GST", "Plus GST",
                                                                                    "Total VAT", "VAT")


def test_numbers_money_and_dates_are_printed_as_the_market_writes_them():
    lay = next(lay for lay in LAYOUTS if lay.extra["region"] == "ch" and lay.mark_place == "before"
               and lay.negative == "minus after")
    assert lay.money(Decimal("-1234.5")) == "CHF 1'234.50-" and lay.date(dt.date(2010, 12, 1)) in (
        "01.12.2010", "1.12.2010")
    lay = next(lay for lay in LAYOUTS if lay.mark == "$" and lay.negative == "parentheses")
    assert lay.money(Decimal("-1234.5")) == "($1,234.50)" and lay.money(Decimal("7")) == "$7.00"
    lay = next(lay for lay in LAYOUTS if lay.extra["region"] == "fi" and lay.mark == "€")
    assert lay.money(Decimal("-1234.5")) == "-1 234,50 €"
    lay = next(lay for lay in LAYOUTS if lay.date_style == "mm/dd/Y stated")
    assert lay.date(dt.date(2010, 12, 2)) == "12/02/2010" and "(MM/DD/YYYY)" in lay.labels["invoice_date"]


@pytest.mark.parametrize("inv", INVOICES, ids=lambda inv: inv.number)
def test_the_pdf_prints_every_value_of_the_truth_on_its_page(inv):
    for lay in LAYOUTS[:24] if inv is not LONG else LAYOUTS[:6]:
        pages, reading = texts(render_pdf(inv, lay)), truth(inv, lay)
        text, fields = "\n".join(pages), reading.fields
        assert len(pages) == reading.pages
        assert inv.number in pages[0] and lay.date(inv.date) in pages[0] and inv.country in pages[0]
        assert (lay.credit_title if inv.is_credit else lay.title) in pages[0]
        assert (fields.customer_id is None) == (inv.customer is None)
        if inv.customer is not None:
            assert inv.customer in pages[0] and lay.labels["customer_id"] in pages[0]
        else:
            assert lay.labels["customer_id"] not in pages[0]
        if inv.is_credit and not lay.extra["number_in_title"]:
            assert lay.labels["credit_number"] in pages[0]
        assert fields.currency == lay.currency
        assert (lay.mark if lay.mark_place in ("before", "after") else lay.currency) in text
        for label, value in (("subtotal", fields.subtotal), ("tax", fields.tax), ("total", fields.total)):
            if value is None:
                assert label == "tax" and lay.tax_rate is None
                continue
            assert f"{lay.label(label)}" in pages[-1] and lay.money(value) in pages[-1], (lay.seed, label)
        assert fields.total == fields.subtotal + (fields.tax or 0)
        for line in reading.lines:
            page = pages[line.page - 1]
            for printed in (line.code, lay.quantity(line.quantity), lay.money(line.unit_price, lines=True),
                            lay.money(line.amount, lines=True)):
                assert printed in page, (lay.seed, inv.number, printed)
            assert all(word in page for word in (line.description or "").split())
            assert line.amount == (line.quantity * line.unit_price).quantize(Decimal("0.01"))
        if inv is CREDIT:
            assert lay.money(fields.total).count("-") + lay.money(fields.total).count("(") == 1


def test_a_long_document_runs_over_pages_with_headings_running_header_and_page_labels():
    for lay in LAYOUTS[:12]:
        pages, reading = texts(render_pdf(LONG, lay)), truth(LONG, lay)
        m = len(pages)
        assert m == reading.pages >= 3 and [line.page for line in reading.lines] == sorted(
            line.page for line in reading.lines)
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(pages, 1):
            assert lay.page_label.format(n=n, m=m) in text
            assert (lay.continued.format(next=n + 1) in text) == (n < m)
            if n in with_items:
                assert all(line in text for c in lay.columns for line in split_heading(c.heading)), (lay.seed, n)
            if n > 1:
                title = lay.credit_title if LONG.is_credit else lay.title
                assert lay.running.format(title=title, number=LONG.number, n=n, m=m) in text
            if lay.extra["carry"]:
                assert (lay.extra["other"]["carried"] in text) == (n < m)
                assert (lay.extra["other"]["brought"] in text) == (n > 1)
        assert paginate(LONG, lay) == paginate(LONG, lay)


def test_a_narrow_description_column_wraps_long_descriptions():
    lay = next(lay for lay in LAYOUTS if next(c.width for c in lay.columns if c.key == "description") < 120)
    text = "\n".join(texts(render_pdf(SHORT, lay)))
    assert "KNITTED UNION FLAG HOT WATER BOTTLE" not in text.splitlines()
    assert all(word in text for word in "KNITTED UNION FLAG HOT WATER BOTTLE".split())


def test_the_vocabulary_holds_every_printed_title_label_and_heading_in_lower_case():
    vocab = held_h_vocabulary()
    assert vocab and all(w == w.lower() for w in vocab)
    for lay in LAYOUTS:
        assert lay.wordings() <= vocab, sorted(lay.wordings() - vocab)
    for lay in LAYOUTS[:40]:
        inv = (CREDIT, NO_CUSTOMER, SHORT)[lay.seed % 3]
        text = "\n".join(texts(render_pdf(inv, lay)))
        printed = [label.removesuffix(lay.colon) for label, _ in field_values(inv, lay)]
        printed += [lay.labels[k] for k in ("subtotal", "total")] + ([lay.labels["tax"]] if lay.tax_rate else [])
        printed += [v for k, v in lay.extra["other"].items() if k in ("bill_to", "words")]
        for wording in printed:
            assert wording in text and wording.lower() in vocab, (lay.seed, wording)
        for c in lay.columns:  # a two-line heading's lines each printed, the heading as one wording in the vocabulary
            assert all(line in text for line in split_heading(c.heading)), (lay.seed, c.heading)


def test_the_real_records_print_their_truth():
    if not RECORDS.is_file():
        pytest.skip(f"the full records are not here ({RECORDS})")
    invoices = [inv for inv in load_invoices(RECORDS) if len(inv.rows) <= 40]
    rng = random.Random(5)
    for lay in LAYOUTS[100:130]:
        inv = rng.choice(invoices)
        pages, reading = texts(render_pdf(inv, lay)), truth(inv, lay)
        assert lay.money(reading.fields.total) in pages[-1] and inv.number in pages[0]
        for line in reading.lines:
            assert line.code in pages[line.page - 1] and lay.money(line.amount, lines=True) in pages[line.page - 1]
