"""Tables off the happy path, for the tracker's tests: the tidy sim's games, perturbed.

- :func:`quick_moves`: some moves follow the one before within the settle
  time (two moves in one settled view);
- :func:`covered_observations`: ideal observations in which mountain cards
  covered by a later card of their mountain are hidden for good (a tight fan),
  and the camera is away (board not found) during given intervals;
- :func:`restart_game`: the game a restarted companion resumes from the
  journal, as it stood at a frame.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from companion.engine import Game
from companion.sim.scene import SceneOptions, scene_truth
from companion.sim.script import GameScript, Shot
from companion.tracker.tracker import TrackedEvent
from companion.vision.layout import Layout
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation

QUICK_S = 0.3


def quick_moves(script: GameScript, rng: random.Random, chance: float) -> GameScript:
    """Shorten the rest after some moves, so that the next move starts within the settle time."""
    shots = list(script.shots)
    for index in range(1, len(shots) - 1):
        shot, after = shots[index], shots[index + 1]
        movable = (shot.hand is None and after.hand is not None and shots[index - 1].hand is not None
                   and shot.note.startswith("{") and after.note.startswith("{") and '"claim"' not in shot.note
                   and "refill" not in shot.note)
        if movable and rng.random() < chance:
            shots[index] = replace(shot, seconds=QUICK_S)
    return replace(script, shots=tuple(shots))


def with_rest_at_end(script: GameScript, seconds: float = 5.0) -> GameScript:
    """The table left as it is after the game (the players look at the result)."""
    last = script.shots[-1]
    return replace(script, shots=(*script.shots, Shot(last.cards, None, seconds, "left as it is")))


def covered_observations(script: GameScript, layout: Layout, fps: float, *, hide_p: float = 0.0,
                         away: Sequence[tuple[float, float]] = (), seed: int = 0,
                         hide_deal: bool = True) -> Iterator[FrameObservation]:
    """Ideal observations, with covered mountain cards hidden at random and the camera away at times.

    ``hide_deal``: the first dealt card of a mountain may hide under the second from the start too.
    """
    rng = random.Random(seed)
    hides: dict[str, bool] = {}  # card -> whether it hides once covered in its mountain
    if not hide_deal:
        deal = next(shot for shot in script.shots if shot.cards)
        hides.update((placed.card_id, False) for placed in deal.cards)
    board = BoardStatus(True, tuple(f.id for f in layout.fiducials))
    cache: dict[int, tuple[CardObservation, ...]] = {}
    for frame, shot_index in enumerate(script.frame_shots(fps)):
        now = frame / fps
        if any(start <= now < end for start, end in away):
            yield FrameObservation(BoardStatus(False, ()))
            continue
        if shot_index not in cache:
            shot = script.shots[shot_index]
            truth = scene_truth(layout, shot.cards, replace(SceneOptions(), hand=shot.hand))
            order = {placed.card_id: i for i, placed in enumerate(shot.cards)}
            visible = [t for t in truth if t.visible and t.zone is not None]
            kept = []
            for t in visible:
                later = [u for u in truth if u.zone == t.zone and order[u.card_id] > order[t.card_id]]
                if t.zone is not None and t.zone.endswith("mountain") and later:
                    hides.setdefault(t.card_id, rng.random() < hide_p)
                    if hides[t.card_id]:
                        continue
                kept.append(CardObservation(t.card_id, t.center_mm, t.zone, 1.0))
            cache[shot_index] = tuple(kept)
        yield FrameObservation(board, cache[shot_index])


def restart_game(base: Game, events: Sequence[TrackedEvent], frame: int) -> Game:
    """The game the journal holds when the companion is killed at ``frame``: every event reported before it."""
    game = Game.from_snapshot(base.base)
    for tracked in events:
        if tracked.frame < frame:
            game.push(tracked.event, force=True)
    return game
