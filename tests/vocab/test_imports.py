"""The vocabularies import nothing of the product, so the pure engine and vision may both use them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import companion.vocab

FOLDER = Path(companion.vocab.__file__).parent


def test_vocab_modules_import_only_the_standard_library_and_each_other() -> None:
    imported = set()
    for path in FOLDER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    outside = {name for name in imported if not name.startswith("companion.vocab")
               and name.split(".")[0] not in sys.stdlib_module_names and name != "__future__"}
    assert imported and not outside, f"companion/vocab imports {sorted(outside)}"
