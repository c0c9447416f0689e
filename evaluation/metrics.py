"""Retrieval and abstention metrics for the gold question set.

Pure functions over plain values (strings, numbers, dicts), so they can be checked by hand and reused by any
runner. Ranks are 1-based throughout: rank 1 is the first passage returned; ``None`` means no relevant passage
was returned. A metric over zero questions is ``None``, never 0, so an empty group cannot pass for a bad score.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

RECALL_KS = (1, 3, 5, 8)

_CID = re.compile(r"\(cid:\d+\)")
_SPACE = re.compile(r"\s+")


def normalize_for_match(text: str) -> str:
    """Normalise text so evidence found by one PDF reader matches text produced by another.

    Parameters
    ----------
    text : passage or evidence text.

    Returns
    -------
    str
        NFKC-normalised (ligatures such as "ﬁ" become "fi"), ``(cid:N)`` placeholders removed, Markdown table
        pipes turned into spaces, runs of whitespace collapsed to one space, trimmed and case-folded.

    Notes
    -----
    NFKC runs first so full-width characters (e.g. "｜") are folded before the pipe and space rules see them.
    """
    text = unicodedata.normalize("NFKC", text)
    text = _CID.sub("", text)
    text = text.replace("|", " ")
    text = _SPACE.sub(" ", text).strip()
    return text.casefold()


def is_relevant(passage_text: str, evidence: Iterable[str]) -> bool:
    """Whether a passage contains any one of the evidence strings, after :func:`normalize_for_match`.

    Parameters
    ----------
    passage_text : text of one retrieved passage.
    evidence : evidence strings of one question.

    Returns
    -------
    bool
        False when ``evidence`` is empty, and evidence that normalises to "" is ignored: an empty string is a
        substring of everything and would make every passage relevant.
    """
    needles = [n for n in (normalize_for_match(e) for e in evidence) if n]
    if not needles:
        return False
    haystack = normalize_for_match(passage_text)
    return any(n in haystack for n in needles)


def first_relevant_rank(passages: Sequence[str], evidence: Iterable[str]) -> int | None:
    """1-based rank of the first relevant passage.

    Parameters
    ----------
    passages : passage texts in ranked order (best first).
    evidence : evidence strings of one question.

    Returns
    -------
    int or None
        1 if the first passage is relevant, and so on; None if no passage is.
    """
    evidence = list(evidence)
    for rank, text in enumerate(passages, start=1):
        if is_relevant(text, evidence):
            return rank
    return None


def _check_ranks(ranks: Sequence[int | None]) -> None:
    # A rank of 0 almost always means a 0-based index leaked in; counting it would inflate every metric.
    for r in ranks:
        if r is not None and (isinstance(r, bool) or not isinstance(r, int) or r < 1):
            raise ValueError(f"ranks are 1-based integers or None, got {r!r}")


def recall_at_k(ranks: Sequence[int | None], k: int) -> float | None:
    """Share of questions whose first relevant passage is within the top ``k``.

    Parameters
    ----------
    ranks : first relevant rank per question (1-based) or None.
    k : cut-off, at least 1; a rank equal to ``k`` counts.

    Returns
    -------
    float or None
        None when ``ranks`` is empty.

    Raises
    ------
    ValueError
        If ``k`` < 1 or a rank is not a positive integer.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    _check_ranks(ranks)
    if not ranks:
        return None
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def mrr(ranks: Sequence[int | None], cutoff: int | None = None) -> float | None:
    """Mean reciprocal rank of the first relevant passage.

    Parameters
    ----------
    ranks : first relevant rank per question (1-based) or None (contributes 0).
    cutoff : if given, ranks above it contribute 0, so runs that returned different numbers of passages
        stay comparable.

    Returns
    -------
    float or None
        None when ``ranks`` is empty.

    Raises
    ------
    ValueError
        If ``cutoff`` < 1 or a rank is not a positive integer.
    """
    if cutoff is not None and cutoff < 1:
        raise ValueError(f"cutoff must be at least 1, got {cutoff}")
    _check_ranks(ranks)
    if not ranks:
        return None
    total = sum(1 / r for r in ranks if r is not None and (cutoff is None or r <= cutoff))
    return total / len(ranks)


def page_hit_at_1(
    top_pages: Sequence[tuple[str, int] | None],
    gold: Sequence[tuple[str, Iterable[int]]],
) -> float | None:
    """Share of questions whose top passage is on a gold page of the right document.

    Parameters
    ----------
    top_pages : (doc, 1-based page) of each question's top passage, or None when nothing was returned.
    gold : (doc, gold pages) per question, aligned with ``top_pages``.

    Returns
    -------
    float or None
        None when there are no questions. A page number alone is not enough: page 3 of another document
        is a miss.

    Raises
    ------
    ValueError
        If the two sequences differ in length.
    """
    if len(top_pages) != len(gold):
        raise ValueError(f"{len(top_pages)} top pages for {len(gold)} gold entries")
    if not gold:
        return None
    hits = 0
    for top, (gold_doc, gold_pages) in zip(top_pages, gold):
        if top is not None and top[0] == gold_doc and top[1] in set(gold_pages):
            hits += 1
    return hits / len(gold)


