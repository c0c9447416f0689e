"""What business systems print when one form serves several markets, read from real PDFs (ReportLab): labels in two
languages over their values ("Laskun nro / Invoice no."), a tax rate inside the tax's label ("MwSt. 19 % / VAT 19 %"),
the sender's country in its letterhead above the customer's in the address block, a line's position printed under
the code's heading, a code in square brackets before the product's name, headings over two lines with single-line
ones beside them (``Total`` over ``price``, ``Unit`` over ``Net``), the tax number in the letterhead and the
invoice's number in its title, dollars marked by their country (``A$``), and totals labelled over their values in
two languages. Each is read as a person reads it."""

from __future__ import annotations

from decimal import Decimal

from ingestion.invoices.read import read_invoice
from tests.unit.ingestion.test_invoices_shop import _failed, _lines, _pdf, _totals

ITEMS = [("22632", "HAND WARMER RED POLKA DOT", "6", "1.85", "11.10"),
         ("22633", "HAND WARMER UNION JACK", "6", "1.85", "11.10")]
LINES = [("22632", "HAND WARMER RED POLKA DOT", 6, Decimal("1.85"), Decimal("11.10")),
         ("22633", "HAND WARMER UNION JACK", 6, Decimal("1.85"), Decimal("11.10"))]
PLACES = ((40, False), (120, False), (380, True), (450, True), (550, True))


def _table(y: float = 280, items=ITEMS, places=PLACES) -> list[tuple[float, float, str, bool]]:
    heads = [(40, y - 20, "Code", False), (120, y - 20, "Description", False), (380, y - 20, "Qty", True),
             (450, y - 20, "Price", True), (550, y - 20, "Amount", True)]
    return heads + [(x, y + 14 * k, v, right) for k, item in enumerate(items) for (x, right), v in zip(places, item)]


def test_a_rate_printed_in_the_tax_label_is_not_the_tax():
    for label in ("MwSt. 19 % / VAT 19 %", "VAT 19%:", "Value added tax 19 %"):
        reading = read_invoice(_pdf(_table() + _totals(330, "22.20", rows=[(label, "4.22")])[:-2] +
                                    [(400, 358, "Total:", False), (550, 358, "26.42", True)]), "i.pdf")
        assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
            Decimal("22.20"), Decimal("4.22"), Decimal("26.42")), label
        assert not reading.needs_review, (label, _failed(reading))


def test_bilingual_labels_over_their_values_are_read_from_under_the_whole_label():
    """The value under "Laskun nro / Invoice no." starts under the label's first language, left of the word the
    vocabulary knows; it is the label's, not a value found elsewhere."""
    header = [(40, 60, "Päiväys / Date"), (160, 60, "Laskun nro / Invoice no."),
              (300, 60, "Asiakas nro / Customer no."), (440, 60, "Toimitusmaa / Country of delivery"), (40, 72, "01.12.2010"), (160, 72, "536416"),
              (300, 72, "13255"), (440, 72, "United Kingdom"), (40, 90, "Currency: EUR")]
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=header), "i.pdf")
    f = reading.fields
    assert (f.invoice_number, f.customer_id, f.country, str(f.invoice_date)) == (
        "536416", "13255", "United Kingdom", "2010-12-01")
    assert not reading.needs_review, _failed(reading)


def test_the_customers_country_is_taken_over_the_senders_in_its_letterhead():
    header = [(40, 40, "Harbor & Vine Trading Co."), (40, 52, "880 Industrial Way"), (40, 64, "Secaucus, NJ 07094"),
              (40, 76, "United States"), (40, 88, "Phone 201-555-3383"), (40, 130, "Invoice no: 536600"),
              (40, 142, "Invoice date: 2010-12-02"), (40, 154, "Currency: USD"),
              (300, 130, "Bill To"), (300, 142, "Customer #: 17850"), (300, 154, "Pennine Home Stores"),
              (300, 166, "United Kingdom")]
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=header), "i.pdf")
    assert reading.fields.country == "United Kingdom"
    assert not reading.needs_review, _failed(reading)
    unsure = [row for row in header if row[2] not in ("Bill To", "Phone 201-555-3383", "Customer #: 17850")] + [
        (40, 166, "Customer #: 17850")]  # no line says whose either address is
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=unsure), "i.pdf")
    assert "country told apart" in _failed(reading)


