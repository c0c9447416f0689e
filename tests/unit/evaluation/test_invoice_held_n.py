"""held-n prints its truth: the record's invoice number, date, customer and country, every line's code, quantity,
unit price and amount on the row and page the truth gives, and the totals as the truth has them; its pages repeat
the table's heading (and carry the running sums where the form does), credit notes and sales without a customer
print as such programs print them, the numbers around the wanted ones carry their check digits, a numeric date
that reads either way has a date past the 12th beside it, every label is in the vocabulary, and the layouts vary
with the seed over four countries, their languages and English, and two kinds of program in each.

Uses the invoices of the committed records sample; renders through :mod:`evaluation.invoice_families` and
:mod:`evaluation.invoice_render` as the evaluation set does. (The records' arithmetic is checked for every family
in test_invoice_set.py.)
"""

from __future__ import annotations

import doctest
from decimal import Decimal

import numpy as np
import pymupdf
import pytest

import evaluation.invoice_held_n
import evaluation.invoice_held_n_facts
import evaluation.invoice_held_n_pen
import evaluation.invoice_held_n_say
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_n import AMBIGUOUS, COUNTRIES, KINDS, fill, rate_text
from evaluation.invoice_held_n_facts import customer, due_date, line_vats, original, pl_nip, pt_nif
from evaluation.invoice_held_n_words import LABELS
from evaluation.invoice_records import SAMPLE, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth
from evaluation.invoice_scans import scan

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
SHORT, CREDIT, NO_CUSTOMER, LONG, MEDIUM = "536365", "C536548", "536414", "536796", "536370"
LAYOUTS = [layout(seed, "held-n") for seed in range(300)]


def first(test, count: int = 1) -> list:
    """The first ``count`` layouts (by seed) that pass ``test``."""
    return [lay for lay in LAYOUTS if test(lay)][:count]


def each_kind(count: int = 1) -> list:
    """``count`` layouts of every country's every kind."""
    return [lay for c, kinds in KINDS.items() for k in kinds
            for lay in first(lambda x, c=c, k=k: x.extra["country"] == c and x.extra["kind"] == k, count)]


