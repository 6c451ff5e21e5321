"""The camera's lens: a pinhole with radial and tangential distortion (OpenCV's model).

Vision maps *points* through the lens, never whole frames: the corners of
the fiducials before the mapping is fitted, the corners of every sticker
read before they are placed on the mat, and mat points on their way back
into the frame (:class:`companion.vision.mapping.MatMapping`). Undistorting a
12 MP frame would cost tens of milliseconds per frame; a few hundred points
cost a fraction of one, and the QR decoder reads a sticker's few pixels
well enough through a lens's gentle local stretch.

The model is OpenCV's, so what ``cv2.calibrateCamera`` estimates is stored
as it is: a camera matrix (focal length and principal point, pixels) and the
coefficients ``(k1, k2, p1, p2, k3)`` on the radius normalised by the focal
length. A barrel lens (wide angle) has ``k1 < 0``.

Starting intrinsics for the two Camera Module 3 lenses come from their data
sheet (hardware/camera.md): the focal length over the 1.4 um pixel, and for
the wide lens the barrel term that bends its 99 degree pinhole field to the
102 degrees across the sheet gives. They are the
model when no calibration was taken, and the starting point calibration
refines.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError

Point = tuple[float, float]
Points = npt.NDArray[np.float64]
Row = tuple[float, float, float]
Matrix3 = tuple[Row, Row, Row]

# Iterations of OpenCV's undistortion (its default of 5 leaves a wide lens's
# corners a pixel off), then Newton steps on the projection (LensModel.undistort).
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-7)
_NEWTON_STEPS = 4
_TOLERANCE_PX = 0.001
CM3_SENSOR = (4608, 2592)
"""The Camera Module 3 sensor in pixels; every full-view mode sees the same field, scaled."""
CM3_PIXEL_MM = 0.0014


class LensError(CompanionError, ValueError):
    """A lens model or calibration file that cannot be used (the message names it)."""


@dataclass(frozen=True)
class LensSpec:
    """A lens as its data sheet describes it, for a sensor of ``sensor`` pixels."""

    name: str
    focal_mm: float
    distortion: tuple[float, ...]
    hfov_deg: float
    """The data sheet's horizontal field of view (for people; the focal length is what the model uses)."""
    sensor: tuple[int, int] = CM3_SENSOR
    pixel_mm: float = CM3_PIXEL_MM

    def model(self, resolution: tuple[int, int] | None = None) -> LensModel:
        """The starting model at ``resolution`` (a full-view mode of the sensor; default the sensor's)."""
        focal = self.focal_mm / self.pixel_mm
        return LensModel(self.sensor, _matrix(focal, self.sensor), self.distortion, self.name).scaled_to(
            resolution or self.sensor)


LENSES: Mapping[str, LensSpec] = {
    # 4.74 mm over 1.4 um: 3386 px at 4608 wide; the lens is close to rectilinear.
    "standard": LensSpec("standard", 4.74, (0.0, 0.0, 0.0, 0.0, 0.0), 66.0),
    # 2.75 mm: 1964 px. Its pinhole field would be 99 degrees across; the
    # sheet's 102 is barrel distortion, k1 = -0.033. (Its 120 degrees across
    # the diagonal would need more in the far corners, where the mat seldom
    # reaches; calibration measures the lens in hand.)
    "wide": LensSpec("wide", 2.75, (-0.033, 0.0, 0.0, 0.0, 0.0), 102.0),
}
"""The Camera Module 3 lenses: the starting intrinsics when no calibration was taken."""


