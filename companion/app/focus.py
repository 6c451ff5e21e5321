"""Focus across the mat: how sharp each zone is, and the lens position that makes the worst one sharpest.

Sharpness is measured as blur in pixels, on the fiducials' outer edges
(:mod:`companion.vision.sharpness`), and its limit is the one the pipeline
is measured at (blur sigma up to 1.5 px reads every sticker,
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

import numpy as np

from companion.vision.fiducials import FiducialSighting
from companion.vision.layout import Layout
from companion.vision.sharpness import blur_px, edge_rises_of, interpolate

log = logging.getLogger("companion.focus")

# Sweep steps in dioptres: about the depth of field of the Camera Module 3 at
# 60 cm (f/1.8), then a finer look around the best.
COARSE_STEP_DPT = 0.15
FINE_STEP_DPT = 0.05
SWEEP_MAX_POSITIONS = 14
SWEEP_TIMEOUT_S = 20.0


def fiducial_blur(image: np.ndarray, sightings: Iterable[FiducialSighting]) -> dict[int, float]:
    """Blur sigma (px) at each fiducial whose edges could be measured."""
    blur = {}
    sightings = list(sightings)
    for sighting, rises in zip(sightings, edge_rises_of(image, sightings), strict=True):
        measured = blur_px([rises])
        if measured is not None:
            blur[sighting.id] = measured
    return blur


def overall_blur(image: np.ndarray, sightings: Iterable[FiducialSighting]) -> float | None:
    """Blur sigma (px) over all fiducials' edges (their median); None without a measurable edge."""
    return blur_px(edge_rises_of(image, list(sightings)))


def zone_blur(layout: Layout, at_fiducials: Mapping[int, float]) -> dict[str, float]:
    """Blur (px) of each zone: interpolated from the fiducials measured, at its worst corner."""
    places = {f.id: f.center_mm for f in layout.fiducials}
    if not any(i in places for i in at_fiducials):
        return {}
    return {name: round(float(np.max(interpolate(at_fiducials, places, np.asarray(polygon, np.float64)))), 3)
            for name, polygon in layout.zones.items()}


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
