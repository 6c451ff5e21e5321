"""The mountains ruleset (rules-002.md), rule by rule and decision by decision, on small positions."""

from __future__ import annotations

import json

import pytest

from companion.engine import (
    DiscardCards,
    DrawCards,
    MountainsGame,
    MountainsPhase,
    PlayCard,
    Reason,
    StartCard,
    read_record,
    replay,
    summary,
    table_record,
)
from companion.engine.mountains.game import DECK, DISCARD, DISCARD_STEP, DRAW_STEP, GOLDS, OUT, PILES, PLAY_STEP
from companion.errors import IllegalEventError
from tests.engine.positions import any_cards, mountains_position
from tests.engine.test_properties import check_hands_by_color

P1, P2 = 0, 1
Phase = MountainsPhase


def card(name: str) -> int:
    return any_cards(name)[0]


def reason(game: MountainsGame, event: object) -> Reason | None:
    violation = game.validate(event)  # type: ignore[arg-type]
    return None if violation is None else violation.reason


def starting() -> MountainsGame:
    """Round 1, player 1 lays the first starting card."""
    return mountains_position(phase="start", p1=("A01 R01 R02 O01 Y01 K01", "", "", ""),
                              p2=("R03 O02 A02 A03 A04 A05", "", "", ""))


def playing(flags: str = "round=1,first=p1") -> MountainsGame:
    """Player 1 to act with 6 cards; black is in player 2's mountain, green in player 1's."""
    return mountains_position(flags=flags, p1=("R01 R02 O01 Y01 A01 K01", "G01", "", ""),
                              p2=("P02 P03 G02 Y02 Y03 Y04", "P01 K02", "", ""))


class TestSetup:
    def test_a_deal_gives_six_cards_each_from_120(self) -> None:
        import random

        from companion.engine import deal_mountains

        game = MountainsGame(deal_mountains(random.Random(3), first_player=1))
        assert game.hand_size(P1) == game.hand_size(P2) == 6 and game.deck_size == 108
        assert game.phase is Phase.START and game.turn == P2 and game.round == 1 and game.round_first == P2
        assert len(game.rules.cards) == 120

    def test_the_official_game_stays_108_cards(self) -> None:
        from companion.engine import Game

        assert len(Game.rules.cards) == 108


