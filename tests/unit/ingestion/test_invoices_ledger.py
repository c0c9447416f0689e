"""Invoices that print, beside the values the reader returns, others of the same type (the ``dev-e`` family): a due
date, an order number, a column counting the lines, a tax-rate column, the customer's address, the seller's bank
details under the totals, column headings over two lines. Each is drawn from the real records and read back."""

from __future__ import annotations

import datetime as dt

from evaluation.invoice_layouts import UNKNOWN, layout
from ingestion.invoices.header import read_header
from ingestion.invoices.vocab import LABELS, norm
from ingestion.invoices.words import row_key
from tests.support.invoices import first_seed, read_back, word_row



def _seed(test) -> int:
    """The first dev-e layout seed for which ``test(layout)`` holds."""
    return first_seed("dev-e", test)


def _before(lay, first: str, second: str) -> bool:
    order = lay.extra["field_order"]
    return order.index(first) < order.index(second)


def _heading(lay, key: str) -> str:
    return next(c.heading for c in lay.columns if c.key == key)


def test_a_due_date_printed_before_the_invoice_date_is_not_taken_for_it():
    # "Date" is the invoice date's label; "Due date" holds it, and is a label of its own.
    seed = _seed(lambda lay: lay.labels["due_date"] == "Due date" and _before(lay, "due_date", "invoice_date"))
    reading = read_back("536365", layout(seed, "dev-e"))
    assert reading.fields.invoice_date == dt.date(2010, 12, 1) and not reading.needs_review


def test_an_order_number_whose_label_no_vocabulary_holds_is_not_the_invoice_number():
    assert ("your", "order") not in LABELS and ("pay", "by") not in LABELS
    seed = _seed(lambda lay: lay.labels["order_number"] == "Your order" and _before(lay, "order_number",
                                                                                     "invoice_number")
                 and lay.labels["invoice_number"] in UNKNOWN["invoice_number"])
    reading = read_back("536365", layout(seed, "dev-e"))
    assert reading.fields.invoice_number == "536365" and not reading.needs_review


def test_a_due_date_whose_label_no_vocabulary_holds_is_not_the_invoice_date():
    seed = _seed(lambda lay: lay.labels["due_date"] == "Pay by" and _before(lay, "due_date", "invoice_date")
                 and lay.labels["invoice_date"] in UNKNOWN["invoice_date"])
    assert not read_back("536365", layout(seed, "dev-e")).needs_review


def test_a_column_counting_the_lines_is_not_read_as_the_code():
    # Both are whole numbers under headings the reader does not know ("#", "Model"); the codes are read.
    seed = _seed(lambda lay: lay.columns[0].key == "line_no" and _heading(lay, "code") in UNKNOWN["code"]
                 and norm(_heading(lay, "line_no")) not in {"item", "code"})
    reading = read_back("536365", layout(seed, "dev-e"))
    assert [ln.code for ln in reading.lines][:2] == ["85123A", "71053"] and not reading.needs_review


def test_a_tax_rate_column_is_not_the_unit_price():
    # "Rate" is a unit price heading: "Tax rate" and "Rate %" are not.
    seed = _seed(lambda lay: any(c.key == "vat_rate" and c.heading in ("Tax rate", "Rate %") for c in lay.columns))
    reading = read_back("536365", layout(seed, "dev-e"))
    assert reading.lines[0].unit_price is not None and not reading.needs_review


def test_headings_printed_over_two_lines_are_read_as_one():
    seed = _seed(lambda lay: lay.extra["stacked"] and " " in _heading(lay, "unit_price")
                 and " " in _heading(lay, "amount"))
    assert not read_back("536365", layout(seed, "dev-e")).needs_review


