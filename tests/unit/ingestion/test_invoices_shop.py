"""What web shops and wholesalers print, read from real PDFs (ReportLab): headings over two lines (``Qty`` over
``Desp.``, ``Line`` over ``Total``, ``Product`` over ``#``), a product's code printed under its name with a label
(``SKU: 21889``) or alone under the code column's heading, prices to the tenth of a cent (``2.950``), a delivery
charge of 0.00 and a balance of 0.00 after the payment under the totals, and a count of items printed before the total.
Each is read as a person reads it; where a value cannot be told (a line with no description), the reading says so."""

from __future__ import annotations

from decimal import Decimal

from ingestion.invoices.read import read_invoice
from tests.support.invoices import failed_names as _failed
from tests.support.invoices import line_values as _lines
from tests.support.invoices import text_pdf

HEADER = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 01/12/2010 (dd/mm/yyyy)"),
          (40, 88, "Customer no: 12947"), (40, 102, "Country: United Kingdom"), (40, 116, "Currency: GBP")]


def _pdf(texts: list[tuple[float, float, str, bool]], header=HEADER) -> bytes:
    return text_pdf(texts, header)


def _totals(y: float, net: str, rows=()) -> list[tuple[float, float, str, bool]]:
    out = [(400, y, "Subtotal:", False), (550, y, net, True)]
    for k, (label, value) in enumerate([*rows, ("Total:", net)], 1):
        out += [(400, y + 14 * k, label, False), (550, y + 14 * k, value, True)]
    return out


def test_headings_over_two_lines_are_one_heading_each():
    """``Qty`` over ``Desp.``, ``Stock`` over ``Ref.``, ``Price`` over ``(each)``, ``Net`` over ``Amount``: the
    second line is no description of the first item, and each pair names its column."""
    heads = [(60, 250, "Qty", True), (70, 250, "Stock", False), (120, 250, "Product Details", False),
             (450, 250, "Price", True), (550, 250, "Net", True),
             (60, 260, "Desp.", True), (70, 260, "Ref.", False), (450, 260, "(each)", True), (550, 260, "Amount", True)]
    items = [("6", "22632", "HAND WARMER RED POLKA DOT", "1.85", "11.10"), ("12", "21754", "HOME BUILDING BLOCK WORD",
                                                                          "2.55", "30.60")]
    rows = [(60, 280 + 14 * k, q, True) for k, (q, *_) in enumerate(items)]
    rows += [(x, 280 + 14 * k, v, right) for k, item in enumerate(items)
             for (x, right), v in zip(((70, False), (120, False), (450, True), (550, True)), item[1:])]
    reading = read_invoice(_pdf(heads + rows + _totals(330, "41.70")), "i.pdf")
    assert _lines(reading) == [("22632", "HAND WARMER RED POLKA DOT", 6, Decimal("1.85"), Decimal("11.10")),
                               ("21754", "HOME BUILDING BLOCK WORD", 12, Decimal("2.55"), Decimal("30.60"))]
    assert not reading.needs_review, _failed(reading)


def test_a_heading_line_with_a_known_word_under_an_unknown_one_is_read_as_one():
    """``Line`` over ``Total`` is the amount, ``Product`` over ``#`` the code, ``Item / Service`` the description:
    without the second lines the table's headings would be ``Line`` (nothing known) and a stray ``Total``."""
    heads = [(40, 250, "Product", False), (110, 250, "Item / Service", False), (380, 250, "Qty", True),
             (450, 250, "Rate", True), (550, 250, "Line", True), (40, 260, "#", False), (550, 260, "Total", True)]
    items = [("35004B", "SET OF 3 BLACK FLYING DUCKS", "-2", "4.65", "-9.30"),
             ("22632", "HAND WARMER RED POLKA DOT", "-6", "1.85", "-11.10")]
    places = ((40, False), (110, False), (380, True), (450, True), (550, True))
    rows = [(x, 280 + 14 * k, v, right) for k, item in enumerate(items) for (x, right), v in zip(places, item)]
    reading = read_invoice(_pdf(heads + rows + _totals(320, "-20.40")), "i.pdf")
    assert _lines(reading) == [("35004B", "SET OF 3 BLACK FLYING DUCKS", -2, Decimal("4.65"), Decimal("-9.30")),
                               ("22632", "HAND WARMER RED POLKA DOT", -6, Decimal("1.85"), Decimal("-11.10"))]
    assert not reading.needs_review, _failed(reading)


