"""How sharp the frame is where it matters: blur and motion smear measured on the fiducials' edges.

The fiducials are the one thing on the table known to be sharp-edged,
black on white, and fixed to the mat. Across each of a marker's outer
edges the grey level rises from ink to mat over a width set by the blur:
the 10-90% rise of a Gaussian blur of sigma s is 2.563 s. Neither the
light level nor the resolution changes that measure, as they change a
variance of the Laplacian.

Defocus widens all four edges alike. Motion smear (a bumped table, a
swaying camera arm) widens the edges across the motion and leaves those
along it as they were; a marker's two edge directions give the smear's
length whatever its direction, against the marker's own rise when the frame
was sharp (:class:`SmearMeter`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence

import cv2
import numpy as np

from companion.vision.fiducials import FiducialSighting
from companion.vision.frames import grey_crop

RISE_PER_SIGMA = 2.563
"""10-90% rise of a Gaussian-blurred step, in sigmas."""
RISE_PER_SMEAR = 0.9
"""10-90% rise of an edge smeared across by L pixels, in L (rendered and measured: 0.88-0.92)."""
SMEAR_MODULES = 0.75
"""Motion smear, in QR modules, from which a frame (or zone) counts as smeared. Stickers read
through half a module of smear and fail from about one (docs/benchmarks.md, motion); a
still frame measures well under 0.75."""
SAMPLES_ALONG_EDGE = (0.3, 0.4, 0.5, 0.6, 0.7)
_STEP_PX = 0.25


def edge_rises(image: np.ndarray, sighting: FiducialSighting) -> np.ndarray:
    """10-90% rise (px) across each of the marker's four outer edges at a few places: (4, samples), NaN unmeasured.

    Edges in the marker's corner order (top, right, bottom, left as ArUco
    gives them): rows 0 and 2 cross one direction, 1 and 3 the other. All
    profiles are sampled in one remap.
    """
    return edge_rises_of(image, [sighting])[0]


def edge_rises_of(image: np.ndarray, sightings: Sequence[FiducialSighting]) -> list[np.ndarray]:
    """:func:`edge_rises` of several markers, their profiles measured together (a third of the time for six)."""
    profiles = [_profiles(image, sighting) for sighting in sightings]
    if not profiles:
        return []
    # Profiles of markers of different sizes differ in length: pad with the last sample (a flat tail
    # adds no step, so the rise measured is the same).
    length = max(p.shape[1] for p in profiles)
    padded = np.empty((sum(len(p) for p in profiles), length), np.float64)
    row = 0
    for p in profiles:
        padded[row:row + len(p), :p.shape[1]] = p
        padded[row:row + len(p), p.shape[1]:] = p[:, -1:]
        row += len(p)
    rises = _rises(padded).reshape(len(profiles), 4, len(SAMPLES_ALONG_EDGE))
    return list(rises)


def _profiles(image: np.ndarray, sighting: FiducialSighting) -> np.ndarray:
    """Grey-level profiles across the marker's four edges at SAMPLES_ALONG_EDGE: (4 * samples, P)."""
    corners = np.array(sighting.corners, dtype=np.float64)
    reach = _reach(sighting)
    box = sighting.bounds(margin=reach + 4)
    grey = grey_crop(image, box.x, box.y, box.x + box.width, box.y + box.height).astype(np.float32)
    origin = np.array([max(0, box.x), max(0, box.y)], dtype=np.float64)
    centre = corners.mean(axis=0)
    steps = np.arange(-reach, reach + 0.01, _STEP_PX)
    starts, ends = corners, np.roll(corners, -1, axis=0)
    edges = ends - starts
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1) / np.maximum(
        np.linalg.norm(edges, axis=1, keepdims=True), 1e-9)
    outward = np.sign(np.sum(normals * ((starts + ends) / 2 - centre), axis=1, keepdims=True))
    normals = normals * np.where(outward == 0, 1.0, outward)  # pointing out of the marker, toward the mat
    along = np.asarray(SAMPLES_ALONG_EDGE)
    at = starts[:, None, :] + edges[:, None, :] * along[None, :, None] - origin  # (4, k, 2)
    points = at[:, :, None, :] + steps[None, None, :, None] * normals[:, None, None, :]  # (4, k, P, 2)
    flat = points.reshape(-1, len(steps), 2).astype(np.float32)
    profiles = cv2.remap(grey, np.ascontiguousarray(flat[..., 0]), np.ascontiguousarray(flat[..., 1]),
                         cv2.INTER_LINEAR)
    return np.asarray(profiles, np.float64)


def _reach(sighting: FiducialSighting) -> float:
    """How far each profile reaches either side of the edge: inside the black border cell and its white margin."""
    return max(3.0, sighting.side_px / 6.0 * 0.8)


def blur_px(rises: Iterable[np.ndarray]) -> float | None:
    """Defocus blur sigma (px) from the rises of some markers: their median; None without any."""
    values = np.concatenate([np.ravel(r) for r in rises] or [np.array([])])
    values = values[np.isfinite(values)]
    return float(np.median(values)) / RISE_PER_SIGMA if len(values) else None


