"""The ``companion`` command line.

Each concern adds its sub-commands from its own module listed in
:data:`COMMAND_MODULES`; a module exposes ``register(subparsers)`` and sets
``func`` on the parsers it adds. ``func(args)`` returns the exit status.
Errors derived from :class:`~companion.errors.CompanionError` end the command
with a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.errors import CompanionError

COMMAND_MODULES: tuple[str, ...] = (
    "companion.cli.engine_cmds",
    "companion.cli.bench",
    "companion.cli.demo",
    "companion.cli.layout_cmds",
    "companion.cli.markers_cmds",
    "companion.cli.vision_cmds",
    "companion.cli.ui_cmds",
    "companion.cli.games_cmds",
    "companion.cli.replay_cmds",
    "companion.cli.doctor_cmds",
    "companion.cli.run_cmds",
    "companion.cli.calibrate_cmds",
)

EXIT_USAGE = 2


def write_output(text: str, path: Path | None, note: str) -> None:
    """Write a command's output to ``path``, or to standard output when there is none.

    ``note`` says on standard error what was written where (never mixed into the output).
    """
    if path is None:
        sys.stdout.write(text)
    else:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}: {note}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Mandala Table Companion: watches a game of Mandala, enforces the rules, scores it.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except CompanionError as error:
        print(f"companion: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return status
