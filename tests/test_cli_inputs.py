"""Every input the command line is given gets a clear answer: a one-line error on
stderr and an exit code, never a traceback, a hang, a silent acceptance or a flood.

Most cases call :func:`table_assistant.cli.main` in this process (a traceback would fail
the test as an exception); the ones that could hang run the real command in a
subprocess with a time limit.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.embedded import embedded_deck_paths
from table_assistant.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
DECK = str(next(iter(embedded_deck_paths().values())))
#: Not a database: what a half-copied or unrelated file named cards.sqlite looks like.
NOT_A_DATABASE = b"these bytes are no SQLite database\n" * 200


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``TABLE_ASSISTANT_HOME`` for this test (the folder does not exist yet)."""
    folder = tmp_path / "home"
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(folder))
    return folder


@pytest.fixture
def image(tmp_path: Path) -> str:
    """A small readable image with no card in it."""
    import cv2
    import numpy as np

    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((60, 80, 3), 90, np.uint8))
    return str(path)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main(args)``: the exit code, stdout and stderr (argparse's exits included)."""
    try:
        code = main(args)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def card_folder(root: Path, files: dict[str, str]) -> Path:
    """A pokemontcg.io-style folder: ``cards/en/NAME.json`` for each entry."""
    cards = root / "cards" / "en"
    cards.mkdir(parents=True)
    for name, text in files.items():
        (cards / f"{name}.json").write_text(text, encoding="utf-8")
    return root


GOOD_CARDS = json.dumps([
    {"id": "zz1-1", "name": "Testmon", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": "60",
     "number": "1", "types": ["Grass"]},
    {"id": "zz1-2", "name": "Testmon Two", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": "70",
     "number": "2", "types": ["Fire"]},
])


# -- the stored data: a corrupt database, a home under a file ----------------------------


def commands_that_open_the_home(image: str, tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "frames").mkdir(exist_ok=True)
    return {
        "cards import": ["cards", "import", str(card_folder(tmp_path / "data", {"zz1": GOOD_CARDS}))],
        "deck check": ["deck", "check", DECK],
        "recognize": ["recognize", image],
        "mirror": ["mirror", str(tmp_path / "frames"), "--json"],
        "demo": ["demo"],
    }


@pytest.mark.parametrize("command", ["cards import", "deck check", "recognize", "mirror", "demo"])
def test_a_corrupt_card_database_is_one_line_naming_it_and_is_left_alone(
        command: str, home: Path, image: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home.mkdir()
    database = home / "cards.sqlite"
    database.write_bytes(NOT_A_DATABASE)
    code, out, err = run(commands_that_open_the_home(image, tmp_path)[command], capsys)
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert str(database) in err and "cards import" in err  # the file, and what to do
    assert out == ""
    assert database.read_bytes() == NOT_A_DATABASE


@pytest.mark.parametrize("command", ["cards import", "deck check", "recognize", "mirror", "demo"])
def test_a_home_under_a_file_is_one_line_naming_the_file(
        command: str, tmp_path: Path, image: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("a file, not a folder\n", encoding="utf-8")
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(a_file / "table-assistant"))
    code, out, err = run(commands_that_open_the_home(image, tmp_path)[command], capsys)
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert f"{str(a_file)!r} is a file" in err and "set TABLE_ASSISTANT_HOME to a folder" in err
    assert a_file.read_text(encoding="utf-8") == "a file, not a folder\n"


def test_a_database_damaged_past_its_first_page_is_a_clear_error(
        home: Path, image: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    many = json.dumps([{"id": f"zz1-{n}", "name": f"Testmon {n}", "supertype": "Pokémon", "number": str(n),
                        "subtypes": ["Basic"], "hp": "60"} for n in range(1, 200)])
    assert run(["cards", "import", str(card_folder(tmp_path / "data", {"zz1": many}))], capsys)[0] == 0
    database = home / "cards.sqlite"
    data = bytearray(database.read_bytes())
    data[4096:] = b"\xab" * (len(data) - 4096)  # the schema page stays whole; the cards do not
    database.write_bytes(bytes(data))
    code, out, err = run(["recognize", image], capsys)
    assert code == 2
    assert len(err.splitlines()) == 1 and "cannot be read" in err and str(home) in err


# -- live sources give up -------------------------------------------------------------------


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A local TCP port that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    yield server.getsockname()[1]
    server.close()


def run_real(args: list[str], home: Path, limit: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    """The installed command line in a fresh process, and how long it took."""
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home), "OMP_THREAD_LIMIT": "1"}
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "table_assistant", *args], capture_output=True,
                            text=True, env=env, timeout=limit, cwd=ROOT)
    return result, time.monotonic() - started


