"""A till's full VAT receipt read from real PDFs (ReportLab) on 80 mm roll paper: no row of column headings, each
item a row of ``quantity x price`` and its amount with the VAT rate's letter, the description on that row or the
rows above (wrapped on the narrow roll), the till's time, cashier, payment tendered and change beside the totals,
and a VAT summary under them that is no table of items. Each is read as a person reads it."""

from __future__ import annotations

from decimal import Decimal

from ingestion.invoices.read import read_invoice
from ingestion.invoices.receipt import read_receipt
from ingestion.invoices.words import Word
from tests.unit.ingestion.test_invoices_export import _pages
from tests.unit.ingestion.test_invoices_shop import _failed, _lines

D = Decimal
ROLL = (227.0, 600.0)
RETURN_BY = {"en": "31/12/2010", "fr": "31/12/10", "sv": "10-12-31"}
LINES = [("84755", "COLOUR GLASS T-LIGHT HOLDER HANGING", 16, D("0.65"), D("10.40")),
         ("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", 6, D("2.55"), D("15.30")),
         ("22178", "VICTORIAN GLASS HANGING T-LIGHT", 36, D("1.25"), D("45.00")),
         ("POST", "POSTAGE", 1, D("18.00"), D("18.00"))]


def _till(code_first: bool, language: str = "en") -> bytes:
    """A receipt whose items print code and description over the quantity row (``code_first``) or the
    description over a row of code and quantity; wrapped where a description is long for the roll."""
    words = {"en": ("TAX INVOICE", "Receipt No", "Date", "01/12/2010", "Time", "Till", "Cashier", "Cust Acc",
                    "Country", "Net total", "VAT @ 20.00%", "TOTAL GBP", "Cash tendered", "Change due", "ea"),
             "fr": ("TICKET-FACTURE", "Ticket n°:", "Date:", "01/12/10", "Heure:", "Caisse:", "Caissier:",
                    "Code client:", "Pays:", "Total HT:", "Montant TVA 20,00%:", "TOTAL TTC EUR", "Espèces:",
                    "Rendu:", "pce"),
             "sv": ("FAKTURA", "Kvittonr", "Datum", "10-12-01", "Tid", "Kassa", "Kassör", "Kundnr", "Land",
                    "Netto exkl. moms", "Moms 20,00 %", "ATT BETALA SEK", "Kontant", "Växel", "st")}[language]
    (title, number, date, when, time, till, cashier, customer, country, net, vat, total, cash, change,
     unit) = words
    money = (lambda v: f"{v:.2f}") if language == "en" else (lambda v: f"{v:.2f}".replace(".", ","))
    # a Swedish till's date is year first (10-12-01), its return-by date two weeks on: read as 1 December 2010
    page = [(20, 20, "Thistledown Homeware Ltd", "l"), (20, 31, "42 Grainger Street, Newcastle", "l"),
            (20, 42, "VAT Reg No GB181788379", "l"), (80, 62, title, "l"), (9, 84, number, "l"),
            (218, 84, "536573", "r"), (9, 95, f"{date} {when}", "l"), (150, 95, time, "l"), (218, 95, "12:07", "r"),
            (9, 106, f"{till} 10", "l"), (150, 106, f"{cashier} 765", "l"), (9, 117, customer, "l"),
            (218, 117, "17025", "r"), (9, 128, country, "l"), (218, 128, "United Kingdom", "r")]
    y = 150.0
    for code, name, qty, price, amount in LINES:
        text = f"{code} {name}" if code_first else name
        cut = text.rfind(" ", 0, 36) if len(text) > 36 else len(text)
        for part in (text[:cut], text[cut + 1:]):
            if part:
                page.append((9, y, part, "l"))
                y += 11
        lead = "" if code_first else f"{code}  "
        page += [(9, y, f"{lead}{qty} {unit} x {money(price)}", "l"), (205, y, money(amount), "r"),
                 (213, y, "A", "l")]
        y += 11
    y += 11
    for label, value in ((net, "88.70"), (vat, "17.74"), (total, "106.44"), (cash, "110.00"), (change, "3.56")):
        value = value if language == "en" else value.replace(".", ",")
        page += [(9, y, label, "l"), (218, y, value, "r")]
        y += 12
    page += [(9, y + 8, "Rate", "l"), (100, y + 8, "Net", "l"), (150, y + 8, "VAT", "l"), (218, y + 8, "Gross", "r"),
             (9, y + 19, "A 20%", "l"), (120, y + 19, "88.70", "r"), (170, y + 19, "17.74", "r"),
             (218, y + 19, "106.44", "r"), (20, y + 34, f"Returns until {RETURN_BY[language]}", "l"),
             (40, y + 46, "Thank you - please call again", "l")]
    return _pages(page, size=7.5, paper=ROLL)


