"""The demo: its scripted game is a legal game the mirror follows, its video is rendered
once and kept, and ``table-assistant demo`` serves the scoreboard while the game plays
to its end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from assistant.editions import edition
from assistant.engine.actions import action_from_json
from assistant.live.demo_script import OPENING, SCRIPT, Say, Seen, Table, camera_actions, spot_xy
from assistant.mirror import SeenCard, TableLayout, TableMirror


def _snapshot(table: Table) -> list[SeenCard]:
    """What vision would report, each card under its own track (face-down cards unread)."""
    tracks = {key: 1 + k for k, key in enumerate(sorted({*OPENING.cards, *_all_keys()}))}
    out = []
    for card in table.cards.values():
        x, y = spot_xy(card.player, card.spot)
        rotation = (card.turned + (0 if card.player == "A" else 180)) % 360
        out.append(SeenCard(tracks[card.key], None if card.face_down else card.name, None, x, y, rotation))
    return out


def _no_cards(ref: str):  # noqa: ANN202 - the console's actions here name no card
    raise KeyError(ref)


def _all_keys() -> set[str]:
    return {card.key for step in SCRIPT if isinstance(step, Seen) for card in step.lay}


def _played(script: tuple = SCRIPT) -> tuple[TableMirror, list[dict], list[dict]]:
    """The script played through the mirror, a person answering its questions and
    entering the console's steps: the mirror, what it inferred, and the events of each
    console step."""
    mirror = TableMirror(edition("mega-evolution-2025"), TableLayout())
    assert mirror.see(_snapshot(OPENING)) == []
    table, got, events = OPENING, [], []
    for step in script:
        if isinstance(step, Say):  # a person at the console
            game = mirror.game
            outcome = game.play(action_from_json(step.action, game.position.current, _no_cards))
            assert outcome.accepted, (step, outcome.reason)
            events.extend(outcome.events)
            mirror.follow(game.position)
            continue
        table = table.after(step)
        for inference in mirror.see(_snapshot(table)):
            got.append({k: v for k, v in inference.to_json().items() if k not in ("verdict", "choices")})
            if inference.verdict == "pending":
                choice = None if step.answer == "yes" else step.answer  # "yes": as the camera saw it
                assert mirror.confirm(inference.number, choice).verdict == "accepted"
            else:
                assert inference.verdict == "accepted", inference
    return mirror, got, events


def test_the_script_is_a_legal_game_the_mirror_follows_step_by_step() -> None:
    mirror, got, _ = _played()
    assert got == camera_actions()
    position = mirror.game.position
    # Turn 17: Mega Gardevoir ex, B's last Pokémon, was Knocked Out; A took 1 + 1 + 3 Prize cards.
    assert (position.turn, position.current, position.winner) == (17, "A", "A")
    assert not position.players["B"].in_play()
    assert (len(position.players["A"].prizes), len(position.players["B"].prizes)) == (1, 6)
    assert position.players["A"].active.card.name == "Fezandipiti ex"
    assert len(camera_actions()) >= 20


def test_the_game_ends_with_a_winner_and_nothing_is_played_after() -> None:
    """The script stops where the game does: the winning attack is its last console
    step, and after it only the Knocked Out cards and the Prize cards leave the table."""
    says = [k for k, step in enumerate(SCRIPT) if isinstance(step, Say)]
    assert SCRIPT[says[-1]].action["type"] == "attack"
    assert all(isinstance(step, Seen) and not step.expect and not step.lay for step in SCRIPT[says[-1] + 1:])
    _, _, events = _played()
    assert [e for e in events if e["type"] == "win"] == [{"type": "win", "player": "A", "why": "no-pokemon",
                                                          "ways": ["no-pokemon"]}]


def test_a_darkness_attack_on_a_psychic_pokemon_does_double_damage() -> None:
    """Fezandipiti ex (Darkness) against B's Psychic Pokémon, all Weak to Darkness: Cruel
    Arrow's 100 is 200, and the scoreboard says why."""
    from web.narrate import damage_breakdown

    _, _, events = _played()
    hits = [e for e in events if e["type"] == "damage" and e["target"] == "B.active"
            and ["weakness", 200] in e["steps"]]
    assert len(hits) == 4 and all(e["amount"] == 200 for e in hits)
    assert damage_breakdown(hits[0]["steps"]) == "100, ×2 Weakness"
    knocked = [e["card"] for e in events if e["type"] == "knockout"]
    assert knocked == ["Dusclops", "Ralts", "Mega Gardevoir ex"]


