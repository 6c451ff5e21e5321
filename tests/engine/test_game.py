"""The rules, one by one, on small hand-made positions."""

from __future__ import annotations

import pytest

from companion.engine import Claim, Discard, FieldPlay, Game, MountainPlay, Phase, Reason, Refill
from companion.engine.cards import parse_color
from companion.engine.game import DECK, DISCARD, EndReason
from companion.errors import IllegalEventError
from tests.engine.positions import cards, position

P1, P2, M1, M2 = 0, 1, 0, 1


def reason(game: Game, event: object) -> Reason | None:
    violation = game.validate(event)  # type: ignore[arg-type]
    return None if violation is None else violation.reason


def color_example() -> Game:
    """The rulebook's example: green is in the opponent's field of mandala 1."""
    return position(m1=("Y01 P01", "O01 R01", "G01"), p1=("Y02 P02 K01 O02 R02 G02", "", ""),
                    p2=("Y03 Y04 Y05 Y06 Y07 Y08", "", ""))


class TestRuleOfColor:
    @pytest.mark.parametrize("card", ["Y02", "P02", "K01"])
    def test_mountain_takes_colors_no_field_holds(self, card: str) -> None:
        game = color_example()
        assert game.is_legal(MountainPlay(P1, M1, cards(card), None))

    @pytest.mark.parametrize("card", ["O02", "R02", "G02"])
    def test_mountain_refuses_field_colors(self, card: str) -> None:
        assert reason(color_example(), MountainPlay(P1, M1, cards(card), None)) is Reason.COLOR_RULE

    @pytest.mark.parametrize("card", ["O02", "R02", "K01"])
    def test_own_field_takes_colors_mountain_and_opponent_lack(self, card: str) -> None:
        assert color_example().is_legal(FieldPlay(P1, M1, cards(card)))

    @pytest.mark.parametrize("card", ["Y02", "P02", "G02"])
    def test_own_field_refuses_mountain_and_opponent_colors(self, card: str) -> None:
        assert reason(color_example(), FieldPlay(P1, M1, cards(card))) is Reason.COLOR_RULE

    def test_message_names_card_color_area_and_player(self) -> None:
        violation = color_example().validate(MountainPlay(P1, M1, cards("G02"), None))
        assert violation is not None
        assert violation.message == "Green can't go into mandala 1's mountain: green is already in player 2's field."

    def test_other_mandala_is_independent(self) -> None:
        assert color_example().is_legal(FieldPlay(P1, M2, cards("G02")))

    def test_more_of_a_color_already_there_is_allowed(self) -> None:
        game = position(m1=("R01 R02", "", ""), p1=("R03 O01", "", ""))
        assert game.is_legal(MountainPlay(P1, M1, cards("R03"), None))


class TestDraws:
    @pytest.mark.parametrize(("hand", "draw"), [(8, 1), (7, 2), (6, 3), (3, 3), (2, 3)])
    def test_mountain_draws_up_to_three_never_past_eight(self, hand: int, draw: int) -> None:
        ids = " ".join(f"Y{n:02d}" for n in range(1, hand + 1))
        game = position(m1=("R01", "", ""), p1=(ids, "", ""))
        assert game.required_draws(MountainPlay(P1, M1, cards("Y01"))) == draw

    def test_wrong_number_drawn_is_draw_count(self) -> None:
        game = position(m1=("R01", "", ""), p1=("Y01 Y02 Y03 Y04 Y05 Y06", "", ""), deck="K01 K02 K03 K04")
        event = MountainPlay(P1, M1, cards("Y01"), cards("K01 K02"))
        violation = game.validate(event)
        assert violation is not None and violation.reason is Reason.DRAW_COUNT
        assert "3" in violation.message

    def test_drawn_card_must_be_in_deck(self) -> None:
        game = position(m1=("R01", "", ""), p1=("Y01 Y02 Y03 Y04 Y05 Y06", "", ""))
        assert reason(game, MountainPlay(P1, M1, cards("Y01"), cards("K01 K02 R01"))) is Reason.CARD_NOT_IN_DECK
        assert reason(game, MountainPlay(P1, M1, cards("Y01"), cards("K01 K02 K01"))) is Reason.CARD_NOT_IN_DECK

    def test_discard_draws_as_many(self) -> None:
        game = position(p1=("Y01 Y02 R01", "", ""))
        game.push(Discard(P1, cards("Y01 Y02"), cards("K01 K02")))
        assert sorted(game.hand(P1)) == sorted(cards("R01 K01 K02"))
        assert game.turn == P2 and game.discard_size == 2

    def test_field_play_draws_nothing_and_keeps_one_card(self) -> None:
        game = position(p1=("Y01 Y02 Y03", "", ""))
        assert reason(game, FieldPlay(P1, M1, cards("Y01 Y02 Y03"))) is Reason.MUST_KEEP_ONE_CARD
        game.push(FieldPlay(P1, M1, cards("Y01 Y02")))
        assert game.hand(P1) == cards("Y03") and game.turn == P2


