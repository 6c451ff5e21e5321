"""One table's game between the pipeline and the journal: what the worker thread of ``run`` owns.

A :class:`Session` feeds frames to the :class:`~companion.app.table.TablePipeline`
and applies the players' commands (undo, override, discard count, new game,
first player), and writes every change to the journal *before* the caller
may show it: :meth:`Journal.append` returns after the commit, and the display
model is built only after :meth:`feed` or :meth:`apply` returned. It is not
thread-safe: one thread (the runner's worker, or the demo's loop) uses it.

Journal kinds: a tracked event is ``event`` (``override`` when the players
forced it, by a button or by playing on past a warning), a ``resync`` record
line (the table re-read) a ``resync``, a discard count ``correction``, an
undo ``undo`` (also a play the tracker saw taken back, and an answer to "which
was it?" that takes the other reading); warnings and
overrides that only accept the table as it lies are ``warning`` lines (the
latter marked overridden, and taken up again on resume). A game starts in
the journal when the tracker sees the deal and is finished when it is over
with every cup card revealed, or abandoned by a new game. A game joined in
progress starts with a ``position`` header (the table as it was adopted).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.app.journal import Journal, JournaledGame, Kind, standing_lines
from companion.app.table import TablePipeline, TableTracker
from companion.engine import Game, MountainsGame, Resync
from companion.engine.base import BaseGame
from companion.engine.record import record_header
from companion.errors import ConfigError
from companion.tracker.anchor import JoinCounts
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import JOIN_FIELDS, PLAYERS, CameraStatus, DisplayModel
from companion.tracker.model import display_model
from companion.tracker.mountains import MountainsTracker
from companion.tracker.mountains_display import mountains_display_model
from companion.tracker.tracker import TrackedEvent, Tracker, Update, Warning

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger("companion.session")


@dataclass(frozen=True, slots=True)
class Applied:
    """What a player's command did, for the log and the narration."""

    command: AppCommand
    summary: str
    changed: bool


