"""The live stream: numbered like the record, resumable, and never held up by a phone
that stopped reading."""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

import httpx
import pytest
from web_server import Served, read_events

from web import broadcast

RETREAT = {"type": "retreat", "to": "bench[0]"}
END_TURN = {"type": "end_turn"}


def test_a_stream_starts_with_the_board_then_each_entry_in_words(served: Served) -> None:
    served.table.propose(RETREAT)
    with httpx.stream("GET", served.url + "/api/stream", timeout=10) as stream:
        lines = stream.iter_lines()
        [(seq, reset)] = read_events(lines, 1)
        assert seq == 1 and reset["reset"] and reset["board"]["players"]["A"]["active"]["name"] == "Skwovet"
        assert reset["recent"] == [[1, "Lechonk is no longer Confused"], [1, "A retreated; Skwovet is now Active"]]
        served.table.propose(END_TURN)
        [(_, turn)] = read_events(lines, 1)
        served.table.propose({"type": "attack", "attack": "Tackle"})  # B's Wiglett is not Confused: no coin
        [(seq, attack)] = read_events(lines, 1)
    assert turn["lines"][0] == "Turn 6: B's turn"
    assert seq == 3 and attack["kind"] == "action"
    assert attack["lines"] == ["Wiglett used Tackle", "Skwovet took 30"]
    assert attack["board"]["players"]["A"]["active"]["hp_left"] == 30


def test_a_reconnecting_phone_resumes_after_the_last_event_it_saw(served: Served) -> None:
    for action in (RETREAT, END_TURN, END_TURN):
        served.table.propose(action)
    with httpx.stream("GET", served.url + "/api/stream", headers={"Last-Event-ID": "1"}, timeout=10) as stream:
        got = read_events(stream.iter_lines(), 2)
    assert [seq for seq, _ in got] == [2, 3] and not any(data.get("reset") for _, data in got)
    assert got[0][1]["lines"][0].startswith("Turn 6: B's turn")
    assert 1 in served.app.state.broadcast.resumed


def test_a_number_this_table_never_wrote_gets_a_fresh_board(served: Served) -> None:
    served.table.propose(RETREAT)
    with httpx.stream("GET", served.url + "/api/stream?after=999", timeout=10) as stream:
        [(seq, data)] = read_events(stream.iter_lines(), 1)
    assert seq == 1 and data["reset"]


def test_spectators_do_not_hear_refusals_or_what_a_question_offers(served: Served) -> None:
    served.table.propose(RETREAT)
    served.table.propose(RETREAT)  # refused: one retreat a turn
    served.table.ask("Which card from A's hand?", {"Rare Candy": None, "none": None})
    with httpx.stream("GET", served.url + "/api/stream?after=0", timeout=10) as stream:
        public = read_events(stream.iter_lines(), 3)
    assert public[1][1]["lines"] == [] and public[2][1]["lines"] == ["Waiting for the judge"]
    assert "Rare Candy" not in str(public) and "retreat-already" not in str(public)
    with httpx.stream("GET", served.url + "/api/console/stream?after=0", headers=served.console,
                      timeout=10) as stream:
        console = read_events(stream.iter_lines(), 3)
    assert console[1][1]["alert"]["reason"] == "retreat-already"
    assert console[1][1]["alert"]["citation"].startswith("Mega Evolution rulebook (2025)")
    assert console[2][1]["questions"][0]["answers"] == ["Rare Candy", "none"]
    assert httpx.get(served.url + "/api/console/stream").status_code == 401


def test_a_stalled_phone_holds_up_neither_the_table_nor_another_phone(served: Served) -> None:
    # a phone that asks for the stream and then never reads: its socket fills
    address = urlsplit(served.url)
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect((address.hostname, address.port))
    stalled.sendall(b"GET /api/stream?after=0 HTTP/1.1\r\nHost: x\r\n\r\n")
    received: dict[int, tuple[float, bool]] = {}  # number -> when, and whether a fresh board

    def watch() -> None:
        with httpx.stream("GET", served.url + "/api/stream", timeout=20) as stream:
            lines = stream.iter_lines()
            while 300 not in received:
                [(seq, data)] = read_events(lines, 1)
                received[seq] = (time.monotonic(), bool(data.get("reset")))

    watcher = threading.Thread(target=watch)
    watcher.start()
    while not received:
        time.sleep(0.01)
    sent: dict[int, float] = {}
    served.table.propose(RETREAT)
    for _ in range(299):  # ~3 kB of board each: far more than the stalled socket holds
        sent[served.table.propose(END_TURN).seq] = time.monotonic()
    watcher.join(30)
    stalled.close()
    assert 300 in received, f"the reading phone got {len(received)} messages, not the last"
    # every number in order, or a fresh board where this machine fell behind a burst
    numbers = sorted(received)
    for earlier, later in zip(numbers, numbers[1:], strict=False):
        assert later == earlier + 1 or received[later][1], f"{earlier} -> {later} with no fresh board"
    late = received[300][0] - sent[300]
    assert late < 2.0, f"the last update reached the reading phone {late:.2f} s after it was written"


def test_a_quiet_stream_gets_keep_alives_from_the_follower(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(broadcast, "KEEPALIVE", 0.2)
    with httpx.stream("GET", served.url + "/api/stream", timeout=10) as stream:
        lines = stream.iter_lines()
        read_events(lines, 1)
        started = time.monotonic()
        assert next(line for line in lines if line) == ": keep-alive"
    assert time.monotonic() - started < 3
