"""The SQLite card database: importing the pokemontcg.io layout and looking names up."""

from __future__ import annotations

import json
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
