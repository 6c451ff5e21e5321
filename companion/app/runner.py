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

The service's life: READY=1 goes to systemd as soon as the journal is open
and the game resumed, whatever the devices do. A camera that cannot be
opened ("camera not found") or stops ("camera lost"), and a panel that does
not answer (:class:`~companion.ui.device.ReconnectingDisplay`), are shown
where they can be, logged, and looked for again, with a growing pause
(``recover_s`` up to ``recover_max_s``); the watchdog follows the worker
loop, so none of this costs a restart. Stopping takes at most ``stop_s``
for the threads, well inside the unit's TimeoutStopSec.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image, ImageDraw

from companion.app import notify
from companion.app.camera import Camera, Frame
from companion.app.session import Session
from companion.errors import EXIT_TEMPFAIL, CameraLost, CompanionError, DeviceError
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import CameraStatus as CameraState
from companion.tracker.display import DisplayModel
from companion.ui import text as t
from companion.ui.buttons import Press, Signals
from companion.ui.controller import UiController
from companion.ui.i18n import _

if TYPE_CHECKING:
    from companion.app.setup import SetupDesk
    from companion.web.live import PhoneView

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
    """First pause before trying to reach a missing or lost camera again; it doubles after each failure..."""
    recover_max_s: float = 5.0
    """... up to this (a cable pushed back in is picked up within a few seconds)."""
    ui_tick_s: float = 0.02
    """The ui loop's period: a button press waits at most this long (plus one redraw)."""
    idle_s: float = 0.25
    """Without frames, the worker refreshes the model this often (the "draw 2" fades, commands apply)."""
    stop_s: float = 5.0
    """At a stop, how long the threads get to finish (a camera read may hang); the unit allows 10 s."""
    web_linger_s: float = 3.0
    """Files with the phone view on: how long the view stays up after the end of the input, so that
    a phone (or a test) watching gets the last state before ``run`` exits."""


# -- the mailbox between capture and worker ------------------------------------------------


