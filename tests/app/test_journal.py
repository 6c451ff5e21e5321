"""The journal: entries make the record, resume after kill -9, torn writes recover to the last whole entry."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from companion.app import journal as journal_module
from companion.app.journal import (
    APPLICATION_ID,
    JOURNAL_FILE,
    KINDS,
    LEDGER_FILE,
    LOST_HOW,
    SCHEMA_1,
    SCHEMA_VERSION,
    Journal,
    Ledger,
    standing_lines,
)
from companion.engine import Record, Resync, play_random_game, read_record, replay, summary, table_record
from companion.engine.record import header_json
from companion.errors import JournalBusyError, JournalError

ROOT = Path(__file__).resolve().parents[2]


def a_table_game(seed: int = 3) -> tuple[str, list[str]]:
    """A whole random game as the camera knows it: header line and event lines."""
    record: Record = table_record(play_random_game(random.Random(seed)))
    return json.dumps(header_json(record.setup, True)), [str(event) for _, event in record.events]


def journal_with(tmp_path: Path, lines: list[str], header: str) -> tuple[Journal, int]:
    journal = Journal.open(tmp_path)
    game_id = journal.start_game_from_header(json.loads(header))
    for frame, line in enumerate(lines):
        journal.append(game_id, "event", line, frame=frame * 10)
    return journal, game_id


def test_the_record_and_final_match_the_engine_replay(tmp_path: Path) -> None:
    header, lines = a_table_game()
    journal, game_id = journal_with(tmp_path, lines, header)
    game = journal.game(game_id)
    assert game.record() == [header, *lines]
    engine_game, verdicts = replay(read_record(game.record()))
    assert all(v.violation is None for v in verdicts)
    assert game.final() == summary(engine_game)
    assert game.final()["phase"] == "over" and game.info.entries == len(lines)
    assert [e.frame for e in game.entries[:3]] == [0, 10, 20]
    journal.close()


def test_wal_mode_and_a_checkpoint_that_syncs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Journal.open(tmp_path) as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: the checkpoint syncs
        game = journal.start_game_from_header(json.loads(a_table_game()[0]))
        with Journal.read(tmp_path) as reader:  # a reader in the middle of a read holds a checkpoint back
            reader._db.execute("BEGIN")
            reader._db.execute("SELECT COUNT(*) FROM games").fetchone()
            synced: list[int] = []
            monkeypatch.setattr(os, "fsync", synced.append)  # the ledger uses fdatasync: only the WAL's is seen
            journal.append(game, "event", a_table_game()[1][0])
            reader._db.execute("COMMIT")
        assert journal.times.incomplete == 1 and synced  # the WAL was fsynced in its stead


def test_resume_is_the_latest_unfinished_game(tmp_path: Path) -> None:
    header, lines = a_table_game()
    with Journal.open(tmp_path) as journal:
        assert journal.resume() is None
        first = journal.start_game_from_header(json.loads(header))
        journal.append(first, "event", lines[0])
        journal.finish_game(first)
        second = journal.start_game_from_header(json.loads(header))
        journal.append(second, "event", lines[0])
        journal.append(second, "warning", {"reason": "color-rule", "message": "Red can't go"}, frame=7)
    with Journal.open(tmp_path) as reopened:
        resumed = reopened.resume()
        assert resumed is not None and resumed.info.id == second
        assert [(e.seq, e.kind) for e in resumed.entries] == [(1, "event"), (2, "warning")]
        assert resumed.record() == [header, lines[0]]
        assert [g.running for g in reopened.games()] == [False, True]
        assert reopened.games()[0].result == summary(reopened.game(first).rebuild())
        with pytest.raises(JournalError, match="is finished"):
            reopened.append(first, "event", lines[1])


def test_undo_correction_and_override_shape_the_record(tmp_path: Path) -> None:
    header, lines = a_table_game()
    journal, game_id = journal_with(tmp_path, lines[:3], header)
    journal.append(game_id, "undo", lines[2])
    journal.append(game_id, "correction", lines[2])   # replaces lines[1]
    journal.append(game_id, "override", lines[1])     # out of order: the rules refuse it, the players insist
    game = journal.game(game_id)
    assert game.record()[1:] == [lines[0], lines[2], lines[1]]
    rebuilt = game.rebuild()
    assert [forced for _, forced in rebuilt.stack][-1] is True
    journal.close()


def test_standing_lines_ignores_an_undo_of_nothing() -> None:
    from companion.app.journal import Entry

    entries = [Entry(1, "undo", "x", None, ""), Entry(2, "event", "a", None, ""), Entry(3, "warning", "w", None, "")]
    assert standing_lines(entries) == ["a"]


def test_bad_input_is_a_one_line_journal_error(tmp_path: Path) -> None:
    header, lines = a_table_game()
    journal, game_id = journal_with(tmp_path, [], header)
    with pytest.raises(JournalError, match="unknown entry kind 'move'"):
        journal.append(game_id, "move", lines[0])  # type: ignore[arg-type]
    with pytest.raises(JournalError, match="no game 99"):
        journal.append(99, "event", lines[0])
    with pytest.raises(JournalError, match="no journal here"):
        Journal.read(tmp_path / "elsewhere")
    journal.close()


def test_a_damaged_file_says_how_to_start_again(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_FILE).write_bytes(b"this is not a database" * 300)
    pattern = r"damaged journal .*mkdir -p .*/damaged && mv .*journal\.sqlite .*/damaged/$"
    with pytest.raises(JournalError, match=pattern) as caught:
        Journal.open(tmp_path)
    assert "\n" not in str(caught.value)


# -- crashes -------------------------------------------------------------------------------

WRITER = """
import json, os, signal, sys
from pathlib import Path
from companion.app.journal import Journal
state, header, lines, stop = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
journal = Journal.open(state)
game = journal.start_game_from_header(json.loads(header))
for number, line in enumerate(lines, start=1):
    journal.append(game, "event", line, frame=number)
    print(number, flush=True)        # shown to the players only once committed
    if number == stop:
        os.kill(os.getpid(), signal.SIGKILL)
