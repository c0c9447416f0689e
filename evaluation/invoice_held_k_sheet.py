"""held-k's spreadsheet invoices: an invoice template in Excel, LibreOffice Calc or Google Sheets, printed to PDF.

The sheet is a grid of columns (a narrow spacer column A in some templates, then the table's columns) and rows of
one height, taller where a wrapped description or a big title needs it. Everything sits in cells: the seller's
lines and the title in merged cells across the top, the ``Invoice #`` / ``Date`` labels right-aligned beside their
values, a BILL TO block, the heading row, one row per item, the subtotal, tax, shipping and total rows under the
amount column, and notes (currency, terms, bank details, thanks) in merged cells below. Printing deals whole rows
onto pages as a spreadsheet does: a page takes the rows that fit, the totals and notes flow on after the items
(over a page break if they must), and a later page starts with the heading row only when "rows to repeat at top"
is set. Every page carries the print header and footer (file or sheet name, which name the invoice, page number,
print date) and, where the print settings show them, the light gridlines and the sheet's own column letters and
row numbers.

A description is never cut at its column's edge: a ``wide`` layout prints it on one line (wrapped onto a taller
row where even its wide column is too narrow), a ``wrap`` layout wraps it onto as many lines as it needs, and a
``shrink`` layout (the "shrink to fit" cell format) prints it on one line in a smaller font, down to
:data:`SHRINK` of the size, wrapping it where that is not enough. A word wider than its column on its own shrinks
its cell's font until it fits. So the page, and its text layer, show every word of the truth's description.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from evaluation.invoice_held_k import cell, later_date, qty
from evaluation.invoice_layouts import DATE_STYLES, Layout
from evaluation.invoice_records import Invoice
from evaluation.invoice_styles import Pen, Row, wrap

__all__ = ["SHRINK", "SRow", "describe", "draw_page", "items", "pages", "sheet_rows"]

GRID_GREY = 0.78
SHORT_DATES = {"US": "k:m/d/Y", "UK": "k:dd/mm/Y", "IE": "k:dd/mm/Y", "NL": "k:d-m-Y", "HK": "k:dd/mm/Y",
               "AU": "k:d/mm/Y"}
SHRINK = 0.8  # the smallest a shrink-to-fit description gets, as a share of the size
BANKS = {"US": "Routing 021000021  Account {n}", "UK": "Sort code 20-45-77  Account {s8}",
         "IE": "IBAN IE29 AIBK 9311 52{s8}  BIC AIBKIE2D", "NL": "IBAN NL91 ABNA 0{s9}  BIC ABNANL2A",
         "HK": "HSBC A/C 004-{s3}-{s6}-001", "AU": "BSB 062-000  Account {s8}"}


@dataclass
class Cell:
    """One cell or merged range, columns ``c0`` to ``c1``: its text lines, alignment and format."""

    c0: int
    c1: int
    lines: list[str] = field(default_factory=list)
    align: str = "left"
    bold: bool = False
    scale: float = 1.0
    color: tuple = (0, 0, 0)
    fill: tuple | None = None
    left: str = ""  # an accounting format's currency symbol, at the cell's left edge
    clip: bool = True  # cut at the cell's edge, else running over empty neighbours (a description always fits)
    border: str = ""  # "", box, bottom, top-double


@dataclass
class SRow:
    height: float
    cells: list[Cell]
    item: Row | None = None
    head: bool = False


def _grid(lay: Layout) -> list[float]:
    """The widths of the sheet's columns: the spacer column (some templates) and the table's."""
    return ([lay.size * 1.2] if lay.extra["spacer"] else []) + [c.width for c in lay.columns]


def _short(lay: Layout, date: dt.date) -> str:
    return DATE_STYLES[SHORT_DATES[lay.extra["locale"]]](date)


def _align(lay: Layout, text: str, numeric_right: bool = True) -> str:
    """A value's alignment: the template's, or General's (numbers and dates right, text left)."""
    how = lay.extra["align_values"]
    if how != "general":
        return how
    plain = text.replace("/", "").replace("-", "").replace(" ", "").replace(",", "").replace(".", "")
    return "right" if numeric_right and plain.isdigit() else "left"


