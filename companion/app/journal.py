"""The game journal: every event, correction, override, undo and warning, in SQLite.

Files in the state folder:

- ``journal.sqlite``: the journal, in WAL mode.
- ``journal.sqlite-ledger``: the last write, kept apart from the WAL (below).
- ``journal.sqlite-lock``: held by the one companion that writes (its pid inside).
- ``journal.sqlite-wal``, ``-shm``: SQLite's own, while the journal is open.

**Nothing shown is lost.** Each write (a game started, an entry appended, a
game finished) goes into the ledger (fsynced), is committed as one
transaction, and is checkpointed (``PRAGMA wal_checkpoint(PASSIVE)``: the WAL
is fsynced, its pages go into ``journal.sqlite``, which is fsynced) before
the call returns; the caller shows the event only after that. So a crash
leaves at most the write in progress in the WAL, never a game: SQLite's
automatic checkpoint waits for 1,000 pages, about 470 entries (below), more
than a whole game, and a WAL damaged or deleted after a crash used to take
every entry since the game started with it. A passive checkpoint never
waits for a reader (``companion games show`` beside the service); when a
reader holds some of it back, the WAL itself is fsynced instead, and the
rest is copied at the next write.

Why ``synchronous=NORMAL`` is as safe here as FULL, for two device flushes
less per write: FULL fsyncs the WAL at every commit (twice when the WAL
starts over, as it does after each checkpoint), but the checkpoint that
follows fsyncs it anyway, and a power cut between the commit and the
checkpoint takes at most that one write, which the ledger holds. A write
is on disk when :meth:`Journal.append` returns, either way.

Why about 8.5 KB of WAL per entry, not the 100 bytes of its line: the WAL
holds whole 4 KB pages, and schema 1 kept entries in a rowid table with a
separate index for its primary key (game, seq), so every append rewrote two
pages. Schema 2 stores entries ``WITHOUT ROWID``, clustered on that key: one
page per append, more when a page splits, about 5.1 KB on average
(``companion bench run`` measures both).

**The ledger** holds the last write itself (game, seq, kind, line...), in
two slots written in turn with a CRC each, fsynced *before* the transaction
commits. After a crash that also damaged or lost the WAL, the journal lacks
at most that write, and the ledger restores it at the next start
(:attr:`Journal.findings` says so, and the ``repairs`` table keeps it for
``games show``). When more is missing than the ledger can give back, the
findings name exactly which entries of which game were lost, and every
other entry is kept.

**At open** the journal is checked: ``PRAGMA quick_check``, the tables its
schema version must have (a dropped table is damage, never silently made
again), an empty file (never one of ours: a new journal is built under
another name and renamed into place), ``seq`` continuity within each game,
games with no gaps and no entries without their game, and the ledger
against the last write.

**One writer**: :meth:`Journal.open` takes an exclusive ``flock`` on the lock
file (released by the kernel when the process dies, ``kill -9`` included);
a second ``companion run`` on the folder is refused (exit 75).
:meth:`Journal.read` opens read-only (``mode=ro``; in a folder nobody may
write, ``immutable=1``) for ``games list/show/export`` and ``doctor``: it
takes no lock, changes nothing and reports what a writer would repair.

**Errors** are told apart by SQLite's error names (``sqlite_errorname``) and
errno: a full disk, a read-only folder or file and failing storage are
:class:`~companion.errors.StorageError` (exit 74: the journal is fine, the
machine is not); a damaged file is :class:`~companion.errors.JournalError`
(exit 2) with the commands that keep it aside.

**Schema versions** (``PRAGMA user_version``; ``application_id`` marks the
file as ours): 1 had ``games`` and a rowid ``entries``; 2 stores entries
without rowid and adds ``journal`` (its id, which the ledger names) and
``repairs``; 3 adds the ``resync`` kind. A writer upgrades an older journal in one transaction
(every game and entry is copied and counted before the commit); readers
read either. The entry kinds are :data:`Kind`, from which :data:`KINDS` and
the SQL ``CHECK`` derive. To add a kind: add it to ``Kind``, raise
:data:`SCHEMA_VERSION` by one and map the previous version to
:func:`rebuild_entries` in :data:`UPGRADES` (older companions then refuse
a journal they could not replay).

How entries make the record (``mandala-record/1``): ``event`` and
``override`` (an event the players confirmed against a warning) add their
line; ``resync`` (the tracker re-anchored to the table, a ``resync`` record
line) adds its line too, applied whatever the rules say; ``undo`` takes the
latest standing event back; ``correction`` replaces the latest standing event
with its line; ``warning`` is kept for the log,
and one marked ``"overridden": true`` (the players accepted a card where it
lies) is carried over a restart by :meth:`JournaledGame.accepted`.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import secrets
import shutil
import sqlite3
import struct
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import quote

from companion.app.storage import permission_problem, read_only_mount, storage_problem
from companion.engine import Event, Game, Setup, read_record, summary
from companion.engine.record import header_json, parse_event
from companion.errors import CompanionError, JournalBusyError, JournalError, LimitError, StorageError
from companion.limits import MAX_LINE_CHARS, parse_json

log = logging.getLogger("companion.journal")

JOURNAL_FILE = "journal.sqlite"
LEDGER_FILE = f"{JOURNAL_FILE}-ledger"
LOCK_FILE = f"{JOURNAL_FILE}-lock"
SCHEMA_VERSION = 3
APPLICATION_ID = 0x4D544A31
"""``PRAGMA application_id`` of a journal ("MTJ1"); schema 1 left it 0."""
MIN_FREE_BYTES = 2**20
"""A writer refuses to start with less free space: a game needs a few tens of KB, SQLite's WAL some pages."""