"""


def crash_after(state: Path, header: str, lines: list[str], stop: int) -> list[int]:
    """Run a writer that kill -9s itself right after entry ``stop``; returns the entries it acknowledged."""
    done = subprocess.run([sys.executable, "-c", WRITER, str(state), header, json.dumps(lines), str(stop)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    return [int(n) for n in done.stdout.split()]


def copy_state(source: Path, target: Path) -> Path:
    target.mkdir()
    for path in source.iterdir():
        shutil.copy2(path, target / path.name)
    return target


def resumed_lines(state: Path) -> list[str]:
    with Journal.open(state) as journal:
        game = journal.resume()
        assert game is not None
        return game.record()[1:]


@pytest.mark.parametrize("stop", [1, 7, 23])
def test_kill_9_loses_nothing_that_was_acknowledged(tmp_path: Path, stop: int) -> None:
    header, lines = a_table_game()
    acknowledged = crash_after(tmp_path / "state", header, lines, stop)
    assert acknowledged == list(range(1, stop + 1))
    assert (tmp_path / "state" / f"{JOURNAL_FILE}-wal").exists()  # the crash left the WAL unmerged
    assert resumed_lines(tmp_path / "state") == lines[:stop]


def test_a_torn_or_corrupt_wal_after_a_crash_keeps_every_acknowledged_entry(tmp_path: Path) -> None:
    # Every acknowledged entry was checkpointed into journal.sqlite: whatever the WAL holds after
    # the crash can be torn or damaged without losing any of them.
    header, lines = a_table_game()
    crash_after(tmp_path / "state", header, lines, 12)
    wal_name = f"{JOURNAL_FILE}-wal"

    torn = copy_state(tmp_path / "state", tmp_path / "torn")
    wal = torn / wal_name
    wal.write_bytes(wal.read_bytes()[:-100])                   # power cut in the middle of the last frame
    assert resumed_lines(torn) == lines[:12]

    flipped = copy_state(tmp_path / "state", tmp_path / "flipped")
    data = bytearray((flipped / wal_name).read_bytes())
    data[-50] ^= 0xFF                                           # a bad sector in the last frame
    (flipped / wal_name).write_bytes(bytes(data))
    assert resumed_lines(flipped) == lines[:12]

    # The journal goes on from there: the next append is entry 13.
    with Journal.open(torn) as journal:
        game = journal.resume()
        assert game is not None and not journal.findings
        assert journal.append(game.info.id, "event", lines[12]) == 13
    assert resumed_lines(torn) == lines[:13]


# -- durability: every write in journal.sqlite itself, the ledger for the one in flight ------------


def database_only(state: Path, target: Path) -> Path:
    """A copy of journal.sqlite alone, as a crash that lost the WAL would leave it."""
    target.mkdir()
    shutil.copy2(state / JOURNAL_FILE, target / JOURNAL_FILE)
    return target


def test_entries_are_one_b_tree_and_their_kinds_come_from_one_tuple(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        sql = journal._db.execute("SELECT sql FROM sqlite_master WHERE name = 'entries'").fetchone()[0]
        assert sql.endswith("WITHOUT ROWID") and all(f"'{kind}'" in sql for kind in KINDS)
        game = journal.start_game_from_header(json.loads(a_table_game()[0]))
        with pytest.raises(sqlite3.IntegrityError):
            journal._db.execute("INSERT INTO entries VALUES (?, 1, 'move', '{}', NULL, '')", (game,))


def test_every_write_is_in_the_database_file_when_it_returns(tmp_path: Path) -> None:
    header, lines = a_table_game()
    with Journal.open(tmp_path / "state") as journal:
        game = journal.start_game_from_header(json.loads(header))
        for number, line in enumerate(lines[:5], start=1):
            journal.append(game, "event", line)
            with Journal.read(database_only(tmp_path / "state", tmp_path / f"copy{number}")) as copy:
                assert copy.game(game).record() == [header, *lines[:number]]
        journal.finish_game(game)
        with Journal.read(database_only(tmp_path / "state", tmp_path / "finished")) as copy:
            assert not copy.games()[0].running
        assert journal.times.incomplete == 0 and len(journal.times.checkpoint) == 7


def crash_before_checkpoint(journal: Journal, state: Path, target: Path, write: Callable[[], object]) -> Path:
    """Make ``write`` as a crash between its commit and its checkpoint leaves it; copy the folder then."""
    checkpoint = journal._checkpoint
    journal._checkpoint = lambda: None  # type: ignore[method-assign]
    try:
        write()
    finally:
        journal._checkpoint = checkpoint  # type: ignore[method-assign]
    target.mkdir()
    for name in (JOURNAL_FILE, f"{JOURNAL_FILE}-wal", LEDGER_FILE):
        shutil.copy2(state / name, target / name)
    return target


def test_a_write_lost_with_the_wal_is_restored_from_the_ledger(tmp_path: Path) -> None:
    header, lines = a_table_game()
    state = tmp_path / "state"
    journal, game = journal_with(state, lines[:3], header)
    with journal:
        crashed = crash_before_checkpoint(journal, state, tmp_path / "crashed",
                                          lambda: journal.append(game, "undo", lines[2], frame=40))
        finished = crash_before_checkpoint(journal, state, tmp_path / "finished", lambda: journal.finish_game(game))
        started = crash_before_checkpoint(journal, state, tmp_path / "started",
                                          lambda: journal.start_game_from_header(json.loads(header)))
    for folder in (crashed, finished, started):
        (folder / f"{JOURNAL_FILE}-wal").unlink()   # damaged beyond use, deleted by someone tidying up

    with Journal.read(crashed) as reader:             # a reader says it, and changes nothing
        assert [e.kind for e in reader.game(game).entries] == ["event"] * 3
        assert reader.findings == [f"game {game}: entry 4 (undo {lines[2]}) is missing from {crashed / JOURNAL_FILE} "
                                   f"({LOST_HOW}); the ledger holds it: `companion run` restores it"]
    with Journal.open(crashed) as journal:
        entry = journal.game(game).entries[-1]
        assert (entry.seq, entry.kind, entry.line, entry.frame) == (4, "undo", lines[2], 40)
        assert journal.findings == [f"game {game}: entry 4 (undo {lines[2]}) was missing from "
                                    f"{crashed / JOURNAL_FILE} ({LOST_HOW}); restored from {LEDGER_FILE}"]
        assert [r.message for r in journal.repairs(game)] == journal.findings  # kept for `games show`
    with Journal.open(crashed) as journal:
        assert journal.findings == [] and len(journal.repairs()) == 1     # said once, kept, not repeated
    with Journal.open(finished) as journal:
        assert not journal.games()[0].running and "the end of game 1 was missing" in journal.findings[0]
    with Journal.open(started) as journal:
        assert [g.id for g in journal.games()] == [1, 2] and "game 2 (its start) was missing" in journal.findings[0]


def test_more_lost_than_the_ledger_holds_is_named_and_the_rest_kept(tmp_path: Path) -> None:
    header, lines = a_table_game()
    state = tmp_path / "state"
    journal, game = journal_with(state, lines[:4], header)
    with journal:
        journal._checkpoint = lambda: None  # type: ignore[method-assign]  # as a journal of schema 1 did
        journal.append(game, "event", lines[4])
        crashed = crash_before_checkpoint(journal, state, tmp_path / "crashed",
                                          lambda: journal.append(game, "event", lines[5]))
    (crashed / f"{JOURNAL_FILE}-wal").unlink()
    with Journal.open(crashed) as journal:
        assert journal.game(game).record() == [header, *lines[:4]]
        assert journal.findings == [f"game {game}: entries 5 to 6 lost: {LOST_HOW}; the last was event {lines[5]}"]


def test_gaps_in_a_game_are_named(tmp_path: Path) -> None:
    header, lines = a_table_game()
    journal, game = journal_with(tmp_path, lines[:10], header)
    journal.close()
    with sqlite3.connect(tmp_path / JOURNAL_FILE) as db:
        db.execute("DELETE FROM entries WHERE seq IN (3, 4, 7)")
    with Journal.read(tmp_path) as reader:
        assert reader.findings == [f"game {game}: entries 3-4, 7 of 10 are missing (the journal was damaged); "
                                   f"the game is rebuilt from the 7 left"]


@pytest.mark.parametrize("damage", ["drop entries", "drop games", "empty file", "not a journal"])
def test_a_damaged_journal_is_refused_never_silently_made_again(tmp_path: Path, damage: str) -> None:
    header, lines = a_table_game()
    journal, _ = journal_with(tmp_path, lines[:3], header)
    journal.close()
    path = tmp_path / JOURNAL_FILE
    if damage.startswith("drop"):
        with closing(sqlite3.connect(path, isolation_level=None)) as db:
            db.execute(f"DROP TABLE {damage.split()[1]}")
    elif damage == "empty file":
        path.write_bytes(b"")
    else:
        path.unlink()
        with closing(sqlite3.connect(path, isolation_level=None)) as db:
            db.execute("CREATE TABLE photos (x)")
    expected = {"drop entries": "the entries table is missing", "drop games": "the games table is missing",
                "empty file": "the file is empty (0 bytes)", "not a journal": "not a companion journal"}[damage]
    before = path.read_bytes()
    for opening in (Journal.open, Journal.read):
        with pytest.raises(JournalError, match=re.escape(expected)) as caught:
            opening(tmp_path)
        assert "\n" not in str(caught.value) and caught.value.exit_status == 2
    assert path.read_bytes() == before  # left as it was, for whoever can rescue it


def test_one_writer_at_a_time_and_readers_beside_it(tmp_path: Path) -> None:
    header, lines = a_table_game()
    with Journal.open(tmp_path) as journal:
        game = journal.start_game_from_header(json.loads(header))
        with pytest.raises(JournalBusyError, match=rf"another companion \(pid {os.getpid()}\) is writing") as busy:
            Journal.open(tmp_path)
        assert busy.value.exit_status == 75
        journal.append(game, "event", lines[0])
        with Journal.read(tmp_path) as reader:
            assert reader.game(game).record() == [header, lines[0]] and reader.findings == []
    with Journal.open(tmp_path) as again:  # the lock goes with the writer
        assert again.append(game, "event", lines[1]) == 2


# -- schema versions ------------------------------------------------------------------------------

def a_schema_1_journal(state: Path, games: int = 3) -> list[list[str]]:
    """A season as the first companion left it: never checkpointed, so most of it lives in the WAL."""
    state.mkdir()
    db = sqlite3.connect(state / JOURNAL_FILE, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.executescript(SCHEMA_1)
    records = []
    for number in range(1, games + 1):
        header, lines = a_table_game(number)
        db.execute("INSERT INTO games (started, first_player, header) VALUES ('2026-05-01T20:00:00', 'p1', ?)",
                   (header,))
        for seq, line in enumerate(lines, start=1):
            db.execute("INSERT INTO entries VALUES (?, ?, 'event', ?, ?, '2026-05-01T20:01:00')",
                       (number, seq, line, seq * 10))
        if number < games:
            db.execute("UPDATE games SET finished = 'later', result = '{}' WHERE id = ?", (number,))
        records.append([header, *lines])
    shutil.copy2(state / f"{JOURNAL_FILE}-wal", state / "wal")  # closing would checkpoint: keep it as it was
    db.close()
    shutil.move(state / "wal", state / f"{JOURNAL_FILE}-wal")
    return records


def test_a_schema_1_season_is_read_as_it_is_and_upgraded_whole(tmp_path: Path) -> None:
    records = a_schema_1_journal(tmp_path / "state")
    with Journal.read(tmp_path / "state") as reader:
        assert reader.version == 1 and [reader.game(n).record() for n in (1, 2, 3)] == records
        assert reader.findings == [] and reader.repairs() == []
    with Journal.open(tmp_path / "state") as journal:
        assert journal.version == SCHEMA_VERSION and journal.upgraded_from == 1 and journal.findings == []
        assert [journal.game(n).record() for n in (1, 2, 3)] == records
        assert [e.frame for e in journal.game(2).entries[:2]] == [10, 20]
        assert journal.resume() is not None and journal.resume().info.id == 3  # type: ignore[union-attr]
        assert journal.append(3, "warning", {"reason": "color-rule"}) == len(records[2])
        db = journal._db
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("SELECT sql FROM sqlite_master WHERE name = 'entries'").fetchone()[0].endswith("ROWID")
    with Journal.open(tmp_path / "state") as journal:
        assert journal.version == SCHEMA_VERSION and journal.upgraded_from is None and journal.findings == []


def test_an_upgrade_that_fails_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = a_schema_1_journal(tmp_path / "state", games=2)

    def half_done(db: sqlite3.Connection, clock: Callable[[], str]) -> None:
        db.execute("DELETE FROM entries WHERE game_id = 2")  # as a bug or a power cut would stop it midway

    monkeypatch.setitem(journal_module.UPGRADES, 1, half_done)
    with pytest.raises(JournalError, match=r"the upgrade from schema 1 would lose rows .* nothing was changed"):
        Journal.open(tmp_path / "state")
    with Journal.read(tmp_path / "state") as reader:
        assert reader.version == 1 and [reader.game(n).record() for n in (1, 2)] == records


def test_one_more_kind_is_one_version_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What adding an entry kind takes (the journal module's docstring): the kind, one version, one step.
    header, lines = a_table_game()
    journal, game = journal_with(tmp_path, lines[:3], header)
    journal.close()
    monkeypatch.setattr(journal_module, "KINDS", (*KINDS, "note"))
    monkeypatch.setattr(journal_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(journal_module.UPGRADES, SCHEMA_VERSION, journal_module.rebuild_entries)
    with Journal.open(tmp_path) as upgraded:
        assert upgraded.append(game, "note", '{"note": "x"}') == 4  # type: ignore[arg-type]
        assert upgraded.game(game).record() == [header, *lines[:3]]
        assert upgraded._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_schema_2_journal_takes_resyncs_once_upgraded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header, lines = a_table_game()
    with monkeypatch.context() as schema_2:  # the journal as the companion before resyncs wrote it
        schema_2.setattr(journal_module, "KINDS", tuple(k for k in KINDS if k != "resync"))
        schema_2.setattr(journal_module, "SCHEMA_VERSION", 2)
        journal, game = journal_with(tmp_path, lines[:3], header)
        with pytest.raises(sqlite3.IntegrityError):
            journal._db.execute("INSERT INTO entries VALUES (?, 99, 'resync', '{}', NULL, 'now')", (game,))
        journal.close()
    state = table_game_after(header, lines[:5])  # the table re-read two moves later
    resync = str(Resync(state))
    with Journal.open(tmp_path) as upgraded:
        assert upgraded.version == SCHEMA_VERSION == 3 and upgraded.upgraded_from == 2
        assert upgraded.append(game, "resync", resync) == 4
        assert upgraded.game(game).record() == [header, *lines[:3], resync]
        assert upgraded.game(game).rebuild().text() == state


def table_game_after(header: str, lines: list[str]) -> str:
    game, _ = replay(read_record([header, *lines]))
    return game.text()


def test_the_ledger_tells_a_torn_slot(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_FILE
    ledger = Ledger(path)
    ledger.write({"op": "append", "game": 1, "seq": 1})
    ledger.write({"op": "append", "game": 1, "seq": 2})
    ledger.close()
    state = Ledger.read(path)
    assert state.last is not None and (state.last["seq"], state.torn) == (2, False)
    data = bytearray(path.read_bytes())
    data[Ledger.HEAD.size + 5] ^= 0xFF                              # slot 0 holds the second write
    path.write_bytes(bytes(data))
    state = Ledger.read(path)
    assert state.last is not None and (state.last["seq"], state.torn) == (1, True)
