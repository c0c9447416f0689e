"""Read scanned PDF pages (images without a text layer) with OCR, offline.

The default engine is RapidOCR (PP-OCRv6 detection and recognition models run on onnxruntime); its models ship
inside the ``rapidocr`` wheel, so nothing is downloaded at run time. Tesseract is kept as an alternative because
supporting it costs a few lines; it needs the Debian package ``tesseract-ocr`` and ``pytesseract``. The choice
is measured by ``python -m evaluation.ocr_bench`` (results in ``evaluation/results/ocr.md``).

Engines are heavy (about a second to load RapidOCR's models), so each is built lazily on first use and kept for
the life of the process. Importing this module imports neither engine.

Usage::

    from ingestion.ocr import ocr_page, page_needs_ocr

    if page_needs_ocr(page):
        result = ocr_page(page)          # OcrText(text=..., confidence=...)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import pymupdf
from PIL import Image

DEFAULT_ENGINE = "rapidocr"

# The exact commands that make each engine available (versions as pinned in requirements.txt).
INSTALL_COMMANDS: dict[str, str] = {
    "rapidocr": "pip install rapidocr==3.10.0",
    "tesseract": "apt-get install -y tesseract-ocr tesseract-ocr-eng && pip install pytesseract==0.3.13",
}

# A page with fewer letters and digits than this in its text layer counts as having no text layer: scanners and
# archives often stamp a page number or a Bates number as text on top of the scan.
_MIN_TEXT_CHARS = 20
# Images must cover at least this share of the page for OCR to be worth it; small logos and signatures are not.
_MIN_IMAGE_COVER = 0.3
# An image with fewer ink pixels than this share of its area (about 75 pixels on a Letter page at 200 dpi,
# less than one small letter) is blank and is not sent to the engine.
_MIN_INK_SHARE = 2e-5
_INK_LEVEL = 160
# Resolution of the grid used to measure how much of the page images cover (union, so overlaps count once).
_COVER_GRID = 64


@dataclass(frozen=True)
class OcrText:
    """What OCR read on one image.

    Attributes
    ----------
    text : lines in reading order (top to bottom, left to right) joined with ``"\\n"``; paragraphs are
        separated by a blank line. Empty when nothing was read.
    confidence : the engine's mean recognition confidence in [0, 1], weighted by characters; 0.0 when
        ``text`` is empty.
    """

    text: str
    confidence: float


class OcrUnavailable(RuntimeError):
    """The requested OCR engine is unknown or not installed; the message says how to install one."""


class OcrEngine(Protocol):
    """What :func:`get_engine` returns."""

    name: str

    def read(self, image: np.ndarray) -> OcrText:
        """Read an RGB ``uint8`` image of shape ``(height, width, 3)``."""
        ...


# ---------------------------------------------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------------------------------------------
_engines: dict[str, OcrEngine] = {}
_engines_lock = threading.Lock()


def get_engine(name: str = DEFAULT_ENGINE) -> OcrEngine:
    """Return the OCR engine called ``name``, loading it on first use and reusing it afterwards.

    Parameters
    ----------
    name : ``"rapidocr"`` (default) or ``"tesseract"``.

    Returns
    -------
    OcrEngine
        An object with ``.name`` and ``.read(image) -> OcrText``.

    Raises
    ------
    OcrUnavailable
        ``name`` is not a known engine, or its package (or program) is not installed. The message holds the
        install command.
    """
    key = name.strip().lower()
    if key not in INSTALL_COMMANDS:
        raise OcrUnavailable(
            f"Unknown OCR engine {name!r}; choose one of {', '.join(sorted(INSTALL_COMMANDS))}. "
            f"The default is installed with: {INSTALL_COMMANDS[DEFAULT_ENGINE]}"
        )
    # One lock for all engines: loading is rare, and two threads must not both load RapidOCR's models.
    with _engines_lock:
        if key not in _engines:
            _engines[key] = RapidOcrEngine() if key == "rapidocr" else TesseractEngine()
        return _engines[key]


# Text detection runs on the page scaled so its longer side is at most this many pixels (RapidOCR's default
# keeps up to 2000, i.e. almost the whole 200 dpi page). On the benchmark pages this cuts CPU time per page by
# 35-45 % at the same CER (the "rapidocr-fulldet" row of evaluation/results/ocr.md); on dense pages of 6 pt
# text CER rose from 0.05 % to 0.3 %, still a few characters per page.
_DET_MAX_SIDE = 1280


class RapidOcrEngine:
    """RapidOCR with the models bundled in its wheel and the angle classifier off.

    The classifier only detects text turned upside down; scanned office pages are upright, and it adds time.
    """

    name = "rapidocr"

    def __init__(self, det_max_side: int | None = _DET_MAX_SIDE) -> None:
        try:
            import rapidocr
            from rapidocr import RapidOCR
        except ImportError as exc:
            raise OcrUnavailable(
                f"The OCR engine 'rapidocr' is not installed. Install it with: {INSTALL_COMMANDS['rapidocr']}"
            ) from exc
        models = Path(rapidocr.__file__).parent / "models"
        detector, recogniser = models / "PP-OCRv6_det_small.onnx", models / "PP-OCRv6_rec_small.onnx"
        if not (detector.is_file() and recogniser.is_file()):
            raise OcrUnavailable(
                f"The rapidocr package has no bundled models in {models}. Reinstall it with: "
                f"{INSTALL_COMMANDS['rapidocr']}"
            )
        # Explicit model paths: RapidOCR would otherwise look a model up by language and download it if missing,
        # and this product must never reach a model hub at run time.
        params = {
            "Global.use_cls": False,
            # Its warnings are about normal events here, such as "no text detected" on a blank page.
            "Global.log_level": "error",
            "Det.model_path": str(detector),
            "Rec.model_path": str(recogniser),
        }
        if det_max_side:
            params.update({"Det.limit_type": "max", "Det.limit_side_len": det_max_side})
        self._ocr = RapidOCR(params=params)
        # The engine keeps a call's options for the calls after it; reading a document passes its own each time,
        # so a caller that changed them (the invoice reader: a lower box threshold, word boxes) changes nothing here.
        self._options = {"box_thresh": float(self._ocr.cfg.Det.box_thresh), "return_word_box": False,
                         "return_single_char_box": False}
        # onnxruntime sessions already use every core; concurrent calls would only compete for them.
        self._lock = threading.Lock()

    def read(self, image: np.ndarray) -> OcrText:
        """Read an RGB image; see :class:`OcrEngine`."""
        if not _has_ink(image):
            return OcrText("", 0.0)
        # RapidOCR takes arrays as OpenCV's BGR.
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        with self._lock:
            out = self._ocr(bgr, **self._options)
        if out.boxes is None or not out.txts:
            return OcrText("", 0.0)
        boxes = [
            _Box(text.strip(), float(score), np.asarray(points, dtype=np.float64))
            for points, text, score in zip(out.boxes, out.txts, out.scores)
            if text.strip()
        ]
        return _layout(boxes)


class TesseractEngine:
    """Tesseract through pytesseract; Tesseract's own line and paragraph segmentation is kept."""

    name = "tesseract"

    def __init__(self) -> None:
        try:
            import pytesseract

            pytesseract.get_tesseract_version()
        except ImportError as exc:
            raise OcrUnavailable(
                f"pytesseract is not installed. Install Tesseract with: {INSTALL_COMMANDS['tesseract']}"
            ) from exc
        except Exception as exc:  # pytesseract raises TesseractNotFoundError (an OSError) without the program
            raise OcrUnavailable(
                f"The tesseract program is not installed. Install it with: {INSTALL_COMMANDS['tesseract']}"
            ) from exc
        self._pytesseract = pytesseract

    def read(self, image: np.ndarray) -> OcrText:
        """Read an RGB image; see :class:`OcrEngine`."""
        if not _has_ink(image):
            return OcrText("", 0.0)
        data = self._pytesseract.image_to_data(
            Image.fromarray(image), lang="eng", output_type=self._pytesseract.Output.DICT
        )
        paragraphs: dict[tuple[int, int], dict[int, list[str]]] = {}
        weighted, chars = 0.0, 0
        for word, conf, block, par, line in zip(
            data["text"], data["conf"], data["block_num"], data["par_num"], data["line_num"]
        ):
            word = word.strip()
            # Rows with confidence -1 are layout rows (page, block, line), not words.
            if not word or float(conf) < 0:
                continue
            paragraphs.setdefault((block, par), {}).setdefault(line, []).append(word)
            weighted += float(conf) / 100 * len(word)
            chars += len(word)
        text = "\n\n".join(
            "\n".join(" ".join(words) for words in lines.values()) for lines in paragraphs.values()
        )
        return OcrText(text, weighted / chars if chars else 0.0)


