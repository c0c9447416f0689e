"""OCR of scanned pages: real engines on real scanned PDFs built by tests.support.scan_factory.

The CER bound: on the benchmark's synthetic scans (evaluation/results/ocr.md) RapidOCR reads 11 pt text
scanned at 150 dpi with CER 0 at every noise and skew level measured, and its worst page overall (9 pt at
100 dpi, heavy noise) stays near 0.02. The default scans here are cleaner than that worst page, so a bound of
0.02 (two wrong characters in a hundred) leaves room for a different CPU or onnxruntime build while failing
on anything that matters: a dropped line costs about 0.15 on these pages, a garbled reading about 1.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pymupdf
import pytest

from evaluation.ocr_bench import cer
from ingestion import ocr
from ingestion.ocr import OcrText, OcrUnavailable, get_engine, ocr_page, page_needs_ocr
from tests.support import pdf_factory
from tests.support.scan_factory import (
    MIXED_SCANNED_SENTENCES,
    SCANNED_KEY_WORDS,
    SCANNED_SENTENCES,
    WRAPPED_SENTENCE,
    mixed_pdf,
    scan_image,
    scanned_pdf,
)

MAX_CER = 0.02


@pytest.fixture(scope="module")
def scanned_doc():
    doc = pymupdf.open(stream=scanned_pdf(SCANNED_SENTENCES), filetype="pdf")
    yield doc
    doc.close()


@pytest.fixture(scope="module")
def scanned_results(scanned_doc) -> list[OcrText]:
    # OCR is the slow part (seconds per page): read each page once for the whole module.
    return [ocr_page(page) for page in scanned_doc]


@pytest.fixture(scope="module")
def mixed_doc():
    doc = pymupdf.open(stream=mixed_pdf(), filetype="pdf")
    yield doc
    doc.close()


# --- reading scans ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(SCANNED_SENTENCES)))
def test_known_sentences_come_back(scanned_results, index):
    result = scanned_results[index]
    reference = " ".join(SCANNED_SENTENCES[index])
    assert cer(result.text, reference) <= MAX_CER, result.text
    assert 0.5 < result.confidence <= 1.0


def test_key_words_are_read(scanned_results):
    text = " ".join(r.text for r in scanned_results)
    missing = [word for word in SCANNED_KEY_WORDS if word not in text]
    assert not missing


def test_sentences_are_paragraphs_in_reading_order(scanned_results):
    # Each sentence is printed as its own paragraph, top to bottom, on a page skewed by 1.5 degrees.
    for result, sentences in zip(scanned_results, SCANNED_SENTENCES):
        paragraphs = result.text.split("\n\n")
        assert len(paragraphs) == len(sentences), result.text
        for paragraph, sentence in zip(paragraphs, sentences):
            assert cer(paragraph, sentence) <= MAX_CER, (paragraph, sentence)


def test_wrapped_sentence_is_one_paragraph_of_two_lines(scanned_results):
    paragraphs = scanned_results[1].text.split("\n\n")
    wrapped = next(p for p in paragraphs if p.startswith("The harbour office"))
    assert wrapped.count("\n") == 1
    assert cer(wrapped, WRAPPED_SENTENCE) <= MAX_CER


def test_scanned_page_of_mixed_pdf(mixed_doc):
    result = ocr_page(mixed_doc[1])
    assert cer(result.text, " ".join(MIXED_SCANNED_SENTENCES)) <= MAX_CER, result.text


def test_blank_page_gives_empty_text():
    doc = pymupdf.open()
    doc.new_page()
    assert ocr_page(doc[0]) == OcrText("", 0.0)


def test_noisy_blank_sheet_gives_empty_text():
    # Heavy sensor noise (45 grey levels) leaves thousands of dark pixels, so the page goes through the
    # detector: noise alone must not be read as letters.
    doc = pymupdf.open(stream=scanned_pdf([[]], noise=45), filetype="pdf")
    image = ocr.render_page(doc[0])
    assert ocr._has_ink(image)
    assert get_engine().read(image) == OcrText("", 0.0)


# --- which pages need OCR --------------------------------------------------------------------------------------
def test_page_needs_ocr_for_scans_only(scanned_doc, mixed_doc):
    assert page_needs_ocr(scanned_doc[0])
    assert [page_needs_ocr(page) for page in mixed_doc] == [False, True, False]


def test_text_page_does_not_need_ocr():
    doc = pymupdf.open(stream=pdf_factory.known_text_pdf(), filetype="pdf")
    assert not any(page_needs_ocr(page) for page in doc)


def test_rotated_scan_needs_ocr():
    # A scan on the lower half of the sheet, then the page turned by 90 degrees: image boxes are reported in
    # unrotated coordinates and must be turned with the page before they are measured against it.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lower_half = pymupdf.Rect(0, 396, 612, 792)
    page.insert_image(lower_half, stream=scan_image(MIXED_SCANNED_SENTENCES), keep_proportion=False)
    page.set_rotation(90)
    assert page_needs_ocr(page)


def test_small_image_without_text_does_not_need_ocr():
    # A 228 pt square image on a Letter page (about 11 % of it): a logo or a photo, not a scanned page.
    doc = pymupdf.open(stream=pdf_factory.image_only_pdf(), filetype="pdf")
    assert not page_needs_ocr(doc[0])


def test_empty_page_does_not_need_ocr():
    doc = pymupdf.open()
    doc.new_page()
    assert not page_needs_ocr(doc[0])


def test_stamped_page_number_on_a_scan_still_needs_ocr(mixed_doc):
    doc = pymupdf.open()
    doc.insert_pdf(mixed_doc, from_page=1, to_page=1)
    doc[0].insert_text((300, 770), "Page 2 of 3", fontsize=9)
    assert page_needs_ocr(doc[0])


# --- engines ---------------------------------------------------------------------------------------------------
def test_unknown_engine_raises_with_install_hint():
    with pytest.raises(OcrUnavailable) as err:
        get_engine("no-such-engine")
    assert "pip install rapidocr==" in str(err.value)


def test_missing_rapidocr_raises_with_install_hint(monkeypatch):
    monkeypatch.setattr(ocr, "_engines", {})
    monkeypatch.setitem(sys.modules, "rapidocr", None)  # makes `import rapidocr` raise ImportError
    with pytest.raises(OcrUnavailable) as err:
        get_engine("rapidocr")
    assert "pip install rapidocr==" in str(err.value)


def test_engine_is_loaded_once():
    engine = get_engine()
    assert engine is get_engine("rapidocr")
    assert engine.name == "rapidocr"


def test_importing_ocr_does_not_load_an_engine():
    # onnxruntime itself is imported by pymupdf 2.0, so the check is on the engines' own packages.
    code = "import sys, ingestion.ocr; sys.exit(any(m in sys.modules for m in ('rapidocr', 'cv2', 'pytesseract')))"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_read_rejects_non_rgb_arrays():
    with pytest.raises(ValueError):
        get_engine().read(np.zeros((10, 10), dtype=np.uint8))


@pytest.mark.slow  # the alternative engine: needs the Debian package, not installed by requirements.txt
def test_tesseract_engine_reads_a_scan(scanned_doc):
    try:
        engine = get_engine("tesseract")
    except OcrUnavailable as exc:
        pytest.skip(str(exc))
    result = ocr_page(scanned_doc[0], engine=engine)
    assert cer(result.text, " ".join(SCANNED_SENTENCES[0])) <= MAX_CER, result.text


# --- reading order from loose boxes (no OCR) -------------------------------------------------------------------
def _box(text: str, x0: float, y0: float, width: float, height: float = 40.0, deg: float = 0.0) -> ocr._Box:
    """A text box whose top-left corner is (x0, y0), turned by ``deg`` degrees (clockwise positive in y-down)."""
    t = np.deg2rad(deg)
    along, down = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    tl = np.array([x0, y0])
    points = np.array([tl, tl + width * along, tl + width * along + height * down, tl + height * down])
    return ocr._Box(text, 0.9, points)


def test_layout_keeps_skewed_lines_apart():
    # Lines 40 px tall, 42 px apart, tilted by 2 degrees over 1200 px: their axis-aligned boxes overlap
    # vertically by 40 px, yet they are three separate lines of one paragraph.
    boxes = [_box(f"line {i}", 100, 100 + 42 * i, 1200, deg=-2.0) for i in range(3)]
    assert ocr._layout(boxes[::-1]).text == "line 0\nline 1\nline 2"


def test_layout_joins_boxes_of_one_line_left_to_right():
    boxes = [_box("right", 700, 102, 300), _box("left", 100, 100, 300), _box("next", 100, 142, 300)]
    assert ocr._layout(boxes).text == "left right\nnext"


def test_layout_separates_paragraphs_at_large_gaps():
    boxes = [_box("a", 100, 100, 300), _box("b", 100, 142, 300), _box("c", 100, 230, 300)]
    assert ocr._layout(boxes).text == "a\nb\n\nc"


def test_layout_of_nothing_is_empty():
    assert ocr._layout([]) == OcrText("", 0.0)


def test_a_document_page_reads_the_same_after_an_invoice_scan_was_read(scanned_doc, scanned_results):
    # The engine keeps a call's options for later calls; the invoice reader asks for a lower box threshold and
    # character boxes, which must not change how the next document page is read.
    from ingestion.invoices.words import ocr_words

    assert ocr_words(scanned_doc[0], 1)
    engine = get_engine("rapidocr")
    assert engine._ocr.cfg.Det.box_thresh != engine._options["box_thresh"]  # the invoice call's options are set
    again = ocr_page(scanned_doc[0])
    assert again == scanned_results[0]
    assert engine._ocr.cfg.Det.box_thresh == engine._options["box_thresh"]
    assert engine._ocr.return_word_box is False
