"""The scene renderer: geometry, occlusion truth, disturbances, random tables.

Frames are small (webcam-sized or less) to keep the suite fast; geometry is
checked against independent readers (pyzbar for QR codes, OpenCV ArUco for
the fiducials), so a wrong sticker position, rotation convention or crease
direction fails here.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest
from pyzbar import pyzbar

from companion.sim.scene import (
    ForeignCode,
    PlacedCard,
    RenderedScene,
    SceneError,
    SceneOptions,
    arm_polygon,
    camera_homography,
    project,
    random_table,
    render_table,
)
from companion.sim.tables import INSIDE_MM, inside_by_mm, random_hand
from companion.vision.layout import ZONE_NAMES, Layout, load_layout
from companion.vision.stickers import card_center_mm

# 2304x1296 with 32 mm stickers: about 3 px per module, readable by pyzbar.
READABLE = SceneOptions(resolution=(2304, 1296), sticker_mm=32.0)
SMALL = SceneOptions(resolution=(768, 432))


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


def _decode(scene: RenderedScene) -> dict[str, tuple[float, float]]:
    """Payload -> centre in pixels of every QR code pyzbar reads in the frame."""
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    found = {}
    for symbol in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        xs = [p.x for p in symbol.polygon]
        ys = [p.y for p in symbol.polygon]
        found[symbol.data.decode("latin-1")] = (sum(xs) / len(xs), sum(ys) / len(ys))
    return found


def test_homography_frames_the_mat(layout: Layout) -> None:
    options = SceneOptions(resolution=(4608, 2592), fill=0.9)
    corners = project(
        camera_homography(layout.size_mm, options),
        [(0, 0), (layout.size_mm[0], 0), layout.size_mm, (0, layout.size_mm[1])],
    )
    assert corners[:, 0].min() > 0 and corners[:, 0].max() < 4608
    height_px = corners[:, 1].max() - corners[:, 1].min()
    assert height_px == pytest.approx(0.9 * 2592, rel=1e-6)
    # Design point: ~5.8 px/mm, so a 16 mm sticker's 0.55 mm modules get ~3.2 px.
    scale = height_px / layout.size_mm[1]
    assert 3.0 < scale * 16 / 29 < 3.5
    tilted = project(camera_homography(layout.size_mm, SceneOptions(tilt_deg=10)), [(0, 0), (layout.size_mm[0], 0)])
    untilted = project(camera_homography(layout.size_mm, SceneOptions()), [(0, 0), (layout.size_mm[0], 0)])
    assert not np.allclose(tilted, untilted, atol=5)


def _decode_all(scene: RenderedScene) -> list[tuple[str, tuple[float, float]]]:
    """(payload, centre in pixels) of every QR code pyzbar reads, twins included."""
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    found = []
    for symbol in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        xs = [p.x for p in symbol.polygon]
        ys = [p.y for p in symbol.polygon]
        found.append((symbol.data.decode("latin-1"), (sum(xs) / len(xs), sum(ys) / len(ys))))
    return found


@pytest.mark.parametrize("rotation", [0.0, 37.0, 90.0, 180.0, 251.0, 270.0])
def test_both_stickers_are_where_truth_says_at_any_rotation(layout: Layout, rotation: float) -> None:
    card = PlacedCard("G11", (350.0, 130.0), rotation)
    scene = render_table(layout, [card], READABLE)
    (truth,) = scene.truth
    assert truth.visible and truth.zone == layout.zone_at(card.center_mm) and truth.center_mm == card.center_mm
    assert len(truth.stickers) == 2 and all(s.visible for s in truth.stickers)
    found = _decode_all(scene)
    assert [payload for payload, _ in found] == ["MDL-G11", "MDL-G11"]
    for sticker in truth.stickers:
        assert min(math.dist(at, sticker.center_px) for _, at in found) < 2.0
    # The rotation convention: counter-clockwise as seen, the first sticker top-left at 0.
    offset = np.subtract(truth.stickers[0].center_mm, card.center_mm)
    expected = {0.0: (-1, -1), 90.0: (-1, 1), 180.0: (1, 1), 270.0: (1, -1)}.get(rotation)
    if expected is not None:
        assert tuple(np.sign(offset).astype(int)) == expected
    # The second sticker is across the card's centre from the first.
    assert np.allclose(np.add(truth.stickers[0].center_mm, truth.stickers[1].center_mm), np.multiply(2, card.center_mm))


@pytest.mark.parametrize("rotation", [0.0, 23.0, 90.0, 200.0, 315.0])
def test_each_sticker_alone_gives_the_card_centre(layout: Layout, rotation: float) -> None:
    card = PlacedCard("O02", (210.0, 250.0), rotation)
    for square in card.sticker_squares_mm(layout.card_mm, layout.sticker_mm):
        centre = card_center_mm(square, layout.card_mm, layout.sticker_mm)
        assert math.dist(centre, card.center_mm) < 1e-6
    # An old card with one sticker (top-left) is the same formula.
    old = dataclasses.replace(card, stickers=1)
    (square,) = old.sticker_squares_mm(layout.card_mm, layout.sticker_mm)
    assert math.dist(card_center_mm(square, layout.card_mm, layout.sticker_mm), card.center_mm) < 1e-6


def test_an_old_card_shows_one_sticker(layout: Layout) -> None:
    scene = render_table(layout, [PlacedCard("G11", (350.0, 130.0), 30.0, stickers=1)], READABLE)
    assert len(scene.truth[0].stickers) == 1
    assert [payload for payload, _ in _decode_all(scene)] == ["MDL-G11"]


def test_a_fanned_card_still_shows_its_other_corner(layout: Layout) -> None:
    # Turned half a turn, a card's top-left corner (as seen) holds its second sticker.
    under = PlacedCard("R01", (150.0, 200.0), 180.0)
    over = PlacedCard("K02", (190.0, 200.0))  # leaves a 40 mm strip on the left of R01 (32 mm stickers)
    scene = render_table(layout, [under, over], READABLE)
    by_id = {t.card_id: t for t in scene.truth}
    assert by_id["R01"].visible and [s.visible for s in by_id["R01"].stickers] == [False, True]
    assert sorted(payload for payload, _ in _decode_all(scene)) == ["MDL-K02", "MDL-K02", "MDL-R01"]


def test_later_cards_cover_earlier_ones(layout: Layout) -> None:
    under = PlacedCard("R01", (150.0, 200.0))
    over = PlacedCard("K02", (145.0, 195.0), 90.0)  # lies over both of R01's stickers
    scene = render_table(layout, [under, over], READABLE)
    by_id = {t.card_id: t for t in scene.truth}
    assert not by_id["R01"].visible and by_id["K02"].visible
    assert set(_decode(scene)) == {"MDL-K02"}
    swapped = render_table(layout, [over, under], READABLE)
    assert {t.card_id for t in swapped.truth if t.visible} == {"R01"}


def test_hand_frame_edge_and_face_down_hide_stickers(layout: Layout) -> None:
    cards = [
        PlacedCard("Y03", (100.0, 200.0)),
        PlacedCard("P04", (500.0, 200.0)),
        PlacedCard("O05", (350.0, 360.0), face_up=False),
    ]
    hand = arm_polygon((100.0, 520.0), (80.0, 180.0))
    scene = render_table(layout, cards, SceneOptions(resolution=(2304, 1296), sticker_mm=32.0, hand=hand))
    by_id = {t.card_id: t for t in scene.truth}
    assert not by_id["Y03"].visible and by_id["P04"].visible
    assert not by_id["O05"].visible and not by_id["O05"].face_up
    assert set(_decode(scene)) == {"MDL-P04"}
    # Shift the mat so the right half leaves the frame.
    shifted = render_table(layout, cards[1:2], SceneOptions(resolution=(768, 432), shift_px=(300, 0)))
    assert not shifted.truth[0].visible


def test_fiducials_are_detected_where_the_layout_puts_them(layout: Layout) -> None:
    scene = render_table(layout, [], SceneOptions(resolution=(1920, 1080), tilt_deg=6, roll_deg=3))
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, parameters)
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None
    assert sorted(ids.ravel().tolist()) == sorted(f.id for f in layout.fiducials)
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        fiducial = layout.fiducial(int(marker_id))
        assert fiducial is not None
        expected = project(scene.mat_to_image, fiducial.corners_mm())
        assert np.abs(marker_corners.reshape(4, 2) - expected).max() < 0.5


def test_crease_moves_stickers_and_truth_follows(layout: Layout) -> None:
    card = PlacedCard("K09", (380.0, 130.0), 20.0, stickers=1)
    flat = render_table(layout, [card], READABLE)
    creased = render_table(layout, [card], SceneOptions(resolution=(2304, 1296), sticker_mm=32.0, crease=6.0, seed=3))
    flat_sticker, creased_sticker = flat.truth[0].stickers[0], creased.truth[0].stickers[0]
    moved = math.dist(flat_sticker.center_px, creased_sticker.center_px)
    assert moved > 1.0, "a 6 mm crease should move a sticker near the fold"
    assert flat_sticker.center_mm == creased_sticker.center_mm  # the cloth coordinate is unchanged
    assert math.dist(_decode(creased)["MDL-K09"], creased_sticker.center_px) < 2.0
    assert np.allclose(flat.mat_to_image, creased.mat_to_image)  # nominal homography


def test_foreign_codes_are_drawn_but_not_truth(layout: Layout) -> None:
    codes = (
        ForeignCode("MDL-Z99", (181.0, 101.0), 40.0, 30.0),  # right over R18's first sticker
        ForeignCode("MDL-Y01", (209.0, 129.0), 40.0),  # and its second
        ForeignCode("https://example.com/x", (500.0, 280.0), 36.0),
    )
    scene = render_table(
        layout,
        [PlacedCard("R18", (195.0, 115.0))],
        SceneOptions(resolution=(2304, 1296), sticker_mm=32.0, foreign_codes=codes),
    )
    assert set(_decode(scene)) == {"MDL-Z99", "MDL-Y01", "https://example.com/x"}
    assert [t.card_id for t in scene.truth] == ["R18"] and not scene.truth[0].visible


def test_light_blur_noise_jpeg_and_glare_change_the_frame(layout: Layout) -> None:
    cards = [PlacedCard("G01", (350.0, 130.0))]
    base = render_table(layout, cards, SMALL).image.astype(np.float32)

    def frame(**changes: object) -> np.ndarray:
        options = SceneOptions(resolution=SMALL.resolution, **changes)  # type: ignore[arg-type]
        return render_table(layout, cards, options).image.astype(np.float32)

    assert frame(light_gain=0.5).mean() == pytest.approx(base.mean() * 0.5, rel=0.05)
    assert frame(light_gain=1.5).mean() > base.mean() * 1.3
    sharpness = cv2.Laplacian(base, cv2.CV_32F).var()
    assert cv2.Laplacian(frame(blur_sigma=1.5), cv2.CV_32F).var() < sharpness * 0.5
    assert np.std(frame(noise_sigma=8.0) - base) == pytest.approx(8.0, rel=0.15)
    assert 0 < np.abs(frame(jpeg_quality=75) - base).mean() < 6
    vignetted = frame(vignette=0.5)
    assert vignetted[:40, :40].mean() < base[:40, :40].mean() * 0.7
    assert frame(glare=1.0).mean() > base.mean() + 3
    assert np.array_equal(frame(noise_sigma=4.0, seed=5), frame(noise_sigma=4.0, seed=5))
    assert not np.array_equal(frame(noise_sigma=4.0, seed=5), frame(noise_sigma=4.0, seed=6))


def test_bad_options_and_cards_are_rejected(layout: Layout) -> None:
    with pytest.raises(SceneError, match="jpeg_quality"):
        SceneOptions(jpeg_quality=0)
    with pytest.raises(SceneError, match="glare"):
        SceneOptions(glare=2.0)
    with pytest.raises(SceneError, match="'X01'"):
        render_table(layout, [PlacedCard("X01", (10.0, 10.0))], SMALL)


def test_random_table_is_plausible_and_reproducible(layout: Layout) -> None:
    cards = random_table(layout, np.random.default_rng(11), 80)
    assert len(cards) == 80 and len({c.card_id for c in cards}) == 80
    assert cards == random_table(layout, np.random.default_rng(11), 80)
    zones = {layout.zone_at(c.center_mm) for c in cards}
    assert None not in zones and zones <= set(ZONE_NAMES)
    assert {"deck", "m1.mountain", "m2.mountain", "discard"} <= zones
    assert all(not c.face_up for c in cards if layout.zone_at(c.center_mm) in {"deck", "p1.cup", "p2.cup"})
    rotations = {round(c.rotation_deg) % 90 for c in cards}
    assert len(rotations) > 10, "cards lie at all sorts of angles"
    endgame = random_table(layout, np.random.default_rng(11), 60, endgame=True)
    assert any(layout.zone_at(c.center_mm) in {"p1.reveal", "p2.reveal"} for c in endgame)
    assert len(random_table(layout, np.random.default_rng(1), 108)) == 108


@pytest.mark.slow
def test_random_tables_keep_card_centres_off_zone_borders(layout: Layout) -> None:
    # Players lay cards inside zones: no card centre closer than 3 mm to a border.
    for seed in range(30):
        for endgame in (False, True):
            for card in random_table(layout, np.random.default_rng(seed), 108, endgame=endgame):
                zone = layout.zone_at(card.center_mm)
                assert zone is not None
                assert inside_by_mm(card.center_mm, layout.zones[zone]) >= INSIDE_MM - 1e-9


def test_inside_by_mm_is_the_distance_to_the_nearest_edge() -> None:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    assert inside_by_mm((5.0, 5.0), square) == pytest.approx(5.0)
    assert inside_by_mm((1.0, 7.0), square) == pytest.approx(1.0)
    assert inside_by_mm((13.0, 14.0), square) == pytest.approx(-5.0)


def test_a_bumped_table_is_smeared_along_the_motion(layout: Layout) -> None:
    cards = [PlacedCard("G01", (350.0, 130.0))]
    sharp = cv2.cvtColor(render_table(layout, cards, SMALL).image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    for angle in (0.0, 90.0):
        options = SceneOptions(resolution=SMALL.resolution, motion_mm=12.0, motion_deg=angle)
        shaken = cv2.cvtColor(render_table(layout, cards, options).image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        across_x = np.abs(np.diff(shaken, axis=1)).mean() / np.abs(np.diff(sharp, axis=1)).mean()
        across_y = np.abs(np.diff(shaken, axis=0)).mean() / np.abs(np.diff(sharp, axis=0)).mean()
        # A horizontal smear wipes out horizontal detail (edges met along x) much more than vertical.
        smeared, kept = (across_x, across_y) if angle == 0.0 else (across_y, across_x)
        assert smeared < 0.6 * kept
    with pytest.raises(SceneError, match="motion_mm"):
        SceneOptions(motion_mm=-1.0)


def test_random_table_renders_with_most_fanned_stickers_visible(layout: Layout) -> None:
    rng = np.random.default_rng(4)
    cards = random_table(layout, rng, 60)
    scene = render_table(layout, cards, SceneOptions(resolution=(1152, 648), hand=random_hand(layout, rng)))
    visible = scene.visible_truth()
    face_up = [t for t in scene.truth if t.face_up]
    assert 0.25 * len(face_up) < len(visible) < len(face_up)
    assert all(t.zone is not None for t in visible)


def test_a_card_can_carry_another_colors_sticker_and_the_light_can_be_tinted() -> None:
    """What ``companion markers check`` is tested on: the face painted in one color, the stickers of another."""
    from companion.markers.codes import CARD_FACE_BGR

    layout = load_layout()
    card = PlacedCard("R07", (350.0, 200.0), face_color="green")
    options = SceneOptions(resolution=(1600, 900))
    scene = render_table(layout, [card], options)
    x, y = (round(v) for v in scene.truth[0].center_px)
    assert np.abs(scene.image[y, x].astype(int) - CARD_FACE_BGR["green"]).max() < 60  # the card's middle
    assert scene.truth[0].card_id == "R07"
    warm = render_table(layout, [card], dataclasses.replace(options, white_balance=(0.8, 1.0, 1.25))).image[y, x]
    warm = warm.astype(int)
    plain = scene.image[y, x].astype(int)
    assert warm[0] < plain[0] and warm[2] > plain[2]
    with pytest.raises(SceneError, match="unknown face color 'teal'"):
        render_table(layout, [PlacedCard("R07", (350.0, 200.0), face_color="teal")], options)
    with pytest.raises(SceneError, match="white_balance"):
        SceneOptions(white_balance=(3.0, 1.0, 1.0))
