"""Whole games of the mountains ruleset laid on its playmat, and tracked from the ideal camera."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine import MountainsGame, play_random_game, summary
from companion.engine.mountains.events import DiscardCards, DrawCards
from companion.sim.mountains import script_mountains_game
from companion.sim.scene import PlacedCard
from companion.sim.script import script_observations
from companion.tracker.mountains import CAMERA_KNOWN, MountainsTracker
from companion.vision.layout import default_layout_path, load_layout, point_in_polygon

LAYOUT = load_layout(default_layout_path("mountains"))
SEED = 11


def short_game(seeds: range = range(20)) -> tuple[int, MountainsGame]:
    games = [(s, play_random_game(random.Random(s), ruleset=MountainsGame)) for s in seeds]
    return min(games, key=lambda g: len(g[1].stack))


def inside_mat(card: PlacedCard) -> bool:
    width, height = LAYOUT.size_mm
    mat = ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))
    return all(point_in_polygon(corner, mat) for corner in card.corners_mm(LAYOUT.card_mm))


def test_every_card_lies_on_the_mat_in_a_zone_of_the_ruleset() -> None:
    game = play_random_game(random.Random(SEED), ruleset=MountainsGame)
    script = script_mountains_game(game, LAYOUT, seed=SEED)
    assert len(script.event_done_s) == len(game.stack)
    for shot in script.shots:
        for card in shot.cards:
            assert inside_mat(card), (shot.note, card)
            if card.face_up:
                assert LAYOUT.zone_at(card.center_mm) in ("start", "p1.mountain", "p2.mountain", "discard"), card
            else:
                assert LAYOUT.zone_at(card.center_mm) in ("p1.score", "p2.score"), card
    assert not script.shots[-1].cards or all(c.card_id[0] != "A" or c.face_up for c in script.shots[-1].cards)


def test_a_scored_round_leaves_the_mountains_empty() -> None:
    game = play_random_game(random.Random(SEED), ruleset=MountainsGame)
    script = script_mountains_game(game, LAYOUT, seed=SEED, inject_p=0.0, linger_p=0.0)
    cleared = [i for i, shot in enumerate(script.shots) if shot.note == "gold and tied colors leave the game"]
    assert cleared
    for index in cleared:
        after = script.shots[index + 1] if index + 1 < len(script.shots) else script.shots[index]
        assert not [c for c in after.cards if LAYOUT.zone_at(c.center_mm) in ("start", "p1.mountain", "p2.mountain")]


def test_the_sim_needs_a_finished_game_and_the_mountains_playmat() -> None:
    game = MountainsGame(play_random_game(random.Random(1), ruleset=MountainsGame).setup())
    with pytest.raises(ValueError, match="finished game"):
        script_mountains_game(game, LAYOUT)
    with pytest.raises(ValueError, match="mountains playmat"):
        script_mountains_game(play_random_game(random.Random(1), ruleset=MountainsGame), load_layout())


@pytest.mark.slow  # a whole game through the tracker, from the ideal camera: 10 to 30 s
def test_a_whole_game_is_tracked_exactly_from_the_ideal_camera() -> None:
    seed, game = short_game()
    script = script_mountains_game(game, LAYOUT, seed=seed, inject_p=0.15, linger_p=0.1)
    tracker = MountainsTracker()
    warnings = []
    for index, seen in enumerate(script_observations(script, LAYOUT, 14.0, seed=seed)):
        warnings += tracker.observe(index, index / 14.0, seen).warnings
    assert tracker.game is not None
    final, truth = summary(tracker.game), summary(game)
    assert {key: final[key] for key in CAMERA_KNOWN} == {key: truth[key] for key in CAMERA_KNOWN}
    injected = {(i.card_id, i.zone) for i in script.injections}
    assert injected and all(any((c, w.zone) in injected for c in w.cards) for w in warnings)
    assert {(w.cards[0], w.zone) for w in warnings} == injected
    moves = [normal(t.event) for t in tracker.events if not isinstance(t.event, DrawCards)]
    assert moves == [normal(e) for e, _ in game.stack if not isinstance(e, DrawCards)]


def normal(event: object) -> object:
    """A discard's cards in id order (the camera reads a pile, not the order it was laid in)."""
    return replace(event, cards=tuple(sorted(event.cards))) if isinstance(event, DiscardCards) else event
