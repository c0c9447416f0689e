"""The shape of the code, measured on the product's modules: every ``*.py`` under the root but ``tests/``,
``docs/``, ``.venv/``, ``test-output/``, storage-like and hidden folders (``evaluation/`` and ``ui/`` included).

1. modules: how many, their lines, the largest, those over 450 lines;
2. imports inside functions (in a ``def``, not under ``if TYPE_CHECKING:``): of product modules and all of them;
3. import cycles: strongly connected components (> 1 module) of the module-level import graph, then with the
   function-level imports too;
4. imports of a higher layer than the importer's, under :data:`LAYERS`;
5. ``--trace``: POST /query then POST /ingest on a pipeline built offline on a temporary folder, each Python call
   into a product file recorded (``sys.setprofile``): the files passed through, how often control entered the
   pipeline module from another product file, how often the calls crossed between retrieval and generation.

Run:  ``HF_HUB_OFFLINE=1 .venv/bin/python -m evaluation.code_shape [--root DIR] [--trace] [--json]``
(``--trace`` on another root: run from it with ``PYTHONPATH`` set to it). Standard library only, but ``--trace``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

SKIP_DIRS = frozenset({"tests", "docs", ".venv", "venv", "test-output", "storage", "data", "results", "node_modules",
                       "__pycache__"})
BIG = 450

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("core", "settings", "limits")),
    ("ingestion", ("ingestion",)),
    ("retrieval", ("retrieval",)),
    ("generation", ("generation",)),
    ("services", ("services", "pipeline")),
    ("front ends", ("main", "app_gradio", "cli", "ui", "serving", "api_docs", "evaluation")),
)
"""The layers, lowest first, each with the top-level names (packages or modules) it holds. A module may import its
own layer or lower ones; an import of a higher layer is a violation. ``settings.py`` and ``limits.py`` count as
``core`` while they live at the top; ``core/`` and ``services/`` count when they exist. A module whose top-level
name is in no layer is reported as unlayered and never makes a violation. Imports under ``if TYPE_CHECKING:``
are violations too (their own kind, ``type-checking``): a type-only dependency still points the wrong way."""


@dataclass(frozen=True)
class Import:
    file: str  # relative to the root, with /
    line: int
    targets: tuple[str, ...]  # the product modules it imports
    where: str  # "module", "function" or "type-checking"


@dataclass(frozen=True)
class Violation:
    file: str
    line: int
    module: str  # the higher layer's module imported
    where: str  # "module", "function" or "type-checking"

    def __str__(self) -> str:
        return f"{self.file}:{self.line} imports {self.module}"


def module_name(rel: str) -> str:
    """The dotted name of a file relative to the root.

    >>> module_name("retrieval/store.py"), module_name("ui/__init__.py"), module_name("main.py")
    ('retrieval.store', 'ui', 'main')
    """
    parts = rel[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def absolute(module: str | None, level: int, here: str, is_package: bool) -> str:
    """The absolute name of ``from <level dots><module> import ...`` written in module ``here``.

    >>> absolute("store", 1, "retrieval.searcher", False), absolute(None, 2, "generation.sub.x", False)
    ('retrieval.store', 'generation')
    >>> absolute("errors", 1, "ingestion", True), absolute("settings", 0, "main", False)
    ('ingestion.errors', 'settings')
    """
    if not level:
        return module or ""
    parts = here.split(".") if is_package else here.split(".")[:-1]
    parts = parts[:len(parts) - level + 1]
    return ".".join(parts + ([module] if module else []))


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of a module's layer, None when it is in none.

    >>> layer_of("retrieval.store"), layer_of("settings"), layer_of("evaluation.bench"), layer_of("conftest")
    (2, 0, 5, None)
    """
    top = module.split(".")[0]
    return next((i for i, (_, names) in enumerate(LAYERS) if top in names), None)


