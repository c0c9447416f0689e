"""Where the line-item table ends and what its headings name, read from real PDFs (ReportLab): payment terms and a
totals box's title under the last line are no part of its description, two headings a space apart are one named by
its last word ("Item price"), a heading over no value gives up its role to the column whose content has it, the
words of "Product / Service" are one heading, and a customer label of signs ("A/C No.") still names the customer;
where the reader cannot tell, it says so: words above a page's first line read into its description, a code column
that holds descriptions' words, a description starting with what may be the line's code. "Item No." over a code of
words names the code, and a column of units never does."""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from ingestion.invoices.read import read_invoice

ITEMS = [("22632", "HAND WARMER RED POLKA DOT", "6", "1.85", "11.10"),
         ("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", "12", "2.55", "30.60"),
         ("21754", "HOME BUILDING BLOCK WORD", "3", "5.95", "17.85")]
HEADER = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 01/12/2010 (dd/mm/yyyy)"),
          (40, 88, "Customer no: 12947"), (40, 102, "Country: United Kingdom"), (40, 116, "Currency: GBP")]


def _pdf(headings, cells, items=ITEMS, header=HEADER, after=(), totals="beside", lead=0) -> bytes:
    """An invoice: ``header`` (x, y from the top, text); ``headings`` (x, text, right-aligned) over the items, each
    item's values put in the columns by ``cells`` (item -> the texts in heading order); ``after`` (x, y below the
    last line, text), ``lead`` points more under the headings; then the totals, each label beside its amount or (``"over"``) a row of labels over the amounts."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)

    def text(x, y, s, right=False):
        c.setFont("Helvetica", 9)
        (c.drawRightString if right else c.drawString)(x, A4[1] - y, s)

    for x, y, s in header:
        text(x, y, s)
    y = 250
    for x, s, right in headings:
        text(x, y, s, right)
    y += lead  # room under the headings
    for item in items:
        y += 15
        for (x, _, right), s in zip(headings, cells(item)):
            text(x, y, s, right)
    for x, dy, s in after:
        text(x, y + dy, s)
    y += max((dy for _, dy, _ in after), default=0) + 30
    net = sum(Decimal(i[4]) for i in items)
    sums = (("Subtotal", net), ("VAT 20%", net / 5), ("Total", net * 6 / 5))
    if totals == "over":  # labels in a row, each amount under the space between its label and the next
        for (label, amount), x in zip(sums, (130, 300, 420)):
            text(x, y, label), text(x + 70, y + 12, f"{amount:.2f}", right=True)
    else:
        for k, (label, amount) in enumerate(sums):
            text(400, y + 14 * k, label), text(550, y + 14 * k, f"{amount:.2f}", right=True)
    c.showPage()
    c.save()
    return buf.getvalue()


PLAIN = [(40, "Code", False), (110, "Description", False), (400, "Qty", True), (470, "Price", True),
         (550, "Amount", True)]


def _lines(reading):
    return [(ln.code, ln.description, ln.quantity, ln.unit_price, ln.amount) for ln in reading.lines]


def _want(items=ITEMS):
    return [(code, desc, Decimal(q), Decimal(p), Decimal(a)) for code, desc, q, p, a in items]


def _failed(reading) -> set[str]:
    return {c.name for c in reading.checks if not c.passed}


def test_payment_terms_under_the_last_line_are_not_read_into_its_description_or_code():
    after = [(40, 15, "Please pay by bank transfer to Hollins & Vane Ltd, Sort code 76-72-44,"),
             (40, 26, "Account 96693503. Thank you for your business!")]
    reading = read_invoice(_pdf(PLAIN, lambda i: i, after=after), "x.pdf")
    assert _lines(reading) == _want()
    assert reading.fields.customer_id == "12947" and reading.fields.total == Decimal("71.46")
    assert not reading.needs_review, _failed(reading)


def test_a_totals_box_title_further_below_than_the_lines_are_apart_is_no_wrapped_description():
    items = ITEMS + [("22815", "CARD PSYCHEDELIC APPLES AND PEARS IN A", "12", "0.42", "5.04")]
    for wrap in ("", "BASKET"):  # a wrap as close under its line as lines are apart; the title further down
        after = [(110, 11, wrap)] * bool(wrap) + [(110, 38 if wrap else 27, "Document totals")]
        reading = read_invoice(_pdf(PLAIN, lambda i: i, items=items, after=after), "x.pdf")
        want = _want(items)
        want[-1] = want[-1][:1] + (f"{want[-1][1]} {wrap}".strip(),) + want[-1][2:]
        assert _lines(reading) == want, wrap
        assert not reading.needs_review, _failed(reading)


def test_item_price_is_a_price_and_the_article_number_column_holds_the_codes():
    headings = [(40, "ARTICLE NUMBER", False), (130, "PRODUCT NAME", False), (345, "ITEM PRICE", False),
                (430, "QTY", True), (550, "TOTAL (EXCL. VAT)", True)]
    reading = read_invoice(_pdf(headings, lambda i: (i[0], i[1], i[3], i[2], i[4])), "x.pdf")
    assert _lines(reading) == _want()
    assert not reading.needs_review, _failed(reading)


def test_item_details_is_the_description_and_a_vat_code_column_is_no_products_code():
    headings = [(40, "Stock Ref.", False), (110, "Quant.", True), (130, "Item Details", False),
                (400, "Unit Cost", True), (470, "Value", True), (500, "VAT Code", False)]
    reading = read_invoice(_pdf(headings, lambda i: (i[0], i[2], i[1], i[3], i[4], "T1"), totals="over"), "x.pdf")
    assert reading.fields.total == Decimal("71.46")
    assert _lines(reading) == _want()
    assert not reading.needs_review, _failed(reading)


def test_product_slash_service_is_one_heading_and_keeps_the_whole_description():
    headings = [(40, "Quant.", True), (50, "Unit", False), (80, "Product Ref.", False),
                (150, "Product / Service", False), (470, "Unit Cost", True), (550, "Ext. Price", True)]
    items = [("21080", "SET/20 RED RETROSPOT PAPER NAPKINS", "96", "0.72", "69.12")]
    reading = read_invoice(_pdf(headings, lambda i: (i[2], "PCE", i[0], i[1], i[3], i[4]), items=items), "x.pdf")
    assert _lines(reading) == _want(items)
    assert not reading.needs_review, _failed(reading)


def test_a_customer_label_of_signs_stacked_over_its_number_names_the_customer():
    header = [(40, 60, "Invoice no: 536582"), (40, 74, "Invoice date: 01/12/2010 (dd/mm/yyyy)"),
              (300, 60, "A/C No."), (300, 72, "17017"), (40, 102, "Country: United Kingdom"),
              (40, 116, "Currency: GBP")]
    reading = read_invoice(_pdf(PLAIN, lambda i: i, header=header), "x.pdf")
    assert reading.fields.customer_id == "17017"
    assert not reading.needs_review, _failed(reading)


def test_words_between_the_headings_and_the_first_line_are_read_into_it_and_flagged():
    title = [(110, 265, "Christmas decorations")]  # a group's title under the headings
    reading = read_invoice(_pdf(PLAIN, lambda i: i, header=HEADER + title, lead=15), "x.pdf")
    assert reading.needs_review and "line 1: description joined" in _failed(reading)


def test_codes_printed_in_the_description_column_are_read_apart_even_where_one_has_no_digit():
    items = ITEMS + [("POST", "POSTAGE", "1", "18.00", "18.00")]
    headings = [(40, "Description", False), (400, "Qty", True), (470, "Price", True), (550, "Amount", True)]
    reading = read_invoice(_pdf(headings, lambda i: (f"{i[0]} {i[1]}", i[2], i[3], i[4]), items=items), "x.pdf")
    assert _lines(reading) == _want(items)
    assert _failed(reading) == {"line 4: code told apart"}  # POST has no digit: the split there is a guess


def test_a_description_starting_with_a_code_on_a_line_with_no_code_is_flagged():
    headings = [(40, "Description", False), (400, "Qty", True), (470, "Price", True), (550, "Amount", True)]
    first = ITEMS[0][0]  # one line's code printed in its description, in a table printing no codes
    reading = read_invoice(_pdf(headings, lambda i: ((i[0] + " ") * (i[0] == first) + i[1], *i[2:])), "x.pdf")
    assert reading.lines[0].code is None and reading.lines[0].description.startswith(first + " ")
    assert _failed(reading) == {"line 1: code told apart"}


def test_item_no_over_a_code_of_words_names_the_code_and_a_unit_column_never_does():
    # One line whose code is words ("BANK CHARGES", as the records print it), the code column last, a unit beside.
    headings = [(40, "Description", False), (250, "Qty", True), (270, "U/M", False), (360, "Unit Price", True),
                (440, "Amount", True), (460, "Item No.", False)]
    items = [("BANK CHARGES", "Bank Charges", "1", "15.00", "15.00")]
    reading = read_invoice(_pdf(headings, lambda i: (i[1], i[2], "PCS", i[3], i[4], i[0]), items), "bank.pdf")
    assert _lines(reading) == _want(items)
    # Without a heading naming it, a column of units is still no code: the line has none, rather than "PCS".
    unnamed = [(x, "Unit" if s == "U/M" else s, r) for x, s, r in headings[:-1]]
    reading = read_invoice(_pdf(unnamed, lambda i: (i[1], i[2], "PCS", i[3], i[4]), items), "bank.pdf")
    assert [ln.code for ln in reading.lines] == [None]
