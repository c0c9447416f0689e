"""Rows as OCR gives them: boxes taller than the letters and by more or less, overlapping from one line to the next,
a word dropped or a dotted leader read as signs. Each case is a scan's rows (coordinates as the recogniser gave
them, trimmed) where the reader went wrong, unflagged or flagged, before."""

from __future__ import annotations

from decimal import Decimal

from ingestion.invoices.read import interpret
from ingestion.invoices.words import Word
from tests.support.invoices import failed_names, line_values


def _rows(*rows: list[tuple[str, float, float, float, float]]) -> list[list[Word]]:
    return [[Word(t, x0, y0, x1, y1, 1, ocr=True) for t, x0, y0, x1, y1 in row] for row in rows]


def test_a_title_naming_the_tax_is_no_label_of_the_number_under_it():
    # "TAX INVOICE" over "Invoice No.: ... 536804": read as the tax's label, its value below (the invoice number)
    # was the tax, and the invoice number was lost to it.
    rows = _rows(
        [("TAX", 112, 72, 131, 84), ("INVOICE", 139, 72, 186, 84)],
        [("Invoice", 21, 100, 54, 110), ("No.:", 59, 100, 79, 110), ("··.", 83, 104, 98, 108),
         ("536804", 249, 100, 276, 111)],
        [("Date", 20, 111, 41, 121), ("of", 45, 111, 56, 121), ("invoice:", 59, 111, 98, 122),
         ("................", 102, 111, 178, 122), ("2", 228, 111, 233, 122), ("Dec", 239, 111, 252, 122),
         ("2010", 258, 111, 277, 122)],
        [("Account:", 20, 123, 60, 132), ("14031", 253, 122, 277, 133)],
        [("Country:", 20, 133, 59, 144), ("United", 208, 133, 239, 144), ("Kingdom", 243, 133, 278, 144)],
        [("PRODUCT", 25, 177, 58, 187), ("CODE", 63, 177, 82, 187), ("DESCRIPTION", 90, 177, 130, 187),
         ("UNITS", 137, 177, 160, 188), ("UNIT", 169, 177, 188, 187), ("PRICE", 193, 177, 218, 187),
         ("AMOUNT", 245, 177, 273, 188)],
        [("22632", 25, 192, 50, 202), ("MUG", 90, 192, 110, 202), ("2", 150, 192, 155, 202),
         ("1.25", 200, 192, 218, 202), ("2.50", 255, 192, 273, 202)],
        [("Total:", 200, 230, 228, 240), ("£2.50", 250, 230, 273, 240)])
    reading = interpret([rows], 1)
    assert (reading.fields.invoice_number, reading.fields.tax, reading.fields.total) == ("536804", None,
                                                                                         Decimal("2.50"))
    assert not reading.needs_review, failed_names(reading)


_BOTTOM_ALIGNED = (  # a spreadsheet's wrapped cells, each item's numbers on its description's last line
    [("Line", 65, 257, 83, 273), ("Description", 89, 257, 134, 273), ("Product", 179, 258, 213, 272),
     ("Code", 214, 258, 236, 272), ("Quantity", 272, 258, 307, 273), ("Rate", 360, 258, 380, 273),
     ("Line", 423, 258, 439, 272), ("Total", 444, 258, 465, 272)],
    [("WHITE", 90, 274, 115, 287), ("HANGING", 118, 274, 156, 287)],
    [("HEART", 86, 283, 117, 297), ("T-LIGHT", 118, 283, 153, 297)],
    [("1", 67, 295, 76, 306), ("HOLDER", 88, 294, 123, 308), ("85123A", 177, 294, 207, 308),
     ("6", 298, 294, 309, 307), ("2.55", 362, 293, 380, 308), ("15.30", 441, 294, 465, 308)],
    [("WHITE", 89, 308, 116, 322), ("METAL", 119, 308, 146, 322)],
    [("2", 66, 319, 76, 332), ("LANTERN", 86, 319, 126, 332), ("71053", 178, 318, 203, 333),
     ("6", 298, 319, 309, 332), ("3.39", 361, 319, 381, 333), ("20.34", 441, 319, 463, 333)],
    [("CREAM", 87, 334, 116, 347), ("CUPID", 122, 334, 147, 347)],
    [("HEARTS", 87, 344, 122, 357), ("COAT", 125, 344, 150, 357)],
    [("3", 65, 355, 76, 367), ("HANGER", 88, 354, 125, 367), ("84406B", 177, 353, 207, 367),
     ("6", 298, 354, 309, 367), ("2.75", 362, 353, 380, 368), ("16.50", 441, 354, 465, 368)],
    [("Total", 400, 380, 425, 394), ("52.14", 441, 380, 465, 394)])


