"""The reason registry against everything that can raise a warning: no code without its texts, no dead code."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

import companion
from companion.engine import RULESETS
from companion.tracker.display import BOARD_PROBLEMS, CAMERA_PROBLEMS
from companion.vocab import reasons
from companion.vocab.reasons import REASONS, TITLE_MAX, Reason, Source, warning_id, warning_text

PACKAGE = Path(companion.__file__).parent
DOCS = PACKAGE.parent / "docs" / "reasons.md"
EMITTERS = ("Violation", "Warning", "_warn")
"""The calls that raise a warning: the engine's violations, the tracker's warnings."""


def emitted(folder: Path) -> dict[Reason, list[str]]:
    """Every ``Reason.X`` handed to an emitting call in the package's modules, with where."""
    found: dict[Reason, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in EMITTERS:
                continue
            for arg in node.args:
                if (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)
                        and arg.value.id in ("Reason", "TrackerReason")):
                    found.setdefault(Reason[arg.attr], []).append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


ENGINE = emitted(PACKAGE / "engine")
TRACKER = emitted(PACKAGE / "tracker")
PROBLEMS = {*CAMERA_PROBLEMS.values(), *BOARD_PROBLEMS.values()}


def _of(source: Source | Iterable[Source]) -> set[Reason]:
    sources = {source} if isinstance(source, Source) else set(source)
    return {code for code, entry in REASONS.items() if entry.source in sources}


def test_the_scan_finds_what_the_engine_and_tracker_raise() -> None:
    # A scan that found nothing would make the tests below pass for nothing.
    assert Reason.COLOR_RULE in ENGINE and Reason.GOLD_NEW_COLUMN in ENGINE  # both rulesets' modules
    assert Reason.MOVED_CARD in TRACKER and Reason.UNDONE in TRACKER


@pytest.mark.parametrize("code", sorted(set(ENGINE) | set(TRACKER) | PROBLEMS))
def test_every_code_that_can_be_raised_has_a_title_a_screen_text_and_a_fix(code: Reason) -> None:
    entry = REASONS.get(code)
    assert entry is not None, f"{code} is raised but not in the registry"
    assert entry.title and entry.what and entry.fix and entry.about, f"{code}: a text is missing"
    assert entry.title == entry.title.upper() and len(entry.title) <= TITLE_MAX


def test_every_code_has_an_entry() -> None:
    assert set(REASONS) == set(Reason)


def test_each_source_raises_exactly_its_codes() -> None:
    assert set(ENGINE) == _of(Source.ENGINE), "engine codes in the registry and in the engine's violations differ"
    assert set(TRACKER) == _of(Source.TRACKER), "tracker codes in the registry and in the tracker differ"
    assert _of((Source.APP, Source.VISION)) == PROBLEMS, "problem codes and the camera/board statuses differ"


def test_every_rulesets_precedence_names_only_engine_codes() -> None:
    precedences = {name: set(game.rules.precedence) for name, game in RULESETS.items()}
    for name, codes in precedences.items():
        assert codes <= _of(Source.ENGINE), name
    assert set().union(*precedences.values()) == _of(Source.ENGINE)


def test_no_module_spells_a_reason_code_but_the_registry() -> None:
    codes = {code.value for code in Reason}
    copies = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == Path(reasons.__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in codes:
                copies.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    assert not copies, "second copies of reason codes: " + ", ".join(copies)


def test_texts_are_filled_from_the_warnings_cards_zone_and_player() -> None:
    text = warning_text(Reason.COLOR_RULE, ["P07"], "m2.field.p1", player=0)
    assert text == reasons.WarningText("RULE OF COLOR", "Purple is in another area of M2.",
                                       "Take back the purple card P07")
    assert warning_text(Reason.NOT_YOUR_TURN, ["G01"], "m1.mountain", player=1).what == "It is P1's turn, not P2's."
    moved = warning_text(Reason.MOVED_CARD, ["K01", "K02", "K03"], "p2.river.4")
    assert moved.what == "3 black cards moved to P2 river 4."
    assert warning_text(Reason.RIVER_SPACE, ["R02"], "p1.river.3", space=2).fix == "Move to space 2"


def test_an_unknown_code_from_an_old_journal_still_has_a_title() -> None:
    assert warning_text("hand-over-zone").title == "HAND OVER ZONE"


def test_warning_ids_name_the_frame_code_and_cards() -> None:
    assert warning_id(812, Reason.COLOR_RULE, ("R04",)) == "812-color-rule-R04"
    assert warning_id(812, Reason.COLOR_RULE, ("R04",)) != warning_id(812, Reason.COLOR_RULE, ("R05",))


def test_the_docs_table_is_the_registry() -> None:
    assert DOCS.read_text(encoding="utf-8") == reasons.markdown(), (
        "docs/reasons.md differs from the registry: python -m companion.vocab.reasons > docs/reasons.md")
