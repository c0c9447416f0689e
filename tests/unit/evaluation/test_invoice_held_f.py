"""The invoice family "held-f", a sixth held-aside family, written apart from the reader; not to be read while
developing it (nor this test): its layouts are deterministic and varied, it prints every value of its truth on the
page the truth names (read back from the PDF's text layer and parsed in the layout's number and date forms),
nothing off the page or over other words, and its scans are images only.

Checked by the generator's own means (the PDFs' text layer), never by reading the invoices with the reader. The
assertion messages name seeds and counts, not the family's wordings.
"""

from __future__ import annotations

import datetime as dt
import doctest
import re
from decimal import Decimal

import pymupdf
import pytest

import evaluation.invoice_held_f
import evaluation.invoice_held_f_draw
import evaluation.invoice_held_f_parts
import evaluation.invoice_held_f_words
import evaluation.invoice_layouts
from evaluation.invoice_eval import GROUPS, HELD
from evaluation.invoice_families import DEV_FAMILIES, FAMILIES, layout, vocabulary
from evaluation.invoice_held_f_words import CURRENCY_NAMES, DATES
from evaluation.invoice_records import RECORDS, SAMPLE, load_invoices
from evaluation.invoice_render import OWN_PAGES, render_pdf, truth
from evaluation.invoice_scans import scan

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
FAMILY = "held-f"
LAYOUTS = [layout(s, FAMILY) for s in range(300)]
MODULES = (evaluation.invoice_held_f, evaluation.invoice_held_f_draw, evaluation.invoice_held_f_parts,
           evaluation.invoice_held_f_words)


def _phrases(page) -> list[str]:
    """The page's words joined into phrases: words of one line closer than a wide space."""
    out, last = [], None
    for x0, y0, x1, y1, word, block, line, _ in page.get_text("words", sort=False):
        if last and (block, line) == last[:2] and x0 - last[2] < 0.7 * (y1 - y0):
            out[-1] += " " + word
        else:
            out.append(word)
        last = (block, line, x1)
    return out


def _numbers(lay, phrases: list[str]) -> set[Decimal]:
    """Every number printed in the phrases, parsed in the layout's grouping, decimal mark and sign forms."""
    t = re.escape(lay.thousands)
    num = (rf"\d{{1,3}}(?:{t}\d{{3}})+(?:\.\d+)?|" if lay.thousands else "") + r"\d+(?:\.\d+)?"
    mark = r"(?:US\$|\u00a3|\u20ac|\$|GBP|EUR|USD)?"
    pattern = re.compile(rf"(?P<open>\()?(?P<m1>-)?{mark}\s?(?P<m2>-)?(?P<open2>\()?(?P<num>{num})(?!\d)"
                         rf"(?P<close>\))?")
    out = set()
    for phrase in phrases:
        for m in pattern.finditer(phrase):
            value = Decimal(m["num"].replace(lay.thousands or "\0", ""))
            negative = m["m1"] or m["m2"] or ((m["open"] or m["open2"]) and m["close"])
            out.add(-value if negative else value)
    return out


def _dates(lay, phrases: list[str]) -> set[dt.date]:
    """Every date printed in the phrases in the layout's date form."""
    pattern, out = DATES[lay.date_style][1], set()
    for phrase in phrases:
        words = phrase.split()
        for i in range(len(words)):
            for j in range(i + 1, min(i + 5, len(words)) + 1):
                try:
                    out.add(dt.datetime.strptime(" ".join(words[i:j]), pattern).date())
                except ValueError:
                    pass
    return out


def _words(page) -> set[str]:
    words = [w[4] for w in page.get_text("words")]
    return {*words, *(w.strip("[]():#.,") for w in words)}


def _currency_shown(lay, first: str, last: str) -> bool:
    """The currency is stated: by its code or name or, unambiguously, by its symbol."""
    symbol = {"GBP": "\u00a3", "EUR": "\u20ac", "USD": "$"}[lay.currency]
    text = first + last
    if lay.currency in text or CURRENCY_NAMES[lay.currency] in text:
        return True
    if lay.currency == "USD":
        return "US$" in text or (lay.seller[3] == "US" and "$" in text)
    return symbol in text


