"""The records over a real uvicorn: the stored games and matches, a match's timeline as
JSON and as a page, and a stored game replayed on the scoreboard one entry at a time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_tables import CARDS, no_database, table_state
from web_server import TOKEN, Served, serve

from assistant.editions import edition
from assistant.live.match import Match
from assistant.live.record import Record
from assistant.live.table import LiveTable
from web.app import create_app

RETREAT = {"type": "retreat", "to": "bench[0]"}
END_TURN = {"type": "end_turn"}
TACKLE = {"type": "attack", "attack": "Tackle"}
JUDGE = {"Authorization": f"Bearer {TOKEN}"}
ERA = "mega-evolution-2025"


def get(served: Served, path: str, **options: object) -> httpx.Response:
    return httpx.get(served.url + path, timeout=10, **options)  # type: ignore[arg-type]


@pytest.fixture
def in_match(tmp_path: Path) -> Iterator[Served]:
    """Game 1 of a match: a retreat, a refused second retreat, a turn ended by mistake and
    taken back, B's Tackle, a question about a card in A's hand, a warning; then a game loss."""
    with Record(tmp_path / "games.sqlite") as record:
        match = Match.create(record, edition(ERA), no_database)
        state = table_state()
        state["players"]["A"]["hand"] = ["secret", "secret"]
        table = match.new_game(edition(ERA), state, {**CARDS, "secret": {"name": "Secretmon", "supertype": "Pokémon",
                                                                          "subtypes": ["Basic"], "hp": 70}})
        table.propose(RETREAT)                        # 1
        table.propose(RETREAT)                        # 2: refused, one retreat a turn
        table.propose(END_TURN)                       # 3
        table.rewind(1, "ended by mistake")           # 4
        table.propose(END_TURN)                       # 5
        table.propose(TACKLE)                         # 6: B's Wiglett is not Confused: no coin
        table.ask("Which card did A show?", {"Secretmon": None, "none": None})  # 7
        table.penalty("A", "warning", "slow play")    # 8
        app = create_app(table, token=TOKEN, match=match, lookup=no_database)
        for url in serve(app):
            yield Served(url, table, app)


def test_the_records_list_the_stored_games_and_matches(in_match: Served) -> None:
    records = get(in_match, "/api/records").json()
    game_id = in_match.table.game_id
    assert [(g["id"], g["entries"], g["match"]) for g in records["games"]] == [(game_id, 8, 1)]
    assert [(m["id"], m["games"]) for m in records["matches"]] == [(1, [game_id])]
    page = get(in_match, "/records")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert f'href="/records/games/{game_id}"' in page.text and 'href="/records/matches/1"' in page.text


def test_a_stored_game_is_replayed_one_entry_at_a_time_forward_and_back(in_match: Served) -> None:
    game = in_match.table.game_id

    def at(seq: int | None) -> dict:
        answer = get(in_match, f"/api/records/games/{game}/replay" + ("" if seq is None else f"?at={seq}"))
        assert answer.status_code == 200, answer.text
        return answer.json()

    setup = at(0)
    assert setup["last"] == 8 and setup["board"]["players"]["A"]["active"]["name"] == "Lechonk"
    retreated = at(1)
    assert retreated["board"]["players"]["A"]["active"]["name"] == "Skwovet"
    assert retreated["lines"][-1] == "A retreated; Skwovet is now Active"
    assert at(3)["board"]["current"] == "B"
    corrected = at(4)
    assert corrected["board"]["current"] == "A" and corrected["lines"] == [
        "Judge's correction: back to entry 1 (ended by mistake)"]
    tackled = at(6)
    assert tackled["lines"] == ["Wiglett used Tackle", "Skwovet took 30"]
    assert tackled["board"]["players"]["A"]["active"]["hp_left"] == 30
    assert at(5)["board"]["players"]["A"]["active"]["hp_left"] == 60  # one back: before the Tackle
    assert at(0)["board"]["players"]["A"]["active"]["name"] == "Lechonk"


def test_the_last_step_of_a_replay_is_the_live_tables_board(in_match: Served) -> None:
    live = get(in_match, "/api/board").json()
    replayed = get(in_match, f"/api/records/games/{in_match.table.game_id}/replay").json()
    assert replayed["seq"] == live["seq"] == 8
    assert {k: v for k, v in replayed["board"].items()} == {k: v for k, v in live.items()
                                                            if k not in ("clock", "score")}


def test_a_replay_shows_spectators_no_hand_and_no_question_options(in_match: Served) -> None:
    game = in_match.table.game_id
    for seq in range(9):
        text = get(in_match, f"/api/records/games/{game}/replay?at={seq}").text
        assert "Secretmon" not in text and "secret" not in text
    assert get(in_match, f"/api/records/games/{game}/replay?at=7").json()["lines"] == ["Waiting for the judge"]
    judge = get(in_match, f"/api/records/games/{game}/replay?at=7", headers=JUDGE).json()
    assert judge["lines"] == ["Question for the judge: Which card did A show?"]
    assert get(in_match, f"/api/records/games/{game}/replay?at=2").json()["lines"] == []


def test_a_match_record_has_its_timeline_corrections_penalties_and_refusals_for_the_judge(in_match: Served) -> None:
    public = get(in_match, "/api/records/matches/1").json()
    [game] = public["games"]
    assert public["view"] == "spectator" and "refusals" not in game
    assert [entry["seq"] for entry in game["timeline"]] == [1, 3, 4, 5, 6, 7, 8]  # no refusal
    assert [(c["to"], c["undone"], c["reason"]) for c in game["corrections"]] == [(1, [3], "ended by mistake")]
    assert [(p["player"], p["kind"]) for p in game["penalties"]] == [("A", "warning")]
    assert game["result"] is None and public["score"] == {"A": 0, "B": 0} and public["result"] is None
    assert "retreat-already" not in str(public) and "Secretmon" not in str(public)

    judge = get(in_match, "/api/records/matches/1", headers=JUDGE).json()
    [refusal] = judge["games"][0]["refusals"]
    assert refusal["seq"] == 2 and refusal["reason"] == "retreat-already"
    assert refusal["citation"].startswith("Mega Evolution rulebook (2025), line")

    in_match.table.penalty("B", "game-loss", "marked cards")
    decided = get(in_match, "/api/records/matches/1").json()
    assert decided["games"][0]["result"] == {"winner": "A", "why": ["game-loss penalty"]}
    assert decided["score"] == {"A": 1, "B": 0}


def test_a_match_prints_as_a_page_with_refusals_only_for_the_judge(in_match: Served) -> None:
    page = get(in_match, "/records/matches/1")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for words in ("Match 1", "A retreated; Skwovet is now Active", "Skwovet took 30", "ended by mistake",
                  "A: warning (slow play)", "@media print"):
        assert words in page.text
    assert "retreat-already" not in page.text and "Secretmon" not in page.text
    judge = get(in_match, f"/records/matches/1?token={TOKEN}")
    assert "retreat-already" in judge.text and "Mega Evolution rulebook (2025), line" in judge.text


def test_a_title_typed_by_a_person_is_text_on_the_page_never_markup(tmp_path: Path) -> None:
    with Record(tmp_path / "games.sqlite") as record:
        table = LiveTable.start(record, edition(ERA), table_state(), no_database, cards=CARDS,
                                title="<script>alert(1)</script>")
        table.penalty("A", "caution", "<b>shouting</b>")
        for url in serve(create_app(table, token=TOKEN, lookup=no_database)):
            assert "&lt;script&gt;" in httpx.get(url + "/records").text
            assert "<script>alert" not in httpx.get(url + "/records").text


@pytest.mark.parametrize("path, headers, status, says", [
    ("/api/records/games/99/replay", {}, 404, "no game 99"),
    ("/records/games/99", {}, 404, "no game 99"),
    ("/api/records/games/1/replay?at=99", {}, 400, "entries 0..8, not 99"),
    ("/api/records/games/1/replay?at=-1", {}, 400, "not -1"),
    ("/api/records/games/1/replay?at=two", {}, 422, "at"),
    ("/api/records/matches/7", {}, 404, "no match 7"),
    ("/records/matches/7", {}, 404, "no match 7"),
    ("/api/records/matches/1", {"Authorization": "Bearer guess"}, 403, "token"),
])
def test_bad_record_requests_get_a_clear_4xx(in_match: Served, path: str, headers: dict[str, str], status: int,
                                             says: str) -> None:
    answer = get(in_match, path, headers=headers)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["error"]
    assert str(in_match.table.record.path) not in answer.text  # the server's folders are nobody's business


def test_the_records_are_described_by_openapi(in_match: Served) -> None:
    paths = get(in_match, "/openapi.json").json()["paths"]
    for path in ("/api/records", "/api/records/games/{game_id}", "/api/records/games/{game_id}/replay",
                 "/api/records/matches/{match_id}"):
        assert path in paths