class TestStart:
    def test_the_first_player_lays_then_the_second(self) -> None:
        game = starting()
        game.push(StartCard(P1, card("R01")))
        assert game.mountain(P1) == any_cards("R01") and game.turn == P2 and game.phase is Phase.START
        game.push(StartCard(P2, card("O02")))
        assert game.phase is Phase.PLAY and game.turn == P1 and game.step == DRAW_STEP

    def test_a_gold_card_is_no_starting_card(self) -> None:
        violation = starting().validate(StartCard(P1, card("A01")))
        assert violation is not None and violation.reason is Reason.START_NOT_COLORED
        assert violation.message == "A01 is a gold card: a starting card must be colored."

    def test_the_second_start_takes_another_color_when_the_hand_has_one(self) -> None:
        game = starting()
        game.push(StartCard(P1, card("R01")))
        violation = game.validate(StartCard(P2, card("R03")))
        assert violation is not None and violation.reason is Reason.START_SAME_COLOR
        assert violation.message == ("Red is player 1's starting color: player 2 holds O02 (orange) "
                                     "and must start with another color.")

    def test_the_same_color_is_allowed_when_every_colored_card_has_it(self) -> None:
        game = mountains_position(phase="start", turn="p2", p1=("R02 O01 Y01 K01 G01", "R01", "", ""),
                                  p2=("R03 R04 A02 A03 A04 A05", "", "", ""))
        assert game.is_legal(StartCard(P2, card("R03")))

    def test_a_hand_without_colored_cards_draws_one_at_a_time(self) -> None:
        game = mountains_position(phase="start", turn="p2", p1=("R02 O01 Y01 K01 G01", "R01", "", ""),
                                  p2=("A01 A02 A03 A04 A05 A06", "", "", ""), deck="A07 K09 K10")
        assert reason(game, StartCard(P2, card("A01"))) is Reason.START_NOT_COLORED
        assert reason(game, DrawCards(P2, any_cards("A07 K09"))) is Reason.DRAW_COUNT
        game.push(DrawCards(P2, any_cards("A07")))
        game.push(DrawCards(P2, any_cards("K09")))
        game.push(StartCard(P2, card("K09")))
        assert game.phase is Phase.PLAY and game.hand_size(P2) == 7

    def test_a_hand_with_a_colored_card_does_not_draw_before_its_start(self) -> None:
        violation = starting().validate(DrawCards(P1, 1))
        assert violation is not None and violation.reason is Reason.DRAW_COUNT
        assert "only a hand with no colored card draws" in violation.message

    def test_no_colored_card_and_an_empty_deck_ends_the_game(self) -> None:
        game = mountains_position(phase="start", flags="round=2,first=p1", p1=("R01 O01 Y01 G01 P01", "", "", ""),
                                  p2=("A01 A02 A03 A04 A05", "", "", ""), deck="")
        game.push(StartCard(P1, card("R01")))
        assert game.phase is Phase.OVER and game.turn == P2 and game.round == 2
        assert summary(game)["phase"] == "over" and summary(game)["turn"] == "p2"
        # A camera did not see that hand: the table record says it with a draw of zero cards.
        assert table_record(game).events[-1][1] == DrawCards(P2, 0)

    def test_at_a_table_a_draw_of_zero_says_the_deck_is_empty(self) -> None:
        deck_empty = "mountains/1 start p2 round=2,first=p1 p1:+4/R01/-/- p2:+5/-/-/- deck:- discard:"
        rest = "".join(f"{c}{n:02d}" for c in "ROYGPK" for n in range(1, 19) if f"{c}{n:02d}" != "R01")
        game = MountainsGame.from_text(f"{deck_empty}{rest}A01A02A03 out:-")  # nine cards unseen in hands
        assert game.phase is Phase.START  # the camera can't see the hand: the game goes on
        game.push(DrawCards(P2, 0))
        assert game.phase is Phase.OVER and game.turn == P2

    def test_a_draw_of_zero_before_a_start_needs_an_empty_deck(self) -> None:
        game = mountains_position(phase="start", turn="p2", p1=("R02 O01 Y01 K01 G01", "R01", "", ""),
                                  p2=("A01 A02 A03 A04 A05 A06", "", "", ""))
        assert reason(game, DrawCards(P2, 0)) is Reason.DRAW_COUNT


