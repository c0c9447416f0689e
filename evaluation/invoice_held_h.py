"""The ``held-h`` invoice family: one wholesale ERP's invoices and credit notes as its installations in seven markets
print them (the United States, the United Kingdom, Germany, Switzerland, Finland, Singapore and Australia).

A held-aside family: a test of the invoice reader on layouts it was not developed on, so it is not to be looked at
while the reader is developed (see :mod:`evaluation.invoice_layouts`). ``held_h_layout(seed)`` draws, for a seed:

- the market (:data:`evaluation.invoice_held_h_words.REGIONS`): currency (USD, GBP, EUR, CHF, SGD or AUD), the tax
  charged (none in the US, VAT at 17.5 %, 19 %, 7.6 % or 23 %, GST at 7 % or 10 %), grouping and decimal marks
  (``1,234.56``, ``1.234,56``, ``1'234.56``, ``1 234,56``), how negatives are printed (``-1.00``, ``(1.00)``,
  ``1,00-``), the date form (a numeric day/month form only with its order named in the label), Letter or A4;
- the form language: English, or the local language beside English (``Kunden-Nr. / Customer no.``), with the
  column headings of a bilingual form on two lines, one per language; English headings are sometimes on two lines;
- the wording of every label and heading, the colon after labels or none, the font (Helvetica, Times or Courier);
- the currency shown by symbol or code, before or after amounts, on the table's prices too or not, named only in
  the total's label (``Total amount EUR``), in a ``Currency`` header field, or in a note;
- the letterhead (left, right or centred; street numbers, postcodes, phone and tax registration numbers), the title
  beside it or below it (with the document number in it sometimes), the header fields as a block on the right or
  the left (label and value on one line, or the value under the label), in two columns, or in a boxed strip; the
  customer number and country in a bill-to block (the country unlabelled, as an address line) or as fields;
  header fields a real ERP prints besides (due date, order number, delivery note, terms, salesperson, a Finnish
  payment reference, late interest);
- the table: column order, with a position column (counting 1, 2, 3 or 10, 20, 30), unit of measure, a zero
  discount or a per-line tax rate or code as extra columns; ruled grid, row rules, shaded heading band, zebra rows
  or open; a description column narrow enough to wrap long descriptions or not;
- the totals: right-aligned lines, a box, or a band of cells across the page (labels above values); the amount in
  words on Singapore forms; notes and payment terms; the bank details in the footer;
- pages: every page repeats the column headings, pages after the first have a running header naming the document
  and its number, every page but the last a "continued" mark (and on some forms a carried-forward amount, brought
  forward at the top of the next page), and every page its page label (``Page 2 of 5``) at the foot or the top.

The truth is the records' (:mod:`evaluation.invoice_records`) in the layout's currency and tax: every value of it
is printed, as :meth:`HeldHLayout.money`, :meth:`HeldHLayout.quantity` and :meth:`HeldHLayout.date` give it.
Drawing is in :mod:`evaluation.invoice_held_h_draw`.

>>> lay = held_h_layout(3)
>>> lay == held_h_layout(3), lay.family, lay.style
(True, 'held-h', 'held-h')
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace
from decimal import Decimal

from evaluation.invoice_held_h_words import (BANKS, CONTINUED, CURRENCY_NOTES, NOTES, PAGE_LABELS, REGIONS, RUNNING,
                                             SELLERS, TERMS, WORDS, lang_group, split_heading)
from evaluation.invoice_layouts import FONTS, MONTHS, PAGES, Column, Layout, text_width

__all__ = ["DATE_STYLES", "HeldHLayout", "held_h_layout", "held_h_vocabulary"]

FAMILY = "held-h"


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


DATE_STYLES = {
    "mm/dd/Y stated": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "dd/mm/Y stated": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "Mon dd, Y": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day:02d}, {d.year}",
    "Month d, Y": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    "d Mon Y": lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",
    "dd Mon Y": lambda d: f"{d.day:02d} {MONTHS[d.month - 1][:3]} {d.year}",
    "d Month Y": lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    "ordinal Month Y": lambda d: f"{_ordinal(d.day)} {MONTHS[d.month - 1]} {d.year}",
    "dd-Mon-Y": lambda d: f"{d.day:02d}-{MONTHS[d.month - 1][:3]}-{d.year}",
    "dd.mm.Y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "d.m.Y": lambda d: f"{d.day}.{d.month}.{d.year}",
    "Y-m-d": lambda d: d.isoformat(),
}
DATE_HINTS = {"mm/dd/Y stated": " (MM/DD/YYYY)", "dd/mm/Y stated": " (DD/MM/YYYY)"}
SIGNS = {"minus": lambda t: f"-{t}", "parentheses": lambda t: f"({t})", "minus after": lambda t: f"{t}-"}
TOTAL_CODE = ("{label} {code}", "{label} ({code})")
ORDERS = (("code", "description", "quantity", "unit_price", "amount"),
          ("line_no", "code", "description", "quantity", "uom", "unit_price", "amount"),
          ("quantity", "uom", "code", "description", "unit_price", "amount"),
          ("line_no", "description", "code", "quantity", "unit_price", "amount"),
          ("code", "description", "uom", "quantity", "unit_price", "discount", "amount"),
          ("line_no", "code", "description", "quantity", "unit_price", "vat", "amount"),
          ("description", "code", "quantity", "unit_price", "amount"))
EXTRA_FIELDS = ("due_date", "order", "delivery", "terms", "rep", "reference", "interest")
ACCENTS = ((0.13, 0.27, 0.47), (0.25, 0.25, 0.25), (0.55, 0.1, 0.1), (0.0, 0.35, 0.3), (0.2, 0.2, 0.45))


class HeldHLayout(Layout):
    """A :class:`Layout` that prints numbers, money, quantities and dates as ``held-h`` forms do."""

    def _grouped(self, value: Decimal, places: int, group: bool = True) -> str:
        text = f"{abs(value):,.{places}f}"
        sep = self.thousands if group else ""
        return text.replace(",", "\0").replace(".", self.decimal).replace("\0", sep)

    def number(self, value: Decimal, places: int = 2) -> str:
        text = self._grouped(value, places)
        return text if value >= 0 else SIGNS[self.negative](text)

    def money(self, value: Decimal, lines: bool = False) -> str:
        """An amount as printed in the totals (``lines`` False) or in the table (True)."""
        text = self._grouped(value, 2)
        signed = text if value >= 0 else SIGNS[self.negative](text)
        if self.mark_place not in ("before", "after") or (lines and not self.mark_lines):
            return signed
        if self.mark_place == "after":
            return f"{signed} {self.mark}"
        if self.mark.isalpha():  # a code: CHF -1'234.50
            return f"{self.mark} {signed}"
        marked = f"{self.mark}{text}"
        return marked if value >= 0 else SIGNS[self.negative](marked)  # $12.50, -$12.50, ($12.50)

    def quantity(self, value: Decimal) -> str:
        text = self._grouped(value, self.extra["qty_places"], self.extra["group_qty"])
        return text if value >= 0 else SIGNS["minus after" if self.negative == "minus after" else "minus"](text)

    def date(self, value: dt.date) -> str:
        return DATE_STYLES[self.date_style](value)

    def label(self, name: str, credit: bool = False) -> str:
        if name == "invoice_number" and credit:
            name = "credit_number"
        text = self.labels[name]
        if name == "total" and self.mark_place == "total":
            text = self.extra["total_code"].format(label=text, code=self.currency)
        return text + self.colon

    def wordings(self) -> set[str]:
        """Every title, label and heading wording this layout can print (lower case; a two-line heading as one)."""
        joiner = self.extra["joiner"]
        words = {self.title, self.credit_title, *self.labels.values(), *self.extra["other_labels"]}
        words |= {joiner.join(split_heading(c.heading)) for c in self.columns}
        return {w.lower() for w in words}


def _fill(text: str, rng: random.Random) -> str:
    for n in range(10, 0, -1):
        while f"{{d{n}}}" in text:
            text = text.replace(f"{{d{n}}}", "".join(str(rng.randint(0, 9)) for _ in range(n)), 1)
    return text


def _stack(heading: str) -> str:
    """A one-line English heading of two or more words, broken onto two lines."""
    if "\n" in heading or " " not in heading:
        return heading
    words = heading.split(" ")
    cut = (len(words) + 1) // 2
    return " ".join(words[:cut]) + "\n" + " ".join(words[cut:])


def _order(rng: random.Random, words: dict, taxed: bool, region: str) -> tuple[str, ...]:
    order = list(rng.choice(ORDERS))
    if taxed and "vat" not in order and rng.random() < 0.25:
        order.insert(order.index("amount"), "vat")
    if "uom" not in order and rng.random() < 0.25:
        order.insert(order.index("quantity") + 1, "uom")
    if region != "us" and "discount" not in order and rng.random() < 0.12:
        order.insert(order.index("amount"), "discount")
    return tuple(k for k in order if words.get(k) and (taxed or k != "vat"))


def _cell_samples(lay: HeldHLayout) -> dict[str, str]:
    return {"line_no": "9990" if lay.extra["line_step"] == 10 else "999", "code": "BANK CHARGES",
            "quantity": lay.quantity(Decimal("-9999")), "uom": max(lay.extra["uom_values"], key=len),
            "unit_price": lay.money(Decimal("-999.99"), lines=True), "discount": lay.extra["discount_text"],
            "vat": lay.extra["vat_text"], "amount": lay.money(Decimal("-99999.99"), lines=True)}


def _columns(lay: HeldHLayout, order: tuple[str, ...], headings: dict[str, str], desc_chars: int | None
             ) -> tuple[Column, ...]:
    """Widths: each other column as wide as its widest heading line or value, plus padding; the description the
    rest (at most ``desc_chars`` capitals wide, the spare shared by the number columns); optional columns are
    dropped while the description would be narrower than 15 capitals."""
    font, bold = FONTS[lay.font]
    size, pad = lay.size, lay.size * 1.3
    table = lay.page[0] - 2 * lay.margin
    samples = _cell_samples(lay)
    order = list(order)
    while True:
        widths = {k: max([text_width(samples[k], font, size)] + [text_width(line, bold, size)
                                                                   for line in split_heading(headings[k])]) + pad
                  for k in order if k != "description"}
        rest = table - sum(widths.values())
        droppable = [k for k in ("discount", "uom", "vat", "line_no") if k in order]
        if rest >= text_width("M" * 15, font, size) or not droppable:
            break
        order.remove(droppable[0])
    desc = rest
    if desc_chars is not None:
        desc = min(rest, max(text_width("M" * desc_chars, font, size) * 0.8,
                             max(text_width(line, bold, size) for line in split_heading(headings["description"]))
                             + pad))
        numeric = [k for k in order if k in ("quantity", "unit_price", "amount", "vat", "discount")]
        for k in numeric:
            widths[k] += (rest - desc) / len(numeric)
    widths["description"] = desc
    return tuple(Column(k, headings[k], round(widths[k], 1)) for k in order)


def held_h_layout(seed: int) -> HeldHLayout:
    """The ``held-h`` layout drawn from ``seed`` (the same seed always gives the same layout)."""
    rng = random.Random(f"{FAMILY}:{seed}")
    region = rng.choice(tuple(REGIONS))
    spec = REGIONS[region]
    lang = rng.choice(spec["langs"])
    words, group = WORDS[lang], lang_group(lang)
    bilingual = group != "en"
    rate = spec["rate"]

    def pick(key: str) -> str:
        return rng.choice(words[key])

    title, credit_title = pick("title"), pick("credit_title")
    date_style = rng.choice(spec["dates"])
    labels = {k: pick(k) for k in ("invoice_number", "credit_number", "invoice_date", "customer_id", "country",
                                   "subtotal", "total")}
    labels["invoice_date"] += DATE_HINTS.get(date_style, "")
    labels["tax"] = pick("tax").format(rate=spec["rate_text"]) if rate is not None else "Sales Tax"
    font = rng.choices(("Helvetica", "Times", "Courier"), (5, 3, 2))[0]
    size = rng.choice((8.0, 8.5) if font == "Courier" else (8.0, 8.5, 9.0, 9.5))
    thousands, decimal = rng.choice(spec["numbers"])
    mark, where = rng.choice(spec["marks"])
    draw = rng.random()
    mark_place = where if draw < 0.6 else "total" if draw < 0.75 else "field" if draw < 0.9 else "note"
    currency = spec["currency"]
    if mark_place not in ("before", "after"):
        mark = currency
    header_place = rng.choice(("info-right", "info-left", "two-col", "strip"))
    billto = header_place.startswith("info") and rng.random() < 0.45
    fields = ["invoice_number", "invoice_date"] if rng.random() < 0.7 else ["invoice_date", "invoice_number"]
    if not billto:
        fields += ["customer_id", "country"] if rng.random() < 0.7 else ["country", "customer_id"]
    extras = [k for k in EXTRA_FIELDS if words.get(k)]
    for key in rng.sample(extras, rng.randint(0, min(3, len(extras)))):
        fields.insert(rng.randint(1, len(fields)), key)
    if mark_place == "field":
        fields.insert(rng.randint(1, len(fields)), "currency")
    number_in_title = not bilingual and rng.random() < 0.25
    if number_in_title:
        fields.remove("invoice_number")
    other = {k: pick(k) for k in fields if k in words and k not in labels}
    table_style = rng.choice(("grid", "lines", "band", "zebra", "open"))
    carry = rng.random() < (0.45 if region in ("de", "ch", "fi") else 0.2) and bool(words["carried"])
    if billto:
        other["bill_to"] = pick("bill_to")
    if carry:
        other["carried"], other["brought"] = pick("carried"), pick("brought")
    if region == "sg" and rng.random() < 0.6:
        other["words"] = pick("words")
    seller_rng = random.Random(f"{FAMILY}:{seed}:seller")
    extra = {
        "region": region, "lang": lang, "joiner": " / " if bilingual else " ", "fields": tuple(fields),
        "other_labels": tuple(other.values()), "other": other, "billto": billto,
        "pairs": "below" if header_place == "strip" else rng.choice(("inline", "inline", "below")),
        "seller_place": rng.choice(("left", "right", "center")), "title_place": rng.choice(("opposite", "below")),
        "number_in_title": number_in_title, "table_style": table_style, "carry": carry,
        "page_label_place": rng.choice(("foot-right", "foot-center", "top-right")),
        "accent": rng.choice(ACCENTS), "qty_places": rng.choice(spec["qty_places"]), "group_qty": rng.random() < 0.7,
        "line_step": 10 if region in ("de", "ch", "fi") and rng.random() < 0.5 else 1,
        "uom_values": (rng.choice(spec["uom"]),), "discount_text": rng.choice(("0.00", "0 %", "0%", "0.0")),
        "vat_text": "", "total_code": rng.choice(TOTAL_CODE),
        "terms": rng.choice(TERMS[lang]),
        "due_days": rng.choice((14, 30, 30, 60)), "notes": tuple(rng.sample(NOTES[region],
                                                                            rng.randint(0, len(NOTES[region])))),
        "bank": _fill(BANKS[region], seller_rng), "sender_line": region in ("de", "ch") and rng.random() < 0.5,
        "title_size": rng.choice((1.6, 2.0, 2.4)), "bold_values": rng.random() < 0.4,
        "totals_rule": rng.choice(("single", "double", "none")),
        "sales_rep": rng.choice(("07", "A. Novak", "TAN K.H.", "14")),
    }
    extra["discount_text"] = extra["discount_text"].replace(".", decimal)
    lay = HeldHLayout(
        family=FAMILY, seed=seed, style=FAMILY, font=font, size=size, page=PAGES[spec["page"]],
        margin=rng.choice((36.0, 42.0, 48.0, 56.0)), title=title, credit_title=credit_title, labels=labels,
        colon=rng.choice((":", "")), columns=(), date_style=date_style, thousands=thousands, decimal=decimal,
        currency=currency, mark=mark, mark_place=mark_place,
        mark_lines=mark_place in ("before", "after") and rng.random() < 0.3,
        negative=rng.choice(spec["negatives"]), tax_rate=rate, ruled=table_style in ("grid", "lines"),
        zebra=table_style == "zebra", header_place=header_place, totals_place=rng.choice(("stack", "box", "band")),
        two_row=False, seller=tuple(_fill(s, seller_rng) for s in rng.choice(SELLERS[region])),
        page_label=rng.choice(PAGE_LABELS[group]), continued=rng.choice(CONTINUED[group]),
        running=rng.choice(RUNNING[group]),
        currency_note=CURRENCY_NOTES[group].format(code=currency) if mark_place == "note" else None, extra=extra)
    stack = not bilingual and rng.random() < 0.35
    headings = {k: (_stack(pick(k)) if stack else pick(k)) for k in
                ("line_no", "code", "description", "quantity", "uom", "unit_price", "discount", "vat", "amount")
                if words.get(k)}
    order = _order(rng, words, rate is not None, region)
    lay = replace(lay, extra={**extra, "vat_text": _vat_text(rng, region, "code" in headings.get("vat", "").lower())})
    desc_chars = rng.choice((None, None, 22, 26, 30))
    return replace(lay, columns=_columns(lay, order, headings, desc_chars))


def _vat_text(rng: random.Random, region: str, code: bool) -> str:
    """What a per-line tax column prints: the market's tax code under a "code" heading, else the rate."""
    if code:
        return rng.choice({"gb": ("S", "T1"), "sg": ("SR",), "au": ("GST",)}.get(region, ("S",)))
    rates = {"gb": ("17.5%", "17.5"), "sg": ("7%", "7"), "au": ("10%",), "de": ("19 %", "19"), "ch": ("7.6", "7.6%"),
             "fi": ("23", "23 %")}
    return rng.choice(rates.get(region, ("",)))


def held_h_vocabulary() -> set[str]:
    """Every title, label and heading wording ``held-h`` can print (lower case; a two-line heading as one)."""
    out = {"sales tax"}
    for lang, words in WORDS.items():
        joiner = " / " if lang_group(lang) != "en" else " "
        rates = {spec["rate_text"] for spec in REGIONS.values()}
        for key, options in words.items():
            for text in options:
                if key == "tax":
                    out |= {text.format(rate=r).lower() for r in rates}
                    continue
                out.add(joiner.join(split_heading(text)).lower())
                if key == "invoice_date":
                    out |= {(text + hint).lower() for hint in DATE_HINTS.values()}
    return out
