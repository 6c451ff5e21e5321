"""Teaching a playmat frame by frame: what ``companion layout teach`` and the set-up menu drive.

:class:`Teaching` is fed frames (from files, a video or the live camera)
and says at each moment what the person should do next (:attr:`prompt`);
:meth:`Teaching.layout` makes the layout once every zone has its card. The
geometry is :mod:`companion.vision.teach`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from companion.vision.fiducials import FiducialSighting
from companion.vision.layout import ZONE_NAMES, Fiducial, Layout
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline
from companion.vision.teach import (
    MIN_FIDUCIALS,
    SETTLE_S,
    FiducialFit,
    LaidCards,
    TeachError,
    fit_fiducials,
    taught_layout,
)

FIDUCIAL_FRAMES = 5
"""Frames looked at for the fiducials before cards are read: the one showing most of them is used."""


@dataclass
class Teaching:
    """One teaching session: fiducials first, then one card per zone in ZONE_NAMES order."""

    source: Layout
    """The layout whose fiducials (ids and printed sizes), card and sticker sizes the mat carries."""
    fps: float
    name: str = "taught-playmat"
    decoder: str | None = None
    _best: dict[int, FiducialSighting] = field(default_factory=dict)
    _looked: int = 0
    _fit: FiducialFit | None = None
    _pipeline: VisionPipeline | None = None
    _cards: LaidCards | None = None
    _shift: tuple[float, float] = (0.0, 0.0)
    _empty: np.ndarray | None = None
    last: FrameObservation | None = None
    """What the cards step saw in the last frame (the set-up screen says what went wrong from it)."""

    @property
    def prompt(self) -> str:
        """What to do now, in a few words (the terminal and the OLED show it)."""
        if self._cards is None:
            return f"stick {MIN_FIDUCIALS} fiducials near the mat's corners, all in view"
        zone = self._cards.next_zone()
        if zone is None:
            return "every zone has its card: done"
        return f"lay a card in {zone} ({len(self._cards.laid()) + 1}/{len(ZONE_NAMES)})"

    @property
    def taught(self) -> int:
        """Zones with their card so far."""
        return 0 if self._cards is None else len(self._cards.laid())

    @property
    def done(self) -> bool:
        return self._cards is not None and self._cards.next_zone() is None

    @property
    def next_zone(self) -> str | None:
        """The zone whose card is to be laid now; None before the fiducials are placed, and when done."""
        return None if self._cards is None else self._cards.next_zone()

    @property
    def fiducials_seen(self) -> int:
        """Fiducials of the source layout seen so far in one frame (the best frame)."""
        return len(self._best)

    @property
    def looked(self) -> int:
        """Frames looked at for the fiducials."""
        return self._looked

    def laid_cards(self) -> list[str]:
        """Ids of the cards laid so far, in the order laid (one per zone taught)."""
        return [] if self._cards is None else [card for card, _ in self._cards.laid()]

    def feed(self, index: int, image: np.ndarray) -> None:
        if self._cards is None:
            self._look_for_fiducials(image)
            return
        assert self._pipeline is not None
        self.last = self._pipeline.process(image)
        self._cards.add(index, self.last)

    def _look_for_fiducials(self, image: np.ndarray) -> None:
        finder = VisionPipeline(self.source, self.decoder or "zxing")
        finder.scan(image, thorough=True)
        seen = finder.fiducial_sightings
        if len(seen) > len(self._best):
            self._best = dict(seen)
            self._empty = image
        self._looked += 1
        if self._looked >= FIDUCIAL_FRAMES and len(self._best) >= MIN_FIDUCIALS:
            self._start_cards()

    def _start_cards(self) -> None:
        sizes = {f.id: f.size_mm for f in self.source.fiducials}
        self._fit = fit_fiducials(self._best, sizes)
        # Provisional mat coordinates: the fitted ones moved clear of the origin (the pipeline needs no more).
        xs = [x for x, _ in self._fit.centres_mm.values()]
        ys = [y for _, y in self._fit.centres_mm.values()]
        self._shift = (100.0 - min(xs), 100.0 - min(ys))
        fiducials = tuple(Fiducial(i, (x + self._shift[0], y + self._shift[1]), self._fit.sizes_mm[i])
                          for i, (x, y) in sorted(self._fit.centres_mm.items()))
        size = (max(xs) - min(xs) + 200.0, max(ys) - min(ys) + 200.0)
        provisional = Layout("teaching", size, self.source.card_mm, self.source.sticker_mm, fiducials,
                             MappingProxyType({}))
        self._pipeline = VisionPipeline(provisional, self.decoder or "zxing")
        self._cards = LaidCards(max(2, round(SETTLE_S * self.fps)))

    def layout(self) -> Layout:
        """The taught layout; TeachError saying what is missing when the frames did not show enough."""
        if self._cards is None:
            if len(self._best) < MIN_FIDUCIALS:
                found = ", ".join(map(str, sorted(self._best))) or "none"
                raise TeachError(f"{len(self._best)} fiducials of the layout {self.source.name!r} seen ({found}); "
                                 f"stick at least {MIN_FIDUCIALS}, one near each corner of the mat, all in view")
            self._start_cards()
        assert self._cards is not None and self._fit is not None
        centres = {zone: (x - self._shift[0], y - self._shift[1]) for zone, (x, y) in self._cards.centres().items()}
        from companion.markers.codes import FIDUCIAL_CELLS, FIDUCIAL_QUIET_CELLS

        margins = {i: size * FIDUCIAL_QUIET_CELLS / FIDUCIAL_CELLS for i, size in self._fit.sizes_mm.items()}
        return taught_layout(self.name, self._fit, centres, self.source.card_mm, self.source.sticker_mm, margins,
                             self._empty)

    @property
    def fit(self) -> FiducialFit | None:
        return self._fit


__all__ = ["TeachError", "Teaching"]
