"""Amounts in words, as the invoicing programs of Spain, Italy, Portugal and Poland print them under the total
(``Son: ...``, ``Totale in lettere: ...``, ``Słownie: ...``), and in the English of their export templates.

:func:`say` gives the whole amount with its currency and cents in each language's customary form:

>>> say(Decimal("1234.56"), "es", "EUR")
'mil doscientos treinta y cuatro euros con cincuenta y seis céntimos'
>>> say(Decimal("21.00"), "es", "EUR"), say(Decimal("1.05"), "es", "EUR")
('veintiún euros', 'un euro con cinco céntimos')
>>> say(Decimal("1234.56"), "it", "EUR")
'euro milleduecentotrentaquattro/56'
>>> say(Decimal("183.00"), "it", "EUR"), say(Decimal("23.10"), "it", "EUR")
('euro centottantatré/00', 'euro ventitré/10')
>>> say(Decimal("1234.56"), "pt", "EUR")
'mil duzentos e trinta e quatro euros e cinquenta e seis cêntimos'
>>> say(Decimal("1500.01"), "pt", "EUR")
'mil e quinhentos euros e um cêntimo'
>>> say(Decimal("1234.56"), "pl", "PLN")
'jeden tysiąc dwieście trzydzieści cztery złote 56/100'
>>> say(Decimal("-12.50"), "pl", "PLN"), say(Decimal("15.00"), "pl", "EUR")
('minus dwanaście złotych 50/100', 'piętnaście euro 00/100')
>>> say(Decimal("2022.00"), "pl", "PLN")
'dwa tysiące dwadzieścia dwa złote 00/100'
>>> say(Decimal("1234.56"), "en", "PLN")
'one thousand two hundred thirty-four PLN 56/100'
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["say"]

# --- Spanish ----------------------------------------------------------------------------------------------------
_ES_UNITS = ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
             "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
             "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
             "veintiocho", "veintinueve")
_ES_TENS = ("", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa")
_ES_HUNDREDS = ("", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos",
                "setecientos", "ochocientos", "novecientos")


def _es_999(n: int) -> str:
    if n == 100:
        return "cien"
    parts = [_ES_HUNDREDS[n // 100]] if n >= 100 else []
    r = n % 100
    if r:
        parts.append(_ES_UNITS[r] if r < 30 else _ES_TENS[r // 10] + (f" y {_ES_UNITS[r % 10]}" if r % 10 else ""))
    return " ".join(parts)


def _es_short(text: str) -> str:
    """``uno`` before a noun: ``un``, ``veintiún``."""
    if text.endswith("veintiuno"):
        return text[:-9] + "veintiún"
    return text[:-3] + "un" if text.endswith("uno") else text


def _es(n: int) -> str:
    if n == 0:
        return "cero"
    millions, thousands, rest = n // 10 ** 6, n // 1000 % 1000, n % 1000
    parts = []
    if millions:
        parts.append("un millón" if millions == 1 else f"{_es_short(_es_999(millions))} millones")
    if thousands:
        parts.append("mil" if thousands == 1 else f"{_es_short(_es_999(thousands))} mil")
    if rest:
        parts.append(_es_999(rest))
    return " ".join(parts)


def _say_es(units: int, cents: int, currency: str) -> str:
    name = {"EUR": ("euro", "euros"), "PLN": ("zloty", "zlotys")}.get(currency, (currency, currency))
    text = f"{_es_short(_es(units))} {name[0] if units == 1 else name[1]}"
    if cents:
        text += f" con {_es_short(_es(cents))} {'céntimo' if cents == 1 else 'céntimos'}"
    return text


# --- Italian ----------------------------------------------------------------------------------------------------
_IT_UNITS = ("zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "undici",
             "dodici", "tredici", "quattordici", "quindici", "sedici", "diciassette", "diciotto", "diciannove")
_IT_TENS = ("", "", "venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta", "ottanta", "novanta")


def _it_99(n: int) -> str:
    if n < 20:
        return _IT_UNITS[n]
    tens, u = _IT_TENS[n // 10], n % 10
    if u in (1, 8):
        tens = tens[:-1]  # ventuno, trentotto
    return tens + (_IT_UNITS[u] if u else "")


def _it_999(n: int) -> str:
    h, r = n // 100, n % 100
    head = "" if h == 0 else "cento" if h == 1 else _IT_UNITS[h] + "cento"
    tail = _it_99(r) if r else ""
    if head and tail.startswith("o"):
        head = head[:-1]  # centottanta, centotto
    return head + tail


def _it(n: int) -> str:
    if n == 0:
        return "zero"
    millions, thousands, rest = n // 10 ** 6, n // 1000 % 1000, n % 1000
    text = ""
    if millions:
        text += "unmilione" if millions == 1 else _it_999(millions) + "milioni"
    if thousands:
        text += "mille" if thousands == 1 else _it_999(thousands) + "mila"
    if rest:
        text += _it_999(rest)
    if len(text) > 3 and text.endswith("tre"):
        text = text[:-3] + "tré"  # ventitré, centotré
    return text


def _say_it(units: int, cents: int, currency: str) -> str:
    return f"{'euro' if currency == 'EUR' else currency} {_it(units)}/{cents:02d}"


# --- Portuguese (European) --------------------------------------------------------------------------------------
_PT_UNITS = ("zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze",
             "treze", "catorze", "quinze", "dezasseis", "dezassete", "dezoito", "dezanove")
_PT_TENS = ("", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa")
_PT_HUNDREDS = ("", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos", "setecentos",
                "oitocentos", "novecentos")


def _pt_999(n: int) -> str:
    if n == 100:
        return "cem"
    parts = [_PT_HUNDREDS[n // 100]] if n >= 100 else []
    r = n % 100
    if r:
        parts.append(_PT_UNITS[r] if r < 20 else _PT_TENS[r // 10] + (f" e {_PT_UNITS[r % 10]}" if r % 10 else ""))
    return " e ".join(parts)


def _pt(n: int) -> str:
    if n == 0:
        return "zero"
    groups = [(n // 10 ** 6, "milhão", "milhões"), (n // 1000 % 1000, "mil", "mil"), (n % 1000, "", "")]
    parts = []
    for value, one, many in groups:
        if not value:
            continue
        if one == "mil":
            parts.append("mil" if value == 1 else f"{_pt_999(value)} mil")
        elif one:
            parts.append(f"um {one}" if value == 1 else f"{_pt_999(value)} {many}")
        else:
            parts.append(_pt_999(value))
    text = parts[0]
    for k, part in enumerate(parts[1:], 1):
        last = k == len(parts) - 1 and n % 1000 > 0
        joint = " e " if last and (n % 1000 < 100 or n % 100 == 0) else " "
        text += joint + part
    return text


def _say_pt(units: int, cents: int, currency: str) -> str:
    name = {"EUR": ("euro", "euros")}.get(currency, (currency, currency))
    text = f"{_pt(units)} {name[0] if units == 1 else name[1]}"
    if cents:
        text += f" e {_pt(cents)} {'cêntimo' if cents == 1 else 'cêntimos'}"
    return text


# --- Polish -----------------------------------------------------------------------------------------------------
_PL_UNITS = ("zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem", "dziewięć", "dziesięć",
             "jedenaście", "dwanaście", "trzynaście", "czternaście", "piętnaście", "szesnaście", "siedemnaście",
             "osiemnaście", "dziewiętnaście")
_PL_TENS = ("", "", "dwadzieścia", "trzydzieści", "czterdzieści", "pięćdziesiąt", "sześćdziesiąt",
            "siedemdziesiąt", "osiemdziesiąt", "dziewięćdziesiąt")
_PL_HUNDREDS = ("", "sto", "dwieście", "trzysta", "czterysta", "pięćset", "sześćset", "siedemset", "osiemset",
                "dziewięćset")


def _pl_form(n: int, forms: tuple[str, str, str]) -> str:
    """The noun's form after ``n``: one, a few (2-4 but 12-14), many."""
    if n == 1:
        return forms[0]
    return forms[1] if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else forms[2]


