"""HELD-ASIDE FAMILY "held-e": the wordings of the fifth held-aside family, written apart from the reader; not to
be read while developing it (nor the other ``evaluation.invoice_held_e*`` modules, the family's generated files or
its per-file scores).

:data:`SYSTEMS` holds, for each kind of invoicing program the family imitates, every title, label and column heading
it can print; :data:`COMMON` the labels any of them may print; :data:`DATES` the date forms; :data:`SELLERS` the
seller letterheads by currency.

>>> sorted(SYSTEMS) == sorted(PLANS)
True
>>> all(set(REQUIRED) <= set(SYSTEMS[s]) for s in SYSTEMS)
True
"""

from __future__ import annotations

__all__ = ["BUYERS", "COMMON", "DATES", "MONTHS", "NOTES", "PLANS", "REQUIRED", "SELLERS", "STREETS", "SYSTEMS",
           "UNITS", "WEEKDAYS"]

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# Date forms: name -> (format, strptime pattern, the hint printed after the date's label or None). A numeric form
# whose day and month could be swapped is only printed with its hint.
DATES = {
    "iso": ("{Y}-{mm}-{dd}", "%Y-%m-%d", None),
    "dot": ("{dd}.{mm}.{Y}", "%d.%m.%Y", None),
    "d-mon-y": ("{d} {Mon} {Y}", "%d %b %Y", None),
    "dd-mon-yy": ("{dd}-{Mon}-{yy}", "%d-%b-%y", None),
    "mon-d-y": ("{Mon} {d}, {Y}", "%b %d, %Y", None),
    "month-d-y": ("{Month} {d}, {Y}", "%B %d, %Y", None),
    "d-month-y": ("{d} {Month} {Y}", "%d %B %Y", None),
    "day-d-mon-y": ("{Day}, {d} {Mon} {Y}", "%a, %d %b %Y", None),
    "ddmonyyyy": ("{dd}{MON}{Y}", "%d%b%Y", None),
    "ymd-slash": ("{Y}/{mm}/{dd}", "%Y/%m/%d", None),
    "dmy-slash": ("{dd}/{mm}/{Y}", "%d/%m/%Y", "(dd/mm/yyyy)"),
    "mdy-slash": ("{mm}/{dd}/{Y}", "%m/%d/%Y", "(mm/dd/yyyy)"),
}

# The labels the drawing asks for on every layout.
REQUIRED = ("title", "credit_title", "invoice_number", "credit_number", "invoice_date", "customer_id", "subtotal",
            "tax", "total", "bill_to", "code", "description", "quantity", "unit_price", "amount")

