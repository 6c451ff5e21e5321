"""Players who answer the screen: a cup shown when the companion asks for it, nothing more when it asks nothing."""

from __future__ import annotations

import random

import pytest

from companion.engine import play_random_game
from companion.engine.cards import card_name
from companion.engine.game import CUPS
from companion.sim.players import PlayedTable, spread_places
from companion.sim.scene import PlacedCard, scene_truth
from companion.sim.script import GameScript, IdealCamera, Shot, script_observations
from companion.sim.styles import lay_game
from companion.tracker.display import DisplayModel, GameOver, PlayerView
from companion.vision.layout import Layout, load_layout
from companion.vocab import zones

FPS = 10.0


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


@pytest.fixture(scope="module")
def script(layout: Layout) -> GameScript:
    return lay_game(play_random_game(random.Random(2), first_player=0), layout, "tidy", seed=2)


def _over(unknown: tuple[int, int]) -> DisplayModel:
    players = (PlayerView(hand=0, unknown_cup=unknown[0]), PlayerView(hand=0, unknown_cup=unknown[1]))
    return DisplayModel(phase="over", turn="p1", deck=20, players=players,
                        over=GameOver((30, 25), "p1", unknown=sum(unknown)))


def test_the_screen_asks_for_the_cups_with_unseen_cards_only_when_the_game_is_over() -> None:
    assert _over((1, 0)).cups_to_show == ("p1",)
    assert _over((0, 2)).cups_to_show == ("p2",)
    assert _over((0, 0)).cups_to_show == ()
    playing = DisplayModel(phase="play", turn="p1", players=(PlayerView(hand=6), PlayerView(hand=6)))
    assert playing.players[0].unknown_cup == 2 and playing.cups_to_show == ()


@pytest.mark.parametrize("player", [0, 1])
def test_a_spread_batch_shows_a_sticker_of_every_card_inside_the_reveal_area(layout: Layout, player: int) -> None:
    zone = zones.reveal(player)
    places = spread_places(layout, zone, player)
    assert len(places) >= 2
    cards = [PlacedCard(f"R{i + 1:02d}", (x, y), turn) for i, (x, y, turn) in enumerate(places)]
    truth = scene_truth(layout, cards)
    assert all(t.visible and t.zone == zone for t in truth), [(t.card_id, t.visible, t.zone) for t in truth]


def test_nothing_asked_plays_the_script_frame_for_frame(layout: Layout, script: GameScript) -> None:
    table = PlayedTable(script, layout, FPS)
    expected = script.frame_shots(FPS)
    camera = IdealCamera(layout, seed=2)
    playing = _over((0, 0))
    seen = list(table.play(camera, lambda index, now, frame: frame, lambda now: playing, ideal=True))
    assert len(seen) == len(expected) and table.shots == list(script.shots)
    assert seen == list(script_observations(script, layout, FPS, seed=2))  # the same misses too


def test_asked_for_a_cup_the_player_looks_then_spreads_every_card_of_it(layout: Layout, script: GameScript) -> None:
    table = PlayedTable(script, layout, FPS, settle_s=1.0)
    asked = _over((0, 1))
    frames = 0
    for _ in table.play(IdealCamera(layout), lambda index, now, frame: index, lambda now: asked, ideal=True):
        frames += 1
    extra = table.shots[len(script.shots):]
    assert extra[0].note == "players look at the screen" and extra[0].cards == script.shots[-1].cards
    assert sum(shot.note == "players look at the screen" for shot in extra) == 2  # answered twice, then left
    cup = {card_name(c) for c in script.game.known[CUPS[1]]}
    shown: set[str] = set()
    for shot in extra:
        if shot.note == "show cup" and shot.hand is None:
            assert shot.seconds >= 3.0
            shown |= {t.card_id for t in scene_truth(layout, shot.cards) if t.visible and t.zone == zones.reveal(1)}
    assert shown == cup
    assert frames == len(table.played.frame_shots(FPS))
    untouched = {c.card_id: c for c in script.shots[-1].cards if c.card_id not in cup}
    assert {c.card_id: c for c in extra[-1].cards if c.card_id not in cup} == untouched  # p1's cup stays


def test_the_played_script_keeps_the_game_and_the_script_shots(layout: Layout, script: GameScript) -> None:
    table = PlayedTable(script, layout, FPS)
    table.look(_over((1, 0)))  # idle at the end, asked: they look first
    assert table.played.shots[: len(script.shots)] == script.shots
    assert table.played.game is script.game
    assert isinstance(table.played.shots[-1], Shot) and table.played.shots[-1].hand is None
