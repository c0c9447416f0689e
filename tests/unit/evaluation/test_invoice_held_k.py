"""held-k prints its truth: every line's code, quantity, unit price and amount on one row of the page the truth
gives, in the layout's formats (an export form's plain numbers, a spreadsheet's accounting, currency or number
cells), the totals as the truth has them, and the record's invoice number, date, customer and country; its
layouts vary with the seed over both kinds and six locales, and draw the same bytes for the same seed.

Uses the invoices of the committed records sample; renders through :mod:`evaluation.invoice_families` and
:mod:`evaluation.invoice_render` as the evaluation set does. (The records' arithmetic is checked for every family
in test_invoice_set.py.)
"""

from __future__ import annotations

import doctest
import io
from decimal import Decimal

import pymupdf
import pytest
from reportlab.pdfgen import canvas

import evaluation.invoice_held_k
import evaluation.invoice_held_k_export
import evaluation.invoice_held_k_goods
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_k import AMBIGUOUS, cell, later_date, num, qty, total_text
from evaluation.invoice_held_k_goods import amount_words, is_goods, tariff
from evaluation.invoice_held_k_sheet import describe
from evaluation.invoice_records import SAMPLE, Invoice, InvoiceRow, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth
from evaluation.invoice_styles import Pen

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
SHORT, CREDIT, NO_CUSTOMER, LONG, FRANCE = "536365", "C536548", "536414", "536796", "536370"
LAYOUTS = [layout(seed, "held-k") for seed in range(300)]


def first(test, count: int = 1) -> list:
    """The first ``count`` layouts (by seed) that pass ``test``."""
    return [lay for lay in LAYOUTS if test(lay)][:count]


def pages_of(pdf: bytes) -> tuple[list[str], list[list[tuple]]]:
    """Each page's text and its words (x0, y0, x1, y1, word, ...)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [p.get_text() for p in doc], [p.get_text("words") for p in doc]


def on_row(words: list[tuple], code: str, values: list[str]) -> bool:
    """Whether some printed row holding ``code``'s first word carries every one of ``values`` (each as its words,
    on the code's baseline)."""
    head = code.split()[0]
    for w in words:
        if w[4] == head:
            same = {v[4] for v in words if abs(v[3] - w[3]) < 1.5}
            if all(part in same for value in values for part in value.split()):
                return True
    return False


def row_values(lay, line) -> list[str]:
    """What a line prints in its number columns: the quantity, and the unit price and amount as their cells show
    them (a spreadsheet's accounting cells with the symbol at the cell's edge)."""
    if lay.extra["kind"] == "export":
        return [qty(lay, line.quantity), num(lay, line.unit_price, lay.negative), num(lay, line.amount, lay.negative)]
    return [qty(lay, line.quantity), *(" ".join(cell(lay, v)).strip() for v in (line.unit_price, line.amount))]


def test_doctests():
    for module in (evaluation.invoice_held_k, evaluation.invoice_held_k_goods, evaluation.invoice_held_k_export):
        assert doctest.testmod(module).failed == 0, module


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, FRANCE, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    lays = LAYOUTS[:10] if number != LONG else first(lambda x: x.extra["kind"] == "export", 2) + \
        first(lambda x: x.extra["kind"] == "sheet", 2)
    for lay in lays:
        texts, words = pages_of(render_pdf(inv, lay))
        reading = truth(inv, lay)
        fields, every = reading.fields, "\n".join(texts)
        assert len(texts) == reading.pages == len(paginate(inv, lay))
        assert (lay.credit_title if inv.is_credit else lay.title) in texts[0]
        assert inv.number in texts[0] and lay.date(inv.date) in texts[0] and inv.country in texts[0].title() + texts[0]
        if inv.customer is not None:
            assert inv.customer in texts[0].split()
        assert total_text(lay, fields.total) in every and lay.money(fields.total) in every
        assert fields.currency in every or lay.extra["symbol"] in every and lay.extra["locale"] in ("US", "UK", "IE",
                                                                                                   "NL"), lay.seed
        for line in reading.lines:
            page = line.page - 1
            assert on_row(words[page], line.code, row_values(lay, line)), (lay.seed, number, line.code)
            printed = {w[4] for w in words[page]}
            assert all(w in printed for w in (line.description or "").split()), (lay.seed, line.description)


