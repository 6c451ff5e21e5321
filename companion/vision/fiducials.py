"""Playmat fiducials: ArUco DICT_4X4_50 found at low resolution, refined at full.

Detection on a strided thumbnail costs a few milliseconds even on 12 MP
frames; the corners are then refined on small full-resolution crops, so the
mapping keeps sub-pixel accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.frames import Thumbnails, grey_crop, thumbnail
from companion.vision.observation import Region

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]

DICTIONARY = cv2.aruco.DICT_4X4_50


@dataclass(frozen=True)
class FiducialSighting:
    """Where one fiducial's corners are in the frame (ArUco order: TL, TR, BR, BL)."""

    id: int
    corners: Corners

    @property
    def center(self) -> Point:
        return (
            sum(x for x, _ in self.corners) / 4.0,
            sum(y for _, y in self.corners) / 4.0,
        )

    @property
    def side_px(self) -> float:
        c = self.corners
        return sum(math.dist(c[i - 1], c[i]) for i in range(4)) / 4.0

    def moved_from(self, other: FiducialSighting) -> float:
        """Largest corner displacement between two sightings, in pixels."""
        a, b = np.array(self.corners), np.array(other.corners)
        return float(np.max(np.linalg.norm(a - b, axis=1)))

    def bounds(self, margin: float) -> Region:
        pts = np.array(self.corners)
        x0, y0 = pts.min(axis=0) - margin
        x1, y1 = pts.max(axis=0) + margin
        return Region(int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1)


class FiducialDetector:
    """Finds the layout's fiducials; ids that the layout does not name are ignored."""

    def __init__(self, ids: Iterable[int], cell_px: float = 6.0) -> None:
        """``cell_px``: expected side of one marker cell in the thumbnails searched."""
        self.ids = frozenset(ids)
        self._side_px = 6.0 * cell_px
        # One adaptive-threshold window matched to the cell size instead of
        # OpenCV's sweep of eight: 5x faster, and lighting gradients are still
        # handled because the threshold stays local. ``thorough`` sweeps.
        window = 2 * max(1, int(cell_px * 0.75)) + 1
        self._fast_params = _parameters(window, window, 10)
        self._fast = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), self._fast_params)
        self._thorough = _detector(3, max(23, 4 * window + 1), 6)

    def detect(
        self, frame: np.ndarray, step: int, roi: Region | None = None, *, thorough: bool = False,
        thumbs: Thumbnails | None = None,
    ) -> dict[int, FiducialSighting]:
        """Fiducials in ``frame`` (or only inside ``roi``), searched every ``step`` pixels.

        ``thumbs``: the frame's thumbnails, shared with the other stages (a search of the whole frame).
        """
        x0, y0, view = _roi_view(frame, roi)
        small = thumbs.at(step) if roi is None and thumbs is not None else thumbnail(view, step)
        if min(small.shape[:2]) < 12:
            return {}
        detector = self._thorough if thorough else self._sized(max(small.shape[:2]))
        corners, ids, _ = detector.detectMarkers(small)
        found: dict[int, FiducialSighting] = {}
        if ids is None:
            return found
        for marker_id, marker_corners in zip((int(i) for i in ids.ravel()), corners, strict=True):
            if marker_id not in self.ids or marker_id in found:
                continue  # a foreign marker, or a second copy we cannot tell apart
            coarse = marker_corners.reshape(4, 2).astype(np.float64) * step + (x0, y0)
            found[marker_id] = self._sighting(frame, marker_id, coarse, step)
        return found

    def _sighting(self, frame: np.ndarray, marker_id: int, coarse: np.ndarray, step: int) -> FiducialSighting:
        """The marker's sub-pixel corners, from its corners in the thumbnail (``coarse``, frame pixels).

        The thumbnail's corners are up to a step off, and the refinement's
        window must stay inside one of the marker's cells. A marker much
        smaller than the step was chosen for (a wide lens's edges: at 1080p,
        k1 = -0.3, 36 px against the middle's 66, at a step of 3) has cells
        too small for a window that reaches a corner a step away: the corner
        stayed where the thumbnail put it, 3 px off, and three such markers
        along one edge tilted the whole mapping (cards 11 mm off on the far
        side; docs/benchmarks.md, "6-table run on main"). Such a marker is
        found again around where it is, at a step its cells allow.
        """
        half = _window_px(coarse, step)
        if half < step:
            finer = max(1, half - 1)
            side = _side_px(coarse)
            around = Region(int(coarse[:, 0].min() - side), int(coarse[:, 1].min() - side),
                            int(3 * side) + 1, int(3 * side) + 1)
            again = self.detect(frame, finer, around, thorough=True).get(marker_id)
            if again is not None:
                return again
        return FiducialSighting(marker_id, _refine(frame, coarse, step))

    def _sized(self, longest_px: int) -> cv2.aruco.ArucoDetector:
        """The fast detector, told how large a marker may be in an image this size.

        ArUco's size bounds are fractions of the image's longest side. Without
        them every finder pattern of every QR sticker on the table is a
        candidate square to decode; with them the search costs a third less.
        The bounds are wide (0.4x to 2.5x the expected side) because the
        expectation is a guess until the mat is found; a miss falls back to
        the thorough sweep, which has none.
        """
        perimeter = 4.0 * self._side_px / longest_px
        low, high = 0.4 * perimeter, min(2.5 * perimeter, 4.0)
        params = self._fast_params
        if (params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate) != (low, high):
            params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate = low, high
            self._fast.setDetectorParameters(params)
        return self._fast


