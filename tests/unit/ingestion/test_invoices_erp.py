"""What accounting and ERP systems print around the wanted values, read as a reviewer would: a net and a gross
amount column, a unit column under a heading other software gives the price, rates, and running sums at page
breaks."""

from __future__ import annotations

from decimal import Decimal

from evaluation.invoice_dev_f import dev_f_layout
from evaluation.invoice_records import SAMPLE, load_invoices
from evaluation.invoice_render import paginate, render_pdf, truth
from ingestion.invoices.columns import Column, assign_roles
from ingestion.invoices.read import interpret, read_invoice
from ingestion.invoices.words import Word

INVOICES = {inv.number: inv for inv in load_invoices(SAMPLE)}


def _roles(headings, rows):
    cols = [Column(role, 0, 1, []) for role in headings]
    return assign_roles(cols, rows), [c.role for c in cols]


def test_of_a_net_and_a_gross_column_both_headed_amount_the_arithmetic_picks_the_net():
    rows = [["22632", "HAND WARMER", "6", "1.85", "20%", "11.10", "13.32"],
            ["21135", "POSTCARD", "16", "1.69", "20%", "27.04", "32.45"]]
    ok, roles = _roles(["code", "description", "quantity", "unit_price", None, "amount", "amount"], rows)
    assert ok and roles == ["code", "description", "quantity", "unit_price", None, "amount", None]


def test_a_unit_column_headed_unit_is_no_price_and_no_code():
    rows = [["22632", "HAND WARMER", "6", "PCS", "1.85", "11.10"], ["21135", "POSTCARD", "16", "PCS", "1.69", "27.04"],
            ["22961", "JAM MAKING SET", "12", "PK", "1.4500", "17.40"]]
    ok, roles = _roles([None, "description", "quantity", "unit_price", None, "amount"], rows)
    assert ok and roles == ["code", "description", "quantity", None, "unit_price", "amount"]


def test_a_rate_column_is_no_description_when_the_items_have_none():
    ok, roles = _roles([None, None, None, None, None], [["37509", "20%", "1", "0.00", "0.00"]])
    assert roles[1] != "description"


def test_running_sums_at_page_breaks_are_no_lines_and_no_totals():
    inv = INVOICES["536591"]
    seed = next(s for s in range(200) if dev_f_layout(s).extra["forward"] and len(paginate(inv, dev_f_layout(s))) > 2)
    lay = dev_f_layout(seed)
    reading, expected = read_invoice(render_pdf(inv, lay), "x.pdf"), truth(inv, lay)
    assert [line.to_dict() for line in reading.lines] == [line.to_dict() for line in expected.lines]
    assert reading.fields.to_dict() == expected.fields.to_dict()
    # A description word longer than its column stretches it, so a wrap may look like a note: only that is doubted.
    assert all(c.name.endswith("description joined") for c in reading.checks if not c.passed)


def _at(y: float, *cells: tuple[float, str], page: int = 1) -> list[Word]:
    """A row of words at height ``y``: each cell's words from its x on, 6 pt a character and 3 pt apart."""
    out = []
    for x, text in cells:
        for word in text.split():
            out.append(Word(word, x, y - 5, x + 6 * len(word), y + 5, page))
            x += 6 * len(word) + 3
    return sorted(out, key=lambda w: w.x0)


def _failed(reading) -> dict[str, str]:
    return {c.name: c.detail for c in reading.checks if not c.passed}


HEAD = [_at(60, (40, "Invoice No.:"), (140, "536365")), _at(75, (40, "Date:"), (140, "2010-12-01")),
        _at(90, (40, "Customer No.:"), (140, "17850")), _at(105, (40, "Country:"), (140, "United Kingdom"))]


def test_totals_labels_made_of_known_words_name_their_field():
    # No phrase of the vocabulary is "Total before VAT" or "Tax Total": the words they are made of say what they are.
    rows = [*HEAD, _at(150, (40, "Code"), (100, "Description"), (300, "Qty"), (360, "Price"), (450, "Amount")),
            _at(165, (40, "22632"), (100, "HAND WARMER"), (306, "6"), (360, "1.85"), (450, "11.10")),
            _at(190, (300, "Total before VAT"), (430, "EUR 11,10")), _at(205, (300, "Tax Total 20%"), (430, "EUR 2,22")),
            _at(220, (300, "Invoice Total"), (430, "EUR 13,32")), _at(235, (300, "Payments Received"), (430, "EUR 0,00")),
            _at(250, (300, "Balance Due"), (430, "EUR 13,32"))]
    fields = interpret([rows], 1).fields
    assert (fields.subtotal, fields.tax, fields.total) == (Decimal("11.10"), Decimal("2.22"), Decimal("13.32"))


