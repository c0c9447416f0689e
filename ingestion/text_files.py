"""Read a plain-text or Markdown upload into page texts: decode it, split it at form feeds."""

from __future__ import annotations

from ingestion.errors import EmptyFile


def _text_file_pages(data: bytes, name: str, warnings: list[str]) -> list[str]:
    """The text of each page of a text file; a warning is added to ``warnings`` when it is not UTF-8."""
    text = _decode(data, name, warnings)
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
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Windows-1252 decodes (nearly) any byte string and is the usual encoding of non-UTF-8 text on Windows.
        warnings.append(
            f"'{name}' is not UTF-8; it was read as Windows-1252, so some characters may be wrong. "
            "Save it as UTF-8 for exact text."
        )
        return data.decode("cp1252", errors="replace")
