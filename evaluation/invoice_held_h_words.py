"""The wordings and regional conventions of the ``held-h`` invoice family (:mod:`evaluation.invoice_held_h`).

``held-h`` is the invoice of one wholesale ERP sold in several markets; each market (:data:`REGIONS`) fixes the
currency, the tax that is charged, the number and date conventions and the page size, and its forms print in
English, or in the local language beside English (``Rechnung / Invoice``). :data:`WORDS` holds every label and
heading of each form language; a heading printed on two lines holds a ``\\n`` where it breaks.
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["BANKS", "CONTINUED", "CURRENCY_NOTES", "NOTES", "PAGE_LABELS", "REGIONS", "RUNNING", "SELLERS", "TERMS",
           "WORDS", "lang_group", "split_heading"]

# region -> conventions. marks: (mark, where) pairs a form of the region prints money with.
REGIONS = {
    "us": {"currency": "USD", "rate": None, "page": "Letter", "numbers": ((",", "."),),
           "negatives": ("minus", "parentheses"), "dates": ("mm/dd/Y stated", "Mon dd, Y", "Month d, Y"),
           "marks": (("$", "before"), ("USD", "before"), ("USD", "after")), "langs": ("en-us",), "qty_places": (0,),
           "uom": ("EA", "PC", "EACH"), "rate_text": ""},
    "gb": {"currency": "GBP", "rate": Decimal("0.175"), "page": "A4", "numbers": ((",", "."),),
           "negatives": ("minus", "parentheses"), "dates": ("d Mon Y", "dd/mm/Y stated", "ordinal Month Y", "dd-Mon-Y"),
           "marks": (("£", "before"), ("GBP", "before")), "langs": ("en-gb",), "qty_places": (0,),
           "uom": ("Each", "EA", "Unit"), "rate_text": "17.5%"},
    "de": {"currency": "EUR", "rate": Decimal("0.19"), "page": "A4", "numbers": ((".", ","),),
           "negatives": ("minus", "minus after"), "dates": ("dd.mm.Y", "Y-m-d"),
           "marks": (("€", "after"), ("EUR", "after"), ("EUR", "before")), "langs": ("de-en", "en"),
           "qty_places": (0, 2), "uom": ("Stk", "ST", "PCE"), "rate_text": "19 %"},
    "ch": {"currency": "CHF", "rate": Decimal("0.076"), "page": "A4", "numbers": (("'", "."),),
           "negatives": ("minus", "minus after"), "dates": ("dd.mm.Y", "d.m.Y"),
           "marks": (("CHF", "before"), ("CHF", "after")), "langs": ("ch-en", "en"), "qty_places": (0, 2),
           "uom": ("Stk", "ST", "pce"), "rate_text": "7.6%"},
    "fi": {"currency": "EUR", "rate": Decimal("0.23"), "page": "A4", "numbers": ((" ", ","),),
           "negatives": ("minus",), "dates": ("d.m.Y", "dd.mm.Y"),
           "marks": (("€", "after"), ("EUR", "after")), "langs": ("fi-en", "en"), "qty_places": (0, 2),
           "uom": ("kpl", "pcs"), "rate_text": "23 %"},
    "sg": {"currency": "SGD", "rate": Decimal("0.07"), "page": "A4", "numbers": ((",", "."),),
           "negatives": ("minus", "parentheses"), "dates": ("dd Mon Y", "Y-m-d", "dd/mm/Y stated"),
           "marks": (("S$", "before"), ("SGD", "before")), "langs": ("en-sg",), "qty_places": (0,),
           "uom": ("PCS", "UNIT", "EA"), "rate_text": "7%"},
    "au": {"currency": "AUD", "rate": Decimal("0.10"), "page": "A4", "numbers": ((",", "."),),
           "negatives": ("minus", "parentheses"), "dates": ("d Month Y", "dd/mm/Y stated", "d Mon Y"),
           "marks": (("A$", "before"), ("AUD", "before"), ("AUD", "after")), "langs": ("en-au",), "qty_places": (0,),
           "uom": ("EA", "Each"), "rate_text": "10%"},
}

_EN_COMMON = {
    "line_no": ("Line", "No."), "uom": ("Unit", "UOM"), "discount": ("Disc %", "Disc.\n%"),
    "currency": ("Currency",), "carried": ("Carried forward",), "brought": ("Brought forward",),
}
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en-us": {
        "title": ("INVOICE", "Invoice", "Sales Invoice"), "credit_title": ("CREDIT MEMO", "Credit Memo"),
        "invoice_number": ("Invoice #", "Invoice No.", "Invoice Number"),
        "credit_number": ("Credit Memo #", "Memo No.", "Credit Memo No."),
        "invoice_date": ("Invoice Date", "Date"),
        "customer_id": ("Customer #", "Customer ID", "Account #", "Sold-To No."),
        "country": ("Country", "Ship-To Country", "Destination"),
        "subtotal": ("Subtotal", "Merchandise Total", "Sale Amount"), "tax": (),
        "total": ("Total", "Invoice Total", "Amount Due", "Balance Due", "Total Due"),
        "code": ("Item #", "Item No.", "SKU", "Part\nNumber", "Product ID"),
        "description": ("Description", "Item Description", "Product Description"),
        "quantity": ("Qty", "Quantity", "Qty\nShipped", "Units"),
        "unit_price": ("Unit Price", "Unit\nPrice", "Price Each", "Price\nEach", "Unit Cost"),
        "amount": ("Amount", "Extension", "Ext.\nPrice", "Line Total"),
        **_EN_COMMON, "line_no": ("Line", "Ln", "#"), "uom": ("U/M", "UOM"), "vat": (),
        "bill_to": ("Sold To", "Bill To"), "due_date": ("Due Date",),
        "order": ("P.O. Number", "Customer PO", "Order #"),
        "delivery": ("Ship Via",), "terms": ("Terms",), "rep": ("Salesperson", "Rep"),
        "carried": (), "brought": (),
    },
    "en-gb": {
        "title": ("VAT Invoice", "Sales Invoice", "INVOICE"), "credit_title": ("Credit Note", "CREDIT NOTE"),
        "invoice_number": ("Invoice No.", "Invoice Number", "Document No."),
        "credit_number": ("Credit Note No.", "Credit No.", "Document No."),
        "invoice_date": ("Invoice Date", "Date", "Tax Point", "Date/Tax Point"),
        "customer_id": ("Account No.", "Customer No.", "Account Ref.", "A/C No."),
        "country": ("Country", "Delivery Country", "Country of Destination"),
        "subtotal": ("Total Net", "Net Total", "Goods Total", "Total excl. VAT"),
        "tax": ("VAT @ {rate}", "VAT {rate}", "Total VAT", "VAT"),
        "total": ("Total", "Invoice Total", "Total incl. VAT", "Amount Due", "Total Gross"),
        "code": ("Product Code", "Product\nCode", "Stock Code", "Code", "Item Code"),
        "description": ("Description", "Details", "Product Description"),
        "quantity": ("Qty", "Quantity", "Units"),
        "unit_price": ("Unit Price", "Price", "Price Each", "Unit\nNet"),
        "amount": ("Net", "Net Amount", "Net\nAmount", "Line Total", "Amount"),
        **_EN_COMMON, "line_no": ("No.", "Ln."), "vat": ("VAT\nCode", "VAT Rate", "VAT %"),
        "bill_to": ("Invoice To", "Invoice Address", "Customer"), "due_date": ("Due Date", "Payment Due"),
        "order": ("Your Order No.", "Customer Order", "Order Ref."), "delivery": ("Delivery Note", "Despatch Note"),
        "terms": ("Terms",), "rep": (),
    },
    "en-sg": {
        "title": ("TAX INVOICE", "Tax Invoice"), "credit_title": ("CREDIT NOTE", "Tax Credit Note"),
        "invoice_number": ("Invoice No.", "Tax Invoice No.", "Inv No."), "credit_number": ("Credit Note No.", "CN No."),
        "invoice_date": ("Date", "Invoice Date"), "customer_id": ("Customer Code", "Customer A/C", "Cust. Code"),
        "country": ("Country", "Delivery Country"),
        "subtotal": ("Sub-Total", "Total Before GST", "Total (excl. GST)"),
        "tax": ("GST {rate}", "Add: GST {rate}", "GST @ {rate}"),
        "total": ("Total Payable", "Grand Total", "Total (incl. GST)"),
        "code": ("Item Code", "Stock Code", "Code"), "description": ("Description", "Item Description", "Particulars"),
        "quantity": ("Qty", "Quantity"), "unit_price": ("Unit Price", "U/Price", "Unit\nPrice"),
        "amount": ("Amount", "Total\nAmount", "Amt"),
        **_EN_COMMON, "line_no": ("S/N", "No."), "vat": ("GST", "Tax\nCode"),
        "bill_to": ("Bill To", "Sold To", "Customer"), "due_date": ("Due Date",), "order": ("Your PO No.", "P/O No."),
        "delivery": ("D/O No.",), "terms": ("Terms",), "rep": ("Salesman",), "words": ("Amount in words",),
    },
    "en-au": {
        "title": ("TAX INVOICE", "Tax Invoice"), "credit_title": ("ADJUSTMENT NOTE", "Adjustment Note", "Credit Note"),
        "invoice_number": ("Invoice No.", "Invoice Number", "Tax Invoice No."),
        "credit_number": ("Adjustment Note No.", "Credit Note No."),
        "invoice_date": ("Invoice Date", "Date", "Date of Issue"),
        "customer_id": ("Customer No.", "Account No.", "Cust. No."), "country": ("Country", "Ship To Country"),
        "subtotal": ("Subtotal", "Total ex GST", "Amount ex GST"),
        "tax": ("GST", "GST {rate}", "Total GST", "Plus GST"),
        "total": ("Total inc GST", "Total", "Amount Due", "Invoice Total"),
        "code": ("Item Code", "Product Code", "Code"), "description": ("Description", "Item Description"),
        "quantity": ("Qty", "Quantity", "Qty\nSupplied"), "unit_price": ("Unit Price", "Unit Price\nex GST", "Price"),
        "amount": ("Amount", "Line Total", "Extended"),
        **_EN_COMMON, "line_no": ("Line", "#"), "vat": ("GST", "Tax\nCode"),
        "bill_to": ("Bill To", "Invoice To", "Customer"), "due_date": ("Due Date", "Payment Due"),
        "order": ("Your Order No.", "Order No."), "delivery": ("Delivery Docket",), "terms": ("Terms",), "rep": (),
    },
    "en": {
        "title": ("INVOICE", "Invoice", "Commercial Invoice"), "credit_title": ("CREDIT NOTE", "Credit Note"),
        "invoice_number": ("Invoice no.", "Invoice number", "Document no."),
        "credit_number": ("Credit note no.", "Document no."),
        "invoice_date": ("Invoice date", "Date", "Document date"),
        "customer_id": ("Customer no.", "Customer number", "Debtor no."),
        "country": ("Country", "Country of delivery", "Delivery country"),
        "subtotal": ("Net amount", "Total net", "Net value of goods", "Subtotal"),
        "tax": ("VAT {rate}", "plus {rate} VAT", "Value added tax {rate}"),
        "total": ("Total amount", "Invoice amount", "Total gross", "Amount due"),
        "code": ("Item no.", "Article no.", "Article\nno.", "Product no.", "Material"),
        "description": ("Description", "Designation", "Item description"),
        "quantity": ("Quantity", "Qty"), "unit_price": ("Unit price", "Unit\nprice", "Price", "Price per\nunit"),
        "amount": ("Amount", "Total price", "Total\nprice", "Net value", "Value"),
        **_EN_COMMON, "line_no": ("Pos.", "Item", "Line"), "uom": ("Unit", "UoM"), "vat": ("VAT %", "Tax\n%"),
        "bill_to": ("Invoice address", "Bill-to party", "Customer"), "due_date": ("Due date", "Payable by"),
        "order": ("Your order", "Order no.", "Your reference"), "delivery": ("Delivery note", "Delivery no."),
        "terms": ("Payment terms",), "rep": (),
    },
    "de-en": {
        "title": ("Rechnung / Invoice", "RECHNUNG / INVOICE"),
        "credit_title": ("Gutschrift / Credit note", "GUTSCHRIFT / CREDIT NOTE"),
        "invoice_number": ("Rechnungs-Nr. / Invoice no.", "Rechnungsnummer / Invoice number",
                           "Beleg-Nr. / Document no."),
        "credit_number": ("Gutschrift-Nr. / Credit note no.", "Beleg-Nr. / Document no."),
        "invoice_date": ("Datum / Date", "Rechnungsdatum / Invoice date", "Belegdatum / Document date"),
        "customer_id": ("Kunden-Nr. / Customer no.", "Kundennummer / Customer number", "Debitor / Debtor no."),
        "country": ("Land / Country", "Lieferland / Country of delivery", "Bestimmungsland / Country of destination"),
        "subtotal": ("Nettobetrag / Net amount", "Warenwert / Value of goods", "Summe netto / Total net"),
        "tax": ("MwSt. {rate} / VAT {rate}", "zzgl. {rate} USt. / plus {rate} VAT", "Umsatzsteuer {rate} / VAT {rate}"),
        "total": ("Gesamtbetrag / Total amount", "Rechnungsbetrag / Invoice total", "Endbetrag / Amount due"),
        "code": ("Artikel-Nr.\nItem no.", "Art.-Nr.\nArticle no."),
        "description": ("Bezeichnung\nDescription", "Artikelbezeichnung\nItem description"),
        "quantity": ("Menge\nQuantity", "Menge\nQty", "Anzahl\nQuantity"),
        "unit_price": ("Einzelpreis\nUnit price", "E-Preis\nPrice", "Preis\nPrice"),
        "amount": ("Gesamtpreis\nTotal price", "Betrag\nAmount", "Wert\nValue"),
        "line_no": ("Pos.\nItem", "Pos.\nLine"), "uom": ("ME\nUnit", "Einheit\nUnit"),
        "vat": ("MwSt.\nVAT", "USt.\nVAT"),
        "discount": ("Rabatt\nDisc.",), "currency": ("Währung / Currency",),
        "carried": ("Übertrag / Carried forward",), "brought": ("Übertrag / Brought forward",),
        "bill_to": ("Rechnungsempfänger / Bill to", "Kunde / Customer"),
        "due_date": ("Fällig am / Due date", "Zahlbar bis / Payable by"),
        "order": ("Ihre Bestellung / Your order", "Bestell-Nr. / Order no."),
        "delivery": ("Lieferschein / Delivery note",),
        "terms": ("Zahlungsbedingungen / Terms",), "rep": (),
    },
    "fi-en": {
        "title": ("LASKU / INVOICE", "Lasku / Invoice"),
        "credit_title": ("HYVITYSLASKU / CREDIT NOTE", "Hyvityslasku / Credit note"),
        "invoice_number": ("Laskun numero / Invoice no.", "Laskun nro / Invoice no."),
        "credit_number": ("Hyvityslaskun nro / Credit note no.",),
        "invoice_date": ("Laskun päivämäärä / Invoice date", "Päiväys / Date", "Laskun pvm / Date"),
        "customer_id": ("Asiakasnumero / Customer no.", "Asiakas nro / Customer no."),
        "country": ("Maa / Country", "Toimitusmaa / Country of delivery"),
        "subtotal": ("Veroton yhteensä / Total excl. VAT", "Veroton summa / Net amount"),
        "tax": ("ALV {rate} / VAT {rate}", "Arvonlisävero {rate} / VAT {rate}"),
        "total": ("Yhteensä / Total", "Maksettava / Amount due", "Laskun loppusumma / Invoice total"),
        "code": ("Tuotenro\nItem no.", "Koodi\nCode"), "description": ("Nimike\nDescription", "Tuote\nProduct"),
        "quantity": ("Määrä\nQty", "Kpl\nPcs"), "unit_price": ("À-hinta\nUnit price", "Yks.hinta\nUnit price"),
        "amount": ("Yhteensä\nAmount", "Summa\nAmount", "Veroton\nNet"),
        "line_no": ("Rivi\nLine",), "uom": ("Yks.\nUnit",), "vat": ("ALV %\nVAT %",), "discount": ("Ale %\nDisc. %",),
        "currency": ("Valuutta / Currency",), "carried": ("Siirto / Carried forward",),
        "brought": ("Siirto / Brought forward",), "bill_to": ("Laskutusosoite / Bill to", "Asiakas / Customer"),
        "due_date": ("Eräpäivä / Due date",), "order": ("Tilausnumero / Order no.", "Viitteenne / Your ref."),
        "delivery": (), "reference": ("Viitenumero / Reference no.",), "terms": ("Maksuehto / Terms",), "rep": (),
        "interest": ("Viivästyskorko / Late interest",),
    },
}
WORDS["ch-en"] = {
    **WORDS["de-en"],
    "invoice_number": ("Rechnung Nr. / Invoice no.", "Rechnungsnummer / Invoice number"),
    "tax": ("MWST {rate} / VAT {rate}", "Mehrwertsteuer {rate} / VAT {rate}"),
    "total": ("Rechnungstotal / Invoice total", "Total / Total", "Zu bezahlen / Amount due"),
    "vat": ("MWST\nVAT",),
}

# Words that go with the layout but are not labels: payment terms, notes, page furniture.
TERMS = {
    "en-us": ("Net 30", "Net 15", "2% 10, Net 30"), "en-gb": ("30 days net", "Strictly 30 days"),
    "en-sg": ("30 Days", "C.O.D.", "60 Days"), "en-au": ("30 days EOM", "14 days", "Net 30 days"),
    "en": ("30 days net", "14 days 2 % discount, 30 days net"),
    "de-en": ("30 Tage netto / 30 days net", "14 Tage 2 % Skonto, 30 Tage netto"),
    "fi-en": ("14 pv netto / 14 days net", "21 pv netto / 21 days net"),
}
TERMS["ch-en"] = ("Zahlbar innert 30 Tagen netto / 30 days net",)
PAGE_LABELS = {"en": ("Page {n} of {m}", "Page {n}/{m}", "Page: {n} of {m}"),
               "de-en": ("Seite {n} von {m} / Page {n} of {m}", "Seite / Page {n}/{m}"),
               "fi-en": ("Sivu {n}/{m}", "Sivu / Page {n} ({m})")}
CONTINUED = {"en": ("Continued on page {next}", "Continued overleaf", "Continued on next page"),
             "de-en": ("Fortsetzung auf Seite {next} / Continued on page {next}",),
             "fi-en": ("Jatkuu sivulla {next} / Continued on page {next}", "Jatkuu / Continued")}
RUNNING = {"en": ("{title} {number} - Page {n}", "{title} No. {number} (page {n} of {m})",
                  "{number} / page {n} of {m}"),
           "de-en": ("{title} {number} – Seite / Page {n}", "Beleg / Document {number}, Seite / Page {n}"),
           "fi-en": ("{title} {number} – Sivu / Page {n}",)}
NOTES = {
    "us": ("Resale - no sales tax charged. Resale certificate on file.", "Thank you for your business!"),
    "gb": ("Goods remain our property until paid for in full.", "Thank you for your order."),
    "de": ("Es gelten unsere Allgemeinen Geschäftsbedingungen. / Our general terms of sale apply.",
           "Vielen Dank für Ihren Auftrag. / Thank you for your order."),
    "ch": ("Vielen Dank für Ihren Auftrag. / Thank you for your order.",),
    "fi": ("Viivästyskorko 8 %. Huomautukset 8 päivän kuluessa. / Late interest 8 %. Claims within 8 days.",),
    "sg": ("Goods sold are not returnable. E. & O.E.", "Cheques should be crossed and made payable to the company."),
    "au": ("All prices in Australian dollars. Goods remain our property until paid in full.",),
}
CURRENCY_NOTES = {"en": "All amounts in {code}", "de-en": "Alle Beträge in {code} / All amounts in {code}",
                  "fi-en": "Summat valuutassa {code} / Amounts in {code}"}

# region -> seller letterheads: (name, street, town, country, legal line); digits are filled from the seed.
SELLERS = {
    "us": (("Brightline Wholesale Supply, Inc.", "2150 Commerce Parkway, Suite 300", "Columbus, OH 43219", "USA",
            "Tel (614) 555-{d4}  ·  Fed. Tax ID 31-{d7}"),
           ("Harbor & Vine Trading Co.", "880 Industrial Way, Bldg 4", "Secaucus, NJ 07094", "United States",
            "Phone 201-555-{d4}  ·  www.harborvine.example")),
    "gb": (("Thames Valley Giftware Ltd", "Unit 12, Brunel Road Industrial Estate", "Reading RG2 0FL", "England",
            "VAT Reg. No. GB {d3} {d4} {d2}  ·  Company No. 0{d7}"),
           ("Pennine Home & Gift Supplies", "41-43 Mill Street", "Halifax HX1 2RB", "United Kingdom",
            "Tel. 01422 {d6}  ·  VAT No. GB {d3} {d4} {d2}")),
    "de": (("Gebr. Lindner Geschenkartikel GmbH", "Hafenstraße 112", "D-20457 Hamburg", "Deutschland / Germany",
            "USt-IdNr. DE {d3} {d3} {d3}  ·  HRB {d5} Amtsgericht Hamburg"),
           ("Wohnwerk Handels GmbH & Co. KG", "Industriestraße 7a", "D-33609 Bielefeld", "Deutschland / Germany",
            "Tel. +49 521 {d6}  ·  USt-IdNr. DE{d9}")),
    "ch": (("Alpenhaus Handels AG", "Industriestrasse 27", "CH-8604 Volketswil", "Schweiz / Switzerland",
            "MWST-Nr. {d6}  ·  Tel. +41 44 908 {d2} {d2}"),
           ("Lüthi & Co. Geschenke AG", "Bahnhofstrasse 45", "CH-3011 Bern", "Schweiz / Switzerland",
            "MWST-Nr. {d6}  ·  Tel. +41 31 {d3} {d2} {d2}")),
    "fi": (("Koti & Lahja Oy", "Hämeenkatu 14 B", "FI-33100 Tampere", "Suomi / Finland",
            "Y-tunnus {d7}-{d1}  ·  ALV-nro FI{d8}"),
           ("Pohjolan Tukku Oy", "Teollisuustie 9", "FI-90400 Oulu", "Suomi / Finland",
            "Y-tunnus {d7}-{d1}  ·  Puh. 08 {d6}")),
    "sg": (("Lion City Home Trading Pte Ltd", "61 Ubi Avenue 1, #05-12", "Singapore 408941", "Singapore",
            "GST Reg No. 2008{d5}K  ·  Tel 6745 {d4}"),
           ("Keppel Giftware Supplies Pte Ltd", "10 Anson Road, #22-02 International Plaza", "Singapore 079903",
            "Singapore", "Co. Reg. & GST No. 1999{d5}M")),
    "au": (("Southern Cross Giftware Pty Ltd", "14/220 Boundary Road", "Braeside VIC 3195", "Australia",
            "ABN 51 {d3} {d3} {d3}  ·  Ph (03) 9580 {d4}"),
           ("Harbourside Wholesale Pty Ltd", "Unit 3, 27 Parramatta Road", "Lidcombe NSW 2141", "Australia",
            "ABN 62 {d3} {d3} {d3}  ·  Ph (02) 9649 {d4}")),
}
BANKS = {
    "us": "Remit to: PO Box {d5}, Chicago IL 60693  ·  ACH/Wire: ABA {d9}  ·  Account {d10}",
    "gb": "Bank: Barclays Bank plc  ·  Sort code 20-{d2}-{d2}  ·  Acct {d8}",
    "de": "Commerzbank Hamburg  ·  IBAN DE{d2} 2004 0000 0{d3} {d4} 00  ·  BIC COBADEFFXXX",
    "ch": "PostFinance 80-{d5}-{d1}  ·  IBAN CH{d2} 0900 0000 80{d2} {d4} {d1}  ·  BIC POFICHBEXXX",
    "fi": "Nordea FI{d2} 1234 {d4} {d4} {d2}, NDEAFIHH  ·  OP FI{d2} 5000 {d4} {d4} {d2}, OKOYFIHH",
    "sg": "Bank: DBS Bank Ltd  ·  A/C No. 0{d2}-{d6}-{d1}  ·  SWIFT DBSSSGSG",
    "au": "Direct deposit: Westpac  ·  BSB 033-{d3}  ·  Account {d6}",
}


def split_heading(text: str) -> list[str]:
    """The printed lines of a heading (``\\n`` marks where a two-line heading breaks)."""
    return text.split("\n")


def lang_group(lang: str) -> str:
    """The page-furniture group of a form language: ``en``, ``de-en`` or ``fi-en``."""
    return {"de-en": "de-en", "ch-en": "de-en", "fi-en": "fi-en"}.get(lang, "en")
