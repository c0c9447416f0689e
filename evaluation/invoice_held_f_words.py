"""HELD-ASIDE FAMILY "held-f": the wordings, sellers, buyers and printed forms of the sixth held-aside family,
written apart from the reader; not to be read while developing it (nor the other ``evaluation.invoice_held_f*``
modules, the family's generated files or its per-file scores).

:data:`KITS` holds, for each kind of software the family imitates, the wordings it may print for each title, label
and column heading. :data:`SELLERS` are the businesses printing them (with their country's tax), :data:`DATES` the
date forms (each with the ``strptime`` pattern that reads it back), :data:`PAGE_LABELS`, :data:`CONTINUED` and
:data:`RUNNING` what a page of a long invoice says about itself.

>>> sorted(KITS) == sorted(PLANS)
True
>>> DATES["mon-d-y"][0].format(**date_parts(dt.date(2010, 12, 1)))
'Dec 1, 2010'
"""

from __future__ import annotations

import datetime as dt

__all__ = ["CONTINUED", "DATES", "KITS", "MONTHS", "PAGE_LABELS", "PLANS", "RUNNING", "SELLERS", "TAXES", "TOWNS",
           "date_parts", "tax_labels"]

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# Date forms: name -> (format, strptime pattern). None of them can be read two ways.
DATES = {
    "d-month-y": ("{d} {Month} {Y}", "%d %B %Y"),
    "mon-d-y": ("{Mon} {d}, {Y}", "%b %d, %Y"),
    "month-d-y": ("{Month} {d}, {Y}", "%B %d, %Y"),
    "dd-mon-y": ("{dd}-{Mon}-{Y}", "%d-%b-%Y"),
    "day-d-mon-y": ("{Dy}, {d} {Mon} {Y}", "%a, %d %b %Y"),
    "iso": ("{Y}-{mm}-{dd}", "%Y-%m-%d"),
    "d-mon-y": ("{d} {Mon} {Y}", "%d %b %Y"),
    "mon-dd-y": ("{Mon} {dd} {Y}", "%b %d %Y"),
}


def date_parts(value: dt.date) -> dict[str, str]:
    """The pieces the date forms are made of."""
    month = MONTHS[value.month - 1]
    return {"d": str(value.day), "dd": f"{value.day:02d}", "mm": f"{value.month:02d}", "Y": str(value.year),
            "Month": month, "Mon": month[:3], "Dy": DAYS[value.weekday()][:3]}


# Sellers: (name, street, town, country, currency, taxes they may charge, registration line, phone, e-mail/web).
SELLERS = (
    ("Brambleworth Home & Gift Ltd", "14 Ferrier Street", "Kendal LA9 6QE", "UK", "GBP", ("vat20",),
     "VAT Reg. No. GB 284 6613 07", "01539 742 118", "accounts@brambleworth.co.uk"),
    ("Little Wren Studio", "Unit 3, The Maltings, Station Road", "Bury St Edmunds IP33 1XA", "UK", "GBP",
     ("vat20", None), "VAT No. GB 731 0094 52", "01284 660 275", "hello@littlewrenstudio.co.uk"),
    ("Harbourside Print & Post", "27 Quay Hill", "Falmouth TR11 3HF", "UK", "GBP", ("vat20", None),
     "Company No. 08461273", "01326 311 904", "www.harbourside-print.co.uk"),
    ("Tallis & Crane Supplies", "Block C, Liffey Valley Business Park", "Dublin 22", "IE", "EUR",
     ("vat21",), "VAT No. IE 6388112W", "+353 1 620 4471", "orders@talliscrane.ie"),
    ("Corrib Craft Company", "5 Dominick Street Lower", "Galway H91 X2P4", "IE", "EUR", ("vat21", None),
     "VAT Reg IE 9817450T", "+353 91 564 220", "www.corribcraft.ie"),
    ("Mapleleaf Party Goods Inc.", "880 Wellington Street", "Ottawa ON K1R 5V7", "CA", "USD",
     (None,), "GST/HST No. 81429 6607 RT0001", "(613) 555-0144", "billing@mapleleafparty.ca"),
    ("Gum Tree Homewares Pty Ltd", "42 Clarence Street", "Sydney NSW 2000", "AU", "USD", (None,),
     "ABN 53 614 208 977", "(02) 9188 4630", "accounts@gumtreehomewares.com.au"),
    ("Lakeshore Gift Wholesale LLC", "2150 N Clybourn Ave", "Chicago, IL 60614", "US", "USD",
     (None,), "Federal Tax ID 36-4418207", "(312) 555-0187", "ar@lakeshoregift.com"),
    ("Blue Mesa Trading Co.", "415 Agua Fria St", "Santa Fe, NM 87501", "US", "USD", (None,),
     "Resale Cert. No. 03-118822-00-4", "(505) 555-0132", "www.bluemesatrading.com"),
    ("Penwith Candle Works", "Trewellard Industrial Units", "Penzance TR19 7TQ", "UK", "EUR", (None,),
     "Registered in England No. 06690152", "01736 788 250", "sales@penwithcandles.co.uk"),
    ("Kinsale Linen House", "Market Quay", "Kinsale, Co. Cork P17 DW25", "IE", "GBP", (None,),
     "CRO No. 558214", "+353 21 477 3390", "www.kinsalelinen.ie"),
)
# Taxes: key -> (name, rate as a fraction).
# The sellers outside the UK and Ireland ship abroad (the records' buyers are in Europe and Australia) and charge
# no tax; the two VAT rates are those of December 2010's invoices (Ireland's standard rate was 21% then).
TAXES = {"vat20": ("VAT", "0.20"), "vat21": ("VAT", "0.21")}
TAX_FORMS = ("{tax} @ {rate}", "{tax} ({rate})", "{tax} {rate}", "Total {tax}", "{tax}", "Plus {tax} at {rate}")


