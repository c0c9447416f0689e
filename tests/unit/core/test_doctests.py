"""Every example in a docstring of the product runs and shows what it says (the examples are part of the
documentation a newcomer reads first)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from tests.support import ROOT

PACKAGES = ("core", "ingestion", "retrieval", "generation", "services", "ui", "evaluation")


def modules_with_examples() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                names.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    for path in sorted(ROOT.glob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            names.append(path.stem)
    return names


def test_the_examples_are_found():
    assert {"core.types", "ingestion.blocks", "retrieval.tokenize", "generation.answer_fit"} <= set(
        modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_examples_run_as_written(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"
