"""What an export document of held-k prints about the goods beside their code, description and price: each line's
tariff code (HS, EU CN, UK commodity or US HTS, by the words of its description), country of origin, unit of measure
and net weight, the shipment's packages and gross weight, the buyer's order and transport document numbers, and the
total in words.

Every value is drawn from the layout's seed and the line's code or the invoice's number, so one layout prints the
same tariff code, origin and weight for a product on every invoice. Lines that are no goods (postage, bank
charges, a manual line, a discount) print no tariff code, origin or weight.

>>> tariff("WHITE HANGING HEART T-LIGHT HOLDER", "cn8dot"), tariff("SET 7 BABUSHKA NESTING BOXES", "hts10")
('9405.50.00', '4420.90.0000')
>>> tariff("CHRISTMAS TREE DECORATION", "cn8dot"), tariff("Manual", "hs6dot"), tariff("JUMBO BAG RED", "uk10")
('9505.10.90', '', '4202929100')
>>> in_words(139), in_words(1015, british=True), in_words(0)
('ONE HUNDRED THIRTY-NINE', 'ONE THOUSAND AND FIFTEEN', 'ZERO')
>>> uom("SET OF 3 CAKE TINS PANTRY DESIGN", "PCS"), uom("PACK OF 72 RETROSPOT CAKE CASES", "PCS")
('SET', 'PK')
"""

from __future__ import annotations

import math
import zlib
from decimal import Decimal

from evaluation.invoice_held_k_words import CURRENCY_WORDS

__all__ = ["HS_FORMATS", "NOT_GOODS", "amount_words", "gross_weight", "in_words", "is_goods", "net_weight",
           "origin", "packages", "reference", "tariff", "uom"]

NOT_GOODS = {"POST", "DOT", "M", "D", "C2", "BANK CHARGES", "AMAZONFEE", "S", "CRUK", "PADS", "B"}
# Keywords of a description (checked in this order) -> (HS heading as 8 digits of the EU's CN, US HTS 10 digits).
TARIFFS = (
    (("T-LIGHT", "LANTERN", "HOLDER", "CANDLEHOLDER"), "94055000", "9405500000"),
    (("CHRISTMAS", "DECORATION", "BAUBLE", "TREE", "STAR", "WREATH"), "95051090", "9505101000"),
    (("CANDLE", "CANDLES", "INCENSE"), "34060000", "3406000000"),
    (("MUG", "CUP", "SAUCER", "TEAPOT", "CERAMIC", "PLATE", "BOWL", "CUPS"), "69120010", "6912004810"),
    (("GLASS", "JAR"), "70139900", "7013990000"),
    (("BAG", "BAGS", "PURSE", "SHOPPER", "CHARLOTTE"), "42029291", "4202929100"),
    (("CARD", "CARDS", "ENVELOPES", "WRAP", "STICKER", "STICKERS"), "49090000", "4909004000"),
    (("NAPKINS", "TISSUES", "PAPER", "DOILIES"), "48183000", "4818302000"),
    (("TIN", "TINS"), "73269098", "7326908688"),
    (("BOX", "BOXES", "DRAWER", "CABINET", "CRATE"), "44209099", "4420900000"),
    (("SIGN", "PLAQUE"), "83100000", "8310000000"),
    (("KNOB", "HOOK", "HANGER", "HOOKS"), "83025000", "8302500000"),
    (("FRAME", "PHOTO"), "44140090", "4414000000"),
    (("CLOCK", "ALARM"), "91051100", "9105114000"),
    (("BOTTLE", "WARMER"), "40149000", "4014901000"),
    (("DOORMAT",), "57050080", "5705002000"),
    (("CUSHION", "APRON", "COVER", "BUNTING", "FELTCRAFT", "TOWEL", "COSY"), "63079098", "6307909891"),
    (("PENCILS", "PEN", "MARKER", "CRAYONS", "PENCIL"), "96091010", "9609100000"),
    (("PLASTERS",), "30051000", "3005101000"),
    (("KIT", "SEWING"), "96050000", "9605000000"),
    (("DOLL", "DOLLY", "TOY", "SPACEBOY", "CIRCUS", "BALLOONS", "PARTY", "GAME"), "95030099", "9503000090"),
    (("LUNCH", "JAM", "KITCHEN", "CAKE", "EGG", "BAKING", "STAND", "RECIPE"), "39241000", "3924104000"),
)
FALLBACK = ("39264000", "3926400000")  # statuettes and other ornamental articles
HS_FORMATS = ("hs6dot", "cn8dot", "cn8space", "cn8", "uk10", "hts10")
ONES = ("ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
        "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN")
