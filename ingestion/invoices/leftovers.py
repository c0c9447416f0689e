"""Header fields whose label was not found, read by elimination from the values no label claimed.

A date, a country name and an invoice-number-like token left on page 1 above the items are the invoice's date,
country and number (when several different ones are, the first is taken and a doubt names the field; a country in
a block naming the customer comes before others, one in the sender's letterhead after them, and no doubt is raised
when only one block names the customer: :mod:`ingestion.invoices.parties`); a number after a letterhead's VAT or
company number is none; a lone whole number under or after a word that is not a known label is the customer's
number; and the amounts printed after the last item row are the totals: the largest (in size) is the total, the
subtotal the one that makes it with the tax or another amount (else the next largest), and an amount that makes
subtotal + it = total the tax. A value whose label, in words the vocabulary does not know, holds a word of
another value's (``Your order``, ``Pay by``: :data:`OTHER_WORDS`) is no candidate. When a field was found this
way, or no customer was, a value after a label of its own (``Ref.: INV/536365``) that nothing read is a doubt: it
may be that field's, in a form the reader does not read. Nothing here is checked against the lines: the checks
(:mod:`ingestion.invoices.checks`) then test these values as they test labelled ones.
"""

from __future__ import annotations

import re
from decimal import Decimal

from core.invoices import Box, InvoiceFields
from ingestion.invoices.parties import CUSTOMER_WORDS, NUMBER_WORDS, senders, tokens, whose
from ingestion.invoices.values import parse_date, parse_money
from ingestion.invoices.vocab import LABELS, field_words, match_words
from ingestion.invoices.words import Word, row_key, span

__all__ = ["COUNTRIES", "OTHER_WORDS", "as_printed", "country_name", "eliminate"]

def _country_names() -> dict[str, str]:
    """Country names by their lower case: ISO 3166's (pycountry: the short, common and official names) and the names
    and abbreviations business software prints that ISO does not hold (``EIRE``, ``USA``, ``Channel Islands``)."""
    import pycountry

    names = {"EIRE", "USA", "UK", "U.K.", "RSA", "UAE", "Channel Islands", "European Community", "Unspecified",
             "United States", "Czech Republic", "Russia", "South Korea", "Korea", "Turkey", "Vietnam", "Taiwan",
             "Iran", "Syria", "Bolivia", "Venezuela", "Tanzania", "Moldova", "Laos", "Great Britain", "Holland",
             "Scotland", "England", "Wales", "Northern Ireland"}
    for c in pycountry.countries:
        names |= {getattr(c, k) for k in ("name", "common_name", "official_name") if hasattr(c, k)}
    return {n.lower(): n for n in names} | _names_abroad()


_LANGUAGES = ("de", "nl", "fr", "es", "pt", "it", "pl", "sv", "nb", "da")
_ENGLISH_WORDS = {"island", "norfolk", "man", "granada", "salvador", "maurice", "dominique", "grenade", "indie",
                  "reunion", "chili", "guiana", "hellas"}  # a country's name abroad that an English address prints


def _names_abroad() -> dict[str, str]:
    """The countries' names in the languages invoices are read in (pycountry's translations: ``Reino Unido``,
    ``Vereinigtes Königreich``, ``Wielka Brytania``), less those an English address may print as a place or word
    (``Island``, Iceland in German and Swedish, is Canvey Island's; ``Norfolk``)."""
    import gettext

    import pycountry

    out: dict[str, str] = {}
    for language in _LANGUAGES:
        try:
            say = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[language]).gettext
        except OSError:  # a pycountry without that language's names
            continue
        for c in pycountry.countries:
            for key in ("name", "common_name"):
                name = say(getattr(c, key)) if hasattr(c, key) else ""
                if name and name.lower() not in _ENGLISH_WORDS:
                    out.setdefault(name.lower(), name)
    return out


