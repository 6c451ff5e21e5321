"""Whole games started from the table as it is (interfaces.md section 8), on the ideal camera.

A companion switched on after the deal (it never sees the empty mat), and one
that joins after 30 moves with the counts given (``--join --turn --hands
--cups --deck``), must both end with the exact result of the game.
"""

from __future__ import annotations

import random

import pytest

from companion.engine import Game, Phase, play_random_game, summary
from companion.sim.game import script_game
from companion.sim.script import GameScript, script_observations
from companion.tracker.anchor import JoinCounts
from companion.tracker.tracker import Tracker
from companion.vision.layout import load_layout
from companion.vision.observation import FrameObservation
from tests.tracker.perturb import with_rest_at_end

FPS = 10.0
SEED = 6
JOIN_AFTER = 30


@pytest.fixture(scope="module")
def played() -> tuple[Game, GameScript, list[FrameObservation]]:
    layout = load_layout()
    game = play_random_game(random.Random(SEED), first_player=0)
    script = with_rest_at_end(script_game(game, layout, seed=SEED))
    return game, script, list(script_observations(script, layout, FPS, seed=SEED))


def _shot_start(script: GameScript, index: int) -> int:
    return round(sum(shot.seconds for shot in script.shots[:index]) * FPS)


def test_a_companion_switched_on_after_the_deal_follows_the_game(
        played: tuple[Game, GameScript, list[FrameObservation]]) -> None:
    game, script, frames = played
    dealt = next(i for i, shot in enumerate(script.shots) if shot.note == "deal")
    tracker = Tracker(settle_s=1.0)
    for index in range(_shot_start(script, dealt), len(frames)):    # the empty mat never seen
        tracker.observe(index, index / FPS, frames[index])
    assert tracker.game is not None and summary(tracker.game) == summary(game)


def test_a_companion_joining_after_30_moves_with_the_counts_ends_exact(
        played: tuple[Game, GameScript, list[FrameObservation]]) -> None:
    game, script, frames = played
    position = Game.from_snapshot(game.base)
    moves = 0
    for event, _ in game.stack:                  # 30 moves, then on to a moment the players may play
        position.push(event)
        moves += 1
        if moves >= JOIN_AFTER and position.phase is Phase.PLAY:
            break
    last = max(i for i, shot in enumerate(script.shots) if shot.note == str(game.stack[moves - 1][0]))
    tracker = Tracker(settle_s=1.0)
    tracker.request_join(JoinCounts(turn=position.turn, hands=(position.hand_size(0), position.hand_size(1)),
                                    cups=(position.cup_size(0), position.cup_size(1)), deck=position.deck_size))
    for index in range(_shot_start(script, last), len(frames)):
        tracker.observe(index, index / FPS, frames[index])
    assert tracker.game is not None and summary(tracker.game) == summary(game)
    assert not tracker.unknown
