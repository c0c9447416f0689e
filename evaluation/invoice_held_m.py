"""held-m, a held-aside invoice family: web shops' order invoices and invoices typed into a word processor, two
kinds of invoice that small businesses send every day, each printing numbers beside the wanted ones.

- **Shop order invoices** (kind ``shop``; platforms ``printer``, an order-printer template printed from the
  browser, ``plugin``, a shop plugin's PDF invoice, ``magento``, ``presta`` and ``market``, a marketplace seller's
  invoice): the shop's name as a logo, the title, the invoice number beside the order number, the invoice date and
  the order date (either first), the payment method ("Paid with Visa ending 4242"), billing and shipping addresses
  side by side with the customer number where the record has one, the items with their SKU under or after the
  product title in smaller grey type (or in a column of its own), a variant line in some, the quantity as "× 6"
  after the title or the price, or in a Qty column after the description, the unit price and the line total, a
  per-line tax rate in some; then the subtotal, a discount at 0.00 or "—", shipping free or at 0.00, the tax (a
  line of its own, or "Including £20.00 in taxes" under the total), the total, the amount paid and a balance of
  0.00. Browser-printed pages carry the browser's header and footer (date, page title, address, 1/2).
- **Word-processor invoices** (kind ``letter``; typed in ``word``, ``writer`` or ``docs``): a letterhead with
  address, phone, e-mail and registration numbers, the addressee block, the title plain or letter-spaced
  (I N V O I C E), the number, date and customer as a tab-stop list or a small table, a greeting in some, the
  line table with all borders, horizontal rules or none (tab-aligned text), headings bold or on shaded cells,
  descriptions wrapped in their cells, numbers right- or (sloppily) left-aligned, the totals as the table's last
  rows merged across the columns or as tab-aligned lines under it, the payment terms with the due date (in German
  the delivery date), bank details (IBAN, sort code), a signature, and a footer "Page 1 of 2"; the table runs on
  over pages with its heading row repeated or not.

Each seed picks the kind and a locale: UK (GBP, £1,234.56, VAT 20 %), US (USD, $1,234.56, sales tax or none),
Germany (EUR, 1.234,56 €, MwSt. 19 %, German labels), France (EUR, 1 234,56 € with a normal or a narrow space,
TVA 20 %, French labels), Canada (CAD, GST 5 % or HST) and Ireland (EUR, €1,234.56, VAT 23 %); a small firm's
typed invoice may charge no tax and say why. A numeric date that reads either way (01/12/2010) always has a
second date in the same format whose day is past 12 (the order, delivery or due date).

>>> lay = held_m_layout(4)
>>> lay == held_m_layout(4), lay.family, lay.style, lay.extra["kind"] in KINDS
(True, 'held-m', 'held-m', True)
>>> DATE_STYLES["m:d. Monat Y"](dt.date(2010, 12, 1)), DATE_STYLES["m:d mois Y"](dt.date(2010, 12, 1))
('1. Dezember 2010', '1er décembre 2010')
>>> rate_text(Decimal("0.19"), "de", True), rate_text(Decimal("0.08875"), "en"), rate_text(Decimal("0.2"), "fr")
('19 %', '8.875%', '20%')
"""

from __future__ import annotations

import datetime as dt
import random
import unicodedata
import zlib
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from evaluation.invoice_held_m_words import (BANKS, HST, LETTER, LETTER_TEXT, LOCALES, NO_TAX, PAGE_WORDS, PAYMENTS,
                                            REGISTRY, SHOP, SHOP_TEXT, SHOPS, FIRMS)
from evaluation.invoice_layouts import DATE_STYLES, MONTHS, PAGES, Column, Layout, text_width

__all__ = ["AMBIGUOUS", "FACES", "KINDS", "code_hash", "fill", "held_m_layout", "held_m_vocabulary", "quantity",
           "rate_text", "second_date", "slug", "tax_name"]

MONATE = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember")
MOIS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre",
        "décembre")


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


