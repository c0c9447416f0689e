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
