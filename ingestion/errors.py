"""Errors raised while reading an upload.

Each carries the HTTP status the API returns and a message that says what was wrong and what to do.
"""


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
