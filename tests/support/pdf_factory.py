"""Real PDFs built in memory for tests, plus the facts each one is known to contain.

Every builder returns the bytes of a PDF written by PyMuPDF (or, where PyMuPDF refuses to write one, a
hand-written file), so tests exercise the same code path as an upload. Import what you need::

    from tests.support.pdf_factory import known_text_pdf, KNOWN_PAGE_FACTS, encrypted_pdf
"""

from __future__ import annotations

import pymupdf

# A line of text and its font size in points.
Line = tuple[str, float]

BODY_SIZE = 11.0
HEADING_SIZE = 18.0
SUBHEADING_SIZE = 14.0

_PAGE_WIDTH, _PAGE_HEIGHT = 612, 792  # US Letter, in points
_MARGIN = 72.0

# ---------------------------------------------------------------------------------------------------------------
# Facts in known_text_pdf(): exact sentences and the 1-based physical page they are printed on.
# ---------------------------------------------------------------------------------------------------------------
KNOWN_TITLE = "Freedonia Field Survey"
HEADING_INTRO = "1 Introduction"
HEADING_METHODS = "2 Methods"
HEADING_SAMPLING = "2.1 Sampling"

KNOWN_PAGE_FACTS: dict[int, str] = {
    1: "The Freedonia survey counted every lighthouse on the northern coast.",
    2: "The capital of Freedonia is Marsupia.",
    3: "Rainfall in Marsupia peaks in the month of April.",
}
# Printed as "experi-" at the end of one line and "mental" at the start of the next (page 1).
JOINED_WORD = "experimental"
# Printed mid-line as "well-known" and also split as "well-" / "known" across lines (page 1).
HYPHENATED_WORD = "well-known"
# Sentence of the introduction printed at the top of page 2, before the next heading.
INTRO_CONTINUES = "The introduction continues on this page with a summary of earlier visits."

# Headings in effect where each page starts (outermost first).
KNOWN_PAGE_HEADINGS: dict[int, list[str]] = {
    1: [],
    2: [HEADING_INTRO],
    3: [HEADING_METHODS, HEADING_SAMPLING],
}


def make_pdf(pages: list[list[Line]], *, title: str | None = None, fontname: str = "helv") -> bytes:
    """Build a PDF whose pages hold the given lines, top to bottom.

    Parameters
    ----------
    pages : one list per page of ``(text, font_size)`` lines. An empty list makes a blank page.
    title : optional document title written to the PDF metadata.
    fontname : a base-14 font name understood by PyMuPDF (``helv``, ``tiro``, ``cour``).

    Returns
    -------
    bytes
        The PDF file.
    """
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
        y = _MARGIN
        for text, size in lines:
            # Headings get extra space above them, as in a typeset document.
            y += size * (1.8 if size > BODY_SIZE else 1.4)
            page.insert_text((_MARGIN, y), text, fontsize=size, fontname=fontname)
    if title:
        doc.set_metadata({"title": title})
    data = doc.tobytes()
    doc.close()
    return data


def _body(*sentences: str) -> list[Line]:
    return [(s, BODY_SIZE) for s in sentences]


def known_text_lines() -> list[list[Line]]:
    """Return the lines of :func:`known_text_pdf`, one list per page."""
    page1 = [
        (HEADING_INTRO, HEADING_SIZE),
        *_body(
            KNOWN_PAGE_FACTS[1],
            "The team ran an experi-",
            "mental count of ships that passed each lighthouse at night.",
            "The method is well-known among coastal geographers and sailors.",
            "Its results are well-",
            "known to the harbour office, which publishes them every spring.",
            "Each lighthouse keeper kept a written log of the passing ships.",
            "The logs were copied by hand and checked against the harbour records.",
        ),
    ]
    page2 = [
        *_body(
            INTRO_CONTINUES,
            KNOWN_PAGE_FACTS[2],
            "Marsupia lies on a wide river delta close to the sea.",
        ),
        (HEADING_METHODS, HEADING_SIZE),
        *_body(
            "Counts were taken at dusk and again at dawn by two observers.",
            "Both observers wrote their counts down independently of each other.",
        ),
        (HEADING_SAMPLING, SUBHEADING_SIZE),
        *_body(
            "Lighthouses were chosen at random from the national register.",
            "Every chosen lighthouse was visited three times during the year.",
        ),
    ]
    page3 = _body(
        KNOWN_PAGE_FACTS[3],
        "The dry season lasts from July until the end of October.",
        "Visits were planned so that no lighthouse was counted in a storm.",
    )
    return [page1, page2, page3]


