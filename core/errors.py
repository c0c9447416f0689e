"""Every error the product raises on purpose, each with a message that says what was wrong and what to do.

The front ends map them to HTTP statuses: an :class:`IngestError` carries its own ``status_code``; the others are
mapped in ``main.py``. ``str(err)`` is written for the user; internal exception text never is.
"""

from __future__ import annotations


class IngestError(Exception):
    """An upload that cannot be indexed. ``str(err)`` is shown to the user as is."""

    status_code = 422

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class EmptyFile(IngestError):
    status_code = 400


class FileTooLarge(IngestError):
    status_code = 413


class TooManyPages(IngestError):
    status_code = 413


class UnsupportedFileType(IngestError):
    status_code = 415


class NotAPdf(IngestError):
    status_code = 415


class EncryptedPdf(IngestError):
    status_code = 422


class DamagedPdf(IngestError):
    status_code = 422


class NoTextLayer(IngestError):
    status_code = 422


class DecompressionBomb(IngestError):
    """A PDF page whose compressed content inflates to far more than any real page holds."""

    status_code = 422


class ParserTimeout(IngestError):
    """Reading took longer than the wall-clock or CPU-time limit of the reading process."""

    status_code = 422


class ParserOutOfMemory(IngestError):
    """Reading needed more memory than the reading process may use."""

    status_code = 422


class ParserCrashed(IngestError):
    """The reading process died (e.g. a segmentation fault in MuPDF) without returning a result."""

    status_code = 422


class ServerBusy(IngestError):
    """As many documents as allowed are being indexed already (``RAG_MAX_CONCURRENT_INGESTS``)."""

    status_code = 503
    retry_after = 5


class StorageFull(IngestError):
    """The data folder has no room left: nothing was saved."""

    status_code = 507


class StorageFailed(IngestError):
    """The data folder could not be written for another reason: nothing was saved."""

    status_code = 503


class CollectionGone(IngestError):
    """The collection an upload was going into was deleted (or deleted and created again) while it was read."""

    status_code = 409


class CollectionDamaged(IngestError):
    """The collection's manifest cannot be read, so nothing may be written into it until it is restored."""

    status_code = 409


class UnknownCollection(LookupError):
    pass


class UnknownDocument(LookupError):
    pass


class CollectionLocked(PermissionError):
    """An upload into a collection whose key was not given (or a key for one that has none)."""


LLM_ERROR_KINDS = ("auth", "rate_limit", "timeout", "server", "connection", "bad_response")


class LLMError(Exception):
    """A failed LLM call, with a message fit to show a user.

    Parameters
    ----------
    kind : str
        One of ``LLM_ERROR_KINDS``: "auth", "rate_limit", "timeout", "server", "connection" or "bad_response".
    message : str
        What went wrong and what to do about it; never a traceback.
    status : int, optional
        The HTTP status the server answered with, when it answered.
    retry_after : float, optional
        Seconds the server asked to wait before trying again (429 responses).
    """

    def __init__(self, kind: str, message: str, *, status: int | None = None,
                 retry_after: float | None = None) -> None:
        if kind not in LLM_ERROR_KINDS:
            raise ValueError(f"unknown LLMError kind {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_after = retry_after


class QuestionError(ValueError):
    """A question that cannot be asked (empty, too long)."""


class ModelLoadError(RuntimeError):
    """The embedding model could not be loaded; the message says what to set."""


class OverQuota(Exception):
    """A client (a network address of the API, or a browser of the UI) has used its hourly quota of ``what``
    ("uploads" or "questions"); ``wait`` is the seconds until one more is allowed. ``str()`` says so to the user."""

    def __init__(self, message: str, *, what: str, limit: int, wait: float):
        super().__init__(message)
        self.message, self.what, self.limit, self.wait = message, what, limit, wait