def _row(lay: Layout, cells: list[Cell], pen: Pen, lines: int = 1, scale: float = 1.0) -> SRow:
    base = lay.size * lay.extra["row"]
    return SRow(max(base * scale, lay.size * 1.2 * lines + lay.size * 0.55), cells)


def _header(pen: Pen, inv: Invoice, lay: Layout) -> list[SRow]:
    """The rows above the table: seller and title, the label / value pairs, the bill-to block."""
    e, n, rows = lay.extra, len(_grid(lay)), []
    last, first = n - 1, 1 if e["spacer"] else 0
    accent, grid = e["accent"], e["template"] == "grid"
    title = lay.credit_title if inv.is_credit else lay.title
    pairs = [(lay.labels["credit_number" if inv.is_credit else "invoice_number"], inv.number),
             (lay.labels["invoice_date"], lay.date(inv.date))]
    if inv.customer is not None or grid:  # a filled-in grid keeps its empty Customer ID cell
        pairs.append((lay.labels["customer_id"], inv.customer or ""))
    pairs.append((lay.labels["due_date"], lay.date(later_date(lay, inv.date))))
    if e["po"]:
        pairs.append((lay.labels["po"], ""))
    pairs.append((lay.labels["terms"], e["terms_text"]))
    left = [*lay.seller[1:], e["phone"], f"{e['email']}@{lay.seller[0].split()[0].lower().strip(',')}.com",
            e["tax_id"]]
    big = 2.0 if grid else 2.3
    xs = _xs(lay)
    label_w = max(pen.width(lab, True) for lab, _ in pairs) + lay.size
    lab = last - 1  # the labels' cell, merged leftwards over as many columns as the longest label needs
    while lab > first + 1 and xs[last] - xs[lab] < label_w:
        lab -= 1
    room = xs[lab] - xs[first] - lay.size
    if grid:
        rows.append(_row(lay, [Cell(first, last, [title], "center", True, big, border="box")], pen, scale=big * 0.9))
        rows.append(_row(lay, [], pen))
        rows.append(_row(lay, [Cell(first, last, [lay.seller[0]], bold=True, scale=1.3)], pen, scale=1.2))
    else:
        head = [Cell(first, last, [lay.seller[0]], bold=True, scale=1.4, clip=False)]
        if pen.width(lay.seller[0], True, lay.size * 1.4) + pen.width(title, True, lay.size * big) + 20 < \
                xs[-1] - xs[first]:
            head.append(Cell(first, last, [title], "right", True, big, accent, clip=False))
        else:
            rows.append(_row(lay, [Cell(first, last, [title], "right", True, big, accent)], pen, scale=big * 0.9))
        rows.append(_row(lay, head, pen, scale=big * 0.9 if len(head) > 1 else 1.3))
    fits = all(pen.width(line) < room for line in left)
    block = max(len(left), len(pairs)) if fits else len(left) + len(pairs)
    for k in range(block):
        cells = []
        lk, pk = (k, k) if fits else (k, k - len(left))
        if 0 <= lk < len(left) and (fits or k < len(left)):
            cells.append(Cell(first, lab - 1, [left[lk]], clip=False))
        if 0 <= pk < len(pairs):
            label, value = pairs[pk]
            cells += [Cell(lab, last - 1, [label], "right", True, clip=False,
                           fill=(0.9, 0.9, 0.9) if grid else None, border="box" if grid else ""),
                      Cell(last, last, [value], _align(lay, value), border="box" if grid else "")]
        rows.append(_row(lay, cells, pen))
    rows.append(_row(lay, [], pen))
    to = [e["consignee"] if inv.customer else e["cash"], e["street"] if inv.customer else "", inv.country]
    half = max(first, last - 2)
    heads = [Cell(first, half, [lay.labels["bill_to"]], bold=True, color=(1, 1, 1) if not grid else (0, 0, 0),
                  fill=accent if not grid else (0.9, 0.9, 0.9), border="box" if grid else "")]
    if e["ship_to"] and half + 1 <= last:
        heads.append(Cell(half + 1, last, [lay.labels["ship_to"]], bold=True,
                          color=(1, 1, 1) if not grid else (0, 0, 0), fill=accent if not grid else (0.9, 0.9, 0.9),
                          border="box" if grid else ""))
    rows.append(_row(lay, heads, pen))
    for line in (t for t in to if t):
        cells = [Cell(first, half, [line])]
        if e["ship_to"] and half + 1 <= last:
            cells.append(Cell(half + 1, last, [line]))
        rows.append(_row(lay, cells, pen))
    rows.append(_row(lay, [], pen))
    return rows


