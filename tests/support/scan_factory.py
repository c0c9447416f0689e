"""Real scanned PDFs built in memory for OCR tests and the OCR benchmark.

A "scan" here is made the way a scanner makes one: known sentences are typeset on a PDF page with PyMuPDF,
the page is rasterised to a greyscale bitmap, turned by a small angle (the sheet lay slightly crooked), given
Gaussian sensor noise, compressed as JPEG and placed as the only content of a new PDF page. The resulting page
has no text layer at all, so only OCR can read it. Import what you need::

    from tests.support.scan_factory import scanned_pdf, mixed_pdf, SCANNED_SENTENCES
"""

from __future__ import annotations

import io

import numpy as np
import pymupdf
from PIL import Image

_PAGE_WIDTH, _PAGE_HEIGHT = 612, 792  # US Letter, in points (as in tests.support.pdf_factory)
_MARGIN = 72.0
BODY_SIZE = 11.0

# Default degradation: a clean office scan. Measured with `python -m evaluation.ocr_bench`.
DEFAULT_NOISE = 12.0  # standard deviation of the Gaussian noise, in grey levels (0-255)
DEFAULT_SKEW_DEG = 1.5
DEFAULT_DPI = 150  # a common "document" setting on office scanners

# ---------------------------------------------------------------------------------------------------------------
# Known content. Each sentence is printed as its own paragraph; long ones wrap onto a second line.
# ---------------------------------------------------------------------------------------------------------------
WRAPPED_SENTENCE = (
    "The harbour office publishes the counts every spring in a short report that is sent to every coastal "
    "town and to the national library."
)
# Two pages for scanned_pdf(SCANNED_SENTENCES).
SCANNED_SENTENCES: list[list[str]] = [
    [
        "The Freedonia survey counted every lighthouse on the northern coast.",
        "The capital of Freedonia is Marsupia.",
        "Rainfall in Marsupia peaks in the month of April, when the river floods the lower town.",
        "Invoice 4821 was paid on 12 March 2024 for a total of 1,250 euros.",
    ],
    [
        "Each lighthouse keeper kept a written log of the passing ships.",
        # Long enough to wrap onto a second printed line: one paragraph, two lines.
        WRAPPED_SENTENCE,
        "Visits were planned so that no lighthouse was counted in a storm.",
    ],
]
# Words that must survive OCR of SCANNED_SENTENCES (names, numbers, a long word).
SCANNED_KEY_WORDS: list[str] = ["Freedonia", "Marsupia", "lighthouse", "4821", "2024", "harbour"]

# mixed_pdf(): page 1 and page 3 carry a real text layer, page 2 is a scan of MIXED_SCANNED_SENTENCES.
MIXED_TEXT_PAGE_1 = "This first page was typed and saved as a normal text PDF about the Marsupia ferry."
MIXED_SCANNED_SENTENCES: list[str] = [
    "The ferry timetable was printed, signed and scanned.",
    "Boats leave Marsupia at seven and return before noon.",
]
MIXED_TEXT_PAGE_3 = "This last page is typed again and lists the ferry fares for children and adults."


def render_text_page(page: pymupdf.Page, sentences: list[str], *, fontsize: float = BODY_SIZE) -> None:
    """Typeset ``sentences`` on ``page`` as paragraphs separated by a blank line, wrapped to the margins."""
    if not sentences:
        return
    box = pymupdf.Rect(_MARGIN, _MARGIN, page.rect.width - _MARGIN, page.rect.height - _MARGIN)
    # insert_textbox returns a negative number when the text does not fit: fail loudly, a silently cut
    # reference would corrupt every CER measured against it.
    spare = page.insert_textbox(box, "\n\n".join(sentences), fontsize=fontsize, fontname="helv")
    if spare < 0:
        raise ValueError("sentences do not fit on one page")


def scan_image(
    sentences: list[str],
    *,
    noise: float = DEFAULT_NOISE,
    skew_deg: float = DEFAULT_SKEW_DEG,
    dpi: int = DEFAULT_DPI,
    seed: int = 0,
    fontsize: float = BODY_SIZE,
) -> bytes:
    """Return a JPEG "scan" of a Letter page printed with ``sentences``.

    Parameters
    ----------
    sentences : paragraphs to print (an empty list gives a blank sheet, still noisy and skewed).
    noise : standard deviation of the added Gaussian noise, in grey levels.
    skew_deg : rotation of the sheet in degrees, counter-clockwise; the uncovered corners are white like
        a scanner lid.
    dpi : scanning resolution.
    seed : seed of the noise, so a scan is reproducible.
    fontsize : size of the printed text in points.
    """
    doc = pymupdf.open()
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    render_text_page(page, sentences, fontsize=fontsize)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    doc.close()
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width)
    image = Image.fromarray(gray, mode="L")
    if skew_deg:
        # The sheet is turned before the sensor adds noise, as on a real flatbed.
        image = image.rotate(skew_deg, resample=Image.Resampling.BICUBIC, fillcolor=255)
    pixels = np.asarray(image, dtype=np.float32)
    if noise:
        pixels = pixels + np.random.default_rng(seed).normal(0.0, noise, pixels.shape)
    image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode="L")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()


def _add_scanned_page(doc: pymupdf.Document, image: bytes) -> None:
    page = doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT)
    page.insert_image(page.rect, stream=image)


def scanned_pdf(
    sentences_per_page: list[list[str]],
    *,
    noise: float = DEFAULT_NOISE,
    skew_deg: float = DEFAULT_SKEW_DEG,
    dpi: int = DEFAULT_DPI,
    seed: int = 0,
    fontsize: float = BODY_SIZE,
) -> bytes:
    """A PDF of scanned pages without any text layer: one page per list of sentences.

    Each page is a single full-page greyscale JPEG of the sentences printed in 11 pt Helvetica, one paragraph
    per sentence, turned by ``skew_deg`` degrees and with Gaussian noise of standard deviation ``noise`` grey
    levels (see :func:`scan_image`). An empty list makes a blank scanned sheet. Page ``i`` uses noise seed
    ``seed + i``.
    """
    doc = pymupdf.open()
    for index, sentences in enumerate(sentences_per_page):
        image = scan_image(
            sentences, noise=noise, skew_deg=skew_deg, dpi=dpi, seed=seed + index, fontsize=fontsize
        )
        _add_scanned_page(doc, image)
    data = doc.tobytes(deflate=True)
    doc.close()
    return data


def mixed_pdf() -> bytes:
    """A 3-page PDF: page 1 real text, page 2 a scan (no text layer), page 3 real text.

    Page 1 holds :data:`MIXED_TEXT_PAGE_1`, page 2 a default-quality scan of :data:`MIXED_SCANNED_SENTENCES`,
    page 3 :data:`MIXED_TEXT_PAGE_3`.
    """
    doc = pymupdf.open()
    render_text_page(doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT), [MIXED_TEXT_PAGE_1])
    _add_scanned_page(doc, scan_image(MIXED_SCANNED_SENTENCES))
    render_text_page(doc.new_page(width=_PAGE_WIDTH, height=_PAGE_HEIGHT), [MIXED_TEXT_PAGE_3])
    data = doc.tobytes(deflate=True)
    doc.close()
    return data
