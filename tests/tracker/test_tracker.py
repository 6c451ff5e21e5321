"""Inference and warnings from scripted observation sequences (no images)."""

from __future__ import annotations

from companion.engine import Claim, Discard, FieldPlay, MountainPlay, Phase, Refill, Reveal
from companion.engine.cards import parse_card, parse_color
from companion.tracker.tracker import Tracker
from tests.tracker.table import ScriptedTable


def card(name: str) -> int:
    return parse_card(name)


def test_game_starts_from_an_empty_mat_then_two_cards_per_mountain() -> None:
    table = ScriptedTable()
    table.hold(1.5)
    table.put("m1.mountain", "R01").settle()
    assert table.tracker.game is None  # one card is not a deal yet
    table.put("m1.mountain", "O01").put("m2.mountain", "Y01", "G01").settle()
    game = table.tracker.game
    assert (game is not None and game.mountain(0) == (card("O01"), card("R01"))) or game.mountain(0) == (
        card("R01"), card("O01"))
    assert game.deck_size == 88 and game.hand_size(0) == 6 and not table.events()


def test_no_game_starts_on_a_mat_that_was_not_cleared() -> None:
    table = ScriptedTable()
    table.put("m1.mountain", "R01", "O01").put("m2.mountain", "Y01", "G01").put("discard", "K01").settle()
    assert table.tracker.game is None


def test_build_grow_and_discard_are_inferred_in_order() -> None:
    table = ScriptedTable().start()
    table.put("m1.mountain", "P01").settle()                 # p1 builds
    table.put("m2.field.p2", "K01", "K02").settle()          # p2 grows their own field
    table.put("discard", "R05", "R06").settle()              # p1 discards two reds
    events = [e.event for e in table.events()]
    assert events == [MountainPlay(0, 0, (card("P01"),)), FieldPlay(1, 1, (card("K01"), card("K02")), field=1),
                      Discard(0, (card("R05"), card("R06")))]
    game = table.tracker.game
    assert game is not None and game.hand_size(0) == 8 and game.hand_size(1) == 4 and game.turn == 1
    assert not table.warnings()


def test_a_hand_lingering_over_a_zone_makes_no_event() -> None:
    table = ScriptedTable().start()
    table.put("m1.mountain", "P01").settle()
    table.hold(3.0, hidden=("R01", "O01", "P01"))   # a hand rests over the mountain
    table.hold(0.5, board=False)                     # and over a fiducial too
    table.settle()
    assert len(table.events()) == 1 and not table.warnings()


def test_a_covered_card_is_still_there() -> None:
    table = ScriptedTable().start()
    table.put("m1.field.p1", "K01").settle()
    table.take("K01").settle()                       # covered for good by the next card
    table.put("m1.field.p2", "P03").settle()
    game = table.tracker.game
    assert game is not None and game.field(0, 0) == (card("K01"),) and len(table.events()) == 2


def test_a_knocked_card_inside_its_zone_is_no_event() -> None:
    table = ScriptedTable().start()
    table.put("m1.mountain", "R01", at=(30.0, 5.0)).settle()
    assert not table.events() and not table.warnings()


def test_a_card_knocked_across_a_border_is_a_warning_until_put_back() -> None:
    table = ScriptedTable().start()
    table.put("m1.field.p1", "R01").settle()
    warnings = table.warnings()
    assert [w.reason for w in warnings] == ["moved-card"] and not table.events()
    assert warnings[0].message == "R01 moved from mandala 1's mountain to player 1's field of mandala 1."
    table.put("m1.mountain", "R01")
    updates = table.settle()
    assert updates and updates[-1].cleared and not table.tracker.warnings and not table.events()


def test_rule_of_color_is_warned_at_once_and_cleared_when_taken_back() -> None:
    table = ScriptedTable().start()
    table.put("m1.field.p1", "R05")
    table.settle()
    warnings = table.warnings()
    assert [w.reason for w in warnings] == ["color-rule"]
    assert warnings[0].message == "Red can't go into player 1's field of mandala 1: red is already in the mountain."
    assert warnings[0].fix == "Take back the red card R05"
    table.take("R05").settle()
    assert not table.tracker.warnings and not table.events()
    table.put("m1.field.p1", "K05").settle()
    assert [e.event for e in table.events()] == [FieldPlay(0, 0, (card("K05"),), field=0)]