def _xs(lay: Layout) -> list[float]:
    """The left edge of each sheet column and the right edge of the last, from the printed area's left."""
    grid = _grid(lay)
    table = sum(grid)
    x0 = lay.margin + (lay.size * 2.6 if lay.extra["row_headings"] else 0)
    if lay.extra["centred"] and lay.extra["spread"] != "wide":
        x0 = (lay.page[0] - table) / 2
    xs = [x0]
    for w in grid:
        xs.append(xs[-1] + w)
    return xs


def _heading(pen: Pen, lay: Layout) -> SRow:
    grid, off = lay.extra["template"] == "grid", 1 if lay.extra["spacer"] else 0
    cells, most = [], 1
    for k, col in enumerate(lay.columns):
        lines = wrap(col.heading, col.width - lay.size * 0.6, pen)
        most = max(most, len(lines))
        num = col.key in ("quantity", "unit_price", "amount", "line_no")
        cells.append(Cell(k + off, k + off, lines, "right" if num and not grid else "center" if grid else "left",
                          True, color=(0, 0, 0) if grid else (1, 1, 1),
                          fill=(0.85, 0.85, 0.85) if grid else lay.extra["accent"], border="box" if grid else ""))
    row = _row(lay, cells, pen, most)
    row.head = True
    return row


def _item(pen: Pen, lay: Layout, index: int, line) -> SRow:
    e, off = lay.extra, 1 if lay.extra["spacer"] else 0
    border = "box" if e["template"] == "grid" else "bottom" if not e["gridlines"] else ""
    red = (0.8, 0.0, 0.0) if e["red"] else (0, 0, 0)
    cells, most = [], 1
    for k, col in enumerate(lay.columns):
        c = Cell(k + off, k + off, border=border)
        if col.key == "description":
            c.lines, c.scale = describe(pen, lay, line.description or "", col.width - lay.size * 0.6)
            most = max(most, len(c.lines))
        elif col.key == "code":
            c.lines, c.align = [line.code], _align(lay, line.code)
        elif col.key == "line_no":
            c.lines, c.align = [str(index + 1)], "right" if e["align_values"] != "left" else "center"
        elif col.key == "uom":
            c.lines, c.align = [e["unit_word"]], "center"
        elif col.key == "quantity":
            c.lines, c.align = [qty(lay, line.quantity)], "right"
            c.color = red if line.quantity < 0 else (0, 0, 0)
        else:
            value = getattr(line, col.key)
            c.left, text = cell(lay, value)
            c.lines, c.align, c.color = [text], "right", red if value < 0 else (0, 0, 0)
        cells.append(c)
    if e["zebra"] and e["template"] == "modern" and index % 2:
        for c in cells:
            c.fill = (0.93, 0.94, 0.96)
    row = _row(lay, cells, pen, most)
    row.item = Row(index, {k.key: c.lines for k, c in zip(lay.columns, cells)})
    return row


def describe(pen: Pen, lay: Layout, text: str, room: float) -> tuple[list[str], float]:
    """A description's lines in a column leaving ``room`` for text, and its font's scale: one line where it fits
    (in a ``shrink`` layout, at a scale down to :data:`SHRINK`), else wrapped, each line no wider than ``room``."""
    spread = lay.extra["spread"]
    one = pen.width(text) * (SHRINK if spread == "shrink" else 1.0) <= room
    lines = [text] if one and spread != "wrap" else wrap(text, room, pen)
    widest = max(pen.width(t) for t in lines)
    return lines, 1.0 if widest <= room else int(room / widest * 1000) / 1000


