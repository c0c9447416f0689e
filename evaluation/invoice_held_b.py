"""HELD-ASIDE FAMILY "held-b", written apart from the reader. Opened on 2026-12-05: its wrong and unflagged PDF
readings were looked into and the reader changed for what they showed, once ``held-e`` stood in as the fresh
held-aside family. This module and its drawing (:mod:`evaluation.invoice_held_b_draw`) are still not read while
developing the invoice reader.

The family's wordings, formats and layouts, drawn from a seed: :func:`held_b_layout` gives a :class:`HeldBLayout`
(a :class:`evaluation.invoice_layouts.Layout` with the family's own number, date and font rules), and
:func:`held_b_vocabulary` every title, label and heading wording the family can print. None of these wordings is
one a developed family prints (a test keeps them apart), nor are its date, number, sign, page-label and column-order
formats. The pages are drawn by :mod:`evaluation.invoice_held_b_draw`, which also paginates them.

>>> a = held_b_layout(3)
>>> a == held_b_layout(3), a.family, a.style
(True, 'held-b', 'held-b')
>>> held_b_vocabulary() >= a.wordings()
True
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from decimal import Decimal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_layouts import PAGES, Column, Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, wrap

__all__ = ["DATES", "FORMATS", "ORDERS", "WORDS", "HeldBLayout", "address_lines", "cell_text", "country_in_address",
           "header_pairs", "heading_text", "held_b_layout", "held_b_vocabulary", "note_lines", "place_of",
           "seller_lines", "title_of", "totals_pairs"]

# Faces: name -> (regular, bold). "Vera" is Bitstream Vera Sans, shipped with ReportLab and embedded in the PDF.
FACES = {"Vera": ("HB-Vera", "HB-Vera-Bold"), "Helvetica": ("Helvetica", "Helvetica-Bold"),
         "Times": ("Times-Roman", "Times-Bold")}
for _name, _file in (("HB-Vera", "Vera.ttf"), ("HB-Vera-Bold", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_name, _file))
    pdfmetrics.registerFontFamily("HB-Vera", normal="HB-Vera", bold="HB-Vera-Bold")

WORDS: dict[str, tuple[str, ...]] = {
    "title_tax": ("VAT Invoice", "Trade Invoice"),
    "title_free": ("Commercial Invoice", "Trade Invoice"),
    "credit_title": ("Credit Memo", "Credit Memorandum", "Adjustment Note"),
    "invoice_number": ("Invoice Ref.", "Inv No", "Bill No.", "Reference No."),
    "credit_number": ("Memo No.", "Credit Ref.", "Adjustment No."),
    "invoice_date": ("Date Issued", "Billing Date", "Date of Issue", "Document Date"),
    "invoice_date_tax": ("Tax Point",),
    "customer_id": ("A/C No.", "Account Ref", "Customer Code", "Cust. Ref.", "Your Account No."),
    "country": ("Destination", "Country of Destination", "Dest. Country"),
    "subtotal_tax": ("Total excl. VAT", "Net Value", "Goods Value", "Total Net Amount"),
    "subtotal_free": ("Goods Value", "Net Value", "Merchandise Total"),
    "tax": ("VAT Amount", "Total VAT", "VAT at 20%", "VAT 20.00%"),
    "total_tax": ("Total incl. VAT", "Grand Total", "Total Payable", "Amount Payable"),
    "total_free": ("Grand Total", "Total Payable", "Amount Payable", "Invoice Value"),
    "code": ("Part No.", "Item Code", "Product Ref.", "Article No.", "Stock Ref."),
    "description": ("Particulars", "Description of Goods", "Item Details", "Product / Service"),
    "quantity": ("Qty Supplied", "Inv. Qty", "No. of Units", "Quant."),
    "unit_price": ("Unit Cost", "Price per Unit", "Each", "Unit Net"),
    "amount": ("Value", "Total Price", "Ext. Price", "Line Net"),
    "seq": ("Ln.", "Seq."),
    "uom": ("UoM", "Unit"),
    "vat_code": ("VAT Code", "T/C"),
    "bill_to": ("Invoice To", "Bill To", "Billing Address"),
    "deliver_to": ("Delivery Address", "Delivered To", "Consignee"),
    "order_ref": ("Your Order Ref.", "Cust. Order No.", "Purchase Order"),
    "terms": ("Terms", "Payment Terms", "Settlement Terms"),
    "due": ("Payment Due By", "Due On", "Pay Before"),
    "despatch": ("Despatch Date", "Date Shipped"),
    "vat_no": ("VAT Registration No.", "Our VAT No.", "VAT Number"),
    "phone": ("Phone", "Telephone"),
    "sort_code": ("Sort Code", "Bank Sort Code"),
    "acc_no": ("Acc No", "Account Number"),
    "fixed": ("Goods Inwards", "E. & O.E.", "Registered office", "Registered in England & Wales No."),
    "bank": ("Remittance Details", "Bank Transfer To", "Payment Details"),
    "brought": ("Brought forward", "B/fwd"),
}
CARRIED = {"Brought forward": "Carried forward", "B/fwd": "C/fwd"}  # the pair printed on either side of a break

ORDERS = {  # column orders, by whether the layout charges tax (a tax-code column only then)
    "tax": (("seq", "code", "description", "quantity", "uom", "unit_price", "amount"),
            ("code", "quantity", "description", "unit_price", "amount", "vat_code"),
            ("code", "description", "uom", "quantity", "unit_price", "vat_code", "amount"),
            ("quantity", "uom", "code", "description", "unit_price", "amount"),
            ("seq", "code", "description", "quantity", "unit_price", "vat_code", "amount")),
    "free": (("seq", "code", "description", "quantity", "uom", "unit_price", "amount"),
             ("code", "quantity", "uom", "description", "unit_price", "amount"),
             ("code", "description", "uom", "quantity", "unit_price", "amount"),
             ("quantity", "uom", "code", "description", "unit_price", "amount")),
}


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


DATES = {  # date style -> how it prints: each reads one way only
    "ordinal": lambda d: f"{_ordinal(d.day)} {d.strftime('%B')} {d.year}",
    "weekday": lambda d: f"{d.strftime('%a')} {d.day:02d} {d.strftime('%b')} {d.year}",
    "Y/m/d": lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}",
    "Mon dd, Y": lambda d: f"{d.strftime('%b')} {d.day:02d}, {d.year}",
}
FORMATS = {
    "numbers": ((" ", "."), ("'", ".")),
    "negative": ("en dash",),
    "page_label": ("Sheet {n} of {m}", "Pg {n}/{m}", "p. {n} of {m}"),
    "continued": ("Continued on sheet {next}", "Cont'd on page {next}"),
    "running": ("{title} {number} (cont.)", "Continuation of {title} {number}", "{number} / {title}, cont'd"),
    "header": ("window", "sheet", "stack"),
    "table": ("grid", "lined", "tinted"),
    "totals": ("stack", "band", "foot-box"),
    "mark_place": ("heading", "beside", "statement"),
    "sellers": (("Kestrel Lane Giftware Ltd", "Units 7-9 Foundry Court", "Wolverhampton WV2 4NJ"),
                ("Amberley & Rowe Trading", "42 Tannery Road", "Norwich NR3 1QP"),
                ("Halcyon Home Supplies Ltd", "The Old Granary, Wharf Street", "Gloucester GL1 2EH"),
                ("Pemberton Crafts Wholesale", "Block C, Eastgate Business Park", "Derby DE21 6LS")),
    "buyers": ("Maple & Moss Interiors", "Corner House Gifts", "The Little Emporium", "Brightwater Stores",
               "Fennel Street Living", "Juniper Home & Garden"),
    "places": {"United Kingdom": (("18 Bridge Street", "Harrogate HG1 1HS"), ("Unit 2, Pilgrim Way", "Canterbury CT1 2EP"),
                                  ("5 Market Row", "Kendal LA9 4TN")),
               "EIRE": (("12 Quay Street", "Galway H91 X2T4"),), "Germany": (("Lindenstrasse 14", "50674 Koeln"),),
               "France": (("22 rue du Commerce", "69002 Lyon"),), "Australia": (("41 George Street", "Sydney NSW 2000"),),
               "Netherlands": (("Keizersgracht 118", "1015 CW Amsterdam"),), "Norway": (("Storgata 9", "0155 Oslo"),),
               "": (("PO Box 2280", "Central Sorting Office"),)},
    "terms": ("30 days net", "Net 30", "Strictly 14 days", "End of month following"),
    "uom": ("EA", "PCS", "PCE"),
    "currency_names": {"GBP": "Pounds Sterling", "EUR": "Euro", "USD": "US Dollars"},
    "statement": ("All amounts are shown in {name} ({code}).", "Prices and totals in {code}."),
    "accents": ((0.12, 0.23, 0.42), (0.10, 0.35, 0.25), (0.45, 0.12, 0.16), (0.25, 0.25, 0.25)),
}


@dataclass(frozen=True)
class HeldBLayout(Layout):
    """A held-b layout: the family's faces, numbers (en dash before a negative) and dates."""

    @property
    def fonts(self) -> tuple[str, str]:
        return FACES[self.font]

    def number(self, value: Decimal, places: int = 2) -> str:
        text = f"{abs(value):,.{places}f}".replace(",", "\0").replace(".", self.decimal).replace("\0", self.thousands)
        return text if value >= 0 else f"\u2013{text}"

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount as printed, in the table and the totals alike: the currency is never beside it."""
        return self.number(value)

    def quantity(self, value: Decimal) -> str:
        text = self.number(value, 0)
        return text if self.extra.get("group_quantity") else text.replace(self.thousands, "")

    def date(self, value: dt.date) -> str:
        return DATES[self.date_style](value)

    def label(self, name: str, credit: bool = False) -> str:
        if name == "invoice_number" and credit:
            name = "credit_number"
        return self.labels[name] + self.colon


def held_b_vocabulary() -> set[str]:
    """Every title, label and heading wording the family can print (lower case)."""
    words = {w for k, ws in WORDS.items() for w in ws}
    return {w.lower() for w in words | set(CARRIED.values())}


def _widths(lay: HeldBLayout, order: tuple[str, ...], headings: dict[str, str]) -> tuple[Column, ...]:
    """Each column as wide as its heading or the widest value it prints, the code for nine characters, the
    description taking the rest (or about two thirds of it when the layout says so)."""
    regular, bold = lay.fonts
    samples = {"code": "DCGS0069X", "quantity": lay.quantity(Decimal("-99999")), "seq": "9990", "uom": "EACH",
               "vat_code": "T1", "unit_price": lay.money(Decimal("-9999.99")),
               "amount": lay.money(Decimal("-99999.99"))}
    pad = lay.size * 1.4
    shown = {**headings, "amount": heading_text(lay, "amount", headings["amount"])}
    widths = {k: max(stringWidth(v, regular, lay.size), stringWidth(shown[k], bold, lay.size)) + pad
              for k, v in samples.items() if k in order}
    rest = lay.page[0] - 2 * lay.margin - sum(widths.values())
    if lay.extra["narrow"]:  # the description gives a third of its room to the other columns
        share = rest * 0.3 / len(widths)
        widths = {k: w + share for k, w in widths.items()}
        rest *= 0.7
    widths["description"] = rest
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)


def held_b_layout(seed: int) -> HeldBLayout:
    """The held-b layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"held-b:{seed}")
    pick = rng.choice
    taxed = rng.random() < 0.5
    mode = "tax" if taxed else "free"
    credit_title = pick(WORDS["credit_title"])
    credit_number = pick(("Adjustment No.", "Credit Ref.") if credit_title == "Adjustment Note"
                         else ("Memo No.", "Credit Ref."))
    labels = {"invoice_number": pick(WORDS["invoice_number"]), "credit_number": credit_number,
              "invoice_date": pick(WORDS["invoice_date"] + (WORDS["invoice_date_tax"] if taxed else ())),
              "customer_id": pick(WORDS["customer_id"]), "country": pick(WORDS["country"]),
              "subtotal": pick(WORDS[f"subtotal_{mode}"]), "total": pick(WORDS[f"total_{mode}"])}
    if taxed:
        labels["tax"] = pick(WORDS["tax"])
    for key in ("bill_to", "deliver_to", "order_ref", "terms", "due", "despatch", "vat_no", "bank", "brought",
                "phone", "sort_code", "acc_no"):
        labels[key] = pick(WORDS[key])
    header = pick(FORMATS["header"])
    extras = [k for k in ("order_ref", "terms", "due", "despatch") if rng.random() < 0.55]
    font = pick(tuple(FACES))
    currency = pick(("GBP", "EUR", "USD"))
    country_in = "address" if rng.random() < 0.5 else "field"
    seller = pick(FORMATS["sellers"])
    buyer = pick(FORMATS["buyers"])
    carry = rng.random() < 0.5
    lay = HeldBLayout(
        family="held-b", seed=seed, style="held-b", font=font, size=pick((8.0, 8.5, 9.0)),
        page=PAGES[pick(("A4", "Letter"))], margin=pick((36.0, 40.0, 45.0)),
        title=pick(WORDS[f"title_{mode}"]), credit_title=credit_title, labels=labels, colon=pick((":", "")),
        columns=(), date_style=pick(tuple(DATES)), thousands="", decimal=".", currency=currency, mark="",
        mark_place=pick(FORMATS["mark_place"]), mark_lines=False, negative="en dash",
        tax_rate=Decimal("0.20") if taxed else None, ruled=rng.random() < 0.6, zebra=rng.random() < 0.3,
        header_place=header, totals_place=pick(FORMATS["totals"]), two_row=False,
        seller=seller, page_label=pick(FORMATS["page_label"]),
        continued=CARRIED[labels["brought"]] if carry else pick(FORMATS["continued"]),
        running=pick(FORMATS["running"]), currency_note=None,
        extra={"table": pick(FORMATS["table"]), "accent": pick(FORMATS["accents"]), "carry": carry,
               "narrow": rng.random() < 0.3, "group_quantity": rng.random() < 0.5, "extras": tuple(extras),
               "country_in": country_in, "buyer": buyer, "attention": pick(("Accounts Department", "Purchasing",
                                                                           "Attn: Bought Ledger")),
               "place": pick(FORMATS["places"]["United Kingdom"]), "terms": pick(FORMATS["terms"]),
               "due_days": pick((14, 30, 60)), "order_base": rng.randint(20000, 89999),
               "order_prefix": pick(("PO-", "", "ORD/")), "despatch_days": pick((0, 1)),
               "uom": pick(FORMATS["uom"]), "seq_step": pick((10, 1)),
               "vat_reg": f"GB{rng.randint(100000000, 999999999)}", "company_no": f"{rng.randint(1000000, 9999999):08d}",
               "sort_code": f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}",
               "account": f"{rng.randint(10000000, 99999999)}", "phone": f"01{rng.randint(100, 999)} {rng.randint(100000, 999999)}",
               "statement": pick(FORMATS["statement"]), "retention": rng.random() < 0.5,
               "page_at": pick(("foot", "top"))})
    numbers = pick(FORMATS["numbers"])
    lay = replace(lay, thousands=numbers[0], decimal=numbers[1])
    headings = {k: pick(WORDS[k]) for k in ("code", "description", "quantity", "unit_price", "amount", "seq", "uom",
                                           "vat_code")}
    order = pick(ORDERS[mode])
    if header == "sheet":  # this arrangement prints its titles in capitals
        lay = replace(lay, title=lay.title.upper(), credit_title=lay.credit_title.upper())
    return replace(lay, columns=_widths(lay, order, headings))


