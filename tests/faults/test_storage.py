"""The machine refuses: a full disk, a read-only folder or file, two companions on one journal.

Each case: one line that says what is wrong with the machine (never "damaged"),
the right exit status (74: fix the machine; 75: try again), and every game
already journaled still there. Full and read-only disks are small tmpfs
mounts, so these tests need root (they skip, saying so, elsewhere).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.journal import JOURNAL_FILE, Journal
from companion.errors import StorageError
from tests.app.test_journal import a_table_game
from tests.faults.conftest import ROOT, Outcome, fill, remount_read_only, small_disk


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    """A folder of a few small frames: enough for `companion run` to start (it never gets that far here)."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for index in range(3):
        cv2.imwrite(str(folder / f"{index:04d}.png"), np.full((48, 64, 3), 90, np.uint8))
    return folder


def a_season(state: Path, games: int = 2) -> tuple[str, list[str]]:
    """Finished games and one running, as a companion leaves them."""
    header, lines = a_table_game(3)
    with Journal.open(state) as journal:
        for _ in range(games):
            game = journal.start_game_from_header(json.loads(header))
            for line in lines[:12]:
                journal.append(game, "event", line)
            journal.finish_game(game)
        running = journal.start_game_from_header(json.loads(header))
        for line in lines[:5]:
            journal.append(running, "event", line)
    return header, lines


def run_args(frames: Path, state: Path) -> list[str | Path]:
    return ["run", "--camera", frames, "--fps", "0", "--display", "none", "--state-dir", state]


def test_a_full_disk_at_start_is_said_and_every_game_kept(frames: Path, here: Callable[..., Outcome]) -> None:
    with small_disk(2048) as disk:
        a_season(disk / "state")
        fill(disk)
        started = here(*run_args(frames, disk / "state"))
        line = started.one_line()
        assert started.status == 74 and "the disk is full" in line and "damaged journal" not in line, line
        listed = here("games", "list", "--state-dir", disk / "state", "--json")
        assert listed.status == 0 and len(json.loads(listed.out)["games"]) == 3
        fresh = here(*run_args(frames, disk / "new-state"))  # no journal yet: it cannot even be made
        assert fresh.status == 74 and "the disk is full" in fresh.one_line()


def test_a_disk_that_fills_mid_game_loses_no_acknowledged_event() -> None:
    header, lines = a_table_game(0)
    with small_disk(2048) as disk:
        journal = Journal.open(disk / "state")
        game = journal.start_game_from_header(json.loads(header))
        for line in lines[:10]:
            journal.append(game, "event", line)
        fill(disk)
        acknowledged = 10
        with pytest.raises(StorageError) as full:
            # The WAL's pages are reused after each checkpoint, so a few more entries may still fit.
            for line in lines[10:]:
                journal.append(game, "warning", {"reason": "padding", "message": line * 40})
                acknowledged += 1
        assert full.value.exit_status == 74 and "the disk is full" in str(full.value)
        assert "\n" not in str(full.value) and "damaged journal" not in str(full.value)
        journal.close()
        with Journal.read(disk / "state") as reader:
            assert len(reader.game(game).entries) >= acknowledged
        (disk / "filler").unlink()
        with Journal.open(disk / "state") as reopened:
            entries = reopened.game(game).entries
            # The write that failed was in the ledger before its commit: it comes back with the space.
            assert len(entries) == acknowledged + 1 and entries[-1].kind == "warning"
            assert [e.line for e in entries[:10]] == lines[:10]
            assert any("restored" in finding for finding in reopened.findings)


def test_a_read_only_folder_is_read_and_never_called_damaged(frames: Path,
                                                             here: Callable[..., Outcome]) -> None:
    with small_disk(4096) as disk:
        header, lines = a_season(disk / "state")
        remount_read_only(disk)
        shown = here("games", "show", "--state-dir", disk / "state", "--json")
        assert shown.status == 0 and json.loads(shown.out)["record"] == [header, *lines[:5]], shown.err
        exported = here("games", "export", "1", "--state-dir", disk / "state")
        assert exported.status == 0 and exported.out.splitlines() == [header, *lines[:12]]
        started = here(*run_args(frames, disk / "state"))
        line = started.one_line()
        assert started.status == 74 and "read-only" in line and "damaged journal" not in line, line


