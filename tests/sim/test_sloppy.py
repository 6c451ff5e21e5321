"""The sloppy players (companion.sim.sloppy): their habits show, and a game replays through the ideal camera.

One short game is written once per module (milliseconds) and checked shot by
shot against the rules engine and the layout; only the replay through the
ideal camera and the tracker takes a few seconds.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from companion.engine import Game, Phase, Refill, card_name, parse_card, play_random_game
from companion.engine.game import CUPS
from companion.sim.scene import scene_truth
from companion.sim.script import GameScript, script_observations
from companion.sim.sloppy import Habits, script_sloppy_game
from companion.sim.styles import lay_game
from companion.sim.tables import INSIDE_MM, inside_by_mm
from companion.tracker.tracker import Tracker
from companion.tracker.zones import expected_zone
from companion.vision.layout import Layout, load_layout

FPS = 5.0
SETTLE_S = 1.0
# Every habit on: the game is short, so make each one likely to show in it.
EAGER = Habits(quick_p=0.35, bump_p=0.15, linger_p=0.2, inject_p=0.2)


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


@pytest.fixture(scope="module")
def game() -> Game:
    """The shortest of a few random games that destroy a mandala (claims, sweeps, a refill)."""
    games = [play_random_game(random.Random(seed)) for seed in range(40)]
    return min((g for g in games if any(e.__class__.__name__ == "Claim" for e, _ in g.stack)),
               key=lambda g: len(g.stack))


@pytest.fixture(scope="module")
def script(game: Game, layout: Layout) -> GameScript:
    return script_sloppy_game(game, layout, seed=7, habits=EAGER)


def test_the_same_seed_lays_the_same_game(game: Game, layout: Layout, script: GameScript) -> None:
    again = script_sloppy_game(game, layout, seed=7, habits=EAGER)
    assert again.shots == script.shots and again.injections == script.injections
    assert script_sloppy_game(game, layout, seed=8, habits=EAGER).shots != script.shots
    assert lay_game(game, layout, "sloppy", seed=3).style == "sloppy"
    assert lay_game(game, layout, "tidy", seed=3).style == "tidy"


def test_every_card_lies_with_its_centre_in_its_zone_and_overhangs_little(layout: Layout, script: GameScript) -> None:
    overhang = Habits().overhang_mm + 1e-6
    for shot in script.shots:
        for card in shot.cards:
            zone = layout.zone_at(card.center_mm)
            assert zone is not None, f"{card} in no zone ({shot.note})"
            assert inside_by_mm(card.center_mm, layout.zones[zone]) >= INSIDE_MM - 1e-9
            xs = [x for x, _ in layout.zones[zone]]
            ys = [y for _, y in layout.zones[zone]]
            for x, y in card.corners_mm(layout.card_mm):
                assert min(xs) - overhang <= x <= max(xs) + overhang, (card, zone)
                assert min(ys) - overhang <= y <= max(ys) + overhang, (card, zone)


def test_at_rest_the_table_is_the_game(game: Game, layout: Layout, script: GameScript) -> None:
    """Each card on the mat lies where the rules put it, once the move is made (face up where seen)."""
    replay = Game.from_snapshot(game.base)
    events = iter(event for event, _ in game.stack)
    for shot in script.shots:
        if shot.note in ("rest", "quick"):
            replay.push(next(events), force=True)
            if replay.is_over:  # the rules then count whatever is left on the mat as discarded
                break
            for card in shot.cards:
                where = expected_zone(replay, parse_card(card.card_id))
                if card.face_up and where is not None:
                    assert layout.zone_at(card.center_mm) == where, (card, shot.note)


def test_the_habits_show(layout: Layout, script: GameScript) -> None:
    notes = [shot.note for shot in script.shots]
    assert any("grab 2" in note for note in notes), "a claim taken in several grabs"
    assert "quick" in notes, "a move made before the table rested a settle time"
    assert any(s.note.startswith("hand rests") and s.seconds > SETTLE_S for s in script.shots)
    bumps = [s for s in script.shots if s.blur_mm > 0]
    assert bumps and all(s.seconds <= 0.4 for s in bumps)
    assert script.injections
    # Tight fans: at some rest a mountain card lies hidden under the next one, and some show only one sticker.
    hidden = one_sticker = 0
    for shot in script.shots:
        if shot.note == "rest" and shot.hand is None:
            for truth in scene_truth(layout, shot.cards):
                if truth.face_up and truth.zone is not None and truth.zone.endswith("mountain"):
                    hidden += not truth.visible
                    one_sticker += sum(s.visible for s in truth.stickers) == 1
    assert hidden and one_sticker
    # One squared discard pile: at most its top card shows.
    last_rest = next(s for s in reversed(script.shots) if s.note == "rest" and s.hand is None)
    pile = [t for t in scene_truth(layout, last_rest.cards) if t.zone == "discard"]
    assert len(pile) >= 2 and sum(t.visible for t in pile) <= 1


def test_every_cup_card_shows_a_whole_sticker_when_the_cups_are_laid_out(layout: Layout) -> None:
    """The reveal is spread to be counted: each cup card is read at some rest, whatever came over it later."""
    for seed in (2, 8, 9):  # games whose big cups once hid cards under the next row of the spread
        game = play_random_game(random.Random(seed), first_player=0)
        script = script_sloppy_game(game, layout, seed=seed)
        shown: set[str] = set()
        for shot in script.shots:
            if shot.note.startswith("reveal") and shot.hand is None:
                shown |= {t.card_id for t in scene_truth(layout, shot.cards) if t.visible and t.zone
                          and t.zone.endswith(".reveal")}
        cups = {card_name(c) for place in CUPS for c in game.known[place]}
        assert cups <= shown, f"seed {seed}: {sorted(cups - shown)} never in view"


def test_a_sloppy_game_replays_through_the_ideal_camera(layout: Layout, script: GameScript) -> None:
    tracker = Tracker(settle_s=SETTLE_S)
    frames = board_lost = blurred_empty = 0
    shots = script.frame_shots(FPS)
    for frame, observation in enumerate(script_observations(script, layout, FPS, seed=1)):
        frames += 1
        shot = script.shots[shots[frame]]
        if shot.blur_mm > 0:
            board_lost += not observation.board.found
            blurred_empty += observation.board.found and not observation.cards
        else:
            assert observation.board.found
            for card in observation.cards:  # what the ideal camera reads is where the card lies
                assert card.zone == layout.zone_at(card.center_mm) and card.stickers_mm
        tracker.observe(frame, frame / FPS, observation)
    assert frames == len(shots) > 0
    assert board_lost + blurred_empty > 0, "bumped frames read nothing"


def test_the_ideal_camera_reads_nothing_through_a_hard_bump(layout: Layout, script: GameScript) -> None:
    hard = next(i for i, s in enumerate(script.shots) if s.blur_mm > 0)
    only = GameScript(script.game, (script.shots[hard],), style="sloppy")
    frames = list(script_observations(only, layout, 10.0))
    assert frames
    sticker_module = layout.sticker_mm / 29
    if script.shots[hard].blur_mm >= 1.5 * sticker_module:
        assert all(not f.cards for f in frames)


def test_a_game_not_over_is_refused(layout: Layout) -> None:
    game = play_random_game(random.Random(1))
    unfinished = Game.from_snapshot(game.base)
    assert unfinished.phase is Phase.PLAY
    with pytest.raises(ValueError, match="finished"):
        script_sloppy_game(unfinished, layout)


def test_each_event_is_dated_when_the_table_shows_it_done(game: Game, script: GameScript) -> None:
    done = script.event_done_s
    assert len(done) == len(game.stack) and list(done) == sorted(done) and done[-1] < script.duration_s
    # A mountain play is on the mat from then on, with no hand over the table.
    starts = [0.0]
    for shot in script.shots:
        starts.append(starts[-1] + shot.seconds)
    for (event, _), at in zip(game.stack, done, strict=True):
        if event.__class__.__name__ == "MountainPlay":
            shot = script.shots[starts.index(at)]
            assert shot.hand is None and card_name(event.cards[0]) in {c.card_id for c in shot.cards}


def test_a_refill_is_dealt_in_one_go_or_card_by_card_with_the_first_card_alone(game: Game, layout: Layout) -> None:
    """Dealt one at a time, the first refill card lies alone while the hand is back at the deck; the rest
    of the game is laid exactly as when both cards come in one go (the habit draws from its own stream)."""
    refills = [str(e) for e, _ in game.stack if isinstance(e, Refill) and len(e.cards) == 2]
    assert refills, "the module's game needs a two-card refill"
    at_once = script_sloppy_game(game, layout, seed=7, habits=replace(EAGER, deal_one_by_one_p=0.0))
    by_one = script_sloppy_game(game, layout, seed=7, habits=replace(EAGER, deal_one_by_one_p=1.0))
    assert not any(shot.note.endswith(": next card") for shot in at_once.shots)
    waits = [i for i, shot in enumerate(by_one.shots) if shot.note.endswith(": next card")]
    assert len(waits) == len(refills)
    for index in waits:
        shot, note = by_one.shots[index], by_one.shots[index].note.removesuffix(": next card")
        cards = [parse_card(name) for name in json.loads(note)["cards"]]
        on_mat = {card.card_id for card in shot.cards}
        assert [card_name(c) in on_mat for c in cards] == [True, False], note
        assert shot.hand is not None  # back at the deck for the next card
    # Only the dealing shots were added (the first card placed, the wait, the reach back with the
    # second): everything else is the same game, laid the same way (only the second card's hand differs).
    extra = {i + k for i in waits for k in (-1, 0, 1)}
    laid = [(s.cards, s.seconds, s.note) for i, s in enumerate(by_one.shots) if i not in extra]
    assert laid == [(s.cards, s.seconds, s.note) for s in at_once.shots]