Kind = Literal["event", "correction", "override", "undo", "warning", "resync"]
KINDS: tuple[Kind, ...] = get_args(Kind)
RECORD_KINDS = frozenset({"event", "override", "correction", "resync"})


def schema() -> dict[str, str]:
    """Each table of the current schema and the statement that makes it (the kinds' CHECK from KINDS)."""
    allowed = ", ".join(f"'{kind}'" for kind in KINDS)
    return {
        "games": """CREATE TABLE games (
    id INTEGER PRIMARY KEY,            -- 1, 2, ... in the order games started
    started TEXT NOT NULL,             -- ISO 8601, UTC
    first_player TEXT NOT NULL CHECK (first_player IN ('p1', 'p2')),
    header TEXT NOT NULL,              -- the mandala-record/1 header line (JSON)
    finished TEXT,                     -- NULL while the game runs
    result TEXT                        -- JSON: the final summary, once finished
)""",
        "entries": f"""CREATE TABLE entries (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),  -- 1, 2, ... within the game, no gaps
    kind TEXT NOT NULL CHECK (kind IN ({allowed})),
    line TEXT NOT NULL,                -- the event's record line, or the warning as JSON
    frame INTEGER,                     -- index of the camera frame it was seen in
    at TEXT NOT NULL,                  -- ISO 8601, UTC
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID""",
        "journal": """CREATE TABLE journal (
    id TEXT NOT NULL,                  -- random; the ledger names the journal it belongs to
    created TEXT NOT NULL
)""",
        "repairs": """CREATE TABLE repairs (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    game_id INTEGER,                   -- NULL: the journal as a whole
    message TEXT NOT NULL              -- what was found missing or damaged, and what was done
)""",
    }


SCHEMA_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT NOT NULL,
    first_player TEXT NOT NULL CHECK (first_player IN ('p1', 'p2')), header TEXT NOT NULL, finished TEXT, result TEXT);
CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games (id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'correction', 'override', 'undo', 'warning')),
    line TEXT NOT NULL, frame INTEGER, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
