"""Every OLED screen in English, Persian, Greek and Russian: golden images per language and nothing cut.

English is the golden set of test_screens.py (Spleen, unchanged); the other
three are set in DejaVu Sans (Persian shaped and right to left) and keep
their own references in ``tests/ui/reference/LANG/`` (every sample screen).

The test for cuts draws every screen function of companion/ui (found by
name, so a new screen without cases here fails) in all four languages, with
every reason code x color x zone x player of a warning, every problem,
notice, choice, join question, menu row and the mountains ruleset's pages,
and fails on any text cut to fit (".."), lines left out, a text past the
panel's edge or over another text.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import itertools
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageDraw

import companion.ui
from companion.app.runner import stopped_image
from companion.engine import Claim
from companion.tracker.display import (
    BOARD_PROBLEMS,
    CAMERA_PROBLEMS,
    JOIN_FIELDS,
    Choice,
    Destruction,
    DisplayModel,
    JoinOffer,
    Notice,
    TableWarning,
)
from companion.tracker.mountains_display import MountainsView, RoundEnd
from companion.tracker.setup_view import SetupView
from companion.tracker.tracker import short_event
from companion.ui import catalog, i18n
from companion.ui import text as t
from companion.ui.mountains_samples import MOUNTAINS_SAMPLES
from companion.ui.samples import CALIBRATION_SAMPLES, MIDGAME, SAMPLES, Sample
from companion.ui.screens import (
    SIZE,
    CalibrationVerdict,
    draw_calibration,
    notice_words,
    render,
    warning_layout,
)
from companion.ui.state import MENU_ITEMS, SETUP_ITEMS, UiState
from companion.vision.layout import ZONE_NAMES
from companion.vocab import calibration, notices
from companion.vocab.colors import COLOR_LETTERS
from companion.vocab.reasons import REASONS, Reason, Source, title
from tests.ui.golden import assert_matches_reference
from tests.ui.test_warning_fit import every_warning, tracker_warning

TRANSLATED = ("fa", "el", "ru")
ALL_SAMPLES = (*SAMPLES, *MOUNTAINS_SAMPLES)
WARNING_CODES = sorted(code for code, entry in REASONS.items() if entry.source in (Source.ENGINE, Source.TRACKER))
PROBLEM_CODES = sorted({*CAMERA_PROBLEMS.values(), *BOARD_PROBLEMS.values()})


# --- golden images ----------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("sample", ALL_SAMPLES, ids=[s.name for s in ALL_SAMPLES])
def test_every_sample_screen_matches_its_golden_image(sample: Sample, language: str) -> None:
    with i18n.speaking(language):
        image = render(sample.model, sample.ui)
    assert_matches_reference(image, f"{language}/{sample.name}")


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", [s.name for s in CALIBRATION_SAMPLES])
def test_calibration_screens_match_their_golden_images(name: str, language: str) -> None:
    verdict = next(s.verdict for s in CALIBRATION_SAMPLES if s.name == name)
    image = Image.new("1", SIZE)
    with i18n.speaking(language):
        draw_calibration(ImageDraw.Draw(image), verdict)
    assert_matches_reference(image, f"{language}/{name}")


# --- every case of every screen ---------------------------------------------------------


def _warning_cases() -> Iterator[TableWarning]:
    """Every warning the tracker can raise: reason x color x card set x zone x player (x river space).

    One per distinct English text: a translation fills its template with the same values.
    """
    for code in WARNING_CODES:
        for warning, _case in every_warning(code):
            yield warning


@functools.cache
def warning_texts(language: str) -> dict[tuple[str, str, str], TableWarning]:
    """The distinct texts of every warning in a language, each with one warning that shows it."""
    from companion.ui.screens import warning_words

    found: dict[tuple[str, str, str], TableWarning] = {}
    with i18n.speaking(language):
        for warning in _warning_cases():
            words = warning_words(warning)
            found.setdefault((words.title, words.fix, words.what), warning)
    return found


def _models() -> Iterator[tuple[str, DisplayModel, UiState]]:
    """A display model and ui state per case of every screen the run loop draws."""
    for sample in ALL_SAMPLES:
        yield sample.name, sample.model, sample.ui
    base = replace(MIDGAME, deck=108)
    for code in PROBLEM_CODES:
        camera = next((status for status, reason in CAMERA_PROBLEMS.items() if reason == code), "ok")
        board = next((status for status, reason in BOARD_PROBLEMS.items() if reason == code), "ok")
        yield f"problem {code}", replace(base, camera=camera, board=board), UiState()
    for case in _notice_cases():
        yield f"notice {case}", replace(base, notice=case), UiState()
    for letter in COLOR_LETTERS:
        claim = short_event(Claim(1, COLOR_LETTERS.index(letter)))
        choice = Choice(claim, f"P1 R18 R17 m2, P2 {letter}18 {letter}17")
        yield f"choice {letter}", replace(base, choice=choice), UiState()
        yield f"destruction {letter}", replace(base, phase="destruction", destruction=Destruction(
            "m2", "p2", COLOR_LETTERS if letter == "R" else letter)), UiState()
    offer = JoinOffer((1, 8, 8, 30, 30, 108))
    for step in range(len(JOIN_FIELDS)):
        yield f"join {step}", replace(base, phase="join", join=offer), UiState(join_step=step)
    for index, player in itertools.product(range(len(MENU_ITEMS)), ("p1", "p2")):
        yield f"menu {index} {player}", replace(base, first_player=player), UiState(menu=index, brightness=4)
    yield "nothing", replace(base, choice=Choice("P1 R18 R17 m2", notices.NOTHING)), UiState()
    yield "status", replace(base, camera="ok"), UiState(page=companion.ui.state.Page.STATUS, brightness=4)
    yield from _mountains_models()
    yield from _setup_models(base)


def _notice_cases() -> Iterator[Notice]:
    values = {"moves": "12", "move": "P2 R13 R14 R15", "count": "P1 12"}
    for name, templates in notices.NOTICES.items():
        for template in templates:
            if "{title}" in template:  # a warning played on: any reason's title
                for code in Reason:
                    yield Notice(name, template.format(title=title(code)))
            else:
                yield Notice(name, template.format(**values))


def _setup_models(base: DisplayModel) -> Iterator[tuple[str, DisplayModel, UiState]]:
    """The set-up menu's rows, and every step, problem, zone and color of teaching the mat and checking stickers."""
    for index in range(len(SETUP_ITEMS)):
        yield f"setup menu {index}", base, UiState(setup_menu=index)
    for seen, problem in itertools.product(range(5), ("", "few-fiducials")):
        yield f"teach fiducials {seen} {problem}", replace(base, setup=SetupView(
            "teach", "fiducials", seen=seen, total=24, problem=problem)), UiState()
    for zone, problem in itertools.product(ZONE_NAMES, ("", "no-card", "two-cards", "no-mat")):
        yield f"teach {zone} {problem}", replace(base, setup=SetupView(
            "teach", "cards", zone=zone, done=23, total=24, problem=problem)), UiState()
    for step, problem in (("saved", ""), ("unsupported", ""), ("failed", "fiducial-turned"),
                          ("failed", "zones-overlap"), ("failed", "not-saved")):
        yield f"teach {step} {problem}", replace(base, setup=SetupView(
            "teach", step, done=24, total=24, problem=problem)), UiState()
    for color, face in itertools.product(COLOR_LETTERS, COLOR_LETTERS):
        for wrong in range(1, 4):  # one, two, and more than the screen names
            view = SetupView("check", "lay", done=17, total=18, color=color,
                             wrong=tuple((f"{face}{18 - n:02d}", face) for n in range(wrong)))
            yield f"check {color} wrong {face} x{wrong}", replace(base, setup=view), UiState()
    for color in COLOR_LETTERS:
        for name, view in (("lay", SetupView("check", "lay", done=17, total=18, color=color)),
                           ("unsure", SetupView("check", "lay", done=15, total=18, color=color, unsure=("K08",))),
                           ("no-mat", SetupView("check", "lay", color=color, problem="no-mat")),
                           ("none", SetupView("check", "lay", color=color, problem="no-sticker"))):
            yield f"check {color} {name}", replace(base, setup=view), UiState()