def directional_rises(rises: np.ndarray, span: float) -> tuple[float, float] | None:
    """The marker's rise across each of its two edge directions (medians); None if neither was measured.

    A direction whose edges all rise wider than the profiles reach (a smear
    of more than a marker cell) counts as ``span``, a lower bound, when the
    other direction shows the marker's edges clean.
    """
    across = []
    for rows in (rises[[0, 2]], rises[[1, 3]]):
        values = rows[np.isfinite(rows)].tolist()  # ten numbers: np.median costs 20 times more
        across.append(statistics.median(values) if len(values) >= 2 else math.nan)
    if all(math.isnan(v) for v in across):
        return None
    first, second = (span if math.isnan(v) else v for v in across)
    return first, second


class SmearMeter:
    """Motion smear (px) per fiducial, against each marker's own rises when the frame was sharp.

    The sharp rise of each of a marker's two edge directions is the smallest
    seen so far: a lens or a tilted camera may make them differ for good,
    a smear widens them for a frame or two. A marker's first measure only
    learns its rises: it gives no smear, since it cannot tell a sharp frame
    from a smeared one (counted as sharp, such markers outvoted the others
    in a smeared frame). Until a still frame was seen the smear is
    underestimated, never invented.
    """

    def __init__(self) -> None:
        self._sharp: dict[int, tuple[float, float]] = {}
        self._latest: dict[int, tuple[float, float]] = {}  # each marker's rises when last measured

    def measure(self, image: np.ndarray, sightings: Iterable[FiducialSighting]) -> dict[int, float]:
        smear = {}
        sightings = list(sightings)
        for sighting, rises in zip(sightings, edge_rises_of(image, sightings), strict=True):
            pair = directional_rises(rises, 2 * _reach(sighting))
            if pair is None:
                continue
            self._latest[sighting.id] = pair
            known = self._sharp.get(sighting.id)
            sharp = pair if known is None else (min(known[0], pair[0]), min(known[1], pair[1]))
            self._sharp[sighting.id] = sharp
            if known is None:
                continue
            extra = sum(max(0.0, rise**2 - base**2) for rise, base in zip(pair, sharp, strict=True))
            smear[sighting.id] = math.sqrt(extra) / RISE_PER_SMEAR
        return smear

    def softest_blur_px(self, ids: Iterable[int]) -> float | None:
        """The blur sigma (px) of the softest of these markers' edges when last measured; None if none was.

        A smear widens one direction's edges: it counts as blur here (a smeared frame is no sharp one).
        """
        rises = [max(self._latest[i]) for i in ids if i in self._latest]
        return max(rises) / RISE_PER_SIGMA if rises else None

    def knows(self, fid: int) -> bool:
        """Whether the marker's sharp rises were measured: only then can a smear be told on it."""
        return fid in self._sharp

    def forget(self) -> None:
        """The camera or its focus changed: sharp rises are to be learnt again."""
        self._sharp.clear()
        self._latest.clear()


def interpolate(values: Mapping[int, float], places: Mapping[int, tuple[float, float]],
                points: np.ndarray) -> np.ndarray:
    """Values measured at fiducials (by id, mat mm in ``places``) at mat points (N, 2): inverse squared distance."""
    ids = [i for i in values if i in places]
    if not ids:
        return np.full(len(points), np.nan)
    anchors = np.array([places[i] for i in ids], np.float64)
    measured = np.array([values[i] for i in ids], np.float64)
    squared = np.sum((np.asarray(points, np.float64)[:, None, :] - anchors[None, :, :]) ** 2, axis=2) + 1.0
    weights = 1.0 / squared
    result: np.ndarray = weights @ measured / weights.sum(axis=1)
    return result


def _rises(profiles: np.ndarray) -> np.ndarray:
    """Per profile (rows), the distance from 10% to 90% of the dark-to-light step around its steepest point.

    NaN where there is no clean step: no contrast (covered, glare, not an
    edge) or a step running out of the profile. Searching from the steepest
    point keeps the measure on the marker's outer edge even when the profile
    reaches into a white cell inside it. All rows at once: a marker has 20.
    """
    count, length = profiles.shape
    rows = np.arange(count)
    index = np.arange(length)[None, :]
    mid = np.argmax(np.diff(profiles, axis=1), axis=1)
    before = index <= mid[:, None]
    dark = np.where(before, profiles, np.inf).min(axis=1)
    light = np.where(before, -np.inf, profiles).max(axis=1)
    contrast = light - dark
    level = (profiles - dark[:, None]) / np.maximum(contrast, 1e-6)[:, None]
    low_mask = before & (level <= 0.1)
    high_mask = ~before & (level >= 0.9)
    valid = (contrast >= 25) & low_mask.any(axis=1) & high_mask.any(axis=1)
    low = np.minimum(length - 1 - np.argmax(low_mask[:, ::-1], axis=1), length - 2)
    high = np.maximum(np.argmax(high_mask, axis=1), 1)
    # Interpolate both crossings between samples.
    step_low = level[rows, low + 1] - level[rows, low]
    step_high = level[rows, high] - level[rows, high - 1]
    start = low + (0.1 - level[rows, low]) / np.where(step_low == 0, 1.0, step_low)
    stop = high - 1 + (0.9 - level[rows, high - 1]) / np.where(step_high == 0, 1.0, step_high)
    result: np.ndarray = np.where(valid, (stop - start) * _STEP_PX, np.nan)
    return result
