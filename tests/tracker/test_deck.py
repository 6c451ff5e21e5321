"""The deck runs out when the table says so: the discard pile picked up to make a new deck (issue 10)."""

from __future__ import annotations

from companion.engine import Claim, EndReason, FieldPlay, Game, MountainPlay, Phase, Refill, Resync
from companion.engine.cards import parse_card, parse_color
from companion.engine.game import DISCARD
from companion.engine.position import Position, build
from companion.tracker.anchor import JoinCounts
from companion.tracker.tracker import Tracker
from tests.tracker.table import ScriptedTable


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def _near_the_end(deck: int) -> ScriptedTable:
    """A game joined with ``deck`` cards left by the count; m1 lacks only black, P09 tops the discard pile."""
    tracker = Tracker(settle_s=1.0)
    tracker.request_join(JoinCounts(turn=0, hands=(6, 6), cups=(2, 2), deck=deck))
    table = ScriptedTable(tracker)
    table.put("m1.mountain", "R01", "O01", "P01", "G03").put("m1.field.p1", "Y02")
    table.put("m2.mountain", "Y01", "G01").put("discard", "P09", at=(350.0, 270.0)).settle()
    return table


def _claim_m1(table: ScriptedTable) -> None:
    """Fields 1-1 and p2 completed m1: p1 picks first; then the fields go onto the pile."""
    for name, zone in (("R01", "p1.river.1"), ("O01", "p2.river.1"), ("P01", "p1.river.2"), ("G03", "p2.river.2")):
        table.take(name).put(zone, name).settle()
    table.take("Y02", "K02").put("discard", "K02", "Y02", at=(350.0, 270.0)).settle()


def test_the_pile_picked_up_while_the_count_left_cards_in_the_deck_means_the_deck_ran_out() -> None:
    # Held-out sloppy seeds 3 and 11: a card of a field play under the next one of the fan was never read, its
    # player drew one card too few, and the count kept a card in the deck that had run out on the table. The
    # players shuffled the pile into a new deck; the next mandala completed ended the game on the table, and the
    # tracker played on (deck 0 against 52 at the end).
    table = _near_the_end(deck=6)
    table.put("m2.mountain", "R05").settle()               # p1 builds and draws 3: the count leaves 3 in the deck
    game = table.tracker.game
    assert game is not None and game.deck_size == 3 and not game.deck_ran_out
    table.take("P09").settle()                              # ...but the deck ran out: the pile becomes the new one
    assert not [e for e in table.events() if isinstance(e.event, Resync)]   # a hand may rest on it: not yet
    table.put("m1.field.p2", "K02").settle()                # p2 plays on without the pile, completing m1
    game = table.tracker.game
    assert game is not None and game.deck_ran_out and game.phase is Phase.CLAIM
    assert game.size(DISCARD) == 0 and game.deck_size == 108 - 9 - (8 + 5) - 4   # table, hands, cups
    assert any(isinstance(e.event, Resync) and "deckout" in e.event.position for e in table.events())
    _claim_m1(table)
    game = table.tracker.game
    assert game is not None and game.phase is Phase.OVER and game.end_reason is EndReason.DECK
    assert not table.warnings()


def test_a_hand_resting_on_the_pile_is_no_reshuffle() -> None:
    table = _near_the_end(deck=6)
    table.put("m2.mountain", "R05").settle()
    table.hold(2.5, hidden=("P09",))                        # a hand rests on the pile, then leaves
    table.put("m1.field.p2", "K02").settle()                # p2 plays on: the pile is there
    _claim_m1(table)
    game = table.tracker.game
    assert game is not None and game.phase is Phase.REFILL and not game.deck_ran_out and game.deck_size == 3
    assert not [e for e in table.events() if isinstance(e.event, Resync)]


def test_a_pile_picked_up_when_the_count_says_the_deck_is_far_from_empty_is_no_reshuffle() -> None:
    table = _near_the_end(deck=30)
    table.put("m2.mountain", "R05").settle()
    table.take("P09").settle()                              # whatever took the pile, the deck holds 27 cards
    table.put("m1.field.p2", "K02").settle()
    game = table.tracker.game
    assert game is not None and not game.deck_ran_out and game.deck_size == 27


