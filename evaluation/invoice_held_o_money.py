"""held-o's numbers, money, dates and tax arithmetic: :class:`HeldOLayout` (a :class:`Layout` that groups digits
the Indian way where its market does, prints a unit price to as many places as the record gives and a credit's
minus in the layout's own style), the amount in words of an Indian invoice (lakh and crore), the split of one tax
into printed parts that add up to it to the cent, and the second date that makes a numeric date read one way only.

A split tax is printed as parts (CGST and SGST, GST and PST or QST): every part but the last is its own rate of
the subtotal rounded half up to the cent, the last is what is left of the recorded tax, so the parts always sum to
it. A tax printed line by line (a GST column) is shared out by largest remainders: each line's exact share rounded
down to the cent, the cents still missing given to the lines with the largest fractions, so the column sums to the
recorded tax too.

>>> indian("1234567.5"), indian("999.99"), indian("-100000")
('12,34,567.50', '999.99', '-1,00,000.00')
>>> rupees_in_words(Decimal("6915.65"))
'Six Thousand Nine Hundred Fifteen and Sixty Five Paise'
>>> rupees_in_words(Decimal("12345678"))
'One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight'
>>> split_tax(Decimal("139.12"), Decimal("25.04"), (Decimal("0.09"), Decimal("0.09")))
[Decimal('12.52'), Decimal('12.52')]
>>> share_out([Decimal("1.00")] * 3, Decimal("0.10"), Decimal("0.30"))
[Decimal('0.10'), Decimal('0.10'), Decimal('0.10')]
>>> DATES["o:d-Mon-yy"](dt.date(2010, 12, 1)), DATES["o:mm/dd/Y"](dt.date(2010, 12, 1))
('1-Dec-10', '12/01/2010')
>>> DATES["o:dd-Mon-Y"](dt.date(2010, 12, 1)), DATES["o:d Month Y"](dt.date(2010, 12, 1))
('01-Dec-2010', '1 December 2010')
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_FLOOR, Decimal

from evaluation.invoice_layouts import DATE_STYLES, MONTHS, Layout
from evaluation.invoice_records import CENT, cents

__all__ = ["AMBIGUOUS", "DATES", "HeldOLayout", "indian", "places", "rate_text", "rupees_in_words",
           "second_date", "share_out", "split_tax"]

# Date styles of the three markets: name -> how a date is printed. The numeric ones read either way while the
# day is 12 or less; a layout that prints one also prints a second date whose day is past 12 (:func:`second_date`).
DATES = {
    "o:dd-mm-Y": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",
    "o:dd/mm/Y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "o:dd.mm.Y": DATE_STYLES["dd.mm.Y"],
    "o:d-Mon-yy": lambda d: f"{d.day}-{MONTHS[d.month - 1][:3]}-{d.year % 100:02d}",
    "o:dd-Mon-Y": lambda d: DATE_STYLES["dd-MON-Y"](d).title(),
    "o:d Mon Y": DATE_STYLES["d Mon Y"], "o:dd Month Y": DATE_STYLES["dd Month Y"],
    "o:d Month Y": lambda d: DATE_STYLES["dd Month Y"](d).lstrip("0"),
    "o:mm/dd/Y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "o:m/d/Y": lambda d: f"{d.month}/{d.day}/{d.year}",
    "o:Mon d, Y": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    "o:Month d, Y": DATE_STYLES["Month d, Y"], "o:Y-mm-dd": DATE_STYLES["Y-m-d"],
}
AMBIGUOUS = {"o:dd-mm-Y", "o:dd/mm/Y", "o:dd.mm.Y", "o:mm/dd/Y", "o:m/d/Y"}
SIGNS = {"minus": lambda t: f"-{t}", "parens": lambda t: f"({t})", "trailing": lambda t: f"{t}-",
         "cr": lambda t: f"{t} CR"}


def indian(value, places_: int = 2) -> str:
    """``value`` with its digits grouped the Indian way: the last three, then pairs (lakh, crore)."""
    value = Decimal(value)
    whole, _, part = f"{abs(value):.{places_}f}".partition(".")
    head, tail = whole[:-3], whole[-3:]
    pairs = [head[max(k - 2, 0):k] for k in range(len(head), 0, -2)][::-1]
    text = ",".join([*pairs, tail]) + (f".{part}" if places_ else "")
    return f"-{text}" if value < 0 else text


def places(value: Decimal) -> int:
    """How many decimals a unit price prints: two, or as many as the record gives (0.165 prints three)."""
    return max(2, -value.normalize().as_tuple().exponent)


def rate_text(rate: Decimal, spaced: bool = False) -> str:
    """A rate as printed: ``9%``, ``2.5%``, ``8.875 %``.

    >>> rate_text(Decimal("0.09")), rate_text(Decimal("0.025")), rate_text(Decimal("0.14975"), True)
    ('9%', '2.5%', '14.975 %')
    """
    return f"{(rate * 100).normalize():f}" + (" %" if spaced else "%")


class HeldOLayout(Layout):
    """A held-o layout: its faces (``extra["face"]``), Indian or Western digit groups (``extra["grouping"]``),
    the credit's sign style (:attr:`negative`: minus, parens, trailing, cr) and the market's dates."""

    @property
    def fonts(self) -> tuple[str, str]:
        return tuple(self.extra["face"])

    def _digits(self, value: Decimal, places_: int = 2, group: bool = True) -> str:
        if not group:
            return f"{abs(value):.{places_}f}"
        if self.extra.get("grouping") == "indian":
            return indian(abs(value), places_)
        return f"{abs(value):,.{places_}f}"

    def _sign(self, value: Decimal, text: str) -> str:
        return SIGNS[self.negative](text) if value < 0 else text

    def number(self, value: Decimal, places_: int = 2) -> str:
        return self._sign(value, self._digits(value, places_))

    def money(self, value: Decimal, lines: bool = False, places_: int = 2) -> str:
        """An amount as printed in the totals, or in the table (``lines``: with the mark only where the layout
        marks its lines). The mark goes before the digits (``₹ 1,234.50``, ``$1,234.50``) and the sign around
        both (``-$27.50``, ``($27.50)``, ``$27.50-``)."""
        text = self._digits(value, places_)
        if self.mark and (self.mark_lines or not lines):
            space = self.extra.get("mark_space") or not self.mark.endswith(("$", "₹"))  # INR 27.50, Rs. 27.50
            text = f"{self.mark}{' ' if space else ''}{text}"
        return self._sign(value, text)

    def price(self, value: Decimal) -> str:
        """A unit price in the table, to as many places as the record gives."""
        return self.money(value, lines=True, places_=places(value))

    def quantity(self, value: Decimal) -> str:
        """A quantity: whole, grouped only where the layout groups quantities, with ``.00`` where the software
        prints decimals (``6.00``); a returned one with a minus before it, or after it where amounts have one."""
        decimals = self.extra.get("qty_places", 0)
        text = self._digits(value, decimals, group=bool(self.extra.get("group_quantity")))
        return SIGNS["trailing" if self.negative == "trailing" else "minus"](text) if value < 0 else text

    def date(self, value: dt.date) -> str:
        return DATES[self.date_style](value)


def rupees_in_words(value: Decimal) -> str:
    """An amount's rupees and paise in words, grouped in thousands, lakhs and crores (of its absolute value)."""
    value = abs(value)
    rupees, paise = int(value), int((value - int(value)) * 100)
    text = _indian_words(rupees) or "Zero"
    if paise:
        text += f" and {_words(paise)} Paise"
    return text


