"""How the reader's warnings name pages: ``"page 3 is scanned and was"``, ``"pages 2-4, 7 are ... were"``,
``"pages 2, 5 have no extractable text"``. One wording for the PDF and text-file readers alike."""

from __future__ import annotations


def pages_are(indices: list[int], adjective: str) -> str:
    """``"page 3 is scanned and was"`` / ``"pages 2-4, 7 are scanned and were"`` for 0-based ``indices``.

    >>> pages_are([2], "scanned and")
    'page 3 is scanned and was'
    >>> pages_are([1, 2, 3, 6], "damaged and")
    'pages 2-4, 7 are damaged and were'
    """
    numbers = [i + 1 for i in indices]
    if len(numbers) == 1:
        return f"page {numbers[0]} is {adjective} was"
    return f"pages {page_ranges(numbers)} are {adjective} were"


def page_ranges(numbers: list[int]) -> str:
    """Runs of consecutive page numbers, in order (the numbers as given, not shifted).

    >>> page_ranges([5, 1, 2, 3])
    '1-3, 5'
    """
    parts: list[str] = []
    start = previous = None
    for n in sorted(numbers):
        if previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None:
            parts.append(f"{start}-{previous}" if previous != start else f"{start}")
        start = previous = n
    if start is not None:
        parts.append(f"{start}-{previous}" if previous != start else f"{start}")
    return ", ".join(parts)


def empty_pages_warning(numbers: list[int]) -> str:
    """The warning for pages (1-based ``numbers``) that were read but hold no text.

    >>> empty_pages_warning([2, 5])
    'pages 2, 5 have no extractable text'
    """
    if len(numbers) == 1:
        return f"page {numbers[0]} has no extractable text"
    return f"pages {', '.join(map(str, numbers))} have no extractable text"