@dataclass(frozen=True, slots=True)
class CameraStatus:
    state: CameraState
    message: str

    @property
    def ok(self) -> bool:
        return self.state == "ok"


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
                 signals: Signals | None = None, clock: Callable[[], float] = time.monotonic,
                 web: PhoneView | None = None, desk: SetupDesk | None = None) -> None:
        self.camera, self.session, self.display = camera, session, display
        self.desk = desk
        """The set-up menu's tasks (teach the playmat, check stickers): while one runs, frames go to it."""
        self.web = web
        """The phone view when it is on: started and stopped with the run, fed by the worker."""
        self.buttons: Buttons = buttons if buttons is not None else NoButtons()
        self.signals = signals
        self.options, self.on_model, self.clock = options, on_model, clock
        self.mailbox = Mailbox(1)
        self.commands: queue.SimpleQueue[AppCommand] = queue.SimpleQueue()
        self.stop = threading.Event()
        self.done = threading.Event()
        self.model_changed = threading.Event()
        self.model = session.model()
        self.camera_state: CameraState = "ok"
        """As the capture thread last reported it; "ok" until the first attempt to open says otherwise."""
        self.quit = threading.Event()
        """Set by :meth:`request_stop`: the ui loop ends, as after SIGTERM."""
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
        # The journal is open and the game resumed: the service is up. Camera and panel
        # may come later (or never): waiting for them would make systemd restart us forever.
        # Sent before the threads start, so every STATUS of theirs comes after it.
        notify.ready("started: opening the camera")
        self._threads = [threading.Thread(target=self._capture, name="capture", daemon=True),
                         threading.Thread(target=self._work, name="worker", daemon=True)]
        for thread in self._threads:
            thread.start()
        self._start_web()  # after the camera: the server's imports must not delay the first frame
        try:
            self._ui_loop()
            self._linger()
        finally:
            self.shutdown()
        if self.error is not None:
            raise self.error
        if self.exit_request is AppAction.RESTART:
            return EXIT_TEMPFAIL  # systemd's Restart=on-failure starts us again
        return 0

    def _start_web(self) -> None:
        web = self.web
        if web is None:
            return
        web.send = self.commands.put
        try:
            web.start()
        except CompanionError as error:  # the game is watched all the same; the log says why there is no view
            log.error("%s: running without the phone view", error)
            self.web = None  # the worker reads it once a turn: it stops feeding the view

    def _linger(self) -> None:
        """At the end of a file input, keep the phone view up a moment for whoever watches it."""
        if self.web is not None and self.error is None and self.exit_request is None and not self.quit.is_set():
            self.quit.wait(self.options.web_linger_s)

    def request_stop(self) -> None:
        """Stop as after SIGTERM (from another thread): :meth:`run` returns 0 within a ui tick."""
        self.quit.set()
        self.model_changed.set()

    def shutdown(self) -> None:
        """Stop the threads, leave the "stopped" screen, close every device; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        notify.stopping()
        self.stop.set()
        deadline = time.monotonic() + self.options.stop_s
        for thread in self._threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        stuck = [thread.name for thread in self._threads if thread.is_alive()]
        if stuck:
            log.warning("stopping without waiting longer for: %s", ", ".join(stuck))
        show_stopped(self.display)
        _quietly(getattr(self.display, "cleanup", None))
        _quietly(getattr(self.buttons, "close", None))
        _quietly(getattr(self.signals, "close", None))
        _quietly(self.camera.close)
        if self.web is not None:
            _quietly(self.web.stop)
        if not any(thread.is_alive() for thread in self._threads) and self.session.journal is not None:
            self.session.journal.close()  # a worker stuck mid-append keeps it; the OS closes it at exit
        skipped = getattr(self.camera, "skipped", 0)
        log.info("stopped after %d frames (%d dropped%s)", self.session.frames, self.mailbox.dropped,
                 f", {skipped} unreadable skipped" if skipped else "")

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
                self._report("ok", f"{self.camera}: frames coming")
                self._put(frame)
        except BaseException as error:  # handed to the main thread, which raises it
            self._put(EndOfInput(error))
            return
        self._put(EndOfInput())

    def _open_camera(self) -> None:
        """Open the camera, however long it takes: a camera plugged in later is picked up."""
        pauses = self._pauses()
        while not self.stop.is_set():
            try:
                self.camera.open()
                return
            except DeviceError as error:
                if self.options.clock_fps is not None:
                    raise  # a folder or a video that cannot be read will not appear by waiting
                self._report("not-found", str(error))
            self.stop.wait(next(pauses))

    def _lost(self, message: str) -> None:
        self._report("lost", message)
        # Keep trying: a cable pushed back in, a camera stack that restarted.
        pauses = self._pauses()
        while not self.stop.wait(next(pauses)):
            if self.camera.recover():
                return

    def _pauses(self) -> Iterator[float]:
        """recover_s, doubling after each failed attempt, up to recover_max_s."""
        pause = self.options.recover_s
        while True:
            yield pause
            pause = min(pause * 2, max(self.options.recover_max_s, self.options.recover_s))

    def _report(self, state: CameraState, message: str) -> None:
        """Tell the worker when the camera's state changes (not at every failed attempt)."""
        if state == self.camera_state:
            return
        if state != "ok":
            log.error("camera %s: %s", "not found" if state == "not-found" else "lost", message)
        self.camera_state = state
        self._put(CameraStatus(state, message))

    def _put(self, item: Item) -> None:
        self.mailbox.put(item, wait=self.options.lossless, stop=self.stop)

    # -- worker thread ----------------------------------------------------------------------

    def _work(self) -> None:
        camera: CameraState = "ok"
        try:
            while not self.stop.is_set():
                self._apply_commands()
                item = self.mailbox.get(self.options.idle_s)
                if isinstance(item, EndOfInput):
                    self.error = item.error
                    break
                if isinstance(item, CameraStatus):
                    camera = item.state
                    notify.status(_camera_status_line(item))
                    if item.ok:
                        log.info("camera ok: %s", item.message)
                elif isinstance(item, Frame):
                    self._process(item)
                self._publish(self._model(item, camera))
                self._beats += 1
            self._apply_commands()
        except BaseException as error:  # raised again by run() in the main thread, where the CLI says it
            log.error("worker stopped: %s", error if isinstance(error, CompanionError) else repr(error))
            self.error = error
        finally:
            self.done.set()
            self.model_changed.set()

    def _process(self, frame: Frame) -> None:
        now = frame.index / self.options.clock_fps if self.options.clock_fps else frame.at - self.started_at
        if self.desk is not None and self.desk.active:  # a set-up task has the table; the game waits
            self.desk.feed(now, frame.index, frame.image)
            self._take_layout()
            return
        board_before = self.session.board_found
        self.session.feed(frame.index, now, frame.image)
        log.debug("frame %d processed", frame.index)
        if self.first_frame_s is None:
            self.first_frame_s = self.clock() - self.started_at
            log.info("first frame processed %.2f s after start", self.first_frame_s)
            notify.status(self._status_line())
        elif board_before != self.session.board_found:
            log.warning("board %s", "found again" if self.session.board_found else "not found: is the mat in view?")
            notify.status(self._status_line())

    def _model(self, item: Item | None, camera: CameraState) -> DisplayModel:
        model = self.session.model(self._idle_now(item), camera=camera)
        setup = self.desk.view() if self.desk is not None else None
        if setup is not None:
            model = replace(model, setup=setup)
        if self.web is None:
            return model
        code = self.web.pairing_code()
        if code:
            model = replace(model, pairing=code)
        self.web.observe(self.session, model)
        return model

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
            if self.desk is not None and command.action in self.desk.ACTIONS:
                log.info("button: %s", self.desk.apply(command, self.session.pipeline.vision.layout))
                self._take_layout()
                continue
            applied = self.session.apply(command)
            log.info("button: %s", applied.summary)
            if applied.changed:
                notify.status(self._status_line())

    def _take_layout(self) -> None:
        """A playmat taught (or the configured one again, from the set-up menu): the game's vision uses it now."""
        layout = self.desk.take_layout() if self.desk is not None else None
        if layout is not None:
            from companion.app.setup import use_layout

            use_layout(self.session.pipeline, layout)
            log.info("layout in use now: %r, %d zones", layout.name, len(layout.zones))

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
            return ("waiting for a starting card on the start row" if self.session.ruleset == "mountains"
                    else "waiting for a deal (two cards in each mountain)")
        return f"game {self.session.game_id}: {len(game.stack)} events, {game.phase.name.lower()}"

    # -- main thread: the ui --------------------------------------------------------------

    def _ui_loop(self) -> None:
        controller = UiController(self.display, self.model, now=self.clock())
        interval = notify.watchdog_interval()
        pinged_at, pinged_beats = self.clock(), 0
        while not self.done.is_set() and not self.quit.is_set():
            now = self.clock()
            for command in controller.step(self.model, self.buttons.poll(now), now):
                self._command(command)
            if self.signals is not None:
                self.signals.show((w.id for w in self.model.warnings), now)  # new ones by id
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