_NAMES = _country_names()
COUNTRIES = set(_NAMES)
"""Lower-case country names a country field may hold.

>>> {"united kingdom", "india", "eire", "usa", "côte d'ivoire"} <= COUNTRIES, "of import" in COUNTRIES
(True, False)
>>> {"reino unido", "vereinigtes königreich", "wielka brytania", "españa"} <= COUNTRIES, "norfolk" in COUNTRIES
(True, False)
"""


def country_name(text: str) -> str:
    """A country printed in capitals as its name is written (``UNITED KINGDOM`` is United Kingdom; ``EIRE`` and
    ``USA`` stay so), a country's ISO 3166 code as its name (``GB``: an e-invoice's buyer country code); any other
    text as printed.

    >>> country_name("UNITED KINGDOM"), country_name("EIRE"), country_name("Hong Kong"), country_name("ATLANTIS")
    ('United Kingdom', 'EIRE', 'Hong Kong', 'ATLANTIS')
    >>> country_name("GB"), country_name("DE"), country_name("UK"), country_name("QQ")
    ('United Kingdom', 'Germany', 'UK', 'QQ')
    """
    if len(text) == 2 and text.isupper() and text.lower() not in _NAMES:
        import pycountry

        found = pycountry.countries.get(alpha_2=text)
        return getattr(found, "common_name", None) or found.name if found else text
    return _NAMES.get(text.lower(), text) if text.isupper() else text
_CUSTOMER = re.compile(r"\d{4,8}")
_WORDS = re.compile(r"[A-Za-z][A-Za-z./\-]*#?:?|#:?")  # a label's words ("A/C No.", "Acct #")
_CENTS = re.compile(r"\d[.,]\d\d(?!\d)")


def _taken(w: Word, *groups: dict[str, Box]) -> bool:
    return any(b and b.page == w.page and b.x0 - 0.5 <= w.cx <= b.x1 + 0.5 and b.y0 - 0.5 <= w.cy <= b.y1 + 0.5
               for boxes in groups for b in boxes.values())


def eliminate(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]],
              skip: set[tuple[int, float]], claimed: list[Box] = (),
              currencies: list[str] | None = None) -> list[tuple[str, str]]:
    """Fill the fields whose label was not found from the values no label claimed (``skip``: the table's rows;
    ``claimed``: the values of labels the reader does not return, a due date or an order number). Returns the
    doubts, as (check name, detail): a field taken from several different candidates (two dates, two countries
    on page 1), which a reviewer must confirm. The currencies the totals found here print go to ``currencies``."""
    hidden = {f"claimed {k}": b for k, b in enumerate(claimed)}
    first = [row for row in rows if row[0].page == 1 and row_key(row) not in skip and (
        not skip or row_key(row) < min(skip))]  # the header: above the items, not the bank details below
    found: dict[str, list[tuple[object, list[Word]]]] = {"invoice_date": [], "country": [], "invoice_number": []}
    for r, row in enumerate(first):
        free = [w for w in row if not _taken(w, boxes, hidden)]
        found["invoice_date"] += [d for d in _dates(free)
                                  if not _names_other(d[1][0], row, _row_over(d[1][0], first, r))]
        found["country"] += _countries(free)
        found["invoice_number"] += [(w.text, [w]) for w in free if re.fullmatch(r"C?\d{6,}", w.text) and
                                    not senders(w, row) and not _names_other(w, row, _row_over(w, first, r))]
    doubts, filled = [], []
    for name, candidates in found.items():
        if getattr(fields, name) is not None or not candidates:
            continue
        filled.append(name)
        sure = False
        if name == "country":  # the customer's country before the sender's (in its letterhead)
            kinds = [whose(c[1], first) for c in candidates]
            best = [c for c, k in zip(candidates, kinds) if k == min(kinds)]
            sure = min(kinds) == 0 and len({str(v).lower() for v, _ in best}) == 1
            candidates = best + [c for c, k in zip(candidates, kinds) if k > min(kinds)]
        value, words = candidates[0]
        setattr(fields, name, value)
        boxes[name] = span(words)
        distinct = {str(v).lower() for v, _ in candidates}
        if name == "country" and min(kinds) == 2:
            doubts.append(("country told apart", f"no known label names the country, and the only one printed, "
                                                 f"{value}, stands in the sender's letterhead: the customer's may "
                                                 "be printed in a form this reader does not read; check it"))
        elif len(distinct) > 1 and not sure:
            label = field_words(name)
            doubts.append((f"{label} told apart", f"no known label names the {label}, and {len(distinct)} "
                                                  f"different ones are printed on page 1; {value} was taken: check it"))
    if fields.customer_id is None and skip:
        _customer(fields, boxes, first, doubts, hidden)
        filled += ["customer_id"] if fields.customer_id is not None else []
    if filled or fields.customer_id is None:
        seen = {id(w) for candidates in found.values() for _, words in candidates for w in words}
        doubts += _unexplained([[w for w in row if id(w) not in seen] for row in first], boxes, hidden, filled)
    if skip:
        doubts += _totals(fields, boxes, [row for row in rows if row_key(row) > max(skip)], hidden,
                          [] if currencies is None else currencies)
        doubts += _header_amounts(fields, boxes, first, hidden)
    return doubts