def test_a_lines_position_under_the_codes_heading_is_not_part_of_the_code():
    """``Item no.`` over ``1  22632``: the position counts the lines, the code follows it."""
    items = [(str(k + 1),) + item for k, item in enumerate(ITEMS)]
    heads = [(40, 260, "Item no.", False), (120, 260, "Description", False), (380, 260, "Qty", True),
             (450, 260, "Price", True), (550, 260, "Amount", True)]
    rows = [(x, 280 + 14 * k, v, right) for k, item in enumerate(items) for (x, right), v in
            zip(((45, True), (60, False), *PLACES[1:]), item)]
    reading = read_invoice(_pdf(heads + rows + _totals(330, "22.20")), "i.pdf")
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)


def test_a_code_in_square_brackets_before_the_name_is_the_code():
    heads = [(40, 260, "Product", False), (380, 260, "Qty", True), (450, 260, "Price", True),
             (550, 260, "Amount", True)]
    rows = [(x, 280 + 14 * k, v, right) for k, (code, name, *numbers) in enumerate(ITEMS)
            for x, v, right in ((40, f"[{code}] {name}", False), *zip((380, 450, 550), numbers, (True,) * 3))]
    reading = read_invoice(_pdf(heads + rows + _totals(330, "22.20")), "i.pdf")
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)
    assert reading.boxes["lines[0].code"].x1 < reading.boxes["lines[0].description"].x0  # each its own box


def test_headings_over_two_lines_beside_headings_of_one_line():
    """``Article`` over ``no.``, ``Item`` over ``description`` and ``Total`` over ``price``, with ``Quantity``,
    ``Unit`` and ``Price`` on the lower line alone; and ``Unit`` over ``Net``, the price of one, beside ``Net``."""
    heads = [(120, 250, "Article", False), (200, 250, "Item", False), (550, 250, "Total", True),
             (40, 262, "Quantity", False), (80, 262, "Unit", False), (120, 262, "no.", False),
             (200, 262, "description", False), (450, 262, "Price", True), (550, 262, "price", True)]
    rows = [(x, 282 + 14 * k, v, right) for k, (code, name, qty, price, amount) in enumerate(ITEMS)
            for x, v, right in ((75, qty, True), (80, "Stk", False), (120, code, False), (200, name, False),
                                (450, price, True), (550, amount, True))]
    reading = read_invoice(_pdf(heads + rows + _totals(330, "22.20")), "i.pdf")
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)
    heads = [(40, 262, "Code", False), (120, 262, "Description", False), (380, 262, "Quantity", True),
             (450, 250, "Unit", True), (450, 262, "Net", True), (550, 262, "Net", True)]
    reading = read_invoice(_pdf(heads + _table()[5:] + _totals(330, "22.20")), "i.pdf")
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)


def test_the_tax_number_in_the_letterhead_is_not_the_invoice_number():
    """No label names the invoice number: it follows the title (``Invoice 536741``); the ``MWST-Nr.`` beside the
    sender's telephone is a tax number, no candidate."""
    header = [(300, 40, "Alpenhaus Handels AG"), (300, 52, "MWST-Nr. 415256 · Tel. +41 44 908 55 57"),
              (40, 90, "Invoice 536741"), (40, 110, "Date: 02.12.2010"), (40, 122, "Debtor no.: 13117"),
              (40, 134, "Country: United Kingdom"), (40, 146, "Currency: CHF")]
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=header), "i.pdf")
    assert reading.fields.invoice_number == "536741"