def _camera_status_line(status: CameraStatus) -> str:
    if status.state == "not-found":
        return f"camera not found, retrying: {status.message}"
    if status.state == "lost":
        return f"camera lost, retrying: {status.message}"
    return "camera ok"


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
    t.centered(draw, 14, _("STOPPED"), t.MEDIUM, size[0])
    t.centered(draw, 38, _("companion is off"), t.SMALL, size[0])
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


def build(config: Any, *, recorded_fps: float | None = None, calibration: Path | None = None,
          join: Any = None) -> Runner:
    """The runner a configuration describes: camera, lens, layout, tracker, journal (resumed), panel, buttons.

    ``recorded_fps``: for a path source, the rate its frames were taken at (the
    tracker's clock); default the pacing, or 10 when the pacing is 0.
    ``calibration``: the calibration file whose lens model vision maps through
    (default: :func:`companion.app.calibrate.lens_for_run`'s choice). ``join``
    (:class:`~companion.tracker.anchor.JoinCounts`): join the game on the table
    instead of resuming; values not given are asked on the panel, or estimated
    without one.
    """
    from companion.app.calibrate import lens_for_run
    from companion.app.journal import Journal
    from companion.app.setup import SetupDesk, layout_for_run
    from companion.app.table import TablePipeline
    from companion.ui import i18n
    from companion.vision.layout import load_layout

    i18n.use(config.display.language)  # every screen from now on, the stopped one included
    settings = config.camera
    files = settings.source == "path"
    clock_fps = (recorded_fps or settings.fps or 10.0) if files else None
    lens = lens_for_run(config, calibration)
    configured = load_layout(config.layout.path)
    pipeline = TablePipeline(layout_for_run(configured, config.state_dir, config.game.ruleset),
                             decoder=config.vision.decoder,
                             settle_s=config.tracker.settle_s,
                             first_player=0 if config.tracker.first_player == "p1" else 1, lens=lens,
                             ruleset=config.game.ruleset)
    journal = Journal.open(config.state_dir)
    share_with_group(config.state_dir)
    for finding in journal.findings:  # what was missing or damaged, and what was restored: said, never silent
        log.warning("journal: %s", finding)
    session = Session(pipeline, journal)
    session.resume()
    if join is not None:
        session.join(join, ask=config.display.display not in ("none", "dummy"))
    options = RunOptions(clock_fps=clock_fps, lossless=files and settings.fps <= 0)
    log.info("camera %s (lens %s), display %s, journal %s", settings.source,
             "a pinhole" if lens is None else f"{lens.name}, k1 {lens.distortion[0]:.3f}", config.display.display,
             journal.path)
    desk = SetupDesk(configured, config.state_dir, clock_fps or settings.fps or 10.0, config.game.ruleset,
                     config.vision.decoder)
    return Runner(open_camera(settings, config.state_dir), session, make_display(config), make_buttons(config),
                  options, signals=make_signals(config), web=make_web(config), desk=desk)


