"""Rulesets as variants: the registry, dispatch to a subclass's rules, undo without replay, positions."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from companion.engine import (
    MANDALA,
    MOUNTAINS,
    BaseGame,
    Discard,
    FieldPlay,
    Game,
    MountainsGame,
    Reason,
    Violation,
    deal,
    find_ruleset,
    play_random_game,
    random_action,
)
from companion.engine.events import BaseEvent
from companion.engine.rulesets import RULESETS, ruleset_of_text
from companion.errors import InvalidStateTextError, PositionError, UnknownRulesetError
from tests.engine.positions import cards, position


def test_the_registry_names_both_rulesets_the_official_first() -> None:
    assert list(RULESETS) == ["mandala", "mountains"]
    assert find_ruleset("mandala") is Game and find_ruleset("mountains") is MountainsGame
    assert Game.rules is MANDALA and MountainsGame.rules is MOUNTAINS


def test_an_unknown_ruleset_names_the_choices() -> None:
    with pytest.raises(UnknownRulesetError, match="unknown ruleset 'chess': expected mandala or mountains"):
        find_ruleset("chess")


class NoFields(Game):
    """A variant that forbids field plays: its own rule must be the one called."""

    def _check_field(self, event: FieldPlay) -> Violation | None:
        return Violation(Reason.COLOR_RULE, "No fields in this variant.")


def test_a_subclass_overriding_a_rule_is_dispatched_to() -> None:
    game = NoFields(deal(random.Random(2)))
    field = next(a for a in Game(deal(random.Random(2))).legal_actions() if isinstance(a, FieldPlay))
    violation = game.validate(field)
    assert violation is not None and violation.message == "No fields in this variant."
    assert type(game.copy()) is NoFields


class CountingGame(Game):
    applied = 0

    def _apply_discard(self, event: Discard) -> None:
        CountingGame.applied += 1
        super()._apply_discard(event)


def test_pop_undoes_without_replaying_the_game() -> None:
    rng = random.Random(8)
    game = CountingGame(deal(rng))
    while CountingGame.applied < 5:
        game.push(random_action(game, rng))
    before = CountingGame.applied
    while game.stack:
        game.pop()
    assert CountingGame.applied == before  # nothing re-applied: each pop undoes one event
    assert game.text() == CountingGame(game.setup()).text()


def test_copy_and_text_keep_the_ruleset() -> None:
    mountains = play_random_game(random.Random(1), ruleset=MountainsGame)
    assert type(mountains.copy()) is MountainsGame and mountains.copy() == mountains
    assert type(BaseGame.from_text(mountains.text())) is MountainsGame
    assert ruleset_of_text(mountains.text()) is MountainsGame
    official = Game(deal(random.Random(1)))
    assert type(BaseGame.from_text(official.text())) is Game
    assert official != MountainsGame.from_text(mountains.text())


def test_a_text_of_another_ruleset_is_refused() -> None:
    mountains = play_random_game(random.Random(1), ruleset=MountainsGame)
    with pytest.raises(InvalidStateTextError, match="a mountains state text is not a mandala game"):
        Game.from_text(mountains.text())
    with pytest.raises(InvalidStateTextError, match="starts with mandala/1 or mountains/1, not 'chess/1'"):
        Game.from_text("chess/1 play p1")


def test_a_position_must_account_for_every_card_once() -> None:
    game = position(m1=("R01", "", ""))
    known = [list(z) for z in game.known]
    scalars = game.base.scalars
    assert Game.from_position(known, game.hidden, scalars).text() == game.text()
    known[0].append(cards("R01")[0])
    with pytest.raises(PositionError, match="R01 is in the position twice"):
        Game.from_position(known, game.hidden, scalars)
    known[0].pop()
    with pytest.raises(PositionError, match="accounts for 109 cards, not 108"):
        Game.from_position(known, [1, *game.hidden[1:]], scalars)
    with pytest.raises(PositionError, match="card 108 is not in the mandala deck"):
        Game.from_position([[108], *known[1:]], game.hidden, scalars)


def test_a_position_by_zone_name_as_a_camera_joining_a_game_sees_it() -> None:
    game = Game.from_zones({"m1.mountain": cards("R01 O02"), "m2.field.p1": cards("Y03"), "p1.river": cards("G04"),
                            "p1.hand": 5, "p2.hand": 6, "p1.cup": 3, "p2.cup": 2}, turn=1)
    assert game.turn == 1 and game.phase.value == "play" and game.hand_size(0) == 5 and game.cup_size(0) == 3
    assert game.deck_size == 108 - 4 - 16 and not game.is_full_information and game.river_colors(0) == (3,)
    assert game.masks[0] == 0b11 and game.is_legal(FieldPlay(1, 0, cards("K07")))
    mountains = MountainsGame.from_zones({"p1.mountain": [], "p1.hand": 6, "p2.hand": 5}, round=3)
    assert mountains.round == 3 and mountains.deck_size == 109
    with pytest.raises(PositionError, match=r"unknown zone or field 'p3\.hand'"):
        Game.from_zones({"p3.hand": 6})
    with pytest.raises(PositionError, match="accounts for 110 cards, not 108"):
        Game.from_zones({"p1.hand": 6, "deck": 104})


@dataclass(frozen=True, slots=True)
class Correction(BaseEvent):
    """A variant's own event: the table says the game is this position."""

    position: str

    def to_json(self) -> dict[str, object]:
        return {"action": "correction", "position": self.position}


class Correctable(Game):
    EVENT_KINDS: ClassVar[dict[type, str]] = {**Game.EVENT_KINDS, Correction: "correction"}

    def _check_correction(self, event: Correction) -> Violation | None:
        return None

    def _apply_correction(self, event: Correction) -> None:
        self._jump(Game.from_text(event.position).base)


def test_a_variant_adds_an_event_and_a_whole_position_jump_is_undone() -> None:
    rng = random.Random(4)
    game = Correctable(deal(rng))
    for _ in range(10):
        game.push(random_action(game, rng))
    before, target = game.text(), position(m1=("R01", "", ""), p1=("Y01 Y02", "", ""), p2=("K01", "", ""))
    game.push(Correction(target.text()))
    assert game.text() == target.text() and game.masks == target.masks
    game.push(random_action(game, rng))
    game.pop()
    game.pop()
    assert game.text() == before and len(game.stack) == 10
