"""The UI's Invoices tab: read a sample invoice or an upload, see each value in its box on the page and beside the
record it was drawn from, failed checks first.

Everything read from a PDF (and every record value) is HTML-escaped before it is shown. An uploaded file is read
once and deleted: nothing of it is kept. The boxes are drawn on the page image here (one image per page, whatever
the number of values), each labelled with the value read: blue, or red for a value a failed check names.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import gradio as gr
from gradio.utils import get_upload_folder
from PIL import Image, ImageDraw

from core.errors import IngestError
from core.invoices import FIELDS
from ingestion.upload_checks import discard
from ui.render import esc

log = logging.getLogger(__name__)

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "invoices"
ZOOM = 1.5  # page pixels per PDF point
MAX_PAGES = 20  # pages drawn for the page view; the reading covers every page
OK_COLOR, FAILED_COLOR = (9, 105, 218), (209, 36, 47)
BAD = ' class="bad"'
LINE_KEYS = ("code", "description", "quantity", "unit_price", "amount", "page")
CSS = """
.invoice table {font-size:0.85em; border-collapse:collapse; margin:6px 0; width:100%;}
.invoice table.lines td:nth-child(3) {min-width:18em;}
.invoice td, .invoice th {border:1px solid #d0d7de; padding:2px 6px; overflow-wrap:anywhere;}
.invoice .bad {background:#ffebe9;} .invoice .verdict {font-weight:bold; padding:6px 0;}
"""
_LINE_CHECK = re.compile(r"^line (\d+):")


def sample_choices(folder: Path = SAMPLES) -> list[tuple[str, str]]:
    """(label, file name) of every sample invoice, the developed layouts first.

    >>> labels = [label for label, _ in sample_choices()]
    >>> labels[0].startswith("Developed layout") and any("Held-aside layout, scan" in x for x in labels)
    True
    """
    out = []
    for truth in sorted(folder.glob("*.truth.json")):
        record = json.loads(truth.read_text(encoding="utf-8"))
        family = record["family"]
        kind = "Held-aside layout" if family == "held" else f"Developed layout ({family})"
        form = "scan" if record["form"] == "scan" else "PDF"
        out.append((f"{kind}, {form}: invoice {record['fields']['invoice_number']}", record["file"]))
    return sorted(out, key=lambda c: (c[0].startswith("Held"), c[0]))


def _shown(value) -> str:
    return "–" if value is None else esc(value)


def _cells(read, record, has_record: bool) -> str:
    if not has_record:
        return f"<td>{_shown(read)}</td>"
    ok = read == record  # JSON values: 90 == 90.0
    return f"<td{'' if ok else BAD}>{_shown(read)}</td><td>{_shown(record)}</td><td>{'✓' if ok else '✗'}</td>"


def _cell(read, record, has_record: bool) -> str:
    """One line value in one cell: the value read, and with a record ✓, or ✗ and the record's value."""
    if not has_record:
        return f"<td>{_shown(read)}</td>"
    if read == record:
        return f"<td>{_shown(read)} ✓</td>"
    return f"<td{BAD}>{_shown(read)} ✗<br><small>record: {_shown(record)}</small></td>"


def reading_html(reading: dict, record: dict | None = None) -> str:
    """The verdict, the checks (failed first), the fields and the line items; each value read beside the record's
    when the record is known (a sample)."""
    if not reading["is_invoice"]:
        return f"<div class='invoice'><div class='verdict'>Not an invoice.</div>{esc(reading.get('note') or '')}</div>"
    failed = [c for c in reading["checks"] if not c["passed"]]
    verdict = (f"Needs review: {len(failed)} check(s) failed." if reading["needs_review"] else
               f"Every check passed ({len(reading['checks'])}).")
    parts = [f"<div class='invoice'><div class='verdict'>{esc(verdict)}</div>", "<table><tr><th>check</th>"
             "<th>result</th><th>detail</th></tr>"]
    for c in sorted(reading["checks"], key=lambda c: c["passed"]):
        parts.append(f"<tr{'' if c['passed'] else BAD}><td>{esc(c['name'])}</td>"
                     f"<td>{'passed' if c['passed'] else 'FAILED'}</td><td>{esc(c['detail'])}</td></tr>")
    parts.append("</table>")
    has = record is not None
    head = "<th>read</th><th>record</th><th></th>" if has else "<th>read</th>"
    parts.append(f"<table><tr><th>field</th>{head}</tr>")
    wanted = (record or {}).get("fields", {})
    for name in FIELDS:
        parts.append(f"<tr><td>{esc(name)}</td>{_cells(reading['fields'].get(name), wanted.get(name), has)}</tr>")
    parts.append("</table>")
    truth_lines = (record or {}).get("lines", [])
    parts.append("<table class='lines'><tr><th>#</th>" + "".join(f"<th>{esc(k)}</th>" for k in LINE_KEYS) + "</tr>")
    for n in range(max(len(reading["lines"]), len(truth_lines) if has else 0)):
        line = reading["lines"][n] if n < len(reading["lines"]) else {}
        want = truth_lines[n] if n < len(truth_lines) else {}
        parts.append(f"<tr><td>{n + 1}</td>" + "".join(_cell(line.get(k), want.get(k), has) for k in LINE_KEYS)
                     + "</tr>")
    parts.append("</table></div>")
    return "".join(parts)


def _label(key: str, reading: dict) -> str:
    if key.startswith("lines["):
        n, name = int(key[6:key.index("]")]), key.split(".", 1)[1]
        return f"line {n + 1} {name}: {reading['lines'][n].get(name)}"
    name = key.removesuffix(".label")
    value = reading["fields"].get(name)
    return f"{name}: {'not read' if value is None else value}"


def _failed(key: str, reading: dict) -> bool:
    """Whether a failed check names the value ``key`` (its line, or its field)."""
    for c in reading["checks"]:
        if c["passed"]:
            continue
        m = _LINE_CHECK.match(c["name"])
        if key.startswith("lines[") and m and int(key[6:key.index("]")]) + 1 == int(m[1]):
            return True
        if not key.startswith("lines[") and key.split(".")[0].replace("_", " ") in c["name"].lower():
            return True
    return False


def annotated_pages(data: bytes, reading: dict) -> list[tuple[Image.Image, list[tuple[tuple[int, ...], str]]]]:
    """Each page (up to :data:`MAX_PAGES`) as an image with every value's box (pixels: PDF points x :data:`ZOOM`)
    and its label."""
    import pymupdf

    pages = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for index in range(min(doc.page_count, MAX_PAGES)):
            pix = doc[index].get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), alpha=False)
            image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
            boxes = [(tuple(round(v * ZOOM) for v in b["bbox"]), _label(key, reading))
                     for key, b in reading.get("boxes", {}).items() if b["page"] == index + 1]
            pages.append((image, boxes))
    return pages


