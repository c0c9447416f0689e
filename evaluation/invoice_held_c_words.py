"""HELD-ASIDE FAMILY "held-c": part of a third held-aside family, written apart from the reader; not to be read
while developing the invoice reader (nor the rest of the family, :mod:`evaluation.invoice_held_c` and
:mod:`evaluation.invoice_held_c_draw`, its generated files or its per-file scores).

The family's words: the wordings each kind of billing software ("house") prints, and the month names, date forms,
number and money conventions, notes, sellers, buyers and addresses its layouts draw from.
:mod:`evaluation.invoice_held_c` chooses among them for each layout, and its
:func:`~evaluation.invoice_held_c.held_c_vocabulary` gives every title, label and heading wording among them.

>>> len(HOUSES), set(DATE_HINTS) <= set(DATES), set(MARKS) == set(NUMBERS) == set(REGIONS)
(7, True, True)
"""

from __future__ import annotations

__all__ = ["BREAKDOWN_COLS", "BUYERS", "BUYER_TAX_IDS", "CURRENCY_WORD", "DATES", "DATE_HINTS", "FORMATS", "HOUSES",
           "MARKS", "MONTHS", "NUMBERS", "PLACES", "REGIONS", "SELLER_COUNTRY", "WALK_IN"]


def _house(text: str) -> dict[str, tuple[str, ...]]:
    """``key: a | b; key: c`` as {key: (a, b), key: (c,)}."""
    return {k.strip(): tuple(w.strip() for w in v.split("|")) for k, v in
            (part.split(":", 1) for part in text.split(";") if part.strip())}


