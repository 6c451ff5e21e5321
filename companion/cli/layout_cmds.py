"""``companion layout check FILE``: validate a playmat layout file; ``companion layout teach``: make one.

``layout teach`` (interfaces.md section 9) learns the players' own playmat
from a folder of frames, a video or the live camera (:mod:`companion.app.teach`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.progress import add_quiet
from companion.vision.layout import DEFAULT_LAYOUT_PATH, ZONE_NAMES, check_layout, load_layout

if TYPE_CHECKING:
    from companion.app.camera import Camera
    from companion.app.teach import Teaching

EXIT_OK = 0
EXIT_PROBLEMS = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    layout = subparsers.add_parser("layout", help="playmat layout files")
    commands = layout.add_subparsers(dest="layout_command", metavar="SUBCOMMAND", required=True)
    check = commands.add_parser(
        "check",
        help="validate a layout: all zones, no overlaps, fiducials on the mat and off zones",
    )
    check.add_argument(
        "file",
        nargs="?",
        type=Path,
        default=DEFAULT_LAYOUT_PATH,
        help="layout JSON (default: the shipped mandala-playmat.json)",
    )
    check.set_defaults(func=run_check)

    teach = commands.add_parser(
        "teach", help="learn your own playmat: fiducials stuck near its corners, then one card laid per zone")
    teach.add_argument("input", type=Path, nargs="?", default=None,
                       help="a folder of frames (file-name order) or a video; none with --camera")
    teach.add_argument("--camera", action="store_true",
                       help="watch the configured camera live and say what to lay next (Ctrl-C to give up)")
    teach.add_argument("--config", type=Path, default=None,
                       help="configuration naming the camera (default /etc/mandala-companion/config.toml)")
    teach.add_argument("--out", type=Path, required=True, help="layout JSON to write")
    teach.add_argument("--from", dest="source", type=Path, default=None,
                       help="layout whose fiducials, card and sticker sizes the mat carries (default: shipped)")
    teach.add_argument("--fps", type=float, default=10.0, help="frames per second of the input (default 10)")
    add_quiet(teach)
    teach.set_defaults(func=run_teach)


def run_check(args: argparse.Namespace) -> int:
    """Print "ok" and a summary (exit 0), or every problem on its own line (exit 2)."""
    # Structural errors (bad JSON, missing keys) raise LayoutError, which the
    # CLI turns into one line and exit status 2.
    layout = load_layout(args.file, check=False)
    problems = check_layout(layout)
    if problems:
        for problem in problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        print(f"{args.file}: {len(problems)} problem(s)", file=sys.stderr)
        return EXIT_PROBLEMS
    width, height = layout.size_mm
    print(
        f"ok: {args.file}: {layout.name!r} ({layout.ruleset}), {width:g}x{height:g} mm, {len(layout.zones)} zones, "
        f"{len(layout.fiducials)} fiducials, card {layout.card_mm[0]:g}x{layout.card_mm[1]:g} mm, "
        f"sticker {layout.sticker_mm:g} mm"
    )
    return EXIT_OK


def run_teach(args: argparse.Namespace) -> int:
    """Write the taught layout (exit 0), or one line saying what the frames did not show (exit 2)."""
    import json

    from companion.app.config import FPS_RANGE, check_number
    from companion.app.teach import Teaching
    from companion.cli.paths import PathArgumentError, input_path, output_file
    from companion.vision.layout import layout_to_dict

    check_number("--fps", args.fps, FPS_RANGE)
    output_file(args.out, "--out", (".json",))
    if (args.input is None) == (not args.camera):
        raise PathArgumentError("layout teach: give a folder of frames or a video, or --camera (not both)")
    if args.input is not None:
        input_path(args.input, "input")
    teaching = Teaching(load_layout(args.source), args.fps, name=args.out.stem)
    camera = _teaching_camera(args)
    with camera:
        _watch(args, teaching, camera)
    layout = teaching.layout()
    args.out.write_text(json.dumps(layout_to_dict(layout), indent=1) + "\n", encoding="utf-8")
    fit = teaching.fit
    assert fit is not None
    width, height = layout.size_mm
    print(f"wrote {args.out}: {len(layout.zones)} zones, {len(layout.fiducials)} fiducials on a "
          f"{width:.0f}x{height:.0f} mm mat (fiducials fitted to {fit.residual_mm:.1f} mm); try it: "
          f"companion vision detect FRAME --layout {args.out}", file=sys.stderr)
    return EXIT_OK


def _teaching_camera(args: argparse.Namespace) -> Camera:
    from companion.app.camera import FileSource, make_camera
    from companion.app.config import load_config

    if args.input is not None:
        return FileSource(args.input)
    return make_camera(load_config(args.config).camera)


def _watch(args: argparse.Namespace, teaching: Teaching, camera: Camera) -> None:
    """Feed frames until every zone has its card (live) or the input ends, saying what to do next."""
    from companion.cli.progress import bar

    live = args.camera
    total = camera.count() if hasattr(camera, "count") else None
    said = ""
    with bar(args, total, "teaching") as progress:
        while (frame := camera.read()) is not None:
            teaching.feed(frame.index, frame.image)
            progress.update(1)
            progress.set_postfix_str(f"{teaching.taught}/{len(ZONE_NAMES)} zones")
            if live and teaching.prompt != said:
                said = teaching.prompt
                print(f"companion: {said}", file=sys.stderr)
            if live and teaching.done:
                break
