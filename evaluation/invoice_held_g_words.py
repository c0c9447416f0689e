"""HELD-ASIDE FAMILY "held-g": the wordings of the seventh held-aside family, written apart from the reader; not to
be read while developing it (nor the other ``evaluation.invoice_held_g*`` modules, the family's generated files or
its per-file scores).

The family imitates invoices printed for export customers by the ERP systems of continental European wholesale
distributors, manufacturers and logistics firms. :data:`WORDS` holds every title, label and column heading it can
print (English, as such firms print it); :data:`SELLERS` the letterheads with their country's VAT rate and
currencies; :data:`BUYERS` the customers' names and addresses by country; :data:`DATES` the date forms.

>>> set(REQUIRED) <= set(WORDS)
True
>>> all(s["rate"] for s in SELLERS)
True
"""

from __future__ import annotations

__all__ = ["BUYERS", "CONTINUED", "DATES", "HS_CODES", "MONTHS", "NOTES", "ONE_TIME", "ORIGINS", "OTHER_TOWNS",
           "PAGE_LABELS", "REQUIRED", "RUNNING", "SELLERS", "TOWNS", "UNITS", "WORDS"]

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")

# Date forms: name -> (format, strptime pattern). Every one is unambiguous as printed: numeric ones only in the
# dotted day.month.year order of the continent, or year first.
DATES = {
    "dot": ("{dd}.{mm}.{Y}", "%d.%m.%Y"),
    "dot-short": ("{d}.{m}.{Y}", "%d.%m.%Y"),
    "iso": ("{Y}-{mm}-{dd}", "%Y-%m-%d"),
    "d-month": ("{d}. {Month} {Y}", "%d. %B %Y"),
    "dd-mon": ("{dd}-{Mon}-{Y}", "%d-%b-%Y"),
    "dd-MON": ("{dd} {MON} {Y}", "%d %b %Y"),
    "ymd-dot": ("{Y}.{mm}.{dd}", "%Y.%m.%d"),
}

# The wordings the drawing asks for on every layout.
REQUIRED = ("title", "credit_title", "invoice_number", "credit_number", "invoice_date", "customer_id", "subtotal",
            "tax", "total", "credit_total", "line_no", "code", "description", "quantity", "unit_price", "amount")