def test_descriptions_wrapped_upwards_are_read_as_the_item_rows_below_them_on_a_scan():
    # OCR's boxes overlap from line to line, so the cells' padding shows only between the rows' middles; and the
    # first wrapped line under "Line Description" is no second line of that heading.
    reading = interpret([_rows(*_BOTTOM_ALIGNED)], 1)
    assert [line.description for line in reading.lines] == [
        "WHITE HANGING HEART T-LIGHT HOLDER", "WHITE METAL LANTERN", "CREAM CUPID HEARTS COAT HANGER"]
    assert not [name for name in failed_names(reading) if name.startswith("line")]  # (no header is printed)


def test_a_line_position_the_recogniser_dropped_leaves_the_others_out_of_the_codes():
    # "Pos" over 2, 3, 4, read into the code column under "Invoice lines" over "Pos Item"; the first line's "1" was
    # not read at all.
    rows = _rows(
        [("Invoice", 44, 213, 70, 224), ("lines", 72, 213, 87, 224)],
        [("Pos", 48, 229, 58, 237), ("Item", 64, 229, 76, 238), ("identifier", 81, 229, 111, 238),
         ("Name", 132, 229, 152, 238), ("Qty", 393, 228, 407, 239), ("Unit", 413, 228, 426, 238),
         ("Net", 438, 227, 450, 239), ("price", 452, 227, 469, 239), ("VAT", 477, 227, 493, 238),
         ("%", 495, 227, 501, 238), ("Net", 511, 228, 523, 239), ("amount", 524, 228, 550, 239)],
        [("21733", 63, 242, 85, 253), ("RED", 131, 242, 147, 253), ("HANGING", 149, 242, 184, 253),
         ("HEART", 186, 242, 210, 253), ("6", 400, 242, 405, 254), ("H87", 412, 242, 427, 254),
         ("2,9500", 447, 242, 469, 254), ("20", 486, 241, 494, 254), ("%", 496, 241, 500, 254),
         ("17,70", 532, 242, 550, 253)],
        [("2", 54, 255, 58, 267), ("22113", 64, 255, 84, 267), ("GREY", 131, 256, 152, 266),
         ("HEART", 154, 256, 179, 266), ("4", 401, 255, 405, 267), ("H87", 413, 255, 425, 267),
         ("3,7500", 447, 255, 469, 267), ("20", 487, 255, 495, 267), ("%", 496, 255, 500, 267),
         ("15,00", 532, 255, 550, 267)],
        [("3", 55, 269, 59, 280), ("22804", 64, 269, 84, 280), ("CANDLEHOLDER", 132, 270, 192, 280),
         ("PINK", 194, 270, 211, 280), ("6", 400, 269, 405, 281), ("H87", 412, 269, 426, 281),
         ("2,9500", 447, 269, 468, 281), ("20", 487, 269, 495, 281), ("%", 496, 269, 500, 281),
         ("17,70", 532, 269, 550, 281)],
        [("4", 54, 284, 58, 295), ("84970L", 65, 284, 87, 295), ("SINGLE", 131, 284, 159, 295),
         ("HEART", 161, 284, 185, 295), ("ZINC", 188, 284, 205, 295), ("12", 398, 283, 405, 295),
         ("H87", 413, 283, 426, 295), ("0,9500", 447, 283, 469, 294), ("20", 487, 283, 494, 295),
         ("%", 496, 283, 500, 295), ("11,40", 530, 283, 550, 295)],
        [("Total:", 480, 310, 510, 320), ("61,80", 532, 310, 550, 320)])
    reading = interpret([rows], 1)
    assert [line.code for line in reading.lines] == ["21733", "22113", "22804", "84970L"]


