"""What an invoice prints beside its totals that is neither of them: a payment made and, after it, the balance
left to pay (``Total paid: 769.15``, ``Paid by customer``, ``Amount refunded``, then ``Amount due: 0.00``, which is
no invoice total), and a tax the total includes, printed under it (``(includes €1,590.60 VAT)``).

:mod:`ingestion.invoices.header` reads the totals; it asks here which rows these are.
"""

from __future__ import annotations

from ingestion.invoices.values import CENTS
from ingestion.invoices.vocab import TAXES, norm
from ingestion.invoices.words import Word, row_key

__all__ = ["PAYMENTS", "included_tax", "payment"]

PAYMENTS = {"paid", "payment", "payments", "received", "refunded", "payé", "bezahlt", "betaald", "réglé", "pagado",
            "pagato", "pago", "pagos", "wpłacono", "zapłacono"}
"""Words of a label naming a payment made (``Amount paid``, ``Paid by customer``, ``Total paid``, ``Montant payé``)."""
_NOT_PAID = {"for", "until", "no", "before", "on", "awaiting", "pending", "upon"}  # "Amount due for payment"
_INCLUDES = {"includes", "including", "incl", "inc", "inkl", "inklusive", "dont", "enthält", "inclusief"}


def included_tax(rows: list[list[Word]], top: tuple[int, float] | None) -> Word | None:
    """The tax a row under the items says the total includes (``(includes €1,590.60 VAT)``, ``Including £20.00 in
    taxes``, as shops print it under a total with tax in it): the word of its sum, or ``None``. ``top`` is the
    key (:func:`ingestion.invoices.words.row_key`) of the items' first row; rows above it are not read.

    >>> def ws(*t): return [Word(x, 10 * k, 0, 10 * k + 8, 9, 1) for k, x in enumerate(t)]
    >>> included_tax([ws("(includes", "€1,590.60", "VAT)")], None).text, included_tax([ws("Incl.", "3", "items")], None)
    ('€1,590.60', None)
    """
    for row in rows:
        if top is not None and row_key(row) <= top:
            continue
        keys = [norm(w.text).strip("()") for w in row]
        for k in range(len(row) - 2):
            if keys[k] in _INCLUDES and CENTS.search(row[k + 1].text) and set(keys[k + 2:k + 5]) & TAXES:
                return row[k + 1]
    return None


def payment(row: list[Word]) -> int | None:
    """Where ``row`` prints a payment made, a sum of money after a label with a word of :data:`PAYMENTS`: the
    index of the sum's word (the label being the words before it), or ``None`` when the row prints none.

    >>> def ws(*t): return [Word(x, 10 * k, 0, 10 * k + 8, 9, 1) for k, x in enumerate(t)]
    >>> payment(ws("Total", "paid:", "$769.15")), payment(ws("Paid:", "£3.00")), payment(ws("Total:", "£3.00"))
    (2, 1, None)
    >>> payment(ws("Payment", "terms:", "30", "days")), payment(ws("Amount", "refunded:", "-£3.90"))
    (None, 2)
    >>> payment(ws("Payment", "details", "Goods", "value", "22.20")), payment(ws("Due", "for", "payment", "€27.08"))
    (None, None)
    """
    first = next((k for k, w in enumerate(row) if any(ch.isdigit() for ch in w.text)), None)
    if not first or not CENTS.search(row[first].text):
        return None
    keys = [norm(w.text).strip("():") for w in row[:first] if w.text != ":"]
    at = [k for k, key in enumerate(keys) if key in PAYMENTS]  # the label's last two words, or its first of three
    paid = any((k >= len(keys) - 2 and (k == 0 or keys[k - 1] not in _NOT_PAID)) or (k == 0 and len(keys) <= 3)
               for k in at)
    return first if paid else None
