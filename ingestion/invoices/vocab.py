"""The wordings invoices use for header labels and column headings, and matching them in a row of words.

Words are compared lower case without a trailing colon or full stop (``Invoice No.:`` is ``invoice no``); a label
is matched longest first, so ``Invoice date`` is the date's label and not ``Invoice`` followed by ``Date``. A tax
label may carry its rate after it (``VAT 20%``, ``Tax @ 20%``, ``VAT (20%)``).

>>> [(m.role, m.start, m.end) for m in match(["Invoice", "date:", "1", "Dec"], LABELS)]
[('invoice_date', 0, 2)]
>>> [m.role for m in match(["QTY", "PRODUCT", "CODE", "RATE", "AMOUNT"], HEADINGS)]
['quantity', 'code', 'unit_price', 'amount']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingestion.invoices.languages import HEADING_WORDINGS, LABEL_WORDINGS

__all__ = ["ABROAD", "BEFORE", "CHARGE", "HEADINGS", "IDS", "LABELS", "LABELS_ABOVE_ITEMS", "OTHER", "SUMS", "TAXES",
           "TITLE", "UNITS", "WHICH_QUANTITY", "Match", "abroad", "field_words", "keys_of", "match", "match_words",
           "norm", "phrase_start"]


def norm(word: str) -> str:
    """A word as compared with the vocabularies.

    >>> norm("No.:"), norm("Sub-total"), norm("Qty.")
    ('no', 'sub-total', 'qty')
    """
    return word.lower().strip().rstrip(":").rstrip(".")


def keys_of(word: str) -> list[str]:
    """A word as compared with the vocabularies, its ``#`` apart when glued to it (as line printers print a
    number's label).

    >>> keys_of("ITEM#"), keys_of("Qty."), keys_of("#")
    (['item', '#'], ['qty'], ['#'])
    """
    key = norm(word)
    return [key[:-1], "#"] if len(key) > 1 and key.endswith("#") and key[-2].isalpha() else [key]


def field_words(name: str) -> str:
    """A field's name as a reader sees it in a check.

    >>> field_words("customer_id"), field_words("invoice_date")
    ('customer ID', 'invoice date')
    """
    return name.replace("_", " ").replace(" id", " ID")


def _phrases(*tables: dict[str, tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    return {tuple(norm(w) for w in phrase.split()): role for table in tables for role, phrases in table.items()
            for phrase in phrases}


_ENGLISH = {
    "invoice_number": ("Invoice No.", "Invoice #", "Inv. Number", "Document no.", "Invoice number", "Inv. No.",
                       "Invoice num", "Credit note no.", "Credit note #", "Credit note number", "Credit no.",
                       "Bill no.", "Bill number", "Invoice ID", "Document number", "Inv #", "No. of invoice",
                       "Our invoice no.", "Posted invoice no.", "Credit memo no.", "Credit memo number",
                       "Invoice-No.", "Receipt no.", "Trans no.", "Transaction no.", "Refund no."),
    "invoice_date": ("Date", "Invoice date", "Issued", "Date of invoice", "Issue date", "Date issued",
                     "Billing date", "Tax point", "Invoice dated", "Credit note date", "Document date", "Posting date",
                     "Tax date", "Invoice-Date", "Invoice issued", "Date invoiced"),
    "customer_id": ("Customer", "Account", "Client ID", "Customer no.", "Account no.", "Customer ID",
                    "Customer number", "Account number", "Client", "Client no.", "Customer #", "Account #",
                    "Customer code", "Client number", "Customer account", "Debtor no.", "Sold-to customer no.",
                    "Bill-to customer no.", "Acct #", "Acct no.", "Acct number", "A/C no.", "A/C", "Sold-to party",
                    "Loyalty no.", "Loyalty number", "Loyalty card no.", "Member no.", "Membership no.", "Cust acc"),
    "country": ("Ship to country", "Country", "Delivery country", "Country of delivery", "Destination country",
                "Ship-to country", "Destination", "Country/Region", "Ship-to country/region",
                "Shipping country", "Delivery country/region", "Country of destination", "Country of final destination",
                "Final destination", "Country of ultimate destination", "Buyer country", "Buyer country code"),
    "subtotal": ("Taxable amount", "Total taxable amount", "Tax base", "Taxable base", "Net value total",
                 "Total net value", "Subtotal", "Net total", "Goods", "Sub-total", "Total net", "Sub total",
                 "Total excl. VAT",
                 "Total before tax", "Net amount", "Total excluding VAT", "Goods total", "Net value",
                 "Total net amount", "Nett goods", "Net goods", "Goods value", "Merchandise total", "Items subtotal",
                 "Order subtotal", "Item subtotal", "Merchandise", "Cart subtotal", "Basket subtotal",
                 "Products subtotal", "Subtotal ex VAT"),
    "tax": ("VAT", "Tax", "Sales tax", "GST", "VAT amount", "Tax amount", "Value added tax"),
    "currency": ("Currency", "Currency code"),
    "total": ("Total", "Amount due", "Balance due", "Total due", "Invoice total", "Grand total", "Total amount",
              "Amount payable", "Total payable", "Total incl. VAT", "Balance", "Total to pay", "Credit total",
              "Total credit", "Total amount due", "Balance owing", "Order total",
              "Total charged", "Invoice amount", "To pay", "Amount to pay", "Correction amount", "Correction value",
              "Total CIF value", "CIF value", "CIF total", "Total CIF", "Total FOB value", "FOB value", "FOB total",
              "Total FOB", "Total CFR value", "CFR value"),  # an export invoice's total, named by its incoterm
    # Labels of values the reader does not return but must not take for one it does: a due date is a date, an
    # order or registration number is shaped like an invoice or customer number, a phone number is digits.
    "other": ("Due date", "Payment due", "Due", "Date due", "Order no.", "Order number", "Order ref.", "Order #",
              "Order date", "PO number", "PO no.", "PO #", "Purchase order", "Purchase order no.", "Delivery date",
              "Delivery note", "Delivery note no.", "Dispatch date", "Ship date", "Shipping date", "VAT reg. no.",
              "VAT no.", "VAT number", "VAT ID", "Tax ID", "Company no.", "Registration no.", "Phone", "Tel.",
              "Telephone", "Fax", "IBAN", "Sort code", "BSB", "Routing", "Routing no.", "Routing number", "Transit no.", "Transit",
              "SWIFT", "BIC", "Payment terms", "Terms", "Payment due date",
              "Customer PO", "Your reference", "External document no.", "Amount paid", "Payments received",
              "Payment received", "Paid by card", "Amount received", "Less payments", "Amount outstanding",
              "Remaining amount", "Country of origin", "Origin", "Country of origin of goods", "Origin of goods",
              "Shipping method", "Delivery method", "Net due date", "Ord #", "Ord no.", "Ord date", "Ord dt",
              "Order dt", "Due dt", "Net due", "Ship date", "Ship dt", "Run date", "Date ordered", "Order placed",
              "Date placed", "Payment method", "Payment deadline", "Expiry date",
              "Remaining to pay", "Taxpayer No.", "Taxpayer number", "Taxpayer ID", "Tax No.", "Tax number",
              "Fiscal code", "Tax code", "Tax reg. no.",
              # a discount, and a page's running sum: none of the totals
              "Discount", "Total discount", "Total discounts", "Prompt payment disc.", "Brought forward",
              "Carried forward", "Continued on next page",
              # an export invoice's places (a port, an airport), not the country
              "Port of destination", "Port of discharge", "Port of loading", "Place of loading", "Place of delivery",
              "Port of export", "Airport of loading", "Airport of destination", "Place of receipt"),
    # A document's title naming a tax ("TAX INVOICE"): no label of the tax, nor of the number beside or under it
    "title": ("Tax invoice", "VAT invoice", "GST invoice", "Tax credit note", "VAT credit note", "Tax receipt"),
    # Charges beside the goods under the items, not the tax ("Delivery: 0.00" is no unlabelled tax); over the
    # items the same words head an address ("Delivery"), and are no label.
    "charge": ("Delivery", "Delivery charge", "Carriage", "Carriage net", "Postage", "Postage & packing",
               "Postage and packing", "Shipping", "Shipping & handling", "Freight", "P&P", "Handling",
               "Freight charges", "Carriage charges", "Insurance", "Insurance premium", "Insurance charges",
               "Packing", "Packing charges"),  # an export invoice's additions to the goods (CIF: insurance, freight)
}
LABELS = _phrases(_ENGLISH, *LABEL_WORDINGS)  # English wordings, and those of other languages
#                                               (:mod:`ingestion.invoices.languages`)
_FIELDS = {"invoice_number", "invoice_date", "customer_id", "subtotal", "tax", "total"}
ABROAD = frozenset(k for k, role in _phrases(*LABEL_WORDINGS).items() if role in _FIELDS) - \
    frozenset(_phrases(_ENGLISH))
"""The labels of the invoice's own fields in another language than English (``Rechnungsdatum``, ``Nº factura``)."""
OTHER = "other"
"""The role of :data:`LABELS` whose value is claimed and dropped (a due date, an order number)."""
TITLE = "title"
"""The role of :data:`LABELS` naming the document (``Tax invoice``): no label, its words claim no value."""
CHARGE = "charge"
"""The role of :data:`LABELS` naming a charge under the items (delivery, postage): claimed and dropped there."""
LABELS_ABOVE_ITEMS = {k: v for k, v in LABELS.items() if v != CHARGE} | {("acct",): "customer_id"}
""":data:`LABELS` as the rows over the items are read: no charges (there "Delivery" heads an address), and ``Acct``
alone the customer's account (under the items it is a bank account's)."""
HEADINGS = _phrases({  # English wordings, and those of other languages
    "code": ("Item", "SKU", "Product code", "Code", "Stock code", "Item no.", "Item code", "Part no.", "Article no.",
             "Ref", "Reference", "Part number", "Item #", "Product no.", "Product #", "Product ID", "Product ref.",
             "Stock ref.", "Stock #", "Item ref.", "Part #", "Article #", "Catalogue no.", "Art. no.",
             "Item identifier", "Seller's item identifier", "Item seller's identifier"),
    "description": ("Description", "Product", "Item description", "Details", "Product description", "Article",
                    "Goods", "Designation", "Activity", "Item / Service", "Product / Service",
                    "Product name", "Item name", "Line description"),
    "quantity": ("Qty", "Pcs", "Units", "Quantity", "Qty.", "Qnty", "No. of units", "Count", "Hrs/Qty", "Qty/Hrs",
                 "Hours/Qty", "Qty/Hours", "Invoiced quantity"),
    "unit_price": ("Unit price", "Price", "Rate", "Price each", "Unit cost", "Each", "Unit", "Price/unit",
                   "Unit rate", "U/Price", "Unit pr.", "Net unit price", "Net price", "Item net price",
                   "Unit net price"),
    "amount": ("Amount", "Net", "Line total", "Net amount", "Total", "Value", "Ext. price", "Extended",
               "Line amount", "Sum", "Amt", "Line price", "Line value", "Line cost", "Row total", "Line net",
               "Total price", "Extended price", "Item total", "Item subtotal", "Item amount", "Line net amount",
               "Net value"),
    # Columns of what an export invoice adds per line, read into no value: the customs tariff number (not the
    # product's code), the country of origin, the weight.
    "other": ("HS code", "HS", "HTS code", "HTS", "H.S. code", "HS tariff no.", "HS no.", "Tariff code", "Tariff no.",
              "Commodity code", "Schedule B no.", "CN code", "Customs code", "Origin", "COO", "Country of origin",
              "Ctry of origin", "Net weight", "Net weight kg", "Net kg", "N.W. kg", "Net wt", "Gross weight", "Weight",
              # the unit of measure's code (C62, H87, XPP) beside the quantity, not the product's code
              "Unit code", "Unit of measure", "Unit of measure code", "UoM", "UoM code",
              # the line's position, counting the lines
              "Pos", "Pos.", "Position", "Pos.-Nr.",
              # the line's tax and its value with tax, beside its net amount, and a discount
              "VAT amount", "VAT rate", "VAT code", "Tax rate", "Tax amount", "Gross amount", "Gross value", "Discount"),
}) | _phrases(*HEADING_WORDINGS)
UNITS = {"ea", "each", "pc", "pcs", "piece", "pieces", "pk", "pack", "packs", "pkt", "box", "boxes", "bx", "set", "sets",
         "pr", "pair", "pairs", "dz", "doz", "dozen", "kg", "g", "lb", "lbs", "oz", "m", "cm", "mm", "l", "ml", "hr", "hrs",
         "hour", "hours", "unit", "units", "roll", "rolls", "ctn", "carton", "cartons", "case", "cs", "bag", "bags",
         "btl", "bottle", "sht", "sheet", "st", "stk", "pce", "nos", "no", "lot", "day", "days", "item", "items"}
