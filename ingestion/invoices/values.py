"""Values as invoices print them: money with its currency, dates, whole numbers, and invoice numbers.

Money is read in the common groupings (``1,234.56``, ``1.234,56``, ``1 234,56``), with a currency sign or ISO code
before or after the number and a minus sign (before or after the number), parentheses or ``CR`` after it for a
negative amount. A number with one separator is
read by what follows it: exactly two digits make it a decimal mark (money is printed to the cent), three make it a
thousands separator.

>>> parse_money("-£1,234.50")
(Decimal('-1234.50'), 'GBP')
>>> parse_money("1 234,56 EUR"), parse_money("(27.50)"), parse_money("27.50-"), parse_money("1'234.50 CR")
((Decimal('1234.56'), 'EUR'), (Decimal('-27.50'), None), (Decimal('-27.50'), None), (Decimal('-1234.50'), None))
>>> parse_date("December 1, 2010"), parse_date("01.12.2010"), parse_date("02-DEC-2010")
(datetime.date(2010, 12, 1), datetime.date(2010, 12, 1), datetime.date(2010, 12, 2))
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

from ingestion.invoices.vocab import UNITS

__all__ = ["CENTS", "CURRENCIES", "CURRENCY_NAMES", "is_invoice_number", "parse_date", "parse_int", "parse_money",
           "parse_quantity", "readings", "agreed_order", "shown_order", "three_decimals", "decimal_readings"]

_CODES = ("GBP", "EUR", "USD", "CHF", "JPY", "AUD", "CAD", "SEK", "NOK", "DKK", "PLN", "CZK", "NZD", "SGD", "HKD")
_DOLLARS = {"US$": "USD", "A$": "AUD", "AU$": "AUD", "NZ$": "NZD", "S$": "SGD", "SG$": "SGD", "C$": "CAD",
            "CA$": "CAD", "HK$": "HKD"}  # the dollars a country's sign prefixes ("A$1.25")
_SIGNS = {"ZŁ": "PLN", "KČ": "CZK"}  # a currency's sign after the amount ("1 234,56 zł")
CURRENCIES = {"£": "GBP", "€": "EUR", "$": "USD", **_DOLLARS, **_SIGNS, **{code: code for code in _CODES}}
"""Currency marks (upper case) -> ISO 4217 code."""
CURRENCY_NAMES = {"sterling": "GBP", "pounds": "GBP", "euro": "EUR", "euros": "EUR", "dollars": "USD",
                  "francs": "CHF", "yen": "JPY"}
"""Currency names a note may state the currency by (lower case) -> ISO 4217 code."""
_MARK = (rf"(?:{'|'.join(re.escape(d) for d in sorted(_DOLLARS, key=len, reverse=True))}|{'|'.join(_CODES)}"
         rf"|{'|'.join(s.lower() for s in _SIGNS)}|[£€$])")
_NUMBER = r"\d[\d., ']*\d|\d"
_MONEY = re.compile(
    rf"^(?P<open>\()?\s*(?P<s1>[-−–])?\s*(?P<m1>{_MARK})?\s*(?P<s2>[-−–])?\s*(?P<num>{_NUMBER})\s*"
    rf"(?P<s3>[-−–])?\s*(?P<m2>{_MARK})?\s*(?P<close>\))?\s*(?P<cr>CR)?$", re.IGNORECASE)
CENTS = re.compile(r"\d[.,]\d\d(?![.,]?\d)|(?<![\d.,])(?:\d{1,3}(?:[,.' ]\d{3})*|\d+)[.,]\d{4}(?![.,]?\d)")
"""A number printed with cents (``12.60``), or a unit price with four decimals (``2.5500``); not a date's
``02.12.2010``.

