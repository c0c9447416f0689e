"""What web shops' order invoices print, read from real PDFs (ReportLab): a product's variant under its name
(``Size: One size``) that is no part of its description, the quantity printed with a multiplication sign beside the
price (``£3.25 × 2``) or after the name (``MUG × 6``) with no quantity column, the code under the variants
(``SKU 22149``), the payment under the totals (``Paid by customer``, ``Total paid``, ``Amount refunded``) and the
balance after it (``Amount due: 0.00``, the invoice's total being the one above), a tax the total includes printed
under it, and French labels set apart from their colon (``Total à payer : 23,88 €``, ``1er décembre 2010``).
Each is read as a person reads it, with no doubt raised where nothing is in doubt."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from ingestion.invoices.read import read_invoice
from tests.support.invoices import failed_names as _failed
from tests.support.invoices import line_values as _lines
from tests.support.invoices import text_pdf

HEADER = [(40, 60, "Invoice no: 536613"), (40, 74, "Invoice date: 2 December 2010"), (40, 88, "Customer no: 17855"),
          (40, 102, "Country: United Kingdom"), (40, 116, "Currency: GBP")]
ITEMS = [("22149", "FELTCRAFT 6 FLOWER FRIENDS", "6", "2.10", "12.60"),
         ("22818", "CARD CHRISTMAS VILLAGE", "12", "0.42", "5.04")]


def _pdf(texts: list[tuple[float, float, str, bool]], header=HEADER) -> bytes:
    return text_pdf(texts, header)


def _below(y: float, rows: list[tuple[str, str]], x: float = 380) -> list[tuple[float, float, str, bool]]:
    """Label and value rows from ``y`` down, the values right-aligned at 550."""
    return [t for k, (label, value) in enumerate(rows)
            for t in ((x, y + 14 * k, label, False), (550, y + 14 * k, value, True))]


EXPECTED = [("22149", "FELTCRAFT 6 FLOWER FRIENDS", 6, Decimal("2.10"), Decimal("12.60")),
            ("22818", "CARD CHRISTMAS VILLAGE", 12, Decimal("0.42"), Decimal("5.04"))]


def test_a_variant_under_the_name_is_no_part_of_the_description():
    """``Size: One size`` and ``Taille : unique`` under a product's name name its variant; the description is the
    name alone, and the line is not sent for review for it (the variant fits on the name's row: no wrap)."""
    heads = [(40, 250, "Code", False), (100, 250, "Product", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = []
    for k, (variant, item) in enumerate(zip(("Size: One size", "Taille : unique"), ITEMS)):
        y = 275 + 26 * k
        rows += [(x, y, v, right) for (x, right), v in
                 zip(((40, False), (100, False), (380, True), (450, True), (550, True)), item)]
        rows.append((100, y + 11, variant, False))
    reading = read_invoice(_pdf(heads + rows + _below(340, [("Subtotal:", "17.64"), ("Total:", "17.64")])), "i.pdf")
    assert _lines(reading) == EXPECTED
    assert not reading.needs_review, _failed(reading)


@pytest.mark.parametrize("form", ["price first", "name first"])
def test_the_quantity_printed_with_a_multiplication_sign_and_the_code_under_the_variant(form):
    """``£2.10 × 6`` under a ``Unit Price`` heading, or ``FELTCRAFT 6 FLOWER FRIENDS × 6`` with no quantity
    column, then ``Size: One size`` and ``SKU 22149`` under the name: each line's quantity, price, amount and code
    as printed, the row read by its own arithmetic (6 x 2.10 = 12.60)."""
    heads = [(40, 250, "Products", False), (450, 250, "Unit Price", True), (550, 250, "Subtotal", True)]
    rows = []
    for k, (code, name, qty, price, amount) in enumerate(ITEMS):
        y = 275 + 36 * k
        if form == "price first":
            rows += [(40, y, name, False), (420, y, f"£{price} ×", True), (450, y, qty, True)]
        else:
            rows += [(40, y, f"{name} × {qty}", False), (450, y, f"£{price}", True)]
        rows += [(550, y, f"£{amount}", True), (40, y + 11, "Size: One size", False), (40, y + 22, f"SKU {code}",
                                                                                         False)]
    totals = _below(360, [("Subtotal:", "£17.64"), ("Order total:", "£17.64")])
    reading = read_invoice(_pdf(heads + rows + totals), "i.pdf")
    assert _lines(reading) == EXPECTED
    assert not reading.needs_review, _failed(reading)


@pytest.mark.parametrize("payment", ["Paid by customer:", "Total paid:", "Paid:"])
def test_a_balance_after_the_payment_is_not_the_total(payment):
    """``Order total £17.64``, then the payment (worded as shops word it) and ``Amount due: £0.00``: the total is
    17.64, and the balance raises no doubt."""
    heads = [(40, 250, "Code", False), (100, 250, "Product", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = [(x, 275 + 14 * k, v, right) for k, item in enumerate(ITEMS) for (x, right), v in
            zip(((40, False), (100, False), (380, True), (450, True), (550, True)), item)]
    totals = _below(320, [("Subtotal:", "£17.64"), ("Order total:", "£17.64"), (payment, "£17.64"),
                          ("Amount due:", "£0.00")])
    reading = read_invoice(_pdf(heads + rows + totals), "i.pdf")
    assert (reading.fields.subtotal, reading.fields.total) == (Decimal("17.64"), Decimal("17.64"))
    assert not reading.needs_review, _failed(reading)


def test_a_zero_balance_under_the_total_is_no_total_and_a_refund_is_a_payment():
    """A credit note's ``Total (GBP): -£3.90``, ``Amount refunded: -£3.90``, ``Amount due: £0.00``; and an
    invoice's ``Grand Total £27.00`` with ``Amount due £0.00`` under it and no payment printed: the totals are
    -3.90 and 27.00."""
    heads = [(40, 250, "Code", False), (100, 250, "Product", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    credit = [(40, 275, "71477", False), (100, 275, "COLOUR GLASS. STAR T-LIGHT HOLDER", False),
              (380, 275, "-1", True), (450, 275, "£3.25", True), (550, 275, "-£3.25", True)]
    totals = _below(300, [("Items subtotal:", "-£3.25"), ("Tax:", "-£0.65"), ("Total (GBP):", "-£3.90"),
                          ("Amount refunded:", "-£3.90"), ("Amount due:", "£0.00")])
    reading = read_invoice(_pdf(heads + credit + totals), "c.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("-3.25"), Decimal("-0.65"), Decimal("-3.90"))
    assert not reading.needs_review, _failed(reading)
    sale = [(40, 275, "22113", False), (100, 275, "GREY HEART HOT WATER BOTTLE", False), (380, 275, "6", True),
            (450, 275, "£3.75", True), (550, 275, "£22.50", True)]
    totals = _below(300, [("Cart subtotal", "£22.50"), ("VAT 20%", "£4.50"), ("Grand Total", "£27.00"),
                          ("Amount due", "£0.00")])
    reading = read_invoice(_pdf(heads + sale + totals), "s.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("22.50"), Decimal("4.50"), Decimal("27.00"))
    assert not reading.needs_review, _failed(reading)


def test_a_tax_the_total_includes_printed_under_it_is_the_tax():
    """``Order total £21.17`` and under it ``(includes £3.53 VAT)``, as shops print a total with its tax in it,
    then the balance: the tax is 3.53, and the arithmetic holds."""
    heads = [(40, 250, "Code", False), (100, 250, "Product", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = [(x, 275 + 14 * k, v, right) for k, item in enumerate(ITEMS) for (x, right), v in
            zip(((40, False), (100, False), (380, True), (450, True), (550, True)), item)]
    totals = _below(320, [("Cart subtotal", "£17.64"), ("Order total", "£21.17")]) + [
        (550, 348, "(includes £3.53 VAT)", True)] + _below(362, [("Balance due", "£0.00")])
    reading = read_invoice(_pdf(heads + rows + totals), "i.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("17.64"), Decimal("3.53"), Decimal("21.17"))
    assert not reading.needs_review, _failed(reading)


def test_french_labels_with_the_colon_set_apart_and_a_first_of_the_month():
    """``Date de facture : 1er décembre 2010``, ``TVA 20% : 3,53 €``, ``Total à payer : 21,17 €`` and, after
    ``Montant payé``, ``Solde dû : 0,00 €``: each value beside its label, the colon a word of its own."""
    header = [(40, 60, "Numéro de facture : 536460"), (40, 74, "Date de facture : 1er décembre 2010"),
              (40, 88, "N° client : 14849"), (40, 102, "Pays : United Kingdom")]
    heads = [(40, 250, "Réf.", False), (100, 250, "Désignation", False), (380, 250, "Qté", True),
             (450, 250, "P.U. HT", True), (550, 250, "Montant", True)]
    items = [("22149", "FELTCRAFT 6 FLOWER FRIENDS", "6", "2,10 €", "12,60 €"),
             ("22818", "CARD CHRISTMAS VILLAGE", "12", "0,42 €", "5,04 €")]
    rows = [(x, 275 + 14 * k, v, right) for k, item in enumerate(items) for (x, right), v in
            zip(((40, False), (100, False), (380, True), (450, True), (550, True)), item)]
    totals = _below(320, [("Sous-total :", "17,64 €"), ("TVA 20% :", "3,53 €"), ("Total à payer :", "21,17 €"),
                          ("Montant payé :", "21,17 €"), ("Solde dû :", "0,00 €")])
    reading = read_invoice(_pdf(heads + rows + totals, header), "f.pdf")
    f = reading.fields
    assert (f.invoice_number, f.invoice_date, f.customer_id) == ("536460", dt.date(2010, 12, 1), "14849")
    assert (f.subtotal, f.tax, f.total) == (Decimal("17.64"), Decimal("3.53"), Decimal("21.17"))
    assert not reading.needs_review, _failed(reading)


def test_an_order_date_beside_the_invoice_date_is_not_taken_for_it():
    """Labels over their values, as shop platforms print them: ``Order No. | Date ordered | Invoice No.`` over
    ``840-111 | 24 November 2010 | 536535``, then ``Invoice issued | Customer ID`` over ``1 December 2010 | 15605``:
    the invoice date is 1 December, not the order's."""
    header = [(40, 60, "Order No."), (200, 60, "Date ordered"), (380, 60, "Invoice No."),
              (40, 72, "840-1111840-3015977"), (200, 72, "24 November 2010"), (380, 72, "536535"),
              (40, 90, "Invoice issued"), (200, 90, "Customer ID"), (40, 102, "1 December 2010"),
              (200, 102, "15605")]
    heads = [(40, 250, "Code", False), (100, 250, "Product", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    rows = [(x, 275 + 14 * k, v, right) for k, item in enumerate(ITEMS) for (x, right), v in
            zip(((40, False), (100, False), (380, True), (450, True), (550, True)), item)]
    reading = read_invoice(_pdf(heads + rows + _below(320, [("Subtotal:", "£17.64"), ("Total:", "£17.64")]),
                                header), "o.pdf")
    assert (reading.fields.invoice_number, reading.fields.invoice_date, reading.fields.customer_id) == (
        "536535", dt.date(2010, 12, 1), "15605")


def test_a_credit_notes_total_refunded_with_no_total_above_it_is_its_total():
    """A marketplace credit note prints ``Subtotal``, ``Total VAT`` and ``Total refunded: -£1.50`` and no other
    total: that is its total, not a payment under one."""
    heads = [(40, 250, "Code", False), (100, 250, "Product", False), (380, 250, "Qty", True),
             (450, 250, "Price", True), (550, 250, "Amount", True)]
    credit = [(40, 275, "84947", False), (100, 275, "ANTIQUE SILVER TEA GLASS ENGRAVED", False),
              (380, 275, "-1", True), (450, 275, "1.25", True), (550, 275, "-1.25", True)]
    totals = _below(300, [("Subtotal:", "-£1.25"), ("Total VAT:", "-£0.25"), ("Total refunded:", "-£1.50")])
    reading = read_invoice(_pdf(heads + credit + totals), "c.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("-1.25"), Decimal("-0.25"), Decimal("-1.50"))
    assert not reading.needs_review, _failed(reading)


def test_a_value_under_its_label_beside_a_column_the_vocabulary_does_not_know():
    """``Date de facturation | N° client | Remboursé sur`` over ``02/12/2010 | 13767 | Carte bancaire (Visa
    9420)``: the customer number is the one under its label; the words under the next, unknown label are no part
    of it."""
    header = [(40, 60, "Numéro d'avoir"), (40, 72, "C536758"), (40, 90, "Date de facturation"),
              (200, 90, "N° client"), (320, 90, "Remboursé sur"), (40, 102, "02/12/2010"), (200, 102, "13767"),
              (320, 102, "Carte bancaire (Visa 9420)"), (40, 116, "Pays : United Kingdom")]
    heads = [(40, 250, "Réf.", False), (100, 250, "Désignation", False), (380, 250, "Qté", True),
             (450, 250, "P.U. HT", True), (550, 250, "Montant", True)]
    rows = [(40, 275, "22632", False), (100, 275, "HAND WARMER RED POLKA DOT", False), (380, 275, "-2", True),
            (450, 275, "2,10 €", True), (550, 275, "-4,20 €", True)]
    reading = read_invoice(_pdf(heads + rows + _below(300, [("Sous-total :", "-4,20 €"),
                                                             ("Total :", "-4,20 €")]), header), "a.pdf")
    assert (reading.fields.invoice_number, reading.fields.customer_id) == ("C536758", "13767")


def test_a_loyalty_number_is_the_customers_and_a_bracketed_code_alone_is_a_code_with_no_name():
    """A shop's receipt names its customer by the loyalty card (``LOYALTY NO.: 17850``); a line printing only
    ``[37461]`` where the name goes is a product with that code and no name."""
    header = [(40, 60, "TRANS. NO.: 536750"), (40, 74, "LOYALTY NO.: 17850"), (40, 88, "TRANS. DATE: 02-Dec-2010"),
              (40, 102, "Country: United Kingdom"), (40, 116, "Currency: GBP")]
    heads = [(40, 250, "Description", False), (380, 250, "Qty", True), (450, 250, "Price", True),
             (550, 250, "Amount", True)]
    rows = [(40, 275, "[22632] HAND WARMER RED POLKA DOT", False), (380, 275, "6", True), (450, 275, "1.85", True),
            (550, 275, "11.10", True), (40, 289, "[37461]", False), (380, 289, "3", True), (450, 289, "0.00", True),
            (550, 289, "0.00", True)]
    reading = read_invoice(_pdf(heads + rows + _below(320, [("Total:", "11.10")]), header), "r.pdf")
    assert reading.fields.customer_id == "17850"
    assert _lines(reading) == [("22632", "HAND WARMER RED POLKA DOT", 6, Decimal("1.85"), Decimal("11.10")),
                               ("37461", None, 3, Decimal("0.00"), Decimal("0.00"))]
