"""Reading fidelity per document: how much of each page's text the product's reader keeps, in order.

    python -m evaluation.reading [--docs PATH ...] [--out evaluation/results] [--baseline REF]

Every PDF is read twice: by the product (:func:`ingestion.reader.read_document`, default options, timed) and by
pdfplumber, the reference, page by page: ``page.extract_text(x_tolerance=1.5)``, Unicode NFKC, ``(cid:N)``
removed, a hyphen at a line break re-joined, whitespace collapsed (:func:`evaluation.fidelity.reference_text`), which is how the
evaluation questions' evidence strings were taken from these PDFs. Both texts are split into words
(:func:`evaluation.fidelity.words`), and per document the report gives:

- pages read;
- words matched in order: the longest common subsequence of the reference's words and ours, over the number of
  reference words (:func:`evaluation.fidelity.matched_in_order`), summed over pages; the worst page and the pages under 0.90;
- U+FFFD (the replacement character) in our text;
- run-together tokens: our words of 7 letters or more that are no reference word of the page but the
  concatenation of 2 or more consecutive ones ("sowecancorrect...", :func:`evaluation.fidelity.run_together`), with examples;
- seconds per page of ``read_document`` alone (the reference's reading is not timed), after one warm-up read of
  a small PDF so that first-call costs (imports, the layout model) fall outside;
- which reader produced the pages (``Page.reader``).

``--baseline REF`` measures the reader of another git revision beside this one ("before" rows and the ratio of
s/page after/before): ``REF`` is checked out with ``git worktree add --detach`` in a temporary folder, and this
file is loaded by path in a new interpreter running there, whose ``sys.path`` starts with that checkout and
leaves this one out, so that it imports the checkout's ``ingestion`` whether or not the revision has this file
(it checks that it did). That process warms up and reads the PDFs it is sent, one at a time, sending the pages
back as JSON on a pipe of its own; the two readers take turns document by document, never at the same time, so a
change in the machine's load weighs on both alike. The process ends and the worktree is removed afterwards, also
on error. Both revisions are scored here against the same reference. Timings depend on what else the machine
runs: CPU seconds are reported beside wall seconds, and the load average at the start and the end.

``--json-only FILE`` only reads the PDFs with this checkout's reader and writes the pages as JSON (no reference,
no report).

Writes ``reading.md`` and ``reading.json`` (per-page figures and the README block, :mod:`evaluation.reading_report`)
to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

# Only the standard library at module level: the --baseline process runs this file inside another revision's
# checkout, where the project's modules (evaluation included) are that revision's. The scoring
# (evaluation.fidelity) is imported where it is used, in this checkout's process only.

ROOT = Path(__file__).resolve().parents[1]
SHARED_EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"
DEFAULT_DOCS = [SHARED_EVAL / "docs" / f"{name}.pdf" for name in ("adam", "attention", "nist")] + \
    sorted((SHARED_EVAL / "sec" / "docs").glob("*.pdf"))
STEM = "reading"
PLUMBER_X_TOLERANCE = 1.5


# -- reading --------------------------------------------------------------------------------------------------------
def say(message: str) -> None:
    """Progress, on stderr."""
    print(f"[reading] {message}", file=sys.stderr, flush=True)


def reference_pages(path: Path) -> list[str]:
    """pdfplumber's text of every page of ``path``, normalised by :func:`evaluation.fidelity.reference_text`."""
    import pdfplumber

    from evaluation.fidelity import reference_text

    with pdfplumber.open(path) as pdf:
        return [reference_text(page.extract_text(x_tolerance=PLUMBER_X_TOLERANCE) or "") for page in pdf.pages]


def warm_up() -> None:
    """Read a small generated PDF once, so imports and the first use of the layout model are not timed."""
    import pymupdf

    from ingestion.reader import read_document

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Warm-up", fontsize=18)
    page.insert_text((72, 110), "A first line of text to read before the timed documents.", fontsize=11)
    read_document(doc.tobytes(), "warm-up.pdf")