SYSTEMS = {
    # a desktop small-business package: boxes for date and number at the top right, a strip of order boxes
    "desk": {
        "title": ("Invoice", "INVOICE", "Sales Invoice"), "credit_title": ("Credit Memo", "CREDIT MEMO"),
        "invoice_number": ("Invoice #", "Invoice No.", "Inv. #"), "credit_number": ("Credit No.", "Memo #"),
        "invoice_date": ("Date", "Inv. Date"), "customer_id": ("Account #", "Customer #", "Cust. ID"),
        "subtotal": ("Subtotal", "Sub-Total"), "tax": ("Sales Tax", "Tax"), "total": ("Total", "TOTAL"),
        "bill_to": ("Bill To", "BILL TO", "Sold To"), "ship_to": ("Ship To", "SHIP TO", "Deliver To"),
        "order": ("P.O. No.", "P.O. Number"), "terms": ("Terms",), "due": ("Due Date",), "rep": ("Rep",),
        "via": ("Via", "Ship Via"), "ship_date": ("Ship Date", "Ship"), "fob": ("F.O.B.",),
        "balance": ("Balance Due", "Balance"), "paid": ("Payments/Credits",),
        "code": ("Item", "Item Code", "Part #"), "description": ("Description",), "quantity": ("Qty", "Quantity"),
        "unit_price": ("Rate", "Each", "Price Each"), "amount": ("Amount",), "ordered": ("Ordered", "Qty Ord"),
        "backorder": ("B/O", "Back Ord."), "unit": ("U/M",), "line_tax": ("Tax Amt",), "vat_code": ("Tax",),
    },
    # a web invoicing service: a big title, the amount due displayed large, light rules
    "online": {
        "title": ("Invoice", "INVOICE"), "credit_title": ("Credit Note", "CREDIT NOTE", "Credit"),
        "invoice_number": ("Invoice Number", "Invoice number", "Invoice #"),
        "credit_number": ("Credit Note Number", "Credit note #", "Credit Number"),
        "invoice_date": ("Date of Issue", "Invoice Date", "Issued", "Issue date"),
        "customer_id": ("Client ID", "Customer ID", "Client number"), "subtotal": ("Subtotal", "Sub Total"),
        "tax": ("Tax", "Sales tax", "VAT"), "total": ("Total", "Invoice Total"),
        "bill_to": ("Billed To", "Bill to", "Invoice to", "Client"),
        "due": ("Due Date", "Payment Due", "Due"), "balance": ("Amount Due", "Balance Due", "Amount due"),
        "paid": ("Amount Paid", "Paid", "Payment Made"), "ref": ("Reference", "PO/SO number"),
        "code": ("Item", "SKU", "Item code"), "description": ("Description", "Item Description", "Details"),
        "item": ("Item & Description", "Items", "Product / Service"),
        "quantity": ("Qty", "Quantity", "Hrs/Qty"), "unit_price": ("Rate", "Price", "Unit Cost", "Unit Price"),
        "amount": ("Amount", "Line Total", "Total"), "line_no": ("#",), "discount": ("Discount",),
    },
    # an online ledger: title and customer left, the details in a middle column, payment advice at the foot
    "cloud": {
        "title": ("TAX INVOICE", "INVOICE", "Tax Invoice"), "credit_title": ("CREDIT NOTE", "Credit Note",
                                                                          "ADJUSTMENT NOTE"),
        "invoice_number": ("Invoice Number", "Invoice No"), "credit_number": ("Credit Note Number", "Credit Note No"),
        "invoice_date": ("Invoice Date", "Date"), "customer_id": ("Account Number", "Contact Code", "Customer Code"),
        "subtotal": ("Subtotal", "Subtotal (excl. VAT)"), "tax": ("TOTAL VAT", "Total VAT", "VAT"),
        "total": ("TOTAL", "Total Amount", "Amount Due"), "bill_to": ("To", "Bill To"),
        "ref": ("Reference",), "due": ("Due Date",), "vat_reg": ("VAT Number", "VAT Reg No", "Tax ID"),
        "advice": ("PAYMENT ADVICE", "Payment Advice"), "customer": ("Customer",), "enclosed": ("Amount Enclosed",),
        "code": ("Item Code", "Code", "Item"), "description": ("Description",), "quantity": ("Quantity", "Qty"),
        "unit_price": ("Unit Price", "Price"), "amount": ("Amount", "Net Amount"), "vat_rate": ("VAT", "Tax Rate",
                                                                                                 "VAT Rate"),
        "discount": ("Disc %", "Discount"), "line_tax": ("VAT Amount", "Tax Amount"),
    },
    # a bookkeeping package printing on pre-printed stationery: boxed fields, boxed columns, a totals box
    "accounts": {
        "title": ("SALES INVOICE", "INVOICE", "Invoice"), "credit_title": ("SALES CREDIT NOTE", "CREDIT NOTE"),
        "invoice_number": ("Invoice No.", "Invoice Number"), "credit_number": ("Credit Note No.", "Credit No."),
        "invoice_date": ("Invoice/Tax Date", "Tax Point", "Date/Tax Point"),
        "customer_id": ("Account Ref", "A/C Ref", "Account No."), "subtotal": ("Total Net Amount", "Net Total"),
        "tax": ("Total VAT Amount", "VAT Total"), "total": ("INVOICE TOTAL", "Invoice Total", "TOTAL"),
        "credit_total": ("CREDIT NOTE TOTAL", "Credit Total"),
        "bill_to": ("Invoice Address", "INVOICE TO", "Invoice Address:"),
        "ship_to": ("Delivery Address", "DELIVER TO"), "order": ("Order No.", "Customer Order No."),
        "carriage": ("Carriage", "Carriage Net"), "terms": ("Payment Terms", "Terms"),
        "code": ("Product Code", "Stock Code", "Product"), "description": ("Details", "Description"),
        "quantity": ("Quantity", "Qty"), "unit_price": ("Unit Price", "Price"), "amount": ("Net Amount", "Net",
                                                                                          "Nett"),
        "vat_code": ("T/C", "VAT Code"), "vat_rate": ("VAT %", "VAT Rate"), "line_tax": ("VAT", "VAT Amount"),
        "discount": ("Disc %", "Discount %"), "unit": ("Unit",),
    },
    # an enterprise system: line numbers, units, discount and tax columns, registration details in the foot
    "suite": {
        "title": ("Invoice", "A/R Invoice", "Sales - Invoice", "Customer Invoice"),
        "credit_title": ("A/R Credit Memo", "Sales - Credit Memo", "Credit Note", "Customer Credit Note"),
        "invoice_number": ("Document No.", "Invoice No.", "Doc. Number"),
        "credit_number": ("Credit Memo No.", "Document No.", "Doc. Number"),
        "invoice_date": ("Posting Date", "Document Date", "Invoice Date"),
        "customer_id": ("Customer No.", "Bill-to Customer No.", "Business Partner", "Customer Code"),
        "country": ("Country/Region", "Country", "Country Code"), "currency": ("Currency Code", "Currency"),
        "subtotal": ("Total Before Tax", "Net Value", "Untaxed Amount", "Total Excl. VAT"),
        "tax": ("Tax Amount", "VAT Amount", "Taxes"), "total": ("Total Payment Due", "Total Incl. VAT",
                                                                "Total Amount", "Gross Value"),
        "bill_to": ("Bill-to Address", "Customer", "Bill-to"), "ship_to": ("Ship-to Address", "Ship-to"),
        "due": ("Due Date", "Payment Due Date"), "terms": ("Payment Terms", "Terms of Payment"),
        "order": ("Your Reference", "Customer Ref.", "Source"), "rep": ("Salesperson", "Sales Employee"),
        "code": ("Item No.", "No.", "Material", "Item Code"), "description": ("Description", "Item Description",
                                                                           "Text"),
        "item": ("Product", "Item / Description"),
        "quantity": ("Quantity", "Qty", "Billed Qty"), "unit_price": ("Unit Price", "Price", "Unit Price Excl. VAT",
                                                                     "Price per Unit"),
        "amount": ("Line Amount", "Net Value", "Total (LC)", "Subtotal", "Amount"), "line_no": ("#", "Item", "Pos.",
                                                                                               "Line"),
        "unit": ("UoM", "Unit of Measure", "Unit"), "discount": ("Disc. %", "Line Discount %", "Disc.%"),
        "vat_rate": ("VAT %", "Tax %", "Taxes"), "vat_code": ("Tax Code", "VAT Identifier"),
    },
    # a word-processor template: centred title, a grid table, a thank-you line
    "template": {
        "title": ("INVOICE", "Invoice"), "credit_title": ("CREDIT NOTE", "Credit Note"),
        "invoice_number": ("Invoice no.", "Invoice number", "No."), "credit_number": ("Credit note no.", "No."),
        "invoice_date": ("Date", "Invoice date", "Dated"), "customer_id": ("Customer no.", "Customer number",
                                                                         "Your account"),
        "subtotal": ("Subtotal", "Total before VAT", "Goods total"), "tax": ("VAT", "Plus VAT", "Tax"),
        "total": ("Total", "Total due", "Amount payable", "TOTAL DUE"),
        "bill_to": ("Invoice to:", "To:", "Customer:", "Billed to:"), "terms": ("Terms",),
        "code": ("Item code", "Code", "Ref."), "description": ("Description", "Item", "Goods"),
        "quantity": ("Qty", "Quantity", "No. of items"), "unit_price": ("Price each", "Unit price", "Price"),
        "amount": ("Line total", "Total", "Amount", "Cost"),
    },
    # a monospaced listing as printed by an old system on a line printer
    "matrix": {
        "title": ("INVOICE", "I N V O I C E", "SALES INVOICE"), "credit_title": ("CREDIT NOTE", "C R E D I T",
                                                                               "CREDIT NOTE / RETURN"),
        "invoice_number": ("INV NO", "INVOICE NUMBER", "DOC NO"), "credit_number": ("CR NOTE NO", "DOC NO"),
        "invoice_date": ("INV DATE", "DATE", "DOC DATE"), "customer_id": ("ACCOUNT", "CUST NO", "A/C NO"),
        "country": ("CTRY", "COUNTRY", "DEST"), "currency": ("CURR", "CCY", "CURRENCY"),
        "subtotal": ("GOODS", "GOODS VALUE", "NETT GOODS"), "tax": ("VAT", "V.A.T.", "TAX"),
        "total": ("TOTAL DUE", "INVOICE TOTAL", "NETT DUE", "AMOUNT DUE"), "bill_to": ("SOLD TO", "INVOICE TO"),
        "ship_to": ("DELIVER TO", "SHIP TO"), "order": ("YOUR ORDER", "CUST ORD"), "terms": ("TERMS",),
        "rep": ("SLSMN", "REP"), "code": ("STOCK NO", "PART NO", "ITEM"), "description": ("DESCRIPTION", "DESC"),
        "quantity": ("QTY", "QUANTITY", "SHIPPED"), "unit_price": ("PRICE", "UNIT PRICE", "U/PRICE"),
        "amount": ("VALUE", "EXTENSION", "AMOUNT", "EXT"), "line_no": ("LN", "SEQ"), "unit": ("UM", "U/M"),
        "ordered": ("ORDERED", "ORD"), "backorder": ("B/ORD", "BO"),
    },
    # a wholesaler's system on a landscape sheet: many columns, the totals in a row across the foot
    "wide": {
        "title": ("INVOICE", "Trade Invoice", "Invoice / Delivery Note"),
        "credit_title": ("CREDIT NOTE", "Trade Credit", "Credit / Returns Note"),
        "invoice_number": ("Invoice", "Invoice No", "Our Invoice"), "credit_number": ("Credit", "Credit No"),
        "invoice_date": ("Dated", "Invoice Date", "Date of Invoice"),
        "customer_id": ("Trade Account", "Account Code", "Customer Account"), "country": ("Destination",
                                                                                          "Country of Delivery"),
        "subtotal": ("Goods Net", "Net Goods", "Merchandise Total"), "tax": ("VAT", "VAT Charged", "Tax Charged"),
        "total": ("Total Payable", "Grand Total", "Total Invoice Value"), "bill_to": ("Invoice Address",
                                                                                     "Account Address"),
        "ship_to": ("Delivery Point", "Deliver To"), "order": ("Order Ref", "Your Order No"),
        "terms": ("Settlement Terms", "Terms"), "rep": ("Area Rep", "Rep"), "via": ("Carrier", "Despatch Method"),
        "code": ("Stock Code", "Product Code", "Cat. No."), "description": ("Product Description", "Description"),
        "quantity": ("Qty Supplied", "Qty", "Supplied"), "unit_price": ("Trade Price", "Unit Price", "Price"),
        "amount": ("Value", "Net Value", "Goods Value"), "line_no": ("Ln", "No"), "unit": ("Pack", "Unit"),
        "ordered": ("Qty Ordered", "Ordered"), "backorder": ("To Follow", "O/S"), "discount": ("Disc", "Disc %"),
        "vat_code": ("VAT", "V/C"), "vat_rate": ("VAT Rate", "Rate"),
    },
}

