"""Cards known by their color only: a mountain card nobody read, claimed out of sight.

A claim takes every card of one color. When players claim a color the camera
never saw in the mountain (the card lay under another one and went straight
into a cup), the table shows which color left, by the turns that follow, but
not which card it was. The game needs a card, so the tracker names an unseen
card of that color as a *stand-in* and remembers it. Scores only depend on
colors, so the stand-in scores right; it gives way to the real card as soon
as the table shows it: an unseen card of its color turns up where the
stand-in may lie (its mountain; a river or the pile while that mountain is
claimed; its cup laid out at the end), or the stand-in itself turns up
somewhere else (it never was there: another unseen card stands in).
The tracker keeps the stand-ins (``Tracker.stand_ins``) and makes the swaps.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from companion.engine import Game
from companion.engine.cards import CARDS_PER_COLOR, COLOR_OF, Card, card_name
from companion.engine.game import UNSEEN
from companion.engine.position import Pair, build, position_of
from companion.errors import PositionError


def stand_in(game: Game, color: int, avoid: Collection[str] = ()) -> Card | None:
    """An unseen card of ``color`` to name a card nobody read (none in ``avoid``: cards in sight)."""
    for card in range(color * CARDS_PER_COLOR, (color + 1) * CARDS_PER_COLOR):
        if game.location(card) == UNSEEN and card_name(card) not in avoid:
            return card
    return None


def exchanged(game: Game, old: Card, new: Card) -> Game:
    """The game with ``new`` (an unseen card) wherever ``old`` lies on the table or in a cup, ``old`` unseen."""
    if game.location(new) != UNSEEN or COLOR_OF[new] != COLOR_OF[old]:
        raise PositionError(f"{card_name(new)} cannot stand where {card_name(old)} lies")
    position = position_of(game)

    def swap(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(new if card == old else card for card in cards)

    def pair(cards: Pair) -> Pair:
        return swap(cards[0]), swap(cards[1])

    return build(replace(position, mountains=pair(position.mountains),
                         fields=(pair(position.fields[0]), pair(position.fields[1])),
                         rivers=pair(position.rivers), discard=swap(position.discard), cups=pair(position.cups)))