WORDS = {
    "title": ("Invoice", "INVOICE", "Export invoice", "Invoice - Original", "VAT invoice", "Final invoice",
              "Goods invoice", "Billing document", "Delivery invoice", "INVOICE ORIGINAL", "Invoice/Delivery note"),
    "credit_title": ("Corrective invoice", "Credit invoice", "Return credit note", "Credit note for returns",
                     "CREDIT NOTE - ORIGINAL", "Credit memo for returns", "Invoice correction", "Credit note (returns)"),
    "invoice_number": ("Invoice no", "Billing doc. no.", "Document no", "Inv. no.", "Number", "Our invoice no.",
                       "Invoice-No.", "Invoice ID", "Billing document"),
    "credit_number": ("Credit note no", "Correction no.", "Credit doc. no.", "Credit invoice no.", "Return no.",
                      "Document no"),
    "invoice_date": ("Billing date", "Doc. date", "Invoice dated", "Inv. date", "Date of invoice issue",
                     "Invoice-Date", "Posting date"),
    "customer_id": ("Customer no", "Cust. no.", "Sold-to party", "Payer", "Debtor no.", "Customer acct.",
                    "Your customer no.", "Client no.", "Customer ID no.", "Our cust. no."),
    "country": ("Country of destination", "Destination country", "Final destination", "Ctry of destination"),
    "currency": ("Curr.", "Currency code", "Invoicing currency", "Currency key", "Invoiced in"),
    "subtotal": ("Total net value", "Net value of goods", "Goods value", "Value of goods", "Items net",
                 "Taxable amount", "Merchandise value", "Net value total", "Total goods value", "Net sum"),
    "tax": ("Value added tax", "Output VAT", "VAT amount", "Plus VAT", "VAT", "Tax (VAT)", "Sales VAT"),
    "total": ("Invoice amount", "Gross amount", "Total gross", "Amount payable", "Final amount", "Total amount due",
              "Gross total", "Total to pay", "Amount due for payment", "Invoice value"),
    "credit_total": ("Credit amount", "Total credit", "Amount credited", "Credit total", "Credit note amount"),
    # Column headings.
    "line_no": ("Pos", "Item", "Line", "Ln", "No", "Itm", "Pos.no."),
    "code": ("Material", "Article no.", "Art. no", "Item no", "Product no.", "Part number", "Article", "Mat. no.",
             "Our art. no.", "Art.-No."),
    "description": ("Description", "Article description", "Material description", "Product description", "Text",
                    "Designation of goods", "Goods description", "Item text", "Short text"),
    "item": ("Article / Description", "Material / Text", "Art. no. / Description", "Product / Designation"),
    "quantity": ("Qty", "Quantity", "Billed qty", "Inv. qty", "Delivered", "Qty deliv.", "Number of units",
                 "Qty billed"),
    "unit": ("Unit", "UoM", "UM", "Unit of meas.", "SU", "Un."),
    "unit_price": ("Unit price", "Price/unit", "Net price", "Price per unit", "Sales price", "Unit net price",
                   "Price/UoM", "Net unit price"),
    "discount": ("Disc. %", "Discount %", "Rebate %", "Disc %"),
    "vat_rate": ("VAT %", "VAT rate", "Tax %", "Rate of VAT"),
    "amount": ("Net value", "Value", "Line value", "Total net", "Net amount", "Total", "Extended value",
               "Net total value"),
    "gross": ("Gross value", "Gross amount", "Value incl. VAT"),
    "weight": ("Net wt. kg", "Weight (kg)", "Net weight kg", "kg net"),
    "hs_code": ("HS code", "Customs tariff no.", "Commodity code", "Tariff no."),
    "origin": ("Origin", "C/O", "Country of origin", "Orig."),
    "ean": ("EAN", "EAN code", "GTIN", "Barcode"),
    # Header fields that are not read, and blocks' headings.
    "order_no": ("Your order", "Order no.", "Customer PO", "Your purchase order", "Sales order"),
    "order_date": ("Order date", "Your order of", "Date of order"),
    "delivery_note": ("Delivery note", "Deliv. note no.", "Outbound delivery", "Shipment no."),
    "delivery_date": ("Delivery date", "Date of dispatch", "Date of supply", "Shipping date"),
    "due": ("Due date", "Payable by", "Net due date", "Due on"),
    "terms": ("Terms of payment", "Payment terms", "Payment"),
    "incoterms": ("Incoterms", "Terms of delivery", "Delivery terms"),
    "vat_id": ("Your VAT ID", "Customer VAT reg. no.", "VAT ID of buyer", "Your VAT no."),
    "contact": ("Contact", "Clerk", "Your contact", "Processed by", "Sales rep."),
    "carrier": ("Shipping method", "Carrier", "Mode of transport", "Forwarder"),
    "bill_to": ("Invoice address", "Bill-to party", "Buyer", "Invoice recipient", "Invoicee"),
    "ship_to": ("Delivery address", "Ship-to party", "Consignee", "Place of delivery"),
    "seller": ("Seller", "Supplier", "Consignor", "Exporter"),
    "forward": ("Carried forward", "Carry-over", "Total carried forward", "Subtotal c/f"),
    "brought": ("Brought forward", "Amount brought forward", "Subtotal b/f", "Transfer"),
    "weight_total": ("Total net weight", "Net weight total", "Total weight (net)"),
    "in_words": ("In words", "Say", "Amount in words"),
    "vat_base": ("Net", "Basis", "Tax base"),
    "rate_head": ("Rate", "VAT %", "Tax rate"),
}

# Running headers of the pages after the first: every one names the invoice number.
RUNNING = ("{title} {number} of {date}", "{number} / {date}", "{title} no. {number}", "Continuation {number}",
           "{seller} - {title} {number}")
# Page labels; and the mark at the foot of every page but the last.
PAGE_LABELS = ("Page {n} of {m}", "Page: {n} / {m}", "Page {n}/{m}", "- {n} -", "Pg. {n} of {m}", "Sheet {n}/{m}")
CONTINUED = ("./.", "continued on page {next}", "- continued -", "to be continued on page {next}",
             "Continuation on next page")

NOTES = {
    "intro": ("We invoice you for the following deliveries:", "As agreed, we invoice as follows:",
              "Thank you for your order. We charge you as follows:", None, None),
    "credit_intro": ("We credit your account as follows:", "For the goods returned we credit you as follows:",
                     None),
    # Why no VAT is charged: within the EU (one of three), to a country outside it, from Switzerland.
    "exempt": ("Tax-exempt intra-Community supply (Art. 138 Directive 2006/112/EC).",
               "VAT-exempt intra-Community delivery. Reverse charge: VAT to be accounted for by the recipient.",
               "Reverse charge - the customer is liable for the VAT."),
    "exempt_export": ("Export of goods outside the EU, zero-rated.", "Export delivery, exempt from VAT."),
    "exempt_swiss": ("Export delivery - exempt from Swiss VAT (Art. 23 VAT Act).",),
    "terms": ("30 days net", "14 days 2 % discount, 30 days net", "Payable immediately without deduction",
              "60 days net", "Net 30 days from invoice date", "10 days 3 % discount, 45 days net"),
    "incoterms": ("DAP {town}", "FCA {seller_town}", "EXW {seller_town}", "CPT {town}", "DDP {town}"),
    "carrier": ("DHL Freight", "DB Schenker", "Own truck", "DSV Road", "Kuehne + Nagel", "UPS Standard"),
    "retention": ("Goods remain our property until paid in full.",
                  "Retention of title: the goods remain our property until full payment has been received.",
                  "Our general terms and conditions of sale apply.", None),
    "currency": ("All amounts in {code}.", "Amounts are stated in {code}.", "Invoice currency: {code}."),
    "clerks": ("M. Schneider", "A. Lindqvist", "J. van Dijk", "K. Nowak", "S. Brunner", "L. Møller", "P. Rossi"),
}

