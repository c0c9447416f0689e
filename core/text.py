"""Text a client sent, checked before anything uses it: every character must be one UTF-8 can encode, and a
message quoting a client's input must always be sendable back."""

from __future__ import annotations


def unencodable_at(text: str) -> int | None:
    """The position of the first character of ``text`` that UTF-8 cannot encode (an unpaired UTF-16 surrogate,
    which a JSON body may carry as ``"\\ud800"``), or ``None`` when it is all text.

    >>> unencodable_at("Which \\ud800 one?")
    6
    >>> unencodable_at("naïve – ok") is None
    True
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def check_text(text: str, what: str) -> str:
    """``text`` unchanged if every character of it is text; else a ``ValueError`` saying where it is not.

    >>> check_text("\\ud800", "The question")
    Traceback (most recent call last):
    ...
    ValueError: The question holds a character that is not text at position 1 (an unpaired surrogate, '\\ud800'); remove it and send it again.
    """
    at = unencodable_at(text)
    if at is not None:
        raise ValueError(f"{what} holds a character that is not text at position {at + 1} (an unpaired surrogate, "
                         f"{safe_text(repr(text[at]))}); remove it and send it again.")
    return text


def safe_text(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode written as its escape, so a message quoting a client's
    input can always be sent back.

    >>> safe_text("doc-\\udc80")
    'doc-\\\\udc80'
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")

