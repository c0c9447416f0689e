"""Invoices read into fields, line items and checks (``POST /invoices/extract``, the UI's Invoices tab).

The file is read as uploads are (:mod:`ingestion.isolation`: a child process with memory, CPU-time and wall-clock
limits, so a hostile PDF cannot take the server down), by :func:`ingestion.invoices.read.read_invoice`: its words
with their boxes from the text layer or, on a scan, from OCR, then the header fields, the line-item table and the
arithmetic checks. Nothing is kept: the file and its reading are gone once answered. It takes one of the
``RAG_MAX_CONCURRENT_INGESTS`` slots while it is read, as an upload does.
"""

from __future__ import annotations

import logging
import time

from core.errors import ServerBusy, UnsupportedFileType
from core.invoices import InvoiceReading
from ingestion.isolation import ParseLimits, read_isolated
from ingestion.upload_checks import check_upload, display_name
from services.limits import Busy

log = logging.getLogger(__name__)

TARGET = "ingestion.invoices.read:read_invoice"


class Invoices:
    """Reads invoices for the API and the UI (module docstring)."""

    def __init__(self, settings, slots):
        self.settings, self.slots = settings, slots  # slots: the ingestion's (limits.Slots or SharedSlots)

    def extract(self, data: bytes, filename: str) -> InvoiceReading:
        """Read one invoice (a PDF with a text layer, or a scan) into an :class:`core.invoices.InvoiceReading`.

        Raises the upload errors (:mod:`core.errors`): not a PDF, empty, too large, damaged, encrypted, the reading
        process over its limits, and :class:`core.errors.ServerBusy` when every slot is taken.
        """
        s = self.settings
        name = display_name(filename)
        limit = int(s.max_upload_mb * 1024 * 1024)
        check_upload(filename, len(data), limit)  # empty, too large, not a document type
        if not name.lower().endswith(".pdf"):
            raise UnsupportedFileType(f"'{name}' is not a PDF: invoices are read from PDFs (a text layer or a scan).")
        t0 = time.perf_counter()
        try:
            with self.slots.take():
                kwargs = dict(ocr=s.ocr_enabled, ocr_dpi=s.ocr_dpi, max_pages=min(s.max_pages, 100))
                if s.parse_isolated:
                    reading = read_isolated(data, filename, limits=ParseLimits.from_settings(s), target=TARGET,
                                            **kwargs)
                else:
                    from ingestion.invoices.read import read_invoice

                    reading = read_invoice(data, filename, **kwargs)
        except Busy:
            raise ServerBusy(f"'{name}' was not read: {s.max_concurrent_ingests} document(s) are being read or "
                             "indexed already. Try again in a few seconds.") from None
        log.info("invoice %s read in %.2f s: %d lines, needs review %s", name, time.perf_counter() - t0,
                 len(reading.lines), reading.needs_review)
        return reading