def _shop(under: str, label_y: float = 11) -> bytes:
    """A web shop's table with no code column: each product's code printed under its name as ``under % code``."""
    heads = [(40, 250, "Product", False), (380, 250, "Qty", True), (450, 250, "Price", True),
             (550, 250, "Amount", True)]
    items = [("21889", "WOODEN BOX OF DOMINOES", "12", "1.25", "15.00"),
             ("22113", "GREY HEART HOT WATER BOTTLE", "4", "3.75", "15.00")]
    rows = []
    for k, (code, name, *numbers) in enumerate(items):
        y = 275 + 30 * k
        rows += [(40, y, name, False), (40, y + label_y, under % code, False)]
        rows += [(x, y, v, True) for x, v in zip((380, 450, 550), numbers)]
    return _pdf(heads + rows + _totals(350, "30.00"))


def test_a_code_printed_with_its_label_under_the_name_is_the_code():
    for under in ("SKU: %s", "Code: %s", "Item #%s", "Item code: %s"):
        reading = read_invoice(_shop(under), "i.pdf")
        assert _lines(reading) == [("21889", "WOODEN BOX OF DOMINOES", 12, Decimal("1.25"), Decimal("15.00")),
                                   ("22113", "GREY HEART HOT WATER BOTTLE", 4, Decimal("3.75"), Decimal("15.00"))]
        assert not reading.needs_review, (under, _failed(reading))
        code, name = reading.boxes["lines[0].code"], reading.boxes["lines[0].description"]
        assert code.y0 > name.y0 + 5 and code.x1 - code.x0 < 40  # the code's box: the code alone, under the name


def test_words_under_a_name_that_name_no_code_stay_in_the_description():
    """``Ref 21889`` with no colon, ``#`` or SKU says no code: it is the description's, and no line has a code."""
    reading = read_invoice(_shop("Ref %s"), "i.pdf")
    assert [x.code for x in reading.lines] == [None, None]
    assert reading.lines[0].description == "WOODEN BOX OF DOMINOES Ref 21889"