def _rate(fraction: str) -> str:
    pct = f"{float(fraction) * 100:.2f}".rstrip("0").rstrip(".")
    return f"{pct}%"


def tax_labels(key: str) -> list[str]:
    """Every label the tax ``key`` can be printed under (rate included where the form names it)."""
    name, rate = TAXES[key]
    return [form.format(tax=name, rate=_rate(rate)) for form in TAX_FORMS]


# Where the buyer lives, by the records' countries: (street, town) pairs; the country line is the record's own.
TOWNS = {
    "United Kingdom": (("8 Carlton Mews", "Harrogate HG1 2BN"), ("Flat 2, 61 Gloucester Road", "Bristol BS7 8AD"),
                       ("The Coach House, Mill Lane", "Ludlow SY8 1BB"), ("119 High Street", "Whitstable CT5 1AY")),
    "France": (("12 rue des Lilas", "69003 Lyon"), ("4 avenue Jean Jaures", "33000 Bordeaux")),
    "Germany": (("Lindenstrasse 22", "50674 Koeln"), ("Am Markt 5", "04109 Leipzig")),
    "Netherlands": (("Prinsengracht 311", "1016 GX Amsterdam"), ("Oudegracht 88", "3511 AR Utrecht")),
    "Norway": (("Storgata 14", "0184 Oslo"), ("Bryggen 7", "5003 Bergen")),
    "EIRE": (("Unit 6, Ballymount Road", "Dublin 12"), ("22 Main Street", "Westport, Co. Mayo")),
    "Australia": (("17 Brunswick Street", "Fitzroy VIC 3065"), ("3/88 Oxford Street", "Paddington NSW 2021")),
}
BUYERS = ("Willow & Thistle", "The Paper Lantern", "Nook Interiors", "Fennel Street Deli", "Hollyhock Florist",
          "Magpie Emporium", "Quayside Gifts", "Saltmarsh Trading", "Button & Bow", "Clover Lane Crafts",
          "The Olive Branch Shop", "Pebble & Pine")