def known_text_pdf(*, title: str | None = None) -> bytes:
    """A 3-page PDF with known sentences per page, headings and hyphenation.

    Page 1 opens with the heading ``1 Introduction`` whose section continues onto page 2; page 2 holds
    ``2 Methods`` and ``2.1 Sampling``. Page 1 splits ``experi-`` / ``mental`` across lines and writes
    ``well-known`` both mid-line and split as ``well-`` / ``known``. See the module constants for the facts.

    Parameters
    ----------
    title : optional metadata title (none by default, so readers fall back to the first heading).
    """
    return make_pdf(known_text_lines(), title=title)


def encrypted_pdf(user_password: str = "secret") -> bytes:
    """A one-page text PDF that cannot be opened without ``user_password`` (AES-256)."""
    return _encrypt(make_pdf([_body("This page is locked.")]), user_pw=user_password)


def empty_user_password_pdf() -> bytes:
    """An encrypted PDF with an empty user password: viewers open it without asking, so readers must too.

    Only the owner password (``owner``) is set, as for PDFs that merely restrict printing or copying.
    """
    return _encrypt(make_pdf([_body(EMPTY_PASSWORD_SENTENCE)]), user_pw="")


EMPTY_PASSWORD_SENTENCE = "This page opens without a password."


def _encrypt(data: bytes, *, user_pw: str) -> bytes:
    doc = pymupdf.open(stream=data, filetype="pdf")
    out = doc.tobytes(
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        user_pw=user_pw,
        owner_pw="owner",
        permissions=pymupdf.PDF_PERM_ACCESSIBILITY,
    )
    doc.close()
    return out


def truncated_pdf() -> bytes:
    """The first half of :func:`known_text_pdf`, as left by an interrupted download."""
    data = known_text_pdf()
    return data[: len(data) // 2]


def zero_page_pdf() -> bytes:
    """A well-formed PDF whose page tree is empty (``/Kids []``, ``/Count 0``).

    PyMuPDF refuses to save a document without pages, so the file is written by hand with a correct
    cross-reference table.
    """
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [] /Count 0 >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref_at)
    return bytes(out)


