"""The ``dev-f`` family (**erp**): invoices as accounting and ERP systems print them, drawn from a seed.

What such systems print beyond the wanted values, and how each layout draws it:

- the header as a ruled ``label | value`` table, as a row of labelled boxes (labels above their values) or as a
  ``Label: value`` block; a due date, payment terms and the customer's order reference among the fields, in any
  order; the country under its own label in about half of the layouts, and otherwise only as the last line of the
  bill-to address (an invoice without a customer is a cash sale: no customer number, the address block named so);
  a ship-to address beside the bill-to one in some layouts;
- columns beside the five wanted ones: a unit of measure (``EA``, ``PCS``), a discount of 0 %, the VAT rate, the
  line's VAT and its gross amount (when tax is charged), a line number; the code first, after the description or
  last; quantities with two decimals (``12.00``) and unit prices with four (``2.5500``) in some layouts;
- a grid ruled round every cell, rules under each row, or none;
- running sums at page breaks in some layouts: "Carried forward" under the last row of each page but the last and
  "Brought forward" under the headings of each later page, in the amount column;
- the currency by symbol or ISO code on every amount, in a header field, in the total's label or in the amount
  column's heading (``Amount (EUR)``) and nowhere else;
- totals with the VAT rate and base in the tax label (``VAT 20% on 1,234.56``), an "Amount paid 0.00" line and a
  balance equal to the total, or a VAT analysis table (rate | net | VAT) beside them;
- a footer with the seller's VAT number, bank account and telephone, and "Page n of m".

Wordings are those of such systems, several of which the reader's vocabulary does not hold; a column heading may
name another column's role in other software ("Unit" over ``EA``). The drawing is in
:mod:`evaluation.invoice_dev_f_draw`.

>>> lay = dev_f_layout(3)
>>> lay == dev_f_layout(3), lay.family, lay.style
(True, 'dev-f', 'erp')
>>> {c.key for c in lay.columns} >= {"code", "description", "quantity", "unit_price", "amount"}
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

from reportlab.pdfbase.pdfmetrics import stringWidth

from evaluation.invoice_layouts import FONTS, MARKS, PAGES, Column, Layout

__all__ = ["WORDS", "dev_f_layout", "dev_f_vocabulary"]

WORDS = {
    "title": ("Sales Invoice", "TAX INVOICE", "Invoice", "Posted Sales Invoice"),
    "credit_title": ("Sales Credit Memo", "CREDIT NOTE", "Posted Sales Credit Memo"),
    "invoice_number": ("Invoice No", "Invoice Number", "Document No.", "Our Invoice No.", "Posted Invoice No."),
    "credit_number": ("Credit Memo No.", "Credit No.", "Document No.", "Credit Memo Number"),
    "invoice_date": ("Invoice Date", "Posting Date", "Tax Date"),
    "customer_id": ("Customer No.", "Customer Account", "Sold-to Customer No.", "Debtor No.", "Bill-to Customer No."),
    "country": ("Country/Region", "Ship-to Country/Region", "Country"),
    "currency": ("Currency Code", "Currency"),
    "subtotal": ("Net Amount", "Subtotal", "Total before VAT"),
    "tax": ("VAT", "Tax Total"),
    "total": ("Invoice Total", "Total Amount Due", "Amount Due"),
    "due_date": ("Due Date", "Payment Due Date", "Due"),
    "terms": ("Terms of Payment", "Payment Conditions"),
    "reference": ("Your Reference", "Customer PO", "External Document No.", "Order No."),
    "bill_to": ("Sold To", "Bill-to Address"),
    "ship_to": ("Ship To", "Deliver To", "Ship-to Address"),
    "paid": ("Amount Paid", "Payments Received", "Less Payments"),
    "balance": ("Balance Due", "Remaining Amount", "Amount Outstanding"),
    "forward": (("Balance c/f", "Balance b/f"), ("Transfer", "Transfer"),
                ("Carried Fwd", "Brought Fwd")),
    "analysis": ("VAT Analysis", "VAT Summary", "Tax Summary"),
    # Column headings.
    "code": ("Item No.", "No.", "Product ID", "Stock Code"),
    "description": ("Description", "Item Description", "Item Name", "Product/Service"),
    "quantity": ("Quantity", "Qty", "Invoiced Qty", "Qty Shipped", "Qty."),
    "unit": ("U/M", "Unit of Measure"),
    "unit_price": ("Unit Price", "Price", "Unit Price Excl. VAT", "Sales Price"),
    "discount": ("Disc. %", "Line Discount %", "Discount"),
    "amount": ("Amount", "Line Amount", "Amount Excl. VAT", "Line Amount Excl. VAT"),
    "vat_rate": ("VAT %", "Tax %", "VAT Rate"),
    "line_vat": ("Line VAT", "VAT Value"),
    "gross": ("Amount Incl. VAT", "Gross Amount", "Line Amount Incl. VAT"),
    "line_no": ("Line", "Pos.", "Ln"),
}
LABEL_KEYS = ("invoice_number", "credit_number", "invoice_date", "customer_id", "country", "currency", "subtotal",
              "tax", "total", "due_date", "terms", "reference", "bill_to", "ship_to", "paid", "balance", "analysis")
HEADING_KEYS = ("code", "description", "quantity", "unit", "unit_price", "discount", "amount", "vat_rate",
                "line_vat", "gross", "line_no")
SELLERS = (("Northgate Trading Ltd", "Unit 4, Riverside Park", "Leeds LS11 5DR"),
           ("Hollins & Marsh Wholesale", "88 Canal Street", "Manchester M1 3HE"),
           ("Bramble Home Goods plc", "Station Road Industrial Estate", "Bristol BS3 2NT"),
           ("Kestrel Giftware Ltd", "2 Wharf Lane", "Norwich NR3 1QB"))
CUSTOMERS = ("Maison Lemaire SARL", "Van Dijk Cadeaus B.V.", "Nordlys Interior AS", "Casa Bonita S.L.",
             "The Lantern Shop", "Grünwald Geschenke GmbH", "Blue Door Gifts", "Atelier Rossi S.r.l.")
STREETS = ("14 Rue des Lilas", "Keizersgracht 221", "Storgata 17", "Calle Mayor 8", "3 Market Place",
           "Hauptstrasse 42", "27 Harbour Road", "Via Roma 5")
TOWNS = ("75011 Paris", "1016 DV Amsterdam", "0184 Oslo", "28013 Madrid", "Ludlow SY8 1AA", "80331 Muenchen",
         "Whitby YO21 3PU", "40121 Bologna")
# The five wanted columns in print order; the extra ones are put in by _order.
ORDERS = (("code", "description", "quantity", "unit_price", "amount"),
          ("description", "code", "quantity", "unit_price", "amount"),
          ("description", "unit_price", "quantity", "amount", "code"),
          ("code", "description", "unit_price", "quantity", "amount"))
DATE_STYLES = ("dd-MON-Y", "dd Month Y", "Y-m-d", "dd.mm.Y", "Month d, Y", "d Mon Y")
NUMBERS = ((",", "."), (".", ","), (" ", ","), (",", "."))


def dev_f_vocabulary() -> set[str]:
    """Every title, label and heading wording dev-f can print (lower case), an amount heading naming its currency
    (``Amount (EUR)``) included."""
    words = {w for k, v in WORDS.items() if k != "forward" for w in v}
    words |= {w for pair in WORDS["forward"] for w in pair}
    words |= {f"{w} ({c})" for w in WORDS["amount"] for c in MARKS}
    return {w.lower() for w in words}


def _order(five: tuple[str, ...], extras: set[str]) -> tuple[str, ...]:
    """The columns in print order: the line number first, the unit after the quantity, the discount and VAT rate
    after the unit price, the line's VAT and gross amount after the amount."""
    out = ["line_no"] if "line_no" in extras else []
    for key in five:
        out.append(key)
        if key == "quantity" and "unit" in extras:
            out.append("unit")
        if key == "unit_price":
            out += [k for k in ("discount", "vat_rate") if k in extras]
        if key == "amount":
            out += [k for k in ("line_vat", "gross") if k in extras]
    return tuple(out)