# Wordings of each kit (kind of software). Every list gives the choices for one title, label or heading.
KITS = {
    "storefront": {  # an online shop's order system
        "title": ("Invoice", "Order invoice", "Web order invoice"),
        "credit_title": ("Refund receipt", "Refund note", "Order refund"),
        "invoice_number": ("Invoice ID", "Invoice ref.", "Invoice reference"),
        "credit_number": ("Refund ID", "Refund no.", "Refund reference"),
        "invoice_date": ("Date issued", "Invoice issued", "Issued on"),
        "customer_id": ("Customer ID", "Account ID", "Shopper no."),
        "order": ("Order #", "Order number", "Web order ref."),
        "bill_to": ("Billing address", "Billing details", "Bill to"),
        "ship_to": ("Shipping address", "Delivery address"),
        "subtotal": ("Items subtotal", "Order subtotal", "Merchandise total"),
        "shipping": ("Shipping", "Postage & packing", "Delivery"),
        "total": ("Order total", "Total to pay", "Total charged"),
        "code": ("Item code", "Product ref.", "SKU"),
        "code_prefix": ("SKU:", "Item code:", "Ref:"),
        "description": ("Product name", "Product", "Item"),
        "quantity": ("Qty ordered", "Qty", "Quantity"),
        "unit_price": ("Item price", "Price", "Price per item"),
        "amount": ("Row total", "Line price", "Total"),
        "line_no": ("Line #",),
        "uom": ("Pack",),
        "weight": ("Weight",),
    },
    "app": {  # an online invoicing and bookkeeping service
        "title": ("Invoice", "INVOICE", "Tax Invoice"),
        "credit_title": ("Credit Note", "CREDIT NOTE", "Credit Adjustment Note"),
        "invoice_number": ("Inv #", "Invoice Number", "Inv. No."),
        "credit_number": ("Credit Note Number", "Credit #", "Credit Note Ref"),
        "invoice_date": ("Invoice Date", "Date Issued", "Billing Date"),
        "customer_id": ("Client No.", "Account Number", "Client Code", "Customer ID"),
        "due": ("Due Date", "Payment Due By"),
        "terms": ("Terms",),
        "bill_to": ("Bill To", "Billed To", "Invoice To"),
        "subtotal": ("Subtotal", "Sub Total", "Total Net"),
        "total": ("Total", "Amount Due", "Total Due", "Balance Owing"),
        "code": ("Item Code", "Item", "Code"),
        "code_prefix": ("Item:", "Code:"),
        "description": ("Description", "Details", "Activity"),
        "quantity": ("Qty", "Quantity", "Hrs/Qty"),
        "unit_price": ("Rate", "Unit Price", "Price"),
        "amount": ("Amount", "Line Total", "Amt"),
        "disc": ("Disc.", "Discount %"),
        "tax_flag": ("Taxable", "Tax?"),
    },
    "office": {  # a desktop accounts package printing on its own boxed form
        "title": ("INVOICE", "Sales Invoice", "VAT Invoice"),
        "credit_title": ("CREDIT NOTE", "VAT Credit Note", "Sales Credit"),
        "invoice_number": ("Invoice No.", "Inv. Ref.", "Invoice/Doc No."),
        "credit_number": ("Credit No.", "Cr. Note No.", "Credit Ref."),
        "invoice_date": ("Invoice/Tax Date", "Date/Tax Point", "Invoice Date"),
        "customer_id": ("A/C Ref", "Account Ref.", "Cust. A/C"),
        "order": ("Customer Order No.", "Your Order No."),
        "bill_to": ("Invoice Address", "Invoice To"),
        "ship_to": ("Delivery Address", "Goods Delivered To"),
        "subtotal": ("Total Net Amount", "Goods Total", "Net Total"),
        "carriage": ("Carriage", "Carriage Net"),
        "total": ("Invoice Total", "Total Amount", "Total Payable"),
        "code": ("Product Code", "Stock Ref.", "Part No."),
        "description": ("Description", "Product Details"),
        "quantity": ("Quantity", "Qty Desp."),
        "unit_price": ("Unit Price", "Price (each)", "Unit Cost"),
        "amount": ("Net Amount", "Net", "Goods Value"),
        "disc": ("Disc %", "Discount"),
        "uom": ("U.O.M.", "Unit"),
    },
    "trade": {  # a wholesaler's distribution system, often on landscape paper
        "title": ("Trade Invoice", "INVOICE", "Wholesale Invoice"),
        "credit_title": ("Trade Credit Note", "CREDIT NOTE", "Returns Credit"),
        "invoice_number": ("Invoice No.", "Invoice Ref", "Doc. No."),
        "credit_number": ("Credit Note No.", "Returns Ref", "Credit Doc. No."),
        "invoice_date": ("Invoice Date", "Doc. Date", "Date Invoiced"),
        "customer_id": ("Account No.", "Trade A/C", "Stockist No."),
        "order": ("Delivery Note", "Pick List No."),
        "rep": ("Rep", "Sales Rep"),
        "bill_to": ("Invoice To", "Account Address"),
        "ship_to": ("Deliver To", "Delivery Point"),
        "subtotal": ("Goods Value", "Nett Goods", "Total Goods"),
        "total": ("Total Due", "Invoice Value", "Amount Payable"),
        "code": ("Stock No.", "Item No", "Product No."),
        "description": ("Product Description", "Description", "Item Description"),
        "quantity": ("Qty Inv.", "Invoiced", "Qty"),
        "unit_price": ("Trade Price", "Unit Trade", "Price Ea."),
        "amount": ("Nett Value", "Value", "Line Value"),
        "line_no": ("Ln", "Seq", "Line"),
        "ean": ("EAN", "Barcode", "EAN-13"),
        "origin": ("C/O", "Origin"),
        "uom": ("UOM", "Unit"),
        "rrp": ("RRP", "Retail Price"),
        "weight": ("Wt (kg)", "Unit Wt kg"),
        "disc": ("Disc.", "Disc %"),
    },
    "service": {  # a word-processor or spreadsheet template kept by a small business
        "title": ("INVOICE", "Invoice", "Bill"),
        "credit_title": ("CREDIT", "Credit Note", "Refund Invoice"),
        "invoice_number": ("Invoice #", "Invoice Number", "No."),
        "credit_number": ("Credit #", "Credit Number", "Ref. No."),
        "invoice_date": ("Date", "Invoice Date", "Date of Invoice"),
        "customer_id": ("Client ID", "Client #", "Customer #"),
        "bill_to": ("Bill To", "Client", "Prepared For"),
        "subtotal": ("Subtotal", "Sub-total", "Total Before Tax"),
        "total": ("Total", "Total Due", "Please Pay", "Amount Due"),
        "code": ("Item #", "Ref", "Product #"),
        "description": ("Description", "Description of Goods/Services", "Item / Service"),
        "quantity": ("Qty", "Units", "Qty/Hours"),
        "unit_price": ("Unit Price", "Rate", "Price/Unit"),
        "amount": ("Total", "Amount", "Line Total"),
    },
    "till": {  # a shop's point-of-sale system printing a full invoice on a small page
        "title": ("Sales Receipt / Invoice", "INVOICE", "Till Invoice"),
        "credit_title": ("Refund", "RETURN / REFUND", "Refund Receipt"),
        "invoice_number": ("Receipt No.", "Trans. No.", "Invoice No."),
        "credit_number": ("Refund No.", "Return No.", "Trans. No."),
        "invoice_date": ("Date", "Sale Date", "Trans. Date"),
        "customer_id": ("Loyalty No.", "Member No.", "Cust. No."),
        "bill_to": ("Sold To", "Customer"),
        "subtotal": ("Sub Total", "Goods", "Items Total"),
        "total": ("TOTAL", "Total", "Balance to Pay"),
        "code": ("PLU", "Code", "Item"),
        "description": ("Item", "Description", "Article"),
        "quantity": ("Qty", "Units"),
        "unit_price": ("@", "Each", "Price"),
        "amount": ("Amount", "Amt", "Value"),
    },
}
# Words every kit may print: the currency field and note, the paid and balance lines of a paid web order.
COMMON = {"currency": ("Currency", "Billing currency"), "paid": ("Paid by card", "Payment received"),
          "balance": ("Balance", "Left to pay")}

