"""``docker-compose.yml`` checked statically (no Docker engine here): app and workers from this repository's image
over one PostgreSQL with pgvector, each reaching it with the database's own user, password and name."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import yaml

from tests.support import ROOT


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_database_is_postgresql_with_pgvector_and_waited_for(compose):
    db = compose["services"]["db"]
    assert re.fullmatch(r"pgvector/pgvector:pg1[5-9]", db["image"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"]), "the data would die with the container"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    for name in ("app", "worker"):
        assert compose["services"][name]["depends_on"]["db"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", ["app", "worker"])
def test_app_and_worker_reach_the_database_as_it_is_configured(compose, name):
    service, db = compose["services"][name], compose["services"]["db"]["environment"]
    url = urlsplit(service["environment"]["RAG_DATABASE_URL"])
    assert (url.scheme, url.hostname, url.port) == ("postgresql", "db", 5432)
    assert url.username == db["POSTGRES_USER"] and url.path == f"/{db['POSTGRES_DB']}"
    assert url.password == db["POSTGRES_PASSWORD"]  # the same ${POSTGRES_PASSWORD:-...} on both sides
    assert service["build"] == "." and (ROOT / "Dockerfile").is_file()


def test_workers_run_the_worker_command_and_the_app_serves_its_port(compose):
    worker, app = compose["services"]["worker"], compose["services"]["app"]
    assert worker["command"] == ["python", "cli.py", "worker"]
    assert worker["deploy"]["replicas"] >= 2
    dockerfile = (ROOT / "Dockerfile").read_text()
    port = re.search(r"^EXPOSE (\d+)", dockerfile, re.M).group(1)
    assert f"{port}:{port}" in app["ports"]
    assert "command" not in app  # the image's CMD: uvicorn main:app


def test_the_worker_command_exists():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "cli.py", "worker", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "usage" in done.stdout