# Labels any system may print in its header or foot.
COMMON = {"page": ("Page",), "currency": ("Currency",), "country": ("Country",), "vat_reg": ("VAT Reg. No.",),
          "continued": ("Continued on next page", "Continued...", "continued overleaf",
                                            "*** CONTINUED ***", "Carried forward to page {next}"),
          "thanks": ("Thank you for your business.", "Thank you for your order!", "We appreciate your business.",
                     "Thank you", "Goods remain our property until paid for in full.")}

# How each system draws: (header styles, totals styles, table styles, code placements, fonts, page labels)
PLANS = {
    "desk": (("desk",), ("stack", "box"), ("grid", "lines"), ("column",), ("Helvetica", "Sans", "Times"),
             ("Page {n}", "Page {n} of {m}")),
    "online": (("modern", "banner"), ("stack", "band"), ("bar", "light", "bare"), ("column", "above", "bracket"),
               ("Sans", "Helvetica", "Serif"), ("Page {n} of {m}", "{n} / {m}", "Page {n}/{m}")),
    "cloud": (("ledger",), ("stack",), ("light", "bare"), ("column", "bracket"), ("Helvetica", "Sans"),
              ("Page {n} of {m}", "{n} of {m}")),
    "accounts": (("forms",), ("box", "strip"), ("boxcols", "grid"), ("column",), ("Helvetica", "Times", "Sans"),
                 ("Page {n}", "Page {n} of {m}", "Page No. {n}")),
    "suite": (("erp", "ledger"), ("stack", "strip"), ("lines", "light", "shade"), ("column", "bracket", "above"),
              ("Sans", "Helvetica", "Serif"), ("Page {n} of {m}", "Page {n}/{m}", "{n}/{m}")),
    "template": (("centred",), ("stack", "table"), ("grid", "zebra"), ("column",), ("Times", "Serif", "Helvetica"),
                 ("Page {n} of {m}", "- {n} -", "Page {n}")),
    "matrix": (("typed",), ("typed",), ("typed",), ("column",), ("Courier", "Mono"),
               ("PAGE {n}", "PAGE {n} OF {m}", "PG {n}/{m}")),
    "wide": (("wide",), ("strip", "stack"), ("shade", "lines", "zebra"), ("column",), ("Helvetica", "Sans"),
             ("Page {n} of {m}", "Sheet {n} of {m}")),
}