def test_a_read_only_folder_after_a_crash_says_what_it_cannot_see(tmp_path: Path, here: Callable[..., Outcome]) -> None:
    header, lines = a_table_game(3)
    crash = subprocess.run([sys.executable, "-c", KILL_BEFORE_CHECKPOINT, str(tmp_path / "state"), header,
                            json.dumps(lines[:8])], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert crash.returncode < 0, crash.stderr
    with small_disk(4096) as disk:
        shutil.copytree(tmp_path / "state", disk / "state")
        (disk / "state" / f"{JOURNAL_FILE}-shm").unlink(missing_ok=True)
        remount_read_only(disk)
        shown = here("games", "show", "--state-dir", disk / "state", "--json")
        assert shown.status == 0 and json.loads(shown.out)["record"] == [header, *lines[:7]]
        notes = shown.err.splitlines()
        assert len(notes) == 2 and all(note.startswith("companion: note: ") for note in notes), shown.err
        assert "cannot be read in a folder nobody may write" in notes[0]
        assert "entry 8 (event" in notes[1] and "`companion run` restores it" in notes[1]


KILL_BEFORE_CHECKPOINT = """
import json, os, signal, sys
from pathlib import Path
from companion.app.journal import Journal
state, header, lines = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
journal = Journal.open(state)
game = journal.start_game_from_header(json.loads(header))
for number, line in enumerate(lines, start=1):
    if number == len(lines):
        journal._checkpoint = lambda: os.kill(os.getpid(), signal.SIGKILL)
    journal.append(game, "event", line)
"""


def test_a_read_only_journal_file(frames: Path, tmp_path: Path, here: Callable[..., Outcome]) -> None:
    header, lines = a_season(tmp_path / "state")
    path = tmp_path / "state" / JOURNAL_FILE
    immutable = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if immutable.returncode != 0:
        pytest.skip(f"chattr +i (a file even root cannot write) is not available here: {immutable.stderr.strip()}")
    try:
        started = here(*run_args(frames, tmp_path / "state"))
        line = started.one_line()
        assert started.status == 74 and "read-only" in line and "damaged journal" not in line, line
        shown = here("games", "show", "--state-dir", tmp_path / "state", "--json")
        assert shown.status == 0 and json.loads(shown.out)["record"] == [header, *lines[:5]]
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


HOLDER = """
import sys, time
from pathlib import Path
from companion.app.journal import Journal
journal = Journal.open(Path(sys.argv[1]))
print("open", flush=True)
time.sleep(60)
"""


def test_two_companions_on_one_journal(frames: Path, tmp_path: Path, here: Callable[..., Outcome]) -> None:
    a_season(tmp_path / "state")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "state")], stdout=subprocess.PIPE,
                              text=True, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        second = here(*run_args(frames, tmp_path / "state"))
        line = second.one_line()
        assert second.status == 75 and f"another companion (pid {holder.pid}) is writing this journal" in line
        assert here("games", "list", "--state-dir", tmp_path / "state").status == 0  # readers are welcome
    finally:
        holder.kill()
        holder.wait()
    with Journal.open(tmp_path / "state") as journal:  # the lock went with the process
        assert len(journal.games()) == 3 and journal.findings == []


def test_a_state_dir_that_is_a_file(frames: Path, tmp_path: Path, here: Callable[..., Outcome]) -> None:
    (tmp_path / "state").write_text("not a folder")
    started = here(*run_args(frames, tmp_path / "state"))
    assert started.status == 2 and "not a folder" in started.one_line()
    assert os.path.getsize(tmp_path / "state") == len("not a folder")