def heading_text(lay: Layout, key: str, heading: str) -> str:
    """A column heading as printed: the amount's names the currency when the layout states it there."""
    return f"{heading} {lay.currency}" if key == "amount" and lay.mark_place == "heading" else heading


def place_of(lay: Layout, country: str) -> tuple[str, str]:
    """The street and town line of the buyer's address, in the invoice's country when one is known."""
    places = FORMATS["places"]
    if country == "United Kingdom":
        return lay.extra["place"]
    return places.get(country, places[""])[0]

def title_of(inv: Invoice, lay: HeldBLayout) -> str:
    return lay.credit_title if inv.is_credit else lay.title

def country_in_address(inv: Invoice, lay: HeldBLayout) -> bool:
    return lay.extra["country_in"] == "address" and inv.country not in ("", "Unspecified")

def header_pairs(inv: Invoice, lay: HeldBLayout) -> list[tuple[str, str]]:
    """The header's (label, value) pairs: number, date, customer, country (unless the address carries it) and the
    layout's extra references; a credit note prints no terms or dates of its own beyond its date."""
    out = [(lay.label("invoice_number", inv.is_credit), inv.number), (lay.label("invoice_date"), lay.date(inv.date))]
    if inv.customer is not None:
        out.append((lay.label("customer_id"), inv.customer))
    if not country_in_address(inv, lay):
        out.append((lay.label("country"), inv.country))
    extra = lay.extra
    values = {"order_ref": f"{extra['order_prefix']}{extra['order_base'] + int(inv.number.lstrip('C')) % 9973}",
              "terms": extra["terms"], "due": lay.date(inv.date + dt.timedelta(days=extra["due_days"])),
              "despatch": lay.date(inv.date - dt.timedelta(days=1 + extra["despatch_days"]))}
    for key in extra["extras"]:
        if not inv.is_credit or key == "order_ref":
            out.append((lay.label(key), values[key]))
    return out