def _pl_999(n: int) -> str:
    parts = [_PL_HUNDREDS[n // 100]] if n >= 100 else []
    r = n % 100
    if r:
        parts += [_PL_UNITS[r]] if r < 20 else [_PL_TENS[r // 10]] + ([_PL_UNITS[r % 10]] if r % 10 else [])
    return " ".join(parts)


def _pl(n: int) -> str:
    if n == 0:
        return "zero"
    parts = []
    for value, forms in ((n // 10 ** 6, ("milion", "miliony", "milionów")), (n // 1000 % 1000,
                                                                             ("tysiąc", "tysiące", "tysięcy"))):
        if value:
            parts.append(f"{_pl_999(value)} {_pl_form(value, forms)}")
    if n % 1000:
        parts.append(_pl_999(n % 1000))
    return " ".join(parts)


def _say_pl(units: int, cents: int, currency: str) -> str:
    name = _pl_form(units, ("złoty", "złote", "złotych")) if currency == "PLN" else "euro" if currency == "EUR" \
        else currency
    return f"{_pl(units)} {name} {cents:02d}/100"


# --- English ----------------------------------------------------------------------------------------------------
_EN_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
             "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def _en_999(n: int) -> str:
    parts = [f"{_EN_UNITS[n // 100]} hundred"] if n >= 100 else []
    r = n % 100
    if r:
        parts.append(_EN_UNITS[r] if r < 20 else _EN_TENS[r // 10] + (f"-{_EN_UNITS[r % 10]}" if r % 10 else ""))
    return " ".join(parts)


def _en(n: int) -> str:
    if n == 0:
        return "zero"
    parts = []
    for value, name in ((n // 10 ** 6, "million"), (n // 1000 % 1000, "thousand"), (n % 1000, "")):
        if value:
            parts.append(f"{_en_999(value)} {name}".strip())
    return " ".join(parts)


def _say_en(units: int, cents: int, currency: str) -> str:
    return f"{_en(units)} {currency} {cents:02d}/100"


_SAY = {"es": _say_es, "it": _say_it, "pt": _say_pt, "pl": _say_pl, "en": _say_en}
_MINUS = {"es": "menos", "it": "meno", "pt": "menos", "pl": "minus", "en": "minus"}


def say(amount: Decimal, lang: str, currency: str) -> str:
    """``amount`` (to the cent) in words in ``lang`` (es, it, pt, pl, en), with its currency and cents."""
    cents_total = int((abs(amount) * 100).to_integral_value())
    text = _SAY[lang](cents_total // 100, cents_total % 100, currency)
    return f"{_MINUS[lang]} {text}" if amount < 0 else text