# Letterheads: name, street, town, country name, ISO country, VAT rate, currencies it invoices in, bank, register.
SELLERS = (
    {"name": "Rheinwerk Handelsgesellschaft mbH", "street": "Industriestraße 14", "town": "47229 Duisburg",
     "country": "Germany", "iso": "DE", "rate": "0.19", "currencies": ("EUR", "EUR", "GBP", "USD"),
     "bank": "Commerzbank Duisburg  IBAN DE44 3504 0038 0512 3344 00  BIC COBADEFFXXX",
     "register": "Amtsgericht Duisburg HRB 18273  Managing directors: H. Becker, T. Vogel", "vat": "DE 811 907 243",
     "phone": "+49 203 7781-0"},
    {"name": "Van der Berg Groothandel B.V.", "street": "Havenweg 212", "town": "3089 JB Rotterdam",
     "country": "Netherlands", "iso": "NL", "rate": "0.21", "currencies": ("EUR", "EUR", "GBP"),
     "bank": "ABN AMRO  IBAN NL91 ABNA 0417 1643 00  BIC ABNANL2A",
     "register": "Chamber of Commerce Rotterdam 24301187", "vat": "NL 8045.22.913.B01", "phone": "+31 10 428 9100"},
    {"name": "Nordströms Grossist AB", "street": "Lagervägen 7", "town": "SE-415 05 Göteborg", "country": "Sweden",
     "iso": "SE", "rate": "0.25", "currencies": ("SEK", "SEK", "EUR"),
     "bank": "Bankgiro 5402-8817  IBAN SE45 5000 0000 0583 9825 7466  BIC ESSESESS",
     "register": "Reg. no. 556677-1234  Registered office: Göteborg", "vat": "SE556677123401",
     "phone": "+46 31 70 44 20"},
    {"name": "Kjær & Holm Engros A/S", "street": "Industrivej 31", "town": "DK-7100 Vejle", "country": "Denmark",
     "iso": "DK", "rate": "0.25", "currencies": ("DKK", "DKK", "EUR"),
     "bank": "Danske Bank  Reg. 3409 Acc. 10 227 845  IBAN DK50 0040 0440 1162 43  BIC DABADKKK",
     "register": "CVR 29 41 76 18", "vat": "DK29417618", "phone": "+45 75 82 11 00"},
    {"name": "Alpenlog Spedition & Handel AG", "street": "Industriestrasse 5", "town": "CH-8604 Volketswil",
     "country": "Switzerland", "iso": "CH", "rate": "0.081", "currencies": ("CHF", "CHF", "EUR"),
     "bank": "UBS Switzerland AG  IBAN CH93 0076 2011 6238 5295 7  BIC UBSWCHZH80A",
     "register": "Commercial register Zurich CHE-105.882.417", "vat": "CHE-105.882.417 VAT",
     "phone": "+41 44 908 61 00"},
    {"name": "Baltica Dystrybucja Sp. z o.o.", "street": "ul. Portowa 18", "town": "80-601 Gdansk",
     "country": "Poland", "iso": "PL", "rate": "0.23", "currencies": ("PLN", "PLN", "EUR"),
     "bank": "mBank S.A.  IBAN PL61 1090 1014 0000 0712 1981 2874  BIC BREXPLPW",
     "register": "KRS 0000318842  Share capital PLN 500,000", "vat": "PL 5842716093", "phone": "+48 58 340 12 70"},
    {"name": "Hofer & Partner Großhandel GmbH", "street": "Gewerbepark 3", "town": "A-4600 Wels", "country": "Austria",
     "iso": "AT", "rate": "0.20", "currencies": ("EUR", "EUR", "USD"),
     "bank": "Raiffeisenbank Wels  IBAN AT48 3400 0000 0123 4567  BIC RZOOAT2L",
     "register": "Commercial court Wels FN 231847 k", "vat": "ATU 58217344", "phone": "+43 7242 66 300"},
    {"name": "Lombardia Forniture Industriali S.r.l.", "street": "Via dell'Industria 42",
     "town": "20090 Segrate (MI)", "country": "Italy", "iso": "IT", "rate": "0.22", "currencies": ("EUR", "GBP"),
     "bank": "Intesa Sanpaolo  IBAN IT60 X054 2811 1010 0000 0123 456  BIC BCITITMM",
     "register": "REA MI-1782344  Share capital EUR 120.000 i.v.", "vat": "IT 07731820961", "phone": "+39 02 2130 455"},
    {"name": "Brabant Logistics & Distribution NV", "street": "Kanaalweg 9", "town": "2300 Turnhout",
     "country": "Belgium", "iso": "BE", "rate": "0.21", "currencies": ("EUR", "EUR", "USD"),
     "bank": "KBC Bank  IBAN BE68 5390 0754 7034  BIC KREDBEBB", "register": "RPR Antwerp, Turnhout division",
     "vat": "BE 0456.118.392", "phone": "+32 14 44 81 20"},
    {"name": "Transports Meunier Logistique SAS", "street": "ZI des Béthunes, 12 rue de l'Ambre",
     "town": "95310 Saint-Ouen-l'Aumône", "country": "France", "iso": "FR", "rate": "0.20",
     "currencies": ("EUR", "EUR", "GBP"), "bank": "BNP Paribas  IBAN FR76 3000 4008 2800 0123 4567 890  BIC BNPAFRPP",
     "register": "RCS Pontoise 412 771 908  SAS with capital of EUR 250 000", "vat": "FR 41 412771908",
     "phone": "+33 1 34 40 21 00"},
)