"""Units of measure a table may print in a column of their own (lower case, no full stop)."""
_RATE = re.compile(r"^[(@]?\d+(?:[.,]\d+)?%\)?$|^@$|^\(?\d+(?:[.,]\d+)?\s?%\)?$")
_LONGEST = max(len(phrase) for table in (LABELS, HEADINGS) for phrase in table)


@dataclass(frozen=True)
class Match:
    role: str
    start: int  # index of the first word
    end: int  # index after the last word
    qualified: bool = False  # one word of a longer label the vocabulary does not know ("Consignee country")


def match(words: list[str], table: dict[tuple[str, ...], str], breaks: set[int] = frozenset()) -> list[Match]:
    """Non-overlapping matches of ``table``'s phrases in ``words``, left to right, longest first at each word; a
    phrase does not span a word whose index is in ``breaks`` (one set apart from the word before it).

    >>> [m.role for m in match(["Item", "Description"], HEADINGS, {1})]
    ['code', 'description']
    >>> [(m.role, m.start, m.end) for m in match(["ITEM#", "DESCRIPTION", "QTY"], HEADINGS)]
    [('code', 0, 1), ('description', 1, 2), ('quantity', 2, 3)]
    """
    keys, owner = [], []  # a word's "#" glued to it is a word of its own: ITEM# is Item #, CUST# Cust #
    for index, word in enumerate(words):
        for piece in keys_of(word):
            keys.append(piece)
            owner.append(index)
    breaks = {k for k in range(1, len(keys)) if owner[k] in breaks and owner[k - 1] != owner[k]}
    out, i = [], 0
    while i < len(keys):
        for n in range(min(_LONGEST, len(keys) - i), 0, -1):
            if any(k in breaks for k in range(i + 1, i + n)):
                continue
            role = table.get(tuple(keys[i:i + n]))
            if table is LABELS or table is LABELS_ABOVE_ITEMS:  # a totals or party label of known words
                #                                                  ("Total before VAT", "Buyer ref.")
                composed = _composed(keys[i:], breaks, i) or _party(keys[i:], breaks, i)
                if composed is not None and composed[1] >= n:
                    role, n = composed
            if role:
                end = i + n
                if role == "tax":
                    while end < len(keys) and _RATE.match(keys[end]):
                        end += 1
                if owner[i] != (owner[i - 1] if i else -1) and owner[end - 1] != (owner[end] if end < len(keys)
                                                                                   else -1):
                    out.append(Match(role, owner[i], owner[end - 1] + 1))
                i = end
                break
        else:
            i += 1
    return out


