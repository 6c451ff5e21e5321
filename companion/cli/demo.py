"""``companion demo``: see the companion work with no hardware at all.

For now the engine plays a whole random game and narrates it; the camera
pipeline joins it as the vision and tracker parts land.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from companion.engine import Game, deal, random_action
from companion.engine.narrate import describe, describe_result


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    demo = subparsers.add_parser("demo", help="play and narrate a whole simulated game (no hardware needed)")
    demo.add_argument("--seed", type=int, default=None, help="random seed (default: a new game every time)")
    demo.add_argument("--delay", type=float, default=None,
                      help="seconds between lines (default 0.02 on a terminal, 0 otherwise)")
    demo.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    delay = args.delay if args.delay is not None else (0.02 if sys.stdout.isatty() else 0.0)
    rng = random.Random(seed)
    game = Game(deal(rng))
    print(f"Mandala demo, game #{seed}: the engine plays both players.")
    print(f"Setup: {game.text()}")
    while not game.is_over:
        before = game.copy()
        event = random_action(game, rng)
        game.push(event)
        for line in describe(event, before, game):
            print(f"{len(game.stack):4d}  {line}")
            time.sleep(delay)
    print()
    for line in describe_result(game):
        print(line)
    return 0
