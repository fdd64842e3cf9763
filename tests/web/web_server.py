"""The web tests' server: an app served by a real uvicorn on 127.0.0.1 (a free port, in a
thread of the test's process), and a reader of its Server-Sent Events."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import uvicorn
from fastapi import FastAPI

from assistant.live.table import LiveTable

TOKEN = "judge-token-for-tests"


@dataclass
class Served:
    """A table and the app over it, listening at ``url``."""

    url: str
    table: LiveTable
    app: FastAPI

    @property
    def console(self) -> dict[str, str]:
        """The headers of a console request."""
        return {"Authorization": f"Bearer {TOKEN}"}


def serve(app: FastAPI) -> Iterator[str]:
    """Run ``app`` until the generator is closed; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        app.state.broadcast.close()  # ends the open streams, so the server can stop
        server.should_exit = True
        thread.join(10)
        sock.close()


def read_events(lines: Iterator[str], count: int) -> list[tuple[int, dict]]:
    """The next ``count`` Server-Sent Events from a stream's lines, as (id, data)."""
    import json

    found: list[tuple[int, dict]] = []
    ident: int | None = None
    for line in lines:
        if line.startswith("id: "):
            ident = int(line[4:])
        elif line.startswith("data: "):
            assert ident is not None, "every message carries its record number"
            found.append((ident, json.loads(line[6:])))
            if len(found) == count:
                return found
    raise AssertionError(f"the stream ended after {len(found)} of {count} messages")
