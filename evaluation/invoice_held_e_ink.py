"""HELD-ASIDE FAMILY "held-e": the drawing primitives of the fifth held-aside family, written apart from the reader;
not to be read while developing it (nor the other ``evaluation.invoice_held_e*`` modules or the family's files).

:class:`Ink` is a ReportLab canvas seen from the top left of the page, in a layout's faces, with the few blocks the
family's headers are made of: label and value pairs, labels printed small above their values, address blocks and
grids of boxes. Every block returns the height it used, so drawing on a thrown-away canvas measures it.

>>> from evaluation.invoice_held_e import held_e_layout
>>> ink = Ink.scratch(held_e_layout(1))
>>> ink.wrap("ONE TWO THREE", ink.width("ONE TWO") + 0.1)
['ONE TWO', 'THREE']
"""

from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

__all__ = ["Ink"]


class Ink:
    """A canvas with the origin at the top left, text placed by its baseline."""

    def __init__(self, c: canvas.Canvas, lay):
        self.c, self.lay = c, lay
        self.regular, self.bold = lay.fonts
        self.size = lay.size
        self.lead = lay.size * 1.32
        self.height = lay.page[1]
        self.left, self.right = lay.extra["x0"], lay.extra["x1"]
        self.accent = lay.extra["accent"]

    @classmethod
    def scratch(cls, lay) -> Ink:
        """An ink on a canvas that is thrown away: drawing with it measures."""
        return cls(canvas.Canvas(io.BytesIO(), pagesize=lay.page, invariant=1), lay)

    def width(self, text: str, bold: bool = False, size: float | None = None) -> float:
        return stringWidth(text, self.bold if bold else self.regular, size or self.size)

    def fit(self, text: str, size: float, width: float, bold: bool = True) -> float:
        """``size``, or the size at which ``text`` is ``width`` wide if it would be wider."""
        return min(size, size * width / max(self.width(text, bold, size), 1e-6))

    def text(self, x: float, y: float, text: str, bold: bool = False, size: float | None = None,
             align: str = "left", colour=None) -> float:
        """``text`` with its baseline at ``y``; ``align`` says whether ``x`` is its left, right or centre. Returns
        its width."""
        if not text:
            return 0.0
        size = size or self.size
        font = self.bold if bold else self.regular
        self.c.setFont(font, size)
        self.c.setFillColorRGB(*(colour or (0, 0, 0)))
        width = stringWidth(text, font, size)
        x = x - width if align == "right" else x - width / 2 if align == "centre" else x
        self.c.drawString(x, self.height - y, text)
        self.c.setFillColorRGB(0, 0, 0)
        return width

    def rule(self, x0: float, x1: float, y: float, width: float = 0.5, grey: float = 0.0) -> None:
        self.c.setStrokeColorRGB(grey, grey, grey)
        self.c.setLineWidth(width)
        self.c.line(x0, self.height - y, x1, self.height - y)
        self.c.setStrokeColorRGB(0, 0, 0)

    def upright(self, x: float, y0: float, y1: float, width: float = 0.5, grey: float = 0.0) -> None:
        self.c.setStrokeColorRGB(grey, grey, grey)
        self.c.setLineWidth(width)
        self.c.line(x, self.height - y0, x, self.height - y1)
        self.c.setStrokeColorRGB(0, 0, 0)

    def box(self, x: float, y: float, w: float, h: float, fill=None, stroke: bool = True, width: float = 0.5
            ) -> None:
        """A rectangle whose top left is (``x``, ``y``); ``fill`` an RGB triple or a grey."""
        if fill is not None:
            self.c.setFillColorRGB(*(fill if isinstance(fill, tuple) else (fill, fill, fill)))
        self.c.setLineWidth(width)
        self.c.rect(x, self.height - y - h, w, h, stroke=int(stroke), fill=int(fill is not None))
        self.c.setFillColorRGB(0, 0, 0)

    def wrap(self, text: str, width: float, bold: bool = False, size: float | None = None) -> list[str]:
        """``text`` broken at its spaces into lines no wider than ``width`` (a word wider stays whole)."""
        lines: list[str] = []
        for word in text.split():
            if lines and self.width(f"{lines[-1]} {word}", bold, size) <= width:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        return lines

    # -- blocks ------------------------------------------------------------------------------------------------
    def pairs(self, x: float, y: float, items: list[tuple[str, str]], gap: float | None = None,
              bold_labels: bool = False, right: float | None = None) -> float:
        """``label  value`` rows from ``y`` (the top): values start one column after the widest label, or end at
        ``right``. Returns the height used."""
        if not items:
            return 0.0
        gap = self.size * 1.2 if gap is None else gap
        at = x + max(self.width(label, bold_labels) for label, _ in items) + gap
        for k, (label, value) in enumerate(items):
            base = y + self.size + k * self.lead
            self.text(x, base, label, bold_labels)
            if right is None:
                self.text(at, base, value, not bold_labels)
            else:
                self.text(right, base, value, not bold_labels, align="right")
        return len(items) * self.lead + self.size * 0.3

    def pairs_width(self, items: list[tuple[str, str]], bold_labels: bool = False, gap: float | None = None
                    ) -> float:
        gap = self.size * 1.2 if gap is None else gap
        if not items:
            return 0.0
        return max(self.width(label, bold_labels) for label, _ in items) + gap + max(
            self.width(value, not bold_labels) for _, value in items)

    def above(self, x: float, y: float, label: str, value: str, align: str = "left", big: float = 1.0,
              grey: float = 0.4) -> float:
        """A label printed small and grey with its value under it. Returns the height used."""
        small = self.size * 0.85
        self.text(x, y + small, label, size=small, align=align, colour=(grey, grey, grey))
        self.text(x, y + small + self.size * big * 1.25, value, bold=big > 1.0, size=self.size * big, align=align)
        return small + self.size * big * 1.25 + self.size * 0.6

    def address(self, x: float, y: float, heading: str | None, lines: list[str], bold_first: bool = True) -> float:
        """An address block under an optional bold heading. Returns the height used."""
        k = 0
        if heading:
            self.text(x, y + self.size, heading, bold=True)
            k = 1
        for n, line in enumerate(lines):
            self.text(x, y + self.size + (k + n) * self.lead, line, bold=bold_first and n == 0)
        return (k + len(lines)) * self.lead + self.size * 0.3

    def boxes(self, x: float, y: float, w: float, cells: list[tuple[str, str]], shade: float | None = None,
              centre: bool = True) -> float:
        """A row of boxes across ``w``, each with its label on a shaded band over its value. Returns the height."""
        if not cells:
            return 0.0
        band, natural = self.lead + self.size * 0.2, self._natural(cells)
        spare = max(w - sum(natural), 0.0) / len(cells)
        left = x
        for k, (label, value) in enumerate(cells):
            each = natural[k] + spare
            if k:
                left += natural[k - 1] + spare
            self.box(left, y, each, band, fill=shade)
            self.box(left, y + band, each, band)
            where, align = (left + each / 2, "centre") if centre else (left + self.size * 0.4, "left")
            self.text(where, y + band - self.size * 0.45, label, bold=True, align=align)
            self.text(where, y + 2 * band - self.size * 0.45, value, align=align)
        return 2 * band

    def _natural(self, cells: list[tuple[str, str]]) -> list[float]:
        return [max(self.width(label, True), self.width(value)) + self.size * 1.2 for label, value in cells]

    def boxes_fit(self, w: float, cells: list[tuple[str, str]]) -> bool:
        """Whether every label and value of ``cells`` fits its box in a row of width ``w``."""
        return sum(self._natural(cells)) <= w