def test_override_applies_the_warned_event() -> None:
    table = ScriptedTable().start()
    table.put("m1.field.p1", "R05").settle()
    forced = table.tracker.override()
    assert forced is not None and forced.forced
    game = table.tracker.game
    assert game is not None and game.field(0, 0) == (card("R05"),) and game.turn == 1
    table.settle()
    assert not table.tracker.warnings


def test_two_cards_into_a_mountain_and_mixed_colors() -> None:
    table = ScriptedTable().start()
    table.put("m1.mountain", "P01", "P02").settle()
    assert [w.reason for w in table.warnings()] == ["mountain-one-card"]
    table.take("P01", "P02").put("m2.field.p1", "K01", "P01").settle()
    assert [w.reason for w in table.warnings()][-1] == "mixed-colors"


def test_a_card_in_the_opponents_field_and_playing_out_of_turn() -> None:
    table = ScriptedTable().start()
    table.put("m2.field.p2", "K01").settle()
    assert [w.reason for w in table.warnings()] == ["own-field-only"]
    table.take("K01").put("m2.field.p1", "K01").settle()      # now p1 plays, legal
    table.put("m2.field.p1", "K02").settle()                  # p1 again, out of turn
    assert [w.reason for w in table.warnings()] == ["own-field-only", "not-your-turn"]


def test_keep_one_card_uses_the_tracked_hand_size() -> None:
    table = ScriptedTable().start()
    table.put("m2.field.p1", "K01", "K02", "K03", "K04", "K05", "K06").settle()
    assert [w.reason for w in table.warnings()] == ["must-keep-one-card"]


def test_the_same_card_in_two_places_is_reported() -> None:
    table = ScriptedTable().start()
    table.hold(1.5, duplicates=("R01",))
    assert [w.reason for w in table.warnings()] == ["duplicate-card"]
    table.settle()
    assert not table.tracker.warnings


def test_a_card_appearing_in_a_river_outside_a_claim() -> None:
    table = ScriptedTable().start()
    table.put("p1.river.1", "K09").settle()
    assert [w.reason for w in table.warnings()] == ["unexpected-card"]


def test_a_card_from_a_cup_cannot_be_played() -> None:
    table = ScriptedTable().start()
    table.put("m1.mountain", "P01").settle()
    table.take("R01").put("m2.field.p2", "R01").settle()
    assert [w.reason for w in table.warnings()] == ["moved-card"]


def destruction_table() -> ScriptedTable:
    """Mandala 1 completed by p1's build; p1 has three field cards, p2 one."""
    table = ScriptedTable().start()
    table.put("m1.field.p1", "Y02", "Y03", "Y04").settle()   # p1
    table.put("m1.field.p2", "G02").settle()          # p2
    table.put("m1.mountain", "P01").settle()          # p1
    table.put("m2.mountain", "K09").settle()          # p2
    table.put("m1.mountain", "K01").settle()          # p1 completes m1
    game = table.tracker.game
    assert game is not None and game.phase is Phase.CLAIM and game.turn == 0
    return table


def test_claims_river_card_shows_the_claimer_and_cup_claims_are_seen_as_a_color_leaving() -> None:
    table = destruction_table()
    table.take("R01").put("p1.river.1", "R01").settle()          # p1 claims red into the river
    table.take("O01").settle()                                   # p2 claims orange: where? river!
    events = [e.event for e in table.events()][-2:]
    assert events[0] == Claim(0, parse_color("R"), card("R01"))
    assert events[1] == Claim(1, parse_color("O"))
    game = table.tracker.game
    assert game is not None and game.river(0) == (card("R01"),) and game.river(1) == (card("O01"),)


