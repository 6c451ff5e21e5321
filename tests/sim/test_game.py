"""The tidy players (companion.sim.game): what they promise the camera."""

from __future__ import annotations

import random

import pytest

from companion.engine import play_random_game
from companion.sim.game import script_game
from companion.sim.scene import scene_truth
from companion.sim.script import GameScript
from companion.vision.layout import Layout, load_layout, polygons_overlap


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


@pytest.fixture(scope="module")
def script(layout: Layout) -> GameScript:
    return script_game(play_random_game(random.Random(153), first_player=0), layout, seed=153)


def test_every_card_laid_shows_a_sticker_once_the_hand_has_left(layout: Layout, script: GameScript) -> None:
    before: set[str] = set()
    for shot in script.shots:
        if shot.hand is not None:
            continue
        truth = {t.card_id: t for t in scene_truth(layout, shot.cards)}
        new = [c.card_id for c in shot.cards if c.card_id not in before and c.face_up]
        assert all(truth[card].visible for card in new), (shot.note, [c for c in new if not truth[c].visible])
        assert all(t.zone is not None for t in truth.values()), shot.note  # every card centre in a zone
        before = {c.card_id for c in shot.cards}


def test_tidy_players_leave_the_fiducials_uncovered(layout: Layout, script: GameScript) -> None:
    for shot in script.shots:
        for card in shot.cards:
            outline = card.corners_mm(layout.card_mm)
            assert not any(polygons_overlap(outline, f.corners_mm()) for f in layout.fiducials), (card, shot.note)


def test_each_event_is_dated_when_the_table_shows_it_done(script: GameScript) -> None:
    done = script.event_done_s
    assert len(done) == len(script.game.stack) and list(done) == sorted(done) and done[-1] < script.duration_s
    starts = [0.0]
    for shot in script.shots:
        starts.append(starts[-1] + shot.seconds)
    assert all(any(abs(at - start) < 1e-9 for start in starts) for at in done)  # at the start of a shot
