"""Money, dates and quantities read as invoices print them, and the doctests of the invoice reader's modules."""

from __future__ import annotations

import datetime as dt
import doctest
from decimal import Decimal

import pytest

import ingestion.invoices.checks
import ingestion.invoices.columns
import ingestion.invoices.header
import ingestion.invoices.kinds
import ingestion.invoices.values
import ingestion.invoices.vocab
import ingestion.invoices.words
from ingestion.invoices.values import is_invoice_number, parse_date, parse_int, parse_money

MODULES = [ingestion.invoices.values, ingestion.invoices.words, ingestion.invoices.vocab,
           ingestion.invoices.columns, ingestion.invoices.kinds, ingestion.invoices.header, ingestion.invoices.checks]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_doctests(module):
    failed, _ = doctest.testmod(module)
    assert failed == 0


@pytest.mark.parametrize("text, value, currency", [
    ("1,234.56", "1234.56", None), ("1.234,56", "1234.56", None), ("1 234,56", "1234.56", None),
    ("£12.60", "12.60", "GBP"), ("12,60 €", "12.60", "EUR"), ("$0.42", "0.42", "USD"),
    ("GBP 1,204.00", "1204.00", "GBP"), ("1 204,00 EUR", "1204.00", "EUR"), ("USD -27.50", "-27.50", "USD"),
    ("-£27.50", "-27.50", "GBP"), ("-27,50 EUR", "-27.50", "EUR"), ("(27.50)", "-27.50", None),
    ("-$1 234,50", "-1234.50", "USD"), ("0.00", "0.00", None), ("12,345,678.90", "12345678.90", None),
])
def test_money_in_every_grouping_sign_and_mark(text, value, currency):
    assert parse_money(text) == (Decimal(value), currency)


@pytest.mark.parametrize("text", ["VAT reg.", "GB 365 6271 67", "12.34.56", "£", "1,2,3", "(12.50", "£12 €",
                                  "216 84946", "12 22670"])
def test_what_is_not_money(text):
    assert parse_money(text) is None


@pytest.mark.parametrize("text", ["2010-12-01", "1 Dec 2010", "01 December 2010", "December 1, 2010",
                                  "01.12.2010", "01-DEC-2010", "1st December 2010", "Dec 1 2010", "01/12/2010"])
def test_dates_in_the_printed_forms(text):
    assert parse_date(text) == dt.date(2010, 12, 1)


@pytest.mark.parametrize("text", ["31.02.2010", "Smarch 1, 2010", "536365", "2010"])
def test_what_is_not_a_date(text):
    assert parse_date(text) is None


@pytest.mark.parametrize("text, value", [("6", 6), ("-12", -12), ("1,200", 1200), ("1.200", 1200), ("1 200", 1200)])
def test_quantities(text, value):
    assert parse_int(text) == Decimal(value)


def test_invoice_numbers_and_credit_note_numbers():
    assert is_invoice_number("536365") and is_invoice_number("C536379")
    assert not is_invoice_number("Kingdom") and not is_invoice_number("12")