@dataclass(frozen=True)
class LensModel:
    """Camera matrix and distortion for frames of ``resolution``; see the module docstring."""

    resolution: tuple[int, int]
    camera_matrix: Matrix3
    distortion: tuple[float, ...]
    name: str = "calibrated"

    def __post_init__(self) -> None:
        matrix = np.asarray(self.camera_matrix, np.float64)
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)) or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
            raise LensError(f"lens {self.name}: camera matrix {self.camera_matrix} is not a pinhole's")
        if len(self.distortion) not in (4, 5, 8) or not all(math.isfinite(k) for k in self.distortion):
            raise LensError(f"lens {self.name}: distortion {self.distortion} needs 4, 5 or 8 finite coefficients")
        if min(self.resolution) < 16:
            raise LensError(f"lens {self.name}: resolution {self.resolution} too small")

    @property
    def matrix(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.camera_matrix, np.float64)

    @property
    def coefficients(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.distortion, np.float64)

    @property
    def focal_px(self) -> float:
        return float(self.camera_matrix[0][0])

    @property
    def is_pinhole(self) -> bool:
        """No distortion at all: mapping points through it changes nothing."""
        return not any(self.distortion)

    def undistort(self, points: Sequence[Point] | Points) -> Points:
        """(N, 2) frame pixels -> (N, 2) pixels of the ideal pinhole camera with the same camera matrix.

        OpenCV's undistortion is a fixed-point iteration, which strays toward
        the edges of a strongly barrelled frame (k1 = -0.3: 40 px off near a
        corner). Its answer, and the point itself, start a few Newton steps on
        OpenCV's own projection (:meth:`distort`, whose Jacobian
        ``cv2.projectPoints`` gives); the closer of the two is kept.
        """
        flat = np.asarray(points, np.float64).reshape(-1, 1, 2)
        if self.is_pinhole or len(flat) == 0:
            return flat.reshape(-1, 2).copy()
        matrix = self.matrix
        target = flat.reshape(-1, 2)
        opencv = np.asarray(cv2.undistortPointsIter(flat, matrix, self.coefficients, np.eye(3), matrix,
                                                    _UNDISTORT_CRITERIA), np.float64).reshape(-1, 2)
        astray = np.linalg.norm(self.distort(opencv) - target, axis=1) > _TOLERANCE_PX
        if not astray.any():
            return opencv
        best, error = opencv[astray], np.full(int(astray.sum()), np.inf)
        for start in (opencv[astray], target[astray]):
            found, miss = self._newton(start, target[astray])
            better = miss < error
            best[better], error[better] = found[better], miss[better]
        opencv[astray] = best
        return opencv

    def _newton(self, start: Points, target: Points) -> tuple[Points, npt.NDArray[np.float64]]:
        """Refine pinhole pixels ``start`` until they distort onto ``target``; the result and its miss (px)."""
        matrix = self.matrix
        focal = np.array([matrix[0, 0], matrix[1, 1]])
        centre = np.array([matrix[0, 2], matrix[1, 2]])
        normalised = (start - centre) / focal
        zero = np.zeros(3)
        for _ in range(_NEWTON_STEPS):
            rays = np.column_stack([normalised, np.ones(len(normalised))])
            image, jacobian = cv2.projectPoints(rays, zero, zero, matrix, self.coefficients)
            residual = np.asarray(image, np.float64).reshape(-1, 2) - target
            # With the rotation and translation zero, moving the translation moves the ray: columns 3-4.
            blocks = np.asarray(jacobian, np.float64)[:, 3:5].reshape(-1, 2, 2)
            solvable = np.abs(np.linalg.det(blocks)) > 1e-9
            step = np.zeros_like(normalised)
            step[solvable] = np.linalg.solve(blocks[solvable], residual[solvable][..., None])[..., 0]
            normalised = normalised - step
        rays = np.column_stack([normalised, np.ones(len(normalised))])
        image, _ = cv2.projectPoints(rays, zero, zero, matrix, self.coefficients)
        miss = np.linalg.norm(np.asarray(image, np.float64).reshape(-1, 2) - target, axis=1)
        return normalised * focal + centre, np.where(np.isfinite(miss), miss, np.inf)

    def distort(self, points: Sequence[Point] | Points) -> Points:
        """(N, 2) ideal pinhole pixels -> (N, 2) frame pixels (inverse of :meth:`undistort`)."""
        flat = np.asarray(points, np.float64).reshape(-1, 2)
        if self.is_pinhole or len(flat) == 0:
            return flat.copy()
        matrix = self.matrix
        normalised = (flat - (matrix[0, 2], matrix[1, 2])) / (matrix[0, 0], matrix[1, 1])
        rays = np.column_stack([normalised, np.ones(len(flat))])
        zero = np.zeros(3)
        image, _ = cv2.projectPoints(rays, zero, zero, matrix, self.coefficients)
        return np.asarray(image, np.float64).reshape(-1, 2)

    def monotonic(self) -> bool:
        """Whether points further out stay further out all the way to the frame's corners (no fold)."""
        if self.is_pinhole:
            return True
        m = self.matrix
        width, height = self.resolution
        reach = max(math.hypot(x - m[0, 2], y - m[1, 2]) for x in (0, width) for y in (0, height)) / m[0, 0]
        k1, k2, _, _, k3 = (tuple(self.distortion) + (0.0,) * 5)[:5]
        r = np.linspace(0.0, reach * 3.0, 1200)  # a barrel lens shows rays from further out than its frame
        shown = r * (1 + k1 * r**2 + k2 * r**4 + k3 * r**6)
        beyond = np.nonzero(shown >= reach)[0]
        if len(beyond) == 0:
            return False  # the frame's corners would show no ray at all
        return bool(np.all(np.diff(shown[: beyond[0] + 1]) > 0))

    def scaled_to(self, resolution: tuple[int, int]) -> LensModel:
        """The same lens for frames of another size with the same field of view (a binned mode).

        The principal point follows pixel centres: (c + 0.5) * scale - 0.5.
        """
        if tuple(resolution) == tuple(self.resolution):
            return self
        width, height = self.resolution
        sx, sy = resolution[0] / width, resolution[1] / height
        if abs(sx - sy) > 0.01 * sx:
            raise LensError(f"lens {self.name}: made for {width}x{height}, cannot serve frames of "
                            f"{resolution[0]}x{resolution[1]} (another aspect ratio is another field of view)")
        m = self.matrix
        scaled: Matrix3 = ((m[0, 0] * sx, 0.0, (m[0, 2] + 0.5) * sx - 0.5),
                  (0.0, m[1, 1] * sy, (m[1, 2] + 0.5) * sy - 0.5),
                  (0.0, 0.0, 1.0))
        return LensModel((int(resolution[0]), int(resolution[1])), scaled, self.distortion, self.name)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "resolution": list(self.resolution),
                "camera_matrix": [[round(v, 4) for v in row] for row in self.camera_matrix],
                "distortion": [round(k, 6) for k in self.distortion]}

    @classmethod
    def from_dict(cls, document: Any, where: str = "lens") -> LensModel:
        """A model from :meth:`to_dict`'s document; LensError naming ``where`` otherwise."""
        try:
            resolution = tuple(int(v) for v in document["resolution"])
            matrix = tuple(tuple(float(v) for v in row) for row in document["camera_matrix"])
            distortion = tuple(float(k) for k in document["distortion"])
            name = str(document.get("name", "calibrated"))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise LensError(f"{where}: not a lens model ({type(error).__name__}: {error})") from None
        if len(resolution) != 2 or len(matrix) != 3 or any(len(row) != 3 for row in matrix):
            raise LensError(f"{where}: resolution needs 2 numbers and camera_matrix 3 rows of 3")
        return cls(resolution, matrix, distortion, name)  # type: ignore[arg-type]


