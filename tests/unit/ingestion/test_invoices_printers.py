"""What line printers and order systems print, read from real PDFs (ReportLab): pages typed in a fixed-width font,
grids and rules typed in characters (``+----+``, ``|``, ``=====``), labels with dotted leaders or a glued ``#``
(``CUST#.....:``), dates with nothing between their parts (``02DEC10``), quantities ordered, shipped and
back-ordered under headings over two rows, a page holding only the repeated headings and the totals; order
invoices with the code labelled under the item's name (``SKU: 22558``) and tax columns beside the net amount
(``HST amount``, ``Total (excl. HST)``). Each is read as a person reads it."""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from ingestion.invoices.read import read_invoice
from tests.unit.ingestion.test_invoices_shop import _failed, _lines, _pdf

LINES = [("85178", "VICTORIAN SEWING KIT", 96, Decimal("1.25"), Decimal("120.00")),
         ("22617", "BAKING SET SPACEBOY DESIGN", 48, Decimal("4.25"), Decimal("204.00"))]


def _printed(*pages: str, size: float = 8) -> bytes:
    """Pages of fixed-width text, as a line printer's output spooled to PDF: each line of a page one printed row."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for page in pages:
        c.setFont("Courier", size)
        for k, line in enumerate(page.strip("\n").splitlines()):
            c.drawString(36, A4[1] - 50 - k * size * 1.3, line)
        c.showPage()
    c.save()
    return buf.getvalue()


GRID = """
+-----------------------------------------------------------------------------------------+
| MIDWEST NOVELTY DISTRIBUTORS INC          I N V O I C E                      PAGE 1     |
+----------------------+----------------------+----------------------+--------------------+
| INVOICE NO           | INVOICE DATE         | COUNTRY              | CUST#              |
| 536786               | 02DEC10              | United Kingdom       | 15061              |
+----------------------+----------------------+----------------------+--------------------+

+-----+--------------+--------------------------------+----+---------+----------+----------+
| LN  | ITEM#        | DESCRIPTION                    | UM | QTY SHP |    PRICE |  NET AMT |
+=====+==============+================================+====+=========+==========+==========+
|   1 | 85178        | VICTORIAN SEWING KIT           | EA |      96 |     1.25 |   120.00 |
|   2 | 22617        | BAKING SET SPACEBOY DESIGN     | EA |      48 |     4.25 |   204.00 |
+-----+--------------+--------------------------------+----+---------+----------+----------+
                                                      | MERCHANDISE          |   324.00 |
                                                      | AMOUNT DUE           |   324.00 |
                                                      +----------------------+----------+
ALL AMOUNTS IN USD
"""


def test_a_grid_typed_in_characters_reads_as_its_cells():
    reading = read_invoice(_printed(GRID), "i.pdf")
    f = reading.fields
    assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country, f.currency) == \
        ("536786", "2010-12-02", "15061", "United Kingdom", "USD")
    assert (f.subtotal, f.total) == (Decimal("324.00"), Decimal("324.00"))
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)


SPOOL = """
TRI-STATE GIFT & SUPPLY CO                              INV#........: 536562
PATERSON NJ 07501                                       INV DT......: 01DEC10
                                                        ACCT........: 13468
                                                        ORD#........: 4993064
                                                        ORDER DATE..: 28NOV10
SOLD TO: ACCOUNTS PAYABLE
         United Kingdom
------------------------------------------------------------------------------------------
ITEM                                   QTY     QTY    QTY          UNIT           NET
NO        DESCRIPTION                  ORD     SHP    B/O   U/M      PR           AMT
------------------------------------------------------------------------------------------
85178     VICTORIAN SEWING KIT         100      96      4   EA      1.25        120.00
22617     BAKING SET SPACEBOY DESIGN    48      48      0   EA      4.25        204.00
CONTINUED ON PAGE 002
"""
SPOOL_END = """
TRI-STATE GIFT & SUPPLY CO                              INV#........: 536562
------------------------------------------------------------------------------------------
ITEM                                   QTY     QTY    QTY          UNIT           NET
NO        DESCRIPTION                  ORD     SHP    B/O   U/M      PR           AMT
------------------------------------------------------------------------------------------
                                                          ----------
                                                 NET AMOUNT     324.00 USD
                                                 SALES TAX @ 7.00%  22.68 USD
                                                          ==========
                                       ** PLEASE PAY THIS AMOUNT **   346.68 USD
