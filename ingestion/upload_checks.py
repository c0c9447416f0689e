"""The checks every upload passes before a byte of it is read into memory: not empty, within the size limit, of a
type that can be read.

The HTTP API and the UI both call :func:`check_upload` with the size the file has on disk (the spooled request
body, or the file Gradio wrote), so a file over the limit is refused the same way whichever way it came in. The
page limit is checked by the reader from the PDF's page tree, before any page is read.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath

from core.errors import EmptyFile, FileTooLarge, UnsupportedFileType

PDF_EXTENSIONS = frozenset({".pdf"})
TEXT_EXTENSIONS = frozenset({".txt", ".md", ".markdown"})
ACCEPTED_TYPES = "PDF (.pdf), plain text (.txt) or Markdown (.md, .markdown)"
_MB = 1024 * 1024


def display_name(filename: str | None) -> str:
    """The bare file name shown in messages."""
    return PurePath((filename or "").replace("\\", "/")).name or "upload"


def check_upload(filename: str | None, size: int | None, max_bytes: int) -> None:
    """Refuse an upload from its name and size alone.

    Parameters
    ----------
    filename : the name it was uploaded under; its extension decides how it would be read.
    size : its size in bytes, or ``None`` when not known yet (then only the type is checked).
    max_bytes : the largest accepted size (``RAG_MAX_UPLOAD_MB``).

    Raises
    ------
    EmptyFile
        The file has no bytes.
    FileTooLarge
        The file is larger than ``max_bytes``.
    UnsupportedFileType
        Not a PDF, text or Markdown file.
    """
    name = display_name(filename)
    if size == 0:
        raise EmptyFile(f"'{name}' is empty (0 bytes). Upload the file again.")
    if size is not None and size > max_bytes:
        raise FileTooLarge(
            f"'{name}' is {size / _MB:.1f} MB, larger than the {max_bytes / _MB:g} MB upload limit "
            "(RAG_MAX_UPLOAD_MB). Split it into smaller files and upload those, or raise the limit.")
    check_type(name)


def check_type(name: str) -> str:
    """The extension of ``name`` (lower case) if it is one that can be read; else :class:`UnsupportedFileType`."""
    extension = PurePath(name).suffix.lower()
    if extension not in PDF_EXTENSIONS | TEXT_EXTENSIONS:
        kind = f"'{extension}' files" if extension else "files without an extension"
        raise UnsupportedFileType(f"'{name}' cannot be read: {kind} are not supported. Upload a {ACCEPTED_TYPES} file.")
    return extension


def check_file(path: str | os.PathLike[str], max_bytes: int, filename: str | None = None) -> None:
    """:func:`check_upload` for a file on disk, from ``os.stat`` only: nothing of it is read.

    ``filename`` is the name to judge and show (default: the path's own name).
    """
    check_upload(filename or Path(path).name, os.stat(path).st_size, max_bytes)


def discard(path: str | os.PathLike[str], within: str | os.PathLike[str]) -> None:
    """Delete the temporary file ``path`` and its folder when that is left empty, only if it lies under ``within``
    (the upload folder); anything elsewhere is left alone. Missing files are fine."""
    root = Path(within).resolve()
    target = Path(path).resolve()
    if root not in target.parents:
        return
    target.unlink(missing_ok=True)
    folder = target.parent
    if folder != root:
        try:
            folder.rmdir()  # only when empty
        except OSError:
            pass
