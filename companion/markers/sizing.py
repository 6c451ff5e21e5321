"""Which sticker size a mat and a camera need: pixels per QR module, before anything is printed.

The camera looks straight down at the mat's centre from the height where the
mat, with a margin around it, just fills the frame (:data:`MARGIN`, 1.10 as
hardware/camera.md recommends); the Camera Module 3 lens bends the picture
as its data sheet says (:data:`companion.vision.lens.LENSES`). A sticker of
``sticker_mm`` is 29 modules across (``companion markers`` prints a 4-module
white margin around the 21-module code), so its modules get
``px_per_mm * sticker_mm / 29`` pixels; what counts is the mat's worst spot
(its corners, where a wide lens shrinks the picture). Decoders read reliably
from 3 px per module (../shared/notes/vision-anchors.md), ``companion
calibrate`` then measures the real figure.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.framing import place_camera
from companion.vision.lens import LENSES
from companion.vision.stickers import STICKER_MODULES, stickers_clash

Point = tuple[float, float]

MARGIN = 1.10
"""How much larger than the mat the view is (35 mm of table each side of a 70 x 40 cm mat)."""
WANTED_PX_PER_MODULE = 3.0
STICKER_SIZES_MM = (16.0, 20.0, 24.0, 28.0, 32.0)
"""Sticker sides companion markers prints: the set's 16 mm, and larger ones for larger mats or fewer pixels."""


@dataclass(frozen=True)
class StickerFit:
    """One sticker size under one camera: pixels per module at the mat's centre and at its worst spot."""

    sticker_mm: float
    px_per_module_centre: float
    px_per_module_worst: float
    fits_card: bool

    @property
    def readable(self) -> bool:
        return self.fits_card and self.px_per_module_worst >= WANTED_PX_PER_MODULE


def px_per_mm(mat_mm: Point, lens: str, resolution: tuple[int, int], margin: float = MARGIN) -> tuple[float, float]:
    """Pixels per millimetre at the mat's centre and its worst corner, camera framing the mat with ``margin``."""
    spec = LENSES[lens]
    camera = place_camera(mat_mm, resolution, spec.hfov_deg, 1.0 / margin, np.eye(3), (0.0, 0.0), spec.distortion)

    def scale(x: float, y: float) -> float:
        points = np.array([(x, y), (x + 1.0, y), (x, y + 1.0)], np.float64).reshape(-1, 1, 2)
        pinhole = np.asarray(cv2.perspectiveTransform(points, camera.homography), np.float64).reshape(-1, 2)
        a, b, c = camera.distort(pinhole)
        return float(min(np.linalg.norm(b - a), np.linalg.norm(c - a)))

    width, height = mat_mm
    corner = min(scale(x, y) for x in (1.0, width - 2.0) for y in (1.0, height - 2.0))
    return scale(width / 2, height / 2), corner


def sticker_fits(mat_mm: Point, card_mm: Point, lens: str, resolution: tuple[int, int],
                 sizes: tuple[float, ...] = STICKER_SIZES_MM) -> list[StickerFit]:
    """Each printable sticker size with the pixels per module it gets under this camera."""
    centre, worst = px_per_mm(mat_mm, lens, resolution)
    return [StickerFit(size, centre * size / STICKER_MODULES, worst * size / STICKER_MODULES,
                       not stickers_clash(card_mm, size)) for size in sizes]


def choose_sticker_mm(mat_mm: Point, card_mm: Point, lens: str, resolution: tuple[int, int]) -> StickerFit | None:
    """The smallest sticker giving 3 px per module on the whole mat; None when none that fits a card does."""
    return next((fit for fit in sticker_fits(mat_mm, card_mm, lens, resolution) if fit.readable), None)
