"""``companion layout check FILE``: validate a playmat layout file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.vision.layout import DEFAULT_LAYOUT_PATH, check_layout, load_layout

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
        f"ok: {args.file}: {layout.name!r}, {width:g}x{height:g} mm, {len(layout.zones)} zones, "
        f"{len(layout.fiducials)} fiducials, card {layout.card_mm[0]:g}x{layout.card_mm[1]:g} mm, "
        f"sticker {layout.sticker_mm:g} mm"
    )
    return EXIT_OK
