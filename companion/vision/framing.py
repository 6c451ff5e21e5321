"""Where a camera above the mat must hang to frame it, and what it sees of the mat's plane.

A pinhole camera over the mat's centre, with its lens's distortion: the
geometry both the simulator (:mod:`companion.sim.optics`, which renders what
such a camera sees) and the sticker sizing (:mod:`companion.markers.sizing`,
which asks how many pixels a millimetre of the mat gets) need. It lives in
vision, which both may use; neither reaches into the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.vision.lens import LensModel

Point = tuple[float, float]
Matrix = npt.NDArray[np.float64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class SceneCamera:
    """A pinhole camera above the mat: intrinsics, pose, and its lens's distortion."""

    intrinsics: Matrix
    rotation: Matrix
    translation: Floats
    mat_centre: Point
    """Mat mm of the world origin (the mat's centre)."""
    resolution: tuple[int, int]
    distortion: tuple[float, ...] = ()

    @property
    def homography(self) -> Matrix:
        """Mat mm -> pinhole frame pixels (before the lens's distortion)."""
        extrinsic = np.column_stack([self.rotation[:, 0], self.rotation[:, 1], self.translation])
        cx, cy = self.mat_centre
        centre = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]])
        homography = self.intrinsics @ extrinsic @ centre
        normalised: Matrix = homography / homography[2, 2]
        return normalised

    @property
    def position_mm(self) -> tuple[Point, float]:
        """Where the camera is: the mat point below it (mm) and its height above the table (mm)."""
        centre = -self.rotation.T @ self.translation
        return (float(centre[0]) + self.mat_centre[0], float(centre[1]) + self.mat_centre[1]), float(-centre[2])

    @property
    def lens(self) -> LensModel | None:
        """The true lens model of this camera (None: an ideal pinhole)."""
        if not any(self.distortion):
            return None
        matrix = tuple(tuple(float(v) for v in row) for row in self.intrinsics)
        coefficients = tuple(self.distortion) + (0.0,) * (5 - len(self.distortion))
        return LensModel(self.resolution, matrix, coefficients, "simulated")  # type: ignore[arg-type]

    def distort(self, pinhole_px: Floats) -> Floats:
        lens = self.lens
        return pinhole_px if lens is None else lens.distort(pinhole_px)

    def canvas_margin(self) -> tuple[int, int]:
        """Pixels the pinhole canvas must reach beyond the frame on each side for a barrel lens."""
        lens = self.lens
        if lens is None:
            return (0, 0)
        width, height = self.resolution
        along_x = np.linspace(0, width - 1, 64)
        along_y = np.linspace(0, height - 1, 36)
        border = np.vstack([np.column_stack([along_x, np.zeros_like(along_x)]),
                            np.column_stack([along_x, np.full_like(along_x, height - 1)]),
                            np.column_stack([np.zeros_like(along_y), along_y]),
                            np.column_stack([np.full_like(along_y, width - 1), along_y])])
        pinhole = lens.undistort(border)
        over_x = max(0.0, float(-pinhole[:, 0].min()), float(pinhole[:, 0].max() - (width - 1)))
        over_y = max(0.0, float(-pinhole[:, 1].min()), float(pinhole[:, 1].max() - (height - 1)))
        return math.ceil(over_x) + 2, math.ceil(over_y) + 2


def place_camera(size_mm: Point, resolution: tuple[int, int], hfov_deg: float, fill: float,
                 rotation: Matrix, shift_px: Point, distortion: tuple[float, ...]) -> SceneCamera:
    """The camera at the height where the untilted mat fills ``fill`` of the frame's tighter dimension.

    With a barrel lens the mat shows smaller than through a pinhole at the
    same height, so the camera comes down until it fills the frame again,
    as a person mounting it would.
    """
    width, height = resolution
    focal = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
    intrinsics = np.array([[focal, 0.0, (width - 1) / 2 + shift_px[0]],
                           [0.0, focal, (height - 1) / 2 + shift_px[1]],
                           [0.0, 0.0, 1.0]])
    mat_w, mat_h = size_mm
    distance = max(_distance_for(mat_w / 2, fill * width / 2, focal, distortion),
                   _distance_for(mat_h / 2, fill * height / 2, focal, distortion))
    return SceneCamera(intrinsics, rotation, np.array([0.0, 0.0, distance]), (mat_w / 2, mat_h / 2),
                       resolution, tuple(distortion))


def _distance_for(half_mm: float, half_px: float, focal: float, distortion: tuple[float, ...]) -> float:
    """Camera height at which a mat point ``half_mm`` off-centre shows ``half_px`` off-centre."""
    pinhole = focal * half_mm / half_px
    if not any(distortion):
        return pinhole
    k1, k2, _, _, k3 = (tuple(distortion) + (0.0,) * 5)[:5]

    def shown_px(distance: float) -> float:
        r = half_mm / distance
        return focal * r * (1 + k1 * r**2 + k2 * r**4 + k3 * r**6)

    low, high = pinhole * 0.2, pinhole * 5.0  # shown_px falls as the camera rises
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if shown_px(middle) > half_px else (low, middle)
    return high
