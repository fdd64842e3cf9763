"""The SQLite card database: importing the pokemontcg.io layout and looking names up."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from assistant.carddb import CardDatabase, ImportError_, special_energy_provides


def write_source(root: Path, cards: dict[str, list], sets: list | None = None) -> Path:
    (root / "cards" / "en").mkdir(parents=True)
    (root / "sets").mkdir()
    for set_id, records in cards.items():
        (root / "cards" / "en" / f"{set_id}.json").write_text(json.dumps(records), encoding="utf-8")
    sets = sets if sets is not None else [
        {"id": set_id, "name": set_id.upper(), "ptcgoCode": set_id.upper(), "releaseDate": f"2023/0{i + 1}/01"}
        for i, set_id in enumerate(cards)
    ]
    (root / "sets" / "en.json").write_text(json.dumps(sets), encoding="utf-8")
    return root


GOOD = [
    {"id": "t1-1", "name": "Flabébé", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": "40",
     "types": ["Psychic"], "number": "1"},
    {"id": "t1-2", "name": "Professor's Research", "supertype": "Trainer", "subtypes": ["Supporter"], "number": "2"},
    {"id": "t1-3", "name": "Charizard ex", "supertype": "Pokémon", "subtypes": ["Stage 2", "ex"], "hp": "330",
     "number": "3", "evolvesFrom": "Charmeleon"},
]


@pytest.fixture
def db(tmp_path: Path) -> CardDatabase:
    database = CardDatabase(tmp_path / "home" / "cards.sqlite")
    yield database
    database.close()


def test_import_reports_counts(db: CardDatabase, tmp_path: Path) -> None:
    report = db.import_path(write_source(tmp_path / "src", {"t1": GOOD}))
    assert (report.cards, report.sets, report.files, report.problems) == (3, 1, 1, [])
    assert db.get("t1-3").evolves_from == "Charmeleon"
    assert db.printing("T1", "3").name == "Charizard ex"


def test_bad_records_are_reported_with_file_and_id_and_never_stop_the_import(db: CardDatabase, tmp_path: Path) -> None:
    bad = [
        {"id": "t2-1", "supertype": "Pokémon"},  # no name
        {"id": "t2-2", "name": "Odd", "supertype": "Pokémon", "hp": "many"},
        {"name": "No Id", "supertype": "Trainer"},
        "not even an object",
    ]
    source = write_source(tmp_path / "src", {"t1": GOOD, "t2": bad})
    (source / "cards" / "en" / "t3.json").write_text("{broken", encoding="utf-8")
    report = db.import_path(source)
    assert report.cards == 3
    assert len(report.problems) == 5
    joined = "\n".join(report.problems)
    for expected in ("t2.json: card t2-1: missing field 'name'", "t2-2: hp 'many'", "t2.json: card #2",
                     "t2.json: card #3", "t3.json: not a readable card file"):
        assert expected in joined


def test_second_import_is_idempotent(db: CardDatabase, tmp_path: Path) -> None:
    source = write_source(tmp_path / "src", {"t1": GOOD})
    db.import_path(source)
    before = sorted(db.names())
    db.import_path(source)
    assert sorted(db.names()) == before and db.count() == 3


def test_release_zip(db: CardDatabase, tmp_path: Path) -> None:
    source = write_source(tmp_path / "src", {"t1": GOOD})
    archive = tmp_path / "pokemon-tcg-data-2.15.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in source.rglob("*.json"):
            zipped.write(path, f"pokemon-tcg-data-2.15/{path.relative_to(source)}")
    report = db.import_path(archive)
    assert report.cards == 3 and report.sets == 1


@pytest.mark.parametrize("where", ["missing", "empty"])
def test_unreadable_source_is_a_clear_error(db: CardDatabase, tmp_path: Path, where: str) -> None:
    path = tmp_path / where
    if where == "empty":
        path.mkdir()
    with pytest.raises(ImportError_, match=str(path.name)):
        db.import_path(path)
    assert db.count() == 0


def test_name_lookup_exact_normalised_fuzzy(db: CardDatabase, tmp_path: Path) -> None:
    db.import_path(write_source(tmp_path / "src", {"t1": GOOD}))
    assert [(m.card.id, m.how, m.score) for m in db.find_name("Flabébé")] == [("t1-1", "exact", 100.0)]
    assert [(m.card.id, m.how) for m in db.find_name("FLABEBE")] == [("t1-1", "normalised")]
    assert [(m.card.id, m.how) for m in db.find_name("Professor’s  Research")] == [("t1-2", "normalised")]
    fuzzy = db.find_name("Charizrd ex")
    assert fuzzy[0].card.id == "t1-3" and fuzzy[0].how == "fuzzy" and 70 <= fuzzy[0].score < 100
    assert db.find_name("Zzzzzzzz") == []


def test_import_the_full_shared_database(tmp_path: Path, shared_card_data: Path) -> None:
    with CardDatabase(tmp_path / "cards.sqlite") as database:
        report = database.import_path(shared_card_data)
        assert (report.cards, report.sets, report.problems) == (20202, 172, [])
        assert database.get("sv1-100").name == "Flittle"
        assert database.printing("SVI", "100").id == "sv1-100"
        charizard = database.by_name("charizard ex")
        assert charizard and all(card.name == "Charizard ex" for card in charizard)
        assert database.get("me1-60").prizes == 3  # Mega Gardevoir ex
        again = database.import_path(shared_card_data)
        assert again.cards == 20202 and database.count() == 20202


@pytest.mark.parametrize(
    ("rules", "provides"),
    [
        (["This card provides ColorlessColorless Energy."], ["Colorless", "Colorless"]),
        (["This card provides 2 Darkness Energy."], ["Darkness", "Darkness"]),
        (["As long as this card is attached to a Pokémon, it provides Grass Energy."], ["Grass"]),
        # Conditional text is left to a person: no guess is stored.
        (["This card provides every type of Energy but provides only 1 Energy at a time."], []),
        (["This card provides Colorless Energy. While attached to a Fighting Pokémon, it provides "
          "Fighting Energy instead."], []),
    ],
)
def test_special_energy_provides_is_read_only_when_plain(rules: list[str], provides: list[str]) -> None:
    assert special_energy_provides(rules) == provides


# -- legalities and regulation marks ---------------------------------------------------------

LEGAL_RECORDS = [
    {"id": "t1-1", "name": "Flabébé", "supertype": "Pokémon", "subtypes": ["Basic"], "number": "1",
     "regulationMark": "G", "legalities": {"unlimited": "Legal", "standard": "Legal", "expanded": "Legal"}},
    {"id": "t1-2", "name": "Lysandre's Trump Card", "supertype": "Trainer", "subtypes": ["Item"], "number": "2",
     "legalities": {"unlimited": "Legal", "expanded": "Banned"}},
    {"id": "t1-3", "name": "No Legalities", "supertype": "Trainer", "subtypes": ["Item"], "number": "3"},
]

#: The schema of a database made before legalities were stored (the first import's).
OLD_SCHEMA = """
CREATE TABLE sets (id TEXT PRIMARY KEY, name TEXT NOT NULL, series TEXT, ptcgo_code TEXT,
                   release_date TEXT, total INTEGER);
