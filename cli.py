"""Command line: the same pipeline as the UI and the API.

Examples
--------
python cli.py ingest paper.pdf notes.txt --collection papers
python cli.py ask "What learning rate does Adam use?" --collection papers
python cli.py search "learning rate" --mode keyword
python cli.py documents
python cli.py delete <doc_id>
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ingestion.chunking import STRATEGIES


def show_progress(message: str, fraction: float) -> None:
    """One line per step on stderr, rewritten in place on a terminal."""
    end = "\r" if sys.stderr.isatty() and fraction < 1 else "\n"
    print(f"  {fraction:4.0%} {message:<60}", end=end, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cli.py", description="Grounded document Q&A from the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_ingest = sub.add_parser("ingest", help="index PDF or text files")
    p_ingest.add_argument("files", nargs="+", type=Path)
    p_ingest.add_argument("--strategy", choices=STRATEGIES, default=None,
                          help="chunking strategy (default: RAG_CHUNK_STRATEGY)")
    p_ingest.add_argument("--chunk-size", type=int, default=None)
    p_ingest.add_argument("--chunk-overlap", type=int, default=None)
    for name, helptext in (("ask", "answer a question"), ("search", "show the ranked passages only")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("question")
        p.add_argument("--top-k", type=int, default=None)
        p.add_argument("--mode", choices=["hybrid", "semantic", "keyword"], default="hybrid")
        p.add_argument("--doc-id", action="append", dest="doc_ids")
        p.add_argument("--json", action="store_true", help="print the same JSON as the HTTP API")
    sub.add_parser("documents", help="list indexed documents")
    p_delete = sub.add_parser("delete", help="remove a document")
    p_delete.add_argument("doc_id")
    for p in sub.choices.values():
        p.add_argument("--collection", default="default")
    args = parser.parse_args(argv)

    from ingestion.errors import IngestError
    from main import answer_json, search_json
    from pipeline import Pipeline, QuestionError
    from retrieval.store import UnknownCollection, UnknownDocument

    pipeline = Pipeline()
    try:
        if args.command == "ingest":
            status = 0
            for path in args.files:
                try:
                    r = pipeline.ingest(path.read_bytes(), path.name, args.collection, progress=show_progress,
                                        strategy=args.strategy, chunk_size=args.chunk_size,
                                        chunk_overlap=args.chunk_overlap)
                    state = "already indexed" if r.duplicate else f"{r.pages} pages, {r.chunks} passages"
                    print(f"{path.name}: {state} in {r.seconds:.1f} s (doc_id {r.doc_id})")
                    for w in r.warnings:
                        print(f"  warning: {w}")
                    if r.unread_pages:
                        print(f"  pages not read: {r.unread_pages}")
                except (IngestError, OSError, ValueError) as exc:
                    print(f"{path.name}: {getattr(exc, 'message', exc)}", file=sys.stderr)
                    status = 1
            return status
        if args.command == "documents":
            for d in pipeline.documents(args.collection):
                print(f"{d.doc_id}  {d.pages:4d} pages  {d.chunks:5d} passages  {d.filename}")
            return 0
        if args.command == "delete":
            record = pipeline.delete_document(args.doc_id)
            print(f"deleted {record.filename} ({record.doc_id})")
            return 0
        if args.command == "search":
            result = pipeline.search(args.question, args.collection, args.doc_ids, args.top_k, args.mode)
            if args.json:
                print(json.dumps(search_json(result), indent=2, ensure_ascii=False))
            else:
                for h in result.hits:
                    print(f"#{h.rank} {h.chunk.filename} p.{h.chunk.page} score {h.score:.3f}\n  {h.chunk.text[:300]}")
            return 0
        result = pipeline.answer(args.question, args.collection, args.doc_ids, args.top_k, args.mode)
        if args.json:
            print(json.dumps(answer_json(result), indent=2, ensure_ascii=False))
        else:
            print(result.answer)
            print(f"\n(confidence {result.confidence:.2f}; {len(result.sources)} passages searched)")
        return 0
    except (QuestionError, UnknownCollection, UnknownDocument) as exc:
        print(exc.args[0] if exc.args else exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
