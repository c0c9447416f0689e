"""Invoices as PDFs with a text layer (:func:`render_pdf`), their truth (:func:`truth`), and documents that are not
invoices (:func:`render_non_invoice`) for the reader's negative check.

An invoice is drawn with the ReportLab canvas in its layout's style (:mod:`evaluation.invoice_styles`): page 1
carries the full header, each later page a one-line running header naming the invoice, and every page with items
repeats the column headings, so a reader sees the table's columns on each page. A code or description wider than
its column wraps at its spaces (the reader joins the pieces with one space). Items are never split across pages.
Where the totals go is the style's; printed after the items, they go on a page of their own when the last page
has no room for them. Pages but the last carry the layout's "continued" mark, every page its page label
("Page 1 of 3"). The canvas is made with ``invariant=1``, so the same invoice and layout give the same bytes.

:func:`paginate` decides what goes on which page, and both :func:`render_pdf` and :func:`truth` use it: the page of
each line in the truth is the page it is printed on.
"""

from __future__ import annotations

import io
import random

from reportlab.pdfgen import canvas

from core.invoices import InvoiceFields, InvoiceLine, InvoiceReading
from evaluation import invoice_dev_f_draw as dev_f_draw
from evaluation import invoice_held_b_draw as held_b_draw
from evaluation import invoice_held_c_draw as held_c_draw
from evaluation import invoice_held_d_draw as held_d_draw
from evaluation import invoice_held_e_draw as held_e_draw
from evaluation import invoice_held_f_draw as held_f_draw
from evaluation import invoice_held_g_draw as held_g_draw
from evaluation import invoice_held_h_draw as held_h_draw
from evaluation import invoice_held_i_draw as held_i_draw
from evaluation import invoice_held_j_draw as held_j_draw
from evaluation import invoice_held_k_draw as held_k_draw
from evaluation import invoice_held_l_draw as held_l_draw
from evaluation import invoice_held_m_draw as held_m_draw
from evaluation import invoice_held_n_draw as held_n_draw
from evaluation import invoice_held_o_draw as held_o_draw
from evaluation.invoice_layouts import FONTS, PAGES, Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import (Pen, Row, boxed_header, boxed_totals, classic_header, classic_totals, fill_pages,
                                       foot, foot_height, ledger_header, ledger_totals, receipt_header, receipt_totals,
                                       row_height, running_header, summary_header, table_head, table_row, wrap)

__all__ = ["NON_INVOICE_KINDS", "paginate", "render_non_invoice", "render_pdf", "truth"]

STYLES = {"classic": (classic_header, classic_totals), "boxed": (boxed_header, boxed_totals),
          "receipt": (receipt_header, receipt_totals), "plain": (classic_header, classic_totals),
          "ledger": (ledger_header, ledger_totals), "summary": (summary_header, None)}
# Styles that lay out and draw their own pages, table included: style -> (paginate, render_pdf), each called with
# (invoice, layout) in place of this module's own.
OWN_PAGES = {"erp": (dev_f_draw.paginate, dev_f_draw.render_pdf),
             "held-b": (held_b_draw.paginate, held_b_draw.render_pdf),
             "held-c": (held_c_draw.paginate, held_c_draw.render_pdf),
             "held-d": (held_d_draw.paginate, held_d_draw.render_pdf),
             "held-e": (held_e_draw.paginate, held_e_draw.render_pdf),
             "held-f": (held_f_draw.paginate, held_f_draw.render_pdf),
             "held-g": (held_g_draw.paginate, held_g_draw.render_pdf),
             "held-h": (held_h_draw.paginate, held_h_draw.render_pdf),
             "held-i": (held_i_draw.paginate, held_i_draw.render_pdf),
             "held-j": (held_j_draw.paginate, held_j_draw.render_pdf),
             "held-k": (held_k_draw.paginate, held_k_draw.render_pdf),
             "held-l": (held_l_draw.paginate, held_l_draw.render_pdf),
             "held-m": (held_m_draw.paginate, held_m_draw.render_pdf),
             "held-n": (held_n_draw.paginate, held_n_draw.render_pdf),
             "held-o": (held_o_draw.paginate, held_o_draw.render_pdf)}


