"""Invoices read into header fields, line items and arithmetic checks, with no model.

* :mod:`~ingestion.invoices.read`: the sequence, :func:`~ingestion.invoices.read.read_invoice`.
* :mod:`~ingestion.invoices.words`: words with boxes from the text layer or OCR, and rows of them.
* :mod:`~ingestion.invoices.values`: money, dates, quantities and invoice numbers as printed.
* :mod:`~ingestion.invoices.vocab`: label and heading wordings, and matching them.
* :mod:`~ingestion.invoices.header`: the header fields.
* :mod:`~ingestion.invoices.table`: the line-item table; :mod:`~ingestion.invoices.heading`: its heading row;
  :mod:`~ingestion.invoices.columns`: its columns; :mod:`~ingestion.invoices.kinds`: what their cells hold;
  :mod:`~ingestion.invoices.cells`: how a row's cells divide.
* :mod:`~ingestion.invoices.checks`: the arithmetic checks.
"""
