"""The invoice family "held-g", a seventh held-aside family, written apart from the reader; not to be read while
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

import evaluation.invoice_held_g
import evaluation.invoice_held_g_draw
import evaluation.invoice_held_g_parts
import evaluation.invoice_held_g_words
import evaluation.invoice_layouts
from evaluation.invoice_eval import GROUPS, HELD
from evaluation.invoice_families import DEV_FAMILIES, FAMILIES, layout, vocabulary
from evaluation.invoice_held_g_words import DATES
from evaluation.invoice_records import RECORDS, SAMPLE, load_invoices
from evaluation.invoice_render import OWN_PAGES, render_pdf, truth
from evaluation.invoice_scans import scan

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}
FAMILY = "held-g"
LAYOUTS = [layout(s, FAMILY) for s in range(300)]
MODULES = (evaluation.invoice_held_g, evaluation.invoice_held_g_draw, evaluation.invoice_held_g_parts,
           evaluation.invoice_held_g_words)
MARKS = r"(?:\u20ac|\u00a3|\$|kr\.|kr|EUR|GBP|USD|CHF|SEK|DKK|PLN)"


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
    """Every number printed in the phrases (and in each of their words), parsed in the layout's grouping,
    decimal mark and sign styles."""
    t, d = re.escape(lay.thousands), re.escape(lay.decimal)
    num = (rf"\d{{1,3}}(?:{t}\d{{3}})+(?:{d}\d+)?|" if lay.thousands else "") + rf"\d+(?:{d}\d+)?"
    pattern = re.compile(rf"(?P<m1>-)?\s?{MARKS}?\s?(?P<m2>-)?(?P<num>{num})(?!\d)(?P<trail>-(?!\d))?")
    out = set()
    for text in [*phrases, *(w for p in phrases for w in p.split())]:
        for m in pattern.finditer(text):
            value = Decimal(m["num"].replace(lay.thousands or "\0", "").replace(lay.decimal, "."))
            out.add(-value if m["m1"] or m["m2"] or m["trail"] else value)
    return out


def _dates(lay, phrases: list[str]) -> set[dt.date]:
    """Every date printed in the phrases in the layout's date form."""
    pattern, out = DATES[lay.date_style][1], set()
    for phrase in phrases:
        words = phrase.split()
        for i in range(len(words)):
            for j in range(i + 1, min(i + 4, len(words)) + 1):
                try:
                    out.add(dt.datetime.strptime(" ".join(words[i:j]).strip(",;"), pattern).date())
                except ValueError:
                    pass
    return out


def _words(page) -> set[str]:
    words = [w[4] for w in page.get_text("words")]
    return {*words, *(w.strip("[]():#.,;") for w in words)}


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
    symbol = lay.mark in ("\u20ac", "\u00a3", "$") and lay.mark in last["text"]
    missing += [] if f.currency in first["words"] | last["words"] or symbol else ["currency"]
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
    assert GROUPS[FAMILY].startswith("held aside (g)") and FAMILY in HELD
    assert layout(0, FAMILY).style in OWN_PAGES and layout(0, FAMILY).family == FAMILY
    for module in MODULES:
        assert module.__doc__.startswith('HELD-ASIDE FAMILY "held-g"'), module.__name__
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
    assert len(fresh) >= 200 and len(fresh & dev) * 4 < len(fresh), (len(fresh), len(fresh & dev))
    assert all(lay.wordings() <= fresh for lay in LAYOUTS)
    assert all({lay.word(k).lower() for k in lay.labels} <= fresh for lay in LAYOUTS)


