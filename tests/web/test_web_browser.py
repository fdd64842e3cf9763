"""The pages in a real browser: Debian's Chromium driven by Playwright, on a phone's
screen (390×844, held upright). Screenshots go to each test's folder."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from live_tables import CARDS, no_database, table_state
from web_server import TOKEN, Served, serve

from assistant.editions import edition
from assistant.live.match import Match
from assistant.live.record import Record
from assistant.live.table import LiveTable
from assistant.table_layout import TableLayout
from table_assistant.camera_view import CameraView
from vision.tracker import TrackedCard
from web.app import create_app

CHROMIUM = "/usr/bin/chromium"
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                reason="needs Debian's chromium (apt-get install chromium)")
PHONE = {"width": 390, "height": 844}
RETREAT = {"type": "retreat", "to": "bench[0]"}
END_TURN = {"type": "end_turn"}
SECRET = {"name": "Secretmon", "supertype": "Pokémon", "subtypes": ["Basic"], "hp": 70}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_the_scoreboard_updates_live_and_fits_a_phone(served: Served, phone: Any, tmp_path: Path) -> None:
    phone.goto(served.url + "/")
    side_a = phone.get_by_test_id("side-A")
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("Lechonk")
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("100 / 100 HP")
    playwright_api.expect(phone.get_by_test_id("turn")).to_have_text("Turn 5 · Player A")
    playwright_api.expect(phone.get_by_test_id("live")).to_have_text("live")

    served.table.propose(RETREAT, source="camera")
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("Skwovet")
    playwright_api.expect(side_a.get_by_test_id("flags")).to_contain_text("Retreat ✓")
    playwright_api.expect(phone.get_by_test_id("log").locator("li").first).to_have_text(
        "A retreated; Skwovet is now Active")
    served.table.propose(END_TURN)
    served.table.propose({"type": "attack", "attack": "Tackle"})
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("30 / 60 HP")
    playwright_api.expect(phone.get_by_test_id("turn")).to_have_text("Turn 6 · Player B")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(tmp_path / "scoreboard.png"), full_page=True)


def test_a_scoreboard_that_loses_its_connection_resumes_where_it_was(served: Served, phone: Any) -> None:
    phone.goto(served.url + "/")
    served.table.propose(RETREAT)
    log = phone.get_by_test_id("log")
    playwright_api.expect(log).to_contain_text("A retreated")
    assert phone.evaluate("window.scoreboard.lastSeq") == 1

    served.app.state.broadcast.drop_streams()  # as a dropped network would
    served.table.propose(END_TURN)             # while the phone is away
    playwright_api.expect(log).to_contain_text("Turn 6: B's turn")
    playwright_api.expect(log).to_contain_text("A retreated")  # the log was kept, not started afresh
    assert 1 in served.app.state.broadcast.resumed  # the browser came back with Last-Event-ID: 1
    assert phone.evaluate("window.scoreboard.lastSeq") == 2


@pytest.fixture
def known_hand(tmp_path: Path) -> Iterator[Served]:
    """A table that knows what is in A's hand (a judge's table may), and asks about it."""
    state = table_state()
    state["players"]["A"]["hand"] = ["secret", "secret", "secret"]
    with Record(tmp_path / "games.sqlite") as record:
        table = LiveTable.start(record, edition("mega-evolution-2025"), state, no_database,
                                cards={**CARDS, "secret": SECRET})
        table.ask("Which card did A play from the hand?", {"Secretmon": None, "none": None})
        app = create_app(table, token=TOKEN, lookup=no_database)
        for url in serve(app):
            yield Served(url, table, app)


def test_a_spectator_cannot_reach_a_console_action_or_see_a_hand(known_hand: Served, phone: Any,
                                                                 tmp_path: Path) -> None:
    phone.goto(known_hand.url + "/")
    playwright_api.expect(phone.get_by_test_id("side-A")).to_contain_text("Hand 3")
    playwright_api.expect(phone.get_by_test_id("waiting")).to_be_visible()
    assert "Secretmon" not in phone.content() and "Which card" not in phone.content()
    assert phone.locator("button, input, select, textarea, form").count() == 0
    tried = phone.evaluate("""async () => (await fetch('/api/console/actions', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action: {type: 'end_turn'}})})).status""")
    assert tried == 401
    phone.screenshot(path=str(tmp_path / "spectator.png"), full_page=True)

    page = phone.goto(known_hand.url + "/console")
    assert page.status == 401
    playwright_api.expect(phone.get_by_test_id("locked")).to_contain_text("Judge's console")
    assert phone.locator("button, input, select, textarea").count() == 0
    assert known_hand.table.seq == 1  # only the question asked above


def test_the_console_answers_a_question_and_shows_a_refusal_with_its_rulebook_line(
        served: Served, phone: Any, tmp_path: Path) -> None:
    phone.goto(served.url + f"/console?token={TOKEN}")
    playwright_api.expect(phone.get_by_test_id("live")).to_have_text("live")
    assert "token" not in phone.url  # taken out of the address bar

    phone.get_by_test_id("action").fill('{"type": "attack", "attack": "Tackle"}')
    phone.get_by_test_id("propose").click()
    question = phone.get_by_test_id("question")
    playwright_api.expect(question).to_contain_text("Flip a coin (confusion)")
    phone.screenshot(path=str(tmp_path / "console-question.png"), full_page=True)
    question.locator("button[data-answer=tails]").click()
    playwright_api.expect(phone.get_by_test_id("reply")).to_contain_text("Accepted")
    playwright_api.expect(question).to_have_count(0)
    playwright_api.expect(phone.get_by_test_id("log")).to_contain_text("Lechonk got 3 damage counters (Confusion)")
    assert served.table.position.players["A"].active.damage == 30

    phone.get_by_test_id("action").fill('{"type": "retreat", "to": "bench[0]"}')
    phone.get_by_test_id("propose").click()
    refusal = phone.get_by_test_id("reply").get_by_test_id("refusal")
    playwright_api.expect(refusal).to_contain_text("after-attack")
    playwright_api.expect(refusal).to_contain_text("Mega Evolution rulebook (2025), lines")
    playwright_api.expect(phone.get_by_test_id("refusals")).to_contain_text("after-attack")

    phone.get_by_test_id("pair").click()  # the judge's screen pairs another phone
    qr = phone.get_by_test_id("pairing")
    playwright_api.expect(qr).to_be_visible()
    pixels = cv2.imdecode(np.frombuffer(qr.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
    link, _, _ = cv2.QRCodeDetector().detectAndDecode(pixels)
    assert link == f"{served.url}/console?token={TOKEN}"

    phone.get_by_test_id("action").fill('{"type": "fly"}')
    phone.get_by_test_id("propose").click()
    playwright_api.expect(phone.get_by_test_id("reply")).to_contain_text("unreadable action")
    phone.screenshot(path=str(tmp_path / "console-refusal.png"), full_page=True)


@pytest.fixture
def in_match(tmp_path: Path) -> Iterator[Served]:
    """Game 1 of a match with a refusal, a correction and a penalty on its record."""
    with Record(tmp_path / "games.sqlite") as record:
        match = Match.create(record, edition("mega-evolution-2025"), no_database)
        table = match.new_game(edition("mega-evolution-2025"), table_state(), CARDS)
        table.propose(RETREAT)
        table.propose(RETREAT)  # refused: one retreat a turn
        table.propose(END_TURN)
        table.rewind(1, "ended by mistake")
        table.propose(END_TURN)
        table.propose({"type": "attack", "attack": "Tackle"})
        table.penalty("A", "warning", "slow play")
        app = create_app(table, token=TOKEN, match=match, lookup=no_database)
        for url in serve(app):
            yield Served(url, table, app)


def test_the_records_list_a_printable_match_and_a_game_replayed_step_by_step(
        in_match: Served, phone: Any, tmp_path: Path) -> None:
    phone.goto(in_match.url + "/records")
    playwright_api.expect(phone.get_by_test_id("game-row")).to_contain_text("7 entries")
    phone.screenshot(path=str(tmp_path / "records.png"), full_page=True)

    phone.get_by_role("link", name="Match 1").click()
    timeline = phone.get_by_test_id("timeline")
    playwright_api.expect(timeline).to_contain_text("A retreated; Skwovet is now Active")
    playwright_api.expect(phone.get_by_test_id("corrections")).to_contain_text("ended by mistake")
    playwright_api.expect(phone.get_by_test_id("penalties")).to_contain_text("A: warning (slow play)")
    assert "retreat-already" not in phone.content()  # refusals are the judge's
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(tmp_path / "match.png"), full_page=True)

    phone.get_by_role("link", name="Replay on the scoreboard").click()
    side_a = phone.get_by_test_id("side-A")
    playwright_api.expect(phone.get_by_test_id("position")).to_have_text("0 / 7")
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("Lechonk")
    phone.get_by_test_id("forward").click()
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("Skwovet")
    playwright_api.expect(phone.get_by_test_id("lines")).to_contain_text("A retreated; Skwovet is now Active")
    phone.get_by_test_id("last").click()
    playwright_api.expect(phone.get_by_test_id("position")).to_have_text("7 / 7")
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("30 / 60 HP")
    phone.get_by_test_id("back").click()
    playwright_api.expect(phone.get_by_test_id("lines")).to_contain_text("Skwovet took 30")
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("30 / 60 HP")
    phone.get_by_test_id("back").click()
    playwright_api.expect(side_a.get_by_test_id("active")).to_contain_text("60 / 60 HP")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(tmp_path / "replay.png"), full_page=True)
    assert in_match.table.seq == 7  # reading the record wrote nothing


def test_the_console_declares_an_attack_with_its_form(served: Served, phone: Any, tmp_path: Path) -> None:
    phone.goto(served.url + f"/console?token={TOKEN}")
    playwright_api.expect(phone.get_by_test_id("attacker")).to_contain_text("Lechonk")
    playwright_api.expect(phone.get_by_test_id("attack-name")).to_contain_text("Tackle · Colorless · 30")
    phone.get_by_text("Also hits").click()
    phone.locator("input[data-target='B.bench[0]']").fill("10")
    phone.get_by_test_id("attack-panel").screenshot(path=str(tmp_path / "console-attack-form.png"))
    phone.get_by_test_id("declare").click()
    question = phone.get_by_test_id("question")  # Lechonk is Confused: a coin first
    playwright_api.expect(question).to_contain_text("Flip a coin (confusion)")
    question.locator("button[data-answer=heads]").click()
    playwright_api.expect(phone.get_by_test_id("reply")).to_contain_text("Accepted")
    side_b = phone.get_by_test_id("side-B")
    playwright_api.expect(side_b.get_by_test_id("active")).to_contain_text("70 / 100 HP")
    playwright_api.expect(side_b.get_by_test_id("benched")).to_contain_text("50 / 60 HP")
    assert served.table.record.entries(served.table.game_id)[-1].body["action"] == {
        "type": "attack", "attack": "Tackle", "targets": [{"target": "B.bench[0]", "amount": 10}]}
    phone.screenshot(path=str(tmp_path / "console-attack.png"), full_page=True)


@pytest.fixture
def sick(tmp_path: Path) -> Iterator[Served]:
    """A's Active is Poisoned, Burned and Asleep: its Checkup asks for two coins."""
    state = table_state(confused=False)
    state["players"]["A"]["active"]["conditions"] = ["Poisoned", "Burned", "Asleep"]
    with Record(tmp_path / "games.sqlite") as record:
        table = LiveTable.start(record, edition("mega-evolution-2025"), state, no_database, cards=CARDS)
        app = create_app(table, token=TOKEN, lookup=no_database)
        for url in serve(app):
            yield Served(url, table, app)


