"""The mat layout as data: the usual playmat places the demo's cards as the old image
bands did, another layout file moves the zones, a bad file is one clear line, and the
calibration and the judge's tapped corners are checked before they change anything."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.editions import edition
from assistant.live.demo_script import SPOTS, seen_steps, spot_xy
from assistant.mat_layout import (
    BENCH_SLOTS,
    MatLayoutError,
    default_layout,
    load_layout,
    parse_layout,
)
from assistant.mirror import TableMirror
from assistant.table_layout import LayoutError, SeenCard, TableLayout, check_corners

Cli = Callable[..., CompletedProcess[str]]


def card(x: float, y: float, name: str | None = None, track: int = 1) -> SeenCard:
    return SeenCard(track, name, None, x, y)


def banded(x: float, y: float) -> tuple[str, str]:
    """Where the table layout put a card before the mat had zones: the half by the
    centre line, the row by the Active row's depth (0.5 and 0.25 of the picture)."""
    return ("A" if y >= 0.5 else "B"), ("active" if abs(y - 0.5) < 0.25 else "bench")


def demo_places() -> dict[str, tuple[float, float]]:
    """Every spot of the demo's table, for both players, where the video shows it: in
    fractions of the picture (no markers), and on the mat (markers, whose corners lie
    a little inside the picture)."""
    from vision.demo_video import SIZE, camera_knock, mat_corners

    (left, top), (right, bottom) = mat_corners()[0], mat_corners()[2]
    knock = camera_knock()
    places = {}
    for player in "AB":
        for spot in SPOTS:
            x, y = spot_xy(player, spot)
            places[f"{player} {spot} picture"] = (x, y)
            px, py = x * (SIZE[0] - 1), y * (SIZE[1] - 1)
            places[f"{player} {spot} mat"] = ((px - left) / (right - left), (py - top) / (bottom - top))
            kx, ky = knock @ [px, py, 1]
            places[f"{player} {spot} knocked picture"] = (kx / SIZE[0], ky / SIZE[1])
    return places


def test_the_usual_playmat_places_every_demo_pokemon_where_the_image_bands_did() -> None:
    layout = TableLayout()
    for name, (x, y) in demo_places().items():
        player, row = layout.place(card(x, y))
        assert player == banded(x, y)[0], name
        if "+" not in name and "prize" not in name:  # a Pokémon's spot
            assert row == banded(x, y)[1], name
        elif "prize" in name:
            assert row == "prizes", name


def test_the_usual_playmat_arranges_every_demo_table_as_before() -> None:
    layout = TableLayout()
    for _step, _before, after in seen_steps():
        pokemon = [card(*spot_xy(c.player, c.spot), c.name, k) for k, c in enumerate(after.cards.values())
                   if not c.face_down and not c.name.endswith("Energy")]
        arranged = layout.arrange(pokemon)
        for player in "AB":
            active, bench = arranged[player]
            front = [c for c in pokemon if banded(c.x, c.y) == (player, "active")]
            assert active == min(front, key=lambda c: abs(c.x - 0.5), default=None)
            row = sorted((c for c in pokemon if banded(c.x, c.y) == (player, "bench")),
                         key=lambda c: c.x if player == "A" else -c.x)
            assert bench == row


def test_each_player_has_the_usual_zones_and_the_stadium_is_shared() -> None:
    mat = default_layout()
    labels = {zone.label for zone in mat.zones}
    for player in "AB":
        assert {f"{player} {w}" for w in ("Active", "Deck", "Discard", "Prizes", "Lost Zone")} <= labels
        assert {f"{player} Bench {k}" for k in range(1, BENCH_SLOTS + 1)} <= labels
    assert "Stadium" in labels
    assert (mat.centre, mat.active_depth) == (0.5, 0.25)
    # A card's place names its zone: a Bench slot, the discard pile, the Stadium.
    layout = TableLayout()
    assert [layout.zone(card(x, y)).label for x, y in [(0.1, 0.9), (0.95, 0.9), (0.05, 0.5), (0.9, 0.1)]] \
        == ["A Bench 1", "A Discard", "Stadium", "B Bench 1"]


def test_with_a_at_the_top_the_zones_change_hands() -> None:
    layout = TableLayout(a_at_bottom=False)
    assert layout.place(card(0.5, 0.62)) == ("B", "active")
    assert layout.zone(card(0.1, 0.9)).label == "B Bench 1"
    assert layout.zone(card(0.05, 0.5)).label == "Stadium"
    # The player at the bottom orders their Bench from their left, as before.
    _active, bench = layout.arrange([card(0.6, 0.9, "x", 1), card(0.1, 0.9, "y", 2)])["B"]
    assert [c.track for c in bench] == [2, 1]


def test_a_pokemon_laid_in_the_discard_pile_is_no_bench_play() -> None:
    mirror = TableMirror(edition("mega-evolution-2025"), TableLayout())
    table = [card(0.5, 0.62, "Ralts", 1), card(0.5, 0.38, "Scorbunny", 2)]
    assert mirror.see(table) == []
    assert mirror.see([*table, card(0.96, 0.9, "Duskull", 3)]) == []  # A's discard pile
    played = mirror.see([*table, card(0.96, 0.9, "Duskull", 3), card(0.3, 0.9, "Duskull", 4)])
    assert [(i.action.type, i.verdict) for i in played] == [("bench", "accepted")]


