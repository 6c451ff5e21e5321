"""Which parts of the frame changed since they were last decoded.

Works on a strided thumbnail (a few hundred pixels wide), lightly blurred so
sensor noise does not count as change. The reference is not simply the
previous frame: an area's reference is refreshed only when that area is
decoded again, so a slow drift (light fading, a card nudged a pixel per
frame) still adds up and triggers a new read instead of creeping past.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.frames import Thumbnails, thumbnail
from companion.vision.observation import Region

# Grey levels of difference that count as change. Sensor noise after the 3x3
# blur stays well below; a card, a hand or a shadow is far above.
DIFF_THRESHOLD = 20
# Above this fraction of changed thumbnail pixels the whole view is assumed to
# have changed (camera bumped, light switched): a full scan is cheaper.
GLOBAL_CHANGE_FRACTION = 0.35


@dataclass(frozen=True)
class ChangeMap:
    """The changed thumbnail pixels and their boxes in frame pixels."""

    mask: np.ndarray  # uint8 0/255 at thumbnail scale
    step: int
    regions: tuple[Region, ...]
    fraction: float

    @property
    def is_global(self) -> bool:
        return self.fraction >= GLOBAL_CHANGE_FRACTION

    def touches(self, box: Region) -> bool:
        """Whether any changed thumbnail pixel lies inside ``box`` (frame pixels)."""
        s = self.step
        x0, y0 = max(0, box.x // s), max(0, box.y // s)
        x1, y1 = (box.x + box.width) // s + 1, (box.y + box.height) // s + 1
        return bool(self.mask[y0:y1, x0:x1].any())


class ChangeDetector:
    """Compares thumbnails with a per-area reference; see the module docstring."""

    def __init__(self, step: int, grow_px: int) -> None:
        self.step = step
        # Changed areas are grown by about a sticker, so a crop around a
        # change always holds every sticker the change touched.
        self._grow = max(1, grow_px // step)
        self._reference: np.ndarray | None = None

    def thumbnail(self, frame: np.ndarray, thumbs: Thumbnails | None = None) -> np.ndarray:
        """The frame's blurred thumbnail; ``thumbs``: its thumbnails, shared with the other stages."""
        return cv2.blur(thumbs.at(self.step) if thumbs is not None else thumbnail(frame, self.step), (3, 3))

    def reset(self, thumb: np.ndarray) -> None:
        """Take ``thumb`` as the reference everywhere (after a full scan)."""
        self._reference = thumb.copy()

    @property
    def reference(self) -> np.ndarray | None:
        """The reference as it is now. Never changed in place later (:meth:`accept` updates a copy), so it
        can be kept to compare a later frame with (:meth:`compare_with`) and put back (:meth:`restore`)."""
        return self._reference

    def restore(self, reference: np.ndarray | None) -> None:
        """Take a reference kept from :attr:`reference` back as the reference."""
        self._reference = reference

    def compare(self, thumb: np.ndarray) -> ChangeMap | None:
        """Changed areas of ``thumb``; None when there is no comparable reference."""
        return self.compare_with(thumb, self._reference)

    def compare_with(self, thumb: np.ndarray, ref: np.ndarray | None) -> ChangeMap | None:
        """Changed areas of ``thumb`` against ``ref`` (a reference kept before); None when it is not comparable."""
        if ref is None or ref.shape != thumb.shape:
            return None
        changed = cv2.threshold(cv2.absdiff(thumb, ref), DIFF_THRESHOLD, 255, cv2.THRESH_BINARY)[1]
        fraction = float(cv2.countNonZero(changed)) / changed.size
        if fraction == 0.0:
            return ChangeMap(changed, self.step, (), 0.0)
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * self._grow + 1, 2 * self._grow + 1))
        grown = cv2.dilate(changed, kernel)
        return ChangeMap(changed, self.step, self._boxes(grown), fraction)

    def accept(self, thumb: np.ndarray, changes: ChangeMap) -> None:
        """The changed areas were decoded again: they are the new reference there."""
        if self._reference is None:
            self.reset(thumb)
            return
        if not changes.regions:
            return
        self._reference = self._reference.copy()  # a reference kept through :attr:`reference` stays as it was
        for box in changes.regions:
            s = self.step
            xs, ys = slice(box.x // s, (box.x + box.width) // s), slice(box.y // s, (box.y + box.height) // s)
            self._reference[ys, xs] = thumb[ys, xs]

    def _boxes(self, grown: np.ndarray) -> tuple[Region, ...]:
        count, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        s = self.step
        return tuple(
            Region(int(x) * s, int(y) * s, int(w) * s, int(h) * s)
            for x, y, w, h, _area in stats[1:count]
        )
