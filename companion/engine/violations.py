"""Why an event is illegal: a stable reason code plus a plain-language message.

Reasons are values, not exceptions: the table companion shows them and goes
on. The codes are a contract (``docs/interfaces.md`` sections 4 and 10),
defined once with their screen texts in :mod:`companion.vocab.reasons` (one
enum for every ruleset and the tracker); each ruleset checks its own in its
own order (``Rules.precedence``): when several apply, the first in that order
is the one reported. :data:`PRECEDENCE` is the official game's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.vocab.reasons import Reason

__all__ = ["MOUNTAINS_PRECEDENCE", "PRECEDENCE", "Reason", "Violation"]


PRECEDENCE: tuple[Reason, ...] = (
    Reason.GAME_OVER, Reason.WRONG_PHASE, Reason.NOT_YOUR_TURN, Reason.CARD_NOT_IN_HAND,
    Reason.MOUNTAIN_ONE_CARD, Reason.MIXED_COLORS, Reason.OWN_FIELD_ONLY, Reason.COLOR_RULE,
    Reason.MUST_KEEP_ONE_CARD, Reason.COLOR_NOT_IN_MOUNTAIN, Reason.RIVER_CARD, Reason.CARD_NOT_IN_CUP,
    Reason.REFILL_COUNT, Reason.DRAW_COUNT, Reason.CARD_NOT_IN_DECK,
)
"""The official game's reasons in the order they are checked: the first that applies is reported."""

MOUNTAINS_PRECEDENCE: tuple[Reason, ...] = (
    Reason.GAME_OVER, Reason.WRONG_PHASE, Reason.NOT_YOUR_TURN, Reason.CARD_NOT_IN_HAND,
    Reason.START_NOT_COLORED, Reason.START_SAME_COLOR, Reason.DRAW_COUNT,
    # Beyond rules-002.md's list: a full-information draw naming a card the deck does not hold.
    Reason.CARD_NOT_IN_DECK,
    Reason.OWN_MOUNTAIN_COLOR, Reason.NO_SUCH_COLUMN, Reason.GOLD_NEW_COLUMN, Reason.DISCARD_COUNT,
)
"""The mountains ruleset's reasons in the order they are checked (rules-002.md, plus one extension)."""


@dataclass(frozen=True, slots=True)
class Violation:
    reason: Reason
    message: str

    def __str__(self) -> str:
        return f"{self.reason.value}: {self.message}"