def test_a_running_sum_with_its_thousands_a_space_apart_is_no_line_and_no_total():
    heading = ((40, "Code"), (100, "Description"), (300, "Qty"), (360, "Price"), (450, "Amount"))
    page1 = [*HEAD, _at(150, *heading),
             _at(165, (40, "22632"), (100, "HAND WARMER"), (306, "6"), (348, "250,00"), (450, "1 500,00")),
             _at(180, (100, "Carried forward"), (450, "1 500,00"))]
    page2 = [_at(50, *heading, page=2), _at(65, (100, "Brought forward"), (450, "1 500,00"), page=2),
             _at(80, (40, "21135"), (100, "POSTCARD"), (306, "1", ), (360, "1,69"), (450, "1,69"), page=2),
             _at(110, (300, "Total"), (450, "1 501,69 EUR"), page=2)]
    reading = interpret([page1, page2], 2)
    assert [(ln.code, ln.amount, ln.page) for ln in reading.lines] == [("22632", Decimal("1500.00"), 1),
                                                                        ("21135", Decimal("1.69"), 2)]
    assert reading.fields.total == Decimal("1501.69") and not reading.needs_review


def test_one_heading_read_as_two_over_one_text_keeps_the_description_whole():
    # "Item Name" is read as "Item" (a code heading) and an unknown "Name": the words under both are one description,
    # and the code is the number column the heading did not name.
    rows = [*HEAD, _at(150, (40, "No."), (90, "Item"), (119, "Name"), (300, "Qty"), (360, "Price"), (450, "Amount")),
            _at(165, (40, "22171"), (90, "3 HOOK"), (125, "PHOTO SHELF"), (306, "1"), (360, "8.50"), (450, "8.50")),
            _at(180, (40, "21462"), (90, "NURSERY"), (140, "A,B,C PAINTED"), (306, "1"), (360, "6.75"),
                (450, "6.75")),
            _at(195, (40, "22622"), (90, "BOX OF"), (131, "VINTAGE BLOCKS"), (306, "2"), (360, "9.95"),
                (450, "19.90")),
            _at(220, (300, "Total"), (450, "£35.15"))]
    reading = interpret([rows], 1)
    assert [(ln.code, ln.description) for ln in reading.lines] == [
        ("22171", "3 HOOK PHOTO SHELF"), ("21462", "NURSERY A,B,C PAINTED"), ("22622", "BOX OF VINTAGE BLOCKS")]


def test_a_column_of_words_read_into_no_value_is_a_doubt():
    # A "Colour" column is none of the line's values; its words are not lost silently.
    rows = [*HEAD, _at(150, (40, "Code"), (100, "Description"), (220, "Colour"), (300, "Qty"), (360, "Price"),
                       (450, "Amount")),
            _at(165, (40, "22632"), (100, "HAND WARMER"), (220, "RED"), (306, "6"), (360, "1.85"), (450, "11.10")),
            _at(180, (40, "21135"), (100, "POSTCARD"), (220, "BLUE"), (306, "1"), (360, "1.69"), (450, "1.69")),
            _at(195, (40, "22961"), (100, "JAM SET"), (220, "GREEN"), (306, "1"), (360, "1.45"), (450, "1.45")),
            _at(220, (300, "Total"), (450, "£14.24"))]
    reading = interpret([rows], 1)
    assert [ln.description for ln in reading.lines] == ["HAND WARMER", "POSTCARD", "JAM SET"]
    assert "'Colour'" in _failed(reading)["columns of page 1: words read into nothing"]
    units = [[*r[:-1], r[-1]] for r in rows]  # the same column holding units of measure is no doubt
    for r, unit in zip(units[5:8], ("EA", "PK", "BOX")):
        r[[w.text for w in r].index(next(w.text for w in r if 215 <= w.x0 <= 225))] = Word(unit, 220, r[0].y0, 238,
                                                                                          r[0].y1, 1)
    assert "columns of page 1: words read into nothing" not in _failed(interpret([units], 1))


def test_an_item_heading_over_the_lines_counted_is_no_code():
    # "Item" names the code in much software, the line's number in other: 1, 2, 3 are no products' codes.
    rows = [*HEAD, _at(150, (40, "Item"), (80, "Part number"), (170, "Description"), (300, "Qty"), (360, "Price"),
                       (450, "Amount")),
            _at(165, (40, "1"), (80, "22632"), (170, "HAND WARMER"), (306, "6"), (360, "1.85"), (450, "11.10")),
            _at(180, (40, "2"), (80, "21135"), (170, "POSTCARD"), (306, "1"), (360, "1.69"), (450, "1.69")),
            _at(205, (300, "Total"), (450, "£12.79"))]
    reading = interpret([rows], 1)
    assert [ln.code for ln in reading.lines] == ["22632", "21135"]


def test_two_columns_that_could_each_hold_the_code_are_a_doubt():
    # No heading the reader knows names either column: the article number and the barcode both differ line to line.
    rows = [*HEAD, _at(150, (40, "Art."), (90, "EAN"), (190, "Description"), (300, "Qty"), (360, "Price"),
                       (450, "Amount")),
            _at(165, (40, "22632"), (90, "5012345678900"), (190, "HAND WARMER"), (306, "6"), (360, "1.85"),
                (450, "11.10")),
            _at(180, (40, "21135"), (90, "5012345678917"), (190, "POSTCARD"), (306, "1"), (360, "1.69"),
                (450, "1.69")),
            _at(205, (300, "Total"), (450, "£12.79"))]
    reading = interpret([rows], 1)
    assert "'EAN'" in _failed(reading)["columns of page 1: code told apart"]
    one = [[w for w in r if not 90 <= w.x0 < 180] if 150 <= r[0].y0 + 5 <= 180 else r for r in rows]
    assert "columns of page 1: code told apart" not in _failed(interpret([one], 1))


