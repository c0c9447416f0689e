"""evaluation.code_shape: imports inside functions, import cycles and layer violations, on a tiny made-up project
and on the real one."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from evaluation import code_shape
from evaluation.code_shape import Violation, measure, violations
from tests.support import ROOT


FAKE = {
    "settings.py": "LIMIT = 3\n",
    "ingestion/__init__.py": "",
    "ingestion/reader.py": "from typing import TYPE_CHECKING\n"
                           "from settings import LIMIT\n"
                           "from retrieval.store import Store  # upward: ingestion -> retrieval\n",
    "retrieval/__init__.py": "",
    "retrieval/store.py": "import settings\n\n\n"
                          "class Store:\n"
                          "    def answer(self):\n"
                          "        from generation import answer  # inside a function, and upward\n"
                          "        return answer.THING\n\n\n"
                          "def dump(x):\n"
                          "    import json  # inside a function, not the product's\n"
                          "    return json.dumps(x)\n",
    "generation/__init__.py": "",
    "generation/answer.py": "from typing import TYPE_CHECKING\n"
                            "from . import helper  # the cycle: answer -> helper -> answer\n\n"
                            "if TYPE_CHECKING:\n"
                            "    from pipeline import run  # type-only, upward: its own kind\n"
                            "    from retrieval.store import Store  # type-only: no cycle through store\n"
                            "THING = 1\n",
    "generation/helper.py": "from generation.answer import THING\n",
    "pipeline.py": "from generation.answer import THING\nfrom ingestion import reader\n\n\ndef run():\n    return THING\n",
    "main.py": "import pipeline\n",
    # Not the product: never counted.
    "tests/test_x.py": "def test():\n    from main import pipeline\n",
    ".venv/lib/site.py": "def f():\n    import main\n",
    "docs/conf.py": "from generation.answer import THING\n",
}


@pytest.fixture
def fake(tmp_path) -> Path:
    for rel, text in FAKE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_finds_exactly_the_upward_imports(fake):
    assert violations(fake) == [
        Violation("generation/answer.py", 5, "pipeline", "type-checking"),
        Violation("ingestion/reader.py", 3, "retrieval.store", "module"),
        Violation("retrieval/store.py", 6, "generation.answer", "function"),
    ]
    assert str(violations(fake)[1]) == "ingestion/reader.py:3 imports retrieval.store"


def test_finds_the_imports_inside_functions_and_the_cycle(fake):
    shape = measure(fake)
    assert shape["modules"]["count"] == 10
    assert shape["modules"]["largest"][0] == "retrieval/store.py"
    assert shape["modules"]["over_450"] == []
    fi = shape["function_imports"]
    assert (fi["product"], fi["all"]) == (1, 2)
    assert fi["top_product"] == [("retrieval/store.py", 1)] and fi["top_all"] == [("retrieval/store.py", 2)]
    # The relative import resolves to generation.helper; the type-only import of retrieval.store makes no cycle.
    assert shape["cycles"] == {"module_level": [["generation.answer", "generation.helper"]],
                               "with_function_level": [["generation.answer", "generation.helper"]]}
    assert shape["unlayered"] == []


def test_a_function_level_import_can_close_a_cycle(fake):
    (fake / "settings.py").write_text("def late():\n    import main\n")
    cycles = measure(fake)["cycles"]
    assert cycles["module_level"] == [["generation.answer", "generation.helper"]]
    # settings -> main -> pipeline -> ingestion.reader -> settings, and reader -> retrieval.store -> settings.
    assert cycles["with_function_level"] == [["ingestion.reader", "main", "pipeline", "retrieval.store", "settings"],
                                             ["generation.answer", "generation.helper"]]


def test_the_command_prints_a_table_and_json(fake, capsys):
    code_shape.main(["--root", str(fake), "--json"])
    out = capsys.readouterr().out
    assert "| Layer violations, module level | 1 |" in out
    assert "- retrieval/store.py:6 imports generation.answer" in out
    assert json.loads(out[out.index("\n{") + 1:])["function_imports"]["all"] == 2


def test_the_doctests_pass():
    assert doctest.testmod(code_shape).failed == 0


def test_no_layer_imports_one_above_it():
    found = violations(ROOT)
    assert [str(v) for v in found if v.where == "module"] == []
    assert [str(v) for v in found if v.where == "function"] == []
    assert found == []


def test_no_import_cycle_among_the_products_modules():
    shape = code_shape.measure(ROOT)
    assert shape["cycles"] == {"module_level": [], "with_function_level": []}
