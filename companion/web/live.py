"""Between the run loop and the web server: the latest view, its change notices, the players' commands.

Three threads meet here. The run loop's worker (which owns the tracker)
calls :meth:`PhoneView.observe` after every turn; when something a player
could see changed it builds the view (:func:`~companion.web.view.table_view`)
and publishes it as JSON text. The server's event loop waits for new views
(:meth:`Hub.next`) and streams them as Server-Sent Events. Commands a
paired phone sends go to the run loop's command queue, the same the
buttons use, and are applied by the worker between frames.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.engine import Game
from companion.web.pairing import Pairing
from companion.web.settings import WebSettings
from companion.web.view import History, table_view, warning_texts, warning_title

if TYPE_CHECKING:
    from companion.app.session import Session
    from companion.tracker.commands import AppCommand
    from companion.tracker.display import DisplayModel

log = logging.getLogger("companion.web")


class Hub:
    """The latest view as JSON text with a sequence number; async waiters are woken on every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seq = 0
        self._text = "null"
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop, where waiters wait (called on it, at start)."""
        with self._lock:
            self._loop, self._changed = loop, asyncio.Event()

    def publish(self, text: str) -> None:
        """A new view (from any thread)."""
        with self._lock:
            self._seq += 1
            self._text = text
            loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def close(self) -> None:
        """Streams end: the server is stopping."""
        with self._lock:
            self._closed = True
            loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    def current(self) -> tuple[int, str]:
        with self._lock:
            return self._seq, self._text

    @property
    def closed(self) -> bool:
        return self._closed

    async def next(self, after: int, timeout: float) -> tuple[int, str] | None:
        """The view once its sequence is past ``after``; None after ``timeout`` s (a keep-alive is due).

        A wake-up may come late, for a view already sent: then it waits on.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            seq, text = self.current()
            if seq != after or self._closed:
                return seq, text
            changed, left = self._changed, deadline - loop.time()
            if changed is None or left <= 0:
                return None
            try:
                await asyncio.wait_for(changed.wait(), left)
            except TimeoutError:
                return None


class PhoneView:
    """The phone view as ``companion run`` holds it: started and stopped with the run loop."""

    def __init__(self, settings: WebSettings, state_dir: Path, language: str = "en") -> None:
        self.settings = settings
        self.state_dir = state_dir
        self.language = language
        """The page's language unless a phone picks another: the screens' ([display] language)."""
        self.hub = Hub()
        self.pairing = Pairing(enabled=settings.controls)
        self.history = History()
        self.send: Callable[[AppCommand], None] | None = None
        """Where the players' commands go: the run loop's command queue (set by the runner)."""
        self.model: DisplayModel | None = None
        """The display model last published: an accepted warning is looked up in it."""
        self._shown: tuple[object, ...] | None = None
        self._warnings: list[dict[str, Any]] = []
        self._warned: tuple[object, ...] = ()
        self._game: object = None
        self._server: Any = None

    # -- the run loop's side --------------------------------------------------------------

    def start(self) -> None:
        """Listen (raises :class:`~companion.errors.DeviceError` when the address cannot be had)."""
        from companion.web.server import WebServer

        self._server = WebServer(self)
        self._server.start()

    def stop(self) -> None:
        self.hub.close()
        if self._server is not None:
            self._server.stop()
            self._server = None

    @property
    def address(self) -> tuple[str, int] | None:
        """Where it listens once started (the port the system gave for port 0)."""
        return None if self._server is None else self._server.address

    def pairing_code(self) -> str:
        return self.pairing.code()

    def observe(self, session: Session, model: DisplayModel) -> None:
        """After a turn of the worker: publish the view when anything shown changed (worker thread)."""
        tracker = session.tracker
        key = (model, session.game_id, len(tracker.events), tracker.events[-1] if tracker.events else None)
        if key == self._shown:
            return
        self._shown, self.model = key, model
        self._note_warnings(session, model)
        game = tracker.game if isinstance(tracker.game, Game) else None  # the mountains ruleset: its screens only
        history = self.history.lines(game, tracker.events)
        view = table_view(model, game, session.game_id, history, list(self._warnings))
        self.hub.publish(json.dumps(view, separators=(",", ":")))

    def _note_warnings(self, session: Session, model: DisplayModel) -> None:
        """Every warning raised in the game, with its frame: the page lists them after they are put right."""
        if session.tracker.game is not self._game:  # a new deal: a new list
            self._game, self._warnings = session.tracker.game, []
        for warning in model.warnings:
            if warning not in self._warned:
                self._warnings.append({"frame": session.tracker.frame, "reason": warning.reason,
                                       "title": warning_title(warning.reason), "message": warning.message,
                                       "fix": warning.fix, "texts": warning_texts(warning)})
        self._warned = model.warnings

    # -- the server's side ----------------------------------------------------------------

    def command(self, command: AppCommand) -> None:
        if self.send is None:
            raise RuntimeError("the phone view is not attached to a run loop")
        log.info("phone view: %s", command)
        self.send(command)
