"""held-m prints its truth: every line's code, description, quantity, unit price and amount on the page the truth
gives (the prices on the row of the product's title or code), the totals as the truth has them, the record's
invoice number, date, customer and country, and the numbers around them that a shop or a small firm prints (order
numbers, registration and VAT numbers, bank details); its German and French pages in their own formats, credit
notes under their own titles; its layouts vary with the seed over both kinds and six locales, and draw the same
bytes for the same seed.

Uses the invoices of the committed records sample; renders through :mod:`evaluation.invoice_families` and
:mod:`evaluation.invoice_render` as the evaluation set does. (The records' arithmetic is checked for every family
in test_invoice_set.py.)
"""

from __future__ import annotations

import doctest
import re
from decimal import Decimal

import numpy as np
import pymupdf
import pytest

import evaluation.invoice_held_m
import evaluation.invoice_held_m_letter
import evaluation.invoice_held_m_pen
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_m import AMBIGUOUS, quantity, second_date
from evaluation.invoice_held_m_letter import fields
from evaluation.invoice_held_m_pen import order_number
from evaluation.invoice_held_m_shop import meta
from evaluation.invoice_records import SAMPLE, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
SHORT, CREDIT, NO_CUSTOMER, LONG, FRANCE = "536365", "C536548", "536414", "536796", "536370"
LAYOUTS = [layout(seed, "held-m") for seed in range(300)]


def first(test, count: int = 1) -> list:
    """The first ``count`` layouts (by seed) that pass ``test``."""
    return [lay for lay in LAYOUTS if test(lay)][:count]


