"""Deck legality by card pool, as a judge checks it: Standard by regulation mark,
Expanded and Unlimited by the card database's legalities, each older era's Modified
format by set; reprints, bans, basic Energy, and "not sure" when nothing decides."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from assistant.carddb import CardDatabase
from assistant.cards import Card, basic_energy_type, fold
from assistant.catalog import Catalog, catalog_resolver
from assistant.decklist import parse_deck_list
from assistant.decks import check_deck, check_deck_text
from assistant.editions import EXPEDITION, MEGA_EVOLUTION, PLATINUM, edition
from assistant.embedded import embedded_cards, embedded_deck_paths, embedded_deck_texts
from assistant.eras import ERAS
from assistant.formats import (
    BANNED,
    DEFAULT_FORMATS,
    EXPANDED,
    LEGAL,
    MODIFIED_2002,
    NOT_LEGAL,
    STANDARD,
    UNKNOWN,
    UNLIMITED,
    UnknownFormat,
    default_format,
    format_named,
)

Cli = Callable[..., CompletedProcess[str]]  # the ``cli`` fixture of conftest.py


def pokemon(name: str, set_id: str, mark: str = "", hp: int = 60, card_id: str = "") -> Card:
    return Card(name=name, supertype="Pokémon", subtypes=("Basic",), hp=hp, types=("Fire",),
                set_id=set_id, number="1", regulation_mark=mark, id=card_id or f"{set_id}-1")


def trainer(name: str, set_id: str, mark: str = "", card_id: str = "") -> Card:
    return Card(name=name, supertype="Trainer", subtypes=("Item",), set_id=set_id, number="2",
                regulation_mark=mark, id=card_id or f"{set_id}-2")


FIRE = Card(name="Fire Energy", supertype="Energy", subtypes=("Basic",), set_id="base1", id="base1-98")


class Pool:
    """A card pool as the check sees it: printings by name, legalities by id."""

    def __init__(self, cards: list[Card], legalities: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.cards = cards
        self.known = legalities or {}

    def by_name(self, name: str) -> list[Card]:
        return [card for card in self.cards if fold(card.name) == fold(name)]

    def legalities(self, card: Card) -> Mapping[str, str] | None:
        return self.known.get(card.id)


# -- one printing, one verdict ---------------------------------------------------------------

@pytest.mark.parametrize(("mark", "status"), [("G", LEGAL), ("J", LEGAL), ("F", NOT_LEGAL), ("D", NOT_LEGAL)])
def test_standard_goes_by_the_regulation_mark(mark: str, status: str) -> None:
    verdict = STANDARD.judge(pokemon("Pineco", "sv1", mark), None)
    assert verdict.status == status
    if status == NOT_LEGAL:
        assert f"regulation mark is {mark}" in verdict.why and "G, H, I, J" in verdict.why


def test_standard_without_a_mark_is_not_sure_unless_the_database_knows() -> None:
    base = pokemon("Charmander", "base1")
    assert STANDARD.judge(base, None).status == UNKNOWN
    assert STANDARD.judge(base, {"unlimited": "Legal"}).status == NOT_LEGAL
    assert STANDARD.judge(base, {"unlimited": "Legal", "standard": "Legal"}).status == LEGAL


def test_basic_energy_is_allowed_in_every_format() -> None:
    for deck_format in (STANDARD, EXPANDED, UNLIMITED, MODIFIED_2002):
        assert deck_format.judge(FIRE, None).status == LEGAL


def test_expanded_and_unlimited_read_the_databases_legalities() -> None:
    card = pokemon("Archeops", "bw3")
    banned = {"unlimited": "Legal", "expanded": "Banned"}
    assert EXPANDED.judge(card, banned).status == BANNED
    assert UNLIMITED.judge(card, banned).status == LEGAL
    assert EXPANDED.judge(card, {"unlimited": "Legal"}).status == NOT_LEGAL
    # no legalities known: "not sure", never a verdict either way
    assert EXPANDED.judge(card, None).status == UNKNOWN
    assert UNLIMITED.judge(card, None).status == UNKNOWN


def test_a_ban_holds_whatever_the_mark() -> None:
    assert STANDARD.judge(pokemon("Odd", "sv1", "G"), {"standard": "Banned"}).status == BANNED


def test_an_older_era_goes_by_set() -> None:
    assert MODIFIED_2002.judge(pokemon("Charmander", "neo1"), None).status == LEGAL
    verdict = MODIFIED_2002.judge(pokemon("Pineco", "sv1", "G"), None)
    assert verdict.status == NOT_LEGAL and "sv1" in verdict.why
    assert MODIFIED_2002.judge(Card(name="Inline", supertype="Pokémon"), None).status == UNKNOWN


def test_each_era_has_its_own_format_by_default() -> None:
    assert set(DEFAULT_FORMATS) == set(ERAS)
    assert default_format(MEGA_EVOLUTION.era) is STANDARD
    assert default_format(EXPEDITION.era) is MODIFIED_2002
    assert default_format(PLATINUM.era).name == "modified-2009"


def test_format_names() -> None:
    assert format_named(" Expanded ") is EXPANDED
    assert format_named("none") is None
    with pytest.raises(UnknownFormat, match="choose one of standard"):
        format_named("gym-heroes")


# -- a deck, line by line ------------------------------------------------------------------

def codes_and_lines(text: str, pool: Pool, era: str, deck_format=None) -> list[tuple[str, int | None]]:
    def resolve(name: str, set_code: str, number: str) -> Card | None:
        found = [c for c in pool.by_name(name) if not set_code or c.set_id == set_code.lower()]
        kind = basic_energy_type(name)
        return found[0] if found else (FIRE if kind else None)

    report = check_deck(parse_deck_list(text, resolve), era, deck_format or default_format(era), pool)
    return [(p.code, p.line) for p in report.problems]


BASE_SET_DECK = "Pokémon: 4\n4 Charmander BASE1 46\nTrainer: 4\n4 Bill BASE1 91\nEnergy: 52\n52 Fire Energy\n"
SV_DECK = "Pokémon: 4\n4 Pineco SV1 1\nTrainer: 4\n4 Arven SV1 166\nEnergy: 52\n52 Fire Energy\n"
OLD = Pool([pokemon("Charmander", "base1"), trainer("Bill", "base1")],
           {"base1-1": {"unlimited": "Legal"}, "base1-2": {"unlimited": "Legal"}})
NEW = Pool([pokemon("Pineco", "sv1", "G"), trainer("Arven", "sv1", "G")])


def test_a_base_set_deck_is_not_legal_under_the_2025_rules() -> None:
    assert codes_and_lines(BASE_SET_DECK, OLD, "mega-evolution-2025") == [("not-in-format", 2), ("not-in-format", 4)]
    assert codes_and_lines(BASE_SET_DECK, OLD, "mega-evolution-2025", UNLIMITED) == []


def test_a_scarlet_violet_deck_is_not_legal_under_the_2002_rules() -> None:
    assert codes_and_lines(SV_DECK, NEW, "expedition-2002") == [("not-in-format", 2), ("not-in-format", 4)]
    assert codes_and_lines(SV_DECK, NEW, "mega-evolution-2025") == []


def test_an_older_printing_is_legal_through_a_legal_reprint() -> None:
    pool = Pool([trainer("Switch", "sm1", card_id="sm1-132"), trainer("Switch", "sv1", "G", "sv1-194"),
                 pokemon("Pineco", "sv1", "G")], {"sm1-132": {"unlimited": "Legal", "expanded": "Legal"}})
    text = "4 Pineco SV1 1\n4 Switch SM1 132\n52 Fire Energy"
    assert codes_and_lines(text, pool, "mega-evolution-2025") == []


def test_a_pokemon_with_other_attacks_is_no_reprint() -> None:
    pool = Pool([pokemon("Pineco", "sm1", card_id="sm1-1"), pokemon("Pineco", "sv1", "G", hp=70)],
                {"sm1-1": {"unlimited": "Legal"}})
    assert codes_and_lines("4 Pineco SM1 1\n56 Fire Energy", pool, "mega-evolution-2025") == [("not-in-format", 1)]


def test_not_sure_is_a_note_not_a_problem() -> None:
    unknown = Pool([pokemon("Pineco", "sv1", "G")])  # no legalities known
    report = check_deck(parse_deck_list("4 Pineco SV1 1\n56 Fire Energy",
                                        lambda n, s, x: unknown.by_name(n)[0] if "Pineco" in n else FIRE),
                        MEGA_EVOLUTION, EXPANDED, unknown)
    assert report.legal and report.problems == []
    assert [(p.code, p.line) for p in report.unsure] == [("legality-unknown", 1)]
    assert "not sure" in report.unsure[0].message and "Pineco" in report.unsure[0].message


def test_without_a_format_only_the_deck_building_rules_apply() -> None:
    """The engine's ``deck_check`` action and the demo keep their verdicts."""
    assert check_deck_text(BASE_SET_DECK, MEGA_EVOLUTION, lambda n, s, x: OLD.by_name(n)[0]
                           if OLD.by_name(n) else FIRE).problems == []


