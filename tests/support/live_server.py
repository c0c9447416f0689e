"""The app served the way it is deployed (``uvicorn main:app --http serving:GuardedH11Protocol``) in its own process,
with settings passed through the environment."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from evaluation.common import free_port
from tests.support import ROOT



def wait_until_healthy(process: subprocess.Popen, url: str, seconds: float = 120) -> None:
    """Return once ``url``'s ``/health`` answers 200 with its UI no longer starting (the UI is built after the
    server listens); fail if ``process`` exits first or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited while starting"
        try:
            health = httpx.get(url + "/health", timeout=1)
            if health.status_code == 200 and health.json().get("ui") != "starting":
                return
            time.sleep(0.1)
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not start within {seconds:g} s")


class DeployedServer:
    """A uvicorn process on 127.0.0.1 with ``env`` added to the environment; a context manager."""

    def __init__(self, data_dir: Path, **env: str):
        self.env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "RAG_INDEX_SAMPLES": "false", "HF_HUB_OFFLINE": "1",
                    "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONPATH": str(ROOT), **env}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> DeployedServer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "main:app", "--host", "127.0.0.1", "--port", str(self.port),
             "--http", "serving:GuardedH11Protocol", "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until_healthy(self.process, self.url)
        except AssertionError:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
