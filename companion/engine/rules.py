"""What a ruleset fixes, as one value per ruleset: the single definition of every rule constant.

A game class reads its numbers from its ``rules`` (``Game.rules``,
``MountainsGame.rules``), never from literals, and so do records, random play
and the text form. :mod:`companion.engine.rulesets` maps ruleset names to
game classes.

>>> MANDALA.hand_limit, MOUNTAINS.hand_max, len(MOUNTAINS.cards)
(8, 9, 120)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.cards import ALL_CARDS, CARDS, PLAYER_NAMES, Card, parse_any_card, parse_card
from companion.engine.violations import MOUNTAINS_PRECEDENCE, PRECEDENCE, Reason


@dataclass(frozen=True, slots=True)
class Rules:
    """What every ruleset fixes."""

    name: str
    """The registry name, and the value of ``"ruleset"`` in a record header."""
    title: str
    text_tag: str
    """First word of the one-line text form of a state (``mandala/1``)."""
    cards: tuple[Card, ...]
    """Every card in the game."""
    hand_size: int
    """Cards dealt into each hand at the start."""
    zones: tuple[str, ...]
    """The engine's zones, by zone number (its own vocabulary; the playmat's zones are the layout's)."""
    precedence: tuple[Reason, ...]
    """The reasons this ruleset reports, in the order they are checked."""

    def zone(self, name: str) -> int:
        """A zone's number, by its name in :attr:`zones`."""
        return self.zones.index(name)

    def player_zones(self, kind: str) -> tuple[int, int]:
        """Each player's zone of a kind (``"hand"``: ``p1.hand``, ``p2.hand``), by number."""
        return self.zone(f"{PLAYER_NAMES[0]}.{kind}"), self.zone(f"{PLAYER_NAMES[1]}.{kind}")

    def parse_card(self, name: object) -> Card:
        """A card id of this ruleset's deck; anything else is an :class:`InvalidCardError`."""
        # Both decks number their cards alike: a longer one holds the gold cards too.
        return parse_any_card(name) if len(self.cards) > len(CARDS) else parse_card(name)


@dataclass(frozen=True, slots=True)
class MandalaRules(Rules):
    """The official game (``rules.md``)."""

    cup_size: int
    """Cards dealt face down into each cup."""
    mountain_deal: int
    """Cards dealt face up into each mountain, and drawn into it after a destruction."""
    hand_limit: int
    mountain_draw: int
    """Action A draws up to this many, never past the hand limit."""
    river_spaces: int


@dataclass(frozen=True, slots=True)
class MountainsRules(Rules):
    """The second game of the seeds (``rules-002.md``)."""

    hand_max: int
    """The most a draw may bring the hand to."""
    gold_points: int
    """Points for each gold card in a mountain when a round ends."""
    set_bonus: int
    """Bonus for a score pile holding all six colors."""


MANDALA = MandalaRules(
    name="mandala", title="Mandala", text_tag="mandala/1", cards=CARDS, hand_size=6,
    zones=("p1.hand", "p2.hand", "p1.cup", "p2.cup", "p1.river", "p2.river", "deck", "discard",
           "m1.mountain", "m1.field.p1", "m1.field.p2", "m2.mountain", "m2.field.p1", "m2.field.p2"),
    precedence=PRECEDENCE,
    cup_size=2, mountain_deal=2, hand_limit=8, mountain_draw=3, river_spaces=6,
)

MOUNTAINS = MountainsRules(
    name="mountains", title="Mandala, mountain boards", text_tag="mountains/1", cards=ALL_CARDS, hand_size=6,
    zones=("p1.hand", "p2.hand", "p1.mountain", "p2.mountain", "p1.score", "p2.score", "p1.gold", "p2.gold",
           "deck", "discard", "out"),
    precedence=MOUNTAINS_PRECEDENCE,
    hand_max=9, gold_points=1, set_bonus=10,
)
