"""Invoices a supplier got wrong, drawn from the committed records sample: what the reader must flag, not fix."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Misprinted:
    """A record row whose printed amount is off by ``delta``; everything else as the row."""

    row: object
    delta: Decimal

    def __getattr__(self, name):
        return getattr(self.row, name)

    @property
    def amount(self) -> Decimal:
        return self.row.amount + self.delta


def misprinted_pdf(number: str, line: int, delta: str, family: str = "dev-a", seed: int = 3) -> tuple[bytes, object]:
    """Invoice ``number`` of the records sample drawn in ``layout(seed, family)`` with line ``line`` (0-based)
    printing an amount ``delta`` off quantity x unit price; the PDF and the invoice as recorded."""
    from evaluation.invoice_layouts import layout
    from evaluation.invoice_records import SAMPLE, load_invoices
    from evaluation.invoice_render import render_pdf

    inv = next(i for i in load_invoices(SAMPLE) if i.number == number)
    rows = list(inv.rows)
    rows[line] = Misprinted(rows[line], Decimal(delta))
    tampered = type(inv)(inv.number, inv.date, inv.customer, inv.country, tuple(rows))
    return render_pdf(tampered, layout(seed, family)), inv