def _money_row(pen: Pen, lay: Layout, label: str, value: Decimal | str, bold: bool = False,
               role: str = "line") -> SRow:
    e, n = lay.extra, len(_grid(lay))
    grid = e["template"] == "grid"
    if isinstance(value, str):
        left, right = "", value
    else:
        left, right = cell(lay, value, role)
    red = e["red"] and not isinstance(value, str) and value < 0 and role == "line"
    xs, c0 = _xs(lay), n - 2  # the label's cell, merged leftwards as far as the label needs
    while c0 > 1 and xs[n - 1] - xs[c0] < pen.width(label, bold) + lay.size:
        c0 -= 1
    return _row(lay, [Cell(c0, n - 2, [label], "right", bold, clip=False, border="box" if grid else ""),
                      Cell(n - 1, n - 1, [right], "right", bold, scale=1.1 if role == "total" else 1.0, left=left,
                           color=(0.8, 0, 0) if red else (0, 0, 0),
                           border="box" if grid else "top-double" if role == "total" else "")], pen,
                scale=1.15 if role == "total" else 1.0)


def _notes(pen: Pen, inv: Invoice, lay: Layout) -> list[SRow]:
    e, n = lay.extra, len(_grid(lay))
    first = 1 if e["spacer"] else 0
    s = str(e["bank"])
    bank = BANKS[e["locale"]].format(n=s, s8=s[:8], s9=s[:9], s3=s[:3], s6=s[3:9])
    lines = [""]
    if e["note_currency"]:
        lines.append(lay.currency_note)
    if lay.tax_rate is None and e["locale"] in ("UK", "IE", "NL", "AU") and inv.country != e["home"]:
        lines.append({"UK": "No VAT charged: zero-rated supply.", "IE": "VAT not charged: zero-rated supply.",
                      "NL": "BTW 0%" if e["lang"] == "nl" else "VAT 0%", "AU": "GST-free supply."}[e["locale"]])
    if not inv.is_credit:
        lines.append(f"{e['payable']} {lay.seller[0].rstrip('.')}. {bank}")
    lines += [f"{e['questions']} {e['phone'].split(' ', 1)[1]}", "", e["thanks"]]
    rows, xs = [], _xs(lay)
    for k, text in enumerate(lines):
        centre = k == len(lines) - 1
        for part in wrap(text, xs[-1] - xs[first] - lay.size, pen) if text else [""]:
            rows.append(_row(lay, [Cell(first, n - 1, [part], "center" if centre else "left", centre, clip=False)]
                             if part else [], pen))
    return rows


def sheet_rows(pen: Pen, inv: Invoice, lay: Layout) -> list[SRow]:
    """Every row of the sheet, top to bottom, as printed on a page wide enough and endless."""
    rows = _header(pen, inv, lay) + [_heading(pen, lay)]
    rows += [_item(pen, lay, k, line) for k, line in enumerate(inv.rows)]
    rows.append(_money_row(pen, lay, lay.labels["subtotal"], inv.subtotal))
    if lay.tax_rate is not None:
        if lay.extra["tax_row"] == "rate":
            rows.append(_money_row(pen, lay, lay.labels["tax_rate"], lay.extra["rate_text"]))
        rows.append(_money_row(pen, lay, lay.labels["tax"], inv.tax(lay.tax_rate)))
    if lay.extra["shipping"]:
        rows.append(_money_row(pen, lay, lay.labels["shipping"], Decimal("0.00")))
    rows.append(_money_row(pen, lay, lay.labels["total"], inv.total(lay.tax_rate), True, "total"))
    return rows + _notes(pen, inv, lay)


def _area(lay: Layout) -> tuple[float, float]:
    """The top and bottom of the printed rows on a page (below the column letters, where printed)."""
    top = lay.extra["top"] + (lay.size * 1.4 if lay.extra["row_headings"] else 0)
    return top, lay.page[1] - lay.extra["top"]