PRAGMA user_version=1;
"""
"""Schema 1, as the journals of the first companion have it (tests and ``bench run`` make such journals)."""
OLD_TABLES = {1: ("games", "entries")}
"""The tables of older schema versions (the current one has those of :func:`schema`)."""


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
class Repair:
    """A note the journal keeps on what it found missing or damaged, and what it did."""

    at: str
    game_id: int | None
    message: str


@dataclass(frozen=True, slots=True)
class JournaledGame:
    """A game as the journal holds it: its header and entries in order."""

    info: GameInfo
    entries: tuple[Entry, ...]

    def record(self) -> list[str]:
        """The ``mandala-record/1`` lines: header, then the events still standing."""
        return [self.info.header, *standing_lines(self.entries)]

    def rebuild(self) -> Game:
        """The game state after every entry, as the app had it (overrides forced, undos undone).

        Of the header's ruleset; typed as the official game, the one most callers hold.
        """
        record = read_record([self.info.header])
        game: Game = record.new_game()  # type: ignore[assignment]  # the other ruleset's too
        table = record.table_mode
        for entry in self.entries:
            if entry.kind in ("undo", "correction") and game.stack:
                game.pop()
            if entry.kind in RECORD_KINDS:
                # Overrides and corrections are the players' word; an event the
                # rules refuse still happened at the table (its warning is journaled
                # too), so it is applied as far as it makes sense, as the app did.
                event = _event(entry, table, type(game).parse_event)
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
                warning = parse_json(entry.line)
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


def _event(entry: Entry, table: bool, parse: Callable[[Any, bool], Any] = parse_event) -> Any:
    """An entry's event, read by the game's ruleset (``parse``: its ``parse_event``)."""
    try:
        return parse(parse_json(entry.line), table)
    except (ValueError, CompanionError) as error:
        raise JournalError(f"journal entry {entry.seq}: unreadable event line ({error})") from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# -- the ledger: the last write, apart from the WAL ------------------------------------------


@dataclass(frozen=True, slots=True)
class LedgerState:
    last: dict[str, Any] | None
    """The last write the ledger holds whole (its newest valid slot); None when there is none."""
    torn: bool
    """A slot holds something that fails its CRC: the newest write may be the one that was torn."""
    exists: bool


class Ledger:
    """Two slots of :data:`SLOT` bytes, written in turn: magic, length, CRC-32, then the write as JSON.

    A write goes to the slot the previous one did not use and is fsynced, so
    a power cut in the middle of it leaves the other slot whole. The file is
    made at full size once, so a write never needs new disk space (it keeps
    working on a full disk, where the journal itself then says what failed).
    """

    SLOT = 64 * 1024
    MAGIC = b"MTCLEDG1"
    HEAD = struct.Struct("<8sII")

    def __init__(self, path: Path) -> None:
        self.path = path
        self.at_open = state = self.read(path)
        """What the ledger held before this writer opened it (the checks at open compare it)."""
        self._count = int(state.last["n"]) if state.last is not None else 0
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        if os.fstat(self._fd).st_size < 2 * self.SLOT:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, bytes(2 * self.SLOT), 0)  # real blocks, not a sparse hole
            os.fsync(self._fd)

    @classmethod
    def read(cls, path: Path) -> LedgerState:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return LedgerState(None, False, False)
        slots = [data[i * cls.SLOT:(i + 1) * cls.SLOT] for i in range(2)]
        whole = [record for slot in slots if (record := cls._decode(slot)) is not None]
        torn = any(slot.strip(b"\0") and cls._decode(slot) is None for slot in slots)
        last = max(whole, key=lambda record: int(record.get("n", 0)), default=None)
        return LedgerState(last, torn, True)

    @classmethod
    def _decode(cls, slot: bytes) -> dict[str, Any] | None:
        if len(slot) < cls.HEAD.size:
            return None
        magic, length, crc = cls.HEAD.unpack_from(slot)
        payload = slot[cls.HEAD.size:cls.HEAD.size + length]
        if magic != cls.MAGIC or len(payload) != length or zlib.crc32(payload) != crc:
            return None
        try:
            record = parse_json(payload.decode("utf-8"), max_chars=cls.SLOT)
        except ValueError:
            return None
        return record if isinstance(record, dict) and isinstance(record.get("n"), int) else None

    def write(self, record: dict[str, Any]) -> None:
        self._count += 1
        payload = json.dumps({**record, "n": self._count}).encode("utf-8")
        if self.HEAD.size + len(payload) > self.SLOT:
            raise LimitError(f"a journal write of {len(payload)} bytes does not fit the ledger")
        slot = self._count % 2
        os.pwrite(self._fd, self.HEAD.pack(self.MAGIC, len(payload), zlib.crc32(payload)) + payload,
                  slot * self.SLOT)
        os.fdatasync(self._fd)

    def close(self) -> None:
        with suppress(OSError):
            os.close(self._fd)


# -- the single-writer lock -------------------------------------------------------------------


class WriterLock:
    """An exclusive ``flock`` on the lock file, for as long as the writer lives."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self._fd, 32, 0).decode("ascii", "replace").strip()
            os.close(self._fd)
            pid = f" (pid {holder})" if holder.isdigit() else ""
            raise JournalBusyError(
                f"{path.parent / JOURNAL_FILE}: another companion{pid} is writing this journal; two would "
                f"journal every event twice. Stop it first (sudo systemctl stop mandala-companion), or give "
                f"this one its own --state-dir") from None
        with suppress(OSError):  # the pid only helps the message above; a full disk may refuse it
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    @staticmethod
    def held(path: Path) -> bool:
        """Whether a writer holds the lock now (readers then leave the ledger to it)."""
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(descriptor)
        return False

    def release(self) -> None:
        with suppress(OSError):
            os.close(self._fd)


# -- the journal ------------------------------------------------------------------------------


