"""The header fields: each found from its label, its value to the right of the label or below it, and read by
the field's type; a field whose label is not found is looked for by elimination from the values left over.

A value to the right runs from the label to the next label or a wide gap (dotted leaders skipped); a value below
is the text on the next row under the label as printed (from its first language's words, ``Laskun nro / Invoice
no.``), up to the next label on the label's row, and not a row of other labels. A rate in a money label (``VAT 23 %``)
is never the amount, and two labels never read one value. A value that does not read
as its field's type (a date, an amount, a number) does not count, so ``VAT reg. no. GB 365 6271 67`` is not the
tax and ``Tax invoice`` is not a tax label with a value. A known label whose value does not read, with the field
then found elsewhere, is a doubt (the value it names may be printed in a form this reader does not read). A numeric
date that reads two ways (``01/12/2010``) is read in the order the document states (``MM/DD/YYYY``) or its other
dates show (a due date of ``12/29/2010``), and is a doubt, day first, when it neither states nor shows one.
"""

from __future__ import annotations

import re
from decimal import Decimal

from core.invoices import Box, InvoiceFields
from ingestion.invoices.currency import currency_mark
from ingestion.invoices.leftovers import COUNTRIES, country_name, eliminate
from ingestion.invoices.payments import included_tax, payment
from ingestion.invoices.values import (CENTS, agreed_order, date_order, either_way, is_invoice_number, month_first,
                                      parse_date, parse_money, readings, shown_order)
from ingestion.invoices.vocab import (CHARGE, IDS, LABELS, LABELS_ABOVE_ITEMS, OTHER, TITLE, Match, abroad,
                                     field_words, match_words, norm, phrase_start)
from ingestion.invoices.words import Word, row_key, span

__all__ = ["COUNTRIES", "read_header"]

_LEADER = re.compile(r"^[.·…_\-:]+$")
_MONEY_FIELDS = ("subtotal", "tax", "total")
_LAST_WINS = set(_MONEY_FIELDS)
# Labels that, printed, always carry a value: one with none read is reported. (A money word such as "VAT" or
# "Total" is also printed without a value of its own: in "VAT reg. no." or a column heading.)
_SAY_UNREAD = ("customer_id", "country")


def _right(row: list[Word], end: int, stop: int) -> list[Word]:
    """The words after a label (its last word ``row[end - 1]``) up to ``stop`` or a wide gap, less dotted leaders
    and the words of another line that OCR's overlapping boxes chained into the row (their middle half a height off
    the label's: "15838" and "PO-96848" under "Customer No." and "P.O. Number")."""
    out: list[Word] = []
    last = label = row[end - 1]
    for w in row[end:stop]:
        if _LEADER.match(w.text):
            last = w
            continue
        if abs(w.y0 + w.y1 - label.y0 - label.y1) > max(w.height, label.height):
            continue
        if w.x0 - last.x1 > max(300.0, 30 * w.height):
            break
        out.append(w)
        last = w
    return out


def _chained(row: list[Word], label: Word, x0: float, limit: float) -> list[Word]:
    """The words OCR's overlapping boxes chained into a label's row from the line under it, standing under the
    label (from ``x0`` on, left of ``limit``): its value below (``15838`` under ``Customer No.``)."""
    return [w for w in row if w.x1 > x0 and w.x0 < limit and 0.5 * label.height < w.cy - label.cy < 1.6 * label.height]


def _label_start(row: list[Word], end: int, stop: int) -> int:
    """Where the next label on the row begins: at its match ``stop``, or before it at the words without digits
    glued to it (after ``end``, the current label's end), which are its own ("Billing" of "Billing currency:")."""
    while stop > end and stop < len(row) and row[stop].x0 - row[stop - 1].x1 < 0.5 * row[stop].height and \
            not any(ch.isdigit() for ch in row[stop - 1].text):
        stop -= 1
    return stop


def _below(rows: list[list[Word]], r: int, first: Word, limit: float) -> list[Word]:
    row = rows[r]
    for nxt in rows[r + 1:r + 3]:
        if nxt[0].y0 - max(w.y1 for w in row) > 2.5 * first.height:
            break
        words = [w for w in nxt if w.x1 > first.x0 - 2 and w.x0 < limit]
        if words:
            return words
    return []