def test_the_totals_agree_with_the_truth_and_the_tax_with_the_layout():
    seen = set()
    for lay in LAYOUTS[:60]:
        inv = INVOICES[FRANCE]
        fields = truth(inv, lay).fields
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        assert fields.subtotal == inv.subtotal and fields.total == inv.total(lay.tax_rate)
        assert fields.customer_id == inv.customer and fields.invoice_number == inv.number
        export = lay.extra["kind"] == "export"
        for value in (fields.subtotal, fields.tax):
            if value is not None:
                assert (num(lay, value, lay.negative) if export else cell(lay, value)[1]) in text, (lay.seed, value)
        assert total_text(lay, fields.total) in text
        if fields.tax is not None:
            assert fields.total == fields.subtotal + fields.tax and lay.extra["rate_text"] in text
            seen.add(lay.extra["tax_name"])
        else:
            assert fields.total == fields.subtotal
    assert {"VAT", "GST", "BTW", "Sales Tax"} == seen


def test_a_long_invoice_runs_over_pages_with_or_without_the_heading_row():
    inv = INVOICES[LONG]
    cases = (first(lambda x: x.extra["kind"] == "export", 2)
             + first(lambda x: x.extra["kind"] == "sheet" and x.extra["repeat_heading"], 2)
             + first(lambda x: x.extra["kind"] == "sheet" and not x.extra["repeat_heading"], 2))
    for lay in cases:
        texts, words = pages_of(render_pdf(inv, lay))
        m, reading = len(texts), truth(inv, lay)
        assert m >= 2 and m == reading.pages
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(texts, 1):
            assert lay.page_label.format(n=n, m=m) in text and inv.number in text, (lay.seed, n)
            if lay.continued is not None:
                assert (lay.continued.format(next=n + 1) in text) == (n < m)
            printed = {w[4] for w in words[n - 1]}
            heading = all(word in printed for c in lay.columns for word in c.heading.split())
            if n == 1 or n in with_items and lay.extra.get("repeat_heading", True):
                assert heading, (lay.seed, n)
            elif n in with_items:
                assert not heading, (lay.seed, n)  # the grid simply goes on
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)


def test_a_credit_note_prints_its_negatives_as_the_locale_and_software_would():
    inv, styles = INVOICES[CREDIT], set()
    for lay in LAYOUTS[:60]:
        text = "\n".join(pages_of(render_pdf(inv, lay))[0])
        total = total_text(lay, inv.total(lay.tax_rate))
        assert total in text and inv.number in text and lay.credit_title in text
        styles.add(lay.negative if lay.extra["kind"] == "export" else lay.extra["negative"])
        amount = row_values(lay, truth(inv, lay).lines[0])[-1]
        assert "-" in amount or "(" in amount, (lay.seed, amount)
        if lay.extra["kind"] == "sheet" and lay.extra["locale"] == "US" and lay.extra["fmt"] == "accounting":
            assert amount.startswith("$ (") and total.startswith("-$")  # $ (7.80) in the lines, -$122.30 total
    assert {"minus", "parentheses", "minus after"} <= styles


def test_an_export_form_prints_tariff_codes_origins_weights_incoterms_and_the_total_in_words():
    inv = INVOICES[FRANCE]
    lays = first(lambda x: x.extra["kind"] == "export", 12)
    assert {x.extra["template"] for x in lays} == {"boxed", "letterhead"}
    assert len({x.extra["hs_format"] for x in lays}) >= 3 and len({x.extra["incoterm"] for x in lays}) == 4
    for lay in lays:
        texts, words = pages_of(render_pdf(inv, lay))
        every, keys = "\n".join(texts), {c.key for c in lay.columns}
        assert "hs" in keys and lay.extra["incoterm"] in every and lay.extra["declaration"].split()[0] in every
        words_text = amount_words(inv.total(lay.tax_rate), lay.currency, lay.extra["words_style"], False)
        assert words_text.split(" ONLY")[0] in " ".join(every.split()), lay.seed
        if lay.extra["incoterm"] == "CIF":
            assert num(lay, Decimal("0.00"), lay.negative) in every  # freight and insurance at 0.00
        for line in truth(inv, lay).lines:
            if is_goods(line.code, line.description):
                code = tariff(line.description, lay.extra["hs_format"])
                assert on_row(words[line.page - 1], line.code, [code]), (lay.seed, line.code, code)


