"""held-l prints its truth: every line's code, quantity, unit price and amount together (on the line's row, block
or two receipt lines) on the page the truth gives, every word of its description, the totals and tax as the truth
has them, and the record's invoice number, date, customer and country; its layouts vary with the seed over both
kinds, their four variants and six locales, and draw the same bytes for the same seed.

Uses the invoices of the committed records sample; renders through :mod:`evaluation.invoice_families` and
:mod:`evaluation.invoice_render` as the evaluation set does. (The records' arithmetic is checked for every family
in test_invoice_set.py.)
"""

from __future__ import annotations

import doctest
from decimal import Decimal

import pymupdf
import pytest

import evaluation.invoice_held_l
import evaluation.invoice_held_l_till
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_l import AMBIGUOUS, ROLL, later_date, qty_text, rate_text
from evaluation.invoice_records import SAMPLE, Invoice, InvoiceRow, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
SHORT, CREDIT, NO_CUSTOMER, LONG, FRANCE = "536365", "C536548", "536414", "536796", "536370"
LAYOUTS = [layout(seed, "held-l") for seed in range(300)]
VARIANTS = ("block", "table", "roll", "a4")


def first(test, count: int = 1) -> list:
    """The first ``count`` layouts (by seed) that pass ``test``."""
    return [lay for lay in LAYOUTS if test(lay)][:count]


def of_variant(variant: str, count: int = 1) -> list:
    return first(lambda x: x.extra["variant"] == variant, count)


def pages_of(pdf: bytes) -> tuple[list[str], list[list[tuple]]]:
    """Each page's text and its words (x0, y0, x1, y1, word, ...)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [p.get_text() for p in doc], [p.get_text("words") for p in doc]


def near(lay, words: list[tuple], code: str, values: list[str]) -> bool:
    """Whether some word that is ``code``'s first word has every one of ``values`` (each as its words) on its own
    baseline or the next one or two: a table's row, a block's two rows, a receipt item's lines."""
    head, reach = code.split()[0], lay.size * 1.4 * 2.6
    for w in words:
        if w[4] == head:
            close = {v[4] for v in words if -1.5 < v[3] - w[3] < reach}
            if all(part in close for value in values for part in value.split()):
                return True
    return False


def line_values(lay, line) -> list[str]:
    """What a line prints beside its code: the quantity, the unit price and the amount as the layout formats them."""
    places = lay.extra.get("price_places", 2)
    return [qty_text(lay, line.quantity), lay.number(line.unit_price, places), lay.number(line.amount)]


def test_doctests():
    for module in (evaluation.invoice_held_l, evaluation.invoice_held_l_till):
        assert doctest.testmod(module).failed == 0, module


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, FRANCE, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    count = 1 if number == LONG else 3
    for lay in [x for v in VARIANTS for x in of_variant(v, count)]:
        texts, words = pages_of(render_pdf(inv, lay))
        reading = truth(inv, lay)
        fields, every = reading.fields, "\n".join(texts)
        assert len(texts) == reading.pages == len(paginate(inv, lay))
        assert (lay.credit_title if inv.is_credit else lay.title) in texts[0]
        assert inv.number in texts[0] and lay.date(inv.date) in texts[0] and inv.country in texts[0]
        if inv.customer is not None:
            assert inv.customer in texts[0].split()
        assert lay.number(fields.total) in every and lay.money(fields.total) in every
        assert fields.currency in every, lay.seed
        for line in reading.lines:
            page = line.page - 1
            assert near(lay, words[page], line.code, line_values(lay, line)), (lay.seed, number, line.code)
            printed = {w[4] for w in words[page]}
            assert all(w in printed for w in (line.description or "").split()), (lay.seed, line.description)


def test_a_wrong_value_is_not_found():
    """The check above finds a line's own values, not another line's: a neighbour's amount fails it."""
    inv = INVOICES[FRANCE]
    for lay in [of_variant(v)[0] for v in VARIANTS]:
        words = pages_of(render_pdf(inv, lay))[1]
        lines = truth(inv, lay).lines
        one, other = lines[0], next(x for x in lines if x.amount != lines[0].amount and x.page == lines[0].page)
        assert near(lay, words[0], one.code, line_values(lay, one))
        assert not near(lay, words[0], one.code, line_values(lay, one)[:2] + [lay.number(other.amount)]), lay.seed


def test_the_totals_and_tax_agree_with_the_truth():
    seen, inv = set(), INVOICES[FRANCE]
    for lay in LAYOUTS[:40]:
        fields = truth(inv, lay).fields
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        assert fields.subtotal == inv.subtotal and fields.tax == inv.tax(lay.tax_rate)
        assert fields.total == fields.subtotal + fields.tax == inv.total(lay.tax_rate)
        for value in (fields.subtotal, fields.tax, fields.total):
            assert lay.number(value) in text, (lay.seed, value)
        assert rate_text(lay, lay.tax_rate) in text, lay.seed
        if lay.extra["kind"] == "visual":
            assert text.count(lay.number(fields.total)) >= 2  # with VAT, and due for payment
        seen.add((lay.extra["locale"], lay.tax_rate))
    assert {place for place, _ in seen} == {"DE", "FR", "NO", "BE", "UK", "SE"}


def test_a_long_invoice_runs_over_pages_with_a_running_line_and_headings():
    inv = INVOICES[LONG]
    for lay in [x for v in VARIANTS for x in of_variant(v, 2)]:
        texts, words = pages_of(render_pdf(inv, lay))
        m, reading = len(texts), truth(inv, lay)
        assert m >= 2 and m == reading.pages, lay.seed
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(texts, 1):
            assert lay.page_label.format(n=n, m=m) in text and inv.number in text, (lay.seed, n)
            if lay.continued is not None:
                assert (lay.continued.format(next=n + 1) in text) == (n < m)
            if n in with_items:
                assert all(c.heading in text for c in lay.columns), (lay.seed, n)
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)
        assert lay.number(reading.fields.total) in texts[-1] or lay.number(reading.fields.total) in texts[-2]