def drawn(page: tuple[Image.Image, list], reading: dict) -> Image.Image:
    """The page with its boxes drawn and each value read written just above its box."""
    image, boxes = page
    out = image.copy()
    pen = ImageDraw.Draw(out)
    labels = {_label(k, reading): k for k in reading.get("boxes", {})}  # labels are unique: they name the value
    for box, label in boxes:
        color = FAILED_COLOR if _failed(labels.get(label, ""), reading) else OK_COLOR
        pen.rectangle(box, outline=color, width=2)
        pen.text((box[0], max(0, box[1] - 11)), label.split(": ", 1)[-1], fill=color)
    return out


def read_invoice(pipeline, data: bytes, name: str, record: dict | None):
    """(HTML, pages, the first page drawn, the page number) for one file."""
    try:
        reading = pipeline.invoices.extract(data, name).to_dict()
    except IngestError as exc:
        return f"<div class='invoice'>Not read: {esc(exc.message)}</div>", [], None, gr.update(maximum=1, value=1)
    except Exception:  # never shown: the log has it
        log.exception("invoice %s could not be read", name)
        return ("<div class='invoice'>Not read: the file could not be read. Try another file.</div>", [], None,
                gr.update(maximum=1, value=1))
    pages = [drawn(p, reading) for p in annotated_pages(data, reading)] if reading["is_invoice"] else []
    return (reading_html(reading, record), pages, pages[0] if pages else None,
            gr.update(maximum=max(len(pages), 1), value=1))


def build_invoice_tab(pipeline, sessions, session) -> None:
    """The tab's components and events, inside the caller's ``gr.Tab``; ``sessions`` (:class:`ui.library.Sessions`)
    counts each browser's invoices read (``session`` is its ``gr.State``) against its hourly quota."""
    gr.HTML(f"<style>{CSS}</style>", padding=False)
    gr.Markdown("Read an invoice into its fields, line items and arithmetic checks. Pick a sample (a layout the "
                "reader was developed on, or a held-aside one) or upload a PDF; uploads are read and deleted.")
    with gr.Row():
        sample = gr.Dropdown(sample_choices(), label="Sample invoice", elem_id="invoice-sample", scale=3)
        read_sample = gr.Button("Read sample", variant="primary", elem_id="invoice-read-sample", scale=1)
        upload = gr.File(label="Or upload an invoice PDF", file_types=[".pdf"], elem_id="invoice-upload", scale=2)
    pages = gr.State([])
    page = gr.Number(1, minimum=1, maximum=1, precision=0, label="Page", elem_id="invoice-page")
    image = gr.Image(label="Each value read, in its box (red: a failed check names it)", type="pil",
                     interactive=False, elem_id="invoice-image", buttons=["fullscreen"], height=900)
    result = gr.HTML(elem_id="invoice-result")

    def refused(state) -> tuple | None:
        message = sessions.invoice_refused(state)
        if message is None:
            return None
        return f"<div class='invoice'>Not read: {esc(message)}</div>", [], None, gr.update(maximum=1, value=1)

    def on_sample(choice, state):
        state = state or sessions.new()
        if not choice or Path(choice).name != choice or not (SAMPLES / choice).is_file():
            return "<div class='invoice'>Pick a sample first.</div>", [], None, gr.update(), state
        out = refused(state)
        if out is None:
            record = json.loads((SAMPLES / choice).with_suffix(".truth.json").read_text(encoding="utf-8"))
            out = read_invoice(pipeline, (SAMPLES / choice).read_bytes(), choice, record)
        return (*out, state)

    def on_upload(file, state):
        state = state or sessions.new()
        if not file:
            return gr.update(), gr.update(), gr.update(), gr.update(), None, state
        path = Path(str(file))
        try:
            out = refused(state) or read_invoice(pipeline, path.read_bytes(), path.name, None)
        finally:
            discard(str(path), get_upload_folder())  # not kept
        return (*out, None, state)

    outputs = [result, pages, image, page]
    read_sample.click(on_sample, inputs=[sample, session], outputs=[*outputs, session], api_name="invoice_sample",
                      concurrency_limit=2, concurrency_id="invoice")
    upload.upload(on_upload, inputs=[upload, session], outputs=[*outputs, upload, session],
                  api_name="invoice_upload", concurrency_limit=2, concurrency_id="invoice")
    page.change(lambda p, n: p[int(n) - 1] if p and n and 0 < n <= len(p) else None, inputs=[pages, page],
                outputs=[image], api_name=False)
