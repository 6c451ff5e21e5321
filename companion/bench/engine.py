"""Complete random legal games from random deals of a ruleset, as fast as the engine plays them.

Rates are per second of this process's CPU time (the benchmark is pinned to
one core), so other work on a shared machine skews them less than wall time
would. Random play pushes the generator's own events unchecked (they are
legal by construction, and the tests check that they pass validation);
``--validate`` sends every event through :meth:`BaseGame.push`'s
validation, as a replay or the table tracker does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from companion.engine import find_ruleset, play_random_game
from companion.engine.rulesets import DEFAULT, RULESETS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="games per round (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", choices=tuple(RULESETS), default=DEFAULT,
                        help="the game to play (default %(default)s)")
    parser.add_argument("--validate", action="store_true",
                        help="validate every event against the rules, as a replay does")


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    ruleset = find_ruleset(args.ruleset)
    game_rates, event_rates, lengths = [], [], []
    for _ in range(args.rounds):
        events = 0
        start = time.process_time()
        for _ in range(args.games):
            game = play_random_game(rng, first_player=rng.randrange(2), ruleset=ruleset, validate=args.validate)
            events += len(game.stack)
        elapsed = time.process_time() - start
        game_rates.append(args.games / elapsed)
        event_rates.append(events / elapsed)
        lengths.append(events / args.games)
    return {
        "games_per_s": round(statistics.median(game_rates), 1),
        "events_per_s": round(statistics.median(event_rates)),
        "events_per_game": round(statistics.mean(lengths), 1),
        "ruleset": args.ruleset,
        "validated": args.validate,
        "games": args.games * args.rounds,
        "rounds": args.rounds,
    }
