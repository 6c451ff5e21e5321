"""Whole simulated games through the whole table pipeline: rendered frames -> vision -> tracker -> engine.

Each game is a random legal game of the engine, laid on the table by the
players of a style (:mod:`companion.sim.styles`: ``tidy``, every corner code
in view and a rest after each move; ``sloppy``, tight fans turned either way,
one stacked discard pile, quick moves, bumps), with hands over the table,
covered cards, illegal cards taken back and the end-game reveal; rendered
frame by frame and fed to the :class:`~companion.app.table.TablePipeline` as
the live companion runs it (or, with ``--observations ideal``, the ideal
camera's observations straight to the tracker: seconds instead of minutes).
Per game it checks: final scores and winner exactly right, no warning that
was not due, every injected illegal card warned within two settle periods,
every event in the right order; and it measures how long after the table
settled each event was reported. Games run in parallel processes (``--jobs``);
correctness, not speed, is what this benchmark measures.

A new per-game measure is a field of :class:`GameResult` (filled in
:func:`_play_one`) plus, if it should be summed up, a line in
:func:`_style_figures`; every field also shows per game under ``per_game``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from companion.app.table import TableTracker
from companion.engine import Claim, Resync, Reveal, play_random_game, summary, table_record
from companion.engine.mountains.events import DrawCards
from companion.errors import ConfigError
from companion.sim.scene import parse_resolution
from companion.sim.script import GameScript
from companion.sim.styles import STYLES, lay_game
from companion.tracker.display import DisplayModel
from companion.tracker.tracker import TrackedEvent, Update, Warning
from companion.vision.layout import Layout, load_layout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="games per style (default 20)")
    parser.add_argument("--style", choices=(*STYLES, "both"), default="both",
                        help="how the simulated players lay cards (default both: each style's games in turn)")
    add_watch_arguments(parser, "games rendered and tracked at once")


def add_watch_arguments(parser: argparse.ArgumentParser, jobs: str) -> None:
    """How the simulated games are watched: seeds, camera, settle time, jobs, observations (table, restart)."""
    parser.add_argument("--seed", type=int, default=0, help="first game seed; game i uses seed + i")
    parser.add_argument("--fps", type=float, default=14.0, help="frames per second of the simulated camera")
    parser.add_argument("--resolution", default="4608x2592", help="frame size WxH (default 4608x2592)")
    parser.add_argument("--settle", type=float, default=1.0, help="tracker settle time, seconds")
    parser.add_argument("--jobs", type=int, default=2, help=jobs)
    parser.add_argument("--observations", choices=("rendered", "ideal"), default="rendered",
                        help="rendered frames through vision (default), or the ideal camera's observations")
    parser.add_argument("--ruleset", choices=("mandala", "mountains"), default="mandala",
                        help="the game played: mandala, the official one (default), or mountains (rules-002.md; "
                             "laid by tidy players only)")


@dataclass(frozen=True)
class Job:
    style: str
    seed: int
    fps: float
    resolution: tuple[int, int]
    settle: float
    ideal: bool
    ruleset: str = "mandala"


@dataclass(frozen=True)
class GameResult:
    style: str
    seed: int
    events: int
    """Events the tracker reported, the end-game reveal not counted (as ``expected_events``)."""
    frames: int
    seconds: float
    final_right: bool
    winner_right: bool
    order_right: bool
    false_warnings: tuple[str, ...]
    injected: int
    warned_in_time: int
    latencies_s: tuple[float, ...]
    """Per event: time from the table's last change to the event's report."""
    slow: tuple[str, ...] = ()
    """Events reported later than settle + 0.3 s after the table's last change, with what they were."""
    expected_events: int = 0
    """Events of the game, as a camera can know them (the reveal not counted)."""
    end_seen: bool = True
    """The tracker's game ended with the game's (mountains: the deck's end is not always visible)."""
    lost_track_s: float = 0.0
    """The longest time the tracker was behind the table (see :func:`_lost_track`)."""
    lost_track_on: str = ""
    scores_right: bool = True
    """What the players are told at the end is right: scores, winner, cups, rivers, how and when it ended
    (:data:`SCORED`). ``final_right`` also needs the deck, pile and hand counts nobody scores."""
    off_by: tuple[str, ...] = ()
    """The final figures that differ from the game's (empty when ``final_right``)."""


