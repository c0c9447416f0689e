"""A line's values from an item row's cells, and what the table has read so far: the lines, each value's box,
the currencies its money carried, the rows used and the doubts. The table's reader (:mod:`ingestion.invoices.table`)
adds a line per item row (:func:`add_line`) and joins a wrapped row's words to the line above (:func:`extend_line`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from core.invoices import Box, InvoiceLine
from ingestion.invoices.cells import bracketed_code, labelled_code
from ingestion.invoices.values import decimal_readings, parse_money, parse_quantity
from ingestion.invoices.words import Word, span

__all__ = ["DIGIT_LIKE", "Table", "add_line", "extend_line", "take_code", "texts"]

DIGIT_LIKE = str.maketrans("lI|Oo", "11100")  # letters OCR reads for digits in a column of whole numbers


@dataclass
class Table:
    """What was read of the line-item table: the lines, each value's box, the currencies its money carried, and
    the rows used per page (so the header search can skip them)."""

    lines: list[InvoiceLine] = field(default_factory=list)
    boxes: dict[str, Box] = field(default_factory=dict)
    currencies: list[str] = field(default_factory=list)
    used: set[tuple[int, float]] = field(default_factory=set)  # (page, row centre) of heading and item rows
    roles: set[str] = field(default_factory=set)
    doubts: list[tuple[str, str]] = field(default_factory=list)  # (check name, detail) of what could not be told


def texts(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


def take_code(table: Table, words: list[Word]) -> list[Word]:
    """The description words of the last line less a code printed with its label at their end (``Code: 22960``,
    :func:`ingestion.invoices.cells.labelled_code`), which becomes the line's code when it has none."""
    k = labelled_code(words)
    line = table.lines[-1] if table.lines else None
    if k is None or line is None or line.code is not None:
        return words
    n = len(table.lines) - 1
    line.code = words[-1].text.lstrip("#")
    table.boxes[f"lines[{n}].code"] = span(words[-1:])
    return words[:k]


def extend_line(table: Table, cells: dict[str, list[Word]]) -> None:
    """Join a wrapped row's description (and code) to the line above."""
    n = len(table.lines) - 1
    line = table.lines[n]
    if line.description is None and cells.get("code") and not cells.get("description"):  # words under the code on
        cells = {**cells, "description": cells["code"], "code": []}  # the row below a line with no description
    for key in ("description", "code"):
        words = cells.get(key)
        if not words:
            continue
        text = texts(words)
        setattr(line, key, f"{getattr(line, key)} {text}" if getattr(line, key) else text)
        old = table.boxes.get(f"lines[{n}].{key}")
        new = span(words)
        table.boxes[f"lines[{n}].{key}"] = new if old is None else Box(
            old.page, min(old.x0, new.x0), min(old.y0, new.y0), max(old.x1, new.x1), max(old.y1, new.y1))


def add_line(table: Table, cells: dict[str, list[Word]], pending: list[Word], page: int,
             labelled: bool = False) -> None:
    """Add the line of an item row's cells (``pending``: description words printed above it); with ``labelled``
    (no column of codes), a code printed with its label at the description's end is taken for the code."""
    n = len(table.lines)
    values = {}
    description = pending + cells.get("description", [])
    values["description"] = texts(description) or None
    values["code"] = texts(cells.get("code", [])) or None
    values["quantity"] = parse_quantity(texts(cells.get("quantity", [])))
    if values["quantity"] is None and any(w.ocr for w in cells.get("quantity", [])):
        values["quantity"] = parse_quantity(texts(cells["quantity"]).translate(DIGIT_LIKE))
    if values["quantity"] is None and cells.get("quantity"):
        money = parse_money(texts(cells["quantity"]))
        values["quantity"] = money[0] if money else None
    for key in ("unit_price", "amount"):
        money = parse_money(texts(cells.get(key, [])))
        values[key] = money[0] if money else None
        if money and money[1]:
            table.currencies.append(money[1])
    values["quantity"], values["unit_price"] = _decimals(values["quantity"], values["unit_price"], values["amount"],
                                                         texts(cells.get("quantity", [])),
                                                         texts(cells.get("unit_price", [])))
    table.lines.append(InvoiceLine(values["code"], values["description"], values["quantity"], values["unit_price"],
                                   values["amount"], page))
    if labelled and len(rest := take_code(table, description)) < len(description):
        table.lines[-1].description, description = texts(rest) or None, rest
    if labelled and table.lines[-1].code is None and (code := bracketed_code(description)):
        table.lines[-1].code, table.lines[-1].description = code, texts(description[1:]) or None
        table.boxes[f"lines[{n}].code"], description = span(description[:1]), description[1:]
    for key, words in (("description", description), *((k, cells.get(k, [])) for k in
                                                         ("code", "quantity", "unit_price", "amount"))):
        box = span(words)
        if box is not None:
            table.boxes[f"lines[{n}].{key}"] = box


def _decimals(quantity: Decimal | None, price: Decimal | None, amount: Decimal | None, quantity_text: str,
              price_text: str) -> tuple[Decimal | None, Decimal | None]:
    """The quantity and unit price read with three decimals where the line's arithmetic says so and not as read:
    ``1.650`` each (a price to the tenth of a cent), ``6,000`` units (a quantity printed to three decimals with a
    decimal comma), read 1650 and 6000 as a thousands separator would have them.

    >>> _decimals(Decimal(6000), Decimal(1850), Decimal("11.10"), "6,000", "1,850")
    (Decimal('6'), Decimal('1.850'))
    >>> _decimals(Decimal(6000), Decimal("1.85"), Decimal("11100.00"), "6,000", "1,85")
    (Decimal('6000'), Decimal('1.85'))
    """
    if quantity is None or price is None or amount is None or quantity * price == amount:
        return quantity, price
    for q, p in decimal_readings(quantity, price, quantity_text, price_text)[1:]:  # the ones not as read
        if (q * p).quantize(Decimal("0.01"), ROUND_HALF_UP) == amount:
            return (q.to_integral_value() if q == q.to_integral_value() else q), p
    return quantity, price