@dataclass(frozen=True)
class LensFit:
    """A lens model fitted to points of known planar targets, and how well it fits."""

    lens: LensModel
    rms_px: float
    """Root mean square distance (px) between the points seen and the fitted model's projections."""
    start_rms_px: float
    """The same for the starting model (the fit must not be worse)."""
    points: int


# What a picture of the mat can tell: its points lie in one plane seen from
# one place (a sheet laid on the mat is the same plane again), which fixes the
# distortion but not the focal length and principal point; those stay at the
# starting model's, and the radial terms absorb a focal length a few per cent
# off (tests/vision/test_lens.py). Tangential terms stay zero: the Camera
# Module 3 lenses are centred.
FIT_FLAGS = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_FIX_FOCAL_LENGTH | cv2.CALIB_ZERO_TANGENT_DIST)
MIN_FIT_POINTS = 16
"""Four fiducials' corners: fewer cannot tell two radial terms from the pose."""
MIN_K3_POINTS = 32
"""From eight fiducials' corners on, the third radial term is fitted too: with the focal length
5% off, a rendered k1 = -0.3 lens then maps within 0.6 mm instead of 1.2 mm."""


def fit_lens(views: Sequence[tuple[Points, Points]], start: LensModel) -> LensFit | None:
    """Fit the radial distortion (k1, k2) to planar targets: per view, (N, 2) mm on the target and (N, 2) px.

    ``cv2.calibrateCamera`` does the work (see :data:`FIT_FLAGS`). None when
    there are too few points, or the fit folds the frame over itself (no real
    lens does) or fits worse than the start.
    """
    object_points = [np.column_stack([np.asarray(o, np.float32).reshape(-1, 2), np.zeros(len(o), np.float32)])
                     for o, _ in views]
    image_points = [np.asarray(i, np.float32).reshape(-1, 1, 2) for _, i in views]
    count = sum(len(o) for o in object_points)
    if count < MIN_FIT_POINTS:
        return None
    start_rms = _rms(object_points, image_points, start)
    try:
        rms, matrix, coefficients, _, _ = cv2.calibrateCamera(
            object_points, image_points, start.resolution, start.matrix.copy(), start.coefficients.copy(),
            flags=FIT_FLAGS if count >= MIN_K3_POINTS else FIT_FLAGS | cv2.CALIB_FIX_K3)
    except cv2.error:
        return None
    rows = tuple(tuple(float(v) for v in row) for row in matrix)
    fitted = LensModel(start.resolution, rows, tuple(float(k) for k in np.ravel(coefficients)[:5]),  # type: ignore[arg-type]
                       "calibrated")
    if not math.isfinite(rms) or rms > start_rms + 1e-6 or not fitted.monotonic():
        return None
    return LensFit(fitted, float(rms), float(start_rms), count)