def _value(field: str, words: list[Word]):
    """The value of ``field`` read from ``words`` and the words it used, or ``None``."""
    words = [w for w in words if w.text != ":"]  # "Total à payer : 23,88 €", the colon set apart
    text = " ".join(w.text for w in words).strip()
    if not text:
        return None
    if field in ("invoice_number", "customer_id", *_MONEY_FIELDS):  # a label's note in brackets first: "Buyer ID
        #                                                           (BT-46) 17381", "Total without VAT (BT-109) 12,80"
        while len(words) > 1 and re.fullmatch(r"\(.*\):?", words[0].text) and (field not in _MONEY_FIELDS or (
                parse_money(words[0].text) is None and not currency_mark(words[0].text))):  # not "(12.50)", "(EUR)"
            words = words[1:]
    if field == "invoice_number":
        token = words[0].text.strip("#:")
        return (token, words[:1]) if is_invoice_number(token) else None
    if field == "invoice_date":
        if words and date_order(words[0].text):  # "Date (dd/mm/yyyy): 01/12/2010"
            words = words[1:]
        for n in range(len(words), 0, -1):
            date = parse_date(" ".join(w.text for w in words[:n]))
            if date:
                return date, words[:n]
        return None
    if field == "customer_id":
        token = words[0].text.strip("#:")
        return (token, words[:1]) if re.fullmatch(r"[A-Z0-9\-]*\d[A-Z0-9\-]*", token, re.IGNORECASE) else None
    if field == "country":  # the words before any with a digit (a date or number printed after it)
        n = next((i for i, w in enumerate(words) if any(ch.isdigit() for ch in w.text)), len(words))
        colon = max((i for i, w in enumerate(words[:n - 1]) if w.text.endswith(":")), default=None)
        if colon is not None:  # "Country of import: United Kingdom": the label goes on to its colon
            words, n = words[colon + 1:], n - colon - 1
        text = " ".join(w.text for w in words[:n])
        if not all(ch.isalpha() or ch in " .&'-" for ch in text) or len(text) < 2 or text.endswith(":"):
            return None
        if text.lower() not in COUNTRIES:  # "Country of import: United Kingdom", the label read on into its value
            k = next((k for k in range(1, n) if " ".join(w.text for w in words[k:n]).lower() in COUNTRIES), None)
            if k is not None:
                return country_name(" ".join(w.text for w in words[k:n])), words[k:n]
            k = next((k for k in range(n - 1, 0, -1) if words[k].x0 - words[k - 1].x1 > words[k].height and
                      " ".join(w.text for w in words[:k]).lower() in COUNTRIES), None)
            if k is not None:  # the next box's value, a gap after it ("United Kingdom     Felixstowe")
                return country_name(" ".join(w.text for w in words[:k])), words[:k]
        return country_name(text), words[:n]
    if field == "currency":
        code = currency_mark(words[0].text)
        return (code, words[:1]) if code else None
    words = _past_rate(words)
    if not words:
        return None
    cents = next((k for k, w in enumerate(words) if CENTS.search(w.text)), 0)
    start = cents - 1 if cents and currency_mark(words[cents - 1].text) else cents
    if start and all(re.fullmatch(r"\d[\d,.']*", w.text) for w in words[:start]) and \
            parse_money(" ".join(w.text for w in words[:cents + 1])) is None:  # not "1 919.14"
        words = words[start:]  # "Total: 160 USD 487.75": a count of the items before the amount, no amount
    lead = currency_mark(words[0].text) if len(words) > 1 else None
    if lead:  # "Total (EUR): 12.60"
        words = words[1:]
    for n in range(len(words), 0, -1):
        money = parse_money(" ".join(w.text for w in words[:n]))
        if money and n < len(words) and words[n].text.isalpha() and not currency_mark(words[n].text) and \
                not CENTS.search(words[n - 1].text):
            return None  # "Netto 8 dager": a count of days (the payment terms), no sum
        if money:
            return (money[0], money[1] or lead), words[:n]
    return None