def test_the_sellers_bank_account_is_not_the_customer_and_the_address_postcode_neither():
    # 536414 has no customer: the account number after "Account no." in the bank details under the totals, and
    # the 5-digit postcode in "Boston MA 02110", must not be read as one. The postcode, a number one space after a
    # word, could be an unknown label's value: the reader says so instead of taking it or keeping quiet.
    seed = _seed(lambda lay: "Account no." in lay.extra["bank"] and "Boston MA 02110" in lay.extra["address"])
    reading = read_back("536414", layout(seed, "dev-e"))
    assert reading.fields.customer_id is None
    doubts = [c.detail for c in reading.checks if "customer" in c.name]
    assert len(doubts) == 1 and "'02110'" in doubts[0] and reading.needs_review
    other = _seed(lambda lay: "Account no." in lay.extra["bank"] and "Boston" not in " ".join(lay.extra["address"]))
    reading = read_back("536414", layout(other, "dev-e"))
    assert not any("customer" in c.name for c in reading.checks)


_row = word_row


def test_a_label_known_only_by_its_last_word_gives_its_value_with_a_doubt():
    # "Final total" is in no vocabulary: its value is taken for the total, and the reader says so.
    rows = [_row(100, "Invoice", "No.:", "536365"), _row(115, "Final", "total:", "12.60")]
    fields, _, _, _, doubts = read_header(rows, set())
    assert str(fields.total) == "12.60"
    assert [name for name, _ in doubts] == ["total read from a label not known"]
    known = rows + [_row(130, "Total:", "14.60")]
    fields, _, _, _, doubts = read_header(known, set())
    assert str(fields.total) == "14.60" and doubts == []  # a known label names it: the guess is not needed


def test_a_header_field_labelled_only_below_the_items_is_read_and_doubted():
    rows = [_row(100, "Invoice", "No.:", "536365"), _row(130, "Code", "Qty", "Amount"),
            _row(200, "Account", "no.:", "12345678")]
    fields, _, _, _, doubts = read_header(rows, {row_key(rows[1])})
    assert fields.customer_id == "12345678"
    assert [name for name, _ in doubts] == ["customer ID read below the items"]
    bank = rows[:2] + [_row(200, "Sort", "code:", "30-94-57", "Account", "no.:", "12345678")]
    fields, _, _, _, doubts = read_header(bank, {row_key(rows[1])})
    assert fields.customer_id is None and doubts == []  # beside a sort code: bank details


def test_a_field_two_labels_name_with_different_values_is_doubted():
    rows = [_row(100, "Date:", "2010-12-01"), _row(115, "Invoice", "date:", "2010-12-05")]
    fields, _, _, _, doubts = read_header(rows, set())
    assert fields.invoice_date == dt.date(2010, 12, 1)
    assert [name for name, _ in doubts] == ["invoice date told apart"]
    same = [_row(100, "Date:", "2010-12-01"), _row(115, "Invoice", "date:", "2010-12-01")]
    assert read_header(same, set())[4] == []


def test_a_line_counter_is_no_quantity_and_a_quantity_priced_0_00_is_a_doubted_guess():
    from ingestion.invoices.columns import Column, assign_roles

    def roles(rows, first=1, code=None):
        cols = [Column("code" if k == code else None, 0, 1, []) for k in range(len(rows[0]))]
        return assign_roles(cols, rows, first=first), [c.role for c in cols]
    # The counter runs 1, 2 (and on a later page on from the lines before): not the quantity, not the code.
    rows = [["1", "1", "22632", "HAND WARMER", "1.85", "1.85"], ["2", "16", "21135", "POSTCARD", "1.69", "27.04"]]
    assert roles(rows) == (True, ["line_no", "quantity", "code", "description", "unit_price", "amount"])
    assert roles([["8", *rows[0][1:]], ["9", *rows[1][1:]]], first=8)[1][0] == "line_no"
    # A line priced 0.00 with its quantity misread: any whole number x 0.00 = 0.00, so taking the counter's 1 for
    # the quantity is a guess a reviewer must see; so is choosing between two columns of whole numbers.
    ok, got = roles([["1", "-1O", "21777", "0.00", "0.00"]], code=2)
    assert not ok and got[0] == "quantity" and got[3:] == ["unit_price", "amount"]
    assert not roles([["6", "-1O", "21777", "0.00", "0.00"]])[0]
    assert roles([["1", "-10", "21777", "0.00", "0.00"]], code=2) == (
        True, ["line_no", "quantity", "code", "unit_price", "amount"])  # the counter is no quantity