def _scratch(lay: Layout) -> Pen:
    """A pen on a canvas that is thrown away: drawing on it measures a block."""
    return Pen(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)


def _cell(key: str, index: int, line, width: float, lay: Layout, pen: Pen) -> list[str]:
    """A line's value in column ``key`` as printed: codes and descriptions wrapped at spaces to ``width``; a line
    counter counts from 1 and a tax-rate column prints the layout's rate."""
    if key in ("code", "description"):
        return wrap(getattr(line, key) or "", width, pen)
    if key == "quantity":
        return [lay.quantity(line.quantity)]
    if key == "line_no":
        return [str(index + 1)]
    if key == "vat_rate":
        return [f"{lay.tax_rate * 100:.0f}%"]
    return [lay.money(getattr(line, key), lines=True)]


def _rows(inv: Invoice, lay: Layout, pen: Pen) -> list[Row]:
    return [Row(index, {col.key: _cell(col.key, index, line, col.width - lay.size * 0.8, lay, pen)
                        for col in lay.columns}) for index, line in enumerate(inv.rows)]


def paginate(inv: Invoice, lay: Layout) -> list[list[Row]]:
    """The item rows of each page. A page holds the rows that fit between its header and its foot; the last page
    also needs room for the totals (a style that prints them below the items), or a page of their own follows."""
    if lay.style in OWN_PAGES:
        return OWN_PAGES[lay.style][0](inv, lay)
    pen = _scratch(lay)
    header, totals = STYLES[lay.style]
    heading = table_head(pen, 0.0)
    first, later = header(pen, inv, lay) + heading, running_header(pen, inv, lay, 2) + heading
    bottom = lay.page[1] - lay.margin - foot_height(lay)
    pages, y = fill_pages(_rows(inv, lay, pen), lambda row: row_height(lay, row), first, later, bottom)
    if totals is not None and totals(pen, inv, lay, y) > bottom:
        pages.append([])
    return pages


def render_pdf(inv: Invoice, lay: Layout) -> bytes:
    """The invoice drawn in ``lay``: a PDF with a text layer, the same bytes for the same arguments."""
    if lay.style in OWN_PAGES:
        return OWN_PAGES[lay.style][1](inv, lay)
    pages = paginate(inv, lay)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    pen = Pen(c, lay)
    header, totals = STYLES[lay.style]
    for n, rows in enumerate(pages, 1):
        y = header(pen, inv, lay) if n == 1 else running_header(pen, inv, lay, n)
        if rows:
            y = table_head(pen, y)
        for k, row in enumerate(rows):
            y = table_row(pen, row, y, k)
        if n == len(pages) and totals is not None:
            totals(pen, inv, lay, y)
        foot(pen, lay, n, len(pages))
        c.showPage()
    c.save()
    return buf.getvalue()


def truth(inv: Invoice, lay: Layout) -> InvoiceReading:
    """What a reader should read from ``render_pdf(inv, lay)`` (or its scan): the header fields in the layout's
    currency and tax rule, every line with the page it is printed on, and the page count."""
    pages = paginate(inv, lay)
    page_of = {row.index: n for n, rows in enumerate(pages, 1) for row in rows}
    fields = InvoiceFields(invoice_number=inv.number, invoice_date=inv.date, customer_id=inv.customer,
                           country=inv.country, currency=lay.currency, subtotal=inv.subtotal,
                           tax=inv.tax(lay.tax_rate), total=inv.total(lay.tax_rate))
    lines = [InvoiceLine(r.code, r.description, r.quantity, r.unit_price, r.amount, page_of[i])
             for i, r in enumerate(inv.rows)]
    return InvoiceReading(is_invoice=True, fields=fields, lines=lines, needs_review=False, pages=len(pages))


