"""The notice and calibration templates against the code that words them: a new or reworded text fails here.

The tracker writes its notices, and calibrate its short fixes, in English;
the screens take those texts apart by the templates of
:mod:`companion.vocab.notices` and :mod:`companion.vocab.calibration` to
word them in the players' language. So every text they can make must come
from a template there.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import companion
from companion.engine import Claim
from companion.tracker.tracker import short_event
from companion.vocab import calibration, notices
from companion.vocab.colors import COLOR_NAMES
from companion.vocab.reasons import Reason

PACKAGE = Path(companion.__file__).parent


def _shape(node: ast.expr) -> str:
    """A text argument as a template with its fields unnamed: f"{n} moves" -> "{} moves"; a free text "{}"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}").format()
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)  # type: ignore[misc]
    return "{}"


def _unnamed(template: str) -> str:
    return "".join(literal + ("{}" if name is not None else "")
                   for literal, name, _, _ in string.Formatter().parse(template))


def _calls(folder: Path, name: str) -> list[tuple[str, list[ast.expr]]]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == name:
                found.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", node.args))
    return found


NOTICE_CALLS = _calls(PACKAGE / "tracker", "Notice")
PROBLEM_CALLS = _calls(PACKAGE / "app", "Problem")


def test_the_scans_find_the_calls() -> None:
    assert len([c for c in NOTICE_CALLS if c[1] and isinstance(c[1][0], ast.Constant)]) >= 5
    assert len(PROBLEM_CALLS) >= 10


@pytest.mark.parametrize("where, args", [c for c in NOTICE_CALLS if c[1] and isinstance(c[1][0], ast.Constant)],
                         ids=[c[0] for c in NOTICE_CALLS if c[1] and isinstance(c[1][0], ast.Constant)])
def test_every_notice_the_tracker_makes_has_its_template(where: str, args: list[ast.expr]) -> None:
    title = args[0].value  # type: ignore[attr-defined]
    entry = notices.NOTICES.get(title)
    assert entry is not None, f"{where}: notice {title!r} is not in companion/vocab/notices.py"
    assert _shape(args[1]) == _unnamed(entry.text), f"{where}: {title!r} is worded otherwise than its template"


@pytest.mark.parametrize("where, args", PROBLEM_CALLS, ids=[c[0] for c in PROBLEM_CALLS])
def test_every_calibration_problem_has_its_line_and_short_fix_template(where: str, args: list[ast.expr]) -> None:
    code = args[0].value if isinstance(args[0], ast.Constant) else Reason[args[0].attr]  # type: ignore[attr-defined]
    assert code in calibration.PROBLEM_LINES, f"{where}: problem {code!r} has no line in companion/vocab/calibration.py"
    assert len(args) > 3, f"{where}: a problem without a short fix"
    assert _shape(args[3]) in {_unnamed(t) for t in calibration.SHORT_FIXES}, f"{where}: a short fix without a template"


@pytest.mark.parametrize("color", range(len(COLOR_NAMES)))
def test_a_claims_few_words_come_from_the_template(color: int) -> None:
    assert notices.values_of(notices.CLAIM_WORDS, short_event(Claim(0, color))) == {
        "player": "P1", "color": COLOR_NAMES[color]}


def test_a_template_takes_a_text_apart() -> None:
    assert notices.values_of("{moves} moves while the camera was away.", "3 moves while the camera was away.") == {
        "moves": "3"}
    assert notices.values_of("{moves} moves while the camera was away.", "Check the table.") is None
