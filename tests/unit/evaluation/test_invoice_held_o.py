"""held-o prints its truth: every line's code, description, quantity, unit price and amount on the page the truth
gives (the numbers on the row of the line's code or description), the totals as the truth has them with a split
tax's parts (CGST and SGST, GST and PST or QST) and a per-line tax column adding up to the recorded tax, Indian
digit grouping and the amount in words where the layout chooses them, a second date past the 12th beside a
numeric date, credit notes under their own titles with the record's signs, and the table's heading on every page
of a long invoice with a "continued" line on all but the last; its layouts vary with the seed over the three
markets and their software, stay within the family's vocabulary, keep their words apart and on the paper, and draw
the same bytes for the same seed.

Uses the invoices of the committed records sample (and one made here, for amounts past a lakh); renders through
:mod:`evaluation.invoice_families` and :mod:`evaluation.invoice_render` as the evaluation set does. (The records'
arithmetic is checked for every family in test_invoice_set.py.)
"""

from __future__ import annotations

import datetime as dt
import doctest
import re
from decimal import Decimal

import numpy as np
import pymupdf
import pytest

import evaluation.invoice_held_o
import evaluation.invoice_held_o_money
import evaluation.invoice_held_o_parties
import evaluation.invoice_held_o_table
from evaluation.invoice_families import layout, vocabulary
from evaluation.invoice_held_o import FACES, RUPEE, numeric_date
from evaluation.invoice_held_o_anz import due
from evaluation.invoice_held_o_draw import scratch
from evaluation.invoice_held_o_india import details
from evaluation.invoice_held_o_money import indian, rupees_in_words, second_date
from evaluation.invoice_held_o_table import rows, tax_parts
from evaluation.invoice_held_o_us import fields
from evaluation.invoice_records import SAMPLE, Invoice, InvoiceRow, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
SHORT, CREDIT, NO_CUSTOMER, LONG, FRANCE = "536365", "C536548", "536414", "536796", "536370"
LAYOUTS = [layout(seed, "held-o") for seed in range(300)]
STYLES = ("tally", "modern", "xero", "myob", "form", "legacy")


def first(test, count: int = 1) -> list:
    """The first ``count`` layouts (by seed) that pass ``test``."""
    return [lay for lay in LAYOUTS if test(lay)][:count]


def each_style(count: int, kinds: tuple = ()) -> list:
    """``count`` layouts of every software look (the US ``modern`` and India's told apart by their kind)."""
    out = []
    for kind in ("india", "anz", "us"):
        for style in STYLES:
            out += first(lambda x, k=kind, s=style: x.extra["kind"] == k and x.extra["style"] == s, count)
    return [lay for lay in out if not kinds or lay.extra["kind"] in kinds]