TAXES = {"vat", "tax", "gst", "hst", "mwst", "iva", "btw", "taxes", "tva", "mva", "moms", "ust"}
"""Words naming a tax, in labels and headings (lower case, no full stop)."""
BEFORE = {"excl", "excluding", "ex", "exc", "before", "without", "pre-tax", "w/o", "net", "nett", "ht", "eks", "ekskl",
          "exkl", "netto", "s/", "sin", "sem", "senza", "bez"}
"""Words leaving a tax out (``excl. VAT``, ``Net``)."""
_WITH = {"incl", "including", "inc", "with", "after", "plus", "gross", "w", "ttc", "inkl", "brutto", "c/", "con",
         "com"}
SUMS = {"total", "totals", "sum", "amount", "value", "subtotal", "sub-total", "totalt", "summa", "summe", "montant",
        "belopp", "beløp", "importe", "totale", "importo", "valor", "suma", "soma", "kwota", "wartość"}
"""Words naming a sum (``Total``, ``Amount``)."""
_FILLER = {"of", "the", "invoice", "document", "lines", "items", "goods", "&", "and", "%", "due", "grand"}
_PAYABLE = {"payable", "due"}


def _composed(keys: list[str], breaks: set[int], offset: int) -> tuple[str, int] | None:
    """A totals label read from the words it is made of, where the vocabulary holds no phrase for it: a sum
    (``total``, ``amount``, ``value``) and a tax word make the tax (``Tax Total``, ``Total VAT``), with a word
    for before or without tax the subtotal (``Total before VAT``, ``Amount excl. tax``, ``Net value``) and with one
    for with or after tax the total (``Total incl. VAT``, ``Gross amount``). Returns the role and how many words
    it spans, or ``None``.

    >>> [_composed(k.split(), set(), 0) for k in ("total before vat", "tax total", "gross amount", "vat reg no")]
    [('subtotal', 3), ('tax', 2), ('total', 2), None]
    """
    words: list[str] = []
    for k, key in enumerate(keys[:5]):
        key = key.strip("()")
        if (k and offset + k in breaks) or key not in TAXES | BEFORE | _WITH | SUMS | _FILLER | _PAYABLE:
            break
        words.append(key)
    while words and words[-1] in _FILLER - _PAYABLE:
        words.pop()
    bag = set(words)
    taxed, before, after = bool(bag & TAXES), bool(bag & BEFORE), bool(bag & _WITH)
    if len(words) == 2 and "payable" in bag and not before and not after and (taxed or bag & SUMS):
        return ("tax" if taxed else "total"), 2
    if len(words) < 2 or not bag & (SUMS | {"net", "gross"}):
        return None
    if before and not after:
        return "subtotal", len(words)
    if after and not before and (taxed or "gross" in bag):
        return "total", len(words)
    if taxed and not before and not after and bag & SUMS:
        return "tax", len(words)
    return None


