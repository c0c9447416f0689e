"""Wordings of trade documents the dev families do not print, read from real PDFs: totals labelled over their
amounts under the table, a code heading made of the article's name and "code", a country label read on into its
value ("Country of import"), the goods' origin that is no delivery country, and countries outside the records."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from ingestion.invoices.read import read_invoice

ITEMS = [("22632", "HAND WARMER RED POLKA DOT", "6", "1,85", "11,10"),
         ("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", "12", "2,55", "30,60"),
         ("21754", "HOME BUILDING BLOCK WORD", "3", "5,95", "17,85")]


def _pdf(header: list[tuple[float, float, str]], totals_over: bool = True) -> bytes:
    """An invoice whose header is ``header`` (x, y from the top, text), the items above under "Article code", and
    the totals as a row of labels over a row of amounts (or each label beside its amount)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    height = A4[1]

    def text(x, y, s, size=9, right=False):
        c.setFont("Helvetica", size)
        (c.drawRightString if right else c.drawString)(x, height - y, s)

    for x, y, s in header:
        text(x, y, s)
    y = 260
    for x, s, right in ((40, "Article code", False), (120, "Description", False), (400, "Qty", True),
                        (470, "Price", True), (550, "Amount", True)):
        text(x, y, s, right=right)
    for code, desc, qty, price, amount in ITEMS:
        y += 16
        text(40, y, code), text(120, y, desc), text(400, y, qty, right=True), text(470, y, price, right=True)
        text(550, y, amount, right=True)
    y += 26
    totals = (("Net sum", "59,55"), ("VAT total 20%", "11,91"), ("Payable amount", "71,46"))
    if totals_over:
        for (label, amount), x in zip(totals, (420, 485, 550)):
            text(x, y, label, size=7, right=True), text(x, y + 11, amount, right=True)
    else:
        for k, (label, amount) in enumerate(totals):
            text(400, y + 14 * k, label), text(550, y + 14 * k, amount, right=True)
    text(40, y + 50, "Interest on late payment is charged according to the Late Payment Act.")
    text(40, y + 61, "IBAN LV13 5222 9967 7667 1152 85")
    text(40, y + 72, "Reference number 536582")
    c.showPage()
    c.save()
    return buf.getvalue()


HEADER = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 01.12.2010"), (40, 88, "Customer no: 12947"),
          (40, 102, "Currency: EUR")]


def _failed(reading) -> set[str]:
    return {c.name for c in reading.checks if not c.passed}


def test_totals_labelled_over_their_amounts_end_the_table_and_are_read():
    for over in (True, False):
        reading = read_invoice(_pdf(HEADER + [(300, 60, "Country: United Kingdom")], totals_over=over), "x.pdf")
        assert [(ln.code, ln.description, ln.quantity, ln.unit_price, ln.amount) for ln in reading.lines] == [
            (code, desc, Decimal(qty), Decimal(price.replace(",", ".")), Decimal(amount.replace(",", ".")))
            for code, desc, qty, price, amount in ITEMS], over  # no line made of the totals and the notes under
        f = reading.fields
        assert (f.subtotal, f.tax, f.total) == (Decimal("59.55"), Decimal("11.91"), Decimal("71.46"))
        assert (f.invoice_number, f.invoice_date, f.customer_id) == ("536582", dt.date(2010, 12, 1), "12947")
        assert not reading.needs_review, _failed(reading)


def test_a_country_label_read_on_into_its_value_gives_the_country_and_the_goods_origin_is_not_taken():
    header = HEADER + [(300, 60, "Country of origin: India"), (300, 74, "Country of import: United Kingdom")]
    reading = read_invoice(_pdf(header), "x.pdf")
    assert reading.fields.country == "United Kingdom"
    assert not reading.needs_review, _failed(reading)
    # The origin printed alone is no delivery country: the one the goods go to is.
    header = HEADER + [(300, 60, "Country of origin: Canada"), (300, 74, "Country: India")]
    reading = read_invoice(_pdf(header), "x.pdf")
    assert reading.fields.country == "India"  # a country no record holds is a country all the same
    assert not reading.needs_review, _failed(reading)


def _commercial(positions: str) -> bytes:
    """A commercial invoice whose headings are printed over two lines (``Value`` over ``of Goods``), with a line
    number column counting ``positions`` ("0001" style or in tens) and a tariff code beside the products' code."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    height = A4[1]

    def text(x, y, s, right=False):
        c.setFont("Helvetica", 9)
        (c.drawRightString if right else c.drawString)(x, height - y, s)

    for x, y, s in HEADER + [(300, 60, "Country of final destination: United Kingdom")]:
        text(x, y, s)
    heads = [(40, "S.", "No.", False), (80, "Stock", "Item Code", False), (140, "Description", "of Goods", False),
             (330, "HSN", "Code", False), (430, "Billed", "Quantity", True), (490, "Value", "per Unit", True),
             (555, "Value", "of Goods", True)]
    for x, up, low, right in heads:
        text(x, 240, up, right), text(x, 252.6, low, right)
    y = 252.6
    for n, (code, desc, qty, price, amount) in enumerate(ITEMS, 1):
        y += 16
        number = f"{n:04d}" if positions == "zeros" else str(10 * n)
        for x, s, right in ((40, number, False), (80, code, False), (140, desc, False), (330, "9505 90 10", False),
                            (430, qty, True), (490, price.replace(",", "."), True),
                            (555, amount.replace(",", "."), True)):
            text(x, y, s, right)
    for k, (label, amount) in enumerate((("Subtotal", "59.55"), ("VAT 20%", "11.91"), ("Total", "71.46"))):
        text(420, y + 30 + 14 * k, label), text(555, y + 30 + 14 * k, amount, right=True)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_headings_over_two_lines_are_read_by_their_head_words_and_a_line_counter_is_no_code():
    for positions in ("zeros", "tens"):
        reading = read_invoice(_commercial(positions), "x.pdf")
        assert [(ln.code, ln.description, ln.quantity, ln.unit_price, ln.amount) for ln in reading.lines] == [
            (code, desc, Decimal(qty), Decimal(price.replace(",", ".")), Decimal(amount.replace(",", ".")))
            for code, desc, qty, price, amount in ITEMS], positions
        assert reading.fields.country == "United Kingdom"
        # Two columns are headed as a code: the first is taken, and the reviewer is told to check which it is.
        assert _failed(reading) == {"columns of page 1: code told apart"}