def test_wrong_player_claiming_and_wrong_river_space() -> None:
    table = destruction_table()
    table.take("R01").put("p2.river.1", "R01").settle()
    assert [w.reason for w in table.warnings()] == ["not-your-turn"]
    table.take("R01").put("p1.river.2", "R01").settle()
    assert table.warnings()[-1].reason == "river-space"
    table.take("R01").put("p1.river.1", "R01").settle()
    assert not table.tracker.warnings and table.events()[-1].event == Claim(0, parse_color("R"), card("R01"))


def test_whole_destruction_then_refill_and_the_opponent_plays() -> None:
    table = destruction_table()
    table.take("R01").put("p1.river.1", "R01").settle()
    table.take("O01").put("p2.river.1", "O01").settle()
    table.take("P01").put("p1.river.2", "P01").settle()
    table.take("K01").put("p2.river.2", "K01").settle()
    game = table.tracker.game
    assert game is not None and game.phase is Phase.REFILL
    table.take("Y02", "Y03", "Y04", "G02").put("discard", "Y02", "Y03", "Y04", "G02").settle()   # fields cleared
    table.put("m1.mountain", "G05", "G06").settle()
    assert table.events()[-1].event == Refill(0, (card("G05"), card("G06")))
    assert game.phase is Phase.PLAY and game.turn == 1 and not table.warnings()


def test_a_refill_laid_card_by_card_slowly_is_one_refill() -> None:
    # A player deals the refill from the deck one card at a time, a second apart, then takes the hand away:
    # both cards read, nothing unread, so the two are the refill, however slowly laid.
    table = destruction_table()
    for name, space in (("R01", "p1.river.1"), ("O01", "p2.river.1"), ("P01", "p1.river.2"), ("K01", "p2.river.2")):
        table.take(name).put(space, name).settle()
    table.take("Y02", "Y03", "Y04", "G02").put("discard", "Y02", "Y03", "Y04", "G02").settle()
    table.put("m1.mountain", "G05").hold(1.0)
    table.put("m1.mountain", "G06").hold(4.0)
    assert not table.warnings()
    assert [e.event for e in table.events()][-1] == Refill(0, (card("G05"), card("G06")))


def test_claim_into_the_cup_waits_while_the_whole_mountain_is_out_of_sight() -> None:
    table = destruction_table()
    before = len(table.events())
    table.hold(1.5, hidden=("R01", "O01", "P01", "K01"))    # a hand over the whole mountain
    assert len(table.events()) == before
    table.settle()
    assert len(table.events()) == before and not table.warnings()


def test_discard_count_confirmation_adds_unseen_cards() -> None:
    table = ScriptedTable().start()
    table.put("discard", "K05").settle()
    table.tracker.confirm_discard(2)
    game = table.tracker.game
    assert game is not None and table.tracker.events[-1].event == Discard(0, (card("K05"),), None, 1)
    assert game.discard_size == 2 and game.hand_size(0) == 6


def test_undo_takes_back_the_last_event_and_asks_for_its_cards() -> None:
    table = ScriptedTable().start()
    table.put("m1.mountain", "P01").settle()
    assert table.tracker.undo() == MountainPlay(0, 0, (card("P01"),))
    assert [w.reason for w in table.tracker.warnings] == ["undone"]
    table.take("P01").settle()
    game = table.tracker.game
    assert game is not None and not table.tracker.warnings and game.turn == 0 and not game.stack


def test_event_reported_within_settle_plus_0_3_s_at_14_fps() -> None:
    table = ScriptedTable(Tracker(settle_s=1.0), fps=14).start()
    placed = table.frame
    table.put("m1.mountain", "P01").hold(2.0)
    event = table.events()[-1]
    assert (event.frame - placed) / 14 <= 1.0 + 0.3


def test_a_card_read_late_counts_from_when_it_was_laid() -> None:
    """A sticker that reads only after a few retries lay there all along: no extra settle time."""
    table = ScriptedTable(Tracker(settle_s=1.0), fps=14).start()
    placed = table.frame
    table.put("m1.mountain", "P01").hold(0.6, unreadable=("P01",))
    table.hold(1.0)
    event = table.events()[-1]
    assert event.event == MountainPlay(0, 0, (card("P01"),))
    assert (event.frame - placed) / 14 <= 1.0 + 0.3