def read_pdf(path: Path) -> dict:
    """Read ``path`` with the importable ``ingestion`` package (default options), timing ``read_document`` alone.

    Returns ``{"doc", "pages": [{"number", "text", "reader"}], "seconds", "warnings"}``, or ``{"doc", "error"}``
    when the reader raised (the message says what)."""
    from ingestion.reader import read_document

    data = path.read_bytes()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        result = read_document(data, path.name)
    except Exception as exc:  # an old revision may fail where this one reads: report it, measure the rest
        return {"doc": path.stem, "error": f"{type(exc).__name__}: {exc}"}
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"doc": path.stem, "seconds": seconds, "cpu_seconds": cpu, "warnings": list(result.warnings),
            "pages": [{"number": p.number, "text": p.text, "reader": getattr(p, "reader", "unknown")}
                      for p in result.pages]}


def _ingestion_folder() -> Path:
    """Where the importable ``ingestion`` package lives (this checkout's, or a baseline worktree's)."""
    import ingestion

    return Path(ingestion.__file__).resolve().parent


def _said(label: str, path: Path, read: dict) -> None:
    say(f"{label}{path.name}: " + (read["error"] if "error" in read else
                                   f"{len(read['pages'])} pages in {read['seconds']:.1f} s "
                                   f"(CPU {read['cpu_seconds']:.1f} s)"))


def read_all(paths: Sequence[Path]) -> dict:
    """Warm up, then :func:`read_pdf` every path; with where ``ingestion`` was imported from (``--json-only``)."""
    warm_up()
    reads = []
    for path in paths:
        reads.append(read_pdf(path))
        _said("", path, reads[-1])
    return {"ingestion": str(_ingestion_folder()), "reads": reads}


def write_reads(args: argparse.Namespace) -> int:
    """``--json-only FILE --docs PATH ...``: :func:`read_all` with the importable ``ingestion``, as JSON to FILE
    (``-``: stdout)."""
    text = json.dumps(read_all(args.docs), ensure_ascii=False)
    if args.json_only == "-":
        print(text)
    else:
        Path(args.json_only).write_text(text, encoding="utf-8")
    return 0


# -- the baseline revision ------------------------------------------------------------------------------------------
# Run by a new interpreter with cwd = the worktree: sys.path gets the worktree first and neither '' nor this
# repository, so `ingestion` (and everything it imports of the project) is the worktree's; this file is loaded from
# its path under a private name, whether or not the revision has it, and serves reads (see `serve`).
_WORKER = """\
import importlib.util, os, sys
tree, source, root = (os.path.realpath(p) for p in sys.argv[1:4])
sys.path[:] = [tree] + [p for p in sys.path if p and os.path.realpath(p) not in (tree, root)]
spec = importlib.util.spec_from_file_location("_reading_measure", source)
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
sys.exit(module.serve(tree, int(sys.argv[4])))
"""


def serve(tree: str, fd: int) -> int:
    """The baseline process: check that ``ingestion`` is the worktree's, warm up, say so on ``fd``; then for each
    line of stdin (a JSON-encoded path) write :func:`read_pdf`'s dict as one JSON line to ``fd``, until stdin ends.

    Replies go to a pipe of their own, not stdout, where the reader's libraries may print."""
    with os.fdopen(fd, "w", encoding="utf-8") as replies:
        def reply(value: dict) -> None:
            replies.write(json.dumps(value, ensure_ascii=False) + "\n")
            replies.flush()

        where = _ingestion_folder()
        if not where.is_relative_to(Path(tree).resolve()):
            reply({"error": f"imported {where}, not the ingestion of {tree}"})
            return 3
        warm_up()
        reply({"ingestion": str(where)})
        for line in sys.stdin:
            reply(read_pdf(Path(json.loads(line))))
    return 0


def _git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


@contextmanager
def worktree(ref: str, repo: Path = ROOT) -> Iterator[tuple[Path, str]]:
    """A detached checkout of ``ref`` of ``repo`` in a temporary folder; yields its path and the full commit.

    The worktree is removed (and git's record of it pruned) when the block ends, however it ends."""
    commit = _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", cwd=repo)
    tmp = Path(tempfile.mkdtemp(prefix="reading-baseline-"))
    tree = tmp / "tree"
    try:
        _git("worktree", "add", "--detach", "--quiet", str(tree), commit, cwd=repo)
        yield tree, commit
    finally:
        if tree.exists():
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=repo, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=repo, capture_output=True)


