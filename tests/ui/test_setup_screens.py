"""The set-up menu on the panel: golden images, nothing cut in any language, driven by the buttons.

The buttons are gpiozero's MockFactory pins, so a press goes the whole way
from a pin to the AppCommand the app acts on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from luma.core.render import canvas

from companion.errors import DisplayModelError
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import DisplayModel
from companion.tracker.setup_view import SetupView
from companion.ui import i18n
from companion.ui import text as t
from companion.ui.buttons import GpioButtons, Press
from companion.ui.controller import UiController
from companion.ui.samples import MIDGAME, Sample
from companion.ui.screens import Screen, draw_screen, render, screen_for
from companion.ui.setup_samples import SETUP_SAMPLES
from companion.ui.state import UiState
from tests.ui.conftest import FakeClock, FakePanel
from tests.ui.golden import assert_matches_reference

IDS = [s.name for s in SETUP_SAMPLES]
PINS = {"A": 17, "B": 27, "C": 22}


@pytest.mark.parametrize("sample", SETUP_SAMPLES, ids=IDS)
def test_setup_screen_matches_reference(sample: Sample) -> None:
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw_screen(draw, screen_for(sample.model, sample.ui), sample.model, sample.ui)
    assert_matches_reference(device.image, sample.name)
    assert render(sample.model, sample.ui).tobytes() == device.image.convert("1").tobytes()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_nothing_is_cut_on_the_setup_screens_in_any_language(language: str) -> None:
    with i18n.speaking(language), t.recording_cuts() as cuts:
        for sample in SETUP_SAMPLES:
            render(sample.model, sample.ui)
            assert not cuts, f"{sample.name} in {language}: {cuts}"


def test_every_zone_and_problem_fits_the_teaching_screen() -> None:
    from companion.vision.layout import ZONE_NAMES

    with t.recording_cuts() as cuts:
        for zone in ZONE_NAMES:
            for problem in ("", "no-card", "two-cards", "no-mat"):
                view = SetupView("teach", "cards", zone=zone, done=23, total=24, problem=problem)
                render(replace(MIDGAME, setup=view), UiState())
        for failure in ("fiducial-turned", "zones-overlap", "not-saved"):
            render(replace(MIDGAME, setup=SetupView("teach", "failed", problem=failure)), UiState())
    assert not cuts, cuts


def test_a_setup_task_comes_before_the_game_and_a_lost_camera_before_it() -> None:
    model = replace(MIDGAME, setup=SetupView("teach", "fiducials", seen=1, total=24))
    assert screen_for(model, UiState()) is Screen.SETUP_TASK
    assert screen_for(replace(model, board="not-found"), UiState()) is Screen.SETUP_TASK  # it says so itself
    assert screen_for(replace(model, camera="lost"), UiState()) is Screen.PROBLEM
    assert screen_for(model, UiState(menu=0)) is Screen.MENU


def test_bad_setup_views_are_refused() -> None:
    with pytest.raises(DisplayModelError):
        SetupView("teach", "dancing")  # type: ignore[arg-type]
    with pytest.raises(DisplayModelError):
        SetupView("check", "lay", color="Z")
    assert "setup[check lay color=R wrong=G07:R]" in str(
        replace(MIDGAME, setup=SetupView("check", "lay", color="R", wrong=(("G07", "R"),))))


# --- the buttons, from the pins ---------------------------------------------------------------


class Table:
    """A controller on a fake panel, its buttons on mock pins, pressed by name ("A", "C-long")."""

    def __init__(self, factory: MockFactory, clock: FakeClock, model: DisplayModel = MIDGAME) -> None:
        self.factory, self.clock, self.model = factory, clock, model
        self.buttons = GpioButtons(clock=clock)
        self.ui = UiController(FakePanel(), model, now=clock())

    def press(self, *names: str) -> list[AppCommand]:
        commands: list[AppCommand] = []
        for name in names:
            button, _, kind = name.partition("-")
            self.factory.pin(PINS[button]).drive_low()
            self.clock.advance(1.2 if kind == "long" else 0.15)
            presses: list[Press] = self.buttons.poll()
            self.factory.pin(PINS[button]).drive_high()
            self.clock.advance(0.1)
            presses += self.buttons.poll()
            commands += self.ui.step(self.model, presses, self.clock())
        return commands

    def show(self, model: DisplayModel) -> None:
        """The app publishes a new model; the ui loop takes it up."""
        self.model = model
        self.ui.step(model, [], self.clock())

    def screen(self) -> Screen:
        return screen_for(self.ui.model, self.ui.state)


@pytest.fixture
def table(mock_factory: MockFactory, clock: FakeClock) -> Iterator[Table]:
    table = Table(mock_factory, clock)
    yield table
    table.buttons.close()


def _open_setup_menu(table: Table) -> None:
    from companion.ui.state import MENU_ITEMS, MenuItem

    table.press("A-long")
    assert table.screen() is Screen.MENU
    table.press(*["A"] * MENU_ITEMS.index(MenuItem.SETUP))
    assert table.press("C") == []
    assert table.screen() is Screen.SETUP_MENU


def test_the_buttons_open_the_setup_menu_and_start_teaching(table: Table) -> None:
    _open_setup_menu(table)
    assert table.press("A", "C") == [AppCommand(AppAction.TEACH)]  # the second row: Teach my playmat
    assert table.screen() is Screen.MAIN  # the menu closed; the app's task will fill the screen
    table.show(replace(MIDGAME, setup=SetupView("teach", "cards", zone="m1.mountain", total=24)))
    assert table.screen() is Screen.SETUP_TASK
    assert table.press("C") == [AppCommand(AppAction.SETUP_AGAIN)]
    assert table.press("B") == [AppCommand(AppAction.SETUP_CLOSE)]
    assert table.press("B-long") == []  # no undo of a game move while the mat is being taught


def test_the_buttons_check_stickers_color_by_color(table: Table) -> None:
    _open_setup_menu(table)
    assert table.press("A", "A", "C") == [AppCommand(AppAction.CHECK_STICKERS)]
    table.show(replace(MIDGAME, setup=SetupView("check", "lay", total=18, color="R")))
    assert table.press("A") == [AppCommand(AppAction.SETUP_NEXT)]  # the next color


def test_the_shipped_playmat_takes_a_long_press_and_back_leaves_the_setup_menu(table: Table) -> None:
    _open_setup_menu(table)
    assert table.press("A", "A", "A", "C") == []  # a tap is not enough
    assert table.screen() is Screen.SETUP_MENU
    assert table.press("C-long") == [AppCommand(AppAction.SHIPPED_LAYOUT)]
    _open_setup_menu(table)
    assert table.press("B") == []
    assert table.screen() is Screen.MAIN
