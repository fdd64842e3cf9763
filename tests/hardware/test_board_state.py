"""What the board shows for a table: damage per spot and the players' lights."""

from __future__ import annotations

from assistant.live.table import LiveTable
from hardware.board_state import board_state
from hardware.protocol import LIGHT_BLINK, LIGHT_OFF, LIGHT_ON

ATTACK = {"type": "attack", "attack": "Tackle"}


def test_each_pokemon_in_play_has_its_spot_and_empty_spots_are_blank(table: LiveTable) -> None:
    state = board_state(table.snapshot().state)
    assert state.damage == (0, 0, None, None, None, None, 0, 0, None, None, None, None)


def test_damage_shows_on_the_defending_pokemons_spot(table: LiveTable) -> None:
    question = table.propose(ATTACK).questions[0]
    table.answer(question.id, "heads", source="device")
    assert board_state(table.snapshot().state).damage[6] == 30


def test_the_light_of_the_player_whose_turn_it_is_is_on() -> None:
    position = {"current": "B", "players": {"A": {}, "B": {}}}
    assert board_state({"position": position, "questions": []}).lights == (LIGHT_OFF, LIGHT_ON)


def test_a_question_or_an_alert_blinks_the_players_light(table: LiveTable) -> None:
    table.propose(ATTACK)  # Confused: a coin question
    assert board_state(table.snapshot().state).lights == (LIGHT_BLINK, LIGHT_OFF)
    position = {"current": "A", "players": {}}
    assert board_state({"position": position, "questions": []}, alert=True).lights == (LIGHT_BLINK, LIGHT_OFF)


def test_a_finished_game_turns_the_lights_off() -> None:
    state = {"position": {"current": "A", "players": {}}, "questions": [], "result": {"winner": "A"}}
    assert board_state(state).lights == (LIGHT_OFF, LIGHT_OFF)


def test_damage_is_read_from_hp_left_when_the_position_has_no_damage_field() -> None:
    position = {"current": "A", "players": {"A": {"active": {"hp": 120, "hp_left": 50}}}}
    assert board_state({"position": position}).damage[0] == 70
