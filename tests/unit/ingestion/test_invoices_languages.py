"""Invoices in Spanish, Portuguese, Italian and Polish, read from real PDFs (ReportLab) as their invoicing programs
commonly print them: the labels and headings of each language (``Nº factura``, ``Base imponible``, ``Imponibile``,
``Data wystawienia``, ``Cena netto``), dates with month names (``2 de diciembre de 2010``), amounts with the
decimal comma and the currency's sign after them (``1 230,00 zł``), and columns the reader keeps out of the line
(a discount, the VAT rate, the VAT amount and the gross value printed per line)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from ingestion.invoices.read import read_invoice
from tests.support.invoices import failed_names, line_values, text_pdf

ITEMS = [("22149", "FELTCRAFT 6 FLOWER FRIENDS", "6", "2,10", "12,60"),
         ("22818", "CARD CHRISTMAS VILLAGE", "12", "0,42", "5,04")]
EXPECTED = [("22149", "FELTCRAFT 6 FLOWER FRIENDS", 6, Decimal("2.10"), Decimal("12.60")),
            ("22818", "CARD CHRISTMAS VILLAGE", 12, Decimal("0.42"), Decimal("5.04"))]
_X = ((40, False), (100, False), (360, True), (430, True), (550, True))


def _table(headings: tuple[str, ...], items=ITEMS, xs=_X, y: float = 250) -> list[tuple[float, float, str, bool]]:
    rows = [(x, y, h, right) for (x, right), h in zip(xs, headings)]
    for k, item in enumerate(items):
        rows += [(x, y + 18 * (k + 1), v, right) for (x, right), v in zip(xs, item)]
    return rows


def _totals(rows: list[tuple[str, str]], y: float = 330) -> list[tuple[float, float, str, bool]]:
    return [t for k, (label, value) in enumerate(rows)
            for t in ((360, y + 14 * k, label, False), (550, y + 14 * k, value, True))]


LANGUAGES = {
    "es": ([(40, 60, "Factura nº: 536365"), (40, 74, "Fecha de emisión: 2 de diciembre de 2010"),
            (40, 88, "Nº cliente: 17850"), (40, 102, "País: España")],
           ("Código", "Descripción", "Cantidad", "Precio", "Importe"),
           [("Base imponible", "17,64 €"), ("IVA 21%", "3,70 €"), ("Total factura", "21,34 €")]),
    "pt": ([(40, 60, "Fatura n.º 536365"), (40, 74, "Data de emissão: 02-12-2010"), (40, 88, "N.º cliente: 17850"),
            (40, 102, "País: Portugal")],
           ("Código", "Descrição", "Qtd.", "Preço unitário", "Valor"),
           [("Total ilíquido", "17,64 €"), ("Total IVA", "3,70 €"), ("Total a pagar", "21,34 €")]),
    "it": ([(40, 60, "Fattura n. 536365"), (40, 74, "Data: 02/12/2010"), (40, 88, "Codice cliente: 17850"),
            (40, 102, "Paese: Italia")],
           ("Codice", "Descrizione", "Quantità", "Prezzo unitario", "Importo"),
           [("Totale imponibile", "17,64 €"), ("Totale IVA", "3,70 €"), ("Totale documento", "21,34 €")]),
}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_an_invoice_in_spanish_portuguese_or_italian_is_read_from_its_own_labels(language):
    header, headings, totals = LANGUAGES[language]
    reading = read_invoice(text_pdf(_table(headings) + _totals(totals), header), "factura.pdf")
    f = reading.fields
    assert (f.invoice_number, f.invoice_date, f.customer_id) == ("536365", dt.date(2010, 12, 2), "17850")
    assert (f.subtotal, f.tax, f.total, f.currency) == (Decimal("17.64"), Decimal("3.70"), Decimal("21.34"), "EUR")
    assert line_values(reading) == EXPECTED
    assert not reading.needs_review, failed_names(reading)


def test_a_polish_invoice_with_net_vat_and_gross_values_per_line_reads_the_net_as_the_amount():
    # Lp., the unit of measure, the VAT rate, the VAT amount and the gross value are columns of their own; the
    # line's amount is the net value, quantity x net price.
    xs = ((30, False), (45, False), (100, False), (280, True), (300, False), (350, True), (400, True),
          (440, True), (490, True), (550, True))
    headings = ("Lp.", "Kod", "Nazwa towaru lub usługi", "Ilość", "J.m.", "Cena netto", "Wartość netto",
                "Stawka VAT", "Kwota VAT", "Wartość brutto")
    items = [("1", "22149", "FELTCRAFT 6 FLOWER FRIENDS", "6", "szt.", "2,10", "12,60", "23%", "2,90", "15,50"),
             ("2", "22818", "CARD CHRISTMAS VILLAGE", "12", "szt.", "0,42", "5,04", "23%", "1,16", "6,20")]
    header = [(40, 60, "Faktura VAT nr 536365"), (40, 74, "Data wystawienia: 2 grudnia 2010"),
              (40, 88, "Nr klienta: 17850"), (40, 102, "Kraj: Polska")]
    totals = [("Razem netto", "17,64 zł"), ("Kwota VAT", "4,06 zł"), ("Do zapłaty", "21 700,00 zł")]
    font = Path(pytest.importorskip("matplotlib").get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"  # has ł
    reading = read_invoice(text_pdf(_table(headings, items, xs) + _totals(totals), header, str(font)), "faktura.pdf")
    f = reading.fields
    assert (f.invoice_number, f.invoice_date, f.customer_id) == ("536365", dt.date(2010, 12, 2), "17850")
    assert (f.subtotal, f.tax, f.total, f.currency) == (Decimal("17.64"), Decimal("4.06"), Decimal("21700.00"),
                                                        "PLN")
    assert line_values(reading) == EXPECTED
    assert "subtotal + tax = total" in failed_names(reading)  # 17.64 + 4.06 is no 21,700.00: said, not mended


def _italian(items, totals, header=None, extra=()) -> bytes:
    header = header or [(40, 60, "Fattura n. 536365"), (40, 74, "Data: 02/12/2010"), (40, 88, "Codice cliente: 17850"),
                        (40, 102, "Nazione: Regno Unito")]
    return text_pdf(_table(("Codice", "Descrizione", "Quantità", "Prezzo unitario", "Importo"), items) +
                    _totals(totals) + list(extra), header)


def test_quantities_and_prices_printed_to_three_decimals_with_a_decimal_comma_are_read_as_the_arithmetic_says():
    # "6,000" pieces at "2,100" each make 12,60: six, not six thousand; the country is named in Italian.
    items = [("22149", "FELTCRAFT 6 FLOWER FRIENDS", "6,000", "2,100", "12,60"),
             ("22818", "CARD CHRISTMAS VILLAGE", "12,000", "0,420", "5,04")]
    reading = read_invoice(_italian(items, [("Totale imponibile", "17,64 €"), ("IVA 22%", "3,88 €"),
                                            ("Totale documento", "21,52 €")]), "fattura.pdf")
    assert line_values(reading) == EXPECTED
    assert reading.fields.country == "Regno Unito"
    assert not reading.needs_review, failed_names(reading)


def test_a_vat_breakdown_row_gives_the_tax_not_the_taxable_amount_beside_it():
    # "IVA 22,00% € 17,64 € 3,88": the rate, the taxable amount, then the tax, on one row under the totals.
    totals = [("Totale imponibile", "17,64 €"), ("Imposta", "3,88 €"), ("Totale documento", "21,52 €")]
    breakdown = [(40, 400, "IVA 22,00%", False), (200, 400, "€ 17,64", False), (300, 400, "€ 3,88", False)]
    reading = read_invoice(_italian(ITEMS, totals, extra=breakdown), "fattura.pdf")
    assert (reading.fields.subtotal, reading.fields.tax, reading.fields.total) == (
        Decimal("17.64"), Decimal("3.88"), Decimal("21.52"))


def test_a_delivery_note_reference_over_the_first_line_is_no_part_of_its_description():
    reading = read_invoice(_italian(ITEMS, [("Totale imponibile", "17,64 €"), ("IVA 22%", "3,88 €"),
                                            ("Totale documento", "21,52 €")],
                                    extra=[(100, 259, "DDT n. 5238 del 29/11/2010", False)]), "fattura.pdf")
    assert line_values(reading) == EXPECTED
    assert not reading.needs_review, failed_names(reading)


def test_text_printed_up_the_margin_is_not_read_into_the_rows_it_crosses():
    # A company's register entry printed sideways along the left margin crosses the item rows.
    items = _table(("Codice", "Descrizione", "Quantità", "Prezzo unitario", "Importo"))
    totals = _totals([("Totale imponibile", "17,64 €"), ("IVA 22%", "3,88 €"), ("Totale documento", "21,52 €")])
    header = [(40, 60, "Fattura n. 536365"), (40, 74, "Data: 02/12/2010"), (40, 88, "Codice cliente: 17850")]
    reading = read_invoice(text_pdf(items + totals, header, sideways=[(25, 420, "Registro imprese Firenze 397176 "
                                                                                 "C.F. BNCMRC71C14D612W")]), "f.pdf")
    assert line_values(reading) == EXPECTED
    assert [c.detail for c in reading.checks if not c.passed and c.name.startswith("line")] == []
