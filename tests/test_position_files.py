"""Position files from people: every mistake is named (file, key, what was expected),
never a traceback, and never a PASS for a file that plays nothing (SPEC §3)."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.editions import edition
from assistant.engine.positions import UnknownCard
from assistant.position_file import PositionFileError, check_position, read_position_text
from assistant.scenario import Mismatch, run_data
from table_assistant.cli import main

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "scenarios" / "mega-evolution-2025"


def good_file() -> dict[str, Any]:
    """A small playable file: A benches a Basic."""
    return {
        "era": "mega-evolution-2025",
        "cards": {"pika": {"name": "Pikachu", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": 60,
                           "types": ["Lightning"]}},
        "state": {"turn": 3, "current": "A", "first": "A", "players": {
            "A": {"active": {"card": "pika"}, "bench": [], "hand": ["pika"], "deck": 20, "prizes": 6},
            "B": {"active": {"card": "pika"}, "bench": [], "hand": {"count": 4}, "deck": 20, "prizes": 6},
        }},
        "do": [{"type": "bench", "card": "pika"}],
        "expect": {"legal": True, "state": {"players": {"A": {"bench": [{"card": "pika"}]}}}},
    }


def scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, *args: str,
             name: str = "case.json") -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["scenario", *args, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_good_file_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scenario(tmp_path, capsys, good_file())
    assert (code, out.splitlines()[-1]) == (0, "1 passed, 0 failed")


def with_change(path: str, value: Any) -> dict[str, Any]:
    """The good file with the value at a dotted ``path`` replaced (``None``: removed)."""
    data = good_file()
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is None:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


BENCH_OF_TWELVE = [{"card": "pika"}] * 12

#: Each broken file, and what its message must say: the key path, then what was expected.
BROKEN: dict[str, tuple[Any, str]] = {
    "top level is a list": ([good_file()], "(top level): expected a JSON object holding `state`, found a list of 1"),
    "`do` is a string": (with_change("do", "bench pika"), "do: expected a list, found 'bench pika'"),
    "`expect` is a string": (with_change("expect", "legal"), "expect: expected an object, found 'legal'"),
    "no `state`": (with_change("state", None), "state: expected the table position"),
    "expected refusal, no `do`": ({**with_change("do", None), "expect": {"legal": False, "reason": "bench-full"}},
                                  "do: expected at least one action: `expect` says the last action is refused"),
    "empty `do`": (with_change("do", []), "do: expected at least one action to play, found an empty list"),
    "a Bench of 12": (with_change("state.players.B.bench", BENCH_OF_TWELVE),
                      "state.players.B.bench: expected at most 5 Pokémon (the Bench in mega-evolution-2025), "
                      "found a list of 12"),
    "negative prizes": (with_change("state.players.A.prizes", -2),
                        "state.players.A.prizes: expected a count (a non-negative integer), found -2"),
    "seven prizes": (with_change("state.players.A.prizes", 7), "state.players.A.prizes: expected at most 6"),
    "a missing player": (with_change("state.players.B", None),
                         "state.players.B: expected player B (an object), found nothing"),
    "an unknown Special Condition": (with_change("state.players.A.active.conditions", ["Sleepy"]),
                                     "state.players.A.active.conditions[0]: expected one of Asleep, Burned, "
                                     "Confused, Paralyzed, Poisoned, found 'Sleepy'"),
    "an unknown action": (with_change("do.0", {"type": "fly"}), "do[0].type: expected an action type"),
    "an action without its card": (with_change("do.0", {"type": "bench"}),
                                   "do[0].card: expected `card`, which a `bench` action needs"),
    "an unknown era": (with_change("era", "gold-1999"), "era: expected one of"),
    "not JSON": ('{"state": ', "line 1: expected JSON"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_file_fails_with_the_key_and_what_was_expected(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, message = BROKEN[case]
    code, out, err = scenario(tmp_path, capsys, data)
    assert code == 1, out + err
    assert "Traceback" not in out + err
    lines = out.splitlines()
    assert lines[-1] == "0 passed, 1 failed"
    assert lines[0].startswith(f"FAIL {tmp_path / 'case.json'}: not played: "), lines[0]
    assert message in lines[0]


def test_one_line_names_the_first_problem_and_counts_the_rest() -> None:
    data = with_change("state.players.A.prizes", -1)
    data["state"]["players"]["B"]["active"]["damage"] = 15
    with pytest.raises(PositionFileError) as error:
        check_position(data)
    assert len(error.value.problems) == 2
    assert str(error.value).endswith("(and 1 more problem)")


def test_the_bench_size_is_the_era_s_own_even_under_scenario_era() -> None:
    bench = [{"card": "pika"}] * 6
    data = with_change("state.players.B.bench", bench)
    with pytest.raises(PositionFileError, match="at most 5"):
        check_position(data)
    data["era"] = "black-white-2011"
    with pytest.raises(PositionFileError, match="at most 5 Pokémon \\(the Bench in black-white-2011\\)"):
        check_position(data)
    with pytest.raises(PositionFileError, match="mega-evolution-2025"):
        check_position({**data, "era": "expedition-2002"}, edition("mega-evolution-2025"))


def test_a_folder_of_other_json_skips_it_and_runs_the_position_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "package.json").write_text('{"name": "not-a-scenario", "version": "1.0.0"}', encoding="utf-8")
    (tmp_path / "cards.json").write_text("[1, 2, 3]", encoding="utf-8")
    (tmp_path / "bench.json").write_text(json.dumps(good_file()), encoding="utf-8")
    code = main(["scenario", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert out.splitlines()[-2:] == ["skipped 2 JSON files that are no position file (-v names them)",
                                     "1 passed, 0 failed"]


def test_a_named_file_that_is_no_position_file_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scenario(tmp_path, capsys, {"name": "not-a-scenario"}, name="package.json")
    assert code == 1 and "not played: not a position file: state: expected the table position" in out


def test_an_empty_folder_or_a_missing_path_runs_nothing_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert f"scenario: no position file to run in '{tmp_path}'" in err
    assert main(["scenario", str(tmp_path / "nowhere")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_a_huge_value_is_quoted_cut_short(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scenario(tmp_path, capsys, with_change("do.0.type", "x" * 1_000_000))
    assert code == 1 and len(out) < 2_000


# -- fuzzing: any file gets a result or a clear error --------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 300) | st.sampled_from(["", "A", "active", "bench[9]", "Asleep",
                                                                          "pika", "Fire Energy", "end_turn"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["type", "card", "target", "to", "count", "counters", "active", "bench", "state", "players", "A", "B",
         "prizes", "hand", "deck", "conditions", "damage", "do", "expect", "legal"]), inner, max_size=4),
    max_leaves=12,
)


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_of(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths_of(item, (*prefix, index))
    return found


def sample_files() -> list[dict[str, Any]]:
    chosen = sorted(SAMPLE.glob("*.json"))[::12] or []
    return [json.loads(path.read_text(encoding="utf-8")) for path in chosen] + [good_file()]


SAMPLES = sample_files()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLES), st.data(), JSON_VALUES)
def test_a_file_with_any_part_replaced_is_played_or_named_as_broken(sample: dict[str, Any], data: st.DataObject,
                                                                     value: Any) -> None:
    mutated = copy.deepcopy(sample)
    path = data.draw(st.sampled_from(paths_of(mutated)))
    if not path:
        mutated = value
    else:
        node = mutated
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    try:
        checked = check_position(mutated)
    except PositionFileError as error:
        assert str(error) and "\n" not in str(error)
        return
    # a playable file whose play differs from its expectations is a FAIL with a reason
    with contextlib.suppress(Mismatch, UnknownCard):
        run_data(checked)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_any_text_is_a_position_or_a_one_line_error(text: str) -> None:
    try:
        read_position_text(text)
    except PositionFileError as error:
        assert str(error) and "\n" not in str(error)