def test_layouts_vary_in_structure_and_formats():
    extra = lambda key: {lay.extra[key] for lay in LAYOUTS}  # noqa: E731
    assert len(extra("erp")) == 6 and len(extra("head")) == 4 and len(extra("table")) == 5
    assert len(extra("totals")) == 3 and extra("item") == {"column", "under"} and extra("carry") == {True, False}
    for attribute, least in (("date_style", 7), ("negative", 2), ("currency", 7), ("page_label", 6), ("font", 6),
                             ("continued", 5), ("title", 11), ("credit_title", 8), ("mark_place", 5)):
        count = len({getattr(lay, attribute) for lay in LAYOUTS})
        assert count >= least, (attribute, count)
    assert len({(lay.thousands, lay.decimal) for lay in LAYOUTS}) >= 5
    assert len({(lay.mark_place, lay.mark, lay.mark_lines) for lay in LAYOUTS}) >= 12
    assert len({lay.tax_rate for lay in LAYOUTS}) >= 7 and None in {lay.tax_rate for lay in LAYOUTS}
    assert len({tuple(c.key for c in lay.columns) for lay in LAYOUTS}) >= 40
    assert len({c.key for lay in LAYOUTS for c in lay.columns}) == 14
    assert {lay.page[0] > lay.page[1] for lay in LAYOUTS} == {True, False}
    assert len({lay.page for lay in LAYOUTS}) >= 3


@pytest.mark.parametrize("number", ["C536548", "C536391", "536414", "536558", "536365", "536381", "536591"])
def test_every_truth_value_is_printed_on_its_page(number):
    inv = INVOICES[number]
    for seed in range(18):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        assert not missing, (seed, missing[:3] if isinstance(missing[0], str) else len(missing))
        titled = (lay.credit_title if inv.is_credit else lay.title) in pages[0]
        assert titled, seed
        if inv.customer is None:  # no customer: its label is printed nowhere
            unlabelled = lay.label("customer_id") not in "\n".join(pages)
            assert unlabelled, seed
        assert ("tax" in lay.labels) == (truth(inv, lay).fields.tax is not None), seed


def test_a_long_invoice_runs_over_several_pages_with_the_headings_on_each():
    inv = INVOICES["536796"]  # 121 lines
    for seed in range(14):
        lay = layout(seed, FAMILY)
        pages, missing = _missing(inv, lay)
        reading = truth(inv, lay)
        assert not missing and len(pages) >= 3, (seed, len(missing), len(pages))
        with_items = {line.page for line in reading.lines}
        for n, text in enumerate(pages, 1):
            labelled = lay.page_mark(n, len(pages)) in text
            continued = lay.continued.format(next=n + 1) in text
            headed = all(all(w in text for w in lay.heading(c.key).split()) for c in lay.columns)
            assert labelled and inv.number in text and continued == (n < len(pages)), (seed, n)
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
def test_the_whole_records_print_in_many_layouts():
    if not RECORDS.is_file():
        pytest.skip(f"the full records are not here ({RECORDS}); see ../shared/invoices/SOURCES.md")
    for k, inv in enumerate(load_invoices(RECORDS)):
        seed = 1000 + k
        lay = layout(seed, FAMILY)
        _, missing = _missing(inv, lay)
        assert not missing, (seed, k, len(missing))
        clashes = _clashes(render_pdf(inv, lay))
        assert not clashes, (seed, k, clashes[:3])


def _clashes(pdf: bytes) -> list[tuple[int, str]]:
    out = []
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc:
            words = page.get_text("words")
            width, height = page.rect.width, page.rect.height
            out += [(page.number, "off") for w in words
                    if not (15 < w[0] and w[2] < width - 15 and 10 < w[1] and w[3] < height - 10)]
            boxes = sorted(w[:4] for w in words)
            for k, a in enumerate(boxes):
                for b in boxes[k + 1:]:
                    if b[0] >= a[2]:
                        break
                    if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1.5:
                        out.append((page.number, "overlap"))
    return out


def test_nothing_is_drawn_off_the_page_or_over_other_words():
    numbers = ["536381", "C536548", "536591", "536370", "536558", "C536391", "536414", "536796"]
    for seed in range(40, 110):
        clashes = _clashes(render_pdf(INVOICES[numbers[seed % len(numbers)]], layout(seed, FAMILY)))
        assert not clashes, (seed, clashes[:3])


def test_a_scan_is_images_only():
    inv, lay = INVOICES["536370"], layout(2, FAMILY)
    scanned = scan(render_pdf(inv, lay), seed=7)
    with pymupdf.open(stream=scanned, filetype="pdf") as doc:
        assert doc.page_count == truth(inv, lay).pages
        for page in doc:
            assert page.get_text().strip() == "" and len(page.get_images()) == 1