# Customers' names by country (the record's country); a customer's name is drawn from its number.
BUYERS = {
    "United Kingdom": ("Harbour Lane Gifts Ltd", "Pennine Home Stores Ltd", "Thistle & Rose Trading Ltd",
                       "Castlegate Interiors", "Wessex Party Supplies Ltd", "The Linen Cupboard Ltd"),
    "EIRE": ("Liffey Homewares Ltd", "Shannon Gift Company", "Atlantic Crafts Ltd"),
    "France": ("Maison Lefèvre SARL", "Boutique du Marché SAS", "Les Jolis Cadeaux SARL"),
    "Germany": ("Geschenkhaus Wagner GmbH", "Dekor & Mehr KG", "Papeterie Hansen GmbH"),
    "Netherlands": ("Cadeauwinkel De Molen B.V.", "Woonhuis Jansen B.V."),
    "Norway": ("Fjordgaver AS", "Bergen Interiør AS"),
    "Australia": ("Southern Cross Gifts Pty Ltd", "Harbourside Homewares Pty Ltd"),
}
ONE_TIME = ("One-time customer", "Cash sale - one-time account", "Walk-in trade customer")
TOWNS = {
    "United Kingdom": (("Unit 7, Riverside Park", "Leeds LS11 5QW"), ("42 Castle Street", "Exeter EX4 3PT"),
                       ("Hollins Mill, Bridge Road", "Stockport SK1 3LB")),
    "EIRE": (("12 Ormond Quay", "Dublin 7"), ("Unit 4, Ballybrit Business Park", "Galway H91 K5TW")),
    "France": (("14 rue des Tanneurs", "69002 Lyon"), ("3 place du Marché", "35000 Rennes")),
    "Germany": (("Lindenstraße 22", "50674 Köln"), ("Am Markt 5", "24103 Kiel")),
    "Netherlands": (("Kerkstraat 88", "2011 GP Haarlem"), ("Oudegracht 140", "3511 AX Utrecht")),
    "Norway": (("Strandgaten 19", "5013 Bergen"), ("Storgata 7", "0155 Oslo")),
    "Australia": (("Level 2, 88 George Street", "Sydney NSW 2000"), ("15 Chapel Street", "Melbourne VIC 3181")),
}
OTHER_TOWNS = (("Industrial Estate 3", "Central District"),)

# Customs tariff numbers by a word of the description; the default last.
HS_CODES = (("MUG", "69120085"), ("CERAMIC", "69120085"), ("PLATE", "69120085"), ("CUP", "69120085"),
            ("CANDLE", "34060000"), ("T-LIGHT", "34060000"), ("BAG", "42022290"), ("CARD", "48239085"),
            ("PAPER", "48239085"), ("WRAP", "48239085"), ("GLASS", "70139900"), ("JAR", "70139900"),
            ("CHRISTMAS", "95051090"), ("SIGN", "83062990"), ("METAL", "83062990"), ("TIN", "83062990"),
            ("CUSHION", "94049090"), ("TOWEL", "63026000"), ("", "39264000"))
ORIGINS = ("CN", "CN", "IN", "GB", "DE", "PL", "VN", "TR")
UNITS = {"plain": ("PC", "PCE", "EA", "pcs", "Pce", "ST"), "set": "SET", "pack": "PAC"}
