"""Invoices whose labels and headings the reader's vocabulary does not hold (the ``dev-d`` family): columns found
from the rows under them, totals and the customer's number by elimination, the currency from a field or the total's
label, negatives printed after the number."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from core.invoices import InvoiceFields
from evaluation.invoice_layouts import UNKNOWN, layout
from ingestion.invoices.checks import run_checks
from ingestion.invoices.read import interpret
from ingestion.invoices.table import read_table
from ingestion.invoices.vocab import HEADINGS, LABELS, norm
from ingestion.invoices.words import Word
from tests.support.invoices import first_seed, read_back

TOTALS = ("subtotal", "tax", "total")


def _seed(test) -> int:
    """The first dev-d layout seed for which ``test(layout)`` holds."""
    return first_seed("dev-d", test)


def _unknown(lay, *names) -> bool:
    return all(lay.labels.get(n) in UNKNOWN[n] for n in names)


def test_the_family_s_unknown_wordings_are_not_in_the_readers_vocabulary():
    known = set(LABELS) | set(HEADINGS)
    for role, phrases in UNKNOWN.items():
        for phrase in phrases:
            assert tuple(norm(w) for w in phrase.split()) not in known, (role, phrase)


def test_headings_none_of_which_is_known_get_their_roles_from_the_rows():
    # Code digits and quantities are both whole numbers: the quantity is the column for which qty x price = amount.
    def w(text, x0, x1, y):
        return Word(text, x0, y - 5, x1, y + 5, 1)
    rows = [[w("Shipped", 50, 85, 100), w("Name", 95, 120, 100), w("Model", 300, 330, 100), w("Tariff", 380, 410, 100),
             w("Worth", 450, 480, 100)]]
    items = [("6", "HAND WARMER", "22632", "1.85", "11.10"), ("12", "PAPER CHAIN KIT", "22910", "2.55", "30.60"),
             ("1", "DOLLY GIRL BOX", "22630", "1.95", "1.95")]
    for k, (qty, text, code, price, amount) in enumerate(items):
        y = 120 + 16 * k
        words = text.split()
        rows.append([w(qty, 78, 85, y), *(w(t, 95 + 40 * i, 130 + 40 * i, y) for i, t in enumerate(words)),
                     w(code, 300, 328, y), w(price, 390, 410, y), w(amount, 455, 480, y)])
    rows.append([w("Lines", 380, 405, 180), w("43.65", 455, 480, 180)])  # a total whose label is not known
    lines = read_table([rows]).lines
    assert [(ln.code, ln.description, ln.quantity, ln.unit_price, ln.amount) for ln in lines] == [
        (code, text, Decimal(qty), Decimal(price), Decimal(amount)) for qty, text, code, price, amount in items]


def test_a_heading_ocr_read_as_one_with_its_neighbour_is_split_where_the_rows_show_two_columns():
    def w(text, x0, x1, y):
        return Word(text, x0, y - 7, x1, y + 7, 1, True)
    rows = [[w("Shipped", 53, 97, 100), w("Name", 102, 127, 100), w("Model", 394, 427, 100), w("Unit", 443, 462, 100),
             w("price", 467, 491, 100), w("Line", 496, 515, 100), w("total", 520, 544, 100)]]
    items = [("1", "CLASSIC BASKET", "21794", "6.75", "6.75"), ("16", "SMALL GIFT BAG", "21292", "0.85", "13.60"),
             ("2", "CARD HOLDER", "22588", "2.55", "5.10")]
    for k, (qty, text, code, price, amount) in enumerate(items):
        y = 125 + 20 * k
        words = text.split()
        rows.append([w(qty, 92 - 6 * len(qty), 91, y), *(w(t, 97 + 45 * i, 137 + 45 * i, y) for i, t in enumerate(words)),
                     w(code, 393, 426, y), w(price, 467, 494, y), w(amount, 520, 544, y)])
    lines = read_table([rows]).lines
    assert [(ln.code, ln.quantity) for ln in lines] == [(code, Decimal(qty)) for qty, _, code, _, _ in items]


def test_totals_with_labels_not_known_are_read_by_size_and_checked():
    seed = _seed(lambda lay: _unknown(lay, *TOTALS) and lay.tax_rate is not None)
    reading = read_back("536365", layout(seed, "dev-d"))
    assert reading.fields.tax and reading.fields.subtotal + reading.fields.tax == reading.fields.total
    assert not reading.needs_review


def test_a_customer_number_with_a_label_not_known_is_read_and_not_invented_without_one():
    seed = _seed(lambda lay: _unknown(lay, "customer_id"))
    assert read_back("536365", layout(seed, "dev-d")).fields.customer_id == "17850"
    assert read_back("536414", layout(seed, "dev-d")).fields.customer_id is None  # no customer on this invoice


@pytest.mark.parametrize("place", ["field", "total"])
def test_a_currency_named_only_by_a_header_field_or_the_totals_label(place):
    seed = _seed(lambda lay: lay.mark_place == place)
    lay = layout(seed, "dev-d")
    assert read_back("536365", lay).fields.currency == lay.currency


@pytest.mark.parametrize("negative", ["parentheses", "minus after", "CR after"])
def test_a_credit_note_s_negatives_printed_after_the_number(negative):
    seed = _seed(lambda lay: lay.negative == negative)
    reading = read_back("C536548", layout(seed, "dev-d"))
    assert reading.fields.total < 0 and all(ln.quantity < 0 for ln in reading.lines)


def test_a_line_priced_zero_under_unknown_headings_asks_which_column_is_the_quantity():
    # 23 x 0.00 = 0.00 and 84670 x 0.00 = 0.00: either column of whole numbers could be the quantity.
    def w(text, x0, x1, y):
        return Word(text, x0, y - 5, x1, y + 5, 1)
    rows = [[w("Model", 50, 80, 100), w("Name", 120, 145, 100), w("Shipped", 300, 335, 100),
             w("Charge", 380, 410, 100), w("Worth", 450, 480, 100)],
            [w("84670", 50, 78, 120), w("TEDDY", 120, 150, 120), w("23", 325, 335, 120), w("0.00", 390, 410, 120),
             w("0.00", 460, 480, 120)]]
    table = read_table([rows])
    assert len(table.lines) == 1 and [name for name, _ in table.doubts] == ["columns of page 1 told apart"]
    reading = interpret([rows], 1)
    assert reading.needs_review and "columns of page 1 told apart" in [c.name for c in reading.checks if not c.passed]


def test_a_country_that_is_no_country_name_is_flagged_not_passed_on():
    # A label's words beside "Country" (a header whose values stand under the labels) read as the country.
    fields = InvoiceFields("536365", dt.date(2010, 12, 1), country="Posting day", currency="GBP", total=Decimal("1"))
    checks, review = run_checks(fields, [])
    assert review and [c.name for c in checks if not c.passed] == ["country read"]


def test_a_field_taken_from_several_different_unlabelled_values_is_flagged():
    # No known label: the seller's country and another, two dates; each first one taken and doubted.
    from ingestion.invoices.leftovers import eliminate

    def row(y, *texts):
        return [Word(t, 50 + 80 * i, y - 5, 110 + 80 * i, y + 5, 1) for i, t in enumerate(texts)]
    rows = [row(100, "Hartwell", "Gifts", "France"), row(115, "Made", "in:", "Germany"),
            row(130, "Raised", "on:", "2010-12-01"), row(145, "Stamped:", "2010-12-31"), row(160, "Folio:", "536365")]
    fields, boxes = InvoiceFields(), {}
    doubts = eliminate(fields, boxes, rows, set())
    assert (fields.country, fields.invoice_date, fields.invoice_number) == ("France", dt.date(2010, 12, 1), "536365")
    assert [name for name, _ in doubts] == ["invoice date told apart", "country told apart"]
    # The country of the lines that say whom the goods go to is the customer's, not the sender's: no doubt.
    rows[1] = row(190, "Deliver", "to:", "Germany")  # an address block of its own, under the others
    fields, boxes = InvoiceFields(), {}
    doubts = eliminate(fields, boxes, rows, set())
    assert fields.country == "Germany" and [name for name, _ in doubts] == ["invoice date told apart"]


def test_a_value_whose_unknown_label_names_an_order_or_a_due_date_is_no_candidate():
    # "Pay by" and "Your order" are in no vocabulary, but their words say whose values they are: the invoice's
    # date and number are told apart from them, and the order number is not taken for the customer's.
    from ingestion.invoices.leftovers import eliminate
    from ingestion.invoices.words import row_key

    def row(y, *texts):  # a block of labels, the values in a column of their own
        *label, value = texts
        return [Word(t, 50 + 40 * i, y - 5, 85 + 40 * i, y + 5, 1) for i, t in enumerate(label)] + [
            Word(value, 200, y - 5, 260, y + 5, 1)]
    rows = [row(100, "Pay", "by:", "2010-12-31"), row(115, "Raised", "on:", "2010-12-01"),
            row(130, "Your", "order:", "719965"), row(145, "Folio:", "536365"), row(160, "Code", "Item", "Qty")]
    fields, boxes = InvoiceFields(), {}
    doubts = eliminate(fields, boxes, rows, {row_key(rows[-1])})  # the last row is the table's heading
    assert (fields.invoice_date, fields.invoice_number, fields.customer_id) == (dt.date(2010, 12, 1), "536365", None)
    assert doubts == []
