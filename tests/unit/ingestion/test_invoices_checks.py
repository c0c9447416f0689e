"""The invoice checks a reviewer relies on: each names what failed, none passes a wrong sum, and an invoice goes to
review exactly when a check failed or a value a check needs is missing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from core.invoices import InvoiceFields, InvoiceLine
from ingestion.invoices.checks import gaps, misread_text, run_checks
from ingestion.invoices.lookalike import english, lookalike

D = Decimal


def _fields(**kw) -> InvoiceFields:
    base = dict(invoice_number="536365", invoice_date=dt.date(2010, 12, 1), country="France", currency="GBP", subtotal=D("5.00"),
                total=D("5.00"))
    return InvoiceFields(**{**base, **kw})


def _line(qty="2", price="1.25", amount="2.50", code="A", page=1, description="MUG") -> InvoiceLine:
    return InvoiceLine(code, description, None if qty is None else D(qty), None if price is None else D(price),
                       None if amount is None else D(amount), page)


def _failed(checks) -> dict[str, str]:
    assert all(c.passed is True or c.passed is False for c in checks)  # the API answers true or false, never null
    return {c.name: c.detail for c in checks if c.passed is False}


def test_an_invoice_whose_every_sum_agrees_needs_no_review():
    checks, review = run_checks(_fields(), [_line(), _line(code="B")])
    assert not review and all(c.passed for c in checks)
    assert [c.name for c in checks] == ["line 1: quantity x unit price", "line 2: quantity x unit price",
                                        "lines sum to subtotal", "subtotal + tax = total"]
    assert checks[0].detail == "line 1 (page 1, A): 2 x 1.25 = 2.50, amount printed 2.50"


def test_a_line_off_by_a_cent_fails_and_is_named_with_its_page_and_code():
    checks, review = run_checks(_fields(subtotal=D("5.01"), total=D("5.01")),
                                [_line(), _line(amount="2.51", code="22632", page=3)])
    assert review
    assert _failed(checks) == {"line 2: quantity x unit price":
                               "line 2 (page 3, 22632): 2 x 1.25 = 2.50, amount printed 2.51"}


def test_a_product_is_rounded_half_up_to_the_cent():
    checks, _ = run_checks(_fields(subtotal=D("1.01"), total=D("1.01")), [_line("3", "0.335", "1.01")])
    assert all(c.passed for c in checks)
    checks, _ = run_checks(_fields(subtotal=D("1.00"), total=D("1.00")), [_line("3", "0.335", "1.00")])
    assert "line 1: quantity x unit price" in _failed(checks)


def test_a_line_without_code_says_so():
    checks, _ = run_checks(_fields(subtotal=D("2.50"), total=D("2.50")), [_line(code=None)])
    assert checks[0].detail.startswith("line 1 (page 1, no code):")


def test_a_line_missing_a_number_fails_and_asks_for_review():
    checks, review = run_checks(_fields(subtotal=D("2.50"), total=D("2.50")), [_line(price=None)])
    assert review
    assert _failed(checks) == {"line 1: quantity x unit price":
                               "line 1 (page 1) lacks its quantity, unit price or amount"}


def test_every_line_is_checked_after_one_that_lacks_a_number():
    checks, _ = run_checks(_fields(subtotal=D("5.10"), total=D("5.10")), [_line(price=None), _line(amount="2.60")])
    assert set(_failed(checks)) == {"line 1: quantity x unit price", "line 2: quantity x unit price"}
    checks, _ = run_checks(_fields(subtotal=D("0.00"), total=D("0.00")), [_line(amount=None)])
    assert [c.detail for c in checks if c.name == "lines sum to subtotal"] == [
        "the 1 line amounts sum to 0.00, the subtotal is 0.00"]


def test_lines_are_summed_to_the_subtotal_or_without_one_to_the_total():
    lines = [_line(), _line(code="B")]
    assert _failed(run_checks(_fields(subtotal=D("4.99")), lines)[0])["lines sum to subtotal"] == \
        "the 2 line amounts sum to 5.00, the subtotal is 4.99"
    checks, review = run_checks(_fields(subtotal=None, total=D("5.00")), lines)
    assert not review and "lines sum to total" in [c.name for c in checks]
    assert "subtotal + tax = total" not in [c.name for c in checks]
    checks, review = run_checks(_fields(subtotal=None, total=D("5.10")), lines)
    assert review and _failed(checks) == {"lines sum to total": "the 2 line amounts sum to 5.00, the total is 5.10"}


def test_subtotal_and_tax_must_make_the_total():
    lines = [_line(), _line(code="B")]
    checks, review = run_checks(_fields(tax=D("1.00"), total=D("6.00")), lines)
    assert not review
    assert [c.detail for c in checks if c.name == "subtotal + tax = total"] == ["5.00 + 1.00 = 6.00, the total is 6.00"]
    checks, review = run_checks(_fields(tax=D("1.00"), total=D("5.00")), lines)
    assert review and _failed(checks) == {"subtotal + tax = total": "5.00 + 1.00 = 6.00, the total is 5.00"}
    checks, _ = run_checks(_fields(total=D("5.00")), lines)  # no tax printed counts as none
    assert [c.detail for c in checks if c.name == "subtotal + tax = total"] == ["5.00 + 0.00 = 5.00, the total is 5.00"]


def test_each_field_every_invoice_prints_must_be_read():
    for name, label in (("invoice_number", "invoice number"), ("invoice_date", "invoice date"),
                        ("currency", "currency"), ("total", "total")):
        checks, review = run_checks(_fields(**{name: None}), [_line(), _line(code="B")])
        assert review
        assert _failed(checks)[f"{label} read"] == (f"no {label} was read: every invoice prints one; read it "
                                                   "from the page")
    checks, review = run_checks(_fields(customer_id=None, tax=None), [_line(), _line(code="B")])
    assert not review  # these an invoice may leave out
    # A country is printed with the customer's address: one missed is as wrong as one misread.
    checks, review = run_checks(_fields(country=None), [_line(), _line(code="B")])
    assert review and _failed(checks) == {"country read": "no country was read: if the page prints one, read it "
                                                          "from the page"}


def test_a_label_printed_without_a_value_fails_once():
    checks, review = run_checks(_fields(), [_line(), _line(code="B")], unread=["customer_id", "total"])
    assert review
    assert _failed(checks) == {"customer ID read": "its label is printed but no customer ID could be read next "
                                                   "to it or below it"}


def test_a_country_is_checked_against_the_names_known():
    lines = [_line(), _line(code="B")]
    assert run_checks(_fields(country="united kingdom"), lines) == (run_checks(_fields(country="France"), lines)[0],
                                                                    False)
    checks, review = run_checks(_fields(country="Ship to"), lines)
    assert review and _failed(checks) == {"country read": "'Ship to' is not a country name this reader knows: "
                                                          "check the country on the page"}


def test_an_invoice_with_no_line_read_asks_for_review():
    checks, review = run_checks(_fields(), [])
    assert review and all(c.passed for c in checks)
    assert [c.name for c in checks] == ["subtotal + tax = total"]


def test_text_in_mixed_case_is_doubted_only_on_scanned_pages():
    lines = [_line(description="PaCK OF 72"), _line(description="Pack of 72", page=2),
             _line(description="iPod DOCK", page=2)]
    assert misread_text(lines, scanned={1}) == [
        ("line 1: text read in mixed case", "line 1 (page 1) reads 'PaCK': a letter may be misread; check it on "
                                            "the page")]
    assert misread_text(lines, scanned={2}) == []  # one capital (Pack) or one after a small letter (iPod)
    both = [_line(description="PaCK OF 72"), _line(description="MuG", page=2), _line(description="BaG", page=2)]
    assert [name for name, _ in misread_text(both, scanned={2})] == ["line 2: text read in mixed case",
                                                                     "line 3: text read in mixed case"]
    coded = [_line(code="AbC12", description="MUG")]
    assert [name for name, _ in misread_text(coded, scanned={1})] == ["line 1: text read in mixed case"]


def test_a_word_one_look_alike_from_english_is_doubted_once_per_line():
    lines = [_line(description="3 TRADITIONAI BISCUIT 5HED"), _line(description="PaCK TRADITIONAI"),
             _line(description="RETROSPOT BAG")]
    doubts = misread_text(lines, scanned={1})
    assert doubts == [
        ("line 1: a word read may be misread", "line 1 (page 1) reads 'TRADITIONAI', which is not a word; "
                                               "'TRADITIONAL' is: a letter may be misread; check it on the page"),
        ("line 2: text read in mixed case", "line 2 (page 1) reads 'PaCK': a letter may be misread; check it on "
                                            "the page")]


def test_a_look_alike_is_sought_in_letters_not_in_codes_or_short_words():
    assert lookalike("C0LOUR") == "COLOUR" and lookalike("c0lour") == "colour"
    assert lookalike("SHED,") is None and lookalike("5HED,") == "SHED"  # punctuation around a word is not its own
    assert lookalike("5H") is None  # too short to tell
    assert lookalike("8500") is None and lookalike("85O0") is None  # a number, or mostly digits
    assert lookalike("B'FLY") is None  # not letters and digits only
    assert lookalike("W1NKLE") == "WINKLE" and lookalike("WINKLE") is None
    assert lookalike("B0X") == "BOX"  # three letters are enough
    assert lookalike("BOIL") is None  # English already, though a swap makes another word (BOLL)
    assert lookalike("SIQTH") is None  # only look-alikes are swapped: Q is no X
    assert lookalike("C0LOurs") == "colours"  # capitals only when most letters are
    assert lookalike("ILOVE") == "I LOVE" and lookalike("ilove") == "i love"  # a space dropped after I, either case
    assert lookalike("BOXI") == "BOX I" and lookalike("boxa") == "box a"  # or before a last I or A
    assert lookalike("TAXI") is None and lookalike("PIZZA") is None and lookalike("BOX") is None  # English already
    assert lookalike("XQZI") is None and lookalike("OXI") is None  # no English before the I; too short to tell


def test_a_word_is_english_only_when_every_part_of_it_is():
    assert english("GLASS") and english("T-LIGHT") and english("LOVE/HATE") and english("holder.")
    assert not english("ILOVE") and not english("RETROSPOT") and not english("T-") and not english("LOVE/XQZT")
    assert not english("I") and english("I", shortest=1)


def test_a_space_dropped_after_i_and_a_dash_read_as_1_are_doubted_on_scanned_lines():
    """OCR joins ``I LOVE`` into ``ILOVE`` and reads the dash of ``TOAST ITS - BEST MUM`` as ``1``: no arithmetic
    check sees either, so each is named for a reviewer; on a text layer, and in text printed so, nothing is."""
    lines = [InvoiceLine("23206", "LUNCH BOX ILOVE LONDON", Decimal("6"), None, None, 1),
             InvoiceLine("22659", "LUNCH BOXI LOVE LONDON", Decimal("64"), None, None, 1),
             InvoiceLine("21354", "TOAST ITS 1 BEST MUM", Decimal("12"), None, None, 1),
             InvoiceLine("22580", "ADVENT CALENDAR GINGHAM SACK", Decimal("4"), None, None, 1),
             InvoiceLine("22776", "SWEETHEART CAKESTAND 3 TIER", Decimal("1"), None, None, 1)]
    doubts = misread_text(lines, scanned={1})
    assert [name for name, _ in doubts] == ["line 1: a word read may be misread", "line 2: a word read may be misread",
                                            "line 3: a word read may be misread"]
    assert "'I LOVE' is" in doubts[0][1] and "'BOX I' is" in doubts[1][1] and "'ITS 1 BEST'" in doubts[2][1]
    assert misread_text(lines, scanned={2}) == []


def test_a_line_lacking_the_code_or_description_others_print_is_named_with_its_page():
    lines = [_line(code="A1"), _line(code=None, page=2), _line(code="A3", page=2)]
    assert gaps(lines) == [("line 2: code read", "line 2 (page 2) has no code, which 2 of the 3 lines print: check it "
                                                 "on the page")]
    uncoded = [_line(code=None), _line(code=None)]
    assert gaps(uncoded) == []  # an invoice that prints no codes is not doubted for them
    assert [name for name, _ in gaps(uncoded, {"code"})] == ["line 1: code read", "line 2: code read"]
    unnamed = [_line(description=None), _line(description=None, page=3)]
    assert gaps(unnamed)[1] == ("line 2: description read", "line 2 (page 3) has no description, as every item has "
                                                            "one: check it on the page")


def test_a_code_that_reads_as_an_amount_is_doubted():
    lines = [_line(code=" 129.12 "), _line(code="(£1,204.50)"), _line(code="22633"), _line(code="85.123A")]
    assert gaps(lines) == [("line 1: code told apart", "the code of line 1 (page 1), ' 129.12 ', reads as an amount: "
                                                       "check the line's code and values"),
                           ("line 2: code told apart", "the code of line 2 (page 1), '(£1,204.50)', reads as an "
                                                       "amount: check the line's code and values")]


def test_a_comma_read_against_the_word_after_it_is_doubted_on_scanned_lines():
    """``KEY FOB , FRONT DOOR`` is printed with a space each side of its comma; OCR reads it ``FOB ,FRONT`` or
    ``FOB, FRONT``. The first is printed so by no one and is named for a reviewer; the second reads as commas do."""
    lines = [_line(description="KEY FOB ,FRONT DOOR"), _line(description="KEY FOB , SHED"),
             _line(description="KEY FOB, BACK DOOR"), _line(description="DOORSTOP,RETROSPOT")]
    assert misread_text(lines, scanned={1}) == [
        ("line 1: a word read may be misread", "line 1 (page 1) reads 'FOB ,FRONT': the spaces around the comma may "
                                               "be misread; check it on the page")]
    assert misread_text(lines, scanned={2}) == []


def test_a_line_number_read_into_the_description_is_doubted_on_scanned_lines():
    lines = [_line(description="1ANTIQUE SILVER TEA GLASS"), _line(description="20LIGHT STAR"),
             _line(description="3D DOG STICKERS")]
    assert misread_text(lines, scanned={1}) == [
        ("line 1: a word read may be misread", "line 1 (page 1) reads '1ANTIQUE': the line's number may be read "
                                               "into its description; check it on the page")]


def test_a_lone_1_is_doubted_only_between_two_words_wherever_it_stands():
    """The 1 of ``ITS 1 BEST`` is doubted as the second word or the last but one, not after or before a number, nor
    as the last word (``SET OF 1``); a line number glued to two capitals is doubted (``2AB``), to one not (``2D``)."""
    def said(description, code=None, n=1):
        return [d for _, d in misread_text([_line(code=code, description=description)] * n, scanned={1})]
    assert said("ITS 1 BEST MUM") == ["line 1 (page 1) reads 'ITS 1 BEST': the 1 may be a misread dash or I; check "
                                      "it on the page"]
    assert said("TOAST ITS 1 BEST") == ["line 1 (page 1) reads 'ITS 1 BEST': the 1 may be a misread dash or I; check "
                                        "it on the page"]
    assert said("SET 1 BEST", code="22633")[0].startswith("line 1 (page 1) reads 'SET 1 BEST'")
    assert said("PACK 12 1 BEST") == said("PACK OF 1 12 MUGS") == said("SET OF 1") == said("1 BEST MUG") == []
    assert said("2AB HOOK", n=2)[0] == ("line 2 (page 1) reads '2AB': the line's number may be read into its "
                                        "description; check it on the page")
    assert said("2D HOOK", n=2) == []