class BaselineReader:
    """The reader of another revision, in a process of its own; call it with a path for :func:`read_pdf`'s dict.

    ``ref``, ``commit`` and ``ingestion`` (the folder it imported) say what it is."""

    def __init__(self, ref: str, commit: str, ingestion: str, process: subprocess.Popen, replies, timeout: float):
        self.ref, self.commit, self.ingestion = ref, commit, ingestion
        self._process, self._replies, self._timeout = process, replies, timeout

    def __call__(self, path: Path) -> dict:
        self._process.stdin.write(json.dumps(str(Path(path).resolve())) + "\n")
        self._process.stdin.flush()
        return _reply(self._process, self._replies, self._timeout)


def _reply(process: subprocess.Popen, replies, timeout: float) -> dict:
    """The worker's next JSON line; RuntimeError when it exits first or takes longer than ``timeout`` seconds."""
    ready, _, _ = select.select([replies], [], [], timeout)
    if not ready:
        raise RuntimeError(f"the baseline reader gave no answer in {timeout:.0f} s")
    line = replies.readline()
    if not line:
        try:
            status = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            status = "unknown"
        raise RuntimeError(f"the baseline reader exited (status {status}); see its messages above")
    value = json.loads(line)
    if set(value) == {"error"}:
        raise RuntimeError(f"the baseline reader: {value['error']}")
    return value


@contextmanager
def baseline_reader(ref: str, python: str = sys.executable, timeout: float = 1800.0) -> Iterator[BaselineReader]:
    """The ``ingestion`` of git revision ``ref`` reading in a new ``python`` process (see :data:`_WORKER`), from a
    temporary worktree; the process ends and the worktree is removed when the block ends, however it ends.
    ``timeout``: most seconds for the warm-up or one document."""
    with worktree(ref) as (tree, commit):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["HF_HUB_OFFLINE"] = "1"
        read_end, write_end = os.pipe()
        try:
            # Its stdout goes to our stderr (fd 2): messages of the reader's libraries, never mixed with replies.
            process = subprocess.Popen([python, "-c", _WORKER, str(tree), str(Path(__file__).resolve()), str(ROOT),
                                        str(write_end)], cwd=tree, env=env, stdin=subprocess.PIPE, stdout=2,
                                       pass_fds=(write_end,), text=True, encoding="utf-8")
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        replies = os.fdopen(read_end, encoding="utf-8")
        try:
            say(f"baseline {ref} ({commit[:10]}): a reader started in {tree}")
            hello = _reply(process, replies, timeout)
            if not Path(hello["ingestion"]).is_relative_to(tree.resolve()):
                raise RuntimeError(f"the baseline imported {hello['ingestion']}, not the worktree's ingestion")
            yield BaselineReader(ref, commit, hello["ingestion"], process, replies, timeout)
        finally:
            try:
                process.stdin.close()  # the end of its requests: it exits
            except OSError:
                pass
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            replies.close()


# -- the whole run --------------------------------------------------------------------------------------------------
def measure(paths: Sequence[Path], baseline: str | None = None) -> dict:
    """Read ``paths`` with this checkout's reader (and ``baseline``'s), score both against pdfplumber; returns
    the report without its ``meta``: ``documents`` (per document ``after``, ``before`` when a baseline ran),
    ``total``, ``reference_seconds``, ``ingestion`` and ``baseline``.

    With a baseline, the two readers take turns document by document (after then before, then before then
    after, ...), never at the same time, so a change in the machine's load between them weighs on both alike."""
    from evaluation.fidelity import summarize_read  # not at module level: see the note on imports
    from evaluation.reading_report import share_text

    paths = [Path(p) for p in paths]
    warm_up()
    documents, reference_seconds = [], {}
    with baseline_reader(baseline) if baseline else nullcontext() as other:
        for i, path in enumerate(paths):
            turns = [("after", read_pdf)] + ([("before", other)] if other else [])
            reads = {}
            for side, read in (turns if i % 2 == 0 else turns[::-1]):
                reads[side] = read(path)
                _said(f"{side}: ", path, reads[side])
            t0 = time.perf_counter()
            reference = reference_pages(path)
            reference_seconds[path.stem] = time.perf_counter() - t0
            row = {"doc": path.stem, "path": str(path), "after": summarize_read(reference, reads["after"])}
            if other:
                row["before"] = summarize_read(reference, reads["before"])
                row.update(_ratios(row["after"], row["before"]))
            documents.append(row)
            say(f"scored {path.name}: " + ", ".join(f"{side} {share_text(row[side])}" for side in ("after", "before")
                                                    if side in row))
    report = {"documents": documents, "total": {"after": total(documents, "after")},
              "reference_seconds": reference_seconds, "ingestion": str(_ingestion_folder())}
    if baseline:
        report["total"]["before"] = total(documents, "before")
        report["total"].update(_ratios(report["total"]["after"], report["total"]["before"]))
        report["baseline"] = {"ref": other.ref, "commit": other.commit, "ingestion": other.ingestion}
    return report


