"""The events of a game of the ``mountains`` ruleset (``rules-002.md``), each one record line.

A turn is a :class:`DrawCards` (skipped when the hand already holds 6), one
:class:`PlayCard` and, when the hand then holds more than 6, one
:class:`DiscardCards`. Each round opens with a :class:`StartCard` per
player. Round scoring is not an event: it follows from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from companion.engine.cards import Card, Player, card_name, player_name
from companion.engine.events import BaseEvent, card_names, check_cards, discard_json
from companion.errors import InvalidEventError

_set = object.__setattr__
"""How a frozen dataclass's own ``__init__`` sets its fields."""


@dataclass(frozen=True, slots=True)
class StartCard(BaseEvent):
    """A colored card from the hand onto the start row: the first column of the player's mountain."""

    player: Player
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"player": player_name(self.player), "action": "start", "card": card_name(self.card)}


@dataclass(frozen=True, slots=True, init=False)
class DrawCards(BaseEvent):
    """The turn's draw, or one card before a starting card for a hand with no colored card.

    ``drew`` names the cards (full information) or counts them (a camera sees
    a player draw, not what).
    """

    player: Player
    drew: tuple[Card, ...] | int

    # Written out rather than generated with a __post_init__ check: random play makes a draw
    # nearly every turn, and the extra call is a good part of the cost of one.
    def __init__(self, player: Player, drew: tuple[Card, ...] | int) -> None:
        if isinstance(drew, int) and drew < 0:
            raise InvalidEventError(f"a draw of {drew} cards: the count must be 0 or more")
        _set(self, "player", player)
        _set(self, "drew", drew)

    @property
    def count(self) -> int:
        return self.drew if isinstance(self.drew, int) else len(self.drew)

    def to_json(self) -> dict[str, Any]:
        drew = self.drew if isinstance(self.drew, int) else card_names(self.drew)
        return {"player": player_name(self.player), "action": "draw", "drew": drew}


@dataclass(frozen=True, slots=True)
class PlayCard(BaseEvent):
    """One card into a mountain: the player's own (``mountain == player``) or the opponent's."""

    player: Player
    card: Card
    mountain: Player
    """Whose mountain the card goes into."""

    def to_json(self) -> dict[str, Any]:
        return {"player": player_name(self.player), "action": "play", "card": card_name(self.card),
                "mountain": player_name(self.mountain)}


@dataclass(frozen=True, slots=True, init=False)
class DiscardCards(BaseEvent):
    """After the play, the hand's cards beyond 6 go face up onto the discard pile."""

    player: Player
    cards: tuple[Card, ...]
    unseen: int = 0
    """Further discarded cards whose ids the camera could not read (table mode)."""

    def __init__(self, player: Player, cards: tuple[Card, ...], unseen: int = 0) -> None:  # as DrawCards'
        if unseen < 0:
            raise InvalidEventError(f"unseen discard count must be >= 0, not {unseen}")
        if not unseen:
            check_cards("discard", cards)
        _set(self, "player", player)
        _set(self, "cards", cards)
        _set(self, "unseen", unseen)

    @property
    def count(self) -> int:
        return len(self.cards) + self.unseen

    def to_json(self) -> dict[str, Any]:
        return discard_json(self.player, self.cards, self.unseen)


MountainsEvent: TypeAlias = "StartCard | DrawCards | PlayCard | DiscardCards"
"""An event of the mountains ruleset."""