def _mountains_models() -> Iterator[tuple[str, DisplayModel, UiState]]:
    for step in ("start", "draw", "play", "discard"):
        view = MountainsView(12, step, (6, 9), (99, 98), (12, 11), ("RRROOOYYYGGGPPPKKKAAA", "ROYGPKA"),
                             ("ROYGPKA", "ROYGPK"))
        for turn in ("p1", "p2"):
            model = DisplayModel(phase="play", turn=turn, deck=108, mountains=view)
            yield f"mountains {step} {turn}", model, UiState()
            yield f"mountains {step} {turn} warnings", replace(
                model, warnings=(TableWarning("moved-card", "", id="1"),)), UiState(acknowledged=frozenset({"1"}))
            yield f"mountains table {step}", model, UiState(page=companion.ui.state.Page.TABLE)
    end = RoundEnd(12, "12=1-2", (12, 11), (99, 98))
    view = MountainsView(12, "start", (6, 6), (99, 98), (12, 11), ("RROO", "KKPP"), ("", ""), end)
    yield "mountains round end", DisplayModel(phase="play", turn="p2", deck=52, mountains=view), UiState()


def _calibration_cases() -> Iterator[CalibrationVerdict]:
    """The samples, the largest figures, and every short fix (the largest values) with every problem code."""
    for sample in CALIBRATION_SAMPLES:
        yield sample.verdict
    yield CalibrationVerdict(ok=True, px_per_module=12.3, blur_px=10.5, mode="4608x2592")
    values = {"fid": "12", "width": "4608", "height": "2592", "size": "25", "cm": "45"}
    fixes = [template.format(**values, direction=direction) for template in calibration.SHORT_FIXES
             for direction in calibration.DIRECTIONS]
    for fix, code in itertools.product(dict.fromkeys(fixes), calibration.PROBLEM_LINES):
        yield CalibrationVerdict(ok=False, problem="a long message of calibrate that the terminal shows whole",
                                 fix=fix, count=12, code=code)