def pages_of(pdf: bytes) -> tuple[list[str], list[list[tuple]]]:
    """Each page's text and its words (x0, y0, x1, y1, word, ...)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [p.get_text() for p in doc], [p.get_text("words") for p in doc]


def on_row(words: list[tuple], anchors: list[str], values: list[str]) -> bool:
    """Whether some printed row holding one of ``anchors`` (its first word) carries every one of ``values`` (each as
    its words, on the anchor's baseline)."""
    heads = {a.split()[0] for a in anchors if a and a.split()}
    for w in words:
        if w[4] in heads:
            same = {v[4] for v in words if abs(v[3] - w[3]) < 1.5}
            if all(part in same for value in values for part in value.split()):
                return True
    return False


def row_values(lay, line) -> list[str]:
    """What a line prints on its first row: the quantity (unless a shop prints it after the title), the unit price
    (with "× 6" after it where the shop puts the quantity there) and the amount, as the layout formats them."""
    price, amount = lay.money(line.unit_price, lines=True), lay.money(line.amount, lines=True)
    mode = lay.extra.get("qty_mode", "column")
    if mode == "price":
        return [f"{price} × {quantity(line.quantity)}", amount]
    return ([quantity(line.quantity)] if mode == "column" else []) + [price, amount]


def test_doctests():
    for module in (evaluation.invoice_held_m, evaluation.invoice_held_m_pen, evaluation.invoice_held_m_letter):
        assert doctest.testmod(module).failed == 0, module


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, FRANCE, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    lays = LAYOUTS[:12] if number != LONG else first(lambda x: x.extra["kind"] == "shop", 3) + \
        first(lambda x: x.extra["kind"] == "letter", 3)
    for lay in lays:
        texts, words = pages_of(render_pdf(inv, lay))
        reading = truth(inv, lay)
        fields_, every = reading.fields, "\n".join(texts)
        assert len(texts) == reading.pages == len(paginate(inv, lay))
        assert (lay.credit_title if inv.is_credit else lay.title) in texts[0]
        assert inv.number in texts[0] and lay.date(inv.date) in texts[0]
        assert inv.country.lower() in texts[0].lower()
        if inv.customer is not None:
            assert inv.customer in texts[0].split()
        else:
            assert lay.labels["customer_id"] not in every, lay.seed  # no customer: no customer number, no label
        assert lay.money(fields_.total) in every and fields_.currency == lay.currency
        for line in reading.lines:
            page = line.page - 1
            anchors = [line.code, line.description or line.code, "×"]  # "× 6" opens an untitled line's row
            assert on_row(words[page], anchors, row_values(lay, line)), (lay.seed, number, line.code)
            printed = {w[4] for w in words[page]}
            assert line.code in printed or line.code in texts[page], (lay.seed, line.code)
            assert all(w in printed for w in (line.description or "").split()), (lay.seed, line.description)
            if lay.extra.get("qty_mode") == "title":
                assert f"× {quantity(line.quantity)}" in texts[page]


def test_the_totals_agree_with_the_truth_and_the_tax_is_printed_as_the_layout_says():
    inv, seen, included = INVOICES[FRANCE], set(), 0
    for lay in LAYOUTS[:80]:
        fields_ = truth(inv, lay).fields
        text = " ".join("\n".join(pages_of(render_pdf(inv, lay))[0]).split())
        assert fields_.subtotal == inv.subtotal and fields_.total == inv.total(lay.tax_rate)
        assert lay.money(fields_.subtotal) in text and lay.money(fields_.total) in text
        if fields_.tax is None:
            assert fields_.total == fields_.subtotal and lay.extra["rate_text"] == ""
            continue
        assert fields_.total == fields_.subtotal + fields_.tax and lay.money(fields_.tax) in text
        if lay.extra["rate_text"] in lay.labels["tax"] and not lay.extra.get("included"):
            assert lay.extra["rate_text"] in text, lay.seed
        seen.add(lay.extra["tax_name"])
        if lay.extra.get("included"):  # the tax under the total: "Including £171.17 in taxes"
            included += 1
            note = lay.extra["included_text"].format(amount=lay.money(fields_.tax), tax=lay.extra["tax_name"],
                                                     rate=lay.extra["rate_text"])
            assert note in text
    assert {"VAT", "MwSt.", "TVA", "Sales Tax"} <= seen and {"GST", "HST"} & seen and included >= 3


def test_the_numbers_around_the_wanted_ones_are_printed():
    inv = INVOICES[FRANCE]
    for lay in first(lambda x: x.extra["kind"] == "shop", 12):
        texts, _ = pages_of(render_pdf(inv, lay))
        every = "\n".join(texts)
        order = order_number(lay, inv.number)
        assert order.lstrip("#") in texts[0] and lay.extra["payment"] in texts[0], lay.seed
        assert lay.date(second_date(lay, inv.date)) in texts[0]
        assert [v for _, v in meta(inv, lay)].count(inv.number) == 1
        if lay.extra["paid"]:
            assert every.count(lay.money(inv.total(lay.tax_rate))) >= 2  # the total and the amount paid
        if lay.extra["balance"]:
            assert lay.labels["balance"] in every and lay.money(Decimal("0.00")) in every
        assert lay.extra["registry"] in every
    ibans = 0
    for lay in first(lambda x: x.extra["kind"] == "letter", 12):
        texts, _ = pages_of(render_pdf(inv, lay))
        every = " ".join("\n".join(texts).split())
        assert lay.extra["registry"][0] in texts[0] and lay.extra["phone"] in texts[0]
        assert " ".join(lay.extra["bank"].split()) in every, lay.seed
        ibans += "IBAN" in lay.extra["bank"]
        for label, value in fields(inv, lay):
            assert label in texts[0] and value in texts[0], (lay.seed, label)
    assert ibans >= 3


def test_a_long_invoice_runs_over_pages_with_or_without_its_heading_row():
    inv = INVOICES[LONG]
    cases = [first(lambda x, k=kind, r=repeat: x.extra["kind"] == k and x.extra["repeat_heading"] == r, 2)
             for kind in ("shop", "letter") for repeat in (True, False)]
    for lay in [lay for case in cases for lay in case]:
        texts, words = pages_of(render_pdf(inv, lay))
        m, reading = len(texts), truth(inv, lay)
        assert m >= 3 and m == reading.pages
        firsts = {}
        for line in reading.lines:
            firsts.setdefault(line.page, line)
        for n, text in enumerate(texts, 1):
            assert lay.page_label.format(n=n, m=m) in text and inv.number in text, (lay.seed, n)
            if n not in firsts:
                continue
            amount = lay.money(firsts[n].amount, lines=True).split()[-1]
            row_top = min(w[1] for w in words[n - 1] if w[4] == amount)
            above = {w[4] for w in words[n - 1] if w[3] <= row_top + 0.5}
            heading = all(word in above for c in lay.columns for word in c.heading.split())
            assert heading == (n == 1 or lay.extra["repeat_heading"]), (lay.seed, n)
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)


def test_german_and_french_pages_print_their_own_formats_and_words():
    inv = INVOICES[FRANCE]
    for place, money, dates in ((("DE", r"1\.0\d\d,\d\d (€|EUR)", ("01.12.2010", "1. Dezember 2010")),
                                 ("FR", r"1 0\d\d,\d\d (€|EUR)", ("01/12/2010", "1er décembre 2010")))):
        lays = first(lambda x, p=place: x.extra["locale"] == p and x.tax_rate is not None, 8)
        assert {x.extra["kind"] for x in lays} == {"shop", "letter"}
        for lay in lays:
            texts, _ = pages_of(render_pdf(inv, lay))
            every = " ".join("\n".join(texts).split())
            total = lay.money(inv.total(lay.tax_rate))
            assert re.fullmatch(money, total) and total in every, (lay.seed, total)
            assert lay.date(inv.date) in dates and lay.date(inv.date) in texts[0]
            assert all(c.heading in every or all(w in every for w in c.heading.split()) for c in lay.columns)
            assert lay.labels["invoice_number"] in texts[0] and lay.labels["total"] in every
            if lay.date_style in AMBIGUOUS:
                assert second_date(lay, inv.date).day > 12 and lay.date(second_date(lay, inv.date)) in texts[0]
    words = vocabulary("held-m")
    assert {"rechnungsnummer", "rechnungsdatum", "kundennummer", "menge", "einzelpreis", "gesamtpreis",
            "zwischensumme", "gesamtbetrag"} <= words
    assert {"facture", "n° de facture", "date de facture", "n° client", "quantité", "prix unitaire", "montant ht",
            "total ttc"} <= words
    narrow = first(lambda x: x.extra["locale"] == "FR" and x.extra["narrow"] and x.tax_rate is not None, 2)
    for lay in narrow:  # a narrow space in the picture, a space in the text layer
        assert lay.money(inv.total(lay.tax_rate)).startswith("1 027,03 ")
        assert lay.money(inv.total(lay.tax_rate)) in " ".join(pages_of(render_pdf(inv, lay))[0])