def test_a_pokemon_turned_sideways_is_paralyzed_until_the_checkup_after_its_players_turn() -> None:
    """Raboot turned a quarter turn after B's attack: the camera asks Asleep or Paralyzed,
    the judge says Paralyzed; it is still Paralyzed through A's turn 9, and the Pokémon
    Checkup at that turn's end cures it, before A lays it upright."""
    turned = next(k for k, step in enumerate(SCRIPT) if isinstance(step, Seen) and step.turn
                  and step.turn[0][1] == 90)
    assert SCRIPT[turned].expect == {"type": "condition", "target": "A.active", "add": "Paralyzed", "player": "B"}
    upright = next(k for k in range(turned + 1, len(SCRIPT)) if isinstance(SCRIPT[k], Seen) and SCRIPT[k].turn)
    ends = [k for k in range(turned, upright) if isinstance(SCRIPT[k], Say) and SCRIPT[k].action["type"] == "end_turn"]
    mirror, _, _ = _played(SCRIPT[:ends[-1]])  # turn 9, before it ends
    assert mirror.game.position.players["A"].active.conditions == {"Paralyzed"}
    mirror, _, events = _played(SCRIPT[:upright + 1])
    assert mirror.game.position.players["A"].active.conditions == set()
    checkups = [(e["step"], e["target"], e["recovered"]) for e in events if e["type"] == "checkup"]
    assert checkups == [("paralyzed", "A.active", False), ("paralyzed", "A.active", True)]  # turns 8 and 9


def test_alone_the_mirror_sees_turns_pass_when_the_other_player_plays() -> None:
    alone = camera_actions(alone=True)
    passes = [a["player"] for a in alone if a["type"] == "end_turn"]
    assert passes == ["A", "B"] * 6  # turns 3 to 14; the last turns have no play the camera sees
    assert sum(a["type"] not in ("end_turn", "retreat", "condition") for a in alone) >= 20


def test_the_demo_video_is_rendered_once_and_kept(tmp_path: Path) -> None:
    from vision.demo_video import SIZE, demo_video

    started = time.monotonic()
    video = demo_video(tmp_path, {"Ralts": 70})
    took = time.monotonic() - started
    assert took < 30  # seconds, not minutes, on a 2-core machine
    assert len(video.schedule) == len(SCRIPT) and list(video.schedule) == sorted(video.schedule)
    import cv2

    capture = cv2.VideoCapture(str(video.path))
    ok, frame = capture.read()
    capture.release()
    assert ok and (frame.shape[1], frame.shape[0]) == SIZE
    stamp = video.path.stat().st_mtime_ns
    again = demo_video(tmp_path, {"Ralts": 70})
    assert again == video and again.path.stat().st_mtime_ns == stamp  # not rendered again


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_demo(home: Path) -> tuple[subprocess.Popen, int]:
    """``table-assistant demo --once --speed 0`` on a free port, its home ``home``."""
    port = _free_port()
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home), "OMP_THREAD_LIMIT": "1"}
    process = subprocess.Popen([sys.executable, "-m", "table_assistant", "demo", "--once", "--speed", "0",
                                "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)
    return process, port


def test_the_demo_serves_the_scoreboard_and_plays_the_game_to_its_end(tmp_path: Path) -> None:
    import httpx

    process, port = start_demo(tmp_path)
    seen_turns: list[int] = []
    try:
        deadline = time.monotonic() + 360
        while process.poll() is None and time.monotonic() < deadline:
            try:  # (with --once the server stops when the game ends, between two requests too)
                answer = httpx.get(f"http://127.0.0.1:{port}/api/snapshot", timeout=2)
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
            except httpx.HTTPError:
                time.sleep(0.5)
                continue
            assert answer.status_code == 200
            seen_turns.append(answer.json()["state"]["position"]["turn"])
            assert page.status_code == 200 and "<html" in page.text.lower()
            time.sleep(1)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert f"scoreboard: http://127.0.0.1:{port}/" in out
    assert seen_turns and seen_turns == sorted(seen_turns) and seen_turns[-1] > seen_turns[0]
    camera = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("frame ")]
    console = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("console frame ")]
    assert sum(line.endswith(": accepted") for line in camera) >= 20, out
    assert camera.count("B promote from=B.bench[0]: accepted") == 2  # after each Knock Out but the last
    assert "demo: the game is over: Player A wins: the opponent has no Pokémon in play" in out
    says = [step for step in SCRIPT if isinstance(step, Say)]  # the attacks and the ends of turns
    assert [line.rsplit(": ", 1)[1] for line in console] == ["accepted"] * len(says), out
    # The record holds the game as the script played it: on turn 17 Cruel Arrow Knocked
    # Out Mega Gardevoir ex, B's last Pokémon, and A won with one Prize card left.
    from assistant.live.record import Record
    from assistant.live.table import LiveTable
    from table_assistant.serve_command import no_lookup

    record = Record(tmp_path / "demo" / "games.sqlite")
    try:
        table = LiveTable.open(record, 1, no_lookup)
        events = [event for entry in record.entries(1) if entry.kind == "action" for event in entry.body["events"]]
    finally:
        record.close()
    # Raboot, turned sideways, was Paralyzed as the judge answered; the Checkup cured it.
    assert [(e["step"], e["recovered"]) for e in events if e["type"] == "checkup"] \
        == [("paralyzed", False), ("paralyzed", True)]
    assert sum(["weakness", 200] in e.get("steps", []) for e in events if e["type"] == "damage") == 4
    position = table.position
    assert (position.turn, position.current, position.winner) == (17, "A", "A")
    assert table.result == {"winner": "A", "why": ["no-pokemon"]}
    assert (len(position.players["A"].prizes), len(position.players["B"].prizes)) == (1, 6)
    assert position.players["A"].active.card.name == "Fezandipiti ex"
    assert not position.players["B"].in_play()