def test_a_spreadsheet_prints_its_cells_and_furniture():
    for lay in first(lambda x: x.extra["kind"] == "sheet" and x.extra["fmt"] == "accounting", 4):
        inv = INVOICES[NO_CUSTOMER]  # one line priced 0: the accounting format's dash
        assert cell(lay, Decimal("0"))[1] == "-" and cell(lay, Decimal("0"), "total")[1] != "-"
        texts, words = pages_of(render_pdf(inv, lay))
        line = truth(inv, lay).lines[0]
        assert on_row(words[0], line.code, [lay.extra["symbol"], "-"])
    for lay in first(lambda x: x.extra["kind"] == "sheet" and x.extra["row_headings"], 3):
        texts, words = pages_of(render_pdf(INVOICES[SHORT], lay))
        printed = [w[4] for w in words[0]]
        assert {"A", "B", "C"} <= set(printed) and {"1", "2", "3", "20"} <= set(printed)  # the sheet's own
    lays = [x for x in LAYOUTS if x.extra["kind"] == "sheet"]
    assert {x.extra["software"] for x in lays} == {"excel", "calc", "sheets"}
    assert {x.extra["spread"] for x in lays} == {"wide", "wrap", "shrink"}
    assert {x.page[0] > x.page[1] for x in lays} == {True, False}  # landscape and portrait


def test_a_long_description_fits_or_wraps_in_every_spread_and_is_never_cut():
    """The narrowest description columns of each spread, with the records' widest descriptions and words: every word
    is in the text layer, on one line (a ``shrink`` cell's font smaller), or wrapped onto a taller row."""
    wide = ("SWALLOW WOODEN CHRISTMAS DECORATION", "SNOWSTORM PHOTO FRAME FRIDGE MAGNET", "BAROQUECANDLESTICK",
            'CHARLIE+LOLA"EXTREMELY BUSY" SIGN', "SET/4 RED MINI CAKE CASES")
    inv = Invoice("536999", INVOICES[SHORT].date, "17850", "United Kingdom",
                  tuple(InvoiceRow(f"2{k:04d}", text, Decimal(k + 1), Decimal("1.25")) for k, text in enumerate(wide)))
    sheets = [x for x in LAYOUTS if x.extra["kind"] == "sheet"]
    seen = set()
    for spread in ("wide", "wrap", "shrink"):
        narrow = sorted((x for x in sheets if x.extra["spread"] == spread),
                        key=lambda x: next(c.width for c in x.columns if c.key == "description") / x.size)[:4]
        for lay in narrow:
            pen = Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page), lay)
            room = next(c.width for c in lay.columns if c.key == "description") - lay.size * 0.6
            for text in wide:
                lines, scale = describe(pen, lay, text, room)
                assert " ".join(lines).split() == text.split() and 0.5 < scale <= 1, (lay.seed, text)
                assert all(pen.width(t, size=lay.size * scale) <= room for t in lines), (lay.seed, text)
                seen.add((spread, len(lines) > 1, scale < 1))
            printed = {w[4] for page in pages_of(render_pdf(inv, lay))[1] for w in page}
            for text in wide:
                assert set(text.split()) <= printed, (lay.seed, text)
    assert {("wide", True, False), ("wrap", True, False), ("shrink", False, True)} <= seen


def test_a_numeric_date_that_reads_either_way_has_a_later_date_past_the_twelfth_beside_it():
    seen = 0
    for lay in LAYOUTS[:80]:
        if lay.date_style not in AMBIGUOUS:
            continue
        seen += 1
        for number in (SHORT, CREDIT):
            inv = INVOICES[number]
            later = later_date(lay, inv.date)
            assert later.day > 12 and lay.date(later) in pages_of(render_pdf(inv, lay))[0][0]
    assert seen >= 10


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = LAYOUTS
    assert {x.extra["kind"] for x in lays[:10]} == {"export", "sheet"}
    assert len({x.extra["locale"] for x in lays[:30]}) >= 5
    assert {x.extra["locale"] for x in lays} == {"US", "UK", "IE", "NL", "HK", "AU"}
    assert {x.currency for x in lays} == {"USD", "GBP", "EUR", "HKD", "AUD"}
    assert {x.tax_rate for x in lays} >= {None, Decimal("0.20"), Decimal("0.23"), Decimal("0.21"), Decimal("0.10")}
    assert {(x.thousands, x.decimal) for x in lays} == {(",", "."), (".", ",")}
    assert {x.extra["fmt"] for x in lays if x.extra["kind"] == "sheet"} == {"accounting", "currency", "prefix",
                                                                            "number"}
    assert {x.extra["lang"] for x in lays} == {"en", "nl"} and len({x.date_style for x in lays}) >= 12
    assert len({tuple(c.heading for c in x.columns) for x in lays}) >= 100
    assert set().union(*(x.wordings() for x in lays)) <= vocabulary("held-k")


def test_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-k") == layout(5, "held-k") != layout(6, "held-k")
    assert render_pdf(inv, layout(5, "held-k")) == render_pdf(inv, layout(5, "held-k"))
    assert render_pdf(inv, layout(5, "held-k")) != render_pdf(inv, layout(6, "held-k"))
