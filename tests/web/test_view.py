"""The view document: scores broken down per river space, mandalas by color, cups, the history."""

from __future__ import annotations

import random

from companion.engine import Game, play_random_game, summary, table_record
from companion.tracker.display import DisplayModel
from companion.tracker.tracker import TrackedEvent
from companion.web.view import History, table_view


def test_the_breakdown_adds_up_to_the_score_and_the_final_is_the_engines() -> None:
    game = play_random_game(random.Random(7))
    view = table_view(DisplayModel(phase="play", turn="p1"), game, game_id=4)
    assert view["final"] == summary(game) and view["game_id"] == 4
    for index, name in enumerate(("p1", "p2")):
        player = view["players"][name]
        assert sum(space["points"] for space in player["river"]) == player["score"] == game.score(index).points
        assert [space["value"] for space in player["river"]] == list(range(1, len(player["river"]) + 1))
        cup = player["cup"]
        assert sum(cup["known"].values()) + cup["unseen"] == cup["size"] == game.cup_size(index)
    for name, mandala in view["mandalas"].items():
        cards = sum(len(cards) for cards in mandala["cards"].values())
        assert sum(mandala["colors"].values()) == cards
        assert set(mandala["worth"]["p1"]) == set(mandala["colors"])
        assert not mandala["destroying"], name  # the game is over


def test_before_a_deal_there_is_only_the_model() -> None:
    view = table_view(DisplayModel(phase="setup", turn="p1"), None)
    assert view["players"] is None and view["final"] is None and view["model"]["phase"] == "setup"


def test_history_narrates_new_events_and_follows_an_undo() -> None:
    record = table_record(play_random_game(random.Random(3)))
    game = Game(record.setup)
    tracked: list[TrackedEvent] = []
    history = History()
    for frame, (_, event) in enumerate(record.events[:5]):
        game.push(event)
        tracked.append(TrackedEvent(frame, event))
        lines = history.lines(game, tracked)
    assert [line["n"] for line in lines] == [1, 2, 3, 4, 5]
    assert all(line["text"].endswith(".") for line in lines)
    game.pop()
    tracked.pop()
    assert len(history.lines(game, tracked)) == 4
    other = TrackedEvent(99, record.events[5][1])
    game.push(other.event, force=True)
    assert history.lines(game, [*tracked, other])[-1]["frame"] == 99
    assert history.lines(None, []) == []


def test_history_tells_a_resync_as_the_table_read_again() -> None:
    # A resync (the tracker re-reading the table: a deck put right when the pile was picked up, a cup
    # recounted) is no move; the phone's history asserted every event was one and the page failed.
    from companion.engine import Resync
    from companion.engine.narrate import SENTENCES

    record = table_record(play_random_game(random.Random(3)))
    game = Game(record.setup)
    tracked = []
    for frame, (_, event) in enumerate(record.events[:3]):
        game.push(event)
        tracked.append(TrackedEvent(frame, event))
    resync = TrackedEvent(3, Resync(game.text()), forced=True)
    game.push(resync.event, force=True)
    lines = History().lines(game, [*tracked, resync])
    assert lines[-1]["sentences"] == [{"template": SENTENCES[15], "values": {}}]


def test_history_narrates_every_event_a_tracker_reports_on_a_sloppy_table() -> None:
    """Whatever the tracker reports (corrections too) can be told: a sloppy game through the ideal camera."""
    from companion.bench.table import Job, _watch
    from companion.engine import Resync
    from companion.sim.styles import lay_game
    from companion.vision.layout import load_layout

    layout = load_layout()
    played = play_random_game(random.Random(16), first_player=0)
    script = lay_game(played, layout, "sloppy", seed=16)
    tracker, _, _ = _watch(script, layout, Job("sloppy", 16, 14.0, (4608, 2592), 1.0, ideal=True))
    assert any(isinstance(t.event, Resync) for t in tracker.events)  # the game holds a correction to tell
    lines = History().lines(tracker.game, tracker.events)
    assert len(lines) == len(tracker.events) and all(line["text"] for line in lines)