CREATE TABLE cards (id TEXT PRIMARY KEY, name TEXT NOT NULL, folded_name TEXT NOT NULL,
                    supertype TEXT NOT NULL, set_id TEXT NOT NULL, set_code TEXT, number TEXT NOT NULL,
                    release_date TEXT, facts TEXT NOT NULL);
"""


def test_an_import_keeps_each_cards_legalities_and_regulation_mark(db: CardDatabase, tmp_path: Path) -> None:
    db.import_path(write_source(tmp_path / "src", {"t1": LEGAL_RECORDS}))
    assert db.legalities("t1-2") == {"unlimited": "Legal", "expanded": "Banned"}
    assert db.legalities("t1-3") is None  # not known: never read as "legal nowhere"
    assert db.legalities("nope-1") is None
    assert db.get("t1-1").regulation_mark == "G"
    marks = db._db.execute("SELECT id, regulation_mark FROM cards ORDER BY id").fetchall()
    assert marks == [("t1-1", "G"), ("t1-2", None), ("t1-3", None)]


def test_a_database_from_before_legalities_is_migrated_and_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "cards.sqlite"
    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA)
    facts = json.dumps({"id": "t1-1", "name": "Flabébé", "supertype": "Pokémon", "subtypes": ["Basic"],
                        "set": "t1", "number": "1", "regulationMark": "G"})
    old.execute("INSERT INTO cards VALUES ('t1-1', 'Flabébé', 'flabebe', 'Pokémon', 't1', 'T1', '1', "
                "'2023-01-01', ?)", (facts,))
    old.commit()
    old.close()
    with CardDatabase(path) as database:
        assert database.get("t1-1").name == "Flabébé" and database.printing("T1", "1").id == "t1-1"
        assert database.legalities("t1-1") is None  # unknown until the next import
        assert database._db.execute("SELECT regulation_mark FROM cards").fetchone() == ("G",)
        database.import_path(write_source(tmp_path / "src", {"t1": LEGAL_RECORDS}))
        assert database.legalities("t1-1") == {"expanded": "Legal", "standard": "Legal", "unlimited": "Legal"}
    with CardDatabase(path) as again:  # opening a migrated database changes nothing
        assert again.count() == 3


def test_the_full_shared_database_carries_legalities(tmp_path: Path, shared_card_data: Path) -> None:
    with CardDatabase(tmp_path / "cards.sqlite") as database:
        database.import_path(shared_card_data)
        assert database.legalities("base1-4") == {"unlimited": "Legal"}  # Base Set Charizard
        assert database.legalities("xy4-99")["expanded"] == "Banned"  # Lysandre's Trump Card
        assert database.get("sv1-1").regulation_mark == "G"