def run(args: argparse.Namespace) -> dict[str, Any]:
    width, height = parse_resolution(args.resolution)
    ruleset = getattr(args, "ruleset", "mandala")
    styles = (("tidy",) if ruleset == "mountains" else STYLES) if args.style == "both" else (args.style,)
    if ruleset == "mountains" and styles != ("tidy",):
        raise ConfigError("bench table --ruleset mountains: only --style tidy lays games of that ruleset")
    jobs = [Job(style, args.seed + i, args.fps, (width, height), args.settle, args.observations == "ideal", ruleset)
            for style in styles for i in range(args.games)]
    results: list[GameResult] = []
    # One job at a time runs here, on the core the benchmark is pinned to; more go to worker processes.
    mapped = map(_play_one, jobs) if args.jobs <= 1 else ProcessPoolExecutor(
        max_workers=args.jobs, initializer=_use_every_core).map(_play_one, jobs)
    for result in mapped:
        final = "ok" if result.final_right else f"WRONG ({', '.join(result.off_by)})"
        print(f"bench table: {result.style} game {result.seed}: final {final}, "
              f"{result.events}/{result.expected_events} events, {len(result.false_warnings)} false warnings, "
              f"{result.warned_in_time}/{result.injected} injected warned, lost track {result.lost_track_s:.1f} s, "
              f"{result.seconds:.0f} s",
              file=sys.stderr)
        results.append(result)
    return {
        "ruleset": ruleset,
        "styles": {style: _style_figures([r for r in results if r.style == style], args.settle)
                   for style in styles},
        "resolution": args.resolution,
        "observations": args.observations,
        "fps": args.fps,
        "settle_s": args.settle,
    }


def _style_figures(results: list[GameResult], settle: float) -> dict[str, Any]:
    """The figures of one style's games, and each game's own."""
    latencies = [lat for r in results for lat in r.latencies_s]
    return {
        "games": len(results),
        "final_right": sum(r.final_right for r in results),
        "end_seen": sum(r.end_seen for r in results),
        "winner_right": sum(r.winner_right for r in results),
        "scores_right": sum(r.scores_right for r in results),
        "events_in_order": sum(r.order_right for r in results),
        "false_warnings": sum(len(r.false_warnings) for r in results),
        "most_false_warnings_in_a_game": max((len(r.false_warnings) for r in results), default=0),
        "injected": sum(r.injected for r in results),
        "injected_warned_in_time": sum(r.warned_in_time for r in results),
        "events": sum(r.events for r in results),
        "expected_events": sum(r.expected_events for r in results),
        "events_timed": len(latencies),
        "frames": sum(r.frames for r in results),
        "latency_median_s": round(statistics.median(latencies), 3) if latencies else None,
        "latency_max_s": round(max(latencies), 3) if latencies else None,
        "latency_p99_s": round(sorted(latencies)[int(len(latencies) * 0.99)], 3) if latencies else None,
        "events_later_than_settle_plus_0_3_s": sum(len(r.slow) for r in results),
        "lost_track_max_s": max((r.lost_track_s for r in results), default=None),
        "games_lost_track_over_3_settles": sum(r.lost_track_s > 3 * settle for r in results),
        "slow_events": [s for r in results for s in r.slow],
        "seconds_per_game": round(statistics.mean(r.seconds for r in results), 1) if results else None,
        "false_warning_list": [w for r in results for w in r.false_warnings],
        "per_game": [{key: value for key, value in dataclasses.asdict(r).items()
                      if key not in ("latencies_s", "slow", "false_warnings", "style")}
                     | {"false_warnings": len(r.false_warnings)} for r in results],
    }


