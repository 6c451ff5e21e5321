"""``companion run`` killed and started again 3 s later, frames of those 3 s lost: the same final result.

What runs is what ``run`` runs between the camera and the journal (a
:class:`Session` with its journal in a state folder), fed the ideal camera's
observations of a whole simulated game. The process is "killed" at a random
frame (the session dropped, nothing flushed beyond what the journal already
holds), and a new session resumes from the journal 3 s of frames later.
``companion bench restart`` does the same through rendered frames and vision.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.app.journal import Journal
from companion.app.session import Session
from companion.engine import play_random_game, summary
from companion.sim.script import script_observations
from companion.sim.styles import lay_game
from companion.vision.layout import load_layout
from companion.vision.observation import FrameObservation
from tests.app.test_session import _ObservationPipeline
from tests.tracker.perturb import with_rest_at_end

FPS = 10.0
SEED = 0
RESTART_S = 3.0


def _session(state: Path) -> Session:
    session = Session(_ObservationPipeline(), Journal.open(state))  # type: ignore[arg-type]
    session.resume()
    return session


def _feed(session: Session, frames: list[FrameObservation], start: int, stop: int) -> None:
    for index in range(start, stop):
        session.feed(index, index / FPS, frames[index])  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def game_frames() -> tuple[dict[str, object], list[FrameObservation], tuple[int, int]]:
    layout = load_layout()
    game = play_random_game(random.Random(SEED), first_player=0)
    script = with_rest_at_end(lay_game(game, layout, "tidy", seed=SEED))
    frames = list(script_observations(script, layout, FPS, seed=SEED))
    starts = [round(sum(s.seconds for s in script.shots[:i]) * FPS) for i in range(len(script.shots))]
    dealt = next(start for start, shot in zip(starts, script.shots, strict=True) if shot.note == "deal")
    return summary(game), frames, (dealt + round(2 * FPS), len(frames) - round(8 * FPS))


def test_a_restart_at_random_moments_ends_with_the_same_result(
        game_frames: tuple[dict[str, object], list[FrameObservation], tuple[int, int]], tmp_path: Path) -> None:
    truth, frames, (first, last) = game_frames
    reference = _session(tmp_path / "reference")
    _feed(reference, frames, 0, len(frames))
    assert reference.journal is not None and reference.journal.latest() is not None
    assert reference.journal.latest().final() == truth   # type: ignore[union-attr]
    for moment in sorted(random.Random(7).sample(range(first, last), 3)):
        state = tmp_path / f"killed-at-{moment}"
        before = _session(state)
        _feed(before, frames, 0, moment)
        assert before.journal is not None
        before.journal.close()                          # killed: only what the journal holds survives
        after = _session(state)
        _feed(after, frames, moment + round(RESTART_S * FPS), len(frames))
        assert after.journal is not None
        game = after.journal.latest()
        assert game is not None and game.final() == truth, f"restarted at frame {moment}"
