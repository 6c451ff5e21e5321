"""``companion bench table``: per-style figures from per-game results (ideal camera: seconds, not minutes)."""

from __future__ import annotations

import argparse
from dataclasses import replace

from companion.bench import table
from companion.bench.table import GameResult, Job

SHORT = 153  # the shortest game of seeds 0-199: 36 moves


def test_a_tidy_game_through_the_ideal_camera_is_judged_right() -> None:
    result = table._play_one(Job("tidy", SHORT, 5.0, (4608, 2592), 1.0, ideal=True))
    assert (result.style, result.seed) == ("tidy", SHORT)
    assert result.final_right and result.winner_right and result.order_right and result.scores_right
    assert result.off_by == ()
    assert result.events == result.expected_events == 36
    assert result.false_warnings == () and result.frames > 0


def test_figures_are_given_per_style_and_per_game() -> None:
    def result(style: str, seed: int, final_right: bool, false: tuple[str, ...]) -> GameResult:
        return GameResult(style, seed, 30, 100, 1.0, final_right, final_right, final_right, false, 2, 1,
                          (1.0, 1.2), (), 36)

    results = [result("tidy", 0, True, ()), result("sloppy", 0, False, ("a", "b")), result("sloppy", 1, True, ())]
    sloppy = table._style_figures([r for r in results if r.style == "sloppy"], 1.0)
    assert (sloppy["games"], sloppy["final_right"], sloppy["false_warnings"]) == (2, 1, 2)
    assert sloppy["most_false_warnings_in_a_game"] == 2 and sloppy["injected_warned_in_time"] == 2
    assert [game["seed"] for game in sloppy["per_game"]] == [0, 1]
    assert sloppy["per_game"][0]["false_warnings"] == 2 and "latencies_s" not in sloppy["per_game"][0]
    off = replace(results[1], scores_right=True, off_by=("deck", "discard"))
    figures = table._style_figures([off, results[2]], 1.0)
    assert (figures["final_right"], figures["scores_right"]) == (1, 2)
    assert figures["per_game"][0]["off_by"] == ("deck", "discard")


def test_style_choices_come_from_the_sim() -> None:
    parser = argparse.ArgumentParser()
    table.add_arguments(parser)
    args = parser.parse_args(["--style", "sloppy", "--observations", "ideal"])
    assert (args.style, args.observations, args.games) == ("sloppy", "ideal", 20)


def test_each_injection_needs_its_own_warning() -> None:
    # The same illegal card put down in the same place twice in a game: two injections, each judged by the
    # first warning raised once it was laid (seed 9 of the sloppy players does this with K17).
    from companion.engine import Game
    from companion.sim.script import GameScript, Injection
    from companion.tracker.tracker import Warning

    twice = (Injection("K17", "m1.field.p1", 22.8, 26.3, "color-rule"),
             Injection("K17", "m1.field.p1", 32.4, 36.6, "color-rule"))
    script = GameScript(Game.__new__(Game), (), twice)

    def warned(*seconds: float) -> list[Warning]:
        return [Warning("color-rule", "", "", ("K17",), "m1.field.p1", round(at * 14)) for at in seconds]

    assert table._judge_warnings(script, warned(24.2, 34.3), 14.0, 1.0) == (2, [])
    assert table._judge_warnings(script, warned(24.2), 14.0, 1.0) == (1, [])  # the second one was never warned
    assert table._judge_warnings(script, warned(24.2, 40.0), 14.0, 1.0) == (1, [])  # warned too late