class TestDraw:
    def test_a_hand_of_five_draws_to_between_six_and_nine(self) -> None:
        game = mountains_position(p1=("R01 R02 O01 Y01 A01", "G01", "", ""), p2=("P02", "P01", "", ""))
        assert game.draw_range(P1) == (1, 4)
        assert reason(game, DrawCards(P1, 0)) is Reason.DRAW_COUNT
        assert reason(game, DrawCards(P1, 5)) is Reason.DRAW_COUNT
        assert game.is_legal(DrawCards(P1, 1)) and game.is_legal(DrawCards(P1, 4))

    def test_a_draw_count_message_names_the_range(self) -> None:
        game = mountains_position(p1=("R01 R02 O01 Y01 A01", "G01", "", ""), p2=("P02", "P01", "", ""))
        violation = game.validate(DrawCards(P1, 5))
        assert violation is not None
        assert violation.message == ("Player 1 holds 5 cards and draws to between 6 and 9: "
                                     "player 1 draws 1 to 4, not 5.")

    def test_a_hand_of_six_may_skip_the_draw_or_draw_up_to_nine(self) -> None:
        game = playing()
        assert game.is_legal(PlayCard(P1, card("R01"), P1))
        assert game.is_legal(DrawCards(P1, 0)) and game.is_legal(DrawCards(P1, 3))
        assert reason(game, DrawCards(P1, 4)) is Reason.DRAW_COUNT

    def test_a_zero_draw_counts_as_the_turns_draw(self) -> None:
        game = playing()
        game.push(DrawCards(P1, ()))
        assert game.step == PLAY_STEP
        assert reason(game, DrawCards(P1, 1)) is Reason.WRONG_PHASE

    def test_one_draw_per_turn_before_the_play(self) -> None:
        game = playing()
        game.push(DrawCards(P1, any_cards("K05 K06")))
        assert reason(game, DrawCards(P1, any_cards("K07"))) is Reason.WRONG_PHASE
        game.push(PlayCard(P1, card("R01"), P1))
        assert game.step == DISCARD_STEP
        assert reason(game, DrawCards(P1, 1)) is Reason.WRONG_PHASE

    def test_playing_with_fewer_than_six_is_draw_count(self) -> None:
        game = mountains_position(p1=("R01 R02 O01 Y01 A01", "G01", "", ""), p2=("P02", "P01", "", ""))
        violation = game.validate(PlayCard(P1, card("R01"), P1))
        assert violation is not None and violation.reason is Reason.DRAW_COUNT
        assert violation.message == "Player 1 holds 5 cards: they draw up to 6 before playing."

    def test_drawn_cards_must_be_in_the_deck(self) -> None:
        game = playing()
        assert reason(game, DrawCards(P1, any_cards("P01"))) is Reason.CARD_NOT_IN_DECK
        assert reason(game, DrawCards(P1, any_cards("K05 K05"))) is Reason.CARD_NOT_IN_DECK

    def test_a_short_deck_is_drawn_whole_and_the_game_ends(self) -> None:
        game = mountains_position(flags="round=2,first=p1", p1=("R02 O01 Y01 K01", "R01", "", ""),
                                  p2=("O02 O03 O04 O05 O06", "P01", "", ""), deck="K09")
        assert game.draw_range(P1) == (1, 1)
        assert reason(game, DrawCards(P1, 2)) is Reason.DRAW_COUNT
        discarded = game.discard_size
        game.push(DrawCards(P1, any_cards("K09")))
        assert game.phase is Phase.OVER and game.turn == P1 and game.round == 2
        assert game.mountain(P1) == any_cards("R01")  # the round in progress is not scored
        assert game.discard_size == discarded  # the discard pile is never reshuffled

    def test_an_empty_deck_ends_the_game_when_the_next_player_must_draw(self) -> None:
        game = mountains_position(turn="p2", flags="round=1,first=p1,discard",
                                  p1=("R02 O01 Y01 K01 G02", "R01", "", ""),
                                  p2=("O02 O03 O04 O05 O06 O07 O08", "P01 O09", "", ""), deck="")
        game.push(DiscardCards(P2, any_cards("O08")))
        assert game.phase is Phase.OVER and game.turn == P1

    def test_an_empty_deck_does_not_end_the_game_while_no_draw_is_needed(self) -> None:
        game = mountains_position(turn="p2", flags="round=1,first=p1,discard",
                                  p1=("R02 O01 Y01 K01 G02 G03", "R01", "", ""),
                                  p2=("O02 O03 O04 O05 O06 O07 O08", "P01 O09", "", ""), deck="")
        game.push(DiscardCards(P2, any_cards("O08")))
        assert game.phase is Phase.PLAY and game.turn == P1
        game.push(PlayCard(P1, card("G02"), P1))
        assert game.phase is Phase.PLAY and game.turn == P2  # player 2 holds 6: no draw needed
        game.push(PlayCard(P2, card("O02"), P2))
        assert game.phase is Phase.OVER and game.turn == P1


