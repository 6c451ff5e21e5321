"""Zone names of the playmat, defined once (``interfaces.md`` section 2).

A zone is a named area of the mat: the layout file gives each its polygon
(:mod:`companion.vision.layout`), vision says which zone a card lies in, the
tracker compares that with where the rules put the card, the simulator lays
cards into zones, and the screens name them to the players. All of them build
and read the names here.

>>> river(1, 3), field(0, 1), parse_zone("m2.field.p1")
('p2.river.3', 'm1.field.p2', ZoneRef(kind='field', mandala=1, player=0, space=None))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MANDALA_NAMES: tuple[str, str] = ("m1", "m2")
PLAYER_NAMES: tuple[str, str] = ("p1", "p2")
RIVER_SPACES = 6
"""Spaces in each player's river, numbered 1..6 from the left as the player sees it."""

DECK = "deck"
DISCARD = "discard"


def mountain(mandala: int) -> str:
    """``mandala`` counts from 0 (m1)."""
    return f"{MANDALA_NAMES[mandala]}.mountain"


def field(mandala: int, player: int) -> str:
    """The field of ``player`` (0 is p1) in ``mandala``."""
    return f"{MANDALA_NAMES[mandala]}.field.{PLAYER_NAMES[player]}"


def river(player: int, space: int) -> str:
    """``space`` counts from 1, as printed on the mat."""
    return f"{PLAYER_NAMES[player]}.river.{space}"


def cup(player: int) -> str:
    return f"{PLAYER_NAMES[player]}.cup"


def reveal(player: int) -> str:
    """Where a player lays their cup cards face up when the game is over."""
    return f"{PLAYER_NAMES[player]}.reveal"


ZONE_NAMES: tuple[str, ...] = (
    *(name for m in (0, 1) for name in (mountain(m), field(m, 0), field(m, 1))),
    *(river(p, space) for p in (0, 1) for space in range(1, RIVER_SPACES + 1)),
    cup(0), cup(1), reveal(0), reveal(1), DECK, DISCARD,
)
"""Every zone a layout of the official game must have, in interfaces.md order."""

START = "start"
"""The ``mountains`` ruleset's start row, between the two mountain boards."""


def mountain_board(player: int) -> str:
    """A player's own mountain board in the ``mountains`` ruleset (``player`` counts from 0)."""
    return f"{PLAYER_NAMES[player]}.mountain"


def score_pile(player: int) -> str:
    """A player's face-down score pile in the ``mountains`` ruleset."""
    return f"{PLAYER_NAMES[player]}.score"


MOUNTAINS_ZONE_NAMES: tuple[str, ...] = (mountain_board(0), mountain_board(1), START, score_pile(0), score_pile(1),
                                         DECK, DISCARD)
"""Every zone a layout of the ``mountains`` ruleset must have (rules-002.md): each player's mountain board,
the start row between them, the face-down score piles, deck and discard pile."""


@dataclass(frozen=True, slots=True)
class ZoneRef:
    """A zone name taken apart: ``kind`` is mountain, field, river, cup, reveal, deck, discard or the name."""

    kind: str
    mandala: int | None = None
    player: int | None = None
    space: int | None = None


def parse_zone(name: str) -> ZoneRef:
    """Take a zone name apart; a name this vocabulary does not know comes back as its own kind."""
    parts = name.split(".")
    if name in (DISCARD, DECK):
        return ZoneRef(name)
    if parts[0] in MANDALA_NAMES and len(parts) >= 2:
        mandala = MANDALA_NAMES.index(parts[0])
        if parts[1] == "mountain":
            return ZoneRef("mountain", mandala)
        if parts[1] == "field" and len(parts) == 3 and parts[2] in PLAYER_NAMES:
            return ZoneRef("field", mandala, PLAYER_NAMES.index(parts[2]))
    if parts[0] in PLAYER_NAMES and len(parts) >= 2:
        player = PLAYER_NAMES.index(parts[0])
        if parts[1] == "river" and len(parts) == 3 and parts[2].isdigit():
            return ZoneRef("river", player=player, space=int(parts[2]))
        return ZoneRef(parts[1], player=player)
    return ZoneRef(name)


_MOUNTAINS_KINDS = {"mountain": "mountain board", "score": "score pile"}
"""A player's zones of the ``mountains`` playmat, as a sentence names them."""


def describe_zone(name: str) -> str:
    """How a person names a zone in a sentence: "mandala 1's mountain", "player 2's river space 3"."""
    ref = parse_zone(name)
    player = f"player {(ref.player or 0) + 1}"
    if ref.kind == "mountain" and ref.mandala is not None:
        return f"mandala {ref.mandala + 1}'s mountain"
    if ref.kind == "field":
        return f"{player}'s field of mandala {(ref.mandala or 0) + 1}"
    if ref.kind == "river":
        return f"{player}'s river space {ref.space}"
    if ref.player is not None:
        return f"{player}'s {_MOUNTAINS_KINDS.get(ref.kind, ref.kind)}"
    if ref.kind == START:
        return "the start row"
    if ref.kind == DISCARD:
        return "the discard pile"
    return "the deck" if ref.kind == DECK else name


_SCREEN_ZONES = {"mountain": "{mandala} mountain", "field": "{player} field {mandala}",
                 "river": "{player} river {space}", START: "start row", DISCARD: "discard pile", DECK: "deck"}
_SCREEN_PLAYER_ZONES = {kind: f"{{player}} {kind}" for kind in ("cup", "reveal", "mountain", "score")}
"""A player's own zones, named on the OLED (``mountain`` here is a ``mountains`` board: no mandala)."""
SCREEN_ZONE_MESSAGES = frozenset({*_SCREEN_ZONES.values(), *_SCREEN_PLAYER_ZONES.values()})
"""The templates of :func:`screen_zone`: messages of the catalogs (companion/locale) too."""


def _same(message: str) -> str:
    return message


def screen_zone(name: str, gettext: Callable[[str], str] = _same) -> str:
    """The zone's name on the OLED, at most 12 letters: "M1 mountain", "P2 field M1", "P1 river 3".

    ``gettext`` translates the templates (``companion.ui.i18n._`` on the screens).
    """
    ref = parse_zone(name)
    values = {"player": PLAYER_NAMES[ref.player or 0].upper(), "space": ref.space,
              "mandala": MANDALA_NAMES[ref.mandala or 0].upper()}
    if (ref.kind == "mountain" and ref.mandala is not None) or ref.kind in ("field", "river", START, DISCARD, DECK):
        template = _SCREEN_ZONES[ref.kind]
    elif ref.player is not None:
        template = _SCREEN_PLAYER_ZONES.get(ref.kind, f"{{player}} {ref.kind}")
    else:
        return name
    return gettext(template).format(**values) if template in SCREEN_ZONE_MESSAGES else template.format(**values)
