"""The durable record of live games: one SQLite file in WAL mode.

Every entry of a game (an accepted action, a refusal, a question and its answer, a
correction, a penalty, the clock) is one row, numbered from 1 within its game. An entry
is committed, and synced to disk, before anyone is told of it: an answer to the console,
a subscriber, the coin device. So whatever a person was shown survives a killed process
or a closed laptop, and a restart finds the game exactly where it was.

Nothing is ever deleted or changed: a judge's correction is a new entry. The position is
always rebuilt from the entries (see :mod:`assistant.live.table`).

A damaged file is never overwritten: opening it fails with :class:`RecordError`, which
names the file, and a copy is kept beside it. Two processes that hold the same game get
:class:`GameInUse`: a table is fed by one process at a time.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.paths import home

#: Written into the file's header, so that another program's SQLite file is not taken for ours.
APPLICATION_ID = 0x54415442  # "TATB"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    era TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    match_id INTEGER,
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    settings TEXT NOT NULL
);
"""


def _holds_nothing(db: sqlite3.Connection) -> bool:
    """Whether ``db`` is a record to make: a new file, or one whose making was cut short,
    an SQLite file with no application id and no table (switching to WAL writes the file's
    header before the record's first transaction commits). Holding nothing, it is no other
    program's data."""
    try:
        (app_id,) = db.execute("PRAGMA application_id").fetchone()
        (tables,) = db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError:
        return False  # ``Record._check`` says what is wrong with it
    return app_id == 0 and tables == 0


def default_record_path() -> Path:
    """Where games are kept unless a command names another file: ``$TABLE_ASSISTANT_HOME/games.sqlite``."""
    return home() / "games.sqlite"


class RecordError(Exception):
    """The record cannot be used: a damaged or foreign file, or a folder that cannot be
    written. The message names the file and says what to do."""