def test_the_pile_still_lying_there_after_the_count_ran_the_deck_out_means_it_did_not_run_out() -> None:
    # The converse: the count runs the deck out a few cards early (a card taken for one drawn that was not). The
    # next draw shuffles the pile into a new deck by the count, yet the pile stays on the mat and play goes on:
    # players never draw past an empty deck, so the deck did not run out, and the next mandala completed does not
    # end the game.
    table = _near_the_end(deck=3)
    table.put("m2.mountain", "R05").settle()               # p1 draws 3: the deck runs out by the count
    game = table.tracker.game
    assert game is not None and game.deck_size == 0 and game.deck_ran_out
    table.put("m2.mountain", "O05").settle()               # p2 draws 3: by the count, from the pile shuffled
    table.put("m1.field.p1", "Y03").settle()               # p1 plays on: the pile still lies there
    game = table.tracker.game
    assert game is not None and not game.deck_ran_out and game.deck_size == 3
    assert game.location(parse_card("P09")) == DISCARD
    table.put("m1.field.p2", "K02").settle()               # p2 completes m1
    for name, zone in (("R01", "p1.river.1"), ("O01", "p2.river.1"), ("P01", "p1.river.2"), ("G03", "p2.river.2")):
        table.take(name).put(zone, name).settle()          # fields 2-1: p1 picks first
    table.take("Y02", "Y03", "K02").put("discard", "Y02", "Y03", "K02", at=(350.0, 270.0)).settle()
    game = table.tracker.game
    assert game is not None and game.phase is Phase.REFILL and not table.warnings()


def test_a_game_ended_by_the_count_goes_on_when_the_players_refill_the_mountain_with_the_pile_still_there() -> None:
    # The count runs the deck out a card early, and the next play completes a mandala without drawing (a field
    # play): by the count its destruction ends the game. The players refill the mountain instead, the pile where it
    # lay: a refill is only drawn while the game goes on, and nobody shuffled the pile: the deck did not run out.
    table = _near_the_end(deck=3)
    table.put("m2.mountain", "R05").settle()               # p1 draws 3: the deck runs out by the count
    table.put("m1.field.p2", "K02").settle()               # p2 completes m1 (no draw)
    _claim_m1(table)
    game = table.tracker.game
    assert game is not None and game.phase is Phase.OVER    # by the count
    table.put("m1.mountain", "R07", "O07").settle()        # ...but the players refill m1
    game = table.tracker.game
    assert game is not None and game.phase is Phase.PLAY and not game.deck_ran_out
    assert set(game.mountain(0)) == {parse_card("R07"), parse_card("O07")} and game.deck_size == 1
    assert not table.warnings()


def _ended_after_a_reshuffle() -> Game:
    """m1 destroyed with a card nobody read under R01 (counted onto the pile), the pile since shuffled into a new
    deck, and the game over by the deck: the unread card was claimed into p1's cup on the table."""
    game = build(Position(mountains=(cards("R01", "O01", "P01", "G03"), cards("Y01", "G01", "R05", "O05", "P05")),
                          fields=((cards("Y02"), ()), ((), ())), unseen_mountains=(1, 0), discard=cards("P09"),
                          hands=(6, 6), deck=2, turn=1))
    for event in (FieldPlay(1, 0, cards("K02")), Claim(0, parse_color("R")), Claim(1, parse_color("O")),
                  Claim(0, parse_color("P")), Claim(1, parse_color("G")),       # the unread card onto the pile
                  Refill(0, cards("R07", "O07")),                                # the deck runs out
                  MountainPlay(0, 1, cards("K05")),                              # the pile becomes the deck
                  *(Claim(p, parse_color(c)) for p, c in zip((1, 0, 1, 0, 1, 0), "YGROPK", strict=True))):
        game.push(event)
    assert game.phase is Phase.OVER and game.deck_ran_out
    return game


def test_a_claimed_card_nobody_read_shown_in_a_cup_is_taken_from_the_deck_the_pile_was_shuffled_into() -> None:
    # Held-out sloppy seeds 11, 15 and 18: a mountain card under another, claimed into a cup unread, was counted
    # onto the pile; the pile became the new deck; the cup laid out at the end shows the card. The count that
    # held it is the deck's, not the pile's (deck and pile a card apart at the end).
    game = _ended_after_a_reshuffle()
    deck, pile = game.deck_size, game.size(DISCARD)
    table = ScriptedTable(Tracker(settle_s=1.0))
    table.tracker.resume(game)
    table.put("p1.river.1", "R01").put("p1.river.2", "P01").put("p2.river.1", "O01").put("p2.river.2", "G03")
    table.put("p1.reveal", "Y10", "Y11", "R02").settle()
    game = table.tracker.game
    assert game is not None and game.cup_size(0) == 3 and game.deck_size == deck - 1 and game.size(DISCARD) == pile
