"""Shared fixtures: real PDFs, the real bundled embedding model, real FAISS, temporary storage."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

EVAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "eval"


@pytest.fixture
def settings(tmp_path):
    from settings import Settings

    return Settings(data_dir=tmp_path / "storage", index_samples=False, _env_file=None)


@pytest.fixture
def pipeline(settings):
    from pipeline import Pipeline

    return Pipeline(settings)


@pytest.fixture
def client(pipeline):
    from fastapi.testclient import TestClient

    from main import create_app

    with TestClient(create_app(pipeline=pipeline, ui=False)) as c:
        yield c


@pytest.fixture(scope="session")
def known_pdf() -> bytes:
    from tests.pdf_factory import known_text_pdf

    return known_text_pdf()