def _missing(inv, lay) -> tuple[list, list]:
    """What of the truth is not printed: the header fields on page 1, the totals on the last page, each line's
    values on the page the truth names (numbers parsed back, code and description word by word)."""
    reading = truth(inv, lay)
    with pymupdf.open(stream=render_pdf(inv, lay), filetype="pdf") as doc:
        assert doc.page_count == reading.pages
        pages = [{"text": p.get_text(), "phrases": _phrases(p), "words": _words(p)} for p in doc]
    for page in pages:
        page["numbers"] = _numbers(lay, page["phrases"])
    f, first, last = reading.fields, pages[0], pages[-1]
    missing: list = []
    missing += [] if f.invoice_number in first["words"] else ["number"]
    missing += [] if _currency_shown(lay, first["text"], last["text"]) else ["currency"]
    missing += [] if f.customer_id is None or f.customer_id in first["words"] else ["customer"]
    missing += [] if f.country in first["text"] else ["country"]
    missing += [] if f.invoice_date in _dates(lay, first["phrases"]) else ["date"]
    money = [("subtotal", f.subtotal), ("total", f.total)] + ([("tax", f.tax)] if f.tax is not None else [])
    missing += [k for k, v in money if v not in last["numbers"]]
    for n, line in enumerate(reading.lines):
        page = pages[line.page - 1]
        missing += [(n, k) for k in ("quantity", "unit_price", "amount") if getattr(line, k) not in page["numbers"]]
        missing += [(n, w) for w in f"{line.code} {line.description or ''}".split() if w not in page["words"]]
    return [p["text"] for p in pages], missing


def test_doctests():
    for module in MODULES:
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_family_is_held_aside_and_reported_as_its_own_group():
    assert FAMILY in FAMILIES and FAMILY not in DEV_FAMILIES and FAMILIES.index(FAMILY) > FAMILIES.index("held-e")
    assert FAMILY not in evaluation.invoice_layouts.FAMILIES
    with pytest.raises(ValueError, match="evaluation.invoice_families"):
        evaluation.invoice_layouts.layout(0, FAMILY)
    assert GROUPS[FAMILY].startswith("held aside (f)") and FAMILY in HELD
    assert layout(0, FAMILY).style in OWN_PAGES and layout(0, FAMILY).family == FAMILY
    for module in MODULES:
        assert module.__doc__.startswith("HELD-ASIDE FAMILY"), module.__name__
        assert len(open(module.__file__, encoding="utf-8").read().splitlines()) <= 460, module.__name__


def test_layouts_are_deterministic():
    for seed in range(20):
        assert layout(seed, FAMILY) == layout(seed, FAMILY) != layout(seed + 1, FAMILY)
    inv = INVOICES["C536548"]
    for seed in (3, 8):
        assert render_pdf(inv, layout(seed, FAMILY)) == render_pdf(inv, layout(seed, FAMILY))


def test_every_printed_wording_is_listed_and_most_are_none_of_the_dev_families():
    fresh = vocabulary(FAMILY)
    dev = set().union(*(vocabulary(f) for f in DEV_FAMILIES))
    assert len(fresh) >= 200 and len(fresh & dev) * 2 < len(fresh), (len(fresh), len(fresh & dev))
    assert all(lay.wordings() <= fresh for lay in LAYOUTS)
    base = {w for lay in LAYOUTS for w in lay.wordings()}  # the wordings themselves, before any currency is added
    assert len(base & dev) * 2 < len(base), (len(base), len(base & dev))


def test_layouts_vary_in_structure_and_formats():
    extra = lambda key: {lay.extra[key] for lay in LAYOUTS}  # noqa: E731
    assert len(extra("kit")) == 6 and len(extra("header")) == 5 and len(extra("table")) >= 8
    assert len(extra("totals")) == 5 and extra("code_place") == {"column", "under"}
    assert len(extra("paper")) == 6 and {lay.page[0] > lay.page[1] for lay in LAYOUTS} == {True, False}
    for attribute, least in (("date_style", 8), ("negative", 2), ("currency", 3), ("page_label", 5),
                             ("font", 4), ("continued", 5), ("title", 12), ("credit_title", 12), ("size", 6),
                             ("mark_place", 6), ("thousands", 2)):
        count = len({getattr(lay, attribute) for lay in LAYOUTS})
        assert count >= least, (attribute, count)
    assert len({(lay.mark_place, lay.mark, lay.mark_lines) for lay in LAYOUTS}) >= 10
    assert len({lay.tax_rate for lay in LAYOUTS}) >= 3 and None in {lay.tax_rate for lay in LAYOUTS}
    assert len({tuple(c.key for c in lay.columns) for lay in LAYOUTS}) >= 30
    assert len({c.key for lay in LAYOUTS for c in lay.columns}) >= 12


