"""An e-invoice's visualisation read from real PDFs (ReportLab): labels carrying their EN 16931 business-term
references (``Invoice number (BT-1):``, ``BT-2 Invoice issue date``), the buyer's country as its ISO code beside
the address that names it, a column of unit codes (C62) beside the quantity, and titled sections (``Document
totals``) after a table of one line. Each is read as a person reads it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ingestion.invoices.blocks import read_blocks
from ingestion.invoices.read import read_invoice
from ingestion.invoices.words import Word
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
        _read_whole(data, ("536530", "2010-12-01", "17905", "United Kingdom", "NOK"), ("57.64", "14.41", "72.05"))


def _read_whole(data: bytes, head: tuple, sums: tuple[str, str, str]) -> None:
    """``data`` read with ``head`` (number, date, customer, country, currency), ``sums`` (subtotal, tax, total)
    and the lines of :data:`BLOCK_LINES`, and nothing to check."""
    reading = read_invoice(data, "b.pdf")
    f = reading.fields
    assert (f.invoice_number, f.invoice_date.isoformat(), f.customer_id, f.country, f.currency) == head
    assert (f.subtotal, f.tax, f.total) == tuple(D(x) for x in sums)
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


STANDARD = {  # the standard's names of the fields, lines and totals, as French, German and Dutch viewers print them
    "fr": dict(title="Facture", number="Numéro de facture", date="Date d'émission", customer="Identifiant acheteur",
               order="Référence de commande", line="Ligne", name="Désignation", code="Référence vendeur",
               qty="Quantité facturée", price="Prix unitaire net", amount="Montant net de la ligne",
               subtotal="Montant total HT", tax="Montant total de la TVA", total="Montant total TTC",
               due="Montant à payer", currency="Devise de facturation", country="Code pays"),
    "de": dict(title="Rechnung", number="Rechnungsnummer", date="Rechnungsdatum", customer="Kundennummer",
               order="Bestellnummer", line="Position", name="Bezeichnung", code="Artikelnummer", qty="Menge",
               price="Einzelpreis (netto)", amount="Gesamtpreis (netto)", subtotal="Gesamtsumme netto",
               tax="Summe Umsatzsteuer", total="Gesamtsumme brutto", due="Fälliger Betrag", currency="Währung",
               country="Ländercode"),
    "nl": dict(title="Factuur", number="Factuurnummer", date="Factuurdatum", customer="Klantnummer",
               order="Inkoopordernummer", line="Regel", name="Artikelnaam", code="Artikelnummer verkoper",
               qty="Aantal", price="Netto prijs", amount="Regelbedrag", subtotal="Totaal excl. BTW",
               tax="Totaal BTW", total="Totaal incl. BTW", due="Te betalen bedrag", currency="Valuta",
               country="Landcode"),
}


def _standard(lang: str) -> bytes:
    """A visualisation in ``lang`` whose lines are blocks of the standard's labels (a colon after each), under a
    buyer whose address opens with ``Unit 3,`` and an order reference labelled with a line label's first word."""
    t = STANDARD[lang]
    page = [(42, 40, t["title"], "l"), (42, 70, f"{t['number']}:", "l"), (170, 70, "536806", "l"),
            (42, 81, f"{t['date']}:", "l"), (170, 81, "02.12.2010", "l"), (42, 92, f"{t['order']}:", "l"),
            (170, 92, "4544831", "l"), (42, 103, f"{t['currency']}:", "l"), (170, 103, "EUR", "l"),
            (300, 70, f"{t['customer']}:", "l"), (420, 70, "12971", "l"), (420, 81, "Unit 3, Kingsway Park", "l"),
            (420, 92, "United Kingdom", "l"), (300, 103, f"{t['country']}:", "l"), (420, 103, "GB", "l")]
    y = 125.0
    for n, (code, name, qty, price, amount) in enumerate(BLOCK_LINES, 1):
        comma = [f"{v}".replace(".", ",") for v in (price, amount)]
        page += [(42, y, f"{t['line']}: {n}", "l"), (42, y + 12, f"{t['name']}:", "l"), (170, y + 12, name, "l"),
                 (42, y + 24, f"{t['code']}:", "l"), (170, y + 24, code, "l"), (300, y + 24, f"{t['qty']}:", "l"),
                 (420, y + 24, f"{qty},00 C62", "l"), (42, y + 36, f"{t['price']}:", "l"),
                 (170, y + 36, comma[0], "l"), (300, y + 36, f"{t['amount']}:", "l"), (420, y + 36, comma[1], "l")]
        y += 58
    page += [(300, y + 10, f"{t['subtotal']}:", "l"), (540, y + 10, "57,64", "r"),
             (300, y + 21, f"{t['tax']}:", "l"), (540, y + 21, "11,53", "r"),
             (300, y + 32, f"{t['total']}:", "l"), (540, y + 32, "69,17", "r"),
             (300, y + 43, f"{t['due']}:", "l"), (540, y + 43, "69,17", "r")]
    return _pages(page, size=8)