@pytest.mark.parametrize("command", ["mirror", "run"])
def test_a_camera_that_does_not_exist_gives_up_after_the_timeout(command: str, tmp_path: Path) -> None:
    args = ["mirror", "97", "--json"] if command == "mirror" else ["run", "--camera", "97"]
    result, seconds = run_real([*args, "--timeout", "1"], tmp_path)
    assert result.returncode == 2
    assert "waiting for camera…" in result.stderr
    assert "gave up on '97'" in result.stderr and "--timeout" in result.stderr
    assert result.stdout == ""
    assert seconds < 30


def test_a_stream_that_never_answers_gives_up_after_the_timeout(silent_port: int, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{silent_port}/video"
    result, seconds = run_real(["mirror", url, "--json", "--timeout", "1"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("waiting for camera…")
    assert f"gave up on {url!r}" in result.stderr
    assert seconds < 30


@pytest.mark.parametrize("spec", ["97", "http://127.0.0.1:{port}/video", "rtsp://127.0.0.1:{port}/live"])
def test_live_sources_wait_then_raise_a_timeout(spec: str, silent_port: int) -> None:
    from vision.sources import SourceTimeout, open_source

    waits: list[float] = []
    started = time.monotonic()
    source = open_source(spec.format(port=silent_port), give_up=0.5, on_wait=lambda: waits.append(1.0))
    with pytest.raises(SourceTimeout) as timeout:
        for _frame in source:
            pass
    assert 0.5 <= time.monotonic() - started < 10
    assert waits == [1.0]  # said once, when the wait began
    assert timeout.value.name == spec.format(port=silent_port) and timeout.value.waited >= 0.5


def test_a_live_source_gives_up_after_ten_seconds_by_default() -> None:
    from vision.sources import GIVE_UP, open_source

    assert GIVE_UP == 10.0
    assert open_source("97").give_up == GIVE_UP


def test_files_and_folders_never_wait(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    from vision.sources import open_source

    cv2.imwrite(str(tmp_path / "000.png"), np.zeros((8, 8, 3), np.uint8))
    waits: list[int] = []
    assert len(list(open_source(str(tmp_path), give_up=0.01, on_wait=lambda: waits.append(1)))) == 1
    assert list(open_source(str(tmp_path / "missing.mp4"), give_up=0.01, on_wait=lambda: waits.append(1))) == []
    assert waits == []


# -- card data and deck lists that are not what they claim ------------------------------------


def test_cards_import_of_only_corrupt_files_fails_naming_each(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = card_folder(tmp_path / "data", {"bad1": "{not json", "bad2": "[1, 2", "bad3": '{"a": 1}'})
    code, out, err = run(["cards", "import", str(folder)], capsys)
    assert code == 2
    for name in ("bad1", "bad2", "bad3"):
        assert f"{name}.json" in err
    assert "nothing imported" in err


def test_cards_import_of_some_corrupt_files_imports_the_rest_and_says_so(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = card_folder(tmp_path / "data", {"bad1": "{not json", "zz1": GOOD_CARDS})
    code, out, err = run(["cards", "import", str(folder)], capsys)
    assert code == 0
    assert "imported 2 cards" in out
    assert "bad1.json" in err and "zz1.json" not in err
    assert "1 files or records could not be read and were skipped" in err


@pytest.mark.parametrize("data", [b"hello there\nthis is no deck\n", b"", b"# just a comment\n",
                                  b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Pokémon: 4\n".encode("latin-1")])
def test_recognize_refuses_a_deck_file_that_is_not_a_deck_list(
        data: bytes, home: Path, tmp_path: Path, image: str, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(data)
    code, out, err = run(["recognize", image, "--deck", str(notes), "--json"], capsys)
    assert code == 2
    assert f"{str(notes)!r} is not a deck list" in err
    assert out == ""  # no image is read against the wrong cards


def test_mirror_refuses_a_deck_file_that_is_not_a_deck_list(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello there\n", encoding="utf-8")
    (tmp_path / "frames").mkdir()
    code, _out, err = run(["mirror", str(tmp_path / "frames"), "--deck-a", str(notes)], capsys)
    assert code == 2 and "is not a deck list" in err


# -- the command line itself ------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, err = run(["--version"], capsys)
    assert code == 0
    assert out == f"table-assistant {version('table-assistant')}\n"


def every_argument(parser: argparse.ArgumentParser,
                   name: str = "table-assistant") -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        yield name, action
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from every_argument(sub, f"{name} {command}")


def test_every_argument_of_every_command_has_help() -> None:
    missing = [f"{name}: {'/'.join(action.option_strings) or action.dest}"
               for name, action in every_argument(build_parser()) if not action.help]
    assert missing == []


def test_errors_go_to_stderr(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_deck = tmp_path / "notes.txt"
    not_a_deck.write_text("hello there\n", encoding="utf-8")
    image_not_a_deck = tmp_path / "photo.txt"
    image_not_a_deck.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    cases = {
        "missing deck list": (["deck", "check", str(tmp_path / "nope.txt")], "cannot read the deck list"),
        "binary deck list": (["deck", "check", str(image_not_a_deck)], "cannot read the deck list"),
        "no card lines": (["deck", "check", str(not_a_deck)], "no card lines found"),
        "bad import path": (["cards", "import", str(tmp_path / "nothing")], "no such file"),
        "missing image": (["recognize", str(tmp_path / "nope.jpg")], "cannot read image"),
    }
    for case, (args, message) in cases.items():
        code, out, err = run(args, capsys)
        assert code == 2, case
        assert message in err and message not in out, case


def test_a_huge_deck_line_is_quoted_cut_short(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "huge.txt"
    deck.write_text("4 Pikachu SVI 1\n" + "x" * 5_000_000 + "\n", encoding="utf-8")
    code, out, err = run(["deck", "check", str(deck)], capsys)
    assert code == 2
    assert f"{deck}:2: unreadable-line:" in out
    assert len(out) + len(err) < 5_000


@pytest.mark.parametrize("args", [
    ["mirror", "frames", "--timeout", "9" * 100_000],
    ["deck", "check", "deck.txt", "--era", "e" * 100_000],
    ["scenario", "s.json", "--verbose", "--no-such-option" + "o" * 100_000],
    ["w" * 100_000],
])
def test_a_huge_argument_is_quoted_cut_short(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert "characters)" in err and len(err) < 2_000


def test_huge_file_names_are_quoted_cut_short(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long_name = "/tmp/" + "n" * 100_000
    for args in (["deck", "check", long_name], ["recognize", long_name + ".jpg"], ["mirror", long_name + ".mp4"],
                 ["cards", "import", long_name]):
        code, out, err = run(args, capsys)
        assert code == 2, args
        assert 0 < len(err) < 2_000, args


def test_the_readme_documents_every_commands_exit_codes_and_the_home() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Exit codes" in readme
    section = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    for command in ("demo", "run", "mirror", "serve", "recognize", "scenario", "deck check", "cards import"):
        assert f"`{command}`" in section, command
    assert "TABLE_ASSISTANT_HOME" in section