TENS = ("", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY")


def is_goods(code: str, description: str | None) -> bool:
    """Whether a line ships goods (a postage, fee, manual or discount line does not)."""
    return code.upper() not in NOT_GOODS and bool(description) and not code.upper().startswith("DCGS")


def tariff(description: str | None, style: str) -> str:
    """The tariff code printed for a description in a layout's format: ``hs6dot`` 6912.00, ``cn8dot`` 6912.00.10,
    ``cn8space`` 6912 00 10, ``cn8`` 69120010, ``uk10`` 6912001000 (a UK commodity code), ``hts10`` 6912.00.4810."""
    words = set((description or "").upper().replace(",", " ").split())
    if not words or description in ("Manual", "POSTAGE", "Discount", "CARRIAGE", "Bank Charges"):
        return ""
    cn8, hts = next(((a, b) for keys, a, b in TARIFFS if words & set(keys)), FALLBACK)
    return {"hs6dot": f"{cn8[:4]}.{cn8[4:6]}", "cn8dot": f"{cn8[:4]}.{cn8[4:6]}.{cn8[6:]}",
            "cn8space": f"{cn8[:4]} {cn8[4:6]} {cn8[6:]}", "cn8": cn8, "uk10": f"{cn8}00",
            "hts10": f"{hts[:4]}.{hts[4:6]}.{hts[6:]}"}[style]


def _hash(*parts) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def origin(seed: int, code: str, choices: tuple[str, ...]) -> str:
    """A product's country of origin (ISO code), the same for one code in one layout."""
    return choices[_hash("origin", seed, code) % len(choices)]


def net_weight(seed: int, code: str, quantity: Decimal) -> Decimal:
    """The net weight in kg of a line: a unit weight from 0.030 to 0.809 kg for the product, times the quantity
    (shipped or returned), to the gram."""
    unit = Decimal(30 + _hash("kg", seed, code) % 780) / 1000
    return (abs(quantity) * unit).quantize(Decimal("0.001"))


def uom(description: str | None, piece: str) -> str:
    """The unit of measure: SET for a set, PK for a pack, PR for a pair, else the layout's word for a piece."""
    text = (description or "").upper()
    words = text.split()
    if "SET" in words and "JET SET" not in text or text.startswith("SET/"):
        return "SET"
    if "PACK" in words:
        return "PK"
    return "PR" if "PAIR" in words else piece


def packages(seed: int, quantity: Decimal) -> int:
    """Cartons for the shipment: one per 24 to 96 pieces (the layout's), at least one."""
    per = 24 + (_hash("carton", seed) % 4) * 24
    return max(1, math.ceil(abs(quantity) / per))


def gross_weight(net: Decimal, cartons: int) -> Decimal:
    """Net weight plus 8 % packing and 0.45 kg a carton, to the gram."""
    return (net * Decimal("1.08") + Decimal("0.45") * cartons).quantize(Decimal("0.001"))


def reference(seed: int, number: str, kind: str) -> str:
    """A buyer's order number, bill of lading or air waybill for the invoice, drawn from the seed and number.

    >>> reference(3, "536365", "order") == reference(3, "536365", "order") != reference(4, "536365", "order")
    True
    """
    h = _hash(kind, seed, number)
    if kind == "order":
        return ("PO-{:05d}".format(h % 100000), "4500{:06d}".format(h % 1000000), "{:04d}/10".format(h % 10000),
                "ORD{:07d}".format(h % 10000000))[h % 4]
    if kind == "sea":
        return ("MAEU{:09d}", "MSCU{:07d}", "OOLU{:08d}")[h % 3].format(h % 10 ** 7)
    if kind == "air":
        return "{:03d}-{:04d} {:04d}".format(125 + h % 500, h % 10000, (h // 10000) % 10000)
    return "CMR {:06d}".format(h % 1000000)


def in_words(n: int, british: bool = False) -> str:
    """A whole number in capitals, as cheque writers and export forms spell it (``british`` adds AND)."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + (f"-{ONES[n % 10]}" if n % 10 else "")
    for size, name in ((10 ** 9, "BILLION"), (10 ** 6, "MILLION"), (1000, "THOUSAND"), (100, "HUNDRED")):
        if n >= size:
            head, rest = divmod(n, size)
            text = f"{in_words(head, british)} {name}"
            if not rest:
                return text
            joint = " AND " if british and rest < 100 else " "
            return text + joint + in_words(rest, british)
    raise AssertionError(n)


def amount_words(value: Decimal, currency: str, style: int, credit: bool) -> str:
    """The total in words in one of four styles.

    >>> amount_words(Decimal("139.12"), "USD", 0, False)
    'SAY US DOLLARS ONE HUNDRED THIRTY-NINE AND CENTS TWELVE ONLY'
    >>> amount_words(Decimal("-27.50"), "GBP", 1, True)
    'POUNDS STERLING TWENTY-SEVEN AND 50/100 ONLY (CREDIT)'
    >>> amount_words(Decimal("1015"), "EUR", 2, False)
    'One thousand and fifteen euros and 00/100'
    """
    whole, cents = divmod(int(abs(value) * 100), 100)
    name, sub = CURRENCY_WORDS[currency]
    british = style in (2, 3)
    words = in_words(whole, british)
    if style == 0:
        tail = f" AND {sub} {in_words(cents)}" if cents else ""
        text = f"SAY {name} {words}{tail} ONLY"
    elif style == 1:
        text = f"{name} {words} AND {cents:02d}/100 ONLY"
    elif style == 2:
        text = f"{words.capitalize()} {name.lower()} and {cents:02d}/100"
    else:
        text = f"{name} {words}" + (f" AND {in_words(cents)} {sub}" if cents else "") + " ONLY"
    return text + (" (CREDIT)" if credit and style != 2 else " (credit)" if credit else "")
