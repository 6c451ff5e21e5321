"""``companion engine replay|play``: the rules engine on game records."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from companion.cli import write_output
from companion.engine import BaseGame, find_ruleset, play_random_game, read_record, record_lines, replay, summary
from companion.engine.rulesets import DEFAULT, RULESETS
from companion.errors import LimitError, UnreadableRecordError
from companion.limits import MAX_RECORD_BYTES, read_bytes

EXIT_ILLEGAL = 1


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    engine = subparsers.add_parser("engine", help="replay or play game records with the rules engine")
    commands = engine.add_subparsers(dest="engine_command", metavar="COMMAND", required=True)

    replay_parser = commands.add_parser("replay", help="judge every event of a mandala-record/1 file (any ruleset)")
    replay_parser.add_argument("record", type=Path, help="the record (JSON Lines), or - for standard input")
    replay_parser.add_argument("--json", action="store_true", help="print the verdicts as one JSON document")
    replay_parser.add_argument("--ruleset", choices=tuple(RULESETS), default=None,
                               help="the ruleset the record must be of; a header that names none is read as "
                                    f"this one (default: the header's, else {DEFAULT})")
    replay_parser.set_defaults(func=run_replay)

    play = commands.add_parser("play", help="write a random legal full-information game")
    play.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    play.add_argument("--first-player", choices=("p1", "p2"), default="p1")
    play.add_argument("--out", type=Path, help="record file to write (default: standard output)")
    play.add_argument("--ruleset", choices=tuple(RULESETS), default=DEFAULT,
                      help="the game to play (default %(default)s)")
    play.set_defaults(func=run_play)


def read_lines(path: Path) -> list[str]:
    """The lines of a record file; unreadable files are a one-line error."""
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
            if len(data) > MAX_RECORD_BYTES:
                raise LimitError(f"is larger than {MAX_RECORD_BYTES // 2**20} MB, more than a game record holds")
        else:
            data = read_bytes(path, MAX_RECORD_BYTES, pipes=True)
    except OSError as error:
        raise UnreadableRecordError(f"{path}: {error.strerror}") from None
    except LimitError as error:
        raise UnreadableRecordError(f"{path}: {error}") from None
    lines = data.split(b"\n")
    for number, line in enumerate(lines, start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            raise UnreadableRecordError(f"{path}: line {number}: not UTF-8 text") from None
    return [line.decode("utf-8") for line in lines]


def run_replay(args: argparse.Namespace) -> int:
    try:
        record = read_record(read_lines(args.record), ruleset=args.ruleset)
    except UnreadableRecordError as error:
        message = str(error)
        if not message.startswith(str(args.record)):
            message = f"{args.record}: {message}"
        raise UnreadableRecordError(message) from None
    game, verdicts = replay(record)
    illegal = [v for v in verdicts if v.violation is not None]
    if args.json:
        print(json.dumps({"verdicts": [v.to_json() for v in verdicts], "final": summary(game)}))
    else:
        for verdict in illegal:
            print(f"line {verdict.line}: {verdict.violation}")
        print(describe_final(game))
    return EXIT_ILLEGAL if illegal else 0


def describe_final(game: BaseGame[Any, Any]) -> str:
    final = summary(game)
    if "cups" in final:  # the official game
        scores = ", ".join(f"{p} {s} (cup {final['cups'][p]})" for p, s in final["scores"].items())
        over = f"game over ({final['end_reason']})"
    else:
        scores = ", ".join(f"{p} {s} (gold {final['gold'][p]})" for p, s in final["scores"].items())
        over = f"game over in round {final['round']}"
    state = f"{over}, winner {final['winner']}" if game.is_over else f"{final['phase']}, {final['turn']} to act"
    return f"{state}; scores: {scores}"


def run_play(args: argparse.Namespace) -> int:
    game = play_random_game(random.Random(args.seed), first_player=0 if args.first_player == "p1" else 1,
                            ruleset=find_ruleset(args.ruleset))
    write_output("\n".join(record_lines(game)) + "\n", args.out, f"{len(game.stack)} events; {describe_final(game)}")
    return 0
