"""What online invoicing apps print, read from real PDFs (ReportLab): one ``Item & Description`` column with the
code on the item's row and its name on the row below, an unknown ``Items`` heading over codes with their names
below, a bare ``$`` on an invoice that names its dollar elsewhere (``All amounts in CAD``) or none, a numeric
invoice date whose order only the due date shows, a tax number (``GST No.``) in the page foot, and bank details
(``BSB ... Account ...``) under the items. Each is read as a person reads it."""

from __future__ import annotations

from decimal import Decimal

from ingestion.invoices.read import read_invoice
from tests.unit.ingestion.test_invoices_markets import LINES
from tests.unit.ingestion.test_invoices_shop import _failed, _lines, _pdf, _totals

HEADER = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 2010-12-01"), (40, 88, "Customer no: 12947"),
          (40, 102, "Country: United Kingdom")]
PLACES = ((380, True), (450, True), (550, True))


def _stacked(heads, y: float = 280, lead: list[str] | None = None, mark: str = "", items=None) -> list[tuple]:
    """Items printed over two rows: the code (after the line's number, in ``lead``'s column) and the numbers on
    the first, the name on the second."""
    out = list(heads)
    for k, (code, name, qty, price, amount) in enumerate(items or _ITEMS):
        top = y + 26 * k
        if lead is not None:
            out.append((30, top, str(k + 1), True))
        out += [(60, top, code, False), (60, top + 11, name, False)]
        out += [(x, top, v if x == 380 else mark + v, right) for (x, right), v in zip(PLACES, (qty, price, amount))]
    return out


_ITEMS = [(line[0], line[1], str(line[2]), str(line[3]), str(line[4])) for line in LINES]
JARS = [("22960", "JAM MAKING SET WITH JARS", "6", "4.25", "25.50"), ("85123A", "WHITE HANGING HEART T-LIGHT HOLDER",
                                                                           "12", "1.45", "17.40"),
        ("22962", "JAM JAR WITH PINK LID", "12", "0.85", "10.20"), ("84406B", "CREAM CUPID HEARTS COAT HANGER", "12",
                                                                     "0.85", "10.20")]
"""Codes of digits and of digits and letters, neither most of the column's cells: its names are."""


def test_an_item_and_description_column_reads_the_code_over_its_name():
    heads = [(30, 260, "#", True), (60, 260, "Item & Description", False), (380, 260, "Qty", True),
             (450, 260, "Rate", True), (550, 260, "Amount", True)]
    header = HEADER + [(40, 116, "Currency: GBP")]
    reading = read_invoice(_pdf(_stacked(heads, lead=[]) + _totals(340, "22.20"), header=header), "i.pdf")
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)


def test_an_unknown_items_heading_over_codes_with_their_names_below():
    heads = [(60, 260, "Items", False), (380, 260, "Quantity", True), (450, 260, "Price", True),
             (550, 260, "Amount", True)]
    header = HEADER + [(40, 116, "Currency: GBP")]
    reading = read_invoice(_pdf(_stacked(heads, items=JARS) + _totals(400, "63.30"), header=header), "i.pdf")
    assert _lines(reading) == [(c, n, int(q), Decimal(p), Decimal(a)) for c, n, q, p, a in JARS]
    assert not reading.needs_review, _failed(reading)


def _dollars(note: list[tuple] = ()) -> bytes:
    heads = [(60, 260, "Item", False), (380, 260, "Qty", True), (450, 260, "Rate", True), (550, 260, "Amount", True)]
    totals = [(400, 340, "Subtotal", False), (550, 340, "$22.20", True), (400, 354, "Total", False),
              (550, 354, "$22.20", True)]
    return _pdf(_stacked(heads, mark="$") + totals, header=HEADER + list(note))


def test_a_bare_dollar_sign_is_the_dollar_the_invoice_names():
    reading = read_invoice(_dollars([(40, 400, "All amounts in CAD")]), "i.pdf")
    assert reading.fields.currency == "CAD"
    assert not reading.needs_review, _failed(reading)
    reading = read_invoice(_dollars(), "i.pdf")  # nothing says which: the US dollar, as "$" is read
    assert reading.fields.currency == "USD"
    assert not reading.needs_review, _failed(reading)


def test_a_bare_dollar_sign_on_an_invoice_charging_gst_is_a_doubt():
    reading = read_invoice(_dollars([(40, 400, "Prices include GST where charged")]), "i.pdf")
    assert reading.fields.currency == "USD"
    assert "currency told apart" in _failed(reading)
    reading = read_invoice(_dollars([(40, 400, "All amounts in NZD or AUD")]), "i.pdf")
    assert "currency told apart" in _failed(reading)


def test_a_due_date_shows_the_order_of_day_and_month():
    header = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 12/01/2010"), (40, 88, "Customer no: 12947"),
              (40, 102, "Country: United Kingdom"), (40, 116, "Currency: GBP")]
    items = _stacked([(60, 260, "Item", False), (380, 260, "Qty", True), (450, 260, "Rate", True),
                      (550, 260, "Amount", True)]) + _totals(340, "22.20")
    reading = read_invoice(_pdf(items, header=header + [(40, 130, "Payment due: 12/29/2010")]), "i.pdf")
    assert str(reading.fields.invoice_date) == "2010-12-01"
    assert not reading.needs_review, _failed(reading)
    reading = read_invoice(_pdf(items, header=header + [(40, 130, "Payment due: 12/12/2010")]), "i.pdf")
    assert "invoice date told apart" in _failed(reading)  # nothing shows the order: day first, and a doubt


def test_a_tax_number_in_the_page_foot_and_bank_details_are_no_tax_or_customer():
    """``GST No. 507271472`` over ``1 of 1`` is the sender's number, not a tax of 1; an ``Account`` after a
    ``BSB`` is the sender's bank account, not the customer's number, on an invoice that names no customer."""
    header = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 2010-12-01"),
              (40, 88, "Country: United Kingdom"), (40, 102, "Currency: NZD")]
    items = _stacked([(60, 260, "Item", False), (380, 260, "Qty", True), (450, 260, "Rate", True),
                      (550, 260, "Amount", True)])
    totals = _totals(340, "22.20", rows=[("GST 15%", "3.33")])[:-2] + [(400, 368, "Total:", False),
                                                                       (550, 368, "25.53", True)]
    foot = [(40, 420, "Payment details", False), (40, 432, "BSB 062-620 Account 101439200", False),
            (120, 790, "Kowhai Lane Trading Ltd · GST No. 507271472", False), (290, 803, "1 of 1", False)]
    reading = read_invoice(_pdf(items + totals + foot, header=header), "i.pdf")
    assert (reading.fields.tax, reading.fields.total, reading.fields.customer_id) == (
        Decimal("3.33"), Decimal("25.53"), None)
