"""The ui controller: presses to ui changes or app commands, redraws on change, burn-in care."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import DiscardConfirm, DisplayModel, TableWarning
from companion.ui.buttons import Press, PressKind
from companion.ui.controller import (
    CONTRAST,
    DIM_CONTRAST,
    UiController,
    UiTiming,
)
from companion.ui.samples import MIDGAME
from companion.ui.screens import Screen, screen_for
from companion.ui.state import MENU_ITEMS, MenuItem, Page
from tests.ui.conftest import FakePanel

A, B, C = Press("A"), Press("B"), Press("C")
A_LONG, B_LONG, C_LONG = (Press(n, PressKind.LONG) for n in "ABC")
WARNING = TableWarning("color-rule", "Red is in P2's field", "Take back R04", id="40-color-rule-R04")
WARNED = replace(MIDGAME, warnings=(WARNING,))
TIMING = UiTiming(blink_s=0.5, dim_after_s=60, blank_after_s=600, shift_every_s=300)


@pytest.fixture
def ui(panel: FakePanel) -> UiController:
    return UiController(panel, MIDGAME, now=0.0, timing=TIMING)


def screen(ui: UiController) -> Screen:
    return screen_for(ui.model, ui.state)


def test_a_pages_through_main_table_status(ui: UiController) -> None:
    pages = []
    for _ in range(3):
        ui.step(MIDGAME, [A], 1.0)
        pages.append(ui.state.page)
    assert pages == [Page.TABLE, Page.STATUS, Page.MAIN]


def test_redraws_only_on_change(ui: UiController, panel: FakePanel) -> None:
    ui.step(MIDGAME, [], 1.0)
    ui.step(MIDGAME, [], 1.1)
    ui.step(MIDGAME, [], 2.0)
    assert panel.calls.count("display") == 1
    ui.step(replace(MIDGAME, deck=60), [], 2.1)
    assert panel.calls.count("display") == 2
    ui.step(replace(MIDGAME, deck=60), [B], 2.2)  # B: nothing to show again, nothing changes
    assert panel.calls.count("display") == 2


def test_warning_is_shown_hidden_with_a_and_shown_again_with_b(ui: UiController) -> None:
    ui.step(WARNED, [], 1.0)
    assert screen(ui) is Screen.WARNING
    ui.step(WARNED, [A], 1.1)
    assert screen(ui) is Screen.MAIN
    ui.step(WARNED, [B], 1.2)
    assert screen(ui) is Screen.WARNING


def test_override_is_a_long_c_and_goes_to_the_app(ui: UiController) -> None:
    assert ui.step(WARNED, [C], 1.0) == []
    assert ui.step(WARNED, [C_LONG], 1.1) == [AppCommand(AppAction.OVERRIDE, warning_id=WARNING.id)]


def test_a_warning_that_comes_back_after_being_fixed_shows_again(ui: UiController) -> None:
    ui.step(WARNED, [A], 1.0)
    ui.step(MIDGAME, [], 2.0)  # table put right: the warning left the model
    ui.step(WARNED, [], 3.0)
    assert screen(ui) is Screen.WARNING


def test_warning_blinks(ui: UiController, panel: FakePanel) -> None:
    phases = []
    for now in (1.0, 1.25, 1.5, 1.75, 2.0):
        ui.step(WARNED, [], now)
        phases.append(ui.state.blink_on)
    assert phases == [True, True, False, False, True]
    assert panel.calls.count("display") == 3  # one frame per phase change


def test_undo_is_a_long_b_anywhere(ui: UiController) -> None:
    assert ui.step(MIDGAME, [B_LONG], 1.0) == [AppCommand(AppAction.UNDO)]
    assert ui.step(WARNED, [B_LONG], 1.1) == [AppCommand(AppAction.UNDO)]


def test_discard_count_adjusted_and_confirmed(ui: UiController) -> None:
    asking = replace(MIDGAME, phase="discard-confirm",
                     discard=DiscardConfirm(player="p2", seen=2, asked=3))
    ui.step(asking, [B, B], 1.0)
    assert ui.state.discard_count == 5
    ui.step(asking, [A, A, A, A, A], 1.1)
    assert ui.state.discard_count == 2  # never below what the camera saw
    commands = ui.step(asking, [B, C], 1.2)
    assert commands == [AppCommand(AppAction.CONFIRM_DISCARD, count=3, player="p2")]


def test_a_new_discard_question_starts_from_the_trackers_count(ui: UiController) -> None:
    first = replace(MIDGAME, phase="discard-confirm", discard=DiscardConfirm("p1", 1, 1))
    ui.step(first, [B], 1.0)
    second = replace(MIDGAME, phase="discard-confirm", discard=DiscardConfirm("p2", 2, 2))
    assert ui.step(second, [C], 2.0)[0].count == 2


def test_menu_navigation_and_brightness(ui: UiController, panel: FakePanel) -> None:
    ui.step(MIDGAME, [A_LONG], 1.0)
    assert screen(ui) is Screen.MENU
    for _ in range(MENU_ITEMS.index(MenuItem.BRIGHTNESS)):
        ui.step(MIDGAME, [A], 1.1)
    assert ui.state.menu_item is MenuItem.BRIGHTNESS
    ui.step(MIDGAME, [C], 1.2)
    assert ui.state.brightness == 4
    assert panel.calls[-2] == f"contrast {CONTRAST[4]}"
    ui.step(MIDGAME, [B], 1.3)
    assert screen(ui) is Screen.MAIN


def test_dangerous_menu_items_need_a_long_press(ui: UiController) -> None:
    ui.step(MIDGAME, [A_LONG], 1.0)
    for _ in range(MENU_ITEMS.index(MenuItem.POWER_OFF)):
        ui.step(MIDGAME, [A], 1.1)
    assert ui.step(MIDGAME, [C], 1.2) == []
    assert ui.step(MIDGAME, [C_LONG], 1.3) == [AppCommand(AppAction.POWER_OFF)]
    assert ui.state.menu is None


@pytest.mark.parametrize("item, action", [(MenuItem.UNDO, AppAction.UNDO),
                                          (MenuItem.RESTART, AppAction.RESTART),
                                          (MenuItem.NEW_GAME, AppAction.NEW_GAME)])
def test_menu_items_become_app_commands(ui: UiController, item: MenuItem, action: AppAction) -> None:
    ui.step(MIDGAME, [A_LONG], 1.0)
    ui.step(MIDGAME, [A] * MENU_ITEMS.index(item), 1.1)
    assert ui.step(MIDGAME, [C_LONG], 1.2) == [AppCommand(action)]


def test_first_player_from_menu_and_setup(ui: UiController) -> None:
    setup = DisplayModel(phase="setup", turn="p1", first_player="p1")
    assert ui.step(setup, [C], 1.0) == [AppCommand(AppAction.FIRST_PLAYER, player="p2")]
    ui.step(setup, [A_LONG], 1.1)
    ui.step(setup, [A] * MENU_ITEMS.index(MenuItem.FIRST_PLAYER), 1.2)
    assert ui.step(setup, [C], 1.3) == [AppCommand(AppAction.FIRST_PLAYER, player="p2")]


def test_new_game_after_game_over_is_a_long_c() -> None:
    from companion.ui.samples import SAMPLES

    over = next(s.model for s in SAMPLES if s.name == "over-win")
    ui = UiController(FakePanel(), over, timing=TIMING)
    assert ui.step(over, [C], 1.0) == []
    assert ui.step(over, [C_LONG], 1.1) == [AppCommand(AppAction.NEW_GAME)]


def test_dim_then_blank_then_wake_on_a_model_change(ui: UiController, panel: FakePanel) -> None:
    ui.step(MIDGAME, [], 1.0)
    ui.step(MIDGAME, [], 61.0)
    assert ui.state.power == "dim" and panel.calls[-1] == f"contrast {DIM_CONTRAST}"
    ui.step(MIDGAME, [], 601.0)
    assert ui.state.power == "blank" and panel.calls[-1] == "hide"
    ui.step(replace(MIDGAME, deck=60), [], 602.0)
    assert ui.state.power == "on"
    assert panel.calls[-3:] == ["show", f"contrast {CONTRAST[3]}", "display"]


def test_the_first_press_on_a_blank_panel_only_wakes_it(ui: UiController) -> None:
    ui.step(MIDGAME, [], 700.0)
    assert ui.state.power == "blank"
    assert ui.step(MIDGAME, [B_LONG], 700.1) == []  # no undo the players could not see coming
    assert ui.state.power == "on"
    assert ui.step(MIDGAME, [B_LONG], 700.2) == [AppCommand(AppAction.UNDO)]


def test_a_press_on_a_dim_panel_acts(ui: UiController) -> None:
    ui.step(MIDGAME, [], 100.0)
    assert ui.state.power == "dim"
    ui.step(MIDGAME, [A], 100.1)
    assert ui.state.page is Page.TABLE and ui.state.power == "on"


def test_layout_shifts_now_and_then(ui: UiController, panel: FakePanel) -> None:
    shifts = []
    for now in (0.0, 299.0, 300.0, 600.0, 900.0, 1200.0):
        ui.set_model(replace(MIDGAME, deck=int(now) % 80), now)  # activity keeps it awake
        ui.tick(now)
        shifts.append(ui.state.shift)
    assert shifts == [(0, 0), (0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