def test_a_number_under_one_label_is_not_also_the_value_of_a_label_far_to_its_left():
    """``Customer`` heads an address block on the left; the number on its line far to the right stands under
    ``Invoice no.``: it is the invoice's number only, and the customer's number is said to be missing."""
    header = [(300, 60, "Invoice no."), (420, 60, "Date"), (40, 72, "Customer"), (300, 72, "536596"),
              (420, 72, "1.12.2010"), (40, 84, "United Kingdom"), (40, 100, "Currency: CHF")]
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=header), "i.pdf")
    assert (reading.fields.invoice_number, reading.fields.customer_id) == ("536596", None)
    assert reading.needs_review  # a customer label with no number read is a reviewer's to look at


def test_dollars_marked_by_their_country_are_amounts_in_that_currency():
    items = [(code, name, qty, f"A${price}", f"A${amount}") for code, name, qty, price, amount in ITEMS]
    reading = read_invoice(_pdf(_table(items=items) + _totals(330, "A$22.20"),
                                header=[(40, 60, "Invoice no: 536582"), (40, 74, "Date: 2010-12-01")]), "i.pdf")
    assert _lines(reading) == LINES
    assert (reading.fields.currency, reading.fields.total) == ("AUD", Decimal("22.20"))


def test_totals_labelled_in_two_languages_over_their_values_end_the_table():
    """``Summe netto / Total net`` over ``22,20 EUR``: the row of totals is no item, and its amounts no column's."""
    totals = [(300, 330, "Summe netto / Total net", False), (300, 342, "22.20 EUR", False),
              (420, 330, "MwSt. 19 % / VAT 19 %", False), (420, 342, "4.22 EUR", False),
              (500, 330, "Gesamt / Total", False), (500, 342, "26.42 EUR", False)]
    reading = read_invoice(_pdf(_table() + totals), "i.pdf")
    assert _lines(reading) == LINES
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("22.20"), Decimal("4.22"), Decimal("26.42"))


def test_a_summary_of_the_tax_under_the_items_gives_the_subtotal_tax_and_total():
    """``Rate  Net  Plus VAT  Invoice value`` over ``25,0 %  22,20€  5,55€  27,75€``, the total printed again
    below: the amounts that add up are the subtotal and the tax, not the total printed twice."""
    totals = [(300, 330, "Rate", False), (360, 330, "Net", False), (420, 330, "Plus VAT", False),
              (500, 330, "Invoice value", False), (300, 342, "25,0 %", False), (360, 342, "22,20€", False),
              (420, 342, "5,55€", False), (500, 342, "27,75€", False), (450, 360, "Invoice value", False),
              (550, 360, "27,75€", True)]
    reading = read_invoice(_pdf(_table() + totals), "i.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("22.20"), Decimal("5.55"), Decimal("27.75"))


def test_a_customer_number_under_its_label_with_an_address_line_printed_between():
    """``Sold-to Party`` over ``14047``, a line of the sender's address at the left printed half-way between: the
    number stands under its label, the customer's."""
    header = [(40, 60, "Brackenfield Gift Co. Ltd"), (40, 71, "Leeds LS10 1QP"), (300, 66, "Document No."),
              (420, 66, "Sold-to Party"), (300, 78, "536615"), (420, 78, "14047"), (300, 96, "Billing Date"),
              (300, 108, "02-DEC-10"), (300, 120, "Net Due Date"), (300, 132, "01-JAN-11"),
              (40, 150, "Country: United Kingdom"), (40, 162, "Currency: GBP")]
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=header), "i.pdf")
    f = reading.fields
    assert (f.invoice_number, f.customer_id, str(f.invoice_date)) == ("536615", "14047", "2010-12-02")


def test_a_number_far_under_a_letterheads_telephone_is_not_labelled_by_it():
    """The invoice's number printed alone under the letterhead: the telephone's line three lines up is no label
    of it, so it is the invoice number (found without a label)."""
    header = [(40, 40, "Harbor & Vine Trading Co."), (40, 52, "Phone 201-555-3383"), (40, 90, "536600"),
              (40, 110, "Invoice date: 2010-12-02"), (40, 122, "Currency: USD")]
    reading = read_invoice(_pdf(_table() + _totals(330, "22.20"), header=header), "i.pdf")
    assert reading.fields.invoice_number == "536600"
