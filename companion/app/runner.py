"""``companion run``: camera -> vision -> tracker -> engine -> journal -> screen and buttons.

Three threads, so that no part waits for another:

- **capture** reads the camera into a :class:`Mailbox` of one frame. A live
  camera never waits: a new frame replaces one not yet taken (the newest
  wins; a stale view of the table is worth nothing). A file source read as
  fast as possible (``--fps 0``, a replay) must not lose frames, so it waits
  for room instead. A lost camera becomes a status in the mailbox, then the
  thread tries to reach it again every ``recover_s``.
- **worker** owns the :class:`~companion.app.session.Session` (pipeline,
  tracker, journal): it takes the newest frame, applies the players' commands
  between frames, journals every change and then publishes the display model.
- **main** is the ui: buttons and screen, polled every ``ui_tick_s`` (20 ms),
  so a press is handled while a 12 MP frame is being processed; commands go
  to the worker through a queue. It also pings systemd and handles SIGTERM
  (raised as SystemExit here): the "stopped" screen, devices closed once.

The tracker's clock is the frame's time: ``index / clock_fps`` for files
(a replay behaves as the table did, whatever the pace), the capture time
for a live camera.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PIL import Image, ImageDraw

from companion.app import notify
from companion.app.camera import Camera, Frame
from companion.app.session import Session
from companion.errors import CameraLost, CompanionError, DeviceError
from companion.tracker.display import DisplayModel
from companion.ui import text as t
from companion.ui.buttons import Press
from companion.ui.controller import AppAction, AppCommand, UiController

log = logging.getLogger("companion.run")


class Buttons(Protocol):
    def poll(self, now: float | None = None) -> list[Press]: ...


class NoButtons:
    def poll(self, now: float | None = None) -> list[Press]:
        return []


@dataclass(frozen=True, slots=True)
class RunOptions:
    clock_fps: float | None = None
    """Files: the tracker's time is index / clock_fps. None: the capture time (live cameras)."""
    lossless: bool = False
    """Never drop a frame: the capture waits for the worker (files read as fast as possible)."""
    recover_s: float = 1.0
    """Pause between attempts to reach a lost camera."""
    ui_tick_s: float = 0.02
    """The ui loop's period: a button press waits at most this long (plus one redraw)."""
    idle_s: float = 0.25
    """Without frames, the worker refreshes the model this often (the "draw 2" fades, commands apply)."""


# -- the mailbox between capture and worker ------------------------------------------------


@dataclass(frozen=True, slots=True)
class CameraStatus:
    ok: bool
    message: str


@dataclass(frozen=True, slots=True)
class EndOfInput:
    error: BaseException | None = None


Item = Frame | CameraStatus | EndOfInput


class Mailbox:
    """At most ``depth`` frames; statuses and the end are never dropped, and keep their order."""

    def __init__(self, depth: int = 1) -> None:
        self.depth = depth
        self.dropped = 0
        self._items: deque[Item] = deque()
        self._ready = threading.Condition()

    def put(self, item: Item, *, wait: bool, stop: threading.Event) -> None:
        """Add ``item``; a frame beyond ``depth`` waits for room (``wait``) or replaces the oldest frame."""
        with self._ready:
            while isinstance(item, Frame) and self._frames() >= self.depth:
                if not wait:
                    self._drop_oldest_frame()
                    break
                if stop.is_set():
                    return
                self._ready.wait(0.1)
            self._items.append(item)
            self._ready.notify_all()

    def get(self, timeout: float) -> Item | None:
        with self._ready:
            if not self._items:
                self._ready.wait(timeout)
            if not self._items:
                return None
            item = self._items.popleft()
            self._ready.notify_all()
            return item

    def _frames(self) -> int:
        return sum(isinstance(item, Frame) for item in self._items)

    def _drop_oldest_frame(self) -> None:
        for item in self._items:
            if isinstance(item, Frame):
                self._items.remove(item)  # its pixels go with it: memory stays at depth frames
                self.dropped += 1
                return


