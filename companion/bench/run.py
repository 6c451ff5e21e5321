"""``companion run`` as the service runs it: peak memory and time to the first processed frame.

Frames: the first ``--frames`` frames of a simulated game (seed 153) rendered
at the Camera Module 3's 4608x2592 with sensor noise, each written as its own
JPEG, so that every frame is decoded afresh as a camera delivers new pixels
every time. A child process runs ``companion run --camera FRAMES --display
none`` on them, paced at ``--fps`` (0: as fast as the pipeline goes, which
keeps the capture queue full the whole time: the worst case for memory), and:

- peak resident memory is the child's ``ru_maxrss`` (``os.wait4``), the
  whole process: Python, OpenCV, numpy, zxing-cpp, the frames in flight.
  Frames are rendered in a separate process, because Linux starts a
  child's ``ru_maxrss`` at the resident size of its parent at fork;
  ``parent_rss_mb`` shows that floor;
- start to first frame is the wall time from spawning the child to its log
  line "first frame processed": interpreter start, imports, journal, opening
  the source, decoding the first frame and the vision pipeline's cold scan.

- button response: in this process, the runner's ui loop polls a stand-in
  for the buttons while the worker thread processes the same 12 MP frames as
  fast as it can (the worst case for the ui thread: it shares the
  interpreter with vision and tracker). A press that arrives just after a
  poll waits for the next one, then the controller handles it: so the
  longest gap between two polls plus the longest handling is the longest a
  press can wait.

- the journal's price for durability: each write (a game started, an
  entry, a game finished) goes to the ledger (fsynced), is committed (the
  WAL fsynced) and checkpointed into journal.sqlite (fsynced) before the
  event is shown. The child logs its medians when it stops (a few events
  of the first frames, while vision works on 12 MP frames); and this
  process writes whole games into a fresh journal in the same folder to
  time every write, and measures the WAL each entry costs in schema 1 and 2
  (the reason SQLite's own checkpoint came only after about 470 entries).

- ``--web``: each child runs with the phone view on (``--web
  127.0.0.1:PORT``) and two phones watching it the whole time: one holds
  the live stream (Server-Sent Events) open, the other loads the page and
  asks ``/api/game`` and ``/api/view`` twice a second, so the server's
  imports, its thread, a journal read per request and a view built per
  change are all in the peak (issue 16).

Budgets (issue 6): at most 250 MB, at most 3 s, a press handled within 50 ms;
(issue 11) checkpointing under 5 ms per event.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MEMORY_BUDGET_MB = 250.0
FIRST_FRAME_BUDGET_S = 3.0
BUTTON_BUDGET_MS = 50.0
CHECKPOINT_BUDGET_MS = 5.0
SEED = 153


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=120, help="frames of the game to run (default %(default)s)")
    parser.add_argument("--fps", type=float, nargs="+", default=[0.0, 10.0],
                        help="pacing of each run; 0 = as fast as possible (default: 0 10)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per pacing; medians are reported")
    parser.add_argument("--web", action="store_true",
                        help="with the phone view on and two phones watching it (the peak then includes the server)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-run-") as folder:
        frames = Path(folder) / "frames"
        # Rendered in another process: a child's ru_maxrss starts at its parent's resident size
        # at fork (Linux keeps the high-water mark across exec), so this process must stay small.
        subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                        "from companion.bench.run import write_frames; write_frames(Path(sys.argv[1]), "
                        "int(sys.argv[2]))", str(frames), str(args.frames)], check=True)
        results = {f"fps {fps:g}": [one_run(frames, Path(folder) / f"state-{fps}-{n}", fps, web=args.web)
                                    for n in range(max(1, args.rounds))] for fps in args.fps}
        buttons = button_response(frames, Path(folder) / "state-buttons")
        journal = journal_costs(Path(folder) / "journal-costs")
    peak = max(r["peak_rss_mb"] for runs in results.values() for r in runs)
    firsts = sorted(r["first_frame_s"] for runs in results.values() for r in runs)
    return {
        "peak_rss_mb": peak,
        "first_frame_s_median": round(firsts[len(firsts) // 2], 2),
        "first_frame_s_max": firsts[-1],
        "memory_budget_met": peak <= MEMORY_BUDGET_MB,
        "first_frame_budget_met": firsts[-1] <= FIRST_FRAME_BUDGET_S,
        **buttons,
        "button_budget_met": buttons["button_wait_max_ms"] <= BUTTON_BUDGET_MS,
        **journal,
        "checkpoint_budget_met": journal["journal_checkpoint_median_ms"] <= CHECKPOINT_BUDGET_MS,
        "runs": results,
        "frames": args.frames,
        "web": args.web,
        "resolution": "4608x2592",
        "parent_rss_mb": round(_own_peak_mb(), 1),
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.python_implementation()} "
                   f"{platform.python_version()}, affinity {sorted(os.sched_getaffinity(0))}",
    }


def _own_peak_mb() -> float:
    """This process's peak: a floor under every child's ru_maxrss (see above)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_frames(out: Path, count: int) -> Path:
    """``count`` frames of the game, one file each (no hard links: every frame is decoded)."""
    import cv2

    from companion.engine import play_random_game
    from companion.sim.frames import render_frames
    from companion.sim.game import script_game
    from companion.sim.scene import SceneOptions
    from companion.vision.layout import load_layout

    out.mkdir(parents=True)
    layout = load_layout()
    script = script_game(play_random_game(random.Random(SEED), first_player=0), layout, seed=SEED)
    options = SceneOptions(resolution=(4608, 2592), noise_sigma=2.0)
    for index, image in enumerate(render_frames(script, layout, 10.0, options)):
        if index >= count:
            break
        cv2.imwrite(str(out / f"{index:06d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    print(f"bench run: wrote {count} frames to {out}", file=sys.stderr)
    return out


def one_run(frames: Path, state: Path, fps: float, web: bool = False) -> dict[str, Any]:
    command = [sys.executable, "-m", "companion", "run", "--camera", str(frames), "--fps", f"{fps:g}",
               "--recorded-fps", "10", "--display", "none", "--state-dir", str(state), "--log-level", "info"]
    phones: _Phones | None = None
    if web:
        phones = _Phones()
        command += ["--web", f"127.0.0.1:{phones.port}", "--web-linger", "1"]
    started = time.perf_counter()
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    if phones is not None:
        phones.start()
    assert child.stderr is not None
    first: float | None = None
    journal: dict[str, Any] = {}
    for line in child.stderr:
        if first is None and re.search(r"first frame processed", line):
            first = time.perf_counter() - started
        if match := re.search(r"companion\.journal: journal: (\{.*\})", line):
            journal = json.loads(match.group(1))
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    if phones is not None:
        phones.stop()
        journal["web_requests"], journal["web_events"] = phones.requests, phones.events
        if not phones.events:
            raise RuntimeError("the phone view sent no event: was it on?")
    if child.returncode != 0 or first is None:
        raise RuntimeError(f"companion run exited {child.returncode} (first frame seen: {first is not None})")
    result = {"peak_rss_mb": round(usage.ru_maxrss / 1024, 1), "first_frame_s": round(first, 2),
              "seconds": round(seconds, 1), "journal": journal}
    print(f"bench run: fps {fps:g}: {result}", file=sys.stderr)
    return result


class _Phones:
    """Two phones on the phone view: one holds the live stream open, one asks for the game twice a second."""

    def __init__(self) -> None:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port: int = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.requests = 0
        self.events = 0
        import threading

        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._stream, daemon=True),
                         threading.Thread(target=self._ask, daemon=True)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(5)

    def _stream(self) -> None:
        import urllib.request

        while not self._stop.is_set():
            try:
                with urllib.request.urlopen(self.url + "/api/events", timeout=5) as stream:
                    for line in stream:
                        self.events += line.startswith(b"data: ")
                        if self._stop.is_set():
                            return
            except OSError:
                self._stop.wait(0.1)  # not up yet, or gone at the end

    def _ask(self) -> None:
        import urllib.request

        while not self._stop.wait(0.5):
            for path in ("/", "/api/game", "/api/view"):
                try:
                    with urllib.request.urlopen(self.url + path, timeout=5) as answer:
                        answer.read()
                        self.requests += 1
                except OSError:
                    pass  # not up yet (the child is starting), or no game yet (404)


class _PressEveryPoll:
    """Stands in for the buttons and the panel: a press of A (next screen) has just arrived at
    every poll, the worst moment (right after the poll before); the redraw it causes ends it."""

    def __init__(self) -> None:
        self.last_poll: float | None = None
        self.arrived: float | None = None
        self.waits_ms: list[float] = []

    def poll(self, now: float | None = None) -> list[Any]:
        from companion.ui.buttons import Press

        moment = time.perf_counter()
        self.arrived, self.last_poll = self.last_poll, moment
        return [Press("A")] if self.arrived is not None else []

    def display(self, image: object) -> None:
        if self.arrived is not None:
            self.waits_ms.append((time.perf_counter() - self.arrived) * 1000.0)
            self.arrived = None

    def contrast(self, level: int) -> None:
        """The panel's other calls are not timed."""

    def show(self) -> None:
        """Not timed."""

    def hide(self) -> None:
        """Not timed."""


def button_response(frames: Path, state: Path) -> dict[str, float]:
    """From a press to the redraw it causes, while 12 MP frames are processed as fast as possible, in ms."""
    from companion.app.camera import FileSource
    from companion.app.journal import Journal
    from companion.app.runner import Runner, RunOptions
    from companion.app.session import Session
    from companion.app.table import TablePipeline
    from companion.vision.layout import load_layout

    stand_in = _PressEveryPoll()
    session = Session(TablePipeline(load_layout()), Journal.open(state))
    runner = Runner(FileSource(frames), session, stand_in, stand_in, RunOptions(clock_fps=10.0, lossless=True))
    runner.run()
    waits = sorted(stand_in.waits_ms)
    return {
        "button_presses": len(waits),
        "button_wait_median_ms": round(waits[len(waits) // 2], 1),
        "button_wait_p99_ms": round(waits[int(len(waits) * 0.99)], 1),
        "button_wait_max_ms": round(waits[-1], 1),
    }


def journal_costs(folder: Path, games: int = 3) -> dict[str, Any]:
    """Every write of ``games`` whole games timed (ledger, commit, checkpoint), and the WAL per entry."""
    from companion.app.journal import Journal
    from companion.engine import play_random_game, table_record
    from companion.engine.record import record_header

    record = table_record(play_random_game(random.Random(0)))  # 118 events
    header, lines = record_header(record.new_game(), True), [str(event) for _, event in record.events]
    with Journal.open(folder / "games") as journal:
        for _ in range(games):
            game = journal.start_game_from_header(header)
            for frame, line in enumerate(lines):
                journal.append(game, "event", line, frame=frame)
            journal.finish_game(game)
        times = journal.times.summary()
    figures: dict[str, Any] = {f"journal_{name}": value for name, value in times.items()}
    figures["journal_durability_ms_per_event"] = round(
        times["ledger_median_ms"] + times["checkpoint_median_ms"], 3)
    figures["journal_wal_bytes_per_entry"] = {"schema 1": _wal_per_entry_1(folder / "wal-1", lines),
                                              "schema 2": _wal_per_entry_2(folder / "wal-2", header, lines)}
    figures["disk_flush_median_ms"] = _flush_median_ms(folder / "flush")
    print(f"bench run: journal: {figures}", file=sys.stderr)
    return figures


def _flush_median_ms(path: Path, count: int = 50) -> float:
    """One 4 KB page written and fdatasync'ed: what the disk charges for a flush now, to read the rest by."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        times = []
        for index in range(count):
            os.pwrite(descriptor, bytes([index % 256]) * 4096, 0)
            started = time.perf_counter()
            os.fdatasync(descriptor)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        os.close(descriptor)
    return round(sorted(times)[count // 2], 3)


def _wal_per_entry_2(state: Path, header: dict[str, Any], lines: list[str]) -> int:
    from companion.app.journal import JOURNAL_FILE, Journal

    with Journal.open(state) as journal:
        game = journal.start_game_from_header(header)
        journal._checkpoint = lambda: None  # type: ignore[method-assign]  # let the WAL grow, to weigh it
        wal = state / f"{JOURNAL_FILE}-wal"
        before = wal.stat().st_size
        for line in lines:
            journal.append(game, "event", line)
        return round((wal.stat().st_size - before) / len(lines))


def _wal_per_entry_1(state: Path, lines: list[str]) -> int:
    """The same entries as the first companion journaled them (schema 1, never checkpointed in a game)."""
    import sqlite3

    from companion.app.journal import JOURNAL_FILE, SCHEMA_1

    state.mkdir(parents=True)
    db = sqlite3.connect(state / JOURNAL_FILE, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA_1)
        db.execute("INSERT INTO games (started, first_player, header) VALUES ('', 'p1', '{}')")
        wal = state / f"{JOURNAL_FILE}-wal"
        before = wal.stat().st_size
        for seq, line in enumerate(lines, start=1):
            db.execute("INSERT INTO entries VALUES (1, ?, 'event', ?, NULL, '2026-11-30T20:00:00.000+00:00')",
                       (seq, line))
        return round((wal.stat().st_size - before) / len(lines))
    finally:
        db.close()