def _rms(object_points: list[np.ndarray], image_points: list[np.ndarray], lens: LensModel) -> float:
    """Reprojection error of ``lens`` with the best pose per view (solvePnP)."""
    errors = []
    for obj, img in zip(object_points, image_points, strict=True):
        ok, rvec, tvec = cv2.solvePnP(obj, img, lens.matrix, lens.coefficients)
        if not ok:
            return math.inf
        projected, _ = cv2.projectPoints(obj, rvec, tvec, lens.matrix, lens.coefficients)
        errors.append(np.sum((projected.reshape(-1, 2) - img.reshape(-1, 2)) ** 2, axis=1))
    return float(np.sqrt(np.mean(np.concatenate(errors))))


def nominal_lens(name: str, resolution: tuple[int, int] | None = None) -> LensModel:
    """The starting model of a Camera Module 3 lens (``standard`` or ``wide``) at ``resolution``."""
    try:
        spec = LENSES[name]
    except KeyError:
        raise LensError(f"lens {name!r}: unknown (known: {', '.join(LENSES)})") from None
    return spec.model(resolution)


def load_lens(path: str | Path) -> LensModel:
    """The lens model stored in a calibration file (what ``companion calibrate`` writes).

    LensError (one line naming the file) for a file that cannot be read or
    holds no usable lens model: a calibration asked for must not be
    silently ignored.
    """
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LensError(f"{path}: no such calibration file") from None
    except (OSError, ValueError) as error:
        raise LensError(f"{path}: not a calibration file ({error})") from None
    lens = document.get("lens") if isinstance(document, dict) else None
    if not isinstance(lens, dict) or lens.get("model") is None:
        raise LensError(f"{path}: holds no lens model (calibrate again: companion calibrate --image FRAME --out FILE)")
    return LensModel.from_dict(lens["model"], f"{path}: lens.model")


def lens_for_frames(lens: LensModel | None, shape: tuple[int, ...]) -> LensModel | None:
    """``lens`` scaled to frames of ``shape`` (rows, columns, ...); LensError when it cannot serve them."""
    if lens is None:
        return None
    return lens.scaled_to((int(shape[1]), int(shape[0])))


def _matrix(focal: float, resolution: tuple[int, int]) -> Matrix3:
    width, height = resolution
    return ((focal, 0.0, (width - 1) / 2.0), (0.0, focal, (height - 1) / 2.0), (0.0, 0.0, 1.0))
