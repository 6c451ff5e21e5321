"""Focus across the mat: blur per zone, and the sweep that makes the softest zone sharpest."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from companion.app.calibrate import MAX_BLUR_PX, calibrate, worst_zone_blur
from companion.app.camera import FocusingCamera
from companion.app.focus import SWEEP_MAX_POSITIONS, FocusSweep, sweep_focus, zone_blur
from companion.sim.scene import SceneOptions
from companion.vision.layout import Layout, load_layout

WEBCAM_LAYOUT = Path(__file__).resolve().parents[2] / "calibration/layouts/mandala-playmat-webcam.json"
OPTIONS = SceneOptions(resolution=(1920, 1080), blur_sigma=0.5, noise_sigma=1.0, seed=2)


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout(WEBCAM_LAYOUT)


def test_zone_blur_comes_from_the_nearest_fiducials(layout: Layout) -> None:
    corners = {f.id: (3.0 if f.id in (0, 1, 2, 3) else 1.0) for f in layout.fiducials}
    blur = zone_blur(layout, corners)
    assert set(blur) == set(layout.zones)
    assert blur["p2.river.1"] > 2.0 > blur["deck"]  # a corner zone against the middle of the mat
    assert zone_blur(layout, {}) == {}


def test_the_sweep_trades_the_middle_for_the_corners(layout: Layout) -> None:
    """A lens with field curvature, focused for the middle by its autofocus: corners at 3.5 px."""
    camera = FocusingCamera(layout, [], OPTIONS, corner_blur=3.5)
    measure = worst_zone_blur(layout)
    before = measure(camera.read().image)  # type: ignore[union-attr]
    # The sweep's clock counts looks, not wall seconds: on a loaded machine the 20 s ran out mid-sweep.
    looks = itertools.count()
    sweep = sweep_focus(camera, measure, clock=lambda: next(looks) * 0.5)
    assert sweep.best is not None and sweep.worst_blur is not None
    assert 0.25 <= camera.focus <= 0.85  # between the middle and the corners
    assert before is not None and sweep.worst_blur < before - 0.5
    assert len(sweep.tried) <= SWEEP_MAX_POSITIONS and camera.lens_position == sweep.best
    calibration, _ = calibrate(camera.read().image, layout, focus_sweep=sweep,  # type: ignore[union-attr]
                               lens_position=camera.lens_position)
    document = calibration.to_dict()
    assert document["focus"]["sweep"]["best"] == round(sweep.best, 3)
    assert max(document["focus"]["zones"].values()) < MAX_BLUR_PX
    assert "soft-zones" not in [p.code for p in calibration.problems]


def test_zones_that_stay_soft_are_named(layout: Layout) -> None:
    camera = FocusingCamera(layout, [], OPTIONS, corner_blur=3.5)  # the autofocus left it on the middle
    calibration, _ = calibrate(camera.read().image, layout)  # type: ignore[union-attr]
    problem = next(p for p in calibration.problems if p.code == "soft-zones")
    assert calibration.soft_zones and calibration.soft_zones[0] in problem.message
    assert set(calibration.soft_zones) <= set(layout.zones) and "deck" not in calibration.soft_zones
    assert problem.short == "Refocus for corners"


def test_a_camera_without_a_movable_lens_is_left_alone() -> None:
    class Fixed:
        lens_position = None

        def lens_range(self) -> tuple[float, float] | None:
            return None

        def move_lens(self, position: float) -> None:
            raise AssertionError("no lens to move")

        def read(self) -> object:
            return np.zeros((8, 8), np.uint8)

    assert sweep_focus(Fixed(), lambda image: 1.0) == FocusSweep((), None, None)


def test_the_sweep_is_bounded_when_nothing_can_be_measured(layout: Layout) -> None:
    camera = FocusingCamera(layout, [], OPTIONS, corner_blur=1.0)
    sweep = sweep_focus(camera, lambda image: None)
    assert sweep.best == pytest.approx(camera.centre_dpt) and len(sweep.tried) <= SWEEP_MAX_POSITIONS
