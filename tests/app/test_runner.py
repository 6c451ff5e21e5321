"""``companion run`` under trouble: kill -9, a torn journal, a lost camera, a moved mat, a broken config,
no camera and no panel at all, a camera that hangs at a stop.

One short simulated game (seed 153: 36 moves, 540 frames at 4 fps) is
rendered once for this module at the Camera Module 3's 4608x2592, the size
the vision pipeline is built for, and every test replays it: as a
subprocess exactly as the service runs (``companion run --camera``), or in
process with a camera wrapper that misbehaves. The uninterrupted run is the
reference every other run must match, record line for record line. Those
tests take minutes together: they are marked ``slow`` (``./dev test --fast``
leaves them out; ``./dev test``, the CI command, runs them).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.camera import Camera, FlakySource, Frame
from companion.app.frames import ReusingFileSource
from companion.app.journal import JOURNAL_FILE, Journal
from companion.app.runner import CameraStatus, EndOfInput, Mailbox, Runner, RunOptions, stopped_image
from companion.app.session import Session
from companion.app.table import TablePipeline
from companion.cli import main
from companion.engine import play_random_game, summary
from companion.errors import CameraLost
from companion.tracker.display import DisplayModel
from companion.ui.device import NullDisplay
from companion.vision.layout import load_layout

ROOT = Path(__file__).resolve().parents[2]
SEED, FPS = 153, 4.0
"""The shortest game of seeds 0-199 (``companion engine play --seed 153``: 36 moves)."""
COMPANION = [sys.executable, "-m", "companion"]
PROCESSED = re.compile(r"run: frame (\d+) processed")


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game's frames as JPEGs (repeats are hard links), rendered once (about 25 s)."""
    from companion.sim.frames import write_game
    from companion.sim.game import script_game
    from companion.sim.scene import SceneOptions

    out = tmp_path_factory.mktemp("game153")
    layout = load_layout()
    script = script_game(play_random_game(random.Random(SEED), first_player=0), layout, seed=SEED)
    write_game(out, script, layout, FPS, SceneOptions(resolution=(4608, 2592)))
    return out / "frames"


def last_frame(frames: Path) -> int:
    """The index of the game's last frame."""
    return len(list(frames.iterdir())) - 1


def run_args(frames: Path, state: Path, start: int = 0, fps: float = 0) -> list[str]:
    return [*COMPANION, "run", "--camera", str(frames), "--fps", str(fps), "--recorded-fps", str(FPS),
            "--display", "none", "--state-dir", str(state), "--start-frame", str(start), "--log-level", "debug"]