def product_files(root: Path) -> dict[str, str]:
    """Module name -> file relative to the root, for every product module."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".") and "storage" not in d)
        for name in sorted(files):
            if name.endswith(".py"):
                rel = (Path(folder) / name).relative_to(root).as_posix()
                found[module_name(rel)] = rel
    return found


def imports_in(tree: ast.Module, here: str, is_package: bool, modules: set[str], rel: str) -> list[Import]:
    """Every import statement of a module, with the product modules it names and where it stands."""
    found: list[Import] = []

    def targets(node: ast.Import | ast.ImportFrom) -> tuple[str, ...]:
        out = []
        if isinstance(node, ast.Import):
            for parts in (alias.name.split(".") for alias in node.names):
                out += [next((m for i in range(len(parts), 0, -1) if (m := ".".join(parts[:i])) in modules), None)]
        else:
            base = absolute(node.module, node.level, here, is_package)
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                out.append(full if full in modules else base if base in modules else None)
        return tuple(dict.fromkeys(m for m in out if m and m != here))

    def walk(nodes, where: str) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(Import(rel, node.lineno, targets(node), where))
            elif isinstance(node, ast.If) and where == "module" and "TYPE_CHECKING" in ast.unparse(node.test):
                walk(node.body, "type-checking")
                walk(node.orelse, where)
            else:
                inner = "function" if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else where
                walk(ast.iter_child_nodes(node), inner)

    walk(tree.body, "module")
    return found


def scan(root: Path) -> tuple[dict[str, str], dict[str, int], list[Import]]:
    """Product modules (name -> file), their line counts (by file) and all their imports."""
    modules = product_files(root)
    lines, imports = {}, []
    for name, rel in modules.items():
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        lines[rel] = len(text.splitlines())
        imports += imports_in(ast.parse(text, rel), name, rel.endswith("__init__.py"), set(modules), rel)
    return modules, lines, imports


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node, each sorted, largest first (Tarjan, iterative).

    >>> cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}})
    [['a', 'b', 'c']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack, on_stack, work, out = [], set(), [], []

    def enter(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        work.append((node, iter(sorted(graph.get(node, ())))))

    for start in sorted(graph):
        if start not in index:
            enter(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    enter(nxt)
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while not component or component[-1] != node:
                        component.append(stack.pop())
                        on_stack.discard(component[-1])
                    if len(component) > 1:
                        out.append(sorted(component))
    return sorted(out, key=lambda c: (-len(c), c))


def violations(root: Path | str) -> list[Violation]:
    """Every import of a higher layer's module (see :data:`LAYERS`), in file and line order."""
    modules, _, imports = scan(Path(root))
    by_file = {rel: name for name, rel in modules.items()}
    found = []
    for imp in imports:
        mine = layer_of(by_file[imp.file])
        for target in imp.targets:
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                found.append(Violation(imp.file, imp.line, target, imp.where))
    return sorted(found, key=lambda v: (v.file, v.line, v.module))


def measure(root: Path) -> dict:
    modules, lines, imports = scan(root)
    by_file = {rel: name for name, rel in modules.items()}
    inner = [i for i in imports if i.where == "function"]
    own, every = Counter(i.file for i in inner if i.targets), Counter(i.file for i in inner)
    graphs: dict[str, dict[str, set[str]]] = {"module_level": {m: set() for m in modules}}
    graphs["with_function_level"] = {m: set() for m in modules}
    for imp in imports:
        if imp.where != "type-checking":
            for key in ("module_level", "with_function_level")[imp.where == "function":]:
                graphs[key][by_file[imp.file]].update(imp.targets)
    found = violations(root)
    largest = max(lines.items(), key=lambda kv: kv[1], default=("", 0))
    return {
        "root": str(root),
        "modules": {"count": len(lines), "lines": sum(lines.values()), "largest": list(largest),
                    f"over_{BIG}": sorted(([f, n] for f, n in lines.items() if n > BIG), key=lambda x: -x[1])},
        "function_imports": {"product": sum(own.values()), "all": sum(every.values()),
                             "top_product": own.most_common(5), "top_all": every.most_common(5)},
        "cycles": {key: cycles(graph) for key, graph in graphs.items()},
        "layer_violations": {where: [str(v) for v in found if v.where == where]
                             for where in ("module", "function", "type-checking")},
        "unlayered": sorted(m for m in modules if layer_of(m) is None),
    }


# -- --trace: one question and one upload, call by call --------------------------------------------------------
POLICY = ("Remote work policy\n\nEmployees may work from home up to three days per week once their probation period "
          "has ended. Remote days must be agreed with the team lead at least one week in advance.\n\nEquipment. The "
          "company lends each remote employee a laptop and a headset; a second monitor is reimbursed up to 150 euros."
          "\n\nSecurity. Company documents may only be opened on company laptops, over the company VPN.")
QUESTION = "How many days per week may employees work from home?"
HANDBOOK = ("Travel handbook\n\nTrain travel is preferred for trips under five hours. Flights need the approval "
            "of a director.\n\nHotel costs are reimbursed up to 120 euros a night in Europe.")


def crossings(files: list[str], a: str = "retrieval", b: str = "generation") -> int:
    """How often consecutive calls switch between packages ``a`` and ``b``, calls elsewhere dropped.

    >>> crossings(["retrieval/x.py", "main.py", "generation/y.py", "generation/y.py", "retrieval/x.py"])
    2
    """
    seq = [top for f in files if (top := f.split("/")[0]) in (a, b)]
    return sum(x != y for x, y in pairwise(seq))


def _import_first(*names: str):
    import importlib

    for name in names:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name.split(".")[0] and e.name != name:
                raise
    raise ModuleNotFoundError(f"none of {names}")


