"""Page images with the cited passage highlighted: the user must see the passage, and only it, tinted yellow."""

from __future__ import annotations

import io
import re

import numpy as np
import pymupdf
import pytest
from PIL import Image

from ingestion.chunking import chunk_pages
from ingestion.page_images import PageImage, find_boxes, render_page
from ingestion.reader import read_document
from tests.support import pdf_factory as factory
from tests.support import ROOT

DOCS = ROOT.parent / "shared" / "eval" / "docs"
DPI = 110
SCALE = DPI / 72


# --- helpers --------------------------------------------------------------------------------------------------


def yellow_mask(image: PageImage) -> np.ndarray:
    """Pixels with the highlight's tint: red and green well above blue (black text and white paper are grey)."""
    rgb = np.asarray(Image.open(io.BytesIO(image.png)).convert("RGB")).astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (r - b > 60) & (g - b > 40)


def box_mask(image: PageImage, pad: int = 1) -> np.ndarray:
    mask = np.zeros((image.height, image.width), dtype=bool)
    for x0, y0, x1, y1 in image.boxes:
        mask[max(int(y0) - pad, 0):int(y1) + pad + 1, max(int(x0) - pad, 0):int(x1) + pad + 1] = True
    return mask


def assert_tinted_exactly_in_boxes(image: PageImage) -> None:
    """Inside every box the paper is yellow; nowhere outside the boxes is anything yellow."""
    yellow = yellow_mask(image)
    assert yellow.shape == (image.height, image.width)
    for x0, y0, x1, y1 in image.boxes:
        inside = yellow[int(y0) + 1:int(y1) - 1, int(x0) + 1:int(x1) - 1]
        # Paper dominates a line of text, so most of a highlighted box is yellow; black glyphs stay dark.
        assert inside.mean() > 0.5, f"box {(x0, y0, x1, y1)} is not tinted"
    outside = int((yellow & ~box_mask(image)).sum())
    assert outside == 0, f"{outside} yellow pixels outside the highlight boxes"


def pixel_rects(page: pymupdf.Page, rects: list[pymupdf.Rect]) -> list[pymupdf.Rect]:
    """PDF rectangles where they appear in the rendered image (rotation and scale applied independently)."""
    matrix = page.rotation_matrix * pymupdf.Matrix(SCALE, SCALE)
    return [pymupdf.Rect(r * matrix).normalize() for r in rects]


def covered(target: pymupdf.Rect, boxes: list[tuple[float, ...]]) -> float:
    """Share of ``target``'s area inside the union of ``boxes`` (boxes of one passage do not overlap)."""
    area = sum(abs(target & pymupdf.Rect(b)) for b in boxes)
    return area / abs(target)


def page_of(pdf: bytes, number: int) -> pymupdf.Page:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return doc[number - 1]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --- PDFs built here ------------------------------------------------------------------------------------------

REPEATED = "the transformer model"
REPEAT_PARAGRAPHS = (
    "In the first study the transformer model was compared with a recurrent network on short sentences.",
    "A second group tested whether the transformer model needs more memory than older systems do.",
    "Our own runs show that the transformer model reaches a score of 28.4 after twelve hours of training.",
    "Finally the transformer model was deployed in a translation service used by many readers.",
)
REPEATED_SENTENCE = "Results are reported as the mean of five runs."
LIGATURE_LINE = "The e\ufb03cient \ufb01lter was \ufb01rst tuned by the o\ufb03ce sta\ufb00 in \ufb02ight."


