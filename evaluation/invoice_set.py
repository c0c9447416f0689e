"""The invoice reader's evaluation set: real invoices (:mod:`evaluation.invoice_records`) drawn in layouts of each
family (:mod:`evaluation.invoice_families`), as PDFs with a text layer and as scans, each with its truth.

    python -m evaluation.invoice_set --out DIR [--per-family 50]
                                     [--families dev-a dev-b dev-c dev-d dev-e dev-f held held-b held-c
                                                 held-d held-e held-f held-g held-h held-i held-j held-k
                                                 held-l held-m held-n held-o]
                                     [--forms pdf scan] [--seed 0] [--non-invoices 20] [--records PATH]
    python -m evaluation.invoice_set --samples --out data/invoices

The first writes ``DIR/<family>/<id>.pdf`` and ``DIR/truth.jsonl``: one JSON line per file, the file's
``InvoiceReading(...).to_dict()`` (the fields, the lines with their pages, the page count) with its ``id``,
``family``, ``form``, ``file`` and the ``layout`` summary. Documents that are not invoices (family ``none``)
carry ``is_invoice`` false and their ``kind``. The held-aside families go to ``DIR/held/``, ``DIR/held-b/``,
``DIR/held-c/`` ... ``DIR/held-n/``, ``DIR/held-o/``: leave them unopened while developing the reader (see
:mod:`evaluation.invoice_layouts`). ``--samples`` writes the few files the UI shows, each with its
``<name>.truth.json``, from the committed records sample, so it needs no ``../shared``.

Which invoices go to which family is drawn from the seed, stratified: the credit notes, the invoices without a
customer, the long ones (30 lines or more) and the rest are each shuffled and dealt in turn to the families, so no
invoice is in two families while there are enough, and every family of 4 or more invoices holds some of each
kind, in proportion to the records. Each invoice's layout seed is derived from the set seed, the family and its
position; its scan uses the same seed, so an invoice's PDF and scan show the same layout.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from core.invoices import InvoiceReading
from evaluation.invoice_families import FAMILIES, layout
from evaluation.invoice_layouts import Layout
from evaluation.invoice_records import RECORDS, SAMPLE, Invoice, load_invoices
from evaluation.invoice_render import NON_INVOICE_KINDS, render_non_invoice, render_pdf, truth
from evaluation.invoice_scans import scan

__all__ = ["LONG", "assign", "build_negatives", "build_set", "kind", "main"]

LONG = 30  # lines from which an invoice counts as long
KINDS = ("credit", "no customer", "long", "short")
# The UI samples: (family, form, invoice number, layout seed); all from tests/support/invoice_records_sample.csv.
SAMPLES = (("dev-a", "pdf", "536370", 3), ("dev-b", "pdf", "C536548", 2), ("dev-c", "scan", "536365", 1),
           ("dev-d", "pdf", "536365", 19), ("dev-e", "pdf", "536365", 18), ("dev-f", "pdf", "536591", 45),
           ("held", "pdf", "536381", 4), ("held", "scan", "536558", 5))

Item = tuple[str, str, str, InvoiceReading, Layout | None, bytes]


def kind(inv: Invoice) -> str:
    """The stratum of an invoice: credit note, no customer, long, or short (in that order of precedence)."""
    if inv.is_credit:
        return "credit"
    if inv.customer is None:
        return "no customer"
    return "long" if len(inv.rows) >= LONG else "short"


def _quotas(sizes: dict[str, int], n: int) -> dict[str, int]:
    """``n`` shared out in proportion to ``sizes`` (largest remainders), at least one each when ``n`` allows."""
    present = [k for k in KINDS if sizes.get(k)]
    floor = 1 if n >= len(present) else 0
    quotas = {k: floor for k in present}
    rest, total = n - floor * len(present), sum(sizes[k] for k in present)
    shares = {k: rest * sizes[k] / total for k in present}
    for k in present:
        quotas[k] += int(shares[k])
    by_remainder = sorted(present, key=lambda k: (-(shares[k] - int(shares[k])), KINDS.index(k)))
    for k in by_remainder[:n - sum(quotas.values())]:
        quotas[k] += 1
    return quotas


def assign(invoices: Sequence[Invoice], families: Sequence[str], per_family: int, seed: int = 0
           ) -> dict[str, list[Invoice]]:
    """``per_family`` invoices for each family, stratified by :func:`kind` and dealt from seeded shuffles."""
    rng = random.Random(f"assign:{seed}")
    strata = {k: [inv for inv in invoices if kind(inv) == k] for k in KINDS}
    dealt: dict[str, dict[str, list[Invoice]]] = {f: {} for f in families}
    for k, group in strata.items():
        group = group[:]
        rng.shuffle(group)
        start = rng.randrange(len(families))
        for i, inv in enumerate(group):
            dealt[families[(start + i) % len(families)]].setdefault(k, []).append(inv)
    quotas = _quotas({k: len(v) for k, v in strata.items()}, per_family)
    out = {}
    for family in families:
        chosen = []
        for k, n in quotas.items():
            pool = dealt[family].get(k) or strata[k]  # fewer of a kind than families: share the whole stratum
            chosen += [pool[i % len(pool)] for i in range(n)]
        rng.shuffle(chosen)
        out[family] = chosen
    return out


def _seed(seed: int, family: str, k: int) -> int:
    return zlib.crc32(f"{seed}:{family}:{k}".encode()) & 0x7FFFFFFF


def build_set(records: Sequence[Invoice], families: Sequence[str] = FAMILIES, forms: Sequence[str] = ("pdf", "scan"),
              per_family: int = 50, seed: int = 0) -> Iterator[Item]:
    """``(id, family, form, truth, layout, data)`` for every file of the set, family by family, deterministically."""
    for family, invoices in assign(records, families, per_family, seed).items():
        for k, inv in enumerate(invoices):
            lay_seed = _seed(seed, family, k)
            lay = layout(lay_seed, family)
            reading, pdf = truth(inv, lay), render_pdf(inv, lay)
            for form in forms:
                data = pdf if form == "pdf" else scan(pdf, lay_seed)
                yield f"{family}-{k:03d}-{form}", family, form, reading, lay, data


def build_negatives(count: int, forms: Sequence[str] = ("pdf", "scan"), seed: int = 0) -> Iterator[Item]:
    """Documents that are not invoices (:func:`evaluation.invoice_render.render_non_invoice`), family ``none``."""
    for k in range(count):
        doc_seed = len(NON_INVOICE_KINDS) * _seed(seed, "none", k) + k % len(NON_INVOICE_KINDS)  # kinds in turn
        pdf = render_non_invoice(doc_seed)
        reading = InvoiceReading(is_invoice=False, needs_review=False, pages=1,
                                 note=NON_INVOICE_KINDS[doc_seed % len(NON_INVOICE_KINDS)])
        for form in forms:
            yield f"none-{k:03d}-{form}", "none", form, reading, None, pdf if form == "pdf" else scan(pdf, doc_seed)


def record(item: Item, file: str) -> dict:
    """The truth line of one file."""
    id_, family, form, reading, lay, _ = item
    out = {"id": id_, "family": family, "form": form, "file": file, **reading.to_dict()}
    out["layout"] = lay.summary() if lay is not None else {"kind": reading.note}
    return out


def write_set(items: Iterator[Item], out: Path) -> dict[tuple[str, str], list[float]]:
    """Write the files and ``truth.jsonl``; returns (family, form) -> [files, bytes, pages]."""
    out.mkdir(parents=True, exist_ok=True)
    sizes: dict[tuple[str, str], list[float]] = {}
    with open(out / "truth.jsonl", "w", encoding="utf-8") as f:
        for item in items:
            id_, family, form, reading, _, data = item
            path = out / family / f"{id_}.pdf"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(data)
            f.write(json.dumps(record(item, path.relative_to(out).as_posix()), ensure_ascii=False) + "\n")
            counts = sizes.setdefault((family, form), [0, 0, 0])
            counts[0] += 1
            counts[1] += len(data)
            counts[2] += reading.pages
    return sizes


def write_samples(out: Path) -> list[Path]:
    """The UI's sample invoices (:data:`SAMPLES`), each as ``<name>.pdf`` beside ``<name>.truth.json``."""
    out.mkdir(parents=True, exist_ok=True)
    invoices = {inv.number: inv for inv in load_invoices(SAMPLE)}
    written = []
    for family, form, number, lay_seed in SAMPLES:
        inv, lay = invoices[number], layout(lay_seed, family)
        pdf = render_pdf(inv, lay)
        name = f"{family}-{number}" + ("-scan" if form == "scan" else "")
        data = pdf if form == "pdf" else scan(pdf, lay_seed)
        (out / f"{name}.pdf").write_bytes(data)
        line = record((name, family, form, truth(inv, lay), lay, data), f"{name}.pdf")
        (out / f"{name}.truth.json").write_text(json.dumps(line, ensure_ascii=False, indent=1) + "\n", "utf-8")
        written.append(out / f"{name}.pdf")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-family", type=int, default=50)
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    parser.add_argument("--forms", nargs="+", default=["pdf", "scan"], choices=("pdf", "scan"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--non-invoices", type=int, default=20, help="documents that are not invoices")
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--samples", action="store_true", help="write the UI samples instead of a set")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if args.samples:
        for path in write_samples(args.out):
            print(f"{path}: {path.stat().st_size / 1024:.0f} KB")
        return 0
    if not args.records.is_file():
        print(f"no records at {args.records} (see ../shared/invoices/SOURCES.md)", file=sys.stderr)
        return 2
    records = load_invoices(args.records)
    items = build_set(records, args.families, args.forms, args.per_family, args.seed)
    sizes = write_set(itertools.chain(items, build_negatives(args.non_invoices, args.forms, args.seed)), args.out)
    print("| family | form | files | pages | MB |\n|---|---|---:|---:|---:|")
    for (family, form), (files, size, pages) in sizes.items():
        print(f"| {family} | {form} | {files} | {pages} | {size / 1e6:.1f} |")
    print(f"{sum(v[0] for v in sizes.values())} files in {args.out} in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
