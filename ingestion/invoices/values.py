"""Values as invoices print them: money with its currency, dates, whole numbers, and invoice numbers.

Money is read in the common groupings (``1,234.56``, ``1.234,56``, ``1 234,56``), with a currency sign or ISO code
before or after the number and a minus sign or parentheses for a negative amount. A number with one separator is
read by what follows it: exactly two digits make it a decimal mark (money is printed to the cent), three make it a
thousands separator.

>>> parse_money("-£1,234.50")
(Decimal('-1234.50'), 'GBP')
>>> parse_money("1 234,56 EUR"), parse_money("(27.50)")
((Decimal('1234.56'), 'EUR'), (Decimal('-27.50'), None))
>>> parse_date("December 1, 2010"), parse_date("01.12.2010"), parse_date("02-DEC-2010")
(datetime.date(2010, 12, 1), datetime.date(2010, 12, 1), datetime.date(2010, 12, 2))
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

__all__ = ["CURRENCIES", "is_invoice_number", "parse_date", "parse_int", "parse_money"]

CURRENCIES = {"£": "GBP", "€": "EUR", "$": "USD", "GBP": "GBP", "EUR": "EUR", "USD": "USD", "US$": "USD"}
_MARK = r"(?:US\$|GBP|EUR|USD|[£€$])"
_NUMBER = r"\d[\d., ']*\d|\d"
_MONEY = re.compile(
    rf"^(?P<open>\()?\s*(?P<s1>[-−–])?\s*(?P<m1>{_MARK})?\s*(?P<s2>[-−–])?\s*(?P<num>{_NUMBER})\s*"
    rf"(?P<s3>[-−–])?\s*(?P<m2>{_MARK})?\s*(?P<close>\))?$", re.IGNORECASE)
_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                            "nov", "dec"))}


def _number(text: str) -> Decimal | None:
    """A number with grouping separators read by the rule in the module docstring.

    >>> _number("1.234"), _number("12,60"), _number("1 234 567,00"), _number("1,2,3")
    (Decimal('1234'), Decimal('12.60'), Decimal('1234567.00'), None)

    A space (or an apostrophe) groups thousands only: two numbers side by side are not one.

    >>> _number("216 84946"), _number("12 22670"), _number("1 234")
    (None, None, Decimal('1234'))
    """
    groups = re.split(r"[ '\u202f]+", text)
    if len(groups) > 1 and not (re.fullmatch(r"\d{1,3}", groups[0]) and
                                all(re.fullmatch(r"\d{3}(?:[.,]\d*)?", g) for g in groups[1:])):
        return None
    text = "".join(groups)
    marks = [c for c in text if c in ",."]
    if not marks:
        whole, frac = text, ""
    else:
        last = max(text.rfind(","), text.rfind("."))
        tail = text[last + 1:]
        if len(set(marks)) == 2 or (len(marks) == 1 and len(tail) != 3):
            whole, frac = text[:last], tail
        else:
            whole, frac = text, ""
        sep = [c for c in whole if c in ",."]
        if len(set(sep)) > 1:
            return None
        if sep and not re.fullmatch(r"\d{1,3}(?:[.,]\d{3})+", whole):
            return None
        whole = whole.replace(",", "").replace(".", "")
    if not whole.isdigit() or (frac and not frac.isdigit()):
        return None
    try:
        return Decimal(f"{whole}.{frac}" if frac else whole)
    except InvalidOperation:  # pragma: no cover - digits only
        return None


def parse_money(text: str) -> tuple[Decimal, str | None] | None:
    """The amount in ``text`` and its currency code (``None`` when no mark is printed), or ``None`` if ``text`` is
    not an amount.

    >>> parse_money("GBP -27.50"), parse_money("19.05 USD"), parse_money("12.60"), parse_money("VAT reg.")
    ((Decimal('-27.50'), 'GBP'), (Decimal('19.05'), 'USD'), (Decimal('12.60'), None), None)
    """
    m = _MONEY.match(text.strip())
    if not m or bool(m["open"]) != bool(m["close"]) or (m["m1"] and m["m2"]):
        return None
    value = _number(m["num"])
    if value is None:
        return None
    if m["open"] or m["s1"] or m["s2"] or m["s3"]:
        value = -value
    mark = m["m1"] or m["m2"]
    return value, CURRENCIES[mark.upper()] if mark else None


def parse_int(text: str) -> Decimal | None:
    """A whole number (a quantity), grouped or not, negative with a minus sign.

    >>> parse_int("-12"), parse_int("1,200"), parse_int("1 200"), parse_int("2.50"), parse_int("12A")
    (Decimal('-12'), Decimal('1200'), Decimal('1200'), None, None)
    """
    text = text.strip().replace("−", "-").replace("–", "-")
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-").strip()
    if re.fullmatch(r"\d+", body) or re.fullmatch(r"\d{1,3}(?:([.,  ])\d{3})(?:\1\d{3})*", body):
        return Decimal(re.sub(r"\D", "", body)) * sign
    return None


def parse_date(text: str) -> dt.date | None:
    """A date in an unambiguous printed form: ISO ``2010-12-01``, ``01.12.2010`` (day first), ``1 Dec 2010``,
    ``01 December 2010``, ``December 1, 2010``, ``01-DEC-2010``, ``1st December 2010``, ``01/12/2010`` (day first).

    >>> parse_date("2010-12-01"), parse_date("1 Dec 2010"), parse_date("not a date")
    (datetime.date(2010, 12, 1), datetime.date(2010, 12, 1), None)
    """
    t = text.strip().rstrip(".,").lower()
    t = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", t)
    try:
        if m := re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", t):
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m := re.fullmatch(r"(\d{1,2})[./](\d{1,2})[./](\d{4})", t):
            return dt.date(int(m[3]), int(m[2]), int(m[1]))
        if m := re.fullmatch(r"(\d{1,2})[ -]+([a-z]{3})[a-z]*\.?[ -]+(\d{4})", t):
            return dt.date(int(m[3]), _MONTHS[m[2]], int(m[1])) if m[2] in _MONTHS else None
        if m := re.fullmatch(r"([a-z]{3})[a-z]*\.? +(\d{1,2}),? +(\d{4})", t):
            return dt.date(int(m[3]), _MONTHS[m[1]], int(m[2])) if m[1] in _MONTHS else None
    except ValueError:
        return None
    return None


def is_invoice_number(text: str) -> bool:
    """Whether ``text`` looks like an invoice or credit note number: digits, perhaps after letters or with dashes.

    >>> is_invoice_number("C536379"), is_invoice_number("INV-2010-001"), is_invoice_number("United")
    (True, True, False)
    """
    return bool(re.fullmatch(r"[A-Z]{0,4}[-/]?\d[\d\-/]{2,}", text.strip().upper()))