>>> [bool(CENTS.search(t)) for t in ("12.60", "2.5500", "1,234.5600", "02.12.2010", "2010", "1.250")]
[True, True, True, False, False, False]
"""
_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                            "nov", "dec"))}
# The months' names in the other languages invoices are printed in (German, French, Dutch, Spanish, Italian,
# Portuguese, Polish), by their first three letters where these name no other month, else by four.
_MONTHS |= {"mär": 3, "mae": 3, "mai": 5, "okt": 10, "dez": 12, "janv": 1, "fév": 2, "févr": 2, "avr": 4,
            "juin": 6, "juil": 7, "aoû": 8, "déc": 12, "mrt": 3, "mei": 5, "ene": 1, "abr": 4, "ago": 8, "dic": 12,
            "gen": 1, "mag": 5, "giu": 6, "lug": 7, "set": 9, "ott": 10, "fev": 2, "out": 10, "sty": 1, "lut": 2,
            "kwi": 4, "maj": 5, "cze": 6, "lip": 7, "sie": 8, "wrz": 9, "paź": 10, "lis": 11, "gru": 12}


def _month(name: str) -> int | None:
    """A month's number from its name or abbreviation in one of the languages of :data:`_MONTHS`.

    >>> _month("Dezember"), _month("juillet"), _month("juin"), _month("DEC"), _month("Juice")
    (12, 7, 6, 12, None)
    """
    name = name.lower().rstrip(".")
    return _MONTHS.get(name[:4]) or (None if name[:3] == "jui" else _MONTHS.get(name[:3]))  # juin, juil.


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
    >>> parse_money("£(27.50)"), parse_money("(EUR 27.50)"), parse_money("(1,67)£")
    ((Decimal('-27.50'), 'GBP'), (Decimal('-27.50'), 'EUR'), (Decimal('-1.67'), 'GBP'))
    >>> parse_money("A$1.25"), parse_money("S$0.00"), parse_money("1 234,56 zł")
    ((Decimal('1.25'), 'AUD'), (Decimal('0.00'), 'SGD'), (Decimal('1234.56'), 'PLN'))
    """
    text = re.sub(rf"^({_MARK})\s*\(", r"(\1", text.strip(), flags=re.IGNORECASE)  # £(27.50) as (£27.50)
    text = re.sub(rf"\)\s*({_MARK})$", r" \1)", text, flags=re.IGNORECASE)  # (27.50)£ as (27.50 £)
    m = _MONEY.match(text)
    if not m or bool(m["open"]) != bool(m["close"]) or (m["m1"] and m["m2"]):
        return None
    value = _number(m["num"])
    if value is None:
        return None
    if m["open"] or m["s1"] or m["s2"] or m["s3"] or m["cr"]:
        value = -value
    mark = m["m1"] or m["m2"]
    return value, CURRENCIES[mark.upper()] if mark else None


def three_decimals(text: str) -> Decimal | None:
    """The other reading of an amount whose one separator has three digits after it: ``1.650`` read with three
    decimals (a unit price printed to the tenth of a cent) where :func:`parse_money` reads 1650; ``None`` for any
    other text. Which is meant, only the line's arithmetic tells.

    >>> three_decimals("1.650"), three_decimals("GBP 2,950"), three_decimals("1,234.50"), three_decimals("12.60")
    (Decimal('1.650'), Decimal('2.950'), None, None)
    """
    money = parse_money(text)
    m = re.search(r"(?<![\d.,])(\d{1,3})[.,](\d{3})(?![\d.,])", text)
    if money is None or m is None or len(re.findall(r"[.,]", text)) != 1:
        return None
    value = Decimal(f"{m[1]}.{m[2]}")
    return -value if money[0] < 0 else value


def decimal_readings(quantity: Decimal | None, price: Decimal | None, quantity_text: str,
                     price_text: str) -> list[tuple[Decimal, Decimal]]:
    """A line's quantity and unit price as read, then each printed to three decimals read so (:func:`three_decimals`:
    ``1,850`` each, ``6,000`` units), in that order, the pairs with both values: which one the line means, its
    arithmetic tells.

    >>> decimal_readings(Decimal(6000), Decimal(1850), "6,000", "1,850")  # doctest: +NORMALIZE_WHITESPACE
    [(Decimal('6000'), Decimal('1850')), (Decimal('6000'), Decimal('1.850')), (Decimal('6.000'), Decimal('1850')),
     (Decimal('6.000'), Decimal('1.850'))]
    """
    q3, p3 = three_decimals(quantity_text), three_decimals(price_text)
    return [(q, p) for q, p in ((quantity, price), (quantity, p3), (q3, price), (q3, p3))
            if q is not None and p is not None]


