"""Blur and motion smear measured on the fiducials; smeared frames reported as such, reads back when sharp."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.sim.scene import PlacedCard, SceneOptions, render_table
from companion.vision.decoders import DecodedSymbol, DecodeResult, make_decoder
from companion.vision.layout import Layout, load_layout
from companion.vision.observation import FrameObservation
from companion.vision.payload import card_id_from_payload
from companion.vision.pipeline import VisionPipeline
from companion.vision.sharpness import SmearMeter, blur_px, edge_rises, edge_rises_of

# 2304x1296 with 32 mm stickers: 3.3 px per module, fiducials of 70 px; quick to render.
BASE = SceneOptions(resolution=(2304, 1296), sticker_mm=32.0, noise_sigma=1.5, blur_sigma=0.6, seed=4)


@pytest.fixture(scope="module")
def layout() -> Layout:
    return dataclasses.replace(load_layout(), sticker_mm=32.0)


def cards(layout: Layout) -> list[PlacedCard]:
    return [PlacedCard("R07", layout.zone_center("m1.mountain"), 10.0),
            PlacedCard("G02", layout.zone_center("p1.river.2"), 100.0),
            PlacedCard("K11", layout.zone_center("p2.river.5"), 200.0)]


def smeared(layout: Layout, px: float, degrees: float, seed: int = 5) -> np.ndarray:
    still = render_table(layout, [], BASE)
    options = dataclasses.replace(BASE, motion_mm=px / still.px_per_mm, motion_deg=degrees, seed=seed)
    return render_table(layout, cards(layout), options).image


def test_blur_is_measured_in_pixels_of_sigma(layout: Layout) -> None:
    pipeline = VisionPipeline(layout)
    for sigma in (0.5, 1.5, 2.5):
        image = render_table(layout, [], dataclasses.replace(BASE, blur_sigma=sigma, noise_sigma=0.0)).image
        pipeline.scan(image)
        measured = blur_px([edge_rises(image, s) for s in pipeline.fiducial_sightings.values()])
        assert measured is not None and abs(measured - sigma) < 0.35, (sigma, measured)


def test_the_softest_marker_last_measured_gives_the_frame_blur(layout: Layout) -> None:
    pipeline = VisionPipeline(layout)
    meter = SmearMeter()
    softest = {}
    for sigma in (0.5, 1.5):
        image = render_table(layout, [], dataclasses.replace(BASE, blur_sigma=sigma, noise_sigma=0.0)).image
        pipeline.scan(image)
        sightings = list(pipeline.fiducial_sightings.values())
        meter.measure(image, sightings)
        softest[sigma] = meter.softest_blur_px(s.id for s in sightings)
        assert softest[sigma] is not None and sigma - 0.2 < softest[sigma] < sigma + 0.6, (sigma, softest)
    assert meter.softest_blur_px([]) is None
    meter.forget()
    assert meter.softest_blur_px(s.id for s in sightings) is None


def test_markers_measured_together_measure_as_each_alone(layout: Layout) -> None:
    # Markers seen at different sizes (a tilted camera) have profiles of different lengths, padded together.
    image = render_table(layout, [], dataclasses.replace(BASE, tilt_deg=10.0, blur_sigma=1.2)).image
    pipeline = VisionPipeline(layout)
    pipeline.scan(image)
    sightings = list(pipeline.fiducial_sightings.values())
    assert len({round(s.side_px) for s in sightings}) > 1
    together = edge_rises_of(image, sightings)
    for sighting, rises in zip(sightings, together, strict=True):
        np.testing.assert_allclose(rises, edge_rises(image, sighting), equal_nan=True)
    assert edge_rises_of(image, []) == []


@pytest.mark.parametrize(("length", "degrees"), [(6.0, 0.0), (10.0, 45.0), (14.0, 100.0)])
def test_smear_length_in_any_direction(layout: Layout, length: float, degrees: float) -> None:
    pipeline = VisionPipeline(layout)
    still = render_table(layout, cards(layout), BASE).image
    pipeline.scan(still)
    meter = SmearMeter()
    sightings = list(pipeline.fiducial_sightings.values())
    assert meter.measure(still, sightings) == {} and all(meter.knows(s.id) for s in sightings)  # learnt
    assert max(meter.measure(still, sightings).values()) < 1.0  # what a still frame measures
    smear = meter.measure(smeared(layout, length, degrees), sightings)
    assert abs(float(np.median(list(smear.values()))) - length) < 0.25 * length


def test_a_smeared_frame_says_so_and_reads_come_back_on_the_first_sharp_one(layout: Layout) -> None:
    pipeline = VisionPipeline(layout)
    still = render_table(layout, cards(layout), BASE).image
    first = pipeline.process(still)
    assert {c.card_id for c in first.cards} == {"R07", "G02", "K11"}
    assert not first.board.smeared and first.smeared_zones == ()
    assert not pipeline.process(render_table(layout, cards(layout), dataclasses.replace(BASE, seed=9)).image
                                ).board.smeared
    bumped = pipeline.process(smeared(layout, 9.0, 30.0))
    assert bumped.board.found and bumped.board.smeared and bumped.board.smear_px > 6.0
    assert bumped.cards == () and set(bumped.smeared_zones) == set(layout.zones)  # smeared, not empty
    assert "smeared" in str(bumped)
    again = pipeline.process(still)
    assert not again.board.smeared and {c.card_id for c in again.cards} == {"R07", "G02", "K11"}


def test_a_small_smear_keeps_its_reads(layout: Layout) -> None:
    pipeline = VisionPipeline(layout)
    pipeline.process(render_table(layout, cards(layout), BASE).image)
    shaken = pipeline.process(smeared(layout, 1.5, 20.0))
    assert not shaken.board.smeared and len(shaken.cards) == 3


@pytest.mark.parametrize(("length", "degrees"), [(12.0, 90.0), (14.0, 120.0)])
def test_a_smear_right_after_the_first_look_loses_no_card_outside_the_zones_it_calls_smeared(
        layout: Layout, length: float, degrees: float) -> None:
    """At 1080p (fiducials of 55 px) a smear of 12-14 px hides some markers from ArUco. The scan learnt
    every other marker's sharp edges: the smear is told by those, and the markers first measured in the
    smeared frame do not outvote them (counted sharp, they left a smeared frame half unsmeared)."""
    webcam = dataclasses.replace(BASE, resolution=(1920, 1080))
    pipeline = VisionPipeline(layout)
    assert len(pipeline.scan(render_table(layout, cards(layout), webcam).image).cards) == 3
    still = render_table(layout, [], webcam)
    bumped = pipeline.process(render_table(layout, cards(layout), dataclasses.replace(
        webcam, motion_mm=length / still.px_per_mm, motion_deg=degrees, seed=5)).image)
    assert bumped.board.found
    kept = {c.card_id for c in bumped.cards}
    zones = {"R07": "m1.mountain", "G02": "p1.river.2", "K11": "p2.river.5"}
    assert kept == set() and set(zones.values()) <= set(bumped.smeared_zones)


def test_a_smear_held_over_several_frames_stays_smeared_until_the_first_sharp_one(layout: Layout) -> None:
    """A camera on a swaying arm smears frame after frame; the same smeared pixels twice change nothing
    the change detector sees. Every such frame is smeared, not empty; then a short smear (under a
    module, across the first) that hardly differs from the sharp table; then the first sharp frame reads
    every card again, even those the smeared frames left in the change detector's reference."""
    pipeline = VisionPipeline(layout)
    assert len(pipeline.process(render_table(layout, cards(layout), BASE).image).cards) == 3
    for image in (smeared(layout, 9.0, 150.0), smeared(layout, 2.8, 60.0, seed=6)):
        for _ in range(3):
            held = pipeline.process(image)
            assert held.board.smeared and held.cards == (), held.board
            assert set(held.smeared_zones) == set(layout.zones)
    sharp = pipeline.process(render_table(layout, cards(layout), dataclasses.replace(BASE, seed=7)).image)
    assert not sharp.board.smeared and sharp.smeared_zones == ()
    assert {c.card_id for c in sharp.cards} == {"R07", "G02", "K11"}
    again = pipeline.process(render_table(layout, cards(layout), dataclasses.replace(BASE, seed=8)).image)
    assert not again.board.smeared and len(again.cards) == 3