def repeated_phrase_pdf() -> bytes:
    """One page of paragraphs that all say "the transformer model"; one sentence is printed twice."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 100
    for n, paragraph in enumerate(REPEAT_PARAGRAPHS):
        rect = pymupdf.Rect(72, y, 540, y + 60)
        extra = f" {REPEATED_SENTENCE}" if n in (0, 3) else ""
        page.insert_textbox(rect, paragraph + extra, fontsize=11, fontname="helv")
        y += 110
    data = doc.tobytes()
    doc.close()
    return data


def ligature_pdf() -> bytes:
    """One line written with real ligature glyphs (U+FB01 etc.) in the text layer, as typeset papers have."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, 120), "An unrelated first line about harbour pilots and their boats.", font=pymupdf.Font("tiro"),
                  fontsize=11)
    writer.append((72, 150), LIGATURE_LINE, font=pymupdf.Font("tiro"), fontsize=11)
    writer.write_text(page)
    data = doc.tobytes()
    doc.close()
    return data


# --- known text at known positions ----------------------------------------------------------------------------


def test_sentence_is_boxed_where_it_is_printed():
    pdf = factory.known_text_pdf()
    fact = factory.KNOWN_PAGE_FACTS[1]
    image = render_page(pdf, 1, fact, dpi=DPI)
    page = page_of(pdf, 1)
    (expected,) = pixel_rects(page, page.search_for(fact))
    assert image.matched == 1.0
    assert len(image.boxes) == 1
    assert covered(expected, image.boxes) > 0.95
    # The box hugs the line: no more than a few pixels bigger than the printed words.
    box = pymupdf.Rect(image.boxes[0])
    assert abs(box - expected) < 1.05 * abs(expected)
    assert (image.width, image.height) == (round(612 * SCALE), round(792 * SCALE))
    assert_tinted_exactly_in_boxes(image)


def test_no_highlight_renders_the_plain_page():
    image = render_page(factory.known_text_pdf(), 2)
    assert image.boxes == [] and image.matched == 0.0
    assert not yellow_mask(image).any()
    assert Image.open(io.BytesIO(image.png)).size == (image.width, image.height)


def test_markdown_and_line_breaks_of_the_stored_passage_do_not_matter():
    pdf = factory.known_text_pdf()
    # The way the reader stores page 1: a Markdown heading, bold, the words on other line breaks.
    passage = f"# **{factory.HEADING_INTRO}**\n\n_{factory.KNOWN_PAGE_FACTS[1]}_\nThe team ran an"
    image = render_page(pdf, 1, passage, dpi=DPI)
    page = page_of(pdf, 1)
    assert image.matched == 1.0
    for phrase in (factory.HEADING_INTRO, factory.KNOWN_PAGE_FACTS[1], "The team ran an"):
        for rect in pixel_rects(page, page.search_for(phrase)):
            assert covered(rect, image.boxes) > 0.9, phrase
    # "experi-" follows "The team ran an" on the same line, but is not part of the passage.
    (split_half,) = pixel_rects(page, page.search_for("experi"))
    assert covered(split_half, image.boxes) < 0.1


def test_word_hyphenated_across_lines_is_highlighted_on_both_lines():
    pdf = factory.known_text_pdf()
    passage = "The team ran an experimental count of ships that passed each lighthouse at night."
    image = render_page(pdf, 1, passage, dpi=DPI)
    page = page_of(pdf, 1)
    assert image.matched == 1.0
    assert len(image.boxes) == 2  # one per printed line
    for phrase in ("The team ran an experi", "mental count of ships"):
        for rect in pixel_rects(page, page.search_for(phrase)):
            assert covered(rect, image.boxes) > 0.95, phrase
    assert_tinted_exactly_in_boxes(image)


def test_ligature_glyphs_match_plain_letters():
    pdf = ligature_pdf()
    page = page_of(pdf, 1)
    assert "\ufb03" in page.get_text()  # the text layer really holds the ligature
    rects, matched = find_boxes(page, "The efficient filter was first tuned by the office staff in flight.")
    assert matched == 1.0
    assert len(rects) == 1 and rects[0].y0 > 130  # the second line, not the first


# --- layouts --------------------------------------------------------------------------------------------------


