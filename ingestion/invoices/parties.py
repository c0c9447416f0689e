"""Whose a value printed in the header is, the customer's or the sender's, by the block of lines it stands in:
an address under "Bill to" or "Customer" is the customer's; a letterhead with a phone, a VAT or bank number, or
"Remit to" is the sender's. A country is read from the customer's block before the sender's, and a number just
after a VAT or company number's label is no invoice's.
"""

from __future__ import annotations

import re

from ingestion.invoices.words import Word, row_number

__all__ = ["CUSTOMER_WORDS", "NUMBER_WORDS", "SENDER_WORDS", "senders", "tokens", "whose"]

CUSTOMER_WORDS = ("customer", "cust", "client", "account", "acct", "a/c", "buyer", "debtor", "sold", "bill",
                  "member", "patron", "purchaser", "consignee", "payer", "subscriber", "kunde", "klant", "cliente")
"""Beginnings of the words a label of the customer's number holds in any wording (``Debtor ref.``, ``Sold-to``)."""

_TO = {"to", "ship", "deliver", "delivery", "recipient"}  # "Bill to", "Ship to", "Delivery address"
_FROM = {"from", "remit", "pay", "payable", "seller", "supplier", "vendor"}
NUMBER_WORDS = {"tel", "phone", "fax", "reg", "registration", "iban", "bic", "swift", "vat", "mwst", "ust", "alv",
                "abn", "gst"}
"""Words of the labels of a sender's telephone, bank and tax numbers (parts of ``MWST-Nr.``, ``USt-IdNr.``): no
invoice's or customer's number follows them."""
SENDER_WORDS = NUMBER_WORDS | {"www", "e-mail", "email", "kvk", "tunnus"}
"""Words of a letterhead's contact details and company numbers, in any wording (parts of ``MWST-Nr.``, ``Y-tunnus``)."""


def _block(words: list[Word], rows: list[list[Word]]) -> set[str]:
    """The words (:func:`tokens`) of the block a country's ``words`` stand in: the lines above and below it a line
    apart (or as far apart as most of the page's lines), over it or a little to either side (an address, a
    letterhead), not the next column's; a spreadsheet's row numbers (1, 2, 3 ... down its side) join no lines."""
    first, h = words[0], words[0].height
    x0, x1 = first.x0 - 6 * h, words[-1].x1 + 6 * h
    page = sorted((r for r in rows if r and r[0].page == first.page), key=lambda r: r[0].y0)
    above, below = [r for r in page if r[0].y0 < first.y0][::-1], [r for r in page if r[0].y0 > first.y0]
    steps = sorted(b[0].y0 - a[0].y0 for a, b in zip(page, page[1:]))
    apart = max(1.6 * h, 1.2 * steps[len(steps) // 4]) if steps else 1.6 * h  # a spreadsheet's rows: wider apart
    seen: set[str] = set()
    for order in (above, below):  # each way out from the country's line
        last = first.y1  # the foot of the block's last line: lines are a line's height or so apart
        for row in order:
            block = [w for w in row if w.x1 > x0 and w.x0 < x1 and not row_number(w)]
            if not block:
                continue
            foot = max(w.y1 for w in block)
            if abs(foot - last) > apart:
                break
            last = foot
            seen |= {t for w in block for t in tokens(w.text)}
    return seen | {t for row in page if row[0].y0 == first.y0 for w in row if first.x0 - 20 * h < w.x0 < x1
                   for t in tokens(w.text)}  # and its own line's, with a label before it ("Deliver to: Germany")


def tokens(text: str) -> set[str]:
    """A word in lower case, and its parts between hyphens and full stops ("ALV-nro": alv-nro, alv, nro)."""
    text = text.lower().strip(".:#")
    return {text, *re.split(r"[\-.]", text)}


def senders(w: Word, row: list[Word]) -> bool:
    """Whether the words just before ``w`` (a space or so apart, numbers too) name a sender's number: a VAT or
    company number in a letterhead ("VAT FR 41 412771908"), no invoice's.

    >>> row = [Word(t, 12 * k, 0, 12 * k + 10, 9, 1) for k, t in enumerate(("VAT", "FR", "41", "412771908"))]
    >>> senders(row[3], row), senders(row[0], row)
    (True, False)
    """
    seen, last = set(), w
    for v in reversed([v for v in row if v.x1 <= w.x0]):
        if last.x0 - v.x1 > 1.5 * w.height:
            break
        seen |= tokens(v.text)
        last = v
    return bool(seen & SENDER_WORDS)


def whose(words: list[Word], rows: list[list[Word]]) -> int:
    """Whose a country is, by the block it stands in (:func:`_block`): 0 the customer's (a word naming the customer,
    :data:`CUSTOMER_WORDS`, or the addressee, "Bill to", "Ship to"), 2 the sender's (its letterhead: a phone, a VAT
    or bank number, or "Remit to", "From"), 1 either.

    >>> w = lambda t, x, y: Word(t, x, y, x + 6 * len(t), y + 9, 1)
    >>> rows = [[w("Bill", 40, 0), w("to", 70, 0), w("Acme", 300, 0)], [w("Leeds", 40, 12), w("Wales", 300, 12)],
    ...         [w("England", 40, 24), w("Tel.", 300, 24)]]
    >>> whose(rows[2][:1], rows), whose(rows[1][1:], rows)
    (0, 2)
    """
    seen = _block(words, rows)
    if "accounts" in seen:
        seen = seen - {"payable"}  # "Attn: Accounts Payable": the customer's, no "Payable to"
    if seen & (_FROM | SENDER_WORDS) or any("@" in t for t in seen):
        return 2
    return 0 if seen & _TO or any(t.startswith(CUSTOMER_WORDS) for t in seen) else 1