def test_a_credit_note_is_labelled_and_prints_the_record_s_signs():
    inv, titles = INVOICES[CREDIT], set()
    for lay in LAYOUTS[:60]:
        texts, words = pages_of(render_pdf(inv, lay))
        every = "\n".join(texts)
        assert lay.credit_title in texts[0] and lay.labels["credit_number"] in texts[0] and inv.number in texts[0]
        assert "-" in lay.money(inv.total(lay.tax_rate)) and lay.money(inv.total(lay.tax_rate)) in every
        line = truth(inv, lay).lines[0]
        assert on_row(words[0], [line.code, line.description], [lay.money(line.amount, lines=True)])
        assert quantity(line.quantity).startswith("-") and quantity(line.quantity) in every
        titles.add(lay.credit_title.replace(" ", "").lower())
    assert {"gutschrift", "avoir"} <= titles and titles & {"creditnote", "refund"}


def test_a_numeric_date_that_reads_either_way_has_a_second_date_past_the_twelfth():
    seen = 0
    for lay in LAYOUTS[:100]:
        if lay.date_style not in AMBIGUOUS:
            continue
        seen += 1
        for number in (SHORT, CREDIT):
            inv = INVOICES[number]
            other = second_date(lay, inv.date)
            assert other.day > 12 and other != inv.date
            assert lay.date(other) in pages_of(render_pdf(inv, lay))[0][0]
    assert seen >= 15


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = LAYOUTS
    assert {x.extra["kind"] for x in lays[:10]} == {"shop", "letter"}
    assert {x.extra["locale"] for x in lays} == {"UK", "US", "DE", "FR", "CA", "IE"}
    assert {x.currency for x in lays} == {"GBP", "USD", "EUR", "CAD"}
    assert {x.tax_rate for x in lays} >= {None, Decimal("0.20"), Decimal("0.19"), Decimal("0.23"), Decimal("0.05"),
                                          Decimal("0.13"), Decimal("0.08875")}
    shops = [x for x in lays if x.extra["kind"] == "shop"]
    letters = [x for x in lays if x.extra["kind"] == "letter"]
    assert {x.extra["platform"] for x in shops} == {"printer", "plugin", "magento", "presta", "market"}
    assert {x.extra["qty_mode"] for x in shops} == {"column", "title", "price"}
    assert {x.extra["sku"] for x in shops} == {"under", "after", "column"}
    assert {x.extra["furniture"] for x in shops} == {"browser", "plugin"}
    assert {x.extra["borders"] for x in letters} == {"all", "horizontal", "none"}
    assert {x.extra["totals"] for x in letters} == {"merged", "tabs"} and {x.extra["meta"] for x in letters} == {
        "tabs", "table"}
    assert any(" " in x.title and x.title.replace(" ", "").isupper() for x in letters)  # I N V O I C E
    assert {x.extra["face"][0] for x in lays} == {"Helvetica", "Times-Roman", "HM-Vera"}
    assert len({tuple(c.heading for c in x.columns) for x in lays}) >= 100
    assert set().union(*(x.wordings() for x in lays)) <= vocabulary("held-m")


def test_no_text_overlaps_other_text_or_leaves_the_page():
    """What a reader sees is legible: no word's box runs into another's or over the paper's edge."""
    for lay in LAYOUTS[:36]:
        for number in (CREDIT, "536591"):
            with pymupdf.open(stream=render_pdf(INVOICES[number], lay), filetype="pdf") as doc:
                for page in doc:
                    boxes = np.array([w[:4] for w in page.get_text("words")])
                    assert boxes[:, 0].min() > 5 and boxes[:, 2].max() < page.rect.width - 5, lay.seed
                    assert boxes[:, 1].min() > 2 and boxes[:, 3].max() < page.rect.height - 2, lay.seed
                    wide = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0],
                                                                                      boxes[None, :, 0])
                    high = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1],
                                                                                      boxes[None, :, 1])
                    tall = boxes[:, 3] - boxes[:, 1]
                    clash = (wide > 0.8) & (high > 0.25 * np.minimum(tall[:, None], tall[None, :]))
                    np.fill_diagonal(clash, False)
                    assert not clash.any(), (lay.seed, number, page.number)


def test_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-m") == layout(5, "held-m") != layout(6, "held-m")
    assert render_pdf(inv, layout(5, "held-m")) == render_pdf(inv, layout(5, "held-m"))
    assert render_pdf(inv, layout(5, "held-m")) != render_pdf(inv, layout(6, "held-m"))