def test_passage_running_from_one_column_into_the_next():
    pdf = factory.two_column_pdf()
    page = page_of(pdf, 1)
    passage = " ".join([*factory.LEFT_COLUMN[-2:], *factory.RIGHT_COLUMN[:2]])
    image = render_page(pdf, 1, passage, dpi=DPI)
    assert image.matched == 1.0
    middle = image.width / 2
    assert any(b[2] < middle for b in image.boxes) and any(b[0] > middle for b in image.boxes)
    for sentence in (*factory.LEFT_COLUMN[-2:], *factory.RIGHT_COLUMN[:2]):
        for rect in pixel_rects(page, page.search_for(sentence)):
            assert covered(rect, image.boxes) > 0.9, sentence
    # The other sentences of both columns stay plain.
    for sentence in (*factory.LEFT_COLUMN[:5], *factory.RIGHT_COLUMN[3:]):
        for rect in pixel_rects(page, page.search_for(sentence)):
            assert covered(rect, image.boxes) < 0.1, sentence
    assert_tinted_exactly_in_boxes(image)


def test_table_chunk_as_the_reader_stores_it():
    pdf = factory.table_pdf()
    pages = read_document(pdf, "table.pdf").pages
    (chunk,) = [c for c in chunk_pages(pages, doc_id="t", filename="table.pdf") if "Marsupia Harbour" in c.text]
    # Clean text, one line per row, as shown to the user; the highlight still finds every cell on the page.
    assert "|" not in chunk.text and "Marsupia Harbour 1,208 29" in chunk.text.splitlines()
    image = render_page(pdf, 1, chunk.on_page_text, dpi=DPI)
    page = page_of(pdf, 1)
    assert image.matched > 0.9
    table_top = page.search_for(factory.TABLE_HEADER[0])[0].y0  # "Ships counted" is in the intro sentence too
    for cell in (*factory.TABLE_HEADER, "Marsupia Harbour", "1,208", "Gull Rock", "Cape Sorrow", "350"):
        rects = [r for r in page.search_for(cell) if r.y0 >= table_top]
        assert rects, cell
        for rect in pixel_rects(page, rects):
            assert covered(rect, image.boxes) > 0.9, cell
    assert_tinted_exactly_in_boxes(image)


def test_rotated_page_boxes_land_on_the_turned_text():
    pdf = factory.sideways_block_pdf(page_rotation=90)
    page = page_of(pdf, 1)
    assert page.rotation == 90
    sentence = factory.SIDEWAYS_BLOCK_BODY[1]
    image = render_page(pdf, 1, sentence, dpi=DPI)
    plain = render_page(pdf, 1, dpi=DPI)
    # The page shows landscape; the sentence, printed across the unrotated page, runs down the image.
    assert image.width > image.height
    (box,) = image.boxes
    assert box[3] - box[1] > 5 * (box[2] - box[0])
    (expected,) = pixel_rects(page, page.search_for(sentence))
    assert covered(expected, image.boxes) > 0.95
    # The box sits on ink in the plain rendering: the text really is there in the image the user sees.
    gray = np.asarray(Image.open(io.BytesIO(plain.png)).convert("L"))
    x0, y0, x1, y1 = (int(v) for v in box)
    assert (gray[y0:y1, x0:x1] < 100).mean() > 0.05
    assert_tinted_exactly_in_boxes(image)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_cropped_and_turned_pages_keep_the_box_on_the_sentence(rotation):
    # Scanned journals often crop the page (a CropBox not at 0, 0) and turn it; the box must follow both.
    with pymupdf.open(stream=factory.known_text_pdf(), filetype="pdf") as doc:
        doc[0].set_cropbox(pymupdf.Rect(40, 60, 560, 700))
        doc[0].set_rotation(rotation)
        pdf = doc.tobytes()
    image = render_page(pdf, 1, factory.KNOWN_PAGE_FACTS[1], dpi=DPI)
    plain = np.asarray(Image.open(io.BytesIO(render_page(pdf, 1, dpi=DPI).png)).convert("L"))
    (box,) = image.boxes
    x0, y0, x1, y1 = (int(v) for v in box)
    assert (plain[y0:y1, x0:x1] < 100).mean() > 0.05  # the sentence's ink is under the box
    landscape_line = rotation in (90, 270)
    assert ((y1 - y0) > (x1 - x0)) == landscape_line
    assert_tinted_exactly_in_boxes(image)