class _ShakenDecoder:
    """zxing, except that while ``blind`` holds an id, that card's codes are located but not read (a sticker
    a bump shook to where the decoder cannot read it at once)."""

    name = "shaken"

    def __init__(self) -> None:
        self._real = make_decoder("zxing")
        self.blind: str | None = None

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        return list(self.decode_detailed(grey).symbols)

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        result = self._real.decode_detailed(grey)
        if self.blind is None:
            return result
        hidden = [s for s in result.symbols if card_id_from_payload(s.payload) == self.blind]
        return DecodeResult(tuple(s for s in result.symbols if s not in hidden), (result.unread or 0) + len(hidden),
                            result.located + tuple(s.corners for s in hidden))


def ids(observation: FrameObservation) -> set[str]:
    return {c.card_id for c in observation.cards}


def test_after_a_smear_what_did_not_change_since_the_last_sharp_frame_keeps_its_reads(layout: Layout) -> None:
    """The first sharp frame after a smear is compared with the last sharp frame: a sticker that would not
    read again from a fresh decode keeps the read it had, where nothing changed since."""
    decoder = _ShakenDecoder()
    pipeline = VisionPipeline(layout, decoder)
    still = render_table(layout, cards(layout), BASE).image
    assert ids(pipeline.process(still)) == {"R07", "G02", "K11"}
    for _ in range(3):
        assert pipeline.process(smeared(layout, 9.0, 30.0)).board.smeared
    decoder.blind = "R07"
    back = pipeline.process(render_table(layout, cards(layout), dataclasses.replace(BASE, seed=7)).image)
    assert not back.board.smeared and ids(back) == {"R07", "G02", "K11"}
    assert back.unread == {}  # R07's located code is the sticker read before, not an unread card


