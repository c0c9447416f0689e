"""Read an invoice PDF into an :class:`core.invoices.InvoiceReading`: words from the text layer or OCR, the
line-item table, the header fields, and the checks.

The file is opened and refused as uploads are (:mod:`ingestion.pdf.opening`). A document with neither an invoice
number or total label nor a line-item table (a quantity and an amount column) is not an invoice: nothing is
invented for it.
"""

from __future__ import annotations

from core.invoices import InvoiceCheck, InvoiceReading
from ingestion.invoices.blocks import read_blocks
from ingestion.invoices.cells import marks_to_numbers, unreferenced
from ingestion.invoices.checks import gaps, misread_text, run_checks
from ingestion.invoices.currency import document_currency, printed_currencies, which_dollar
from ingestion.invoices.header import read_header
from ingestion.invoices.leftovers import as_printed
from ingestion.invoices.receipt import prefer, read_receipt
from ingestion.invoices.table import read_table
from ingestion.invoices.words import group_rows, ocr_words, page_words
from ingestion.pdf.opening import check_document, open_pdf

__all__ = ["read_invoice"]


def read_invoice(data: bytes, filename: str, *, ocr: bool = True, ocr_dpi: int = 200, max_pages: int = 100,
                 progress=None) -> InvoiceReading:
    """Read the invoice in ``data`` (a PDF) named ``filename``.

    Raises the opening errors of :mod:`core.errors`: ``NotAPdf``, ``DamagedPdf``, ``EncryptedPdf``,
    ``TooManyPages`` (more than ``max_pages``), ``DecompressionBomb``.
    """
    doc = open_pdf(data, filename)
    try:
        check_document(doc, data, filename, max_pages)
        pages, scanned = [], 0
        for index in range(doc.page_count):
            page = doc[index]
            words, tolerance = page_words(page, index + 1), 0.5
            if sum(ch.isalnum() for w in words for ch in w.text) < 20:
                from ingestion.ocr import page_needs_ocr

                if ocr and page_needs_ocr(page):
                    words, tolerance = ocr_words(page, index + 1, dpi=ocr_dpi), 0.75
                    scanned += 1
            pages.append([r for row in group_rows(words, tolerance) if (r := unreferenced(marks_to_numbers(row)))])
            if progress is not None:
                progress(index + 1, doc.page_count)
        count = doc.page_count
    finally:
        doc.close()
    return interpret(pages, count, scanned)


def interpret(pages, count: int, scanned: int = 0) -> InvoiceReading:
    """The reading of a document given as its pages' rows of words."""
    if not any(pages):
        why = "no text was found" + ("" if scanned else " (a scan needs OCR, which is off)")
        return InvoiceReading(is_invoice=False, pages=count, note=f"Not read as an invoice: {why}.")
    table = prefer(read_table(pages), read_receipt(pages), read_blocks(pages))
    rows = [row for page in pages for row in page]
    fields, boxes, currencies, unread, doubts = read_header(rows, table.used)
    as_printed(fields, boxes.get("country"), rows)
    has_table = bool(table.lines) and "amount" in table.roles and ("quantity" in table.roles or
                                                                   "unit_price" in table.roles)
    if not has_table and fields.invoice_number is None and fields.total is None:
        return InvoiceReading(is_invoice=False, pages=count,
                              note="Not an invoice: no invoice number or total label and no line-item table.")
    named = printed_currencies(rows)
    fields.currency = document_currency(currencies, table.currencies, named)
    carried = set(currencies) | set(table.currencies)
    if len(carried) > 1:
        doubts.append(("currency told apart", f"the amounts and labels carry {len(carried)} currencies "
                                              f"({', '.join(sorted(carried))}); {fields.currency} was taken: "
                                              "check it"))
    elif not carried and len(set(named)) > 1:
        doubts.append(("currency told apart", f"no amount carries a currency and {len(set(named))} are named "
                                              f"({', '.join(sorted(set(named)))}); {fields.currency} was taken: "
                                              "check it"))
    fields.currency, dollar = which_dollar(fields.currency, named, rows)
    if dollar:
        doubts.append(("currency told apart", dollar))
    boxes.update(table.boxes)
    checks, review = run_checks(fields, table.lines, unread)
    scanned = {w.page for page in pages for row in page for w in row if w.ocr}
    doubts += table.doubts + gaps(table.lines, table.roles) + misread_text(table.lines, scanned)
    checks += [InvoiceCheck(name, False, detail) for name, detail in doubts]
    review = review or bool(doubts)
    boxes.update({f"{name}.label": box for name, box in unread.items() if name not in boxes})
    return InvoiceReading(is_invoice=True, fields=fields, lines=table.lines, checks=checks, needs_review=review,
                          boxes={k: v for k, v in boxes.items() if v is not None}, pages=count)