def make_web(config: Any) -> PhoneView | None:
    """The phone view when the configuration (or ``--web``) turns it on; None leaves every port closed."""
    if not config.web.enabled:
        return None
    from companion.web.live import PhoneView

    return PhoneView(config.web, config.state_dir, config.display.language)


def share_with_group(state_dir: Path) -> None:
    """In the service's shared state folder (setgid, the admin group's), let the group write the journal too.

    SQLite makes its files 0644 less the umask, so 0640 under the unit's UMask=0007;
    but a reader needs to write the -shm index (and our journal opens read-write), so
    ``companion games list`` by a member of the admin group needs g+w. SQLite gives the
    -wal and -shm files it makes later the database file's mode.
    """
    import stat

    try:
        if not state_dir.stat().st_mode & stat.S_ISGID:
            return  # a private folder (a test, a replay): leave it as it is
        for path in state_dir.glob("journal.sqlite*"):
            info = path.stat()
            if info.st_uid == os.getuid() and not info.st_mode & stat.S_IWGRP:
                path.chmod(stat.S_IMODE(info.st_mode) | stat.S_IRGRP | stat.S_IWGRP)
    except OSError as error:
        log.warning("cannot share the journal with the admin group: %s", error)


def open_camera(settings: Any, state_dir: Path | None = None) -> Camera:
    """The configured camera; a folder of frames reuses the pixels of a file read just before.

    With ``focus = "auto"``, the lens position ``companion calibrate`` saved in
    ``state_dir`` is set at every start instead of a new sweep.
    """
    from companion.app.camera import make_camera

    if settings.source == "path":
        from companion.app.frames import ReusingFileSource

        return ReusingFileSource(Path(settings.device), settings.start_frame, settings.fps)
    lens = None
    if state_dir is not None and settings.source == "picamera2" and settings.focus == "auto":
        from companion.app.calibrate import saved_lens_position

        lens = saved_lens_position(state_dir)
        if lens is not None:
            log.info("focus: the lens position of the last calibration, %.2f dioptres", lens)
    return make_camera(settings, lens_position=lens)


def make_display(config: Any) -> Any:
    """The panel; a real one that does not answer now is looked for again while the service runs."""
    from companion.ui.device import PANELS, ReconnectingDisplay, create_device

    if config.display.display in PANELS:
        return ReconnectingDisplay(config.display)
    return create_device(config.display)


def make_signals(config: Any) -> Signals | None:
    """The buzzer and the LED when the configuration names their pins; None without them or without GPIO."""
    settings = config.buttons
    if settings.buzzer is None and settings.led is None:
        return None
    try:
        return Signals(settings)
    except Exception as error:  # gpiozero has its own error tree (BadPinFactory, GPIOPinInUse...)
        log.error("buzzer and LED not available (%s): running without them; `companion doctor` helps", error)
        return None


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