# The plan of each kit: (header arrangements, table styles, totals styles, pages, faces, sizes).
PLANS = {
    "storefront": (("banner", "letterhead", "centred"), ("shade-head", "rules", "stripes", "open"),
                   ("stack", "inline", "boxed"), ("A4", "Letter", "A5"), ("helv", "vera"), (8.0, 8.5, 9.0, 9.5)),
    "app": (("banner", "letterhead", "memo"), ("shade-head", "rules", "open", "caps"), ("stack", "boxed", "band"),
            ("A4", "Letter"), ("vera", "helv", "times"), (8.5, 9.0, 9.5, 10.0)),
    "office": (("form",), ("grid", "columns"), ("boxed", "form"), ("A4", "Letter"), ("helv", "courier", "times"),
               (8.0, 8.5, 9.0)),
    "trade": (("form", "letterhead", "banner"), ("grid", "rules", "stripes", "caps", "columns"),
              ("stack", "boxed", "form"), ("A4-land", "Letter-land", "A4", "Letter-land"), ("helv", "vera", "times"),
              (7.0, 7.5, 8.0)),
    "service": (("memo", "letterhead", "centred"), ("grid", "rules", "open", "stripes"), ("inline", "stack", "band"),
                ("A4", "Letter"), ("times", "helv", "vera"), (9.0, 9.5, 10.0, 10.5)),
    "till": (("centred",), ("open", "dashes"), ("stack",), ("A5", "Half-letter"), ("courier", "helv"),
             (7.0, 7.5, 8.0)),
}
# Optional columns of each kit: key -> how often it is printed.
OPTIONAL = {"storefront": {"line_no": 0.25, "uom": 0.3, "weight": 0.3},
            "app": {"disc": 0.35, "tax_flag": 0.4},
            "office": {"disc": 0.6, "uom": 0.5},
            "trade": {"line_no": 0.6, "ean": 0.6, "origin": 0.4, "uom": 0.6, "rrp": 0.4, "weight": 0.4, "disc": 0.5},
            "service": {}, "till": {}}