def pages(pen: Pen, inv: Invoice, lay: Layout) -> list[list[tuple[int, SRow]]]:
    """The rows of each page with their sheet row numbers; a later page starts with the heading row when it is
    repeated at the top (and the page's rows are items)."""
    rows = sheet_rows(pen, inv, lay)
    head = next(r for r in rows if r.head)
    head_no = rows.index(head) + 1
    top, bottom = _area(lay)
    pages: list[list[tuple[int, SRow]]] = [[]]
    y = top
    for no, row in enumerate(rows, 1):
        if pages[-1] and y + row.height > bottom:
            pages.append([])
            y = top
            if lay.extra["repeat_heading"] and row.item is not None:
                pages[-1].append((head_no, head))
                y += head.height
        pages[-1].append((no, row))
        y += row.height
    return pages


def items(page: list[tuple[int, SRow]]) -> list[Row]:
    """The item rows printed on a page."""
    return [row.item for _, row in page if row.item is not None and not row.head]


def _lines(pen: Pen, lay: Layout, c: Cell, x0: float, x1: float, top: float, h: float) -> None:
    size, pad = lay.size * c.scale, lay.size * 0.3
    lead = size * 1.2
    valign = lay.extra["valign"] if len(c.lines) > 1 or h > lay.size * lay.extra["row"] * 1.05 else "bottom"
    if valign == "top":
        base = top + size * 1.05
    elif valign == "center":
        base = top + (h - len(c.lines) * lead) / 2 + size * 0.95
    else:
        base = top + h - size * 0.32 - (len(c.lines) - 1) * lead
    wide = any(pen.width(t, c.bold, size) > x1 - x0 - 2 * pad for t in c.lines)
    if c.clip and wide:
        pen.c.saveState()
        path = pen.c.beginPath()
        path.rect(x0 + 0.5, pen.h - top - h, x1 - x0 - 1, h)
        pen.c.clipPath(path, stroke=0, fill=0)
    if c.left:
        pen.text(x0 + pad, base + (len(c.lines) - 1) * lead, c.left, c.bold, size, color=c.color)
    paren = pen.width(")", c.bold, size) if c.left and not c.lines[-1].endswith(")") else 0
    for k, text in enumerate(c.lines):
        y = base + k * lead
        if c.align == "right":
            pen.text(x1 - pad - paren, y, text, c.bold, size, "right", c.color)
        elif c.align == "center":
            pen.text((x0 + x1) / 2, y, text, c.bold, size, "center", c.color)
        else:
            pen.text(x0 + pad, y, text, c.bold, size, color=c.color)
    if c.clip and wide:
        pen.c.restoreState()


def _stroke(pen: Pen, x0, y0, x1, y1, width: float = 0.5, grey: float = 0.0) -> None:
    pen.line(x0, y0, x1, y1, width, grey)


def _print_furniture(pen: Pen, inv: Invoice, lay: Layout, n: int, m: int) -> None:
    """The print header and footer; in Sheets the workbook's title at the top left."""
    e, size = lay.extra, lay.size * 0.9
    number = inv.number
    name = (e["credit_file"] if inv.is_credit else e["file"]).format(number=number)
    name = name.replace(".xlsx", f".{e['ext']}") if e["ext"] else name.rsplit(".", 1)[0]
    tab = e["tab"].format(number=number)
    page = lay.page_label.format(n=n, m=m)
    date = _short(lay, inv.date + dt.timedelta(days=e["printed_after"])) if e["print_date"] else ""
    path = ("C:\\Users\\accounts\\Documents\\Invoices\\" if e["software"] == "excel" else "/home/office/Invoices/") \
        if e["path"] else ""
    top, bottom = 21.6 + size, lay.page[1] - 21.6
    left, right, mid = lay.margin, lay.page[0] - lay.margin, lay.page[0] / 2
    if e["software"] == "sheets":
        pen.text(left, top, name if number in tab else f"{name} : {tab}", size=size)
        if date:
            pen.text(right, top, date, size=size, align="right")
        pen.text(right, bottom, page, size=size, align="right")
        return
    if e["software"] == "calc":
        pen.text(mid, top, tab if number in tab else name, size=size, align="center")
        pen.text(mid, bottom, page, size=size, align="center")
        return
    room = mid - left - pen.width(tab, size=size) / 2 - lay.size
    if e["header_at"] == "header" and pen.width(path + name, size=size) < room:
        pen.text(left, top, path + name, size=size)
        pen.text(mid, top, tab, size=size, align="center")
        pen.text(mid, bottom, page, size=size, align="center")
    else:
        pen.text(mid, top, tab, size=size, align="center")
        pen.text(left, bottom, path + name, size=size)
        pen.text(right, bottom, page, size=size, align="right")
    if date:
        pen.text(right, top, date, size=size, align="right")


