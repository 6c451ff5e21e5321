"""``companion bench restart``: ``companion run`` killed at random moments and started again seconds later.

For each game (a random legal game laid by the simulated players of
``--style``) the companion first watches it uninterrupted, as ``run`` does: a
:class:`~companion.app.session.Session` feeding frames through the table
pipeline (rendered frames and vision, or with ``--observations ideal`` the
ideal camera) into a journal. Then, at ``--moments`` random frames, the
process is killed: the new state folder holds exactly what the journal held
at that frame, the frames of the next ``--downtime`` seconds are lost, and a
new session (cold vision, resumed from the journal) watches the rest; the
players answer its screen when they are done (a cup asked for is spread
again: :mod:`companion.sim.players`). The
figure is how often the final result (``games show``'s ``final``) is
identical to the uninterrupted run's, and how often it is the game's own.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.journal import Journal
from companion.app.session import Session
from companion.bench.table import Job, _use_every_core, add_watch_arguments
from companion.engine import Game
from companion.sim.scene import parse_resolution
from companion.sim.script import GameScript, Shot
from companion.sim.styles import STYLES, lay_game
from companion.tracker.tracker import Tracker, Update
from companion.vision.layout import Layout, load_layout

REST_AT_END_S = 6.0
"""The players leave the table as it is after the game: the restarted companion sees the end too."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=5, help="games (default 5)")
    parser.add_argument("--moments", type=int, default=10, help="restarts per game, at random frames (default 10)")
    parser.add_argument("--downtime", type=float, default=3.0, help="seconds of frames lost per restart (default 3)")
    parser.add_argument("--style", choices=STYLES, default="tidy", help="how the simulated players lay cards")
    add_watch_arguments(parser, "restarts run at once")


@dataclass(frozen=True)
class Run(Job):
    """One watch of a game (a :class:`Job`): from ``start`` (frame) on, resuming the journal in ``state``."""

    state: str = ""
    """The state folder (required: always given by keyword, after the Job's own fields)."""
    start: int = 0
    killed: int = 0


@dataclass(frozen=True)
class Restart:
    seed: int
    frame: int
    same: bool
    right: bool
    seconds: float
    notices: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> dict[str, Any]:
    resolution = parse_resolution(args.resolution)
    ideal = args.observations == "ideal"
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as folder:
        base = Path(folder)
        references = [Run(args.style, args.seed + i, args.fps, resolution, args.settle, ideal,
                          state=str(base / f"game{i}" / "reference")) for i in range(args.games)]
        # One job keeps the core the benchmark was pinned to (--cpu); more share every core.
        spread = _use_every_core if args.jobs > 1 else None
        with ProcessPoolExecutor(max_workers=max(1, args.jobs), initializer=spread) as pool:
            finals = list(pool.map(_watch, references))
            restarts: list[Run] = []
            for reference, final in zip(references, finals, strict=True):
                print(f"bench restart: game {reference.seed}: uninterrupted final "
                      f"{'right' if final['right'] else 'WRONG'}", file=sys.stderr)
                restarts += _killed_runs(reference, args.moments, args.downtime)
            results = []
            for restart in pool.map(_resume, restarts):
                final = finals[restart.seed - args.seed]
                results.append(Restart(restart.seed, restart.frame, restart.final == final["final"],
                                       restart.final == final["truth"], restart.seconds, restart.notices))
                print(f"bench restart: game {restart.seed} killed at frame {restart.frame}: "
                      f"{'same' if results[-1].same else 'DIFFERENT'} result ({restart.seconds:.0f} s)",
                      file=sys.stderr)
    return {
        "games": args.games, "restarts": len(results),
        "same_as_uninterrupted": sum(r.same for r in results),
        "right": sum(r.right for r in results),
        "uninterrupted_right": sum(f["right"] for f in finals),
        "different": [f"game {r.seed} frame {r.frame}" for r in results if not r.same],
        "notices": sorted({n for r in results for n in r.notices}),
        "seconds_per_restart": round(statistics.mean(r.seconds for r in results), 1) if results else None,
        "downtime_s": args.downtime, "style": args.style, "observations": args.observations,
        "resolution": args.resolution, "fps": args.fps, "settle_s": args.settle,
    }


def _script(job: Run, layout: Layout) -> GameScript:
    return laid_game(job.style, job.seed, layout)[1]


def laid_game(style: str, seed: int, layout: Layout) -> tuple[Game, GameScript]:
    """A random legal game (``seed``) and its script as the ``style`` players lay it, left lying at the end."""
    from dataclasses import replace

    from companion.engine import play_random_game

    game = play_random_game(random.Random(seed), first_player=0)
    script = lay_game(game, layout, style, seed=seed)
    last = script.shots[-1]
    return game, replace(script, shots=(*script.shots, Shot(last.cards, None, REST_AT_END_S, "left as it is")))


