"""Real PDFs built in memory for tests, plus the facts each one is known to contain.

Every builder returns the bytes of a PDF written by PyMuPDF (or, where PyMuPDF refuses to write one, a
hand-written file), so tests exercise the same code path as an upload. Import what you need::

    from tests.pdf_factory import known_text_pdf, KNOWN_PAGE_FACTS, encrypted_pdf
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

    The layout reader returns nothing for this page and pdfplumber returns the words reversed letter by letter;
    only MuPDF's plain text holds :data:`SIDEWAYS_SENTENCES` as printed.
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