def _extras(rng: random.Random, taxed: bool) -> set[str]:
    extras = {k for k, p in (("unit", 0.45), ("discount", 0.25), ("line_no", 0.3)) if rng.random() < p}
    if taxed:
        extras |= {k for k, p in (("vat_rate", 0.5), ("line_vat", 0.35), ("gross", 0.35)) if rng.random() < p}
    while len(extras) > 3:  # room for the description
        extras.discard(sorted(extras)[rng.randrange(len(extras))])
    return extras


def _widths(lay: Layout, order: tuple[str, ...], headings: dict[str, str], narrow: bool) -> tuple[Column, ...]:
    """Each column as wide as its heading or its widest value; the description takes the rest (about half of it
    when ``narrow``, so long descriptions wrap)."""
    font, bold = FONTS[lay.font]
    qp, pp = lay.extra["quantity_places"], lay.extra["price_places"]
    samples = {"code": "85123A", "line_no": "999", "unit": "PCS", "discount": "0.0%", "vat_rate": "20.0%",
               "quantity": lay.number(Decimal("-9999"), qp), "unit_price": lay.number(Decimal("-999.99"), pp),
               **{k: lay.money(Decimal("-9999.99"), lines=True) for k in ("amount", "line_vat", "gross")}}
    widths = {k: max(stringWidth(samples[k], font, lay.size), stringWidth(headings[k], bold, lay.size)) + 2 * lay.size
              for k in order if k != "description"}
    rest = lay.page[0] - 2 * lay.margin - sum(widths.values())
    least = max(stringWidth("M" * 12, font, lay.size), stringWidth(headings["description"], bold, lay.size) + lay.size)
    widths["description"] = max(least, rest * 0.55 if narrow else rest)
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)