def pages_of(pdf: bytes) -> tuple[list[str], list[list[tuple]]]:
    """The text of every page, and its words as (x0, y0, x1, y1, word, ...)."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    read = [(page.get_text(), page.get_text("words")) for page in doc]
    doc.close()
    return [text for text, _ in read], [found for _, found in read]


def flat(texts: list[str]) -> str:
    return " ".join(" ".join(texts).split())


def on_row(words: list[tuple], anchor: str, values: list[str]) -> bool:
    """Whether some printed row holding ``anchor`` (its first word) carries every one of ``values`` (each as its
    words, on the anchor's baseline)."""
    head = anchor.split()[0]
    for w in words:
        if w[4] == head:
            same = {v[4] for v in words if abs(v[3] - w[3]) < 1.0}
            if all(part in same for value in values for part in value.split()):
                return True
    return False


def row_values(lay, line) -> list[str]:
    """What a line prints on its first row: quantity (with its unit in a Tally-like cell), unit price, amount."""
    return [lay.quantity(line.quantity), lay.price(line.unit_price), lay.money(line.amount, lines=True)]


@pytest.mark.parametrize("module", [evaluation.invoice_held_o, evaluation.invoice_held_o_money,
                                    evaluation.invoice_held_o_parties, evaluation.invoice_held_o_table])
def test_the_examples_in_the_docstrings_hold(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("number", [SHORT, CREDIT, NO_CUSTOMER, FRANCE, LONG])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for lay in each_style(2 if number != LONG else 1):
        texts, words = pages_of(render_pdf(inv, lay))
        reading = truth(inv, lay)
        fields_, every = reading.fields, flat(texts)
        assert len(texts) == reading.pages == len(paginate(inv, lay))
        assert (lay.credit_title if inv.is_credit else lay.title) in texts[0]
        assert inv.number in texts[0].split() and lay.date(inv.date) in flat(texts[:1])
        assert inv.country in texts[0].splitlines()
        if inv.customer is not None:
            assert inv.customer in texts[0].split()
        else:
            assert lay.labels["customer_id"] not in every, lay.seed  # no customer: no customer number, no label
        assert lay.money(fields_.total) in every and fields_.currency == lay.currency
        assert lay.money(fields_.subtotal) in every
        for line in reading.lines:
            page = line.page - 1
            anchor = line.code if not lay.extra.get("code_under") or not line.description else line.description
            assert on_row(words[page], anchor, row_values(lay, line)), (lay.seed, number, line.code)
            printed = {w[4] for w in words[page]}
            assert all(w in printed for w in line.code.split()), (lay.seed, line.code)
            assert all(w in printed for w in (line.description or "").split()), (lay.seed, line.description)


def test_a_split_tax_and_a_tax_column_add_up_to_the_recorded_tax():
    seen = set()
    for number in (FRANCE, CREDIT, "536591"):
        inv = INVOICES[number]
        for lay in [x for x in LAYOUTS[:150] if x.tax_rate is not None]:
            parts, tax = tax_parts(inv, lay), truth(inv, lay).fields.tax
            assert sum(a for _, _, a in parts) == tax == inv.tax(lay.tax_rate)
            for _, rate, amount in parts[:-1]:
                assert amount == (inv.subtotal * rate).quantize(Decimal("0.01"), "ROUND_HALF_UP")
            assert abs(parts[-1][2] - inv.subtotal * parts[-1][1]) <= Decimal("0.011")
            names = tuple(n for n, _, _ in parts)
            seen.add(names)
            if lay.extra["kind"] == "india":
                assert names in (("CGST", "SGST"), ("IGST",))
                assert (names == ("IGST",)) == (lay.extra["place"][0] != lay.extra["state"])  # between states
            if number != FRANCE:
                continue
            every = flat(pages_of(render_pdf(inv, lay))[0])
            for k, (_, _, amount) in enumerate(parts):  # an old print-out's labels are in capitals
                assert lay.labels[f"tax_{k}"].lower() in every.lower() and lay.money(amount) in every, (lay.seed, k)
            columns = [c.key for c in lay.columns if c.key.startswith("line_tax_")]
            for key in columns:  # a GST column per line: its cells sum to the part
                cells = [Decimal(re.search(r"\d[\d,]*\.\d\d", r.cells[key][0]).group().replace(",", ""))
                         for r in rows(scratch(lay), inv, lay)]
                assert sum(cells) == abs(parts[int(key[-1])][2]), (lay.seed, key)
    assert {("CGST", "SGST"), ("IGST",), ("GST",), ("GST", "PST"), ("GST", "QST"), ("HST",)} <= seen
    assert any(len(n) == 1 and "Tax" in n[0] for n in seen)  # a US state's sales tax


def test_indian_grouping_and_the_amount_in_words_are_printed_where_chosen():
    big = Invoice("536999", dt.date(2010, 12, 2), "17850", "United Kingdom", (
        InvoiceRow("22423", "REGENCY CAKESTAND 3 TIER", Decimal("1000"), Decimal("250.00")),
        InvoiceRow("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", Decimal("4000"), Decimal("2.55"))))
    assert indian("260200.00") == "2,60,200.00" and big.subtotal == Decimal("260200.00")
    grouped = first(lambda x: x.extra["kind"] == "india" and x.extra["grouping"] == "indian", 6)
    western = first(lambda x: x.extra["kind"] == "india" and x.extra["grouping"] == "western", 2)
    for lay in grouped + western:
        texts, words = pages_of(render_pdf(big, lay))
        every = flat(texts)
        total = big.total(lay.tax_rate)
        assert ("2,50,000.00" in every) == (lay in grouped) and ("250,000.00" in every) == (lay in western)
        assert lay.money(total) in every and (re.search(r"\d,\d\d,\d{3}\.\d\d", lay.money(total)) is not None) == (
            lay in grouped)
        assert f"{rupees_in_words(total)} Only" in every and lay.labels["words"] in every
        assert "Lakh" in rupees_in_words(total)
    marks = {x.mark for x in LAYOUTS if x.extra["kind"] == "india"}
    assert {"Rs.", "INR", ""} <= marks and ("₹" in marks) == RUPEE
    for lay in first(lambda x: x.mark == "₹", 2):
        assert lay.fonts[0] in (FACES["Sans"][0], FACES["Serif"][0])  # a face that has the sign
        assert f"₹{' ' if lay.extra['mark_space'] else ''}" in flat(pages_of(render_pdf(INVOICES[SHORT], lay))[0])


def test_a_numeric_date_has_a_second_date_past_the_twelfth_on_page_one():
    seen = 0
    for lay in LAYOUTS[:120]:
        if not numeric_date(lay):
            continue
        seen += 1
        for number in (SHORT, CREDIT):
            inv = INVOICES[number]
            kind = lay.extra["kind"]
            if kind == "anz" and inv.is_credit:
                continue  # a credit note has no due date; its date is 01/12/2010 beside the seller's
            other = {"india": lambda: second_date(inv.date, lay.extra["days"]), "anz": lambda: due(inv, lay),
                     "us": lambda: second_date(inv.date, lay.extra["days"])}[kind]()
            assert other.day > 12 and other != inv.date
            assert lay.date(other) in flat(pages_of(render_pdf(inv, lay))[0][:1]), lay.seed
    assert seen >= 30


def test_a_long_invoice_repeats_the_heading_and_says_it_continues():
    inv = INVOICES[LONG]
    for lay in each_style(2):
        texts, words = pages_of(render_pdf(inv, lay))
        reading, m = truth(inv, lay), len(texts)
        assert m >= 3 and m == reading.pages
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)
        headings = {word for c in lay.columns for word in c.heading.split()}
        for n, (text, found) in enumerate(zip(texts, words), 1):
            assert lay.page_label.format(n=n, m=m) in text and inv.number in text, (lay.seed, n)
            assert (lay.continued.format(next=n + 1) in text) == (n < m), (lay.seed, n)
            assert n == 1 or lay.seller[0] in text and (lay.credit_title if inv.is_credit else lay.title) in text
            here = [line for line in reading.lines if line.page == n]
            if here:  # the heading row stands above the page's first item
                top = min(w[1] for w in found if w[4] == here[0].code.split()[0])
                assert headings <= {w[4] for w in found if w[3] < top}, (lay.seed, n)


def test_wrapped_descriptions_and_the_numbers_around_the_wanted_ones():
    inv = INVOICES["536591"]
    wrapped = set()
    for lay in each_style(2) + first(lambda x: x.extra["narrow"], 6):
        texts, words = pages_of(render_pdf(inv, lay))
        every = flat(texts)
        for row in rows(scratch(lay), inv, lay):
            line = inv.rows[row.index]
            if len(row.cells["description"]) > 1 + bool(lay.extra.get("code_under")):
                wrapped.add(lay.seed)
                assert line.description not in "\n".join(texts).splitlines()  # split over two printed lines
            if "ordered" in row.cells and "backorder" in row.cells:  # ordered = shipped + back ordered
                shipped = Decimal(row.cells["quantity"][0].rstrip("-"))
                owed = Decimal(row.cells["backorder"][0].rstrip("-") or 0)
                assert Decimal(row.cells["ordered"][0].rstrip("-")) == shipped + owed
        kind = lay.extra["kind"]
        if kind == "india":
            for label, value in details(inv, lay):
                assert label in every and value in every, (lay.seed, label)
            assert re.search(r"\b\d\d[A-Z]{5}\d{4}[A-Z]1Z[0-9A-Z]\b", every)  # a GSTIN
        elif kind == "us":
            for label, value in fields(inv, lay):
                assert label in every and value in every, (lay.seed, label)
            assert lay.labels["freight"].upper() in every.upper() and lay.money(Decimal("0.00")) in every
        else:
            assert re.search(r"\b(\d\d \d{3} \d{3} \d{3}|\d{3}-\d{3}-\d{3})\b", every)  # an ABN, a GST number
            assert lay.date(due(inv, lay)) in every
    assert len(wrapped) >= 6


def test_a_credit_note_is_labelled_and_prints_the_record_s_signs():
    inv, titles = INVOICES[CREDIT], set()
    for lay in LAYOUTS[:60]:
        texts, words = pages_of(render_pdf(inv, lay))
        every = flat(texts)
        label = lay.labels["credit_number"].upper() if lay.extra["style"] == "legacy" else lay.labels[
            "credit_number"]
        assert lay.credit_title in texts[0] and label in texts[0] and inv.number in texts[0]
        total = lay.money(inv.total(lay.tax_rate))
        assert total in every and re.search(r"^-|^\(.*\)$|-$| CR$", total), (lay.seed, total)
        if lay.extra["kind"] == "us":
            assert lay.labels["credit_total"].upper() in every.upper()
        titles.add(lay.credit_title.lower())
    assert {"credit note", "credit memo"} <= titles and titles & {"adjustment note", "tax credit note"}


def test_layouts_vary_with_the_seed_and_stay_in_the_vocabulary():
    lays = LAYOUTS
    assert {x.extra["market"] for x in lays} == {"IN", "AU", "NZ", "US", "CA"}
    assert {x.currency for x in lays} == {"INR", "AUD", "NZD", "USD", "CAD"}
    assert {(x.extra["kind"], x.extra["style"]) for x in lays} == {
        ("india", "tally"), ("india", "modern"), ("anz", "xero"), ("anz", "myob"), ("us", "form"), ("us", "legacy"),
        ("us", "modern")}
    assert {x.tax_rate for x in lays} >= {None, Decimal("0.18"), Decimal("0.12"), Decimal("0.05"), Decimal("0.10"),
                                          Decimal("0.15"), Decimal("0.0825"), Decimal("0.13"), Decimal("0.14975")}
    assert {x.negative for x in lays} == {"minus", "parens", "trailing", "cr"}
    assert {x.extra["head"] for x in lays} == {"shaded", "dark", "rule", "grid", "dashes"}
    assert {x.extra["rows"] for x in lays} == {"zebra", "rules", "plain", "grid"}
    assert {x.fonts[0] for x in lays} == {f[0] for f in FACES.values()}
    assert len({x.date_style for x in lays}) >= 10 and {x.page for x in lays} == {(595.28, 841.89), (612.0, 792.0)}
    assert any(x.extra.get("code_under") for x in lays) and any(x.extra.get("qty_unit") for x in lays)
    assert any(x.extra.get("narrow") for x in lays) and any(x.extra.get("summary") for x in lays)
    assert len({tuple(c.heading for c in x.columns) for x in lays}) >= 150
    assert len({tuple(c.key for c in x.columns) for x in lays}) >= 15
    assert set().union(*(x.wordings() for x in lays)) <= vocabulary("held-o")


def test_the_printed_labels_and_headings_are_in_the_vocabulary():
    words = vocabulary("held-o")
    assert {"tax invoice", "credit note", "hsn/sac", "place of supply", "gstin", "cgst @ 9%", "sgst @ 9%",
            "igst @ 18%", "total taxable value", "amount chargeable (in words)", "abn", "total gst 10%",
            "total aud", "total inc. gst", "gst 15%", "adjustment note", "sold to", "ship to", "customer no.",
            "p.o. number", "terms", "ship via", "qty ordered", "qty shipped", "back ordered", "item no.",
            "unit price", "extended price", "ext. amount", "sales tax 8.25%", "freight", "credit memo", "pst 7%",
            "qst (9.975%)", "hst @ 13%"} <= words
    for lay in each_style(3):
        inv = INVOICES[FRANCE if lay.seed % 2 else SHORT]
        every = flat(pages_of(render_pdf(inv, lay))[0]).lower()
        printed = [lay.title, lay.labels["invoice_number"], lay.labels["invoice_date"], lay.labels["subtotal"],
                   lay.labels["total"], *(c.heading for c in lay.columns),
                   *(lay.labels[f"tax_{k}"] for k in range(len(lay.extra["taxes"])))]
        for text in printed:
            assert text.lower() in words and " ".join(text.lower().split()[:1]) in every, (lay.seed, text)


def clashes(page) -> list[tuple[str, str]]:
    """The pairs of words on ``page`` whose boxes overlap: by more than a hair across and a quarter of the lower
    word's height down."""
    words = page.get_text("words")
    x0, y0, x1, y1 = np.array([w[:4] for w in words]).T
    across = np.minimum.outer(x1, x1) - np.maximum.outer(x0, x0)
    down = np.minimum.outer(y1, y1) - np.maximum.outer(y0, y0)
    hit = np.triu((across > 0.8) & (down > 0.25 * np.minimum.outer(y1 - y0, y1 - y0)), 1)
    return [(words[i][4], words[j][4]) for i, j in zip(*hit.nonzero())]


def test_no_text_overlaps_other_text_or_leaves_the_page():
    """What a reader sees is legible: no word's box runs into another's or over the paper's edge."""
    for lay in each_style(3):
        for number in (CREDIT, "536591", "536381"):
            with pymupdf.open(stream=render_pdf(INVOICES[number], lay), filetype="pdf") as doc:
                for page in doc:
                    assert not clashes(page), (lay.seed, number, page.number, clashes(page)[:3])
                    inside = page.rect + (5, 2, -5, -2)
                    assert all(pymupdf.Rect(w[:4]) in inside for w in page.get_text("words")), (lay.seed, number)


def test_rendering_is_deterministic_for_a_seed():
    inv = INVOICES[CREDIT]
    assert layout(5, "held-o") == layout(5, "held-o") != layout(6, "held-o")
    assert render_pdf(inv, layout(5, "held-o")) == render_pdf(inv, layout(5, "held-o"))
    assert render_pdf(inv, layout(5, "held-o")) != render_pdf(inv, layout(6, "held-o"))