def _detector(window_min: int, window_max: int, window_step: int) -> cv2.aruco.ArucoDetector:
    params = _parameters(window_min, window_max, window_step)
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def _parameters(window_min: int, window_max: int, window_step: int) -> cv2.aruco.DetectorParameters:
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin = window_min
    params.adaptiveThreshWinSizeMax = window_max
    params.adaptiveThreshWinSizeStep = window_step
    # Corners are refined on the full-resolution frame instead.
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return params


def _roi_view(frame: np.ndarray, roi: Region | None) -> tuple[int, int, np.ndarray]:
    if roi is None:
        return 0, 0, frame
    height, width = frame.shape[:2]
    x0, y0 = max(0, roi.x), max(0, roi.y)
    x1, y1 = min(width, roi.x + roi.width), min(height, roi.y + roi.height)
    return x0, y0, frame[y0:y1, x0:x1]


def _refine(frame: np.ndarray, coarse: np.ndarray, step: int) -> Corners:
    """Sub-pixel corners from a grey crop around the marker at full resolution."""
    # Plain arithmetic on four corners: numpy's per-call overhead was most of this function's
    # time (0.2 ms a marker, 2 ms of a 1080p cold scan's ten).
    pts = [(float(x), float(y)) for x, y in coarse.tolist()]
    half = _window_px(coarse, step)
    margin = half + 2 * step + 2
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    height, width = frame.shape[:2]
    x0, y0 = max(0, int(min(xs) - margin)), max(0, int(min(ys) - margin))
    x1, y1 = min(width, int(max(xs) + margin)), min(height, int(max(ys) + margin))
    grey = grey_crop(frame, x0, y0, x1, y1)
    points = np.array([(x - x0, y - y0) for x, y in pts], np.float32).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.02)
    start = points.reshape(4, 2).tolist()
    try:
        refined = cv2.cornerSubPix(grey, points.copy(), (half, half), (-1, -1), criteria).reshape(4, 2).tolist()
    except cv2.error:
        refined = start  # a corner too close to the frame edge: keep the coarse one
    if max(math.dist(a, b) for a, b in zip(refined, start, strict=True)) > 2 * step + half:
        refined = start  # refinement ran off to another corner
    return tuple((x + x0, y + y0) for x, y in refined)  # type: ignore[return-value]


def _side_px(corners: np.ndarray) -> float:
    # Plain arithmetic on four points: numpy's per-call overhead costs more than the sums.
    pts = [(float(x), float(y)) for x, y in corners.tolist()]
    return sum(math.dist(pts[i - 1], pts[i]) for i in range(len(pts))) / len(pts)


def _window_px(coarse: np.ndarray, step: int) -> int:
    """Half the corner refinement's window (px) for a marker found at ``step``."""
    # The window must stay inside one marker cell (a sixth of the side) and
    # cover the thumbnail's sampling error (one step).
    return int(max(2, min(_side_px(coarse) / 12.0, 2 * step + 2)))