def _use_every_core() -> None:
    """`companion bench` pins itself to one core; the game workers here share all of them."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


def _play_one(job: Job) -> GameResult:
    if job.ruleset == "mountains":
        return _play_mountains(job)
    import random

    start = time.perf_counter()
    layout = load_layout()
    game = play_random_game(random.Random(job.seed), first_player=0)
    script = lay_game(game, layout, job.style, seed=job.seed)
    tracker, warnings, frames = _watch(script, layout, job)
    final = summary(tracker.game) if tracker.game is not None else None
    truth = summary(game)
    injected_ok, false = _judge_warnings(script, warnings, job.fps, job.settle)
    latencies = _latencies(script, tracker.events, job.fps)
    return GameResult(
        job.style, job.seed, sum(not isinstance(t.event, Reveal) for t in tracker.events), frames,
        time.perf_counter() - start,
        final == truth, final is not None and final["winner"] == truth["winner"],
        _in_order(tracker.events, game), tuple(false), len(script.injections), injected_ok,
        tuple(lat for lat, _ in latencies),
        tuple(f"{job.style} game {job.seed} frame {t.frame}: {lat:.2f} s after "
              f"{script.shots[_shot(script, job.fps, t)].note}: {t.event}"
              for lat, t in latencies if lat > job.settle + 0.3),
        len(expected_decisions(game)), True,
        *_lost_track(script, tracker.events, job.fps),
        final is not None and all(final[key] == truth[key] for key in SCORED),
        tuple(key for key in truth if final is None or final[key] != truth[key]),
    )


SCORED = ("phase", "end_reason", "winner", "scores", "cups", "rivers")
"""The final figures the players are told or score by; the rest (deck, pile, hands, turn) are counts."""


def _play_mountains(job: Job) -> GameResult:
    """A whole mountains game: final right is every figure a camera can know (:data:`CAMERA_KNOWN`)."""
    import random

    from companion.engine import MountainsGame
    from companion.sim.mountains import script_mountains_game
    from companion.tracker.mountains import CAMERA_KNOWN
    from companion.vision.layout import default_layout_path

    start = time.perf_counter()
    layout = load_layout(default_layout_path("mountains"))
    game = play_random_game(random.Random(job.seed), first_player=0, ruleset=MountainsGame)
    script = script_mountains_game(game, layout, seed=job.seed)
    tracker, warnings, frames = _watch(script, layout, job)
    final = summary(tracker.game) if tracker.game is not None else None
    truth = summary(game)
    injected_ok, false = _judge_warnings(script, warnings, job.fps, job.settle)
    moves = [t for t in tracker.events if not isinstance(t.event, DrawCards)]  # draws are the tracker's guess
    latencies = _latencies(script, moves, job.fps)
    seen = [decision(t.event) for t in moves]
    expected = [decision(e) for e, _ in game.stack if not isinstance(e, DrawCards)]
    right = final is not None and all(final[key] == truth[key] for key in CAMERA_KNOWN)
    leader = None if final is None else _leader(final["scores"])
    return GameResult(
        job.style, job.seed, len(seen), frames, time.perf_counter() - start,
        right, leader == _leader(truth["scores"]), seen == expected, tuple(false), len(script.injections),
        injected_ok, tuple(lat for lat, _ in latencies),
        tuple(f"mountains game {job.seed} frame {t.frame}: {lat:.2f} s after "
              f"{script.shots[_shot(script, job.fps, t)].note}: {t.event}"
              for lat, t in latencies if lat > job.settle + 0.3),
        len(expected), final is not None and final["phase"] == truth["phase"], scores_right=right,
        off_by=tuple(key for key in CAMERA_KNOWN if final is None or final[key] != truth[key]),
    )


def _leader(scores: dict[str, int]) -> str:
    return "draw" if scores["p1"] == scores["p2"] else max(scores, key=lambda p: scores[p])


def _watch(script: GameScript, layout: Layout, job: Job) -> tuple[TableTracker, list[Warning], int]:
    """The whole game through the tracker: the tracker at the end, every warning raised, the frame count."""
    tracker, updates = _feed(script, layout, job)
    warnings: list[Warning] = []
    frames = 0
    for update in updates:
        warnings += update.warnings
        frames += 1
    return tracker, warnings, frames


def _feed(script: GameScript, layout: Layout, job: Job) -> tuple[TableTracker, Iterator[Update]]:
    """The tracker, and what each frame changes: rendered frames through vision, or the ideal camera.

    The players answer the screen once their own moves are done (a cup shown when it asks for one:
    :class:`~companion.sim.players.PlayedTable`): frames beyond the script only when it asks.
    """
    from companion.sim.players import PlayedTable, table_camera

    table = PlayedTable(script, layout, job.fps, job.settle, seed=job.seed)
    camera = table_camera(layout, job.ideal, job.seed, job.resolution)
    if job.ideal:
        from companion.app.table import make_tracker

        tracker = make_tracker(job.ruleset, settle_s=job.settle)
        return tracker, table.play(camera, tracker.observe, partial(_screen, tracker))
    from companion.app.table import TablePipeline

    pipeline = TablePipeline(layout, settle_s=job.settle)
    return pipeline.tracker, table.play(camera, pipeline.feed, partial(_screen, pipeline.tracker))


def _screen(tracker: TableTracker, now: float) -> DisplayModel:
    """What the OLED shows at ``now``: what the simulated players read."""
    from companion.tracker.model import display_model
    from companion.tracker.mountains import MountainsTracker
    from companion.tracker.mountains_display import mountains_display_model

    if isinstance(tracker, MountainsTracker):
        return mountains_display_model(tracker, now)
    return display_model(tracker, now)


def _judge_warnings(script: GameScript, warnings: list[Warning], fps: float, settle: float) -> tuple[int, list[str]]:
    """Injected cards warned in time, and the warnings no injection explains.

    Each injection is judged by the first warning about its card and zone raised once it was laid: the
    same card may be put down illegally in the same place twice in a game, and each time needs its warning.
    """
    injected = {(i.card_id, i.zone) for i in script.injections}
    in_time = 0
    for injection in script.injections:
        raised = [w for w in warnings if injection.card_id in w.cards and w.zone == injection.zone
                  and w.frame / fps >= injection.start_s]
        if raised and raised[0].frame / fps - injection.start_s <= 2 * settle + 0.7:
            in_time += 1
    false = [str(w) for w in warnings if not any((c, w.zone) in injected for c in w.cards)]
    return in_time, false


def decision(event: object) -> tuple[object, ...]:
    """What a player decided in ``event`` (kind, player, where, which cards): a tracked event and the
    game's own compare by it (drawn cards are chance, and the tracker may know them only as counts)."""
    if isinstance(event, Claim):
        return (Claim, event.player, event.color)
    cards = getattr(event, "cards", ()) or (getattr(event, "card", None),)
    where = getattr(event, "mandala", getattr(event, "mountain", None))
    return (type(event), getattr(event, "player", None), where, tuple(sorted(c for c in cards if c is not None)))