class GameInUse(RecordError):
    """Another process is feeding this game."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One numbered entry of a game's record."""

    seq: int
    at: float
    kind: str
    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON: its number, time and kind, and what it says under ``body``
        (kept apart: a question's body has a ``kind`` of its own, ``coin`` or ``choice``)."""
        return {"seq": self.seq, "at": self.at, "kind": self.kind, "body": self.body}


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    created: float
    era: str
    title: str
    match_id: int | None
    entries: int
    #: When its last entry was written (None: no entry yet).
    last_at: float | None = None


class Record:
    """The games of one SQLite file. Safe to share between threads: every call runs on
    the one connection under SQLite's own lock, and each append is one transaction."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._locks: dict[int, int] = {}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RecordError(f"{self.path.parent}: cannot make the folder for the game record "
                              f"({error.strerror or error}); set TABLE_ASSISTANT_HOME to a folder "
                              "you can write") from None
        self._db = self._connect()

    # -- opening ---------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise RecordError(f"{self.path}: cannot open the game record ({error})") from None
        try:
            new = _holds_nothing(db)
            if not new:
                self._check(db)
            db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before it returns, so an acknowledged event
            # survives a power cut too, not only a killed process.
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=5000")
            if new:
                # One transaction: a process killed while it makes the record leaves an
                # SQLite file with nothing in it, made again on the next open.
                db.executescript(f"BEGIN; PRAGMA application_id={APPLICATION_ID}; "
                                 f"PRAGMA user_version={SCHEMA_VERSION}; {SCHEMA} COMMIT;")
            else:
                db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            db.close()
            raise self._damaged(str(error)) from None
        return db

    def _check(self, db: sqlite3.Connection) -> None:
        try:
            (app_id,) = db.execute("PRAGMA application_id").fetchone()
            (result,) = db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as error:
            db.close()
            raise self._damaged(str(error)) from None
        if app_id != APPLICATION_ID:
            db.close()
            raise RecordError(f"{self.path}: this is not a Table Assistant game record; "
                              "name another file (--db) or move this one away")
        if result != "ok":
            db.close()
            raise self._damaged(result)

    def _damaged(self, why: str) -> RecordError:
        backup = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        kept = ""
        with suppress(OSError):
            shutil.copy2(self.path, backup)
            kept = f"; a copy is kept at {backup}"
        return RecordError(f"{self.path}: the game record is damaged ({why}){kept}. It was not "
                           "changed: move it away to start a new record, or restore it from a backup")

    def close(self) -> None:
        for fd in self._locks.values():
            with suppress(OSError):
                os.close(fd)
        self._locks.clear()
        self._db.close()

    def __enter__(self) -> Record:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------------

    def new_game(self, era: str, setup: dict[str, Any], *, title: str = "",
                 match_id: int | None = None) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (created, era, title, match_id, setup) VALUES (?, ?, ?, ?, ?)",
            (time.time(), era, title, match_id, json.dumps(setup, ensure_ascii=False)),
        )
        return int(cursor.lastrowid or 0)

    def game(self, game_id: int) -> tuple[str, dict[str, Any], int | None]:
        """A game's era, setup and match."""
        row = self._db.execute("SELECT era, setup, match_id FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise RecordError(f"{self.path}: there is no game {game_id}")
        return row[0], json.loads(row[1]), row[2]

    def games(self) -> list[GameSummary]:
        rows = self._db.execute(
            "SELECT g.id, g.created, g.era, g.title, g.match_id, "
            "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id), "
            "(SELECT MAX(at) FROM entries e WHERE e.game_id = g.id) FROM games g ORDER BY g.id"
        ).fetchall()
        return [GameSummary(*row) for row in rows]

    def claim(self, game_id: int) -> None:
        """Hold the game for this process until :meth:`close`, or raise
        :class:`GameInUse`. The lock is the operating system's: it goes with the
        process, so a killed process never leaves a game locked."""
        if game_id in self._locks:
            return
        lock_path = self.path.with_name(f"{self.path.name}.game-{game_id}.lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise GameInUse(f"{self.path}: game {game_id} is in use by another process; "
                            "stop that process first, or open another game") from None
        self._locks[game_id] = fd

    # -- matches ---------------------------------------------------------------------

    def new_match(self, settings: dict[str, Any]) -> int:
        cursor = self._db.execute("INSERT INTO matches (created, settings) VALUES (?, ?)",
                                  (time.time(), json.dumps(settings)))
        return int(cursor.lastrowid or 0)

    def match(self, match_id: int) -> dict[str, Any]:
        """A match's settings."""
        row = self._db.execute("SELECT settings FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise RecordError(f"{self.path}: there is no match {match_id}")
        return json.loads(row[0])

    def matches(self) -> list[tuple[int, float, dict[str, Any]]]:
        rows = self._db.execute("SELECT id, created, settings FROM matches ORDER BY id").fetchall()
        return [(match_id, created, json.loads(settings)) for match_id, created, settings in rows]

    def match_games(self, match_id: int) -> list[int]:
        rows = self._db.execute("SELECT id FROM games WHERE match_id = ? ORDER BY id", (match_id,))
        return [row[0] for row in rows]

    # -- entries ---------------------------------------------------------------------

    def append(self, game_id: int, kind: str, body: dict[str, Any], at: float | None = None) -> Entry:
        """Add an entry, committed and synced before this returns."""
        when = time.time() if at is None else at
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        self._db.execute("BEGIN IMMEDIATE")
        try:
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute("INSERT INTO entries (game_id, seq, at, kind, body) VALUES (?, ?, ?, ?, ?)",
                             (game_id, last + 1, when, kind, text))
            self._db.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        return Entry(last + 1, when, kind, body)

    def entries(self, game_id: int, after: int = 0) -> list[Entry]:
        return list(self.iter_entries(game_id, after))

    def iter_entries(self, game_id: int, after: int = 0) -> Iterator[Entry]:
        rows = self._db.execute(
            "SELECT seq, at, kind, body FROM entries WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        ).fetchall()
        for seq, at, kind, body in rows:
            yield Entry(seq, at, kind, json.loads(body))

    def last_seq(self, game_id: int) -> int:
        (last,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?",
                                   (game_id,)).fetchone()
        return int(last)
