"""``companion bench start``: games the companion did not see begin end with the exact result (issue 10).

Two ways of starting from the table as it is (interfaces.md section 8), per
game (a random legal game laid by the simulated players of ``--style``):

- ``dealt``: the companion is switched on after the deal; the empty mat is
  never seen, the dealt table is the new game;
- ``join``: the companion joins after ``--join-after`` moves, with the
  counts given (``--join --turn --hands --cups --deck``), at the first shot
  of the table after that move.

Each is watched to the end through rendered frames and vision (or, with
``--observations ideal``, the ideal camera), as ``run`` watches a table; the
figure is how often the final result (``summary``) is the game's own.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from companion.bench.restart import laid_game
from companion.bench.table import Job, _use_every_core, add_watch_arguments
from companion.engine import Game, Phase, summary
from companion.errors import ConfigError
from companion.sim.scene import SceneOptions, parse_resolution
from companion.sim.script import GameScript
from companion.sim.styles import STYLES
from companion.tracker.anchor import JoinCounts
from companion.tracker.tracker import Tracker
from companion.vision.layout import load_layout

WAYS = ("dealt", "join")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=2, help="games (default 2); each is watched both ways")
    parser.add_argument("--join-after", type=int, default=30, help="moves made before the join (default 30)")
    parser.add_argument("--style", choices=STYLES, default="tidy", help="how the simulated players lay cards")
    add_watch_arguments(parser, "watches run at once")


@dataclass(frozen=True)
class Start(Job):
    """One watch (a :class:`Job`): ``way`` is ``dealt`` or ``join``."""

    way: str = "dealt"
    join_after: int = 30


@dataclass(frozen=True)
class Result:
    seed: int
    way: str
    right: bool
    first_frame: int
    events: int
    seconds: float
    final: dict[str, Any] | None


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.join_after < 1:
        raise ConfigError(f"bench start: --join-after must be at least 1, got {args.join_after}")
    resolution = parse_resolution(args.resolution)
    jobs = [Start(args.style, args.seed + i, args.fps, resolution, args.settle, args.observations == "ideal",
                  way=way, join_after=args.join_after) for i in range(args.games) for way in WAYS]
    mapped = map(_watch, jobs) if args.jobs <= 1 else ProcessPoolExecutor(
        max_workers=args.jobs, initializer=_use_every_core).map(_watch, jobs)
    results = []
    for result in mapped:
        print(f"bench start: game {result.seed} {result.way} from frame {result.first_frame}: final "
              f"{'right' if result.right else 'WRONG'} ({result.events} events, {result.seconds:.0f} s)",
              file=sys.stderr)
        results.append(result)
    return {
        "games": args.games,
        **{way: {"right": sum(r.right for r in results if r.way == way),
                 "of": sum(r.way == way for r in results)} for way in WAYS},
        "wrong": [{"game": r.seed, "way": r.way, "final": r.final} for r in results if not r.right],
        "seconds_per_watch": round(sum(r.seconds for r in results) / len(results), 1) if results else None,
        "join_after": args.join_after, "style": args.style, "observations": args.observations,
        "resolution": args.resolution, "fps": args.fps, "settle_s": args.settle,
    }


def _watch(job: Start) -> Result:
    started = time.perf_counter()
    layout = load_layout()
    game, script = laid_game(job.style, job.seed, layout)
    if job.way == "dealt":
        first, counts = _shot_start(script, job.fps, next(i for i, s in enumerate(script.shots) if s.cards)), None
    else:
        first, counts = _join_point(game, script, job)
    tracker, feed, frames = _pipeline(job, layout, script, first)
    if counts is not None:
        tracker.request_join(counts)
    for index, frame in enumerate(frames):
        if index >= first:
            feed(index, index / job.fps, frame)
    final = summary(tracker.game) if tracker.game is not None else None
    return Result(job.seed, job.way, final == summary(game), first, len(tracker.events),
                  time.perf_counter() - started, final)


def join_position(game: Game, moves: int) -> tuple[Game, int]:
    """The game after ``moves`` events, carried on to a moment the players may play (no claim, no refill)."""
    position = Game.from_snapshot(game.base)
    done = 0
    for event, _ in game.stack:
        position.push(event)
        done += 1
        if done >= moves and position.phase is Phase.PLAY:
            break
    return position, done


def _join_point(game: Game, script: GameScript, job: Start) -> tuple[int, JoinCounts]:
    position, done = join_position(game, job.join_after)
    note = str(game.stack[done - 1][0])
    shots = [i for i, shot in enumerate(script.shots) if shot.note == note]
    if not shots:
        raise ConfigError(f"bench start: the {job.style} players' script names no shot {note!r} to join after")
    counts = JoinCounts(turn=position.turn, hands=(position.hand_size(0), position.hand_size(1)),
                        cups=(position.cup_size(0), position.cup_size(1)), deck=position.deck_size)
    return _shot_start(script, job.fps, shots[-1]), counts


def _shot_start(script: GameScript, fps: float, index: int) -> int:
    return round(sum(shot.seconds for shot in script.shots[:index]) * fps)


def _pipeline(job: Start, layout: Any, script: GameScript, first: int) -> tuple[Tracker, Callable[..., Any], Any]:
    """The tracker, what feeds it a frame, and the frames: the ideal camera's observations, or rendered images."""
    if job.ideal:
        from companion.app.table import make_tracker
        from companion.sim.script import script_observations

        tracker = make_tracker(settle_s=job.settle)
        assert isinstance(tracker, Tracker)
        return tracker, tracker.observe, script_observations(script, layout, job.fps, seed=job.seed)
    from companion.app.table import TablePipeline
    from companion.sim.frames import render_frames

    pipeline = TablePipeline(layout, settle_s=job.settle)
    assert isinstance(pipeline.tracker, Tracker)
    return pipeline.tracker, pipeline.feed, render_frames(
        script, layout, job.fps, SceneOptions(resolution=job.resolution, noise_sigma=2.0), start=first)
