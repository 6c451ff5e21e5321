"""Table mode: hands, cups and draws known only as counts, one rules code."""

from __future__ import annotations

import json

from companion.engine import Claim, Discard, FieldPlay, Game, MountainPlay, Phase, Reason, Reveal, read_record
from companion.engine.cards import parse_color
from companion.engine.game import CUPS, DECK, HANDS, UNSEEN
from tests.engine.positions import cards

P1, P2, M1, M2 = 0, 1, 0, 1


def table_game() -> Game:
    header = {"format": "mandala-record/1", "first_player": "p1", "mode": "table",
              "setup": {"m1": ["R01", "O01"], "m2": ["Y01", "G01"],
                        "p1": {"hand": 6, "cup": 2}, "p2": {"hand": 6, "cup": 2}}}
    return Game(read_record([json.dumps(header)]).setup)


def test_setup_counts() -> None:
    game = table_game()
    assert game.hand_size(P1) == 6 and game.cup_size(P2) == 2 and game.deck_size == 88
    assert game.hand(P1) == () and not game.is_full_information


def test_any_unseen_card_may_come_from_a_hidden_hand() -> None:
    game = table_game()
    game.push(MountainPlay(P1, M1, cards("P05")))  # drew unspecified: the rules' count, unseen
    assert game.hand_size(P1) == 8 and game.deck_size == 85
    assert game.location(cards("P05")[0]) != UNSEEN


def test_drawn_count_is_checked() -> None:
    game = table_game()
    violation = game.validate(MountainPlay(P1, M1, cards("P05"), 2))
    assert violation is not None and violation.reason is Reason.DRAW_COUNT


def test_a_card_seen_on_the_table_is_not_in_a_hand() -> None:
    violation = table_game().validate(FieldPlay(P1, M2, cards("R01")))
    assert violation is not None and violation.reason is Reason.CARD_NOT_IN_HAND


def test_a_hand_gives_no_more_cards_than_it_holds() -> None:
    game = table_game()
    violation = game.validate(Discard(P1, cards("K01 K02 K03 K04 K05 K06 K07"), 7))
    assert violation is not None and violation.reason is Reason.CARD_NOT_IN_HAND


def test_keep_one_card_from_the_tracked_hand_size() -> None:
    game = table_game()
    violation = game.validate(FieldPlay(P1, M2, cards("K01 K02 K03 K04 K05 K06")))
    assert violation is not None and violation.reason is Reason.MUST_KEEP_ONE_CARD


def test_discard_with_unread_cards_counts_them() -> None:
    game = table_game()
    game.push(Discard(P1, cards("K01"), None, unseen=1))
    assert game.hand_size(P1) == 6 and game.discard_size == 2 and game.deck_size == 86


def test_claimed_cup_cards_are_known_start_cards_are_not() -> None:
    game = table_game()
    for event in (FieldPlay(P1, M1, cards("Y02")), FieldPlay(P2, M1, cards("G02")),
                  MountainPlay(P1, M1, cards("P01"), 3), MountainPlay(P2, M1, cards("K01"), 3)):
        game.push(event)
    assert game.phase is Phase.CLAIM
    game.push(Claim(game.turn, parse_color("R")))
    picker = 1 - game.turn
    score = game.score(picker)
    assert score.unknown == 2 and score.cup_size == 2


def test_reveal_identifies_unseen_cup_cards_and_decides_the_winner() -> None:
    game = table_game()
    game.phase = Phase.OVER
    violation = game.validate(Reveal(P1, cards("R01")))
    assert violation is not None and violation.reason is Reason.CARD_NOT_IN_CUP
    assert game.winner() is None
    game.push(Reveal(P1, cards("K01 K02")))
    game.push(Reveal(P2, cards("K03 K04")))
    assert game.known[CUPS[P1]] == list(cards("K01 K02")) and game.winner() == "draw"
    assert game.hidden[CUPS[P1]] == 0 and game.hidden[HANDS[P1]] == 6 and game.hidden[DECK] == 88
