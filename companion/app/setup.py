"""The set-up menu's tasks inside ``companion run``: teach the playmat, check the stickers.

The players open them from the panel (menu, "Set up table"); ``run``'s
worker hands the frames to the task instead of the game while it lasts
(nothing reaches the journal), and shows its :class:`SetupView`:

- **Teach my playmat** (:class:`TeachTask`): the fiducials of the
  configured layout stuck near the mat's corners, then one card per zone in
  the order of interfaces.md section 2, as ``companion layout teach`` does
  (:class:`companion.app.teach.Teaching`). The taught layout is written to
  ``STATE_DIR/layout.json`` (:data:`TAUGHT_LAYOUT`) and used at once, and by
  every later start (:func:`layout_for_run`).
- **Check stickers** (:class:`CheckTask`): the players choose a color with
  the buttons and lay that color's cards; every card whose sticker belongs
  to another color is named (:class:`companion.markers.check.ColorCheck`).
- **Shipped playmat** (:func:`forget_taught`): back to the configured
  layout; the taught file is kept beside it as ``layout-taught.json``.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.engine.cards import CARDS_PER_COLOR
from companion.errors import LayoutError
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.setup_view import SetupProblem, SetupView
from companion.vision.layout import ZONE_NAMES, Layout, layout_to_dict, load_layout
from companion.vocab.colors import COLOR_LETTERS, COLOR_NAMES

if TYPE_CHECKING:
    import numpy as np

    from companion.app.table import TablePipeline
    from companion.app.teach import Teaching
    from companion.markers.check import ColorCheck

log = logging.getLogger("companion.setup")

TAUGHT_LAYOUT = "layout.json"
"""The playmat taught from the set-up menu, in the state folder; ``run`` uses it when it is there."""
SET_ASIDE = "layout-taught.json"
"""Where "Shipped playmat" moves the taught layout: kept, not deleted (teach again, or move it back)."""
NO_CARD_S = 8.0
"""A zone waiting this long with no new card in view: the screen asks whether the card is face up."""


def layout_for_run(configured: Layout, state_dir: Path, ruleset: str) -> Layout:
    """The layout ``run`` watches: the one taught from the set-up menu when there is one for this ruleset,
    else the configured one (the shipped playmat unless ``layout.path`` names another)."""
    taught = state_dir / TAUGHT_LAYOUT
    if not taught.is_file():
        return configured
    try:
        layout = load_layout(taught)
    except LayoutError as error:
        log.error("%s (the taught playmat): using %r instead", error, configured.name)
        return configured
    if layout.ruleset != ruleset:
        log.warning("layout: %s is a playmat for %s, this table plays %s: using %r", taught, layout.ruleset,
                    ruleset, configured.name)
        return configured
    log.info("layout: the playmat taught from the set-up menu, %s (the set-up menu's Shipped mat goes back to %r)",
             taught, configured.name)
    return layout


def use_layout(pipeline: TablePipeline, layout: Layout) -> None:
    """Let the game's vision read the table through ``layout`` from the next frame; the game itself stays."""
    from companion.vision.pipeline import VisionPipeline

    old = pipeline.vision
    pipeline.vision = VisionPipeline(layout, old.decoder, lens=old.lens)


