"""What held-j prints in words and formats: the wordings of two kinds of invoice output and the locales they are
issued from.

Line-printer output (``greenbar``, ``grid``, ``spool``) is what AS/400, mainframe and old ERP systems print on
continuous forms or spool to PDF: all capitals, labels cut short (INV NO, CUST NO, QTY SHP, U/PRICE, EXT AMT), the
currency named once by a header field, the total's label or a note. Order output (``marketplace``, ``webshop``) is
what online marketplaces and web shops issue for an order: "Sold by", billing and delivery addresses, the order's
number and date beside the invoice's, and a tax column per line; in Germany in German or in English.

The locales are the markets such systems invoice in, each with its currency and marks, paper, number formats,
dates (for line printers and for order invoices apart), the names of its tax and the rates charged (a rate of
``None`` is a seller who charges none).
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["LOCALES", "MARKETPLACES", "PRINT", "SELLERS", "WEB"]

# Line printers' wordings, shared by the three line-printer templates. "{tax}" is the tax's name, "{rate}" its rate,
# "{code}" the currency code.
PRINT: dict[str, tuple[str, ...]] = {
    "title": ("INVOICE", "I N V O I C E", "SALES INVOICE", "INVOICE / BILL"),
    "credit_title": ("CREDIT MEMO", "C R E D I T   M E M O", "CREDIT NOTE"),
    "invoice_number": ("INVOICE NO", "INV NO", "INV#", "INVOICE NUMBER"),
    "credit_number": ("CREDIT MEMO NO", "CR MEMO#", "CREDIT NO"),
    "invoice_date": ("INVOICE DATE", "INV DT", "INV DATE"),
    "customer_id": ("CUST NO", "CUSTOMER NO", "ACCT", "ACCOUNT NO", "CUST#"),
    "country": ("COUNTRY", "CTRY"),
    "order_number": ("ORDER NO", "ORD#", "SALES ORDER", "CUST PO#"),
    "order_date": ("ORDER DATE", "ORD DT"),
    "due_date": ("DUE DATE", "DUE DT", "NET DUE"),
    "terms": ("TERMS",),
    "currency": ("CURRENCY", "CURR", "CUR"),
    "sold_to": ("SOLD TO", "BILL TO"),
    "ship_to": ("SHIP TO", "DELIVER TO"),
    "subtotal": ("MERCHANDISE", "MDSE TOTAL", "SUBTOTAL", "GOODS TOTAL", "NET AMOUNT"),
    "tax": ("{tax} {rate}", "{tax} @ {rate}"),
    "total": ("*** TOTAL DUE ***", "TOTAL DUE", "INVOICE TOTAL", "AMOUNT DUE", "** PLEASE PAY THIS AMOUNT **"),
    "credit_total": ("*** TOTAL CREDIT ***", "CREDIT TOTAL", "TOTAL CREDIT"),
    "line_no": ("LN", "LINE", "SEQ"),
    "code": ("ITEM#", "ITEM NO", "PART NUMBER", "STOCK#", "PRODUCT"),
    "description": ("DESCRIPTION", "ITEM DESCRIPTION", "DESC"),
    "ordered": ("QTY ORD", "ORDERED"),
    "quantity": ("QTY SHP", "QTY", "SHIPPED", "QTY INV"),
    "backorder": ("B/O", "QTY B/O"),
    "uom": ("U/M", "UM"),
    "unit_price": ("U/PRICE", "UNIT PRICE", "PRICE", "UNIT PR"),
    "amount": ("EXT AMT", "EXTENSION", "AMOUNT", "EXT PRICE", "NET AMT"),
}

# Order invoices' wordings per language. Where a key's wordings name the tax, the ones that do not are the
# choices of a seller who charges none.
WEB: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "title": ("Invoice", "Tax Invoice", "VAT Invoice", "INVOICE"),
        "credit_title": ("Credit Note", "Credit Memo"),
        "invoice_number": ("Invoice number", "Invoice #", "Invoice No."),
        "credit_number": ("Credit note number", "Credit note #"),
        "invoice_date": ("Invoice date", "Date of invoice", "Invoice issued"),
        "order_number": ("Order number", "Order #", "Order No."),
        "order_date": ("Order date", "Order placed"),
        "customer_id": ("Customer number", "Customer ID", "Buyer ID"),
        "country": ("Country",),
        "sold_to": ("Billing address", "Bill to", "Invoice address"),
        "ship_to": ("Delivery address", "Ship to", "Shipping address"),
        "sold_by": ("Sold by", "Seller"),
        "payment": ("Payment method", "Paid by"),
        "currency": ("Currency",),
        "subtotal": ("Total net", "Subtotal (excl. {tax})", "Net total", "Subtotal"),
        "tax": ("{tax} {rate}", "Total {tax}", "{tax} ({rate})"),
        "total": ("Invoice total", "Total", "Total (incl. {tax})", "Grand total"),
        "credit_total": ("Total refunded", "Credit total", "Total credit"),
        "description": ("Description", "Product", "Item"),
        "code": ("SKU", "Article no.", "Item no."),
        "quantity": ("Qty", "Quantity"),
        "unit_price": ("Unit price (excl. {tax})", "Net unit price", "Unit price", "Price"),
        "amount": ("Net amount", "Total (excl. {tax})", "Amount", "Item subtotal (excl. {tax})"),
        "vat_rate": ("{tax} rate", "{tax} %", "Tax rate"),
        "tax_amount": ("{tax} amount", "{tax}", "Tax"),
        "gross": ("Total (incl. {tax})", "Gross amount", "Gross", "Item total"),
        "shipping": ("Shipping", "Delivery"),
        "free": ("Free", "Free shipping", "0 (free)"),
    },
    "de": {
        "title": ("Rechnung", "RECHNUNG"),
        "credit_title": ("Gutschrift", "Rechnungskorrektur"),
        "invoice_number": ("Rechnungsnummer", "Rechnungsnr."),
        "credit_number": ("Gutschriftsnummer", "Gutschrift-Nr."),
        "invoice_date": ("Rechnungsdatum",),
        "order_number": ("Bestellnummer", "Bestellnr."),
        "order_date": ("Bestelldatum",),
        "customer_id": ("Kundennummer", "Kunden-Nr."),
        "country": ("Land",),
        "sold_to": ("Rechnungsadresse",),
        "ship_to": ("Lieferadresse",),
        "sold_by": ("Verkauft von",),
        "payment": ("Zahlungsart",),
        "currency": ("Währung",),
        "subtotal": ("Summe netto", "Zwischensumme (netto)", "Gesamtbetrag netto"),
        "tax": ("{tax} {rate}", "zzgl. {tax} {rate}"),
        "total": ("Gesamtbetrag", "Rechnungsbetrag", "Gesamt (brutto)"),
        "credit_total": ("Gutschriftsbetrag", "Erstattungsbetrag"),
        "description": ("Beschreibung", "Artikel", "Bezeichnung"),
        "code": ("Art.-Nr.", "Artikelnummer"),
        "quantity": ("Menge", "Anz."),
        "unit_price": ("Einzelpreis netto", "Stückpreis (netto)"),
        "amount": ("Gesamt netto", "Netto"),
        "vat_rate": ("{tax}-Satz", "{tax} %"),
        "tax_amount": ("{tax}-Betrag", "{tax}"),
        "gross": ("Gesamt brutto", "Brutto"),
        "shipping": ("Versand", "Versandkosten"),
        "free": ("kostenlos", "frei"),
    },
}

# A locale: the currency, its marks (before the figure unless "after"), the paper, the number formats (thousands,
# decimal), dates for line printers and for order invoices, the tax's names (line printers, order invoices) and
# the rates charged, and the languages of its order invoices.
LOCALES: dict[str, dict] = {
    "US": {"currency": "USD", "marks": ("$",), "page": "Letter", "numbers": ((",", "."),),
           "print_dates": ("j:mm/dd/yy", "j:ddMONyy", "j:mm/dd/Y"), "web_dates": ("Month d, Y", "j:Mon d, Y"),
           "print_tax": ("SALES TAX", "TAX"), "web_tax": ("Sales tax", "Tax"),
           "rates": (None, Decimal("0.0825"), Decimal("0.0625"), Decimal("0.07")), "langs": ("en",)},
    "UK": {"currency": "GBP", "marks": ("£",), "page": "A4", "numbers": ((",", "."),),
           "print_dates": ("j:dd/mm/yy", "j:ddMONyy", "j:dd-MON-yy"), "web_dates": ("d Mon Y", "dd Month Y"),
           "print_tax": ("VAT",), "web_tax": ("VAT",),
           "rates": (None, Decimal("0.175"), Decimal("0.175"), Decimal("0.20")), "langs": ("en",)},
    "CA": {"currency": "CAD", "marks": ("CA$", "C$"), "page": "Letter", "numbers": ((",", "."),),
           "print_dates": ("Y-m-d", "j:ddMONyy"), "web_dates": ("Y-m-d", "Month d, Y"),
           "print_tax": ("HST",), "web_tax": ("HST",), "rates": (Decimal("0.13"),), "langs": ("en",)},
    "DE": {"currency": "EUR", "marks": ("€",), "after": True, "page": "A4", "numbers": ((".", ","),),
           "print_dates": ("j:dd.mm.yy", "dd.mm.Y"), "web_dates": ("dd.mm.Y", "j:d. Monat Y"),
           "print_tax": ("MWST", "VAT"), "web_tax": {"de": ("MwSt.", "USt."), "en": ("VAT",)},
           "rates": (Decimal("0.19"),), "langs": ("de", "de", "en")},
    "CH": {"currency": "CHF", "marks": ("CHF", "Fr."), "page": "A4", "numbers": (("'", "."),),
           "print_dates": ("j:dd.mm.yy", "dd.mm.Y"), "web_dates": ("dd.mm.Y",),
           "print_tax": ("MWST", "VAT"), "web_tax": ("VAT", "MWST"), "rates": (Decimal("0.076"),), "langs": ("en",)},
    "PL": {"currency": "PLN", "marks": ("PLN",), "after": True, "page": "A4", "numbers": ((" ", ","), (".", ",")),
           "print_dates": ("Y-m-d", "dd.mm.Y"), "web_dates": ("dd.mm.Y", "Y-m-d"),
           "print_tax": ("VAT",), "web_tax": ("VAT",), "rates": (Decimal("0.23"),), "langs": ("en",)},
}

# Sellers per locale: the line printers' (in capitals, with a telephone line) and the order invoices' (with the
# registration line a marketplace seller prints). "{n7}" is seven digits drawn from the seed.
SELLERS: dict[str, dict[str, tuple[tuple[str, ...], ...]]] = {
    "US": {"print": (("MIDWEST NOVELTY DISTRIBUTORS INC", "1200 INDUSTRIAL PKWY", "DAYTON OH 45414",
                      "TEL (937) 555-0142"),
                     ("TRI-STATE GIFT & SUPPLY CO", "45 RAILROAD AVE", "PATERSON NJ 07501", "PHONE 973-555-0188")),
           "web": (("Hollow Oak Goods LLC", "88 Market Street", "Asheville, NC 28801", "Sales tax ID NC-{n7}"),
                   ("Sundry & Pine", "2100 Elm Street, Unit 4", "Dallas, TX 75201", "Seller ID US-{n7}"))},
    "UK": {"print": (("BRADLEY & HART WHOLESALE LTD", "UNIT 12 FOUNDRY ESTATE", "WALSALL WS2 8LP",
                      "TEL 01922 555014"),
                     ("NORTHERN GIFTWARE SUPPLIES", "KIRKSTALL ROAD", "LEEDS LS4 2QA", "TEL 0113 555 0176")),
           "web": (("The Thimble Tin Ltd", "4 Cornmarket Yard", "Oxford OX1 3HA", "VAT Reg No GB {n9}"),
                   ("Harbourlight Home", "21 Quay Street", "Bristol BS1 4HQ", "VAT No. GB {n9}"))},
    "CA": {"print": (("LAURENTIAN MERCANTILE LTD", "3400 BOUL INDUSTRIEL", "LAVAL QC H7L 4R9",
                      "TEL 450-555-0110"),),
           "web": (("Maple Lantern Trading", "510 Queen Street West", "Toronto, ON M5V 2B5", "HST # {n9} RT0001"),)},
    "DE": {"print": (("HARTMANN INDUSTRIEBEDARF GMBH", "GEWERBESTR. 14", "D-33602 BIELEFELD", "TEL 0521 555 9830"),),
           "web": (("Kiefernhaus Handel GmbH", "Lindenallee 7", "50968 Köln", "USt-IdNr. DE{n9}"),
                   ("Möwe & Anker Wohnen", "Hafenstraße 31", "20359 Hamburg", "USt-IdNr. DE{n9}"))},
    "CH": {"print": (("ALPINA HANDELS AG", "INDUSTRIESTRASSE 22", "CH-8604 VOLKETSWIL", "TEL 044 555 71 20"),),
           "web": (("Edelweiss Wohnwaren GmbH", "Bahnhofstrasse 9", "8001 Zürich", "MWST CHE-{n3}.{n3}.{n3}"),)},
    "PL": {"print": (("POLHURT DYSTRYBUCJA SP. Z O.O.", "UL. PRZEMYSLOWA 8", "60-101 POZNAN", "TEL 61 555 20 40"),),
           "web": (("Bursztyn Dom Sp. z o.o.", "ul. Mickiewicza 12", "31-120 Kraków", "NIP {n3}-{n3}-{n2}-{n2}"),)},
}
MARKETPLACES = ("Shopwell Marketplace", "Bazaarly", "Marktplatz Nordstern", "OrderHub")
PAYMENTS = ("Credit card", "PayPal", "Bank transfer", "Gift card")
PAYMENTS_DE = ("Kreditkarte", "PayPal", "Vorkasse", "Rechnung")

# Line printers: terms, the notes under the totals, page labels, "continued" marks and a later page's top line.
TERMS = {14: "NET 14", 20: "NET 20", 21: "2% 10 NET 21", 28: "NET 28"}
PRINT_NOTES = ("PAST DUE ACCOUNTS SUBJECT TO 1.5% SERVICE CHARGE PER MONTH",
               "RETURNS ACCEPTED ONLY WITH AUTHORIZATION NUMBER",
               "ALL CLAIMS MUST BE MADE WITHIN 10 DAYS OF RECEIPT",
               "THANK YOU FOR YOUR ORDER")
PRINT_PAGES = ("PAGE {n:03d}", "PAGE {n:>4}", "PAGE {n} OF {m}", "PG {n:04d}")
PRINT_CONTINUED = ("*** CONTINUED ON PAGE {next:03d} ***", "** CONTINUED ON NEXT PAGE **", "CONTINUED ...PAGE {next}")
PRINT_PROGRAMS = ("INV300R", "ARP110", "OE5500", "BILL04C")

# Order invoices: page labels, "continued" marks, later pages' running headers and the small print.
WEB_PAGES = {"en": ("Page {n} of {m}", "{n} / {m}", "Page {n}/{m}"), "de": ("Seite {n} von {m}", "Seite {n}/{m}")}
WEB_CONTINUED = {"en": ("Continued on page {next}", "Continued on the next page"),
                 "de": ("Fortsetzung auf Seite {next}", "Weiter auf der nächsten Seite")}
WEB_RUNNING = {"en": ("{title} {number}", "{title} {number} (continued)"),
               "de": ("{title} {number}", "{title} {number} (Fortsetzung)")}
SMALL_PRINT = {
    "en": ("This invoice was issued by the seller named above through {market}. Goods remain the seller's "
           "property until paid in full.",
           "Please keep this invoice for your records. Returns within 30 days of delivery; see the seller's "
           "returns policy on {market}.",
           "Questions about your order? Contact the seller through your account on {market}."),
    "de": ("Diese Rechnung wurde vom oben genannten Verkäufer über {market} ausgestellt. Die Ware bleibt bis zur "
           "vollständigen Bezahlung Eigentum des Verkäufers.",
           "Bitte bewahren Sie diese Rechnung auf. Rückgabe innerhalb von 30 Tagen nach Lieferung über {market}."),
}
THANKS = {"en": ("Thank you for shopping with us!", "Thanks for your order."),
          "de": ("Vielen Dank für Ihren Einkauf!", "Danke für Ihre Bestellung.")}
BREAKDOWN = {"en": ("Rate", "Net", "{tax}", "Gross"), "de": ("Satz", "Netto", "{tax}", "Brutto")}
ADDRESS = {"en": ("Accounts Payable", "Receiving Department"), "de": ("Buchhaltung", "Warenannahme")}
ACCENTS = ((0.14, 0.16, 0.20), (0.85, 0.45, 0.05), (0.10, 0.35, 0.55), (0.25, 0.45, 0.25), (0.45, 0.15, 0.30))