def expected_decisions(game: Any) -> list[tuple[object, ...]]:
    """The decisions of ``game`` as played, in the order a tracker at the table should report them."""
    return [decision(e) for _, e in table_record(game).events if not isinstance(e, Reveal)]


def _in_order(tracked: list[TrackedEvent], game: Any) -> bool:
    seen = [decision(t.event) for t in tracked if not isinstance(t.event, Reveal | Resync)]
    return seen == expected_decisions(game)


def _lost_track(script: GameScript, tracked: list[TrackedEvent], fps: float) -> tuple[float, str]:
    """The longest time the tracker was behind the table, and the event it was behind on (docs/benchmarks.md).

    Each event of the game happened when the table could first show it: the
    first shot without a hand over the mat after the last shot of its gesture
    (the last grab of a claim). It was tracked when the tracker's own events,
    matched to the game's in order, first had it: the same decision, or the
    same play with fewer cards (a card under another, never read), or any
    later event once the tracker is past it (a resync). The lag is the time
    between the two; an event never tracked lags until the end of the game.
    """
    starts, elapsed = [], 0.0
    for shot in script.shots:
        starts.append(elapsed)
        elapsed += shot.seconds
    played = [event for event, _ in script.game.stack]
    wanted = [e for _, e in table_record(script.game).events if not isinstance(e, Reveal)]
    mine = [(t.frame / fps, t.event) for t in tracked if not isinstance(t.event, Reveal)]
    worst, what, cursor = 0.0, "", 0
    moments = _happenings(script, starts, [str(full) for full in played])
    for index, (truth, happened) in enumerate(zip(wanted, moments, strict=False)):
        if happened is None:
            continue
        found = next((k for k in range(cursor, len(mine))
                      if mine[k][0] <= happened + MATCH_WINDOW_S and _same_play(mine[k][1], truth)), None)
        if found is None:  # missed: caught up (if ever) by the tracker's next event after this one happened
            later = [k for k in range(cursor, len(mine)) if mine[k][0] >= happened]
            tracked_at = mine[later[0]][0] if later else elapsed
        else:
            tracked_at, cursor = mine[found][0], found + 1
        if tracked_at - happened > worst:
            worst, what = tracked_at - happened, f"event {index + 1}: {truth}"
    return round(worst, 3), what


