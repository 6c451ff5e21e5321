"""Why an event is illegal: a stable reason code plus a plain-language message.

Reasons are values, not exceptions: the table companion shows them and goes
on. The codes are a contract (``docs/interfaces.md`` section 4); when several
apply, the first in :data:`PRECEDENCE` is the one reported.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Reason(enum.Enum):
    GAME_OVER = "game-over"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    CARD_NOT_IN_HAND = "card-not-in-hand"
    MOUNTAIN_ONE_CARD = "mountain-one-card"
    MIXED_COLORS = "mixed-colors"
    OWN_FIELD_ONLY = "own-field-only"
    COLOR_RULE = "color-rule"
    MUST_KEEP_ONE_CARD = "must-keep-one-card"
    COLOR_NOT_IN_MOUNTAIN = "color-not-in-mountain"
    # Extensions beyond the contract's list, placed where they belong in the order.
    RIVER_CARD = "river-card"
    CARD_NOT_IN_CUP = "card-not-in-cup"
    REFILL_COUNT = "refill-count"
    DRAW_COUNT = "draw-count"
    CARD_NOT_IN_DECK = "card-not-in-deck"

    def __str__(self) -> str:
        return self.value


PRECEDENCE: tuple[Reason, ...] = tuple(Reason)
"""Reasons in the order they are checked: the first that applies is reported."""


@dataclass(frozen=True, slots=True)
class Violation:
    reason: Reason
    message: str

    def __str__(self) -> str:
        return f"{self.reason.value}: {self.message}"
