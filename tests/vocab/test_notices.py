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
    assert len(NOTICE_CALLS) >= 7
    assert len(PROBLEM_CALLS) >= 10


def _of_notices(node: ast.expr) -> str | None:
    """The name in ``notices.NAME`` or ``notices.NAME(...)``; None for anything else."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "notices":
        return node.attr
    return None


@pytest.mark.parametrize("where, args", NOTICE_CALLS, ids=[c[0] for c in NOTICE_CALLS])
def test_every_notice_the_tracker_makes_is_worded_in_the_vocabulary(where: str, args: list[ast.expr]) -> None:
    """No literal title or text the screens could not translate: the words come from companion/vocab/notices.py."""
    assert len(args) >= 2, f"{where}: a notice without its title and text"
    for arg in args[:2]:
        assert not isinstance(arg, ast.Constant | ast.JoinedStr), f"{where}: worded here, not in the vocabulary"
    title, text = (_of_notices(a) for a in args[:2])
    if title is not None:
        assert getattr(notices, title) in notices.NOTICES, f"{where}: {title} is no notice's title"
    if title is not None and text is not None and isinstance(args[1], ast.Attribute):
        assert getattr(notices, text) in notices.NOTICES[getattr(notices, title)], f"{where}: {text} is no {title}'s"


@pytest.mark.parametrize("title, text", [
    *((notices.CAUGHT_UP, notices.caught_up(n)) for n in (2, 3, 12)),
    *((notices.TAKEN_BACK, notices.taken_back(p, ["R18", "K17", "O16", "Y15"][:n], "P2 claims red"))
      for p in (None, 0, 1) for n in range(5)),
    (notices.PLAYED_ON, notices.played_on("RULE OF COLOR")),
], ids=str)
def test_every_formatted_text_comes_from_a_template_of_its_title(title: str, text: str) -> None:
    found = notices.template_of(title, text)
    assert found is not None, f"{text!r} is made from no template of {title!r}"
    template, values = found
    assert template.format(**values) == text


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
    assert notices.template_of(notices.TAKEN_BACK, "P1 5 cards were taken back.") == (
        notices.TAKEN_BACK_MANY_TEXT, {"count": "P1 5"})
    assert notices.template_of(notices.TAKEN_BACK, "Check the table.") is None
    assert notices.values_of("{moves} moves while the camera was away.", "3 moves while the camera was away.") == {
        "moves": "3"}
    assert notices.values_of("{moves} moves while the camera was away.", "Check the table.") is None
