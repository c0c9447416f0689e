"""What the tests share: the fake LLM server (``fake_groq``), the live app server (``live_server``), the PDF
factories (``pdf_factory``, ``scan_factory``, ``hostile_factory``), reading an answer's stream (``streams``), and
where things are."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository
SHARED = ROOT.parent / "shared"  # the evaluation data beside it (absent on CI)
