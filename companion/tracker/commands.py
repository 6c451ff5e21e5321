"""The players' commands: what the buttons (or a phone) ask the app to do to the game.

The ui turns presses into these; a web view can send the same; the app's
session applies them to the tracker and journals them. They live beside the
display model (:mod:`companion.tracker.display`) so the ui, the app and a
web view share one vocabulary without importing each other. A warning is
named by its id (:attr:`TableWarning.id`), never by its text.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.tracker.display import PlayerName


class AppAction(enum.Enum):
    UNDO = "undo"
    OVERRIDE = "override"
    """Accept what a warning complains about (its play is applied anyway)."""
    CONFIRM_DISCARD = "confirm-discard"
    NEW_GAME = "new-game"
    FIRST_PLAYER = "first-player"
    RESTART = "restart"
    POWER_OFF = "power-off"
    JOIN = "join"
    """Join the game in progress on the table with the values the players confirmed."""
    CHOOSE = "choose"
    """Answer "which was it?" when two readings of the table fit equally."""
    TEACH = "teach"
    """The set-up menu: teach the companion the players' own playmat (the game waits meanwhile)."""
    CHECK_STICKERS = "check-stickers"
    """The set-up menu: check that each laid card's sticker is of its color."""
    SETUP_NEXT = "setup-next"
    """In a set-up task: checking, the next color; teaching, nothing."""
    SETUP_AGAIN = "setup-again"
    """In a set-up task: start it over (teach again after a failure, check the laid cards afresh)."""
    SETUP_CLOSE = "setup-close"
    """Leave the set-up task; the game carries on where it was."""
    SHIPPED_LAYOUT = "shipped-layout"
    """Forget the taught playmat: the configured (shipped) layout again; the taught file is kept aside."""


@dataclass(frozen=True, slots=True)
class AppCommand:
    """A request for the app: the game changes only through these."""

    action: AppAction
    count: int | None = None
    """A discard count; for a choice, the option taken (0 keeps what was applied)."""
    player: PlayerName | None = None
    warning_id: str | None = None
    """For an override: the id of the warning shown (None: the oldest)."""
    values: tuple[int, ...] | None = None
    """A join's values, in the order of ``JOIN_FIELDS`` (turn 0 is p1)."""

    def __str__(self) -> str:
        extra = [f"{k}={v}" for k, v in (("count", self.count), ("player", self.player),
                                          ("warning", self.warning_id), ("values", self.values))
                 if v is not None]
        return " ".join([self.action.value, *extra])