@pytest.mark.parametrize("name", sorted(embedded_deck_texts()))
def test_the_embedded_decks_are_standard_without_any_import(name: str) -> None:
    catalog = Catalog(embedded_cards())
    report = check_deck_text(embedded_deck_texts()[name], edition("standard"), catalog_resolver(catalog), STANDARD)
    assert (report.problems, report.unsure) == ([], [])


# -- the command line ----------------------------------------------------------------------

def test_deck_check_bars_an_embedded_deck_from_the_2002_format(cli: Cli) -> None:
    deck = embedded_deck_paths()["fire-cinderace-ex"]
    result = cli("deck", "check", str(deck), "--era", "expedition-2002")
    assert result.returncode == 1, result.stdout
    assert f"{deck}:2: not-in-format: 'Scorbunny' SCR 26 (sv7-26) is not legal in Modified 2002-03" in result.stdout
    assert cli("deck", "check", str(deck), "--era", "expedition-2002", "--format", "none").returncode == 0


def test_deck_check_is_not_sure_without_the_legalities(cli: Cli) -> None:
    result = cli("deck", "check", str(embedded_deck_paths()["fire-cinderace-ex"]), "--format", "expanded")
    assert result.returncode == 3, result.stdout
    assert ": legality-unknown: not sure whether" in result.stdout
    assert "not sure: 60 cards (mega-evolution-2025) break no rule" in result.stdout


