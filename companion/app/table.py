"""The table pipeline: frames in, game events and warnings out, as every front end runs it.

``companion run``, ``companion replay``, the demo and the table benchmark all
feed frames through one :class:`TablePipeline`: the vision pipeline reads the
stickers, the tracker settles what it sees and infers the game. Time is the
frame's index over the frame rate, so a replay of recorded frames behaves
exactly as the live camera did.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TypeAlias

import numpy as np

from companion.engine.cards import GOLD_LETTER
from companion.errors import ConfigError
from companion.tracker.mountains import MountainsTracker
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


TableTracker: TypeAlias = "Tracker | MountainsTracker"
"""The tracker of the table's ruleset: the official game's, or the mountains ruleset's."""


def make_tracker(ruleset: str = "mandala", settle_s: float = 1.0, first_player: int = 0) -> TableTracker:
    """The tracker for a ruleset (interfaces.md section 10)."""
    if ruleset == MountainsTracker.ruleset:
        return MountainsTracker(settle_s=settle_s, first_player=first_player)
    return Tracker(settle_s=settle_s, first_player=first_player)


class TablePipeline:
    """Vision and the tracker of one table. ``ruleset`` (default: the layout's) must be the one the
    layout's playmat is printed for."""

    def __init__(self, layout: Layout, *, decoder: str | None = None, settle_s: float = 1.0,
                 first_player: int = 0, lens: LensModel | None = None, ruleset: str | None = None) -> None:
        self.ruleset = layout.ruleset if ruleset is None else ruleset
        if self.ruleset != layout.ruleset:
            raise ConfigError(f"layout {layout.name!r} is a playmat for {layout.ruleset}, not for {self.ruleset}: "
                              f"use calibration/layouts/{self.ruleset}-playmat.json or a layout taught for it")
        self.vision = (VisionPipeline(layout, lens=lens) if decoder is None
                       else VisionPipeline(layout, decoder, lens=lens))
        self.tracker: TableTracker = make_tracker(self.ruleset, settle_s, first_player)
        self.last: FrameObservation | None = None

    def feed(self, index: int, now: float, frame: np.ndarray) -> Update:
        """One frame taken at ``now`` seconds."""
        observation = self.vision.process(frame)
        self.last = observation if self.ruleset == MountainsTracker.ruleset else _without_gold(observation)
        return self.tracker.observe(index, now, self.last)

    @property
    def board_found(self) -> bool:
        return self.last is None or self.last.board.found


def _without_gold(observation: FrameObservation) -> FrameObservation:
    """The official game has no gold cards: one on its table is a foreign code, reported and never trusted."""
    gold = [card for card in observation.cards if card.card_id.startswith(GOLD_LETTER)]
    if not gold:
        return observation
    kept = tuple(card for card in observation.cards if not card.card_id.startswith(GOLD_LETTER))
    return replace(observation, cards=kept, foreign_codes=observation.foreign_codes + len(gold))