def test_the_console_walks_through_checkup_and_confirms_a_camera_question(
        sick: Served, phone: Any, tmp_path: Path) -> None:
    phone.goto(sick.url + f"/console?token={TOKEN}")
    plan = phone.get_by_test_id("checkup-plan")
    playwright_api.expect(plan).to_contain_text("Poisoned: Player A's Lechonk")
    playwright_api.expect(plan).to_contain_text("Asleep: Player A's Lechonk")
    phone.get_by_test_id("end-turn").click()
    step = phone.get_by_test_id("checkup-step")
    playwright_api.expect(step).to_contain_text("Now: flip a coin for burn")
    step.locator("button[data-answer=tails]").click()
    playwright_api.expect(step).to_contain_text("burn: tails ✓")
    playwright_api.expect(step).to_contain_text("Now: flip a coin for asleep")
    phone.get_by_test_id("checkup-panel").screenshot(path=str(tmp_path / "console-checkup-step.png"))
    step.locator("button[data-answer=heads]").click()
    last = phone.get_by_test_id("checkup-last")
    playwright_api.expect(last).to_contain_text("Burned: tails, Lechonk got 2 damage counters, Lechonk is still Burned")
    playwright_api.expect(last).to_contain_text("Asleep: heads, Lechonk woke up")
    playwright_api.expect(step).to_have_count(0)
    playwright_api.expect(phone.get_by_test_id("turn")).to_have_text("Turn 6 · Player B")

    seen = {"type": "condition", "player": "B", "target": "B.active"}
    sick.table.ask("The camera saw B: condition (target B.active). What happened?",
                   {"Asleep": {**seen, "add": "Asleep"}, "Paralyzed": {**seen, "add": "Paralyzed"},
                    "it did not happen": None})
    question = phone.get_by_test_id("question")
    playwright_api.expect(question).to_contain_text("asked by the camera")
    playwright_api.expect(question.get_by_test_id("option")).to_have_count(3)
    playwright_api.expect(question.get_by_test_id("option").last).to_contain_text("records nothing")
    phone.screenshot(path=str(tmp_path / "console-camera-question.png"), full_page=True)
    question.locator("button[data-answer=Paralyzed]").click()
    playwright_api.expect(phone.get_by_test_id("side-B").get_by_test_id("active")).to_contain_text("Paralyzed")
    playwright_api.expect(question).to_have_count(0)


