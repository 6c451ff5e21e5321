"""Whole simulated games through the tracker, as ideal camera observations (no images).

Each game is played by the engine, laid out on the table shot by shot (hands
over the table, covered cards, illegal cards taken back, the reveal), and fed
to the tracker frame by frame. The tracker must end with the same result as
the game, raise no warning that was not due, and warn about every injected
illegal card within two settle periods.
"""

from __future__ import annotations

import random

import pytest

from companion.engine import Claim, Reveal, play_random_game, summary, table_record
from companion.sim.game import script_game
from companion.sim.script import script_observations
from companion.tracker.tracker import Tracker
from companion.vision.layout import load_layout

FPS = 10.0
SETTLE_S = 1.0


@pytest.mark.slow  # three whole rendered games
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_game_is_tracked_exactly(seed: int) -> None:
    layout = load_layout()
    game = play_random_game(random.Random(seed))
    script = script_game(game, layout, seed=seed, inject_p=0.1, linger_p=0.1)
    tracker = Tracker(settle_s=SETTLE_S)
    warnings = []
    for frame, observation in enumerate(script_observations(script, layout, FPS, seed=seed)):
        warnings += tracker.observe(frame, frame / FPS, observation).warnings
    assert tracker.game is not None
    assert summary(tracker.game) == summary(game)

    injected = {(i.card_id, i.zone): i for i in script.injections}
    assert injected, "the script should inject illegal cards"
    for warning in warnings:
        assert (warning.cards[0], warning.zone) in injected, f"unexpected warning {warning}"
    for (card, zone), injection in injected.items():
        raised = [w for w in warnings if w.cards[0] == card and w.zone == zone]
        assert raised, f"no warning for {card} in {zone}"
        assert raised[0].frame / FPS - injection.start_s <= 2 * SETTLE_S + 0.5

    # The events, in order, are the game's as a camera can know them.
    expected = [e for _, e in table_record(game).events if not isinstance(e, Reveal)]
    tracked = [t.event for t in tracker.events if not isinstance(t.event, Reveal)]
    assert [_decision(e) for e in tracked] == [_decision(e) for e in expected]


def _decision(event: object) -> tuple[object, ...]:
    """An event without the parts a camera may know differently (draw counts, which card went to the river)."""
    if isinstance(event, Claim):
        return (Claim, event.player, event.color)
    cards = getattr(event, "cards", ())
    return (type(event), getattr(event, "player", None), getattr(event, "mandala", None), tuple(sorted(cards)))
