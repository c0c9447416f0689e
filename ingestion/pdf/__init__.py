"""Reading PDF uploads, one module a step (the sequence is :mod:`ingestion.pdf.read`; the door for every upload is
:func:`ingestion.reader.read_document`).

* :mod:`~ingestion.pdf.opening`: open the file and refuse what cannot or must not be read.
* :mod:`~ingestion.pdf.triage`: MuPDF's plain text sorts pages into text pages, scans and unparseable pages.
* :mod:`~ingestion.pdf.scans`: which scans are read with OCR, reading them, and the error when nothing was read.
* :mod:`~ingestion.pdf.geometry`: where each page's lines lie: main direction, running headers, sideways lines.
* :mod:`~ingestion.pdf.layout_text`: the layout reader's Markdown (headings, lists, tables, column order).
* :mod:`~ingestion.pdf.reread`: the text kept per page, re-read where the layout text lost words.
* :mod:`~ingestion.pdf.text_quality`: how readable a text is and how many of another text's words it holds.
* :mod:`~ingestion.pdf.progress`: progress passed on to the caller.
"""
