"""``companion web drop-in``: the service's network grant for the phone view, from the configuration.

hardware/install.sh writes its output to the unit's drop-in folder (or
removes the drop-in when it prints nothing: the view is off, the service
keeps no network). See docs/web.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("web", help="the phone view: what the service needs for it")
    commands = parser.add_subparsers(dest="web_command", metavar="COMMAND", required=True)
    drop_in = commands.add_parser(
        "drop-in", help="print the systemd drop-in that lets the service reach the local network when [web] "
                        "listen is set (nothing when the view is off)")
    drop_in.add_argument("--config", type=Path,
                         help="configuration file (default /etc/mandala-companion/config.toml when present)")
    drop_in.set_defaults(func=run_drop_in)


def run_drop_in(args: argparse.Namespace) -> int:
    from companion.app.config import load_config
    from companion.web.settings import systemd_drop_in

    sys.stdout.write(systemd_drop_in(load_config(args.config).web))
    return 0
