"""The invoice's currency: the marks and codes it prints (``£``, ``(EUR)``, ``All amounts in euros``), the one most
printed, the totals' first, and which dollar a ``$`` stands for.
"""

from __future__ import annotations

from collections import Counter

from ingestion.invoices.values import CURRENCIES, CURRENCY_NAMES
from ingestion.invoices.vocab import norm
from ingestion.invoices.words import Word

__all__ = ["currency_mark", "document_currency", "printed_currencies", "which_dollar"]


def currency_mark(text: str) -> str | None:
    """The ISO code of a currency mark or code standing alone (``(EUR)``, ``GBP:``), or ``None``.

    >>> currency_mark("(EUR)"), currency_mark("£"), currency_mark("Euro")
    ('EUR', 'GBP', None)
    """
    return CURRENCIES.get(text.strip("()[]:,.").upper())


def printed_currencies(rows: list[list[Word]]) -> list[str]:
    """Every currency the document names by a code, mark or name standing alone ("All amounts in euros",
    "Amount (EUR)"), in reading order.

    >>> printed_currencies([[Word("Prices", 0, 0, 9, 9, 1), Word("in", 10, 0, 19, 9, 1), Word("euros.", 20, 0, 39, 9, 1)]])
    ['EUR']
    """
    out = []
    for row in rows:
        for w in row:
            code = currency_mark(w.text) or CURRENCY_NAMES.get(w.text.strip("()[]:,.").lower())
            if code:
                out.append(code)
    return out


def document_currency(*groups: list[str]) -> str | None:
    """The currency most printed, the totals' first.

    >>> document_currency([], ["EUR", "EUR", "GBP"]), document_currency([])
    ('EUR', None)
    """
    for group in groups:
        if group:
            return Counter(group).most_common(1)[0][0]
    return None


_DOLLARS = ("AUD", "CAD", "HKD", "NZD", "SGD")  # the dollars "$" alone may stand for besides the US one
_NOT_US = {"gst", "hst", "pst", "qst", "abn"}  # taxes and tax numbers no US invoice prints


def which_dollar(currency: str | None, named: list[str], rows: list[list[Word]]) -> tuple[str | None, str | None]:
    """The dollar a document's ``$`` stands for, and a doubt: ``$`` alone is read as the US dollar, but where the
    document spells no ``USD`` (or ``US$``) and names one other dollar by its code (``All amounts in CAD``,
    ``Balance Due (AUD)``), the amounts are in that one; naming several is a doubt, and so is a ``$`` with no code
    on an invoice charging a tax no US invoice charges (``GST``, ``HST``: Australia, Canada, New Zealand ...).

    >>> row = [Word("Total", 0, 0, 20, 9, 1), Word("$5.00", 30, 0, 50, 9, 1)]
    >>> note = [Word("All", 0, 20, 10, 29, 1), Word("amounts", 12, 20, 40, 29, 1), Word("in", 42, 20, 50, 29, 1),
    ...         Word("CAD", 52, 20, 70, 29, 1)]
    >>> which_dollar("USD", ["USD", "CAD"], [row, note])
    ('CAD', None)
    >>> which_dollar("USD", ["USD"], [[Word("GST", 0, 0, 20, 9, 1), *row[1:]]])[1][:40]
    'the amounts carry "$" and no code says w'
    >>> which_dollar("USD", ["USD"], [row])
    ('USD', None)
    """
    words = [w.text for row in rows for w in row]
    if currency != "USD" or any("USD" in t.upper() or "US$" in t.upper() for t in words):
        return currency, None
    others = sorted({code for code in named if code in _DOLLARS})
    if len(others) == 1:
        return others[0], None
    if others:
        return currency, (f"the amounts carry \"$\" and the document names {len(others)} dollars "
                          f"({', '.join(others)}); USD was taken: check the currency")
    taxes = sorted({norm(t).strip("():.#") for t in words} & _NOT_US)
    if taxes:
        return currency, (f"the amounts carry \"$\" and no code says which dollar, and the document names "
                          f"{taxes[0].upper()}, which no US invoice charges; USD was taken: check the currency")
    return currency, None