class TestDeck:
    def low_deck(self) -> Game:
        hand = "Y01 Y02 Y03 Y04 Y05 Y06"
        rest = " ".join(f"{c}{n:02d}" for c in "ROGPK" for n in range(1, 19) if f"{c}{n:02d}" != "R01")
        rest += " Y07 Y08 Y09 Y10 Y11 Y12 Y13 Y14 Y15"
        return position(m1=("R01", "", ""), p1=(hand, "", ""), discard=rest, deck="Y16 Y17 Y18"[:3])

    def test_last_card_drawn_triggers_the_end(self) -> None:
        game = self.low_deck()
        assert game.deck_size == 1
        game.push(MountainPlay(P1, M1, cards("Y01"), cards("Y16 O01 O02")))
        assert game.deck_ran_out
        assert game.location(cards("O01")[0]) not in (DECK, DISCARD)

    def test_reshuffle_happens_only_when_a_draw_needs_it(self) -> None:
        game = self.low_deck()
        discarded = game.discard_size
        game.push(MountainPlay(P1, M1, cards("Y01"), cards("Y16 O01 O02")))
        assert game.discard_size == 0 and game.deck_size == discarded - 2

    def test_draw_from_emptied_deck_comes_from_discard_pile(self) -> None:
        game = self.low_deck()
        assert reason(game, MountainPlay(P1, M1, cards("Y01"), cards("O01 Y16 O02"))) is Reason.CARD_NOT_IN_DECK

    def test_draws_are_capped_by_what_deck_and_discard_hold(self) -> None:
        every = " ".join(f"{c}{n:02d}" for c in "ROGPK" for n in range(1, 19))
        game = position(m1=(every, "", ""), p1=("Y01 Y02 Y03 Y04 Y05 Y06", "Y15 Y16", ""),
                        p2=("Y07 Y08 Y09 Y10 Y11 Y12", "Y17 Y18", ""), discard="Y13", deck="Y14")
        play = MountainPlay(P1, M2, cards("Y01"))
        assert game.required_draws(play) == 2


def completion_position() -> Game:
    """Mandala 1 needs only black; player 1 holds it. Player 1 has 2 field cards, player 2 has 1."""
    return position(m1=("R01 O01 P01 R02", "Y01 Y02", "G01"),
                    p1=("K01 K02 Y03 Y04 Y05 Y06", "", ""), p2=("G02 G03 G04 G05 G06 G07", "", ""))


class TestDestruction:
    def test_completion_starts_claims_with_the_player_with_more_field_cards(self) -> None:
        game = completion_position()
        game.push(MountainPlay(P1, M1, cards("K01"), cards("K03 K04 K05")))
        assert game.phase is Phase.CLAIM and game.destroying == M1 and game.turn == P1

    def test_tie_goes_to_the_opponent_of_the_completer(self) -> None:
        game = position(m1=("R01 O01 P01 Y01", "", "G01"), p1=("K01 G02", "", ""), p2=("R02", "", ""))
        game.push(FieldPlay(P1, M1, cards("K01")))  # fields 1-1, player 1 completed
        assert game.phase is Phase.CLAIM and game.turn == P2

    def test_claims_fill_the_river_left_to_right_and_the_rest_goes_to_the_cup(self) -> None:
        game = completion_position()
        game.push(MountainPlay(P1, M1, cards("K01"), cards("K03 K04 K05")))
        game.push(Claim(P1, parse_color("R"), cards("R02")[0]))
        assert game.river(P1) == cards("R02") and game.known[2] == list(cards("R01"))
        game.push(Claim(P2, parse_color("O")))
        game.push(Claim(P1, parse_color("P")))
        assert game.river(P1) == cards("R02 P01") and game.river(P2) == cards("O01")
        game.push(Claim(P2, parse_color("K")))
        assert game.phase is Phase.REFILL and game.field(M1, P1) == () and game.field(M1, P2) == ()
        assert game.discard_size == 3

    def test_color_already_in_river_goes_wholly_to_the_cup(self) -> None:
        game = position(phase="claim", turn="p1", flags="destroy=m1,completer=p2",
                        m1=("R01 R02 O01", "Y01", "G01"), p1=("K01", "", "R03"), p2=("K02", "", ""))
        game.push(Claim(P1, parse_color("R")))
        assert game.river(P1) == cards("R03") and game.cup_size(P1) == 2

    def test_empty_field_claims_go_to_the_discard_pile(self) -> None:
        game = position(phase="claim", turn="p2", flags="destroy=m1,completer=p1",
                        m1=("R01 R02 O01", "Y01", ""), p1=("K01", "", ""), p2=("K02", "", ""))
        game.push(Claim(P2, parse_color("R")))
        assert game.river(P2) == () and game.cup_size(P2) == 0 and game.discard_size == 2

    def test_refill_then_the_opponent_of_the_completer_plays(self) -> None:
        game = completion_position()
        game.push(MountainPlay(P1, M1, cards("K01"), cards("K03 K04 K05")))
        for player, color in ((P1, "R"), (P2, "O"), (P1, "P"), (P2, "K")):
            game.push(Claim(player, parse_color(color)))
        assert reason(game, Refill(M1, cards("K06"))) is Reason.REFILL_COUNT
        assert reason(game, Refill(M1, cards("K06 R01"))) is Reason.CARD_NOT_IN_DECK
        game.push(Refill(M1, cards("K06 K07")))
        assert game.phase is Phase.PLAY and game.turn == P2 and game.mountain(M1) == cards("K06 K07")

    def test_sixth_river_card_ends_the_game_after_the_last_claim(self) -> None:
        game = position(phase="claim", turn="p1", flags="destroy=m1,completer=p2",
                        m1=("K01 Y01", "G01", "G02"), p1=("O01", "", "R01 O02 P01 G03 Y02"),
                        p2=("O03", "", ""), m2=("R03", "", ""))
        game.push(Claim(P1, parse_color("K")))
        assert len(game.river(P1)) == 6 and game.phase is Phase.CLAIM
        game.push(Claim(P2, parse_color("Y")))
        assert game.phase is Phase.OVER and game.end_reason is EndReason.RIVER

    def test_after_the_deck_ran_out_the_next_destruction_ends_the_game(self) -> None:
        game = position(phase="claim", turn="p1", flags="destroy=m1,completer=p2,deckout",
                        m1=("K01", "G01", "G02"), p1=("O01 O04", "", ""), p2=("O03", "", ""), m2=("R03", "", "O02"))
        game.push(Claim(P1, parse_color("K")))
        assert game.phase is Phase.OVER and game.end_reason is EndReason.DECK
        # Hands and the unfinished mandala are discarded and never score.
        assert game.hand(P1) == () and game.mountain(M2) == () and game.field(M2, P2) == ()
        assert reason(game, Discard(P2, cards("O03"))) is Reason.GAME_OVER