MATCH_WINDOW_S = 20.0
"""A tracked event is matched to a game event only if reported within this time after it (else it was missed)."""


def _happenings(script: GameScript, starts: list[float], notes: list[str]) -> list[float | None]:
    """When each event (by its record line, in play order) could first be seen done on the table."""
    shots = script.shots
    firsts: list[int | None] = []
    cursor = 0
    for note in notes:
        first = next((i for i in range(cursor, len(shots)) if shots[i].note.startswith(note)), None)
        firsts.append(first)
        cursor = cursor if first is None else first + 1
    moments: list[float | None] = []
    for index, (note, first) in enumerate(zip(notes, firsts, strict=True)):
        if first is None:
            moments.append(None)
            continue
        end = next((f for f in firsts[index + 1:] if f is not None), len(shots))
        last = max(i for i in range(first, max(end, first + 1)) if shots[i].note.startswith(note))
        free = next((i for i in range(last, len(shots)) if shots[i].hand is None), last)
        moments.append(starts[free])
    return moments


def _same_play(mine: Any, truth: Any) -> bool:
    if decision(mine) == decision(truth):
        return True
    if type(mine) is not type(truth) or isinstance(truth, Claim):
        return False
    same = (getattr(mine, "player", None), getattr(mine, "mandala", None)) == (
        getattr(truth, "player", None), getattr(truth, "mandala", None))
    return same and set(getattr(mine, "cards", ())) <= set(getattr(truth, "cards", ()))


def _latencies(script: GameScript, tracked: list[TrackedEvent], fps: float) -> list[tuple[float, TrackedEvent]]:
    """For each event: seconds from the start of the shot it was reported in (the table's last change)."""
    starts: list[float] = []
    elapsed = 0.0
    for shot in script.shots:
        starts.append(elapsed)
        elapsed += shot.seconds
    shots = script.frame_shots(fps)
    return [(round(t.frame / fps - starts[shots[t.frame]], 3), t) for t in tracked
            if 0 <= t.frame < len(shots) and script.shots[shots[t.frame]].hand is None]


def _shot(script: GameScript, fps: float, tracked: TrackedEvent) -> int:
    return script.frame_shots(fps)[tracked.frame]
