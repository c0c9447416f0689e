"""The invoice evaluation counts what a bookkeeper would: a value off by a cent makes the invoice wrong, a wrong
invoice without a flag is counted as unflagged, a missed line costs itself only, and the held-aside family's
readings are never written out."""

from __future__ import annotations

import doctest
import json


import evaluation.invoice_eval
from evaluation.invoice_eval import lines_right, main, score, tally


def test_doctests():
    assert doctest.testmod(evaluation.invoice_eval).failed == 0


def _truth(**fields):
    base = {"invoice_number": "536365", "invoice_date": "2010-12-01", "customer_id": "17850",
            "country": "United Kingdom", "currency": "GBP", "subtotal": 15.3, "tax": None, "total": 15.3}
    lines = [{"code": "85123A", "description": "WHITE HANGING HEART", "quantity": 6, "unit_price": 2.55,
              "amount": 15.3, "page": 1}]
    return {"id": "dev-a-000-pdf", "family": "dev-a", "form": "pdf", "is_invoice": True,
            "fields": {**base, **fields}, "lines": lines}


def test_a_cent_off_is_wrong_and_counts_as_unflagged_unless_flagged():
    t = _truth()
    off = {**t, "fields": {**t["fields"], "total": 15.31}}
    assert not score({**off, "needs_review": False}, t).right
    assert score({**off, "needs_review": False}, t).wrong_unflagged
    assert not score({**off, "needs_review": True}, t).wrong_unflagged
    assert score({**t, "needs_review": False}, t).right


def test_an_invoice_read_as_not_one_is_flagged_and_a_letter_read_as_an_invoice_is_wrong():
    t = _truth()
    assert score({"is_invoice": False, "needs_review": True}, t).flagged
    letter = {"id": "none-000-pdf", "family": "none", "form": "pdf", "is_invoice": False}
    assert score({"is_invoice": False, "needs_review": False}, letter).right
    wrong = score({**t, "needs_review": False}, letter)
    assert not wrong.right and wrong.wrong_unflagged


def test_a_missed_line_costs_only_itself():
    lines = [{"code": str(k), "amount": k} for k in range(10)]
    assert lines_right(lines[:4] + lines[5:], lines) == 9
    assert lines_right([{"code": "x", "amount": 0}] + lines, lines) == 10


def test_description_only_errors_are_told_apart():
    t = _truth()
    typo = {**t, "lines": [{**t["lines"][0], "description": "WHITE HANGINGHEART"}], "needs_review": False}
    s = score(typo, t)
    assert not s.right and s.text_only
    rows = tally([s, score({**t, "needs_review": False}, t)])
    row = rows[("dev-a", "pdf")]
    assert row["entirely_right"] == 0.5 and row["wrong_unflagged"] == 0.5 and row["number_wrong_unflagged"] == 0.0
    assert ("developed", "pdf") in rows


def test_the_runner_reads_a_set_and_never_writes_the_held_familys_readings(tmp_path):
    from evaluation.invoice_records import SAMPLE
    from evaluation.invoice_set import main as build

    assert build(["--out", str(tmp_path / "set"), "--per-family", "2", "--families", "dev-a", "held",
                  "--forms", "pdf", "--non-invoices", "1", "--records", str(SAMPLE)]) == 0
    out = tmp_path / "res" / "invoices"
    assert main(["--set", str(tmp_path / "set"), "--out", str(out), "--workers", "1"]) == 0
    result = json.loads(out.with_suffix(".json").read_text())
    rows = {(r["layouts"], r["form"]): r for r in result["rows"]}
    assert rows[("dev-a", "pdf")]["files"] == 2 and rows[("held", "pdf")]["files"] == 2
    assert rows[("not invoices", "pdf")]["entirely_right"] == 1.0
    assert rows[("developed", "pdf")]["entirely_right"] == 1.0
    assert "| **held aside** | pdf | 2 |" in result["readme"]
    readings = [json.loads(x) for x in out.with_suffix(".readings.jsonl").read_text().splitlines()]
    assert readings and not [r for r in readings if r["id"].startswith("held")]


def test_the_scan_limit_reads_fewer_scans_than_pdfs(tmp_path):
    """``--scan-limit`` caps the scans of each family (each one is OCR'd), leaving the PDFs at ``--limit``."""
    from evaluation.invoice_records import SAMPLE
    from evaluation.invoice_set import main as build

    assert build(["--out", str(tmp_path / "set"), "--per-family", "2", "--families", "dev-a",
                  "--non-invoices", "0", "--records", str(SAMPLE)]) == 0
    out = tmp_path / "res" / "invoices"
    assert main(["--set", str(tmp_path / "set"), "--out", str(out), "--workers", "1", "--scan-limit", "1"]) == 0
    rows = {(r["layouts"], r["form"]): r for r in json.loads(out.with_suffix(".json").read_text())["rows"]}
    assert rows[("dev-a", "pdf")]["files"] == 2 and rows[("dev-a", "scan")]["files"] == 1