@dataclass(slots=True)
class WriteTimes:
    """Milliseconds per write, of the last few thousand writes: what durability costs (bench run reads it)."""

    ledger: deque[float]
    commit: deque[float]
    checkpoint: deque[float]
    incomplete: int = 0
    """Checkpoints that could not copy everything (a reader held it back; the next write copies it)."""

    @classmethod
    def empty(cls) -> WriteTimes:
        return cls(deque(maxlen=4096), deque(maxlen=4096), deque(maxlen=4096))

    def summary(self) -> dict[str, float]:
        """Medians and longest, in ms, and how many writes; what ``companion run`` logs when it stops."""
        figures: dict[str, float] = {"writes": len(self.ledger), "checkpoints_held_back": self.incomplete}
        for name, times in (("ledger", self.ledger), ("commit", self.commit), ("checkpoint", self.checkpoint)):
            ordered = sorted(times)
            figures[f"{name}_median_ms"] = round(ordered[len(ordered) // 2], 3) if ordered else 0.0
            figures[f"{name}_max_ms"] = round(ordered[-1], 3) if ordered else 0.0
        return figures


class Journal:
    """The journal in ``state_dir``: :meth:`open` to write (one writer), :meth:`read` to read.

    Use as a context manager. :attr:`findings` lists, in one line each, what
    the checks at open found (and, for a writer, repaired).
    """

    def __init__(self, connection: sqlite3.Connection, path: Path, clock: Callable[[], str] = _now, *,
                 lock: WriterLock | None = None) -> None:
        self._db = connection
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()  # the app appends from its worker thread, the CLI reads
        self._writer_lock = lock
        self._ledger: Ledger | None = None
        """Made once the file passed the checks at open (a damaged journal gets no ledger)."""
        self.version = SCHEMA_VERSION
        self.upgraded_from: int | None = None
        self.id = ""
        self.findings: list[str] = []
        self.times = WriteTimes.empty()
        self._ledger_ms: float | None = None

    @property
    def writable(self) -> bool:
        return self._writer_lock is not None

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, state_dir: Path, clock: Callable[[], str] = _now) -> Journal:
        """Open the journal to write, making it (and the folder) when there is none.

        Only one writer at a time (JournalBusyError); a full disk or a read-only
        folder is a StorageError, a damaged journal a JournalError, each one line.
        """
        path = state_dir / JOURNAL_FILE
        _make_folder(state_dir)
        try:
            lock = WriterLock(state_dir / LOCK_FILE)
        except OSError as error:
            raise _error(path, "open the journal to write", error) from None
        try:
            return cls._open_locked(path, lock, clock)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _open_locked(cls, path: Path, lock: WriterLock, clock: Callable[[], str]) -> Journal:
        findings: list[str] = []
        if not path.exists():
            _check_free_space(path)
            findings += _create(path, clock)
        else:
            _refuse_empty(path)
            _check_free_space(path)
            _check_writable(path)
        try:
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
        except sqlite3.Error as error:
            raise _error(path, "open the journal", error) from None
        journal = cls(connection, path, clock, lock=lock)
        journal.findings = findings
        try:
            journal._prepare()
        except BaseException:
            journal._close_quietly()
            raise
        return journal

    @classmethod
    def read(cls, state_dir: Path) -> Journal:
        """Open the journal read-only: no lock, no change; what a writer would repair is in :attr:`findings`."""
        path = state_dir / JOURNAL_FILE
        if not path.exists():
            raise JournalError(f"{path}: no journal here (no game was played with this state folder)")
        _refuse_empty(path)
        connection, note = _connect_read_only(path)
        journal = cls(connection, path)
        journal.findings = [note] if note else []
        try:
            journal._prepare()
        except BaseException:
            journal._close_quietly()
            raise
        return journal

    def _prepare(self) -> None:
        try:
            with self._lock:
                self._check_file()
                if self.writable:
                    self._db.execute("PRAGMA synchronous=NORMAL")  # the checkpoint syncs (see above)
                    self._db.execute("PRAGMA foreign_keys=ON")
                    if self.version < SCHEMA_VERSION:
                        self._upgrade()
                    self._ledger = Ledger(self.path.parent / LEDGER_FILE)
            self.findings += self._check_contents()
            if self.writable:
                self._keep_findings()
        except (sqlite3.Error, OSError) as error:
            raise _error(self.path, "open the journal", error) from None

    def _check_file(self) -> None:
        """The file is a companion journal of a schema we read, whole, with every table."""
        db = self._db
        application = db.execute("PRAGMA application_id").fetchone()[0]
        if application not in (0, APPLICATION_ID):
            raise JournalError(f"{self.path}: not a companion journal (an SQLite database of another program, "
                               f"application id {application:#x}); give the companion a folder of its own")
        check = db.execute("PRAGMA quick_check").fetchall()
        if [row[0] for row in check] != ["ok"]:
            raise _damaged(self.path, f"{len(check)} problem(s), the first: {check[0][0]}")
        self.version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if self.version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: written by a newer companion (journal schema {self.version}, this "
                               f"one reads up to {SCHEMA_VERSION}): update the companion (git pull)")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if self.version == 0:
            raise JournalError(f"{self.path}: not a companion journal (no journal schema in it; tables: "
                               f"{', '.join(sorted(tables)) or 'none'}); give the companion a folder of its own")
        missing = [name for name in OLD_TABLES.get(self.version, tuple(schema())) if name not in tables]
        if missing:
            raise _damaged(self.path, f"the {', '.join(missing)} table is missing (dropped?)")
        if "journal" in tables:
            row = db.execute("SELECT id FROM journal").fetchone()
            self.id = str(row[0]) if row else ""
        if self.writable and db.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
            raise _damaged(self.path, "it cannot be switched to WAL mode")  # only ours are switched, once checked

    def _upgrade(self) -> None:
        """Bring an older journal to this schema in one transaction; every game and entry is counted over."""
        db, old = self._db, self.version
        before = db.execute("SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM entries)").fetchone()
        db.execute("BEGIN IMMEDIATE")
        try:
            for version in range(old, SCHEMA_VERSION):
                UPGRADES[version](db, self._clock)
            after = db.execute("SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM entries)").fetchone()
            if tuple(after) != tuple(before):
                raise JournalError(f"{self.path}: the upgrade from schema {old} would lose rows "
                                   f"(games, entries {tuple(before)} -> {tuple(after)}); nothing was changed")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self.upgraded_from, self.version = old, SCHEMA_VERSION
        self.id = str(db.execute("SELECT id FROM journal").fetchone()[0])
        self._checkpoint()
        log.info("%s: upgraded from journal schema %d to %d (%d games, %d entries kept)", self.path, old,
                 SCHEMA_VERSION, *before)

    # -- the checks at open ----------------------------------------------------------------

    def _check_contents(self) -> list[str]:
        findings = self._check_ledger()
        findings += self._check_continuity()
        return findings

    def _check_ledger(self) -> list[str]:
        if self.version < 2 or self.upgraded_from is not None:
            return []  # schema 1 had no ledger; the first write of a writer makes one
        ledger_path = self.path.parent / LEDGER_FILE
        if self._ledger is not None:
            state = self._ledger.at_open
        elif WriterLock.held(self.path.parent / LOCK_FILE):
            return []  # the running companion keeps it; mid-write, it may be a step ahead of the journal
        else:
            state = Ledger.read(ledger_path)
        games = self._query("SELECT COUNT(*) FROM games")[0][0]
        if not state.exists:
            return [f"{ledger_path} is missing: whether the last write before a crash was kept cannot be "
                    f"checked"] if games else []
        last = state.last
        after = f"the write after {_describe(last)}" if last is not None else "its first write"
        findings = [f"{ledger_path}: its newest record is damaged (torn by a power cut?): {after} may be missing "
                    f"from the journal"] if state.torn else []
        if last is None:
            return findings
        if last.get("journal") != self.id:
            return [*findings, f"{ledger_path} belongs to another journal (its last write: {_describe(last)}): "
                               f"that journal was moved or deleted; this one is used"]
        return findings + self._compare(last)

    def _compare(self, last: dict[str, Any]) -> list[str]:
        """The ledger's last write against the journal: nothing, restored, or what is lost."""
        game = last.get("game")
        if not isinstance(game, int):
            return [f"{self.path.parent / LEDGER_FILE}: unreadable last write {_short(json.dumps(last))}"]
        row = self._query("SELECT finished, (SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?) "
                          "FROM games WHERE id = ?", (game, game))
        newest = self._query("SELECT COALESCE(MAX(id), 0) FROM games")[0][0]
        kind = last.get("op")
        if kind == "append":
            seq = int(last.get("seq", 0))
            if row and row[0][1] >= seq:
                return []
            if row and row[0][1] == seq - 1:
                return [self._restore(last, f"game {game}: entry {seq} ({last.get('kind')} "
                                            f"{_short(str(last.get('line')))})")]
            lost = f"entries {row[0][1] + 1} to {seq}" if row else f"the game and its entries up to {seq}"
            return [f"game {game}: {lost} lost: {LOST_HOW}; the last was {last.get('kind')} "
                    f"{_short(str(last.get('line')))}"]
        if kind == "start":
            if row:
                return []
            if newest == game - 1:
                return [self._restore(last, f"game {game} (its start)")]
            return [f"games {newest + 1} to {game} lost: {LOST_HOW}"]
        if kind == "finish":
            if row and row[0][0] is not None:
                return []
            if row:
                return [self._restore(last, f"the end of game {game}")]
            return [f"game {game} lost: {LOST_HOW}"]
        return [f"{self.path.parent / LEDGER_FILE}: unknown last write {_short(json.dumps(last))}"]

    def _restore(self, last: dict[str, Any], what: str) -> str:
        if not self.writable:
            return f"{what} is missing from {self.path} ({LOST_HOW}); the ledger holds it: `companion run` " \
                   f"restores it"
        try:
            with self._write("restore the last write from the ledger") as db:
                _apply(db, last)
        except JournalError as error:  # a write that cannot be applied must not keep the journal shut
            return f"{what} is missing from {self.path} ({LOST_HOW}); the ledger holds it but it cannot be " \
                   f"applied ({error})"
        return f"{what} was missing from {self.path} ({LOST_HOW}); restored from {LEDGER_FILE}"

    def _check_continuity(self) -> list[str]:
        findings = []
        ids = [row[0] for row in self._query("SELECT id FROM games ORDER BY id")]
        gaps = sorted(set(range(1, (ids[-1] if ids else 0) + 1)) - set(ids))
        if gaps:
            findings.append(f"games {_ranges(gaps)} are missing (the journal was damaged)")
        for game, count, top in self._query("SELECT game_id, COUNT(*), MAX(seq) FROM entries GROUP BY game_id "
                                            "HAVING COUNT(*) != MAX(seq)"):
            seqs = {row[0] for row in self._query("SELECT seq FROM entries WHERE game_id = ?", (game,))}
            missing = sorted(set(range(1, top + 1)) - seqs)
            findings.append(f"game {game}: entries {_ranges(missing)} of {top} are missing (the journal was "
                            f"damaged); the game is rebuilt from the {count} left")
        for (game,) in self._query("SELECT DISTINCT game_id FROM entries WHERE game_id NOT IN (SELECT id FROM games)"):
            findings.append(f"game {game}: its entries are here but the game itself is missing (the journal was "
                            f"damaged)")
        return findings

    def _keep_findings(self) -> None:
        """Findings go into ``repairs`` once each, for ``games show`` long after the log is gone."""
        if not self.findings:
            return
        known = {row[0] for row in self._query("SELECT message FROM repairs")}
        fresh = [message for message in self.findings if message not in known]
        if not fresh:
            return
        with self._write("note what was found") as db:
            for message in fresh:
                game = _game_named(message)
                db.execute("INSERT INTO repairs (at, game_id, message) VALUES (?, ?, ?)",
                           (self._clock(), game, message))

    # -- closing -------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self.writable:
                with suppress(sqlite3.Error):
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                if self.times.ledger:
                    log.info("journal: %s", json.dumps(self.times.summary()))  # `companion bench run` reads it
            self._db.close()
            if self._ledger is not None:
                self._ledger.close()
            if self._writer_lock is not None:
                self._writer_lock.release()

    def _close_quietly(self) -> None:
        with suppress(sqlite3.Error, OSError):
            self.close()

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
        text = json.dumps(header)
        read_record([text])  # refuse a header the engine could not read back
        with self._write("start a game") as db:
            game = int(db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0])
            self._log_write({"op": "start", "game": game, "started": self._clock(), "first_player": first,
                             "header": text}, db)
        return game

    def append(self, game_id: int, kind: Kind, line: str | Event | dict[str, Any],
               frame: int | None = None) -> int:
        """Append one entry, in ``journal.sqlite`` on disk before this returns; returns its seq."""
        if kind not in KINDS:
            raise JournalError(f"{self.path}: unknown entry kind {kind!r} (expected {', '.join(KINDS)})")
        text = json.dumps(line) if isinstance(line, dict) else str(line)
        if len(text) > MAX_LINE_CHARS:
            raise LimitError(f"{self.path}: an entry of {len(text)} characters (at most {MAX_LINE_CHARS})")
        with self._write(f"append to game {game_id}") as db:
            row = db.execute("SELECT finished, (SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?) "
                             "FROM games WHERE id = ?", (game_id, game_id)).fetchone()
            if row is None:
                raise JournalError(f"{self.path}: no game {game_id}")
            if row[0] is not None:
                raise JournalError(f"{self.path}: game {game_id} is finished; start a new game")
            seq = int(row[1]) + 1
            self._log_write({"op": "append", "game": game_id, "seq": seq, "kind": kind, "line": text,
                             "frame": frame, "at": self._clock()}, db)
        return seq

    def finish_game(self, game_id: int, result: dict[str, Any] | None = None) -> None:
        """Mark a game finished (over, or abandoned for a new one); ``result`` defaults to its final summary."""
        if result is None:
            result = self.game(game_id).final()
        with self._write(f"finish game {game_id}") as db:
            running = db.execute("SELECT 1 FROM games WHERE id = ? AND finished IS NULL", (game_id,)).fetchone()
            if running:
                self._log_write({"op": "finish", "game": game_id, "finished": self._clock(),
                                 "result": json.dumps(result)}, db)

    def _log_write(self, write: dict[str, Any], db: sqlite3.Connection) -> None:
        """The write into the ledger first (fsynced), then into the transaction."""
        assert self._ledger is not None
        started = time.perf_counter()
        self._ledger.write({**write, "journal": self.id})
        self._ledger_ms = (time.perf_counter() - started) * 1000
        self.times.ledger.append(self._ledger_ms)
        _apply(db, write)

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One transaction, committed (WAL fsynced) and checkpointed (journal.sqlite fsynced)."""
        if not self.writable:
            raise JournalError(f"{self.path}: opened read-only; cannot {what}")
        with self._lock:
            self._ledger_ms = None
            try:
                started = time.perf_counter()
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except (sqlite3.Error, OSError) as error:
                raise _error(self.path, what, error) from None
            if self._ledger_ms is not None:  # a game's write, not a note: timed for bench run
                self.times.commit.append((time.perf_counter() - started) * 1000 - self._ledger_ms)
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy the WAL into journal.sqlite; where that cannot be done whole, fsync the WAL so the write is safe."""
        started = time.perf_counter()
        try:
            busy, frames, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as error:
            log.warning("%s: checkpoint failed (%s); the last write is kept in the WAL", self.path, error)
            busy, frames, copied = 1, 1, 0
        self.times.checkpoint.append((time.perf_counter() - started) * 1000)
        if busy or copied < frames:
            self.times.incomplete += 1
            log.debug("%s: checkpoint copied %d of %d WAL frames (a reader holds the rest)", self.path, copied,
                      frames)
            self._sync_wal()

    def _sync_wal(self) -> None:
        wal = self.path.with_name(f"{self.path.name}-wal")
        try:
            descriptor = os.open(wal, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        except OSError as error:
            raise _error(self.path, "keep the last write (fsync of the WAL)", error) from None

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

    def repairs(self, game_id: int | None = None) -> list[Repair]:
        """What the journal found missing or damaged over its life (for one game, or all)."""
        if self.version < 2:
            return []
        where, parameters = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        return [Repair(*row) for row in self._query(f"SELECT at, game_id, message FROM repairs {where} ORDER BY id",
                                                     parameters)]

    def _query(self, sql: str, parameters: tuple[object, ...] = ()) -> list[Any]:
        try:
            with self._lock:
                return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise _error(self.path, "read the journal", error) from None

    def _info(self, row: Sequence[Any]) -> GameInfo:
        try:
            result = None if row[5] is None else parse_json(row[5])
        except ValueError as error:
            raise JournalError(f"{self.path}: game {row[0]}: unreadable result ({error})") from None
        return GameInfo(int(row[0]), row[1], row[2], row[3], row[4], result, int(row[6]))


_GAMES_SQL = ("SELECT g.id, g.started, g.first_player, g.header, g.finished, g.result, "
              "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id) FROM games g")

LOST_HOW = "the write-ahead log journal.sqlite-wal was damaged or removed after a crash"


def _apply(db: sqlite3.Connection, write: dict[str, Any]) -> None:
    """A write (as the ledger holds it) into the journal's tables."""
    op = write["op"]
    if op == "start":
        db.execute("INSERT INTO games (id, started, first_player, header) VALUES (?, ?, ?, ?)",
                   (write["game"], write["started"], write["first_player"], write["header"]))
    elif op == "append":
        db.execute("INSERT INTO entries (game_id, seq, kind, line, frame, at) VALUES (?, ?, ?, ?, ?, ?)",
                   (write["game"], write["seq"], write["kind"], write["line"], write["frame"], write["at"]))
    elif op == "finish":
        db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ? AND finished IS NULL",
                   (write["finished"], write["result"], write["game"]))
    else:
        raise JournalError(f"unknown journal write {op!r}")