def _has_ink(image: np.ndarray) -> bool:
    """Tell whether an RGB image holds any dark marks; raise ``ValueError`` if it is not an RGB uint8 array.

    Blank pages (the backs of scanned sheets, separators) are common, and running the detector over an empty
    200 dpi page still costs about two seconds. A pixel counts as ink when its darkest channel is below 160, so
    coloured and grey print counts too.
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("OCR needs an RGB uint8 array of shape (height, width, 3)")
    dark = np.count_nonzero(image.min(axis=2) < _INK_LEVEL)
    return dark >= _MIN_INK_SHARE * image.shape[0] * image.shape[1]


# ---------------------------------------------------------------------------------------------------------------
# Reading order for engines that return loose text boxes (RapidOCR)
# ---------------------------------------------------------------------------------------------------------------
# Two boxes are on one line when their centre lines, extended along the page's slope, are closer than this
# share of the smaller box height.
_SAME_LINE = 0.5
# A blank line separates two lines whose gap (centre-to-centre distance less their half heights) is larger than
# this share of the page's median box height. Measured on the synthetic scans (9-12 pt, 200 dpi): lines of one
# single-spaced paragraph have gaps of 0.02-0.21 (1.5 line spacing adds about 0.2), an empty line between
# paragraphs gives 1.1-1.2. Double spacing cannot be told from an empty line this way.
_PARAGRAPH_GAP = 0.5


@dataclass
class _Box:
    """One detected text box: ``points`` are its four corners (top-left, top-right, bottom-right, bottom-left)."""

    text: str
    score: float
    points: np.ndarray

    @property
    def cx(self) -> float:
        return float(self.points[:, 0].mean())

    @property
    def cy(self) -> float:
        return float(self.points[:, 1].mean())

    @property
    def width(self) -> float:
        tl, tr, br, bl = self.points
        return float((np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2)

    @property
    def height(self) -> float:
        tl, tr, br, bl = self.points
        return float((np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2)

    @property
    def slope(self) -> float:
        tl, tr, br, bl = self.points
        left, right = (tl + bl) / 2, (tr + br) / 2
        dx = right[0] - left[0]
        return float((right[1] - left[1]) / dx) if dx > 0 else 0.0


def _line_y(line: list[_Box], x: float, slope: float) -> float:
    """The y of ``line``'s centre line at ``x``, taken from the box nearest to ``x``."""
    ref = min(line, key=lambda b: abs(b.cx - x))
    return ref.cy + slope * (x - ref.cx)


