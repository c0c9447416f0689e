"""What held-i prints in words and formats: the wordings of five kinds of online invoicing template and the
locales their users invoice from.

The templates imitate what small-business invoicing and accounting apps print out of the box:

- ``banner``: a wide coloured band across the top with the title in white (the look of Wave's and Zoho's
  "modern" templates), items listed under "Items" with each item's description in small grey type beneath it.
- ``ledger``: QuickBooks Online's standard form: a coloured title, "Bill To" on the left and the invoice details
  on the right, separate "Product/Service" and "Description" columns, "Rate" and a "Balance Due" line; its
  wordings as written or all in capitals (BILL TO, DUE DATE, QTY), the two looks that template offers.
- ``grid``: FreshBooks' layout: the details as a grid of small grey labels each over its value, a large
  "Amount Due (USD)" figure, and "Line Total" as the last column.
- ``tax``: Xero's standard layout: "TAX INVOICE" in large type, the details as label-over-value lines beside the
  seller's address, a tax-rate column and amounts headed with the currency code ("Amount GBP").
- ``zoho``: Zoho Invoice's and Sage's: a line counter, "Item & Description" in one column, a shaded
  "Balance Due" box under the title.

The locales are the places such apps' users bill from, each with the tax its small businesses charge (or none,
for a seller under the registration threshold or selling out of state), its paper, number and date formats.
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["LOCALES", "PRODUCTS", "SELLERS"]

# Per product: each wording's choices. "{code}" is the currency code, "{rate}" the tax rate, "{tax}" the tax name.
PRODUCTS: dict[str, dict[str, tuple[str, ...]]] = {
    "banner": {
        "title": ("INVOICE", "Invoice"), "credit_title": ("CREDIT NOTE", "Credit Note"),
        "invoice_number": ("Invoice Number", "Invoice #"), "credit_number": ("Credit Note Number", "Credit Note #"),
        "invoice_date": ("Invoice Date", "Date"), "customer_id": ("Customer ID", "Account No."),
        "country": ("Country",), "due_date": ("Payment Due", "Due Date"),
        "subtotal": ("Subtotal",), "tax": ("{tax} {rate}",), "total": ("Total",),
        "due": ("Amount Due ({code})", "Balance Due ({code})"), "credit_due": ("Credit Amount ({code})",),
        "code": ("Items", "Item"), "quantity": ("Quantity", "Qty"), "unit_price": ("Price",),
        "amount": ("Amount",),
    },
    "ledger": {  # printed as written or all in capitals, as QuickBooks' templates offer
        "title": ("Invoice",), "credit_title": ("Credit Memo",),
        "invoice_number": ("Invoice #", "Invoice no."), "credit_number": ("Credit #", "Credit Memo no."),
        "invoice_date": ("Date", "Invoice date"), "customer_id": ("Customer ID", "Account No."),
        "country": ("Country",), "due_date": ("Due date",),
        "subtotal": ("Subtotal",), "tax": ("{tax} ({rate})", "Tax ({rate})"), "total": ("Total",),
        "due": ("Balance due",), "credit_due": ("Total credit",),
        "code": ("Product/Service", "SKU"), "description": ("Description",),
        "quantity": ("Qty",), "unit_price": ("Rate",), "amount": ("Amount",),
    },
    "grid": {
        "title": ("Invoice",), "credit_title": ("Credit Note",),
        "invoice_number": ("Invoice Number",), "credit_number": ("Credit Note Number",),
        "invoice_date": ("Date of Issue",), "customer_id": ("Client #", "Client ID"),
        "country": ("Billed To",), "due_date": ("Due Date",),
        "subtotal": ("Subtotal",), "tax": ("{tax} ({rate})", "Tax ({rate})"), "total": ("Total",),
        "due": ("Amount Due ({code})",), "credit_due": ("Credit ({code})", "Amount Credited ({code})"),
        "code": ("Item",), "description": ("Description",), "quantity": ("Qty", "Hours/Qty"),
        "unit_price": ("Rate", "Unit Cost"), "amount": ("Line Total",),
    },
    "tax": {
        "title": ("TAX INVOICE", "INVOICE"), "credit_title": ("CREDIT NOTE",),
        "invoice_number": ("Invoice Number",), "credit_number": ("Credit Note Number",),
        "invoice_date": ("Invoice Date",), "customer_id": ("Account Number", "Customer Code"),
        "country": ("Country",), "due_date": ("Due Date",),
        "subtotal": ("Subtotal",), "tax": ("TOTAL {tax} {rate}", "Total {tax} {rate}"), "total": ("TOTAL {code}",),
        "due": ("AMOUNT DUE {code}", "Amount Due {code}"), "credit_due": ("CREDIT REMAINING {code}",),
        "code": ("Item", "Item Code"), "description": ("Description",), "quantity": ("Quantity",),
        "unit_price": ("Unit Price",), "amount": ("Amount {code}",), "vat_rate": ("{tax}",),
    },
    "zoho": {
        "title": ("INVOICE", "Invoice"), "credit_title": ("CREDIT NOTE", "Credit Note"),
        "invoice_number": ("Invoice#", "# INV"), "credit_number": ("Credit Note#", "# CN"),
        "invoice_date": ("Invoice Date", "Date"), "customer_id": ("Customer ID", "Customer No."),
        "country": ("Country",), "due_date": ("Due Date",),
        "subtotal": ("Sub Total", "Subtotal"), "tax": ("{tax} ({rate})", "{tax} {rate}"), "total": ("Total",),
        "due": ("Balance Due",), "credit_due": ("Credits Remaining", "Credit Balance"),
        "code": ("Item & Description",), "line_no": ("#",), "quantity": ("Qty", "Quantity"),
        "unit_price": ("Rate",), "amount": ("Amount",),
    },
}

# A locale: the currency and its marks, the paper, the number and date formats, and the taxes charged there
# (name, rates; a rate of None is a seller who charges none).
LOCALES: dict[str, dict] = {
    "US": {"currency": "USD", "marks": ("$",), "page": "Letter", "numbers": ((",", "."),),
           "dates": ("i:Mon d, Y", "i:mm/dd/Y", "Y-m-d"), "tax": ("Sales Tax", "Tax"),
           "rates": (None, Decimal("0.08875"), Decimal("0.0725"), Decimal("0.0825"), Decimal("0.1025"))},
    "UK": {"currency": "GBP", "marks": ("£",), "page": "A4", "numbers": ((",", "."),),
           "dates": ("i:dd Mon Y", "d Mon Y", "i:dd/mm/Y"), "tax": ("VAT",),
           "rates": (None, Decimal("0.20"), Decimal("0.20"))},
    "AU": {"currency": "AUD", "marks": ("$", "A$"), "page": "A4", "numbers": ((",", "."),),
           "dates": ("i:dd/mm/Y", "i:dd Mon Y", "d Mon Y"), "tax": ("GST",), "rates": (Decimal("0.10"),),
           "title": "Tax Invoice"},
    "NZ": {"currency": "NZD", "marks": ("$", "NZ$"), "page": "A4", "numbers": ((",", "."),),
           "dates": ("i:dd/mm/Y", "i:dd Mon Y"), "tax": ("GST",), "rates": (Decimal("0.15"),),
           "title": "Tax Invoice"},
    "CA": {"currency": "CAD", "marks": ("$", "CA$"), "page": "Letter", "numbers": ((",", "."),),
           "dates": ("Y-m-d", "i:Mon d, Y"), "tax": ("HST",), "rates": (Decimal("0.13"), Decimal("0.13"), None)},
    "IE": {"currency": "EUR", "marks": ("€",), "page": "A4", "numbers": ((",", "."),),
           "dates": ("i:dd/mm/Y", "i:dd Mon Y"), "tax": ("VAT",), "rates": (Decimal("0.23"),)},
    "DE": {"currency": "EUR", "marks": ("€",), "page": "A4", "numbers": ((".", ","),), "after": True,
           "dates": ("dd.mm.Y",), "tax": ("VAT", "USt."), "rates": (Decimal("0.19"),)},
    "NL": {"currency": "EUR", "marks": ("€",), "page": "A4", "numbers": ((".", ","),),
           "dates": ("i:dd-mm-Y", "i:dd Mon Y"), "tax": ("VAT", "BTW"), "rates": (Decimal("0.21"),)},
}

# Small businesses using such apps, per locale: name, street, town, and the registration line printed under them.
SELLERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "US": (("Bright Harbor Home Goods LLC", "418 Water Street, Suite 2", "Portland, OR 97209", "EIN 93-{n7}"),
           ("Maple & Twine Studio", "77 Orchard Avenue", "Brooklyn, NY 11215", "Resale Cert. NY-{n7}"),
           ("Copperleaf Trading Co.", "1200 Mission Street", "San Francisco, CA 94103", "Seller's Permit {n7}")),
    "UK": (("Little Wren Gifts Ltd", "14 Abbey Road", "Bath BA1 2JH", "VAT Reg. No. GB {n9}"),
           ("Northgate Craft Supplies", "Unit 6, Riverside Works", "Sheffield S3 8EN", "Company No. {n7}")),
    "AU": (("Saltbush Homewares Pty Ltd", "22 Chapel Street", "Windsor VIC 3181", "ABN {n2} {n3} {n3} {n3}"),
           ("Paperbark & Co", "5/61 Oxford Street", "Paddington NSW 2021", "ABN {n2} {n3} {n3} {n3}")),
    "NZ": (("Kowhai Lane Trading Ltd", "38 Ponsonby Road", "Auckland 1011", "GST No. {n9}"),),
    "CA": (("Birchwood Mercantile Inc.", "250 King Street West", "Toronto, ON M5V 1J2", "HST # {n9} RT0001"),),
    "IE": (("Ferncliff Interiors Ltd", "9 Merchants Quay", "Dublin 8, D08 X2Y3", "VAT No. IE {n7}W"),),
    "DE": (("Lindenhof Wohnideen GmbH", "Bergmannstraße 41", "10961 Berlin", "USt-IdNr. DE{n9}"),),
    "NL": (("Tulpenhuis Interieur B.V.", "Prinsengracht 212", "1016 HD Amsterdam", "BTW NL{n9}B01"),),
}

# What a product prints about paying, keyed by locale (noise around the values, as these apps print it).
PAYMENT = {
    "US": ("Pay online at the link in your email, or mail a check to the address above.",
           "ACH: Routing 0260{n5} Account 48{n7}"),
    "UK": ("Please pay by bank transfer quoting the invoice number.", "Sort code 40-{n2}-{n2b}  Account {n8}"),
    "AU": ("Payment by EFT within the terms below.", "BSB 062-{n3}  Account 10{n7}"),
    "NZ": ("Please pay by internet banking.", "Account 12-3{n3}-0{n6}-00"),
    "CA": ("Pay by Interac e-Transfer or cheque.", "Transit {n5}  Institution 004  Account {n7}"),
    "IE": ("Please pay by SEPA transfer.", "IBAN IE29 AIBK 9311 52{n8}"),
    "DE": ("Please pay by bank transfer.", "IBAN DE89 3704 0044 05{n8}"),
    "NL": ("Please pay by bank transfer.", "IBAN NL91 ABNA 04{n8}"),
}
NOTES = ("Thank you for your business!", "Thanks for shopping with us.", "We appreciate your prompt payment.",
         "Questions about this invoice? Reply to the email it came with.", "Goods remain our property until paid.")
TERMS = {14: ("Net 14", "Due in 14 days"), 15: ("Net 15",), 21: ("Net 21", "Due in 21 days"), 28: ("Net 28",)}
PAGE_LABELS = ("Page {n} of {m}", "{n} of {m}", "Page {n}/{m}")
CONTINUED = ("Continued on page {next}", "Continued on next page", "Items continue on the next page")
RUNNING = ("{title} {number} (continued)", "{title} #{number}", "{number}  {title}")
ACCENTS = ((0.13, 0.36, 0.62), (0.10, 0.52, 0.45), (0.40, 0.22, 0.55), (0.80, 0.33, 0.10), (0.18, 0.20, 0.25))
