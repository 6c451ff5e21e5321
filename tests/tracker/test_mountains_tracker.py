"""The mountains tracker on settled views: starting cards, plays into either mountain, discards, round scoring."""

from __future__ import annotations

from companion.engine.cards import parse_any_card
from companion.engine.mountains.events import DiscardCards, DrawCards, PlayCard, StartCard
from companion.engine.mountains.game import Phase
from companion.tracker.mountains import MountainsTracker
from companion.tracker.settle import View
from companion.tracker.tracker import Update

P1, P2, START, DISCARD = "p1.mountain", "p2.mountain", "start", "discard"


class Table:
    """What the camera sees, changed a move at a time, each change shown to the tracker as a settled view."""

    def __init__(self) -> None:
        self.tracker = MountainsTracker()
        self.cards: dict[str, str] = {}
        self.time = 0.0
        self.look()

    def look(self) -> Update:
        self.time += 2.0
        return self.tracker.settled(View(dict(self.cards), time=self.time))

    def lay(self, card: str, zone: str) -> Update:
        self.cards[card] = zone
        return self.look()

    def take(self, *cards: str) -> Update:
        for card in cards:
            del self.cards[card]
        return self.look()

    def events(self, update: Update) -> list[object]:
        return [t.event for t in update.events]


def card(name: str) -> int:
    return parse_any_card(name)


def started() -> Table:
    table = Table()
    update = table.lay("R01", START)
    assert update.started
    assert table.events(update) == [StartCard(0, card("R01"))]
    assert table.events(table.lay("O01", START)) == [StartCard(1, card("O01"))]
    return table


def test_starting_cards_on_the_start_row_begin_the_game() -> None:
    table = started()
    game = table.tracker.game
    assert game is not None and game.phase is Phase.PLAY and game.turn == 0
    assert game.mountain(0) == (card("R01"),) and game.mountain(1) == (card("O01"),)


def test_no_game_starts_unless_the_mat_was_empty_first() -> None:
    table = Table()
    table.tracker.mat_cleared = False  # switched on over a table with cards on it
    assert not table.lay("R01", START).started
    assert table.tracker.game is None


def test_a_play_is_written_after_the_draw_up_to_six() -> None:
    table = started()
    update = table.lay("Y01", P1)
    assert table.events(update) == [DrawCards(0, 1), PlayCard(0, card("Y01"), 0)]
    assert not update.warnings


def test_a_card_into_the_opponents_column_and_the_rule_of_the_own_mountain() -> None:
    table = started()
    table.lay("Y01", P1)
    update = table.lay("R02", P2)  # red is in player 1's mountain: not into player 2's own
    assert [w.reason for w in update.warnings] == ["own-mountain-color"]
    assert not update.events
    assert table.take("R02").cleared  # taken back: the warning goes
    update = table.lay("R02", P1)  # onto player 1's red column: fine
    assert table.events(update) == [DrawCards(1, 1), PlayCard(1, card("R02"), 0)]


def test_no_new_column_in_the_opponents_mountain() -> None:
    table = started()
    update = table.lay("G01", P2)
    assert [w.reason for w in update.warnings] == ["no-such-column"]


def test_a_discard_shows_how_many_were_drawn_and_the_turn_is_written_again() -> None:
    table = started()
    first = table.lay("Y01", P1)
    update = table.lay("K01", DISCARD)
    assert [t.event for t in update.undone] == [PlayCard(0, card("Y01"), 0), DrawCards(0, 1)]
    # 5 in hand after the starting card; 6 + 1 after the play: the draw brought 3, not 1.
    assert table.events(update) == [DrawCards(0, 3), PlayCard(0, card("Y01"), 0), DiscardCards(0, (card("K01"),))]
    assert [t.event for t in first.events] == [DrawCards(0, 1), PlayCard(0, card("Y01"), 0)]
    game = table.tracker.game
    assert game is not None and game.turn == 1 and game.hand_size(0) == 6


def test_a_discard_of_two_in_one_view() -> None:
    table = started()
    table.lay("Y01", P1)
    table.cards.update({"K01": DISCARD, "K02": DISCARD})
    update = table.look()
    assert table.events(update)[0] == DrawCards(0, 4)
    assert table.events(update)[-1] == DiscardCards(0, (card("K01"), card("K02")))


def test_a_card_moved_between_mountains_is_warned() -> None:
    table = started()
    table.lay("Y01", P1)
    update = table.lay("Y01", P2)
    assert [w.reason for w in update.warnings] == ["moved-card"]
    assert table.lay("Y01", P1).cleared


def test_a_card_on_a_score_pile_or_the_deck_is_unexpected() -> None:
    table = started()
    assert [w.reason for w in table.lay("Y01", "p1.score").warnings] == ["unexpected-card"]


def test_the_round_is_scored_when_the_sixth_color_is_laid_and_its_cards_may_lie_until_cleared() -> None:
    table = started()
    for name, zone in (("Y01", P1), ("G01", P2), ("A01", P1), ("P01", P2), ("Y02", P1), ("K01", P2)):
        update = table.lay(name, zone)
        assert not update.warnings, update.warnings
    game = table.tracker.game
    assert game is not None and game.round == 2 and game.phase is Phase.START and game.turn == 0
    # Player 2 brought the sixth color: player 1 opens round 2. Player 1 took red and yellow (2);
    # player 2 orange, green, purple, black; player 1's gold scored 1.
    assert game.score(0) == 3 + 1 and game.score(1) == 4
    result = table.tracker.rounds[-1]
    assert result.majorities == "121222" and result.gold == (1, 0)
    assert not table.look().warnings  # the scored cards still lie there: no news
    update = table.take("R01", "O01", "Y01", "G01", "A01", "P01", "Y02", "K01")
    assert not update.warnings and not update.events
    assert table.events(table.lay("G02", START)) == [StartCard(0, card("G02"))]


def test_undo_takes_back_the_play_and_its_draw() -> None:
    table = started()
    table.lay("Y01", P1)
    tracker = table.tracker
    assert tracker.undo() == PlayCard(0, card("Y01"), 0)
    assert tracker.game is not None and len(tracker.game.stack) == 2
    assert [w.reason for w in tracker.warnings] == ["undone"]


def test_override_applies_the_refused_play() -> None:
    table = started()
    warning = table.lay("R02", P2).warnings[0]
    tracked = table.tracker.override(warning)
    assert tracked is not None and tracked.forced and tracked.event == PlayCard(0, card("R02"), 1)
    game = table.tracker.game
    assert game is not None and card("R02") in game.mountain(1)


def test_a_starting_card_out_of_turn_order_is_not_now() -> None:
    table = started()
    update = table.lay("G01", START)
    assert [w.reason for w in update.warnings] == ["wrong-phase"]


def test_a_mat_put_away_after_discards_lets_a_new_game_begin() -> None:
    table = started()
    table.lay("Y01", P1)
    table.lay("K01", DISCARD)
    table.take("R01", "O01", "Y01", "K01")  # the game put away (its end was not seen: the deck count is unsure)
    update = table.lay("G05", START)
    assert update.started and table.events(update) == [StartCard(0, card("G05"))]


def test_an_empty_mat_before_any_discard_is_not_a_new_game() -> None:
    table = started()
    table.take("R01", "O01")  # starting cards lifted for a moment
    update = table.lay("R01", START)
    assert not update.started


def test_a_gold_card_cannot_start_a_column() -> None:
    table = Table()
    table.lay("R01", START)
    update = table.lay("A02", START)
    assert [w.reason for w in update.warnings] == ["start-not-colored"]
    assert table.take("A02").cleared