class TestPlay:
    def test_own_mountain_takes_a_color_the_opponent_lacks(self) -> None:
        game = playing()
        game.push(PlayCard(P1, card("R01"), P1))
        assert game.mountain(P1) == any_cards("G01 R01") and game.turn == P2

    def test_own_mountain_refuses_a_color_of_the_opponents_mountain(self) -> None:
        violation = playing().validate(PlayCard(P1, card("K01"), P1))
        assert violation is not None and violation.reason is Reason.OWN_MOUNTAIN_COLOR
        assert violation.message == "Black can't go into player 1's mountain: black is in player 2's mountain."

    def test_the_opponents_mountain_takes_a_color_it_has_a_column_of(self) -> None:
        game = playing()
        game.push(PlayCard(P1, card("K01"), P2))
        assert game.mountain(P2) == any_cards("P01 K02 K01")

    def test_the_opponents_mountain_refuses_a_new_column(self) -> None:
        violation = playing().validate(PlayCard(P1, card("R01"), P2))
        assert violation is not None and violation.reason is Reason.NO_SUCH_COLUMN
        assert violation.message == ("Player 2's mountain has no red column: a card goes into the opponent's "
                                     "mountain only onto a column of its color.")

    @pytest.mark.parametrize("mountain", [P1, P2])
    def test_gold_joins_any_mountain_with_a_column(self, mountain: int) -> None:
        assert playing().is_legal(PlayCard(P1, card("A01"), mountain))

    def test_gold_never_starts_a_column(self) -> None:
        game = mountains_position(p1=("R01 R02 O01 Y01 A01 K01", "G01", "", ""), p2=("P02", "", "", ""))
        violation = game.validate(PlayCard(P1, card("A01"), P2))
        assert violation is not None and violation.reason is Reason.GOLD_NEW_COLUMN
        assert violation.message == "A01 is gold: it joins a column, and player 2's mountain has none."

    def test_every_card_has_a_legal_place(self) -> None:
        game = playing()
        for name in ("R01", "R02", "O01", "Y01", "A01", "K01"):
            assert any(game.is_legal(PlayCard(P1, card(name), m)) for m in (P1, P2)), name

    def test_a_hand_over_six_after_the_play_discards_down_to_six(self) -> None:
        game = playing()
        game.push(DrawCards(P1, any_cards("K05 K06 K07")))
        game.push(PlayCard(P1, card("R01"), P1))
        assert game.step == DISCARD_STEP and game.turn == P1
        assert reason(game, PlayCard(P1, card("R02"), P1)) is Reason.WRONG_PHASE
        violation = game.validate(DiscardCards(P1, any_cards("K05")))
        assert violation is not None and violation.reason is Reason.DISCARD_COUNT
        assert violation.message == "Player 1 holds 8 cards and discards down to 6: 2 cards, not 1."
        game.push(DiscardCards(P1, any_cards("K05 A01")))
        assert game.turn == P2 and game.step == DRAW_STEP and game.discard_size == 2

    def test_no_discard_before_the_play_or_when_none_is_due(self) -> None:
        game = playing()
        assert reason(game, DiscardCards(P1, any_cards("R01"))) is Reason.WRONG_PHASE
        game.push(PlayCard(P1, card("R01"), P1))
        assert reason(game, DiscardCards(P1, any_cards("R02"))) is Reason.WRONG_PHASE


def round_end() -> MountainsGame:
    """Purple is the only color missing; both starting cards were orange (a tie); gold in both mountains."""
    return mountains_position(flags="round=1,first=p1,drawn", p1=("P01 P02 R04 R05 R06 R07", "O01 R01 R02 A01", "", ""),
                              p2=("Y05 Y06 Y07 Y08 Y09", "O02 G01 K01 Y01 A02 A03", "", ""))


class TestRoundEnd:
    def test_the_sixth_color_scores_the_round(self) -> None:
        game = round_end()
        game.push(PlayCard(P1, card("P01"), P1))
        assert game.phase is Phase.START and game.round == 2
        assert game.known[GOLDS[P1]] == list(any_cards("A01")) and game.known[GOLDS[P2]] == list(any_cards("A02 A03"))
        assert sorted(game.known[PILES[P1]]) == sorted(any_cards("R01 R02 P01"))
        assert sorted(game.known[PILES[P2]]) == sorted(any_cards("G01 K01 Y01"))
        assert sorted(game.known[OUT]) == sorted(any_cards("O01 O02"))  # a tie leaves the game
        assert game.mountain(P1) == () and game.mountain(P2) == ()

    def test_the_opponent_of_the_completer_opens_the_next_round(self) -> None:
        game = round_end()
        game.push(PlayCard(P1, card("P01"), P1))
        assert game.turn == P2 and game.round_first == P2
        assert reason(game, StartCard(P1, card("R04"))) is Reason.NOT_YOUR_TURN
        game.push(StartCard(P2, card("Y05")))
        game.push(StartCard(P1, card("R04")))
        assert game.phase is Phase.PLAY and game.turn == P2

    def test_scores_and_summary_after_a_round(self) -> None:
        game = round_end()
        game.push(PlayCard(P1, card("P01"), P1))
        final = summary(game)
        assert final["scores"] == {"p1": 4, "p2": 5} and final["gold"] == {"p1": 1, "p2": 2}
        assert final["score_piles"] == {"p1": ["R", "R", "P"], "p2": ["Y", "G", "K"]}
        assert final["out"] == 5 and final["mountains"] == {"p1": {}, "p2": {}} and final["round"] == 2

    def test_the_majority_takes_the_color_from_both_mountains(self) -> None:
        game = mountains_position(flags="round=1,first=p1,drawn",
                                  p1=("P01 P02 R04 R05 R06 R07", "K01 R01 O01", "", ""),
                                  p2=("Y05 Y06 Y07 Y08 Y09", "K02 K03 G01 Y01", "", ""))
        game.push(PlayCard(P1, card("P01"), P1))
        assert sorted(game.known[PILES[P2]]) == sorted(any_cards("K01 K02 K03 G01 Y01"))

    def test_the_round_ends_after_the_turns_discard(self) -> None:
        game = mountains_position(flags="round=1,first=p1,drawn",
                                  p1=("P01 P02 R04 R05 R06 R07 R08 R09", "O01 R01 R02 A01", "", ""),
                                  p2=("Y05 Y06 Y07 Y08 Y09", "O02 G01 K01 Y01 A02 A03", "", ""))
        game.push(PlayCard(P1, card("P01"), P1))
        assert game.phase is Phase.PLAY and game.step == DISCARD_STEP and game.mountain(P1)
        game.push(DiscardCards(P1, any_cards("R08")))
        assert game.phase is Phase.START and game.round == 2 and game.turn == P2


