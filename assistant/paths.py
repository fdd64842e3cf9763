"""Where Table Assistant keeps what it stores (SPEC §1).

Everything lives under one directory, ``TABLE_ASSISTANT_HOME`` (default
``~/.local/share/table-assistant``), so a test or a second table can use its own.

What is stored there can go wrong in ways the user must fix by hand: the home set to a
path under a regular file, or a database file that is not one (a half-copied file, an
unrelated file of the same name). Either is a :class:`StorageError` whose message is
one line naming the file and what to do; a file SQLite cannot read is never written to.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from assistant.quoting import quote

DEFAULT_HOME = Path("~/.local/share/table-assistant")
HOME_VARIABLE = "TABLE_ASSISTANT_HOME"


class StorageError(Exception):
    """A file or folder under the home cannot be used. ``str()`` is one line for a
    person: the file, what is wrong with it, and what to do."""


def home() -> Path:
    """The data directory, read from the environment each time (tests change it)."""
    configured = os.environ.get(HOME_VARIABLE)
    return Path(configured).expanduser() if configured else DEFAULT_HOME.expanduser()


def usable_home() -> Path:
    """:func:`home`, or :class:`StorageError` when it can never be a folder: it is a
    file, or lies under one. A home that does not exist yet is fine (it is made on the
    first write)."""
    path = home()
    for folder in (path, *path.parents):
        try:
            if folder.is_dir():
                return path
            if folder.exists():
                raise StorageError(f"{_home_named(path)} cannot be a folder: {quote(str(folder))} is a file; "
                                   f"set {HOME_VARIABLE} to a folder")
        except OSError as error:  # a folder on the way that may not be searched
            raise StorageError(f"{_home_named(path)} cannot be used: {quote(str(folder))}: "
                               f"{error.strerror}; set {HOME_VARIABLE} to a folder you can write") from None
    return path


def _home_named(path: Path) -> str:
    """How a message names the home: the variable when the user set it."""
    where = quote(str(path))
    return f"{HOME_VARIABLE} {where}" if os.environ.get(HOME_VARIABLE) else f"the data folder {where}"


def card_database_path() -> Path:
    """The imported card database: ``$TABLE_ASSISTANT_HOME/cards.sqlite``."""
    return home() / "cards.sqlite"


def connect(path: Path, remedy: str) -> sqlite3.Connection:
    """Open the SQLite database ``path``, making its folder first. A folder that cannot
    be made, or a file SQLite cannot read, is a :class:`StorageError` naming the file and
    ending with ``remedy`` (what to do about a bad file). The file is only read here, so
    a corrupt one is left exactly as it was for the user to look at."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        usable_home()  # names the file in the way, when that is the trouble
        raise StorageError(f"cannot make the folder {quote(str(path.parent))} ({error.strerror}); "
                           f"set {HOME_VARIABLE} to a folder you can write") from None
    try:
        database = sqlite3.connect(path)
    except sqlite3.Error as error:
        raise StorageError(f"{quote(str(path))}: cannot be opened ({error}); {remedy}") from None
    try:
        database.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        database.close()
        raise StorageError(f"{quote(str(path))}: not a database this program can read ({error}); "
                           f"{remedy}") from None
    return database
