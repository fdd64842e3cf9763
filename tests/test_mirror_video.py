"""The mirror on a filmed table: vision's tracks follow places, not cards, so moved cards
must be followed; turns pass as the table shows them; and ``table-assistant mirror`` on
the demo video recovers the script's plays."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from assistant.editions import edition
from assistant.embedded import embedded_deck_paths
from assistant.live.demo_script import camera_actions
from assistant.mirror import SeenCard, TableLayout, TableMirror

Cli = Callable[..., CompletedProcess[str]]
ENERGY = "Basic Psychic Energy"


def seen(track: int, name: str | None, x: float, y: float, rotation: int = 0) -> SeenCard:
    return SeenCard(track, name, None, x, y, rotation)


TABLE = [seen(1, "Ralts", 0.5, 0.62), seen(2, ENERGY, 0.6, 0.62), seen(3, "Duskull", 0.2, 0.87),
         seen(4, ENERGY, 0.3, 0.87), seen(20, "Scorbunny", 0.5, 0.38, 180)]


def mirror(**options: bool) -> TableMirror:
    m = TableMirror(edition("mega-evolution-2025"), TableLayout(), **options)
    assert m.see(TABLE) == []
    return m


def test_two_pokemon_swapping_places_under_their_places_tracks_are_one_retreat() -> None:
    m = mirror()
    # Each place's track is read afresh: first neither name is known, then one, then both.
    assert m.see([seen(1, None, 0.5, 0.62), TABLE[1], seen(3, None, 0.2, 0.87), *TABLE[3:]]) == []
    assert m.see([seen(1, "Duskull", 0.5, 0.62), TABLE[1], seen(3, None, 0.2, 0.87), *TABLE[3:]]) == []
    got = m.see([seen(1, "Duskull", 0.5, 0.62), TABLE[1], seen(3, "Ralts", 0.2, 0.87), *TABLE[3:]])
    assert [(i.action.type, i.verdict, i.to_json()["to"]) for i in got] == [("retreat", "pending", "A.bench[0]")]
    assert m.confirm(got[0].number, "retreat").verdict == "accepted"
    assert m.game.position.players["A"].active.card.name == "Duskull"


def test_a_pokemon_moved_up_after_a_knock_out_is_promoted_not_benched() -> None:
    m = mirror()
    pos = m.game.position  # the Active was Knocked Out (an attack entered at the console)
    pos.players["A"].active, pos.phase, pos.pending_promotion = None, "promote", ["A"]
    m.follow(pos)
    # Duskull slides onto the Active Spot, whose track vision reads afresh; its Energy follows.
    got = m.see([seen(1, "Duskull", 0.5, 0.62), TABLE[1], TABLE[4]])
    assert [(i.action.type, i.verdict) for i in got] == [("promote", "accepted")]
    assert m.game.position.players["A"].active.card.name == "Duskull"


def test_an_energy_moving_with_its_pokemon_is_no_new_attachment() -> None:
    m = mirror()
    # Duskull's Energy (track 4) is picked up and put down beside the Active: a new track.
    assert m.see([*TABLE[:3], TABLE[4], seen(9, ENERGY, 0.4, 0.62)]) == []
    # A card laid later is a new attachment.
    got = m.see([*TABLE[:3], TABLE[4], seen(9, ENERGY, 0.4, 0.62), seen(10, ENERGY, 0.3, 0.87)])
    assert [(i.action.type, i.verdict) for i in got] == [("attach", "accepted")]


def test_a_play_by_the_other_player_passes_the_turn_unless_a_person_ends_turns() -> None:
    b_benches = [*TABLE, seen(30, "Duskull", 0.3, 0.12, 180)]
    got = mirror().see(b_benches)
    assert [(i.player, i.action.type, i.verdict) for i in got] == [("A", "end_turn", "accepted"),
                                                                    ("B", "bench", "accepted")]
    strict = mirror(turns_from_table=False).see(b_benches)
    assert [(i.player, i.verdict) for i in strict] == [("B", "not-your-turn")]


def test_mirror_on_the_demo_video_recovers_the_scripts_plays_in_order(tmp_path: Path, cli: Cli) -> None:
    import io

    from table_assistant.demo_command import _prepare  # the demo's own video

    prepared = _prepare(tmp_path / "demo", io.StringIO(), io.StringIO())
    assert prepared is not None
    video = prepared[1]
    decks = [str(p) for p in embedded_deck_paths().values()]
    result = cli("mirror", str(video.path), "--deck-a", decks[0], "--deck-b", decks[1], "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    # Nobody answers the mirror here: a swap and a turned card stay questions.
    assert {x["verdict"] for x in lines} == {"accepted", "pending"}
    assert sum(x["verdict"] == "accepted" for x in lines) >= 20
    assert [{k: v for k, v in x.items() if k not in ("frame", "t", "verdict", "choices")} for x in lines] \
        == camera_actions(alone=True)


def test_a_badly_filmed_table_gives_the_same_plays(tmp_path: Path, cli: Cli) -> None:
    """Dropped frames, flickering light and a shaking picture (besides the hands) make no
    play and lose none: turns 3 to 6 of the demo, filmed badly."""
    from assistant.live.demo_script import SCRIPT, Say
    from vision.demo_video import demo_video

    ends = [k for k, step in enumerate(SCRIPT) if isinstance(step, Say) and step.action["type"] == "end_turn"]
    end_of_turn_6 = ends[3]
    script = SCRIPT[:end_of_turn_6]
    video = demo_video(tmp_path, {"Scorbunny": 70, "Raboot": 90, "Victini": 70, "Ralts": 70, "Kirlia": 100,
                                  "Duskull": 60, "Dusclops": 90}, script=script, shake=1)
    decks = [str(p) for p in embedded_deck_paths().values()]
    result = cli("mirror", str(video.path), "--deck-a", decks[0], "--deck-b", decks[1], "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [{k: v for k, v in x.items() if k not in ("frame", "t", "verdict", "choices")} for x in lines] \
        == camera_actions(script, alone=True)