def _fits(lay: Layout, columns: tuple[Column, ...]) -> bool:
    return sum(c.width for c in columns) <= lay.page[0] - 2 * lay.margin + 0.5


def _currency(rng: random.Random) -> tuple[str, str, str, bool]:
    """(currency, mark, where the mark goes, whether the table's amounts carry it)."""
    currency = rng.choice(("GBP", "EUR", "USD"))
    place = rng.choice(("before", "after", "field", "total", "heading"))
    mark = rng.choice((MARKS[currency], currency)) if place in ("before", "after") else currency
    return currency, mark, place, place in ("before", "after") and rng.random() < 0.4


def _address(rng: random.Random) -> tuple[str, str, str]:
    k = rng.randrange(len(CUSTOMERS))
    return CUSTOMERS[k], STREETS[k], TOWNS[k]


def dev_f_layout(seed: int) -> Layout:
    """The dev-f layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"dev-f:{seed}")
    pick = {k: rng.choice(WORDS[k]) for k in (*LABEL_KEYS, *HEADING_KEYS, "title", "credit_title", "forward")}
    taxed = rng.random() < 0.6
    currency, mark, place, mark_lines = _currency(rng)
    thousands, decimal = rng.choice(NUMBERS)
    font = rng.choice(("Helvetica", "Helvetica", "Times", "Courier"))
    size = rng.choice((8.0, 8.5, 9.0, 9.5)) if font != "Courier" else rng.choice((7.5, 8.0))
    labels = {k: pick[k] for k in LABEL_KEYS}
    headings = {k: pick[k] for k in HEADING_KEYS}
    if place == "heading":
        headings["amount"] = f"{headings['amount']} ({currency})"
    fields = ["invoice_number", "invoice_date", "customer_id"] + [k for k, p in (
        ("country", 0.5), ("due_date", 0.6), ("terms", 0.4), ("reference", 0.5)) if rng.random() < p]
    if place == "field":
        fields.append("currency")
    rng.shuffle(fields)
    fields.remove("invoice_number")
    fields.insert(rng.choice((0, 0, 1)), "invoice_number")  # the number leads, as it mostly does
    lay = Layout(
        family="dev-f", seed=seed, style="erp", font=font, size=size, page=PAGES[rng.choice(("A4", "Letter"))],
        margin=rng.choice((36.0, 42.0, 48.0)), title=pick["title"], credit_title=pick["credit_title"], labels=labels,
        colon=rng.choice((":", "")), columns=(), date_style=rng.choice(DATE_STYLES), thousands=thousands,
        decimal=decimal, currency=currency, mark=mark,
        mark_place=place, mark_lines=mark_lines,
        negative=rng.choice(("minus", "minus", "parentheses", "minus after")),
        tax_rate=rng.choice((Decimal("0.20"), Decimal("0.20"), Decimal("0.19"), Decimal("0.21"))) if taxed else None,
        ruled=rng.random() < 0.7, zebra=False, header_place=rng.choice(("grid", "boxes", "block")),
        totals_place="erp", two_row=False, seller=rng.choice(SELLERS), page_label=rng.choice(
            ("Page {n} of {m}", "Page {n}/{m}", "{n} of {m}")), continued=rng.choice(
            ("Continued on page {next}", "continued ...", "To be continued")),
        running=rng.choice(("{title} {number} - Page {n}", "{number} (continued)")), currency_note=None,
        extra={"fields": tuple(fields), "grid": rng.random() < 0.5, "forward": rng.random() < 0.45, "forward_words": pick["forward"],
               "ship_to": rng.random() < 0.35, "paid": rng.random() < 0.35, "rate_base": rng.random() < 0.4,
               "analysis": taxed and rng.random() < 0.35, "quantity_places": rng.choice((0, 0, 2)),
               "price_places": rng.choice((2, 2, 4)), "address": _address(rng), "place": place,
               "vat_reg": f"GB{rng.randint(100000000, 999999999)}", "terms": rng.choice(
                   ("Net 30", "30 days net", "14 days", "Due on receipt")),
               "reference": f"PO-{rng.randint(10000, 99999)}", "iban": f"GB{rng.randint(10, 99)} NWBK 6016 "
               f"{rng.randint(1000, 9999)} {rng.randint(1000, 9999)} {rng.randint(10, 99)}"})
    five, extras, narrow = rng.choice(ORDERS), _extras(rng, taxed), rng.random() < 0.35
    columns = _widths(lay, _order(five, extras), headings, narrow)
    while not _fits(lay, columns) and extras:  # no room for the description: fewer extra columns
        extras.discard(sorted(extras)[0])
        columns = _widths(lay, _order(five, extras), headings, narrow)
    return replace(lay, columns=columns)