OTHER_WORDS = NUMBER_WORDS | {"order", "po", "delivery", "deliv", "dispatch", "due", "pay", "payment", "telephone",
                              "sort", "tva", "iva", "btw", "uid", "idnr", "y-tunnus"}
"""Words that make a label one of a value the reader does not return ("Your order", "Pay by", a tax number's
"MWST-Nr." or "USt-IdNr."), in any wording; a word's parts between hyphens and full stops count too."""


def _names_other(w: Word, row: list[Word], above: list[Word]) -> bool:
    """Whether the label of ``w`` (the words before it on its row back to a wide gap or a number, or those just
    above it) holds a word of :data:`OTHER_WORDS`.

    >>> row = [Word("Your", 0, 0, 20, 9, 1), Word("order:", 23, 0, 50, 9, 1), Word("719965", 90, 0, 120, 9, 1)]
    >>> _names_other(row[2], row, []), _names_other(row[2], row[2:], [Word("PO", 90, -12, 100, -3, 1)])
    (True, True)
    """
    return any(tokens(v.text) & OTHER_WORDS for v in _label(w, row, above))


def _label(w: Word, row: list[Word], above: list[Word]) -> list[Word]:
    """The words that may be ``w``'s label, in reading order: those before it on its row back to a wide gap or a
    number, and those just above it."""
    label, last = [], w
    for v in reversed([v for v in row if v.x1 <= w.x0]):
        if last.x0 - v.x1 > 12 * w.height or any(ch.isdigit() for ch in v.text):
            break
        label.append(v)
        last = v
    over = [k for k, v in enumerate(above) if v.x0 < w.x1 and w.x0 < v.x1]
    if over:  # and the pieces of a word split by the recogniser that reach past it (ACCOUN T over 15574)
        a, b = over[0], over[-1]
        while a and above[a].x0 - above[a - 1].x1 < 0.5 * above[a].height:
            a -= 1
        while b + 1 < len(above) and above[b + 1].x0 - above[b].x1 < 0.5 * above[b].height:
            b += 1
        over = list(range(a, b + 1))
    return [above[k] for k in over] + label[::-1]


def _customer_word(label: list[Word]) -> bool:
    """Whether a label's words (in reading order, as :func:`_label` gives them) name the customer
    (:data:`CUSTOMER_WORDS`). Pieces the recogniser split apart in a letter-spaced label (``C U STOMER``, less than
    half a height apart on one line) are joined first.

    >>> _customer_word([Word("Debtor", 0, 0, 30, 9, 1), Word("ref.", 33, 0, 50, 9, 1)]), _customer_word([Word("Job:", 0, 0, 20, 9, 1)])
    (True, False)
    >>> _customer_word([Word("C", 0, 0, 5, 9, 1), Word("U", 4, 0, 10, 9, 1), Word("STOMER", 11, 0, 40, 9, 1)])
    True
    """
    joined: list[str] = []
    for k, v in enumerate(label):  # in reading order (:func:`_label`)
        last = label[k - 1] if k else None
        if last is not None and abs(v.y0 - last.y0) < 0.5 * v.height and abs(v.x0 - last.x1) < 0.5 * v.height:
            joined[-1] += v.text
        else:
            joined.append(v.text)
    return any(t.lower().startswith(CUSTOMER_WORDS) for t in joined)