# Each house: the wordings one kind of billing software prints, key: choices. The houses: small-business online
# invoicing (cloud), large enterprise systems' print-outs (erp), continental small-firm software printing in English
# (euro), desktop accounting forms (desk), online shops and marketplaces (shop), utility and telecom bills (bill),
# word-processor and spreadsheet templates (office). "total" is a taxed invoice's total, "total_free" an untaxed
# one's; a key a house lacks is never printed by it.
HOUSES: dict[str, dict[str, tuple[str, ...]]] = {name: _house(text) for name, text in {
    "cloud": """title: Invoice | Tax Invoice; credit_title: Credit Note | Credit Memo;
invoice_number: Invoice Number | Invoice # | Invoice No. | Invoice ID;
credit_number: Credit Note Number | Credit Note # | Credit No.;
invoice_date: Invoice Date | Date of Issue | Issue Date;
customer_id: Account Number | Customer ID | Client ID | Customer #; country: Country | Place of Supply;
subtotal: Subtotal | Sub Total; tax: VAT | Total VAT; total: Total | Amount Due | Total Due;
total_free: Total | Amount Due | Balance Due; code: Item | Item Code | SKU;
description: Description | Details | Activity; quantity: Qty | Quantity; unit_price: Unit Price | Rate | Price;
amount: Amount | Line Total; line_no: #; vat_rate: VAT | Tax Rate; discount: Disc % | Discount;
bill_to: Bill To | Billed To | Invoice To; ship_to: Ship To | Deliver To; due: Due Date | Payment Due;
order: Reference | PO Number; terms: Terms; slip: Payment Advice | Remittance Advice; enclosed: Amount Enclosed;
customer: Customer;""",
    "erp": """title: Sales - Invoice | Customer Invoice | Invoice;
credit_title: Sales - Credit Memo | Customer Credit Memo | Credit Memo;
invoice_number: Document No. | Invoice No. | Billing Document; credit_number: Document No. | Credit Memo No.;
invoice_date: Posting Date | Document Date | Billing Date;
customer_id: Customer No. | Sold-to Party | Bill-to Customer No. | Payer; country: Country/Region | Ship-to Country;
subtotal: Total Net | Net Value | Total Excl. VAT; tax: VAT Amount | Output Tax;
total: Total Incl. VAT | Final Amount | Invoice Amount; total_free: Final Amount | Invoice Amount | Total Amount;
code: Material | Item No. | Part Number; description: Description | Material Description;
quantity: Billed Qty | Quantity | Invoiced Qty; unit_price: Net Price | Unit Price | Price/Unit;
amount: Net Value | Line Amount | Extended Amount; line_no: Item | Pos. | Line; unit: UoM | Unit of Measure | UM;
discount: Line Disc. %; vat_rate: VAT % | Tax Code; bill_to: Sold-to | Bill-to; ship_to: Ship-to | Ship-to Address;
due: Net Due Date | Due Date; order: Sales Order | Your Reference | Customer PO;
terms: Payment Terms | Terms of Payment; delivery: Shipment Date | Delivery Date;
via: Shipping Agent | Shipment Method; carry: Carry-over to page {next} | Transfer to page {next};
carry_in: Carry-over from page {prev} | Transfer from page {prev};""",
    "euro": """title: Invoice | Tax invoice; credit_title: Credit note | Invoice correction;
invoice_number: Invoice no. | Invoice number; credit_number: Credit note no. | Correction no.;
invoice_date: Invoice date | Date; customer_id: Customer no. | Customer number | Debtor no.;
country: Country | Place of supply; subtotal: Total net | Net amount | Subtotal (net); tax: VAT;
total: Total gross | Invoice amount | Gross amount; total_free: Invoice amount | Total amount;
code: Art. no. | Item no. | Product no.; description: Description | Item description; quantity: Qty | Quantity;
unit_price: Unit price | Single price | Price/unit; amount: Total price | Net amount | Amount (net);
line_no: Pos. | No.; unit: Unit; vat_rate: VAT rate | Tax %; discount: Discount; bill_to: Invoice address;
ship_to: Delivery address; delivery: Delivery date | Date of supply | Service date; due: Due date | Payable by;
order: Your order | Order no.; vat_id: Your VAT ID | Customer VAT no.; breakdown: VAT breakdown;
carry: Carryover to page {next} | Subtotal carried to page {next};
carry_in: Carryover from page {prev} | Subtotal from page {prev};""",
    "desk": """title: Invoice | Product Invoice | Sales Invoice; credit_title: Credit Memo | Credit Note;
invoice_number: Invoice # | Invoice No. | Invoice Number; credit_number: Credit No. | Credit #;
invoice_date: Date | Invoice Date | Invoice/Tax Date; customer_id: Customer ID | Acct # | Account No.;
country: Country; subtotal: Subtotal | Total Net Amount; tax: Total VAT Amount | VAT;
total: Invoice Total | Total Invoice Amount; total_free: Total | Balance Due | Invoice Total;
code: Item | Item ID | Product Code; description: Description | Details; quantity: Quantity | Qty | Shipped;
unit_price: Price Each | Unit Price | Rate; amount: Amount | Extension | Net; unit: U/M; discount: Disc %;
line_tax: VAT; bill_to: Bill To | Sold To; ship_to: Ship To; order: P.O. No. | Customer PO | Your Order No.;
terms: Terms | Payment Terms; rep: Rep | Sales Rep ID; via: Ship Via | Shipping Method; delivery: Ship Date;
due: Due Date; carry: Subtotal carried to page {next}; carry_in: Subtotal from page {prev};""",
    "shop": """title: Invoice | Order Invoice | Tax Invoice; credit_title: Refund Credit Note | Credit Note;
invoice_number: Invoice number | Invoice No; credit_number: Credit note number | Refund number;
invoice_date: Invoice date | Invoice/Delivery date; customer_id: Customer number | Account ID | Customer reference;
country: Shipping country; subtotal: Items subtotal | Total before VAT | Subtotal; tax: VAT | Taxes;
total: Order total | Grand total | Invoice total; total_free: Order total | Grand total;
code: SKU | Product ID | Article number; description: Product | Product name | Item; quantity: Qty | Quantity;
unit_price: Item price | Unit price | Unit price (excl. VAT); amount: Item subtotal | Total (excl. VAT) | Line total;
line_no: #; vat_rate: VAT rate; gross: Total (incl. VAT) | Gross; line_tax: VAT amount;
bill_to: Billing address | Sold to; ship_to: Shipping address | Ship to; order: Order number | Order #;
method: Payment method; via: Shipping method; breakdown: VAT summary;""",
    "bill": """title: Your bill | Your invoice | Tax invoice; credit_title: Credit note | Bill adjustment;
invoice_number: Bill number | Invoice number | Bill reference; credit_number: Credit note number | Credit number;
invoice_date: Bill date | Date of bill | Statement date; customer_id: Account number | Customer account;
country: Billing country | Country; subtotal: Total charges (excl. VAT) | Charges this period | Net charges;
tax: VAT | VAT on charges; total: Total amount due | Total to pay | Amount to pay;
total_free: Total amount due | Total to pay | Balance to pay; code: Code | Service code | Product ref;
description: Charge description | Service | Details; quantity: Units | Qty;
unit_price: Unit rate | Charge per unit | Rate; amount: Charge | Cost | Total charge; unit: Unit type;
vat_rate: VAT rate; bill_to: Account holder; due: Payment due | Pay by; period: Billing period | Bill period;
summary: Summary of charges | Your account summary | Bill summary;
items: Itemised charges | Charges in detail | Detailed charges; slip: Bank giro credit | Payment slip;
enclosed: Amount paid; customer: Account name;""",
    "office": """title: INVOICE | Sales Invoice | Service Invoice; credit_title: CREDIT NOTE | Credit Invoice;
invoice_number: INVOICE # | Invoice No: | Invoice Number; credit_number: CREDIT NOTE # | Credit No:;
invoice_date: DATE | Date of Invoice; customer_id: CUSTOMER ID | Client # | Cust. ID; country: Country;
subtotal: SUBTOTAL | Subtotal; tax: VAT | TAX; total: TOTAL | TOTAL DUE | Balance Due;
total_free: TOTAL | TOTAL DUE | Amount Due; code: ITEM # | Product # | Part #;
description: DESCRIPTION | Item Description; quantity: QTY | Quantity; unit_price: UNIT PRICE | Price | Cost;
amount: LINE TOTAL | Amount | TOTAL; line_no: No.; discount: Discount; bill_to: BILL TO | To | Customer;
ship_to: SHIP TO; order: P.O. # | Job; terms: PAYMENT TERMS | Terms; rep: SALESPERSON; via: SHIPPING METHOD;
due: DUE DATE; delivery: DELIVERY DATE;""",
}.items()}
BREAKDOWN_COLS = (("VAT rate", "Net", "VAT", "Gross"), ("Rate", "Goods", "VAT", "Total"),
                  ("Tax rate", "Net amount", "Tax amount", "Gross amount"))
