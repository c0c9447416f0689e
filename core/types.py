"""The data that flows through the product, in the order it is made: ingest -> index -> retrieve -> answer.

A document is read into :class:`Page` s (each with :class:`Block` spans saying what its parts are), chunked into
:class:`Chunk` s and stored under a :class:`DocumentRecord`; a search returns a :class:`SearchResult` of
:class:`Hit` s. What the answer side makes from them (citations, answers, the stream's events) is in
:mod:`core.answers`.

Every layer imports these from here; this module imports nothing of the product's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

import numpy as np


_CONTEXT_CHARS = 320  # longest table-row context embedded (Block.context)


@dataclass
class Block:
    """A span of a page's (or a passage's) clean text and what it is.

    Attributes
    ----------
    kind : one of :data:`KINDS`.
    start, end : offsets into the text the block belongs to.
    level : a heading's level, 1 the outermost.
    label, values, columns : a table row's label ("Total net sales"), its values in order ("127,101", ...) and the
        column heading of each value ("Three Months Ended September 30, 2022", ...); a row under a row without
        values ("Operating expenses:", "Revenue") has that row's label in front of its own, up to the next such
        row or a row whose label starts with "Total".
    title : a table row's or header's table: the heading or lead-in line before it and the label column's heading
        ("(In millions)").
    """

    kind: str
    start: int
    end: int
    level: int = 0
    label: str = ""
    values: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    title: str = ""

    def to_dict(self) -> dict:
        """Only the fields that differ from their defaults, so stored passages stay small."""
        out: dict = {"kind": self.kind, "start": self.start, "end": self.end}
        for name in ("level", "label", "values", "columns", "title"):
            value = getattr(self, name)
            if value:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Block:
        known = {f.name for f in fields(cls)}
        values = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in known}
        return cls(**values)

    def context(self) -> str:
        """A table row of numbers as a sentence for embedding: its table, its label, and each value with its column
        heading. A row of text (no number among its values) reads on its own and is returned as it is.

        >>> Block("table_row", 0, 1, label="Revenue", values=("$ 5", "$ 4"), columns=("2023", "2022"),
        ...       title="(In millions)").context()
        '(In millions): Revenue: 2023 $ 5; 2022 $ 4'
        >>> Block("table_row", 0, 1, label="GOVERN 1.7", values=("Processes are in place.",), columns=("Sub",)).context()
        ''
        """
        if not any(any(ch.isdigit() for ch in v) for v in self.values):
            return ""
        cells = "; ".join(f"{c} {v}".strip() for c, v in zip(self.columns, self.values))
        parts = [p for p in (self.title[:120], self.label, cells) if p]
        # About a long sentence: a wide grid's row would otherwise cost the embedder several sentences' time.
        return ": ".join(parts)[:_CONTEXT_CHARS]


@dataclass
class Page:
    """One physical page of a document.

    Attributes
    ----------
    number : 1-based physical page number (not the printed label).
    text : the page's clean text, as printed: no Markdown, one blank line between blocks.
    headings : heading path in effect where the page starts (outermost first), carried over from earlier pages.
    reader : which reader produced ``text``: ``pymupdf4llm`` (layout), ``pdfplumber`` (re-read of a page the
        layout reader lost words on), ``pymupdf`` (MuPDF's plain text, when both lost most of them), ``ocr``
        (a scanned page), ``unread`` (a scanned page that was not OCR'd, see ``ReadResult.unread_pages``) or
        ``text`` (a plain-text or Markdown file).
    blocks : what each part of ``text`` is (:class:`ingestion.blocks.Block`: headings, table rows with their
        column headings, list items, captions, contents lines, references); text no block covers is paragraphs.
    label : the page's printed label ("ii", "17", "A-3"): the PDF's own page label, else the page number printed
        in its header or footer when consistent across pages (:mod:`ingestion.page_labels`); ``""`` when none is
        known, and for plain-text files.
    """

    number: int
    text: str
    headings: list[str] = field(default_factory=list)
    reader: str = "pymupdf4llm"
    blocks: list[Block] = field(default_factory=list)
    label: str = ""


@dataclass
class ReadResult:
    """A whole document as read, before chunking.

    Attributes
    ----------
    filename : the upload's name, without any folder.
    pages : one :class:`Page` per physical page.
    page_count : ``len(pages)``.
    warnings : messages for the user (pages without text, scanned pages not read, repairs).
    title : the PDF's metadata title, else its first heading, else ``filename``.
    ocr_pages : 1-based numbers of the pages read with OCR.
    unread_pages : 1-based numbers of scanned pages left unread (OCR off or unavailable, over the per-document
        OCR page limit, or OCR failed) and of pages MuPDF cannot parse; ``warnings`` says why. Their ``text`` is
        ``""``.
    """

    filename: str
    pages: list[Page]
    page_count: int
    warnings: list[str] = field(default_factory=list)
    title: str = ""
    ocr_pages: list[int] = field(default_factory=list)
    unread_pages: list[int] = field(default_factory=list)


def fill_page_end(span) -> None:
    """Give a span of pages written without its end (a stored chunk, a citation) its defaults: it ends on the page
    it starts on, whose printed label is then its end's label too."""
    if not span.page_end:
        span.page_end = span.page
    if span.page_end == span.page and not span.page_end_label:
        span.page_end_label = span.page_label


@dataclass
class Chunk:
    """One indexed passage.

    ``text`` is the passage exactly as shown to the user; ``prefix`` only steers the embedding.

    Attributes
    ----------
    chunk_id : ``<doc_id>-<strategy tag>-p<page>-c<n>``.
    page : 1-based page the passage starts on (and is cited by).
    start, end : character offsets of the part on ``page``: ``page.text[start:end] == on_page_text``.
    strategy : the chunking strategy that made it.
    page_end : last page the passage reaches; ``page + 1`` when a sentence running across the page break was
        appended, else ``page``. Stored chunks written without it get ``page``.
    continuation_chars : length of the text taken from page ``page_end`` (0 when none); it is the end of ``text``.
    blocks : the structure of ``text`` (:class:`ingestion.blocks.Block`, offsets into ``text``): headings, table
        rows with their column headings, list items, captions, contents lines, references. Prose has none.
    page_label, page_end_label : the printed labels of pages ``page`` and ``page_end`` (:attr:`Page.label`, ``""``
        when unknown). Stored chunks written without them get ``""``.
    """

    chunk_id: str
    doc_id: str
    filename: str
    page: int
    section: str
    text: str
    start: int
    end: int
    strategy: str = "recursive_char"
    page_end: int = 0
    continuation_chars: int = 0
    blocks: list[Block] = field(default_factory=list)
    page_label: str = ""
    page_end_label: str = ""

    def __post_init__(self) -> None:
        fill_page_end(self)
        self.blocks = [b if isinstance(b, Block) else Block.from_dict(b) for b in self.blocks]

    @property
    def pages(self) -> range:
        """The pages the passage is on."""
        return range(self.page, self.page_end + 1)

    @property
    def on_page_text(self) -> str:
        """The part of ``text`` on ``page`` (all of it unless the passage runs onto the next page)."""
        return self.text[:self.end - self.start]

    @property
    def continuation(self) -> str:
        """The part of ``text`` taken from the start of page ``page_end`` ("" when none)."""
        return self.text[len(self.text) - self.continuation_chars:] if self.continuation_chars else ""

    @property
    def prefix(self) -> str:
        """``file | Page N | section``, and for a passage that starts inside a table whose header is on an earlier
        passage, the table's title and column headings: a row's numbers mean nothing without them."""
        pages = f"Page {self.page}" if self.page_end == self.page else f"Pages {self.page}-{self.page_end}"
        prefix = f"{self.filename} | {pages} | {self.section}".rstrip(" |")
        first = self.blocks[0] if self.blocks else None
        if first is not None and first.kind == "table_row" and first.start <= 1 and \
                not any(b.kind == "table_header" for b in self.blocks):
            columns = " / ".join(dict.fromkeys(c for b in self.blocks if b.kind == "table_row" for c in b.columns))
            prefix += " | " + " | ".join(p for p in (first.title, columns) if p)
        return prefix.rstrip(" |")

    def embedding_text(self) -> str:
        return f"{self.prefix}\n{self.text}"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["blocks"] = [b.to_dict() for b in self.blocks]
        if not data["blocks"]:
            del data["blocks"]
        # Unlabelled pages store nothing, so their files read as before.
        if not self.page_end_label or (self.page_end == self.page and self.page_end_label == self.page_label):
            del data["page_end_label"]
        if not self.page_label:
            del data["page_label"]
        return data

    def label_of(self, page: int) -> str:
        """The printed label of ``page`` (``page`` or ``page_end``), ``""`` when unknown."""
        return self.page_label if page == self.page else self.page_end_label if page == self.page_end else ""

    @classmethod
    def from_dict(cls, data: dict) -> "Chunk":
        """Rebuild a stored chunk; missing fields take their defaults, fields this version does not know are ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass
class DocumentRecord:
    """What the store knows about one indexed document."""

    doc_id: str
    filename: str
    collection: str
    sha256: str
    pages: int
    chunks: int
    added_at: float
    strategy: str = "recursive_char"
    chunk_size: int = 0
    chunk_overlap: int = 0
    warnings: list[str] = field(default_factory=list)
    title: str = ""
    ocr_pages: list[int] = field(default_factory=list)
    unread_pages: list[int] = field(default_factory=list)
    folder: str = ""  # where its files are, under docs/ (set by the store)
    files: dict = field(default_factory=dict)  # file name -> {"sha256", "bytes"} as written (set by the store)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class DamagedDocument:
    """A document (``doc_id`` ``None``: a whole collection's manifest) set aside at load, with the reason."""

    collection: str
    doc_id: str | None
    filename: str | None
    reason: str
    folder: str = ""  # under the collection's folder, for whoever restores it
    entry: object = field(default=None, repr=False)  # its manifest entry, kept in every manifest written
    keyed: bool = False  # its collection needs a key: listed only to holders of that key

    def to_dict(self) -> dict:
        return {"collection": self.collection, "doc_id": self.doc_id, "filename": self.filename,
                "reason": self.reason, "folder": self.folder}


@dataclass
class Query:
    """One phrasing to search: its text (shown to the user), vector and keyword tokens."""

    text: str
    vector: np.ndarray
    tokens: list[str]
    source: str = "question"  # "question", "rephrasing", "hypothetical answer" or "feedback"


@dataclass
class Expansion:
    method: str  # "llm" or "feedback"
    queries: list[Query] = field(default_factory=list)
    error: str | None = None  # why expansion was skipped (e.g. the LLM failed)

    def to_dict(self) -> dict:
        return {"method": self.method, "error": self.error,
                "queries": [{"text": q.text, "source": q.source} for q in self.queries]}


@dataclass
class Hit:
    """A ranked passage. ``scores`` holds every stage's score (``None`` where that stage did not find it)."""

    chunk: Chunk
    rank: int
    score: float
    scores: dict[str, float | None]

    def to_dict(self) -> dict:
        c = self.chunk
        return {"rank": self.rank, "chunk_id": c.chunk_id, "doc_id": c.doc_id, "filename": c.filename,
                "page": c.page, "page_end": c.page_end, "page_label": c.page_label, "section": c.section,
                "text": c.text, "score": self.score, "scores": self.scores, "strategy": c.strategy}


@dataclass
class SearchResult:
    hits: list[Hit]
    confidence: float  # the best raw cosine similarity among candidates: how close anything came to the question
    mode: str
    timings: dict[str, float] = field(default_factory=dict)
    confidence_level: str = "high"  # "high", "low" or "insufficient" (thresholds in settings)
    expansion: Expansion | None = None  # set when the question was expanded
    vector: np.ndarray | None = None  # the searched text's embedding (the answerer reuses it)
    question: str = ""  # the question searched
    query: str = ""  # what was searched: the question without the words that name the document (retrieval.scope)
    absent: list[str] = field(default_factory=list)  # words of the query no passage of the searched documents has
    # For each word of the query: the share of the searched passages holding it (0.0 for an absent word).
    word_share: dict[str, float] = field(default_factory=dict)
    # The words of the query a searched document's first page holds: what the document is about (its company,
    # its period, its subject) rather than what is asked of it.
    cover_words: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The ranking as JSON. ``retrieval_level`` grades the best passage cosine only; an answer's own level
        (which also weighs whether a sentence fits the question) is its ``confidence_level``."""
        return {"resolved_question": self.question, "confidence": self.confidence,
                "retrieval_level": self.confidence_level, "mode": self.mode,
                "expansion": self.expansion.to_dict() if self.expansion else None,
                "sources": [h.to_dict() for h in self.hits]}


