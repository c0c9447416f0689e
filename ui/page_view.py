"""The cited page as the citation panel opens it: zoomed to the highlighted passage, or whole on request."""

from __future__ import annotations

from PIL import Image

# The band shown around the highlight: this share of the page's height above and below it, and at least this share
# of the page in all, so the passage is read with the lines around it.
MARGIN = 0.12
LEAST = 0.35


def zoomed(picture: Image.Image, boxes: list[tuple[float, float, float, float]]) -> Image.Image:
    """The full-width band of ``picture`` that holds every highlight box (in image pixels), with some page around
    it; the whole page when nothing is highlighted.

    >>> page = Image.new("RGB", (850, 1100), "white")
    >>> zoomed(page, [(100, 500, 700, 520)]).size
    (850, 385)
    >>> zoomed(page, []).size
    (850, 1100)
    """
    if not boxes:
        return picture
    height = picture.height
    top = min(b[1] for b in boxes) - MARGIN * height
    bottom = max(b[3] for b in boxes) + MARGIN * height
    missing = LEAST * height - (bottom - top)
    if missing > 0:
        top, bottom = top - missing / 2, bottom + missing / 2
    if top < 0:
        top, bottom = 0, bottom - top
    if bottom > height:
        top, bottom = max(0, top - (bottom - height)), height
    return picture.crop((0, int(top), picture.width, int(round(bottom))))