def test_a_camera_question_shows_the_judge_the_camera_s_picture_of_the_card(
        table: LiveTable, phone: Any, tmp_path: Path) -> None:
    view = CameraView(TableLayout())
    frame = np.full((600, 800, 3), 60, np.uint8)
    frame[150:280, 350:450] = (180, 120, 40)  # B's Active, a blue card face above the centre line
    view.show(frame, [TrackedCard(20, np.array([[350, 150], [450, 150], [450, 280], [350, 280]], np.float32),
                                  180, "Wiglett", None, 0.93, True, True)])
    app = create_app(table, token=TOKEN, lookup=no_database, camera=view.jpeg, cards=view.card_jpeg,
                   layout=view.layout)
    for url in serve(app):
        seen = {"type": "condition", "player": "B", "target": "B.active"}
        table.ask("The camera saw B: condition (target B.active). What happened?",
                  {"Asleep": {**seen, "add": "Asleep"}, "it did not happen": None}, shows=("Wiglett",))
        phone.goto(url + f"/console?token={TOKEN}")
        picture = phone.get_by_test_id("question").get_by_test_id("seen-card")
        playwright_api.expect(picture).to_have_count(1)
        phone.wait_for_function("document.querySelector('[data-testid=seen-card]').naturalWidth > 0")
        assert picture.evaluate("node => node.naturalHeight") > 100
        phone.get_by_test_id("question").screenshot(path=str(tmp_path / "console-camera-card.png"))