_PARTIES = {"customer", "cust", "client", "buyer", "buyer's", "consignee", "consignee's", "importer", "importer's",
            "purchaser", "member", "debtor", "payer", "customer's", "client's", "party"}
IDS = {"no", "nr", "number", "#", "id", "identifier", "code", "ref", "reference", "account", "acct", "num", "acc"}
"""Words naming an identifier (``No.`` of ``Item No.``, ``code`` of ``Customer code``; lower case, no full stop)."""
_IDS_BEFORE = {"identifiant", "numéro", "numero", "n°", "code", "id"}  # French: the identifier named first
_PARTIES_AFTER = {"acheteur", "client", "acquéreur"}  # (Identifiant acheteur, Numéro client); a Référence acheteur
#                                                       is the buyer's own reference for the order, no customer number
_DOCUMENTS = {"invoice", "inv", "bill", "document", "doc", "receipt"}
_KINDS = {"export", "tax", "commercial", "proforma", "final", "original", "sales", "customs", "vat"}
_DATES = {"date", "dt", "dated"}


def _party(keys: list[str], breaks: set[int], offset: int) -> tuple[str, int] | None:
    """A customer's number, or the invoice's number or date, read from the words of its label: a word naming the
    buyer and one naming an identifier (``Buyer identifier``, ``Consignee code``, ``Importer ref.``, ``Member no.``),
    or a word naming the document, after words of its kind, and one naming a number or a date (``Export Inv. No.``,
    ``Inv. Dt.``, ``Tax invoice date``).

    >>> [_party(k.split(), set(), 0) for k in ("consignee code", "buyer's ref", "buyer name", "order no")]
    [('customer_id', 2), ('customer_id', 2), None, None]
    >>> [_party(k.split(), set(), 0) for k in ("identifiant acheteur", "référence acheteur")]
    [('customer_id', 2), None]
    >>> [_party(k.split(), set(), 0) for k in ("inv dt", "export inv no", "tax invoice date", "tax rate")]
    [('invoice_date', 2), ('invoice_number', 3), ('invoice_date', 3), None]
    """
    if len(keys) >= 2 and offset + 1 not in breaks and (keys[0] in _PARTIES and keys[1] in IDS
                                                         or keys[0] in _IDS_BEFORE and keys[1] in _PARTIES_AFTER):
        return "customer_id", 2
    k = 0
    while k < min(len(keys), 2) and keys[k] in _KINDS and offset + k + 1 not in breaks:
        k += 1
    if k + 1 < len(keys) and offset + k + 1 not in breaks and keys[k] in _DOCUMENTS:
        if keys[k + 1] in _DATES:
            return "invoice_date", k + 2
        if keys[k + 1] in IDS - {"account", "acct", "code"}:
            return "invoice_number", k + 2
    return None


