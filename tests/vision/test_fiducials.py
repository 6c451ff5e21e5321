"""Fiducial detection: corners to a fraction of a pixel, also where markers are far smaller than expected."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.sim.optics import cloth_of, to_frame
from companion.sim.scene import SceneOptions, render_table
from companion.vision.fiducials import DICTIONARY, FiducialDetector
from companion.vision.layout import Layout
from companion.vision.mapping import FiducialPlace
from companion.vision.pipeline import VisionPipeline

SUPERSAMPLE = 10


def _marker_frame(side_px: int, x: float, y: float, marker: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """A light frame with one dark marker of ``side_px`` whose top-left corner lies at (x, y); its true corners."""
    up = SUPERSAMPLE
    width, height = 240, 200
    big = np.full((height * up, width * up), 235, np.uint8)
    side = side_px * up
    image = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), marker, side)
    left, top = round(x * up + up / 2), round(y * up + up / 2)
    big[top:top + side, left:left + side] = np.where(image > 127, 235, 25)
    # Pixel centres at integers: a frame pixel covers [j - 0.5, j + 0.5).
    small = cv2.GaussianBlur(cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA), (0, 0), 0.7)
    x0, y0 = (left - up / 2) / up, (top - up / 2) / up
    corners = np.array([(x0, y0), (x0 + side_px, y0), (x0 + side_px, y0 + side_px), (x0, y0 + side_px)])
    return cv2.cvtColor(small, cv2.COLOR_GRAY2BGR), corners


@pytest.mark.parametrize("x", [80.0, 80.3, 80.6, 81.2, 81.5, 82.1])
def test_a_marker_much_smaller_than_the_step_expects_keeps_sub_pixel_corners(x: float) -> None:
    # 36 px at a step of 3 (the 1080p frame's step, chosen for 52 px markers): what a wide lens's edges
    # leave. Found in the thumbnail, its corners were up to 3.4 px off and the refinement's window, kept
    # inside one 6 px cell, could not reach them.
    frame, truth = _marker_frame(36, x, 70.0 + 2 * (x - 80.0))
    seen = FiducialDetector([7], cell_px=52 / 3 / 6).detect(frame, 3)
    assert 7 in seen
    assert np.linalg.norm(np.array(seen[7].corners) - truth, axis=1).max() < 1.0


def test_markers_at_a_wide_lens_edges_keep_sub_pixel_corners(layout: Layout) -> None:
    # k1 = -0.3 (102 degrees) tilted 8 degrees: the far side's markers are half the middle's size. Three
    # of them 3 px off along one edge put the mapping 20 mm off across the mat.
    options = SceneOptions(resolution=(1920, 1080), tilt_deg=8.0, tilt_axis_deg=90.0, hfov_deg=102.0,
                           distortion=(-0.3, 0.1, 0.0, 0.0, 0.0), blur_sigma=0.5)
    scene = render_table(layout, [], options)
    assert scene.camera is not None
    cloth = cloth_of(scene.camera, layout.size_mm, options.crease, options.lift_mm, options.seed)
    pipeline = VisionPipeline(layout, lens=scene.camera.lens)
    pipeline.scan(scene.image)
    seen = pipeline.fiducial_sightings
    assert len(seen) >= 4
    for fid in layout.fiducials:
        if fid.id in seen:
            place = FiducialPlace(fid.id, (float(fid.center_mm[0]), float(fid.center_mm[1])), float(fid.size_mm))
            truth = to_frame(scene.camera, cloth, place.corners_mm())
            assert np.linalg.norm(np.array(seen[fid.id].corners) - truth, axis=1).max() < 1.0, fid.id