def pages_of(pdf: bytes) -> tuple[list[str], list[list[tuple]]]:
    """Each page's text and its words (x0, y0, x1, y1, word, ...)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [p.get_text() for p in doc], [p.get_text("words") for p in doc]


def flat(texts: list[str]) -> str:
    return " ".join(" ".join(texts).split())


def on_row(words: list[tuple], anchor: str, values: list[str]) -> bool:
    """Whether some printed row whose words hold ``anchor`` (its first word) carries every one of ``values`` (each
    as its words, on the anchor's baseline)."""
    head = anchor.split()[0]
    for w in words:
        if w[4] == head:
            same = {v[4] for v in words if abs(v[3] - w[3]) < 1.5}
            if all(part in same for value in values for part in value.split()):
                return True
    return False


def shared_label(inv, lay) -> bool:
    """Whether the customer-number label is also part of another label or of the cash customer's name (Spain's
    ``Cliente`` heads the customer's box too; Italy's cash customer is a ``Cliente occasionale``)."""
    label = lay.labels["customer_id"]
    return any(label in v for k, v in lay.labels.items() if k != "customer_id") or label in customer(inv, lay)["name"]


def test_doctests():
    for module in (evaluation.invoice_held_n, evaluation.invoice_held_n_facts, evaluation.invoice_held_n_pen,
                   evaluation.invoice_held_n_say):
        assert doctest.testmod(module).failed == 0, module


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, MEDIUM, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    lays = LAYOUTS[:12] if number != LONG else each_kind()
    for lay in lays:
        texts, words = pages_of(render_pdf(inv, lay))
        reading, every = truth(inv, lay), flat(texts)
        fields = reading.fields
        assert len(texts) == reading.pages == len(paginate(inv, lay))
        assert (lay.credit_title if inv.is_credit else lay.title) in texts[0], lay.seed
        assert inv.number in texts[0] and lay.date(inv.date) in texts[0]
        assert inv.country.lower() in texts[0].lower()
        if inv.customer is not None:
            assert inv.customer in texts[0].split()
        elif not shared_label(inv, lay):
            assert lay.labels["customer_id"] not in every, lay.seed  # no customer: no number, no label
        assert fields.currency == lay.currency and lay.money(fields.total) in every, lay.seed
        for value in (fields.subtotal, fields.tax):
            if value is not None:
                assert lay.money(value) in every or lay.money(value, lines=True) in every, (lay.seed, value)
        for line in reading.lines:
            page = line.page - 1
            values = [lay.quantity(line.quantity), lay.price(line.unit_price), lay.money(line.amount, lines=True)]
            assert on_row(words[page], line.code, values), (lay.seed, number, line.code)
            printed = {w[4] for w in words[page]}
            assert all(w in printed for w in (line.description or "").split()), (lay.seed, line.description)


def test_the_totals_agree_with_the_truth_and_each_country_charges_its_own_tax():
    inv, rates = INVOICES[MEDIUM], {}
    for lay in LAYOUTS[:120]:
        fields = truth(inv, lay).fields
        assert fields.subtotal == inv.subtotal and fields.total == inv.total(lay.tax_rate)
        rates.setdefault(lay.extra["country"], set()).add(lay.tax_rate)
        if fields.tax is None:
            assert lay.extra["exempt"] and "tax" not in lay.labels and fields.total == fields.subtotal
            continue
        assert fields.total == fields.subtotal + fields.tax
        if lay.extra["country"] == "PL" or "vat_amount" in {c.key for c in lay.columns}:
            assert sum(line_vats(inv, lay)) == fields.tax  # the lines' VAT adds up to the invoice's
    assert rates["ES"] >= {Decimal("0.21")} and rates["IT"] >= {Decimal("0.22")} and rates["PT"] >= {Decimal("0.23")}
    assert rates["PL"] == {Decimal("0.23")} and None in rates["ES"] | rates["PT"] | rates["IT"]


def test_a_long_invoice_repeats_its_heading_and_carries_its_sums_over_the_page_breaks():
    inv = INVOICES[LONG]
    carried = 0
    for lay in each_kind() + first(lambda x: x.extra["carry"] and not x.extra["band"], 2):
        texts, words = pages_of(render_pdf(inv, lay))
        reading = truth(inv, lay)
        m = len(texts)
        assert m >= 3 and m == reading.pages, lay.seed
        firsts, sums, running = {}, {}, Decimal("0")
        for line in reading.lines:
            firsts.setdefault(line.page, line)
            running += line.amount
            sums[line.page] = running
        for n, text in enumerate(texts, 1):
            assert lay.page_label.format(n=n, m=m) in text and inv.number in text, (lay.seed, n)
            if lay.continued is not None:
                assert (lay.continued in text) == (n < m), (lay.seed, n)
            if n not in firsts:
                continue
            row = next(w for w in words[n - 1] if w[4] == firsts[n].code.split()[0])
            above = " ".join(w[4] for w in words[n - 1] if w[3] < row[1]).casefold()
            assert all(word.casefold() in above for c in lay.columns for word in c.heading.split()), (lay.seed, n)
            if lay.extra["carry"] and n < m:
                mark = lay.extra["band"]  # a band prints the carried sum as a total; a table row as an amount
                assert lay.money(sums[n], lines=not mark) in " ".join(text.split()), (lay.seed, n)
            if lay.extra["carry"] and not lay.extra["band"] and n > 1:
                assert lay.labels["brought"] in text and lay.money(sums[n - 1], lines=True) in text
                carried += 1
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)
    assert carried >= 3


def test_a_credit_note_is_titled_refers_to_its_invoice_and_prints_the_record_s_signs():
    inv, titles = INVOICES[CREDIT], set()
    for lay in LAYOUTS[:30]:
        texts = pages_of(render_pdf(inv, lay))[0]
        every = flat(texts)
        assert lay.credit_title in texts[0] and inv.number in texts[0], lay.seed
        total = lay.money(inv.total(lay.tax_rate))
        assert ("-" in total or "(" in total) and total in every
        assert lay.quantity(inv.rows[0].quantity).startswith("-") and lay.quantity(inv.rows[0].quantity) in every
        number, date = original(inv, lay)
        assert number in every and lay.date(date) in every and date.day > 12  # the invoice it corrects
        if lay.extra["kind"] != "cortesia":
            assert lay.labels["ref_invoice"] in every
        if lay.extra["country"] == "PL":
            assert lay.labels["credit_total"] in every
        titles.add(lay.credit_title.lower())
    assert {"factura rectificativa", "nota di credito", "nota de crédito", "faktura korygująca"} & titles
    assert "td04 nota di credito" in titles


def test_a_sale_without_a_customer_prints_no_customer_number():
    inv = INVOICES[NO_CUSTOMER]
    for lay in each_kind(2):
        every = flat(pages_of(render_pdf(inv, lay))[0])
        assert shared_label(inv, lay) or lay.labels["customer_id"] not in every, lay.seed
        assert inv.country.lower() in every.lower() and customer(inv, lay)["name"] in every
        if lay.extra["country"] == "PT":
            assert "999999990" in every  # the final consumer's taxpayer number
        assert truth(inv, lay).fields.customer_id is None