def _spill(pen: Pen, lay: Layout, row: SRow, xs: list[float]) -> set[int]:
    """The column edges that text running over into empty neighbouring cells covers (no gridline there)."""
    out = set()
    for c in row.cells:
        if c.clip or not c.lines:
            continue
        w = max(pen.width(t, c.bold, lay.size * c.scale) for t in c.lines) + lay.size * 0.6
        x0, x1 = xs[c.c0], xs[c.c1 + 1]
        lo, hi = {"left": (x0, x0 + w), "right": (x1 - w, x1)}.get(c.align, ((x0 + x1 - w) / 2, (x0 + x1 + w) / 2))
        out |= {k for k, x in enumerate(xs) if lo < x < hi}
    return out


def draw_page(pen: Pen, inv: Invoice, lay: Layout, rows: list[tuple[int, SRow]], n: int, m: int) -> None:
    """One printed page: the header and footer, the column letters and row numbers where printed, each row's
    gridlines, fills, borders and text."""
    e = lay.extra
    xs = _xs(lay)
    top, _ = _area(lay)
    _print_furniture(pen, inv, lay, n, m)
    y = top
    if e["row_headings"]:
        strip, gutter = lay.size * 1.4, lay.size * 2.6
        pen.box(xs[0] - gutter, y - strip, xs[-1] - xs[0] + gutter, strip, fill=(0.9, 0.9, 0.9))
        height = sum(r.height for _, r in rows)
        pen.box(xs[0] - gutter, y, gutter, height, fill=(0.9, 0.9, 0.9))
        for k in range(len(xs) - 1):
            pen.text((xs[k] + xs[k + 1]) / 2, y - lay.size * 0.4, chr(65 + k), size=lay.size * 0.85, align="center",
                     color=(0.3, 0.3, 0.3))
        yy = y
        for no, row in rows:
            pen.text(xs[0] - gutter / 2, yy + row.height - lay.size * 0.35, str(no), size=lay.size * 0.85,
                     align="center", color=(0.3, 0.3, 0.3))
            yy += row.height
            _stroke(pen, xs[0] - gutter, yy, xs[0], yy, 0.3, 0.6)
    for _, row in rows:
        h = row.height
        for c in row.cells:
            if c.fill is not None:
                pen.box(xs[c.c0], y, xs[c.c1 + 1] - xs[c.c0], h, fill=c.fill)
        if e["gridlines"]:
            _stroke(pen, xs[0], y + h, xs[-1], y + h, 0.3, GRID_GREY)
            _stroke(pen, xs[0], y, xs[-1], y, 0.3, GRID_GREY)
            inside = {k for c in row.cells for k in range(c.c0 + 1, c.c1 + 1)} | _spill(pen, lay, row, xs)
            for k, x in enumerate(xs):
                if k not in inside:
                    _stroke(pen, x, y, x, y + h, 0.3, GRID_GREY)
        for c in row.cells:
            x0, x1 = xs[c.c0], xs[c.c1 + 1]
            if c.border == "box":
                pen.c.setLineWidth(0.5)
                pen.c.setStrokeColorRGB(0, 0, 0)
                pen.c.rect(x0, pen.h - y - h, x1 - x0, h, fill=0, stroke=1)
            elif c.border == "bottom":
                _stroke(pen, x0, y + h, x1, y + h, 0.4, 0.55)
            elif c.border == "top-double":
                _stroke(pen, x0, y, x1, y, 0.6)
                _stroke(pen, x0, y + h - 1.2, x1, y + h - 1.2, 0.4)
                _stroke(pen, x0, y + h + 0.4, x1, y + h + 0.4, 0.4)
            if c.lines:
                _lines(pen, lay, c, x0, x1, y, h)
        y += h
