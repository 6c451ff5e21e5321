"""The game journal: every event, correction, override, undo and warning, in SQLite.

One file, ``journal.sqlite`` in the state directory, in WAL mode. Each
:meth:`Journal.append` is its own transaction and is committed (and on disk)
when it returns, so the caller shows an event only after it is safe.

Durability choice: ``synchronous=FULL``. With WAL, ``NORMAL`` is safe
against a crash of the process (``kill -9``, the watchdog) but not against a
power cut: the last transactions may roll back because the WAL is not
fsynced at each commit. Here a power cut is the common case (people pull the
plug) and an event the players saw on the screen must still be there after
it, or the resumed game disagrees with the table. FULL costs one fsync per
entry, and a game has a few entries a minute.

A torn last write needs no code of ours: SQLite checksums every WAL frame
and replays only whole committed transactions, so after a power cut in the
middle of an append the journal holds every entry before it
(tests/app/test_journal.py tears and corrupts the WAL tail to prove it).

How entries make the record (``mandala-record/1``): ``event`` and
``override`` (an event the players confirmed against a warning) add their
line; ``undo`` takes the latest standing event back; ``correction`` replaces
the latest standing event with its line; ``warning`` is kept for the log,
and one marked ``"overridden": true`` (the players accepted a card where it
lies) is carried over a restart by :meth:`JournaledGame.accepted`.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from companion.engine import Event, Game, Setup, read_record, summary
from companion.engine.record import header_json, parse_event
from companion.errors import CompanionError, JournalError

JOURNAL_FILE = "journal.sqlite"
SCHEMA_VERSION = 1
Kind = Literal["event", "correction", "override", "undo", "warning"]
KINDS: tuple[Kind, ...] = ("event", "correction", "override", "undo", "warning")
RECORD_KINDS = frozenset({"event", "override", "correction"})

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,             -- ISO 8601, UTC
    first_player TEXT NOT NULL CHECK (first_player IN ('p1', 'p2')),
    header TEXT NOT NULL,              -- the mandala-record/1 header line (JSON)
    finished TEXT,                     -- NULL while the game runs
    result TEXT                        -- JSON: the final summary, once finished
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,              -- 1, 2, ... within the game
    kind TEXT NOT NULL CHECK (kind IN ('event', 'correction', 'override', 'undo', 'warning')),
    line TEXT NOT NULL,                -- the event's record line, or the warning as JSON
    frame INTEGER,                     -- index of the camera frame it was seen in
    at TEXT NOT NULL,                  -- ISO 8601, UTC
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    kind: Kind
    line: str
    frame: int | None
    at: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    started: str
    first_player: str
    header: str
    finished: str | None
    result: dict[str, Any] | None
    entries: int

    @property
    def running(self) -> bool:
        return self.finished is None


@dataclass(frozen=True, slots=True)
class JournaledGame:
    """A game as the journal holds it: its header and entries in order."""

    info: GameInfo
    entries: tuple[Entry, ...]

    def record(self) -> list[str]:
        """The ``mandala-record/1`` lines: header, then the events still standing."""
        return [self.info.header, *standing_lines(self.entries)]

    def rebuild(self) -> Game:
        """The game state after every entry, as the app had it (overrides forced, undos undone)."""
        record = read_record([self.info.header])
        game = record.start()
        table = record.table_mode
        for entry in self.entries:
            if entry.kind in ("undo", "correction") and game.stack:
                game.pop()
            if entry.kind in RECORD_KINDS:
                # Overrides and corrections are the players' word; an event the
                # rules refuse still happened at the table (its warning is journaled
                # too), so it is applied as far as it makes sense, as the app did.
                event = _event(entry, table)
                game.push(event, force=entry.kind != "event" or not game.is_legal(event))
        return game

    def final(self) -> dict[str, Any]:
        """``final`` of interfaces.md section 4, for the state the entries lead to."""
        return summary(self.rebuild())

    def accepted(self) -> dict[str, str]:
        """Card -> zone: cards the players accepted where they lie (overridden warnings without an event)."""
        accepted: dict[str, str] = {}
        for entry in self.entries:
            if entry.kind != "warning":
                continue
            try:
                warning = json.loads(entry.line)
            except ValueError:
                continue  # a warning line is only for the log: an unreadable one costs no game state
            if isinstance(warning, dict) and warning.get("overridden") and isinstance(warning.get("zone"), str):
                accepted.update((str(card), warning["zone"]) for card in warning.get("cards", ()))
        return accepted


def standing_lines(entries: Sequence[Entry]) -> list[str]:
    lines: list[str] = []
    for entry in entries:
        if entry.kind in ("undo", "correction") and lines:
            lines.pop()
        if entry.kind in RECORD_KINDS:
            lines.append(entry.line)
    return lines


def _event(entry: Entry, table: bool) -> Event:
    try:
        return parse_event(json.loads(entry.line), table)
    except (ValueError, CompanionError) as error:
        raise JournalError(f"journal entry {entry.seq}: unreadable event line ({error})") from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """The journal in ``state_dir``; open with :meth:`open`, use as a context manager."""

    def __init__(self, connection: sqlite3.Connection, path: Path, clock: Callable[[], str] = _now) -> None:
        self._db = connection
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()  # the app appends from its worker thread, the CLI reads

    @classmethod
    def open(cls, state_dir: Path, clock: Callable[[], str] = _now, create: bool = True) -> Journal:
        """Open (and with ``create``, make) the journal; a damaged file is a one-line JournalError."""
        path = state_dir / JOURNAL_FILE
        if not create and not path.exists():
            raise JournalError(f"{path}: no journal here (no game was played with this state folder)")
        try:
            if create:
                state_dir.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
        except (OSError, sqlite3.Error) as error:
            raise JournalError(f"{path}: cannot open the journal ({error})") from None
        journal = cls(connection, path, clock)
        try:
            journal._prepare()
        except sqlite3.Error as error:
            connection.close()
            raise JournalError(f"{path}: damaged journal ({error}); move it aside to start a new one: "
                               f"mv {path} {path}.bad") from None
        return journal

    def _prepare(self) -> None:
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # see the module docstring: power cuts
        db.execute("PRAGMA foreign_keys=ON")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(check)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"written by a newer companion (schema {version})")
        with self._transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------

    def start_game(self, setup: Setup, table: bool = True) -> int:
        """A new game from its deal (as the camera knows it); returns its id."""
        return self.start_game_from_header(header_json(setup, table))

    def start_game_from_header(self, header: dict[str, Any]) -> int:
        first = header.get("first_player", "p1")
        read_record([json.dumps(header)])  # refuse a header the engine could not read back
        with self._write("start a game") as db:
            cursor = db.execute("INSERT INTO games (started, first_player, header) VALUES (?, ?, ?)",
                                (self._clock(), first, json.dumps(header)))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, kind: Kind, line: str | Event | dict[str, Any],
               frame: int | None = None) -> int:
        """Append one entry, committed and synced before this returns; returns its seq."""
        if kind not in KINDS:
            raise JournalError(f"{self.path}: unknown entry kind {kind!r} (expected {', '.join(KINDS)})")
        text = json.dumps(line) if isinstance(line, dict) else str(line)
        with self._write(f"append to game {game_id}") as db:
            row = db.execute("SELECT finished, (SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?) "
                             "FROM games WHERE id = ?", (game_id, game_id)).fetchone()
            if row is None:
                raise JournalError(f"{self.path}: no game {game_id}")
            if row[0] is not None:
                raise JournalError(f"{self.path}: game {game_id} is finished; start a new game")
            seq = int(row[1]) + 1
            db.execute("INSERT INTO entries (game_id, seq, kind, line, frame, at) VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, seq, kind, text, frame, self._clock()))
        return seq

    def finish_game(self, game_id: int, result: dict[str, Any] | None = None) -> None:
        """Mark a game finished (over, or abandoned for a new one); ``result`` defaults to its final summary."""
        if result is None:
            result = self.game(game_id).final()
        with self._write(f"finish game {game_id}") as db:
            db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ? AND finished IS NULL",
                       (self._clock(), json.dumps(result), game_id))

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._transaction() as db:
                yield db
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot {what} ({error})") from None

    # -- reading -------------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        """Every game, oldest first."""
        return [self._info(row) for row in self._query(_GAMES_SQL + " ORDER BY g.id")]

    def game(self, game_id: int) -> JournaledGame:
        rows = self._query(_GAMES_SQL + " WHERE g.id = ?", (game_id,))
        if not rows:
            raise JournalError(f"{self.path}: no game {game_id}")
        info = self._info(rows[0])
        entries = self._query("SELECT seq, kind, line, frame, at FROM entries WHERE game_id = ? ORDER BY seq",
                              (game_id,))
        return JournaledGame(info, tuple(Entry(*row) for row in entries))

    def latest(self) -> JournaledGame | None:
        rows = self._query("SELECT MAX(id) FROM games")
        return None if rows[0][0] is None else self.game(int(rows[0][0]))

    def resume(self) -> JournaledGame | None:
        """The latest game still running, with its entries in order; None when there is none."""
        rows = self._query("SELECT MAX(id) FROM games WHERE finished IS NULL")
        return None if rows[0][0] is None else self.game(int(rows[0][0]))

    def _query(self, sql: str, parameters: tuple[object, ...] = ()) -> list[Any]:
        try:
            with self._lock:
                return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot read the journal ({error})") from None

    @staticmethod
    def _info(row: Sequence[Any]) -> GameInfo:
        result = None if row[5] is None else json.loads(row[5])
        return GameInfo(int(row[0]), row[1], row[2], row[3], row[4], result, int(row[6]))


_GAMES_SQL = ("SELECT g.id, g.started, g.first_player, g.header, g.finished, g.result, "
              "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id) FROM games g")
