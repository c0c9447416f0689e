"""An e-invoice's visualisation read from real PDFs (ReportLab): labels carrying their EN 16931 business-term
references (``Invoice number (BT-1):``, ``BT-2 Invoice issue date``), the buyer's country as its ISO code beside
the address that names it, a column of unit codes (C62) beside the quantity, and titled sections (``Document
totals``) after a table of one line. Each is read as a person reads it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ingestion.invoices.read import read_invoice
from tests.unit.ingestion.test_invoices_export import _pages
from tests.unit.ingestion.test_invoices_shop import _failed, _lines

D = Decimal


def _visual(before: bool, named: str) -> bytes:
    """The references before the labels (``before``) or after them in brackets; ``named``: the country as the
    buyer's address prints it, over its code."""
    def label(term: str, text: str) -> str:
        return f"{term} {text}:" if before else f"{text} ({term}):"
    page = [(50, 48, "INVOICE", "l"), (400, 48, "Peppol BIS Billing 3.0", "l"),
            (50, 78, "Seller (BG-4)" if not before else "BG-4 Seller", "l"),
            (306, 78, "Buyer (BG-7)" if not before else "BG-7 Buyer", "l"),
            (50, 94, label("BT-27", "Seller name"), "l"), (180, 94, "Lindqvist Presenter AB", "l"),
            (306, 94, label("BT-44", "Buyer name"), "l"), (420, 94, "Willowbank Stores", "l"),
            (180, 104, "Kungsportsavenyen 22", "l"), (306, 104, label("BT-46", "Buyer identifier"), "l"),
            (420, 104, "14911", "l"), (180, 115, "411 36 Goteborg", "l"), (420, 115, "3 Church Lane", "l"),
            (180, 126, "Sweden (SE)", "l"), (420, 126, named, "l"),
            (50, 137, label("BT-31", "Seller VAT identifier"), "l"), (180, 137, "SE493720865801", "l"),
            (306, 137, label("BT-55", "Buyer country code"), "l"), (420, 137, "IE", "l"),
            (50, 165, "Invoice details (BG-2)" if not before else "BG-2 Invoice details", "l"),
            (50, 181, label("BT-1", "Invoice number"), "l"), (180, 181, "536803", "l"),
            (306, 181, label("BT-9", "Payment due date"), "l"), (430, 181, "16 December 2010", "l"),
            (50, 192, label("BT-2", "Invoice issue date"), "l"), (180, 192, "2 December 2010", "l"),
            (50, 203, label("BT-5", "Invoice currency code"), "l"), (180, 203, "SEK", "l"),
            (56, 247, "Pos", "l"), (78, 247, "Name", "l"), (318, 247, "Item identifier", "l"), (420, 247, "Qty", "r"),
            (426, 247, "Unit code", "l"), (505, 247, "Net price", "r"), (565, 247, "Net amount", "r"),
            (66, 262, "1", "r"), (78, 262, "GREY HEART HOT WATER BOTTLE", "l"), (318, 262, "22113", "l"),
            (420, 262, "6", "r"), (426, 262, "C62", "l"), (505, 262, "3,75", "r"), (565, 262, "22,50", "r"),
            (316, 285, "Document totals (BG-22)" if not before else "BG-22 Document totals", "l"),
            (316, 301, label("BT-106", "Sum of invoice line net amount"), "l"), (545, 301, "22,50", "r"),
            (316, 312, label("BT-110", "Invoice total VAT amount"), "l"), (545, 312, "5,63", "r"),
            (316, 323, label("BT-112", "Invoice total amount with VAT"), "l"), (545, 323, "28,13", "r"),
            (316, 334, label("BT-115", "Amount due for payment"), "l"), (545, 334, "28,13", "r")]
    return _pages(page, size=8)


@pytest.mark.parametrize("before", [True, False])
def test_an_e_invoice_visualisation_reads_its_labels_past_their_references(before):
    for named, country in (("EIRE", "EIRE"), ("Ireland", "Ireland"), ("", "Ireland")):
        reading = read_invoice(_visual(before, named) if named else _visual(before, " "), "v.pdf")
        f = reading.fields
        assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country, f.currency) == \
            ("536803", "2010-12-02", "14911", country, "SEK"), named
        assert (f.subtotal, f.tax, f.total) == (D("22.50"), D("5.63"), D("28.13"))
        assert _lines(reading) == [("22113", "GREY HEART HOT WATER BOTTLE", 6, D("3.75"), D("22.50"))]
        assert not reading.needs_review, _failed(reading)


BLOCK_LINES = [("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", 6, D("2.55"), D("15.30")),
               ("71053", "WHITE METAL LANTERN", 6, D("3.39"), D("20.34")),
               ("84406B", "CREAM CUPID HEARTS COAT HANGER", 8, D("2.75"), D("22.00"))]