# Column orders: the wanted five, with the optional ones placed around them.
ORDERS = {
    "storefront": (("line_no", "description", "code", "uom", "weight", "unit_price", "quantity", "amount"),
                   ("line_no", "code", "description", "weight", "quantity", "uom", "unit_price", "amount")),
    "app": (("code", "description", "quantity", "unit_price", "disc", "tax_flag", "amount"),
            ("description", "code", "unit_price", "quantity", "tax_flag", "amount"),
            ("code", "description", "unit_price", "quantity", "disc", "amount")),
    "office": (("code", "quantity", "description", "unit_price", "disc", "amount"),
               ("code", "description", "quantity", "uom", "unit_price", "disc", "amount"),
               ("quantity", "uom", "code", "description", "unit_price", "amount")),
    "trade": (("line_no", "code", "ean", "description", "origin", "weight", "quantity", "uom", "rrp", "unit_price",
               "disc", "amount"),
              ("line_no", "quantity", "uom", "code", "description", "ean", "rrp", "unit_price", "amount"),
              ("code", "description", "ean", "weight", "uom", "quantity", "unit_price", "disc", "amount")),
    "service": (("code", "description", "quantity", "unit_price", "amount"),
                ("description", "code", "quantity", "unit_price", "amount"),
                ("quantity", "code", "description", "unit_price", "amount")),
    "till": (("code", "description", "quantity", "unit_price", "amount"),
             ("description", "quantity", "unit_price", "amount", "code")),
}
PAGE_LABELS = ("Page {n} of {m}", "Page {n}/{m}", "{n} of {m}", "Pg. {n} of {m}", "Sheet {n}/{m}")
CONTINUED = ("Continued on next page", "Continues on page {next}", "(continued)", "Continued overleaf",
             "More items on page {next}")
RUNNING = ("{title} {number}, continued", "{title} {number} - page {n}", "{seller} | {title} {number}",
           "{number} cont.")
NOTES = {"currency": ("All prices are in {name} ({code}).", "Amounts shown in {code}.",
                      "Prices quoted in {name}."),
         "thanks": ("Thank you for your order!", "Thank you for shopping with us.", "Thank you for your business.",
                    "Goods remain our property until paid for in full.", "Please quote the invoice number with your "
                    "payment."),
         "terms": ("Payment due within 30 days of the invoice date.", "Terms: strictly 30 days net.",
                   "Payment on receipt, by bank transfer or card."),
         "credit": ("This credit has been applied to your account.", "Refunded to the original payment method.",
                    "Please deduct this credit from your next payment.")}
CURRENCY_NAMES = {"GBP": "pounds sterling", "EUR": "euro", "USD": "US dollars"}
