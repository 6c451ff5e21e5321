"""What the ui remembers between frames, apart from the game: the ui state.

The game itself lives in the tracker's display model; :class:`UiState` holds
only what the players changed on the panel (page, menu, hidden warnings,
a discard count being corrected) and what burn-in care changed (blink phase,
pixel shift, power level). Both are frozen and hashable, so "did anything
change?" is one comparison.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal


class Page(enum.Enum):
    """Pages the A button steps through when nothing more urgent is shown."""

    MAIN = "main"
    TABLE = "table"
    STATUS = "status"


PAGES: tuple[Page, ...] = tuple(Page)


class MenuItem(enum.Enum):
    BACK = "Back"
    UNDO = "Undo last move"
    NEW_GAME = "New game"
    FIRST_PLAYER = "First player"
    BRIGHTNESS = "Brightness"
    SETUP = "Set up table"
    """Opens the set-up menu (:class:`SetupItem`)."""
    RESTART = "Restart"
    POWER_OFF = "Power off"


MENU_ITEMS: tuple[MenuItem, ...] = tuple(MenuItem)
DANGEROUS_ITEMS = frozenset({MenuItem.RESTART, MenuItem.POWER_OFF, MenuItem.NEW_GAME})
"""Items that only a long press of C selects, so a stray tap never ends a game."""



class SetupItem(enum.Enum):
    """The set-up menu, opened from the menu's "Set up table": the first evening's tasks."""

    BACK = "Back"
    TEACH = "Teach my playmat"
    CHECK = "Check stickers"
    SHIPPED = "Shipped mat"


SETUP_ITEMS: tuple[SetupItem, ...] = tuple(SetupItem)
SETUP_DANGEROUS = frozenset({SetupItem.SHIPPED})
"""Forgetting the taught playmat takes a long press of C, like the menu's dangerous items."""

BRIGHTNESS_LEVELS = 4
Power = Literal["on", "dim", "blank"]


@dataclass(frozen=True, slots=True)
class UiState:
    page: Page = Page.MAIN
    menu: int | None = None
    """Index of the selected menu item while the menu is open, else None."""
    acknowledged: frozenset[str] = field(default_factory=frozenset)
    """Ids of the warnings a player hid with A; they stay in the model until the table is put right."""
    discard_count: int | None = None
    """The player's correction of the discard count, None until they touch it."""
    blink_on: bool = True
    shift: tuple[int, int] = (0, 0)
    brightness: int = 3
    """1..BRIGHTNESS_LEVELS, chosen by the players."""
    power: Power = "on"
    join_step: int | None = None
    """While joining a game in progress: which of the asked values is being set."""
    join_values: tuple[int, ...] | None = None
    """The join values as the players set them so far (in the order of ``JOIN_FIELDS``)."""
    setup_menu: int | None = None
    """Index of the selected set-up menu item while the set-up menu is open, else None."""

    @property
    def menu_item(self) -> MenuItem | None:
        return None if self.menu is None else MENU_ITEMS[self.menu]
