"""The wordings and formats the dev families draw from (the invoice reader may be developed against :data:`DEV`).

:data:`UNKNOWN` holds wordings the reader's vocabulary (:mod:`ingestion.invoices.vocab`) must not hold: the
``dev-d`` family prints them for about half of its labels and headings, so the reader's ways of finding a field or
a column from its values are measured on a family it was developed on. A test keeps the two apart.
"""

__all__ = ["CURRENCY_LABELS", "DEV", "DEV_FORMATS", "LEDGER", "UNKNOWN", "VARIANT_FORMATS"]

DEV = {
    "title": ("INVOICE", "Invoice", "Tax invoice", "Sales invoice"),
    "credit_title": ("Credit note", "CREDIT NOTE"),
    "invoice_number": ("Invoice No.", "Invoice #", "Inv. Number", "Document no.", "Invoice number"),
    "credit_number": ("Credit note no.", "Credit note #", "Document no."),
    "invoice_date": ("Date", "Invoice date", "Issued", "Date of invoice"),
    "customer_id": ("Customer", "Account", "Client ID", "Customer no.", "Account no."),
    "country": ("Ship to country", "Country", "Delivery country"),
    "subtotal": ("Subtotal", "Net total", "Goods", "Sub-total", "Total net"),
    "tax": ("VAT", "VAT 20%", "Tax", "VAT (20%)", "Tax @ 20%"),
    "total": ("Total", "Amount due", "Balance due", "Total due", "Invoice total"),
    # Column headings; "Pcs" and "Net" are ones a reader is less likely to know.
    "code": ("Item", "SKU", "Product code", "Code", "Stock code", "Item no."),
    "description": ("Description", "Product", "Item description", "Details"),
    "quantity": ("Qty", "Pcs", "Units", "Quantity"),
    "unit_price": ("Unit price", "Price", "Rate", "Price each"),
    "amount": ("Amount", "Net", "Line total", "Net amount"),
}
DEV_FORMATS = {
    "date_style": ("Y-m-d", "d Mon Y", "dd Month Y", "Month d, Y", "dd.mm.Y", "dd-MON-Y"),
    "numbers": ((",", "."), (".", ","), (" ", ",")),
    "page_label": ("Page {n} of {m}", "Page {n}/{m}", "{n} / {m}"),
    "continued": ("Continued on next page", "continued overleaf", "Continued..."),
    "running": ("{title} {number} (continued)", "{title} {number} - page {n}", "{number} continued"),
    "sellers": (
        ("Hartwell & Finch Gifts Ltd", "Unit 4, Mill Lane Trading Estate", "Leicester LE3 8QT"),
        ("Blue Lantern Homewares", "27 Chapel Street", "Bristol BS1 4DT"),
        ("Marlow Gift Company Ltd", "Riverside Works, Station Road", "Marlow SL7 1NX"),
        ("The Paper Swan Ltd", "3 Quayside Buildings", "Exeter EX2 4AN"),
    ),
}
# dev-d: wordings the reader does not know, and the currency's own label when a header field names it.
UNKNOWN = {
    "invoice_number": ("Our reference", "Voucher no.", "Folio"),
    "credit_number": ("Credit voucher", "Refund ref."),
    "invoice_date": ("Booked on", "Raised on", "Posting day"),
    "customer_id": ("Buyer", "Sold-to", "Debtor ref."),
    "country": ("Deliver to", "Territory", "Ship to"),  # not "Land": the country in German, Dutch and Nordic
    "subtotal": ("Wares", "Items value", "Lines"),
    "tax": ("Levy", "Duty"),
    "total": ("Remit", "Please pay", "Sum owing"),
    "code": ("Art.", "Cat. no.", "Model"),
    "description": ("Line text", "Name", "Specification"),
    "quantity": ("Taken", "Shipped", "Nos"),
    "unit_price": ("Cost", "Tariff", "Charge"),
    "amount": ("Ext.", "Extension", "Worth"),
}
CURRENCY_LABELS = ("Currency", "Invoice currency", "Billing currency")
VARIANT_FORMATS = {
    "numbers": ((",", "."), (".", ","), ("", "."), ("", ",")),
    "negative": ("parentheses", "minus after", "CR after", "minus"),
    "mark_place": ("field", "total", "before", "after"),
}
# dev-e: what a ledger-printed invoice adds around the fields a reader wants, each a value of the same type as one
# of them: a due date beside the invoice date, an order number shaped like the invoice number, a counter column
# of line numbers beside the code, a tax-rate column, and the customer's address with its country.
LEDGER = {
    "due_date": ("Due date", "Payment due", "Pay by", "Due"),
    "order_number": ("Order no.", "Your order", "PO number", "Order ref."),
    "line_no": ("#", "No.", "Line", "Pos."),
    "vat_rate": ("VAT %", "Tax rate", "Rate %"),
    "address": ("Bill to", "Invoice address", "Customer address"),
    "streets": ("14 Harbour Road", "2 Kingsway Court", "88 Rue des Lilas", "Unit 9, 301 Market Street"),
    "towns": ("Portsmouth PO1 3HT", "Leeds LS2 7EW", "75011 Paris", "Boston MA 02110"),
    # The seller's bank details, printed under the totals: an account number after a customer's label.
    "bank": ("Bank: Lloyds Bank plc  Sort code: 30-94-57  Account no.: {account}  IBAN: GB29 LOYD 3094 57{account}",
             "Pay to: Barclays, sort code 20-45-45, account {account}", "Bank details: Account {account}  "
             "BIC: NWBKGB2L"),
}
