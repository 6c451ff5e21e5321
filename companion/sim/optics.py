"""The renderer's camera: a pinhole over a cloth that does not lie flat, seen through a real lens.

:mod:`companion.sim.scene` draws the mat and the cards into a *pinhole
canvas* with one homography; this module turns that canvas into the frame a
real camera would give, in one resampling:

- **The cloth.** A point of the printed cloth is not where the mat's plane
  puts it: the cloth is pulled in its plane by a few millimetres
  (``SceneOptions.crease``), and lifted off the table by fold ridges and
  soft bumps (``SceneOptions.lift_mm``). A point lifted by ``h`` is seen
  where the ray from the camera through it meets the table: pushed away
  from the point under the camera by ``h / (height - h)`` of its distance
  from it (parallax), so a fold near the mat's edge moves most.
- **The lens.** OpenCV's radial and tangential distortion
  (``SceneOptions.distortion``, coefficients on the radius normalised by the
  focal length): a barrel lens pulls the mat's edges in. The canvas is made
  large enough that every frame pixel finds its source in it.
- **Focus across the field** (:func:`field_blur`). A lens focused for the
  centre leaves the corners soft (field curvature; ``corner_blur`` is the
  blur sigma there); ``focus`` moves the best focus outwards, as turning the
  lens does: 0 focuses the centre, 1 the frame corners.

Motion blur, noise and JPEG stay in :mod:`companion.sim.scene`; the camera
itself and where it hangs (:class:`SceneCamera`, :func:`place_camera`) are
:mod:`companion.vision.framing`'s, shared with the sticker sizing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.framing import Floats, Point, SceneCamera

Image = npt.NDArray[np.uint8]

# Coarse grid (frame pixels) on which the resampling map is solved; the
# cloth and the lens are smooth at that scale, cv2.resize interpolates the rest.
MAP_STEP_PX = 16
# Field blur is made from copies blurred in steps of this sigma, blended per pixel.
FIELD_BLUR_STEP = 0.5


# --------------------------------------------------------------------------- the cloth


@dataclass(frozen=True)
class Crease:
    """The cloth pulled in its plane: a few soft bumps plus the two fold lines (mm)."""

    bumps: tuple[tuple[float, float, float, float, float], ...]  # x, y, sigma, dx, dy
    folds: tuple[float, float, float, float]  # fold x, fold y, shift across x fold, across y fold
    width_mm: float = 12.0

    def at(self, x: Floats, y: Floats) -> tuple[Floats, Floats]:
        dx = np.zeros_like(x)
        dy = np.zeros_like(y)
        for bx, by, sigma, ax, ay in self.bumps:
            weight = np.exp(-((x - bx) ** 2 + (y - by) ** 2) / (2 * sigma**2))
            dx += ax * weight
            dy += ay * weight
        fold_x, fold_y, shift_x, shift_y = self.folds
        dx += shift_x * np.tanh((x - fold_x) / self.width_mm)
        dy += shift_y * np.tanh((y - fold_y) / self.width_mm)
        return dx, dy


def crease_field(size_mm: Point, amplitude_mm: float, seed: int) -> Crease | None:
    """The in-plane pull of a creased cloth, largest displacement ``amplitude_mm``."""
    if amplitude_mm <= 0:
        return None
    rng = np.random.default_rng(seed + 1_000_003)
    width, height = size_mm
    bumps = tuple(
        (float(rng.uniform(0, width)), float(rng.uniform(0, height)), float(rng.uniform(50, 140)),
         float(rng.normal()), float(rng.normal()))
        for _ in range(5)
    )
    raw = Crease(bumps, (width / 2, height / 2, float(rng.uniform(0.3, 0.6)), float(rng.uniform(0.3, 0.6))))
    xs, ys = np.meshgrid(np.linspace(0, width, 71), np.linspace(0, height, 41))
    dx, dy = raw.at(xs, ys)
    factor = amplitude_mm / max(float(np.max(np.hypot(dx, dy))), 1e-9)
    return Crease(
        tuple((bx, by, s, ax * factor, ay * factor) for bx, by, s, ax, ay in bumps),
        (raw.folds[0], raw.folds[1], raw.folds[2] * factor, raw.folds[3] * factor),
    )


@dataclass(frozen=True)
class Lift:
    """How high the cloth stands off the table (mm): ridges along its two fold lines and soft bumps.

    A cloth mat folded in four for its box keeps a ridge along each fold,
    higher in some places than others; handling leaves a few soft bumps.
    """

    ridges: tuple[tuple[str, float, float, float, float, float], ...]
    """Per ridge: the fold's axis ("x": a line of constant x), its position, half-width (mm), height,
    and how the height varies along it (relative depth of the variation, its phase)."""
    bumps: tuple[tuple[float, float, float, float], ...]  # x, y, sigma, height
    length_mm: Point

    def height(self, x: Floats, y: Floats) -> Floats:
        lift = np.zeros_like(x, dtype=np.float64)
        for axis, position, half_width, top, depth, phase in self.ridges:
            across, along, length = (x, y, self.length_mm[1]) if axis == "x" else (y, x, self.length_mm[0])
            profile = top * (1 - depth * (0.5 + 0.5 * np.cos(2 * math.pi * along / length + phase)))
            lift += profile * np.exp(-0.5 * ((across - position) / half_width) ** 2)
        for bx, by, sigma, top in self.bumps:
            lift += top * np.exp(-((x - bx) ** 2 + (y - by) ** 2) / (2 * sigma**2))
        return lift


def lift_field(size_mm: Point, height_mm: float, seed: int) -> Lift | None:
    """A cloth standing off the table by up to ``height_mm``, from the seed."""
    if height_mm <= 0:
        return None
    rng = np.random.default_rng(seed + 2_000_029)
    width, height = size_mm
    ridges = tuple((axis, position, float(rng.uniform(15, 35)), float(rng.uniform(0.5, 1.0)),
                    float(rng.uniform(0.2, 0.8)), float(rng.uniform(0, 2 * math.pi)))
                   for axis, position in (("x", width / 2), ("y", height / 2)))
    bumps = tuple((float(rng.uniform(0, width)), float(rng.uniform(0, height)), float(rng.uniform(40, 120)),
                   float(rng.uniform(0.2, 0.7))) for _ in range(4))
    raw = Lift(ridges, bumps, size_mm)
    xs, ys = np.meshgrid(np.linspace(0, width, 141), np.linspace(0, height, 81))
    factor = height_mm / max(float(raw.height(xs, ys).max()), 1e-9)
    return Lift(tuple((a, p, w, t * factor, d, f) for a, p, w, t, d, f in ridges),
                tuple((bx, by, s, t * factor) for bx, by, s, t in bumps), size_mm)


@dataclass(frozen=True)
class Cloth:
    """Where the camera sees each point of the printed cloth, in mat mm of the table's plane."""

    crease: Crease | None
    lift: Lift | None
    camera_xy: Point
    camera_height: float

    @property
    def flat(self) -> bool:
        return self.crease is None and self.lift is None

    def displacement(self, x: Floats, y: Floats) -> tuple[Floats, Floats]:
        """How far cloth point (x, y) shows from where the flat mat would show it (mm, in the plane)."""
        dx, dy = self.crease.at(x, y) if self.crease is not None else (np.zeros_like(x), np.zeros_like(y))
        if self.lift is not None:
            px, py = x + dx, y + dy
            h = self.lift.height(px, py)
            push = h / np.maximum(self.camera_height - h, 1.0)  # parallax: away from the point below the camera
            dx = dx + push * (px - self.camera_xy[0])
            dy = dy + push * (py - self.camera_xy[1])
        return dx, dy