def test_after_a_smear_a_shaken_card_seen_but_not_read_is_held_and_a_card_taken_is_gone(layout: Layout) -> None:
    """A bump shook R07 by 1.5 mm, and the decoder only locates its code now: the read before the smear
    stays while its code lies there. G02 was taken during the smear: nothing lies where it was, it is gone
    at once. R07 goes once a later sharp frame changes its place and nothing is there."""
    decoder = _ShakenDecoder()
    pipeline = VisionPipeline(layout, decoder)
    table = cards(layout)
    assert ids(pipeline.process(render_table(layout, table, BASE).image)) == {"R07", "G02", "K11"}
    for _ in range(3):
        assert pipeline.process(smeared(layout, 9.0, 30.0)).board.smeared
    decoder.blind = "R07"
    shaken = dataclasses.replace(table[0], center_mm=(table[0].center_mm[0] + 1.5, table[0].center_mm[1] - 1.0))
    back = pipeline.process(render_table(layout, [shaken, table[2]], dataclasses.replace(BASE, seed=7)).image)
    assert not back.board.smeared and ids(back) == {"R07", "K11"}
    again = pipeline.process(render_table(layout, [shaken, table[2]], dataclasses.replace(BASE, seed=8)).image)
    assert ids(again) == {"R07", "K11"}
    decoder.blind = None  # read again on a later frame: the read replaces the one held
    pipeline.process(render_table(layout, [shaken, table[2]], dataclasses.replace(BASE, seed=8)).image)
    decoder.blind = "R07"
    taken = pipeline.process(render_table(layout, [table[2]], dataclasses.replace(BASE, seed=9)).image)
    assert ids(taken) == {"K11"}


def test_a_card_read_before_the_board_was_lost_keeps_its_read_where_nothing_changed(layout: Layout) -> None:
    """The board lost for a few frames (markers smeared beyond finding, a hand over them), then found: the
    scan keeps what the last sharp frame read where nothing changed since."""
    decoder = _ShakenDecoder()
    pipeline = VisionPipeline(layout, decoder)
    still = render_table(layout, cards(layout), BASE).image
    assert ids(pipeline.process(still)) == {"R07", "G02", "K11"}
    for _ in range(2):
        assert not pipeline.process(np.full_like(still, 128)).board.found
    decoder.blind = "R07"
    back = pipeline.process(render_table(layout, cards(layout), dataclasses.replace(BASE, seed=7)).image)
    assert back.board.found and not back.board.smeared and ids(back) == {"R07", "G02", "K11"}


def test_after_the_board_was_lost_alone_a_changed_card_not_read_is_not_held(layout: Layout) -> None:
    """Only a smear shakes cards: with the board lost alone (a hand over the markers), what changed under it
    and does not read is not held (a card taken from a heap leaves the one under it at its place)."""
    decoder = _ShakenDecoder()
    pipeline = VisionPipeline(layout, decoder)
    table = cards(layout)
    still = render_table(layout, table, BASE).image
    assert ids(pipeline.process(still)) == {"R07", "G02", "K11"}
    assert not pipeline.process(np.full_like(still, 128)).board.found
    decoder.blind = "R07"
    moved = dataclasses.replace(table[0], center_mm=(table[0].center_mm[0] + 1.5, table[0].center_mm[1] - 1.0))
    back = pipeline.process(render_table(layout, [moved, *table[1:]], dataclasses.replace(BASE, seed=7)).image)
    assert back.board.found and ids(back) == {"G02", "K11"}