DATE_STYLES.update({
    "m:dd/mm/Y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "m:mm/dd/Y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "m:m/d/Y": lambda d: f"{d.month}/{d.day}/{d.year}",
    "m:dd.mm.Y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "m:Y-mm-dd": lambda d: d.isoformat(),
    "m:d Month Y": lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    "m:d Mon Y": lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",
    "m:Month d, Y": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    "m:Mon d, Y": lambda d: f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    "m:ordinal Month Y": lambda d: f"{_ordinal(d.day)} {MONTHS[d.month - 1]} {d.year}",
    "m:d. Monat Y": lambda d: f"{d.day}. {MONATE[d.month - 1]} {d.year}",
    "m:d mois Y": lambda d: f"{'1er' if d.day == 1 else d.day} {MOIS[d.month - 1]} {d.year}",
})
# Numeric forms that read either way while the day is 12 or less (the dotted one too: not every reader knows it).
AMBIGUOUS = {"m:dd/mm/Y", "m:mm/dd/Y", "m:m/d/Y", "m:dd.mm.Y"}
KINDS = ("shop", "letter")
LEGAL = {"ltd", "llc", "inc", "sarl", "e.k", "gmbh", "co", "j"}
LOCALE_WEIGHTS = {"UK": 3, "US": 2, "DE": 2, "FR": 2, "CA": 1, "IE": 1}
PLATFORMS = ("printer", "plugin", "magento", "presta", "market")
SHOP_ORDERS = {
    "printer": (("description", "quantity", "unit_price", "amount"), ("description", "unit_price", "amount")),
    "plugin": (("description", "quantity", "unit_price", "amount"), ("description", "unit_price", "amount"),
               ("description", "unit_price", "quantity", "amount")),
    "magento": (("description", "code", "unit_price", "quantity", "amount"),
                ("description", "code", "unit_price", "quantity", "vat_rate", "amount")),
    "presta": (("code", "description", "vat_rate", "unit_price", "quantity", "amount"),
               ("code", "description", "unit_price", "quantity", "amount")),
    "market": (("description", "quantity", "unit_price", "vat_rate", "amount"),
               ("description", "quantity", "unit_price", "amount")),
}
LETTER_ORDERS = (("line_no", "code", "description", "quantity", "unit_price", "amount"),
                 ("code", "description", "quantity", "unit_price", "amount"),
                 ("line_no", "description", "code", "quantity", "unit_price", "amount"),
                 ("code", "description", "unit_price", "quantity", "amount"),
                 ("code", "description", "quantity", "unit_price", "vat_rate", "amount"),
                 ("quantity", "code", "description", "unit_price", "amount"))
ACCENTS = ((0.13, 0.33, 0.42), (0.55, 0.27, 0.35), (0.18, 0.38, 0.25), (0.2, 0.2, 0.2), (0.75, 0.4, 0.1),
           (0.25, 0.3, 0.6))
_VERA = Path(reportlab.__file__).parent / "fonts"
FACES = {"Helvetica": ("Helvetica", "Helvetica-Bold"), "Times": ("Times-Roman", "Times-Bold"),
         "Vera": ("HM-Vera", "HM-Vera-Bold")}  # Vera: the DejaVu look of LibreOffice and of shop PDF plugins
for _name, _file in (("HM-Vera", "Vera.ttf"), ("HM-Vera-Bold", "VeraBd.ttf")):
    if _name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_name, str(_VERA / _file)))


def fill(text: str, tax: str, rate: str = "", code: str = "") -> str:
    """A wording with the tax name, the rate as printed and the currency code put in.

    >>> fill("{tax} @ {rate}", "VAT", "20%"), fill("zzgl. {rate} MwSt.", "MwSt.", "19 %")
    ('VAT @ 20%', 'zzgl. 19 % MwSt.')
    >>> fill("Total ({code})", "", "", "CAD"), fill("{tax} {rate}", "VAT")
    ('Total (CAD)', 'VAT')
    """
    return " ".join(text.replace("{tax}", tax).replace("{rate}", rate).replace("{code}", code).split())


def rate_text(rate: Decimal, lang: str, spaced: bool = False) -> str:
    """A tax rate as the locale prints it: as short as it goes, the decimal comma in German and French, a space
    before the sign where the layout types one."""
    text = f"{(rate * 100).normalize():f}"
    return (text.replace(".", ",") if lang != "en" else text) + (" %" if spaced else "%")


