"""What the reader cannot be sure of is said, not guessed silently: a known label whose value it cannot read, a
value after a label of its own that no field took, amounts in two currencies, a column of units beside the codes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ingestion.invoices.columns import Column, assign_roles
from ingestion.invoices.read import interpret
from ingestion.invoices.words import Word
from tests.support.invoices import word_row


_row = word_row


def _failed(reading) -> dict[str, str]:
    return {c.name: c.detail for c in reading.checks if not c.passed}


TOTALS = [_row(300, "Total:", "£12.60")]


def test_a_date_label_whose_value_cannot_be_read_makes_a_date_found_elsewhere_a_doubt():
    # "Date:" is printed, but with a date this reader does not read; the only date it reads is another label's.
    rows = [_row(100, "Invoice", "No.:", "536365"), _row(115, "Date:", "Wed", "the", "1st"),
            _row(130, "Settle", "by:", "2010-12-31"), *TOTALS]
    reading = interpret([rows], 1)
    assert reading.fields.invoice_date == dt.date(2010, 12, 31) and reading.needs_review
    assert "2010-12-31, found elsewhere, was taken" in _failed(reading)["invoice date read elsewhere"]
    readable = [rows[0], _row(115, "Date:", "1", "Dec", "2010"), *rows[2:]]
    reading = interpret([readable], 1)
    assert reading.fields.invoice_date == dt.date(2010, 12, 1)
    assert "invoice date read elsewhere" not in _failed(reading)


def test_a_labelled_value_no_field_took_makes_a_field_found_without_its_label_a_doubt():
    # "Job:" and "Our ref.:" are labels no vocabulary holds; the number after "Job:" has the invoice number's
    # shape and is taken, but "INV/536365" may be the invoice number printed in a form the reader does not read.
    rows = [_row(100, "Our", "ref.:", "INV/536365"), _row(115, "Job:", "536999"), _row(130, "Date:", "2010-12-01"),
            _row(145, "Customer:", "12583"), *TOTALS]
    reading = interpret([rows], 1)
    assert reading.fields.invoice_number == "536999" and reading.needs_review
    assert "'ref.: INV/536365' is read as no field" in _failed(reading)["header values told apart"]
    assert "invoice number was found without its label" in _failed(reading)["header values told apart"]
    reading = interpret([rows[1:]], 1)
    assert reading.fields.invoice_number == "536999"
    assert "header values told apart" not in _failed(reading)


def test_a_labelled_value_no_field_took_is_a_doubt_when_no_customer_was_found():
    rows = [_row(100, "Invoice", "No.:", "536365"), _row(115, "Date:", "2010-12-01"),
            _row(130, "Sold", "to:", "C-12583"), *TOTALS]
    reading = interpret([rows], 1)
    assert reading.fields.customer_id is None
    assert "no customer was found" in _failed(reading)["header values told apart"]
    known = [*rows[:2], _row(130, "Customer:", "12583"), *TOTALS]
    assert "header values told apart" not in _failed(interpret([known], 1))


def test_amounts_in_two_currencies_are_a_doubt():
    rows = [_row(100, "Invoice", "No.:", "536365"), _row(115, "Date:", "2010-12-01"),
            _row(280, "Subtotal:", "€12.60"), *TOTALS]
    reading = interpret([rows], 1)
    assert reading.needs_review and "2 currencies (EUR, GBP)" in _failed(reading)["currency told apart"]
    same = [*rows[:2], _row(280, "Subtotal:", "£12.60"), *TOTALS]
    assert "currency told apart" not in _failed(interpret([same], 1))


def test_a_column_of_units_beside_the_codes_is_not_read_as_the_code():
    def roles(rows):
        cols = [Column(None, 0, 1, []) for _ in rows[0]]
        assign_roles(cols, rows, first=1)
        return [c.role for c in cols]
    rows = [["HAND WARMER", "EA", "6", "1.85", "11.10", "22632"], ["POSTCARD", "EA", "16", "1.69", "27.04", "21135"],
            ["CAKE CASES", "BOX", "24", "0.55", "13.20", "21212"], ["TEA MUG", "EA", "6", "1.25", "7.50", "22629"]]
    assert roles(rows) == ["description", None, "quantity", "unit_price", "amount", "code"]
    # The same token on every line is no code even when it is the only code-like column.
    assert "code" not in roles([[r[0], "EA", *r[2:5]] for r in rows])
    # Under three lines, one repeated code is still a code: a product can be on an invoice twice.
    assert roles([["TEA MUG", "22632", "6", "1.85", "11.10"]] * 2)[1] == "code"


def _cells(y: float, *cells: tuple[float, str]) -> list[Word]:
    return [w for x, text in cells for w in _row(y, *text.split(), x=x)]


def _item(y: float, code: str, text: str, qty: str, price: str, amount: str) -> list[Word]:
    return _cells(y, (50, code), (110, text), (320, qty), (360, price), (420, amount))


def test_a_row_of_words_under_a_short_line_is_doubted_not_silently_joined_to_its_description():
    head = [_row(60, "Invoice", "No.:", "536365"), _row(75, "Date:", "2010-12-01"),
            _cells(100, (50, "Code"), (110, "Description"), (320, "Qty"), (360, "Price"), (420, "Amount"))]
    wrapped = _item(115, "22632", "HAND WARMER UNION JACK RED", "6", "1.85", "11.10")
    lines = [wrapped, _cells(128, (110, "SPOT")), _item(141, "21135", "POSTCARD", "16", "1.69", "27.04"),
             _cells(154, (110, "Gift wrapped")), _row(180, "Total:", "£38.14")]
    reading = interpret([head + lines], 1)
    assert [ln.description for ln in reading.lines] == ["HAND WARMER UNION JACK RED SPOT", "POSTCARD Gift wrapped"]
    failed = _failed(reading)
    # "SPOT" did not fit after the longest description: a wrap. "Gift" would have fit after "POSTCARD": a note?
    assert "line 1: description joined" not in failed and reading.needs_review
    assert "line 2 (page 1)" in failed["line 2: description joined"]


def test_a_word_running_across_a_column_edge_is_doubted():
    head = [_row(60, "Invoice", "No.:", "536365"), _row(75, "Date:", "2010-12-01"),
            _cells(100, (50, "Code"), (110, "Description"), (300, "Qty"), (360, "Price"), (420, "Amount"))]
    lines = [_item(115, "22632", "MUG", "6", "1.85", "11.10"),
             _cells(128, (50, "21135"), (110, "CHRISTMAS-DECORATIONS-IN-A-TIN-BOXED"), (330, "16"), (360, "1.69"),
                    (420, "27.04")), _row(160, "Total:", "£38.14")]  # the word runs past the "Qty" heading
    reading = interpret([head + lines], 1)
    doubt = _failed(reading)["line 2: column edge told apart"]
    assert "'CHRISTMAS-DECORATIONS-IN-A-TIN-BOXED' (page 1) runs across" in doubt
    fitting = [lines[0], _cells(128, (50, "21135"), (110, "DECORATIONS"), (330, "16"), (360, "1.69"), (420, "27.04")),
               lines[2]]
    assert not any("column edge" in name for name in _failed(interpret([head + fitting], 1)))


def test_a_code_and_description_printed_in_one_column_are_read_apart():
    top = [_row(60, "Invoice", "No.:", "536365"), _row(75, "Date:", "2010-12-01")]
    end = [_row(180, "Total:", "£38.14")]

    def lines(heading: str, first: str, second: str):
        head = _cells(100, (50, heading), (320, "Qty"), (360, "Price"), (420, "Amount"))
        rows = [_cells(115, (50, first), (320, "6"), (360, "1.85"), (420, "11.10")), _cells(128, (50, "JACK")),
                _cells(141, (50, second), (320, "16"), (360, "1.69"), (420, "27.04"))]
        reading = interpret([top + [head] + rows + end], 1)
        return [(ln.code, ln.description) for ln in reading.lines]
    # "Item" names the code; its cells hold the description too, wrapped onto a row of its own.
    expected = [("22632", "HAND WARMER UNION JACK"), ("21135", "POSTCARD")]
    assert lines("Item", "22632 HAND WARMER UNION", "21135 POSTCARD") == expected
    # "Description" over codes printed first, a dash between.
    assert lines("Description", "22632 - HAND WARMER UNION", "21135 - POSTCARD") == expected
    # Descriptions that start with a count are descriptions: no code is made of "3".
    assert lines("Description", "3 HAND WARMERS UNION", "21135 POSTCARD")[0] == (None, "3 HAND WARMERS UNION JACK")


def test_a_date_in_numbers_that_read_two_ways_is_read_as_the_document_states_or_doubted():
    def read(label: str, date: str):
        reading = interpret([[_row(100, "Invoice", "No.:", "536365"), _row(115, *label.split(), date), *TOTALS]], 1)
        failed = _failed(reading)
        assert "invoice date read elsewhere" not in failed  # the stated order is no value: the date follows it
        return reading.fields.invoice_date, failed.get("invoice date told apart")
    assert read("Date (MM/DD/YYYY):", "12/01/2010") == (dt.date(2010, 12, 1), None)
    assert read("Date (dd/mm/yyyy):", "01/12/2010") == (dt.date(2010, 12, 1), None)
    taken, doubt = read("Date:", "01/12/2010")
    assert taken == dt.date(2010, 12, 1) and "01 December 2010 day first and 12 January 2010 month first" in doubt
    assert read("Date:", "13/12/2010") == (dt.date(2010, 12, 13), None)  # no month 13: one way only


def test_a_customer_number_under_a_label_naming_no_customer_is_a_doubt():
    # No label the reader knows names the customer; the one lone number under a label is taken either way, but
    # "Job:" names no customer, client, buyer or account, as "Debtor ref.:" does.
    items = [_row(200, "Code", "Description", "Qty", "Price", "Amount"),
             _row(215, "22632", "MUG", "2", "1.25", "2.50")]
    head = [_row(100, "Invoice", "No.:", "536365"), _row(115, "Date:", "2010-12-01"),
            _row(130, "Country:", "France")]
    reading = interpret([[*head, _row(145, "Job:", "12583"), *items, *TOTALS]], 1)
    assert reading.fields.customer_id == "12583"
    assert "its label names no customer" in _failed(reading)["customer ID told apart"]
    reading = interpret([[*head, _row(145, "Debtor", "ref.:", "12583"), *items, *TOTALS]], 1)
    assert reading.fields.customer_id == "12583" and "customer ID told apart" not in _failed(reading)


def test_a_label_the_recogniser_split_into_pieces_still_names_its_field():
    # A scan's letter-spaced grid labels come back from OCR in pieces ("ACCOUN T NO.", "DELIV ERY COUNTRY"): the
    # customer number under the first is still under a customer label, and "Kingdom" under the second's "COUNTRY"
    # is part of the country read, not a rival to it.
    def row(y, *cells):
        return [Word(t, x0, y - 5, x1, y + 5, 1, ocr=True) for t, x0, x1 in cells]
    head = [row(100, ("ACCOUN", 53, 83), ("T", 84, 90), ("NO.", 90, 104), ("INVOICE", 301, 332), ("#", 334, 339)),
            row(112, ("15574", 52, 79), ("536796", 301, 332)),
            row(130, ("DELIV", 52, 75), ("ERY", 75, 90), ("COUNTRY", 92, 129), ("DATE", 301, 323)),
            row(142, ("United", 52, 82), ("Kingdom", 86, 123), ("02.12.2010", 301, 346))]
    items = [_row(200, "Code", "Description", "Qty", "Price", "Amount"),
             _row(215, "22632", "MUG", "2", "1.25", "2.50"), _row(300, "Total:", "£2.50")]
    reading = interpret([[*head, *items]], 1)
    assert (reading.fields.customer_id, reading.fields.country) == ("15574", "United Kingdom")
    assert "customer ID told apart" not in _failed(reading) and "country told apart" not in _failed(reading)


def test_an_amount_above_the_items_no_label_names_is_a_doubt_when_a_total_is_missing():
    # A summary box over the items prints the goods' value under a label no vocabulary holds ("Wares value"); the
    # total is labelled. The subtotal is then missing, and the amount that may be it is named, not taken.
    head = [_row(100, "Invoice", "No.:", "536365"), _row(115, "Date:", "2010-12-01"),
            _row(130, "Customer:", "12583"), _row(145, "Country:", "France"),
            _row(160, "Wares", "value", "£2.50"), _row(175, "Total:", "£2.50")]
    items = [_row(200, "Code", "Description", "Qty", "Price", "Amount"),
             _row(215, "22632", "MUG", "2", "1.25", "2.50")]
    reading = interpret([[*head, *items]], 1)
    assert reading.fields.total == Decimal("2.50") and reading.fields.subtotal is None and reading.needs_review
    assert "'£2.50' (page 1) is an amount above the items" in _failed(reading)["totals told apart"]
    # With the subtotal labelled, the same page has nothing to doubt there.
    known = [*head[:4], _row(160, "Subtotal:", "£2.50"), head[5], *items]
    reading = interpret([known], 1)
    assert reading.fields.subtotal == Decimal("2.50") and "totals told apart" not in _failed(reading)
