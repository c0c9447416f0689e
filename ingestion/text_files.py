"""Read a plain-text or Markdown upload into pages: decode it, split it at form feeds, and give each page its clean
text and heading path (:func:`ingestion.headings.finish_pages`).

:func:`read_text_file` takes the upload's bytes and gives a :class:`~core.types.ReadResult`. Text that is not
UTF-8 is decoded as UTF-16 (told by its byte-order mark or its NUL bytes), as UTF-8 with the damaged bytes
replaced, or as Windows-1252, with a warning; stray control characters are removed, and binary data is refused.
"""

from __future__ import annotations

import re

from core.errors import EmptyFile, UnsupportedFileType
from core.types import ReadResult
from ingestion.headings import finish_pages, first_heading
from ingestion.page_wording import empty_pages_warning

# C0 control characters other than tab, line feed, vertical tab, form feed, carriage return and escape, plus DEL.
# Text holds none (or a few stray NUL bytes); programs, images and archives hold ~9 % of them.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
_BINARY_SHARE = 0.01  # above this share of control characters other than NUL, a ".txt" is binary data


def read_text_file(data: bytes, name: str) -> ReadResult:
    """Read a text upload (``name`` is the file name shown in messages); a form feed starts a new page.

    Raises
    ------
    UnsupportedFileType
        The content is a PDF or binary data.
    EmptyFile
        It holds only whitespace.
    """
    warnings: list[str] = []
    texts = _page_texts(data, name, warnings)
    pages = finish_pages(texts, ["text"] * len(texts))
    empty = [p.number for p in pages if not p.text]
    if empty:
        warnings.append(empty_pages_warning(empty))
    return ReadResult(
        filename=name, pages=pages, page_count=len(pages), warnings=warnings, title=first_heading(pages) or name
    )


def _page_texts(data: bytes, name: str, warnings: list[str]) -> list[str]:
    """The text of each page of a text file; a warning is added to ``warnings`` when it is not UTF-8."""
    if data.lstrip()[:5] == b"%PDF-":
        raise UnsupportedFileType(
            f"'{name}' is a PDF, not a text file. Rename it to end in .pdf and upload it again."
        )
    text = _without_controls(_decode(data, name, warnings), name, warnings)
    if not text.strip():
        raise EmptyFile(f"'{name}' contains no text (only whitespace). Upload a file with some text in it.")
    # A form feed is the plain-text page break (pdftotext writes one per page).
    chunks = text.replace("\r\n", "\n").replace("\r", "\n").split("\f")
    if len(chunks) > 1 and not chunks[-1].strip():
        chunks.pop()  # a trailing form feed ends the last page; it does not start a new one
    return chunks


def _decode(data: bytes, name: str, warnings: list[str]) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    if b"\x00" in data:
        text = _utf16_without_bom(data)
        if text is not None:
            return text
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # UTF-8 with a few damaged bytes: keep the rest exact rather than reading every accent wrong as Windows-1252.
    text = data.decode("utf-8-sig", errors="replace")
    replaced = text.count("\ufffd")
    non_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    if non_ascii - replaced > replaced:
        warnings.append(
            f"'{name}' is not valid UTF-8: {replaced} undecodable byte sequence{'s were' if replaced != 1 else ' was'} "
            "replaced by '\ufffd'. Save it as UTF-8 for exact text."
        )
        return text
    # Windows-1252 decodes (nearly) any byte string and is the usual encoding of non-UTF-8 text on Windows.
    warnings.append(
        f"'{name}' is not UTF-8; it was read as Windows-1252, so some characters may be wrong. "
        "Save it as UTF-8 for exact text."
    )
    return data.decode("cp1252", errors="replace")


def _utf16_without_bom(data: bytes) -> str | None:
    """The text of UTF-16 bytes without a byte-order mark, told by the NUL high bytes of Latin characters."""
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    for zeros, other, codec in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros.count(0) >= 0.3 * len(zeros) and other.count(0) <= 0.05 * len(other):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                return None
    return None


def _without_controls(text: str, name: str, warnings: list[str]) -> str:
    """``text`` without stray control characters (NUL bytes); binary data is refused."""
    controls = _CONTROL.findall(text)
    if not controls:
        return text
    if sum(c != "\x00" for c in controls) > _BINARY_SHARE * len(text):
        raise UnsupportedFileType(
            f"'{name}' is not a text file: it holds binary data (control characters), as a program, image or "
            "archive does. Upload a PDF (.pdf), plain text (.txt) or Markdown (.md, .markdown) file."
        )
    nul = " (NUL bytes)" if all(c == "\x00" for c in controls) else " (such as NUL bytes)"
    warnings.append(f"'{name}' holds {len(controls)} control character{'s' * (len(controls) != 1)}{nul}; "
                    "they were removed.")
    return _CONTROL.sub("", text)
