"""``companion bench start``: a game switched on after the deal and one joined after some moves (ideal camera)."""

from __future__ import annotations

import argparse
import random

import pytest

from companion.bench import start
from companion.bench.start import Start
from companion.engine import Phase, play_random_game
from companion.errors import ConfigError

SHORT = 153  # the shortest game of seeds 0-199: 36 moves


@pytest.mark.parametrize("way", start.WAYS)
def test_a_short_game_started_from_the_table_ends_right(way: str) -> None:
    result = start._watch(Start("tidy", SHORT, 5.0, (4608, 2592), 1.0, True, way=way, join_after=12))
    assert result.right and result.way == way
    assert result.first_frame > 0 and result.events > 0


def test_the_join_comes_at_a_moment_the_players_may_play() -> None:
    game = play_random_game(random.Random(SHORT), first_player=0)
    position, done = start.join_position(game, 12)
    assert done >= 12 and position.phase is Phase.PLAY and len(position.stack) == done


def test_a_join_after_no_move_is_a_one_line_error() -> None:
    parser = argparse.ArgumentParser()
    start.add_arguments(parser)
    with pytest.raises(ConfigError, match="--join-after must be at least 1, got 0"):
        start.run(parser.parse_args(["--join-after", "0", "--observations", "ideal"]))
