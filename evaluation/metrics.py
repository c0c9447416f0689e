"""Retrieval and abstention metrics for the gold question set.

Pure functions over plain values (strings, numbers, dicts), so they can be checked by hand and reused by any
runner. Ranks are 1-based throughout: rank 1 is the first passage returned; ``None`` means no relevant passage
was returned. A metric over zero questions is ``None``, never 0, so an empty group cannot pass for a bad score.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from evaluation import common
from evaluation.common import percentile

RECALL_KS = (1, 3, 5, 8)

_CID = re.compile(r"\(cid:\d+\)")
_SPACE = re.compile(r"\s+")
# Markdown emphasis and heading markers: formatting, not words.
_EMPHASIS = re.compile(r"\*+|^#{1,6}\s+", re.MULTILINE)
# A currency sign set apart from its amount ("$ 22,308") and a space before a percent sign ("12 %"): readers
# differ in both.
_SPACED_SIGN = re.compile(r"(?<=[$€£¥])\s+(?=[\d(.-])|(?<=\d)\s+(?=%)")


def normalize_for_match(text: str) -> str:
    """Normalise text so evidence found by one PDF reader matches text produced by another.

    Parameters
    ----------
    text : passage or evidence text.

    Returns
    -------
    str
        NFKC-normalised (ligatures such as "ﬁ" become "fi"), ``(cid:N)`` placeholders removed, Markdown table
        pipes turned into spaces, emphasis (``*``) and heading markers dropped, the space after a currency sign
        and before a percent sign dropped ("$ 22,308" -> "$22,308", "12 %" -> "12%"), runs of whitespace
        collapsed to one space, trimmed and case-folded.

    Notes
    -----
    NFKC runs first so full-width characters (e.g. "｜") are folded before the pipe and space rules see them.
    """
    text = unicodedata.normalize("NFKC", text)
    text = _CID.sub("", text)
    text = _EMPHASIS.sub("", text)
    text = text.replace("|", " ")
    text = _SPACE.sub(" ", text).strip()
    text = _SPACED_SIGN.sub("", text)
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
    groups = list(summary["by_kind"].items()) + [("all", overall)]
    return common.markdown_table(["kind", *(headers.get(c, c) for c in columns)],
                                 [[name, *(_cell(group[c]) for c in columns)] for name, group in groups], "lr")


def _largest_k(group: Mapping) -> int:
    ks = [int(key.split("@", 1)[1]) for key in group if key.startswith("recall@")]
    return max(ks) if ks else max(RECALL_KS)


def _cell(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


# -- end-to-end answers --
#
# Per-question checks of an answer (its text and its citations) and their aggregation per question kind. A
# citation is ``(doc, page)``, or ``(doc, first page, last page)`` for a passage that runs across a page break.

JUDGE_SCORES = ("correctness", "faithfulness", "relevance")
LATENCIES = ("retrieval_ms", "first_text_ms", "total_ms")


def evidence_in_answer(answer: str, evidence: Iterable[str]) -> bool:
    """Whether the answer text holds any one of the evidence strings, after :func:`normalize_for_match`.

    Parameters
    ----------
    answer : the answer as shown to the user (quotes and citation markers included).
    evidence : evidence strings of one question.

    Returns
    -------
    bool
        Same rules as :func:`is_relevant`: False for empty evidence, and evidence that normalises to "" is
        ignored. This measures quoting: an answer in its own words can be right without holding any evidence
        string.
    """
    return is_relevant(answer, evidence)


def _citation_pages(citation: Sequence) -> tuple[str, range]:
    if len(citation) == 2:
        doc, first = citation
        last = first
    elif len(citation) == 3:
        doc, first, last = citation
    else:
        raise ValueError(f"a citation is (doc, page) or (doc, first page, last page), got {citation!r}")
    return doc, range(first, max(first, last) + 1)


def _on_gold_page(citation: Sequence, doc: str, pages: Iterable[int]) -> bool:
    cited_doc, cited_pages = _citation_pages(citation)
    return cited_doc == doc and any(p in cited_pages for p in pages)


def cites_gold_page(citations: Sequence[Sequence], doc: str, pages: Iterable[int]) -> bool:
    """Whether any citation is on a gold page of the gold document.

    Parameters
    ----------
    citations : ``(doc, page)`` or ``(doc, first page, last page)`` per citation, in answer order.
    doc : the gold document.
    pages : its gold pages (1-based).

    Returns
    -------
    bool
        False without citations. The page alone is not enough: a gold page number in another document is a miss.
    """
    pages = list(pages)
    return any(_on_gold_page(c, doc, pages) for c in citations)


def first_citation_on_gold_page(citations: Sequence[Sequence], doc: str, pages: Iterable[int]) -> bool:
    """Whether the answer's first citation is on a gold page of the gold document.

    Parameters
    ----------
    citations, doc, pages : as for :func:`cites_gold_page`.

    Returns
    -------
    bool
        False without citations. Stricter than :func:`cites_gold_page`: the page a reader checks first is right.
    """
    return bool(citations) and _on_gold_page(citations[0], doc, list(pages))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize_answers(rows: Sequence[Mapping]) -> dict[str, dict]:
    """Aggregate per-question end-to-end results per question kind and overall.

    Parameters
    ----------
    rows : one mapping per question with keys ``kind`` (str), ``answerable`` (bool), ``abstained`` (bool),
        ``evidence_in_answer``, ``cites_gold_page`` and ``first_citation_on_gold_page`` (bool; ignored for
        unanswerable questions), ``retrieval_ms``, ``first_text_ms`` and ``total_ms`` (float or None) and
        ``judge``: None when no judge ran, else a mapping holding the three ``JUDGE_SCORES`` when the answer was
        judged, ``error`` when the judge's reply was unusable, or ``skipped`` when no request was made.

    Returns
    -------
    dict
        ``{"by_kind": {kind: group, ...}, "overall": group}``, kinds sorted. Each group holds:

        - ``n``, ``n_answerable``, ``n_answered_answerable``;
        - ``answered``: share of all questions not declined;
        - ``evidence_in_answer_of_answered``, ``cites_gold_page_of_answered``,
          ``first_citation_on_gold_page_of_answered``: over answerable questions that were answered;
        - ``evidence_in_answer_of_answerable``, ``cites_gold_page_of_answerable``: over all answerable
          questions, a declined one counting as a miss;
        - ``abstain_on_unanswerable`` and ``false_abstention`` (see :func:`abstention_rates`);
        - ``<latency>_p50`` and ``<latency>_p95`` for each of ``LATENCIES`` (missing values left out);
        - only when some row has a ``judge`` mapping: ``n_judged``, ``judge_errors``, ``judge_skipped`` and the
          mean of each score as ``judge_<score>``.

        A share or mean over no questions is None, never 0.
    """
    judged = any(r.get("judge") is not None for r in rows)
    by_kind = {kind: _answer_group([r for r in rows if r["kind"] == kind], judged)
               for kind in sorted({r["kind"] for r in rows})}
    return {"by_kind": by_kind, "overall": _answer_group(list(rows), judged)}


def _answer_group(rows: list[Mapping], judged: bool) -> dict:
    answerable = [r for r in rows if r["answerable"]]
    answered = [r for r in answerable if not r["abstained"]]
    out: dict = {
        "n": len(rows), "n_answerable": len(answerable), "n_answered_answerable": len(answered),
        "answered": _share([not r["abstained"] for r in rows]),
    }
    for key in ("evidence_in_answer", "cites_gold_page", "first_citation_on_gold_page"):
        out[f"{key}_of_answered"] = _share([bool(r[key]) for r in answered])
        if key != "first_citation_on_gold_page":
            # Declined answerable questions count as misses: the reader got no answer to check.
            out[f"{key}_of_answerable"] = _share([bool(r[key]) and not r["abstained"] for r in answerable])
    out.update(abstention_rates([r["abstained"] for r in rows], [r["answerable"] for r in rows]))
    for key in LATENCIES:
        values = [r[key] for r in rows if r.get(key) is not None]
        out[f"{key}_p50"] = percentile(values, 50)
        out[f"{key}_p95"] = percentile(values, 95)
    if judged:
        verdicts = [r.get("judge") or {} for r in rows]
        scored = [v for v in verdicts if all(s in v for s in JUDGE_SCORES)]
        out["n_judged"] = len(scored)
        out["judge_errors"] = sum(1 for v in verdicts if "error" in v)
        out["judge_skipped"] = sum(1 for v in verdicts if "skipped" in v)
        for score in JUDGE_SCORES:
            out[f"judge_{score}"] = _mean([v[score] for v in scored])
    return out
