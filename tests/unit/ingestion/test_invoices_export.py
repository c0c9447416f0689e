"""What exporters and spreadsheets print, read from real PDFs (ReportLab). Export invoices: the customs tariff
number, the origin and the weight beside the product's code (``HS Code``, ``COO``, ``Net kg``), the line's position
under ``ITEM`` a word space before ``DESCRIPTION``, the country of destination beside a port in the next box, ports
and airports labelled as places, capitals (``UNITED KINGDOM``), freight and insurance at 0.00 with no tax.
Spreadsheets printed to PDF: a currency sign at the cell's left edge and the number at its right (the accounting
format), numeric codes right-aligned just before the description, ``QUANTITY`` a word space before ``PART #``,
wrapped descriptions with the numbers at the cell's foot, the sheet's row numbers down its side and column letters
over each page, and a second page with no headings of its own. Each is read as a person reads it."""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from ingestion.invoices.read import read_invoice
from tests.unit.ingestion.test_invoices_shop import _failed, _lines

D = Decimal


def _pages(*pages: list[tuple[float, float, str, str]], size: float = 8.5, paper=A4) -> bytes:
    """Pages of (x, y from the top, text, "l" or "r" aligned at x)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=paper)
    for page in pages:
        c.setFont("Helvetica", size)
        for x, y, text, align in page:
            (c.drawRightString if align == "r" else c.drawString)(x, paper[1] - y, text)
        c.showPage()
    c.save()
    return buf.getvalue()


EXPORT_LINES = [("22865", "HAND WARMER OWL DESIGN", 12, D("2.10"), D("25.20")),
                ("22633", "HAND WARMER UNION JACK", 24, D("2.10"), D("50.40")),
                ("21889", "WOODEN BOX OF DOMINOES", 12, D("1.25"), D("15.00"))]


def _export(country_box: str) -> bytes:
    head = [(40, 50, "Marlow & Finch Trading Ltd", "l"), (220, 50, "COMMERCIAL INVOICE", "l"),
            (40, 62, "Dock Lane, Ipswich IP3 0BD", "l"), (40, 74, "VAT Reg. No. GB 144 7749 46", "l"),
            (300, 90, "Invoice No.:", "l"), (430, 90, "Date:", "l"), (300, 101, "536611", "l"),
            (430, 101, "02-Dec-2010", "l"), (300, 116, "Customer Account:", "l"), (430, 116, "Invoice Currency:", "l"),
            (300, 127, "15752", "l"), (430, 127, "GBP", "l"),
            (40, 116, "Ship To / Consignee", "l"), (40, 127, "Bright Ideas Trading", "l"),
            (40, 138, "Attn: Receiving", "l"), (40, 149, country_box, "l"),
            (300, 142, "Country of Destination:", "l"), (430, 142, "Port of Export:", "l"),
            (300, 153, country_box, "l"), (430, 153, "Felixstowe", "l"),
            (300, 168, "Port of Destination:", "l"), (430, 168, "Incoterm:", "l"),
            (300, 179, "London Heathrow", "l"), (430, 179, "CIF London", "l")]
    xs = {"item": 40, "desc": 62, "sku": 250, "hs": 300, "coo": 360, "qty": 410, "kg": 450, "price": 500,
          "value": 555}
    heads = [(40, 220, "ITEM", "l"), (62, 220, "DESCRIPTION", "l"), (250, 220, "SKU", "l"),
             (300, 220, "HS CODE", "l"), (360, 220, "COO", "l"), (410, 220, "QTY", "r"), (450, 220, "NET KG", "r"),
             (500, 220, "UNIT PRICE", "r"), (555, 220, "TOTAL VALUE", "r")]
    rows = []
    for k, (code, name, qty, price, amount) in enumerate(EXPORT_LINES):
        y = 238 + 13 * k
        rows += [(50, y, str(k + 1), "r"), (xs["desc"], y, name, "l"), (xs["sku"], y, code, "l"),
                 (xs["hs"], y, "4014 90 00", "l"), (xs["coo"], y, "CN", "l"), (xs["qty"], y, str(qty), "r"),
                 (xs["kg"], y, "3.240", "r"), (xs["price"], y, f"{price}", "r"), (xs["value"], y, f"{amount}", "r")]
    totals = [(400, 290, "TOTAL GOODS VALUE", "l"), (555, 290, "90.60", "r"), (400, 302, "FREIGHT", "l"),
              (555, 302, "0.00", "r"), (400, 314, "INSURANCE", "l"), (555, 314, "0.00", "r"),
              (400, 326, "TOTAL CIF VALUE GBP", "l"), (555, 326, "90.60", "r"),
              (40, 350, "Export sale, zero-rated for VAT.", "l")]
    return _pages(head + heads + rows + totals)


def test_an_export_invoice_reads_the_products_code_and_the_country_of_destination_not_a_port():
    """The tariff number, the origin and the weight are no value; the line's position under ``ITEM`` is no part of
    the description; a port beside the country is not the country; freight and insurance at 0.00 are no tax."""
    for printed, country in (("United Kingdom", "United Kingdom"), ("UNITED KINGDOM", "United Kingdom")):
        reading = read_invoice(_export(printed), "i.pdf")
        f = reading.fields
        assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country, f.currency) == \
            ("536611", "2010-12-02", "15752", country, "GBP")
        assert (f.subtotal, f.tax, f.total) == (D("90.60"), None, D("90.60"))
        assert _lines(reading) == EXPORT_LINES
        assert not reading.needs_review, _failed(reading)


SHEET_LINES = [("22630", "DOLLY GIRL LUNCH BOX", 1, D("1.95"), D("1.95")),
               ("22867", "HAND WARMER BIRD DESIGN", 1, D("2.10"), D("2.10")),
               ("84031A", "CHARLIE+LOLA RED HOT WATER BOTTLE", 3, D("4.65"), D("13.95")),
               ("21494", "ROTATING LEAVES T-LIGHT HOLDER", 3, D("1.25"), D("3.75")),
               ("22651", "GENTLEMAN SHIRT REPAIR KIT", 7, D("0.85"), D("5.95")),
               ("21094", "SET/6 RED SPOTTY PAPER PLATES", 6, D("0.85"), D("5.10"))]


def _sheet(wrap: int, split: int) -> bytes:
    """A spreadsheet invoice printed on two pages: row numbers down the side, column letters over each page, the
    headings on the first only; descriptions longer than ``wrap`` characters wrap, the numbers at the cell's foot;
    the lines from ``split`` on go to the second page."""
    letters = [(x, 40, t, "l") for x, t in zip((100, 150, 250, 440, 500, 540), "ABCDEF")]
    first = letters + [(100, 60, "Golden Crane Trading Co., Ltd.", "l"), (100, 74, "Unit 1208, Kwun Tong Plaza", "l"),
                       (100, 88, "Hong Kong", "l"), (100, 102, "Tel: (852) 2345 6491", "l"),
                       (370, 116, "INVOICE NO.", "l"), (480, 116, "536821", "l"), (370, 130, "DATE", "l"),
                       (480, 130, "2 Dec 2010", "l"), (370, 144, "CUSTOMER NO.", "l"), (480, 144, "17757", "l"),
                       (100, 172, "BILL TO:", "l"), (100, 186, "Lantern House Stores", "l"),
                       (100, 200, "Attn: Accounts Payable", "l"), (100, 214, "United Kingdom", "l"),
                       (100, 242, "QUANTITY", "l"), (146, 242, "PART #", "l"), (230, 242, "DESCRIPTION", "l"),
                       (480, 242, "UNIT PRICE", "r"), (555, 242, "AMOUNT", "r"), (100, 520, "All amounts in HKD", "l")]
    pages, y = [first, list(letters)], 262.0
    for k, (code, name, qty, price, amount) in enumerate(SHEET_LINES):
        if k == split:
            y = 60.0
        page = pages[k >= split]
        parts, line = [], ""
        for word in name.split():
            if line and len(line) + 1 + len(word) > wrap:
                parts.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        parts.append(line)
        for part in parts[:-1]:
            page.append((230, y, part, "l"))
            y += 11
        code_at = (226, "r") if code.isdigit() else (150, "l")  # numbers to the cell's right, text to its left
        page += [(140, y, str(qty), "r"), (code_at[0], y, code, code_at[1]), (230, y, parts[-1], "l"),
                 (420, y, "HK$", "l"), (480, y, f"{price}", "r"), (495, y, "HK$", "l"), (555, y, f"{amount}", "r")]
        y += 18
    pages[1] += [(430, y + 10, "Sub Total", "l"), (495, y + 10, "HK$", "l"), (555, y + 10, "32.80", "r"),
                 (430, y + 24, "TOTAL", "l"), (495, y + 24, "HK$", "l"), (555, y + 24, "32.80", "r")]
    for page in pages:  # the sheet's row numbers down its side, one per printed row
        rows = sorted({y for _, y, _, _ in page if y > 50})
        page += [(80, y, str(n), "r") for n, y in enumerate(rows, 1)]
    return _pages(*pages, size=8)


def test_a_spreadsheet_printed_over_two_pages_reads_as_its_cells():
    """Each sign goes with its number, each code (right-aligned digits or left-aligned letters) with its column,
    a wrapped description's first rows with the numbers under them, the second page's lines under the first
    page's columns, and the customer's country, not the sender's, is the country."""
    for wrap, split in ((60, 4), (22, 3)):
        reading = read_invoice(_sheet(wrap, split), "i.pdf")
        f = reading.fields
        assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country, f.currency) == \
            ("536821", "2010-12-02", "17757", "United Kingdom", "HKD")
        assert (f.subtotal, f.total) == (D("32.80"), D("32.80"))
        assert _lines(reading) == SHEET_LINES
        assert [line.page for line in reading.lines] == [1] * split + [2] * (len(SHEET_LINES) - split)
        assert not reading.needs_review, _failed(reading)


