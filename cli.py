"""Command line: the same pipeline as the UI and the API.

Examples
--------
python cli.py ingest paper.pdf notes.txt --collection papers
python cli.py ask "What learning rate does Adam use?" --collection papers
python cli.py search "learning rate" --mode keyword
python cli.py documents
python cli.py delete <doc_id>
python cli.py samples            # index the sample documents now, before the server's first start
python cli.py worker             # with RAG_DATABASE_URL: index the uploads queued in PostgreSQL
python cli.py invoice bill.pdf [--json]   # an invoice's fields, line items and checks (nothing is kept)

With ``RAG_SERVER_URL`` set (or ``--server URL``), every command goes to the server running there, through its HTTP
API, and loads no model; the output is the same. When no server answers ``GET /health`` there, the command runs on
``RAG_DATA_DIR`` directly, as without the setting, and says so in one line on stderr. A command run directly on
the data folder of a running server is seen by that server at once as well (``retrieval.store_sync``); it only
takes longer, since the models load here first.
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import sys
import time
from pathlib import Path

from ingestion.chunking import STRATEGIES

# /debug/chunks answers with the ranking (what `search --json` prints) and these fields besides.
_NOT_RANKING = ("question", "confidence_level", "timings")


def show_progress(progress) -> None:
    """One line per step on stderr, rewritten in place on a terminal: the share done, what is happening and the
    time left (an :class:`services.progress.IngestProgress`, or its ``to_dict()`` from a server)."""
    p = progress if isinstance(progress, dict) else progress.to_dict()
    end = "\r" if sys.stderr.isatty() and p["stage"] != "done" else "\n"
    print(f"  {p['fraction']:4.0%} {p['message']:<72}", end=end, file=sys.stderr, flush=True)


# -- output, the same whether the command ran here or on a server -----------------------------------------------
def print_ingested(name: str, r: dict) -> None:
    state = "already indexed" if r["duplicate"] else f"{r['pages']} pages, {r['chunks']} passages"
    print(f"{name}: {state} in {r['seconds']:.1f} s (doc_id {r['doc_id']})")
    for w in r["warnings"]:
        print(f"  warning: {w}")
    if r["unread_pages"]:
        print(f"  pages not read: {r['unread_pages']}")


def print_documents(records: list[dict]) -> None:
    for d in records:
        print(f"{d['doc_id']}  {d['pages']:4d} pages  {d['chunks']:5d} passages  {d['filename']}")


def print_ranking(ranking: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(ranking, indent=2, ensure_ascii=False))
        return
    for h in ranking["sources"]:
        print(f"#{h['rank']} {h['filename']} p.{h['page']} score {h['score']:.3f}\n  {h['text'][:300]}")


def print_answer(answer: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(answer, indent=2, ensure_ascii=False))
        return
    print(answer["answer"])
    print(f"\n(confidence {answer['confidence']:.2f}; {len(answer['sources'])} passages searched)")


# -- a running server ---------------------------------------------------------------------------------------------
def print_invoice(name: str, reading: dict, as_json: bool) -> None:
    """An invoice as read: the verdict, the failed checks (first), the fields and the line items."""
    if as_json:
        print(json.dumps(reading, indent=2, ensure_ascii=False))
        return
    if not reading["is_invoice"]:
        print(f"{name}: {reading['note']}")
        return
    failed = [c for c in reading["checks"] if not c["passed"]]
    print(f"{name}: {'NEEDS REVIEW' if reading['needs_review'] else 'every check passed'} "
          f"({len(reading['lines'])} lines, {reading['pages']} pages)")
    for check in failed:
        print(f"  failed  {check['name']}: {check['detail']}")
    for field, value in reading["fields"].items():
        print(f"  {field:<15} {'-' if value is None else value}")
    for n, line in enumerate(reading["lines"], 1):
        print(f"  {n:>4} p{line['page']} {line['code'] or '-'} {line['description'] or '-'} | {line['quantity']} x "
              f"{line['unit_price']} = {line['amount']}")


def connect(url: str, api_key: str | None, collection_key: str | None):
    """An ``httpx.Client`` for the server at ``url`` if its ``/health`` answers, else ``None`` (after saying so)."""
    import httpx

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    if collection_key:
        headers["X-Collection-Key"] = collection_key
    client = httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=httpx.Timeout(10.0, read=900.0))
    try:
        reply = client.get("/health", timeout=3.0)
        if reply.status_code == 200:
            return client
        reason = f"/health answered {reply.status_code}"
    except httpx.HTTPError as exc:
        reason = type(exc).__name__
    client.close()
    print(f"No server answers at {url} ({reason}); working on the data folder directly.", file=sys.stderr)
    return None


def detail(reply) -> str:
    """The server's message for a refused request (``{"detail": ...}``), or its status."""
    try:
        return str(reply.json()["detail"])
    except (ValueError, KeyError, TypeError):
        return f"The server answered {reply.status_code}."


