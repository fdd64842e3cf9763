"""Energy tucked under a Pokémon with an edge showing: the demo video draws it, vision
reads its type from the strip that shows, and the mirror infers one Attach to that
Pokémon (and none when the Pokémon moves with it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import numpy as np
import pytest

from assistant.editions import edition
from assistant.embedded import embedded_deck_paths
from assistant.live.demo_script import Card, Seen, Table
from assistant.mirror import SeenCard, TableLayout, TableMirror

Cli = Callable[..., CompletedProcess[str]]
FIRE, PSYCHIC = "Basic Fire Energy", "Basic Psychic Energy"
DECKS = {"Fire": FIRE, "Psychic": PSYCHIC}
HIT_POINTS = {"Scorbunny": 70, "Victini": 70, "Ralts": 70, "Duskull": 60}


# -- vision: the strip that shows ------------------------------------------------------

def picture(*cards: Card) -> np.ndarray:
    from vision.demo_video import _Painter

    return _Painter(HIT_POINTS).table(Table({c.key: c for c in cards}))


def tucked_at(image: np.ndarray, x: float, y: float, allowed: dict[str, str] = DECKS) -> tuple[str, ...]:
    """What vision reads tucked under the card it finds at (x, y) (fractions)."""
    from vision.finder import find_cards
    from vision.tucked import tucked_energy

    h, w = image.shape[:2]
    quads = [q for q in find_cards(image) if np.hypot(*(q.mean(axis=0) - (x * w, y * h))) < 30]
    assert len(quads) == 1, "the card is found, alone"
    return tucked_energy(image, quads[0], allowed)


SCORBUNNY = Card("aS", "Scorbunny", "A", "active")
RALTS = Card("bR", "Ralts", "B", "active")


def test_an_energy_tucked_under_a_pokemon_is_read_by_its_type_on_either_side_of_the_table() -> None:
    image = picture(Card("aE", FIRE, "A", "active<1"), SCORBUNNY, Card("bE", PSYCHIC, "B", "active<1"), RALTS)
    assert tucked_at(image, 0.5, 0.62) == (FIRE,)
    assert tucked_at(image, 0.5, 0.38) == (PSYCHIC,)


def test_bare_table_an_energy_beside_or_a_card_edge_to_edge_is_no_tucked_energy() -> None:
    assert tucked_at(picture(SCORBUNNY), 0.5, 0.62) == ()
    assert tucked_at(picture(SCORBUNNY, Card("aE", FIRE, "A", "active+1")), 0.5, 0.62) == ()
    # A neighbouring card laid just below (a Bench card), or edge to edge with it.
    assert tucked_at(picture(SCORBUNNY, Card("aV", "Victini", "A", "bench1")), 0.5, 0.62) == ()
    assert tucked_at(picture(Card("aE", FIRE, "A", "active<5"), SCORBUNNY), 0.5, 0.62) == ()


def test_an_energy_of_a_type_no_deck_list_holds_is_not_named() -> None:
    image = picture(Card("aE", FIRE, "A", "active<1"), SCORBUNNY)
    assert tucked_at(image, 0.5, 0.62, {"Psychic": PSYCHIC}) == ()


def test_only_basic_energy_has_a_type_colour() -> None:
    from vision.tucked import energy_names, energy_type

    assert energy_type("Fire Energy") == energy_type(FIRE) == "Fire"
    assert energy_type("Telepathic Psychic Energy") is None and energy_type("Energy Search") is None
    assert energy_names(["Energy Search", FIRE, "Telepathic Psychic Energy", "Ralts"]) == {"Fire": FIRE}


# -- the mirror: a tucked Energy is one Attach -----------------------------------------

def seen(track: int, name: str | None, x: float, y: float, rotation: int = 0, tucked: tuple[str, ...] = ()
         ) -> SeenCard:
    return SeenCard(track, name, None, x, y, rotation, tucked)


TABLE = [seen(1, "Ralts", 0.5, 0.62, tucked=(PSYCHIC,)), seen(3, "Duskull", 0.2, 0.87),
         seen(20, "Scorbunny", 0.5, 0.38, 180)]


def mirror() -> TableMirror:
    m = TableMirror(edition("mega-evolution-2025"), TableLayout())
    assert m.see(TABLE) == []
    return m


def test_an_energy_tucked_under_a_pokemon_is_one_attach_to_it() -> None:
    m = mirror()
    assert [e.name for e in m.game.position.players["A"].active.energy] == [PSYCHIC]
    tucked = [TABLE[0], seen(3, "Duskull", 0.2, 0.87, tucked=(PSYCHIC,)), TABLE[2]]
    got = m.see(tucked)
    assert [(i.action.type, i.verdict, i.to_json()["target"]) for i in got] == [("attach", "accepted", "A.bench[0]")]
    assert m.see(tucked) == []
    assert [e.name for e in m.game.position.players["A"].bench[0].energy] == [PSYCHIC]


def test_a_pokemon_moving_with_its_tucked_energy_is_no_new_attachment() -> None:
    m = mirror()
    # Ralts is picked up and put back with its Energy under it: vision's new track.
    assert m.see([seen(7, "Ralts", 0.5, 0.62, tucked=(PSYCHIC,)), *TABLE[1:]]) == []
    # Ralts and Duskull swap places, Ralts' Energy with it: a retreat, no attachment.
    got = m.see([seen(7, "Duskull", 0.5, 0.62), seen(3, "Ralts", 0.2, 0.87, tucked=(PSYCHIC,)), TABLE[2]])
    assert [i.action.type for i in got] == ["retreat"]


def test_the_live_table_accepts_a_tucked_energy_as_the_cameras_attach(tmp_path: Path) -> None:
    from assistant.live.camera import CameraLink
    from assistant.live.record import Record
    from assistant.live.table import LiveTable

    rules = edition("mega-evolution-2025")
    with Record(tmp_path / "games.sqlite") as record:
        link = CameraLink(TableMirror(rules, TableLayout()),
                          lambda state: LiveTable.start(record, rules, state, lambda ref: None, title="camera"))
        assert link.see(TABLE) == [] and link.table is not None
        (reply,) = link.see([TABLE[0], seen(3, "Duskull", 0.2, 0.87, tucked=(PSYCHIC,)), TABLE[2]])
        assert reply.accepted
        entry = link.table.record.entries(link.table.game_id)[-1]
        assert (entry.body["source"], entry.body["action"]["type"]) == ("camera", "attach")
        # (The table's card book names a basic Energy as its card does.)
        assert [e.name for e in link.table.position.players["A"].bench[0].energy] == ["Psychic Energy"]


# -- the whole chain, on a rendered clip -----------------------------------------------

@pytest.mark.parametrize("shake", [None, 1])
def test_an_energy_tucked_under_the_active_on_video_is_one_attach_and_nothing_else(tmp_path: Path, cli: Cli,
                                                                                   shake: int | None) -> None:
    """Filmed well, and badly (dropped frames, flicker, a shaking picture)."""
    from vision.demo_video import demo_video

    opening = Table({c.key: c for c in [SCORBUNNY, Card("aV", "Victini", "A", "bench0"),
                                         Card("bE", PSYCHIC, "B", "active<1"), RALTS,
                                         Card("bD", "Duskull", "B", "bench0")]})
    script = (Seen(lay=(Card("aE", FIRE, "A", "active<1"),)),)
    video = demo_video(tmp_path, HIT_POINTS, script=script, opening=opening, shake=shake)
    decks = [str(p) for p in embedded_deck_paths().values()]
    result = cli("mirror", str(video.path), "--deck-a", decks[0], "--deck-b", decks[1], "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(x["type"], x["player"], x["card"], x["target"], x["verdict"]) for x in lines] \
        == [("attach", "A", FIRE, "A.active", "accepted")]