def test_repeated_phrase_is_highlighted_only_in_the_passage():
    pdf = repeated_phrase_pdf()
    page = page_of(pdf, 1)
    assert len(page.search_for(REPEATED)) == 4
    image = render_page(pdf, 1, REPEAT_PARAGRAPHS[2], dpi=DPI)
    assert image.matched == 1.0
    hits = pixel_rects(page, page.search_for(REPEATED))
    assert [covered(r, image.boxes) > 0.9 for r in hits] == [False, False, True, False]


def test_phrase_of_the_passage_printed_only_elsewhere_is_not_lit_there():
    # The stored passage opens with a caption the text layer lacks (a figure's label read from the image); its
    # words "the transformer model" are on the page only in other paragraphs, which must stay plain.
    pdf = repeated_phrase_pdf()
    page = page_of(pdf, 1)
    passage = f"In Figure 3 the transformer model is drawn in blue.\n\n{REPEAT_PARAGRAPHS[2]}"
    image = render_page(pdf, 1, passage, dpi=DPI)
    hits = pixel_rects(page, page.search_for(REPEATED))
    assert [covered(r, image.boxes) > 0.5 for r in hits] == [False, False, True, False]
    assert 0.6 < image.matched < 0.8  # the caption's words were not found


def test_sentence_printed_twice_is_highlighted_once():
    pdf = repeated_phrase_pdf()
    page = page_of(pdf, 1)
    hits = pixel_rects(page, page.search_for(REPEATED_SENTENCE))
    assert len(hits) == 2
    image = render_page(pdf, 1, REPEATED_SENTENCE, dpi=DPI)
    assert sorted(covered(r, image.boxes) > 0.9 for r in hits) == [False, True]


def test_passage_running_onto_the_next_page_is_split_by_page():
    pdf = factory.page_break_hyphen_pdf()
    pages = read_document(pdf, "break.pdf").pages
    (chunk,) = [c for c in chunk_pages(pages, doc_id="b", filename="break.pdf") if c.page_end == c.page + 1]
    first = render_page(pdf, chunk.page, chunk.on_page_text, dpi=DPI)
    second = render_page(pdf, chunk.page_end, chunk.continuation, dpi=DPI)
    assert first.matched > 0.95 and second.matched > 0.95
    page1, page2 = page_of(pdf, chunk.page), page_of(pdf, chunk.page_end)
    (head,) = pixel_rects(page1, page1.search_for(factory.PAGE_BREAK_HEAD.rstrip("-")))
    assert covered(head, first.boxes) > 0.9
    (tail,) = pixel_rects(page2, page2.search_for("mental count of the ships passing each lighthouse at night."))
    assert covered(tail, second.boxes) > 0.9
    # Only the continuation's sentence is lit on the second page: one line.
    assert len(second.boxes) == 1


def test_passage_from_another_page_gives_no_boxes():
    pdf = factory.known_text_pdf()
    page3 = " ".join(text for text, _ in factory.known_text_lines()[2])
    image = render_page(pdf, 1, page3, dpi=DPI)
    assert image.boxes == [] and image.matched == 0.0
    assert not yellow_mask(image).any()
    assert find_boxes(page_of(pdf, 1), page3) == ([], 0.0)


def test_page_without_text_layer_gives_no_boxes():
    image = render_page(factory.image_only_pdf(), 1, "Any passage read from this scan with OCR.")
    assert image.boxes == [] and image.matched == 0.0


# --- the file -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 4, -1])
def test_page_out_of_range_is_refused_with_the_valid_range(number):
    with pytest.raises(ValueError, match=rf"Page {number} does not exist: the PDF has 3 pages, numbered 1 to 3"):
        render_page(factory.known_text_pdf(), number)


