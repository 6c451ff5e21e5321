"""The ui controller: between the tracker's display model, the buttons and the panel.

It owns the :class:`~companion.ui.state.UiState` and the idle timers, turns
presses into ui changes (page, menu, hidden warnings, brightness) or into
:class:`~companion.tracker.commands.AppCommand` values that it returns for the app to act on: the ui never
decides game logic. It redraws only when the model or the ui state changed,
and cares for the OLED: dim after idle, blank after longer idle, shift the
layout by a pixel now and then; any model change or press wakes it.

Typical loop (the app's)::

    commands = controller.step(tracker.display_model(), buttons.poll(now), now)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from PIL import Image

from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import JOIN_FIELDS, JOIN_LIMITS, DisplayModel, PlayerName
from companion.ui.buttons import Command, Context, Press, command_for
from companion.ui.screens import Screen, active_warnings, render, screen_for
from companion.ui.state import (
    BRIGHTNESS_LEVELS,
    DANGEROUS_ITEMS,
    MENU_ITEMS,
    PAGES,
    SETUP_DANGEROUS,
    SETUP_ITEMS,
    MenuItem,
    Power,
    SetupItem,
    UiState,
)


class Display(Protocol):
    """What the controller needs of a panel; luma devices have it, so do our fakes."""

    def display(self, image: Image.Image) -> None: ...
    def contrast(self, level: int) -> None: ...
    def show(self) -> None: ...
    def hide(self) -> None: ...


@dataclass(frozen=True, slots=True)
class UiTiming:
    blink_s: float = 0.5
    dim_after_s: float = 120.0
    blank_after_s: float = 900.0
    shift_every_s: float = 300.0


CONTRAST = {1: 16, 2: 64, 3: 160, 4: 255}
"""Panel contrast per brightness level; luma's contrast never quite turns the panel off."""
DIM_CONTRAST = 1
SHIFTS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (1, 1), (0, 1))
"""The layout walks this square, one step per shift period; layouts leave room for it."""

_CONTEXTS = {
    Screen.MENU: Context.MENU,
    Screen.WARNING: Context.WARNING,
    Screen.DISCARD: Context.DISCARD,
    Screen.SETUP: Context.SETUP,
    Screen.OVER: Context.OVER,
    Screen.CHOICE: Context.CHOICE,
    Screen.JOIN: Context.JOIN,
    Screen.JOIN_OFFER: Context.JOIN_OFFER,
    Screen.SETUP_MENU: Context.MENU,
    Screen.SETUP_TASK: Context.SETUP_TASK,
}


def _other(player: PlayerName) -> PlayerName:
    return "p2" if player == "p1" else "p1"