def _rated_tax(words: list[Word]) -> tuple[tuple[Decimal, str | None], list[Word]] | None:
    """The tax of a VAT breakdown's row after its label (``VAT 22,00% € 127,08 € 27,96``): of the amounts after the
    rate, the one that is the rate of another (the other being the taxable amount), or ``None``.

    >>> [w.text for w in _rated_tax([Word(t, 0, 0, 9, 9, 1) for t in ("22,00%", "€", "127,08", "€", "27,96")])[1]]
    ['27,96']
    """
    rate = next(filter(None, (parse_money(w.text.strip("()%:").strip()) for w in words if "%" in w.text)), None)
    if rate is None:
        return None
    amounts = [(m, w) for w in words if "%" not in w.text and CENTS.search(w.text) and (m := parse_money(w.text))]
    for money, w in amounts:
        if any(abs(base[0] * rate[0] / 100 - money[0]) <= Decimal("0.01") and base[0] != money[0]
               for base, _ in amounts):
            currency = money[1] or next((currency_mark(v.text) for v in words if currency_mark(v.text)), None)
            return (money[0], currency), [w]
    return None


def _past_rate(words: list[Word]) -> list[Word]:
    """The words of a money value, past a rate printed in its label ("VAT 23 %: 51.91", "MwSt. 19 % / VAT 19 %
    4.22"): a number with a per cent sign is a rate, never the amount, which follows it or else precedes it. An
    amount with cents before the rate is read as it stands ("12,80 19,00% 2,43": a taxable amount, its rate, its tax).

    >>> [w.text for w in _past_rate([Word(t, 0, 0, 9, 9, 1) for t in ("23", "%", "/", "VAT", "23", "%", "51,91")])]
    ['51,91']
    >>> [[w.text for w in _past_rate([Word(t, 0, 0, 9, 9, 1) for t in x])] for x in (["23", "%:"], ["4.20", "(20%)"])]
    [[], ['4.20', '(20%)']]
    >>> [[w.text for w in _past_rate([Word(t, 0, 0, 9, 9, 1) for t in x])] for x in (["19,00", "%", "4,22"],
    ...                                                                                ["12,80", "19,00%", "2,43"])]
    [['4,22'], ['12,80', '19,00%', '2,43']]
    """
    signs = [k for k, w in enumerate(words) if "%" in w.text]
    if not signs:
        return words
    first = signs[0]
    bare = words[first].text.strip("():") in ("%", "%:")  # "23 %": the number before the sign is the rate
    before = words[:first - 1] if bare and first else words[:first]
    if any(CENTS.search(w.text) for w in before):
        return words
    return words[signs[-1] + 1:] if signs[-1] + 1 < len(words) else before


def _claim(rows: list[list[Word]], r: int, m, stop: int, limit: float) -> list[Box]:
    """The box of the value of a label the reader does not return: the words after it up to the next label or a
    gap wider than a space or two (words ending in a colon are the next label), or else those under it up to the
    next word on its row, when they hold no label."""
    row = rows[r]
    words = _right(row, m.end, stop) if m.end < len(row) else []
    for n in range(1, len(words)):  # one phrase: the next column (a block of other labels) is not its value
        if words[n].x0 - words[n - 1].x1 > 1.5 * words[n].height:
            words = words[:n]
            break
    if words and words[-1].text.endswith(":"):
        words = []  # the next label, one the vocabulary does not know
    if not words:
        limit = min(limit, row[m.end].x0) if m.end < len(row) else limit
        words = _below(rows, r, row[phrase_start(row, 0, m.start)], limit - 2)
        if words and match_words(words, LABELS):
            words = []
    return [span(words)] if words else []


