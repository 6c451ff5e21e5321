"""The ``companion`` command line.

Each concern adds its sub-commands from its own module listed in
:data:`COMMAND_MODULES`; a module exposes ``register(subparsers)`` and sets
``func`` on the parsers it adds. ``func(args)`` returns the exit status.

Every command ends here, so this is where no traceback gets out: an error
derived from :class:`~companion.errors.CompanionError` ends the command with
a one-line message and its ``exit_status`` (2 for bad input, 74 when the
machine refuses to store, 75 for "try again"); an OSError that slipped
through is told the same way (74 when it is the disk, else 2); anything
else is a crash: its traceback goes to a log file and the command ends with
one line naming that file and status 70, never 1 (which ``engine replay``
uses for "some event is illegal"). Ctrl-C and a reader that closed the pipe
(``companion games list --json | head``) end the same way: one line, status 2.
Paths are checked before the work starts (:mod:`companion.cli.paths`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.errors import EXIT_IOERR, EXIT_SOFTWARE, EXIT_USAGE, CompanionError

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
    "companion.cli.web_cmds",
)


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
    try:
        # Building the parser imports every command module (OpenCV among them): a broken install is a crash too.
        args = build_parser().parse_args(argv)  # bad arguments: argparse's usage and exit 2 (SystemExit)
        status: int = args.func(args)
        sys.stdout.flush()  # a reader that went away is told here, not by the interpreter's last flush
    except CompanionError as error:
        print(f"companion: {error}", file=sys.stderr)
        return error.exit_status
    except KeyboardInterrupt:
        # Ctrl-C: whatever was open (a journal, a camera) was closed on the way out.
        print("companion: interrupted", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # `companion games list --json | head`: the reader went away; nothing more goes to that pipe.
        _silence_stdout()
        print("companion: output closed by the reader before the end", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        return _os_error(error)
    except Exception as error:
        return crashed(error, sys.argv if argv is None else ["companion", *argv])
    return status


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of what is buffered cannot fail."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError):  # a stand-in stream (tests): nothing will flush into a closed pipe
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _os_error(error: OSError) -> int:
    from companion.app.storage import storage_problem

    path = Path(error.filename) if isinstance(error.filename, str) else Path.cwd()
    problem = storage_problem(error, path)
    name = f"{error.filename}: " if error.filename else ""
    print(f"companion: {name}{problem or error.strerror or error}", file=sys.stderr)
    return EXIT_IOERR if problem else EXIT_USAGE


def crashed(error: BaseException, argv: Sequence[str]) -> int:
    """A bug: the traceback into a crash log, one line on stderr, exit 70."""
    import platform
    import traceback

    from companion.app.logs import write_crash_log

    text = (f"command: {' '.join(argv)}\npython: {platform.python_version()} on {platform.machine()}\n\n"
            + "".join(traceback.format_exception(error)))
    path = write_crash_log(text)
    where = f"the details are in {path}" if path else "no folder would take the details"
    message = str(error).splitlines()[0] if str(error) else ""
    print(f"companion: internal error: {type(error).__name__}{': ' if message else ''}{message[:200]} "
          f"({where}; please report it)", file=sys.stderr)
    return EXIT_SOFTWARE
