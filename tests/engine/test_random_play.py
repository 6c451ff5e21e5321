"""Random play: reproducible from a seed, and every event it pushes unchecked is legal."""

from __future__ import annotations

import hashlib
import random

import pytest

from companion.engine import find_ruleset, play_random_game, record_lines, replay, table_record
from tests.engine.test_properties import check_hands_by_color

# sha256 of the records of seeds 0..11 (first player alternating), as `companion engine play --seed N`
# writes them. A change here changes every saved random game: the sim's tables, the benchmarks' games.
RECORDS_DIGEST = {
    "mandala": "369f58e170512ebe83b37eaee966dff16671ea6cbf672e7fb5e398b5e0da6705",
    "mountains": "cd4b8253f5676a991ca6bab59df9896ed5bec7464b9c6abfac347250c5882062",
}


@pytest.mark.parametrize("name", sorted(RECORDS_DIGEST))
def test_the_same_seed_plays_the_same_game_as_before(name: str) -> None:
    digest = hashlib.sha256()
    for seed in range(12):
        game = play_random_game(random.Random(seed), first_player=seed % 2, ruleset=find_ruleset(name))
        digest.update("\n".join(record_lines(game)).encode() + b"\n")
    assert digest.hexdigest() == RECORDS_DIGEST[name]


@pytest.mark.parametrize("name", sorted(RECORDS_DIGEST))
def test_every_event_random_play_pushes_unchecked_passes_validation(name: str) -> None:
    ruleset = find_ruleset(name)
    for seed in range(8):
        played = play_random_game(random.Random(seed), first_player=seed % 2, ruleset=ruleset)
        game = ruleset(played.setup())
        for event, forced in played.stack:
            assert not forced
            assert game.validate(event) is None, (seed, len(game.stack), event)
            game.push(event)
            check_hands_by_color(game)
        assert game.is_over and game.text() == played.text()
        while game.stack:  # and the unchecked pushes' undo log undoes the whole game
            played.pop()
            game.pop()
            check_hands_by_color(played)
        assert played.text() == game.text() == ruleset(played.setup()).text()


@pytest.mark.parametrize("name", sorted(RECORDS_DIGEST))
def test_the_hands_by_color_follow_every_event_in_table_mode(name: str) -> None:
    ruleset = find_ruleset(name)
    for seed in range(3):
        played = play_random_game(random.Random(seed), first_player=seed % 2, ruleset=ruleset)
        table, _ = replay(table_record(played))
        game = ruleset(table.setup())
        for event, forced in table.stack:
            game.push(event, force=forced)
            check_hands_by_color(game)
        while game.stack:
            game.pop()
            check_hands_by_color(game)