def _local(labels: tuple[str, ...], heads: tuple[str, ...], totals: list[tuple[str, str]]) -> bytes:
    number, date, customer = labels
    page = [(40, 50, "Van der Molen Interieur B.V.", "l"), (40, 62, "3024 SK Rotterdam", "l"),
            (40, 74, "Netherlands", "l"), (40, 86, "KvK 00592248 BTW NL005922485B01", "l"),
            (330, 62, number, "l"), (500, 62, "536460", "l"), (330, 74, date, "l"), (500, 74, "01-12-2010", "l"),
            (330, 86, customer, "l"), (500, 86, "14849", "l"),
            (40, 120, "Hearth & Home Interiors", "l"), (40, 132, "United Kingdom", "l")]
    xs = ((30, "l"), (80, "l"), (140, "l"), (420, "r"), (480, "r"), (555, "r"))
    page += [(x, 170, text, align) for (x, align), text in zip(xs, heads)]
    for k, (code, name, qty, price, amount) in enumerate(SHEET_LINES[:3]):
        values = (str(k + 1), code, name, str(qty), f"{price}".replace(".", ","), f"{amount}".replace(".", ","))
        page += [(x, 186 + 12 * k, text, align) for (x, align), text in zip(xs, values)]
    page += [(400, 240 + 12 * k, label, "l") for k, (label, _) in enumerate(totals)]
    page += [(555, 240 + 12 * k, value, "r") for k, (_, value) in enumerate(totals)]
    return _pages(page)


