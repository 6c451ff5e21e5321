"""``companion replay INPUT``: the whole table pipeline over recorded frames; ``companion sim game``: make some."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from companion.cli.join_args import add_join_arguments, join_counts
from companion.cli.progress import add_quiet
from companion.sim.styles import STYLES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = subparsers.add_parser("replay", help="run vision, tracker and engine over a folder of frames or a video")
    replay.add_argument("input", type=Path, help="a folder of frames (file-name order) or a video file")
    replay.add_argument("--json", action="store_true", help="print events, warnings and the final state as JSON")
    replay.add_argument("--fps", type=float, default=10.0, help="frames per second of the input (default 10)")
    replay.add_argument("--first-player", choices=("p1", "p2"), default="p1")
    replay.add_argument("--layout", type=Path, default=None,
                        help="playmat layout (default: the ruleset's bundled one)")
    replay.add_argument("--ruleset", choices=("mandala", "mountains"), default=None,
                        help="the game on the table: mandala (the official one) or mountains (rules-002.md); "
                             "default: the layout's, else mandala")
    replay.add_argument("--settle", type=float, default=1.0, help="settle time in seconds (default 1.0)")
    replay.add_argument("--decoder", default=None, help="QR decoder: zxing (default) or pyzbar")
    add_join_arguments(replay)
    replay.add_argument("--calibration", type=Path, default=None, metavar="FILE",
                        help="calibration file of the camera that took the frames (companion calibrate --out "
                             "FILE): points are mapped through its lens model (default: none, a pinhole)")
    add_quiet(replay)
    replay.set_defaults(func=run_replay)

    sim = subparsers.add_parser("sim", help="simulated tables")
    commands = sim.add_subparsers(dest="sim_command", metavar="COMMAND", required=True)
    game = commands.add_parser("game", help="render a whole simulated game as frames, with its ground truth")
    game.add_argument("--seed", type=int, default=0)
    game.add_argument("--out", type=Path, required=True, help="folder for frames/ and the truth files")
    game.add_argument("--fps", type=float, default=10.0)
    game.add_argument("--resolution", default="4608x2592", help="WxH (default 4608x2592)")
    game.add_argument("--first-player", choices=("p1", "p2"), default="p1")
    game.add_argument("--ruleset", choices=("mandala", "mountains"), default="mandala",
                      help="the game: mandala, the official one (default), or mountains (tidy players only)")
    game.add_argument("--style", choices=STYLES, default="tidy",
                      help="how the players lay cards: tidy (every corner code in view, a rest after each move) "
                           "or sloppy (tight fans either way up, one stacked discard pile, quick moves, bumps)")
    game.set_defaults(func=run_sim_game)


def run_replay(args: argparse.Namespace) -> int:
    from companion.app.camera import FileSource
    from companion.app.config import FPS_RANGE, SETTLE_RANGE, check_number
    from companion.app.table import TableLog, TablePipeline
    from companion.engine import summary
    from companion.errors import ConfigError
    from companion.tracker.tracker import Tracker
    from companion.vision.layout import default_layout_path, load_layout

    check_number("--fps", args.fps, FPS_RANGE)
    check_number("--settle", args.settle, SETTLE_RANGE)
    join = join_counts(args)
    from companion.vision.lens import load_lens

    lens = None if args.calibration is None else load_lens(args.calibration)
    ruleset = getattr(args, "ruleset", None)
    layout = load_layout(args.layout if args.layout is not None else default_layout_path(ruleset or "mandala"))
    pipeline = TablePipeline(layout, decoder=args.decoder, settle_s=args.settle,
                             first_player=0 if args.first_player == "p1" else 1, lens=lens, ruleset=ruleset)
    if join is not None:
        if not isinstance(pipeline.tracker, Tracker):
            raise ConfigError(f"--join: not for a table of the {pipeline.ruleset} ruleset (the official game only)")
        pipeline.tracker.request_join(join)  # no display to ask: values not given are estimated
    from companion.cli.progress import bar

    log = TableLog()
    source = FileSource(args.input)
    with source, bar(args, source.count(), "replay") as progress:
        while (frame := source.read()) is not None:
            log.add(pipeline.feed(frame.index, frame.index / args.fps, frame.image))
            log.frames += 1
            progress.update(1)
        if source.skipped:
            print(f"{args.input}: {source.skipped} unreadable frame(s) skipped", file=sys.stderr)
        recorded = source.recorded_fps() or _script_fps(args.input)
    game = pipeline.tracker.game
    result: dict[str, Any] = {
        "events": [{"frame": frame, "event": event} for frame, event in log.events],
        "warnings": [{"frame": w.frame, "reason": w.reason, "message": w.message} for w in log.warnings],
        "final": None if game is None else summary(game),
    }
    hint = frame_rate_hint(args.fps, log.frames, len(log.events), game is None, args.settle, recorded)
    if hint is not None:
        print(f"replay: {hint}", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
    else:
        for index, event in log.events:
            print(f"frame {index}: {json.dumps(event)}")
        for warning in log.warnings:
            print(f"frame {warning.frame}: warning {warning.reason}: {warning.message}")
        print(f"{log.frames} frames; final: {json.dumps(result['final'])}")
    return 0


RATE_MISMATCH = 0.1
"""A recorded frame rate this far (relatively) from --fps is named."""
FASTEST_EVENTS_PER_S = 2.0
"""Two players make at most a move or two a second, and never for long (a draw and a play are two events)."""
SLOWEST_EVENT_GAP_S = 300.0
"""Five minutes on average between events is no game anyone plays."""


def frame_rate_hint(fps: float, frames: int, events: int, no_game: bool, settle_s: float,
                    recorded_fps: float | None) -> str | None:
    """One line saying why ``--fps`` looks wrong for these frames, or None when nothing does.

    Time in a replay is the frame's index over ``--fps``: a rate too high
    makes every stillness too short to settle (nothing happens, or the game
    races), a rate too low makes a hand passing over count as a move and the
    game last for hours.
    """
    if recorded_fps is not None and abs(recorded_fps - fps) > RATE_MISMATCH * recorded_fps:
        return (f"the input was recorded at {recorded_fps:g} frames a second but --fps is {fps:g}: every time "
                f"is off {max(fps, recorded_fps) / min(fps, recorded_fps):.1f} times; replay with --fps "
                f"{recorded_fps:g}")
    seconds = frames / fps
    if no_game and frames >= 20 and seconds >= 10 * settle_s:
        return (f"{frames} frames read ({seconds:.0f} s at --fps {fps:g}) and no game seen: if the frames were "
                f"taken at another rate, say it with --fps (a rate too high and nothing stays still "
                f"{settle_s:g} s)")
    if events >= 10 and events / seconds > FASTEST_EVENTS_PER_S:
        return (f"{events} events in {seconds:.0f} s at --fps {fps:g}, faster than people play: were the "
                f"frames taken at a lower rate than --fps?")
    if events >= 5 and seconds / events > SLOWEST_EVENT_GAP_S:
        return (f"{events} events in {seconds / 60:.0f} min at --fps {fps:g}, slower than people play: were "
                f"the frames taken at a higher rate than --fps?")
    return None


def _script_fps(frames: Path) -> float | None:
    """The rate ``companion sim game`` wrote beside its frames (script.json), if this is such a folder."""
    script = frames.parent / "script.json"
    if not frames.is_dir() or not script.is_file():
        return None
    try:
        fps = json.loads(script.read_text(encoding="utf-8")).get("fps")
    except (OSError, ValueError, AttributeError):
        return None
    return float(fps) if isinstance(fps, (int, float)) and fps > 0 else None


def run_sim_game(args: argparse.Namespace) -> int:
    from companion.app.config import FPS_RANGE, check_number
    from companion.engine import play_random_game
    from companion.sim.frames import write_game
    from companion.sim.scene import SceneOptions, parse_resolution
    from companion.sim.styles import lay_game
    from companion.vision.layout import default_layout_path, load_layout

    check_number("--fps", args.fps, FPS_RANGE)
    width, height = parse_resolution(args.resolution)
    ruleset = getattr(args, "ruleset", "mandala")
    layout = load_layout(default_layout_path(ruleset))
    first = 0 if args.first_player == "p1" else 1
    if ruleset == "mountains":
        from companion.engine import MountainsGame
        from companion.errors import ConfigError
        from companion.sim.mountains import script_mountains_game

        if args.style != "tidy":
            raise ConfigError("sim game --ruleset mountains: only --style tidy lays games of that ruleset")
        mountains = play_random_game(random.Random(args.seed), first_player=first, ruleset=MountainsGame)
        game: Any = mountains
        script = script_mountains_game(mountains, layout, seed=args.seed)
    else:
        game = play_random_game(random.Random(args.seed), first_player=first)
        script = lay_game(game, layout, args.style, seed=args.seed)
    count = write_game(args.out, script, layout, args.fps, SceneOptions(resolution=(width, height), noise_sigma=2.0))
    print(f"wrote {count} frames of a {len(game.stack)}-event {args.style} game to {args.out}", file=sys.stderr)
    return 0
