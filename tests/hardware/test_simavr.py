"""The real compiled firmware in simavr, driven by the host driver over a pty: the
handshake, the displays, the coin, and the faults (garbage, a reset mid-command, an
unplug and replug). Every test name contains ``simavr``."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.live.table import LiveTable
from hardware.driver import attach
from hardware.emulator import EmulatedBoard, spot_text, wait_until
from hardware.link import BoardLink
from hardware.protocol import SPOTS, BoardState

ATTACK = {"type": "attack", "attack": "Tackle"}
START = [spot_text(d) for d in (0, 0, None, None, None, None)] * 2
AFTER_HEADS = START[:6] + [spot_text(30)] + START[7:]  # Tackle hits B's Active
AFTER_TAILS = [spot_text(30)] + START[1:]  # Confused and tails: A's Active hurts itself
DASHES = ["----"] * SPOTS


def coins(table: LiveTable) -> list[dict[str, str]]:
    return [flip for entry in table.record.entries(table.game_id) if entry.kind == "action"
            for flip in entry.body.get("coins") or ()]


def after_attack(table: LiveTable) -> list[str]:
    """The displays once the Confused attack has been resolved by its coin."""
    return AFTER_HEADS if coins(table)[0]["result"] == "heads" else AFTER_TAILS


def test_simavr_board_says_hello_and_shows_dashes_until_told(board: EmulatedBoard) -> None:
    with BoardLink(board.port) as link:
        hello = link.connect()
        assert (hello.protocol, hello.spots) == (1, SPOTS)
        assert board.wait_for_displays(DASHES)
        link.ping()


def test_simavr_displays_show_the_state_sent(board: EmulatedBoard) -> None:
    damage = (0, 10, None, 250, 9999, None, 30, None, None, None, None, 1200)
    with BoardLink(board.port) as link:
        link.connect()
        link.show(BoardState(damage, (1, 0)))
        assert board.wait_for_displays([spot_text(d) for d in damage])
        assert wait_until(lambda: board.lights == {"A": 1, "B": 0})


def test_simavr_a_token_flipped_again_gets_the_same_side_even_after_a_reset(board: EmulatedBoard) -> None:
    with BoardLink(board.port) as link:
        link.connect()
        first = link.flip(0x1234)
        assert first.fresh
        again = link.flip(0x1234)
        assert (again.heads, again.fresh) == (first.heads, False)
        board.reset()
        assert wait_until(lambda: (link.poll(), link.restarts)[1] == 1)
        after_reset = link.flip(0x1234)  # EEPROM keeps it
        assert (after_reset.heads, after_reset.fresh) == (first.heads, False)
        assert link.flip(0x1235).fresh


def test_simavr_the_coin_is_not_one_sided(board: EmulatedBoard) -> None:
    with BoardLink(board.port) as link:
        link.connect()
        sides = [link.flip(token).heads for token in range(40)]
    assert 8 <= sum(sides) <= 32  # a fair coin lands outside this about once in 10 000 runs


def test_simavr_garbage_on_the_line_costs_nothing(board: EmulatedBoard) -> None:
    damage = (40, 0, None, None, None, None, 0, 0, 10, None, None, None)
    with BoardLink(board.port) as link:
        link.connect()
        assert link._serial is not None
        link._serial.write(bytes(range(256)) + b"\x01\x02\x03" + b"\xff" * 70)  # junk, a cut frame, an overlong one
        link.show(BoardState(damage, (0, 1)))
        assert board.wait_for_displays([spot_text(d) for d in damage])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(garbage=st.binary(max_size=200), ends_with_zero=st.booleans(),
       damage=st.lists(st.none() | st.integers(0, 9999), min_size=SPOTS, max_size=SPOTS))
def test_simavr_firmware_survives_any_garbage(board: EmulatedBoard, garbage: bytes, ends_with_zero: bool,
                                              damage: list[int | None]) -> None:
    """Whatever bytes reach the firmware, the next command works (at worst after a retry)."""
    with BoardLink(board.port) as link:
        link.connect()
        assert link._serial is not None
        link._serial.write(garbage + (b"\x00" if ends_with_zero else b""))
        link.show(BoardState(tuple(damage), (0, 0)))
        assert board.wait_for_displays([spot_text(d) for d in damage])


def test_simavr_driver_shows_damage_and_the_device_flips(board: EmulatedBoard, table: LiveTable) -> None:
    with attach(table, board.port, coin_timeout=30) as driver:
        assert board.wait_for_displays(START)
        table.propose(ATTACK)  # Confused: the board's coin decides
        assert wait_until(lambda: driver.stats.device_coins == 1)
        assert [c["source"] for c in coins(table)] == ["device"]
        assert board.wait_for_displays(after_attack(table))


def test_simavr_reset_button_leaves_no_display_stale(board: EmulatedBoard, table: LiveTable) -> None:
    with attach(table, board.port, heartbeat=0.2) as driver:
        assert board.wait_for_displays(START) and wait_until(lambda: driver.stats.shows == 1)
        board.reset()
        assert wait_until(lambda: board.displays() == DASHES)  # the firmware starts again
        assert board.wait_for_displays(START)


def test_simavr_reset_mid_flip_loses_and_duplicates_no_coin(board: EmulatedBoard, table: LiveTable) -> None:
    with attach(table, board.port, coin_timeout=30) as driver:
        assert board.wait_for_displays(START)
        question = table.propose(ATTACK).questions[0]
        time.sleep(0.005)
        board.reset()  # while the flip is on the wire or being made
        assert wait_until(lambda: driver.stats.device_coins == 1, timeout=10)
        assert [c["source"] for c in coins(table)] == ["device"] and question.id not in table.questions
        # the board restarted showing dashes; the driver showed the state again
        assert board.wait_for_displays(after_attack(table))


def test_simavr_unplug_and_replug_resends_the_state_and_keeps_the_coin(board: EmulatedBoard,
                                                                        table: LiveTable) -> None:
    with attach(table, board.port, coin_timeout=30) as driver:
        assert board.wait_for_displays(START) and wait_until(lambda: driver.stats.shows == 1)
        board.replug()  # nothing happens at the table meanwhile: the state is resent all the same
        assert board.wait_ready() and wait_until(lambda: board.displays() == DASHES)
        assert board.wait_for_displays(START)
        board.replug()
        question = table.propose(ATTACK).questions[0]  # asked while the board is away
        assert board.wait_ready()
        assert wait_until(lambda: driver.stats.device_coins == 1, timeout=10)
        assert [c["source"] for c in coins(table)] == ["device"] and question.id not in table.questions
        assert board.wait_for_displays(after_attack(table))  # nothing stale, no dashes
        assert driver.stats.connects >= 2


def test_simavr_lights_say_the_link_is_lost_without_heartbeats(board: EmulatedBoard) -> None:
    with BoardLink(board.port) as link:
        link.connect()
        link.show(BoardState((None,) * SPOTS, (1, 0)))
        assert wait_until(lambda: board.lights == {"A": 1, "B": 0})
        changes = []
        for _ in range(40):  # no command for 4 s: past the board's 3 s, both lights blink fast
            changes.append(dict(board.lights))
            time.sleep(0.1)
        assert {"A": 0, "B": 0} in changes[32:] and {"A": 1, "B": 1} in changes[32:]
        assert all(c == {"A": 1, "B": 0} for c in changes[:25])
        link.ping()  # the host is back: the turn light is steady again
        time.sleep(0.3)
        assert wait_until(lambda: board.lights == {"A": 1, "B": 0})
