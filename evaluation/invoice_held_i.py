"""held-i, a held-aside invoice family: invoices as the online invoicing and small-business accounting apps print
them (the kinds of template QuickBooks Online, Xero, Zoho Invoice, FreshBooks, Wave and Sage offer).

Each seed picks one of five templates (:data:`evaluation.invoice_held_i_words.PRODUCTS`) and one of eight
locales the apps' users bill from (US, UK, Australia, New Zealand, Canada, Ireland, Germany, the Netherlands),
and from them:

- the title, in a coloured band across the top or in large coloured type, "Tax Invoice" where the law asks for it
  (Australia, New Zealand) and "Credit Note" or "Credit Memo" for a credit;
- the header as "Bill To" beside a column of ``Label  value`` details, or as a grid of small grey labels each over
  its value, always with a due date from the payment terms (Net 14 to Net 28, as these apps default to), so a
  numeric date is read in its locale's order (12/15/2010 and 15/12/2010 can only be one way round);
- the "Amount Due" or "Balance Due" figure emphasised in a shaded box under the title, or under the totals;
- the table: code and description in two columns, or the description in smaller grey type under the item's code;
  a line counter (Zoho) or a tax-rate column (Xero) in some templates; zebra rows in light grey or thin rules;
- money in the locale's number format, with its symbol on every figure, on the totals only, as an ISO code after
  the figure, or nowhere but in the headings and the total's label ("Amount (GBP)", "Total (GBP)"); negative
  figures of a credit note with a leading minus or, in accounting style, in parentheses;
- the locale's tax: US sales taxes (8.875 %, 7.25 %, 8.25 %, 10.25 %) or none, UK VAT 20 % or none, GST 10 %
  (Australia) and 15 % (New Zealand), HST 13 % (Ontario), VAT 23 % (Ireland), 19 % (Germany), 21 % (Netherlands):
  the tax is the record's tax at that rate (:meth:`evaluation.invoice_records.Invoice.tax`), so what is printed is
  the truth;
- notes, payment details and terms under the totals, and a foot with "Page 1 of 3" (or "1 of 3", "Page 1/3").

>>> lay = held_i_layout(3)
>>> lay == held_i_layout(3), lay.family, lay.style
(True, 'held-i', 'held-i')
>>> _rate_text(Decimal("0.08875"), "."), _rate_text(Decimal("0.20"), ",")
('8.875%', '20%')
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

from evaluation.invoice_layouts import DATE_STYLES, MONTHS, PAGES, Column, Layout, text_width
from evaluation.invoice_held_i_words import (ACCENTS, CONTINUED, LOCALES, NOTES, PAGE_LABELS, PAYMENT, PRODUCTS,
                                            RUNNING, SELLERS, TERMS)

__all__ = ["ORDERS", "held_i_layout", "held_i_vocabulary"]

# Dates as the apps print them per locale (the shared styles Y-m-d, d Mon Y and dd.mm.Y are used as they are).
DATE_STYLES.update({
    "i:Mon d, Y": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",  # US: Dec 1, 2010
    "i:mm/dd/Y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",  # US numeric
    "i:dd/mm/Y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",  # UK, AU, NZ, IE numeric
    "i:dd Mon Y": lambda d: f"{d.day:02d} {MONTHS[d.month - 1][:3]} {d.year}",  # Xero: 01 Dec 2010
    "i:dd-mm-Y": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",  # Dutch numeric
})

# Column orders per template; "code" holds the description under it where the template prints it so ("under").
ORDERS = {
    "banner": (("code", "quantity", "unit_price", "amount"), ("code", "unit_price", "quantity", "amount")),
    "ledger": (("code", "description", "quantity", "unit_price", "amount"),),
    "grid": (("code", "description", "unit_price", "quantity", "amount"),
             ("code", "description", "quantity", "unit_price", "amount")),
    "tax": (("code", "description", "quantity", "unit_price", "vat_rate", "amount"),),
    "zoho": (("line_no", "code", "quantity", "unit_price", "amount"),),
}
UNDER = {"banner": True, "ledger": False, "grid": False, "tax": False, "zoho": True}
HEADER = {"banner": "columns", "ledger": "columns", "grid": "grid", "tax": "stack", "zoho": "columns"}
LOCALE_WEIGHTS = {"US": 4, "UK": 4, "AU": 2, "NZ": 1, "CA": 1, "IE": 1, "DE": 1, "NL": 1}


def _rate_text(rate: Decimal, decimal: str) -> str:
    """A tax rate as printed: 20%, 8.875% (the locale's decimal mark)."""
    return f"{(rate * 100).normalize():f}".replace(".", decimal) + "%"


def _fill(template: str, rng: random.Random) -> str:
    """A registration or bank line with its digit runs drawn: {n7} is seven digits."""
    out = template
    for key in ("n2b", "n2", "n3", "n5", "n6", "n7", "n8", "n9", "n11"):
        while "{" + key + "}" in out:
            digits = "".join(str(rng.randint(0, 9)) for _ in range(int(key[1:].rstrip("b"))))
            out = out.replace("{" + key + "}", digits, 1)
    return out


def _words(word: str, tax: str, rate: str, code: str) -> str:
    return word.replace("{tax}", tax).replace("{rate}", rate).replace("{code}", code)


def _columns(lay: Layout, order: tuple[str, ...], headings: dict[str, str], under: bool) -> tuple[Column, ...]:
    """Number columns as wide as their widest heading or value; the code column fits a 7-character code unless
    it holds the descriptions too; the description (or that code column) takes the rest of the width."""
    font, bold = lay.fonts
    samples = {"quantity": lay.quantity(Decimal("-9999")), "line_no": "999",
               "vat_rate": _rate_text(lay.tax_rate or Decimal("0.2"), lay.decimal),
               "unit_price": lay.money(Decimal("-999.99"), lines=True),
               "amount": lay.money(Decimal("-99999.99"), lines=True), "code": "15056BLX"}
    widths = {k: max(text_width(samples[k], font, lay.size), text_width(headings[k], bold, lay.size)) + lay.size * 1.6
              for k in order if k != ("code" if under else "description")}
    rest = lay.page[0] - 2 * lay.margin - sum(widths.values())
    widths["code" if under else "description"] = rest
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)