def _ratios(after: dict, before: dict) -> dict:
    """s/page after / before, wall and CPU; None where a side has none."""
    def ratio(key: str) -> float | None:
        a, b = after.get(key), before.get(key)
        return a / b if a and b else None

    return {"s_per_page_ratio": ratio("s_per_page"), "cpu_s_per_page_ratio": ratio("cpu_s_per_page")}


def total(documents: Sequence[dict], side: str) -> dict:
    """All documents of one side together (ratios of sums, so longer documents weigh more)."""
    rows = [d[side] for d in documents if "error" not in d[side]]
    pages, seconds = sum(r["pages"] for r in rows), sum(r["seconds"] for r in rows)
    cpu = sum(r["cpu_seconds"] for r in rows)
    ref_words = sum(r["reference_words"] for r in rows)
    return {"documents": len(rows), "pages": pages, "reference_words": ref_words,
            "matched": sum(r["matched"] for r in rows),
            "share": sum(r["matched"] for r in rows) / ref_words if ref_words else None,
            "pages_under": sum(r["pages_under"] for r in rows), "fffd": sum(r["fffd"] for r in rows),
            "run_together": sum(r["run_together"] for r in rows), "seconds": seconds,
            "s_per_page": seconds / pages if pages else None, "cpu_seconds": cpu,
            "cpu_s_per_page": cpu / pages if pages else None,
            "readers": dict(sum((Counter(r["readers"]) for r in rows), Counter()).most_common())}


# -- command line ---------------------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evaluation.reading", description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, nargs="+", default=DEFAULT_DOCS, metavar="PATH",
                        help="PDFs to read (default: the papers, nist and the SEC filings in ../shared/eval)")
    # Not evaluation.harness's arguments: this file imports only the standard library (see above), and --docs
    # here names PDFs, not a folder.
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results",
                        help="folder for reading.md and reading.json")
    parser.add_argument("--baseline", metavar="REF", help="also measure the reader of this git revision")
    parser.add_argument("--json-only", metavar="FILE",
                        help="only read --docs with this checkout's reader and write the pages as JSON to FILE "
                             "('-' for stdout): no reference, no report")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.docs if not Path(p).is_file()]
    if missing:
        parser.error(f"not a file: {', '.join(missing)}")
    stems = [Path(p).stem for p in args.docs]
    if len(set(stems)) != len(stems):
        parser.error("two documents share a name; give PDFs with distinct names")
    return args


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args = parse_args(argv)
    if args.json_only:
        return write_reads(args)
    from evaluation.common import load_average, machine, now, write_results
    from evaluation.fidelity import LOW_SHARE
    from evaluation.reading_report import markdown, readme_block

    started, load = time.perf_counter(), load_average()
    report = measure(args.docs, args.baseline)
    report = {"meta": {"date": now(), "machine": machine(), "load_average": load, "load_average_end": load_average(),
                       "seconds": time.perf_counter() - started,
                       "command": "python -m evaluation.reading " + " ".join(sys.argv[1:] if argv is None else argv),
                       "docs": [str(p) for p in args.docs], "low_share": LOW_SHARE,
                       "x_tolerance": PLUMBER_X_TOLERANCE}, **report}
    report["readme"] = readme_block(report)
    text = markdown(report)
    write_results(STEM, text, report, args.out)
    print(report["readme"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
