"""Does the gold evidence survive chunking? One row per chunking strategy.

    python -m evaluation.survival [--strategies fixed_size recursive_char semantic] [--no-embed]
                                  [--gold PATH] [--limit N] [--docs DIR] [--out evaluation/results]
                                  [--set chunk_size=N] [--set chunk_overlap=N] [--set semantic_percentile=P] ...

Each gold PDF is read once with the product's reader. For every evidence string of every answerable question it
asks: is the string inside the text of one chunk on a labelled page (a chunk whose ``page..page_end`` covers a gold
page counts), is it in the labelled page's text at all, and, when it is in the page text but in no chunk, it was
split between two chunks. Reading losses (not in the page text) and chunking losses (split) are told apart. Evidence
that only appears when a page is joined to the next one runs across a page break.

Per strategy it also reports chunk counts and lengths and the cost per page: chunking (for ``semantic`` this
includes embedding every sentence, reported separately too) and embedding the chunks' ``embedding_text()`` with
the bundled model. The sizes are the product's settings (``RAG_*`` or ``--set``: ``chunk_size``, ``chunk_overlap``,
``semantic_percentile``, ``semantic_min_chars``). Writes ``survival.md`` and ``survival.json`` to ``--out`` and
prints the table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from evaluation.common import load_average, machine, markdown_table, now, write_results
from evaluation.gold import GoldQuestion, load_gold
from evaluation.harness import add_arguments
from evaluation.metrics import is_relevant

# The settings of chunking, read from the product's settings; --set changes them (no other setting is used here).
CHUNKING = ("chunk_size", "chunk_overlap", "semantic_percentile", "semantic_min_chars")

# What can happen to one evidence string.
SURVIVED, SPLIT, ACROSS_BREAK, READING = "survived", "split", "across_break", "reading_loss"


@dataclass
class Fate:
    """What chunking did to one evidence string of one question."""

    question: str
    doc: str
    evidence: str
    pages: list[int]
    outcome: str  # SURVIVED, SPLIT (in the page text, in no chunk), ACROSS_BREAK (only with the next page), READING
    in_page_text: bool
    chunk_pages: list[int] = field(default_factory=list)  # pages of the chunks holding it, when it survived


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from ingestion.chunking import STRATEGIES
    from settings import Settings

    parser = argparse.ArgumentParser(prog="python -m evaluation.survival", description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategies", nargs="+", choices=STRATEGIES, default=list(STRATEGIES))
    parser.add_argument("--no-embed", action="store_true", help="skip timing the chunk embeddings")
    add_arguments(parser, out="survival.md and survival.json", overrides=True)
    args = parser.parse_args(argv)
    settings = Settings(**args.overrides)
    for name in CHUNKING:
        setattr(args, name, getattr(settings, name))
    return args


def read_documents(docs_dir: Path, names: list[str]) -> tuple[dict, dict[str, float]]:
    """Read each gold PDF once; return ``{doc: ReadResult}`` and reading seconds per document."""
    from ingestion.reader import read_document

    docs, seconds = {}, {}
    for name in names:
        t0 = time.perf_counter()
        docs[name] = read_document((docs_dir / f"{name}.pdf").read_bytes(), f"{name}.pdf")
        seconds[name] = time.perf_counter() - t0
    return docs, seconds


def page_texts(doc) -> dict[int, str]:
    return {p.number: p.text for p in doc.pages}


def across_break(texts: dict[int, str], page: int) -> str:
    """The end of ``page`` joined to the start of the next page, a line-end hyphen undone."""
    before, after = texts.get(page, "").rstrip(), texts.get(page + 1, "").lstrip()
    if before.endswith("-") and after[:1].islower():
        return before[-2000:-1] + after[:2000]
    return before[-2000:] + " " + after[:2000]


def evidence_fates(questions: list[GoldQuestion], docs: dict, chunks_by_doc: dict[str, list]) -> list[Fate]:
    """Classify every evidence string of every answerable question."""
    fates = []
    for q in questions:
        if not q.answerable:
            continue
        texts = page_texts(docs[q.doc])
        gold = set(q.pages)
        on_gold = [c for c in chunks_by_doc[q.doc] if gold & set(c.pages)]
        for evidence in q.evidence:
            holders = [c for c in on_gold if is_relevant(c.text, [evidence])]
            in_page = any(is_relevant(texts.get(p, ""), [evidence]) for p in gold)
            if holders:
                outcome = SURVIVED
            elif in_page:
                outcome = SPLIT
            elif any(is_relevant(across_break(texts, p), [evidence]) for p in gold | {p - 1 for p in gold}):
                outcome = ACROSS_BREAK
            else:
                outcome = READING
            fates.append(Fate(q.id, q.doc, evidence, sorted(gold), outcome, in_page,
                              sorted({c.page for c in holders})))
    return fates


def page_break_sentences(doc) -> list[tuple[int, list[str]]]:
    """Sentences a page break cuts: the last sentence of a page ending mid-sentence joined to the first sentence of
    the next page when it opens with a continuation (the chunker's own test, without its length and punctuation
    checks). Returns ``(page, variants)``: with a hyphen at the break, the word joined with and without it."""
    from ingestion.chunking import ends_mid_sentence, starts_continuation
    from ingestion.sentences import split_sentences

    out = []
    for page, nxt in zip(doc.pages, doc.pages[1:]):
        if nxt.number != page.number + 1 or not ends_mid_sentence(page.text) or not starts_continuation(nxt.text):
            continue
        head, following = split_sentences(page.text), nxt.text.lstrip()
        tail = split_sentences(following)
        if not head or not tail:
            continue
        before, after = page.text[head[-1].start:head[-1].end], following[tail[0].start:tail[0].end]
        variants = [before + " " + after] if not before.endswith("-") else [before[:-1] + after, before + after]
        out.append((page.number, variants))
    return out


def measure_strategy(strategy: str, docs: dict, embedder, args: argparse.Namespace) -> tuple[dict, dict]:
    """Chunk every document with one strategy; return ``(stats, {doc: chunks})``."""
    from ingestion.chunking import chunk_pages

    sentence_seconds, sentences = 0.0, 0

    def timed_embed(texts):
        nonlocal sentence_seconds, sentences
        sentences += len(texts)
        t0 = time.perf_counter()
        vectors = embedder.encode(texts)
        sentence_seconds += time.perf_counter() - t0
        return vectors

    chunks_by_doc, chunk_seconds, embed_seconds = {}, 0.0, 0.0
    for name, doc in docs.items():
        t0 = time.perf_counter()
        chunks_by_doc[name] = chunk_pages(
            doc.pages, doc_id=name, filename=f"{name}.pdf", strategy=strategy, chunk_size=args.chunk_size,
            chunk_overlap=args.chunk_overlap, embed=timed_embed, semantic_percentile=args.semantic_percentile,
            semantic_min_chars=args.semantic_min_chars)
        chunk_seconds += time.perf_counter() - t0
        if not args.no_embed:
            t0 = time.perf_counter()
            embedder.encode([c.embedding_text() for c in chunks_by_doc[name]])
            embed_seconds += time.perf_counter() - t0
    everything = [c for chunks in chunks_by_doc.values() for c in chunks]
    breaks = [(name, page, variants) for name, doc in docs.items() for page, variants in page_break_sentences(doc)]
    kept = [(name, page, variants) for name, page, variants in breaks
            if any(is_relevant(c.text, variants) for c in chunks_by_doc[name] if page in c.pages)]
    lengths = [len(c.text) for c in everything]
    pages = sum(len(doc.pages) for doc in docs.values())
    stats = {
        "chunks": len(everything),
        "chunks_per_doc": {name: len(chunks) for name, chunks in chunks_by_doc.items()},
        "cross_page_chunks": sum(1 for c in everything if c.page_end != c.page),
        "page_break_sentences": len(breaks),
        "page_break_sentences_in_one_chunk": len(kept),
        "page_break_sentences_not_kept": [{"doc": name, "page": page, "sentence": variants[0]}
                                          for name, page, variants in breaks
                                          if (name, page, variants) not in kept],
        "mean_chars": statistics.fmean(lengths) if lengths else None,
        "min_chars": min(lengths, default=None),
        "max_chars": max(lengths, default=None),
        "pages": pages,
        "chunk_seconds": chunk_seconds,
        "chunk_seconds_per_page": chunk_seconds / pages,
        "sentences_embedded": sentences,
        "sentence_embed_seconds": sentence_seconds,
        "sentence_embed_seconds_per_page": sentence_seconds / pages,
        "embed_seconds": None if args.no_embed else embed_seconds,
        "embed_seconds_per_page": None if args.no_embed else embed_seconds / pages,
    }
    return stats, chunks_by_doc


def summarize_fates(fates: list[Fate]) -> dict:
    by_question: dict[str, bool] = {}
    for f in fates:
        by_question[f.question] = by_question.get(f.question, False) or f.outcome == SURVIVED
    counts = {o: sum(1 for f in fates if f.outcome == o) for o in (SURVIVED, SPLIT, ACROSS_BREAK, READING)}
    return {
        "evidence": len(fates),
        **counts,
        "in_page_text": sum(1 for f in fates if f.in_page_text),
        "questions": len(by_question),
        "questions_with_evidence_in_a_chunk": sum(by_question.values()),
    }


def markdown(meta: dict, results: dict) -> str:
    lines = [
        "# Evidence survival by chunking strategy",
        "",
        f"- date: {meta['date']}",
        f"- machine: {meta['machine']['platform']}, {meta['machine']['cpu_count']} CPUs, "
        f"Python {meta['machine']['python']}, load average at start {meta['machine']['load_average']}",
        f"- gold: `{meta['gold']}` ({meta['answerable_questions']} answerable questions, "
        f"{meta['evidence_strings']} evidence strings)",
        f"- documents: {', '.join(f'{d} ({n} pages, read in {s:.1f} s)' for d, n, s in meta['documents'])}",
        f"- sizes: chunk_size {meta['chunk_size']}, chunk_overlap {meta['chunk_overlap']}, semantic_percentile "
        f"{meta['semantic_percentile']}, semantic_min_chars {meta['semantic_min_chars']}",
        "",
    ]
    rows = []
    for strategy, r in results.items():
        s, f = r["stats"], r["survival"]
        rows.append([strategy, f"{f[SURVIVED]}/{f['evidence']}", f[SPLIT], f[ACROSS_BREAK], f[READING],
                     f"{f['questions_with_evidence_in_a_chunk']}/{f['questions']}",
                     f"{s['page_break_sentences_in_one_chunk']}/{s['page_break_sentences']}", s["chunks"],
                     s["cross_page_chunks"], f"{s['mean_chars']:.0f} / {s['min_chars']} / {s['max_chars']}",
                     f"{s['chunk_seconds_per_page']:.3f}",
                     f"{s['sentence_embed_seconds_per_page']:.3f}" if s["sentences_embedded"] else "–",
                     "–" if s["embed_seconds_per_page"] is None else f"{s['embed_seconds_per_page']:.3f}"])
    lines.append(markdown_table(
        ["strategy", "evidence in a chunk", "split between chunks", "across a page break only", "not in page text",
         "questions with evidence in a chunk", "page-break sentences in one chunk", "chunks", "cross-page chunks",
         "mean / min / max chars", "chunking s/page", "of it sentence embedding s/page", "chunk embedding s/page"],
        rows, "lr"))
    lines += [
        "",
        "Evidence counts as in a chunk when one chunk whose pages (`page`..`page_end`) cover a gold page contains it "
        "(`evaluation.metrics.is_relevant`). *Split*: in the gold page's text but in no single chunk. *Across a page "
        "break only*: found only when a gold page is joined to its neighbour. *Not in page text*: lost by reading, "
        "not by chunking. *Page-break sentences*: a page ending mid-sentence whose next page opens with a "
        "continuation; kept when one chunk holds the whole sentence. Timings are wall-clock on a shared machine; "
        "the semantic strategy embeds every sentence once (counted in its chunking time).",
        "",
        "## Evidence not found in one chunk",
        "",
    ]
    for strategy, r in results.items():
        missing = [f for f in r["fates"] if f["outcome"] != SURVIVED]
        lines.append(f"### {strategy}")
        lines.append("")
        lines += [f"- {f['question']} ({f['doc']} p. {','.join(map(str, f['pages']))}, {f['outcome']}): "
                  f"\"{f['evidence']}\"" for f in missing] or ["- none"]
        lines.append("")
        for b in r["stats"]["page_break_sentences_not_kept"]:
            lines.append(f"- page-break sentence not in one chunk ({b['doc']} p. {b['page']}-{b['page'] + 1}): "
                         f"\"{_shorten(b['sentence'])}\"")
        if r["stats"]["page_break_sentences_not_kept"]:
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _shorten(text: str, width: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args = parse_args(argv)
    from retrieval.embedder import Embedder

    questions = load_gold(args.gold)[:args.limit]
    names = sorted({q.doc for q in questions})
    load = load_average()
    docs, read_seconds = read_documents(args.docs, names)
    embedder = Embedder()
    results = {}
    for strategy in args.strategies:
        stats, chunks_by_doc = measure_strategy(strategy, docs, embedder, args)
        fates = evidence_fates(questions, docs, chunks_by_doc)
        results[strategy] = {"stats": stats, "survival": summarize_fates(fates),
                             "fates": [vars(f) for f in fates]}
    meta = {
        "date": now(), "machine": {**machine(), "load_average": load},
        "gold": str(args.gold),
        "answerable_questions": sum(1 for q in questions if q.answerable),
        "evidence_strings": sum(len(q.evidence) for q in questions if q.answerable),
        "documents": [(n, len(docs[n].pages), round(read_seconds[n], 2)) for n in names],
        "chunk_size": args.chunk_size, "chunk_overlap": args.chunk_overlap,
        "semantic_percentile": args.semantic_percentile, "semantic_min_chars": args.semantic_min_chars,
        "embedding_model": embedder.name,
    }
    report = markdown(meta, results)
    write_results("survival", report, {"meta": meta, "results": results}, args.out)
    print(report[:report.index("\n\nEvidence counts")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
