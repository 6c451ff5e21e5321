"""The events of a game, as small immutable values.

Each event is one line of a ``mandala-record/1`` game record (see
``docs/interfaces.md``). Player decisions (:class:`MountainPlay`,
:class:`FieldPlay`, :class:`Discard`, :class:`Claim`) and chance events
(:class:`Refill`, the draws inside plays) share one union, :data:`Event`.

A draw is written as a :data:`Draw`: the drawn cards when they are known
(full information), a count when only the number is known (a camera sees the
player draw, not what), or ``None`` for "whatever the rules require, unseen".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeAlias

from companion.engine.cards import (
    Card,
    Color,
    Mandala,
    Player,
    card_name,
    color_letter,
    mandala_name,
    player_name,
)
from companion.errors import InvalidEventError

Draw: TypeAlias = "tuple[Card, ...] | int | None"


def card_names(cards: tuple[Card, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def _draw_json(drew: Draw) -> list[str] | int | None:
    return card_names(drew) if isinstance(drew, tuple) else drew


def check_cards(kind: str, cards: tuple[Card, ...]) -> None:
    if not cards:
        raise InvalidEventError(f"a {kind} event needs at least one card")


def discard_json(player: Player, cards: tuple[Card, ...], unseen: int) -> dict[str, Any]:
    """A discard's record line (either ruleset's): the cards read, and how many more were not."""
    line: dict[str, Any] = {"player": player_name(player), "action": "discard", "cards": card_names(cards)}
    if unseen:
        line["unseen"] = unseen
    return line


class BaseEvent:
    """Shared text form of every ruleset's events: an event prints as its record line."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(", ", ": "))


@dataclass(frozen=True, slots=True)
class MountainPlay(BaseEvent):
    """Action A: one card into a mountain, then draw."""

    player: Player
    mandala: Mandala
    cards: tuple[Card, ...]
    drew: Draw = None

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"player": player_name(self.player), "action": "mountain",
                                "mandala": mandala_name(self.mandala), "cards": card_names(self.cards)}
        if self.drew is not None:
            line["drew"] = _draw_json(self.drew)
        return line


@dataclass(frozen=True, slots=True)
class FieldPlay(BaseEvent):
    """Action B: cards of one color into a field (the player's own), no draw."""

    player: Player
    mandala: Mandala
    cards: tuple[Card, ...]
    field: Player | None = None
    """Owner of the field the cards went into; ``None`` means the acting player."""

    def __post_init__(self) -> None:
        check_cards("field", self.cards)

    @property
    def field_owner(self) -> Player:
        return self.player if self.field is None else self.field

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"player": player_name(self.player), "action": "field",
                                "mandala": mandala_name(self.mandala), "cards": card_names(self.cards)}
        if self.field is not None:
            line["field"] = player_name(self.field)
        return line


@dataclass(frozen=True, slots=True)
class Discard(BaseEvent):
    """Action C: cards of one color onto the discard pile, draw as many."""

    player: Player
    cards: tuple[Card, ...]
    drew: Draw = None
    unseen: int = 0
    """Further discarded cards whose ids the camera could not read (table mode)."""

    def __post_init__(self) -> None:
        if self.unseen < 0:
            raise InvalidEventError(f"unseen discard count must be >= 0, not {self.unseen}")
        if not self.cards and not self.unseen:
            raise InvalidEventError("a discard event needs at least one card")

    @property
    def count(self) -> int:
        return len(self.cards) + self.unseen

    def to_json(self) -> dict[str, Any]:
        line = discard_json(self.player, self.cards, self.unseen)
        if self.drew is not None:
            line["drew"] = _draw_json(self.drew)
        return line


@dataclass(frozen=True, slots=True)
class Claim(BaseEvent):
    """One pick of a destruction: all mountain cards of one color."""

    player: Player
    color: Color
    river: Card | None = None
    """The card laid in the river, when the claim puts one there (default: the first laid)."""

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"player": player_name(self.player), "action": "claim",
                                "color": color_letter(self.color)}
        if self.river is not None:
            line["river"] = card_name(self.river)
        return line


@dataclass(frozen=True, slots=True)
class Refill(BaseEvent):
    """The two cards drawn face up into the mountain of a destroyed mandala."""

    mandala: Mandala
    cards: tuple[Card, ...]
    unseen: int = 0
    """Further refill cards whose ids the camera could not read (one laid straight over the other)."""

    def __post_init__(self) -> None:
        if self.unseen < 0:
            raise InvalidEventError(f"unseen refill count must be >= 0, not {self.unseen}")

    @property
    def count(self) -> int:
        return len(self.cards) + self.unseen

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {"action": "refill", "mandala": mandala_name(self.mandala),
                                "cards": card_names(self.cards)}
        if self.unseen:
            line["unseen"] = self.unseen
        return line


@dataclass(frozen=True, slots=True)
class Reveal(BaseEvent):
    """End of a table-mode game: cup cards the camera had not seen, now turned up."""

    player: Player
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        check_cards("reveal", self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"player": player_name(self.player), "action": "reveal", "cards": card_names(self.cards)}


@dataclass(frozen=True, slots=True)
class Resync(BaseEvent):
    """A correction: from here on the game is the position the table shows (table mode).

    A camera companion writes it when the table and the tracked game disagree
    beyond any legal explanation, and when it learns a card that lay unseen
    (a mountain card under another): ``position`` is the whole new state as
    the one-line state text (:meth:`Game.text`).
    """

    position: str

    def __post_init__(self) -> None:
        if not self.position.strip():
            raise InvalidEventError("a resync event needs a position")

    def to_json(self) -> dict[str, Any]:
        return {"action": "resync", "position": self.position}


Event: TypeAlias = "MountainPlay | FieldPlay | Discard | Claim | Refill | Reveal | Resync"
"""An event of the official game."""