def parse_int(text: str) -> Decimal | None:
    """A whole number (a quantity), grouped or not, negative as money is (a minus before or after it, parentheses,
    ``CR`` after it).

    >>> parse_int("-12"), parse_int("1,200"), parse_int("1 200"), parse_int("2.50"), parse_int("12A")
    (Decimal('-12'), Decimal('1200'), Decimal('1200'), None, None)
    >>> parse_int("12-"), parse_int("(12)"), parse_int("12 CR"), parse_int("1'200"), parse_int("-12-")
    (Decimal('-12'), Decimal('-12'), Decimal('-12'), Decimal('1200'), None)
    """
    text = text.strip().replace("−", "-").replace("–", "-")
    m = re.fullmatch(r"(-)?\s*(.*?)\s*(-)?", text)
    body, signs = m[2], (m[1], m[3])
    if re.fullmatch(r"\(.*\)", body) or re.fullmatch(r".*\s*CR", body, re.IGNORECASE):
        body, signs = re.sub(r"\s*CR$", "", body.strip("()"), flags=re.IGNORECASE).strip(), (*signs, "-")
    if sum(1 for x in signs if x) > 1:
        return None
    sign = -1 if any(signs) else 1
    if re.fullmatch(r"\d+", body) or re.fullmatch(r"\d{1,3}(?:([.,  '])\d{3})(?:\1\d{3})*", body):
        return Decimal(re.sub(r"\D", "", body)) * sign
    return None


_UNIT = re.compile(rf"\s*(?:{'|'.join(sorted((re.escape(u) for u in UNITS | {'x', 'off'}), key=len, reverse=True))})"
                   r"\.?$", re.IGNORECASE)


def parse_quantity(text: str) -> Decimal | None:
    """A quantity as an item row prints it: a whole number (:func:`parse_int`), perhaps with a unit after it or with
    zero decimals.

    >>> parse_quantity("6 pcs"), parse_quantity("12 x"), parse_quantity("6.00"), parse_quantity("2,5"), parse_quantity("1.25")
    (Decimal('6'), Decimal('12'), Decimal('6'), None, None)
    >>> parse_quantity("2 PK"), parse_quantity("3 BOX")
    (Decimal('2'), Decimal('3'))
    """
    text = _UNIT.sub("", text.strip())
    value = parse_int(text)
    if value is not None:
        return value
    money = parse_money(text)
    if money and money[1] is None and money[0] == money[0].to_integral_value() and re.search(r"[.,]00$", text):
        return money[0].to_integral_value()
    return None


