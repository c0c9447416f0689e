"""What an invoice is read into: header fields, line items, the arithmetic checks, and where each value was found.

Shared by the reader (``ingestion/invoices/``), the service and API (``POST /invoices/extract``), the UI tab and the
evaluation (whose generated invoices carry the same types as their truth). Money and quantities are
:class:`decimal.Decimal` so that checks are exact to the cent; :meth:`InvoiceReading.to_dict` gives JSON numbers,
ISO 8601 dates and ``null`` for what is missing.

>>> line = InvoiceLine("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", Decimal("6"), Decimal("2.55"), Decimal("15.30"), 1)
>>> line.to_dict()["amount"], line.to_dict()["quantity"]
(15.3, 6)
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

__all__ = ["FIELDS", "Box", "InvoiceCheck", "InvoiceFields", "InvoiceLine", "InvoiceReading", "number"]

FIELDS = ("invoice_number", "invoice_date", "customer_id", "country", "currency", "subtotal", "tax", "total")
"""The header fields, in the order the API lists them."""


def number(value: Decimal | None) -> int | float | None:
    """A JSON number for ``value``: an int when whole (quantities), else a float; ``None`` stays ``None``.

    >>> number(Decimal("12")), number(Decimal("-3.50")), number(None)
    (12, -3.5, None)
    """
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() and value.as_tuple().exponent >= 0 else float(value)


@dataclass(frozen=True)
class Box:
    """Where a value was read: page (1-based) and rectangle in PDF points, origin top left."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float

    def to_dict(self) -> dict:
        return {"page": self.page, "bbox": [round(v, 1) for v in (self.x0, self.y0, self.x1, self.y1)]}


@dataclass
class InvoiceLine:
    code: str | None
    description: str | None
    quantity: Decimal | None
    unit_price: Decimal | None
    amount: Decimal | None
    page: int

    def to_dict(self) -> dict:
        return {"code": self.code, "description": self.description, "quantity": number(self.quantity),
                "unit_price": number(self.unit_price), "amount": number(self.amount), "page": self.page}


@dataclass
class InvoiceFields:
    invoice_number: str | None = None  # a credit note's too ("C536379")
    invoice_date: dt.date | None = None
    customer_id: str | None = None
    country: str | None = None
    currency: str | None = None  # ISO 4217 code: GBP, EUR, USD
    subtotal: Decimal | None = None
    tax: Decimal | None = None  # None: the invoice shows no tax
    total: Decimal | None = None

    def to_dict(self) -> dict:
        out = {}
        for name in FIELDS:
            value = getattr(self, name)
            if isinstance(value, Decimal):
                value = number(value)
            elif isinstance(value, dt.date):
                value = value.isoformat()
            out[name] = value
        return out


@dataclass
class InvoiceCheck:
    """One arithmetic check: ``name`` (e.g. ``line 3: quantity x unit price``), whether it passed, and what was
    compared, in words a reviewer can act on."""

    name: str
    passed: bool
    detail: str

    def to_dict(self) -> dict:
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass
class InvoiceReading:
    """An invoice as read: ``is_invoice`` False (and nothing else filled) for a document that is not one;
    ``needs_review`` when any check failed or a value the checks need is missing; ``boxes`` maps a field name
    (``"total"``) or a line's value (``"lines[3].amount"``) to where it was read."""

    is_invoice: bool
    fields: InvoiceFields = field(default_factory=InvoiceFields)
    lines: list[InvoiceLine] = field(default_factory=list)
    checks: list[InvoiceCheck] = field(default_factory=list)
    needs_review: bool = True
    boxes: dict[str, Box] = field(default_factory=dict)
    pages: int = 0
    note: str | None = None  # why it is not an invoice, or what could not be read

    def to_dict(self) -> dict:
        # Failed checks first: they are what a reviewer must look at.
        checks = sorted(self.checks, key=lambda c: c.passed)
        return {"is_invoice": self.is_invoice, "fields": self.fields.to_dict(),
                "lines": [line.to_dict() for line in self.lines], "checks": [c.to_dict() for c in checks],
                "needs_review": self.needs_review, "boxes": {k: b.to_dict() for k, b in self.boxes.items()},
                "pages": self.pages, "note": self.note}
