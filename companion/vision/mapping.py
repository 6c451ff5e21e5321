"""From frame pixels to mat millimetres on a cloth that does not lie flat.

One homography is fitted to the corners of every visible fiducial (least
squares, so no single marker dominates). Because the mat is a creased cloth,
the homography leaves residuals of a few millimetres that vary over the mat;
each fiducial measures the residual where it lies, and a point between them
gets the inverse-distance-weighted blend of those residuals (Shepard
interpolation). Exact at every fiducial, smooth in between, equal to the
plain homography when the cloth is flat.

With a lens model (:mod:`companion.vision.lens`) every frame point is first
undistorted, so the homography relates the ideal pinhole image to the mat
and a wide lens's barrel does not bend the mat between the fiducials; mat
points on their way back into the frame are distorted again. Without one,
frame pixels are taken as pinhole pixels, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.fiducials import FiducialSighting
from companion.vision.lens import LensModel

Point = tuple[float, float]

# Below this distance (mm) a fiducial's own residual dominates; it keeps the
# weights finite on top of a marker.
_SMOOTHING_MM = 20.0
# The fiducials used must span at least this share of the area all of them span:
# three along one edge of the mat fit their own corners exactly and the far side
# of the mat by wild extrapolation.
MIN_SPREAD = 0.05
# A fit whose fiducial corners land further off than this (mm) is not the mat:
# a misdetected marker or a layout that does not match the table.
MAX_RESIDUAL_MM = 10.0


@dataclass(frozen=True)
class FiducialPlace:
    """Where a fiducial lies on the mat, from the layout."""

    id: int
    center_mm: Point
    size_mm: float

    def corners_mm(self) -> np.ndarray:
        cx, cy = self.center_mm
        h = self.size_mm / 2.0
        return np.array([(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)])


class MappingError(ValueError):
    """The fiducials seen do not give a usable mapping (reason in the message)."""


class MatMapping:
    """Frame pixels <-> mat millimetres, through the lens, corrected locally between fiducials.

    :attr:`homography` maps undistorted (pinhole) pixels to mat millimetres;
    without a lens those are the frame's own pixels.
    """

    def __init__(
        self,
        sightings: Mapping[int, FiducialSighting],
        places: Mapping[int, FiducialPlace],
        lens: LensModel | None = None,
    ) -> None:
        ids = sorted(set(sightings) & set(places))
        if len(ids) < 3:
            raise MappingError(f"{len(ids)} fiducials usable, at least 3 needed")
        self.lens = lens
        spread = _hull_area([places[i].center_mm for i in ids])
        if spread < MIN_SPREAD * _hull_area([p.center_mm for p in places.values()]):
            raise MappingError(f"fiducials {ids} lie nearly in a line: they cannot place the rest of the mat")
        image = self._undistort(np.vstack([np.array(sightings[i].corners) for i in ids]))
        mat = np.vstack([places[i].corners_mm() for i in ids])
        homography, _ = cv2.findHomography(image, mat, 0)
        if homography is None or abs(np.linalg.det(homography)) < 1e-12:
            raise MappingError("fiducials are degenerate (in a line or on top of each other)")
        self.homography = homography
        self.inverse = np.linalg.inv(homography)
        residuals = (mat - _apply(homography, image)).reshape(len(ids), 4, 2)
        self.worst_residual_mm = float(np.max(np.linalg.norm(residuals, axis=2)))
        if self.worst_residual_mm > MAX_RESIDUAL_MM:
            raise MappingError(
                f"fiducials disagree by {self.worst_residual_mm:.0f} mm: misplaced marker or wrong layout"
            )
        self._anchors_mm = np.array([places[i].center_mm for i in ids], dtype=np.float64)
        self._offsets_mm = residuals.mean(axis=1)
        self.fiducial_ids = tuple(ids)

    def image_to_mat(self, points: Sequence[Point] | np.ndarray) -> np.ndarray:
        """(N, 2) frame pixels -> (N, 2) mat millimetres."""
        flat = _apply(self.homography, self._undistort(np.asarray(points, dtype=np.float64).reshape(-1, 2)))
        corrected: np.ndarray = flat + self._correction(flat)
        return corrected

    def mat_to_image(self, points: Sequence[Point] | np.ndarray) -> np.ndarray:
        """(N, 2) mat millimetres -> (N, 2) frame pixels (inverse of image_to_mat)."""
        target = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        flat = target.copy()
        for _ in range(4):  # fixed point of flat + correction(flat) = target; converges fast
            flat = target - self._correction(flat)
        pinhole = _apply(self.inverse, flat)
        return pinhole if self.lens is None else self.lens.distort(pinhole)

    def px_per_mm(self, at_mm: Point) -> float:
        """Image scale (pixels per millimetre) around a mat point."""
        return float(self._scales(np.asarray([at_mm], np.float64))[0])

    def px_per_mm_at_pixels(self, points: Sequence[Point] | np.ndarray) -> np.ndarray:
        """Image scale (pixels per millimetre) around each of (N, 2) frame pixels: (N,).

        Through a wide lens the scale falls by a third or more from the
        middle of the frame to its edges, so a sticker's expected size is
        asked where the sticker is.
        """
        return self._scales(self.image_to_mat(points))

    def pinhole_px_per_mm(self, at_mm: Point) -> float:
        """The scale around a mat point through the homography alone: perspective without the lens's distortion.

        Against :meth:`px_per_mm` it tells a tilted camera (the pinhole scale
        varies over the mat) from a barrel (it does not; the lens shrinks the
        edges).
        """
        steps = np.array([(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)]) + np.asarray(at_mm, np.float64)
        probes = _apply(self.inverse, steps)
        a, b = probes[1] - probes[0], probes[2] - probes[0]
        return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0]))) / 10.0

    def _scales(self, at_mm: np.ndarray) -> np.ndarray:
        steps = np.array([(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)])  # the point and 10 mm along each axis
        probes = self.mat_to_image((steps[:, None, :] + at_mm[None, :, :]).reshape(-1, 2)).reshape(3, len(at_mm), 2)
        a, b = probes[1] - probes[0], probes[2] - probes[0]
        scales: np.ndarray = np.sqrt(np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])) / 10.0
        return scales

    def _undistort(self, points: np.ndarray) -> np.ndarray:
        return points if self.lens is None else self.lens.undistort(points)

    def _correction(self, flat_mm: np.ndarray) -> np.ndarray:
        diff = flat_mm[:, None, :] - self._anchors_mm[None, :, :]
        weights = 1.0 / (np.sum(diff * diff, axis=2) + _SMOOTHING_MM**2)
        weights /= weights.sum(axis=1, keepdims=True)
        blended: np.ndarray = weights @ self._offsets_mm
        return blended


def _apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    if len(points) == 0:
        return points.reshape(0, 2)
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(-1, 2)


def _hull_area(points: Sequence[Point]) -> float:
    if len(points) < 3:
        return 0.0
    hull = cv2.convexHull(np.asarray(points, np.float32).reshape(-1, 1, 2))
    return float(cv2.contourArea(hull))