def test_dutch_and_german_labels_and_headings_are_read():
    """``Factuurnummer``, ``Debiteurnummer``, ``Artikel``, ``Aantal``, ``Vracht``, ``Te betalen``; and
    ``Rechnungsnummer``, ``Kundennummer``, ``Bezeichnung``, ``Menge``, ``Zwischensumme``, ``Gesamtbetrag``."""
    dutch = _local(("FACTUURNUMMER", "FACTUURDATUM", "DEBITEURNUMMER"),
                   ("REGEL", "ARTIKELNR.", "ARTIKEL", "AANTAL", "PRIJS", "REGELTOTAAL"),
                   [("SUBTOTAAL", "17,00"), ("VRACHT", "0,00"), ("TE BETALEN", "17,00")])
    german = _local(("Rechnungsnummer:", "Rechnungsdatum:", "Kundennummer:"),
                    ("Pos.", "Artikelnummer", "Bezeichnung", "Menge", "Einzelpreis", "Gesamtpreis"),
                    [("Zwischensumme", "17,00"), ("MwSt. 19 %", "3,23"), ("Gesamtbetrag", "20,23")])
    for data, tax, total in ((dutch, None, D("17.00")), (german, D("3.23"), D("20.23"))):
        reading = read_invoice(data, "i.pdf")
        f = reading.fields
        assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id) == ("536460", "2010-12-01", "14849")
        assert (f.subtotal, f.tax, f.total) == (D("17.00"), tax, total)
        assert _lines(reading) == SHEET_LINES[:3]
