"""Settling through smeared frames: a bumped table hides cards, it does not take them away."""

from __future__ import annotations

from companion.tracker.settle import Settler, View
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation

FPS = 14.0
BOARD = BoardStatus(True, (0, 1, 2, 3))
SMEARED = BoardStatus(True, (0, 1, 2, 3), smear_px=9.0, smeared=True)
ZONES = ("m1.mountain", "p1.river.1")


def seen(*cards: tuple[str, str], board: BoardStatus = BOARD, smeared_zones: tuple[str, ...] = ()) -> FrameObservation:
    return FrameObservation(board, tuple(CardObservation(card, (0.0, 0.0), zone, 1.0) for card, zone in cards),
                            smeared_zones=smeared_zones)


def feed(settler: Settler, frames: list[FrameObservation], start: int = 0) -> list[View]:
    views = []
    for index, frame in enumerate(frames, start):
        view = settler.update(index / FPS, frame)
        if view is not None:
            views.append(view)
    return views


TABLE = (("R07", "m1.mountain"), ("G02", "p1.river.1"))


def test_a_smeared_spell_longer_than_a_settle_time_takes_no_card_away() -> None:
    settler = Settler(settle_s=1.0)
    views = feed(settler, [seen(*TABLE)] * 20)
    assert [dict(v.cards) for v in views] == [dict(TABLE)]
    # A camera arm sways for two seconds: every frame smeared, nothing read.
    views = feed(settler, [seen(board=SMEARED, smeared_zones=ZONES)] * 28, 20)
    assert views == []  # nothing settles on a smeared frame
    views = feed(settler, [seen(*TABLE)] * 20, 48)
    assert views == [] and settler.zones == dict(TABLE)  # still the table it was: nothing new to settle


def test_the_same_frames_reported_empty_lose_the_cards() -> None:
    """What the smear field is for: without it, a long bump looks like an empty table."""
    settler = Settler(settle_s=1.0)
    feed(settler, [seen(*TABLE)] * 20)
    views = feed(settler, [seen()] * 28, 20)
    assert [dict(v.cards) for v in views] == [{}]


def test_rest_goes_on_through_a_short_smear() -> None:
    """0.65 s still, 0.3 s smeared, then sharp and unchanged: it settles as soon as a second has passed."""
    settler = Settler(settle_s=1.0)
    feed(settler, [seen(("R07", "m1.mountain"))] * 20)
    feed(settler, [seen(("R07", "m1.mountain"), ("G02", "p1.river.1"))] * 9, 20)  # G02 laid at frame 20
    feed(settler, [seen(board=SMEARED)] * 4, 29)
    views = feed(settler, [seen(*TABLE)] * 3, 33)
    # A second after G02 was laid (frame 20), not a second after the smear ended (frame 47).
    assert [round(v.time * FPS) for v in views] == [35]


def test_cards_of_a_smeared_zone_stay_and_others_go_as_usual() -> None:
    settler = Settler(settle_s=1.0)
    feed(settler, [seen(*TABLE)] * 20)
    # The river is smeared (its fiducials shook), the mountain sharp: R07 is gone, G02 only hidden.
    views = feed(settler, [seen(smeared_zones=("p1.river.1",))] * 20, 20)
    assert [dict(v.cards) for v in views] == [{"G02": "p1.river.1"}]


def test_a_card_pushed_across_a_border_moves_with_the_least_zone_confidence() -> None:
    """Vision's zone confidence is 0.5 right on a border, never less: it says where the centre lies, not doubt."""
    settler = Settler(settle_s=1.0)
    feed(settler, [seen(("R07", "m1.mountain"))] * 20)
    on_border = FrameObservation(BOARD, (CardObservation("R07", (0.0, 0.0), "m1.field.p1", 0.5),))
    views = feed(settler, [on_border] * 20, 20)
    assert [dict(v.cards) for v in views] == [{"R07": "m1.field.p1"}]