def _layout(boxes: list[_Box]) -> OcrText:
    """Join text boxes into lines in reading order and lines into paragraphs.

    A skewed scan tilts every line, so "same line" is judged along the page's slope (the median slope of the
    wide boxes) rather than by plain vertical overlap, which would merge neighbouring lines on a 2 degree skew.
    """
    if not boxes:
        return OcrText("", 0.0)
    wide = [b.slope for b in boxes if b.width > 3 * b.height]
    slope = float(np.median(wide)) if wide else 0.0

    lines: list[list[_Box]] = []
    for box in sorted(boxes, key=lambda b: b.cy):
        best, best_distance = None, None
        for line in lines:
            distance = abs(_line_y(line, box.cx, slope) - box.cy)
            limit = _SAME_LINE * min(box.height, min(b.height for b in line))
            if distance < limit and (best_distance is None or distance < best_distance):
                best, best_distance = line, distance
        if best is None:
            lines.append([box])
        else:
            best.append(box)

    # Order lines where they all start (the left edge of the text), so skew does not reorder them.
    left = min(float(b.points[:, 0].min()) for b in boxes)
    lines.sort(key=lambda line: _line_y(line, left, slope))
    median_height = float(np.median([b.height for b in boxes]))

    parts: list[str] = []
    previous: list[_Box] | None = None
    for line in lines:
        line.sort(key=lambda b: b.cx)
        if previous is not None:
            x = (np.mean([b.cx for b in previous]) + np.mean([b.cx for b in line])) / 2
            gap = _line_y(line, x, slope) - _line_y(previous, x, slope)
            gap -= (np.median([b.height for b in previous]) + np.median([b.height for b in line])) / 2
            parts.append("\n\n" if gap > _PARAGRAPH_GAP * median_height else "\n")
        parts.append(" ".join(b.text for b in line))
        previous = line

    chars = sum(len(b.text) for b in boxes)
    confidence = sum(b.score * len(b.text) for b in boxes) / chars
    return OcrText("".join(parts), float(confidence))


