"""``table-assistant demo`` seen as a spectator sees it: Debian's Chromium, driven by
Playwright on a phone's screen, follows the demo game on the scoreboard from its first
turns to the winner. The screenshot goes to the test's folder."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
from test_demo import start_demo

CHROMIUM = "/usr/bin/chromium"
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                reason="needs Debian's chromium (apt-get install chromium)")
PHONE = {"width": 390, "height": 844}


def _wait_for_scoreboard(url: str, process: subprocess.Popen, patience: float) -> None:
    import httpx

    deadline = time.monotonic() + patience
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError(f"the demo never served its scoreboard at {url}")


def test_a_browser_follows_the_demo_game_to_its_winner(tmp_path: Path) -> None:
    process, port = start_demo(tmp_path)
    url = f"http://127.0.0.1:{port}/"
    turns: list[str] = []
    try:
        _wait_for_scoreboard(url, process, patience=60)
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
                page.goto(url)
                turn = page.get_by_test_id("turn")
                result = page.get_by_test_id("result")
                deadline = time.monotonic() + 240
                while time.monotonic() < deadline and not result.is_visible():
                    text = turn.inner_text()
                    if not turns or turns[-1] != text:
                        turns.append(text)
                        if text == "Turn 9 · Player A":  # Raboot is Paralyzed through this turn
                            page.screenshot(path=str(tmp_path / "demo-turn-9.png"), full_page=True)
                    page.wait_for_timeout(100)
                playwright_api.expect(result).to_have_text("Player A wins", timeout=1_000)
                playwright_api.expect(page.get_by_test_id("side-B").get_by_test_id("active")).to_have_count(0)
                # The last blow, as the scoreboard's log words it: Weakness doubled it.
                playwright_api.expect(page.get_by_test_id("log")).to_contain_text("200: 100, ×2 Weakness")
                page.screenshot(path=str(tmp_path / "demo-won.png"), full_page=True)
            finally:
                browser.close()
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "demo: the game is over: Player A wins" in out
    numbers = [int(text.split()[1]) for text in turns if text.startswith("Turn ")]
    assert len(set(numbers)) >= 3 and numbers == sorted(numbers), turns  # the turns advanced, in order
