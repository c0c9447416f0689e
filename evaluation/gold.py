"""The gold question set: one JSON object per line, checked as it is read.

A malformed line stops loading with its line number, so a typo in the gold file cannot quietly turn
into a question that no passage can ever match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

KINDS = ("lexical", "paraphrase", "unanswerable")
UNANSWERABLE = "unanswerable"

# field name -> (expected type, description used in error messages)
_FIELDS: dict[str, tuple[type, str]] = {
    "id": (str, "a string"),
    "doc": (str, "a string"),
    "kind": (str, "a string"),
    "question": (str, "a string"),
    "evidence": (list, "a list of strings"),
    "pages": (list, "a list of page numbers"),
    "answer": (str, "a string"),
    "split": (str, "a string"),
}


class GoldFormatError(ValueError):
    """A gold file line that cannot be used; the message names the file, the line and the problem."""


@dataclass(frozen=True)
class GoldQuestion:
    """One gold question.

    Attributes
    ----------
    id : stable identifier, unique within the file.
    doc : document name; the PDF is ``<docs dir>/<doc>.pdf``.
    kind : ``lexical``, ``paraphrase`` or ``unanswerable``.
    question : the question text.
    evidence : short strings copied from the document; a passage holding any one of them is relevant.
        Empty for unanswerable questions.
    pages : 1-based physical pages where the evidence occurs. Empty for unanswerable questions.
    answer : short reference answer ("" for unanswerable questions).
    split : which part of the set the question belongs to (``dev``, ...).
    """

    id: str
    doc: str
    kind: str
    question: str
    evidence: tuple[str, ...]
    pages: tuple[int, ...]
    answer: str
    split: str

    @property
    def answerable(self) -> bool:
        return self.kind != UNANSWERABLE


def load_gold(path: str | Path) -> list[GoldQuestion]:
    """Read a gold JSONL file.

    Parameters
    ----------
    path : file with one JSON object per line; blank lines are skipped.

    Returns
    -------
    list[GoldQuestion]
        In file order.

    Raises
    ------
    GoldFormatError
        On the first line that is not valid JSON, lacks a field, has a field of the wrong type, has an unknown
        kind, repeats an id, or whose evidence does not fit its kind.
    """
    path = Path(path)
    questions: list[GoldQuestion] = []
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            question = _parse_line(line, where)
            if question.id in seen:
                raise GoldFormatError(f"{where}: id {question.id!r} already used on line {seen[question.id]}")
            seen[question.id] = lineno
            questions.append(question)
    if not questions:
        raise GoldFormatError(f"{path}: no questions in file")
    return questions


def _parse_line(line: str, where: str) -> GoldQuestion:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise GoldFormatError(f"{where}: not valid JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(obj, dict):
        raise GoldFormatError(f"{where}: expected a JSON object, got {type(obj).__name__}")

    missing = [name for name in _FIELDS if name not in obj]
    if missing:
        raise GoldFormatError(f"{where}: missing field(s) {', '.join(missing)}")
    for name, (kind, description) in _FIELDS.items():
        if not isinstance(obj[name], kind):
            raise GoldFormatError(f"{where}: field {name!r} must be {description}, got {obj[name]!r}")

    if not obj["id"].strip():
        raise GoldFormatError(f"{where}: field 'id' is empty")
    if obj["kind"] not in KINDS:
        raise GoldFormatError(f"{where}: field 'kind' is {obj['kind']!r}; expected one of {', '.join(KINDS)}")
    evidence = obj["evidence"]
    if not all(isinstance(e, str) for e in evidence):
        raise GoldFormatError(f"{where}: field 'evidence' must hold only strings, got {evidence!r}")
    pages = obj["pages"]
    # bool is an int subclass; True would silently mean page 1.
    if not all(isinstance(p, int) and not isinstance(p, bool) and p >= 1 for p in pages):
        raise GoldFormatError(f"{where}: field 'pages' must hold 1-based page numbers (integers >= 1), got {pages!r}")

    # Blank evidence would match every passage; answerable questions without evidence could never be found.
    if any(not e.strip() for e in evidence):
        raise GoldFormatError(f"{where}: field 'evidence' holds a blank string")
    if obj["kind"] == UNANSWERABLE and evidence:
        raise GoldFormatError(f"{where}: an unanswerable question must have empty 'evidence'")
    if obj["kind"] != UNANSWERABLE and not evidence:
        raise GoldFormatError(f"{where}: a {obj['kind']} question needs at least one 'evidence' string")

    return GoldQuestion(
        id=obj["id"],
        doc=obj["doc"],
        kind=obj["kind"],
        question=obj["question"],
        evidence=tuple(evidence),
        pages=tuple(pages),
        answer=obj["answer"],
        split=obj["split"],
    )