class UiController:
    def __init__(self, display: Display, model: DisplayModel, *, now: float = 0.0,
                 timing: UiTiming = UiTiming(), state: UiState | None = None) -> None:
        self.display = display
        self.model = model
        self.timing = timing
        self.state = UiState() if state is None else state
        self.last_activity = now
        self.redraws = 0
        self._drawn: tuple[DisplayModel, UiState] | None = None
        self._applied_power: Power | None = None
        self._applied_brightness: int | None = None

    # --- inputs ---

    def step(self, model: DisplayModel, presses: Iterable[Press], now: float) -> list[AppCommand]:
        """One pass of the main loop: new model, presses, timers, redraw if changed."""
        self.set_model(model, now)
        commands: list[AppCommand] = []
        for press in presses:
            commands += self.press(press, now)
        self.tick(now)
        self.refresh()
        return commands

    def set_model(self, model: DisplayModel, now: float) -> None:
        if model == self.model:
            return
        discard_changed = model.discard != self.model.discard
        self.model = model
        if model.join is None:
            self.state = replace(self.state, join_step=None, join_values=None)
        elif model.join.requested and self.state.join_step is None:
            self.state = replace(self.state, join_step=0, join_values=model.join.values)  # asked at once
        # Forget hidden warnings the table has put right, so a repeat shows again.
        acknowledged = self.state.acknowledged & frozenset(w.id for w in model.warnings)
        count = None if discard_changed else self.state.discard_count
        self.state = replace(self.state, acknowledged=acknowledged, discard_count=count)
        self._wake(now)

    def press(self, press: Press, now: float) -> list[AppCommand]:
        """Apply one press; returns what the app must do (often nothing)."""
        asleep = self.state.power == "blank"
        self._wake(now)
        if asleep:
            return []  # the first press only wakes a blank panel: nobody saw what it would do
        command = command_for(press, self.context())
        return [] if command is None else self.apply(command)

    def context(self) -> Context:
        return _CONTEXTS.get(screen_for(self.model, self.state), Context.NORMAL)

    def apply(self, command: Command) -> list[AppCommand]:
        handler = _HANDLERS.get(command)
        if handler is not None:
            return handler(self)
        return self._app_command(command)

    def tick(self, now: float) -> None:
        """Advance the clocks: blink phase, idle power level, pixel shift."""
        idle = now - self.last_activity
        power: Power = "on"
        if idle >= self.timing.blank_after_s:
            power = "blank"
        elif idle >= self.timing.dim_after_s:
            power = "dim"
        blink_on = True
        if screen_for(self.model, self.state) is Screen.WARNING:
            blink_on = int(now / self.timing.blink_s) % 2 == 0
        shift = SHIFTS[int(now / self.timing.shift_every_s) % len(SHIFTS)]
        self.state = replace(self.state, power=power, blink_on=blink_on, shift=shift)

    # --- output ---

    def refresh(self) -> bool:
        """Send a frame to the panel if anything visible changed; True when it did."""
        self._apply_power()
        if self.state.power == "blank":
            self._drawn = None  # hidden panel: draw afresh on waking
            return False
        # Dimming changes the contrast, not the picture: no new frame for it.
        key = (self.model, replace(self.state, power="on"))
        if key == self._drawn:
            return False
        self._drawn = key
        self.display.display(self.frame())
        self.redraws += 1
        return True

    def frame(self) -> Image.Image:
        return render(self.model, self.state)

    def _apply_power(self) -> None:
        power, level = self.state.power, self.state.brightness
        if (power, level) == (self._applied_power, self._applied_brightness):
            return
        if power == "blank":
            self.display.hide()
        else:
            if self._applied_power in (None, "blank"):
                self.display.show()
            self.display.contrast(DIM_CONTRAST if power == "dim" else CONTRAST[level])
        self._applied_power, self._applied_brightness = power, level

    def _wake(self, now: float) -> None:
        self.last_activity = now
        if self.state.power != "on":
            self.state = replace(self.state, power="on")

    # --- command handlers: ui changes ---

    def _next_screen(self) -> list[AppCommand]:
        index = PAGES.index(self.state.page)
        self.state = replace(self.state, page=PAGES[(index + 1) % len(PAGES)])
        return []

    def _open_menu(self) -> list[AppCommand]:
        self.state = replace(self.state, menu=0)
        return []

    def _menu_down(self) -> list[AppCommand]:
        if self.state.setup_menu is not None:
            self.state = replace(self.state, setup_menu=(self.state.setup_menu + 1) % len(SETUP_ITEMS))
            return []
        self.state = replace(self.state, menu=((self.state.menu or 0) + 1) % len(MENU_ITEMS))
        return []

    def _close_menu(self) -> list[AppCommand]:
        self.state = replace(self.state, menu=None, setup_menu=None)
        return []

    def _acknowledge(self) -> list[AppCommand]:
        shown = active_warnings(self.model, self.state)
        if shown:
            self.state = replace(self.state, acknowledged=self.state.acknowledged | {shown[0].id})
        return []

    def _show_warnings(self) -> list[AppCommand]:
        self.state = replace(self.state, acknowledged=frozenset())
        return []

    def _brightness(self) -> list[AppCommand]:
        self.state = replace(self.state, brightness=self.state.brightness % BRIGHTNESS_LEVELS + 1)
        return []

    def _discard_step(self, delta: int) -> list[AppCommand]:
        info = self.model.discard
        if info is None:
            return []
        current = info.asked if self.state.discard_count is None else self.state.discard_count
        count = min(8, max(max(1, info.seen), current + delta))
        self.state = replace(self.state, discard_count=count)
        return []

    def _confirm(self) -> list[AppCommand]:
        if self.state.menu is not None or self.state.setup_menu is not None:
            return self._menu_choice(confirmed=True)
        info = self.model.discard
        if info is None:
            return []
        count = info.asked if self.state.discard_count is None else self.state.discard_count
        return [AppCommand(AppAction.CONFIRM_DISCARD, count=count, player=info.player)]

    def _select(self) -> list[AppCommand]:
        return self._menu_choice(confirmed=False)

    def _menu_choice(self, *, confirmed: bool) -> list[AppCommand]:
        if self.state.setup_menu is not None:
            return self._setup_choice(SETUP_ITEMS[self.state.setup_menu], confirmed=confirmed)
        item = self.state.menu_item
        if item is None or (item in DANGEROUS_ITEMS and not confirmed):
            return []  # the row says "hold C": a tap must not end a game or the power
        if item is MenuItem.BRIGHTNESS:
            return self._brightness()
        if item is MenuItem.FIRST_PLAYER:
            return self._app_command(Command.FIRST_PLAYER)
        if item is MenuItem.SETUP:
            self.state = replace(self.state, menu=None, setup_menu=0)
            return []
        self._close_menu()
        menu_commands = {MenuItem.UNDO: Command.UNDO, MenuItem.NEW_GAME: Command.NEW_GAME,
                         MenuItem.RESTART: Command.RESTART, MenuItem.POWER_OFF: Command.POWER_OFF}
        return self._app_command(menu_commands[item]) if item in menu_commands else []

    def _setup_choice(self, item: SetupItem, *, confirmed: bool) -> list[AppCommand]:
        if item in SETUP_DANGEROUS and not confirmed:
            return []
        self._close_menu()
        actions = {SetupItem.TEACH: AppAction.TEACH, SetupItem.CHECK: AppAction.CHECK_STICKERS,
                   SetupItem.SHIPPED: AppAction.SHIPPED_LAYOUT}
        return [AppCommand(actions[item])] if item in actions else []

    # --- joining a game in progress ---

    def _join_start(self) -> list[AppCommand]:
        offer = self.model.join
        if offer is not None:
            self.state = replace(self.state, join_step=0, join_values=offer.values)
        return []

    def _join_field(self) -> tuple[str, int] | None:
        offer, step = self.model.join, self.state.join_step
        if offer is None or step is None or not offer.asking:
            return None
        name = offer.asking[min(step, len(offer.asking) - 1)]
        return name, JOIN_FIELDS.index(name)

    def _join_step(self, delta: int) -> list[AppCommand]:
        field = self._join_field()
        if field is None or self.model.join is None:
            return []
        name, index = field
        values = list(self.state.join_values or self.model.join.values)
        low, high = JOIN_LIMITS[name]
        values[index] = low + (values[index] + delta - low) % (high - low + 1) if name == "turn" else \
            min(high, max(low, values[index] + delta))
        self.state = replace(self.state, join_values=tuple(values))
        return []

    def _join_next(self) -> list[AppCommand]:
        offer, step = self.model.join, self.state.join_step
        if offer is None or step is None:
            return []
        if step + 1 < len(offer.asking):
            self.state = replace(self.state, join_step=step + 1)
            return []
        values = self.state.join_values or offer.values
        self.state = replace(self.state, join_step=None, join_values=None)
        return [AppCommand(AppAction.JOIN, values=values)]

    def _join_cancel(self) -> list[AppCommand]:
        self.state = replace(self.state, join_step=None, join_values=None)
        return []

    # --- command handlers: requests for the app ---

    def _app_command(self, command: Command) -> list[AppCommand]:
        if command is Command.OVERRIDE:
            shown = active_warnings(self.model, self.state)
            return [AppCommand(AppAction.OVERRIDE, warning_id=shown[0].id)] if shown else []
        if command is Command.FIRST_PLAYER:
            return [AppCommand(AppAction.FIRST_PLAYER, player=_other(self.model.first_player))]
        simple = {Command.UNDO: AppAction.UNDO, Command.NEW_GAME: AppAction.NEW_GAME,
                  Command.RESTART: AppAction.RESTART, Command.POWER_OFF: AppAction.POWER_OFF,
                  Command.SETUP_NEXT: AppAction.SETUP_NEXT, Command.SETUP_AGAIN: AppAction.SETUP_AGAIN,
                  Command.SETUP_CLOSE: AppAction.SETUP_CLOSE}
        return [AppCommand(simple[command])] if command in simple else []


