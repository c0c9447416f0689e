"""The arithmetic checks of an invoice as read; nothing is corrected, a failed or impossible check asks for review.

>>> import datetime as dt
>>> lines = [InvoiceLine("A", "Mug", Decimal("2"), Decimal("1.25"), Decimal("2.50"), 1),
...          InvoiceLine("B", "Bag", Decimal("3"), Decimal("0.85"), Decimal("2.65"), 1)]
>>> fields = InvoiceFields("536365", dt.date(2010, 12, 1), country="France", currency="GBP", subtotal=Decimal("5.15"),
...                        total=Decimal("5.15"))
>>> checks, review = run_checks(fields, lines)
>>> [(c.name, c.passed) for c in checks], review
([('line 1: quantity x unit price', True), ('line 2: quantity x unit price', False), ('lines sum to subtotal', True), ('subtotal + tax = total', True)], True)

A field every invoice prints that was not read, a label printed with no value read, or a country name the reader
does not know (a label's words read as the value, say) fails a check of its own:

>>> fields.invoice_date = None
>>> [c.name for c in run_checks(fields, lines, unread=["customer_id"])[0] if not c.passed]
['invoice date read', 'customer ID read', 'line 2: quantity x unit price']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

from core.invoices import InvoiceCheck, InvoiceFields, InvoiceLine
from ingestion.invoices.leftovers import COUNTRIES
from ingestion.invoices.lookalike import lookalike
from ingestion.invoices.vocab import field_words

__all__ = ["gaps", "misread_text", "run_checks"]

CENT = Decimal("0.01")


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


REQUIRED = ("invoice_number", "invoice_date", "currency", "total")
"""Fields every invoice prints: one not read asks for review."""
EXPECTED = ("country",)
"""Fields an invoice prints with the customer's address: one not read asks for review too, since a value printed
and missed is as wrong as one misread (a layout that prints no country then needs a look)."""


def run_checks(fields: InvoiceFields, lines: list[InvoiceLine],
               unread: Iterable[str] = ()) -> tuple[list[InvoiceCheck], bool]:
    """The checks and whether the reading needs review: a check failed, or a value a check needs is missing.

    ``unread`` names the fields whose label is printed but whose value could not be read; they fail a check
    each, as do the :data:`REQUIRED` fields not read.
    """
    checks: list[InvoiceCheck] = []
    missing = not lines
    why = {name: "every invoice prints one; read it from the page" for name in REQUIRED}
    why.update({name: "if the page prints one, read it from the page" for name in EXPECTED})
    for name in (*REQUIRED, *EXPECTED):
        if getattr(fields, name) is None:
            label = field_words(name)
            checks.append(InvoiceCheck(f"{label} read", False, f"no {label} was read: {why[name]}"))
    for name in unread:
        if name not in why:
            label = field_words(name)
            checks.append(InvoiceCheck(f"{label} read", False, f"its label is printed but no {label} could be read "
                                                                "next to it or below it"))
    if fields.country is not None and fields.country.lower() not in COUNTRIES:
        checks.append(InvoiceCheck("country read", False, f"{fields.country!r} is not a country name this reader "
                                                          "knows: check the country on the page"))
    for n, line in enumerate(lines, 1):
        name = f"line {n}: quantity x unit price"
        if line.quantity is None or line.unit_price is None or line.amount is None:
            missing = True
            checks.append(InvoiceCheck(name, False, f"line {n} (page {line.page}) lacks its quantity, unit price "
                                                    "or amount"))
            continue
        expected = _cents(line.quantity * line.unit_price)
        ok = expected == line.amount
        checks.append(InvoiceCheck(name, ok, f"line {n} (page {line.page}, {line.code or 'no code'}): "
                                             f"{line.quantity} x {line.unit_price} = {expected}, amount printed "
                                             f"{line.amount}"))
    amounts = [line.amount for line in lines if line.amount is not None]
    target, what = (fields.subtotal, "subtotal") if fields.subtotal is not None else (fields.total, "total")
    if target is not None and lines:
        total = sum(amounts, Decimal("0.00"))
        checks.append(InvoiceCheck(f"lines sum to {what}", total == target,
                                   f"the {len(lines)} line amounts sum to {total}, the {what} is {target}"))
    if fields.subtotal is not None and fields.total is not None:
        tax = fields.tax or Decimal("0.00")
        checks.append(InvoiceCheck("subtotal + tax = total", fields.subtotal + tax == fields.total,
                                   f"{fields.subtotal} + {tax} = {fields.subtotal + tax}, the total is "
                                   f"{fields.total}"))
    return checks, missing or not all(c.passed for c in checks)


_MIXED = re.compile(r"[A-Z][a-z]+[A-Z]")


def misread_text(lines: list[InvoiceLine], scanned: set[int]) -> list[tuple[str, str]]:
    """Doubts for text OCR may have misread, which no arithmetic check would catch: a lower-case letter inside a
    capitalised word (``PaCK``), or a word that is not English but one look-alike letter from an English word
    (``TRADITIONAI``, :func:`ingestion.invoices.lookalike.lookalike`), a comma read against the word after it
    and apart from the one before (``FOB ,FRONT``: printed so rarely, and ``FOB , FRONT`` read so often), or a
    description starting with the line's number glued to a word (``1ANTIQUE`` on line 1). Only lines on
    ``scanned`` pages (read by OCR) are looked at.

    >>> misread_text([InvoiceLine("21212", "PaCK OF 72 CAKE CASES", Decimal("1"), None, None, 2)], {2})
    [('line 1: text read in mixed case', "line 1 (page 2) reads 'PaCK': a letter may be misread; check it on the page")]
    >>> misread_text([InvoiceLine("22965", "3 TRADITIONAI BISCUIT CUTTERS", Decimal("6"), None, None, 1)], {1})[0][1]
    "line 1 (page 1) reads 'TRADITIONAI', which is not a word; 'TRADITIONAL' is: a letter may be misread; check it on the page"
    """
    out = []
    for n, line in enumerate(lines, 1):
        if line.page not in scanned:
            continue
        words = f"{line.code or ''} {line.description or ''}".split()
        odd = [t for t in words if _MIXED.search(t) and sum(c.isupper() for c in t) >= 2]
        if odd:
            out.append((f"line {n}: text read in mixed case", f"line {n} (page {line.page}) reads "
                                                             f"{odd[0]!r}: a letter may be misread; check it on the page"))
            continue
        said = _misread_word(n, words, line.description or "")
        if said:
            out.append((f"line {n}: a word read may be misread", f"line {n} (page {line.page}) reads {said}; check "
                                                                "it on the page"))
    return out


def _misread_word(n: int, words: list[str], description: str) -> str | None:
    """What line ``n`` (its code and description's ``words``) reads that OCR may have misread, and why; else
    ``None``: the first of a lone 1 between words, the line's number glued to its description, a comma read against
    the next word, a word one look-alike letter from English."""
    lone = next((k for k in range(1, len(words) - 1) if words[k] == "1" and words[k - 1].isalpha() and
                 words[k + 1].isalpha()), None)
    if lone is not None:  # "ITS 1 BEST": a dash or an I read as 1 (3 of the records' 5,017 lines print one so)
        return f"'{words[lone - 1]} 1 {words[lone + 1]}': the 1 may be a misread dash or I"
    glued = re.match(rf"{n}[A-Z]{{2,}}\S*", description)
    if glued:  # "1ANTIQUE" on line 1: the line's number read against its description
        return f"{glued.group()!r}: the line's number may be read into its description"
    comma = re.search(r"\S* ,\w+", description)
    if comma:  # "KEY FOB ,FRONT DOOR": printed "FOB , FRONT" or "FOB, FRONT"; OCR cannot tell the spaces
        return f"{comma.group()!r}: the spaces around the comma may be misread"
    near = next(((t, w) for t in words if (w := lookalike(t))), None)
    if near:
        return f"{near[0]!r}, which is not a word; {near[1]!r} is: a letter may be misread"
    return None


def gaps(lines: list[InvoiceLine], columns: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Doubts for a line lacking a code or description that another line prints: it may have been read into the
    line above or below, or into no line (a freight or discount line may truly have none: a reviewer can tell).
    Lines with no description at all, or no code under a column headed as the codes (``columns``: the roles the
    table's headings name), are doubted too: what was printed there went into another value or none.

    >>> lines = [InvoiceLine(c, "Mug", Decimal("1"), None, None, 1) for c in ("A1", None, "A3")]
    >>> gaps(lines)
    [('line 2: code read', 'line 2 (page 1) has no code, which 2 of the 3 lines print: check it on the page')]
    >>> gaps(lines[1:2], {"code"})[0][1]
    'line 1 (page 1) has no code, though the table has a column of codes: check it on the page'

    A code that reads as an amount is doubted too:

    >>> gaps([InvoiceLine("129.12", "Mug", Decimal("1"), None, None, 1)])[0][0]
    'line 1: code told apart'
    """
    out = []
    for key in ("code", "description"):
        have = sum(1 for line in lines if getattr(line, key))
        if have == len(lines) or (not have and key not in columns and key != "description"):
            continue
        for n, line in enumerate(lines, 1):
            if not getattr(line, key):
                which = f"which {have} of the {len(lines)} lines print" if have else (
                    "though the table has a column of codes" if key == "code" else "as every item has one")
                out.append((f"line {n}: {key} read", f"line {n} (page {line.page}) has no {key}, {which}: check it "
                                                     "on the page"))
    for n, line in enumerate(lines, 1):  # "129.12" read as the code: a money column taken for the codes
        if line.code and re.fullmatch(r"[-(]?[$£€]?\d[\d.,' ]*[.,]\d\d\)?", line.code.strip()):
            out.append((f"line {n}: code told apart", f"the code of line {n} (page {line.page}), {line.code!r}, "
                                                      "reads as an amount: check the line's code and values"))
    return out
