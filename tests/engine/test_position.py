"""Positions from the table (join, resync), the resync event, refills with an unread card, position headers."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.engine import Game, Phase, Refill, play_random_game, read_record, record_lines, replay
from companion.engine.cards import parse_card
from companion.engine.events import Resync
from companion.engine.position import Position, build
from companion.engine.record import record_header, table_record
from companion.errors import PositionError, UnreadableRecordError


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def a_position(**changes: object) -> Position:
    values: dict[str, object] = {
        "mountains": (cards("R01", "O01"), cards("Y01")),
        "fields": ((cards("G01", "G02"), ()), ((), cards("P01"))),
        "rivers": (cards("K01"), ()),
        "discard": cards("R05"),
        "hands": (5, 7), "cup_sizes": (4, 2), "deck": 40, "turn": 1,
    }
    values.update(changes)
    return Position(**values)  # type: ignore[arg-type]


def test_a_position_accounts_for_every_card() -> None:
    game = build(a_position())
    seen = 2 + 1 + 2 + 1 + 1 + 1
    assert game.hand_size(0) == 5 and game.hand_size(1) == 7 and game.cup_size(0) == 4 and game.deck_size == 40
    assert game.discard_size == 1 + 108 - seen - 12 - 6 - 40  # R05 seen, the rest counted
    assert game.turn == 1 and game.phase is Phase.PLAY
    assert Game.from_text(game.text()) == game  # the text form carries it whole


def test_a_position_is_played_on_by_the_rules() -> None:
    from companion.engine import FieldPlay, MountainPlay

    game = build(a_position())
    assert game.validate(MountainPlay(1, 0, cards("G05"))).reason.value == "color-rule"  # type: ignore[union-attr]
    game.push(FieldPlay(1, 1, cards("P02")))
    assert game.turn == 0 and game.hand_size(1) == 6


def test_without_a_deck_size_the_rest_is_the_deck() -> None:
    game = build(a_position(deck=None))
    assert game.discard_size == 1 and game.deck_size == 108 - 8 - 12 - 6


@pytest.mark.parametrize(("changes", "message"), [
    ({"discard": cards("R01")}, "R01 cannot lie in two places (discard and m1.mountain)"),
    ({"rivers": (cards("K01", "K02"), ())}, "p1's river K01 K02 must hold at most 6 cards of different colors"),
    ({"hands": (9, 6)}, "p1 hand: 9 cards is not a count from 0 to 8"),
    ({"deck": 90}, "the position holds more than 108 cards"),
    ({"cup_sizes": (4, 2), "cups": (cards("R10", "R11", "R12", "R13", "R14"), ())}, "p1 cup: 4 cards, but 5"),
    ({"phase": Phase.CLAIM}, "must say which mandala is destroyed"),
    ({"phase": Phase.REFILL, "destroying": 0}, "m1's mountain must be empty before its refill"),
])
def test_impossible_positions_are_refused_with_a_reason(changes: dict[str, object], message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        build(a_position(**changes))


def test_a_resync_event_replaces_the_state_and_undoes_cleanly() -> None:
    game = play_random_game(random.Random(4))
    while len(game.stack) > 10:
        game.pop()
    before = game.text()
    target = build(a_position())
    game.push(Resync(target.text()))
    assert game == target and len(game.stack) == 11
    game.pop()
    assert game.text() == before


def test_a_record_with_a_position_header_and_a_resync_line_replays() -> None:
    start = build(a_position())
    later = build(a_position(turn=0, deck=39, hands=(5, 8)))
    header = record_header(start, table=True)
    assert header["position"] == start.text() and "setup" not in header
    lines = [json.dumps(header), json.dumps({"player": "p2", "action": "field", "mandala": "m2", "cards": ["P02"]}),
             json.dumps(Resync(later.text()).to_json())]
    game, verdicts = replay(read_record(lines))
    assert all(v.violation is None for v in verdicts) and game == later
    assert read_record(record_lines(game, table=True)).new_game() == start


def test_a_dealt_game_keeps_its_setup_header() -> None:
    game = play_random_game(random.Random(2))
    assert "setup" in record_header(game) and "position" not in record_header(game)
    table = table_record(game)
    assert "setup" in record_header(table.new_game(), table=True)


@pytest.mark.parametrize(("header", "message"), [
    ({"position": "mandala/1 nonsense"}, "a state text has 10 parts"),
    ({"position": 5}, "the header's position must be a state text"),
    ({"position": "x", "setup": {}}, "either \"setup\""),
])
def test_bad_position_headers_are_unreadable(header: dict[str, object], message: str) -> None:
    with pytest.raises(UnreadableRecordError, match=message):
        read_record([json.dumps({"format": "mandala-record/1", **header})])


def test_a_refill_may_name_one_card_and_count_the_other_unseen() -> None:
    game = play_random_game(random.Random(5))
    index = next(i for i, (e, _) in enumerate(game.stack) if isinstance(e, Refill))
    while len(game.stack) > index:
        game.pop()
    mandala = game.destroying
    assert mandala is not None and game.phase is Phase.REFILL
    deck_text = game.text().split(" deck:")[1].split()[0]
    table = Game.from_text(game.text().replace(f"deck:{deck_text}", f"deck:+{game.deck_size}"))
    drawn = sorted(game.known[6])[0]
    refill = Refill(mandala, (drawn,), unseen=1)
    assert table.validate(refill) is None
    assert table.validate(Refill(mandala, (drawn,))).reason.value == "refill-count"  # type: ignore[union-attr]
    table.push(refill)
    assert table.mountain(mandala) == (drawn,) and table.size(8 + 3 * mandala) == 2
    assert table.phase is Phase.PLAY and json.loads(str(refill))["unseen"] == 1
    replayed, verdicts = replay(read_record([json.dumps(record_header(table)), str(refill)]))
    assert replayed == table and verdicts[0].violation is None
