"""``companion doctor``: check camera, display, buttons, decoders, permissions and disk."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check the installation: camera, display, buttons, decoders, groups, disk")
    parser.add_argument("--config", type=Path, help="configuration file (default /etc/mandala-companion/config.toml)")
    parser.add_argument("--no-input", action="store_true", help="never ask to press buttons, even at a terminal")
    parser.set_defaults(func=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    from companion.app.config import load_config
    from companion.app.doctor import report, run_checks
    from companion.cli.paths import input_file

    if args.config is not None:
        # A file named on the command line is the input: unreadable, it is one line and status 2. The
        # installed configuration's problems are findings among the others.
        load_config(input_file(args.config, "--config"))
    # Offer the interactive button test only to a person at a terminal, never to the service or CI.
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.no_input
    text, status = report(run_checks(args.config, ask=input if interactive else None))
    print(text)
    return status
