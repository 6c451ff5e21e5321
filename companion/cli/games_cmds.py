"""``companion games list|show|export``: the journal of past and running games.

The journal is opened read-only, beside a running companion or in a folder
nobody may write (a card read on another machine). What its checks find
(an entry missing, a ledger that holds one more write) is said on stderr as
"companion: note: ...", and the notes the journal kept on a game (entries
restored or lost after a crash) are shown with it; the JSON documents on
stdout stay as interfaces.md defines them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli import write_output

if TYPE_CHECKING:
    from companion.app.journal import GameInfo, Journal


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("games", help="list, show and export the games in the journal")
    commands = parser.add_subparsers(dest="games_command", metavar="COMMAND", required=True)

    listing = commands.add_parser("list", help="every game in the journal, oldest first")
    _common(listing)
    listing.set_defaults(func=run_list)

    show = commands.add_parser("show", help="one game: its record and where it stands (default: the latest)")
    _common(show)
    show.add_argument("game", nargs="?", type=int, help="game id from `games list` (default: the latest)")
    show.set_defaults(func=run_show)

    export = commands.add_parser("export", help="write a game as a mandala-record/1 file")
    _common(export, json_flag=False)
    export.add_argument("game", nargs="?", type=int, help="game id from `games list` (default: the latest)")
    export.add_argument("--out", type=Path, help="file to write (default: standard output)")
    export.set_defaults(func=run_export)


def _common(parser: argparse.ArgumentParser, json_flag: bool = True) -> None:
    parser.add_argument("--state-dir", type=Path,
                        help="folder of the journal (default: state_dir of the configuration)")
    parser.add_argument("--config", type=Path, help="configuration file (default /etc/mandala-companion/config.toml)")
    if json_flag:
        parser.add_argument("--json", action="store_true", help="print one JSON document")


def _open(args: argparse.Namespace) -> Journal:
    from companion.app.config import load_config
    from companion.app.journal import Journal
    from companion.cli.paths import state_folder

    if args.state_dir is not None:
        state_folder(args.state_dir, "--state-dir")
    state_dir = args.state_dir if args.state_dir is not None else load_config(args.config).state_dir
    journal = Journal.read(state_dir)
    for finding in journal.findings:
        print(f"companion: note: {finding}", file=sys.stderr)
    return journal


def run_list(args: argparse.Namespace) -> int:
    from companion.app.games import list_document
    from companion.errors import JournalError

    try:
        journal = _open(args)
    except JournalError as error:
        if "no journal here" not in str(error):
            raise
        games: list[GameInfo] = []
        notes: Counter[int | None] = Counter()
        document: dict[str, Any] = {"games": []}
    else:
        with journal:
            games = journal.games()
            notes = Counter(repair.game_id for repair in journal.repairs())
            document = list_document(journal)
    if args.json:
        print(json.dumps(document))
        return 0
    if not games:
        print("no games yet", file=sys.stderr)
    for game in games:
        noted = f"  ({notes[game.id]} note(s): games show {game.id})" if notes[game.id] else ""
        print(describe(game) + noted)
    return 0


def describe(game: GameInfo) -> str:
    if game.running:
        state = "running"
    elif game.result and game.result.get("winner"):
        scores = game.result.get("scores", {})
        state = f"winner {game.result['winner']} ({scores.get('p1')}-{scores.get('p2')})"
    else:
        state = "stopped"
    return f"{game.id:>4}  {game.started[:19].replace('T', ' ')}  {game.entries:>4} entries  {state}"


def run_show(args: argparse.Namespace) -> int:
    from companion.app.games import chosen, show_document
    from companion.cli.engine_cmds import describe_final

    with _open(args) as journal:
        game = chosen(journal, args.game)
        record = game.record()
        if args.json:
            print(json.dumps(show_document(game)))
            return 0
        print(describe(game.info))
        for number, line in enumerate(record[1:], start=2):
            print(f"  {number:>4}  {line}")
        for entry in game.entries:
            if entry.kind == "warning":
                print(f"  warning at frame {entry.frame}: {entry.line}")
        for repair in journal.repairs(game.info.id):
            print(f"  note {repair.at[:19].replace('T', ' ')}: {repair.message}")
        print(describe_final(game.rebuild()))
    return 0


def run_export(args: argparse.Namespace) -> int:
    from companion.app.games import chosen, record_text
    from companion.cli.paths import output_file

    if args.out is not None:
        output_file(args.out, "--out")
    with _open(args) as journal:
        game = chosen(journal, args.game)
        text = record_text(game)
    write_output(text, args.out, f"game {game.info.id}, {len(game.record()) - 1} events")
    return 0