def _unexplained(rows: list[list[Word]], boxes: dict[str, Box], hidden: dict[str, Box],
                 filled: list[str]) -> list[tuple[str, str]]:
    """A doubt for a value after a label of its own (words ending in a colon) that no field took and no known label
    claimed, when a field was found without its label or the customer was not found: the value may be that field's,
    printed in a form this reader does not read (``Ref.: INV/536365``), and the one taken another's.

    >>> row = [Word("Ref.:", 0, 0, 20, 9, 1), Word("INV/536365", 24, 0, 70, 9, 1)]
    >>> _unexplained([row], {}, {}, ["invoice_number"])[0][1]
    "'Ref.: INV/536365' is read as no field, and the invoice number was found without its label: check them"
    """
    for r, row in enumerate(rows):
        known = None  # the ends of known labels on this row, found once a candidate needs them
        for i, w in enumerate(row[1:], 1):
            label = row[i - 1]
            if not any(ch.isdigit() for ch in w.text) or not label.text.endswith(":") or \
                    any(ch.isdigit() for ch in label.text) or w.x0 - label.x1 > 12 * w.height or \
                    _taken(w, boxes, hidden) or _names_other(w, row, rows[r - 1] if r else []):
                continue
            if known is None:
                known = {m.end for m in match_words(row, LABELS, after=True, keep=True)}
            if i in known:
                continue  # a known label's value (a second date, a guess's) is no stranger
            what = " and ".join(field_words(f) for f in filled)
            why = f"the {what} {'was' if len(filled) == 1 else 'were'} found without its label" if filled else \
                "no customer was found"
            return [("header values told apart", f"{label.text + ' ' + w.text!r} is read as no field, and {why}: "
                                                 "check them")]
    return []


def _dates(free: list[Word]) -> list[tuple[object, list[Word]]]:
    out, i = [], 0
    while i < len(free):
        for n in (4, 3, 2, 1):
            date = parse_date(" ".join(w.text for w in free[i:i + n])) if i + n <= len(free) else None
            if date:
                out.append((date, free[i:i + n]))
                i += n
                break
        else:
            i += 1
    return out


def _countries(free: list[Word]) -> list[tuple[str, list[Word]]]:
    out = []
    for i in range(len(free)):
        for n in (3, 2, 1):
            text = " ".join(w.text for w in free[i:i + n]) if i + n <= len(free) else ""
            if text.lower() in COUNTRIES:
                out.append((country_name(text), free[i:i + n]))
                break
    return out


_ALIASES = {"eire": "IE", "usa": "US", "uk": "GB", "u.k.": "GB", "rsa": "ZA", "uae": "AE", "great britain": "GB",
            "holland": "NL"}


def _iso(name: str) -> str | None:
    import pycountry

    try:
        return _ALIASES.get(name.lower()) or pycountry.countries.lookup(name).alpha_2
    except LookupError:
        return None


def as_printed(fields: InvoiceFields, box: Box | None, rows: list[list[Word]]) -> None:
    """A country read from its ISO code (``IE``) named as the page names it beside the code (``EIRE`` in the
    address over it, within six heights), when it does.

    >>> f = InvoiceFields(country="Ireland")
    >>> rows = [[Word("IE", 0, 0, 9, 9, 1)], [Word("EIRE", 0, 20, 20, 29, 1)]]
    >>> as_printed(f, Box(1, 0, 0, 9, 9), rows); f.country
    'EIRE'
    """
    code = [w for row in rows for w in row if box and _taken(w, {"country": box})]
    if fields.country is None or len(code) != 1 or len(code[0].text) != 2 or _iso(fields.country) != code[0].text:
        return
    w = code[0]
    names = [(abs(ws[0].cx - w.cx) + abs(ws[0].cy - w.cy), name) for row in rows if row[0].page == w.page
             for name, ws in _countries(row) if name != fields.country and _iso(name) == w.text]
    near = min(names, default=None)
    if near and near[0] < 6 * w.height:
        fields.country = near[1]


