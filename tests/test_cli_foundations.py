"""The command line as a user runs it: ``deck check`` and ``cards import`` (SPEC §1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from assistant.embedded import embedded_deck_paths

Cli = Callable[..., CompletedProcess[str]]  # the ``cli`` fixture of conftest.py


@pytest.mark.parametrize("deck", sorted(embedded_deck_paths()))
def test_each_embedded_deck_is_legal(deck: str, cli: Cli) -> None:
    result = cli("deck", "check", str(embedded_deck_paths()[deck]))
    assert result.returncode == 0, result.stdout
    assert "legal: 60 cards (mega-evolution-2025)" in result.stdout


def test_five_copies_exit_1_naming_the_rule_and_line(tmp_path: Path, cli: Cli) -> None:
    original = next(iter(embedded_deck_paths().values())).read_text(encoding="utf-8").splitlines()
    # Make the first 4-copy Trainer line a 5-copy line, and drop one basic Energy to stay at 60.
    index = next(i for i, line in enumerate(original) if line.startswith("4 ") and "Energy" not in line)
    original[index] = "5" + original[index][1:]
    energy = next(i for i, line in enumerate(original) if line.startswith(("13 Basic", "12 Basic")))
    count, rest = original[energy].split(" ", 1)
    original[energy] = f"{int(count) - 1} {rest}"
    deck = tmp_path / "five.txt"
    deck.write_text("\n".join(original), encoding="utf-8")
    result = cli("deck", "check", str(deck))
    assert result.returncode == 1
    assert f"{deck}:{index + 1}: copies-exceeded:" in result.stdout


def test_unreadable_deck_exits_2(tmp_path: Path, cli: Cli) -> None:
    missing = cli("deck", "check", str(tmp_path / "nope.txt"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr and missing.stdout == ""
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("hello there\nthis is not a deck\n", encoding="utf-8")
    result = cli("deck", "check", str(garbage))
    assert result.returncode == 2
    assert f"{garbage}:1: unreadable-line:" in result.stdout


def test_unknown_era_is_refused(cli: Cli) -> None:
    deck = str(next(iter(embedded_deck_paths().values())))
    result = cli("deck", "check", deck, "--era", "gym-heroes-2000")
    assert result.returncode == 2 and "unknown era" in result.stderr
    assert cli("deck", "check", deck, "--era", "standard").returncode == 0


def test_cards_import_then_decks_from_the_database(tmp_path: Path, cli: Cli, shared_card_data: Path) -> None:
    result = cli("cards", "import", str(shared_card_data))
    assert result.returncode == 0, result.stdout
    assert "imported 20202 cards" in result.stdout
    assert (tmp_path / "cards.sqlite").exists()
    deck = tmp_path / "db-deck.txt"
    deck.write_text("Pokémon: 4\n4 Pineco SVI 1\nTrainer: 4\n4 Arven SVI 166\n"
                    "Energy: 52\n52 Basic Grass Energy SVE 1\n", encoding="utf-8")
    checked = cli("deck", "check", str(deck))
    assert checked.returncode == 0, checked.stdout


def test_cards_import_of_a_bad_path_is_a_clear_error(tmp_path: Path, cli: Cli) -> None:
    result = cli("cards", "import", str(tmp_path / "nothing-here"))
    assert result.returncode == 2 and "no such file" in result.stderr


def test_demo_on_a_port_in_use_says_so_before_anything_else(cli: Cli, tmp_path: Path) -> None:
    import socket

    # (The demo played to its end is tests/test_demo.py's.)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("demo", "--port", str(port), "--once")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "choose another --port" in result.stderr
    assert not (tmp_path / "demo").exists()  # nothing rendered for a demo that cannot be served