def tax_name(place: str, rate: Decimal | None) -> str:
    """The tax's name in a locale: Canada's HST where it is harmonised, GST elsewhere."""
    if place == "CA" and rate is not None:
        return "HST" if f"{rate:.2f}" in HST else "GST"
    return LOCALES[place]["tax"]


def quantity(value: Decimal) -> str:
    """A quantity as typed: a whole number, its minus where it is returned.

    >>> quantity(Decimal("6")), quantity(Decimal("-12")), quantity(Decimal("1200"))
    ('6', '-12', '1200')
    """
    return f"{value:f}" if value != value.to_integral_value() else str(int(value))


def second_date(lay: Layout, date: dt.date) -> dt.date:
    """The order or delivery date before the invoice date (``days`` negative) or the due date after it, moved on
    (or back) to a day past 12, so that a numeric date printed beside it can be read one way only.

    >>> lay = next(held_m_layout(s) for s in range(50) if held_m_layout(s).extra["days"] < 0)
    >>> d = second_date(lay, dt.date(2010, 12, 2)); d < dt.date(2010, 12, 2) and d.day > 12
    True
    """
    days = lay.extra["days"]
    step = dt.timedelta(days=1 if days > 0 else -1)
    out = date + dt.timedelta(days=days)
    while out.day <= 12:
        out += step
    return out


def code_hash(*parts) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def _digits(rng: random.Random) -> dict[str, str]:
    return {f"d{n}{tag}": "".join(str(rng.randint(0, 9)) for _ in range(n)) for n in range(2, 10)
            for tag in ("", "b", "c")}