def test_a_card_read_late_still_waits_for_the_rest_of_the_play() -> None:
    """Dating a late read back never lets a play settle before its last card was laid."""
    table = ScriptedTable(Tracker(settle_s=1.0), fps=14).start()
    table.put("m1.field.p1", "K01").hold(0.5, unreadable=("K01",))
    table.put("m1.field.p1", "K02").hold(0.9, unreadable=("K01",))
    assert not table.events()
    laid_last = table.frame - round(0.9 * 14)
    table.hold(1.0)
    [event] = table.events()
    assert event.event == FieldPlay(0, 0, (card("K01"), card("K02")), field=0)
    assert event.frame - laid_last >= 14


def test_reveal_names_the_starting_cup_cards_and_the_winner() -> None:
    table = ScriptedTable().start()
    tracker = table.tracker
    game = tracker.game
    assert game is not None
    game.phase = Phase.OVER   # the end itself is exercised by the whole-game tests
    table.put("p1.reveal", "K01", "K02").put("p2.reveal", "K03").settle()
    assert [e.event for e in table.events()] == [Reveal(0, (card("K01"), card("K02"))), Reveal(1, (card("K03"),))]
    assert game.winner() is None
    table.put("p2.reveal", "K04").settle()
    assert game.winner() == "draw"


def test_override_names_the_screens_warning_by_its_id() -> None:
    from companion.tracker.model import table_warning

    table = ScriptedTable().start()
    table.put("m1.field.p1", "R05").put("m2.field.p2", "K01").settle()
    first, second = table.tracker.warnings
    shown = table_warning(second)
    assert shown.id == second.id != first.id
    assert table.tracker.override("no-such-warning") is None and len(table.tracker.warnings) == 2
    table.tracker.override(shown.id)
    assert table.tracker.warnings == [first]
    assert table.tracker.accepted == {second.cards[0]: second.zone}


def test_unreadable_stickers_on_the_pile_ask_how_many_were_discarded() -> None:
    from companion.tracker.model import display_model

    table = ScriptedTable().start()
    table.put("discard", "K05")
    table.unread = {"discard": 1}
    table.settle()
    question = table.tracker.discard_question
    assert question is not None and (question.seen, question.guess) == (1, 2)
    model = display_model(table.tracker, table.now)
    assert model.phase == "discard-confirm" and model.discard is not None and model.discard.asked == 2
    table.tracker.confirm_discard(2)
    assert table.tracker.discard_question is None and table.tracker.game is not None
    assert table.tracker.game.discard_size == 2
    assert display_model(table.tracker, table.now).phase == "play"


def test_resume_carries_on_and_ignores_fields_not_yet_swept() -> None:
    table = destruction_table()
    for move in (("R01", "p1.river.1"), ("O01", "p2.river.1"), ("P01", "p1.river.2"), ("K01", "p2.river.2")):
        table.take(move[0]).put(move[1], move[0]).settle()
    game = table.tracker.game
    assert game is not None and game.phase is Phase.REFILL
    restarted = ScriptedTable(Tracker(settle_s=1.0))
    restarted.cards = dict(table.cards)          # the table as it is: field cards still lying there
    restarted.tracker.resume(game.copy())
    restarted.put("m1.mountain", "G05", "G06").settle()
    assert not restarted.warnings()
    assert [e.event for e in restarted.events()] == [Refill(0, (card("G05"), card("G06")))]


def test_the_display_says_who_draws_how_many_then_whose_turn_it_is() -> None:
    from companion.tracker.model import DRAW_SHOWN_S, display_model

    table = ScriptedTable().start()
    table.put("m1.mountain", "P01").settle()
    model = display_model(table.tracker, table.tracker.last_event_time + 1.0)
    assert (model.phase, model.turn, model.draw) == ("play", "p1", 3)
    later = display_model(table.tracker, table.tracker.last_event_time + DRAW_SHOWN_S)
    assert (later.turn, later.draw) == ("p2", None)
    assert later.players[0].hand == 8 and later.deck == 85