def test_pdf_with_empty_user_password_renders():
    image = render_page(factory.empty_user_password_pdf(), 1, factory.EMPTY_PASSWORD_SENTENCE)
    assert len(image.boxes) == 1 and image.matched == 1.0


def test_pdf_locked_by_a_password_is_refused():
    with pytest.raises(ValueError, match="password"):
        render_page(factory.encrypted_pdf(), 1)


def test_bytes_that_are_not_a_pdf_are_refused():
    with pytest.raises(ValueError, match="not a readable PDF"):
        render_page(factory.NOT_A_PDF, 1)


# --- a real paper, chunked the product's way ------------------------------------------------------------------


def _unique_phrases(page: pymupdf.Page, text: str, size: int = 5) -> list[tuple[int, list[pymupdf.Rect]]]:
    """``(word position, rects)`` of the chunk's ``size``-word phrases that PyMuPDF finds exactly once."""
    words = [w for w in squash(re.sub(r"[#*_|>]", " ", text)).split(" ") if w]
    found = []
    for start in range(0, max(len(words) - size, 1), size):
        phrase = " ".join(words[start:start + size])
        rects = page.search_for(phrase)
        if rects and _one_hit(rects):
            found.append((start, rects))
    return found


def _one_hit(rects: list[pymupdf.Rect]) -> bool:
    # search_for returns one rect per line a hit spans; hits on lines far apart mean the phrase occurs twice.
    return max(r.y1 for r in rects) - min(r.y0 for r in rects) < 30


@pytest.fixture(scope="module")
def attention_pages():
    path = DOCS / "attention.pdf"
    if not path.exists():
        pytest.skip(f"{path} is missing: the evaluation papers are not on this machine")
    # Pages 2-3 only (introduction and model description): reading the whole paper would take seconds more.
    with pymupdf.open(path) as doc:
        doc.select([1, 2])
        pdf = doc.tobytes()
    pages = read_document(pdf, "attention.pdf").pages
    return pdf, chunk_pages(pages, doc_id="a", filename="attention.pdf")


def test_real_paper_chunks_are_highlighted_where_their_phrases_are(attention_pages):
    pdf, chunks = attention_pages
    checked = 0
    for chunk in chunks:
        page = page_of(pdf, chunk.page)
        phrases = _unique_phrases(page, chunk.on_page_text)
        if len(phrases) < 2:
            continue  # headings, formulas: too few phrases PyMuPDF's own search can find
        image = render_page(pdf, chunk.page, chunk.on_page_text, dpi=DPI)
        assert image.matched > 0.85, chunk.chunk_id
        targets = [r for _, rects in phrases for r in pixel_rects(page, rects)]
        for heading in (chunk.text[b.start:b.end] for b in chunk.blocks if b.kind == "heading"):
            hits = page.search_for(heading)
            if hits and _one_hit(hits):
                targets.extend(pixel_rects(page, hits))
        for target in targets:
            assert covered(target, image.boxes) > 0.8, (chunk.chunk_id, target)
        # Every box lies within the band of lines the chunk's phrases span (a line of slack each side).
        line = 14 * SCALE
        top, bottom = min(t.y0 for t in targets) - line, max(t.y1 for t in targets) + line
        for box in image.boxes:
            assert top <= box[1] and box[3] <= bottom, (chunk.chunk_id, box, top, bottom)
        assert_tinted_exactly_in_boxes(image)
        checked += 1
    assert checked >= 4


def test_real_paper_chunk_is_not_found_on_the_other_page(attention_pages):
    pdf, chunks = attention_pages
    chunk = max((c for c in chunks if c.page == 1), key=lambda c: len(c.text))
    image = render_page(pdf, 2, chunk.on_page_text, dpi=DPI)
    assert image.boxes == [] and image.matched == 0.0