# ---------------------------------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------------------------------
def render_page(page: pymupdf.Page, *, dpi: int = 200) -> np.ndarray:
    """Render ``page`` to an RGB ``uint8`` array of shape ``(height, width, 3)``."""
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()


def ocr_page(page: pymupdf.Page, *, dpi: int = 200, engine: OcrEngine | str | None = None) -> OcrText:
    """Read a page with OCR.

    Parameters
    ----------
    page : the PDF page (usually one for which :func:`page_needs_ocr` is true).
    dpi : render resolution; 200 reads 9 pt text reliably, more mostly costs time.
    engine : an engine from :func:`get_engine`, an engine name, or ``None`` for the default engine.

    Returns
    -------
    OcrText
        The page's text in reading order and the engine's confidence.

    Raises
    ------
    OcrUnavailable
        The engine is not installed.
    """
    if engine is None or isinstance(engine, str):
        engine = get_engine(engine or DEFAULT_ENGINE)
    return engine.read(render_page(page, dpi=dpi))


def page_needs_ocr(page: pymupdf.Page) -> bool:
    """Tell whether a page is a scan: (almost) no text layer, and images covering a good part of it.

    A page counts as having no text layer with fewer than 20 letters and digits of text (a stamped page number
    does not make a scan readable). Images must cover at least 30 % of the page, counting overlapping images
    once, so a text-less page holding only a logo or a drawing is not sent to OCR.
    """
    text = page.get_text("text")
    if sum(ch.isalnum() for ch in text) >= _MIN_TEXT_CHARS:
        return False
    area = page.rect
    if area.is_empty:
        return False
    covered = np.zeros((_COVER_GRID, _COVER_GRID), dtype=bool)
    for info in page.get_image_info():
        # Image boxes come in unrotated page coordinates; page.rect is the page as shown (rotated).
        box = (pymupdf.Rect(info["bbox"]) * page.rotation_matrix) & area
        if box.is_empty:
            continue
        x0 = int((box.x0 - area.x0) / area.width * _COVER_GRID)
        x1 = int(np.ceil((box.x1 - area.x0) / area.width * _COVER_GRID))
        y0 = int((box.y0 - area.y0) / area.height * _COVER_GRID)
        y1 = int(np.ceil((box.y1 - area.y0) / area.height * _COVER_GRID))
        covered[y0:y1, x0:x1] = True
    return bool(covered.mean() >= _MIN_IMAGE_COVER)