# ----------------------------------------------------------------------------------------------------------------
# Documents that are not invoices: they share an invoice's look (a letterhead, product codes, prices, dates) but
# carry no invoice number, no totals and no invoice title.
# ----------------------------------------------------------------------------------------------------------------
NON_INVOICE_KINDS = ("letter", "price list", "packing list", "report")
ITEMS = (("21875", "KINGS CHOICE MUG", "3.36"), ("37446", "MINI CAKE STAND WITH HANGING CAKES", "1.45"),
         ("22867", "HAND WARMER BIRD DESIGN", "2.10"), ("21352", "EUCALYPTUS & PINECONE WREATH", "5.91"),
         ("22375", "AIRLINE BAG VINTAGE JET SET BROWN", "8.47"), ("47590A", "BLUE HAPPY BIRTHDAY BUNTING", "11.02"),
         ("22661", "CHARLOTTE BAG DOLLY GIRL DESIGN", "0.85"), ("72807A", "SET/3 ROSE CANDLE IN JEWELLED BOX", "8.47"),
         ("35095A", "BLUE VICTORIAN FABRIC OVAL BOX", "0.84"), ("20981", "12 PENCILS TALL TUBE WOODLAND", "1.66"),
         ("47593B", "SCOTTIE DOGS BABY BIB", "0.85"), ("17012A", "ORIGAMI VANILLA INCENSE/CANDLE SET", "2.51"),
         ("22646", "CERAMIC STRAWBERRY CAKE MONEY BANK", "1.45"), ("21967", "PACK OF 12 SKULL TISSUES", "0.29"),
         ("22906", "12 MESSAGE CARDS WITH ENVELOPES", "1.65"), ("21866", "UNION JACK FLAG LUGGAGE TAG", "1.25"),
         ("21672", "WHITE SPOT RED CERAMIC DRAWER KNOB", "1.25"), ("85124C", "GREEN JUICY FRUIT PHOTO FRAME", "2.55"),
         ("22651", "GENTLEMAN SHIRT REPAIR KIT", "0.85"), ("22851", "SET 20 NAPKINS FAIRY CAKES DESIGN", "0.85"),
         ("22666", "RECIPE BOX PANTRY YELLOW DESIGN", "2.95"), ("22451", "SILK PURSE BABUSHKA RED", "3.35"),
         ("82582", "AREA PATROLLED METAL SIGN", "4.21"), ("85123A", "WHITE HANGING HEART T-LIGHT HOLDER", "2.55"))
LETTER = (
    "Thank you for your order placed with us this week. We are writing to let you know that our winter catalogue "
    "is now ready and a printed copy is enclosed with this letter.",
    "Orders received before 15 December will be dispatched in time for Christmas delivery within the United "
    "Kingdom. Orders to addresses in Europe should reach us by 10 December.",
    "Our warehouse will close from 24 December and reopen on 4 January. Our trade counter keeps its usual "
    "opening hours of 9am to 5pm, Monday to Friday, until then.",
    "If you have any questions about your account or about the new ranges, please call our sales team on the "
    "number above. We look forward to hearing from you.",
)
REPORT = (
    "This note summarises the dispatch figures for the first week of December. Most parcels left the warehouse "
    "on the day the order was placed; a handful waited a day for stock of the larger items.",
    "Christmas ranges sold faster than in the same week last year, led by lanterns, bunting and gift bags. Stock "
    "of the ceramic lines will be reordered before the holiday closure.",
)


def _page(pen: Pen, y: float, paragraph: str, width: float) -> float:
    for line in wrap(paragraph, width, pen):
        pen.text(pen.left, y, line)
        y += pen.lead
    return y + pen.lead * 0.6


