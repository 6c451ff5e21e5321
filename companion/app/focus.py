"""Focus across the mat: how sharp each zone is, and the lens position that makes the worst one sharpest.

Sharpness is measured as blur in pixels, on the fiducials' outer edges: the
10-90% rise of black ink to white mat, converted to the sigma of a Gaussian
blur (rise = 2.563 sigma). It does not depend on the light or the resolution
the way a variance of the Laplacian does, and its limit is the one the
pipeline is measured at (blur sigma up to 1.5 px reads every sticker,
docs/benchmarks.md). The fiducials sit in the mat's corners, along its
edges and in its middle, where a lens is softest and sharpest; each zone
gets the blur interpolated (inverse squared distance) from them at its
corners, and its worst corner counts.

A lens focused on the middle of the mat leaves the corners soft (field
curvature; a tilted camera has its near and far edges at different
distances). :func:`sweep_focus` moves a Camera Module 3's lens step by step
from where its autofocus left it, through :class:`FocusCamera`, and keeps
the position where the softest zone is sharpest: a hill climb, bounded in
steps and time.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from companion.vision.fiducials import FiducialSighting
from companion.vision.frames import grey_crop
from companion.vision.layout import Layout

log = logging.getLogger("companion.focus")

RISE_PER_SIGMA = 2.563
"""10-90% rise of a Gaussian-blurred step, in sigmas."""
# Sweep steps in dioptres: about the depth of field of the Camera Module 3 at
# 60 cm (f/1.8), then a finer look around the best.
COARSE_STEP_DPT = 0.15
FINE_STEP_DPT = 0.05
SWEEP_MAX_POSITIONS = 14
SWEEP_TIMEOUT_S = 20.0


def fiducial_blur(image: np.ndarray, sightings: Iterable[FiducialSighting]) -> dict[int, float]:
    """Blur sigma (px) at each fiducial whose edges could be measured: the median of its edge rises."""
    blur = {}
    for sighting in sightings:
        rises = _edge_rises(image, sighting)
        if rises:
            blur[sighting.id] = float(np.median(rises)) / RISE_PER_SIGMA
    return blur


def overall_blur(image: np.ndarray, sightings: Iterable[FiducialSighting]) -> float | None:
    """Blur sigma (px) over all fiducials' edges (their median); None without a measurable edge."""
    rises: list[float] = []
    for sighting in sightings:
        rises += _edge_rises(image, sighting)
    return float(np.median(rises)) / RISE_PER_SIGMA if rises else None


def zone_blur(layout: Layout, at_fiducials: Mapping[int, float]) -> dict[str, float]:
    """Blur (px) of each zone: interpolated from the fiducials measured, at its worst corner."""
    places = {f.id: f.center_mm for f in layout.fiducials if f.id in at_fiducials}
    if not places:
        return {}
    anchors = np.array(list(places.values()), np.float64)
    values = np.array([at_fiducials[i] for i in places], np.float64)
    result = {}
    for name, polygon in layout.zones.items():
        corners = np.asarray(polygon, np.float64)
        squared = np.sum((corners[:, None, :] - anchors[None, :, :]) ** 2, axis=2) + 1.0
        weights = 1.0 / squared
        result[name] = round(float(np.max(weights @ values / weights.sum(axis=1))), 3)
    return result


# --------------------------------------------------------------------------- sweeping


class FocusCamera(Protocol):
    """A camera whose lens can be moved (a Camera Module 3; :class:`companion.sim.camera.FocusingCamera`)."""

    lens_position: float | None

    def lens_range(self) -> tuple[float, float] | None: ...

    def move_lens(self, position: float) -> None: ...

    def read(self) -> object: ...


@dataclass(frozen=True)
class FocusSweep:
    """Lens positions tried (dioptres) with the worst zone's blur there (None: not measurable), and the pick."""

    tried: tuple[tuple[float, float | None], ...]
    best: float | None
    worst_blur: float | None

    def to_dict(self) -> dict[str, object]:
        return {"tried": [[round(p, 3), None if b is None else round(b, 3)] for p, b in self.tried],
                "best": None if self.best is None else round(self.best, 3),
                "worst_zone_blur_px": None if self.worst_blur is None else round(self.worst_blur, 3)}


