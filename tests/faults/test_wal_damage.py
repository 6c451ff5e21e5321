"""A 100-event game, a crash, then the WAL truncated or corrupted at every kind of offset.

Each write is committed, then checkpointed into journal.sqlite, and only then
shown; the ledger holds the write in flight. So whatever happens to the WAL
after a crash, the resumed journal keeps every event up to the last
checkpoint, and the one write that may have been only in the WAL is restored
from the ledger, or, when the ledger was damaged too, named as possibly lost.

The crash states are taken in process, by copying the state folder at the
moments that matter (what a killed process leaves on disk is exactly what it
had written), and once for real with kill -9.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.journal import JOURNAL_FILE, LEDGER_FILE, LOST_HOW, Journal, Ledger
from companion.engine import play_random_game, table_record
from companion.engine.record import header_json
from tests.faults.conftest import ROOT, in_memory

EVENTS = 100
WAL = f"{JOURNAL_FILE}-wal"
FILES = (JOURNAL_FILE, WAL, LEDGER_FILE)


def a_game(seed: int = 0) -> tuple[str, list[str]]:
    record = table_record(play_random_game(random.Random(seed)))  # seed 0: 118 events
    lines = [str(event) for _, event in record.events][:EVENTS]
    assert len(lines) == EVENTS
    return json.dumps(header_json(record.setup, True)), lines


@pytest.fixture(scope="module")
def crashes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str], Path]]:
    """``states/N/committed``: the folder between the commit of event N and its checkpoint;
    ``states/N/ledgered``: between its ledger write and its commit. (Event 0: the game's start.)"""
    with in_memory(tmp_path_factory.mktemp("wal-damage")) as base:
        yield write_and_snapshot(base)


def write_and_snapshot(base: Path) -> tuple[str, list[str], Path]:
    header, lines = a_game()
    state = base / "state"
    journal = Journal.open(state)
    written = [0]

    def snapshot(moment: str) -> None:
        target = base / "states" / str(written[0]) / moment
        target.mkdir(parents=True)
        for name in FILES:
            if (state / name).exists():
                shutil.copy2(state / name, target / name)

    checkpoint, ledger_write = journal._checkpoint, journal._ledger.write  # type: ignore[union-attr]

    def checkpoint_after_snapshot() -> None:
        snapshot("committed")
        checkpoint()

    def write_then_snapshot(record: dict[str, object]) -> None:
        ledger_write(record)
        snapshot("ledgered")

    journal._checkpoint = checkpoint_after_snapshot  # type: ignore[method-assign]
    journal._ledger.write = write_then_snapshot  # type: ignore[method-assign, union-attr]
    game = journal.start_game_from_header(json.loads(header))
    for line in lines:
        written[0] += 1
        journal.append(game, "event", line, frame=written[0])
    journal.close()
    return header, lines, base / "states"


def damaged_copy(source: Path, target: Path, damage: str, offset: int) -> Path:
    shutil.copytree(source, target)
    wal = target / WAL
    data = bytearray(wal.read_bytes())
    if damage == "truncated":
        data = data[:offset]
    elif damage == "corrupted":
        data[offset] ^= 0x5A
    else:
        assert damage == "deleted"
        wal.unlink()
        return target
    wal.write_bytes(bytes(data))
    return target


def offsets(size: int, rng: random.Random, count: int) -> list[int]:
    """The WAL header, the first frame's header and page, its end, and random places in between."""
    edges = [0, 8, 31, 32, 40, 55, 56, 100, 2000, 4151, 4152]
    return sorted({o for o in edges if o < size} | {rng.randrange(size) for _ in range(count)})


def resumed(folder: Path) -> tuple[list[str], list[str]]:
    with Journal.open(folder) as journal:
        game = journal.resume() or journal.latest()
        assert game is not None
        return game.record()[1:], journal.findings


@pytest.mark.slow
def test_every_event_up_to_the_crash_is_kept_whatever_happens_to_the_wal(
        crashes: tuple[str, list[str], Path], scratch: Path) -> None:
    _, lines, states = crashes
    rng = random.Random(11)
    cases = 0
    for event in [*sorted(rng.sample(range(1, EVENTS), 5)), EVENTS]:
        for moment in ("committed", "ledgered"):
            source = states / str(event) / moment
            size = (source / WAL).stat().st_size
            damages = [("deleted", 0)] + [(kind, offset) for kind in ("truncated", "corrupted")
                                          for offset in offsets(size, rng, 6)]
            for kind, offset in damages:
                folder = damaged_copy(source, scratch / f"{event}-{moment}-{kind}-{offset}", kind, offset)
                kept, findings = resumed(folder)
                # The write in flight was journaled in the ledger before its commit: it is never lost.
                assert kept == lines[:event], (event, moment, kind, offset)
                restored = [f for f in findings if "restored from" in f]
                assert findings == restored and len(restored) <= 1, findings
                if restored:
                    assert restored[0].startswith(f"game 1: entry {event} (event {lines[event - 1][:40]}")
                cases += 1
    assert cases > 300


def test_with_the_ledger_torn_too_the_possible_loss_is_named(crashes: tuple[str, list[str], Path],
                                                             scratch: Path) -> None:
    _, lines, states = crashes
    folder = damaged_copy(states / "57" / "committed", scratch / "both", "deleted", 0)
    ledger = bytearray((folder / LEDGER_FILE).read_bytes())
    newest = 58 % 2  # the ledger's 58th write (the start, then 57 appends) went to this slot
    ledger[newest * Ledger.SLOT + Ledger.HEAD.size + 3] ^= 0xFF
    (folder / LEDGER_FILE).write_bytes(bytes(ledger))
    kept, findings = resumed(folder)
    assert kept == lines[:56]  # everything checkpointed; event 57 was only in the lost WAL
    assert findings == [f"{folder / LEDGER_FILE}: its newest record is damaged (torn by a power cut?): the write "
                        f"after game 1 entry 56 may be missing from the journal"]


def test_a_reader_shows_what_is_there_and_names_what_the_ledger_holds(crashes: tuple[str, list[str], Path],
                                                                     scratch: Path) -> None:
    _, lines, states = crashes
    folder = damaged_copy(states / "30" / "committed", scratch / "read", "deleted", 0)
    with Journal.read(folder) as reader:
        assert reader.latest().record()[1:] == lines[:29]  # type: ignore[union-attr]
        assert reader.findings == [f"game 1: entry 30 (event {lines[29]}) is missing from {folder / JOURNAL_FILE} "
                                   f"({LOST_HOW}); the ledger holds it: `companion run` restores it"]


KILLER = """
import json, os, signal, sys
from pathlib import Path
from companion.app.journal import Journal
state, header, lines, stop = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
journal = Journal.open(state)
game = journal.start_game_from_header(json.loads(header))
for number, line in enumerate(lines, start=1):
    if number == stop:  # committed, not yet checkpointed: the one moment the WAL holds what the file does not
        journal._checkpoint = lambda: os.kill(os.getpid(), signal.SIGKILL)
    journal.append(game, "event", line, frame=number)
"""


def test_kill_9_between_commit_and_checkpoint_then_the_wal_deleted(scratch: Path) -> None:
    header, lines = a_game()
    done = subprocess.run([sys.executable, "-c", KILLER, str(scratch), header, json.dumps(lines), "64"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert (scratch / WAL).stat().st_size > 0
    os.unlink(scratch / WAL)
    (scratch / f"{JOURNAL_FILE}-shm").unlink(missing_ok=True)
    kept, findings = resumed(scratch)
    assert kept == lines[:64] and len(findings) == 1 and "entry 64" in findings[0] and "restored" in findings[0]
