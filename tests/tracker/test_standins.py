"""Cards known by color only (companion.tracker.standins): naming one, and giving way to the real card."""

from __future__ import annotations

import pytest

from companion.engine import Phase
from companion.engine.cards import parse_card, parse_color
from companion.engine.game import CUPS, UNSEEN
from companion.engine.position import Position, build
from companion.errors import PositionError
from companion.tracker.standins import exchanged, stand_in


def _claimed() -> Position:
    """p1's cup holds Y02, claimed; Y01 lies in p1's river."""
    return Position(mountains=((parse_card("R01"),), (parse_card("G01"),)), rivers=((parse_card("Y01"),), ()),
                    cups=((parse_card("Y02"),), ()), fields=(((parse_card("K01"),), ()), ((), ())),
                    phase=Phase.PLAY, turn=1)


def test_a_stand_in_is_an_unseen_card_of_the_color_not_in_sight() -> None:
    game = build(_claimed())
    assert stand_in(game, parse_color("Y")) == parse_card("Y03")        # Y01, Y02 are on the table or in a cup
    assert stand_in(game, parse_color("Y"), avoid={"Y03", "Y04"}) == parse_card("Y05")


def test_exchanging_puts_the_real_card_where_the_stand_in_was() -> None:
    game = build(_claimed())
    real = exchanged(game, parse_card("Y02"), parse_card("Y07"))
    assert real.location(parse_card("Y07")) == CUPS[0] and real.location(parse_card("Y02")) == UNSEEN
    assert real.cup_size(0) == game.cup_size(0) and real.deck_size == game.deck_size and real.turn == 1


def test_only_an_unseen_card_of_the_same_color_can_stand_there() -> None:
    game = build(_claimed())
    with pytest.raises(PositionError):
        exchanged(game, parse_card("Y02"), parse_card("R07"))             # another color
    with pytest.raises(PositionError):
        exchanged(game, parse_card("Y02"), parse_card("Y01"))             # lies in the river