def sweep_focus(camera: FocusCamera, worst_blur: Callable[[np.ndarray], float | None],
                clock: Callable[[], float] = time.monotonic) -> FocusSweep:
    """Move the lens to where the softest zone is sharpest, starting where it is; leave it there.

    ``worst_blur`` measures a frame (the worst zone's blur, px). Coarse
    steps go whichever way improves until it stops improving, then fine steps
    around the best; at most :data:`SWEEP_MAX_POSITIONS` positions and
    :data:`SWEEP_TIMEOUT_S`. A camera without a movable lens is left alone.
    """
    limits = camera.lens_range()
    start = camera.lens_position
    if limits is None or start is None:
        return FocusSweep((), None, None)
    low, high = limits
    deadline = clock() + SWEEP_TIMEOUT_S
    tried: dict[float, float | None] = {}

    def look(position: float) -> float:
        position = round(min(high, max(low, position)), 3)
        if position not in tried:
            if len(tried) >= SWEEP_MAX_POSITIONS or clock() > deadline:
                return math.inf
            camera.move_lens(position)
            frame = camera.read()
            image = getattr(frame, "image", frame)
            tried[position] = worst_blur(image) if isinstance(image, np.ndarray) else None
        blur = tried[position]
        return math.inf if blur is None else blur

    best = round(start, 3)
    look(best)
    for step in (COARSE_STEP_DPT, FINE_STEP_DPT):
        for direction in (1, -1):
            while look(best + direction * step) < look(best):
                best = round(min(high, max(low, best + direction * step)), 3)
    if math.isinf(look(best)):
        best = round(start, 3)  # nothing measurable anywhere: back where the autofocus had it
    camera.move_lens(best)
    worst = tried.get(best)
    log.info("focus sweep: %d positions, best %.2f dioptres (worst zone blur %s px)", len(tried), best,
             "unknown" if worst is None else f"{worst:.2f}")
    return FocusSweep(tuple(sorted(tried.items())), best, worst)


# --------------------------------------------------------------------------- edges


def _edge_rises(image: np.ndarray, sighting: FiducialSighting) -> list[float]:
    """10-90% rise (px) across each outer edge of a marker, at a few places along it."""
    corners = np.array(sighting.corners, dtype=np.float64)
    side = sighting.side_px
    reach = max(3.0, min(side / 6.0 * 0.8, 12.0))  # stay inside the black border cell and its white margin
    box = sighting.bounds(margin=reach + 4)
    grey = grey_crop(image, box.x, box.y, box.x + box.width, box.y + box.height).astype(np.float32)
    origin = np.array([max(0, box.x), max(0, box.y)], dtype=np.float64)
    centre = corners.mean(axis=0)
    steps = np.arange(-reach, reach + 0.01, 0.25)
    rises = []
    for start, end in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        edge = end - start
        normal = np.array([edge[1], -edge[0]]) / (np.linalg.norm(edge) or 1.0)
        if np.dot(normal, (start + end) / 2 - centre) < 0:
            normal = -normal  # pointing out of the marker, toward the white mat
        for t in (0.3, 0.4, 0.5, 0.6, 0.7):
            at = start + edge * t - origin
            points = at[None, :] + steps[:, None] * normal[None, :]
            profile = cv2.remap(grey, points[:, 0].astype(np.float32).reshape(1, -1),
                                points[:, 1].astype(np.float32).reshape(1, -1), cv2.INTER_LINEAR)[0]
            rise = _rise(profile, 0.25)
            if rise is not None:
                rises.append(rise)
    return rises


def _rise(profile: np.ndarray, step: float) -> float | None:
    """Distance from 10% to 90% of the dark-to-light step around the profile's steepest point.

    Searching from the steepest point keeps the measure on the marker's
    outer edge even when the profile reaches into a white cell inside it.
    """
    mid = int(np.argmax(np.diff(profile)))
    dark, light = float(profile[: mid + 1].min()), float(profile[mid + 1 :].max())
    if light - dark < 25:
        return None  # no contrast: covered, glare, or not an edge
    level = (profile - dark) / (light - dark)
    below = np.nonzero(level[: mid + 1] <= 0.1)[0]
    above = np.nonzero(level[mid + 1 :] >= 0.9)[0]
    if len(below) == 0 or len(above) == 0:
        return None  # the step runs out of the profile: no clean edge here
    low, high = int(below[-1]), mid + 1 + int(above[0])
    # Interpolate both crossings between samples.
    start = low + (0.1 - level[low]) / ((level[low + 1] - level[low]) or 1.0)
    stop = high - 1 + (0.9 - level[high - 1]) / ((level[high] - level[high - 1]) or 1.0)
    return float(stop - start) * step