def image_only_pdf(pages: int = 1) -> bytes:
    """A PDF whose pages hold only an embedded image and a drawn shape: no text layer, like a scan."""
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pix.clear_with(200)
    for _ in range(pages):
        page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
        page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)
        page.draw_rect(pymupdf.Rect(320, 72, 540, 300), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
    data = doc.tobytes()
    doc.close()
    return data


def mixed_blank_page_pdf() -> bytes:
    """A 3-page PDF whose page 2 is an image-only page between two pages of text."""
    doc = pymupdf.open(stream=make_pdf([_body("First page text."), [], _body("Third page text.")]), filetype="pdf")
    doc[1].draw_rect(pymupdf.Rect(72, 72, 300, 300), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
    data = doc.tobytes()
    doc.close()
    return data


SIDEWAYS_SENTENCES = (
    "Figure 3 shows the lighthouse keepers of Freedonia in their blue uniforms.",
    "The keepers rotate between the northern and southern towers every winter.",
)


def sideways_text_pdf() -> bytes:
    """A one-page PDF whose body is set sideways (rotated 90 degrees), like a landscape figure in a portrait paper.

    Read as it is, the layout reader returns nothing for this page and pdfplumber returns the words reversed letter
    by letter; MuPDF's plain text holds :data:`SIDEWAYS_SENTENCES` as printed.
    """
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    page.insert_text((_MARGIN, _MARGIN + 18), "Sideways figure page", fontsize=BODY_SIZE, fontname="helv")
    for i, sentence in enumerate(SIDEWAYS_SENTENCES):
        page.insert_text((300 + 16 * i, 700), sentence, fontsize=BODY_SIZE, fontname="helv", rotate=90)
    data = doc.tobytes()
    doc.close()
    return data


# Bytes of an HTML error page saved with a .pdf name, a common "PDF" that is not one.
NOT_A_PDF = (
    b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n"
    b"<body><h1>Not Found</h1><p>The requested document was not found.</p></body></html>\n"
)


# ---------------------------------------------------------------------------------------------------------------
# Layout cases: running headers, nested headings, columns, sideways text, tables, a word split across pages.
# ---------------------------------------------------------------------------------------------------------------

RUNNING_HEADER = "Freedonia Field Survey - Annual Report 2023"
# The footer carries the page number, so it differs on every page in its digits only.
RUNNING_FOOTER = "Lighthouse Office of Freedonia - page {n} of {total}"
RUNNING_PAGE_SENTENCES = (
    "The northern coast has eleven working lighthouses and two ruined towers.",
    "Harbour pilots report fog on one morning in three during the autumn months.",
    "The southern towers were rebuilt in stone after the great storm of 1911.",
    "Keepers are paid by the harbour office and live beside their towers.",
    "Every tower keeps a logbook that the survey team copied by hand.",
)


def running_header_pdf() -> bytes:
    """Five pages of body text under the same header line and over a numbered footer line.

    The header (:data:`RUNNING_HEADER`) sits in the top margin of every page, the footer
    (:data:`RUNNING_FOOTER` with the page number filled in) in the bottom margin. Page ``n`` opens with
    ``RUNNING_PAGE_SENTENCES[n - 1]`` followed by filler sentences.
    """
    total = len(RUNNING_PAGE_SENTENCES)
    doc = pymupdf.open()
    for n, sentence in enumerate(RUNNING_PAGE_SENTENCES, start=1):
        page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
        page.insert_text((_MARGIN, 40), RUNNING_HEADER, fontsize=9, fontname="helv")
        body = " ".join([sentence] + [_FILLER[(n + i) % len(_FILLER)] for i in range(6)])
        page.insert_textbox(
            pymupdf.Rect(_MARGIN, 90, _PAGE_WIDTH - _MARGIN, 700), body, fontsize=BODY_SIZE, fontname="helv"
        )
        page.insert_text((_MARGIN, 765), RUNNING_FOOTER.format(n=n, total=total), fontsize=9, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data


_FILLER = (
    "Counts were taken at dusk and again at dawn by two observers on the gallery.",
    "Both observers wrote their counts down independently of each other.",
    "Lighthouses were chosen at random from the national register of towers.",
    "Every chosen lighthouse was visited three times during the survey year.",
    "Visits were planned so that no lighthouse was counted during a storm.",
    "The dry season lasts from July until the end of October on this coast.",
    "Fishing boats were counted separately from cargo ships and ferries.",
    "A second team repeated one visit in ten to check the first team's counts.",
)

# Headings of nested_headings_pdf(), each with the font size and font it is printed in, page by page.
NESTED_HEADINGS: list[list[tuple[str, float, str]]] = [
    [("1 Introduction", 18, "hebo"), ("2 Methods", 18, "hebo"), ("2.1 Sampling", 14, "hebo"),
     ("2.1.3 Night counts", 12, "hebo")],
    [("2.2 Analysis", 14, "hebo"), ("3 Results", 18, "hebo")],
    [("3.1 Ships", 14, "hebo")],
]
# Heading path in effect where each page starts.
NESTED_PAGE_HEADINGS: dict[int, list[str]] = {
    1: [],
    2: ["2 Methods", "2.1 Sampling", "2.1.3 Night counts"],
    3: ["3 Results"],
}


def nested_headings_pdf(*, same_size: bool = False) -> bytes:
    """Three pages of numbered headings nested three deep, each heading followed by two body sentences.

    Parameters
    ----------
    same_size : print every heading in the same bold 12 pt, so only the numbering ("2", "2.1", "2.1.3") tells
        how they nest.
    """
    doc = pymupdf.open()
    for p, headings in enumerate(NESTED_HEADINGS):
        page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
        y = _MARGIN
        for h, (heading, size, font) in enumerate(headings):
            size = 12 if same_size else size
            y += size * 2
            page.insert_text((_MARGIN, y), heading, fontsize=size, fontname=font)
            for i in range(2):
                y += BODY_SIZE * 1.5
                page.insert_text((_MARGIN, y), _FILLER[(p * 3 + h + i) % len(_FILLER)], fontsize=BODY_SIZE,
                                 fontname="helv")
            y += BODY_SIZE
    data = doc.tobytes()
    doc.close()
    return data


TWO_COLUMN_TITLE = "Tides and Towers"
LEFT_COLUMN = tuple(f"Left column sentence {i} describes the tides at the northern harbour." for i in range(1, 9))
RIGHT_COLUMN = tuple(f"Right column sentence {i} describes the towers of the southern coast." for i in range(1, 9))


def two_column_pdf() -> bytes:
    """One page with a full-width title over two columns of text (:data:`LEFT_COLUMN`, :data:`RIGHT_COLUMN`).

    The columns' lines sit at the same heights, so a reader that goes line by line across the page interleaves
    them.
    """
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    page.insert_text((_MARGIN, _MARGIN + 18), TWO_COLUMN_TITLE, fontsize=HEADING_SIZE, fontname="hebo")
    gutter = 24
    width = (_PAGE_WIDTH - 2 * _MARGIN - gutter) / 2
    for x0, sentences in ((_MARGIN, LEFT_COLUMN), (_MARGIN + width + gutter, RIGHT_COLUMN)):
        page.insert_textbox(
            pymupdf.Rect(x0, _MARGIN + 40, x0 + width, _PAGE_HEIGHT - _MARGIN),
            " ".join(sentences), fontsize=BODY_SIZE, fontname="tiro", align=pymupdf.TEXT_ALIGN_JUSTIFY,
        )
    data = doc.tobytes()
    doc.close()
    return data


SIDEWAYS_BLOCK_BODY = (
    "The harbour office publishes the lighthouse counts every spring.",
    "Each count lists the ships seen from the tower during one night.",
    "Cargo ships and ferries are counted separately from fishing boats.",
    "Storm nights are left out because the observers cannot see the sea.",
)
SIDEWAYS_BLOCK_CAPTION = "Table 4 keeper rotation between the northern towers"


def sideways_block_pdf(*, page_rotation: int = 0) -> bytes:
    """One page of ordinary paragraphs plus a caption set sideways (rotated 90 degrees) in the right margin.

    Parameters
    ----------
    page_rotation : also set the page's ``/Rotate`` to this many degrees (0, 90, 180 or 270). The text is drawn
        before the rotation is set, so the page displays turned while its text keeps the same content.
    """
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    page.insert_textbox(
        pymupdf.Rect(_MARGIN, _MARGIN, _PAGE_WIDTH - 2 * _MARGIN, 400),
        "\n".join(SIDEWAYS_BLOCK_BODY), fontsize=BODY_SIZE, fontname="helv",
    )
    page.insert_text((_PAGE_WIDTH - _MARGIN, 560), SIDEWAYS_BLOCK_CAPTION, fontsize=BODY_SIZE, fontname="helv",
                     rotate=90)
    if page_rotation:
        page.set_rotation(page_rotation)
    data = doc.tobytes()
    doc.close()
    return data


TABLE_HEADER = ("Lighthouse", "Ships counted", "Nights")
TABLE_ROWS = (
    ("North Point", "412", "31"),
    ("Marsupia Harbour", "1,208", "29"),
    ("Gull Rock", "97", "30"),
    ("Cape Sorrow", "350", "28"),
)
TABLE_INTRO = "The table below lists the ships counted at each lighthouse during the survey."


def table_pdf() -> bytes:
    """One page with a sentence over a ruled table: :data:`TABLE_HEADER` then :data:`TABLE_ROWS`, one per row."""
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    page.insert_text((_MARGIN, _MARGIN + 14), TABLE_INTRO, fontsize=BODY_SIZE, fontname="helv")
    widths = (200, 140, 100)
    row_height = 24
    top = _MARGIN + 40
    rows = (TABLE_HEADER, *TABLE_ROWS)
    xs = [_MARGIN]
    for w in widths:
        xs.append(xs[-1] + w)
    for r, row in enumerate(rows):
        y0 = top + r * row_height
        for c, cell in enumerate(row):
            page.insert_text((xs[c] + 6, y0 + 16), cell, fontsize=BODY_SIZE, fontname="hebo" if r == 0 else "helv")
    bottom = top + len(rows) * row_height
    for r in range(len(rows) + 1):
        page.draw_line((xs[0], top + r * row_height), (xs[-1], top + r * row_height), width=0.8)
    for x in xs:
        page.draw_line((x, top), (x, bottom), width=0.8)
    page.insert_text((_MARGIN, bottom + 30), "Counts on storm nights are not included in the table.",
                     fontsize=BODY_SIZE, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data


# The last line of page 1 ends in PAGE_BREAK_HEAD ("experi-"), the first line of page 2 starts with
# PAGE_BREAK_TAIL ("mental").
PAGE_BREAK_HEAD = "experi-"
PAGE_BREAK_TAIL = "mental"


def page_break_hyphen_pdf() -> bytes:
    """Two pages of body text with ``experi-`` ending page 1 and ``mental`` starting page 2."""
    # Enough lines to fill the page, so the split word sits at the foot of the page as in a typeset paper.
    page1 = [(_FILLER[i % len(_FILLER)], BODY_SIZE) for i in range(38)]
    page1.append(("The harbour office then ordered a second, more careful experi-", BODY_SIZE))
    page2 = [("mental count of the ships passing each lighthouse at night.", BODY_SIZE)]
    page2 += [(_FILLER[(i + 3) % len(_FILLER)], BODY_SIZE) for i in range(6)]
    return make_pdf([page1, page2])


# A financial statement set as filings print it: no ruling, a two-level period heading centred over pairs of
# columns, right-aligned numbers with the currency sign apart from them, a row of labels without values.
STATEMENT_TITLE = "CONSOLIDATED STATEMENTS OF OPERATIONS"
STATEMENT_PERIODS = ("Three Months Ended", "Nine Months Ended")
STATEMENT_DATE = "September 30,"
STATEMENT_YEARS = ("2022", "2023", "2022", "2023")
STATEMENT_ROWS = (
    ("Net product sales", ("$ 59,340", "$ 63,171", "$ 172,370", "$ 179,184")),
    ("Net service sales", ("67,761", "79,912", "192,409", "225,640")),
    ("Total net sales", ("127,101", "143,083", "364,779", "404,824")),
    ("Operating expenses:", ()),
    ("Cost of sales", ("70,268", "75,022", "203,191", "212,186")),
    ("Fulfillment", ("20,583", "22,314", "61,196", "64,524")),
    ("Total operating expenses", ("124,576", "131,895", "355,268", "381,181")),
    ("Operating income (loss)", ("(2,525)", "11,188", "9,511", "23,643")),
)


def statement_pdf() -> bytes:
    """One page holding a statement of operations (:data:`STATEMENT_ROWS` under a heading spanning columns)."""
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    size = 9.0
    page.insert_text((170, 70), STATEMENT_TITLE, fontsize=12, fontname="hebo")
    page.insert_text((230, 88), "(in millions) (unaudited)", fontsize=size, fontname="helv")
    rights = (330, 400, 480, 550)  # right edges of the four value columns

    def right(text: str, x: float, y: float, font: str = "helv") -> None:
        page.insert_text((x - pymupdf.get_text_length(text, fontname=font, fontsize=size), y), text,
                         fontsize=size, fontname=font)

    y = 120
    for k, period in enumerate(STATEMENT_PERIODS):
        centre = (rights[2 * k] - 40 + rights[2 * k + 1]) / 2
        width = pymupdf.get_text_length(period, fontname="hebo", fontsize=size)
        page.insert_text((centre - width / 2, y), period, fontsize=size, fontname="hebo")
        width = pymupdf.get_text_length(STATEMENT_DATE, fontname="hebo", fontsize=size)
        page.insert_text((centre - width / 2, y + 12), STATEMENT_DATE, fontsize=size, fontname="hebo")
    for x, year in zip(rights, STATEMENT_YEARS):
        right(year, x, y + 26, "hebo")
    y += 44
    for label, values in STATEMENT_ROWS:
        page.insert_text((40, y), label, fontsize=size, fontname="helv")
        for x, value in zip(rights, values):
            if value.startswith("$ "):
                page.insert_text((x - 50, y), "$", fontsize=size, fontname="helv")
                value = value[2:]
            right(value, x, y)
        y += 14
    page.insert_text((200, y + 20), "See accompanying notes to consolidated financial statements.",
                     fontsize=size, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data


SIDE_PERIOD = "Three Months Ended September 30,"
SIDE_ROWS = (("Net income", ("$ 22,291", "$ 17,556")), ("Net change related to investments", ("(260)", "(1,897)")),
             ("Comprehensive income", ("$ 21,697", "$ 14,891")))


def side_period_statement_pdf() -> bytes:
    """A statement whose period is printed at the left of its line of years (as some filers set it):
    "Three Months Ended September 30,  ...  2023  2022", then :data:`SIDE_ROWS`."""
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    size = 9.0
    page.insert_text((170, 70), "COMPREHENSIVE INCOME STATEMENTS", fontsize=12, fontname="hebo")
    page.insert_text((40, 100), "(In millions) (Unaudited)", fontsize=size, fontname="helv")

    def right(text: str, x: float, y: float, font: str = "helv") -> None:
        page.insert_text((x - pymupdf.get_text_length(text, fontname=font, fontsize=size), y), text,
                         fontsize=size, fontname=font)

    page.insert_text((40, 118), SIDE_PERIOD, fontsize=size, fontname="hebo")
    right("2023", 480, 118, "hebo")
    right("2022", 550, 118, "hebo")
    y = 134
    for label, values in SIDE_ROWS:
        page.insert_text((40, y), label, fontsize=size, fontname="helv")
        for x, value in zip((480, 550), values):
            if value.startswith("$ "):
                page.insert_text((x - 50, y), "$", fontsize=size, fontname="helv")
                value = value[2:]
            right(value, x, y)
        y += 14
    data = doc.tobytes()
    doc.close()
    return data


# Facts of the page-label PDFs below: one sentence per physical page (1-based), each answering its own question.
LABEL_FACTS = (
    "The harbour of Quillon was founded in the year 1742.",
    "The lighthouse at Vennick Point is painted with red and white bands.",
    "The capital of Freedonia is Marsupia.",
    "The survey ship Tamsin carries a crew of forty sailors.",
    "The northern ferry to Orlek leaves the harbour every Tuesday morning.",
)
LABEL_FILLER = "The harbour office keeps the records of this survey in its archive beside the old customs house."


def _label_page(doc: pymupdf.Document, n: int) -> pymupdf.Page:
    """A page holding ``LABEL_FACTS[n - 1]`` and filler, with nothing in its margins."""
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    body = " ".join([LABEL_FACTS[(n - 1) % len(LABEL_FACTS)]] + [LABEL_FILLER] * 3)
    page.insert_textbox(pymupdf.Rect(_MARGIN, 110, _PAGE_WIDTH - _MARGIN, 600), body, fontsize=BODY_SIZE,
                        fontname="helv")
    return page


def own_labels_pdf() -> bytes:
    """Five pages with the PDF's own page labels and no number printed on them: roman front matter "i", "ii",
    then arabic "1", "2", "3". Page ``n`` holds ``LABEL_FACTS[n - 1]``."""
    doc = pymupdf.open()
    for n in range(1, len(LABEL_FACTS) + 1):
        _label_page(doc, n)
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                         {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1}])
    data = doc.tobytes()
    doc.close()
    return data


def printed_numbers_pdf(numbers=("17", "18", None, "20", "21")) -> bytes:
    """One page per entry of ``numbers``, without PDF page labels, each printing its entry centred in the footer
    (``None``: no number on that page, as on a chapter's opening page). Page ``n`` holds ``LABEL_FACTS[n - 1]``."""
    doc = pymupdf.open()
    for n, number in enumerate(numbers, start=1):
        page = _label_page(doc, n)
        if number is not None:
            width = pymupdf.get_text_length(number, fontname="helv", fontsize=10)
            page.insert_text(((_PAGE_WIDTH - width) / 2, 760), number, fontsize=10, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data


def stray_number_pdf() -> bytes:
    """Five pages without page numbers or PDF labels; only page 3 prints a number in a margin (``42``, bottom
    right), which is no page label. Page ``n`` holds ``LABEL_FACTS[n - 1]``."""
    doc = pymupdf.open()
    for n in range(1, len(LABEL_FACTS) + 1):
        page = _label_page(doc, n)
        if n == 3:
            page.insert_text((_PAGE_WIDTH - _MARGIN - 12, 760), "42", fontsize=10, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data
