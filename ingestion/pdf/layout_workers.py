"""The layout model run on several pages at once, in helper processes forked from the reading process: on 2 cores
a PDF is read in about 0.62x the time, with the same text.

The layout model (pymupdf's ONNX page analyser) is most of a PDF's reading time, and it runs on one thread in the
reading process (:mod:`ingestion.isolation`). Its result for a page depends on that page alone, but also on how the
page was prepared (pymupdf4llm bakes the page's rotation in and drops the document's structure tree first, and the
reader may have turned sideways pages upright): so a helper does not call the model itself, it runs pymupdf4llm
on its share of the pages, exactly as the reading process would, and sends each page's regions back as the model
gives them (pickled, page by page, through a pipe).

:class:`LayoutHelpers` forks ``workers - 1`` helpers, each taking every ``workers``-th page the model reads; the
reading process keeps the rest. pymupdf4llm then reads the whole document in the reading process in one call, as
before; a helper's page waits there for its regions and takes them as known
(:func:`ingestion.pdf.layout_text.layout_markdown`), so the text is the same, heading levels and all (checked on
the seven evaluation PDFs, and in ``tests/unit/ingestion/test_layout_workers.py``).

Reading time through the reading process (``read_isolated``), 1 and 2 processes alternating, 2 reads each:

================================================  =========  ===========  ======  =========
2 cores                                           1 process  2 processes  ratio   same text
================================================  =========  ===========  ======  =========
adam, attention, NIST AI RMF, AAPL 10-Q (124 pp)  41.0 s     25.4 s       0.62    yes
AMZN, INTC, MSFT 10-Q (172 pp)                    70.5 s     42.8 s       0.61    yes
================================================  =========  ===========  ======  =========

A helper only computes; it has the reading process's memory and CPU limits, dies with it (``PR_SET_PDEATHSIG``)
and exits without any clean-up. If one fails, its pages get ``None`` and the reading process runs the model on them
itself, as it would have without helpers. Forking is only safe from a process with no other busy threads, so only
the reading process uses helpers (its one other thread waits for its parent to exit); an in-process read does not.
"""

from __future__ import annotations

import ctypes
import logging
import os
import pickle
import signal
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymupdf

log = logging.getLogger(__name__)

Regions = list[dict]
_PR_SET_PDEATHSIG = 1
_HEADER = struct.Struct("!Q")
_END = 1 << 62  # "no more pages", after a helper's last


def default_workers() -> int:
    """Processes worth using here: one per CPU this process may run on, at most 2 (more cost memory and start-up
    for little on a document of tens of pages)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus))


class LayoutHelpers:
    """Helpers computing the layout model's regions for a share of ``pages`` (0-based): with ``workers`` processes
    in all, helper ``k`` takes ``pages[k::workers]`` (``k >= 1``) and this process keeps ``pages[0::workers]``.

    ``parse(doc, pages)`` is how the reading process itself reads pages with pymupdf4llm; a helper runs it on its
    share and records what the model returns. Fewer than 2 pages per process, ``workers`` 1 or no ``fork``: no
    helper is started and :meth:`regions` is always ``None``. A context manager; leaving it ends every helper.
    """

    def __init__(self, doc: pymupdf.Document, pages: list[int], workers: int,
                 parse: Callable[[pymupdf.Document, list[int]], object]):
        workers = max(1, min(workers, len(pages) // 2)) if hasattr(os, "fork") else 1
        self._owner: dict[int, _Helper] = {}
        self._helpers: list[_Helper] = []
        for k in range(1, workers):
            helper = _Helper.fork(doc, pages[k::workers], parse)
            self._helpers.append(helper)
            self._owner.update(dict.fromkeys(helper.share, helper))

    def __enter__(self) -> LayoutHelpers:
        return self

    def __exit__(self, *_exc) -> None:
        for helper in self._helpers:
            helper.close()

    def owns(self, page: int) -> bool:
        """Whether a helper computes ``page``'s regions."""
        return page in self._owner

    def regions(self, page: int) -> Regions | None:
        """The regions a helper computed for ``page``, waiting for them; ``None`` for a page of this process's
        share, or when its helper failed (the model then reads the page here)."""
        helper = self._owner.get(page)
        return helper.regions(page) if helper else None


class _Helper:
    def __init__(self, pid: int, pipe, share: list[int]):
        self.pid, self.pipe, self.share = pid, pipe, share
        self.received: dict[int, Regions] = {}
        self.reached = -1  # the last page the helper sent, or _END
        self.failed = False

    @classmethod
    def fork(cls, doc, share: list[int], parse) -> _Helper:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the helper
            status = 1
            try:
                os.close(read_end)
                _run(doc, share, parse, write_end)
                status = 0
            finally:
                os._exit(status)  # no clean-up of the reading process's state, whatever happened
        os.close(write_end)
        return cls(pid, os.fdopen(read_end, "rb"), share)

    def regions(self, page: int) -> Regions | None:
        # pymupdf4llm reads the helper's pages in order: once the helper sent a later page's regions (or its end)
        # without this page's, the model was asked nothing there (a page without text).
        while page not in self.received and not self.failed and self.reached <= page:
            header = self.pipe.read(_HEADER.size)
            body = self.pipe.read(_HEADER.unpack(header)[0]) if len(header) == _HEADER.size else b""
            try:
                number, regions = pickle.loads(body)
            except Exception:  # noqa: BLE001 - the helper ended (or broke) early: read its pages here
                log.warning("a layout helper stopped early; the reading process reads its pages itself")
                self.failed = True
                break
            self.reached = max(self.reached, number)
            if regions is not None:
                self.received[number] = regions
        return self.received.get(page)

    def close(self) -> None:
        self.pipe.close()  # a helper still writing gets EPIPE and exits
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def _run(doc, share: list[int], parse, write_end: int) -> None:
    """In the helper: parse ``share`` with pymupdf4llm, sending the model's regions of each page as it goes."""
    import pymupdf

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the reading process died before the line above
        return
    model = pymupdf._get_layout
    with os.fdopen(write_end, "wb") as pipe:
        def send(number: int, regions: Regions | None) -> None:
            body = pickle.dumps((number, regions), protocol=pickle.HIGHEST_PROTOCOL)
            pipe.write(_HEADER.pack(len(body)) + body)
            pipe.flush()

        def recording(page, *args, **kwargs):
            regions = model(page, *args, **kwargs)
            send(page.number, regions)
            return regions

        pymupdf._get_layout = recording
        parse(doc, share)
        send(_END, None)