class TestScoring:
    def over(self, p1: tuple[str, str], p2: tuple[str, str]) -> MountainsGame:
        return mountains_position(phase="over", p1=("", "", *p1), p2=("", "", *p2))

    def test_one_point_a_card_gold_points_and_ten_for_six_colors(self) -> None:
        game = self.over(("R01 O01 Y01 G01 P01 K01 K02", "A01 A02"), ("R02 R03", ""))
        assert game.score(P1) == 7 + 2 + 10 and game.score(P2) == 2 and game.winner() == P1

    def test_equal_totals_are_a_draw(self) -> None:
        assert self.over(("R01 O01", "A01"), ("R02 R03 R04", "")).winner() == "draw"

    def test_no_winner_while_playing(self) -> None:
        assert playing().winner() is None


SPEC_ORDER = ["game-over", "wrong-phase", "not-your-turn", "card-not-in-hand", "start-not-colored",
              "start-same-color", "draw-count", "own-mountain-color", "no-such-column", "gold-new-column",
              "discard-count"]


def second_start() -> MountainsGame:
    game = starting()
    game.push(StartCard(P1, card("R01")))
    return game


def discarding() -> MountainsGame:
    game = playing()
    game.push(DrawCards(P1, any_cards("K05 K06 K07")))
    game.push(PlayCard(P1, card("R01"), P1))
    return game


CASES: dict[str, tuple[object, object]] = {
    "game-over": (lambda: mountains_position(phase="over"), DrawCards(P1, 1)),
    "wrong-phase": (playing, StartCard(P1, card("R01"))),
    "not-your-turn": (playing, DrawCards(P2, 1)),
    "card-not-in-hand": (playing, PlayCard(P1, card("P02"), P2)),
    "start-not-colored": (starting, StartCard(P1, card("A01"))),
    "start-same-color": (second_start, StartCard(P2, card("R03"))),
    "draw-count": (playing, DrawCards(P1, 4)),
    "card-not-in-deck": (playing, DrawCards(P1, any_cards("G01"))),
    "own-mountain-color": (playing, PlayCard(P1, card("K01"), P1)),
    "no-such-column": (playing, PlayCard(P1, card("O01"), P2)),
    "gold-new-column": (lambda: mountains_position(p1=("A01 R01 R02 O01 Y01 K01", "G01", "", "")), PlayCard(
        P1, card("A01"), P2)),
    "discard-count": (discarding, DiscardCards(P1, any_cards("K05 K06 K07"))),
}


def test_the_order_of_rules_002_is_kept() -> None:
    order = [reason.value for reason in MountainsGame.rules.precedence]
    assert [code for code in order if code != "card-not-in-deck"] == SPEC_ORDER
    assert order.index("card-not-in-deck") == order.index("draw-count") + 1


@pytest.mark.parametrize("code", [reason.value for reason in MountainsGame.rules.precedence])
def test_every_reason_is_produced(code: str) -> None:
    make, event = CASES[code]
    violation = make().validate(event)  # type: ignore[operator]
    assert violation is not None and violation.reason.value == code, violation
    assert violation.message and violation.message[0].isupper() and violation.message.endswith(".")