def trace(root: Path) -> dict:
    """POST /query, then POST /ingest, on an app built around a fresh offline pipeline, each call into a product
    file recorded with its thread and its caller's file."""
    import inspect
    import tempfile
    import threading

    root = root.resolve()
    sys.path.insert(0, str(root))
    os.environ["HF_HUB_OFFLINE"] = "1"
    for key in ("GROQ_API_KEY", "RAG_GROQ_API_KEY", "RAG_API_KEY", "RAG_LLM_API_KEY", "RAG_LLM_BASE_URL",
                "RAG_LLM_PROVIDER"):  # no LLM, no API key: offline and open
        os.environ.pop(key, None)
    modules = product_files(root)
    known = {str(root / rel): rel for rel in modules.values() if root / rel != Path(__file__).resolve()}
    pipeline_file = next(rel for m, rel in modules.items() if m == "pipeline" or m.endswith(".pipeline"))
    cache: dict[str, str | None] = {}
    events: list[tuple[int, str, str | None]] = []
    recording = [False]

    def product(filename: str) -> str | None:
        if filename not in cache:
            cache[filename] = known.get(os.path.abspath(filename))
        return cache[filename]

    def profile(frame, event, arg):
        if event == "call" and recording[0] and (f := product(frame.f_code.co_filename)):
            caller = product(frame.f_back.f_code.co_filename) if frame.f_back else None
            events.append((threading.get_ident(), f, caller))

    threading.setprofile(profile)  # before any thread starts: the test client's and the worker threads get it
    sys.setprofile(profile)
    try:
        Settings = _import_first("settings", "core.settings").Settings
        Pipeline = _import_first("pipeline", "services.pipeline").Pipeline
        from fastapi.testclient import TestClient

        front = _import_first("main")
        with tempfile.TemporaryDirectory() as tmp:
            options = {"_env_file": None} if "_env_file" in inspect.signature(Settings).parameters else {}
            pipeline = Pipeline(Settings.preset("evaluation", data_dir=Path(tmp), parse_isolated=False, **options))
            pipeline.ingest(POLICY.encode(), "policy.txt")
            app = front.create_app(pipeline=pipeline, **(
                {"ui": False} if "ui" in inspect.signature(front.create_app).parameters else {}))
            out = {}
            with TestClient(app) as client:
                for label, send in (
                        ("question", lambda: client.post("/query", json={"question": QUESTION})),
                        ("upload", lambda: client.post(
                            "/ingest", files={"file": ("handbook.txt", HANDBOOK.encode(), "text/plain")}))):
                    events.clear()
                    recording[0] = True
                    response = send()
                    recording[0] = False
                    threads = {t for t, _, _ in events}
                    out[label] = {
                        "status": response.status_code,
                        "answer": (response.json().get("answer") or "")[:80] if response.is_success else None,
                        "calls": len(events),
                        "files": sorted({f for _, f, _ in events}),
                        "pipeline_entries": sum(f == pipeline_file and c is not None and c != pipeline_file
                                                for _, f, c in events),
                        "retrieval_generation_crossings": sum(crossings([f for t, f, _ in events if t == thread])
                                                              for thread in threads)}
    finally:
        threading.setprofile(None)
        sys.setprofile(None)
    return out


def markdown(shape: dict) -> str:
    m, fi, cy, lv = shape["modules"], shape["function_imports"], shape["cycles"], shape["layer_violations"]
    joined = lambda items: ", ".join(items) or "none"
    counted = lambda pairs: joined(f"{f} ({n})" for f, n in pairs)
    chains = lambda found: f"{len(found)}: " + joined(" ↔ ".join(c) for c in found)
    rows = [("Product modules", m["count"]), ("Lines", m["lines"]),
            ("Largest module", f"{m['largest'][0]} ({m['largest'][1]})"),
            (f"Modules over {BIG} lines", f"{len(m[f'over_{BIG}'])}: {counted(m[f'over_{BIG}'])}"),
            ("Imports inside functions, of product modules", fi["product"]),
            ("Imports inside functions, all", fi["all"]),
            ("Top files, product imports inside functions", counted(fi["top_product"])),
            ("Top files, all imports inside functions", counted(fi["top_all"])),
            ("Import cycles, module level", chains(cy["module_level"])),
            ("Import cycles, with function-level imports", chains(cy["with_function_level"])),
            ("Layer violations, module level", len(lv["module"])),
            ("Layer violations, function level", len(lv["function"])),
            ("Layer violations, under TYPE_CHECKING", len(lv["type-checking"])),
            ("Unlayered modules", joined(shape["unlayered"]))]
    for label, t in shape.get("trace", {}).items():
        rows += [(f"Trace {label}: status, calls", f"{t['status']}, {t['calls']} calls into product files"),
                 (f"Trace {label}: product files", f"{len(t['files'])}: {joined(t['files'])}"),
                 (f"Trace {label}: entries into the pipeline module", t["pipeline_entries"]),
                 (f"Trace {label}: retrieval ↔ generation crossings", t["retrieval_generation_crossings"])]
    lines = [f"Code shape of `{shape['root']}`", "", "| Measure | Value |", "|---|---|"]
    lines += [f"| {k} | {str(v).replace('|', '/')} |" for k, v in rows]
    for where, found in lv.items():
        if found:
            lines += ["", f"Layer violations ({where}):", *(f"- {v}" for v in found)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--trace", action="store_true", help="follow one question and one upload (slow)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    shape = measure(args.root.resolve())
    if args.trace:
        shape["trace"] = trace(args.root)
    print(markdown(shape))
    if args.json:
        print(json.dumps(shape, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