def read_header(rows: list[list[Word]], skip: set[tuple[int, float]]) -> tuple[
        InvoiceFields, dict[str, Box], list[str], dict[str, Box], list[tuple[str, str]]]:
    """The header fields of the document's ``rows`` (all pages in order), leaving out the table's rows (``skip``),
    with each field's box, the currencies printed with its money values, the labels printed with no value
    that reads as their field (field -> the label's box; a reviewer must look there), and the doubts: a field
    two labels name with different values (the first is taken), a header field labelled only below the first
    item row (in bank details, "Account no." is no customer's), and those of the fields found by elimination
    (:func:`ingestion.invoices.leftovers.eliminate`). The values of labels the reader does not return (``other``
    in :data:`ingestion.invoices.vocab.LABELS`: a due date, an order number) are left out of the elimination."""
    found: dict[str, tuple[object, list[Word]]] = {}
    labelled: set[str] = set()
    unread: dict[str, Box] = {}
    claimed: list[Box] = []  # values of labels the reader does not return (a due date, an order number)
    doubts: list[tuple[str, str]] = []
    late: dict[str, tuple[object, list[Word]]] = {}  # header fields labelled below the items' first row
    guesses: dict[str, tuple[tuple[object, list[Word]], str]] = {}  # values of qualified labels, with the label
    top = min(skip) if skip else None
    far: dict[str, Box | None] = {}  # fields read far to the right of their label: its box
    paid = False  # a payment is printed under the items: a total after it is the balance
    for r, row in enumerate(rows):
        if row_key(row) in skip:
            continue
        after_items = top is not None and row_key(row) > top
        matches = [Match(m.role, m.start, m.end) if m.role == "currency" else m  # "Billing currency": a code
                   for m in match_words(row, LABELS if after_items else LABELS_ABOVE_ITEMS, after=True, keep=True)]
        matches = [Match(OTHER, m.start, m.end, m.qualified) if m.role == CHARGE or (  # "GST No.": a tax number
            m.role in _MONEY_FIELDS and m.end < len(row) and norm(row[m.end].text).strip(":") in IDS) else m
            for m in matches]
        sum_at = payment(row) if after_items else None
        if sum_at is not None and ("total" in found or not any(m.role == "total" for m in matches)):
            # "Total paid: 769.15" under the total, "Paid: 354.58": a payment (a credit note's "Total refunded"
            # with no total above it is its total)
            matches = [Match(OTHER, m.start, m.end) for m in matches if m.role in _MONEY_FIELDS] or \
                [Match(OTHER, 0, sum_at)]
            paid = True
        if after_items and any(m.role == OTHER for m in matches):  # bank details: "Sort code ... Account no. ..."
            matches = [m for m in matches if m.role in _MONEY_FIELDS or m.role == OTHER]
        for k, m in enumerate(matches):
            if m.role == TITLE:
                continue  # "TAX INVOICE" over "Invoice No.: 536804": the number is no tax
            stop = _label_start(row, m.end, matches[k + 1].start) if k + 1 < len(matches) else len(row)
            if m.role == "country" and stop == m.end < len(row) and k + 1 < len(matches) and \
                    matches[k + 1].role == m.role and matches[k + 1].start > m.end and \
                    row[m.end].x0 - row[m.end - 1].x1 < 0.5 * row[m.end].height:
                continue  # "Country of final destination:": one label, which its last words close (a customer's
                #           labels run on so too, "Customer ... Account no.", but name two numbers)
            limit = row[stop].x0 if stop < len(row) else row[m.end - 1].x1 + 200
            if m.role == OTHER:
                claimed += _claim(rows, r, m, stop, limit)
                continue
            if paid and m.role == "total" and "total" in found:  # "Balance: 0.00" after "Payment received": what
                claimed += _claim(rows, r, m, stop, limit)       # is left to pay, not the invoice's total
                continue
            after = _right(row, m.end, stop) if m.end < len(row) else []
            if any("(" in w.text and ")" not in w.text for w in row[m.start:m.end]):  # "Subtotal (excl. Sales
                after = after[next((j + 1 for j, w in enumerate(after) if ")" in w.text), 0):]  # Tax): 208.97"
            if m.role == "customer_id" and len(after) > 1 and norm(after[0].text).strip(":") in IDS and \
                    after[0].x0 - row[m.end - 1].x1 < row[m.end - 1].height:
                after = after[1:]  # "Buyer's Account No. 15525": the label's last word, not the number
            got = (m.role == "tax" and _rated_tax(row[m.start:m.end] + after) or _value(m.role, after)) if after \
                else None  # "VAT 22,00% € 127,08 € 27,96": the rate's share of the other amount is the tax
            if got is None or (m.role == "country" and got[0].lower() not in COUNTRIES):
                first = row[phrase_start(row, matches[k - 1].end if k else 0, m.start)]
                if after and after[0].x0 - row[m.end - 1].x1 > row[m.end - 1].height:
                    limit = min(limit, after[0].x0)  # the next column's label, one the vocabulary does not know
                under = _chained(row, row[m.end - 1], first.x0, limit - 2) or _below(rows, r, first, limit - 2)
                below = None if match_words(under, LABELS) else _value(m.role, under)  # a label's row: no value
                if got is None or (below and below[0].lower() in COUNTRIES):
                    got = below  # a name that is no country beside the label, and a country under it
            if got is None:
                if m.role not in _MONEY_FIELDS and not after_items and not m.qualified:
                    unread.setdefault(m.role, span(row[m.start:m.end]))
                continue
            if m.qualified:
                if not after_items:
                    guesses.setdefault(m.role, (got, " ".join(w.text for w in row[max(0, m.start - 1):m.end + 1])))
                continue
            if after_items and m.role not in _MONEY_FIELDS:
                late.setdefault(m.role, got)  # bank details, notes: taken only when the header lacks the field
                continue
            labelled.add(m.role)
            if m.role == "total" and got[0][0] == 0 and "total" in found and found["total"][0][0]:
                claimed.append(span(got[1]))  # "Amount due: 0.00" under a total: paid in full, a balance
                continue
            if m.role not in found or m.role in _LAST_WINS:
                found[m.role] = got
                far[m.role] = span(row[m.start:m.end]) if got[1][0] in row and \
                    got[1][0].x0 - row[m.end - 1].x1 > 6 * got[1][0].height else None
            elif got[0] != found[m.role][0]:
                label = field_words(m.role)
                doubts.append((f"{label} told apart", f"two labels name the {label}, with different values "
                                                      f"({found[m.role][0]} and {got[0]}); the first was taken: "
                                                      "check it"))
    if "tax" not in found and (included := included_tax(rows, top)) and (got := _value("tax", [included])):
        found["tax"] = got  # "(includes €1,590.60 VAT)" under the total: its tax
    doubts += _shared(found, far, unread)
    fields, boxes, currencies = InvoiceFields(), {}, []
    for name, (value, words) in found.items():
        if name == "currency":
            currencies.insert(0, value)
        if name in _MONEY_FIELDS:
            value, currency = value
            if currency:
                currencies.append(currency)
        setattr(fields, name, value)
        boxes[name] = span(words)
    doubts += eliminate(fields, boxes, rows, skip, claimed, currencies)
    for name, (value, words) in late.items():
        if getattr(fields, name) is None:  # neither labelled nor found by elimination above the items
            setattr(fields, name, value)
            boxes[name] = span(words)
            label = field_words(name)
            doubts.append((f"{label} read below the items", f"the only {label} label is printed below the line "
                                                             "items, where bank details and notes go: check it"))
    doubts += _guessed(fields, boxes, guesses, found)
    doubts += _read_elsewhere(fields, unread, found) + _day_or_month(rows, fields, boxes.get("invoice_date"))
    return fields, boxes, currencies, {k: b for k, b in unread.items() if getattr(fields, k) is None and
                                       k in _SAY_UNREAD}, doubts