def address_lines(inv: Invoice, lay: HeldBLayout, goods_in: bool = False) -> list[str]:
    """The buyer's address lines; the last is the invoice's country when the layout prints it there."""
    street, town = place_of(lay, inv.country)
    lines = [lay.extra["buyer"], "Goods Inwards" if goods_in else lay.extra["attention"], street, town]
    return lines + ([inv.country] if country_in_address(inv, lay) else [])

def seller_lines(lay: HeldBLayout) -> list[str]:
    lines = [*lay.seller[1:], f"{lay.labels['phone']} {lay.extra['phone']}"]
    if lay.tax_rate is not None:
        lines.append(f"{lay.label('vat_no')} {lay.extra['vat_reg']}")
    return lines

def totals_pairs(inv: Invoice, lay: HeldBLayout) -> list[tuple[str, str]]:
    rows = [(lay.label("subtotal"), lay.money(inv.subtotal))]
    if lay.tax_rate is not None:
        rows.append((lay.label("tax"), lay.money(inv.tax(lay.tax_rate))))
    return rows + [(lay.label("total"), lay.money(inv.total(lay.tax_rate)))]

def note_lines(inv: Invoice, lay: HeldBLayout) -> list[tuple[str, bool]]:
    """The lines printed beside or under the totals: the currency statement, the bank details, the retention of
    title clause and the errors-excepted mark; (text, bold)."""
    extra, out = lay.extra, []
    if lay.mark_place == "statement":
        name = FORMATS["currency_names"][lay.currency]
        out.append((extra["statement"].format(name=name, code=lay.currency), False))
    if not inv.is_credit:
        sort, acc = lay.labels["sort_code"], lay.labels["acc_no"]
        out += [(lay.label("bank"), True), (lay.seller[0], False),
                (f"{sort} {extra['sort_code']}   {acc} {extra['account']}", False)]
    if extra["retention"] and not inv.is_credit:
        out.append((f"Title to the goods remains with {lay.seller[0]} until payment is received in full.", False))
    return out + [("E. & O.E.", False)]

def cell_text(key: str, index: int, line, width: float, lay: HeldBLayout, pen: Pen) -> list[str]:
    if key in ("code", "description"):
        return wrap(getattr(line, key) or "", width, pen)
    if key == "quantity":
        return [lay.quantity(line.quantity)]
    if key == "seq":
        return [str((index + 1) * 10) if lay.extra["seq_step"] == 10 else f"{index + 1:03d}"]
    if key == "uom":
        return [lay.extra["uom"]]
    if key == "vat_code":
        return ["T1"]
    return [lay.money(getattr(line, key))]