def parse_date(text: str) -> dt.date | None:
    """A date in an unambiguous printed form: ISO ``2010-12-01``, ``01.12.2010`` (day first), ``1 Dec 2010``,
    ``01 December 2010``, ``December 1, 2010``, ``01-DEC-2010``, ``1st December 2010``, ``01/12/2010`` (day first).

    >>> parse_date("2010-12-01"), parse_date("1 Dec 2010"), parse_date("not a date")
    (datetime.date(2010, 12, 1), datetime.date(2010, 12, 1), None)

    Also with a weekday before it, year first with slashes or dots, or day first with dashes:

    >>> [parse_date(t).isoformat() for t in ("Wednesday, 1 December 2010", "1. December 2010",
    ...  "2010/12/01", "01-12-2010", "1 December, 2010", "Wed Dec 1, 2010")]
    ['2010-12-01', '2010-12-01', '2010-12-01', '2010-12-01', '2010-12-01', '2010-12-01']

    Two-digit years, and a month's name between slashes:

    >>> [parse_date(t).isoformat() for t in ("01-Dec-10", "1.12.10", "01 DEC 10", "01/Dec/2010", "1/12/10")]
    ['2010-12-01', '2010-12-01', '2010-12-01', '2010-12-01', '2010-12-01']

    A scan's space dropped after the comma (``December 1,2010``) still reads:

    >>> parse_date("December 1,2010")
    datetime.date(2010, 12, 1)

    A line printer's date with nothing between its parts, and a month named in another language:

    >>> [parse_date(t).isoformat() for t in ("01DEC10", "2. Dezember 2010", "1 déc. 2010", "1 grudnia 2010",
    ...                                      "1er décembre 2010", "ler décembre 2010")]
    ['2010-12-01', '2010-12-02', '2010-12-01', '2010-12-01', '2010-12-01', '2010-12-01']
    """
    t = text.strip().rstrip(".,").lower()
    t = re.sub(r"(\d)(st|nd|rd|th|er)\b", r"\1", t)  # 1st December, 1er décembre
    t = re.sub(r"^[li]er\s+(?=[^\W\d_]{3,})", "1 ", t)  # OCR's "ler décembre" for "1er décembre"
    t = re.sub(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+", "", t)  # a weekday before the date
    t = re.sub(r"^(\d{1,2})\.\s+(?=[a-z])", r"\1 ", t)  # 1. December 2010
    t = re.sub(r"([a-z])\.?,\s+(\d{4})$", r"\1 \2", t)  # 1 December, 2010
    t = re.sub(r"^(\d{1,2}) de ([^\W\d_]{3,}) de (\d{4})$", r"\1 \2 \3", t)  # 2 de diciembre de 2010
    try:
        if m := re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", t):
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m := re.fullmatch(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})", t):
            return dt.date(_year(m[3]), int(m[2]), int(m[1]))
        if m := re.fullmatch(r"(\d{1,2})[ /.-]*([^\W\d_]{3,})\.?[ /.-]*(\d{4}|\d{2})", t):  # also 01DEC10
            return dt.date(_year(m[3]), _month(m[2]), int(m[1])) if _month(m[2]) else None
        if m := re.fullmatch(r"([^\W\d_]{3,})\.? +(\d{1,2})(?:,? +|,)(\d{4})", t):  # OCR: "1,2010"
            return dt.date(int(m[3]), _month(m[1]), int(m[2])) if _month(m[1]) else None
    except ValueError:
        return None
    return None


def _year(text: str) -> int:
    """A year printed with four digits or two (``10`` is 2010, ``98`` 1998)."""
    year = int(text)
    return year if len(text) == 4 else year + (2000 if year < 70 else 1900)


_NUMERIC_DATE = re.compile(r"(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})")
_ORDER = re.compile(r"\b(dd?|mm?)[/.-](dd?|mm?)[/.-](?:yyyy|yy)\b", re.IGNORECASE)


def date_order(text: str) -> str | None:
    """The order of day and month a document states for its numeric dates (``dd/mm/yyyy``: ``"day"`` first,
    ``MM/DD/YYYY``: ``"month"`` first), or ``None``.

    >>> date_order("Date (MM/DD/YYYY):"), date_order("dd-mm-yy"), date_order("Date:")
    ('month', 'day', None)
    """
    m = _ORDER.search(text)
    if not m or m[1][0].lower() == m[2][0].lower():
        return None
    return "month" if m[1][0].lower() == "m" else "day"


def shown_order(date: str, texts: list[str]) -> str | None:
    """The order of day and month that the document's other numeric dates printed like ``date`` (the same
    separator) show: one whose first number is over 12 is day first (``29/12/2010``), one whose second is, month
    first (``12/29/2010``, a due date beside an invoice date of ``12/01/2010``); ``None`` when none shows it, or
    they disagree.

    >>> shown_order("12/01/2010", ["Due", "12/29/2010"]), shown_order("01/12/2010", ["29/12/2010", "12/29/2010"])
    ('month', None)
    >>> shown_order("01/12/2010", ["31-12-2010"]), shown_order("01-12-2010", ["31-12-2010"])
    (None, 'day')
    """
    m = _NUMERIC_DATE.fullmatch(date.strip().rstrip(".,"))
    sep = date.strip()[len(m[1])] if m else None
    seen = set()
    for text in texts:
        d = _NUMERIC_DATE.fullmatch(text.strip().rstrip(".,"))
        if d and text.strip()[len(d[1])] == sep and 0 < int(d[1]) <= 31 and 0 < int(d[2]) <= 31:
            seen |= {"day"} if int(d[1]) > 12 >= int(d[2]) else {"month"} if int(d[2]) > 12 >= int(d[1]) else set()
    return seen.pop() if len(seen) == 1 else None


