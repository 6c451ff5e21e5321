"""The lens model: points through OpenCV's distortion and back, the fit to the mat, the calibration file."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.sim.scene import PlacedCard, SceneOptions, render_table, scene_camera
from companion.vision.layout import Layout, load_layout
from companion.vision.lens import (
    LENSES,
    LensError,
    LensModel,
    fit_lens,
    load_lens,
    nominal_lens,
)
from companion.vision.mapping import FiducialPlace, MappingError, MatMapping
from companion.vision.pipeline import VisionPipeline

WIDE = (-0.3, 0.1, 0.0, 0.0, 0.0)


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


def barrel(resolution: tuple[int, int] = (4608, 2592)) -> LensModel:
    focal = (resolution[0] / 2) / math.tan(math.radians(51))
    width, height = resolution
    return LensModel(resolution, ((focal, 0.0, (width - 1) / 2), (0.0, focal, (height - 1) / 2), (0.0, 0.0, 1.0)),
                     WIDE, "test")


def test_points_go_through_the_lens_and_back() -> None:
    lens = barrel()
    xs, ys = np.meshgrid(np.linspace(0, 4607, 17), np.linspace(0, 2591, 9))
    frame = np.column_stack([xs.ravel(), ys.ravel()])
    assert np.abs(lens.distort(lens.undistort(frame)) - frame).max() < 1e-3
    corner = lens.undistort([(0.0, 0.0)])[0]
    assert corner[0] < -100 and corner[1] < -50  # a barrel lens shows rays from beyond the pinhole frame


def test_the_camera_module_3_lenses() -> None:
    standard, wide = nominal_lens("standard"), nominal_lens("wide")
    assert standard.is_pinhole and not wide.is_pinhole and wide.distortion[0] < 0
    assert round(standard.focal_px) == 3386 and round(wide.focal_px) == 1964  # 4.74 and 2.75 mm over 1.4 um
    binned = wide.scaled_to((2304, 1296))
    assert binned.focal_px == pytest.approx(982.14, abs=0.01)
    assert binned.camera_matrix[0][2] == pytest.approx(1151.5)  # the centre of 2304 pixel centres
    with pytest.raises(LensError, match="another aspect ratio"):
        wide.scaled_to((640, 480))
    with pytest.raises(LensError, match="unknown"):
        nominal_lens("fisheye")
    assert set(LENSES) == {"standard", "wide"}


def test_a_lens_that_folds_the_frame_is_no_lens() -> None:
    folding = LensModel((4608, 2592), barrel().camera_matrix, (-0.3, 0.0, 0.0, 0.0, 0.0))
    assert barrel().monotonic() and not folding.monotonic()


def _fiducial_views(layout: Layout, lens: LensModel, tilt_deg: float = 5.0) -> tuple[np.ndarray, np.ndarray]:
    mat = np.vstack([np.array(f.corners_mm()) for f in layout.fiducials])
    centred = np.column_stack([mat - np.array(layout.size_mm) / 2, np.zeros(len(mat))])
    image, _ = cv2.projectPoints(centred, np.array([math.radians(tilt_deg), 0.0, 0.0]), np.array([0.0, 0.0, 300.0]),
                                 lens.matrix, lens.coefficients)
    return mat, image.reshape(-1, 2) + np.random.default_rng(0).normal(0, 0.15, (len(mat), 2))


def test_the_fit_to_the_fiducials_maps_the_whole_mat_flat(layout: Layout) -> None:
    """A start 5% off in focal length: the radial terms absorb it, the mat maps within a tenth of a mm."""
    truth = barrel()
    mat, image = _fiducial_views(layout, truth)
    start = LensModel(truth.resolution, ((truth.focal_px * 1.05, 0.0, 2303.5), (0.0, truth.focal_px * 1.05, 1295.5),
                                         (0.0, 0.0, 1.0)), (0.0,) * 5, "start")
    fit = fit_lens([(mat, image)], start)
    assert fit is not None and fit.rms_px < 0.5 < fit.start_rms_px and fit.points == 44
    xs, ys = np.meshgrid(np.linspace(20, 680, 23), np.linspace(20, 380, 13))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    centred = np.column_stack([grid - np.array(layout.size_mm) / 2, np.zeros(len(grid))])
    seen, _ = cv2.projectPoints(centred, np.array([math.radians(5), 0.0, 0.0]), np.array([0.0, 0.0, 300.0]),
                                truth.matrix, truth.coefficients)
    homography, _ = cv2.findHomography(fit.lens.undistort(image), mat, 0)
    mapped = cv2.perspectiveTransform(fit.lens.undistort(seen.reshape(-1, 2)).reshape(-1, 1, 2), homography)
    assert np.linalg.norm(mapped.reshape(-1, 2) - grid, axis=1).max() < 0.3
    assert fit_lens([(mat[:12], image[:12])], start) is None  # three fiducials cannot tell


def test_mapping_through_the_lens_on_a_wide_lens_frame(layout: Layout) -> None:
    """Rendered through a k1 = -0.3 lens: no board without the lens model (the fiducials disagree), exact with it."""
    card = PlacedCard("R07", layout.zone_center("p2.river.4"), 30.0)
    options = SceneOptions(resolution=(2304, 1296), sticker_mm=32.0, hfov_deg=102.0, distortion=WIDE)
    scene = render_table(layout, [card], options)
    assert scene.camera is not None and scene.camera.lens is not None
    wide = dataclasses.replace(layout, sticker_mm=32.0)
    plain = VisionPipeline(wide).scan(scene.image)
    assert not plain.board.found or plain.cards[0].zone != "p2.river.4" or math.dist(
        plain.cards[0].center_mm, card.center_mm) > 5.0
    through = VisionPipeline(wide, lens=scene.camera.lens).scan(scene.image)
    assert through.board.found and [c.card_id for c in through.cards] == ["R07"]
    assert through.cards[0].zone == "p2.river.4"
    assert math.dist(through.cards[0].center_mm, card.center_mm) < 1.5
    mapping = VisionPipeline(wide, lens=scene.camera.lens)
    mapping.scan(scene.image)
    assert mapping.mapping is not None
    points = np.array([(100.0, 50.0), (650.0, 380.0), (350.0, 200.0)])
    assert np.abs(mapping.mapping.image_to_mat(mapping.mapping.mat_to_image(points)) - points).max() < 0.01


def test_stickers_are_decoded_at_their_own_size_across_a_wide_lens_frame(layout: Layout) -> None:
    """A k1 = -0.3 barrel shrinks the edges' modules a third under the middle's 3 px: each crop is decoded
    with the passes for the modules it holds (here, with the middle's scale, two cards went unread)."""
    webcam = dataclasses.replace(layout, sticker_mm=32.0)
    zones = [name for name in webcam.zones if ".river." in name or ".field." in name]
    cards = [PlacedCard(f"{'ROYGPK'[i % 6]}{i // 6 + 1:02d}", webcam.zone_center(zone), 135.0)
             for i, zone in enumerate(zones)]
    options = SceneOptions(resolution=(1920, 1080), hfov_deg=102.0, distortion=WIDE, blur_sigma=1.0,
                           jpeg_quality=75, noise_sigma=2.0)
    scene = render_table(webcam, cards, options)
    assert scene.camera is not None and scene.camera.lens is not None
    pipeline = VisionPipeline(webcam, lens=scene.camera.lens)
    observation = pipeline.scan(scene.image)
    assert pipeline.mapping is not None
    middle, edge = pipeline.mapping.px_per_mm_at_pixels([(960.0, 540.0), (300.0, 200.0)])
    at_middle = pipeline.mapping.image_to_mat([(960.0, 540.0)])[0]
    assert middle == pytest.approx(pipeline.mapping.px_per_mm((at_middle[0], at_middle[1])))
    assert edge < 0.8 * middle
    assert {c.card_id for c in observation.cards} == {c.card_id for c in cards}


def test_fiducials_in_a_line_place_nothing(layout: Layout) -> None:
    places = {f.id: FiducialPlace(f.id, f.center_mm, f.size_mm) for f in layout.fiducials}
    homography = scene_camera(layout.size_mm).homography
    from companion.vision.fiducials import FiducialSighting

    def seen(fid: int) -> FiducialSighting:
        corners = cv2.perspectiveTransform(places[fid].corners_mm().reshape(-1, 1, 2), homography).reshape(-1, 2)
        return FiducialSighting(fid, tuple(map(tuple, corners)))  # type: ignore[arg-type]

    left_edge = [3, 4, 10]  # (16, 384), (16, 200), (16, 280)
    with pytest.raises(MappingError, match="nearly in a line"):
        MatMapping({i: seen(i) for i in left_edge}, places)
    assert MatMapping({i: seen(i) for i in (0, 3, 5)}, places).worst_residual_mm < 0.1


def test_the_calibration_file(tmp_path: Path) -> None:
    lens = barrel()
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"format": "mandala-calibration/1", "lens": {"model": lens.to_dict()}}))
    loaded = load_lens(path)
    assert loaded.distortion == pytest.approx(lens.distortion) and loaded.resolution == lens.resolution
    with pytest.raises(LensError, match="no such calibration file"):
        load_lens(tmp_path / "missing.json")
    (tmp_path / "old.json").write_text('{"format": "mandala-calibration/1", "focus": {}}')
    with pytest.raises(LensError, match=r"old\.json: holds no lens model"):
        load_lens(tmp_path / "old.json")
    (tmp_path / "bad.json").write_text('{"lens": {"model": {"resolution": [1, 2], "camera_matrix": 3}}}')
    with pytest.raises(LensError, match=r"bad\.json: lens\.model: not a lens model"):
        load_lens(tmp_path / "bad.json")
    (tmp_path / "torn.json").write_text('{"lens": ')
    with pytest.raises(LensError, match=r"torn\.json: not a calibration file"):
        load_lens(tmp_path / "torn.json")


def test_a_lens_for_other_frames_is_an_answer_not_a_crash(layout: Layout) -> None:
    frame = render_table(layout, [], SceneOptions(resolution=(640, 480))).image
    observation = VisionPipeline(layout, lens=nominal_lens("wide")).scan(frame)
    assert not observation.board.found and "another aspect ratio" in (observation.board.reason or "")
