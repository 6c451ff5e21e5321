"""Reading, writing and replaying mandala-record/1."""

from __future__ import annotations

import json
import random

import pytest

from companion.engine import play_random_game, read_record, record_lines, replay, summary
from companion.errors import UnreadableRecordError

HEADER = {"format": "mandala-record/1", "first_player": "p1",
          "setup": {"m1": ["R01", "O02"], "m2": ["Y03", "G04"],
                    "p1": {"hand": ["R02", "R03", "O03", "O04", "Y05", "Y06"], "cup": ["K01", "K02"]},
                    "p2": {"hand": ["P01", "P02", "P03", "G05", "G06", "K03"], "cup": ["K04", "K05"]}}}


def lines(*events: dict[str, object], header: dict[str, object] | None = None) -> list[str]:
    return [json.dumps(header or HEADER), *(json.dumps(e) for e in events)]


def test_written_record_replays_to_the_same_game() -> None:
    game = play_random_game(random.Random(11))
    record = read_record(record_lines(game))
    replayed, verdicts = replay(record)
    assert all(v.violation is None for v in verdicts)
    assert replayed.text() == game.text() and summary(replayed) == summary(game)


def test_illegal_line_is_reported_with_its_number_and_skipped() -> None:
    record = read_record(lines(
        {"player": "p2", "action": "field", "mandala": "m1", "cards": ["P01"]},
        {"player": "p1", "action": "field", "mandala": "m2", "cards": ["O03", "O04"]},
    ))
    game, verdicts = replay(record)
    assert [v.to_json()["ok"] for v in verdicts] == [False, True]
    assert verdicts[0].to_json()["reason"] == "not-your-turn" and verdicts[0].line == 2
    assert game.turn == 1


def test_full_record_without_drew_is_a_draw_count_violation() -> None:
    record = read_record(lines({"player": "p1", "action": "mountain", "mandala": "m1", "cards": ["Y05"]}))
    _, verdicts = replay(record)
    assert verdicts[0].to_json()["reason"] == "draw-count"


def test_summary_shape() -> None:
    final = summary(replay(read_record(lines()))[0])
    assert final == {"phase": "play", "turn": "p1", "end_reason": None, "winner": None,
                     "scores": {"p1": 0, "p2": 0}, "cups": {"p1": 2, "p2": 2}, "rivers": {"p1": [], "p2": []},
                     "hands": {"p1": 6, "p2": 6}, "deck": 88, "discard": 0}


BAD = [
    (["{not json"], "line 1: bad JSON"),
    ([json.dumps({"format": "other"})], "line 1: the header must have"),
    (lines({"player": "p1", "action": "fly", "cards": []}), "line 2: unknown action \"fly\""),
    (lines({"player": "p1", "action": "field", "mandala": "m1", "cards": ["R19"]}), "line 2: unknown card 'R19'"),
    (lines({"player": "p3", "action": "field", "mandala": "m1", "cards": ["R02"]}), "line 2: unknown player 'p3'"),
    (lines({"player": "p1", "action": "field", "mandala": "m3", "cards": ["R02"]}), "line 2: unknown mandala 'm3'"),
    (lines({"player": "p1", "action": "claim", "color": "Z"}), "line 2: unknown color 'Z'"),
    (lines({"player": "p1", "action": "field", "mandala": "m1", "cards": []}), "line 2: a field event needs"),
    (lines({"player": "p1", "action": "discard", "cards": "R02"}), "line 2: cards must be a list"),
    (lines(header={**HEADER, "setup": {**HEADER["setup"], "m1": ["R02", "O02"]}}),  # type: ignore[dict-item]
     "line 1: impossible setup: R02 dealt twice"),
    (lines(header={**HEADER, "setup": {**HEADER["setup"], "m2": ["Y03"]}}),  # type: ignore[dict-item]
     "line 1: impossible setup: setup m2 must hold 2 cards"),
    (lines(header={**HEADER, "setup": {**HEADER["setup"], "p1": {"hand": 5, "cup": 2}}}),  # type: ignore[dict-item]
     "line 1: impossible setup: setup p1 hand must hold 6"),
    (["", "[1, 2]"], "line 2: expected a JSON object"),
    ([], "line 1: the record is empty"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_malformed_records_name_the_line(text: list[str], message: str) -> None:
    with pytest.raises(UnreadableRecordError) as caught:
        read_record(text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_table_mode_counts_round_trip() -> None:
    header = {**HEADER, "mode": "table", "setup": {**HEADER["setup"],  # type: ignore[dict-item]
                                                   "p1": {"hand": 6, "cup": 2}, "p2": {"hand": 6, "cup": 2}}}
    record = read_record(lines({"player": "p1", "action": "mountain", "mandala": "m1", "cards": ["K07"]},
                               header=header))
    assert record.table_mode
    game, verdicts = replay(record)
    assert verdicts[0].violation is None and game.hand_size(0) == 8
    again = read_record(record_lines(game, table=True))
    assert replay(again)[0].text() == game.text()