def test_a_description_printed_under_the_code_is_the_description():
    """Code and numbers on one row, the name on the row below under the code's heading: the name is the line's
    description, not the rest of its code."""
    heads = [(40, 250, "Item", False), (200, 250, "Description", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = []
    for k, (code, name, *numbers) in enumerate([("21889", "WOODEN BOX OF DOMINOES", "12", "1.25", "15.00"),
                                                ("22113", "GREY HEART HOT WATER BOTTLE", "4", "3.75", "15.00")]):
        y = 275 + 30 * k
        rows += [(40, y, code, False), (40, y + 11, name, False)]
        rows += [(x, y, v, True) for x, v in zip((380, 450, 550), numbers)]
    reading = read_invoice(_pdf(heads + rows + _totals(350, "30.00")), "i.pdf")
    assert [(x.code, x.description) for x in reading.lines] == [("21889", "WOODEN BOX OF DOMINOES"),
                                                                ("22113", "GREY HEART HOT WATER BOTTLE")]


def test_prices_to_a_tenth_of_a_cent_are_read_as_the_line_arithmetic_says():
    """``2.950`` each: one separator and three digits read as thousands would give 2950, and 6 x 2950 is not the
    17.70 printed; 6 x 2.950 is. A currency mark before it makes the column one of money, headed or not."""
    heads = [(40, 250, "Code", False), (100, 250, "Description", False), (380, 250, "Qty", True),
             (450, 250, "RRP", True), (500, 250, "Trade", True), (550, 250, "Value", True)]
    items = [("21733", "RED HANGING HEART T-LIGHT HOLDER", "6", "GBP 7.990", "GBP 2.950", "GBP 17.70"),
             ("22113", "GREY HEART HOT WATER BOTTLE", "4", "GBP 8.990", "GBP 3.750", "GBP 15.00")]
    places = ((40, False), (100, False), (380, True), (450, True), (500, True), (550, True))
    rows = [(x, 280 + 14 * k, v, right) for k, item in enumerate(items) for (x, right), v in zip(places, item)]
    reading = read_invoice(_pdf(heads + rows + _totals(320, "GBP 32.70")), "i.pdf")
    assert [(x.quantity, x.unit_price, x.amount) for x in reading.lines] == [
        (6, Decimal("2.95"), Decimal("17.70")), (4, Decimal("3.75"), Decimal("15.00"))]
    assert not reading.needs_review, _failed(reading)


def _simple_rows() -> list[tuple[float, float, str, bool]]:
    """A one-line table's headings and line."""
    heads = [(40, 250, "Code", False), (100, 250, "Description", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    item = ("22632", "HAND WARMER RED POLKA DOT", "6", "1.85", "11.10")
    places = ((40, False), (100, False), (380, True), (450, True), (550, True))
    return heads + [(x, 280, v, right) for (x, right), v in zip(places, item)]


def _simple(totals: list[tuple[float, float, str, bool]]) -> bytes:
    return _pdf(_simple_rows() + totals)


def test_a_delivery_charge_and_the_balance_after_payment_are_neither_tax_nor_total():
    """``Delivery: 0.00`` under the items is a charge, not an unlabelled tax; ``Balance: 0.00`` after ``Payment
    received`` is what is left to pay, not the invoice's total."""
    totals = _totals(320, "11.10", [("Delivery:", "0.00")]) + [(400, 362, "Payment received:", False),
                                                                (550, 362, "11.10", True), (400, 376, "Balance:", False),
                                                                (550, 376, "0.00", True)]
    reading = read_invoice(_simple(totals), "i.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (Decimal("11.10"), None,
                                                                                  Decimal("11.10"))
    assert not reading.needs_review, _failed(reading)


def test_a_delivery_heading_over_the_address_is_no_charge():
    """Over the items, ``Delivery`` heads an address: the country under it is read as before."""
    header = [*HEADER[:3], (40, 102, "Currency: GBP"), (300, 60, "Delivery"), (300, 74, "Fennel Street Deli"),
              (300, 88, "United Kingdom")]
    reading = read_invoice(_pdf(_simple_rows() + _totals(320, "11.10"), header=header), "i.pdf")
    assert reading.fields.country == "United Kingdom"


def test_a_count_of_items_before_the_total_is_not_the_total():
    """``Total Invoice Value: 6  GBP 11.10``: the count of items printed in the quantity column is no amount."""
    totals = [(300, 320, "Total:", False), (380, 320, "6", True), (550, 320, "GBP 11.10", True)]
    reading = read_invoice(_simple(totals), "i.pdf")
    assert reading.fields.total == Decimal("11.10")


def test_a_line_with_no_description_asks_for_review():
    """Every item has a description: a one-line table whose line has none is sent to a reviewer, naming the line."""
    heads = [(40, 250, "Code", False), (380, 250, "Qty", True), (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = [(40, 280, "22632", False), (380, 280, "6", True), (450, 280, "1.85", True), (550, 280, "11.10", True)]
    reading = read_invoice(_pdf(heads + rows + _totals(320, "11.10")), "i.pdf")
    assert reading.lines[0].description is None and reading.needs_review
    assert "line 1: description read" in _failed(reading)


def test_a_code_cell_holding_the_description_is_divided_and_doubted():
    """A line whose name is printed in the code's column, its description's left empty: the first word is taken
    for the code and the rest for the description, and a reviewer is asked to check the line."""
    heads = [(40, 250, "Code", False), (250, 250, "Description", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = [(40, 280, "22632", False), (250, 280, "HAND WARMER", False), (40, 294, "22633 MUG RED", False),
            (40, 308, "21754", False), (250, 308, "BLOCK WORD", False)]
    rows += [(x, y, v, True) for y in (280, 294, 308) for x, v in zip((380, 450, 550), ("6", "1.85", "11.10"))]
    reading = read_invoice(_pdf(heads + rows + _totals(340, "33.30")), "i.pdf")
    assert [(x.code, x.description) for x in reading.lines] == [("22632", "HAND WARMER"), ("22633", "MUG RED"),
                                                                ("21754", "BLOCK WORD")]
    assert "line 2: code told apart" in _failed(reading)
