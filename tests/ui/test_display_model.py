"""The display model: a small frozen value, printable in one line, checked on creation."""

from __future__ import annotations

import dataclasses

import pytest

from companion.errors import DisplayModelError
from companion.tracker.display import (
    Destruction,
    DiscardConfirm,
    DisplayModel,
    GameOver,
    PlayerView,
    TableWarning,
)
from companion.ui.samples import SAMPLES


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_every_sample_prints_in_one_line(sample: object) -> None:
    text = str(sample.model)  # type: ignore[attr-defined]
    assert "\n" not in text and text.startswith(sample.model.phase)  # type: ignore[attr-defined]


def test_one_line_form_names_what_matters() -> None:
    model = DisplayModel(
        phase="destruction", turn="p2", deck=40,
        players=(PlayerView(hand=5, score=7, unknown_cup=2, river="RO"), PlayerView(hand=8)),
        destruction=Destruction("m2", "p1", "YK"),
        warnings=(TableWarning("color-rule", "Red in m1", "Take back the red card"),),
        board="not-found")
    assert str(model) == (
        "destruction turn=p2 draw=None deck=40 p1[hand=5 score=7+2? river=RO] "
        "p2[hand=8 score=0+2? river=-] destruction[m2 picker=p1 left=YK] "
        "warning[color-rule: Red in m1 / Take back the red card] camera=ok board=not-found")


def test_it_is_frozen_and_hashable() -> None:
    model = SAMPLES[0].model
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.deck = 3  # type: ignore[misc]
    assert hash(model) == hash(dataclasses.replace(model))


@pytest.mark.parametrize("make, word", [
    (lambda: DisplayModel(phase="playing", turn="p1"), "phase='playing'"),
    (lambda: DisplayModel(phase="play", turn="p3"), "turn='p3'"),
    (lambda: DisplayModel(phase="play", turn="p1", draw=0), "draw=0"),
    (lambda: DisplayModel(phase="over", turn="p1"), "phase='over' needs"),
    (lambda: PlayerView(hand=9), "hand=9"),
    (lambda: PlayerView(hand=3, river="RR"), "river='RR'"),
    (lambda: Destruction("m3", "p1", "R"), "mandala='m3'"),
    (lambda: DiscardConfirm("p1", seen=3, asked=2), "asked=2"),
    (lambda: GameOver(scores=(1, 2), winner="p3"), "winner='p3'"),
    (lambda: DisplayModel(phase="play", turn="p1", camera="gone"), "camera='gone'"),
])
def test_impossible_values_are_refused_with_the_field_named(make: object, word: str) -> None:
    with pytest.raises(DisplayModelError, match=word.replace("(", r"\(")):
        make()  # type: ignore[operator]


def test_player_lookup() -> None:
    model = SAMPLES[0].model
    assert model.player("p2") is model.players[1]