def shown(state: Path) -> dict[str, Any]:
    done = subprocess.run([*COMPANION, "games", "show", "--state-dir", str(state), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_until(frames: Path, state: Path, start: int, kill_at: int | None) -> tuple[int, int]:
    """Run from ``start``; kill -9 once frame ``kill_at`` was processed. Returns (exit status, last frame)."""
    process = subprocess.Popen(run_args(frames, state, start), stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stderr is not None
    last = start - 1
    for line in process.stderr:
        if match := PROCESSED.search(line):
            last = int(match.group(1))
            if kill_at is not None and last >= kill_at:
                process.kill()
                break
    process.stderr.close()
    return process.wait(timeout=120), last


@pytest.fixture(scope="module")
def reference(frames: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``games show --json`` after one uninterrupted run; it must score the game as it was played."""
    state = tmp_path_factory.mktemp("reference")
    status, last = run_until(frames, state, 0, None)
    assert (status, last) == (0, last_frame(frames))
    result = shown(state)
    truth = summary(play_random_game(random.Random(SEED), first_player=0))
    assert result["final"] == truth
    return result


def journal_entries(state: Path, kind: str) -> list[str]:
    with Journal.read(state) as journal:
        game = journal.latest()
        assert game is not None
        return [entry.line for entry in game.entries if entry.kind == kind]


# -- kill -9 and torn writes --------------------------------------------------------------------


@pytest.mark.slow
def test_kill_9_at_random_points_then_resume_gives_the_same_game(frames: Path, reference: dict[str, Any],
                                                                  tmp_path: Path) -> None:
    kills = sorted(random.Random(6).sample(range(30, 500), 3))
    start = 0
    for kill_at in kills:
        status, last = run_until(frames, tmp_path, start, kill_at)
        assert status == -signal.SIGKILL
        # The camera shows the table as it is when the companion comes back.
        start = last + 1
    assert run_until(frames, tmp_path, start, None) == (0, last_frame(frames))
    assert shown(tmp_path) == reference


@pytest.mark.slow
def test_a_torn_wal_after_kill_9_loses_no_event_and_the_game_goes_on(frames: Path, reference: dict[str, Any],
                                                                     tmp_path: Path) -> None:
    state = tmp_path / "state"
    status, last = run_until(frames, state, 0, 250)
    assert status == -signal.SIGKILL
    wal = state / f"{JOURNAL_FILE}-wal"
    assert wal.exists()  # killed: SQLite did not tidy up
    before = saved_entries(state, tmp_path / "copy")
    wal.write_bytes(wal.read_bytes()[:-100])  # a power cut in the middle of the last write
    # Every event shown was checkpointed into journal.sqlite before it was shown: none is lost.
    assert saved_entries(state, tmp_path / "copy2") == before and before[-1][0] == "event"
    # The camera shows the table as it is now; 10 s of table, then a kill again.
    status, _ = run_until(frames, state, last + 1, last + 40)
    assert status == -signal.SIGKILL
    events = [line for kind, line in saved_entries(state, tmp_path / "copy3") if kind == "event"]
    assert events == reference["record"][1:len(events) + 1] and len(events) >= sum(k == "event" for k, _ in before)


def saved_entries(state: Path, copy: Path) -> list[tuple[str, str]]:
    """The journal's entries, read from a copy so the WAL of ``state`` stays as it is."""
    shutil.copytree(state, copy)
    with sqlite3.connect(copy / JOURNAL_FILE) as db:
        rows = db.execute("SELECT kind, line FROM entries ORDER BY game_id, seq").fetchall()
    return [(str(kind), str(line)) for kind, line in rows]


# -- in process: a camera that misbehaves --------------------------------------------------------


def run_in_process(camera: Camera, state: Path) -> tuple[Runner, list[DisplayModel]]:
    models: list[DisplayModel] = []
    session = Session(TablePipeline(load_layout()), Journal.open(state))
    session.resume()
    runner = Runner(camera, session, NullDisplay(), options=RunOptions(clock_fps=FPS, lossless=True, recover_s=0.0),
                    on_model=models.append)
    assert runner.run() == 0
    return runner, models


@pytest.mark.slow
def test_the_camera_vanishes_and_returns(frames: Path, reference: dict[str, Any], tmp_path: Path) -> None:
    # 3.5 s away, while one move is made: the companion sees it when the camera is back. (Two moves
    # in the dark can leave their order unknowable, and the record could then differ from the table's.)
    camera = FlakySource(ReusingFileSource(frames), lost=[range(148, 162)])
    runner, models = run_in_process(camera, tmp_path)
    statuses = [model.camera for model in models]
    assert "lost" in statuses
    assert statuses[-1] == "ok" and camera.recoveries >= 1
    assert shown(tmp_path) == reference
    assert runner.display.image.tobytes() == stopped_image().tobytes()  # SIGTERM or end: "stopped" stays


class MovedMat(Camera):
    """Frames from ``from_frame`` on show the mat shifted and turned a little (a bumped camera)."""

    def __init__(self, inner: Camera, from_frame: int, shift: tuple[float, float], degrees: float) -> None:
        self.inner, self.from_frame = inner, from_frame
        self.shift, self.degrees = shift, degrees
        self._last: tuple[np.ndarray, np.ndarray] | None = None
        """(source pixels, moved pixels): a repeated frame is moved once (holding the source keeps it unique)."""

    def open(self) -> None:
        self.inner.open()

    def read(self) -> Frame | None:
        frame = self.inner.read()
        if frame is None or frame.index < self.from_frame:
            return frame
        if self._last is None or self._last[0] is not frame.image:
            height, width = frame.image.shape[:2]
            matrix = cv2.getRotationMatrix2D((width / 2, height / 2), self.degrees, 1.0)
            matrix[:, 2] += self.shift
            moved = cv2.warpAffine(frame.image, matrix, (width, height), borderValue=(90, 90, 90))
            self._last = (frame.image, moved)
        return Frame(frame.index, self._last[1], frame.at)

    def close(self) -> None:
        self.inner.close()


@pytest.mark.slow
def test_a_moved_mat_raises_no_false_event_or_warning(frames: Path, reference: dict[str, Any],
                                                      tmp_path: Path) -> None:
    camera = MovedMat(ReusingFileSource(frames), from_frame=200, shift=(37.0, -21.0), degrees=0.6)
    run_in_process(camera, tmp_path)
    assert shown(tmp_path) == reference
    # Only the warning the game script injected (a card against the Rule of Color), raised once.
    warnings = [json.loads(line)["reason"] for line in journal_entries(tmp_path, "warning")]
    assert warnings == ["color-rule"]


# -- start and stop -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("[camera\nsource = 'path'\n", r"not valid TOML: .*line 1"),
    ("[camera]\nfps = -1\n", r"camera\.fps: must be 0 or between 0\.1 and 240, got -1"),
    ("[display]\ndisplay = 'crt'\n", r"display: display='crt' is not one of"),
    ("colour = 'red'\n", r"colour: unknown key"),
])
def test_a_corrupted_configuration_is_one_clear_line_and_exit_2(tmp_path: Path, text: str, message: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    assert main(["run", "--config", str(config), "--display", "none", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.match(rf"companion: {re.escape(str(config))}: {message}", err), err


@pytest.mark.slow
def test_sigterm_stops_cleanly_with_exit_0_and_keeps_the_game(frames: Path, tmp_path: Path) -> None:
    # Paced like a camera (20 frames a second), stopped by systemd in the middle of the game. The signal
    # goes once the journal holds the game (its start is logged), never at a fixed frame: a paced camera
    # drops the frames a loaded machine has no time for, so any one frame may never be processed.
    process = subprocess.Popen(run_args(frames, tmp_path, fps=20), stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stderr is not None
    signalled = False
    for line in process.stderr:
        if re.search(r"game \d+ started", line):
            process.send_signal(signal.SIGTERM)
            signalled = True
            break
    rest = process.stderr.read()
    assert signalled, rest
    assert process.wait(timeout=30) == 0, rest
    assert "stopped after" in rest
    assert shown(tmp_path)["final"]["phase"] == "play"  # the game in progress stays in the journal


# -- the mailbox between capture and worker --------------------------------------------------------


def a_frame(index: int) -> Frame:
    return Frame(index, np.zeros((2, 2, 3), np.uint8), float(index))


def drain(mailbox: Mailbox) -> Iterator[object]:
    while (item := mailbox.get(0.0)) is not None:
        yield item


def test_a_live_camera_never_waits_the_newest_frame_wins_and_statuses_stay() -> None:
    import threading

    mailbox, stop = Mailbox(1), threading.Event()
    mailbox.put(a_frame(1), wait=False, stop=stop)
    mailbox.put(CameraStatus("lost", "unplugged"), wait=False, stop=stop)
    mailbox.put(a_frame(2), wait=False, stop=stop)
    mailbox.put(a_frame(3), wait=False, stop=stop)
    mailbox.put(EndOfInput(), wait=False, stop=stop)
    items = list(drain(mailbox))
    assert [getattr(i, "index", type(i).__name__) for i in items] == ["CameraStatus", 3, "EndOfInput"]
    assert mailbox.dropped == 2


def test_a_replay_waits_for_room_and_loses_no_frame() -> None:
    import threading

    mailbox, stop = Mailbox(1), threading.Event()
    taken: list[int] = []

    def take() -> None:
        while len(taken) < 5:
            item = mailbox.get(1.0)
            if isinstance(item, Frame):
                taken.append(item.index)

    worker = threading.Thread(target=take)
    worker.start()
    for index in range(5):
        mailbox.put(a_frame(index), wait=True, stop=stop)
    worker.join(timeout=10)
    assert taken == [0, 1, 2, 3, 4] and mailbox.dropped == 0


def test_the_stopped_screen_is_drawn() -> None:
    image = stopped_image()
    assert image.size == (128, 64) and image.getbbox() is not None


class AwayCamera(Camera):
    """A camera that is unplugged for its first ``away`` reads, then has nothing more to show."""

    name = "away camera"

    def __init__(self, away: int) -> None:
        self.away, self.reads = away, 0

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame | None:
        self.reads += 1
        if self.reads <= self.away:
            time.sleep(0.01)  # a unplugged camera answers slowly; the worker meanwhile idles
            raise CameraLost(f"{self.name}: no answer")
        return None

    def close(self) -> None:
        """Nothing to close."""


def test_the_watchdog_is_fed_while_the_camera_is_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # systemd restarts a service that stops pinging; a camera away for a minute must not cost
    # restarts (after five systemd gives up), only a worker stuck in a frame should.
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(0.0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "20000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    session = Session(TablePipeline(load_layout()), Journal.open(tmp_path / "state"))
    runner = Runner(AwayCamera(away=60), session, NullDisplay(),
                    options=RunOptions(clock_fps=FPS, lossless=True, recover_s=0.0, idle_s=0.02))
    assert runner.run() == 0
    messages = []
    while True:
        try:
            messages.append(listener.recv(4096).decode())
        except BlockingIOError:
            break
    listener.close()
    assert any(m.startswith("STATUS=camera lost") for m in messages)
    assert messages.count("WATCHDOG=1") >= 2


# -- the service with nothing attached -----------------------------------------------------------


def notifications(listener: socket.socket) -> list[str]:
    messages = []
    while True:
        try:
            messages.append(listener.recv(4096).decode())
        except BlockingIOError:
            return messages


def no_camera_module() -> types.ModuleType:
    """picamera2 as on a Pi with no camera connected: Picamera2() raises IndexError (global_camera_info() is [])."""
    module = types.ModuleType("picamera2")

    class Picamera2:
        def __init__(self, camera_num: int = 0) -> None:
            raise IndexError("list index out of range")

        @staticmethod
        def global_camera_info() -> list[dict[str, Any]]:
            return []

    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    return module


def test_the_service_with_no_camera_and_no_panel_is_ready_and_says_camera_not_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.app.config import load_config
    from companion.app.runner import build
    from companion.ui.controller import SHIFTS
    from companion.ui.device import ReconnectingDisplay
    from companion.ui.screens import render
    from companion.ui.state import UiState

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(0.0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setitem(sys.modules, "picamera2", no_camera_module())
    config_file = tmp_path / "config.toml"
    # The defaults a Pi runs with (Camera Module 3, SSD1306 on I2C), on a bus that does not exist.
    config_file.write_text(f'state_dir = "{tmp_path / "state"}"\n[display]\ni2c_port = 9\n')
    runner = build(load_config(config_file))
    runner.options = RunOptions(recover_s=0.05, recover_max_s=0.05)
    assert isinstance(runner.display, ReconnectingDisplay) and runner.display.device is None
    thread = threading.Thread(target=lambda: setattr(runner, "status", runner.run()))
    thread.start()
    try:
        messages: list[str] = []
        # The "NO CAMERA / Camera not found." screen (tests/ui/reference/camera-not-found.png),
        # at any of the one-pixel shifts that spare the OLED burn-in.
        model = DisplayModel(phase="setup", turn="p1", camera="not-found")
        expected = {render(model, UiState(shift=shift)).tobytes() for shift in SHIFTS}
        for _ in range(200):
            messages += notifications(listener)
            shown = runner.display.image
            if (any(m.startswith("STATUS=camera not found") for m in messages)
                    and shown is not None and shown.tobytes() in expected):
                break
            time.sleep(0.05)
        assert messages[0].startswith("READY=1"), messages  # ready before any camera or panel
        assert any(m.startswith("STATUS=camera not found") for m in messages), messages
        assert runner.model.camera == "not-found"
        assert runner.display.image.tobytes() in expected  # what the panel shows once it answers
        assert thread.is_alive()  # still running, still looking
    finally:
        runner.request_stop()
        thread.join(timeout=10)
        listener.close()
    assert not thread.is_alive() and runner.status == 0  # type: ignore[attr-defined]


class HangingCamera(Camera):
    """Opens, then a read never returns (a camera stack that wedged)."""

    name = "hanging camera"

    def __init__(self) -> None:
        self.release = threading.Event()

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame | None:
        self.release.wait(60)
        return None

    def close(self) -> None:
        """Nothing to close (and nothing it could do for the read in progress)."""


def test_a_stop_takes_at_most_stop_s_even_with_a_hung_camera(tmp_path: Path) -> None:
    camera = HangingCamera()
    session = Session(TablePipeline(load_layout()), Journal.open(tmp_path / "state"))
    display = NullDisplay()
    runner = Runner(camera, session, display, options=RunOptions(stop_s=0.3))
    threading.Timer(0.2, runner.request_stop).start()
    started = time.monotonic()
    try:
        assert runner.run() == 0
        took = time.monotonic() - started
    finally:
        camera.release.set()
    assert took < 5.0  # the unit's TimeoutStopSec is 10 s
    assert display.image is not None and display.image.tobytes() == stopped_image().tobytes()


def test_in_the_shared_state_folder_the_admin_group_may_write_the_journal(tmp_path: Path) -> None:
    import os
    import stat

    from companion.app.runner import share_with_group

    shared, private = tmp_path / "shared", tmp_path / "private"
    for folder in (shared, private):
        folder.mkdir()
        Journal.open(folder).close()
        (folder / JOURNAL_FILE).chmod(0o640)  # as SQLite makes it under UMask=0007
    os.chmod(shared, 0o2770)  # StateDirectoryMode=2770
    share_with_group(shared)
    share_with_group(private)
    assert stat.S_IMODE((shared / JOURNAL_FILE).stat().st_mode) == 0o660
    assert stat.S_IMODE((private / JOURNAL_FILE).stat().st_mode) == 0o640
