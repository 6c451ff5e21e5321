"""The dependency direction of architecture.md: engine and vision know nothing of each other, and
nothing the product ships to the table reaches into the simulator (a test and bench tool)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion

PACKAGE = Path(companion.__file__).parent


def imports_of(folder: str) -> set[str]:
    """Every companion module imported anywhere under companion/<folder>."""
    found = set()
    for path in (PACKAGE / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("companion.")}


@pytest.mark.parametrize(("folder", "forbidden"), [
    ("engine", ("companion.vision", "companion.tracker", "companion.sim", "companion.markers", "companion.ui")),
    ("vision", ("companion.engine", "companion.tracker", "companion.sim", "companion.markers", "companion.ui")),
    ("markers", ("companion.sim",)),
    ("tracker", ("companion.sim",)),
])
def test_a_layer_imports_nothing_it_must_not_know(folder: str, forbidden: tuple[str, ...]) -> None:
    wrong = sorted(name for name in imports_of(folder) if name.startswith(forbidden))
    assert not wrong, f"companion/{folder} imports {wrong}"