_QUALIFIER = re.compile(r"[A-Za-z][A-Za-z.'\-]*|\(?%\)?")
_PLAIN = {"of", "in", "per", "each", "incl", "excl", "ex", "inc", "no", "to", "the", "a", "and", "&"}
WHICH_QUANTITY = {"ea", "ud", "uds", "un", "inv", "ord", "desp", "ordered", "shipped", "shp", "shpd", "ship", "delivered", "supplied",
                  "invoiced", "despatched", "dispatched", "billed"}
"""Words after a heading that keep what it names (``Qty Inv.``, ``Price Ea.``: which quantity, a price per unit);
after a label they do not (``Date Shipped`` is no invoice date)."""
_CODES = {"gbp", "eur", "usd", "chf", "sek", "nok", "dkk", "jpy", "aud", "cad"}
_MONTHS = {m for name in ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                          "october", "november", "december") for m in (name, name[:3], name[:4])}


def _qualifies(text: str, heading: bool = False) -> bool:
    """Whether a word glued to a one-word label changes what it names (``Due`` of ``Due date``, ``Tax`` of
    ``Tax rate``, ``%`` of ``Rate %``): a word of letters, not a currency code or a word such as "of"."""
    key = norm(text)
    return bool(_QUALIFIER.fullmatch(text.rstrip(":"))) and key not in _PLAIN | _CODES | _MONTHS and not (
        heading and key in WHICH_QUANTITY)