def save_taught(layout: Layout, state_dir: Path) -> Path:
    """Write the taught layout where :func:`layout_for_run` finds it, atomically (a power cut leaves the old one)."""
    path = state_dir / TAUGHT_LAYOUT
    state_dir.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.part")
    partial.write_text(json.dumps(layout_to_dict(layout), indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return path


def forget_taught(state_dir: Path) -> Path | None:
    """Move the taught layout aside (``layout-taught.json``); the path it went to, None when there was none."""
    path = state_dir / TAUGHT_LAYOUT
    if not path.is_file():
        return None
    aside = state_dir / SET_ASIDE
    os.replace(path, aside)
    return aside


# --------------------------------------------------------------------------- teaching


@dataclass
class TeachTask:
    """Teaching the playmat from the panel: what :class:`Teaching` needs, and what went wrong so far."""

    source: Layout
    """The configured layout: its fiducials (ids, printed sizes), card and sticker sizes are on the mat."""
    fps: float
    state_dir: Path
    decoder: str | None = None
    teaching: Teaching = field(init=False)
    saved: Layout | None = None
    failure: SetupProblem = ""
    _asked_at: float | None = None
    _asked_zone: str | None = None

    def __post_init__(self) -> None:
        from companion.app.teach import Teaching

        self.teaching = Teaching(self.source, self.fps, name="taught-playmat", decoder=self.decoder)

    def feed(self, now: float, index: int, image: np.ndarray) -> Layout | None:
        """One frame; the new layout when this frame finished the teaching (saved and to be used now)."""
        if self.saved is not None or self.failure:
            return None
        self.teaching.feed(index, image)
        zone = self.teaching.next_zone
        if zone != self._asked_zone:
            self._asked_zone, self._asked_at = zone, now
        if self.teaching.done:
            return self._finish()
        return None

    def _finish(self) -> Layout | None:
        from companion.app.teach import TeachError

        try:
            layout = self.teaching.layout()
        except TeachError as error:
            log.warning("teaching the playmat failed: %s", error)
            self.failure = "fiducial-turned" if "turned" in str(error) else "zones-overlap"
            return None
        try:
            path = save_taught(layout, self.state_dir)
        except OSError as error:
            log.error("cannot save the taught playmat in %s: %s", self.state_dir, error)
            self.failure = "not-saved"
            return None
        log.info("playmat taught: %d zones, %d fiducials, saved in %s", len(layout.zones), len(layout.fiducials), path)
        self.saved = layout
        return layout

    def view(self, now: float) -> SetupView:
        total = len(ZONE_NAMES)
        teaching = self.teaching
        if self.saved is not None:
            return SetupView("teach", "saved", done=total, total=total)
        if self.failure:
            return SetupView("teach", "failed", done=teaching.taught, total=total, problem=self.failure)
        zone = teaching.next_zone
        if zone is None:
            from companion.app.teach import FIDUCIAL_FRAMES
            from companion.vision.teach import MIN_FIDUCIALS

            short = teaching.looked >= FIDUCIAL_FRAMES and teaching.fiducials_seen < MIN_FIDUCIALS
            return SetupView("teach", "fiducials", seen=teaching.fiducials_seen, total=total,
                             problem="few-fiducials" if short else "")
        return SetupView("teach", "cards", zone=zone, done=teaching.taught, total=total,
                         problem=self._card_problem(now))

    def _card_problem(self, now: float) -> SetupProblem:
        last = self.teaching.last
        if last is None:
            return ""
        if not last.board.found:
            return "no-mat"
        laid = set(self.teaching.laid_cards())
        new = {card.card_id for card in last.cards} - laid
        if len(new) > 1:
            return "two-cards"  # both would settle, in an order nobody chose: which zone is whose?
        waited = now - self._asked_at if self._asked_at is not None else 0.0
        return "no-card" if not new and waited >= NO_CARD_S else ""


# --------------------------------------------------------------------------- checking stickers


@dataclass
class CheckTask:
    """Checking one color's stickers: the players lay that color's cards, the wrong ones are named."""

    layout: Layout
    color: str
    """The color letter whose cards are laid."""
    decoder: str | None = None
    check: ColorCheck = field(init=False)

    def __post_init__(self) -> None:
        from companion.markers.check import ColorCheck

        self.check = ColorCheck(self.layout, self.decoder)

    def feed(self, now: float, index: int, image: np.ndarray) -> None:
        self.check.feed(image)

    def view(self, now: float) -> SetupView:
        results = self.check.results()
        ours = sum(result.card_id.startswith(self.color) for result in results)
        wrong = tuple((r.card_id, _letter(r.face_color)) for r in results if r.face_color is not None and not r.ok)
        unsure = tuple(r.card_id for r in results if r.face_color is None)
        problem: SetupProblem = ""
        if self.check.frames and not self.check.board_seen:
            problem = "no-mat"
        elif self.check.frames >= 3 and not results:
            problem = "no-sticker"
        return SetupView("check", "lay", done=ours, total=CARDS_PER_COLOR, color=self.color, wrong=wrong,
                         unsure=unsure, problem=problem)


def _letter(color_name: str) -> str:
    return COLOR_LETTERS[COLOR_NAMES.index(color_name)]


# --------------------------------------------------------------------------- the desk run's worker keeps


@dataclass
class SetupDesk:
    """The set-up tasks of one ``run``: started and ended by the players' commands, fed by the worker."""

    configured: Layout
    """The configured layout (the shipped playmat unless ``layout.path`` names another)."""
    state_dir: Path
    fps: float
    ruleset: str = "mandala"
    decoder: str | None = None
    task: TeachTask | CheckTask | None = None
    switch_to: Layout | None = None
    """A layout the game's vision must take up now (taught, or the configured one again); the worker takes it."""
    _now: float = 0.0

    ACTIONS = frozenset({AppAction.TEACH, AppAction.CHECK_STICKERS, AppAction.SETUP_NEXT, AppAction.SETUP_AGAIN,
                         AppAction.SETUP_CLOSE, AppAction.SHIPPED_LAYOUT})

    @property
    def active(self) -> bool:
        return self.task is not None

    def apply(self, command: AppCommand, layout_in_use: Layout) -> str:
        """Start, change or end a task; returns a summary for the log."""
        action = command.action
        if action is AppAction.TEACH:
            self.task = TeachTask(self.configured, self.fps, self.state_dir, self.decoder)
            return "set-up: teaching the playmat" + ("" if self.ruleset == "mandala" else " (not for this ruleset)")
        if action is AppAction.CHECK_STICKERS:
            self.task = CheckTask(layout_in_use, COLOR_LETTERS[0], self.decoder)
            return "set-up: checking the red cards' stickers"
        if action is AppAction.SHIPPED_LAYOUT:
            aside = forget_taught(self.state_dir)
            self.switch_to = self.configured
            return (f"set-up: the configured playmat again; the taught one kept as {aside}" if aside
                    else "set-up: the configured playmat (none was taught)")
        task = self.task
        if action is AppAction.SETUP_CLOSE or task is None:
            self.task = None
            return "set-up: closed"
        if action is AppAction.SETUP_NEXT and isinstance(task, CheckTask):
            color = COLOR_LETTERS[(COLOR_LETTERS.index(task.color) + 1) % len(COLOR_LETTERS)]
            self.task = CheckTask(task.layout, color, self.decoder)
            return f"set-up: checking the {COLOR_NAMES[COLOR_LETTERS.index(color)]} cards' stickers"
        if action is AppAction.SETUP_AGAIN:
            if isinstance(task, CheckTask):
                self.task = CheckTask(task.layout, task.color, self.decoder)
                return "set-up: checking the laid cards afresh"
            if task.saved is not None:
                self.task = None  # taught and saved: C leaves, as the screen says
                return "set-up: closed"
            self.task = TeachTask(self.configured, self.fps, self.state_dir, self.decoder)
            return "set-up: teaching the playmat again"
        return f"set-up: {command}: nothing to do"

    def feed(self, now: float, index: int, image: np.ndarray) -> None:
        self._now = now
        task = self.task
        if isinstance(task, TeachTask):
            if self.ruleset != "mandala":
                return
            layout = task.feed(now, index, image)
            if layout is not None:
                self.switch_to = layout
        elif task is not None:
            task.feed(now, index, image)

    def view(self, now: float | None = None) -> SetupView | None:
        task = self.task
        if task is None:
            return None
        if isinstance(task, TeachTask) and self.ruleset != "mandala":
            return SetupView("teach", "unsupported")
        return task.view(self._now if now is None else now)

    def take_layout(self) -> Layout | None:
        """The layout to switch the game's vision to, once."""
        layout, self.switch_to = self.switch_to, None
        return layout