def cloth_of(camera: SceneCamera, size_mm: Point, crease_mm: float, lift_mm: float, seed: int) -> Cloth:
    below, height = camera.position_mm
    return Cloth(crease_field(size_mm, crease_mm, seed), lift_field(size_mm, lift_mm, seed), below, height)


def to_frame(camera: SceneCamera, cloth: Cloth, points_mm: Floats | Sequence[Point]) -> Floats:
    """Cloth points (mat mm) -> frame pixels: cloth, pinhole, lens."""
    points = np.asarray(points_mm, np.float64).reshape(-1, 2)
    if not cloth.flat:
        dx, dy = cloth.displacement(points[:, 0], points[:, 1])
        points = points + np.column_stack([dx, dy])
    pinhole = cv2.perspectiveTransform(points.reshape(-1, 1, 2), camera.homography).reshape(-1, 2)
    return camera.distort(np.asarray(pinhole, np.float64))


def resample(canvas: Image, camera: SceneCamera, cloth: Cloth, offset: tuple[int, int]) -> Image:
    """The frame from the flat pinhole canvas (drawn with the homography shifted by ``offset``).

    Each frame pixel undoes the lens (to a pinhole pixel), finds the cloth
    point the camera sees there (the fixed point of m + D(m) = the plane
    point, D smooth and small), and samples the canvas where the flat
    drawing put that cloth point. Solved on a coarse grid; a single remap.
    """
    width, height = camera.resolution
    if cloth.flat and camera.lens is None and offset == (0, 0) and canvas.shape[1::-1] == (width, height):
        return canvas
    columns, rows = math.ceil(width / MAP_STEP_PX), math.ceil(height / MAP_STEP_PX)
    # Coarse grid at the positions cv2.resize maps back onto pixel centres exactly.
    qx = (np.arange(columns) + 0.5) * width / columns - 0.5
    qy = (np.arange(rows) + 0.5) * height / rows - 0.5
    grid = np.stack(np.meshgrid(qx, qy), axis=-1).reshape(-1, 2)
    lens = camera.lens
    pinhole = grid if lens is None else lens.undistort(grid)
    homography = camera.homography
    plane = np.asarray(cv2.perspectiveTransform(pinhole.reshape(-1, 1, 2), np.linalg.inv(homography)),
                       np.float64).reshape(-1, 2)
    cloth_mm = plane.copy()
    if not cloth.flat:
        for _ in range(4):
            dx, dy = cloth.displacement(cloth_mm[:, 0], cloth_mm[:, 1])
            cloth_mm = plane - np.column_stack([dx, dy])
    source = cv2.perspectiveTransform(cloth_mm.reshape(-1, 1, 2), homography).reshape(-1, 2) + offset
    source = source.astype(np.float32)
    map_x = cv2.resize(source[:, 0].reshape(rows, columns), (width, height), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(source[:, 1].reshape(rows, columns), (width, height), interpolation=cv2.INTER_LINEAR)
    fixed_x, fixed_y = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    return np.asarray(cv2.remap(canvas, fixed_x, fixed_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                      np.uint8)


# --------------------------------------------------------------------------- focus


def field_sigma(resolution: tuple[int, int], base_sigma: float, corner_blur: float, focus: float,
                centre_px: Point | None = None) -> Callable[[Floats, Floats], Floats]:
    """Blur sigma (px) at frame pixels: ``base_sigma`` everywhere, plus field curvature.

    ``corner_blur * |rho^2 - focus|`` with ``rho`` the distance from the
    principal point over the half-diagonal: focused for the centre
    (``focus`` 0) the corners get ``corner_blur``; at ``focus`` 0.5 centre
    and corners share half of it each. The two add as Gaussian blurs do.
    """
    width, height = resolution
    cx, cy = centre_px if centre_px is not None else ((width - 1) / 2, (height - 1) / 2)
    half_diagonal = math.hypot(width / 2, height / 2)

    def sigma(x: Floats, y: Floats) -> Floats:
        rho2 = ((x - cx) ** 2 + (y - cy) ** 2) / half_diagonal**2
        defocus = corner_blur * np.abs(rho2 - focus)
        result: Floats = np.sqrt(base_sigma**2 + defocus**2)
        return result

    return sigma


def field_blur(image: Image, sigma_at: Callable[[Floats, Floats], Floats]) -> Image:
    """Blur each pixel by its own sigma: copies blurred in steps of FIELD_BLUR_STEP, blended linearly."""
    height, width = image.shape[:2]
    small_w, small_h = max(2, width // MAP_STEP_PX), max(2, height // MAP_STEP_PX)
    xs, ys = np.meshgrid((np.arange(small_w) + 0.5) * width / small_w - 0.5,
                         (np.arange(small_h) + 0.5) * height / small_h - 0.5)
    sigma = cv2.resize(sigma_at(xs, ys).astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    top = float(sigma.max())
    levels = np.arange(0.0, top + FIELD_BLUR_STEP, FIELD_BLUR_STEP)
    if len(levels) < 2:
        return image
    total = np.zeros(image.shape, np.float32)
    for level in levels:
        weight = np.clip(1.0 - np.abs(sigma - level) / FIELD_BLUR_STEP, 0.0, 1.0)
        rows = np.nonzero(weight.max(axis=1) > 0)[0]
        if len(rows) == 0:
            continue
        y0, y1 = int(rows[0]), int(rows[-1]) + 1
        pad = math.ceil(3 * level) + 1
        a0, a1 = max(0, y0 - pad), min(height, y1 + pad)
        band = image[a0:a1]
        blurred = band if level == 0 else cv2.GaussianBlur(band, (0, 0), float(level))
        part = np.asarray(blurred, np.float32)[y0 - a0 : y1 - a0]
        w = weight[y0:y1]
        total[y0:y1] += part * (w[..., None] if image.ndim == 3 else w)
    result: Image = np.clip(total + 0.5, 0, 255).astype(np.uint8)
    return result