def _watch(job: Run) -> dict[str, Any]:
    """The uninterrupted run: its final result, the game's, and the journal it leaves."""
    from companion.engine import summary

    layout = load_layout()
    script = _script(job, layout)
    session = _session(job, layout)
    for _ in _frames(job, layout, script, session):
        pass
    assert session.journal is not None
    game = session.journal.latest()
    final = None if game is None else game.final()
    session.journal.close()
    return {"final": final, "truth": summary(script.game), "right": final == summary(script.game),
            "frames": len(script.frame_shots(job.fps))}


@dataclass(frozen=True)
class _Resumed:
    seed: int
    frame: int
    final: dict[str, Any] | None
    seconds: float
    notices: tuple[str, ...]


def _killed_runs(reference: Run, moments: int, downtime: float) -> list[Run]:
    """A state folder per moment holding what the journal held when the process was killed there."""
    layout = load_layout()
    script = _script(reference, layout)
    frames = len(script.frame_shots(reference.fps))
    starts = [round(sum(s.seconds for s in script.shots[:i]) * reference.fps) for i in range(len(script.shots))]
    dealt = next(start for start, shot in zip(starts, script.shots, strict=True) if shot.cards)
    rng = random.Random(reference.seed * 1009 + 17)
    first, last = dealt + round(2 * reference.fps), frames - round((REST_AT_END_S + downtime) * reference.fps)
    runs = []
    with Journal.read(Path(reference.state)) as journal:
        for frame in sorted(rng.sample(range(first, last), min(moments, max(0, last - first)))):
            state = Path(reference.state).parent / f"killed-{frame}"
            _journal_until(journal, state, frame)
            runs.append(Run(reference.style, reference.seed, reference.fps, reference.resolution, reference.settle,
                            reference.ideal, state=str(state), start=frame + round(downtime * reference.fps),
                            killed=frame))
    return runs


def _journal_until(journal: Journal, state: Path, frame: int) -> None:
    """A copy of the journal as it stood when frame ``frame`` was about to be processed."""
    with Journal.open(state) as copy:
        for info in journal.games():
            game = journal.game(info.id)
            entries = [e for e in game.entries if e.frame is not None and e.frame < frame]
            if not entries and game.entries:
                continue  # started later
            new = copy.start_game_from_header(json.loads(info.header))
            for entry in entries:
                copy.append(new, entry.kind, entry.line, frame=entry.frame)
            later = [e for e in game.entries if e.frame is None or e.frame >= frame]
            if info.finished is not None and not later:
                copy.finish_game(new)


def _resume(job: Run) -> _Resumed:
    start = time.perf_counter()
    layout = load_layout()
    script = _script(job, layout)
    session = _session(job, layout)
    notices: list[str] = []
    for _, update in _frames(job, layout, script, session):
        notices += [n.title for n in update.notices]
    assert session.journal is not None
    game = session.journal.latest()
    final = None if game is None else game.final()
    session.journal.close()
    return _Resumed(job.seed, job.killed, final, time.perf_counter() - start, tuple(notices))


class _ObservationPipeline:
    """The table pipeline without vision, for ``--observations ideal``."""

    def __init__(self, settle_s: float) -> None:
        self.tracker = Tracker(settle_s=settle_s)
        self.board_found = True

    def feed(self, index: int, now: float, observation: Any) -> Update:
        return self.tracker.observe(index, now, observation)


def _session(job: Run, layout: Layout) -> Session:
    from companion.app.table import TablePipeline

    logging.getLogger("companion").setLevel(logging.ERROR)  # the session logs every event: not here
    pipeline: Any = _ObservationPipeline(job.settle) if job.ideal else TablePipeline(layout, settle_s=job.settle)
    session = Session(pipeline, Journal.open(Path(job.state)))
    session.resume()
    return session


def _frames(job: Run, layout: Layout, script: GameScript, session: Session) -> Iterator[tuple[int, Update]]:
    """Each frame from ``job.start`` on, fed to the session as ``run`` does; the players answer the
    screen once their own moves are done (:class:`~companion.sim.players.PlayedTable`)."""
    from companion.sim.players import PlayedTable, table_camera

    table = PlayedTable(script, layout, job.fps, job.settle, seed=job.seed)
    camera = table_camera(layout, job.ideal, job.seed, job.resolution)
    return table.play(camera, lambda index, now, frame: (index, session.feed(index, now, frame)),
                      session.model, job.start, ideal=job.ideal)