ONES = ("", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve",
        "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen")
TENS = ("", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety")


def _words(n: int) -> str:
    """A number below a thousand in words (``Six Hundred Five``, ``Seventy Eight``)."""
    out = []
    if n >= 100:
        out += [ONES[n // 100], "Hundred"]
        n %= 100
    if n >= 20:
        out.append(TENS[n // 10])
        n %= 10
    if n:
        out.append(ONES[n])
    return " ".join(out)


def _indian_words(n: int) -> str:
    out = []
    for size, name in ((10 ** 7, "Crore"), (10 ** 5, "Lakh"), (1000, "Thousand")):
        if n >= size:
            out += [_indian_words(n // size) if size == 10 ** 7 else _words(n // size), name]
            n %= size
    if n:
        out.append(_words(n))
    return " ".join(out)


def split_tax(subtotal: Decimal, tax: Decimal, rates: tuple[Decimal, ...]) -> list[Decimal]:
    """The printed parts of ``tax`` charged at ``rates``: each but the last its rate of the subtotal to the
    cent, the last the rest, so that they sum to ``tax``."""
    parts = [cents(subtotal * r) for r in rates[:-1]]
    return [*parts, tax - sum(parts, Decimal("0.00"))]


def share_out(amounts: list[Decimal], rate: Decimal, tax: Decimal) -> list[Decimal]:
    """``tax`` shared over ``amounts`` at ``rate`` by largest remainders: the per-line taxes a column prints,
    summing to ``tax`` exactly (a part of a split tax may be a cent under its rate: the lines with the
    smallest fractions then give the cent back).

    >>> share_out([Decimal("0.05"), Decimal("0.05"), Decimal("0.05")], Decimal("0.10"), Decimal("0.02"))
    [Decimal('0.01'), Decimal('0.01'), Decimal('0.00')]
    >>> share_out([Decimal("-1.25"), Decimal("-3.35")], Decimal("0.15"), Decimal("-0.69"))
    [Decimal('-0.19'), Decimal('-0.50')]
    """
    exact = [a * rate for a in amounts]
    floors = [e.quantize(CENT, rounding=ROUND_FLOOR) for e in exact]
    missing = int((tax - sum(floors, Decimal("0.00"))) / CENT)
    order = sorted(range(len(amounts)), key=lambda k: (-(exact[k] - floors[k]), k))
    for k in order[:missing] if missing >= 0 else order[::-1][:-missing]:  # a part a cent under its rate
        floors[k] += CENT if missing >= 0 else -CENT
    return floors


def second_date(date: dt.date, days: int) -> dt.date:
    """The date ``days`` away (an order date before, a due date after), moved on in the same direction to a day
    past 12, so that a numeric date printed beside it reads one way only.

    >>> second_date(dt.date(2010, 12, 1), -5), second_date(dt.date(2010, 12, 2), 30)
    (datetime.date(2010, 11, 26), datetime.date(2011, 1, 13))
    """
    step = dt.timedelta(days=1 if days > 0 else -1)
    out = date + dt.timedelta(days=days)
    while out.day <= 12:
        out += step
    return out