def test_deck_check_refuses_an_unknown_format(cli: Cli) -> None:
    result = cli("deck", "check", str(embedded_deck_paths()["fire-cinderace-ex"]), "--format", "gym")
    assert result.returncode == 2 and "unknown format 'gym'" in result.stderr


def test_deck_check_against_the_full_card_database(tmp_path: Path, cli: Cli, shared_card_data: Path) -> None:
    with CardDatabase(tmp_path / "cards.sqlite") as database:  # the cli fixture's home
        database.import_path(shared_card_data)
    base = tmp_path / "base.txt"
    base.write_text("Pokémon: 8\n4 Charmander BS 46\n4 Charmeleon BS 24\nTrainer: 4\n4 Professor Oak BS 88\n"
                    "Energy: 48\n48 Fire Energy BS 98\n", encoding="utf-8")
    scarlet = tmp_path / "sv.txt"
    scarlet.write_text("Pokémon: 4\n4 Pineco SVI 1\nTrainer: 12\n4 Arven SVI 166\n4 Switch SUM 132\n"
                       "4 Quick Ball SSH 179\nEnergy: 44\n44 Basic Grass Energy SVE 1\n", encoding="utf-8")

    result = cli("deck", "check", str(base))  # 2025: Standard
    assert result.returncode == 1, result.stdout
    assert (f"{base}:2: not-in-format: 'Charmander' BS 46 (base1-46) is not legal in Standard 2025-26: "
            "it has no regulation mark; the format takes G, H, I, J") in result.stdout
    assert cli("deck", "check", str(base), "--format", "unlimited").returncode == 0
    # 2002: Charmander is reprinted in Legendary Collection; Professor Oak is not
    result = cli("deck", "check", str(base), "--era", "expedition-2002")
    assert [line.split(": ")[1] for line in result.stdout.splitlines()[:-1]] == ["not-in-format"]
    assert f"{base}:5: not-in-format: 'Professor Oak'" in result.stdout

    result = cli("deck", "check", str(scarlet))  # Switch is reprinted with mark G; Quick Ball is D only
    assert result.returncode == 1
    assert f"{scarlet}:6: not-in-format: 'Quick Ball' SSH 179 (swsh1-179) is not legal in Standard 2025-26: " \
           "its regulation mark is D" in result.stdout
    assert result.stdout.count("not-in-format") == 1
    result = cli("deck", "check", str(scarlet), "--era", "expedition-2002")
    assert result.stdout.count("not-in-format") == 4
    assert cli("deck", "check", str(scarlet), "--format", "expanded").returncode == 0


# -- one word for the edition, read once -----------------------------------------------------

def test_era_is_read_once_into_the_edition_every_command_is_handed() -> None:
    from table_assistant.cli import build_parser

    assert build_parser().parse_args(["deck", "check", "f.txt", "--era", "standard"]).edition is MEGA_EVOLUTION
    assert build_parser().parse_args(["deck", "check", "f.txt"]).edition is MEGA_EVOLUTION
    assert build_parser().parse_args(["scenario", "x", "--era", "expedition-2002"]).edition is EXPEDITION
    assert build_parser().parse_args(["scenario", "x"]).edition is None
    assert edition(EXPEDITION) is EXPEDITION and f"{EXPEDITION}" == "expedition-2002"


def test_an_era_name_is_read_in_one_place() -> None:
    root = Path(__file__).resolve().parents[1]
    readers = sorted(
        str(path.relative_to(root)) for package in ("assistant", "table_assistant", "vision", "web")
        for path in (root / package).rglob("*.py")
        if "canonical_era(" in path.read_text(encoding="utf-8") and path.name not in ("eras.py", "editions.py")
    )
    assert readers == []