def test_a_line_without_the_code_the_others_print_is_a_doubt():
    rows = [*HEAD, _at(150, (40, "Code"), (100, "Description"), (300, "Qty"), (360, "Price"), (450, "Amount")),
            _at(165, (40, "22632"), (100, "HAND WARMER"), (306, "6"), (360, "1.85"), (450, "11.10")),
            _at(180, (100, "POSTCARD"), (306, "1"), (360, "1.69"), (450, "1.69")),
            _at(205, (300, "Total"), (450, "£12.79"))]
    reading = interpret([rows], 1)
    assert "line 2 (page 1) has no code, which 1 of the 2 lines print" in _failed(reading)["line 2: code read"]


def test_a_unit_and_a_code_column_headed_uom_code_are_two_columns():
    """``UOM Code`` is a phrase naming one column (a unit of measure's code), but the rows under it show two: ``EA``
    under ``UOM`` and the product's code under ``Code``, a word space from it. The code is read."""
    rows = [*HEAD, _at(150, (40, "Qty"), (80, "UOM"), (106, "Code"), (160, "Product Description"), (360, "Price"),
                       (450, "Amount")),
            *[_at(165 + 15 * k, (46, q), (80, "EA"), (106, code), (160, name), (360, price), (450, amount))
              for k, (q, code, name, price, amount) in enumerate([("12", "10002", "INFLATABLE GLOBE", "0.85", "10.20"),
                                                                   ("8", "21912", "SNAKES & LADDERS", "3.75", "30.00"),
                                                                   ("2", "22839", "3 TIER CAKE TIN", "14.95", "29.90")])],
            _at(230, (300, "Total"), (430, "EUR 70.10"))]
    reading = interpret([rows], 1)
    assert [ln.code for ln in reading.lines] == ["10002", "21912", "22839"]
    assert not reading.needs_review, _failed(reading)


def test_a_code_column_holding_positions_beside_one_holding_codes_is_a_doubt():
    """``Item`` over ``10`` (a position, as some ERP systems number their lines) beside ``Material`` over ``22113``:
    the column headed as the code holds none shaped as one, and which column is the code is for a reviewer."""
    rows = [*HEAD, _at(150, (40, "Item"), (70, "Item description"), (240, "Material"), (300, "Qty"),
                       (360, "Unit price"), (450, "Amount")),
            _at(165, (46, "10"), (70, "GREY HEART HOT WATER BOTTLE"), (240, "22113"), (306, "6"), (360, "3.75"),
                (450, "22.50")),
            _at(190, (300, "Total"), (430, "EUR 22.50"))]
    failed = _failed(interpret([rows], 1))
    assert "columns of page 1: code told apart" in failed
    assert "holds no codes" in failed["columns of page 1: code told apart"]


def _table(y: float) -> list[list[Word]]:
    return [_at(y, (40, "Code"), (100, "Description"), (300, "Qty"), (360, "Price"), (450, "Amount")),
            _at(y + 15, (40, "22632"), (100, "HAND WARMER"), (306, "6"), (360, "1.85"), (450, "11.10")),
            _at(y + 40, (300, "Total"), (430, "GBP 11.10"))]


def test_a_number_under_its_own_label_in_a_packed_row_of_values_is_the_customers():
    """``Pay by | Sold-to`` over ``31 December 2010 | 16274``, the columns packed a few points apart: the date's
    year beside the number belongs to the column to its left, and 16274 is the customer's."""
    head = [_at(60, (40, "Invoice No.:"), (140, "536569")), _at(75, (40, "Country:"), (140, "United Kingdom")),
            _at(95, (40, "Posting day"), (160, "Pay by"), (256, "Sold-to")),
            _at(108, (40, "01 December 2010"), (160, "31 December 2010"), (256, "16274"))]
    fields = interpret([head + _table(150)], 1).fields
    assert fields.customer_id == "16274" and fields.invoice_date.isoformat() == "2010-12-01"


def test_a_country_printed_only_in_the_senders_letterhead_is_a_doubt():
    """The only country on the page stands in the letterhead, with the sender's telephone: it is taken, and the
    reviewer is asked whether the customer's is printed in a form not read."""
    head = [_at(20, (40, "Harbor & Vine Trading Co.")), _at(32, (40, "880 Industrial Way")),
            _at(44, (40, "United States")), _at(56, (40, "Phone 201-555-2491")),
            _at(80, (300, "Invoice No.:"), (400, "536366")), _at(95, (300, "Date:"), (400, "2010-12-01")),
            _at(110, (300, "Customer No.:"), (400, "17850"))]
    reading = interpret([head + _table(150)], 1)
    assert reading.fields.country == "United States"
    assert "country told apart" in _failed(reading)