def abstention_rates(abstained: Sequence[bool], answerable: Sequence[bool]) -> dict[str, float | None]:
    """How often the answerer declined, split by whether it should have.

    Parameters
    ----------
    abstained : whether the answer abstained, per question.
    answerable : whether the question is answerable from the document, per question.

    Returns
    -------
    dict
        ``abstain_on_unanswerable``: share of unanswerable questions that abstained (higher is better);
        ``false_abstention``: share of answerable questions that abstained (lower is better).
        Each is None when its group is empty.

    Raises
    ------
    ValueError
        If the two sequences differ in length.
    """
    if len(abstained) != len(answerable):
        raise ValueError(f"{len(abstained)} abstention flags for {len(answerable)} questions")
    on_unanswerable = [a for a, ok in zip(abstained, answerable) if not ok]
    on_answerable = [a for a, ok in zip(abstained, answerable) if ok]
    return {
        "abstain_on_unanswerable": _share(on_unanswerable),
        "false_abstention": _share(on_answerable),
    }


def _share(flags: Sequence[bool]) -> float | None:
    return sum(1 for f in flags if f) / len(flags) if flags else None


def summarize(rows: Sequence[Mapping], ks: Sequence[int] = RECALL_KS) -> dict[str, dict]:
    """Aggregate per-question results per question kind and overall.

    Parameters
    ----------
    rows : one mapping per question with keys
        ``kind`` (str), ``answerable`` (bool), ``rank`` (first relevant rank or None), ``doc`` (gold document),
        ``pages`` (gold pages), ``top_doc`` and ``top_page`` (document and page of the top passage, None when
        nothing was returned) and ``abstained`` (bool).
    ks : recall cut-offs.

    Returns
    -------
    dict
        ``{"by_kind": {kind: group, ...}, "overall": group}`` with kinds in sorted order. Each group holds
        ``n``, ``n_answerable``, ``recall@k`` for each k, ``mrr`` (cut at the largest k), ``page_hit@1``,
        ``abstain_on_unanswerable`` and ``false_abstention``. Retrieval metrics are taken over answerable
        questions only (an unanswerable question has nothing to find), so they are None for a group without
        any.
    """
    by_kind = {kind: _group([r for r in rows if r["kind"] == kind], ks) for kind in sorted({r["kind"] for r in rows})}
    return {"by_kind": by_kind, "overall": _group(list(rows), ks)}


def _group(rows: list[Mapping], ks: Sequence[int]) -> dict:
    answerable = [r for r in rows if r["answerable"]]
    ranks = [r["rank"] for r in answerable]
    top = [None if r["top_doc"] is None else (r["top_doc"], r["top_page"]) for r in answerable]
    gold = [(r["doc"], r["pages"]) for r in answerable]
    out: dict = {"n": len(rows), "n_answerable": len(answerable)}
    for k in ks:
        out[f"recall@{k}"] = recall_at_k(ranks, k)
    out["mrr"] = mrr(ranks, cutoff=max(ks))
    out["page_hit@1"] = page_hit_at_1(top, gold)
    out.update(abstention_rates([r["abstained"] for r in rows], [r["answerable"] for r in rows]))
    return out


def ingestion_cost(ingests: Iterable[Mapping]) -> dict[str, float | int | None]:
    """Ingestion time per page and the share of it spent embedding.

    Parameters
    ----------
    ingests : one mapping per document with ``pages`` (int), ``seconds`` (total) and ``timings``
        (stage name -> seconds; the ``embed`` stage is the one reported).

    Returns
    -------
    dict
        ``pages``, ``seconds``, ``seconds_per_page`` and ``embed_share`` (embedding seconds / total seconds);
        the two ratios are None when their denominator is 0.
    """
    pages = seconds = embed = 0.0
    for item in ingests:
        pages += item["pages"]
        seconds += item["seconds"]
        embed += item.get("timings", {}).get("embed", 0.0)
    return {
        "pages": int(pages),
        "seconds": seconds,
        "seconds_per_page": seconds / pages if pages else None,
        "embed_share": embed / seconds if seconds else None,
    }


def markdown_table(summary: Mapping[str, Mapping]) -> str:
    """Render :func:`summarize` output as a Markdown table, one row per kind and a final "all" row.

    Parameters
    ----------
    summary : output of :func:`summarize`.

    Returns
    -------
    str
        The table, without a trailing newline. Rates have three decimals; "–" marks a metric that does not
        apply to the group (no questions of that sort).
    """
    overall = summary["overall"]
    # Columns follow the summary, so a run with other cut-offs still renders every metric it computed.
    columns = ["n"] + [key for key in overall if key not in ("n", "n_answerable")]
    headers = {"mrr": f"MRR@{_largest_k(overall)}", "abstain_on_unanswerable": "abstain (unanswerable)",
               "false_abstention": "false abstention"}
    lines = [
        "| kind | " + " | ".join(headers.get(c, c) for c in columns) + " |",
        "| --- | " + " | ".join("---:" for _ in columns) + " |",
    ]
    groups = list(summary["by_kind"].items()) + [("all", overall)]
    for name, group in groups:
        lines.append(f"| {name} | " + " | ".join(_cell(group[c]) for c in columns) + " |")
    return "\n".join(lines)


def _largest_k(group: Mapping) -> int:
    ks = [int(key.split("@", 1)[1]) for key in group if key.startswith("recall@")]
    return max(ks) if ks else max(RECALL_KS)


def _cell(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
