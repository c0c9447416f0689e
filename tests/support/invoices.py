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


def first_seed(family: str, test) -> int:
    """The first layout seed of ``family`` for which ``test(layout)`` holds."""
    from evaluation.invoice_layouts import layout

    return next(s for s in range(500) if test(layout(s, family)))


def read_back(number: str, lay):
    """Invoice ``number`` of the records sample drawn in ``lay`` and read: its fields and lines must be the
    truth's, value by value. Returns the reading (for its checks)."""
    from evaluation.invoice_records import SAMPLE, load_invoices
    from evaluation.invoice_render import render_pdf, truth
    from ingestion.invoices.read import read_invoice

    inv = next(i for i in load_invoices(SAMPLE) if i.number == number)
    reading, expected = read_invoice(render_pdf(inv, lay), f"{number}.pdf"), truth(inv, lay)
    assert reading.fields.to_dict() == expected.fields.to_dict()
    assert [ln.to_dict() for ln in reading.lines] == [ln.to_dict() for ln in expected.lines]
    return reading


def word_row(y: float, *texts: str, x: float = 50.0) -> list:
    """A row of words at height ``y`` from ``x`` on, each 6 pt a character and 4 pt apart, as a text layer gives."""
    from ingestion.invoices.words import Word

    out = []
    for text in texts:
        out.append(Word(text, x, y - 5, x + 6 * len(text), y + 5, 1))
        x += 6 * len(text) + 4
    return out


def text_pdf(texts: list[tuple[float, float, str, bool]], header: list[tuple[float, float, str]],
             font: str | None = None, sideways: list[tuple[float, float, str]] = ()) -> bytes:
    """A one-page PDF (ReportLab, Helvetica 9, or the TrueType ``font`` file for letters Helvetica lacks: ``ł``)
    of ``texts``: (x, y from the top, text, right-aligned), under ``header`` (x, y, text), with ``sideways`` (x, y,
    text) written up the page, turned a quarter."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    if font:
        pdfmetrics.registerFont(TTFont("Given", font))
    c.setFont("Given" if font else "Helvetica", 9)
    for x, y, s in header:
        c.drawString(x, A4[1] - y, s)
    for x, y, s, right in texts:
        (c.drawRightString if right else c.drawString)(x, A4[1] - y, s)
    for x, y, s in sideways:
        c.saveState()
        c.translate(x, A4[1] - y)
        c.rotate(90)
        c.drawString(0, 0, s)
        c.restoreState()
    c.showPage()
    c.save()
    return buf.getvalue()


def line_values(reading) -> list[tuple]:
    """Each line read as (code, description, quantity, unit price, amount)."""
    return [(x.code, x.description, x.quantity, x.unit_price, x.amount) for x in reading.lines]


def failed_names(reading) -> list[str]:
    """The names of the reading's failed checks, in order."""
    return [c.name for c in reading.checks if not c.passed]