def _shared(found: dict[str, tuple[object, list[Word]]], far: dict[str, Box | None],
            unread: dict[str, Box]) -> list[tuple[str, str]]:
    """Two labels read as their value the same words ("Customer" far left of a number printed under "Invoice
    no." in the row above): the one that reached far to its right for it has none (its label is reported unread,
    ``unread``), or, when neither did, a doubt names both."""
    doubts = []
    names = list(found)
    for a in names:
        for b in names:
            if a >= b or a not in found or b not in found or \
                    not {id(w) for w in found[a][1]} & {id(w) for w in found[b][1]}:
                continue
            loser = a if far.get(a) and not far.get(b) else b if far.get(b) and not far.get(a) else None
            if loser:
                del found[loser]
                unread.setdefault(loser, far[loser])
            else:
                doubts.append((f"{field_words(a)} told apart", f"the {field_words(a)} and the {field_words(b)} were "
                                                               "read from the same value: check them"))
    return doubts


def _day_or_month(rows: list[list[Word]], fields: InvoiceFields, box: Box | None) -> list[tuple[str, str]]:
    """The invoice date read month first (or year first) when the document states that order (``MM/DD/YYYY``) or
    its other dates show it (a due date of ``12/29/2010``; a return-by date within a year of it in one order only),
    day first when its labels are in another language than English (only American English puts the month first),
    and a doubt when it is printed in numbers that read as two dates (``01/12/2010``) and nothing tells which."""
    if fields.invoice_date is None or box is None:
        return []
    printed = " ".join(w.text for row in rows for w in row if w.page == box.page and box.x0 - 0.5 <= w.cx <= box.x1 + 0.5
                       and box.y0 - 0.5 <= w.cy <= box.y1 + 0.5)
    if not either_way(printed):
        return []
    texts = [w.text for row in rows for w in row]  # a due date of 12/29/2010: month first; 10-12-16 by 10-12-02:
    order = next(filter(None, map(date_order, texts)), None) or agreed_order(printed, texts) or \
        shown_order(printed, texts) or ("day" if abroad(rows) else None)  # year first, two weeks apart (not 14
    #                          years); an invoice labelled in another language than English puts the day first
    if order in ("month", "year"):
        fields.invoice_date = readings(printed)[order]
    if order:
        return []
    other = month_first(printed)
    return [("invoice date told apart", f"{printed!r} is {fields.invoice_date:%d %B %Y} day first and {other:%d %B %Y} "
                                        "month first, and the document does not say which it prints; day first was "
                                        "taken: check it")]