def _short(line: str, limit: int = 120) -> str:
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _describe(write: dict[str, Any]) -> str:
    if write.get("op") == "append":
        return f"game {write.get('game')} entry {write.get('seq')}"
    return f"{write.get('op')} of game {write.get('game')}"


def _game_named(message: str) -> int | None:
    """The game a finding is about (it starts with "game N:"), for the repairs table."""
    head = message.split(":", 1)[0].split()
    return int(head[1]) if len(head) == 2 and head[0] == "game" and head[1].isdigit() else None


def _ranges(numbers: Sequence[int]) -> str:
    """[3, 4, 5, 9] -> "3-5, 9"."""
    parts: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    return ", ".join(parts)


# -- files on disk ----------------------------------------------------------------------------


def _make_folder(state_dir: Path) -> None:
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise JournalError(f"{state_dir}: not a folder (state_dir must name a folder for the journal)") from None
    except OSError as error:
        raise _error(state_dir / JOURNAL_FILE, "make the state folder", error) from None
    if not state_dir.is_dir():
        raise JournalError(f"{state_dir}: not a folder (state_dir must name a folder for the journal)")


def _check_free_space(path: Path) -> None:
    free = shutil.disk_usage(path.parent).free
    if free < MIN_FREE_BYTES:
        kept = "; every game already journaled is kept" if path.exists() else ""
        raise StorageError(f"{path}: the disk is full ({free // 1024} KB free, the companion needs "
                           f"{MIN_FREE_BYTES // 1024} KB to journal a game){kept}. Free some space (sudo apt clean; "
                           f"sudo journalctl --vacuum-size=50M) and start again")


