"""Layout zone names for the places of the rules engine, and back.

The tracker knows nothing of geometry: a zone is its name in the layout file
(``interfaces.md`` section 2). This module says where the engine expects each
card to lie face up, so a settled view of the table can be compared with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Game
from companion.engine.cards import Card, Mandala, Player
from companion.engine.game import AREAS, CUPS, DISCARD, RIVERS, UNSEEN


def mountain(mandala: Mandala) -> str:
    return f"m{mandala + 1}.mountain"


def field(mandala: Mandala, player: Player) -> str:
    return f"m{mandala + 1}.field.p{player + 1}"


def river(player: Player, space: int) -> str:
    """``space`` counts from 1, as printed on the mat."""
    return f"p{player + 1}.river.{space}"


def cup(player: Player) -> str:
    return f"p{player + 1}.cup"


def reveal(player: Player) -> str:
    return f"p{player + 1}.reveal"


DISCARD_ZONE = "discard"
DECK_ZONE = "deck"


@dataclass(frozen=True, slots=True)
class ZoneRef:
    """A zone name taken apart: ``kind`` is mountain, field, river, cup, reveal, deck or discard."""

    kind: str
    mandala: Mandala | None = None
    player: Player | None = None
    space: int | None = None


def parse_zone(name: str) -> ZoneRef:
    parts = name.split(".")
    if name in (DISCARD_ZONE, DECK_ZONE):
        return ZoneRef(name)
    if parts[0] in ("m1", "m2"):
        mandala = int(parts[0][1]) - 1
        if parts[1] == "mountain":
            return ZoneRef("mountain", mandala)
        return ZoneRef("field", mandala, int(parts[2][1]) - 1)
    player = int(parts[0][1]) - 1
    if parts[1] == "river":
        return ZoneRef("river", player=player, space=int(parts[2]))
    return ZoneRef(parts[1], player=player)


def expected_zone(game: Game, card: Card) -> str | None:
    """Where the engine says ``card`` lies face up on the table; None if it is hidden or off the table.

    Cups are face down during play; once the game is over they are laid out
    for scoring, so a cup card is then expected in its player's reveal area.
    """
    where = game.location(card)
    if where == UNSEEN:
        return None
    if where >= AREAS:
        mandala, slot = divmod(where - AREAS, 3)
        return mountain(mandala) if slot == 0 else field(mandala, slot - 1)
    if where in RIVERS:
        player = RIVERS.index(where)
        return river(player, game.known[where].index(card) + 1)
    if where == DISCARD:
        return DISCARD_ZONE
    if where in CUPS and game.is_over:
        return reveal(CUPS.index(where))
    return None


def describe_zone(name: str) -> str:
    """How a person names a zone: "mandala 1's mountain", "player 2's river space 3"."""
    ref = parse_zone(name)
    if ref.kind == "mountain":
        return f"mandala {(ref.mandala or 0) + 1}'s mountain"
    if ref.kind == "field":
        return f"player {(ref.player or 0) + 1}'s field of mandala {(ref.mandala or 0) + 1}"
    if ref.kind == "river":
        return f"player {(ref.player or 0) + 1}'s river space {ref.space}"
    if ref.kind in ("cup", "reveal"):
        return f"player {(ref.player or 0) + 1}'s {ref.kind}"
    return f"the {ref.kind} pile" if ref.kind == "discard" else "the deck"
