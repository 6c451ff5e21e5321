"""The renderer's camera model: lens distortion, a cloth lifted in parallax, field curvature.

Checked against independent readers: pyzbar for where a QR code shows,
OpenCV's ArUco for the fiducials, the blur measure of companion.vision.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest
from pyzbar import pyzbar

from companion.sim.optics import field_sigma, lift_field
from companion.sim.scene import PlacedCard, SceneOptions, render_table, scene_camera
from companion.vision.layout import Layout, load_layout
from companion.vision.pipeline import VisionPipeline
from companion.vision.sharpness import blur_px, edge_rises

READABLE = SceneOptions(resolution=(2304, 1296), sticker_mm=32.0)


@pytest.fixture(scope="module")
def layout() -> Layout:
    return dataclasses.replace(load_layout(), sticker_mm=32.0)


def _read(image: np.ndarray) -> dict[str, tuple[float, float]]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = {}
    for symbol in pyzbar.decode(grey, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        found[symbol.data.decode()] = (float(np.mean([p.x for p in symbol.polygon])),
                                       float(np.mean([p.y for p in symbol.polygon])))
    return found


def test_a_barrel_lens_pulls_the_mat_in_and_the_truth_follows(layout: Layout) -> None:
    card = PlacedCard("K09", (600.0, 60.0), 15.0, stickers=1)  # near a corner, where the barrel bends most
    options = dataclasses.replace(READABLE, hfov_deg=102.0, distortion=(-0.3, 0.1, 0.0, 0.0, 0.0))
    scene = render_table(layout, [card], options)
    assert scene.camera is not None and scene.camera.lens is not None
    sticker = scene.truth[0].stickers[0]
    assert math.dist(_read(scene.image)["MDL-K09"], sticker.center_px) < 2.0
    pinhole = cv2.perspectiveTransform(np.array([[sticker.center_mm]]), scene.mat_to_image).reshape(2)
    assert math.dist(pinhole, sticker.center_px) > 50  # the lens moved it that far from the pinhole's place
    # The fiducials are where the true lens model says: ArUco finds them there.
    corners, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(
        cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and len(ids) == len(layout.fiducials)
    for marker, marker_id in zip(corners, ids.ravel(), strict=True):
        fiducial = layout.fiducial(int(marker_id))
        assert fiducial is not None
        expected = scene.camera.lens.distort(cv2.perspectiveTransform(
            np.array([fiducial.corners_mm()], np.float64), scene.mat_to_image).reshape(-1, 2))
        assert np.abs(marker.reshape(4, 2) - expected).max() < 1.5  # ArUco without sub-pixel refinement


def test_the_camera_comes_down_until_the_distorted_mat_fills_the_frame(layout: Layout) -> None:
    straight = scene_camera(layout.size_mm, READABLE)
    wide = scene_camera(layout.size_mm, dataclasses.replace(READABLE, hfov_deg=102.0, distortion=(-0.3, 0.1)))
    assert wide.position_mm[1] < straight.position_mm[1] / 1.5
    lens = wide.lens
    assert lens is not None
    top = lens.distort(cv2.perspectiveTransform(np.array([[[350.0, 0.0]]]), wide.homography).reshape(1, 2))[0]
    assert abs((1296 / 2 - top[1]) / (1296 / 2) - READABLE.fill) < 0.01


def test_a_lifted_cloth_is_seen_pushed_away_from_below_the_camera(layout: Layout) -> None:
    lift = lift_field(layout.size_mm, 10.0, seed=3)
    assert lift is not None
    xs, ys = np.meshgrid(np.linspace(0, 700, 71), np.linspace(0, 400, 41))
    assert lift.height(xs, ys).max() == pytest.approx(10.0, abs=0.3) and lift.height(xs, ys).min() >= 0
    card = PlacedCard("R07", (110.0, 60.0), 0.0, stickers=1)
    flat = render_table(layout, [card], READABLE)
    lifted = render_table(layout, [card], dataclasses.replace(READABLE, lift_mm=10.0, seed=3))
    before, after = flat.truth[0].stickers[0].center_px, lifted.truth[0].stickers[0].center_px
    centre = (1151.5, 647.5)
    assert math.dist(after, centre) > math.dist(before, centre)  # outward: parallax
    assert math.dist(_read(lifted.image)["MDL-R07"], after) < 2.0


def test_field_curvature_blurs_the_corners_and_focus_moves_it(layout: Layout) -> None:
    sigma = field_sigma((2304, 1296), 0.5, 3.0, 0.0)
    assert float(sigma(np.array([1151.5]), np.array([647.5]))[0]) == pytest.approx(0.5)
    assert float(sigma(np.array([0.0]), np.array([0.0]))[0]) == pytest.approx(math.hypot(0.5, 3.0), abs=0.01)
    pipeline = VisionPipeline(layout)

    def blur_at(options: SceneOptions, ids: tuple[int, ...]) -> float:
        image = render_table(layout, [], options).image
        pipeline.scan(image)
        measured = blur_px([edge_rises(image, s) for i, s in pipeline.fiducial_sightings.items() if i in ids])
        assert measured is not None
        return measured

    middle, corners = (5,), (0, 1, 2, 3)
    centred = dataclasses.replace(READABLE, blur_sigma=0.5, corner_blur=3.0, focus=0.0)
    assert blur_at(centred, corners) > blur_at(centred, middle) + 1.0
    turned = dataclasses.replace(centred, focus=0.5)  # the best focus moved outward: corners sharper, middle softer
    assert blur_at(turned, corners) < blur_at(centred, corners) - 0.8
    assert blur_at(turned, middle) > blur_at(centred, middle) + 0.8