def slug(name: str) -> str:
    """A firm's name as its web address has it: no accents, no legal form.

    >>> slug("Boutique Lefèvre"), slug("Whitaker & Dunn Crafts Ltd"), slug("Geschenkideen Sommer e.K.")
    ('boutiquelefevre', 'whitakerdunncrafts', 'geschenkideensommer')
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = [w for w in plain.replace("&", " ").split() if w.strip(".,") not in LEGAL]
    return "".join(ch for ch in "".join(words) if ch.isalnum())


def _columns(lay: Layout, order: tuple[str, ...], headings: dict[str, str], width: float, wide: tuple[str, ...] = (),
             min_desc: float = 110.0) -> tuple[Column, ...]:
    """Each number column as wide as its widest value or the longest word of its heading (headings wrap), the
    amount column also as wide as ``wide`` (totals printed in it), the description taking the rest. A layout too
    narrow for a description of ``min_desc`` points drops its line counter and tax-rate columns."""
    face, bold = lay.extra["face"]
    size, pad = lay.size, lay.size * 1.2
    samples = {"line_no": "999", "code": "15056BL",
               "quantity": "-9999", "vat_rate": lay.extra.get("rate_text") or "20%",
               "unit_price": lay.money(Decimal("-999.99"), lines=True),
               "amount": lay.money(Decimal("-99999.99"), lines=True)}
    if lay.extra.get("qty_mode") == "price":
        samples["unit_price"] += " × -9999"

    def measure(keys):
        out = {k: max(text_width(samples[k], face, size), *(text_width(w, bold, size) for w in headings[k].split()))
               + pad for k in keys if k != "description"}
        if "amount" in out:
            out["amount"] = max([out["amount"], *(text_width(v, bold, size) + pad for v in wide)])
        return out

    widths = measure(order)
    for spare in ("line_no", "vat_rate"):
        if width - sum(widths.values()) < min_desc and spare in order:
            order = tuple(k for k in order if k != spare)
            widths = measure(order)
    widths["description"] = width - sum(widths.values())
    return tuple(Column(k, headings[k], round(widths[k], 2)) for k in order)


def _money(place: str, loc: dict, rng: random.Random, kind: str) -> tuple[str, str]:
    """The currency mark and where it goes: the symbol (a shop) or the symbol or code (a typed invoice)."""
    mark = loc["symbol"]
    if kind == "letter" and (place in ("DE", "FR") and rng.random() < 0.35 or place == "UK" and rng.random() < 0.15):
        mark = loc["currency"]
    return mark, loc["place"]


def _base(rng: random.Random, place: str, words: dict, rate: Decimal | None,
          spaced: bool) -> tuple[dict, dict, str, str]:
    """Titles, labels and headings picked from ``words`` with the tax, rate and currency put in."""
    loc, lang = LOCALES[place], LOCALES[place]["lang"]
    tax, rtext = tax_name(place, rate), rate_text(rate, lang, spaced) if rate is not None else ""
    pick = {k: rng.choice(v) for k, v in words.items()}
    if rate is None:
        pick["subtotal"] = next(w for w in words["subtotal"] if "{tax}" not in w)
    labels = {k: fill(v, tax, rtext, loc["currency"]) for k, v in pick.items()}
    title, credit = labels.pop("title"), labels.pop("credit_title")
    head_keys = ("line_no", "code", "description", "quantity", "unit_price", "vat_rate", "amount")
    headings = {k: labels.pop(k) for k in head_keys if k in labels}
    if rate is None:
        labels.pop("tax", None)
    return labels, headings, title, credit


def _shop(seed: int, rng: random.Random, place: str) -> Layout:
    loc, lang = LOCALES[place], LOCALES[place]["lang"]
    platform = rng.choice(PLATFORMS)
    raw = rng.choice(loc["shop_rates"])
    rate = Decimal(raw) if raw else None
    spaced = lang != "en" and rng.random() < 0.6
    labels, headings, title, credit = _base(rng, place, SHOP[lang], rate, spaced)
    if headings["amount"] == headings["unit_price"]:
        headings["amount"] = SHOP[lang]["amount"][0]
    text = {k: rng.choice(v) for k, v in SHOP_TEXT[lang].items()}
    order = rng.choice(SHOP_ORDERS[platform])
    if rate is None:
        order = tuple(k for k in order if k != "vat_rate")
    qty_mode = "column" if "quantity" in order else rng.choice(("title", "price"))
    shop = rng.choice(SHOPS[place])
    face = "Vera" if platform in ("plugin", "presta") and rng.random() < 0.5 else "Helvetica"
    size = rng.choice((8.0, 8.5, 9.0, 9.5))
    page = PAGES[loc["page"]]
    furniture = "browser" if platform == "printer" or platform == "market" and rng.random() < 0.3 else "plugin"
    margin = rng.choice((28.0, 32.0)) if furniture == "browser" else rng.choice((36.0, 42.0, 48.0))
    date_style = rng.choice(loc["shop_dates"])
    thousands, decimal = loc["numbers"]
    mark, mark_place = _money(place, loc, rng, "shop")
    included = rate is not None and place in ("UK", "DE", "FR", "IE") and rng.random() < 0.35
    digits = _digits(rng)
    extra = {
        "kind": "shop", "platform": platform, "locale": place, "lang": lang, "face": FACES[face],
        "qty_mode": qty_mode, "sku": "column" if "code" in order else rng.choice(("under", "under", "after")),
        "sku_prefix": text["sku"], "variant": text["variant"] if rng.random() < 0.45 else None,
        "variant_every": rng.choice((1, 2, 3)), "header": rng.choice(("logo", "band", "centred")),
        "logo": rng.choice(("circle", "square", "leaf", "none")), "accent": rng.choice(ACCENTS),
        "meta": rng.choice(("right", "box", "under")), "order_first": rng.random() < 0.5,
        "heading_style": rng.choice(("rule", "shaded", "dark")), "rows": rng.choice(("lines", "zebra", "plain")),
        "discount": rng.choice(("zero", "dash", None)), "shipping": rng.choice(("free", "zero")),
        "included": included, "paid": rng.random() < 0.7, "balance": rng.random() < 0.6,
        "code_note": place == "CA" or rng.random() < 0.25, "total_code": place in ("CA", "US") and rng.random() < 0.5,
        "furniture": furniture, "repeat_heading": rng.random() < 0.6, "days": -rng.randint(1, 9),
        "payment": rng.choice(PAYMENTS[lang]).format(last4=digits["d4"]), "shop": shop,
        "registry": (REGISTRY[place][0] if rate is not None and place != "US" else rng.choice(REGISTRY[place])
                     ).format(**digits), "phone": _phone(place, digits),
        "thanks": text["thanks"], "returns": text["returns"].format(email=f"hello@{shop[2]}"),
        "note": text["note"].format(code=loc["currency"]), "included_text": text["included"], "free": text["free"],
        "printed": f"{rng.randint(1, 12)}:{rng.randint(0, 59):02d} {rng.choice(('AM', 'PM'))}" if place == "US"
        else f"{rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}",
        "order_style": {"printer": "hash", "plugin": "plain", "magento": "zeros", "presta": "letters",
                        "market": "market"}[platform], "order_base": rng.randint(1001, 8999),
        "rate_text": rate_text(rate, lang, spaced) if rate is not None else "", "tax_name": tax_name(place, rate),
        "narrow": place == "FR" and rng.random() < 0.5, "title_side": rng.choice(("left", "right")),
    }
    page_label = "{n}/{m}" if furniture == "browser" else rng.choice(PAGE_WORDS[lang])
    lay = Layout(
        family="held-m", seed=seed, style="held-m", font=face if face != "Vera" else "Helvetica", size=size,
        page=page, margin=margin, title=title, credit_title=credit, labels=labels,
        colon=rng.choice(("", ":")) if lang != "fr" else rng.choice(("", " :")), columns=(), date_style=date_style,
        thousands=thousands, decimal=decimal, currency=loc["currency"], mark=mark, mark_place=mark_place,
        mark_lines=True, negative="minus", tax_rate=rate, ruled=extra["rows"] == "lines",
        zebra=extra["rows"] == "zebra", header_place=extra["header"], totals_place="right", two_row=False,
        seller=(shop[0], *shop[1], loc["home"]), page_label=page_label, continued=None, running="",
        currency_note=extra["note"], extra=extra)
    width = page[0] - 2 * margin
    wide = (lay.money(Decimal("-99999.99")),)
    return replace(lay, columns=_columns(lay, order, headings, width, wide, min_desc=150.0))


def _phone(place: str, d: dict[str, str]) -> str:
    return {"UK": f"01225 {d['d6']}", "US": f"(303) 555-{d['d4']}", "DE": f"+49 40 {d['d4']} {d['d3']}",
            "FR": f"04 78 {d['d2']} {d['d2b']} {d['d2'][::-1]}", "CA": f"(416) 555-{d['d4']}",
            "IE": f"+353 91 {d['d3']} {d['d4']}"}[place]


def _letter(seed: int, rng: random.Random, place: str) -> Layout:
    loc, lang = LOCALES[place], LOCALES[place]["lang"]
    raw = rng.choice(loc["letter_rates"])
    rate = Decimal(raw) if raw else None
    spaced = lang != "en" and rng.random() < 0.5
    labels, headings, title, credit = _base(rng, place, LETTER[lang], rate, spaced)
    text = {k: rng.choice(v) for k, v in LETTER_TEXT[lang].items() if k != "doc"}
    software = rng.choice(("word", "word", "writer", "docs"))
    face = {"word": rng.choice(("Times", "Helvetica")), "writer": rng.choice(("Vera", "Times")),
            "docs": "Helvetica"}[software]
    size = rng.choice((9.5, 10.0, 10.5, 11.0))
    margin = {"word": 72.0, "writer": 56.7, "docs": 72.0}[software] - rng.choice((0.0, 0.0, 14.0))
    page = PAGES[loc["page"]]
    order = rng.choice(LETTER_ORDERS)
    if rate is None:
        order = tuple(k for k in order if k != "vat_rate")
    firm = rng.choice(FIRMS[place])
    digits = _digits(rng)
    domain = slug(firm[0]) + {"UK": ".co.uk", "US": ".com", "DE": ".de", "FR": ".fr",
                                                          "CA": ".ca", "IE": ".ie"}[place]
    thousands, decimal = loc["numbers"]
    mark, mark_place = _money(place, loc, rng, "letter")
    registry = rng.sample(REGISTRY[place], 2)
    if rate is not None and place in ("UK", "IE", "DE", "FR", "CA"):  # a firm charging VAT prints its VAT number
        registry = [REGISTRY[place][0], rng.choice(REGISTRY[place][1:])]
    date_style = rng.choice(loc["letter_dates"])
    pay_days = rng.choice((14, 21, 28))  # Dec 1 or 2 plus these: a due day past 12 as it is
    extra = {
        "kind": "letter", "software": software, "locale": place, "lang": lang, "face": FACES[face],
        "letterhead": rng.choice(("left", "centred", "right")), "head_rule": rng.random() < 0.5,
        "title_align": rng.choice(("left", "center", "right")), "meta": rng.choice(("tabs", "tabs", "table")),
        "meta_side": rng.choice(("right", "left")), "dateline": rng.random() < (0.7 if lang == "de" else 0.3),
        "greeting": rng.random() < (0.6 if lang == "de" else 0.35),
        "borders": rng.choice(("all", "horizontal", "none")),
        "head": rng.choice(("bold", "shaded")), "align": rng.choice(("right", "right", "left")),
        "totals": rng.choice(("merged", "tabs")), "pay_days": pay_days,
        "days": -rng.randint(2, 9) if lang == "de" else pay_days, "text": text, "firm": firm, "domain": domain,
        "phone": _phone(place, digits),
        "registry": [r.format(**digits) for r in registry],
        "bank": rng.choice(BANKS[place]).format(firm=firm[0], domain=domain, **_digits(rng)),
        "order_ref": rng.choice((None, f"PO-{rng.randint(10000, 99999)}", f"{rng.randint(1000, 9999)}/10")),
        "repeat_heading": rng.random() < 0.5, "footer_ref": rng.random() < 0.5, "caps_country": rng.random() < 0.5,
        "no_tax_note": NO_TAX[place] if rate is None else "", "shade": rng.choice((0.82, 0.88, 0.92)),
        "rate_text": rate_text(rate, lang, spaced) if rate is not None else "", "tax_name": tax_name(place, rate),
        "narrow": place == "FR" and rng.random() < 0.5, "intro": rng.random() < 0.5,
        "code_note": place == "CA" or mark_place == "before" and mark == "$" and rng.random() < 0.3,
    }
    if extra["borders"] == "none":
        extra["head"] = "bold"
    lay = Layout(
        family="held-m", seed=seed, style="held-m", font=face if face != "Vera" else "Helvetica", size=size, page=page,
        margin=margin, title=title, credit_title=credit, labels=labels,
        colon=":" if lang != "fr" else rng.choice((" :", ":")), columns=(), date_style=date_style,
        thousands=thousands, decimal=decimal, currency=loc["currency"], mark=mark, mark_place=mark_place,
        mark_lines=rng.random() < 0.4, negative="minus", tax_rate=rate, ruled=extra["borders"] != "none",
        zebra=False, header_place=extra["letterhead"], totals_place=extra["totals"], two_row=False,
        seller=(firm[0], *firm[2], loc["home"]), page_label=rng.choice(PAGE_WORDS[lang]), continued=None,
        running=text["running"], currency_note=f"All amounts in {loc['currency']}." if lang == "en" else None,
        extra=extra)
    width = page[0] - 2 * margin
    wide = (lay.money(Decimal("-99999.99")),) if extra["totals"] == "merged" else ()
    return replace(lay, columns=_columns(lay, order, headings, width, wide, min_desc=120.0))


def held_m_layout(seed: int) -> Layout:
    """The held-m layout drawn from ``seed``: one kind in one locale (see the module docstring)."""
    rng = random.Random(f"held-m:{seed}")
    kind = rng.choice(KINDS)
    place = rng.choice([k for k, w in LOCALE_WEIGHTS.items() for _ in range(w)])
    return _shop(seed, rng, place) if kind == "shop" else _letter(seed, rng, place)


def held_m_vocabulary() -> set[str]:
    """Every title, label and heading wording held-m can print (lower case), with each locale's tax name, rates
    and currency code put in."""
    out = set()
    for place, loc in LOCALES.items():
        lang = loc["lang"]
        rates = {Decimal(r) for r in (*loc["shop_rates"], *loc["letter_rates"]) if r} | {None}
        for rate in rates:
            for spaced in (False, True):
                rtext = rate_text(rate, lang, spaced) if rate is not None else ""
                for table in (SHOP[lang], LETTER[lang]):
                    for choices in table.values():
                        out |= {fill(w, tax_name(place, rate), rtext, loc["currency"]).lower() for w in choices}
    return out