class TestPrecedence:
    @pytest.mark.parametrize(("expected", "make", "event"), [
        # the game is over: even a start by the wrong player
        ("game-over", lambda: mountains_position(phase="over"), StartCard(P2, card("A01"))),
        # a start in the play phase, by the wrong player, of a gold card they do not hold
        ("wrong-phase", playing, StartCard(P2, card("A09"))),
        # the wrong player, with a card they do not hold, into a forbidden place
        ("not-your-turn", playing, PlayCard(P2, card("K01"), P2)),
        # a gold start card not in hand
        ("card-not-in-hand", starting, StartCard(P1, card("A02"))),
        # a play with too few cards in hand, of a color the own mountain refuses
        ("draw-count", lambda: mountains_position(p1=("K01 R02", "G01", "", ""), p2=("P02", "P01 K02", "", "")),
         PlayCard(P1, card("K01"), P1)),
    ])
    def test_the_first_reason_in_the_order_is_reported(self, expected: str, make: object, event: object) -> None:
        game = make()  # type: ignore[operator]
        violation = game.validate(event)
        assert violation is not None and violation.reason.value == expected, violation


class TestUndo:
    def test_pop_undoes_a_round_end_exactly(self) -> None:
        game = round_end()
        before, masks = game.text(), list(game.masks)
        event = PlayCard(P1, card("P01"), P1)
        game.push(event)
        assert game.pop() == event
        assert game.text() == before and game.masks == masks and game.phase is Phase.PLAY

    def test_an_illegal_push_changes_nothing(self) -> None:
        game = playing()
        before = game.text()
        with pytest.raises(IllegalEventError, match="own-mountain-color"):
            game.push(PlayCard(P1, card("K01"), P1))
        assert game.text() == before and not game.stack

    def test_a_forced_play_is_applied_and_undone(self) -> None:
        game = playing()
        before = game.text()
        game.push(PlayCard(P1, card("K01"), P1), force=True)
        assert card("K01") in game.mountain(P1)
        game.pop()
        assert game.text() == before

    def test_a_forced_draw_and_discard_of_cards_from_elsewhere_are_applied_and_undone(self) -> None:
        game = playing()
        before, masks = game.text(), list(game.masks)
        # The middle card is in player 2's hand, not in the deck: it is taken from there, in turn.
        game.push(DrawCards(P1, (card("R05"), card("P02"), card("O05"))), force=True)
        assert game.hand(P1)[-3:] == (card("R05"), card("P02"), card("O05")) and card("P02") not in game.hand(P2)
        check_hands_by_color(game)
        game.push(PlayCard(P1, card("R05"), P1), force=True)
        game.push(DiscardCards(P1, (card("O01"), card("Y02"), card("P02"))), force=True)
        assert game.size(DISCARD) == 3 and card("Y02") not in game.hand(P2)
        check_hands_by_color(game)
        for _ in range(3):
            game.pop()
            check_hands_by_color(game)
        assert game.text() == before and game.masks == masks


HEADER = {"format": "mandala-record/1", "ruleset": "mountains", "first_player": "p2",
          "setup": {"p1": {"hand": ["R01", "R02", "O01", "Y01", "A01", "K01"]},
                    "p2": {"hand": ["P02", "P03", "G02", "Y02", "Y03", "A04"]}}}


def lines(*events: dict[str, object], header: dict[str, object] | None = None) -> list[str]:
    return [json.dumps(header or HEADER), *(json.dumps(e) for e in events)]