# -- the runner ---------------------------------------------------------------------------


class Runner:
    """Wires a camera, a session, a panel and buttons; :meth:`run` returns the exit status."""

    def __init__(self, camera: Camera, session: Session, display: Any, buttons: Buttons | None = None,
                 options: RunOptions = RunOptions(), *, on_model: Callable[[DisplayModel], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.camera, self.session, self.display = camera, session, display
        self.buttons: Buttons = buttons if buttons is not None else NoButtons()
        self.options, self.on_model, self.clock = options, on_model, clock
        self.mailbox = Mailbox(1)
        self.commands: queue.SimpleQueue[AppCommand] = queue.SimpleQueue()
        self.stop = threading.Event()
        self.done = threading.Event()
        self.model_changed = threading.Event()
        self.model = session.model()
        self.camera_ok = True
        self.error: BaseException | None = None
        self.exit_request: AppAction | None = None
        self.started_at = clock()
        self.first_frame_s: float | None = None
        """Seconds from start to the first processed frame (the benchmark reads it)."""
        self._beats = 0
        """Worker loop turns: a frame, a camera report or an idle refresh. The watchdog follows them:
        a worker stuck in a frame gets the service restarted; a camera away for a while does not."""
        self._closed = False
        self._threads: list[threading.Thread] = []

    # -- lifecycle ----------------------------------------------------------------------

    def run(self) -> int:
        notify.status("starting: opening the camera")
        self._threads = [threading.Thread(target=self._capture, name="capture", daemon=True),
                         threading.Thread(target=self._work, name="worker", daemon=True)]
        for thread in self._threads:
            thread.start()
        try:
            self._ui_loop()
        finally:
            self.shutdown()
        if self.error is not None:
            raise self.error
        if self.exit_request is AppAction.RESTART:
            return 75  # EX_TEMPFAIL: systemd's Restart=on-failure starts us again
        return 0

    def shutdown(self) -> None:
        """Stop the threads, leave the "stopped" screen, close every device; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        notify.stopping()
        self.stop.set()
        for thread in self._threads:
            thread.join(timeout=5.0)
        show_stopped(self.display)
        _quietly(getattr(self.display, "cleanup", None))
        _quietly(getattr(self.buttons, "close", None))
        _quietly(self.camera.close)
        if not any(thread.is_alive() for thread in self._threads) and self.session.journal is not None:
            self.session.journal.close()  # a worker stuck mid-append keeps it; the OS closes it at exit
        log.info("stopped after %d frames (%d dropped)", self.session.frames, self.mailbox.dropped)

    # -- capture thread -------------------------------------------------------------------

    def _capture(self) -> None:
        try:
            self._open_camera()
            while not self.stop.is_set():
                try:
                    frame = self.camera.read()
                except CameraLost as error:
                    self._lost(str(error))
                    continue
                if frame is None:
                    break
                if not self.camera_ok:
                    self.camera_ok = True
                    self._put(CameraStatus(True, f"{self.camera}: back"))
                self._put(frame)
        except BaseException as error:  # handed to the main thread, which raises it
            self._put(EndOfInput(error))
            return
        self._put(EndOfInput())

    def _open_camera(self) -> None:
        while not self.stop.is_set():
            try:
                self.camera.open()
                return
            except DeviceError as error:
                if self.options.clock_fps is not None:
                    raise  # a folder or a video that cannot be read will not appear by waiting
                self._lost(str(error))

    def _lost(self, message: str) -> None:
        if self.camera_ok:
            log.error("camera lost: %s", message)
            self.camera_ok = False
            self._put(CameraStatus(False, message))
        # Keep trying: a cable pushed back in, a camera stack that restarted.
        while not self.stop.wait(self.options.recover_s):
            if self.camera.recover():
                return

    def _put(self, item: Item) -> None:
        self.mailbox.put(item, wait=self.options.lossless, stop=self.stop)

    # -- worker thread ----------------------------------------------------------------------

    def _work(self) -> None:
        camera_ok = True
        try:
            while not self.stop.is_set():
                self._apply_commands()
                item = self.mailbox.get(self.options.idle_s)
                if isinstance(item, EndOfInput):
                    self.error = item.error
                    break
                if isinstance(item, CameraStatus):
                    camera_ok = item.ok
                    log.info("camera %s: %s", "back" if item.ok else "lost", item.message)
                    notify.status("camera back" if item.ok else f"camera lost: {item.message}")
                elif isinstance(item, Frame):
                    self._process(item)
                self._publish(self.session.model(self._idle_now(item), camera_ok=camera_ok))
                self._beats += 1
            self._apply_commands()
        except BaseException as error:  # raised again by run() in the main thread
            log.exception("worker failed")
            self.error = error
        finally:
            self.done.set()
            self.model_changed.set()

    def _process(self, frame: Frame) -> None:
        now = frame.index / self.options.clock_fps if self.options.clock_fps else frame.at - self.started_at
        board_before = self.session.board_found
        self.session.feed(frame.index, now, frame.image)
        log.debug("frame %d processed", frame.index)
        if self.first_frame_s is None:
            self.first_frame_s = self.clock() - self.started_at
            log.info("first frame processed %.2f s after start", self.first_frame_s)
            notify.ready(self._status_line())
        elif board_before != self.session.board_found:
            log.warning("board %s", "found again" if self.session.board_found else "not found: is the mat in view?")
            notify.status(self._status_line())

    def _idle_now(self, item: Item | None) -> float | None:
        if isinstance(item, Frame) or self.options.clock_fps:
            return None  # the last frame's time
        return self.clock() - self.started_at

    def _apply_commands(self) -> None:
        while True:
            try:
                command = self.commands.get_nowait()
            except queue.Empty:
                return
            applied = self.session.apply(command)
            log.info("button: %s", applied.summary)
            if applied.changed:
                notify.status(self._status_line())

    def _publish(self, model: DisplayModel) -> None:
        if model != self.model:
            self.model = model
            self.model_changed.set()
            if self.on_model is not None:
                self.on_model(model)

    def _status_line(self) -> str:
        game = self.session.tracker.game
        if not self.session.board_found:
            return "board not found: keep the mat corners in view"
        if game is None:
            return "waiting for a deal (two cards in each mountain)"
        return f"game {self.session.game_id}: {len(game.stack)} events, {game.phase.name.lower()}"

    # -- main thread: the ui --------------------------------------------------------------

    def _ui_loop(self) -> None:
        controller = UiController(self.display, self.model, now=self.clock())
        interval = notify.watchdog_interval()
        pinged_at, pinged_beats = self.clock(), 0
        while not self.done.is_set():
            now = self.clock()
            for command in controller.step(self.model, self.buttons.poll(now), now):
                self._command(command)
            if self._beats > pinged_beats and (interval is None or now - pinged_at >= min(interval, 1.0)):
                notify.watchdog()  # the worker turned and the screen is up to date
                pinged_at, pinged_beats = now, self._beats
            if self.exit_request is not None:
                return
            self.model_changed.wait(self.options.ui_tick_s)
            self.model_changed.clear()
        controller.step(self.model, [], self.clock())  # the last model of the input

    def _command(self, command: AppCommand) -> None:
        log.info("button command: %s", command)
        if command.action in (AppAction.RESTART, AppAction.POWER_OFF):
            self.exit_request = command.action
            if command.action is AppAction.POWER_OFF:
                power_off()
            return
        self.commands.put(command)


def power_off() -> None:
    """Ask the system to shut down: logind asks polkit, whose rule hardware/install.sh installs."""
    import subprocess

    try:
        subprocess.run(["systemctl", "poweroff"], check=True, timeout=10, capture_output=True)
    except (OSError, subprocess.SubprocessError) as error:
        log.error("power off refused (%s): is /etc/polkit-1/rules.d/50-mandala-companion.rules installed? "
                  "(sudo hardware/install.sh)", error)


def stopped_image(size: tuple[int, int] = (128, 64)) -> Image.Image:
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    t.centered(draw, 14, "STOPPED", t.MEDIUM, size[0])
    t.centered(draw, 38, "companion is off", t.SMALL, size[0])
    return image


def show_stopped(display: Any) -> None:
    """The last picture: "stopped", kept on the panel after we exit."""
    try:
        display.show()
        display.contrast(64)
        display.display(stopped_image())
        # luma clears the panel at exit unless the device persists; keep the notice up.
        if hasattr(display, "persist"):
            display.persist = True
    except (OSError, CompanionError) as error:
        log.warning("cannot show the stopped screen: %s", error)


def _quietly(close: Callable[[], object] | None) -> None:
    if close is None:
        return
    try:
        close()
    except (OSError, CompanionError) as error:
        log.warning("closing: %s", error)


# -- building it from the configuration ------------------------------------------------------


def build(config: Any, *, recorded_fps: float | None = None, join: Any = None) -> Runner:
    """The runner a configuration describes: camera, layout, tracker, journal (resumed), panel, buttons.

    ``recorded_fps``: for a path source, the rate its frames were taken at (the
    tracker's clock); default the pacing, or 10 when the pacing is 0. ``join``
    (:class:`~companion.tracker.anchor.JoinCounts`): join the game on the table
    instead of resuming; values not given are asked on the panel, or estimated
    without one.
    """
    from companion.app.journal import Journal
    from companion.app.table import TablePipeline
    from companion.ui.device import create_device
    from companion.vision.layout import load_layout

    settings = config.camera
    files = settings.source == "path"
    clock_fps = (recorded_fps or settings.fps or 10.0) if files else None
    pipeline = TablePipeline(load_layout(config.layout.path), decoder=config.vision.decoder,
                             settle_s=config.tracker.settle_s,
                             first_player=0 if config.tracker.first_player == "p1" else 1)
    journal = Journal.open(config.state_dir)
    session = Session(pipeline, journal)
    session.resume()
    if join is not None:
        session.join(join, ask=config.display.display not in ("none", "dummy"))
    display = create_device(config.display)
    options = RunOptions(clock_fps=clock_fps, lossless=files and settings.fps <= 0)
    log.info("camera %s, display %s, journal %s", settings.source, config.display.display, journal.path)
    return Runner(open_camera(settings), session, display, make_buttons(config), options)


def open_camera(settings: Any) -> Camera:
    """The configured camera; a folder of frames reuses the pixels of a file read just before."""
    from companion.app.camera import make_camera

    if settings.source == "path":
        from companion.app.frames import ReusingFileSource

        return ReusingFileSource(Path(settings.device), settings.start_frame, settings.fps)
    return make_camera(settings)


def make_buttons(config: Any) -> Buttons | None:
    """GPIO buttons beside a real panel; keys at a terminal for the terminal panel; else none."""
    kind = config.display.display
    if kind == "terminal":
        from companion.ui.terminal import TerminalKeys

        keys = TerminalKeys()
        return _TerminalButtons(keys.__enter__()) if keys.interactive else None
    if kind in ("none", "dummy"):
        return None
    from companion.ui.buttons import GpioButtons

    try:
        return GpioButtons(config.buttons)
    except Exception as error:  # gpiozero has its own error tree (BadPinFactory...)
        log.error("buttons not available (%s): running without them; `companion doctor` helps", error)
        return None


class _TerminalButtons:
    """Terminal keys a/b/c (A/B/C held) as the three buttons; restores the terminal on close."""

    def __init__(self, keys: Any) -> None:
        self.keys = keys

    def poll(self, now: float | None = None) -> list[Press]:
        presses: list[Press] = self.keys.poll(0.0)
        if self.keys.quit:
            raise SystemExit(0)
        return presses

    def close(self) -> None:
        self.keys.__exit__(None, None, None)