def _screen_functions() -> dict[str, Callable[..., Any]]:
    """Every screen function of companion/ui: the module's own ``draw_*`` functions."""
    found = {}
    for info in pkgutil.iter_modules(companion.ui.__path__):
        module = importlib.import_module(f"companion.ui.{info.name}")
        for name, value in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("draw_") and value.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = value
    return found


SCREEN_FUNCTIONS = _screen_functions()


def test_the_screen_functions_are_found() -> None:
    assert "companion.ui.screens.draw_warning" in SCREEN_FUNCTIONS
    assert "companion.ui.mountains_screens.draw_round_end" in SCREEN_FUNCTIONS
    assert len(SCREEN_FUNCTIONS) >= 20


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_screen_in_every_case_shows_everything(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every screen function draws, and no text of any case is cut, left out, off the panel or overlapped."""
    called: set[str] = set()
    for qualified, function in SCREEN_FUNCTIONS.items():
        module, name = qualified.rsplit(".", 1)

        def counted(*args: Any, _name: str = qualified, _function: Any = function, **kwargs: Any) -> Any:
            called.add(_name)
            return _function(*args, **kwargs)

        monkeypatch.setattr(f"{module}.{name}", counted)
    from companion.ui import screens

    problems: list[str] = []
    with i18n.speaking(language):
        for case, model, ui in _models():
            for blink in (True, False):
                with t.recording_cuts() as cuts:
                    image = render(model, replace(ui, blink_on=blink))
                box = image.getbbox()
                if box is not None and (box[2] > SIZE[0] - 1 or box[3] > SIZE[1] - 1):
                    cuts.append(f"drawn past {SIZE[0] - 1}x{SIZE[1] - 1} (the burn-in shift's margin): {box}")
                problems += [f"{case}: {cut}" for cut in cuts]
        for verdict in _calibration_cases():
            with t.recording_cuts() as cuts:
                screens.draw_calibration(ImageDraw.Draw(Image.new("1", SIZE)), verdict)
            problems += [f"calibration {verdict}: {cut}" for cut in cuts]
        with t.recording_cuts() as cuts:
            stopped_image()
        problems += [f"stopped: {cut}" for cut in cuts]
    uncovered = sorted(set(SCREEN_FUNCTIONS) - called)
    assert not uncovered, f"screens without a case in this test: {uncovered}"
    assert not problems, f"{language}: {len(problems)} cut or overlapping texts, e.g. " + "; ".join(problems[:5])


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_warning_of_every_reason_fits_in_every_language(language: str) -> None:
    """Reason x color x card set x zone x player (x river space): laid out alone and beside a 1/12 counter."""
    texts = warning_texts(language)
    cut = []
    with i18n.speaking(language):
        for (name, fix, what), warning in texts.items():
            for count in (1, 12):
                if not warning_layout(warning, count=count).fits:
                    cut.append(f"{warning.reason} (count {count}): {name!r} / {fix!r} / {what!r}")
    assert len(texts) > len(WARNING_CODES) * 10  # the cases differ (colors, zones, players), not one per code
    assert not cut, f"{language}: {len(cut)} warning texts cut, e.g. " + "; ".join(cut[:4])


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_longest_warnings_draw_inside_the_panel_without_overlaps(language: str) -> None:
    """Per reason, the warning with the longest fix and the one with the longest text, drawn in both phases."""
    from companion.ui.screens import draw_warning

    texts = warning_texts(language)
    problems = []
    with i18n.speaking(language):
        for code in WARNING_CODES:
            mine = [(key, w) for key, w in texts.items() if w.reason == code]
            chosen = {max(mine, key=lambda item: len(item[0][1]))[1], max(mine, key=lambda item: len(item[0][2]))[1]}
            for warning, inverted, count in itertools.product(chosen, (True, False), (1, 12)):
                with t.recording_cuts() as cuts:
                    draw_warning(ImageDraw.Draw(Image.new("1", SIZE)), warning, count=count, inverted=inverted)
                problems += [f"{code}: {cut}" for cut in cuts]
    assert not problems, f"{language}: " + "; ".join(problems[:4])


@pytest.mark.parametrize("language", TRANSLATED)
def test_warnings_are_worded_in_the_language(language: str) -> None:
    warning = tracker_warning(Reason.COLOR_RULE, ("R05",), "m1.field.p2", 1, 1)
    from companion.ui.screens import warning_words

    with i18n.speaking(language):
        words = warning_words(warning)
    english = warning_words(warning)
    assert words.title != english.title and words.fix != english.fix and words.what != english.what
    assert "R05" in words.fix and "M1" in words.what


@pytest.mark.parametrize("language", TRANSLATED)
def test_notices_are_worded_in_the_language(language: str) -> None:
    with i18n.speaking(language):
        title_, text = notice_words(Notice("CAUGHT UP", "12 moves while the camera was away."))
        played = notice_words(Notice("PLAYED ON", "RULE OF COLOR left as it lies."))[1]
    assert title_ != "CAUGHT UP" and "12" in text and "moves" not in text
    assert i18n.translations(language).gettext("RULE OF COLOR") in played


def test_the_cut_test_can_fail() -> None:
    with i18n.speaking("ru"), t.recording_cuts() as cuts:
        t.fit("очень длинная строка, которая не помещается", 10)
    assert cuts
    with t.recording_cuts() as cuts:
        draw = ImageDraw.Draw(Image.new("1", SIZE))
        t.text(draw, (1, 1), "one", t.SMALL)
        t.text(draw, (4, 3), "two", t.SMALL)  # over the first
        t.text(draw, (120, 40), "three", t.SMALL)  # past the edge
    assert cuts == ["'two' is partly drawn on its own color (out of its bar)", "'two' overlaps 'one'",
                    "'three' leaves the panel: (120, 40, 150, 48)"]


# --- catalogs ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_translates_every_message_with_its_placeholders(language: str) -> None:
    assert not catalog.problems(language)


def test_the_catalog_check_finds_a_missing_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "used_messages", lambda: {"A NEW SCREEN {player}", "RULE OF COLOR"})
    assert catalog.problems("ru") == ["missing: 'A NEW SCREEN {player}'"]
    assert 'msgid "A NEW SCREEN {player}"\nmsgstr ""' in catalog.stubs("ru")


def test_the_screens_messages_include_the_registries() -> None:
    used = catalog.used_messages()
    assert {"RULE OF COLOR", "Take back {the_cards}", "{player} river {space}", "CAUGHT UP",
            "WHICH WAS IT?", "{player} DRAW TO 6", "CAMERA READY", "STOPPED"} <= used


def test_a_catalog_compiles_to_what_gettext_reads() -> None:
    po = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "red"\nmsgstr "красный"\n\n' \
         '#, fuzzy\nmsgid "green"\nmsgstr "зелёный"\n'
    import gettext
    import io

    compiled = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(po)))
    assert compiled.gettext("red") == "красный" and compiled.gettext("green") == "green"


def test_an_unknown_language_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"display\.language: 'de' is not one of en, fa, el, ru"):
        i18n.use("de")