# -- the person's part: console steps, answers, pace -------------------------------------

class _Table:
    """Stands in for the live table: records what the console entered."""

    def __init__(self) -> None:
        self.entered: list[tuple[str, object]] = []
        self.result: dict | None = None

    def propose(self, action: dict, source: str = "console") -> object:
        self.entered.append(("propose", action["type"]))
        return object()

    def answer(self, question_id: int, answer: str, source: str = "console") -> object:
        self.entered.append(("answer", (question_id, answer)))
        return object()


@dataclass
class _Question:
    id: int


@dataclass
class _Reply:
    questions: list
    alert: object = None


class _Link:
    def __init__(self) -> None:
        self.table = _Table()


def _director(script: tuple, schedule: tuple[int, ...], speed: float = 0.0, clock=None, sleep=None):  # noqa: ANN001, ANN202
    from table_assistant.demo_command import Director
    from vision.demo_video import DemoVideo

    video = DemoVideo(Path("demo.mp4"), 10.0, schedule, 100)
    options = {"clock": clock, "sleep": sleep} if clock else {}
    return Director(video, script, _Link(), speed, **options)


BENCH = Seen(expect={"type": "bench", "player": "A", "card": "Ralts"})
SWAP = Seen(expect={"type": "retreat", "player": "A", "to": "A.bench[0]"}, answer="switch")


def test_a_console_step_waits_for_the_plays_before_it_but_never_past_the_next_move() -> None:
    director = _director((BENCH, Say({"type": "end_turn"}), BENCH), (0, 20, 30))
    for _ in range(20):
        director.tick()
    assert director.link.table.entered == []  # the bench before it is not seen yet
    director.answer([_Reply([])])  # the camera's reply to the bench: accepted, no question
    director.tick()
    assert director.link.table.entered == [("propose", "end_turn")]
    refused = _director((BENCH, Say({"type": "end_turn"}), BENCH), (0, 20, 30))
    refused.answer([_Reply([], alert="not-your-turn")])  # a misread, refused: not the bench
    refused.tick()
    assert refused.link.table.entered == []
    late = _director((BENCH, Say({"type": "end_turn"}), BENCH), (0, 20, 30))
    for _ in range(30):
        late.tick()
    assert late.link.table.entered == []
    late.tick()  # frame 30: the next card moves, the turn has ended whatever was seen
    assert late.link.table.entered == [("propose", "end_turn")]


def test_console_steps_one_after_another_keep_their_moments_in_the_video() -> None:
    attack = Say({"type": "attack", "attack": "Cruel Arrow"})
    director = _director((BENCH, attack, Say({"type": "end_turn"})), (0, 20, 30))
    director.answer([_Reply([])])
    for _ in range(21):
        director.tick()
    assert director.link.table.entered == [("propose", "attack")]  # frame 20: the attack, not yet the end
    for _ in range(10):
        director.tick()
    assert director.link.table.entered == [("propose", "attack"), ("propose", "end_turn")]


def test_the_camera_questions_are_answered_as_the_script_says() -> None:
    director = _director((SWAP,), (0,))
    director.answer([_Reply([_Question(7)])])
    assert director.link.table.entered == [("answer", (7, "switch"))]


def test_the_video_stops_when_the_table_has_a_winner() -> None:
    from table_assistant.demo_command import GameOver, winner_words

    director = _director((BENCH, BENCH), (0, 20))
    assert director.tick() is True
    director.link.table.result = {"winner": "A", "why": ["prizes"]}
    with pytest.raises(GameOver):
        director.tick()
    assert winner_words(director.link.table.result) == "Player A wins: took the last Prize card"


def test_the_video_keeps_to_real_time_unless_told_otherwise() -> None:
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    director = _director((), (), speed=1.0, clock=lambda: now[0], sleep=sleep)
    for _ in range(11):
        director.tick()
    assert now[0] == pytest.approx(1.0)  # ten frames at 10 frames a second
    fast = _director((), (), speed=0.0, clock=lambda: now[0], sleep=sleep)
    slept.clear()
    for _ in range(11):
        fast.tick()
    assert slept == []
