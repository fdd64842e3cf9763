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


def test_a_swap_nobody_answered_is_asked_once_though_a_hand_hides_a_card_of_it() -> None:
    m = mirror()
    swapped = [seen(1, "Duskull", 0.5, 0.62), TABLE[1], seen(3, "Ralts", 0.2, 0.87), *TABLE[3:]]
    got = m.see(swapped)
    assert [(i.action.type, i.verdict) for i in got] == [("retreat", "pending")]
    # A hand reaching past the Bench hides Ralts: vision reads it afresh, then loses it
    # and finds it again under a new track.
    assert m.see([seen(3, None, 0.2, 0.87) if c.track == 3 else c for c in swapped]) == []
    assert m.see(swapped) == []
    assert m.see([c for c in swapped if c.track != 3]) == []
    found = [seen(7, "Ralts", 0.2, 0.87) if c.track == 3 else c for c in swapped]
    assert m.see(found) == []
    # Answered now, the retreat moves the cards the mirror follows, whatever their tracks.
    assert m.confirm(got[0].number, "retreat").verdict == "accepted"
    assert m.see(found) == []
    assert m.game.position.players["A"].active.card.name == "Duskull"


def test_a_pokemon_moved_up_after_a_knock_out_is_promoted_not_benched() -> None:
    m = mirror()
    pos = m.game.position  # the Active was Knocked Out (an attack entered at the console)
    pos.players["A"].active, pos.phase, pos.pending_promotion = None, "promote", ["A"]
    m.follow(pos)
    # Duskull slides onto the Active Spot, whose track vision reads afresh; its Energy follows.
    # The Active Spot's track still shows the Knocked Out card's name until it is read
    # afresh: that is no new Pokémon benched.
    assert m.see([seen(1, "Ralts", 0.5, 0.62), TABLE[1], TABLE[4]]) == []
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


#: The HP printed on the proxies of turns 3 to 6, so vision tells a card from its ex.
HIT_POINTS = {"Scorbunny": 70, "Raboot": 90, "Victini": 70, "Ralts": 70, "Kirlia": 100, "Duskull": 60,
              "Dusclops": 90}


def turns_3_to_6() -> tuple:
    from assistant.live.demo_script import SCRIPT, Say

    ends = [k for k, step in enumerate(SCRIPT) if isinstance(step, Say) and step.action["type"] == "end_turn"]
    return SCRIPT[:ends[3]]


def mirrored(cli: Cli, video: Path) -> list[dict]:
    """What ``table-assistant mirror --json`` infers from ``video``, line by line."""
    decks = [str(p) for p in embedded_deck_paths().values()]
    result = cli("mirror", str(video), "--deck-a", decks[0], "--deck-b", decks[1], "--json")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def plays(lines: list[dict]) -> list[dict]:
    return [{k: v for k, v in x.items() if k not in ("frame", "t", "verdict", "choices")} for x in lines]


def test_a_badly_filmed_table_gives_the_same_plays(tmp_path: Path, cli: Cli) -> None:
    """Dropped frames, flickering light and a shaking picture (besides the hands) make no
    play and lose none: turns 3 to 6 of the demo, filmed badly."""
    from vision.demo_video import demo_video

    script = turns_3_to_6()
    video = demo_video(tmp_path, HIT_POINTS, script=script, shake=1)
    assert plays(mirrored(cli, video.path)) == camera_actions(script, alone=True)


def test_a_badly_filmed_table_with_the_camera_knocked_partway_gives_the_same_plays(tmp_path: Path,
                                                                                    cli: Cli) -> None:
    """The badly filmed turns 3 to 6 again, on a mat with its corner markers, and the
    camera knocked halfway through (turned, zoomed out and shifted): the markers place
    the cards on the mat, so the knock moves none between zones. The same plays, none
    lost, none added."""
    from vision.demo_video import demo_video

    script = turns_3_to_6()
    square = demo_video(tmp_path, HIT_POINTS, script=script, shake=1, markers=True)
    knock = square.frames // 2
    lines = mirrored(cli, demo_video(tmp_path, HIT_POINTS, script=script, shake=1, markers=True,
                                     nudge_at=knock).path)
    assert plays(lines) == camera_actions(script, alone=True)
    # The knock came in the middle of the plays, not after them.
    assert any(x["frame"] < knock for x in lines) and any(x["frame"] > knock for x in lines)