# Optional columns per system, each with the chance it is printed.
UNITS = {"desk": ("ea", "each"), "accounts": ("Each", "Pcs"), "suite": ("Each", "PCS", "EA"),
         "matrix": ("EA", "PK"), "wide": ("Single", "EA", "1")}

# Seller letterheads by currency: (name, street, town, country, tax rates that may apply, phone prefix)
SELLERS = {
    "GBP": (("Brackenfield Homewares Ltd", "14 Tanner Row", "York YO1 6JB", "United Kingdom", "+44 1904"),
            ("Pemberton & Lowe Wholesale", "Unit 7, Riverside Park", "Bristol BS2 0JA", "United Kingdom",
             "+44 117"),
            ("Little Owl Gift Company", "3 Castle Mews", "Ludlow SY8 1AX", "United Kingdom", "+44 1584"),
            ("Harrow Lane Trading", "221 Harrow Lane", "Sheffield S11 8YT", "United Kingdom", "+44 114")),
    "EUR": (("Lindqvist Interieur B.V.", "Keizersgracht 418", "1016 GC Amsterdam", "Netherlands", "+31 20"),
            ("Maison Berthier SARL", "12 rue des Tanneurs", "69002 Lyon", "France", "+33 4"),
            ("Kaufhaus Ostwind GmbH", "Hafenstrasse 31", "20457 Hamburg", "Germany", "+49 40"),
            ("Clonmore Crafts Ltd", "Unit 2, Docklands Business Park", "Cork T12 X8N2", "Ireland", "+353 21")),
    "USD": (("Copperline Supply Co.", "850 W Randolph St", "Chicago, IL 60607", "United States", "+1 312"),
            ("Harbor & Pine Goods LLC", "1200 Alaskan Way, Suite 310", "Seattle, WA 98101", "United States",
             "+1 206"),
            ("Blue Ridge Mercantile Inc.", "44 Market Street", "Asheville, NC 28801", "United States", "+1 828")),
}
# Tax rates by seller country (as Decimal strings; those of December 2010)
RATES = {"United Kingdom": "0.175", "Netherlands": "0.19", "France": "0.196", "Germany": "0.19", "Ireland": "0.21",
         "United States": ("0.0925", "0.095", "0.0675")}