def held_i_layout(seed: int) -> Layout:
    """The held-i layout drawn from ``seed``: one template in one locale (see the module docstring)."""
    rng = random.Random(f"held-i:{seed}")
    product = rng.choice(tuple(PRODUCTS))
    words = PRODUCTS[product]
    place = rng.choice([k for k, w in LOCALE_WEIGHTS.items() for _ in range(w)])
    loc = LOCALES[place]
    currency, tax_name = loc["currency"], rng.choice(loc["tax"])
    thousands, decimal = rng.choice(loc["numbers"])
    rate = rng.choice(loc["rates"])
    rate_text = _rate_text(rate, decimal) if rate is not None else ""
    pick = {k: _words(rng.choice(v), tax_name, rate_text, currency) for k, v in words.items()}
    caps = product == "ledger" and rng.random() < 0.5
    if caps:
        pick = {k: v.upper() for k, v in pick.items()}
    title = pick["title"]
    if loc.get("title") and rate is not None and title.lower() == "invoice":
        title = loc["title"].upper() if title.isupper() else loc["title"]
    # How money is marked: a symbol (on every figure or the totals only), an ISO code after the figure, or plain
    # figures with the currency named in the headings and the total's label.
    mode = "plain" if product == "tax" else rng.choice(("symbol", "symbol", "code", "plain"))
    mark = rng.choice(loc["marks"]) if mode == "symbol" else currency if mode == "code" else ""
    mark_place = {"symbol": "after" if loc.get("after") else "before", "code": "after",
                  "plain": "heading" if "{code}" in words["total"][0] else "total"}[mode]
    negative = rng.choice(("minus", "parentheses")) if mode != "symbol" else "minus"
    headings = {k: pick[k] for k in ("code", "description", "quantity", "unit_price", "amount", "line_no",
                                     "vat_rate") if k in pick}
    if mode == "plain" and product != "tax":
        headings["amount"] = f"{headings['amount']} ({currency})"
    font = "Helvetica" if rng.random() < 0.8 else "Times"
    terms = rng.choice(tuple(TERMS))
    seller = tuple(_fill(line, rng) for line in rng.choice(SELLERS[place]))
    labels = {k: pick[k] for k in ("invoice_number", "credit_number", "invoice_date", "customer_id", "country",
                                   "subtotal", "tax", "total", "due_date", "due", "credit_due")}
    # A symbol alone does not say which dollar: where no label names the code, a note under the totals does.
    note = f"All amounts in {currency}" if mode == "symbol" and "{code}" not in words["due"][0] else None
    lay = Layout(
        family="held-i", seed=seed, style="held-i", font=font, size=rng.choice((8.0, 8.5, 9.0)),
        page=PAGES[loc["page"]], margin=rng.choice((36.0, 42.0, 48.0)), title=title, credit_title=pick["credit_title"],
        labels=labels, colon="", columns=(), date_style=rng.choice(loc["dates"]), thousands=thousands,
        decimal=decimal, currency=currency, mark=mark, mark_place=mark_place,
        mark_lines=mode == "code" or (mode == "symbol" and rng.random() < 0.5), negative=negative, tax_rate=rate,
        ruled=rng.random() < 0.5, zebra=rng.random() < (0.7 if product in ("banner", "zoho") else 0.35),
        header_place=HEADER[product] if rng.random() < 0.75 else rng.choice(("columns", "grid")),
        totals_place="below", two_row=False, seller=seller,
        page_label=rng.choice(PAGE_LABELS), continued=rng.choice(CONTINUED), running=rng.choice(RUNNING),
        currency_note=note,
        extra={"product": product, "locale": place, "banner": product == "banner" or rng.random() < 0.25,
               "accent": rng.choice(ACCENTS), "caps": caps, "under": UNDER[product], "terms": terms,
               "terms_text": rng.choice(TERMS[terms]),
               "due_place": rng.choice(("header", "totals")) if product != "grid" else "header",
               "payment": tuple(_fill(line, rng) for line in PAYMENT[place]), "note": rng.choice(NOTES),
               "foot": rng.choice(("left", "center", "right")), "rate_text": rate_text,
               "grey": rng.choice((0.35, 0.4, 0.45)), "shade": rng.choice((0.93, 0.95, 0.96))})
    order = rng.choice(ORDERS[product])
    if rate is None:
        order = tuple(k for k in order if k != "vat_rate")
    return replace(lay, columns=_columns(lay, order, headings, UNDER[product]))


def held_i_vocabulary() -> set[str]:
    """Every title, label and heading wording held-i can print (lower case): each template's wordings with every
    locale's tax names, rates and currency codes put in, and the "Tax Invoice" titles."""
    out = set()
    for loc in LOCALES.values():
        for tax in loc["tax"]:
            for rate in loc["rates"]:
                for decimal in {d for _, d in loc["numbers"]}:
                    rate_text = _rate_text(rate, decimal) if rate is not None else ""
                    for words in PRODUCTS.values():
                        for key, choices in words.items():
                            for word in choices:
                                text = _words(word, tax, rate_text, loc["currency"])
                                out.add(text.lower())
                                if key == "amount":
                                    out.add(f"{text} ({loc['currency']})".lower())
        if loc.get("title"):
            out |= {loc["title"].lower()}
    return out
