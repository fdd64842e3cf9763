"""The local card database: pokemontcg.io card data imported into SQLite.

``table-assistant cards import PATH`` reads the pokemontcg.io layout — a folder with
``cards/en/*.json`` and ``sets/en.json``, or the release zip of that repository — and
stores each card's facts (never its effect text) under ``TABLE_ASSISTANT_HOME``.
Importing the same data twice leaves the same database: records are keyed by card id.

A record that cannot be read is reported with its file and id and skipped; it never
stops the import.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

from rapidfuzz import fuzz, process

from assistant.cards import ENERGY_TYPES, Card, fold
from assistant.paths import card_database_path, connect

SCHEMA = """
CREATE TABLE IF NOT EXISTS sets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    series TEXT,
    ptcgo_code TEXT,
    release_date TEXT,
    total INTEGER
);
CREATE TABLE IF NOT EXISTS cards (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    folded_name TEXT NOT NULL,
    supertype TEXT NOT NULL,
    set_id TEXT NOT NULL,
    set_code TEXT,
    number TEXT NOT NULL,
    release_date TEXT,
    facts TEXT NOT NULL,
    regulation_mark TEXT,
    legalities TEXT
);
CREATE INDEX IF NOT EXISTS cards_by_folded_name ON cards (folded_name);
CREATE INDEX IF NOT EXISTS cards_by_printing ON cards (set_code, number);
"""


#: What to do about a card database file that cannot be read.
REMEDY = "move it aside (or delete it) and run 'table-assistant cards import PATH' again"


class ImportError_(Exception):
    """The import source itself cannot be read (not a bad record: a bad path or zip)."""


@dataclass
class ImportReport:
    """What an import did: counts, and every record it could not read."""

    cards: int = 0
    sets: int = 0
    files: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class NameMatch:
    """A card found by name, with how it was found and a score in 0..100."""

    card: Card
    how: str  # "exact", "normalised" or "fuzzy"
    score: float


class CardDatabase:
    """The SQLite card database. Open it with a path (default: the one under
    ``TABLE_ASSISTANT_HOME``); the file and its folder are made on first write. A folder
    that cannot be made, or a file that is no readable database, is a
    :class:`~assistant.paths.StorageError` (one line: the file and what to do)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else card_database_path()
        self._db = connect(self.path, REMEDY)
        self._db.executescript(SCHEMA)
        self._migrate()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> CardDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- import ----------------------------------------------------------------------

    def import_path(self, path: Path | str) -> ImportReport:
        """Import a pokemontcg.io folder or release zip. Idempotent: each card id is
        written once, replacing what an earlier import stored under it."""
        import time

        started = time.perf_counter()
        report = ImportReport()
        sets_json, card_files = _open_source(Path(path))
        set_rows = _read_sets(sets_json, report)
        codes = {row[0]: row[3] for row in set_rows}
        dates = {row[0]: row[4] for row in set_rows}
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO sets VALUES (?, ?, ?, ?, ?, ?)", set_rows)
            report.sets = len(set_rows)
            for file_name, read in card_files:
                report.files += 1
                set_id = PurePosixPath(file_name).stem
                rows = list(_card_rows(file_name, read, set_id, codes, dates, report))
                self._db.executemany(
                    f"INSERT OR REPLACE INTO cards ({', '.join(CARD_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(CARD_COLUMNS))})", rows
                )
                report.cards += len(rows)
        self.__dict__.pop("_folded_names", None)
        report.seconds = time.perf_counter() - started
        return report

    def _migrate(self) -> None:
        """Bring a database made by an older version up to :data:`SCHEMA`: add the
        columns it lacks. The regulation mark is copied from the stored facts; the
        legalities were never stored, so they stay unknown until the next import."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(cards)")}
        with self._db:
            for column in ("regulation_mark", "legalities"):
                if column not in have:
                    self._db.execute(f"ALTER TABLE cards ADD COLUMN {column} TEXT")
            if "regulation_mark" not in have:
                for card_id, facts in self._db.execute("SELECT id, facts FROM cards").fetchall():
                    mark = json.loads(facts).get("regulationMark")
                    if mark:
                        self._db.execute("UPDATE cards SET regulation_mark = ? WHERE id = ?", (mark, card_id))

    # -- lookup ----------------------------------------------------------------------

    def legalities(self, card_id: str) -> dict[str, str] | None:
        """The card's ``legalities`` as pokemontcg.io gives them (``{"unlimited":
        "Legal", "expanded": "Banned"}``); None for a card the database does not hold,
        or one imported before legalities were stored."""
        row = self._db.execute("SELECT legalities FROM cards WHERE id = ?", (card_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] is not None else None

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM cards").fetchone()[0]

    def get(self, card_id: str) -> Card | None:
        row = self._db.execute("SELECT facts FROM cards WHERE id = ?", (card_id,)).fetchone()
        return _card(row[0]) if row else None

    def printing(self, set_code: str, number: str) -> Card | None:
        """The card printed as ``number`` in the set whose code is ``set_code`` (the
        ptcgo code such as ``SVI``, or the set id such as ``sv1``)."""
        row = self._db.execute(
            "SELECT facts FROM cards WHERE (set_code = ? COLLATE NOCASE OR set_id = ?) "
            "AND number = ? COLLATE NOCASE ORDER BY release_date DESC LIMIT 1",
            (set_code, set_code.lower(), number.lstrip("0") or number),
        ).fetchone()
        return _card(row[0]) if row else None

    def by_name(self, name: str) -> list[Card]:
        """Every printing of a name: exact spelling first; if none, the normalised
        spelling (accents, typographic apostrophes, case, spacing). Newest first."""
        rows = self._db.execute(
            "SELECT facts FROM cards WHERE name = ? ORDER BY release_date DESC", (name,)
        ).fetchall()
        if not rows:
            rows = self._db.execute(
                "SELECT facts FROM cards WHERE folded_name = ? ORDER BY release_date DESC",
                (fold(name),),
            ).fetchall()
        return [_card(row[0]) for row in rows]

    def find_name(self, name: str, *, limit: int = 5, cutoff: float = 70.0) -> list[NameMatch]:
        """Look a name up exactly, then normalised, then fuzzily (rapidfuzz), best
        first; one match per distinct name, carrying its newest printing."""
        exact = self.by_name(name)
        if exact:
            how = "exact" if exact[0].name == name else "normalised"
            return [NameMatch(exact[0], how, 100.0)]
        matches = process.extract(
            fold(name), self._folded_names, scorer=fuzz.WRatio, limit=limit, score_cutoff=cutoff
        )
        found: list[NameMatch] = []
        for folded, score, _ in matches:
            cards = self.by_name(folded)
            if cards:
                found.append(NameMatch(cards[0], "fuzzy", float(score)))
        return found

    def names(self) -> list[tuple[str, str]]:
        """(name, id) of every card."""
        return self._db.execute("SELECT name, id FROM cards ORDER BY id").fetchall()

    def cards(self) -> Iterator[Card]:
        for (facts,) in self._db.execute("SELECT facts FROM cards ORDER BY id"):
            yield _card(facts)

    @cached_property
    def _folded_names(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT DISTINCT folded_name FROM cards")]


_TYPES = "|".join(ENERGY_TYPES)
_PROVIDES = re.compile(rf"provides? (?:(?P<times>\d) )?(?P<types>(?:(?:{_TYPES}) ?)+)Energy")
_CONDITIONAL = re.compile(r"every type|any type|any combination|only 1|but provides|while|if ", re.IGNORECASE)


def special_energy_provides(rules: Iterable[str]) -> list[str]:
    """The Energy a special Energy card provides, read from its rules text at import
    time when the text says it plainly (``provides Colorless Colorless Energy``). Empty
    when the text is conditional (``every type… but only 1 at a time``): the card then
    falls back to one Colorless, and a person decides. The text itself is not stored."""
    text = " ".join(rules)
    found = list(_PROVIDES.finditer(text))
    if len(found) != 1 or _CONDITIONAL.search(text):
        return []
    types = re.findall(_TYPES, found[0]["types"])
    return types * int(found[0]["times"] or 1)


#: The columns of ``cards``, in the order an import writes them.
CARD_COLUMNS = ("id", "name", "folded_name", "supertype", "set_id", "set_code", "number",
                "release_date", "facts", "regulation_mark", "legalities")


def _legalities_json(legalities: Any) -> str | None:
    """A record's ``legalities`` as stored: format → status strings only; None (not
    known) for a record without them."""
    if not isinstance(legalities, dict):
        return None
    return json.dumps({str(k): str(v) for k, v in legalities.items()}, sort_keys=True)


def _card(facts: str) -> Card:
    return Card.from_json(json.loads(facts))


# -- reading the pokemontcg.io layout ------------------------------------------------------

CardFiles = list[tuple[str, Any]]


def _open_source(path: Path) -> tuple[Any, CardFiles]:
    """The parsed ``sets/en.json`` (or None) and the ``cards/en/*.json`` files as
    (name, loader) pairs, from a folder or a release zip."""
    if not path.exists():
        raise ImportError_(f"{path}: no such file or folder")
    if path.is_dir():
        cards_dir = next((d for d in (path / "cards" / "en", path / "cards", path) if any(d.glob("*.json"))), None)
        if cards_dir is None:
            raise ImportError_(f"{path}: no cards/en/*.json files here")
        sets_file = path / "sets" / "en.json"
        sets_json = _load_json(sets_file.read_bytes(), str(sets_file)) if sets_file.exists() else None
        files = sorted(cards_dir.glob("*.json"))
        if cards_dir == path and sets_file in files:
            files.remove(sets_file)
        return sets_json, [(str(f), f.read_bytes) for f in files]
    if zipfile.is_zipfile(path):
        archive = zipfile.ZipFile(path)
        members = archive.namelist()
        card_members = sorted(m for m in members if _is_under(m, ("cards", "en")) and m.endswith(".json"))
        if not card_members:
            raise ImportError_(f"{path}: the zip holds no cards/en/*.json files")
        set_member = next((m for m in members if _is_under(m, ("sets",)) and m.endswith("/en.json")), None)
        sets_json = _load_json(archive.read(set_member), set_member) if set_member else None
        return sets_json, [(m, lambda m=m: archive.read(m)) for m in card_members]
    raise ImportError_(f"{path}: neither a folder nor a zip of pokemontcg.io data")


def _is_under(member: str, folders: tuple[str, ...]) -> bool:
    parts = PurePosixPath(member).parts[:-1]
    return parts[-len(folders):] == folders


def _load_json(raw: bytes, where: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ImportError_(f"{where}: not readable JSON ({error})") from None


def _read_sets(sets_json: Any, report: ImportReport) -> list[tuple]:
    rows = []
    for record in sets_json or ():
        try:
            rows.append((
                record["id"], record["name"], record.get("series"), record.get("ptcgoCode"),
                (record.get("releaseDate") or "").replace("/", "-"), record.get("total"),
            ))
        except (KeyError, TypeError) as error:
            report.problems.append(f"sets/en.json: set {record!r:.60}: unreadable ({error})")
    return rows


def _card_rows(
    file_name: str, read: Any, set_id: str, codes: dict[str, str], dates: dict[str, str],
    report: ImportReport,
) -> Iterable[tuple]:
    try:
        records = json.loads(read().decode("utf-8-sig"))
        if not isinstance(records, list):
            raise ValueError("expected a list of cards")
    except (UnicodeDecodeError, ValueError) as error:
        report.problems.append(f"{file_name}: not a readable card file ({error})")
        return
    for index, record in enumerate(records):
        card_id = record.get("id") if isinstance(record, dict) else None
        try:
            if not card_id:
                raise ValueError("missing field 'id'")
            facts = {**record, "set": set_id}
            if record.get("supertype") == "Energy" and "provides" not in record:
                facts["provides"] = special_energy_provides(record.get("rules") or ())
            card = Card.from_json(facts, set_code=codes.get(set_id) or "")
        except (ValueError, TypeError, AttributeError) as error:
            report.problems.append(f"{file_name}: card {card_id or f'#{index}'}: {error}")
            continue
        yield (
            card.id, card.name, fold(card.name), card.supertype, set_id, card.set_code or None,
            card.number, dates.get(set_id, ""), json.dumps(card.to_json(), ensure_ascii=False),
            card.regulation_mark or None, _legalities_json(record.get("legalities")),
        )