def _check_writable(path: Path) -> None:
    """Say now, not at the first event, that the journal cannot be written (SQLite would open it read-only)."""
    problem = storage_problem(OSError(errno.EROFS, "read-only"), path) if read_only_mount(path) \
        else permission_problem(path)
    if problem is not None:
        raise StorageError(f"{path}: cannot open the journal to write: {problem}; the journal itself is not damaged")


def _refuse_empty(path: Path) -> None:
    """A journal is never empty (it is built under another name first): 0 bytes means it was cut short."""
    try:
        size = path.stat().st_size
        wal = path.with_name(f"{path.name}-wal")
        wal_size = wal.stat().st_size if wal.exists() else 0
    except OSError as error:
        raise _error(path, "open the journal", error) from None
    if size == 0 and wal_size == 0:
        raise _damaged(path, "the file is empty (0 bytes): it was cut short, its games cannot be read")


def _create(path: Path, clock: Callable[[], str]) -> list[str]:
    """A new, empty journal of the current schema, made under another name and renamed into place."""
    findings = []
    for suffix in ("-wal", "-shm"):
        stale = path.with_name(path.name + suffix)
        if stale.exists():
            # SQLite would apply a WAL left by a journal that is gone to the new one: keep it aside.
            aside = stale.with_name(f"{stale.name}.orphaned-{datetime.now(UTC):%Y%m%dT%H%M%S}")
            try:
                stale.rename(aside)
            except OSError as error:
                raise _error(path, "set a stale write-ahead log aside", error) from None
            if suffix == "-wal":
                findings.append(f"{stale} was there without its journal (moved or deleted): kept as {aside}")
    temporary = path.with_name(path.name + ".new")
    try:
        temporary.unlink(missing_ok=True)  # a creation cut short: it never was the journal
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")
            for statement in schema().values():
                db.execute(statement)
            db.execute("INSERT INTO journal (id, created) VALUES (?, ?)", (secrets.token_hex(8), clock()))
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()
        os.rename(temporary, path)
        _sync_folder(path.parent)
    except (OSError, sqlite3.Error) as error:
        with suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise _error(path, "make a new journal", error) from None
    log.info("%s: new journal", path)
    return findings


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _connect_read_only(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """``mode=ro``; where nobody may write the folder (no -shm can be made), ``immutable=1``."""
    uri = f"file:{quote(str(path))}"
    try:
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False, timeout=5.0)
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return connection, None
    except sqlite3.Error as error:
        if storage_problem(error, path) is None:
            raise _error(path, "open the journal", error) from None
    try:
        connection = sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        raise _error(path, "open the journal", error) from None
    wal = path.with_name(f"{path.name}-wal")
    unread = wal.stat().st_size if wal.exists() else 0
    note = (f"{wal} ({unread} bytes) cannot be read in a folder nobody may write: the last write before a "
            f"crash may be missing here; `companion run` with the folder writable restores it") if unread else None
    return connection, note