_HANDLERS: dict[Command, Callable[[UiController], list[AppCommand]]] = {
    Command.NEXT_SCREEN: UiController._next_screen,
    Command.MENU: UiController._open_menu,
    Command.MENU_DOWN: UiController._menu_down,
    Command.BACK: UiController._close_menu,
    Command.SELECT: UiController._select,
    Command.CONFIRM: UiController._confirm,
    Command.ACKNOWLEDGE: UiController._acknowledge,
    Command.SHOW_WARNINGS: UiController._show_warnings,
    Command.BRIGHTNESS: UiController._brightness,
    Command.DISCARD_LESS: lambda self: self._discard_step(-1),
    Command.DISCARD_MORE: lambda self: self._discard_step(+1),
    Command.JOIN_START: UiController._join_start,
    Command.JOIN_LESS: lambda self: self._join_step(-1),
    Command.JOIN_MORE: lambda self: self._join_step(+1),
    Command.JOIN_NEXT: UiController._join_next,
    Command.JOIN_CANCEL: UiController._join_cancel,
    Command.CHOOSE_FIRST: lambda self: [AppCommand(AppAction.CHOOSE, count=0)],
    Command.CHOOSE_SECOND: lambda self: [AppCommand(AppAction.CHOOSE, count=1)],
}