def match_words(row, table: dict[tuple[str, ...], str], after: bool = False, keep: bool = False) -> list[Match]:
    """:func:`match` over a row of words with boxes (``.text``, ``.x0``, ``.x1``, ``.height``): words further apart
    than their height are not one phrase. A one-word match a space from a word before it that no phrase claims
    (``after``: or after it, when the match has no colon; a month name or currency code does not count) is a
    different label the vocabulary does not know, and is not a match: "Due date" is no invoice date, "Tax rate" no
    unit price, "Customer address" no customer number. With ``keep`` such a match is returned marked ``qualified``
    (what it names is a guess: "Consignee country" may well be the country).

    >>> from ingestion.invoices.words import Word
    >>> row = [Word("Due", 0, 0, 18, 9, 1), Word("date:", 21, 0, 42, 9, 1), Word("2", 60, 0, 66, 9, 1)]
    >>> [m.role for m in match_words(row, {("date",): "invoice_date"})]
    []
    >>> [m.role for m in match_words(row[1:], {("date",): "invoice_date"})]
    ['invoice_date']
    """
    breaks = {i for i in range(1, len(row)) if row[i].x0 - row[i - 1].x1 > max(row[i].height, 4.0)}
    found = match([w.text for w in row], table, breaks)
    covered = {k for m in found for k in range(m.start, m.end)}

    def glued(k: int, to: int) -> bool:  # one space apart, not the gap between two columns' headings
        if not 0 <= k < len(row) or k in covered or not _qualifies(row[k].text, table is HEADINGS):
            return False
        a, b = sorted((k, to))
        return row[b].x0 - row[a].x1 < 0.5 * max(row[b].height, 4.0)

    out = []
    for m in found:
        qualified = m.end - m.start == 1 and (glued(m.start - 1, m.start) or (
            after and not row[m.start].text.endswith(":") and glued(m.end, m.start)))
        if not qualified:
            out.append(m)
        elif keep:
            out.append(Match(m.role, m.start, m.end, qualified=True))
    return out


def phrase_start(row, end: int, start: int) -> int:
    """Where the label that matched at ``start`` begins as printed: back over the words without digits a space
    apart before it (after ``end``, the previous label's end), which are its own in another language
    ("Toimitusmaa / Country of delivery", "Laskun nro / Invoice no.").

    >>> from ingestion.invoices.words import Word
    >>> row = [Word(t, x, 0, x + 6 * len(t), 9, 1) for t, x in (("Laskun", 0), ("nro", 40), ("/", 62), ("Invoice", 68))]
    >>> phrase_start(row, 0, 3)
    0
    """
    while start > end and row[start].x0 - row[start - 1].x1 < 0.6 * row[start].height and \
            not any(ch.isdigit() for ch in row[start - 1].text) and not row[start - 1].text.endswith(":"):
        start -= 1
    return start


def abroad(rows) -> bool:
    """Whether any of ``rows`` (rows of words with ``.text``) prints a label of :data:`ABROAD`: the invoice is in a
    language other than English, whose numeric dates put the day first.

    >>> from ingestion.invoices.words import Word
    >>> abroad([[Word("Nº", 0, 0, 9, 9, 1), Word("factura:", 11, 0, 40, 9, 1)]])
    True
    >>> abroad([[Word("Date:", 0, 0, 9, 9, 1)]])
    False
    """
    return any(tuple(norm(w.text) for w in row[m.start:m.end]) in ABROAD
               for row in rows for m in match_words(row, LABELS))
