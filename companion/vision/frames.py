"""Cheap views of a camera frame: validation, greyscale crops, strided thumbnails."""

from __future__ import annotations

import cv2
import numpy as np

from companion.errors import FrameError

__all__ = ["FrameError", "check_frame", "grey_crop", "thumbnail", "to_grey"]


def check_frame(frame: object) -> np.ndarray:
    """The frame as a uint8 array of shape (h, w) or (h, w, 3|4); else FrameError."""
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"frame is a {type(frame).__name__}, not an image array")
    shape_ok = frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] in (1, 3, 4))
    if frame.dtype != np.uint8 or not shape_ok:
        raise FrameError(f"frame of dtype {frame.dtype} and shape {frame.shape}: expected uint8 grey or BGR")
    if min(frame.shape[:2]) < 16:
        raise FrameError(f"frame of shape {frame.shape} is too small to hold a playmat")
    return frame


def thumbnail(frame: np.ndarray, step: int) -> np.ndarray:
    """Every ``step``-th pixel of the green channel (or grey), as a new array.

    Sampling instead of averaging costs almost nothing on 12 MP (a box-filtered
    resize takes over 10 ms) and keeps high-frequency texture such as QR
    modules visible, which the change and sticker detectors rely on. Green is
    the sharpest and least noisy Bayer channel and close to luminance.
    """
    if frame.ndim == 2:
        return np.ascontiguousarray(frame[::step, ::step])
    return np.ascontiguousarray(frame[::step, ::step, min(1, frame.shape[2] - 1)])


def grey_crop(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """Greyscale copy of ``frame[y0:y1, x0:x1]`` (clipped to the frame)."""
    height, width = frame.shape[:2]
    x0, x1 = max(0, x0), min(width, x1)
    y0, y1 = max(0, y0), min(height, y1)
    crop = frame[y0:y1, x0:x1]
    if crop.ndim == 2:
        return np.ascontiguousarray(crop)
    if crop.shape[2] == 1:
        return np.ascontiguousarray(crop[:, :, 0])
    code = cv2.COLOR_BGRA2GRAY if crop.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    return cv2.cvtColor(crop, code)


def to_grey(frame: np.ndarray) -> np.ndarray:
    height, width = frame.shape[:2]
    return grey_crop(frame, 0, 0, width, height)