class Session:
    def __init__(self, pipeline: TablePipeline, journal: Journal | None = None) -> None:
        self.pipeline = pipeline
        self.journal = journal
        self.game_id: int | None = None
        """The journal's id of the game in progress; None before a deal, and once it is finished."""
        self.now = 0.0
        """Tracker time of the last frame (seconds)."""
        self.frames = 0

    @property
    def tracker(self) -> TableTracker:
        return self.pipeline.tracker

    @property
    def ruleset(self) -> str:
        """The game the table plays, as its tracker follows it."""
        return MountainsTracker.ruleset if isinstance(self.tracker, MountainsTracker) else "mandala"

    # -- start ----------------------------------------------------------------------

    def resume(self) -> JournaledGame | None:
        """Carry on with the latest unfinished game of the journal; None when there is none."""
        if self.journal is None:
            return None
        saved = self.journal.resume()
        if saved is None:
            return None
        game = saved.rebuild()
        if game.rules.name != self.ruleset:
            log.warning("game %d of the journal is a game of %s, this table plays %s: not resumed",
                        saved.info.id, game.rules.name, self.ruleset)
            return None
        self.tracker.resume(game, _standing_frames(saved, len(game.stack)))  # type: ignore[arg-type]
        self.tracker.accepted.update(saved.accepted())  # else a card accepted as it lies is warned again
        self.game_id = saved.info.id
        log.info("resumed game %d: %d events, %s", saved.info.id, len(game.stack), game.phase.name.lower())
        self._finish_if_over()
        return saved

    # -- frames ---------------------------------------------------------------------

    def feed(self, index: int, now: float, image: np.ndarray) -> Update:
        """One frame through vision and tracker; every change is journaled when this returns."""
        update = self.pipeline.feed(index, now, image)
        self.now, self.frames = now, self.frames + 1
        if update.started:
            self._start_game()
        for taken in update.undone:  # a play taken back; mountains: a turn its discard showed the draw of
            self._append("undo", taken.event, taken.frame)
            log.info("frame %d: taken back: %s", taken.frame, taken.event)
        for tracked in update.events:
            self._append(_kind(tracked), tracked.event, tracked.frame)
            log.info("frame %d: %s%s", tracked.frame, tracked.event, " (forced)" if tracked.forced else "")
        for notice in update.notices:
            detail = f" ({notice.detail})" if notice.detail else ""
            log.info("frame %d: %s: %s%s", index, notice.title, notice.text, detail)
        for warning in update.warnings:
            self._append("warning", _warning_json(warning), warning.frame)
            log.warning("frame %d: %s: %s %s", warning.frame, warning.reason, warning.message, warning.fix)
        if update.events:
            self._finish_if_over()
        return update

    @property
    def board_found(self) -> bool:
        return self.pipeline.board_found

    def model(self, now: float | None = None, camera: CameraStatus = "ok") -> DisplayModel:
        when = self.now if now is None else now
        tracker = self.tracker
        model = (mountains_display_model(tracker, when, camera_ok=camera == "ok", board_ok=self.pipeline.board_found)
                 if isinstance(tracker, MountainsTracker) else
                 display_model(tracker, when, camera_ok=camera == "ok", board_ok=self.pipeline.board_found))
        return model if camera in ("ok", model.camera) else replace(model, camera=camera)

    # -- the players' commands --------------------------------------------------------

    def apply(self, command: AppCommand) -> Applied:
        """Apply a command from the buttons between frames; journaled before this returns."""
        action = command.action
        if action is AppAction.UNDO:
            return self._undo(command)
        if action is AppAction.OVERRIDE:
            return self._override(command)
        if action is AppAction.CONFIRM_DISCARD:
            return self._confirm_discard(command)
        if action is AppAction.NEW_GAME:
            return self._new_game(command)
        if action is AppAction.FIRST_PLAYER:
            return self._first_player(command)
        if action is AppAction.JOIN:
            return self._join(command)
        if action is AppAction.CHOOSE:
            return self._choose(command)
        return Applied(command, f"{command}: not for the game", False)  # restart, power off: the runner's

    def _undo(self, command: AppCommand) -> Applied:
        event = self.tracker.undo()
        if event is None:
            return Applied(command, "undo: nothing to undo", False)
        self._append("undo", event, self.tracker.frame)
        return Applied(command, f"undone: {event}", True)

    def _override(self, command: AppCommand) -> Applied:
        target = _matching(self.tracker.warnings, command.warning_id)
        if target is None:
            return Applied(command, "override: that warning is gone", False)
        tracked: TrackedEvent | None = self.tracker.override(target)
        if tracked is not None:
            self._append("override", tracked.event, tracked.frame)
            self._finish_if_over()
            return Applied(command, f"overridden: {tracked.event}", True)
        self._append("warning", {**_warning_json(target), "overridden": True}, self.tracker.frame)
        return Applied(command, f"accepted as it lies: {target.reason}", True)

    def _confirm_discard(self, command: AppCommand) -> Applied:
        before = self.tracker.events[-1] if self.tracker.events else None
        self.tracker.confirm_discard(command.count or 0)
        after = self.tracker.events[-1] if self.tracker.events else None
        if after is None or after == before:
            return Applied(command, f"discard of {command.count}: as seen", False)
        self._append("correction", after.event, after.frame)
        return Applied(command, f"corrected: {after.event}", True)

    def _new_game(self, command: AppCommand) -> Applied:
        self._finish("abandoned for a new game")
        self.tracker.new_game()
        deal = ("lay the starting cards on the start row" if isinstance(self.tracker, MountainsTracker)
                else "deal two cards into each mountain")
        return Applied(command, f"new game: {deal}", True)

    def _first_player(self, command: AppCommand) -> Applied:
        player = PLAYERS.index(command.player or "p1")
        game: BaseGame[Any, Any] | None = self.tracker.game
        self.tracker.set_first_player(player)
        if game is not None and not game.stack and self.game_id is not None:
            # The deal's header names the first player: the game starts again in the journal.
            self._start_game()
        return Applied(command, f"first player: {PLAYERS[player]}", True)

    def _official(self, what: str) -> Tracker:
        """The official game's tracker, for what only it does (joining, choosing a reading)."""
        if not isinstance(self.tracker, Tracker):
            raise ConfigError(f"{what}: not for a table of the {self.ruleset} ruleset (the official game only)")
        return self.tracker

    def join(self, counts: JoinCounts, *, ask: bool) -> None:
        """Join the game in progress on the table (``--join``); values not given are asked (``ask``) or estimated."""
        tracker = self._official("--join")
        self._finish("abandoned: joining the game on the table")
        tracker.new_game()
        missing = None in (counts.turn, counts.hands, counts.cups, counts.deck)
        if ask and missing:
            tracker.asking = counts  # the display asks; the answers come back as a JOIN command
        else:
            tracker.request_join(counts)

    def _join(self, command: AppCommand) -> Applied:
        values = command.values
        if values is None or len(values) != len(JOIN_FIELDS) or not isinstance(self.tracker, Tracker):
            return Applied(command, "join: no values" if values is None else "join: not for this table", False)
        self._finish("abandoned: joining the game on the table")
        turn, hand1, hand2, cup1, cup2, deck = values
        self.tracker.new_game()
        self.tracker.request_join(JoinCounts(turn, (hand1, hand2), (cup1, cup2), deck))
        return Applied(command, f"join: {PLAYERS[turn]} to play, hands {hand1},{hand2}, cups {cup1},{cup2}, "
                                f"deck {deck}", True)

    def _choose(self, command: AppCommand) -> Applied:
        if not isinstance(self.tracker, Tracker):
            return Applied(command, "choice: nothing to choose on this table", False)
        undone, applied = self.tracker.choose(command.count or 0)
        if not undone and not applied:
            return Applied(command, "choice: kept as applied", False)
        for taken in undone:
            self._append("undo", taken.event, self.tracker.frame)
        for tracked in applied:
            self._append("override", tracked.event, tracked.frame)
        return Applied(command, f"choice: the other reading, {len(applied)} events", True)

    # -- journal ----------------------------------------------------------------------

    def _start_game(self) -> None:
        self._finish("abandoned: a new deal was seen")
        game: Game | MountainsGame | None = self.tracker.game
        if self.journal is not None and game is not None:
            self.game_id = self.journal.start_game_from_header(record_header(game, table=True))
            log.info("game %d started: %s first", self.game_id, PLAYERS[game.first_player])

    def _append(self, kind: Any, line: Any, frame: int | None) -> None:
        if self.journal is not None and self.game_id is not None:
            self.journal.append(self.game_id, kind, line, frame=frame)

    def _finish_if_over(self) -> None:
        game = self.tracker.game
        if game is not None and game.is_over and game.winner() is not None:
            self._finish("over")

    def _finish(self, why: str) -> None:
        if self.journal is not None and self.game_id is not None:
            self.journal.finish_game(self.game_id)
            log.info("game %d finished: %s", self.game_id, why)
        self.game_id = None


def _kind(tracked: TrackedEvent) -> Kind:
    """A resync is the table's word (the tracker re-anchored); a forced play is the players' (an override)."""
    if isinstance(tracked.event, Resync):
        return "resync"
    return "override" if tracked.forced else "event"


def _matching(warnings: list[Warning], warning_id: str | None) -> Warning | None:
    """The tracker's warning a command names by its id (None: the oldest)."""
    return next((w for w in warnings if warning_id is None or w.id == warning_id), None)


def _warning_json(warning: Warning) -> dict[str, Any]:
    return {"id": warning.id, "reason": warning.reason, "message": warning.message, "fix": warning.fix,
            "cards": list(warning.cards), "zone": warning.zone}


def _standing_frames(saved: JournaledGame, count: int) -> list[int] | None:
    """The frame of each standing event, as the tracker keeps them; None if they do not line up."""
    frames: list[int] = []
    for entry in saved.entries:
        if entry.kind in ("undo", "correction") and frames:
            frames.pop()
        if entry.kind in ("event", "override", "correction"):
            frames.append(-1 if entry.frame is None else entry.frame)
    return frames if len(frames) == count and len(standing_lines(saved.entries)) == count else None