def test_the_numbers_around_the_wanted_ones_are_the_country_s_own():
    inv = INVOICES[MEDIUM]
    for lay in each_kind(2):
        every = flat(pages_of(render_pdf(inv, lay))[0])
        seller = lay.extra["seller"]
        iban = seller["account"]
        digits = "".join(str(int(c, 36)) for c in iban[4:] + iban[:4])
        assert int(digits) % 97 == 1 and iban[:2] == lay.extra["country"]  # a valid IBAN of the seller's country
        assert seller["tax"] in every, lay.seed
        country = lay.extra["country"]
        if country == "PL":
            nip = seller["tax"].replace("-", "")
            assert pl_nip(nip[:9]) == nip and (seller["nrb"] in every or seller["iban"] in every)
            assert lay.labels["words"] in every and lay.labels["total"] in every
        if country == "PT":
            assert pt_nif(seller["tax"][:8]) == seller["tax"] and "ATCUD" in every and "/AT" in every
        if country != "PL" and lay.extra["kind"] != "cortesia":
            assert lay.labels["subtotal"] in every and lay.labels["total"] in every, lay.seed
        assert lay.date(due_date(inv, lay)) in every, lay.seed


def test_a_numeric_date_that_reads_either_way_has_a_due_date_past_the_twelfth():
    seen = 0
    inv = INVOICES[SHORT]
    for lay in LAYOUTS[:60]:
        if lay.date_style not in AMBIGUOUS:
            continue
        seen += 1
        due = due_date(inv, lay)
        assert due.day > 12 and lay.date(due) in flat(pages_of(render_pdf(inv, lay))[0]), lay.seed
        assert due_date(INVOICES[LONG], lay).day > 12  # an invoice of 2 December too
    assert seen >= 20


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = LAYOUTS
    assert {x.extra["country"] for x in lays[:12]} == set(COUNTRIES)
    assert {(x.extra["country"], x.extra["lang"]) for x in lays} == set(LABELS)
    assert {(x.extra["country"], x.extra["kind"]) for x in lays} == {(c, k) for c, ks in KINDS.items() for k in ks}
    assert {x.currency for x in lays} == {"EUR", "PLN"} and {x.negative for x in lays} == {"minus", "parentheses"}
    assert {x.date_style for x in lays} == {"n:dd/mm/Y", "n:dd/mm/yy", "n:dd-mm-Y", "n:dd.mm.Y", "n:Y-mm-dd"}
    assert {x.extra["table"] for x in lays} == {"frame", "grid", "rules", "open"}
    assert {x.extra["face"][0] for x in lays} == {"Helvetica", "Times-Roman", "HN-Sans", "HN-Serif", "HN-Vera"}
    assert {x.extra["face"][0] for x in lays if x.extra["country"] == "PL"} <= {"HN-Sans", "HN-Serif"}  # ł, ą, ż
    assert {(x.thousands, x.decimal) for x in lays} >= {(".", ","), (" ", ","), ("", ","), (",", ".")}
    assert {x.extra["qty_places"] for x in lays} == {0, 2, 3} and {x.extra["price_places"] for x in lays} == {2, 3, 4}
    assert len({tuple(c.heading for c in x.columns) for x in lays}) >= 150
    assert any(x.extra["carry"] for x in lays) and any(x.extra["qr"] for x in lays)
    words = vocabulary("held-n")
    assert set().union(*(x.wordings() for x in lays)) <= words and not any("{" in w for w in words)
    assert {"factura", "base imponible", "nº factura", "fattura", "totale documento", "imponibile", "fatura",
            "total ilíquido", "faktura vat", "do zapłaty", "wartość netto", "słownie", "invoice"} <= words
    for (country, _), table in LABELS.items():  # every label a form can print, with its rate and currency put in
        rate = rate_text(Decimal(COUNTRIES[country]["rate"]), "{r} %")
        assert {fill(w, rate, "EUR").lower() for v in table.values() for w in v} <= words


def test_no_text_overlaps_other_text_or_leaves_the_page():
    """What a reader sees is legible: no word's box runs into another's or over the paper's edge."""
    for k, lay in enumerate(each_kind(2)):
        for number in (CREDIT, "536591")[k % 2:]:
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


def test_the_scan_form_renders_and_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-n") == layout(5, "held-n") != layout(6, "held-n")
    assert render_pdf(inv, layout(5, "held-n")) == render_pdf(inv, layout(5, "held-n"))
    assert render_pdf(inv, layout(5, "held-n")) != render_pdf(inv, layout(6, "held-n"))
    lay = first(lambda x: x.extra["country"] == "PL")[0]
    scanned = scan(render_pdf(INVOICES[MEDIUM], lay), lay.seed)
    with pymupdf.open(stream=scanned, filetype="pdf") as doc:
        assert doc.page_count == truth(INVOICES[MEDIUM], lay).pages
        assert all(not p.get_text().strip() and len(p.get_images()) == 1 for p in doc)