BUYERS = ("Kestrel Home Store", "The Gift Loft", "Marigold & Co", "Vintage Attic", "Cornflower Interiors",
          "Bramble Lane Shop", "Lantern House", "Atelier Rousseau", "Nordlicht Deko", "The Paper Swan",
          "Oak & Thistle", "Hollybush Crafts", "Seaside Curiosities", "Harlequin Toys", "Maple Leaf Boutique")
STREETS = (("18 Church Street", "Unit 4"), ("Rosenweg 7", "Hinterhaus"), ("92 Quay Road", ""),
           ("5 Market Place", "Ground Floor"), ("Av. Louise 140", ""), ("27 Station Approach", ""))
TOWNS = ("Harrogate", "Lille", "Bergen", "Galway", "Utrecht", "Perth", "Freiburg", "Norwich")

NOTES = {
    "terms": ("Net 30", "Net 15", "Due on receipt", "30 days", "14 days net", "2% 10, Net 30", "30 days EOM"),
    "bank": {"GBP": ("Bank: {bank} - Sort code 60-16-13 - Account 31926819", "IBAN {iban} - BIC {bic}",
                     "Please pay by BACS quoting the invoice number."),
             "EUR": ("IBAN {iban} - BIC {bic}", "Please pay by bank transfer quoting the document number.",
                     "Bank transfer to {bank}, IBAN {iban}"),
             "USD": ("ACH routing 071000013, account 8825510", "Make checks payable to {name}.",
                     "Wire: {bank}, ABA 026009593, acct 4471 0093 2210")},
    "currency": ("All amounts are in {code}.", "Amounts shown in {code}", "Prices quoted in {code}",
                 "Invoiced in {code}"),
    "reg": {"United Kingdom": ("Registered in England and Wales No. {reg}", "Company No. {reg} | VAT No. {vat}"),
            "Netherlands": ("KvK {reg} - BTW {vat}", "{name} - {street} - {town}"),
            "Germany": ("Amtsgericht Hamburg HRB {reg} - USt-IdNr. {vat}", "{name} - {street} - {town}"),
            "France": ("SIRET {reg} - TVA {vat}", "{name} - {street} - {town}"),
            "Ireland": ("Registered in Ireland No. {reg} - VAT {vat}", "{name} - {street} - {town}"),
            "United States": ("{name} - {street} - {town}", "EIN {vat}")},
    "ship": ("UPS Ground", "Royal Mail", "Own van", "DHL Freight", "Courier", "Collected"),
}
