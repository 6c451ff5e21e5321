"""``--join`` and its values, shared by ``companion replay`` and ``companion run`` (interfaces.md section 8)."""

from __future__ import annotations

import argparse

from companion.engine.rules import MANDALA
from companion.errors import ConfigError
from companion.tracker.anchor import JoinCounts

CARDS = len(MANDALA.cards)
PAIR_LIMITS = {"hands": (1, MANDALA.hand_limit), "cups": (0, CARDS)}


def add_join_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--join", action="store_true",
                        help="join a game in progress: the first settled view of the table is the position")
    parser.add_argument("--turn", choices=("p1", "p2"), default=None, help="with --join: the player to move")
    parser.add_argument("--hands", default=None, metavar="N,N", help="with --join: cards in p1's and p2's hands")
    parser.add_argument("--cups", default=None, metavar="N,N", help="with --join: cards in p1's and p2's cups")
    parser.add_argument("--deck", type=int, default=None, metavar="N", help="with --join: cards left in the deck")


def join_counts(args: argparse.Namespace) -> JoinCounts | None:
    """The join the command line asks for, None without ``--join``; bad values are a one-line ConfigError."""
    given = [name for name in ("turn", "hands", "cups", "deck") if getattr(args, name) is not None]
    if not args.join:
        if given:
            raise ConfigError(f"--{given[0]} needs --join")
        return None
    if args.deck is not None and not 0 <= args.deck <= CARDS:
        raise ConfigError(f"--deck {args.deck}: must be a count from 0 to {CARDS}")
    return JoinCounts(turn=None if args.turn is None else (0 if args.turn == "p1" else 1),
                      hands=_pair(args.hands, "hands"), cups=_pair(args.cups, "cups"), deck=args.deck)


def _pair(text: str | None, name: str) -> tuple[int, int] | None:
    if text is None:
        return None
    low, high = PAIR_LIMITS[name]
    try:
        first, second = (int(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"--{name} {text!r}: expected two counts, p1's and p2's, like 6,7") from None
    for value in (first, second):
        if not low <= value <= high:
            raise ConfigError(f"--{name} {text!r}: each count must be from {low} to {high}")
    return first, second