def follow_job(client, job: dict, interval: float = 0.5) -> dict:
    """Poll a background upload (``GET /jobs/{id}``), showing its progress, until it ends."""
    while True:
        show_progress(job["progress"])
        if job["status"] != "running":
            if job["progress"]["stage"] != "done" and sys.stderr.isatty():
                print(file=sys.stderr)  # end the line rewritten in place
            return job
        time.sleep(interval)
        reply = client.get(f"/jobs/{job['job_id']}")
        if reply.status_code != 200:
            return {**job, "status": "lost"}
        job = reply.json()


def run_remote(args: argparse.Namespace, client) -> int:
    """``args``'s command through the server's HTTP API."""
    if args.command == "ingest":
        status = 0
        for path in args.files:
            try:
                data = path.read_bytes()
            except OSError as exc:
                print(f"{path.name}: {exc}", file=sys.stderr)
                status = 1
                continue
            form = {"collection": args.collection, **{name: str(value) for name, value in (
                ("strategy", args.strategy), ("chunk_size", args.chunk_size), ("chunk_overlap", args.chunk_overlap))
                if value is not None}}
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            reply = client.post("/ingest", data={**form, "wait": "false"}, files={"file": (path.name, data, kind)})
            if reply.status_code == 202:
                job = follow_job(client, reply.json())
                if job["status"] == "done":
                    print_ingested(path.name, job["result"])
                    continue
                message = job["error"]["detail"] if job["status"] == "failed" else "the server stopped reporting"
                print(f"{path.name}: {message}", file=sys.stderr)
            else:
                print(f"{path.name}: {detail(reply)}", file=sys.stderr)
            status = 1
        return status
    if args.command == "invoice":
        try:
            data = args.file.read_bytes()
        except OSError as exc:
            print(f"{args.file.name}: {exc}", file=sys.stderr)
            return 1
        reply = client.post("/invoices/extract", files={"file": (args.file.name, data, "application/pdf")})
        if reply.status_code != 200:
            print(f"{args.file.name}: {detail(reply)}", file=sys.stderr)
            return 1
        print_invoice(args.file.name, reply.json(), args.json)
        return 0
    if args.command == "documents":
        reply = client.get("/documents", params={"collection": args.collection})
    elif args.command == "delete":
        reply = client.delete(f"/documents/{args.doc_id}")
    else:
        query = {"question": args.question, "collection": args.collection, "doc_ids": args.doc_ids,
                 "top_k": args.top_k, "mode": args.mode}
        reply = client.post("/debug/chunks" if args.command == "search" else "/query", json=query)
    if reply.status_code != 200:
        print(detail(reply), file=sys.stderr)
        return 2 if reply.status_code in (403, 404, 422) else 1
    body = reply.json()
    if args.command == "documents":
        print_documents(body["documents"])
    elif args.command == "delete":
        print(f"deleted {body['filename']} ({body['deleted']})")
    elif args.command == "search":
        print_ranking({k: v for k, v in body.items() if k not in _NOT_RANKING}, args.json)
    else:
        print_answer(body, args.json)
    return 0


