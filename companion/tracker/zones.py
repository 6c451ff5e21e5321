"""Layout zone names for the places of the rules engine, and back.

The tracker knows nothing of geometry: a zone is its name in the layout file
(``interfaces.md`` section 2), built and read by :mod:`companion.vocab.zones`
(re-exported here). This module says where the engine expects each
card to lie face up, so a settled view of the table can be compared with it.
"""

from __future__ import annotations

from companion.engine import Game
from companion.engine.cards import Card
from companion.engine.game import AREAS, CUPS, DISCARD, RIVERS, UNSEEN
from companion.vocab.zones import DECK as DECK_ZONE
from companion.vocab.zones import DISCARD as DISCARD_ZONE
from companion.vocab.zones import ZoneRef, cup, describe_zone, field, mountain, parse_zone, reveal, river, screen_zone

__all__ = ["DECK_ZONE", "DISCARD_ZONE", "ZoneRef", "cup", "describe_zone", "expected_zone", "field", "mountain",
           "parse_zone", "reveal", "river", "screen_zone"]


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
