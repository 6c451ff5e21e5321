"""Zone names: built and read in one place, and every layout's zones have a name a player can read."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import companion
from companion.vocab import zones
from companion.vocab.zones import ZONE_NAMES, ZoneRef, describe_zone, parse_zone, screen_zone

PACKAGE = Path(companion.__file__).parent
LAYOUTS = sorted((PACKAGE.parent / "calibration" / "layouts").glob("*.json"))
SPELLED = re.compile(r"^(m[12]|p[12])\.(mountain|field|river|cup|reveal)")
OWN_VOCABULARY = {PACKAGE / "vocab" / "zones.py", PACKAGE / "engine" / "rules.py"}
"""The registry itself, and the engine's position names (``Rules.zones``: hands, rivers, scores)."""


def layout_zones() -> set[str]:
    return {name for path in LAYOUTS for name in json.loads(path.read_text(encoding="utf-8"))["zones"]}


def test_builders_and_parser_agree_on_every_zone() -> None:
    rebuilt = []
    for name in ZONE_NAMES:
        ref = parse_zone(name)
        if ref.kind == "mountain":
            rebuilt.append(zones.mountain(ref.mandala or 0))
        elif ref.kind == "field":
            rebuilt.append(zones.field(ref.mandala or 0, ref.player or 0))
        elif ref.kind == "river":
            rebuilt.append(zones.river(ref.player or 0, ref.space or 0))
        elif ref.kind in ("cup", "reveal"):
            rebuilt.append(getattr(zones, ref.kind)(ref.player or 0))
        else:
            rebuilt.append(ref.kind)
    assert tuple(rebuilt) == ZONE_NAMES


def test_a_name_it_does_not_know_parses_as_itself() -> None:
    assert parse_zone("start-row") == ZoneRef("start-row")
    assert screen_zone("start-row") == "start-row" and describe_zone("start-row") == "start-row"


@pytest.mark.parametrize("name", sorted(set(ZONE_NAMES) | layout_zones()))
def test_every_zone_of_every_shipped_layout_has_a_short_name_for_the_screen(name: str) -> None:
    assert 0 < len(screen_zone(name)) <= 12
    assert describe_zone(name)


def test_no_module_spells_a_zone_name_but_the_registry() -> None:
    copies = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in OWN_VOCABULARY:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else (
                ast.unparse(node) if isinstance(node, ast.JoinedStr) else "")
            if SPELLED.match(text) or re.search(r"}\.(mountain|field\.|river\.|cup|reveal)", text):
                copies.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)} {text}")
    assert not copies, "zone names spelled outside companion/vocab/zones.py: " + ", ".join(copies)