def _read_elsewhere(fields: InvoiceFields, unread: dict[str, Box], found) -> list[tuple[str, str]]:
    """Doubts for the fields whose known label is printed with nothing beside or under it that reads as the
    field, and which were then found without it (by elimination, below the items, from an unknown label): the
    value the label names is printed in a form this reader does not read, so the one taken may be another's."""
    doubts = []
    for name, box in unread.items():
        value = getattr(fields, name)
        if name in found or value is None:
            continue
        label = field_words(name)
        doubts.append((f"{label} read elsewhere", f"the {label} label (page {box.page}) has nothing beside or "
                                                  f"under it that reads as a {label}; {value}, found elsewhere, "
                                                  "was taken: check it"))
    return doubts


def _guessed(fields: InvoiceFields, boxes: dict[str, Box], guesses, found) -> list[tuple[str, str]]:
    """The values of labels the vocabulary knows only a word of ("Consignee country"): a field no known label
    names takes its value, and a doubt says so; one found by elimination with a different value is doubted."""
    doubts = []
    for name, ((value, words), label) in guesses.items():
        if name in found:
            continue  # a known label names it
        value = value[0] if name in _MONEY_FIELDS else value
        field = field_words(name)
        current = getattr(fields, name)
        if current is None:
            setattr(fields, name, value)
            boxes[name] = span(words)
            doubts.append((f"{field} read from a label not known", f"{label!r} is no label this reader knows; "
                                                                   f"its value {value} was taken for the {field}: "
                                                                   "check it"))
        elif current != value and not _within(span(words), boxes.get(name)):
            doubts.append((f"{field} told apart", f"{label!r} may name the {field} ({value}); {current} was taken: "
                                                  "check it"))
    return doubts


def _within(inner: Box | None, outer: Box | None) -> bool:
    """Whether ``inner`` lies inside ``outer``: a guessed label's value that is part of the value taken ("Kingdom"
    under the "COUNTRY" of a label the recogniser split, of "United Kingdom") is no rival to it."""
    return inner is not None and outer is not None and inner.page == outer.page and \
        outer.x0 - 1 <= inner.x0 and inner.x1 <= outer.x1 + 1 and outer.y0 - 1 <= inner.y0 and inner.y1 <= outer.y1 + 1