def _head(y: float = 0) -> list[tuple[float, float, str, str]]:
    return [(42, 40, "FAKTURA", "l"), (400, 40, "EHF Billing 3.0", "l"),
            (42, 70, "Fakturanummer:", "l"), (150, 70, "536530", "l"), (42, 81, "Fakturadato:", "l"),
            (150, 81, "01.12.2010", "l"), (300, 70, "Kundenummer:", "l"), (400, 70, "17905", "l"),
            (300, 81, "Landkode:", "l"), (400, 81, "GB", "l"), (42, 92, "Valuta:", "l"), (150, 92, "NOK", "l")]


def _totals(y: float) -> list[tuple[float, float, str, str]]:
    """A VAT breakdown of two amounts a row, the document totals beside it, and the payment terms under them."""
    return [(42, y, "MVA-spesifikasjon", "l"), (290, y, "Totalbeløp", "l"),
            (42, y + 14, "Kategori", "l"), (100, y + 14, "Grunnlag", "l"), (160, y + 14, "MVA-beløp", "l"),
            (290, y + 14, "Sum eks. mva", "l"), (540, y + 14, "57,64", "r"),
            (42, y + 25, "S 25 %", "l"), (140, y + 25, "57,64", "r"), (200, y + 25, "14,41", "r"),
            (290, y + 25, "MVA 25 %", "l"), (540, y + 25, "14,41", "r"),
            (290, y + 36, "Å betale", "l"), (540, y + 36, "72,05", "r"),
            (42, y + 60, "Betalingsbetingelser:", "l"), (150, y + 60, "Netto 8 dager", "l")]


def _blocks(colon: str) -> bytes:
    """Each line a block of labelled values (``colon`` after each label, or none), in Norwegian."""
    page, y = _head(), 120.0
    for n, (code, name, qty, price, amount) in enumerate(BLOCK_LINES, 1):
        page += [(42, y, f"Linje{colon}", "l"), (110, y, str(n), "l"), (42, y + 12, f"Varenavn{colon}", "l"),
                 (110, y + 12, name, "l"), (42, y + 24, f"Varenummer{colon}", "l"), (110, y + 24, code, "l"),
                 (300, y + 24, f"Antall{colon}", "l"), (360, y + 24, f"{qty},00 EA", "l"),
                 (42, y + 36, f"Nettopris{colon}", "l"), (110, y + 36, f"{price}".replace(".", ","), "l"),
                 (300, y + 36, f"Nettobeløp{colon}", "l"), (360, y + 36, f"{amount}".replace(".", ","), "l")]
        y += 58
    return _pages(page + _totals(y + 10), size=8)


def _numbered(counter: str = "Nr.") -> bytes:
    """The lines as a table whose first column numbers them (``Nr.``, ``Pos.``), right-aligned under its heading,
    under the section's title set over the first two columns."""
    page = _head() + [(42, 111, "Rechnungspositionen", "l"), (42, 120, counter, "l"), (70, 120, "Varenr.", "l"),
                      (140, 120, "Beskrivelse", "l"),
                      (380, 120, "Antall", "r"), (450, 120, "Pris", "r"), (540, 120, "Beløp", "r")]
    for n, (code, name, qty, price, amount) in enumerate(BLOCK_LINES, 1):
        y = 135 + 15 * n
        page += [(56, y, str(n), "r"), (70, y, code, "l"), (140, y, name, "l"), (380, y, str(qty), "r"),
                 (450, y, f"{price}".replace(".", ","), "r"), (540, y, f"{amount}".replace(".", ","), "r")]
    return _pages(page + _totals(215), size=8)


def test_lines_printed_as_blocks_of_labelled_values_or_numbered_are_read_whole():
    """Blocks of labelled values (with colons or without), and a table numbering its lines in a column of its
    own, each read into the lines; a VAT breakdown's rows of two amounts are no lines, and the payment terms'
    ``Netto 8 dager`` is no subtotal."""
    for data in (_blocks(":"), _blocks(""), _numbered(), _numbered("Pos.")):
        reading = read_invoice(data, "b.pdf")
        f = reading.fields
        assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country, f.currency) == \
            ("536530", "2010-12-01", "17905", "United Kingdom", "NOK")
        assert (f.subtotal, f.tax, f.total) == (D("57.64"), D("14.41"), D("72.05"))
        assert _lines(reading) == BLOCK_LINES
        assert not reading.needs_review, _failed(reading)


def test_a_sections_title_over_two_headings_is_no_second_heading_line():
    """``Rechnungspositionen`` set just over ``Pos.`` and ``Art.-Nr.`` (as a scan's tall rows set it) titles the
    table: it is not read as the first line of a heading standing over both (which made one column of the two,
    the position glued to each code); ``Unit`` over ``price`` still is."""
    from ingestion.invoices.heading import _stacked
    from ingestion.invoices.words import Word

    title = [Word("Rechnungspositionen", 47, 243, 134, 256, 1, True)]
    lower = [Word("Pos.", 53, 257, 71, 270, 1, True), Word("Art.-Nr.", 77, 257, 108, 270, 1, True)]
    assert _stacked(title, lower) is None
    assert [w.text for w in _stacked([Word("Unit", 100, 0, 118, 9, 1)], [Word("price", 98, 10, 120, 19, 1)])] == \
        ["Unit", "price"]