def render_non_invoice(seed: int) -> bytes:
    """A one-page document that is not an invoice, drawn from ``seed``: a letter, a price list without totals, a
    packing list without prices, or a short report with a table of counts."""
    rng = random.Random(f"non-invoice:{seed}")
    kind = NON_INVOICE_KINDS[seed % len(NON_INVOICE_KINDS)]
    font = rng.choice(tuple(FONTS))
    lay = Layout(family="none", seed=seed, style="classic", font=font, size=rng.choice((9.0, 10.0)),
                 page=PAGES[rng.choice(("A4", "Letter"))], margin=54.0, title="", credit_title="", labels={},
                 colon="", columns=(), date_style="d Mon Y", thousands=",", decimal=".", currency="GBP", mark="£",
                 mark_place="before", mark_lines=True, negative="minus", tax_rate=None, ruled=False, zebra=False,
                 header_place="left", totals_place="below", two_row=False,
                 seller=rng.choice((("Hartwell & Finch Gifts Ltd", "Unit 4, Mill Lane Trading Estate",
                                     "Leicester LE3 8QT"), ("Oakridge Trading Co.", "Warehouse 9, Canal Wharf",
                                                            "Nottingham NG2 3AA"))),
                 page_label=None, continued=None, running="", currency_note=None)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=lay.page, invariant=1, pageCompression=1)
    pen, width = Pen(c, lay), lay.page[0] - 2 * lay.margin
    y = lay.margin + lay.size
    for k, line in enumerate(lay.seller):
        pen.text(pen.right, y, line, bold=k == 0, align="right")
        y += pen.lead
    y += pen.lead * 2
    day = rng.choice((1, 2))
    if kind in ("letter", "report"):
        heading = "Dear customer," if kind == "letter" else "Dispatch report, week 48"
        pen.text(pen.left, y, f"{day} December 2010")
        y += pen.lead * 2
        pen.text(pen.left, y, heading, bold=kind == "report", size=lay.size * (1.0 if kind == "letter" else 1.6))
        y += pen.lead * 2
        for paragraph in (LETTER if kind == "letter" else REPORT):
            y = _page(pen, y, paragraph, width)
        if kind == "letter":
            pen.text(pen.left, y + pen.lead, "Yours sincerely,")
            pen.text(pen.left, y + pen.lead * 4, rng.choice(("Margaret Hale", "Thomas Finch")), bold=True)
            pen.text(pen.left, y + pen.lead * 5, "Sales office")
        else:
            rows = [("Day", "Orders", "Parcels", "Countries")] + [
                (f"{d} Dec", str(rng.randint(120, 180)), str(rng.randint(130, 200)), str(rng.randint(4, 9)))
                for d in range(1, 6)]
            for row in rows:
                for k, cell in enumerate(row):
                    pen.text(pen.left + 120 * k + (100 if k else 0), y, cell, bold=row is rows[0],
                             align="right" if k else "left")
                y += pen.lead
    else:
        items = rng.sample(ITEMS, rng.randint(12, len(ITEMS)))
        name = "Price list, winter 2010" if kind == "price list" else "Packing list"
        pen.text(pen.left, y, name, bold=True, size=lay.size * 1.8)
        y += pen.lead * 2
        if kind == "packing list":
            pen.text(pen.left, y, f"Order {rng.randint(536400, 536800)}, packed {day} December 2010, "
                                  f"{rng.randint(2, 6)} cartons")
            y += pen.lead * 2
        headings = ("Code", "Description", "Price" if kind == "price list" else "Packed")
        for row in [headings] + [(code, desc, f"£{price}" if kind == "price list" else str(rng.randint(1, 48)))
                                 for code, desc, price in items]:
            bold = row is headings
            pen.text(pen.left, y, row[0], bold)
            pen.text(pen.left + 70, y, row[1], bold)
            pen.text(pen.left + 360, y, row[2], bold, align="right")
            y += pen.lead
        if kind == "price list":
            pen.text(pen.left, y + pen.lead, "Prices per unit; minimum order of 6 per line. Valid until 31 January.")
    c.showPage()
    c.save()
    return buf.getvalue()
