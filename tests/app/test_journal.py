"""The journal: entries make the record, resume after kill -9, torn writes recover to the last whole entry."""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.journal import JOURNAL_FILE, Journal, standing_lines
from companion.engine import Record, play_random_game, read_record, replay, summary, table_record
from companion.engine.record import header_json
from companion.errors import JournalError

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


def test_wal_mode_and_full_sync(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


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
        Journal.open(tmp_path / "elsewhere", create=False)
    journal.close()


def test_a_damaged_file_says_how_to_start_again(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_FILE).write_bytes(b"this is not a database" * 300)
    with pytest.raises(JournalError, match=r"damaged journal .*mv .*journal\.sqlite .*\.bad") as caught:
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


def test_a_torn_or_corrupt_wal_tail_recovers_to_the_last_whole_entry(tmp_path: Path) -> None:
    header, lines = a_table_game()
    crash_after(tmp_path / "state", header, lines, 12)
    wal_name = f"{JOURNAL_FILE}-wal"

    torn = copy_state(tmp_path / "state", tmp_path / "torn")
    wal = torn / wal_name
    wal.write_bytes(wal.read_bytes()[:-100])                   # power cut in the middle of the last frame
    assert resumed_lines(torn) == lines[:11]

    flipped = copy_state(tmp_path / "state", tmp_path / "flipped")
    data = bytearray((flipped / wal_name).read_bytes())
    data[-50] ^= 0xFF                                           # a bad sector in the last frame
    (flipped / wal_name).write_bytes(bytes(data))
    assert resumed_lines(flipped) == lines[:11]

    # The journal goes on from there: the next append is entry 12 again.
    with Journal.open(torn) as journal:
        game = journal.resume()
        assert game is not None
        assert journal.append(game.info.id, "event", lines[11]) == 12
    assert resumed_lines(torn) == lines[:12]
