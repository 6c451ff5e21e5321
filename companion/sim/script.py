"""A whole game at the table as a timeline of shots, and what an ideal camera reads of it.

Two writers lay a finished game of the rules engine on the table, each with
its own players' habits: :mod:`companion.sim.game` (tidy players: every corner
code in view, a rest after each move) and :mod:`companion.sim.sloppy` (tight
fans turned either way, one stacked discard pile, quick moves, bumps). Both
produce a :class:`GameScript`; the frames come from
:func:`companion.sim.frames.render_frames` (through the vision pipeline), or
straight from :func:`script_observations` (the ideal camera, no images).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from companion.engine import Game
from companion.sim.scene import PlacedCard, SceneOptions, camera_homography, project, scene_truth
from companion.vision.layout import Layout, Point
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation
from companion.vision.sharpness import SMEAR_MODULES
from companion.vision.stickers import STICKER_MODULES

# The ideal camera under motion blur (a bumped table), in QR modules of the
# stickers: up to half a module every sticker still reads, from one and a half
# none does; in between each card reads by chance.
SHARP_BLUR_MODULES = 0.5
LOST_BLUR_MODULES = 1.5
# ArUco finds a marker while the blur stays under half a cell of it.
FIDUCIAL_BLUR_CELLS = 0.5


@dataclass(frozen=True)
class Shot:
    """A scene held for a while: still, or shaken (the table bumped) when ``blur_mm`` > 0."""

    cards: tuple[PlacedCard, ...]
    hand: tuple[Point, ...] | None
    seconds: float
    note: str = ""
    blur_mm: float = 0.0
    """Length of the motion blur, in millimetres of the mat (0: a sharp, still frame)."""
    blur_deg: float = 0.0
    """Direction of the motion blur in the frame (0: along the mat's x axis)."""


@dataclass(frozen=True)
class Injection:
    """An illegal placement, taken back: the tracker should warn about ``card_id`` in ``zone``."""

    card_id: str
    zone: str
    start_s: float
    end_s: float
    reason: str


@dataclass(frozen=True)
class GameScript:
    """A whole game as shots, whichever way it was laid (``style``: ``tidy`` or ``sloppy``)."""

    game: Game
    shots: tuple[Shot, ...]
    injections: tuple[Injection, ...] = ()
    style: str = "tidy"
    event_done_s: tuple[float, ...] = ()
    """For each event of ``game.stack``: when the table shows it done (its cards laid or taken, the
    hand gone), in seconds from the start; what the tracker has to catch up with."""

    @property
    def duration_s(self) -> float:
        return sum(shot.seconds for shot in self.shots)

    def frame_shots(self, fps: float) -> list[int]:
        """The shot shown in each frame at ``fps``."""
        frames: list[int] = []
        elapsed = 0.0
        for index, shot in enumerate(self.shots):
            elapsed += shot.seconds
            frames += [index] * (round(elapsed * fps) - len(frames))
        return frames


def script_observations(script: GameScript, layout: Layout, fps: float, miss_p: float = 0.01,
                        options: SceneOptions | None = None, seed: int = 0) -> Iterator[FrameObservation]:
    """Ideal camera observations of each frame (see :class:`IdealCamera`)."""
    camera = IdealCamera(layout, miss_p, options, seed)
    for shot_index in script.frame_shots(fps):
        yield camera.read(shot_index, script.shots[shot_index])


class IdealCamera:
    """What an ideal camera reads of each frame of a game's shots.

    Every card with a fully visible sticker is read (at its card centre), a
    few missed at random (``miss_p``). Frames of a bumped table read little
    or nothing: a card reads only by chance once the motion blur nears a QR
    module, not at all beyond one and a half, and the board is lost once the
    blur reaches half a fiducial cell. From :data:`SMEAR_MODULES` of a module
    on, the frame says it is smeared (``board.smeared``), as vision does.
    Frames are read in order, one :meth:`read` each (the misses are drawn
    from one seeded stream); what a shot shows is worked out once per shot.
    """

    def __init__(self, layout: Layout, miss_p: float = 0.01, options: SceneOptions | None = None,
                 seed: int = 0) -> None:
        self.layout = layout
        self.miss_p = miss_p
        self.options = options or SceneOptions()
        self.rng = random.Random(seed)
        self.module_mm = (self.options.sticker_mm or layout.sticker_mm) / STICKER_MODULES
        self.cell_mm = min((f.size_mm for f in layout.fiducials), default=24.0) / 6
        self.seen: dict[int, tuple[CardObservation, ...]] = {}
        self.board = BoardStatus(True, tuple(f.id for f in layout.fiducials))
        self.px_per_mm = float(np.hypot(*(project(camera_homography(layout.size_mm, self.options),
                                                  [(0.0, 0.0), (1.0, 0.0)]) @ np.array([-1.0, 1.0]))))
        self.zones = tuple(layout.zones)
        self.lost = BoardStatus(False, (), reason="board not found (motion blur)")

    def read(self, shot_index: int, shot: Shot) -> FrameObservation:
        """One frame of ``shot`` (the ``shot_index``-th of the game: what it shows is worked out once)."""
        if shot.blur_mm >= FIDUCIAL_BLUR_CELLS * self.cell_mm:
            return FrameObservation(self.lost)
        if shot_index not in self.seen:
            truth = scene_truth(self.layout, shot.cards, replace(self.options, hand=shot.hand))
            self.seen[shot_index] = tuple(
                CardObservation(t.card_id, t.center_mm, t.zone, 1.0,
                                stickers_mm=tuple(s.center_mm for s in t.stickers if s.visible))
                for t in truth if t.visible and t.zone is not None)
        blur = shot.blur_mm / self.module_mm
        read_p = min(1.0, max(0.0, (LOST_BLUR_MODULES - blur) / (LOST_BLUR_MODULES - SHARP_BLUR_MODULES)))
        rng = self.rng
        cards = tuple(c for c in self.seen[shot_index] if rng.random() >= self.miss_p and rng.random() < read_p)
        if blur < SMEAR_MODULES:
            return FrameObservation(self.board, cards)
        smeared = replace(self.board, smear_px=round(shot.blur_mm * self.px_per_mm, 2), smeared=True)
        return FrameObservation(smeared, cards, smeared_zones=self.zones)