def readings(text: str) -> dict[str, dt.date]:
    """What a numeric date can be: ``"day"`` first, ``"month"`` first and, when its three parts are two digits each,
    ``"year"`` first (``10-12-02``, as Swedish tills print 2 December 2010); only the orders giving a real date.

    >>> sorted(readings("10-12-02").items())[-1], sorted(readings("01/12/2010")), readings("2010-12-01")
    (('year', datetime.date(2010, 12, 2)), ['day', 'month'], {})
    """
    m = _NUMERIC_DATE.fullmatch(text.strip().rstrip(".,"))
    if not m:
        return {}
    a, b, c = m[1], m[2], m[3]
    out = {}
    for order, (y, mo, d) in (("day", (c, b, a)), ("month", (c, a, b)), ("year", (a, b, c))):
        if order == "year" and not len(a) == len(b) == len(c) == 2:
            continue
        try:
            out[order] = dt.date(_year(y), int(mo), int(d))
        except ValueError:
            pass
    return out


def agreed_order(date: str, texts: list[str]) -> str | None:
    """The one order of :func:`readings` under which ``date`` and the document's other numeric dates printed like it
    (the same separator and lengths) all lie within a year of one another (an invoice date and its due or
    return-by date), or ``None`` when no other date is printed so, or more orders than one agree.

    >>> agreed_order("10-12-02", ["Kvittonr", "10-12-16"]), agreed_order("01/12/10", ["31/12/10"])
    ('year', 'day')
    >>> agreed_order("01/12/2010", ["05/12/2010"]), agreed_order("01/12/2010", ["Date"])
    (None, None)
    """
    shape = re.sub(r"\d", "9", date.strip().rstrip(".,"))
    others = [t for t in texts if re.sub(r"\d", "9", t.strip().rstrip(".,")) == shape and t.strip() != date.strip()]
    if not others:
        return None
    fits = [order for order, day in readings(date).items()
            if all(order in (r := readings(t)) and abs((r[order] - day).days) <= 366 for t in others)]
    return fits[0] if len(fits) == 1 else None


def month_first(text: str) -> dt.date | None:
    """A numeric date read month first (``12/01/2010`` is 1 December), or ``None``."""
    m = _NUMERIC_DATE.fullmatch(text.strip().rstrip(".,"))
    try:
        return dt.date(_year(m[3]), int(m[1]), int(m[2])) if m else None
    except ValueError:
        return None


def either_way(text: str) -> bool:
    """Whether a numeric date reads as two different dates, day first or month first (``01/12/2010``; not
    ``13/12/2010``, nor a dotted ``01.12.2010``, which is day first wherever it is printed).

    >>> either_way("01/12/2010"), either_way("13/12/2010"), either_way("01.12.2010"), either_way("05/05/2010")
    (True, False, False, False)
    >>> either_way("01/12/10"), month_first("12/01/10")
    (True, datetime.date(2010, 12, 1))
    """
    m = _NUMERIC_DATE.fullmatch(text.strip().rstrip(".,"))
    return bool(m) and int(m[1]) <= 12 and int(m[2]) <= 12 and m[1].lstrip("0") != m[2].lstrip("0")


def is_invoice_number(text: str) -> bool:
    """Whether ``text`` looks like an invoice or credit note number: digits, perhaps after letters or with dashes.

    >>> is_invoice_number("C536379"), is_invoice_number("INV-2010-001"), is_invoice_number("United")
    (True, True, False)
    """
    return bool(re.fullmatch(r"[A-Z]{0,4}[-/]?\d[\d\-/]{2,}", text.strip().upper()))
