"""``table-assistant serve`` and ``games`` as a judge runs them: a real server process on
127.0.0.1, commands over HTTP, Ctrl-C, and the game taken up again where it stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

Cli = Callable[..., subprocess.CompletedProcess[str]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``table-assistant serve`` in its own process; ``lines`` is what it printed first."""

    def __init__(self, home: Path, *args: str) -> None:
        self.port = free_port()
        env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "table_assistant", "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        while self.process.poll() is None and not (self.lines and self.lines[-1].startswith("console:")):
            self.lines.append(self.process.stdout.readline().strip())
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = self.lines[-1].rsplit("token=", 1)[-1] if self.lines else ""
        self.client = httpx.Client(base_url=self.url, timeout=10, headers={"Authorization": f"Bearer {self.token}"})
        for _ in range(100):  # the address is printed just before uvicorn listens
            try:
                self.client.get("/api/snapshot")
                break
            except httpx.TransportError:
                if self.process.poll() is not None:
                    break
                import time
                time.sleep(0.05)

    def act(self, action: dict) -> dict:
        answer = self.client.post("/api/console/actions", json={"action": action})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def stop(self) -> tuple[int, str]:
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=30)
        return self.process.returncode, err


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*args: str) -> Server:
        started.append(Server(tmp_path, *args))
        return started[-1]

    yield start
    for server in started:
        if server.process.poll() is None:
            server.process.kill()
            server.process.communicate()


SETUP = [{"type": "setup", "mulligans": {"A": 0, "B": 0}},
         {"type": "bench", "player": "A", "card": "Scorbunny"},
         {"type": "bench", "player": "B", "card": "Ralts"},
         {"type": "begin"}]


def test_serve_starts_a_console_game_that_ctrl_c_stops_and_serve_takes_up_again(
        servers: Callable[..., Server], cli: Cli) -> None:
    first = servers()
    assert first.lines[0].startswith("game 1 (mega-evolution-2025), entry 0")
    for action in SETUP:
        assert first.act(action)["accepted"], action
    refused = first.act({"type": "attach", "card": "Fire Energy", "target": "B.active"})
    assert refused["alert"]["reason"] and refused["alert"]["citation"].startswith("Mega Evolution rulebook")
    assert first.client.post("/api/console/actions", json={"action": "attack"}).status_code in (400, 422)
    assert first.stop()[0] == 0

    listed = cli("games")
    assert listed.returncode == 0
    assert "game 1 'game 1': mega-evolution-2025, match 1, 5 entries" in listed.stdout

    again = servers()
    assert again.lines[0].startswith("game 1 (mega-evolution-2025), entry 5")
    snapshot = again.client.get("/api/snapshot").json()
    assert snapshot["seq"] == 5
    assert again.stop()[0] == 0


def test_a_second_server_on_the_same_game_is_told_it_is_in_use(servers: Callable[..., Server]) -> None:
    first = servers()
    second = servers("--game", "1")
    code, err = second.stop()
    assert code == 2 and "in use by another process" in err
    assert first.stop()[0] == 0


def test_serve_names_a_game_that_is_not_stored(servers: Callable[..., Server]) -> None:
    code, err = servers("--game", "7").stop()
    assert code == 2 and "there is no game 7" in err


def test_games_on_a_new_home_and_on_a_damaged_record(cli: Cli, tmp_path: Path) -> None:
    empty = cli("games")
    assert empty.returncode == 0 and "no games stored yet" in empty.stdout
    (tmp_path / "games.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    damaged = cli("games")
    assert damaged.returncode == 2 and "damaged" in damaged.stderr and "Traceback" not in damaged.stderr


def test_serve_on_a_port_in_use_says_so(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "TABLE_ASSISTANT_HOME": str(tmp_path)}
        result = subprocess.run([sys.executable, "-m", "table_assistant", "serve", "--port", str(port)],
                                capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "scoreboard" not in result.stdout and not (tmp_path / "games.sqlite").exists()