def test_a_tills_receipt_reads_each_item_from_its_quantity_row_and_the_rows_above():
    """Code and description before the quantity row or split across it, a description wrapped onto a second row,
    a code with no digits (``POST``, taken as the other lines print theirs, and named for a reviewer), in English,
    French and Swedish (a date year first: ``10-12-01``, read so as the return-by date ``10-12-31`` is weeks on);
    the till's time, cashier, cash and change are no field, the VAT summary is no item."""
    for code_first in (True, False):
        for language in ("en", "fr", "sv"):
            reading = read_invoice(_till(code_first, language), "r.pdf")
            f = reading.fields
            assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country) == \
                ("536573", "2010-12-01", "17025", "United Kingdom"), (code_first, language)
            assert (f.subtotal, f.tax, f.total) == (D("88.70"), D("17.74"), D("106.44")), (code_first, language)
            assert _lines(reading) == LINES, (code_first, language)
            assert _failed(reading) == (["line 4: code told apart"] if code_first else []), (code_first, language)


def _row(y: float, *texts: str) -> list[Word]:
    return [Word(t, 10 + 30 * k, y, 10 + 30 * k + 25, y + 8, 1) for k, t in enumerate(texts)]


def test_a_row_is_an_item_only_where_quantity_x_price_is_its_amount():
    rows = [_row(0, "2", "x", "MUG", "1.50", "3.00"), _row(10, "3", "x", "1.50", "4.00"),
            _row(20, "SET", "OF", "3"), _row(30, "2", "x", "1.50", "3.00", "B"), _row(40, "6x1,85", "11,10")]
    assert [(x.description, x.quantity, x.amount) for x in read_receipt([rows]).lines] == [
        ("SET OF 3", D("2"), D("3.00")), (None, D("6"), D("11.10"))]


def test_a_row_of_the_receipts_head_is_no_part_of_the_first_items_description():
    """On a scan the typed rule between the head and the items is no gap: a row starting with a known label
    (``Land United Kingdom``, no colon) still ends the description above the first item."""
    rows = [_row(0, "Land", "United", "Kingdom"), _row(10, "DOORSTOP", "RETROSPOT"), _row(20, "2", "x", "1.50", "3.00")]
    assert [x.description for x in read_receipt([rows]).lines] == ["DOORSTOP RETROSPOT"]


def test_a_stray_number_between_the_code_and_the_quantity_is_no_description_and_is_named():
    """A scan's speck read as ``5`` between an item's code and its quantity (``84029E 5 6 x 3,39 20,34``): the
    description is still the row above, and the number, read into nothing, is named for a reviewer. A code with
    a word after it is still read as code and description on the row."""
    rows = [_row(0, "RED", "WOOLLY", "HOTTIE"), _row(10, "84029E", "5", "6", "x", "3,39", "20,34"),
            _row(30, "22752", "MUG", "2", "x", "1,50", "3,00")]
    table = read_receipt([rows])
    assert [(x.code, x.description, x.quantity, x.amount) for x in table.lines] == [
        ("84029E", "RED WOOLLY HOTTIE", D("6"), D("20.34")), ("22752", "MUG", D("2"), D("3.00"))]
    assert [name for name, _ in table.doubts] == ["line 1: description read"]