def _damaged(path: Path, detail: str) -> JournalError:
    folder = path.parent
    files = " ".join(str(p) for p in sorted(folder.glob(f"{JOURNAL_FILE}*")) if p.name != LOCK_FILE)
    return JournalError(f"{path}: damaged journal ({detail}); the companion will not write to it. Keep it "
                        f"aside and start a new journal: mkdir -p {folder}/damaged && mv {files or path} "
                        f"{folder}/damaged/")


def _error(path: Path, what: str, error: BaseException) -> CompanionError:
    """One line for a failed open, read or write: storage, damage, or the error as SQLite says it."""
    if isinstance(error, CompanionError):
        return error
    problem = storage_problem(error, path)
    if problem is not None:
        # Failing storage: nobody can tell yet what the journal holds. Else the data is fine, the machine is not.
        fine = "" if problem.startswith("input/output") else "; the journal itself is not damaged"
        return StorageError(f"{path}: cannot {what}: {problem}{fine}")
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return _damaged(path, str(error))
    reason = getattr(error, "strerror", None) or str(error)
    return JournalError(f"{path}: cannot {what} ({reason})")


# -- schema upgrades -------------------------------------------------------------------------


def rebuild_entries(db: sqlite3.Connection, clock: Callable[[], str]) -> None:
    """Make ``entries`` again from :func:`schema` (its kinds, WITHOUT ROWID), every row copied over.

    SQLite cannot change a CHECK in place; this is its documented way
    (create, copy, drop, rename), inside the caller's transaction.
    """
    db.execute(schema()["entries"].replace("CREATE TABLE entries", "CREATE TABLE entries_new", 1))
    db.execute("INSERT INTO entries_new (game_id, seq, kind, line, frame, at) "
               "SELECT game_id, seq, kind, line, frame, at FROM entries")
    db.execute("DROP TABLE entries")
    db.execute("ALTER TABLE entries_new RENAME TO entries")


def _upgrade_from_1(db: sqlite3.Connection, clock: Callable[[], str]) -> None:
    rebuild_entries(db, clock)
    tables = schema()
    db.execute(tables["journal"])
    db.execute(tables["repairs"])
    db.execute("INSERT INTO journal (id, created) VALUES (?, ?)", (secrets.token_hex(8), clock()))


UPGRADES: dict[int, Callable[[sqlite3.Connection, Callable[[], str]], None]] = {1: _upgrade_from_1,
                                                                               2: rebuild_entries}
"""Version -> the step to the next version, run in one transaction at a writer's open."""
