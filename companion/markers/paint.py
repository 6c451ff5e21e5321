"""Exact, anti-aliased painting of module matrices (QR codes, ArUco markers).

Shared by the scene renderer and the printable sheets: a matrix lands at a
sub-pixel position with a non-integer module pitch, each pixel taking the
fraction of dark and light modules that covers it (supersampled area
coverage), so module edges are where the geometry says, not rounded to
whole pixels.

Coordinates here use the pixel-edge convention: pixel (0, 0) covers [0, 1) x [0, 1).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Color = tuple[int, int, int]
SUPERSAMPLING = 4

_OUTSIDE, _LIGHT, _DARK = 0, 1, 2


def paint_modules(
    image: Image,
    modules: npt.NDArray[np.bool_],
    origin_px: tuple[float, float],
    module_px: float,
    dark: Color | int = 0,
    light: Color | int = 255,
) -> None:
    """Paint a square boolean matrix (True = dark) into ``image`` in place.

    ``origin_px`` is where the matrix's top-left corner falls (pixel-edge
    convention), ``module_px`` the side of one module in pixels. Parts
    outside the image are clipped.
    """
    rows, cols = modules.shape
    x0, y0 = origin_px
    left, top = math.floor(x0), math.floor(y0)
    right = math.ceil(x0 + cols * module_px)
    bottom = math.ceil(y0 + rows * module_px)
    clip_left, clip_top = max(left, 0), max(top, 0)
    clip_right, clip_bottom = min(right, image.shape[1]), min(bottom, image.shape[0])
    if clip_right <= clip_left or clip_bottom <= clip_top:
        return
    light_cover, dark_cover = _coverage(modules, (x0 - left, y0 - top), module_px, (right - left, bottom - top))
    window = (slice(clip_top - top, clip_bottom - top), slice(clip_left - left, clip_right - left))
    _blend(image[clip_top:clip_bottom, clip_left:clip_right], light_cover[window], dark_cover[window], light, dark)


def _coverage(
    modules: npt.NDArray[np.bool_],
    offset: tuple[float, float],
    module_px: float,
    size: tuple[int, int],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Fractions of each pixel covered by light and by dark modules."""
    labels = np.where(modules, _DARK, _LIGHT).astype(np.uint8)
    scale = module_px * SUPERSAMPLING
    # Edge-convention map module -> supersampled pixel, turned into OpenCV's
    # pixel-centre convention (both sides shift by half a pixel).
    shift_x = offset[0] * SUPERSAMPLING + 0.5 * scale - 0.5
    shift_y = offset[1] * SUPERSAMPLING + 0.5 * scale - 0.5
    matrix = np.array([[scale, 0.0, shift_x], [0.0, scale, shift_y]])
    width, height = size
    fine = cv2.warpAffine(
        labels,
        matrix,
        (width * SUPERSAMPLING, height * SUPERSAMPLING),
        flags=cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(_OUTSIDE,),
    )
    light = cv2.resize((fine == _LIGHT).astype(np.float32), (width, height), interpolation=cv2.INTER_AREA)
    dark = cv2.resize((fine == _DARK).astype(np.float32), (width, height), interpolation=cv2.INTER_AREA)
    return light, dark


def _blend(
    region: Image,
    light: npt.NDArray[np.float32],
    dark: npt.NDArray[np.float32],
    light_color: Color | int,
    dark_color: Color | int,
) -> None:
    if region.ndim == 3:
        light, dark = light[..., None], dark[..., None]
    light_value = np.asarray(light_color, dtype=np.float32)
    dark_value = np.asarray(dark_color, dtype=np.float32)
    mixed = region * (1.0 - light - dark) + light * light_value + dark * dark_value
    region[...] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)