def _customer(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]],
              doubts: list[tuple[str, str]], hidden: dict[str, Box]) -> None:
    """A lone number of 4 to 8 digits with a word label of its own (just before it, or just above it on the row
    above) is the customer's, when it is the only one above the table (a phone or VAT number has numbers beside
    it, and is not alone). A number one space after a word (no colon between) may be part of a line of words, as
    a postcode in an address is: it is not taken, and when it is all there is, a doubt says so; a number whose label holds a word of :data:`OTHER_WORDS` is not
    the customer's."""
    found, glued, odd, named = [], [], [], {}
    for r, row in enumerate(rows):
        for i, w in enumerate(row):
            if not _CUSTOMER.fullmatch(w.text) or _taken(w, boxes, hidden):
                continue
            over = _row_over(w, rows, r)  # the row of its label, when one stands over it
            heads = [v for v in over if v.x0 < w.x1 and w.x0 < v.x1]
            near = [v for v in (row[i - 1] if i else None, row[i + 1] if i + 1 < len(row) else None)
                    if v is not None and abs(v.x0 - w.x1 if v.x0 > w.x0 else w.x0 - v.x1) < w.height and
                    not (heads and not any(h.x0 < v.x1 and v.x0 < h.x1 for h in heads))]  # not another column's
            if any(any(ch.isdigit() for ch in v.text) for v in near):
                continue
            before = row[i - 1] if i and w.x0 - row[i - 1].x1 < 12 * w.height else None
            if before is not None and not before.text.endswith(":") and w.x0 - before.x1 < 0.5 * w.height:
                glued.append(w)  # one space on from a word: a line of an address ("Boston MA 02110")?
                continue
            if _names_other(w, row, over):
                continue  # an order or phone number
            labelled = (before is not None and _WORDS.fullmatch(before.text)) or \
                (heads and all(_WORDS.fullmatch(v.text) for v in heads))
            if labelled:
                found.append(w)
                named[id(w)] = _customer_word(_label(w, row, over))
            elif _customer_word(_label(w, row, over)):
                odd.append(w)  # under or after a customer's label of signs this reader does not read
    if len(found) == 1:
        fields.customer_id, boxes["customer_id"] = found[0].text, span(found)
        if not named[id(found[0])]:
            doubts.append(("customer ID told apart", f"no known label names the customer; {found[0].text!r}, the "
                                                     "one number standing alone under or after a label, was taken, "
                                                     "but its label names no customer, client, buyer or account: "
                                                     "check it"))
    elif len(found) > 1:
        doubts.append(("customer ID told apart", f"no known label names the customer, and {len(found)} numbers "
                                                 "standing alone under or after a label could be its number; none "
                                                 "was taken: check the page"))
    elif glued or odd:
        how = "follows a word one space before it, as in an address line or an unknown label" if glued else \
            "stands under or after a label of signs this reader does not read"
        doubts.append(("customer ID told apart", f"no label names the customer; {(glued or odd)[0].text!r} {how}; "
                                                 "none was taken: check the page"))


def _row_over(w: Word, rows: list[list[Word]], r: int) -> list[Word]:
    """The nearest row above ``rows[r]`` with a word over ``w``, less than a line and a half up (rows between that
    stand beside it, an address's lines in another column, are passed over), where its label would stand; else
    none (a letterhead's telephone far above a title's number is no label of it)."""
    for row in reversed(rows[:r]):
        if w.y0 - max(v.y1 for v in row) > 1.5 * w.height:
            break
        if any(v.x0 < w.x1 and w.x0 < v.x1 for v in row):
            return row
    return []


