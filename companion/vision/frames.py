"""Image files to frames, within a Pi's memory; cheap views of a frame: validation, greyscale crops, thumbnails."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import cv2
import numpy as np

from companion.errors import FrameError, LimitError

__all__ = [
    "MAX_IMAGE_PIXELS", "FrameError", "Thumbnails", "check_frame", "grey_crop", "read_image", "thumbnail", "to_grey",
]

MAX_IMAGE_PIXELS = 50_000_000
"""Largest image decoded: four Camera Module 3 frames (4608x2592 is 11.9 MP), a 48 MP phone photo.

A decoded image costs 3 bytes a pixel and the pipeline a few times that:
a 20000x20000 image (400 MP) would take 1.2 GB before anything is read in
it, more than many a Pi has. The size is read from the file's header and an
image beyond this is refused before any pixel is decoded.
"""


def read_image(path: Path) -> np.ndarray:
    """A BGR image from a file; one line naming the file when it is no image (FrameError) or too large (LimitError)."""
    width, height = image_size(path)
    if width * height > MAX_IMAGE_PIXELS:
        raise LimitError(f"{path}: {width}x{height} pixels ({width * height / 1e6:.0f} MP), more than the "
                         f"{MAX_IMAGE_PIXELS // 1_000_000} MP the companion decodes (a camera frame is 12 MP): "
                         f"scale it down first")
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)  # streams the file: no second copy of it in memory
    except cv2.error as error:
        raise FrameError(f"{path}: cannot decode it ({str(error).strip().splitlines()[-1]})") from None
    if image is None:
        raise FrameError(f"{path}: not an image OpenCV can read (damaged or cut short?)")
    return image


def image_size(path: Path) -> tuple[int, int]:
    """(width, height) from the file's header, without decoding it (Pillow reads headers lazily)."""
    from PIL import Image, UnidentifiedImageError

    if not path.is_file():
        raise FrameError(f"{path}: no such image file" if not path.exists() else f"{path}: not a regular file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                return image.size
    except Image.DecompressionBombError as error:  # Pillow's own fence, far beyond ours: the size is in its words
        claimed = re.search(r"\((\d+) pixels\)", str(error))
        size = f"{int(claimed.group(1)) / 1e6:.0f} MP" if claimed else "hundreds of MP"
        raise LimitError(f"{path}: its header claims {size}, more than the {MAX_IMAGE_PIXELS // 1_000_000} MP the "
                         f"companion decodes (a camera frame is 12 MP): scale it down first") from None
    except UnidentifiedImageError:
        raise FrameError(f"{path}: not an image (empty, cut short, or a format the companion does not read)") from None
    except (OSError, SyntaxError, ValueError) as error:  # Pillow's parsers raise these for broken headers
        raise FrameError(f"{path}: unreadable image header ({error})") from None


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


class Thumbnails:
    """One frame's strided thumbnails (:func:`thumbnail`), each step sampled once.

    A cold scan samples the whole frame for the fiducials, for the change
    detector's reference and for the sticker candidates, at 1080p all every
    3rd pixel: three copies of the same 640x360 samples, gathered across
    the whole frame each time. Made anew for each frame; the frame must not
    change while it is in use.
    """

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame
        self._by_step: dict[int, np.ndarray] = {}

    def at(self, step: int) -> np.ndarray:
        """``thumbnail(frame, step)``, shared: callers must not write to it."""
        thumb = self._by_step.get(step)
        if thumb is None:
            thumb = self._by_step[step] = thumbnail(self.frame, step)
        return thumb

    def view(self, step: int, x0: int, y0: int, x1: int, y1: int) -> np.ndarray | None:
        """``thumbnail(frame[y0:y1, x0:x1], step)`` as a view of the shared thumbnail, when its grid is the
        same (the corner on a multiple of ``step``) and that thumbnail was already taken; else None."""
        thumb = self._by_step.get(step)
        if thumb is None or x0 % step or y0 % step:
            return None
        return thumb[y0 // step:(y1 + step - 1) // step, x0 // step:(x1 + step - 1) // step]


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
