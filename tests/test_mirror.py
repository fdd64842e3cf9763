"""The table mirror: table snapshots in, SPEC §3 actions with the engine's verdicts out.

Snapshots are built by hand (vision is not involved) except in the last test, which runs
``table-assistant mirror`` over synthetic frames. Cards are real cards of the embedded
set: Ralts → Kirlia, Duskull, Scorbunny, Basic Psychic Energy.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from assistant.editions import edition
from assistant.embedded import embedded_deck_paths
from assistant.mirror import SeenCard, TableLayout, TableMirror

ENERGY = "Basic Psychic Energy"
Cli = Callable[..., CompletedProcess[str]]  # the ``cli`` fixture of conftest.py


def seen(track: int, name: str | None, x: float, y: float, rotation: int = 0) -> SeenCard:
    return SeenCard(track, name, None, x, y, rotation)


# A's half is the bottom of the image: Active row around y 0.62, Bench row around 0.87.
A_ACTIVE = seen(1, "Ralts", 0.5, 0.62)
A_ENERGY = seen(2, ENERGY, 0.5, 0.70)
A_BENCH_LEFT = seen(3, "Duskull", 0.25, 0.87)
A_BENCH_ENERGY = seen(4, ENERGY, 0.25, 0.95)
B_ACTIVE = seen(20, "Scorbunny", 0.5, 0.38, 180)
TABLE = [A_ACTIVE, A_ENERGY, A_BENCH_LEFT, A_BENCH_ENERGY, B_ACTIVE]


def mirror(era: str = "mega-evolution-2025", table: list[SeenCard] = TABLE) -> TableMirror:
    m = TableMirror(edition(era), TableLayout())
    assert m.see(table) == []  # the first snapshot is the starting position
    return m


def verdicts(inferences) -> list[tuple[str, str]]:
    return [(i.action.type, i.verdict) for i in inferences]


def test_first_snapshot_is_the_position_and_bench_order_is_each_players_own() -> None:
    b_left_of_b = seen(21, "Scorbunny", 0.8, 0.12, 180)  # image right = B's left
    b_right_of_b = seen(22, "Duskull", 0.2, 0.12, 180)
    m = mirror(table=[*TABLE, b_right_of_b, b_left_of_b, seen(23, None, 0.5, 0.12)])
    pos = m.game.position
    a, b = pos.players["A"], pos.players["B"]
    assert a.active.card.name == "Ralts" and [c.name for c in a.active.energy] == [ENERGY]
    assert [s.card.name for s in a.bench] == ["Duskull"] and len(a.bench[0].energy) == 1
    assert b.active.card.name == "Scorbunny"
    assert [s.card.name for s in b.bench] == ["Scorbunny", "Duskull"]
    assert (pos.phase, pos.current, pos.turn) == ("main", "A", 3)
    assert all(card is None for card in a.hand) and len(a.prizes) == 6


def test_bench_a_new_basic_once() -> None:
    m = mirror()
    ralts = seen(5, "Ralts", 0.75, 0.87)
    got = m.see([*TABLE, ralts])
    assert verdicts(got) == [("bench", "accepted")]
    assert got[0].to_json() == {"type": "bench", "player": "A", "card": "Ralts", "verdict": "accepted"}
    assert [s.card.name for s in m.game.position.players["A"].bench] == ["Duskull", "Ralts"]
    assert m.see([*TABLE, ralts]) == []  # one report per change, not one per frame


def test_evolve_in_place_same_track_or_a_new_card_covering_the_old() -> None:
    m = mirror()
    got = m.see([seen(1, "Kirlia", 0.5, 0.62), *TABLE[1:]])
    assert verdicts(got) == [("evolve", "accepted")]
    assert got[0].to_json()["target"] == "A.active"
    assert m.game.position.players["A"].active.card.name == "Kirlia"
    # The next Ralts is covered by a Kirlia vision tracks as a new card.
    m = mirror(table=[*TABLE, seen(6, "Ralts", 0.75, 0.87)])
    got = m.see([*TABLE, seen(7, "Kirlia", 0.76, 0.86)])
    assert verdicts(got) == [("evolve", "accepted")]
    assert got[0].to_json()["target"] == "A.bench[1]"
    assert [s.card.name for s in m.game.position.players["A"].bench] == ["Duskull", "Kirlia"]


@pytest.mark.parametrize("era", ["expedition-2002", "mega-evolution-2025"])
def test_evolving_a_pokemon_benched_this_turn_is_refused_in_every_era(era: str) -> None:
    m = mirror(era)
    assert verdicts(m.see([*TABLE, seen(5, "Ralts", 0.75, 0.87)])) == [("bench", "accepted")]
    got = m.see([*TABLE, seen(5, "Kirlia", 0.75, 0.87)])
    assert verdicts(got) == [("evolve", "evolve-new-in-play")]
    assert m.game.position.players["A"].bench[1].card.name == "Ralts"  # refused: unchanged


def test_attach_energy_at_a_pokemon_then_a_second_is_refused() -> None:
    m = mirror()
    first = seen(8, ENERGY, 0.5, 0.66)
    got = m.see([*TABLE, first])
    assert verdicts(got) == [("attach", "accepted")]
    assert got[0].to_json()["target"] == "A.active"
    assert len(m.game.position.players["A"].active.energy) == 2
    got = m.see([*TABLE, first, seen(9, ENERGY, 0.27, 0.93)])
    assert verdicts(got) == [("attach", "energy-already-attached")]
    assert len(m.game.position.players["A"].bench[0].energy) == 1


def test_a_refusal_is_its_reason_code_and_changes_nothing() -> None:
    m = mirror()
    before = len(m.game.position.players["A"].bench)
    got = m.see([*TABLE, seen(30, "Kirlia", 0.3, 0.87)])  # a Stage 1 put straight on the Bench
    assert [(i.player, i.verdict) for i in got] == [("A", "not-basic")]
    assert len(m.game.position.players["A"].bench) == before


def test_unknown_names_never_make_actions() -> None:
    m = mirror()
    assert m.see([*TABLE, seen(5, None, 0.75, 0.87), seen(8, None, 0.5, 0.66)]) == []
    # The Active being re-read (its name not sure for a moment) is no evolution either.
    assert m.see([seen(1, None, 0.5, 0.62), *TABLE[1:]]) == []
    assert m.game.position.players["A"].active.card.name == "Ralts"


def _swap(a: SeenCard, b: SeenCard) -> tuple[SeenCard, SeenCard]:
    return (SeenCard(a.track, a.name, a.card_id, b.x, b.y, b.rotation),
            SeenCard(b.track, b.name, b.card_id, a.x, a.y, a.rotation))


def test_a_swap_is_a_pending_retreat_and_a_person_may_say_switch() -> None:
    m = mirror()
    active, benched = _swap(A_ACTIVE, A_BENCH_LEFT)
    swapped = [active, A_ENERGY, benched, A_BENCH_ENERGY, B_ACTIVE]
    got = m.see(swapped)
    assert verdicts(got) == [("retreat", "pending")]
    assert got[0].to_json()["to"] == "A.bench[0]" and got[0].to_json()["choices"] == ["retreat", "switch"]
    assert m.game.position.players["A"].active.card.name == "Ralts"  # not applied yet
    assert m.see(swapped) == []
    done = m.confirm(got[0].number, "switch")
    assert (done.action.type, done.verdict) == ("switch", "accepted")
    assert m.game.position.players["A"].active.card.name == "Duskull"
    assert m.game.position.players["A"].flags.retreats == 0  # a Switch effect is no retreat
    assert m.pending == {}


@pytest.mark.parametrize(("era", "second"), [("expedition-2002", "pending"),
                                             ("mega-evolution-2025", "retreat-already")])
def test_a_second_retreat_in_one_turn_depends_on_the_era(era: str, second: str) -> None:
    m = mirror(era)
    active, benched = _swap(A_ACTIVE, A_BENCH_LEFT)
    got = m.see([active, A_ENERGY, benched, A_BENCH_ENERGY, B_ACTIVE])
    assert verdicts(got) == [("retreat", "pending")]
    assert m.confirm(got[0].number).verdict == "accepted"  # a retreat: pays the Energy
    assert m.game.position.players["A"].active.card.name == "Duskull"
    got = m.see(TABLE)  # and straight back again
    assert verdicts(got) == [("retreat", second)]


def test_a_turned_active_is_a_pending_condition_a_person_names() -> None:
    m = mirror()
    sideways = [seen(1, "Ralts", 0.5, 0.62, 270), *TABLE[1:]]  # counter-clockwise
    got = m.see(sideways)
    assert verdicts(got) == [("condition", "pending")]
    assert got[0].to_json() == {"type": "condition", "target": "A.active", "add": "Asleep",
                                "player": "A", "verdict": "pending", "choices": ["Asleep", "Paralyzed"]}
    with pytest.raises(ValueError):
        m.confirm(got[0].number, "Burned")
    done = m.confirm(got[0].number, "Paralyzed")
    assert done.verdict == "accepted"
    assert m.game.position.players["A"].active.conditions == {"Paralyzed"}
    assert m.see(sideways) == []
    # Back upright: a person confirms the condition is gone.
    got = m.see(TABLE)
    assert [(i.action.type, i.action.remove, i.verdict) for i in got] == [("condition", "Paralyzed", "pending")]
    assert m.confirm(got[0].number).verdict == "accepted"
    assert m.game.position.players["A"].active.conditions == set()


def test_upside_down_is_pending_confused_and_can_be_rejected() -> None:
    m = mirror()
    got = m.see([*TABLE[:4], seen(20, "Scorbunny", 0.5, 0.38, 0)])  # B's Active, turned 180°
    assert [(i.action.add, i.to_json()["target"], i.verdict) for i in got] == [("Confused", "B.active", "pending")]
    m.reject(got[0].number)
    assert m.pending == {} and m.game.position.players["B"].active.conditions == set()


def test_a_card_found_again_under_a_new_track_is_no_new_play() -> None:
    m = mirror()
    assert m.see([A_ACTIVE, A_ENERGY, A_BENCH_ENERGY, B_ACTIVE]) == []  # a hand hides Duskull
    assert m.see([*TABLE[:2], seen(40, "Duskull", 0.26, 0.88), *TABLE[3:]]) == []
    assert len(m.game.position.players["A"].bench) == 1


def test_moving_up_a_benched_pokemon_when_a_promotion_is_due() -> None:
    m = mirror()
    pos = m.game.position  # the Active was Knocked Out (an attack the dashboard played)
    pos.players["A"].active, pos.phase, pos.pending_promotion = None, "promote", ["A"]
    got = m.see([seen(3, "Duskull", 0.5, 0.62), A_BENCH_ENERGY, B_ACTIVE])
    assert [(i.to_json().get("from"), i.verdict) for i in got] == [("A.bench[0]", "accepted")]
    assert m.game.position.players["A"].active.card.name == "Duskull"


def test_end_turn_is_a_persons_call() -> None:
    m = mirror()
    done = m.end_turn()
    assert done.verdict == "accepted" and m.game.position.current == "B"
    assert verdicts(m.see([*TABLE, seen(30, "Duskull", 0.3, 0.12, 180)])) == [("bench", "accepted")]


# -- the command, end to end over synthetic frames -------------------------------------

def _frame(cards: list[tuple[str, str, float, float]], size: tuple[int, int] = (1600, 1200)):
    """A plain mat with big upright proxy cards at (x, y) fractions: the simplest scene
    vision can read, since this test is about the plumbing, not hard images."""
    import cv2
    import numpy as np

    from vision.synthetic import render_proxy

    w, h = size
    frame = np.full((h, w, 3), (70, 110, 60), np.uint8)
    for name, card_id, x, y in cards:
        # Each name its own look: vision notices an evolution by the face changing.
        kind = "energy" if name.endswith("Energy") else "pokemon"
        face = render_proxy(name, card_id, kind, seed=sum(map(ord, name)))
        height = 300
        scale = height / face.image.shape[0]
        img = cv2.resize(face.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ih, iw = img.shape[:2]
        x0, y0 = int(x * w - iw / 2), int(y * h - ih / 2)
        alpha = img[:, :, 3:4].astype(np.float32) / 255
        region = frame[y0:y0 + ih, x0:x0 + iw]
        region[:] = (img[:, :, :3] * alpha + region * (1 - alpha)).astype(np.uint8)
    return frame


# The filmed table, one step every 6 frames: a Ralts Active, then a Ralts benched, then a
# Psychic Energy put beside the Active (not touching it).
FILMED = [("Ralts", "me1-58", 0.5, 0.62), ("Ralts", "me1-58", 0.3, 0.86), (ENERGY, "sve-5", 0.67, 0.62)]


def _write_frames(folder: Path, count: int) -> Path:
    """The first ``count`` frames of ``FILMED`` as an image folder (each step drawn once)."""
    import cv2

    folder.mkdir()
    steps = [_frame(FILMED[: 1 + step]) for step in range((count + 5) // 6)]
    for k in range(count):
        cv2.imwrite(str(folder / f"{k:03d}.png"), steps[k // 6])
    return folder


def test_mirror_command_prints_bench_and_attach_lines(tmp_path: Path, cli: Cli) -> None:
    deck = next(str(p) for name, p in embedded_deck_paths().items() if "gardevoir" in name)
    frames = _write_frames(tmp_path / "frames", 18)
    result = cli("mirror", str(frames), "--deck-a", deck, "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(x["type"], x["card"], x["player"], x["verdict"]) for x in lines] == [
        ("bench", "Ralts", "A", "accepted"), ("attach", "Basic Psychic Energy", "A", "accepted")]
    assert lines[1]["target"] == "A.active"
    assert 6 <= lines[0]["frame"] < 12 <= lines[1]["frame"] < 18
    assert lines[0]["t"] == pytest.approx(lines[0]["frame"] / 10)  # image folders play at 10 fps


def test_mirror_command_unreadable_source_or_deck_exit_2(tmp_path: Path, cli: Cli) -> None:
    missing = cli("mirror", str(tmp_path / "nope.mp4"), "--json")
    assert missing.returncode == 2 and "nope.mp4" in missing.stderr
    (tmp_path / "empty").mkdir()
    bad_deck = cli("mirror", str(tmp_path / "empty"), "--deck-a", str(tmp_path / "no-deck.txt"), "--json")
    assert bad_deck.returncode == 2 and "no-deck.txt" in bad_deck.stderr


def test_run_feeds_the_live_table_from_the_camera_and_records_the_game(tmp_path: Path, cli: Cli) -> None:
    frames = _write_frames(tmp_path / "frames", 18)
    result = cli("run", "--camera", str(frames), "--era", "platinum-2009", "--once")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"game 1 (platinum-2009) started from the camera, in {tmp_path / 'games.sqlite'}")
    assert [line.split(": ", 1)[1] for line in lines[1:]] == [
        "A bench card=Ralts: accepted", "A attach card=Basic Psychic Energy target=A.active: accepted"]
    listed = cli("games", "--json")
    (game,) = json.loads(listed.stdout)["games"]
    assert (game["era"], game["entries"]) == ("platinum-2009", 2)
    refused = cli("run", "--camera", str(frames), "--era", "neo-2001")
    assert refused.returncode == 2 and "unknown era" in refused.stderr
    simulated = cli("run", "--camera", str(frames), "--serial", "sim", "--once", "--db", str(tmp_path / "sim.sqlite"))
    assert simulated.returncode == 0, simulated.stderr
    assert "following the table on the serial device 'sim'" in simulated.stderr


def test_table_hint_names_the_deck_evolutions_of_pokemon_in_play() -> None:
    import io

    from table_assistant.recognize_command import candidate_names

    decks = [str(p) for p in embedded_deck_paths().values()]
    candidates = candidate_names(decks, io.StringIO())
    assert candidates.ok
    assert candidates.hint(["Ralts", None, "Basic Psychic Energy"]) == ("Kirlia",)
    assert candidates.hint(["Kirlia", "Scorbunny"]) == ("Mega Gardevoir ex", "Raboot")
    assert candidates.hint([]) == ()


def test_vision_gets_the_hp_of_the_deck_cards() -> None:
    import io

    from table_assistant.recognize_command import candidate_names

    decks = [str(p) for p in embedded_deck_paths().values()]
    candidates = candidate_names(decks, io.StringIO())
    # What settles a title two deck cards share (a card and its ex): every Pokémon of the
    # lists with the HP it is printed with; no Trainer or Energy.
    assert candidates.hit_points["Ralts"] and candidates.hit_points["Kirlia"]
    assert all(isinstance(hp, int) and hp > 0 for hps in candidates.hit_points.values() for hp in hps)
    assert "Basic Psychic Energy" not in candidates.hit_points


def test_vision_gets_the_attack_names_of_the_deck_cards() -> None:
    import io

    from table_assistant.recognize_command import candidate_names

    decks = [str(p) for p in embedded_deck_paths().values()]
    matcher = candidate_names(decks, io.StringIO()).matcher()
    # What names a Pokémon whose title a reflection hides: its attacks' and Abilities'
    # names, as vision compares them with reads (lower case); a Trainer has none.
    assert matcher.attacks["Raboot"] == {"combustion", "low sweep"}
    assert matcher.attacks["Cinderace"] == {"explosiveness", "turbo flare"}
    assert "Boss's Orders" not in matcher.attacks