"""


def test_a_spool_report_with_leaders_two_heading_rows_and_its_totals_on_a_page_of_their_own():
    """The quantity shipped is the quantity (ordered, shipped and back-ordered are printed), and the page that
    repeats the headings over no line holds the subtotal, no sum brought forward."""
    reading = read_invoice(_printed(SPOOL, SPOOL_END), "i.pdf")
    f = reading.fields
    assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id) == ("536562", "2010-12-01", "13468")
    assert (f.subtotal, f.tax, f.total) == (Decimal("324.00"), Decimal("22.68"), Decimal("346.68"))
    assert _lines(reading) == LINES
    assert not reading.needs_review, _failed(reading)


HEADER = [(40, 60, "Invoice No.: 536771"), (40, 74, "Date of invoice: 2. Dezember 2010"),
          (40, 88, "Buyer ID: 17581"), (40, 102, "Country: United Kingdom"), (40, 116, "Currency: CAD")]


def test_an_order_invoice_with_the_code_under_the_name_and_tax_columns_beside_the_amount():
    """``Item`` heads the names, each code is labelled under its name, and of the money columns the tax's
    (``HST amount``) and the gross (``Item total``) are not the amount; ``Total (excl. HST)`` is."""
    columns = ((285, 325), (335, 355), (365, 385), (395, 445), (455, 495), (505, 555))  # each one's left and right
    heads = [(40, 250, "Item", False)] + [(left, y, text, False) for (left, _), top in zip(columns, (
        ("Net", "unit", "price"), ("Qty", "", ""), ("HST", "%", ""), ("Total", "(excl.", "HST)"), ("HST", "amount", ""),
        ("Item", "total", ""))) for y, text in zip((250, 260, 270), top) if text]  # over three rows, as printed
    rows = []
    for k, (code, name, qty, price, amount) in enumerate(LINES):
        y, tax = 290 + 26 * k, (amount * Decimal("0.13")).quantize(Decimal("0.01"))
        rows += [(40, y, name, False), (40, y + 10, f"SKU: {code}", False)]
        rows += [(right, y, str(v), True) for (_, right), v in zip(columns, (price, qty, "13%", amount, tax,
                                                                              amount + tax))]
    totals = [(450, 350, "Total net:", False), (555, 350, "324.00", True), (450, 364, "HST 13%:", False),
              (555, 364, "42.12", True), (450, 378, "Invoice total:", False), (555, 378, "366.12", True)]
    reading = read_invoice(_pdf(heads + rows + totals, header=HEADER), "i.pdf")
    assert reading.fields.invoice_date.isoformat() == "2010-12-02"
    assert _lines(reading) == LINES
    assert (reading.fields.subtotal, reading.fields.tax) == (Decimal("324.00"), Decimal("42.12"))
    assert not reading.needs_review, _failed(reading)


BANK = """
BRADLEY & HART WHOLESALE LTD                               INVOICE NO : 536779
                                                           INV DT     : 02DEC10
                                                           COUNTRY    : United Kingdom

STOCK#         DESCRIPTION                   SHIPPED  UM       PRICE    EXTENSION
BANK CHARGES   Bank Charges                        1  EA       15.00        15.00
                                                                        -----
                                                  SUBTOTAL              15.00
                                                  TOTAL DUE             15.00
ALL AMOUNTS IN GBP
ACH: FIRST MIDWEST BANK, ABA 071000013, ACCT 4418 2207 19
"""


def test_a_code_of_words_under_a_stock_heading_and_a_bank_account_under_the_items():
    """``BANK CHARGES`` under ``STOCK#`` is the line's code, and ``ACCT 4418`` in the bank details under the totals
    is no customer's number: an invoice without a customer has none."""
    reading = read_invoice(_printed(BANK), "i.pdf")
    assert _lines(reading) == [("BANK CHARGES", "Bank Charges", 1, Decimal("15.00"), Decimal("15.00"))]
    assert reading.fields.customer_id is None
    assert reading.fields.invoice_date.isoformat() == "2010-12-02"