CURRENCY_WORD = "Currency"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DATES = {"d Mon Y": "{d} {Mon} {Y}", "dd Mon Y": "{dd} {Mon} {Y}", "Mon d, Y": "{Mon} {d}, {Y}",
         "Month d, Y": "{Month} {d}, {Y}", "d Month Y": "{d} {Month} {Y}", "ISO": "{Y}-{mm}-{dd}",
         "dd.mm.Y": "{dd}.{mm}.{Y}", "dd-MON-yy": "{dd}-{MON}-{yy}", "dd-Mon-Y": "{dd}-{Mon}-{Y}",
         "d-Mon-yy": "{d}-{Mon}-{yy}", "mm/dd/Y": "{mm}/{dd}/{Y}"}
DATE_HINTS = {"mm/dd/Y": " (MM/DD/YYYY)"}  # a numeric form that could be read either way states its order
NUMBERS = {"GBP": ((",", "."), ("", ".")), "USD": ((",", "."),), "EUR": ((".", ","), (" ", ","), ("'", "."))}
MARKS = {"GBP": "\u00a3", "EUR": "\u20ac", "USD": "$"}
FORMATS = {
    "page_label": ("Page {n} of {m}", "Page {n}/{m}", "{n} / {m}", "Page: {n} of {m}", "Page {n}"),
    "continued": ("Continued on page {next}", "Continued on next page", "Page {next} follows", "continued ..."),
    "running": ("{title} {number} (continued)", "{title} {number} dated {date}", "{number} \u00b7 {date}",
                "Continuation \u2013 {title} {number}"),
    "tax_form": ("{label}", "{label} {rate}", "{label} @ {rate}", "{label} ({rate})", "plus {rate} {label}"),
    "code_form": ("{label} {code}", "{label} ({code})", "{label} in {code}"),
    "note": ("All amounts in {code}.", "Amounts are shown in {code}.", "Invoice currency: {code}"),
    "terms": ("Net 30", "30 days net", "Due on receipt", "14 days 2% discount, 30 days net",
              "Payable within 14 days without deduction", "Direct Debit"),
    "accents": ((0.05, 0.28, 0.52), (0.55, 0.12, 0.10), (0.10, 0.40, 0.30), (0.30, 0.30, 0.30), (0.45, 0.25, 0.55)),
}
REGIONS = {  # sellers by currency: name and address (a continental one ends with its country)
    "GBP": (("Brackenfield Gift Co. Ltd", "Unit 12, Riverside Industrial Estate", "Leeds LS10 1QP"),
            ("Hollins & Vane Ltd", "3 Albion Mews", "Bristol BS1 6QA"),
            ("Quayside Interiors Ltd", "Dock Office, 8 Quayside", "Newcastle upon Tyne NE1 3DX")),
    "EUR": (("Lindqvist Wohnaccessoires GmbH", "Speicherstra\u00dfe 21", "20457 Hamburg", "Germany"),
            ("De Vries Cadeau B.V.", "Kanaalweg 44", "3526 KM Utrecht", "Netherlands"),
            ("Maison Arlette SARL", "14 rue des Tanneurs", "67000 Strasbourg", "France")),
    "USD": (("Copper Kettle Supply Co.", "2150 Commerce Drive, Suite 300", "Columbus, OH 43219"),
            ("Bluebird Home Goods LLC", "88 Harbor Street", "Portland, ME 04101")),
}
SELLER_COUNTRY = {"Germany": ("DE", "0.19", 49), "Netherlands": ("NL", "0.21", 31), "France": ("FR", "0.20", 33)}
PLACES = {"United Kingdom": (("22 Stonegate", "York YO1 8AS"), ("Unit 5, Westgate Retail Park", "Wakefield WF2 9SH"),
                             ("41 High Street", "Totnes TQ9 5NP")),
          "EIRE": (("9 Shop Street", "Galway H91 E2W3"),), "Germany": (("Ehrenstra\u00dfe 33", "50672 K\u00f6ln"),),
          "France": (("8 rue Merci\u00e8re", "69002 Lyon"),),
          "Australia": (("Level 3, 120 Collins Street", "Melbourne VIC 3000"),),
          "Netherlands": (("Oudegracht 147", "3511 AZ Utrecht"),), "Norway": (("Kongens gate 6", "7011 Trondheim"),),
          "": (("PO Box 118", "Freeport"),)}
BUYERS = ("Wren & Willow Gifts", "The Pantry Shelf", "Harbour Lights Home Store", "Marigold Emporium",
          "Kittiwake Crafts", "Oak Apple Interiors")
WALK_IN = ("Cash sale", "Counter customer", "Guest checkout")
BUYER_TAX_IDS = {"Germany": "DE 281 447 903", "France": "FR 52 419 308 771", "Netherlands": "NL 8143.07.922 B01",
                 "EIRE": "IE 6388047V"}
