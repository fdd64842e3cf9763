"""The command line as a user runs it: ``deck check`` and ``cards import`` (SPEC §1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.embedded import embedded_deck_paths

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "pokemon-tcg-data"


def run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "table_assistant", *args], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize("deck", sorted(embedded_deck_paths()))
def test_each_embedded_deck_is_legal(deck: str, tmp_path: Path) -> None:
    result = run("deck", "check", str(embedded_deck_paths()[deck]), home=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "legal: 60 cards (mega-evolution-2025)" in result.stdout


def test_five_copies_exit_1_naming_the_rule_and_line(tmp_path: Path) -> None:
    original = next(iter(embedded_deck_paths().values())).read_text(encoding="utf-8").splitlines()
    # Make the first 4-copy Trainer line a 5-copy line, and drop one basic Energy to stay at 60.
    index = next(i for i, line in enumerate(original) if line.startswith("4 ") and "Energy" not in line)
    original[index] = "5" + original[index][1:]
    energy = next(i for i, line in enumerate(original) if line.startswith(("13 Basic", "12 Basic")))
    count, rest = original[energy].split(" ", 1)
    original[energy] = f"{int(count) - 1} {rest}"
    deck = tmp_path / "five.txt"
    deck.write_text("\n".join(original), encoding="utf-8")
    result = run("deck", "check", str(deck), home=tmp_path)
    assert result.returncode == 1
    assert f"{deck}:{index + 1}: copies-exceeded:" in result.stdout


def test_unreadable_deck_exits_2(tmp_path: Path) -> None:
    missing = run("deck", "check", str(tmp_path / "nope.txt"), home=tmp_path)
    assert missing.returncode == 2 and "cannot read" in missing.stdout
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("hello there\nthis is not a deck\n", encoding="utf-8")
    result = run("deck", "check", str(garbage), home=tmp_path)
    assert result.returncode == 2
    assert f"{garbage}:1: unreadable-line:" in result.stdout


def test_unknown_era_is_refused(tmp_path: Path) -> None:
    deck = str(next(iter(embedded_deck_paths().values())))
    result = run("deck", "check", deck, "--era", "gym-heroes-2000", home=tmp_path)
    assert result.returncode == 2 and "unknown era" in result.stderr
    assert run("deck", "check", deck, "--era", "standard", home=tmp_path).returncode == 0


@pytest.mark.skipif(not SHARED_DATA.exists(), reason="../shared/pokemon-tcg-data is absent")
def test_cards_import_then_decks_from_the_database(tmp_path: Path) -> None:
    result = run("cards", "import", str(SHARED_DATA), home=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "imported 20202 cards" in result.stdout
    assert (tmp_path / "cards.sqlite").exists()
    deck = tmp_path / "db-deck.txt"
    deck.write_text("Pokémon: 4\n4 Pineco SVI 1\nTrainer: 4\n4 Arven SVI 166\n"
                    "Energy: 52\n52 Basic Grass Energy SVE 1\n", encoding="utf-8")
    checked = run("deck", "check", str(deck), home=tmp_path)
    assert checked.returncode == 0, checked.stdout


def test_cards_import_of_a_bad_path_is_a_clear_error(tmp_path: Path) -> None:
    result = run("cards", "import", str(tmp_path / "nothing-here"), home=tmp_path)
    assert result.returncode == 2 and "no such file" in result.stdout


def test_demo_checks_the_embedded_decks_and_plays_a_game(tmp_path: Path) -> None:
    result = run("demo", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("legal: 60 cards") == 2
    assert "winner: A" in result.stdout or "winner: B" in result.stdout
