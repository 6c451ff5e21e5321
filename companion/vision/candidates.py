"""Where QR stickers may be: dense fine texture of about a sticker's size.

A QR symbol is the only thing on the table whose every part has strong edges
at the scale of its modules: card borders and mat lines are edges in one
direction only, flat card faces have none. The detector samples the frame so
that a module spans about 1.5 pixels, marks strong local contrast (3x3
morphological gradient), and keeps the areas where such pixels are dense over
a window of a symbol's size. It only proposes crops; the decoder decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.frames import Thumbnails, thumbnail
from companion.vision.observation import Region

# Grey-level step between neighbouring modules that counts as an edge. Low
# enough for black on white at half light and blur 1.5 px, well above noise.
EDGE_THRESHOLD = 28
# Fraction of edge pixels over a symbol-sized window that marks a candidate.
DENSITY_THRESHOLD = 0.85
# Frame pixels per sample, in modules: sampling about once per module keeps
# a symbol's texture (neighbouring samples fall on unrelated modules, so they
# still differ) at a fraction of the cost of full resolution.
MODULES_PER_SAMPLE = 0.75
# Side of the tiles a large candidate is cut into, in stickers.
TILE_STICKERS = 2.2
# A candidate at least this many stickers across both ways is tiled even for a
# decoder that reads crowds: not a fanned row or a heap but textured areas run
# together (at a wide lens's edges stickers and the gaps between them shrink
# under the window sized for the middle), which zxing-cpp reads poorly whole.
CROWD_STICKERS = 5.0
# Margin added around each textured area, in stickers: the rest of a sticker
# whose texture reached the density threshold only in its middle.
MARGIN_STICKERS = 0.45
# Modules (without the quiet zone) across a version-1 QR symbol.
SYMBOL_MODULES = 21


@dataclass(frozen=True)
class StickerScale:
    """Expected sizes in frame pixels for the stickers on this table."""

    sticker_px: float
    module_px: float

    @property
    def symbol_px(self) -> float:
        return self.module_px * SYMBOL_MODULES


def find_candidates(frame: np.ndarray, region: Region, scale: StickerScale, *, tile: bool = True,
                    thumbs: Thumbnails | None = None) -> list[Region]:
    """Boxes (frame pixels, with a quiet margin) around likely stickers in ``region``.

    ``tile`` cuts boxes larger than a sticker into sticker-sized tiles, for a
    decoder that reads crowds of symbols poorly (zbar); zxing-cpp reads a
    whole fanned row as well as its tiles, and the tiles overlap: about
    twice the pixels to decode. Boxes CROWD_STICKERS across both ways are
    tiled either way. ``thumbs``: the frame's thumbnails, shared with the
    other stages (the same samples, not gathered again).
    """
    step = max(1, int(scale.module_px / MODULES_PER_SAMPLE))
    x0, y0, x1, y1 = _clip(frame, region)
    if x1 - x0 < 4 * step or y1 - y0 < 4 * step:
        return []
    height, width = frame.shape[:2]
    shared = None
    if thumbs is not None:
        whole = (x0, y0, x1, y1) == (0, 0, width, height)
        shared = thumbs.at(step) if whole else thumbs.view(step, x0, y0, x1, y1)
    small = np.ascontiguousarray(shared) if shared is not None else thumbnail(frame[y0:y1, x0:x1], step)
    kernel = np.ones((3, 3), np.uint8)
    gradient = cv2.morphologyEx(small, cv2.MORPH_GRADIENT, kernel)
    edges = cv2.threshold(gradient, EDGE_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
    window = max(3, int(scale.symbol_px / step * 0.8))
    density = cv2.blur(edges, (window, window))  # uint8 box filter: the mean of 0/255
    mask = cv2.threshold(density, int(DENSITY_THRESHOLD * 255), 255, cv2.THRESH_BINARY)[1]
    # Contours are an order of magnitude faster than connected-component stats here.
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_side = 0.3 * scale.symbol_px / step
    margin = int(scale.sticker_px * MARGIN_STICKERS)
    boxes = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if max(w, h) < min_side:
            continue  # a speck of texture, far smaller than a symbol
        box = Region(x0 + x * step - margin, y0 + y * step - margin, w * step + 2 * margin, h * step + 2 * margin)
        crowd = min(box.width, box.height) >= CROWD_STICKERS * scale.sticker_px
        boxes += tiles(box, scale.sticker_px) if tile or crowd else [box]
    return merge_boxes(boxes)


def tiles(box: Region, sticker_px: float) -> list[Region]:
    """A box too big for one sticker cut into overlapping sticker-sized tiles.

    A fanned row of cards puts stickers side by side and they join into one
    textured blob; decoders read tight crops far better than a crop of the
    whole row. Tiles of 2.2 stickers every sticker hold each sticker whole
    in at least one tile, at any rotation.
    """
    side, stride = int(TILE_STICKERS * sticker_px), max(1, int(sticker_px))
    if box.width <= side * 1.15 and box.height <= side * 1.15:
        return [box]
    xs = _starts(box.x, box.width, side, stride)
    ys = _starts(box.y, box.height, side, stride)
    return [Region(x, y, min(side, box.width), min(side, box.height)) for y in ys for x in xs]


def _starts(start: int, length: int, side: int, stride: int) -> list[int]:
    if length <= side:
        return [start]
    last = start + length - side
    return [*range(start, last, stride), last]


def merge_boxes(boxes: Iterable[Region]) -> list[Region]:
    """The boxes less those lying entirely inside another one.

    Overlapping boxes are not joined: joining would chain a fanned row of
    stickers into one crop as big as the row. Decoding a little overlap
    twice is cheaper, and reads are de-duplicated by position afterwards.
    """
    unique = list(dict.fromkeys(boxes))
    if len(unique) < 2:
        return unique
    b = np.array([(r.x, r.y, r.x + r.width, r.y + r.height) for r in unique])
    inside = (
        (b[:, None, 0] >= b[None, :, 0]) & (b[:, None, 1] >= b[None, :, 1])
        & (b[:, None, 2] <= b[None, :, 2]) & (b[:, None, 3] <= b[None, :, 3])
    )
    np.fill_diagonal(inside, False)
    contained: list[bool] = np.asarray(inside.any(axis=1)).tolist()
    return [box for box, inner in zip(unique, contained, strict=True) if not inner]


def _clip(frame: np.ndarray, region: Region) -> tuple[int, int, int, int]:
    height, width = frame.shape[:2]
    return (max(0, region.x), max(0, region.y),
            min(width, region.x + region.width), min(height, region.y + region.height))
