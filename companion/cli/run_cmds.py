"""``companion run``: the companion itself, as the service runs it (interfaces.md section 7)."""

from __future__ import annotations

import argparse
import signal
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from companion.app.config import LOG_LEVELS
from companion.cli.join_args import add_join_arguments, join_counts

if TYPE_CHECKING:
    from companion.app.config import Config


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run", help="watch the table: camera, rules, screen and buttons (what the service runs)")
    parser.add_argument("--config", type=Path,
                        help="configuration file (default /etc/mandala-companion/config.toml when present)")
    parser.add_argument("--camera", type=Path, metavar="PATH",
                        help="read a folder of frames (file-name order) or a video instead of the camera")
    parser.add_argument("--start-frame", type=int, default=None, metavar="N",
                        help="with --camera: skip the first N frames, as a camera shows the table as it is now")
    parser.add_argument("--fps", type=float, default=None, metavar="N",
                        help="with --camera: frames per second to pace the input at, 0 = as fast as possible "
                             "(default: camera.fps of the configuration, 10)")
    parser.add_argument("--recorded-fps", type=float, default=None, metavar="N",
                        help="with --camera: the rate the frames were taken at; settle times are measured in it "
                             "(default: --fps, or 10 when --fps is 0)")
    parser.add_argument("--display", default=None,
                        help="ssd1306, sh1106, ssd1309, terminal or none (default: display.display)")
    parser.add_argument("--state-dir", type=Path, help="folder of the game journal (default: state_dir)")
    parser.add_argument("--ruleset", choices=("mandala", "mountains"), default=None,
                        help="the game on the table (default: game.ruleset of the configuration, mandala); "
                             "its playmat is the layout unless layout.path names one")
    parser.add_argument("--calibration", type=Path, metavar="FILE",
                        help="calibration file (companion calibrate --out FILE) whose lens model to map through "
                             "(default: vision.calibration, else STATE_DIR/calibration.json when it has one)")
    parser.add_argument("--web", metavar="HOST:PORT",
                        help="serve the phone view there, e.g. 0.0.0.0:8080 (default: web.listen, off); "
                             "\"off\" turns it off (docs/web.md)")
    parser.add_argument("--web-linger", type=float, default=None, metavar="S",
                        help="with --camera and the phone view: keep it up S seconds after the end of the input "
                             "(default 3)")
    parser.add_argument("--log-level", choices=LOG_LEVELS, default=None, help="default: logging.level")
    add_join_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.app.config import load_config
    from companion.app.logs import setup_logging
    from companion.app.runner import build

    _check(args)  # before the log is set up: bad arguments are one line, not log lines
    join = join_counts(args)
    config = _with_overrides(load_config(args.config), args)
    setup_logging(args.log_level or config.logging.level)
    # systemd stops us with SIGTERM: unwind like an exit, so the screen says "stopped".
    signal.signal(signal.SIGTERM, _exit_on_signal)
    runner = build(config, recorded_fps=args.recorded_fps, calibration=args.calibration, join=join)
    if args.web_linger is not None:
        runner.options = replace(runner.options, web_linger_s=args.web_linger)
    return runner.run()


def _exit_on_signal(number: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def _check(args: argparse.Namespace) -> None:
    from companion.app.config import FPS_RANGE, check_number
    from companion.errors import ConfigError

    if args.camera is None and (args.start_frame is not None or args.recorded_fps is not None):
        raise ConfigError("--start-frame and --recorded-fps need --camera PATH")
    if args.fps is not None:
        check_number("--fps", args.fps, FPS_RANGE, zero=True)
    if args.recorded_fps is not None:
        check_number("--recorded-fps", args.recorded_fps, FPS_RANGE)
    if args.start_frame is not None:
        check_number("--start-frame", args.start_frame, (0, 10**9))
    if args.web is not None and args.web != "off":
        from companion.web.settings import parse_listen

        parse_listen(args.web, "--web")
    if args.web_linger is not None:
        check_number("--web-linger", args.web_linger, (0.0, 86400.0))
    if args.camera is not None:
        # Opened here, before the journal and the panel: a wrong path is one line, not a started service.
        from companion.app.camera import FileSource

        with FileSource(args.camera):
            pass


def _with_overrides(config: Config, args: argparse.Namespace) -> Config:
    """The command line wins over the file."""
    from companion.app.config import with_ruleset

    camera = config.camera
    if args.camera is not None:
        camera = replace(camera, source="path", device=str(args.camera.resolve()),
                         start_frame=args.start_frame or 0)
    if args.fps is not None:
        camera = replace(camera, fps=args.fps)
    display = config.display
    if args.display is not None:
        display = replace(display, display=args.display)
    if getattr(args, "ruleset", None) is not None and args.ruleset != config.game.ruleset:
        config = with_ruleset(config, args.ruleset)
    web = config.web
    if args.web is not None:
        web = replace(web, listen="" if args.web == "off" else args.web)
    return replace(config, camera=camera, display=display, web=web,
                   state_dir=args.state_dir if args.state_dir is not None else config.state_dir)

