"""Scans of generated invoices: every page rasterised, degraded as a sheet fed through an office scanner is, and
put back as a JPEG image that is the page's only content (no text layer; only OCR can read it).

From the seed, per document: the resolution (150, 175 or 200 dpi unless given), the JPEG quality (60 to 85);
per page: a rotation of up to 1 degree either way (the sheet lay crooked), a Gaussian blur of radius 0.3 to 0.7
pixels (focus), a paper grey of 240 to 252 instead of white, and Gaussian grey noise of 3 to 7 grey levels.
The output page has the size of the input page in points, so an image of ``w`` pixels on a page of ``W`` points
was scanned at ``72 * w / W`` dpi. The same bytes and seed give the same scan.
"""

from __future__ import annotations

import io
import random

import numpy as np
import pymupdf
from PIL import Image, ImageFilter

__all__ = ["DPIS", "scan", "scan_settings"]

DPIS = (150, 175, 200)


def scan_settings(seed: int, pages: int, dpi: int | None = None) -> dict:
    """The degradation drawn from ``seed``: dpi, JPEG quality, and per page the angle, blur, paper grey, noise."""
    rng = random.Random(f"scan:{seed}")
    return {"dpi": dpi or rng.choice(DPIS), "quality": rng.randint(60, 85),
            "pages": [{"angle": rng.uniform(-1.0, 1.0), "blur": rng.uniform(0.3, 0.7), "paper": rng.randint(240, 252),
                       "noise": rng.uniform(3.0, 7.0)} for _ in range(pages)]}


def _degrade(image: Image.Image, page: dict, rng: np.random.Generator) -> Image.Image:
    # Paper first (white becomes the paper grey), then the crooked sheet, the lens, the sensor.
    grey = np.asarray(image, dtype=np.float32) * (page["paper"] / 255.0)
    image = Image.fromarray(grey.clip(0, 255).astype(np.uint8), "L")
    image = image.rotate(page["angle"], resample=Image.Resampling.BICUBIC, fillcolor=page["paper"])
    image = image.filter(ImageFilter.GaussianBlur(page["blur"]))
    noisy = np.asarray(image, dtype=np.float32) + rng.normal(0.0, page["noise"], (image.height, image.width))
    return Image.fromarray(noisy.clip(0, 255).astype(np.uint8), "L")


def scan(pdf_bytes: bytes, seed: int, dpi: int | None = None) -> bytes:
    """A scan of the PDF ``pdf_bytes``: one greyscale JPEG per page, nothing else on it."""
    src = pymupdf.open(stream=pdf_bytes, filetype="pdf")
    settings = scan_settings(seed, src.page_count, dpi)
    rng = np.random.default_rng(random.Random(f"noise:{seed}").getrandbits(64))
    out = pymupdf.open()
    for page, degrade in zip(src, settings["pages"]):
        pix = page.get_pixmap(dpi=settings["dpi"], colorspace=pymupdf.csGRAY, alpha=False)
        image = _degrade(Image.frombytes("L", (pix.width, pix.height), pix.samples), degrade, rng)
        jpeg = io.BytesIO()
        image.save(jpeg, format="JPEG", quality=settings["quality"])
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=jpeg.getvalue())
    data = out.tobytes(garbage=3, deflate=True, no_new_id=True)
    out.close()
    src.close()
    return data