@pytest.mark.parametrize("number", ["C536548", "C536391", "536414", "536558", "536365", "536370", "536381"])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for seed in range(18):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        assert not missing, (seed, missing[:3] if isinstance(missing[0], str) else len(missing))
        titled = lay.upper(lay.credit_title if inv.is_credit else lay.title) in pages[0]
        assert titled, seed
        if inv.customer is None:  # no customer: its label is printed nowhere
            unlabelled = lay.label("customer_id") not in "\n".join(pages)
            assert unlabelled, seed
        assert ("tax" in lay.labels) == (truth(inv, lay).fields.tax is not None), seed


def test_a_long_invoice_runs_over_several_pages_with_the_headings_on_each():
    inv = INVOICES["536796"]  # 121 lines
    for seed in range(12):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        reading = truth(inv, lay)
        assert not missing and len(pages) >= 3, (seed, len(missing), len(pages))
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(pages, 1):
            labelled = evaluation.invoice_held_f_parts.page_label(lay, n, len(pages)) in text
            continued = lay.continued.format(next=n + 1) in text
            headed = all(all(w in text.upper() for w in lay.heading(c.key).upper().split()) for c in lay.columns)
            numbered = inv.number in text
            assert labelled and numbered and continued == (n < len(pages)), (seed, n)
            assert headed or n not in with_items, (seed, n)
        assert [line.page for line in reading.lines] == sorted(line.page for line in reading.lines)


def test_the_longest_invoice_of_the_records_is_printed_whole():
    if not RECORDS.is_file():
        pytest.skip(f"the full records are not here ({RECORDS}); see ../shared/invoices/SOURCES.md")
    inv = max(load_invoices(RECORDS), key=lambda i: len(i.rows))  # 592 lines
    for seed in (0, 5):
        pages, missing = _missing(inv, layout(seed, FAMILY))
        assert not missing and len(pages) >= 10, (seed, len(missing), len(pages))


@pytest.mark.slow
def test_the_longest_invoice_is_printed_whole_in_many_layouts():
    if not RECORDS.is_file():
        pytest.skip(f"the full records are not here ({RECORDS}); see ../shared/invoices/SOURCES.md")
    inv = max(load_invoices(RECORDS), key=lambda i: len(i.rows))
    for seed in range(100, 130):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        assert not missing and len(pages) >= 8, (seed, len(missing), len(pages))
        assert not _clashes(render_pdf(inv, lay)), seed


def _clashes(pdf: bytes) -> list[tuple[int, str]]:
    out = []
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc:
            words = page.get_text("words")
            width, height = page.rect.width, page.rect.height
            out += [(page.number, "off") for w in words
                    if not (12 < w[0] and w[2] < width - 12 and 10 < w[1] and w[3] < height - 10)]
            boxes = sorted(w[:4] for w in words)
            for k, a in enumerate(boxes):
                for b in boxes[k + 1:]:
                    if b[0] >= a[2]:
                        break
                    if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1.5:
                        out.append((page.number, "overlap"))
    return out


def test_nothing_is_drawn_off_the_page_or_over_other_words():
    numbers = ["536381", "C536548", "536591", "536370", "536558", "C536391", "536414"]
    for seed in range(40, 110):
        clashes = _clashes(render_pdf(INVOICES[numbers[seed % len(numbers)]], layout(seed, FAMILY)))
        assert not clashes, (seed, clashes[:3])


@pytest.mark.slow
def test_nothing_clashes_in_many_more_layouts():
    for seed in range(110, 600):
        inv = list(INVOICES.values())[seed % len(INVOICES)]
        clashes = _clashes(render_pdf(inv, layout(seed, FAMILY)))
        assert not clashes, (seed, clashes[:3])


@pytest.mark.slow
def test_every_truth_value_is_printed_in_many_more_layouts():
    for seed in range(18, 400):
        inv = list(INVOICES.values())[seed % len(INVOICES)]
        _, missing = _missing(inv, layout(seed, FAMILY))
        assert not missing, (seed, len(missing))


def test_a_scan_is_images_only():
    inv, lay = INVOICES["536370"], layout(2, FAMILY)
    scanned = scan(render_pdf(inv, lay), seed=7)
    with pymupdf.open(stream=scanned, filetype="pdf") as doc:
        assert doc.page_count == truth(inv, lay).pages
        for page in doc:
            assert page.get_text().strip() == "" and len(page.get_images()) == 1