# -- here, on the data folder ---------------------------------------------------------------------------------------
def run_local(args: argparse.Namespace) -> int:
    """``args``'s command on the pipeline of this process (models loaded here)."""
    from core.errors import IngestError, QuestionError, UnknownCollection, UnknownDocument
    from pipeline import Pipeline

    pipeline = Pipeline()
    try:
        if args.command == "ingest":
            status = 0
            for path in args.files:
                try:
                    r = pipeline.ingest(path.read_bytes(), path.name, args.collection, progress=show_progress,
                                        strategy=args.strategy, chunk_size=args.chunk_size,
                                        chunk_overlap=args.chunk_overlap)
                    print_ingested(path.name, r.to_dict())
                except (IngestError, OSError, ValueError) as exc:
                    print(f"{path.name}: {getattr(exc, 'message', exc)}", file=sys.stderr)
                    status = 1
            return status
        if args.command == "invoice":
            try:
                reading = pipeline.invoices.extract(args.file.read_bytes(), args.file.name)
            except (IngestError, OSError) as exc:
                print(f"{args.file.name}: {getattr(exc, 'message', exc)}", file=sys.stderr)
                return 1
            print_invoice(args.file.name, reading.to_dict(), args.json)
            return 0
        if args.command == "documents":
            print_documents([d.to_dict() for d in pipeline.documents(args.collection)])
            return 0
        if args.command == "samples":
            for r in pipeline.index_samples(args.collection):
                print_ingested(r.filename, r.to_dict())
            print(f"samples: {pipeline.ingestion.samples_status} in {pipeline.settings.data_dir}")
            return 0 if pipeline.ingestion.samples_status == "ready" else 1
        if args.command == "delete":
            record = pipeline.ingestion.delete_document(args.doc_id)
            print(f"deleted {record.filename} ({record.doc_id})")
            return 0
        if args.command == "search":
            result = pipeline.search(args.question, args.collection, args.doc_ids, args.top_k, args.mode)
            print_ranking(result.to_dict(), args.json)
            return 0
        result = pipeline.answer(args.question, args.collection, args.doc_ids, args.top_k, args.mode)
        print_answer(result.to_dict(), args.json)
        return 0
    except (QuestionError, UnknownCollection, UnknownDocument) as exc:
        print(exc.args[0] if exc.args else exc, file=sys.stderr)
        return 2


def run_worker() -> int:
    """Index the uploads queued in PostgreSQL until stopped (SIGINT, SIGTERM): :mod:`services.queue`."""
    from settings import get_settings

    settings = get_settings()
    if not settings.database_url:
        print("`worker` indexes the uploads queued in PostgreSQL: set RAG_DATABASE_URL to the app's database.",
              file=sys.stderr)
        return 2
    from pipeline import Pipeline

    pipeline = Pipeline(settings)
    print(f"worker: indexing queued uploads, {settings.worker_concurrency} at a time; stop with Ctrl+C",
          file=sys.stderr, flush=True)
    pipeline.uploads.run_worker(pipeline.ingestion, concurrency=settings.worker_concurrency)
    return 0


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
    sub.add_parser("samples", help="index the sample documents (data/) now: `make run`'s install step and the "
                   "Docker build do, so that a first start answers at once")
    p_delete = sub.add_parser("delete", help="remove a document")
    p_delete.add_argument("doc_id")
    p_invoice = sub.add_parser("invoice", help="read an invoice PDF (or scan): fields, line items, checks; "
                               "nothing is kept")
    p_invoice.add_argument("file", type=Path)
    p_invoice.add_argument("--json", action="store_true", help="print the same JSON as POST /invoices/extract")
    sub.add_parser("worker", help="index the uploads queued in PostgreSQL (RAG_DATABASE_URL); run one or more")
    for p in sub.choices.values():
        p.add_argument("--collection", default="default")
        p.add_argument("--server", metavar="URL", default=None,
                       help="send the command to the server running at URL (default: RAG_SERVER_URL; '' = never)")
        p.add_argument("--key", default=None,
                       help="the collection's key (X-Collection-Key) for a server's collection created with one; "
                       "not needed directly on the data folder")
    args = parser.parse_args(argv)
    if args.command == "worker":
        return run_worker()

    from settings import get_settings

    settings = get_settings()
    url = settings.server_url if args.server is None else args.server
    if args.command == "samples":
        url = ""  # into this machine's data folder, which a server started later loads
    client = connect(url, settings.api_key, args.key) if url else None
    if client is None:
        return run_local(args)
    import httpx

    try:
        return run_remote(args, client)
    except httpx.HTTPError as exc:
        print(f"The server at {url} did not answer the command ({type(exc).__name__}).", file=sys.stderr)
        return 1
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