def usual() -> dict[str, Any]:
    return json.loads(json.dumps({"name": default_layout().name, "zones": [
        {"zone": z.kind, **({"player": z.player} if z.player else {}), **({"slot": z.slot} if z.slot else {}),
         "rect": list(z.rect)} for z in default_layout().zones]}))


def test_a_layout_file_moves_the_zones(tmp_path: Path) -> None:
    data = usual()
    for zone in data["zones"]:  # a mat whose Active zones are deeper: 0.35 of the height
        left, top, right, bottom = zone["rect"]
        if zone["zone"] == "active":
            zone["rect"] = [left, top, right, 0.85] if zone["player"] == "A" else [left, 0.15, right, bottom]
        elif top >= 0.75:
            zone["rect"] = [left, max(top, 0.85), right, bottom]
        elif bottom <= 0.25:
            zone["rect"] = [left, top, right, min(bottom, 0.15)]
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(data))
    layout = TableLayout.for_mat(load_layout(path))
    assert layout.active_depth == pytest.approx(0.35)
    assert layout.place(card(0.5, 0.8)) == ("A", "active")
    assert TableLayout().place(card(0.5, 0.8)) == ("A", "bench")


def broken(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    data = usual()
    change(data)
    return data


@pytest.mark.parametrize(("data", "said"), [
    ([], 'a "zones" list'),
    (broken(lambda d: d["zones"].pop(0)), "there is no A Active zone"),
    (broken(lambda d: d["zones"].append(d["zones"][2])), "A Bench 1 is given 2 times"),
    (broken(lambda d: d["zones"][0].update(zone="hand")), "'hand', not one of"),
    (broken(lambda d: d["zones"][0].update(rect=[0.2, 0.5, 0.8])), "'rect' must be [left, top, right, bottom]"),
    (broken(lambda d: d["zones"][0].update(rect=[0.8, 0.5, 0.2, 0.75])), "is empty"),
    (broken(lambda d: d["zones"][0].update(rect=[0.1, 0.5, 0.82, 0.75])), "overlap"),
    (broken(lambda d: d["zones"][2].update(slot=6)), "'slot' must be 1 to 5"),
    (broken(lambda d: d["zones"][-1].update(player="A")), "shared and has no player"),
    (broken(lambda d: d["zones"][0].update(colour="red")), "unknown keys: colour"),
])
def test_a_bad_layout_says_what_is_wrong(data: Any, said: str) -> None:
    with pytest.raises(MatLayoutError) as error:
        parse_layout(data, "layout file 'x.json'")
    assert str(error.value).startswith("layout file 'x.json': ")
    assert said in str(error.value)


@pytest.mark.parametrize(("content", "said"), [
    (None, "cannot be read"),
    ("{zones: [", "is not JSON"),
    ('{"zones": [{"zone": "active"}]}', "'player' must be A or B"),
])
@pytest.mark.parametrize("command", ["mirror", "run", "demo"])
def test_a_bad_layout_file_is_one_line_and_exit_2(tmp_path: Path, cli: Cli, content: str | None, said: str,
                                                  command: str) -> None:
    path = tmp_path / "mat.json"
    if content is not None:
        path.write_text(content)
    source = {"mirror": ["video.mp4"], "run": ["--camera", "video.mp4"], "demo": []}[command]
    result = cli(command, *source, "--layout", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"table-assistant {command}: layout file '{path}'")
    assert said in result.stderr


@given(st.floats(0.0, 1.0), st.floats(0.15, 0.85), st.floats(0.05, 0.45))
def test_the_calibration_stretches_each_half_and_can_be_undone(y: float, centre: float, depth: float) -> None:
    layout = TableLayout(centre=centre, active_depth=depth)
    moved = layout.to_layout(y)
    assert 0.0 <= moved <= 1.0 + 1e-9
    assert layout.from_layout(moved) == pytest.approx(y, abs=1e-9)
    # The calibrated centre line and Active row edges meet the mat's own.
    assert layout.to_layout(centre) == pytest.approx(0.5)
    if centre + depth < 1:
        assert layout.to_layout(centre + depth) == pytest.approx(0.75)


@pytest.mark.parametrize(("corners", "said"), [
    ([(0.1, 0.1), (0.9, 0.1), (0.9, 0.9)], "four corners, not 3"),
    ([(0.1, 0.1), (0.9, 0.9), (0.9, 0.1), (0.1, 0.9)], "cross or fold"),
    ([(0.1, 0.1), (0.1, 0.9), (0.9, 0.9), (0.9, 0.1)], "cross or fold"),  # anticlockwise: a mirrored mat
    ([(-0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)], "on the picture"),
    ([(0.5, 0.5), (0.55, 0.5), (0.55, 0.55), (0.5, 0.55)], "a mat fills more"),
])
def test_tapped_corners_that_are_no_mat_are_refused_and_change_nothing(corners: list, said: str) -> None:
    with pytest.raises(LayoutError, match=said):
        check_corners(corners)
    layout = TableLayout()
    layout.set_corners([(0.1, 0.1), (0.9, 0.12), (0.92, 0.9), (0.08, 0.88)])
    kept = layout.corners
    with pytest.raises(LayoutError):
        layout.set_corners(corners)
    assert layout.corners == kept
    layout.set_corners(None)
    assert layout.corners is None
    assert np.allclose(check_corners([(0, 0), (1, 0), (1, 1), (0, 1)]), [(0, 0), (1, 0), (1, 1), (0, 1)])