def _free_amounts(rows: list[list[Word]], boxes: dict[str, Box],
                  hidden: dict[str, Box]) -> list[tuple[tuple[Decimal, str | None], list[Word]]]:
    """The amounts printed with cents on ``rows`` that no field or label took, with their words."""
    amounts = []
    for row in rows:
        free = [w for w in row if not _taken(w, boxes, hidden)]
        i = 0
        while i < len(free):
            for n in (2, 1):
                text = " ".join(w.text for w in free[i:i + n]) if i + n <= len(free) else ""
                money = parse_money(text) if _CENTS.search(text) else None
                if money:
                    amounts.append((money, free[i:i + n]))
                    i += n
                    break
            else:
                i += 1
    return amounts


def _header_amounts(fields: InvoiceFields, boxes: dict[str, Box], first: list[list[Word]],
                    hidden: dict[str, Box]) -> list[tuple[str, str]]:
    """A doubt for an amount printed above the items that no field or label took, when the subtotal or total was
    not found: the page may print that total in the header under a label this reader does not know
    ("Goods value £ 15.30" in a summary box), and it would be missing unseen."""
    missing = [name for name in ("subtotal", "total") if getattr(fields, name) is None]
    amounts = _free_amounts(first, boxes, hidden) if missing else []
    if not amounts:
        return []
    words = amounts[0][1]
    what = " and ".join(field_words(name) for name in missing)
    return [("totals told apart", f"{' '.join(w.text for w in words)!r} (page {words[0].page}) is an "
             f"amount above the items that no label names, and the {what} {'was' if len(missing) == 1 else 'were'} "
             "not found: it may be one; check it")]


def _net_first(amounts: list, total: Decimal, tax: Decimal | None) -> list:
    """``amounts`` with the one that makes ``total`` with ``tax`` (or with another of them, smaller) first."""
    for k, ((value, _), _) in enumerate(amounts):
        others = [tax] if tax is not None else [a[0][0] for j, a in enumerate(amounts) if j != k]
        if value != total and abs(value) <= abs(total) and any(value + t == total and abs(t) <= abs(value)
                                                                for t in others):
            return [amounts[k], *amounts[:k], *amounts[k + 1:]]
    return amounts


def _totals(fields: InvoiceFields, boxes: dict[str, Box], rows: list[list[Word]], hidden: dict[str, Box],
            currencies: list[str]) -> list[tuple[str, str]]:
    """The amounts after the last item row no label claimed, given to the totals still missing by size: printed
    with cents (a running header's "536821 -" is no amount). The subtotal is the amount that with the tax (or with
    another amount, the tax then) makes the total, where one does: the total printed twice is no subtotal
    ("Net 357,00  VAT 71,40  Amount due 428,40" over a summary of the tax). A tax of 0.00 taken so is a doubt:
    subtotal + 0.00 = total holds of any zero printed there (a payment of 0.00)."""
    amounts = _free_amounts(rows, boxes, hidden)
    if not amounts:
        return []
    amounts.sort(key=lambda a: abs(a[0][0]), reverse=True)
    for name in ("total", "subtotal"):
        if getattr(fields, name) is None and amounts:
            if name == "subtotal" and fields.total is not None:
                amounts = _net_first(amounts, fields.total, fields.tax)
            (value, currency), words = amounts.pop(0)
            setattr(fields, name, value)
            boxes[name] = span(words)
            currencies += [currency] if currency else []
    if fields.tax is None and fields.subtotal is not None and fields.total is not None:
        for (value, _), words in amounts:
            if fields.subtotal + value == fields.total:
                fields.tax, boxes["tax"] = value, span(words)
                if not value:
                    return [("tax told apart", f"no known label names the tax; an unlabelled {value} after the "
                                               "items was taken as the tax, as subtotal + tax = total holds of "
                                               "any zero: check it")]
                break
    return []
