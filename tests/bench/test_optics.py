"""The bumps benchmark's judge (companion/bench/optics.py): what a smear alone changed in a whole game."""

from __future__ import annotations

from companion.bench.optics import _compare, _Run
from companion.bench.table import decision
from companion.engine import Claim, FieldPlay


def _run(*events: object) -> _Run:
    return _Run([(i, str(e)) for i, e in enumerate(events)], [], [], [],
                [decision(e) for e in events])


PLAYED = [FieldPlay(0, 0, (1,)), FieldPlay(1, 0, (40,)), Claim(0, 0)]


def test_an_event_only_the_smeared_run_has_counts_against_the_smear_unless_the_game_had_it() -> None:
    truth = [decision(e) for e in PLAYED]
    sharp = _run(PLAYED[0], FieldPlay(0, 0, (40,)), PLAYED[2])  # the sharp run gave the play to the wrong player
    right = _run(*PLAYED)
    counts = _compare(right, sharp, "", [], truth=truth)
    assert counts["events_only_with_smear"] == 1  # the raw difference between the two runs
    assert counts["events_only_with_smear_not_in_game"] == 0  # but it is the game's own event

    invented = _run(*PLAYED, FieldPlay(1, 1, (77,)))
    counts = _compare(invented, _run(*PLAYED), "", [], truth=truth)
    assert counts["events_only_with_smear_not_in_game"] == 1


def test_without_the_game_only_the_difference_is_counted() -> None:
    counts = _compare(_run(*PLAYED), _run(*PLAYED[:2]), "", [])
    assert counts["events_only_with_smear"] == 1 and "events_only_with_smear_not_in_game" not in counts
