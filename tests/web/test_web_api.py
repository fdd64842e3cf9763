"""The REST API against a real uvicorn: spectators read, the console (with its token)
changes the table, and every bad request gets a clear 4xx, never a 500."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from live_tables import CARDS, no_database, table_state
from web_server import TOKEN, Served, serve

from assistant.editions import edition
from assistant.live.match import Match
from assistant.live.record import Record
from web.app import create_app, pairing_svg

ATTACK = {"type": "attack", "attack": "Tackle"}
RETREAT = {"type": "retreat", "to": "bench[0]"}


def post(served: Served, path: str, body: object = None, **options: object) -> httpx.Response:
    headers = options.pop("headers", served.console)
    return httpx.post(served.url + path, json=body, headers=headers, timeout=10, **options)  # type: ignore[arg-type]


def test_a_spectator_reads_the_board_with_names_hp_and_counts_only(served: Served) -> None:
    board = httpx.get(served.url + "/api/board").json()
    a = board["players"]["A"]
    assert (a["active"]["name"], a["active"]["hp_left"], a["active"]["conditions"]) == ("Lechonk", 100, ["Confused"])
    assert (a["hand"], a["deck"], a["prizes"]) == (5, 30, 6)
    assert (board["turn"], board["current"]) == (5, "A")
    snapshot = httpx.get(served.url + "/api/snapshot").json()
    assert snapshot["seq"] == 0 and snapshot["state"]["waiting"] == 0 and "questions" not in snapshot["state"]


@pytest.mark.parametrize("headers, status", [({}, 401), ({"Authorization": "Bearer guess"}, 403),
                                             ({"X-Console-Token": "guess"}, 403)])
def test_without_the_token_a_spectator_changes_nothing(served: Served, headers: dict[str, str], status: int) -> None:
    for path, body in [("/api/console/actions", {"action": RETREAT}), ("/api/console/penalties",
                       {"player": "A", "kind": "warning", "reason": "x"}), ("/api/console/questions/1/flip", None)]:
        answer = post(served, path, body, headers=headers)
        assert answer.status_code == status and "token" in answer.json()["error"]
    assert httpx.get(served.url + "/api/console/questions", headers=headers).status_code == status
    assert served.table.seq == 0 and served.table.record.entries(served.table.game_id) == []


def test_an_accepted_action_changes_the_board(served: Served) -> None:
    reply = post(served, "/api/console/actions", {"action": RETREAT, "source": "camera"})
    assert reply.status_code == 200 and reply.json()["accepted"]
    a = httpx.get(served.url + "/api/board").json()["players"]["A"]
    assert a["active"]["name"] == "Skwovet" and a["flags"]["retreat"]
    assert served.table.record.entries(served.table.game_id)[-1].body["source"] == "camera"


def test_a_refused_action_comes_back_with_its_reason_and_rulebook_line(served: Served) -> None:
    post(served, "/api/console/actions", {"action": RETREAT})
    reply = post(served, "/api/console/actions", {"action": RETREAT})
    assert reply.status_code == 200
    alert = reply.json()["alert"]
    assert not reply.json()["accepted"] and alert["reason"] == "retreat-already"
    assert alert["citation"].startswith("Mega Evolution rulebook (2025), line")


def test_a_coin_question_is_answered_by_hand_or_by_the_software_coin(served: Served) -> None:
    asked = post(served, "/api/console/actions", {"action": ATTACK}).json()
    question = asked["questions"][0]
    assert question["kind"] == "coin" and question["answers"] == ["heads", "tails"]
    listed = httpx.get(served.url + "/api/console/questions", headers=served.console).json()
    assert [q["id"] for q in listed] == [question["id"]]

    wrong = post(served, f"/api/console/questions/{question['id']}/answer", {"answer": "edge"})
    assert wrong.status_code == 400 and "heads or tails" in wrong.json()["error"]
    flipped = post(served, f"/api/console/questions/{question['id']}/flip")
    assert flipped.status_code == 200 and flipped.json()["accepted"]
    assert httpx.get(served.url + "/api/board").json()["players"]["B"]["active"]["hp_left"] == 70
    again = post(served, f"/api/console/questions/{question['id']}/answer", {"answer": "heads"})
    assert again.status_code == 404 and "not open" in again.json()["error"]


def test_a_choice_is_answered_and_cannot_be_flipped(served: Served) -> None:
    choice = served.table.ask("Which Pokémon did A bench?", {"Skwovet": None, "none": None})
    asked = choice.questions[0].id
    assert post(served, f"/api/console/questions/{asked}/flip").status_code == 409
    assert post(served, f"/api/console/questions/{asked}/answer", {"answer": "Pikachu"}).status_code == 400
    assert post(served, f"/api/console/questions/{asked}/answer", {"answer": "none"}).status_code == 200
    assert served.table.questions == {}


def test_rewind_and_penalties_go_on_the_record(served: Served) -> None:
    first = post(served, "/api/console/actions", {"action": RETREAT}).json()
    post(served, "/api/console/actions", {"action": {"type": "end_turn"}})
    assert post(served, "/api/console/rewind", {"to": first["seq"], "reason": " "}).status_code == 400
    rewound = post(served, "/api/console/rewind", {"to": first["seq"], "reason": "ended by mistake"})
    assert rewound.status_code == 200
    assert httpx.get(served.url + "/api/board").json()["current"] == "A"
    assert post(served, "/api/console/penalties", {"player": "A", "kind": "yellow card", "reason": "x"}
                ).status_code == 400
    noted = post(served, "/api/console/penalties", {"player": "B", "kind": "warning", "reason": "slow play"})
    assert noted.status_code == 200
    kinds = [e.kind for e in served.table.record.entries(served.table.game_id)]
    assert kinds == ["action", "action", "rewind", "penalty"]
    assert httpx.get(served.url + "/api/board").json()["penalties"][0]["kind"] == "warning"


@pytest.mark.parametrize("path, body, status, says", [
    ("/api/console/actions", {"action": {"type": "fly"}}, 400, "unreadable action"),
    ("/api/console/actions", {"action": {"type": "bench", "card": "nobody"}}, 400, "unknown card"),
    ("/api/console/actions", {"action": RETREAT, "source": "telepathy"}, 400, "telepathy"),
    ("/api/console/actions", {"actoin": RETREAT}, 422, "body.action: Field required"),
    ("/api/console/actions", ["attack"], 422, "body"),
    ("/api/console/questions/abc/answer", {"answer": "heads"}, 422, "question_id"),
    ("/api/console/rewind", {"to": 99, "reason": "why"}, 400, "no entry 99"),
    ("/api/console/rewind", {"to": 0, "reason": "why"}, 400, "no action after entry 0"),
    ("/api/console/clock", {"do": "start"}, 404, "not part of a match"),
])
def test_bad_requests_get_a_clear_4xx(served: Served, path: str, body: object, status: int, says: str) -> None:
    answer = post(served, path, body)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["error"]
    assert served.table.record.entries(served.table.game_id) == []


def test_a_body_that_is_no_json_is_a_4xx(served: Served) -> None:
    answer = httpx.post(served.url + "/api/console/actions", content=b"{attack", timeout=10,
                        headers={**served.console, "Content-Type": "application/json"})
    assert answer.status_code == 422 and "JSON" in answer.json()["error"]


def test_the_api_is_described_by_openapi(served: Served) -> None:
    paths = httpx.get(served.url + "/openapi.json").json()["paths"]
    for path in ("/api/board", "/api/snapshot", "/api/stream", "/api/console/actions", "/api/console/questions",
                 "/api/console/questions/{question_id}/answer", "/api/console/questions/{question_id}/flip",
                 "/api/console/rewind", "/api/console/penalties"):
        assert path in paths


def test_the_console_page_needs_its_token(served: Served) -> None:
    assert httpx.get(served.url + "/console").status_code == 401
    assert httpx.get(served.url + "/console?token=guess").status_code == 403
    page = httpx.get(served.url + f"/console?token={TOKEN}")
    assert page.status_code == 200 and "Propose" in page.text


def test_a_match_table_shows_the_round_clock_that_the_console_runs(tmp_path: Path) -> None:
    now = [1000.0]
    with Record(tmp_path / "games.sqlite") as record:
        match = Match.create(record, edition("mega-evolution-2025"), no_database, round_minutes=50,
                             now=lambda: now[0])
        table = match.new_game(edition("mega-evolution-2025"), table_state(), CARDS)
        app = create_app(table, token=TOKEN, match=match, lookup=no_database)
        for url in serve(app):
            served = Served(url, table, app)
            assert httpx.get(url + "/api/board").json()["clock"]["running"] is False
            assert post(served, "/api/console/clock", {"do": "start"}).status_code == 200
            now[0] += 600
            board = httpx.get(url + "/api/board").json()
            assert board["clock"]["running"] and board["clock"]["remaining"] == 2400
            assert board["score"] == {"A": 0, "B": 0}
            assert post(served, "/api/console/clock", {"do": "pause"}).status_code == 200
            again = post(served, "/api/console/clock", {"do": "pause"})
            assert again.status_code == 409 and "not running" in again.json()["error"]
            assert post(served, "/api/console/clock", {"do": "stop"}).status_code == 400
            assert httpx.get(url + "/api/board").json()["clock"]["running"] is False


def test_the_pairing_qr_code_carries_the_consoles_link_to_the_console_only(served: Served) -> None:
    code = httpx.get(served.url + "/api/console/pairing.svg", headers=served.console)
    assert code.status_code == 200 and code.headers["content-type"] == "image/svg+xml"
    assert code.content == pairing_svg(f"{served.url}/console?token={TOKEN}")
    assert httpx.get(served.url + "/api/console/pairing.svg").status_code == 401