class TestRecords:
    def test_a_header_naming_mountains_deals_that_game(self) -> None:
        record = read_record(lines({"player": "p2", "action": "start", "card": "P02"},
                                   {"player": "p1", "action": "start", "card": "R01"},
                                   {"player": "p2", "action": "draw", "drew": ["A12"]},
                                   {"player": "p2", "action": "play", "card": "A12", "mountain": "p1"}))
        game, verdicts = replay(record)
        assert isinstance(game, MountainsGame) and record.ruleset == "mountains"
        assert [v.violation for v in verdicts] == [None] * 4
        assert game.turn == P1 and game.mountain(P1) == any_cards("R01 A12")

    def test_summary_shape(self) -> None:
        final = summary(replay(read_record(lines()))[0])
        assert final == {"phase": "start", "turn": "p2", "round": 1, "winner": None,
                         "scores": {"p1": 0, "p2": 0}, "gold": {"p1": 0, "p2": 0},
                         "score_piles": {"p1": [], "p2": []}, "mountains": {"p1": {}, "p2": {}},
                         "hands": {"p1": 6, "p2": 6}, "deck": 108, "discard": 0, "out": 0}

    def test_a_mountains_count_of_gold_in_the_summary(self) -> None:
        final = summary(playing())
        assert final["mountains"] == {"p1": {"G": 1}, "p2": {"P": 1, "K": 1}}
        game = playing()
        game.push(PlayCard(P1, card("A01"), P2))
        assert summary(game)["mountains"]["p2"] == {"P": 1, "K": 1, "A": 1}

    def test_table_mode_counts(self) -> None:
        header = {**HEADER, "mode": "table", "setup": {"p1": {"hand": 6}, "p2": {"hand": 6}}}
        record = read_record(lines({"player": "p2", "action": "start", "card": "P02"},
                                   {"player": "p1", "action": "start", "card": "R01"},
                                   {"player": "p2", "action": "draw", "drew": 3}, header=header))
        game, verdicts = replay(record)
        assert record.table_mode and all(v.violation is None for v in verdicts)
        assert game.hand_size(P2) == 8 and game.deck_size == 105 and not game.is_full_information

    @pytest.mark.parametrize(("header", "events", "message"), [
        ({**HEADER, "ruleset": "chess"}, [], "line 1: unknown ruleset 'chess': expected mandala or mountains"),
        (HEADER, [{"player": "p2", "action": "mountain", "mandala": "m1", "cards": ["P02"]}],
         "line 2: unknown action \"mountain\": expected start, draw, play or discard"),
        (HEADER, [{"player": "p2", "action": "draw"}], "line 2: a draw event needs \"drew\""),
        (HEADER, [{"player": "p2", "action": "play", "card": "A13", "mountain": "p1"}], "line 2: unknown card 'A13'"),
        (HEADER, [{"player": "p2", "action": "play", "card": "A01", "mountain": "p3"}], "line 2: unknown player"),
        ({**HEADER, "setup": {"p1": {"hand": 5}, "p2": {"hand": 6}}}, [], "line 1: impossible setup"),
        ({**HEADER, "setup": {"p1": {"hand": ["A01", "R01", "R02", "O01", "Y01", "K01"]},
                              "p2": {"hand": ["A01", "P03", "G02", "Y02", "Y03", "A04"]}}}, [],
         "line 1: impossible setup: A01 dealt twice"),
    ])
    def test_unreadable_records_name_the_line(self, header: dict[str, object], events: list[dict[str, object]],
                                              message: str) -> None:
        from companion.errors import UnreadableRecordError

        with pytest.raises(UnreadableRecordError) as caught:
            read_record(lines(*events, header=header))
        assert str(caught.value).startswith(message)

    def test_an_official_record_with_a_gold_card_is_unreadable(self) -> None:
        from companion.errors import UnreadableRecordError

        header = {"format": "mandala-record/1", "first_player": "p1",
                  "setup": {"m1": ["R01", "O02"], "m2": ["Y03", "A01"],
                            "p1": {"hand": ["R02", "R03", "O03", "O04", "Y05", "Y06"], "cup": ["K01", "K02"]},
                            "p2": {"hand": ["P01", "P02", "P03", "G05", "G06", "K03"], "cup": ["K04", "K05"]}}}
        with pytest.raises(UnreadableRecordError, match="line 1: unknown card 'A01'"):
            read_record([json.dumps(header)])

    def test_a_header_without_setup_dealt_unseen_hands(self) -> None:
        header = {key: value for key, value in HEADER.items() if key != "setup"}
        record = read_record(lines({"player": "p2", "action": "start", "card": "P02"}, header=header))
        game, verdicts = replay(record)
        assert record.table_mode and verdicts[0].violation is None and game.hand_size(P2) == 5

    def test_the_expected_ruleset_reads_a_header_naming_none(self) -> None:
        header = {key: value for key, value in HEADER.items() if key != "ruleset"}
        assert read_record([json.dumps(header)], ruleset="mountains").ruleset == "mountains"

    def test_a_header_naming_another_ruleset_than_expected_is_unreadable(self) -> None:
        from companion.errors import UnreadableRecordError

        with pytest.raises(UnreadableRecordError, match="line 1: the record is a game of the mountains ruleset, "
                                                         "not mandala"):
            read_record(lines(), ruleset="mandala")


def test_text_form_round_trips_and_keeps_the_ruleset() -> None:
    game = playing(flags="round=3,first=p2,drawn")
    text = game.text()
    assert text.startswith("mountains/1 play p1 round=3,first=p2,drawn p1:R01R02O01Y01A01K01/G01/-/- ")
    again = MountainsGame.from_text(text)
    assert again.text() == text and again.round == 3 and again.round_first == P2 and again.step == PLAY_STEP
    assert type(again.copy()) is MountainsGame and again.copy() == again
    assert again.deck_size == len(again.known[DECK])