@pytest.mark.parametrize("lang", sorted(STANDARD))
def test_a_visualisation_in_french_german_or_dutch_reads_its_lines_and_totals(lang):
    """The standard's line labels of five words (``Montant net de la ligne``), a price label's bracketed qualifier
    (``Einzelpreis (netto):``), the customer's identifier named before the party (``Identifiant acheteur``) and
    the totals' names are read; a line label's first word before an order number (``Référence de commande``) and
    an address's ``Unit 3,`` under the buyer start no line."""
    _read_whole(_standard(lang), ("536806", "2010-12-02", "12971", "United Kingdom", "EUR"),
                ("57.64", "11.53", "69.17"))


def test_a_vat_breakdown_after_the_totals_on_a_page_of_its_own_is_no_item():
    """The items fill page 1 under their headings; page 2 prints none, only the totals beside a VAT breakdown
    whose row of rate, base and tax (``S - Taux 20% 57,64 11,53``) shares its row with the tax's label. That row
    comes after the totals: the table ended with page 1, and the tax is read from its label."""
    first = [(42, 40, "FACTURE", "l"), (42, 60, "Numéro de facture:", "l"), (170, 60, "536836", "l"),
             (42, 71, "Date d'émission:", "l"), (170, 71, "2010-12-02", "l"), (42, 82, "Devise:", "l"),
             (170, 82, "EUR", "l"), (300, 60, "N° client:", "l"), (420, 60, "12971", "l"), (300, 71, "Code pays:", "l"),
             (420, 71, "GB", "l"),
             (42, 110, "Réf.", "l"), (100, 110, "Désignation", "l"), (380, 110, "Qté", "r"),
             (460, 110, "Prix unitaire", "r"), (540, 110, "Montant", "r")]
    for n, (code, name, qty, price, amount) in enumerate(BLOCK_LINES):
        y = 125 + 12 * n
        first += [(42, y, code, "l"), (100, y, name, "l"), (380, y, str(qty), "r"),
                  (460, y, f"{price}".replace(".", ","), "r"), (540, y, f"{amount}".replace(".", ","), "r")]
    second = [(42, 40, "FACTURE 536836", "l"), (42, 62, "Ventilation de la TVA", "l"),
              (290, 62, "Totaux du document", "l"), (42, 76, "Catégorie", "l"), (100, 76, "Taux", "l"),
              (160, 76, "Base", "l"), (220, 76, "Montant de TVA", "l"), (290, 76, "Somme des lignes", "l"),
              (540, 76, "57,64", "r"), (290, 88, "Montant total HT", "l"), (540, 88, "57,64", "r"),
              (42, 100, "S - Taux", "l"), (100, 100, "20%", "l"), (190, 100, "57,64", "r"),
              (250, 100, "11,53", "r"), (290, 100, "Montant total de la TVA", "l"), (540, 100, "11,53", "r"),
              (290, 112, "Montant total TTC", "l"), (540, 112, "69,17", "r")]
    _read_whole(_pages(first, second, size=8), ("536836", "2010-12-02", "12971", "United Kingdom", "EUR"),
                ("57.64", "11.53", "69.17"))


def test_a_block_whose_description_label_was_missed_loses_its_line_alone():
    """On a scan OCR missed the second block's ``Désignation`` row: that line is not read (the sums then flag the
    invoice), and the third block keeps its own description, not the one after it."""
    def row(y, *texts):
        return [Word(t, 40 * k, y, 40 * k + 36, y + 9, 1) for k, t in enumerate(texts)]
    rows, y = [], 0
    for n, (code, name, qty, price, amount) in enumerate(BLOCK_LINES):
        if n != 1:
            rows.append(row(y, "Désignation", *name.split()))
        rows += [row(y + 12, "Référence", "vendeur", code, "Quantité", "facturée", f"{qty},00", "EA"),
                 row(y + 24, "Prix", "unitaire", "net", str(price), "Montant", "net", "de", "la", "ligne",
                     str(amount))]
        y += 40
    lines = read_blocks([rows]).lines
    assert [(x.code, x.description, x.amount) for x in lines] == [(c, d, a) for c, d, _, _, a in BLOCK_LINES[::2]]
