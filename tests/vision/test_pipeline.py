"""The pipeline on rendered webcam frames: one behaviour per test."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from companion.sim.scene import ForeignCode, PlacedCard, arm_polygon, random_table
from companion.vision.decoders import DECODERS, DecodedSymbol, DecodeResult, make_decoder
from companion.vision.layout import Layout
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline
from tests.vision.conftest import Render, card_in


def ids_and_zones(observation: FrameObservation) -> set[tuple[str, str | None]]:
    return {(c.card_id, c.zone) for c in observation.cards}


@pytest.mark.parametrize("decoder", sorted(DECODERS))
def test_cold_scan_reads_cards_into_their_zones(layout: Layout, render: Render, decoder: str) -> None:
    scene = render([card_in(layout, "R07", "m1.mountain", 20.0), card_in(layout, "K18", "p2.river.3", 135.0)],
                   tilt_deg=6.0, tilt_axis_deg=30.0)
    observation = VisionPipeline(layout, decoder).scan(scene.image)
    assert observation.board.found
    assert observation.board.fiducials == tuple(sorted(f.id for f in layout.fiducials))
    assert ids_and_zones(observation) == {("R07", "m1.mountain"), ("K18", "p2.river.3")}
    for truth in scene.truth:
        seen = next(c for c in observation.cards if c.card_id == truth.card_id)
        assert math.dist(seen.center_mm, truth.center_mm) < 1.5
        assert seen.confidence == 1.0  # well inside its zone
    assert {"fiducials", "candidates", "decode_crops", "total"} <= set(observation.timings_ms)


def test_local_correction_beats_one_homography_on_a_creased_cloth(layout: Layout, render: Render) -> None:
    cards = random_table(layout, np.random.default_rng(3), 50)
    scene = render(cards, crease=3.0, seed=3)
    pipeline = VisionPipeline(layout)
    pipeline.scan(scene.image)
    assert pipeline.mapping is not None
    stickers = {(t.card_id, n): s for t in scene.truth for n, s in enumerate(t.stickers) if s.visible}
    pairs = [(read.center, sticker.center_mm) for read in pipeline.reads if read.card_id
             for (card_id, _), sticker in stickers.items()
             if card_id == read.card_id and math.dist(read.center, sticker.center_px) < 10]
    assert len(pairs) >= 10
    image = np.array([at for at, _ in pairs])
    truth = np.array([mm for _, mm in pairs])
    corrected = np.linalg.norm(pipeline.mapping.image_to_mat(image) - truth, axis=1)
    plain = np.linalg.norm(
        cv2.perspectiveTransform(image.reshape(-1, 1, 2), pipeline.mapping.homography).reshape(-1, 2) - truth,
        axis=1,
    )
    assert corrected.mean() < plain.mean()
    assert corrected.max() < 3.0  # the crease moves the cloth up to 3 mm


def test_foreign_codes_are_counted_never_cards(layout: Layout, render: Render) -> None:
    strangers = (
        ForeignCode("MDL-Z99", (150.0, 280.0), 32.0, 10.0),
        ForeignCode("\x01\x02binary\xff", (520.0, 120.0), 34.0, 45.0),
    )
    scene = render([card_in(layout, "G03", "p1.river.1")], foreign_codes=strangers)
    observation = VisionPipeline(layout).scan(scene.image)
    assert ids_and_zones(observation) == {("G03", "p1.river.1")}
    assert observation.foreign_codes == 2


def test_the_same_card_twice_is_reported_not_guessed_away(layout: Layout, render: Render) -> None:
    scene = render([card_in(layout, "Y05", "p1.river.2"), card_in(layout, "Y05", "p2.river.5", 90.0)])
    observation = VisionPipeline(layout).scan(scene.image)
    assert observation.duplicates == ("Y05",)
    assert ids_and_zones(observation) == {("Y05", "p1.river.2"), ("Y05", "p2.river.5")}


def test_a_card_outside_every_zone_has_no_zone(layout: Layout, render: Render) -> None:
    # Its centre between the left fiducial column and the zones (on the mat, in no zone), between two fiducials.
    outside = PlacedCard("P01", (24.0, 70.0))
    scene = render([outside])
    assert scene.truth[0].zone is None and scene.truth[0].visible
    cards = VisionPipeline(layout).scan(scene.image).cards
    assert [(c.card_id, c.zone) for c in cards] == [("P01", None)]


def test_near_a_zone_border_confidence_drops(layout: Layout, render: Render) -> None:
    x0, _ = layout.zone_center("p1.river.3")
    border_x = max(x for x, _ in layout.zones["p1.river.3"])
    near = card_in(layout, "O04", "p1.river.3", shift=(border_x - x0 - 1.5, 0.0))
    seen = VisionPipeline(layout).scan(render([near]).image).cards
    assert len(seen) == 1 and seen[0].confidence < 0.9


def test_no_mat_in_view_means_board_not_found(layout: Layout) -> None:
    frame = np.full((1080, 1920, 3), 128, np.uint8)
    observation = VisionPipeline(layout).scan(frame)
    assert not observation.board.found
    assert "fiducials" in (observation.board.reason or "")
    assert observation.cards == ()


@pytest.mark.parametrize(
    "garbage",
    [None, "frame.png", np.zeros((0, 0, 3), np.uint8), np.zeros((100, 100), np.float32),
     np.zeros((100, 100, 2), np.uint8)],
    ids=["none", "str", "empty", "float", "two-channel"],
)
def test_a_garbage_frame_is_answered_not_raised(layout: Layout, garbage: object) -> None:
    observation = VisionPipeline(layout).process(garbage)  # type: ignore[arg-type]
    assert not observation.board.found
    assert (observation.board.reason or "").startswith("unusable frame")


def test_steady_state_keeps_what_did_not_change_and_reads_what_did(layout: Layout, render: Render) -> None:
    first = card_in(layout, "R07", "m1.field.p2", 20.0)
    pipeline = VisionPipeline(layout)
    before = render([first]).image
    assert ids_and_zones(pipeline.process(before)) == {("R07", "m1.field.p2")}

    same = pipeline.process(before.copy())
    assert same.changed_regions == ()
    assert ids_and_zones(same) == {("R07", "m1.field.p2")}

    after = render([first, card_in(layout, "O11", "m2.field.p1", 60.0)]).image
    added = pipeline.process(after)
    assert ids_and_zones(added) == {("R07", "m1.field.p2"), ("O11", "m2.field.p1")}
    assert {c.card_id: c.still_frames for c in added.cards} == {"R07": 2, "O11": 0}  # O11 was just laid
    assert len(added.changed_regions) == 1
    region = added.changed_regions[0]
    assert region.width * region.height < after.shape[0] * after.shape[1] / 10


def test_a_hand_over_a_fiducial_keeps_the_board_and_ages_the_homography(layout: Layout, render: Render) -> None:
    cards = [card_in(layout, "R07", "m1.mountain", 20.0), card_in(layout, "K18", "p1.river.5", 135.0)]
    pipeline = VisionPipeline(layout)
    pipeline.process(render(cards).image)
    corner = next(f for f in layout.fiducials if f.center_mm[0] > 600 and f.center_mm[1] > 350)
    reach = arm_polygon((760.0, 460.0), corner.center_mm, 70.0)  # from off the mat's corner
    hand = render(cards, hand=reach).image
    for age in (1, 2):
        observation = pipeline.process(hand)
        assert observation.board.found
        assert corner.id not in observation.board.fiducials
        assert observation.board.homography_age == age
        assert ids_and_zones(observation) == {("R07", "m1.mountain"), ("K18", "p1.river.5")}
    back = pipeline.process(render(cards).image)
    assert back.board.homography_age == 0


def test_a_card_covered_by_another_disappears(layout: Layout, render: Render) -> None:
    under = card_in(layout, "R07", "p2.river.2")
    pipeline = VisionPipeline(layout)
    pipeline.process(render([under]).image)
    on_top = PlacedCard("G02", (under.center_mm[0] + 3.0, under.center_mm[1] + 2.0), 10.0)
    assert ids_and_zones(pipeline.process(render([under, on_top]).image)) == {("G02", "p2.river.2")}


class _GlaredDecoder:
    """zxing, except that R07 reads nothing while ``glare`` is on (as a reflection might)."""

    name = "glared"

    def __init__(self) -> None:
        self._real = make_decoder("zxing")
        self.glare = True

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        return list(self.decode_detailed(grey).symbols)

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        result = self._real.decode_detailed(grey)
        if self.glare:
            return DecodeResult(tuple(s for s in result.symbols if s.payload != b"MDL-R07"), result.unread)
        return result


def test_a_sticker_missed_once_is_read_on_a_later_unchanged_frame(layout: Layout, render: Render) -> None:
    cards = [card_in(layout, "R07", "p1.river.2"), card_in(layout, "K01", "p2.river.2")]
    frame = render(cards).image
    decoder = _GlaredDecoder()
    pipeline = VisionPipeline(layout, decoder)
    assert ids_and_zones(pipeline.scan(frame)) == {("K01", "p2.river.2")}
    decoder.glare = False
    later = pipeline.process(frame.copy())
    assert later.changed_regions == ()  # nothing changed, yet the miss was retried
    assert ids_and_zones(later) == {("K01", "p2.river.2"), ("R07", "p1.river.2")}
    # Read late, but its pixels are those of the scan: it lay there one frame already.
    assert {c.card_id: c.still_frames for c in later.cards} == {"K01": 1, "R07": 1}


def test_a_fiducial_uncovered_later_is_found_again(layout: Layout, render: Render) -> None:
    marker = next(f for f in layout.fiducials if f.center_mm == (16.0, 200.0))
    cover = PlacedCard("P03", (marker.center_mm[0] + 20.0, marker.center_mm[1]), 0.0)
    pipeline = VisionPipeline(layout)
    covered = pipeline.process(render([cover]).image)
    assert covered.board.found and marker.id not in covered.board.fiducials
    uncovered = pipeline.process(render([]).image)
    assert len(uncovered.changed_regions) == 1  # a steady frame, not a new full scan
    assert marker.id in uncovered.board.fiducials
    assert uncovered.board.homography_age == 0


def test_both_stickers_of_a_card_make_one_card_at_its_centre(layout: Layout, render: Render) -> None:
    card = card_in(layout, "G07", "m2.field.p1", 33.0)
    observation = VisionPipeline(layout).scan(render([card]).image, every_sticker=True)
    (seen,) = observation.cards
    assert (seen.card_id, seen.zone, len(seen.stickers_mm)) == ("G07", "m2.field.p1", 2)
    assert math.dist(seen.center_mm, card.center_mm) < 1.5
    assert observation.duplicates == ()


def test_a_cold_scan_reads_each_card_once_and_the_next_frame_its_other_sticker(layout: Layout,
                                                                              render: Render) -> None:
    cards = [card_in(layout, "G07", "m2.field.p1", 33.0), card_in(layout, "R11", "p1.river.2", 170.0)]
    image = render(cards).image
    pipeline = VisionPipeline(layout)
    cold = pipeline.scan(image)
    assert sorted((c.card_id, c.zone, len(c.stickers_mm)) for c in cold.cards) == [
        ("G07", "m2.field.p1", 1), ("R11", "p1.river.2", 1)]
    assert cold.unread == {}  # the sticker left for later is no unread sticker
    later = pipeline.process(image)  # the same still table: the retries read the stickers left
    assert sorted((c.card_id, len(c.stickers_mm)) for c in later.cards) == [("G07", 2), ("R11", 2)]
    for card in cards:
        seen = next(c for c in later.cards if c.card_id == card.card_id)
        assert math.dist(seen.center_mm, card.center_mm) < 1.5 and seen.still_frames == 1
    assert later.unread == {} and later.duplicates == ()


@pytest.mark.parametrize("decoder", sorted(DECODERS))
def test_the_zone_is_the_one_holding_the_card_centre_whichever_sticker_shows(
    layout: Layout, render: Render, decoder: str
) -> None:
    # The card's centre is in the mountain, 12 mm below its top border; its first sticker (32 mm
    # stickers: 15 mm from the centre) lies in the field above. A card laid over its right part
    # hides the second sticker: the first alone must still put the card in the mountain.
    top = min(y for _, y in layout.zones["m1.mountain"])
    card = PlacedCard("R03", (150.0, top + 12.0))
    cover = PlacedCard("K11", (190.0, top + 30.0))
    scene = render([card, cover])
    truth = next(t for t in scene.truth if t.card_id == "R03")
    assert [s.visible for s in truth.stickers] == [True, False]
    assert layout.zone_at(truth.stickers[0].center_mm) == "m1.field.p2"
    seen = next(c for c in VisionPipeline(layout, decoder).scan(scene.image).cards if c.card_id == "R03")
    assert seen.zone == "m1.mountain" and len(seen.stickers_mm) == 1
    assert math.dist(seen.center_mm, card.center_mm) < 1.5


def test_an_old_card_with_one_sticker_is_read_where_it_lies(layout: Layout, render: Render) -> None:
    card = dataclasses.replace(card_in(layout, "P09", "p2.river.4", 200.0), stickers=1)
    (seen,) = VisionPipeline(layout).scan(render([card]).image).cards
    assert (seen.card_id, seen.zone, len(seen.stickers_mm)) == ("P09", "p2.river.4", 1)
    assert math.dist(seen.center_mm, card.center_mm) < 1.5


def test_a_blurred_whole_sticker_in_a_small_crop_gets_its_further_passes(layout: Layout) -> None:
    """A table of the wide-lens benchmark (1080p, k1 -0.05, blur 1.1 px, dim light) read through the lens
    calibrate fitted there: Y01's one visible sticker (2.6 px per module) left a textured core of 0.54
    sticker, a crop of 1.44 stickers with its margins; the first pass read nothing, and a crop under 1.5
    stickers got no other pass, though the next one reads it."""
    from companion.sim.scene import SceneOptions, render_table
    from companion.vision.lens import LensModel

    options = SceneOptions(resolution=(1920, 1080), hfov_deg=102.0, tilt_deg=2.3966, tilt_axis_deg=19.2343,
                           roll_deg=0.251, light_gain=0.605, gradient=0.0381, vignette=0.1087, blur_sigma=1.1194,
                           noise_sigma=1.6213, jpeg_quality=75, glare=0.2627, crease=1.6772,
                           distortion=(-0.05, 0.05 / 3, 0.0, 0.0, 0.0), seed=3)
    cards = [PlacedCard("Y01", (298.6515, 356.4713), 217.1062), PlacedCard("R06", (372.2971, 358.9689), 236.8746)]
    fitted = LensModel((1920, 1080), ((818.452380952381, 0.0, 959.5), (0.0, 818.452380952381, 539.5), (0.0, 0.0, 1.0)),
                       (-0.08836445420220035, 0.04781798603341039, 0.0, 0.0, -0.007803493657970202))
    seen = VisionPipeline(layout, lens=fitted).scan(render_table(layout, cards, options).image)
    assert {c.card_id for c in seen.cards} == {"Y01", "R06"}


def test_modules_a_wide_lens_shrank_get_more_passes_and_crowds_in_tiles(layout: Layout) -> None:
    """At the mat's edges through a wide lens (2.0-2.4 px per module at 1080p) a sticker needs passes the
    design point does not, and a crop several stickers across is decoded in tiles; elsewhere nothing changes."""
    from companion.vision.candidates import StickerScale
    from companion.vision.observation import Region
    from companion.vision.pipeline import (
        SMALL_MODULE_PASSES,
        TINY_MODULE_PASSES,
        TINY_MODULE_PX,
        _tiny_crowds_tiled,
    )

    pipeline = VisionPipeline(layout)
    edge, middle = StickerScale(2.2 * 29, 2.2), StickerScale(2.7 * 29, 2.7)
    assert pipeline._passes(edge) == TINY_MODULE_PASSES and pipeline._passes(middle) == SMALL_MODULE_PASSES
    assert len(TINY_MODULE_PASSES) > len(SMALL_MODULE_PASSES) and edge.module_px < TINY_MODULE_PX
    crowd = Region(100, 100, 340, 290)  # 5.3 x 4.5 stickers at the edge's scale
    assert _tiny_crowds_tiled([crowd], [middle]) == [crowd]
    edge_tiles = _tiny_crowds_tiled([crowd], [edge])
    assert len(edge_tiles) > 4 and all(max(b.width, b.height) <= 2.2 * edge.sticker_px + 1 for b in edge_tiles)
    assert min(b.x for b in edge_tiles) == crowd.x and max(b.x + b.width for b in edge_tiles) == crowd.x + crowd.width


class _CountingDecoder:
    """zxing, counting the crops handed to it."""

    name = "counting"
    reads_crowds = True  # as zxing: candidates are not cut into tiles

    def __init__(self) -> None:
        self._real = make_decoder("zxing")
        self.calls = 0

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        return list(self.decode_detailed(grey).symbols)

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        self.calls += 1
        return self._real.decode_detailed(grey)


def test_a_sliver_of_texture_is_not_decoded(layout: Layout, render: Render) -> None:
    scene = render([card_in(layout, "K04", "p1.river.2")])
    striped = scene.image.copy()
    # A strip of fine print (3 px modules) under half a sticker high on the bare mat, far from the card:
    # dense enough to be a candidate, too thin for a code (its textured middle: 0.23 sticker).
    rng = np.random.default_rng(3)
    cells = (rng.random((12, 70)) < 0.5).astype(np.uint8) * 200 + 20
    striped[900:936, 800:1010] = np.kron(cells, np.ones((3, 3), np.uint8))[:, :, None]
    counts = []
    for frame in (scene.image, striped):
        decoder = _CountingDecoder()
        observation = VisionPipeline(layout, decoder).scan(frame)
        assert ids_and_zones(observation) == {("K04", "p1.river.2")}
        counts.append(decoder.calls)
    assert counts[1] == counts[0]


def test_a_large_blind_crop_in_a_sharp_frame_gets_its_further_passes_later(layout: Layout, render: Render) -> None:
    # Fine print (3 px modules) two stickers across on the bare mat: a crop where nothing is read or located.
    rng = np.random.default_rng(5)
    cells = (rng.random((50, 50)) < 0.5).astype(np.uint8) * 200 + 20
    patch = np.kron(cells, np.ones((3, 3), np.uint8))[:, :, None]
    added = {}
    for blur in (0.0, 1.5):
        scene = render([card_in(layout, "K04", "p1.river.2")], blur_sigma=blur)
        printed = scene.image.copy()
        printed[820:970, 820:970] = patch
        calls = []
        for frame in (scene.image, printed):
            decoder = _CountingDecoder()
            assert ids_and_zones(VisionPipeline(layout, decoder).scan(frame)) == {("K04", "p1.river.2")}
            calls.append(decoder.calls)
        added[blur] = calls[1] - calls[0]
    assert added == {0.0: 1, 1.5: 2}  # the sharp frame's scan decodes it once, the soft frame's twice