def test_a_heading_under_a_table_of_one_line_is_not_joined_to_its_description_on_a_scan():
    # One item row, so no usual gap between item rows to measure; OCR's tall boxes leave "VAT breakdown" and
    # "Document totals" less than a box's height below it.
    rows = _rows(
        [("Item", 46, 263, 60, 276), ("identifier", 65, 263, 100, 276), ("Name", 124, 264, 145, 276),
         ("Qty", 386, 265, 400, 278), ("Net", 409, 265, 424, 277), ("price", 425, 265, 444, 277),
         ("VAT", 454, 264, 472, 276), ("%", 474, 264, 480, 276), ("Net", 493, 265, 505, 277),
         ("amount", 507, 265, 536, 277)],
        [("22275", 46, 281, 70, 293), ("WEEKEND", 124, 280, 165, 293), ("BAG", 168, 280, 185, 293),
         ("VINTAGE", 188, 280, 225, 293), ("ROSE", 228, 280, 251, 293), ("PAISLEY", 252, 280, 286, 293),
         ("69", 389, 281, 402, 294), ("7,65", 428, 281, 443, 295), ("25", 463, 281, 473, 295),
         ("%", 475, 281, 481, 295), ("527,85", 511, 281, 536, 295)],
        [("VAT", 49, 305, 65, 318), ("breakdown", 69, 305, 112, 318), ("Document", 286, 305, 323, 318),
         ("totals", 326, 305, 348, 318)],
        [("Invoice", 280, 330, 305, 342), ("total:", 308, 330, 330, 342), ("527,85", 511, 330, 536, 342)])
    reading = interpret([rows], 1)
    assert line_values(reading) == [("22275", "WEEKEND BAG VINTAGE ROSE PAISLEY", Decimal("69"), Decimal("7.65"),
                                     Decimal("527.85"))]


def test_a_value_of_the_line_under_a_label_chained_into_its_row_is_not_its_value():
    # The recogniser's boxes join "6. Customer No.  7. P.O. Number" and the values printed under them into one row;
    # "PO-96848", after "Customer No." but half a line lower, is the order's number, not the customer's.
    rows = _rows(
        [("4.", 307, 55, 311, 65), ("Credit", 314, 55, 329, 65), ("Note", 331, 55, 342, 65), ("No.", 345, 55, 354, 65),
         ("5.", 444, 55, 449, 64), ("Inv.", 449, 55, 460, 64), ("Date", 462, 55, 473, 64)],
        [("C536757", 309, 63, 337, 74), ("02-Dec-2010", 444, 62, 488, 75)],
        [("6.", 305, 79, 313, 89), ("15838", 307, 87, 330, 100), ("Customer", 313, 79, 338, 89),
         ("No.", 340, 79, 349, 89), ("PO-96848", 444, 87, 479, 99), ("7.", 444, 79, 448, 89),
         ("P.O.", 451, 79, 462, 89), ("Number", 463, 79, 485, 89)],
        [("Code", 34, 150, 60, 160), ("Description", 90, 150, 140, 160), ("Qty", 300, 150, 315, 160),
         ("Price", 380, 150, 405, 160), ("Amount", 450, 150, 485, 160)],
        [("84347", 34, 165, 60, 175), ("ANGELS", 90, 165, 130, 175), ("-2", 305, 165, 312, 175),
         ("0.03", 385, 165, 405, 175), ("-0.06", 460, 165, 485, 175)],
        [("Total:", 400, 200, 430, 210), ("-0.06", 460, 200, 485, 210)])
    reading = interpret([rows], 1)
    assert reading.fields.customer_id != "PO-96848"
    assert reading.fields.customer_id == "15838" or reading.needs_review
