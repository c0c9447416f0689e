"""Items printed as blocks of labelled values, one block per line: no table, each value beside its own label, as an
e-invoice's visualisation prints its invoice lines (``Item name: WHITE METAL LANTERN``, ``Seller's item
identifier: 71053``, ``Invoiced quantity: 6,00 EA``, ``Item net price: 3,39``, ``Line net amount: 20,34``).

The labels are the column headings of :data:`ingestion.invoices.vocab.HEADINGS`, with a colon or without; a value
is the words after its label up to the next label on the row (a label with none holds no value). A block ends
where a label it already holds comes again, so a block is one line whatever order its labels are printed in and
whether they share rows. A block is a line
only with a description, an amount and a quantity or price; a totals label that reads as a heading (``Sum of
invoice line net amount:``) makes a block of an amount alone, which is none:

>>> def row(y, *texts): return [Word(t, 33 * k, y, 33 * k + 30, y + 9, 1) for k, t in enumerate(texts)]
>>> rows = [row(0, "Item", "name:", "LANTERN"), row(12, "Item", "identifier:", "71053", "Quantity:", "6"),
...         row(24, "Unit", "price:", "3,39", "Amount:", "20,34"), row(40, "Item", "name:", "MUG"),
...         row(52, "Quantity:", "2", "Unit", "price:", "1,06", "Amount:", "2,12")]
>>> [(x.code, x.description, str(x.quantity), str(x.amount)) for x in read_blocks([rows]).lines]
[('71053', 'LANTERN', '6', '20.34'), (None, 'MUG', '2', '2.12')]
"""

from __future__ import annotations

from core.invoices import InvoiceLine
from ingestion.invoices.lines import Table, texts
from ingestion.invoices.values import parse_money, parse_quantity
from ingestion.invoices.vocab import HEADINGS, match_words
from ingestion.invoices.words import Word, row_key, span

__all__ = ["read_blocks"]

_ROLES = ("code", "description", "quantity", "unit_price", "amount")


def _value(role: str, words: list[Word]) -> list[Word]:
    """The words of a value, a qualifier in brackets before it dropped (``Einzelpreis (netto): 2,95``); none where
    a number's label holds no number with at most a unit after it (``Unit 3, Kingsway Park`` of an address), or a
    code's more than one word."""
    start = 0
    while start < len(words) and words[start].text.startswith("(") and ")" in words[start].text:
        start += 1
    words = words[start:]
    if role == "code" and len(words) != 1:  # a code is one word: "Référence de commande 4544831" names no item
        return []
    if role in ("quantity", "unit_price", "amount"):
        parse = parse_quantity if role == "quantity" else parse_money
        if len(words) > 3 or not words or parse(texts(words[:1])) is None:
            return []
    return words


def _values(row: list[Word]) -> list[tuple[str, list[Word]]]:
    """The row's labelled values: (role, the words after the label up to the next label)."""
    found = [m for m in match_words(row, HEADINGS) if m.role in _ROLES]
    pairs = [(m.role, _value(m.role, row[m.end:nxt.start if nxt else len(row)])) for m, nxt in
             zip(found, [*found[1:], None])]
    return [(role, words) for role, words in pairs if words]


def _line(block: dict[str, list[Word]]) -> tuple | None:
    amount = parse_money(texts(block.get("amount", [])[:1]))
    price = parse_money(texts(block.get("unit_price", [])[:1]))
    words = block.get("quantity", [])
    quantity = parse_quantity(texts(words[:1])) if words else None
    if not block.get("description") or amount is None or (quantity is None and price is None):
        return None
    return quantity, price, amount


def _blocks(values: list[tuple[str, list[Word], tuple]], opener: str | None) -> list[tuple[dict, set]]:
    """The labelled values in blocks: a block ends where a label it holds comes again, or the label that opens
    the document's blocks does."""
    blocks: list[tuple[dict[str, list[Word]], set]] = [({}, set())]
    for role, words, key in values:
        if role in blocks[-1][0] or role == opener and blocks[-1][0]:
            blocks.append(({}, set()))
        blocks[-1][0][role] = words
        blocks[-1][1].add(key)
    return blocks


def read_blocks(pages: list[list[list[Word]]]) -> Table:
    """The items of every page (each page given as its rows) printed as blocks of labelled values; the rows they
    use. The label the first line opens with opens a block even where another of the block's labels was missed
    (a scan's), so one missed label loses one line, not every description after it."""
    table = Table()
    labelled = [(role, words, row_key(row)) for rows in pages for row in rows for role, words in _values(row)]
    opener = next((next(iter(block)) for block, _ in _blocks(labelled, None) if _line(block) is not None), None)
    blocks = _blocks(labelled, opener)
    for block, keys in blocks:
        values = _line(block)
        if values is None:
            continue
        quantity, price, amount = values
        n = len(table.lines)
        page = next(w.page for words in block.values() for w in words)
        table.lines.append(InvoiceLine(texts(block.get("code", [])) or None, texts(block["description"]), quantity,
                                       price[0] if price else None, amount[0], page))
        table.currencies += [c for _, c in filter(None, (price, amount)) if c]
        table.boxes.update({f"lines[{n}].{k}": span(v) for k, v in block.items() if v})
        table.used |= keys
        table.roles |= {k for k, v in block.items() if v}
    return table