class TestScoring:
    def test_rulebook_example_scores_53(self) -> None:
        river = "R01 O01 Y01 G01 P01 K01"
        cup = "R02 R03 R04 R05 O02 O03 O04 O05 O06 Y02 Y03 Y04 Y05 Y06 Y07 P02 P03 P04 K02"
        game = position(p1=("", cup, river))
        assert game.score(P1).points == 4 * 1 + 5 * 2 + 6 * 3 + 0 * 4 + 3 * 5 + 1 * 6 == 53

    def test_cup_colors_missing_from_the_river_score_nothing(self) -> None:
        game = position(p1=("", "R02 K02 K03", "R01"))
        assert game.score(P1).points == 1

    def over(self, p1_cup: str, p2_cup: str) -> Game:
        return position(phase="over", flags="end=deck", p1=("", p1_cup, "R01"), p2=("", p2_cup, "O01"))

    def test_higher_score_wins(self) -> None:
        assert self.over("R02 R03", "O02").winner() == P1

    def test_tie_goes_to_the_smaller_cup(self) -> None:
        game = self.over("R02 R03 K01", "O02 O03")
        assert game.winner() == P2 and game.decided_by_cup_size()

    def test_equal_score_and_cup_is_a_draw(self) -> None:
        assert self.over("R02 K01", "O02 K02").winner() == "draw"

    def test_no_winner_while_playing(self) -> None:
        assert position(p1=("", "R02 R03", "R01")).winner() is None


class TestUndo:
    def test_pop_restores_the_exact_previous_state(self) -> None:
        game = completion_position()
        before = game.text()
        event = MountainPlay(P1, M1, cards("K01"), cards("K03 K04 K05"))
        game.push(event)
        assert game.pop() == event
        assert game.text() == before

    def test_pop_undoes_a_forced_event_too(self) -> None:
        game = color_example()
        before = game.text()
        game.push(MountainPlay(P1, M1, cards("G02"), cards("K05 K06 K07")), force=True)
        assert game.pop() is not None and game.text() == before

    def test_illegal_push_raises_and_changes_nothing(self) -> None:
        game = color_example()
        before = game.text()
        with pytest.raises(IllegalEventError, match="color-rule"):
            game.push(MountainPlay(P1, M1, cards("G02"), None))
        assert game.text() == before and not game.stack

    def test_pop_of_an_empty_game_raises(self) -> None:
        with pytest.raises(IndexError):
            color_example().pop()


class TestLegalActions:
    def test_every_generated_action_is_legal(self) -> None:
        game = color_example()
        actions = list(game.legal_actions())
        assert actions and all(game.is_legal(a) for a in actions)

    def test_generated_actions_cover_the_rule_of_color(self) -> None:
        game = color_example()
        mountain = {a.cards for a in game.legal_actions() if isinstance(a, MountainPlay) and a.mandala == M1}
        assert mountain == {cards("Y02"), cards("P02"), cards("K01")}

    def test_claims_offer_each_mountain_color(self) -> None:
        game = completion_position()
        game.push(MountainPlay(P1, M1, cards("K01"), cards("K03 K04 K05")))
        assert {a.color for a in game.legal_actions()} == {parse_color(c) for c in "ROPK"}  # type: ignore[union-attr]
