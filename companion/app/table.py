"""The table pipeline: frames in, game events and warnings out, as every front end runs it.

``companion run``, ``companion replay``, the demo and the table benchmark all
feed frames through one :class:`TablePipeline`: the vision pipeline reads the
stickers, the tracker settles what it sees and infers the game. Time is the
frame's index over the frame rate, so a replay of recorded frames behaves
exactly as the live camera did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from companion.tracker.tracker import Tracker, Update, Warning
from companion.vision.layout import Layout
from companion.vision.lens import LensModel
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline


@dataclass
class TableLog:
    """Everything a run produced, in order: for ``companion replay --json`` and the benchmarks."""

    events: list[tuple[int, dict[str, object]]] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    frames: int = 0

    def add(self, update: Update) -> None:
        for _ in update.undone:  # a play taken back at the table leaves the record
            if self.events:
                self.events.pop()
        self.events += [(e.frame, e.event.to_json()) for e in update.events]
        self.warnings += list(update.warnings)


class TablePipeline:
    def __init__(self, layout: Layout, *, decoder: str | None = None, settle_s: float = 1.0,
                 first_player: int = 0, lens: LensModel | None = None) -> None:
        self.vision = (VisionPipeline(layout, lens=lens) if decoder is None
                       else VisionPipeline(layout, decoder, lens=lens))
        self.tracker = Tracker(settle_s=settle_s, first_player=first_player)
        self.last: FrameObservation | None = None

    def feed(self, index: int, now: float, frame: np.ndarray) -> Update:
        """One frame taken at ``now`` seconds."""
        self.last = self.vision.process(frame)
        return self.tracker.observe(index, now, self.last)

    @property
    def board_found(self) -> bool:
        return self.last is None or self.last.board.found
