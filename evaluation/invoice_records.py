"""Real invoices for the invoice reader's evaluation: the rows of ``../shared/invoices/records.csv`` grouped into
:class:`Invoice` truths.

The records are the first 5,017 rows (300 invoices, 2010-12-01 to 2010-12-02) of the UCI *Online Retail* data set:
Chen, D. (2012). *Online Retail* [Dataset]. UCI Machine Learning Repository. https://doi.org/10.24432/C5BW33,
CC BY 4.0. ``../shared/invoices/SOURCES.md`` says where the rows came from and how they were checked. A clean clone
has no ``../shared``; ``tests/support/invoice_records_sample.csv`` holds 13 of the invoices copied byte for byte.

What the truth is, given the rows of one ``InvoiceNo`` (read with the csv module; nothing is cleaned or dropped):

- number: ``InvoiceNo`` as written; credit notes start with ``C`` and carry negative quantities.
- date: the date part of the first row's ``InvoiceDate`` (``m/d/yy H:MM``; one invoice's rows are a minute apart).
- customer: ``CustomerID`` as a string, ``None`` when empty (23 invoices); country: ``Country`` as written.
- each line: ``StockCode``, quantity and unit price as written, amount = quantity x unit price rounded half up to
  the cent (Decimal ``ROUND_HALF_UP``, so halves of negative amounts round away from zero).
- a line's description is ``Description`` with runs of whitespace collapsed to one space and the ends stripped;
  ``None`` when that leaves nothing (12 rows, all priced 0). The data keeps doubled and trailing spaces, a
  printed invoice does not show them, and a description wrapped onto two printed lines is read back joined by one
  space: the reader's description is compared with this collapsed text. :attr:`InvoiceRow.raw` keeps the original.
- subtotal = the sum of the amounts; tax and total follow the layout's tax rule (:meth:`Invoice.tax`): no tax, or a
  rate of the subtotal rounded half up to the cent, total = subtotal + tax.

>>> inv = Invoice("C536379", dt.date(2010, 12, 1), "14527", "United Kingdom",
...               (InvoiceRow("D", "Discount", Decimal("-1"), Decimal("27.5")),))
>>> inv.subtotal, inv.tax(Decimal("0.20")), inv.total(Decimal("0.20")), inv.is_credit
(Decimal('-27.50'), Decimal('-5.50'), Decimal('-33.00'), True)
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

__all__ = ["CENT", "RECORDS", "SAMPLE", "Invoice", "InvoiceRow", "cents", "clean_description", "load_invoices",
           "records_path"]

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT.parent / "shared" / "invoices" / "records.csv"
SAMPLE = ROOT / "tests" / "support" / "invoice_records_sample.csv"
CENT = Decimal("0.01")
COLUMNS = ("InvoiceNo", "StockCode", "Description", "Quantity", "InvoiceDate", "UnitPrice", "CustomerID", "Country")


def cents(value: Decimal) -> Decimal:
    """``value`` rounded half up (away from zero) to the cent.

    >>> cents(Decimal("0.125")), cents(Decimal("-0.125")), cents(Decimal("3"))
    (Decimal('0.13'), Decimal('-0.13'), Decimal('3.00'))
    """
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def clean_description(text: str) -> str | None:
    """The truth of a printed description: whitespace runs collapsed, ends stripped, ``None`` if nothing is left.

    >>> clean_description("SET OF 3 COLOURED  FLYING DUCKS "), clean_description("")
    ('SET OF 3 COLOURED FLYING DUCKS', None)
    """
    return re.sub(r"\s+", " ", text).strip() or None


@dataclass(frozen=True)
class InvoiceRow:
    """One record row: the code, the description as written (``raw``), the quantity and the unit price."""

    code: str
    raw: str
    quantity: Decimal
    unit_price: Decimal

    @property
    def description(self) -> str | None:
        return clean_description(self.raw)

    @property
    def amount(self) -> Decimal:
        return cents(self.quantity * self.unit_price)


@dataclass(frozen=True)
class Invoice:
    """One invoice of the records, in record order."""

    number: str
    date: dt.date
    customer: str | None
    country: str
    rows: tuple[InvoiceRow, ...]

    @property
    def is_credit(self) -> bool:
        return self.number.startswith("C")

    @property
    def subtotal(self) -> Decimal:
        return sum((row.amount for row in self.rows), Decimal("0.00"))

    def tax(self, rate: Decimal | None) -> Decimal | None:
        """The tax at ``rate`` (a fraction, 0.20 for 20 %) of the subtotal, to the cent; ``None`` for no tax."""
        return None if rate is None else cents(self.subtotal * rate)

    def total(self, rate: Decimal | None) -> Decimal:
        return self.subtotal + (self.tax(rate) or Decimal("0.00"))


def records_path() -> Path | None:
    """The full records (``../shared/invoices/records.csv``) when present, else ``None``."""
    return RECORDS if RECORDS.is_file() else None


def _date(text: str) -> dt.date:
    return dt.datetime.strptime(text.split()[0], "%m/%d/%y").date()


def load_invoices(path: Path | str = RECORDS) -> list[Invoice]:
    """The invoices of a records file, in file order (each invoice's rows are contiguous in the data)."""
    with open(path, newline="", encoding="ascii") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{path}: columns {reader.fieldnames}, expected {list(COLUMNS)}")
        groups: dict[str, list[dict]] = {}
        for row in reader:
            groups.setdefault(row["InvoiceNo"], []).append(row)
    invoices = []
    for number, rows in groups.items():
        first = rows[0]
        lines = tuple(InvoiceRow(r["StockCode"], r["Description"], Decimal(r["Quantity"]), Decimal(r["UnitPrice"]))
                      for r in rows)
        invoices.append(Invoice(number, _date(first["InvoiceDate"]), first["CustomerID"] or None, first["Country"],
                                lines))
    return invoices