def test_a_credit_note_prints_negative_amounts_and_its_own_title():
    inv = INVOICES[CREDIT]
    styles = set()
    for lay in LAYOUTS[:40]:
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        total = inv.total(lay.tax_rate)
        assert total < 0 and lay.number(total) in text and lay.credit_title in text
        assert ("381" in text) == (lay.extra["kind"] == "visual")
        styles.add(lay.negative)
    assert styles == {"minus", "minus after"}


def test_a_till_prints_a_narrow_roll_with_the_items_over_two_lines():
    inv = INVOICES[FRANCE]
    for lay in of_variant("roll", 4) + of_variant("a4", 2):
        assert lay.page[0] == ROLL or lay.page[0] - 2 * lay.margin < 300
        texts, words = pages_of(render_pdf(inv, lay))
        lines = texts[0].splitlines()
        sep = lay.extra["sep"] * 10
        assert any(sep in t for t in lines)  # separators typed as characters
        for line in truth(inv, lay).lines:
            count = f"{qty_text(lay, line.quantity)}{' ' + lay.extra['unit_word'] if lay.extra['unit_word'] else ''}"
            assert f"{count} x {lay.number(line.unit_price)}" in texts[line.page - 1], (lay.seed, line.code)
    styles = {(x.extra["item_style"], x.font) for x in LAYOUTS if x.extra["kind"] == "till"}
    assert {s for s, _ in styles} == {"desc_then_qty", "code_desc"} and {f for _, f in styles} >= {"Courier"}


def test_a_visualisation_prints_business_term_codes_as_the_viewer_does():
    inv = INVOICES[SHORT]
    seen = set()
    for lay in first(lambda x: x.extra["kind"] == "visual", 16):
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        codes = lay.extra["codes"]
        assert ("BT-1" in text and "BT-115" in text) == (codes != "none"), (lay.seed, codes)
        if codes == "bracket":
            assert f"{lay.labels['invoice_number']} (BT-1)" in text
        if codes == "prefix":
            assert f"BT-2 {lay.labels['issue_date']}" in text
        assert lay.extra["iban"] in text and lay.extra["standard"] in text
        seen.add(codes)
    assert seen == {"bracket", "prefix", "side", "none"}


def test_a_long_description_wraps_on_a_narrow_roll_and_is_never_cut():
    wide = ("SWALLOW WOODEN CHRISTMAS DECORATION", "SNOWSTORM PHOTO FRAME FRIDGE MAGNET", "BAROQUECANDLESTICK",
            'CHARLIE+LOLA"EXTREMELY BUSY" SIGN', "SET/4 RED MINI CAKE CASES", "ROUND SNACK BOXES SET OF4 WOODLAND")
    inv = Invoice("536999", INVOICES[SHORT].date, "17850", "United Kingdom",
                  tuple(InvoiceRow(f"2{k:04d}", text, Decimal(k + 1), Decimal("1.25")) for k, text in enumerate(wide)))
    narrow = sorted((x for x in LAYOUTS if x.extra["variant"] == "roll"), key=lambda x: -x.size)[:3]
    for lay in narrow + of_variant("table", 2) + of_variant("block", 2):
        texts, words = pages_of(render_pdf(inv, lay))
        printed = {w[4] for page in words for w in page}
        for text in wide:
            assert set(text.split()) <= printed, (lay.seed, text)
        right = lay.page[0] - lay.margin + 1
        assert all(w[2] <= right for page in words for w in page), lay.seed  # nothing runs off the receipt


def test_a_numeric_date_that_reads_either_way_has_a_later_date_past_the_twelfth_beside_it():
    seen = 0
    for lay in LAYOUTS[:120]:
        if lay.date_style not in AMBIGUOUS:
            continue
        seen += 1
        inv = INVOICES[SHORT]
        later = later_date(lay, inv.date)
        texts = pages_of(render_pdf(inv, lay))[0]
        where = texts[0] if lay.extra["kind"] == "visual" else "\n".join(texts)  # a till's is at its end
        assert later.day > 12 and lay.date(later) in where, lay.seed
    assert seen >= 10


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = LAYOUTS
    assert {x.extra["kind"] for x in lays[:10]} == {"visual", "till"}
    assert {x.extra["variant"] for x in lays} == set(VARIANTS)
    assert {x.extra["locale"] for x in lays} == {"DE", "FR", "NO", "BE", "UK", "SE"}
    assert {x.currency for x in lays} == {"EUR", "NOK", "GBP", "SEK"}
    assert {x.tax_rate for x in lays} >= {Decimal(r) for r in ("0.19", "0.07", "0.20", "0.055", "0.25", "0.21",
                                                              "0.06", "0.12", "0.15")}
    assert {x.extra["lang"] for x in lays} == {"de", "fr", "nl", "en", "no", "sv"}
    assert {(x.thousands, x.decimal) for x in lays} >= {(".", ","), (" ", ","), (",", "."), ("", ",")}
    assert len({x.date_style for x in lays}) >= 12
    assert set().union(*(x.wordings() for x in lays)) <= vocabulary("held-l")


def test_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-l") == layout(5, "held-l") != layout(6, "held-l")
    assert render_pdf(inv, layout(5, "held-l")) == render_pdf(inv, layout(5, "held-l"))
    assert render_pdf(inv, layout(5, "held-l")) != render_pdf(inv, layout(6, "held-l"))
